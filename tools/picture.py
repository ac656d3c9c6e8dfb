#!/usr/bin/env python3
"""tools/picture.py - the docs' pictures of memory: `make picture`.

Boots the kernel on a 256 MiB 2-CPU pc, types a scenario at the monitor
through the serial port and, after each step, saves the screen (the map of
mm/memmap_screen.c) with QEMU's `screendump` as build/pictures/NAME.png, then
copies them to docs/pictures/.  A step is a monitor command and the picture
is taken at its prompt; the kvdemo steps are taken while kvdemo runs, when
a line of its output says a state is built: the machine is paused (QEMU's
`stop`), so the picture is the map's last live redraw (at most a quarter
of a second old, mm/memmap_screen.c), then resumed.

    tools/picture.py --kernel build/kernel.elf [--out build/pictures] [--docs docs/pictures]
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import qemu_runner  # noqa: E402
import screen_check  # noqa: E402

# (picture, commands ("a; b": one after the other), the output line to take it at;
# None: at the last command's prompt)
SCENARIO = [
    ("fresh", "", None),
    ("frag", "frag 512", None),
    ("kvdemo-fragmented", "kvdemo unmovable", "2. kvmalloc(32 KiB"),
    ("kvdemo-after-runs", None, "   noretry (Linux"),
    ("balloon-frag", "balloon inflate 16384; balloon frag", None),
    ("balloon-compacted", "compact_memory", None),
]


def take(screen, scratch, out, name):
    ppm = os.path.join(scratch, name + ".ppm")
    w, h, rgb = screen.screendump(ppm)
    png = os.path.join(out, name + ".png")
    screen_check.write_png(png, w, h, rgb)
    print("picture: %s (%dx%d)" % (os.path.relpath(png, ROOT), w, h), flush=True)


def paused_take(screen, scratch, out, name, marker):
    screen.read_until(r"\n" + marker.replace("(", r"\(").replace(".", r"\."), 600)
    time.sleep(0.3)
    screen.qemu.sendall(b"stop\n")
    screen._qemu_reply()
    take(screen, scratch, out, name)
    screen.qemu.sendall(b"cont\n")
    screen._qemu_reply()


def run(kernel, out, docs):
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kmem-picture-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        qemu_runner.make_iso(kernel, "", iso)
        screen = screen_check.Screen(qemu_runner.qemu_command, iso, screen_check.MACHINE,
                                     scratch, os.path.join(out, "picture.log"))
        try:
            for name, command, marker in SCENARIO:
                if command and marker:
                    screen.type(command + "\n")
                elif command:
                    for c in command.split("; "):
                        screen.command(c, timeout=600)
                if marker:
                    paused_take(screen, scratch, out, name, marker)
                else:
                    take(screen, scratch, out, name)
                if name == "kvdemo-after-runs":
                    screen.read_until_prompt(600)
        finally:
            screen.close()
    if docs:
        os.makedirs(docs, exist_ok=True)
        for name, _, _ in SCENARIO:
            shutil.copy(os.path.join(out, name + ".png"), docs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernel", required=True)
    p.add_argument("--out", default=os.path.join(ROOT, "build", "pictures"))
    p.add_argument("--docs", default=os.path.join(ROOT, "docs", "pictures"))
    a = p.parse_args()
    start = time.monotonic()
    run(a.kernel, a.out, a.docs)
    print("picture: %d pictures in %.0f s" % (len(SCENARIO), time.monotonic() - start))


main()
