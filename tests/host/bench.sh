#!/bin/sh
# tests/host/bench.sh BENCH - instructions per alloc+free pair of an
# allocator's paths, counted by callgrind: BENCH is tests/host/bench_buddy.c
# or bench_vmap_area.c, built; it names its scenarios (--list), its title
# (--title), and runs one (SCENARIO N) or all natively (--native).
#
# Each scenario runs twice under callgrind, with N and 2N pairs, counting
# only inside measured_loop(); (Ir(2N) - Ir(N)) / N is the exact number of
# instructions of one pair, whatever the set-up and the loop's entry cost.
# Then the same scenarios run natively for a rough time per pair.
set -e
bench=$1
N=${BENCH_N:-2000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if ! command -v valgrind >/dev/null 2>&1; then
	echo "bench-host: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
fi

ir() {	# ir SCENARIO COUNT -> instructions counted in measured_loop
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1.$2" \
		--collect-atstart=no --toggle-collect=measured_loop \
		"$bench" "$1" "$2" >/dev/null 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out/cg.$1.$2"
}

"$bench" --native > "$out/native"
"$bench" --title
printf '%-14s %12s %10s   %s\n' scenario "instr/pair" "ns/pair" "what"
"$bench" --list | while IFS='	' read -r name what; do
	a=$(ir "$name" "$N")
	b=$(ir "$name" $((2 * N)))
	ns=$(sed -n "s/^$name	//p" "$out/native")
	printf '%-14s %12s %10s   %s\n' "$name" "$(( (b - a) / N ))" "$ns" "$what"
done
echo "(instr/pair: callgrind, exact and repeatable; ns/pair: native, this machine, noisy)"
