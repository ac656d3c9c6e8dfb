#!/usr/bin/env python3
"""tools/trace-linux/trace_linux.py - capture Linux's own allocation traces (make trace-linux).

Debian's 6.12 kernel (found, fetched and unpacked with tools/bench-linux/bench_linux.py's
functions) boots in QEMU with the kmem and vmalloc trace events on from its command line.
The initramfs's /init (tools/trace-linux/init) stops tracing at once (the "boot" window),
then runs each workload in a window of its own, and sends every window's binary per-CPU
ring-buffer pages and the events' format files to the host through a virtio serial port.
This script parses those pages (the layouts read from header_page, header_event and each
event's format file), merges the CPUs' events by timestamp, turns them into the
"kmem-replay 1" format, checks each workload's result, and writes
tests/traces/<window>.kmr.gz.  tools/trace-linux/kmem_replay.py then validates every trace
and prints its statistics.  docs/bench.md, section 7, explains the conversion rules.
"""

import argparse
import bisect
import gzip
import heapq
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench-linux"))
sys.path.insert(0, HERE)
import bench_linux  # noqa: E402  (find, fetch and unpack Debian's kernels)
import kmem_replay  # noqa: E402  (the format's reader, validator and statistics)
from qemu_runner import run_qemu  # noqa: E402

OUT = os.path.join(ROOT, "build", "trace-linux")
TRACES = os.path.join(ROOT, "tests", "traces")
SERIES = "6.12"
EVENTS = ("kmem:kmalloc,kmem:kmem_cache_alloc,kmem:kfree,kmem:kmem_cache_free,"
          "kmem:mm_page_alloc,kmem:mm_page_free,vmalloc:alloc_vmap_area,"
          "vmalloc:free_vmap_area_noflush")
# trace_clock=global: one clock for all CPUs, so that the per-CPU streams merge in order.
# trace_buf_size is per CPU; the boot window needs the most.
CMDLINE = ("console=ttyS0 panic=-1 nokaslr slab_nomerge trace_clock=global "
           "trace_buf_size=32M trace_event=" + EVENTS)
SMP = 8
QEMU_ARGS = ["-machine", "pc", "-m", "1G", "-smp", str(SMP)]
BOOT_TIMEOUT = 1200
# Under TCG, 6.12 sometimes (1 boot in 9 here) takes a fatal int3 in
# sched_clock_cpu() while the boot patches that function's static branch ("sched_clock:
# Marking stable"), which trace_clock=global calls for every event: boot again.
BOOTS = 3
WINDOWS = ["boot", "tmpfs", "archive", "pipe", "dirwalk", "forkexec", "net"]
PAGE = 4096


def fail(message):
    raise SystemExit("trace-linux: " + message)


def say(message):
    print("trace-linux: " + message, flush=True)


# ---------------------------------------------------------------- the guest

def make_initramfs(abi):
    """A gzipped newc cpio: static busybox, its links, our /init; fixed times and order."""
    tree = os.path.join(OUT, "initramfs")
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("bin", "dev", "proc", "sys", "tmp", "mnt"):
        os.makedirs(os.path.join(tree, d))
    shutil.copy("/bin/busybox", os.path.join(tree, "bin", "busybox"))
    applets = subprocess.run(["/bin/busybox", "--list"], check=True, stdout=subprocess.PIPE,
                             text=True).stdout.split()
    for cmd in applets:
        if cmd != "busybox" and "/" not in cmd:
            os.symlink("busybox", os.path.join(tree, "bin", cmd))
    shutil.copy(os.path.join(HERE, "init"), os.path.join(tree, "init"))
    return bench_linux.pack_initramfs(tree, os.path.join(OUT, "initrd.gz"))


