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
import gzip
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
    files = []
    for top, dirs, names in os.walk(tree):
        dirs.sort()
        rel = os.path.relpath(top, tree)
        files += [os.path.normpath(os.path.join(rel, n)) for n in dirs + sorted(names)]
    for name in files + ["."]:
        os.utime(os.path.join(tree, name), (0, 0), follow_symlinks=False)
    archive = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet", "--reproducible"],
                             cwd=tree, check=True, input="\n".join(files).encode(),
                             stdout=subprocess.PIPE).stdout
    initrd = os.path.join(OUT, "initrd.gz")
    with open(initrd, "wb") as f:
        f.write(gzip.compress(archive, compresslevel=1, mtime=0))
    return initrd


def boot(vmlinuz, initrd):
    """Boot once; return (console lines, path of the port's capture file)."""
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
        fail("Linux did not finish the workloads (status %s); see %s"
             % (status, os.path.relpath(log, ROOT)))
    return lines, port
