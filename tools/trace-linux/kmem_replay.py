#!/usr/bin/env python3
"""tools/trace-linux/kmem_replay.py - read, validate and summarise "kmem-replay 1" traces.

    python3 tools/trace-linux/kmem_replay.py check FILE...   refuse a malformed trace
    python3 tools/trace-linux/kmem_replay.py stats FILE...   what each trace holds
    python3 tools/trace-linux/kmem_replay.py selftest        the refusals, on small texts

A FILE is the text or its gzip (.gz).  The format and its refusals are those of
docs/bench.md, section 7 (the same rules both kernels' replayers apply): a malformed file
is refused whole, with "FILE:LINE: reason" and exit status 1; nothing is half-read.
Numbers are unsigned decimal that fit in 64 bits, except gfp: hexadecimal (with or without
0x) that fits in 32 bits, as gfp_t does.
"""

import gzip
import sys

MAGIC = "#kmem-replay 1"
FIELDS = {"S": 1, "C": 4, "a": 4, "k": 4, "p": 4, "v": 3, "f": 2}
S_MAX = 1 << 24
C_SIZE_MAX = 8 << 20
A_SIZE_MAX = 4 << 20
V_SIZE_MAX = 64 << 20
ORDER_MAX = 10
CPU_MAX = 4095


class FormatError(Exception):
    def __init__(self, line, reason):
        super().__init__(reason)
        self.line, self.reason = line, reason


def number(text, what, n):
    if not text.isascii() or not text.isdigit():
        raise FormatError(n, "%s %r is not a decimal number" % (what, text))
    value = int(text)
    if value >= 1 << 64:
        raise FormatError(n, "%s %s overflows 64 bits" % (what, text))
    return value


def gfp(text, n):
    digits = text[2:] if text[:2] in ("0x", "0X") else text
    if not digits or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise FormatError(n, "gfp %r is not a hexadecimal number" % text)
    value = int(digits, 16)
    if value >= 1 << 32:
        raise FormatError(n, "gfp %s overflows 32 bits" % text)
    return value


def records(lines):
    """Validate the lines of a trace; yield (line number, kind, fields) of each S, C, a, k,
    p, v, f record, the numbers parsed.  Raises FormatError at the first refusal."""
    slots, live, caches = None, set(), {}
    n = 0
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if n == 1:
            if line != MAGIC:
                raise FormatError(n, "the first line is not %r" % MAGIC)
            continue
        if line.startswith("#"):
            continue
        words = line.split()
        kind = words[0] if words else ""
        if kind not in FIELDS:
            raise FormatError(n, "unknown record %r" % kind)
        if len(words) - 1 != FIELDS[kind]:
            raise FormatError(n, "%s takes %d fields, not %d" % (kind, FIELDS[kind],
                                                                 len(words) - 1))
        if kind == "S":
            if slots is not None:
                raise FormatError(n, "S twice")
            slots = number(words[1], "S", n)
            if slots == 0 or slots > S_MAX:
                raise FormatError(n, "S %d is not in 1..%d" % (slots, S_MAX))
            yield n, kind, (slots,)
            continue
        if kind == "C":
            cid = number(words[1], "cid", n)
            object_size = number(words[2], "object_size", n)
            size = number(words[3], "size", n)
            if cid in caches:
                raise FormatError(n, "cache %d declared twice" % cid)
            if object_size == 0 or object_size > size:
                raise FormatError(n, "object_size %d is 0 or more than size %d"
                                  % (object_size, size))
            if size > C_SIZE_MAX:
                raise FormatError(n, "cache size %d is more than %d" % (size, C_SIZE_MAX))
            if not words[4]:
                raise FormatError(n, "empty cache name")
            caches[cid] = (object_size, size, words[4])
            yield n, kind, (cid, object_size, size, words[4])
            continue
        if slots is None:
            raise FormatError(n, "an event before S")
        ident = number(words[1], "id", n)
        cpu = number(words[-1], "cpu", n)
        if kind == "a":
            fields = (ident, number(words[2], "size", n), gfp(words[3], n), cpu)
        elif kind == "k":
            fields = (ident, number(words[2], "cid", n), gfp(words[3], n), cpu)
        elif kind == "p":
            fields = (ident, number(words[2], "order", n), gfp(words[3], n), cpu)
        elif kind == "v":
            fields = (ident, number(words[2], "size", n), cpu)
        else:
            fields = (ident, cpu)
        if ident >= slots:
            raise FormatError(n, "id %d is not below S %d" % (ident, slots))
        if kind == "f":
            if ident not in live:
                raise FormatError(n, "id %d is not live" % ident)
            live.discard(ident)
        else:
            if ident in live:
                raise FormatError(n, "id %d is already live" % ident)
            if kind == "k" and fields[1] not in caches:
                raise FormatError(n, "cache %d is not declared" % fields[1])
            if kind == "p" and fields[1] > ORDER_MAX:
                raise FormatError(n, "order %d is more than %d" % (fields[1], ORDER_MAX))
            if kind == "a" and not 0 < fields[1] <= A_SIZE_MAX:
                raise FormatError(n, "kmalloc size %d is not in 1..%d" % (fields[1],
                                                                         A_SIZE_MAX))
            if kind == "v" and not 0 < fields[1] <= V_SIZE_MAX:
                raise FormatError(n, "vmalloc size %d is not in 1..%d" % (fields[1],
                                                                         V_SIZE_MAX))
            live.add(ident)
        if cpu > CPU_MAX:
            raise FormatError(n, "cpu %d is more than %d" % (cpu, CPU_MAX))
        yield n, kind, fields
    if n == 0:      # an empty file: refused on its first line, as both replayers do
        raise FormatError(1, "the first line is not %r (the file is empty)" % MAGIC)