def boot(vmlinuz, initrd, attempt):
    """Boot once; return (console lines, path of the port's capture file), or None when
    /init did not finish (the console log is then build/trace-linux/boot-ATTEMPT.log)."""
    port = os.path.join(OUT, "port.bin")
    if os.path.exists(port):
        os.remove(port)
    log = os.path.join(OUT, "boot.log")
    cmd = ["qemu-system-x86_64"] + QEMU_ARGS + [
        "-kernel", vmlinuz, "-initrd", initrd, "-append", CMDLINE,
        "-device", "virtio-serial-pci", "-chardev", "file,id=kmr,path=" + port,
        "-device", "virtserialport,chardev=kmr,name=kmemtrace",
        "-display", "none", "-serial", "stdio", "-monitor", "none", "-no-reboot"]
    status, lines = run_qemu(cmd, BOOT_TIMEOUT, log,
                             stop_when=lambda l: l.startswith("kmr: done"))
    if status is None or not any(l.startswith("kmr: done") for l in lines):
        failed = os.path.join(OUT, "boot-%d.log" % attempt)
        os.replace(log, failed)
        say("Linux did not finish the workloads (status %s); see %s"
            % (status, os.path.relpath(failed, ROOT)))
        return None
    return lines, port


# ---------------------------------------------------------------- the port's stream

