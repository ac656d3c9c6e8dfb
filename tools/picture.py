#!/usr/bin/env python3
"""tools/picture.py - the docs' pictures of memory: `make picture`.

Boots the kernel on a 256 MiB 2-CPU pc, types a scenario at the monitor
through the serial port and, after each step, saves the screen (the map of
mm/memmap_screen.c) with QEMU's `screendump` as build/pictures/NAME.png, then
copies them to docs/pictures/.  A step is a monitor command and the picture
is taken at its prompt; the kvdemo pictures are taken while `kvdemo
unmovable step` waits at each state of its story (it redraws the map, says
where it stopped and waits for Enter).

    tools/picture.py --kernel build/kernel.elf [--out build/pictures] [--docs docs/pictures]
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import qemu_runner  # noqa: E402
import screen_check  # noqa: E402

# (picture, commands ("a; b": one after the other), the line to take it at).
# No picture: the commands only.  No line: at the last command's prompt.  A
# line: `kvdemo ... step` stopped at a state of its story and redrew the
# screen; the picture is taken and Enter sent to go on.
SCENARIO = [
    ("fresh", None, None),
    ("frag", "frag 512", None),
    (None, "free all", None),
    # before kvdemo, whose unmovable pages leave every pageblock unmovable
    ("balloon-frag", "balloon inflate 16384; balloon frag", None),
    ("balloon-compacted", "compact_memory", None),
    (None, "balloon deflate 8192", None),
    ("kvdemo-hard-state", "kvdemo unmovable step", "kvdemo: stopped at the hard state"),
    ("kvdemo-after-kvmalloc", None, "kvdemo: stopped at the state after kvmalloc"),
    ("kvdemo-after-naive", None, "kvdemo: stopped at the state after the naive run"),
]
PICTURES = [name for name, _, _ in SCENARIO if name]


def take(screen, scratch, out, name):
    ppm = os.path.join(scratch, name + ".ppm")
    w, h, rgb = screen.screendump(ppm)
    png = os.path.join(out, name + ".png")
    screen_check.write_png(png, w, h, rgb)
    print("picture: %s (%dx%d)" % (os.path.relpath(png, ROOT), w, h), flush=True)


def step(screen, scratch, out, name, command, line):
    """One entry of SCENARIO."""
    if line:
        if command:
            screen.type(command + "\n")
        screen.read_until(re.escape(line), 600)
        take(screen, scratch, out, name)
        screen.type("\n")
        return
    for c in command.split("; ") if command else []:
        screen.command(c, timeout=600)
    if name:
        take(screen, scratch, out, name)


def run(kernel, out, docs):
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kmem-picture-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        qemu_runner.make_iso(kernel, "", iso)
        screen = screen_check.Screen(qemu_runner.qemu_command, iso, screen_check.MACHINE,
                                     scratch, os.path.join(out, "picture.log"))
        try:
            for k, (name, command, line) in enumerate(SCENARIO):
                step(screen, scratch, out, name, command, line)
                if line and not (k + 1 < len(SCENARIO) and SCENARIO[k + 1][2]):
                    screen.read_until_prompt(600)   # the story's end
        finally:
            screen.close()
    if docs:
        os.makedirs(docs, exist_ok=True)
        for name in PICTURES:
            shutil.copy(os.path.join(out, name + ".png"), docs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernel", required=True)
    p.add_argument("--out", default=os.path.join(ROOT, "build", "pictures"))
    p.add_argument("--docs", default=os.path.join(ROOT, "docs", "pictures"))
    a = p.parse_args()
    start = time.monotonic()
    run(a.kernel, a.out, a.docs)
    print("picture: %d pictures in %.0f s" % (len(PICTURES), time.monotonic() - start))


main()