def open_trace(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", newline="\n")
    return open(path, encoding="utf-8", newline="\n")


def read(path):
    """All of PATH's records, [(line, kind, fields)], or FormatError."""
    with open_trace(path) as f:
        return list(records(f))


def validate(path):
    """None when PATH is a valid trace, else the message "PATH:LINE: reason"."""
    try:
        read(path)
    except FormatError as e:
        return "%s:%d: %s" % (path, e.line, e.reason)
    except (OSError, UnicodeDecodeError, EOFError) as e:
        return "%s:0: %s" % (path, e)
    return None


# ---------------------------------------------------------------- stats

def percentile(sorted_values, fraction):
    if not sorted_values:
        return 0
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def stats(path):
    """The summary lines of one valid trace."""
    recs = read(path)
    caches, ops, hist, cpus = {}, {}, {}, {}
    live, born, lifetimes = {}, {}, []
    cache_use = {}
    live_bytes = peak_bytes = peak_objects = op = 0
    for _, kind, fields in recs:
        if kind == "S":
            slots = fields[0]
            continue
        if kind == "C":
            caches[fields[0]] = fields[1:]
            continue
        op += 1
        ops[kind] = ops.get(kind, 0) + 1
        cpus[fields[-1]] = cpus.get(fields[-1], 0) + 1
        ident = fields[0]
        if kind == "f":
            live_bytes -= live.pop(ident)
            lifetimes.append(op - born.pop(ident))
            continue
        if kind == "a" or kind == "v":
            size = fields[1]
        elif kind == "k":
            size = caches[fields[1]][0]
            cache_use[fields[1]] = cache_use.get(fields[1], 0) + 1
        else:
            size = 4096 << fields[1]
        bucket = max(size - 1, 1).bit_length()
        hist[bucket] = hist.get(bucket, 0) + 1
        live[ident], born[ident] = size, op
        live_bytes += size
        peak_bytes = max(peak_bytes, live_bytes)
        peak_objects = max(peak_objects, len(live))
    allocs = op - ops.get("f", 0)
    lifetimes.sort()
    out = ["%s: %d ops (%s), S %d" % (path, op, " ".join(
        "%s %d" % (k, ops.get(k, 0)) for k in "akpvf"), slots)]
    out.append("  peak live: %d objects, %d bytes (%.1f KiB)" % (
        peak_objects, peak_bytes, peak_bytes / 1024))
    out.append("  lifetime (ops from alloc to free): median %d, p90 %d; never freed in the "
               "window: %d of %d (%.1f%%)" % (
                   percentile(lifetimes, 0.5), percentile(lifetimes, 0.9), len(live), allocs,
                   100.0 * len(live) / max(allocs, 1)))
    out.append("  sizes (requested bytes, up to): " + ", ".join(
        "%s %d" % (human(1 << b), hist[b]) for b in sorted(hist)))
    out.append("  cpus: " + ", ".join("%d: %d" % (c, cpus[c]) for c in sorted(cpus)))
    out.append("  caches (%d; cid name object_size/size allocs): %s" % (len(caches), ", ".join(
        "%d %s %d/%d %d" % (cid, caches[cid][2], caches[cid][0], caches[cid][1],
                            cache_use.get(cid, 0)) for cid in sorted(caches))))
    return out


def human(n):
    for unit, shift in (("M", 20), ("K", 10)):
        if n >= 1 << shift:
            return "%d%s" % (n >> shift, unit)
    return str(n)


# ---------------------------------------------------------------- selftest

SELFTEST = [
    ("", "first line"),
    ("S 1\n", "first line"),
    ("#kmem-replay 1\na 0 8 0 0\n", "an event before S"),
    ("#kmem-replay 1\nS 1\nS 1\n", "S twice"),
    ("#kmem-replay 1\nS 0\n", "S 0 is not"),
    ("#kmem-replay 1\nS 16777217\n", "S 16777217 is not"),
    ("#kmem-replay 1\nS 1\nx 0\n", "unknown record"),
    ("#kmem-replay 1\nS 1\na 0 8 0\n", "takes 4 fields"),
    ("#kmem-replay 1\nS 1\na 0 8x 0 0\n", "not a decimal"),
    ("#kmem-replay 1\nS 1\na 0 8 0 18446744073709551616\n", "overflows"),
    ("#kmem-replay 1\nS 1\na 0 8 g 0\n", "not a hexadecimal"),
    ("#kmem-replay 1\nS 1\nC 0 8 8 a\nC 0 8 8 b\n", "declared twice"),
    ("#kmem-replay 1\nS 1\nC 0 0 8 a\n", "object_size 0"),
    ("#kmem-replay 1\nS 1\nC 0 16 8 a\n", "object_size 16"),
    ("#kmem-replay 1\nS 1\nC 0 8 8388609 a\n", "cache size"),
    ("#kmem-replay 1\nS 1\na 1 8 0 0\n", "not below S"),
    ("#kmem-replay 1\nS 1\na 0 8 0 0\na 0 8 0 0\n", "already live"),
    ("#kmem-replay 1\nS 1\nk 0 3 0 0\n", "not declared"),
    ("#kmem-replay 1\nS 1\np 0 11 0 0\n", "order 11"),
    ("#kmem-replay 1\nS 1\na 0 0 0 0\n", "kmalloc size 0"),
    ("#kmem-replay 1\nS 1\na 0 4194305 0 0\n", "kmalloc size 4194305"),
    ("#kmem-replay 1\nS 1\nv 0 0 0\n", "vmalloc size 0"),
    ("#kmem-replay 1\nS 1\nv 0 67108865 0\n", "vmalloc size 67108865"),
    ("#kmem-replay 1\nS 1\nf 1 0\n", "not below S"),
    ("#kmem-replay 1\nS 1\nf 0 0\n", "not live"),
    ("#kmem-replay 1\nS 1\na 0 8 0 4096\n", "cpu 4096"),
    ("#kmem-replay 1\n# c\nS 2\nC 0 8 16 c\nk 0 0 0xc00 3\nf 0 1\np 1 10 cc0 4095\n"
     "v 0 67108864 0\nf 1 0\n", None),
]


def selftest():
    failed = 0
    for text, want in SELFTEST:
        try:
            list(records(text.splitlines(True)))
            got = None
        except FormatError as e:
            got = "%d: %s" % (e.line, e.reason)
        if (want is None) != (got is None) or (want and want not in got):
            print("kmem_replay selftest: %r gave %r, wanted %r" % (text, got, want))
            failed += 1
    # "N passed, M failed": tests/host/run.sh adds it to make test-host's total
    print("kmem_replay selftest: %d passed, %d failed" % (len(SELFTEST) - failed, failed))
    return 1 if failed else 0


def main(argv):
    if argv[:1] == ["selftest"]:
        return selftest()
    if len(argv) < 2 or argv[0] not in ("check", "stats"):
        sys.stderr.write(__doc__)
        return 2
    status = 0
    for path in argv[1:]:
        problem = validate(path)
        if problem:
            print(problem, file=sys.stderr)
            status = 1
        elif argv[0] == "stats":
            print("\n".join(stats(path)), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