def split_port(path):
    """The port's stream: ({file path: text}, {window: {cpu: bytes of its pages}})."""
    with open(path, "rb") as f:
        data = f.read()
    files, windows, ended = {}, {}, set()
    at, current = 0, None
    while at < len(data):
        page = data[at:at + PAGE]
        at += PAGE
        if page.startswith(b"KMRMARK "):
            words = page[:page.index(b"\n")].decode().split()[1:]
            if words[0] == "file":
                length = int(words[2])
                files[words[1]] = data[at:at + length].decode()
                at += -(-length // PAGE) * PAGE
                current = None
            elif words[0] == "window":
                current = windows.setdefault(words[1], {}).setdefault(int(words[3]), [])
            elif words[0] == "end":
                ended.add(words[1])
                current = None
            continue
        if current is None or len(page) != PAGE:
            fail("%s: a page outside a window at byte %d" % (path, at - PAGE))
        current.append(page)
    missing = [w for w in windows if w not in ended]
    if missing:
        fail("the dump of window %s did not end" % missing[0])
    return files, windows


FIELD = re.compile(r"field:\s*(.*?);\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d);")


def parse_fields(text):
    """{name: (offset, size, signed, declaration)} of a format file's field lines."""
    fields = {}
    for decl, offset, size, signed in FIELD.findall(text):
        name = re.sub(r"\[.*\]", "", decl).split()[-1]
        fields[name] = (int(offset), int(size), signed == "1", decl)
    return fields


class Layout:
    """The ring buffer's page and event-header layout, and each event's fields, all read
    from the format files the guest sent (header_page, header_event, events/*/*/format)."""

    def __init__(self, files):
        page = parse_fields(files["/sys/kernel/tracing/events/header_page"])
        self.ts_at, self.ts_size = page["timestamp"][:2]
        self.commit_at, self.commit_size = page["commit"][:2]
        self.data_at = page["data"][0]
        head = files["/sys/kernel/tracing/events/header_event"]

        def number(pattern):
            m = re.search(pattern, head)
            if not m:
                fail("header_event has no %r" % pattern)
            return int(m.group(1))
        self.type_bits = number(r"type_len\s*:\s*(\d+) bits")
        self.delta_bits = number(r"time_delta\s*:\s*(\d+) bits")
        self.padding = number(r"padding\s*:\s*type == (\d+)")
        self.extend = number(r"time_extend\s*:\s*type == (\d+)")
        self.stamp = number(r"time_stamp\s*:\s*type == (\d+)")
        self.data_max = number(r"data max type_len\s*== (\d+)")
        self.events = {}
        for path, text in files.items():
            m = re.search(r"^name: (\S+)\nID: (\d+)\n", text, re.M)
            if m and path.endswith("/format"):
                fields = parse_fields(text)
                self.events[int(m.group(2))] = (m.group(1), fields)
                self.type_at, self.type_size = fields["common_type"][:2]


def uint(buf, at, size):
    return int.from_bytes(buf[at:at + size], "little")


# The commit word's two flags (RB_MISSED_EVENTS, RB_MISSED_STORED): events were lost before
# this page; the length is what remains.
MISSED_EVENTS = 1 << 31
MISSED_STORED = 1 << 30


def page_events(layout, page, cpu, out):
    """Append (timestamp, cpu, raw event bytes) for each event of one ring-buffer page;
    return True when the page says events were lost before it."""
    ts = uint(page, layout.ts_at, layout.ts_size)
    commit = uint(page, layout.commit_at, layout.commit_size)
    missed = bool(commit & MISSED_EVENTS)
    end = layout.data_at + (commit & (MISSED_STORED - 1))
    at = layout.data_at
    type_mask = (1 << layout.type_bits) - 1
    while at + 4 <= end:
        word = uint(page, at, 4)
        kind, delta = word & type_mask, word >> layout.type_bits
        if kind == layout.padding:
            if delta == 0:          # the rest of the page is empty
                break
            at += 4 + uint(page, at + 4, 4)
        elif kind == layout.extend:
            ts += delta + (uint(page, at + 4, 4) << layout.delta_bits)
            at += 8
        elif kind == layout.stamp:  # an absolute stamp: its low 59 bits
            low = delta | (uint(page, at + 4, 4) << layout.delta_bits)
            ts = (ts & ~((1 << 59) - 1)) | low
            at += 8
        elif kind == 0:             # a long event: its length in the next word
            length = uint(page, at + 4, 4) - 4
            ts += delta
            out.append((ts, cpu, page[at + 8:at + 8 + length]))
            at += 8 + ((length + 3) & ~3)
        else:
            ts += delta
            out.append((ts, cpu, page[at + 4:at + 4 + kind * 4]))
            at += 4 + kind * 4
    return missed


def decode(layout, raw):
    """(event name, {field: value}) of one event's bytes (strings for __data_loc fields)."""
    name, fields = layout.events[uint(raw, layout.type_at, layout.type_size)]
    values = {}
    for field, (offset, size, signed, decl) in fields.items():
        if field.startswith("common_"):
            continue
        if decl.startswith("__data_loc"):
            loc = uint(raw, offset, 4)
            start, length = loc & 0xffff, loc >> 16
            values[field] = raw[start:start + length].split(b"\0")[0].decode(errors="replace")
        else:
            values[field] = int.from_bytes(raw[offset:offset + size], "little", signed=signed)
    return name, values


def window_events(layout, cpus):
    """The window's events of every CPU, merged by timestamp: [(cpu, name, fields)]."""
    merged, lost = [], 0
    for cpu, pages in sorted(cpus.items()):
        for page in pages:
            lost += page_events(layout, page, cpu, merged)
    merged.sort(key=lambda e: (e[0], e[1]))   # stable: each CPU's own order stays
    return [(cpu,) + decode(layout, raw) for _, cpu, raw in merged], lost


# ---------------------------------------------------------------- kmem-replay 1

# x86-64's direct map starts here under 4-level paging when nokaslr leaves it in place
# (Documentation/arch/x86/x86_64/mm.rst): an object's address minus this, over 4096, is
# the frame number of its page.
PAGE_OFFSET = 0xffff888000000000
# The largest size a kmalloc cache serves (SLUB's KMALLOC_MAX_CACHE_SIZE, two pages):
# a kmalloc beyond it takes pages of its own.
KMALLOC_MAX_CACHE = 8192
A_MAX, V_MAX = 4 << 20, 64 << 20


def pfn_of(ptr):
    return (ptr - PAGE_OFFSET) >> 12


class Names:
    """What kmem_cache_alloc does not say: the cache's name.  Learnt from kmem_cache_free,
    which names it: first from the free of the same object (in any window of the boot),
    then from the most frequent name freed for objects of the same call site and sizes;
    then the one cache of /sys/kernel/slab with those sizes, if only one has them; then the
    most frequent name freed for the same sizes; else "cache-<object_size>-<size>"."""

    def __init__(self, slabs):
        self.by_site, self.by_size = {}, {}
        self.sysfs = {}
        for line in slabs.splitlines():
            words = line.split()
            if len(words) == 3 and not words[0].startswith(":"):
                self.sysfs.setdefault((int(words[1]), int(words[2])), []).append(words[0])

    def learn(self, site, object_size, size, name):
        for table, key in ((self.by_site, (site, object_size, size)),
                           (self.by_size, (object_size, size))):
            counts = table.setdefault(key, {})
            counts[name] = counts.get(name, 0) + 1

    def guess(self, site, object_size, size):
        def most(counts):
            return max(sorted(counts), key=counts.get) if counts else None
        sysfs = self.sysfs.get((object_size, size), [])
        return (most(self.by_site.get((site, object_size, size)))
                or (sysfs[0] if len(sysfs) == 1 else None)
                or most(self.by_size.get((object_size, size)))
                or "cache-%d-%d" % (object_size, size))


class Symbols:
    """The kernel's text symbols (from the guest's /proc/kallsyms): which function holds an
    address."""

    def __init__(self, text):
        pairs = []
        for line in text.splitlines():
            words = line.split()
            if len(words) >= 3:
                pairs.append((int(words[0], 16), words[2]))
        pairs.sort()
        self.addrs = [a for a, _ in pairs]
        self.names = [n for _, n in pairs]

    def function(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else "?"


# The tracer's own allocations: the ring buffer grows to trace_buf_size during the boot
# window, a kzalloc of a struct buffer_page and then its page, for every page (6.12's
# kernel/trace/ring_buffer.c:__rb_allocate_pages).  They are tracing's, not the kernel's.
TRACER_FUNCTIONS = ("__rb_allocate_pages", "rb_allocate_cpu_buffer", "rb_allocate_pages")


def classify(events, names, symbols):
    """First pass over a window: what each mm_page_alloc's pages became, which events are
    the tracer's own, and the names of kmem_cache_alloc's caches.  Returns
    {event index: "slab" | "large" | "vmalloc" | "tracer"} for the page allocations that
    are not replayed as 'p' (and the tracer's kmallocs), and {event index: cache name} for
    the cache allocations whose own free was seen; NAMES learns from every free."""
    owner, kinds, objects, own_name = {}, {}, {}, {}
    budget = {}                   # per CPU: pages the last vmalloc may still take
    tracer = {}                   # per CPU: the tracer's buffer_page awaits its page
    for i, (cpu, name, f) in enumerate(events):
        if name == "kmalloc" and symbols.function(f["call_site"]) in TRACER_FUNCTIONS:
            kinds[i] = "tracer"
            tracer[cpu] = True
            continue
        if name == "mm_page_alloc" and tracer.pop(cpu, False):
            kinds[i] = "tracer"
            continue
        if name not in ("mm_page_alloc", "kmalloc"):
            # Only the area's page array (a kmalloc) comes between the area and its
            # pages: anything else on that CPU means the vmalloc is done.
            budget[cpu] = 0
        if name == "mm_page_alloc":
            if f["pfn"] == (1 << 64) - 1:
                continue
            rec = [i, f["pfn"], f["order"]]
            if budget.get(cpu, 0) > 0:
                kinds[i] = "vmalloc"
                budget[cpu] -= 1 << f["order"]
            for pfn in range(f["pfn"], f["pfn"] + (1 << f["order"])):
                owner[pfn] = rec
        elif name == "mm_page_free":
            rec = owner.get(f["pfn"])
            if rec and rec[1] == f["pfn"]:
                for pfn in range(rec[1], rec[1] + (1 << rec[2])):
                    if owner.get(pfn) is rec:
                        del owner[pfn]
        elif name in ("kmalloc", "kmem_cache_alloc") and f["ptr"] >= PAGE_OFFSET:
            rec = owner.get(pfn_of(f["ptr"]))
            if rec and kinds.get(rec[0]) in (None, "vmalloc"):
                large = name == "kmalloc" and f["bytes_alloc"] > KMALLOC_MAX_CACHE
                kinds[rec[0]] = "large" if large and rec[1] == pfn_of(f["ptr"]) else "slab"
            if name == "kmem_cache_alloc":
                objects[f["ptr"]] = (i, f["call_site"], f["bytes_req"], f["bytes_alloc"])
            else:
                objects.pop(f["ptr"], None)
        elif name == "kmem_cache_free":
            obj = objects.pop(f["ptr"], None)
            if obj:
                own_name[obj[0]] = f["name"]
                names.learn(obj[1], obj[2], obj[3], f["name"])
        elif name == "kfree":
            objects.pop(f["ptr"], None)
        elif name == "alloc_vmap_area" and not f["failed"]:
            # vmalloc takes the area first, then its pages: those the bulk allocator
            # hands out leave no event, the rest do, on the same CPU.
            budget[cpu] = max(f["size"] // PAGE - 1, 0)
    return kinds, own_name


class Writer:
    """The records of one window in kmem-replay 1, with ids as the lowest free slot."""

    def __init__(self):
        self.lines, self.free, self.next, self.live = [], [], 0, {}
        self.caches, self.peak = {}, 0
        self.counts, self.kind = {}, {}

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def alloc(self, key, record):
        if key in self.live:          # its free left no event: free it first
            self.count("implied_free")
            self.release(key, record[-1])
        if self.free:
            slot = heapq.heappop(self.free)
        else:
            slot, self.next = self.next, self.next + 1
        self.live[key] = slot
        self.peak = max(self.peak, len(self.live))
        self.lines.append("%s %d %s" % (record[0], slot, " ".join(str(r) for r in record[1:])))
        self.count(record[0])

    def release(self, key, cpu):
        slot = self.live.pop(key, None)
        if slot is None:
            self.count("free_unseen")
            return
        heapq.heappush(self.free, slot)
        self.lines.append("f %d %d" % (slot, cpu))
        self.count("f")

    def cache(self, name, object_size, size):
        key = (name, object_size, size)
        if key not in self.caches:
            self.caches[key] = len(self.caches)
            self.lines.append("C %d %d %d %s" % (self.caches[key], object_size, size,
                                                 re.sub(r"\s", "_", name) or "unnamed"))
        return self.caches[key]


def convert(events, kinds, own_name, names):
    """The window's events as kmem-replay 1 records (a Writer)."""
    w = Writer()
    skipped = set()               # page allocations not replayed as 'p'
    skipped_objects = set()       # the tracer's own kmallocs
    for i, (cpu, name, f) in enumerate(events):
        if name == "kmalloc" and kinds.get(i) == "tracer":
            w.count("tracer_kmalloc")
            skipped_objects.add(f["ptr"])
            continue
        if name == "kmalloc":
            ptr, size = f["ptr"], f["bytes_req"]
            if ptr < PAGE_OFFSET or size == 0 or size > A_MAX:
                w.count("kmalloc_skipped")
                continue
            # 6.12 traces a kmalloc beyond the caches twice, once in
            # __kmalloc_large_node_noprof and again in its caller.
            if (("o", ptr) in w.live and size > KMALLOC_MAX_CACHE
                    and w.kind.get(("o", ptr)) == ("a", size)):
                w.count("large_kmalloc_twice")
                continue
            w.alloc(("o", ptr), ("a", size, "%x" % f["gfp_flags"], cpu))
            w.kind[("o", ptr)] = ("a", size)
        elif name == "kmem_cache_alloc":
            if f["ptr"] < PAGE_OFFSET:
                w.count("kmem_cache_alloc_failed")
                continue
            osz, size = f["bytes_req"], f["bytes_alloc"]
            cname = own_name.get(i) or names.guess(f["call_site"], osz, size)
            cid = w.cache(cname, osz, size)
            w.alloc(("o", f["ptr"]), ("k", cid, "%x" % f["gfp_flags"], cpu))
            w.kind[("o", f["ptr"])] = ("k", cid)
        elif name in ("kfree", "kmem_cache_free"):
            if f["ptr"] < PAGE_OFFSET:
                continue
            if f["ptr"] in skipped_objects and ("o", f["ptr"]) not in w.live:
                skipped_objects.discard(f["ptr"])
                w.count("tracer_kfree")
                continue
            w.release(("o", f["ptr"]), cpu)
        elif name == "mm_page_alloc":
            if i in kinds:
                w.count("pages_" + kinds[i])
                skipped.add(f["pfn"])
                continue
            if f["order"] > 10:
                w.count("page_order_skipped")
                continue
            skipped.discard(f["pfn"])
            w.alloc(("p", f["pfn"]), ("p", f["order"], "%x" % f["gfp_flags"], cpu))
        elif name == "mm_page_free":
            if f["pfn"] in skipped:
                skipped.discard(f["pfn"])
                w.count("pages_free_not_replayed")
                continue
            w.release(("p", f["pfn"]), cpu)
        elif name == "alloc_vmap_area":
            if f["failed"]:
                continue
            size = f["size"] - PAGE if f["size"] > PAGE else f["size"]
            if size > V_MAX:
                w.count("vmalloc_skipped")
                continue
            w.alloc(("v", f["addr"]), ("v", size, cpu))
        elif name == "free_vmap_area_noflush":
            w.release(("v", f["va_start"]), cpu)
    return w


# ---------------------------------------------------------------- checks and output

def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def seq(first, last):
    return "".join("%d\n" % n for n in range(first, last + 1))


def expected_checks():
    """What each workload's check must print, computed here from what /init does."""
    tmpfs = "".join(seq(i, i + 300) for i in sorted(range(150), key=lambda i: "f%d" % i))
    d1 = sorted((i for i in range(60) if i % 2 == 0), key=lambda i: "f%d" % i)
    d2 = sorted((i for i in range(60) if i % 2 == 1), key=lambda i: "f%d" % i)
    archive = "".join(seq(i * 100, i * 100 + 2000) for i in d1 + d2)
    pipe = md5(seq(1, 30000).translate(str.maketrans("0123456789", "abcdefghij")))
    page = md5("k" * 65536)
    return {"tmpfs": lambda v: v == md5(tmpfs),
            "archive": lambda v: v == md5(archive),
            "pipe": lambda v: v.split() == [pipe] * 12,
            "dirwalk": lambda v: v.isdigit() and int(v) > 1000,
            "forkexec": lambda v: v == "100",
            "net": lambda v: v.split() == [page] * 16}


def console_facts(lines):
    """From /init's console lines: uname, command line, each window's commands, checks and
    losses; the commands are the lines from "kmr: cmd" to "kmr: check", kernel logs aside."""
    facts = {"cmds": {}, "checks": {}, "lost": {}, "entries": {}, "dump": {}}
    current = None
    for line in lines:
        if line.startswith("kmr: uname "):
            facts["uname"] = line[len("kmr: uname "):]
        elif line.startswith("kmr: cmdline "):
            facts["cmdline"] = line[len("kmr: cmdline "):]
        elif line.startswith("kmr: cmd "):
            current, _, first = line[len("kmr: cmd "):].partition(" ")
            facts["cmds"][current] = [first]
        elif line.startswith("kmr: check "):
            window, _, value = line[len("kmr: check "):].partition(" ")
            facts["checks"][window] = value.strip()
            current = None
        elif line.startswith("kmr: stats "):
            window, cpu = line.split()[2:4]
            got = dict(w.split("=", 1) for w in line.split()[4:])
            facts["entries"].setdefault(window, {})[int(cpu)] = int(got["entries"])
            if got["overrun"] != "0" or got["dropped"] != "0":
                facts["lost"].setdefault(window, []).append("cpu %s: %s" % (cpu, line))
        elif line.startswith("kmr: dump "):
            window, what, _, at = line.split()[2:6]
            facts["dump"].setdefault(window, {})[what] = float(at)
        elif current and not line.startswith("["):
            facts["cmds"][current].append(line)
    return facts


def trace_text(window, facts, events, w):
    counts = {}
    for _, name, _ in events:
        counts[name] = counts.get(name, 0) + 1
    head = ["#kmem-replay 1",
            "# Linux's own allocations, captured by make trace-linux (docs/bench.md, section 7)",
            "# kernel: %s" % facts["uname"],
            "# cmdline: %s" % facts["cmdline"],
            "# qemu: %s -smp %d, TCG" % (" ".join(QEMU_ARGS[:4]), SMP),
            "# window: %s" % window]
    if window == "boot":
        head.append("# commands: none (from the start of tracing to the first line of /init)")
    else:
        head += ["# commands: %s" % c for c in facts["cmds"][window]]
        head.append("# check: %s" % facts["checks"][window])
    head.append("# events: " + " ".join("%s=%d" % kv for kv in sorted(counts.items())))
    head.append("# converted: " + " ".join("%s=%d" % kv for kv in sorted(w.counts.items())))
    return "\n".join(head + ["S %d" % max(w.peak, 1)] + w.lines) + "\n"


def write_gz(path, text):
    """gzip -9 with no name and mtime 0: the same text, the same bytes."""
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw,
                           mtime=0) as f:
            f.write(text.encode())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", default="", help="kernel ABI (default: the newest 6.12)")
    ap.add_argument("--port", default="",
                    help="convert this capture of the port instead of booting (with --log)")
    ap.add_argument("--log", default="", help="the console log that goes with --port")
    a = ap.parse_args()
    start = time.monotonic()
    os.makedirs(OUT, exist_ok=True)
    if a.port:
        with open(a.log) as f:
            lines = [l.rstrip("\n") for l in f if not l.startswith("# ")]
        port = a.port
    else:
        bench_linux.install_tools()
        abi = a.kernel or bench_linux.newest_kernel(SERIES)
        image, needs = bench_linux.kernel_packages(abi)
        vmlinuz, _ = bench_linux.unpack(abi, image, needs)
        initrd = make_initramfs(abi)
        for attempt in range(1, BOOTS + 1):
            say("booting Linux %s with %d CPUs (attempt %d of %d)" % (abi, SMP, attempt, BOOTS))
            got = boot(vmlinuz, initrd, attempt)
            if got:
                break
        else:
            fail("no boot of %d finished" % BOOTS)
        lines, port = got
        say("booted and captured in %.0f s" % (time.monotonic() - start))
    facts = console_facts(lines)
    checks = expected_checks()
    for window in WINDOWS[1:]:
        if not checks[window](facts["checks"].get(window, "")):
            fail("the %s workload's check failed: %r" % (window, facts["checks"].get(window)))
    files, windows = split_port(port)
    layout = Layout(files)
    symbols = Symbols(files["/tmp/kallsyms"])
    names, events, classes = Names(files["/tmp/slabs"]), {}, {}
    for window in WINDOWS:
        if window not in windows:
            fail("the port has no window %s" % window)
        if window in facts["lost"]:
            fail("window %s lost events: %s" % (window, "; ".join(facts["lost"][window])))
        events[window], lost = window_events(layout, windows[window])
        if lost:
            fail("window %s: %d pages say events were lost" % (window, lost))
        # Every event the ring buffer held, parsed: the count per CPU is the buffer's own.
        per_cpu = {}
        for cpu, _, _ in events[window]:
            per_cpu[cpu] = per_cpu.get(cpu, 0) + 1
        for cpu, entries in facts["entries"][window].items():
            if per_cpu.get(cpu, 0) != entries:
                fail("window %s, cpu %d: %d events parsed, the buffer held %d"
                     % (window, cpu, per_cpu.get(cpu, 0), entries))
        dump = facts["dump"][window]
        say("window %s: %d events, sent in %.2f s" % (window, len(events[window]),
                                                      dump["ends"] - dump["starts"]))
        classes[window] = classify(events[window], names, symbols)
    os.makedirs(TRACES, exist_ok=True)
    paths = []
    for window in WINDOWS:
        w = convert(events[window], *classes[window], names)
        path = os.path.join(TRACES, window + ".kmr.gz")
        write_gz(path, trace_text(window, facts, events[window], w))
        paths.append(path)
        say("%s: %d events -> %d records, %d slots, %d bytes" % (
            os.path.relpath(path, ROOT), len(events[window]), len(w.lines), w.peak,
            os.path.getsize(path)))
    if kmem_replay.selftest():
        fail("kmem_replay.py's own refusals are wrong")
    if kmem_replay.main(["stats"] + [os.path.relpath(p) for p in paths]):
        fail("kmem_replay.py refused a trace")
    say("%.0f s in all" % (time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
