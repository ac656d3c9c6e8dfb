"""tests/screen_check.py - look at the screen map (mm/memmap_screen.c) through QEMU's screendump.

A Screen is a kernel booted to its monitor prompt (tests/monitor_check.py's
Monitor: our pipe is its serial port) with QEMU's human monitor on a Unix
socket, where `screendump FILE` writes the display as a PPM (QEMU's
documentation: https://www.qemu.org/docs/master/system/monitor.html).
tools/picture.py makes the docs' PNGs with it; `make test` (qemu_runner.py's
monitor checks) runs check_screen():

  colours     on a 256 MiB 2-CPU pc, the cells of known frames have their
              state's colour on the screen: the kernel image, a block held with
              `alloc`, a slab page, a vmalloc page and the VGA hole (pfn 0xa0).
              The monitor's `screen PFN` says where the cell is and which state
              and colour the kernel meant; the check compares the pixel with the
              colour mm/page_snapshot.c gives that state.
  no screen   on -machine microvm and on pc with -vga none the kernel boots and
              says the map is off.

Each counts as one test in `make test`'s total.
"""

import os
import re
import socket
import struct
import tempfile
import time
import zlib

import monitor_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MACHINE = ["-machine", "pc", "-m", "256M", "-smp", "2"]


class Screen(monitor_check.Monitor):
    """A kernel at its prompt whose display can be dumped (qemu_runner.qemu_command makes the command)."""

    def __init__(self, qemu_command, iso, qemu_args, scratch, log_path):
        self.sock_path = os.path.join(scratch, "qemu-monitor.sock")
        args = qemu_args + ["-serial", "stdio", "-monitor",
                            "unix:%s,server=on,wait=off" % self.sock_path]
        super().__init__(qemu_command(iso, args, False, scratch), log_path)
        self.qemu = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.qemu.connect(self.sock_path)
        self.qemu.settimeout(30)
        self._qemu_reply()

    def _qemu_reply(self):
        data = b""
        while not data.endswith(b"(qemu) "):
            chunk = self.qemu.recv(4096)
            if not chunk:
                raise monitor_check.MonitorGone("QEMU's monitor closed")
            data += chunk
        return data.decode("latin-1")

    def screendump(self, path):
        """The display now, as (width, height, rows of bytes RGB)."""
        self.qemu.sendall(b"screendump %s\n" % path.encode())
        self._qemu_reply()
        return read_ppm(path)

    def close(self):
        self.qemu.close()
        super().close()


def read_ppm(path):
    """A binary PPM (P6, maxval 255): (width, height, pixel bytes)."""
    data = open(path, "rb").read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not m or m.group(3) != b"255":
        raise ValueError("%s: not a P6 PPM of maxval 255" % path)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():m.end() + w * h * 3]


def write_png(path, width, height, rgb):
    """RGB bytes as a PNG: signature, IHDR, one IDAT (filter 0 a line), IEND."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))
    lines = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(lines, 9)))
        f.write(chunk(b"IEND", b""))


def state_colours():
    """mm/page_snapshot.c's page_state_style[]: {state name: 0xRRGGBB}."""
    src = open(os.path.join(ROOT, "mm", "page_snapshot.c")).read()
    return {name: int(rgb, 16) for name, rgb in
            re.findall(r'\{\s*"([^"]+)"\s*,\s*0x([0-9a-fA-F]{6})', src)}


CELL = re.compile(r"screen: pfn (0x[0-9a-f]+|0): cell at x (\d+) y (\d+), (\d+) px, "
                  r"colour #([0-9a-f]{6}): (.+)")


def check_cell(screen, dump, where, want_state, colours):
    """A problem with the cell `screen WHERE` names (a pfn, or "va ADDR"), or None."""
    reply = "\n".join(screen.command("screen " + where))
    m = CELL.search(reply)
    if not m:
        return "screen %s: unexpected reply %r" % (where, reply)
    x, y, px, rgb, state = int(m.group(2)), int(m.group(3)), int(m.group(4)), \
        int(m.group(5), 16), m.group(6).strip()
    what = "screen %s (pfn %s)" % (where, m.group(1))
    if state != want_state:
        return "%s is %s, expected %s" % (what, state, want_state)
    if want_state != "free" and colours.get(state) != rgb:
        return "%s: the kernel draws %s in #%06x, mm/page_snapshot.c says #%06x" % (
            what, state, rgb, colours.get(state, 0))
    w, _, pixels = dump
    for dy in range(px):
        for dx in range(px):
            i = ((y + dy) * w + x + dx) * 3
            got = int.from_bytes(pixels[i:i + 3], "big")
            if got != rgb:
                return "%s (%s): pixel (%d, %d) is #%06x, not #%06x" % (
                    what, state, x + dx, y + dy, got, rgb)
    return None


def known_frames(screen):
    """(`screen` argument, state) of the frames the colours check looks at."""
    frames = [("100", "kernel image"), ("a0", "hole")]
    m = re.search(r"pfn 0x([0-9a-f]+)", "\n".join(screen.command("alloc 0")))
    frames.append((m.group(1), "allocated"))
    m = re.search(r" at ([0-9a-f]{16})", "\n".join(screen.command("vmalloc 16384")))
    frames.append(("va " + m.group(1), "vmalloc"))
    m = re.search(r" at ([0-9a-f]{16})", "\n".join(screen.command("kmalloc 64")))
    frames.append(("va " + m.group(1), "slab"))
    return frames


def check_colours(qemu_command, iso, scratch, log_dir, say):
    screen = Screen(qemu_command, iso, MACHINE, scratch, os.path.join(log_dir, "screen-colours.log"))
    passed = failed = 0
    try:
        colours = state_colours()
        frames = known_frames(screen)
        screen.command("screen")
        dump = screen.screendump(os.path.join(scratch, "screen.ppm"))
        for where, state in frames:
            problem = check_cell(screen, dump, where, state, colours)
            if problem:
                say("FAIL screen colours: " + problem)
                failed += 1
            else:
                passed += 1
    except (monitor_check.MonitorGone, AttributeError, OSError) as e:
        say("FAIL screen colours: %s" % e)
        failed += 1
    finally:
        screen.close()
    return passed, failed


def check_no_screen(qemu_command, iso, qemu_args, scratch, log_path, say):
    mon = monitor_check.Monitor(qemu_command(iso, qemu_args, False, scratch), log_path)
    try:
        if re.search(r"memmap: no framebuffer \(.*\): the screen map is off", mon.boot_log):
            return 1, 0
        say("FAIL %s: no 'the screen map is off' line at boot" % " ".join(qemu_args))
        return 0, 1
    finally:
        mon.close()


def check_screen(qemu_command, make_iso, kernel, log_dir, say=print):
    """Both checks: (passed, failed)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kmem-screen-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        make_iso(kernel, "", iso)
        passed, failed = check_colours(qemu_command, iso, scratch, log_dir, say)
        for name, args in [("microvm", ["-machine", "microvm", "-m", "256M", "-smp", "2"]),
                           ("vga-none", MACHINE + ["-vga", "none"])]:
            try:
                p, f = check_no_screen(qemu_command, iso, args, scratch,
                                       os.path.join(log_dir, "screen-off-%s.log" % name), say)
            except monitor_check.MonitorGone as e:
                say("FAIL no screen (%s): %s" % (name, e))
                p, f = 0, 1
            passed, failed = passed + p, failed + f
    say("the screen map (cells of known frames on a screendump; microvm and -vga none say "
        "the map is off): %d passed, %d failed (%.1f s; logs: build/test-logs/screen-*.log)"
        % (passed, failed, time.monotonic() - start))
    return passed, failed
