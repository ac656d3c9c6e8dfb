#!/bin/sh
# tests/host/bench_peers.sh BENCH... - the same traces through several
# allocators, side by side.  Each BENCH is a build of
# tests/host/bench_kmalloc.c (one program per allocator, --title is its
# name); they all have the same scenarios (--list).
#
# For every scenario and allocator, as tests/host/bench.sh does:
# instructions per operation counted by callgrind inside measured_loop()
# with N and 2N operations, (Ir(2N) - Ir(N)) / N, exact and repeatable; and
# nanoseconds per operation natively, the best of 5 runs (this machine,
# other programs running: the best run is the least disturbed).  Each
# figure is followed by its ratio to the best of its row.
set -e
N=${BENCH_N:-10000}
RUNS=5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if ! command -v valgrind >/dev/null 2>&1; then
	echo "bench-host: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
fi

ir() {	# ir BENCH SCENARIO COUNT -> instructions counted in measured_loop
	valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
		--collect-atstart=no --toggle-collect=measured_loop \
		"$1" "$2" "$3" >/dev/null 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out/cg"
}

: > "$out/data"		# scenario <TAB> allocator <TAB> instr/op <TAB> ns/op
for b in "$@"; do
	name=$("$b" --title)
	r=0
	while [ $r -lt $RUNS ]; do
		"$b" --native >> "$out/native.$name"
		r=$((r + 1))
	done
	"$b" --list | while IFS='	' read -r scenario what; do
		a=$(ir "$b" "$scenario" "$N")
		c=$(ir "$b" "$scenario" $((2 * N)))
		ns=$(awk -F'\t' -v s="$scenario" '
			$1 == s && (best == "" || $2 < best) { best = $2 }
			END { print best }' "$out/native.$name")
		printf '%s\t%s\t%s\t%s\n' "$scenario" "$name" "$(( (c - a) / N ))" "$ns" \
			>> "$out/data"
	done
done

"$1" --list > "$out/list"
awk -F'\t' -v list="$out/list" '
	{
		v[$1, $2, 3] = $3
		v[$1, $2, 4] = $4
		if (!($2 in seen)) {
			seen[$2] = 1
			names[++n] = $2
		}
	}
	function table(col, title, fmt,    s, k, best, line, cell) {
		print title
		line = sprintf("%-12s", "")
		for (k = 1; k <= n; k++)
			line = line sprintf(" %16s", names[k])
		print line
		while ((getline row < list) > 0) {
			split(row, f, "\t")
			s = f[1]
			best = ""
			for (k = 1; k <= n; k++)
				if (best == "" || v[s, names[k], col] + 0 < best)
					best = v[s, names[k], col] + 0
			line = sprintf("%-12s", s)
			for (k = 1; k <= n; k++) {
				cell = sprintf(fmt " (%.2f)", v[s, names[k], col],
					       best ? v[s, names[k], col] / best : 1)
				line = line sprintf(" %16s", cell)
			}
			print line
		}
		close(list)
	}
	END {
		print "kmalloc()+kfree() of the slab (host build, gcc -O2, CONFIG_DEBUG_VM=0,"
		print "CONFIG_SLUB_DEBUG=0, one CPU) beside malloc()+free() of other allocators,"
		print "each its own program, on the same traces; (x.xx): the ratio to the best"
		print "of the row"
		print ""
		table(3, "instructions per operation (callgrind: exact, repeatable)", "%d")
		print ""
		table(4, "ns per operation (native, best of 5 runs; this machine, noisy)", "%.1f")
		print ""
		while ((getline row < list) > 0) {
			split(row, f, "\t")
			printf "%-12s %s\n", f[1], f[2]
		}
	}' "$out/data"
