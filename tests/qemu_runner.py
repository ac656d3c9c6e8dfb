#!/usr/bin/env python3
"""tests/qemu_runner.py - boot the kernel in QEMU and judge what it prints.

The kernel prints KTAP version 1 on its first serial port and, when all
suites have run, writes to QEMU's isa-debug-exit port so that QEMU exits
with status 33.  This runner boots a freshly made GRUB ISO headless, reads
the serial output as it comes, and decides:

  * every case reported "ok" and QEMU exited with 33  -> the run passed;
  * a case reported "not ok"                          -> that case failed;
  * the kernel panicked (QEMU exits with 35)          -> failure, naming the
    suite and case that were running;
  * QEMU exited on its own (a triple fault with -no-reboot) -> failure;
  * nothing for --timeout seconds                      -> QEMU is killed and
    the run fails, naming the case that hung;
  * no KTAP plan, or fewer suites than planned         -> failure;
  * KTAP out of the order Linux's KTAP parser reads (a plan after results,
    numbers out of sequence; class KtapOrder)         -> failure;
  * no case at all (TESTS= matches nothing)             -> failure, listing
    the suites the kernel has;
  * a suite left memory behind, or the kernel printed a report (WARNING,
    BUG, ...) while no case ran                          -> that suite failed
    (the kernel checks both: tests/kunit/accounting.c and reports.c);
  * a report during boot or after the last suite        -> failure.

Every boot with more than one CPU (-smp N, N > 1) gets "lockdep" on its
command line (with_lockdep()): the lock validator's reports are WARNINGs,
and so fail the case they come in unless it declares them.

A failed case is shown with its oops's first lines (BUG:, #PF:, RIP:) and
its last lines; skipped cases are listed with their reasons.

Sub-commands (the Makefile calls them; each prints "N passed, N failed"
as its last line where it runs tests):
  iso       make a bootable ISO for a kernel and a command line
  test      run the in-kernel suites once (make test-qemu)
  selftest  prove the runner catches failing, crashing and hanging tests
  bench     run the benchmarks and print their table (make bench)
  monitor   bad input at the monitor prompt, the docs' transcripts, the golden pictures,
            make run UEFI=1
            (tests/monitor_check.py; make test-monitor)
  torture   the allocator torture test (make torture; tests/torture/)
  replay    replay allocation traces (make replay; tests/replay/)
  all       host results + the QEMU matrix + a short torture run + the traces replayed
            + monitor + the self-test (make test);
            a matrix line that says "kernel=NAME" boots the kernel built with
            NAME=1 (--kernel-variant NAME=PATH: kasan, ubsan, kcsan), the KASAN
            self-test the KASAN kernel, and --only-variant NAME runs only those
"""

import argparse
import fnmatch
import glob
import gzip
import os
import re
import select
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import docs_check
import monitor_check
import screen_check

EXIT_TESTS_DONE = (0x10 << 1) | 1
EXIT_PANIC = (0x11 << 1) | 1
EXIT_BENCH_DONE = (0x12 << 1) | 1
EXIT_TORTURE_CLEAN = (0x13 << 1) | 1
EXIT_TORTURE_FAILED = (0x14 << 1) | 1
EXIT_REPLAY_CLEAN = (0x15 << 1) | 1
EXIT_REPLAY_FAILED = (0x16 << 1) | 1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOG_DIR = os.path.join(ROOT, "build", "test-logs")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1bc")

OVMF_PAIRS = [
    ("/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_VARS_4M.fd"),
    ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_VARS.fd"),
    ("/usr/share/edk2/ovmf/OVMF_CODE.fd", "/usr/share/edk2/ovmf/OVMF_VARS.fd"),
]


# ---------------------------------------------------------------- the image

def make_iso(kernel, cmdline, output, modules=()):
    """Build a hybrid BIOS/UEFI ISO whose GRUB boots KERNEL with CMDLINE.

    MODULES: (path, name) pairs: each file is copied to /boot/NAME and
    loaded by a "module2 /boot/NAME NAME" line, so the kernel finds it by
    its string (the replayer's traces: tests/replay/).

    The image gets KERNEL without its debug information and its ELF symbol
    table (seven eighths of the file; the kernel has its own symbol table,
    kallsyms).  GRUB reads the whole file into its heap before it loads the
    segments: on a machine of 12 MiB a kernel with its DWARF did not fit, and
    on 6 MiB a clang-built kernel with its ELF symbols did not.  GRUB says
    "out of memory" on the VGA screen only; iso/grub.cfg then says so on the
    serial line too (BOOT_FAILURE, below).
    """
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        template = f.read()
    # Quote each word so GRUB's script parser leaves '*' and the like alone.
    quoted = " ".join("'%s'" % w.replace("'", "") for w in cmdline.split())
    with tempfile.TemporaryDirectory(prefix="kmem-iso-") as tree:
        os.makedirs(os.path.join(tree, "boot", "grub"))
        subprocess.run(["objcopy", "--strip-all", kernel,
                        os.path.join(tree, "boot", "kernel.elf")], check=True)
        lines = []
        for path, name in modules:
            shutil.copy(path, os.path.join(tree, "boot", name))
            lines.append("module2 /boot/%s %s" % (name, name))
        with open(os.path.join(tree, "boot", "grub", "grub.cfg"), "w") as f:
            f.write(template.replace("@CMDLINE@", quoted)
                    .replace("@MODULES@", "\n\t\t".join(lines)))
        done = subprocess.run(["grub-mkrescue", "-o", output, tree],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            sys.stderr.write(done.stdout.decode(errors="replace"))
            raise SystemExit("qemu_runner: grub-mkrescue failed")


# ---------------------------------------------------------------- QEMU

def has_option(args, *names):
    return any(a in names or any(a.startswith(n + "=") for n in names) for a in args)


def machine_options(qemu_args):
    """-M microvm,pit=off -> ('microvm', {'pit': 'off'}); -machine type=q35 too; 'pc' without."""
    kind, props = "pc", {}
    for i, a in enumerate(qemu_args):
        value = None
        if a in ("-machine", "-M") and i + 1 < len(qemu_args):
            value = qemu_args[i + 1]
        elif a.startswith(("-machine=", "-M=")):
            value = a.split("=", 1)[1]
        if value is None:
            continue
        for part in value.split(","):
            key, _, val = part.partition("=")
            if key == "type" or (part and not val):
                kind = val or key
            else:
                props[key] = val
    return kind, props


MICROVM_SEABIOS = "/usr/share/seabios/bios-microvm.bin"


def boot_medium(iso, qemu_args, uefi):
    """The options that make the machine boot GRUB from ISO.

    A CD-ROM, except on -machine microvm: it has no CD drive and no PCI, and
    its default firmware (qboot) boots only a -kernel.  SeaBIOS's microvm
    build boots a virtio-mmio disk, and grub-mkrescue's image is a hybrid
    with an MBR, so the ISO boots as that disk.
    """
    kind, props = machine_options(qemu_args)
    if kind == "none":
        raise SystemExit("qemu_runner: -machine none is an empty board (no firmware, no RAM, "
                         "no ISA bus): nothing boots on it; pick pc, q35 or microvm")
    if kind != "microvm":
        return ["-cdrom", iso, "-boot", "d"]
    if props.get("acpi") == "off":
        raise SystemExit("qemu_runner: -machine microvm,acpi=off: SeaBIOS finds microvm's "
                         "virtio disk through ACPI only, so nothing would boot; leave ACPI on")
    if uefi:
        raise SystemExit("qemu_runner: -machine microvm under UEFI: Debian's OVMF has no "
                         "microvm build; boot it without UEFI=1, or pick -machine q35 or pc")
    medium = ["-drive", "file=%s,format=raw,if=none,id=kmem-iso,readonly=on" % iso,
              "-device", "virtio-blk-device,drive=kmem-iso"]
    if has_option(qemu_args, "-bios"):
        return medium
    if not os.path.exists(MICROVM_SEABIOS):
        raise SystemExit("qemu_runner: -machine microvm boots with SeaBIOS's microvm build, "
                         "%s, which is missing (apt-get install seabios)" % MICROVM_SEABIOS)
    # With microvm's PIT ticking, SeaBIOS 1.16 under QEMU 7.2 hangs in GRUB's
    # last E820 call in 1 boot of 4 (-smp 2) to 2 of 3 (-smp 1): 0 of 30 with
    # pit=off (docs/testing.md, "Any machine").  A pit= of the student's stays.
    pit = [] if "pit" in props else ["-machine", "pit=off"]
    return ["-bios", MICROVM_SEABIOS] + medium + pit


def seabios_debug_port(qemu_args, path):
    """On -machine microvm, SeaBIOS's log (its debug port, 0x402) into PATH,
    unless the student's options take that port; [] elsewhere."""
    kind, _ = machine_options(qemu_args)
    if kind != "microvm" or has_option(qemu_args, "-bios") or "isa-debugcon" in " ".join(qemu_args):
        return []
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return ["-chardev", "file,path=%s,id=kmem-firmware" % path,
            "-device", "isa-debugcon,iobase=0x402,chardev=kmem-firmware"]


def qemu_command(iso, qemu_args, uefi, scratch):
    """The QEMU command line: the user's options, plus what the runner needs."""
    cmd = ["qemu-system-x86_64"]
    if not has_option(qemu_args, "-machine", "-M"):
        cmd += ["-machine", "pc"]
    if not has_option(qemu_args, "-m"):
        cmd += ["-m", "256M"]
    cmd += boot_medium(iso, qemu_args, uefi)
    cmd += ["-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    # -nographic, or the student's own -serial mon:stdio (as make run has), already
    # puts the first serial port on stdio; a second claim on stdio QEMU refuses.
    serial_on_stdio = any(a == "-serial" and "stdio" in b for a, b in zip(qemu_args, qemu_args[1:]))
    if "-nographic" not in qemu_args:
        cmd += ["-display", "none"]
        if not serial_on_stdio:
            cmd += ["-serial", "stdio", "-monitor", "none"]
    if uefi:
        cmd += ovmf_options(scratch)
    return cmd + qemu_args


def ovmf_options(scratch):
    for code, varstore in OVMF_PAIRS:
        if os.path.exists(code) and os.path.exists(varstore):
            vars_copy = os.path.join(scratch, "OVMF_VARS.fd")
            shutil.copy(varstore, vars_copy)
            return ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + code,
                    "-drive", "if=pflash,format=raw,unit=1,file=" + vars_copy]
    raise SystemExit("qemu_runner: no OVMF firmware found (apt-get install ovmf)")


# A machine whose firmware cannot boot the ISO says nothing at all, not even
# GRUB's first line: after this long (or the run's timeout, if shorter)
# without a byte, the run ends (SILENT).
SILENCE_SECONDS = 60
SILENT = "silent"


def run_qemu(cmd, timeout, log_path, echo=False, stop_when=None, stamps=None):
    """Run QEMU, collecting serial lines.  Returns (status, lines): status is
    None on timeout, SILENT when QEMU printed nothing in SILENCE_SECONDS.
    With @stamps (a list), the time.monotonic() each line came is appended to it."""
    lines, pending = [], b""
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    deadline = time.monotonic() + timeout
    silent_until = time.monotonic() + min(timeout, SILENCE_SECONDS)
    with open(log_path, "w") as log:
        log.write("# " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        fd = proc.stdout.fileno()
        while True:
            now, silent = time.monotonic(), not lines and not pending
            if now >= deadline or (silent and now >= silent_until):
                proc.kill()
                proc.wait()
                return (SILENT if silent else None), lines
            left = deadline - now
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                line = ANSI.sub("", raw.decode(errors="replace")).replace("\r", "")
                lines.append(line)
                if stamps is not None:
                    stamps.append(time.monotonic())
                log.write(line + "\n")
                if echo:
                    print(line, flush=True)
                if stop_when and stop_when(line):
                    deadline = min(deadline, time.monotonic() + 10)
        if pending:
            lines.append(ANSI.sub("", pending.decode(errors="replace")).replace("\r", ""))
            if stamps is not None:
                stamps.append(time.monotonic())
        return proc.wait(), lines


# ---------------------------------------------------------------- KTAP

# The lines of an oops or a panic, kept for the report of a crashed run.
OOPS_LINE = re.compile(r"Kernel panic|BUG:|Oops|fault: |invalid opcode|kernel BUG")


class Ktap:
    """What a run's serial output says about its tests."""

    RESULT = re.compile(r"^( *)(ok|not ok) (\d+) (.*?)(?: # (SKIP)\b ?(.*))?$")

    def __init__(self, lines):
        self.plan = None            # suites announced
        self.suites_done = 0
        self.cases = []             # (suite, case, status, diagnostics, skip reason)
        self.suite = None           # the suite running when output stopped
        self.case = None            # the case running when output stopped
        self.started = False
        self.totals_seen = False
        self.no_match = None        # the kernel's "no test matches ..." line
        self.oops = []              # lines of oops/panic reports
        self.suite_problems = {}    # suite -> its "leak: ..." and "report outside ..." lines
        self.outside = []           # reports while no suite ran (boot, after the tests)
        self.order = KtapOrder()    # what Linux's KTAP parser would misread
        diag = []
        for line in lines:
            if not self.started:
                self.started = line.strip() == "KTAP version 1" and not line.startswith(" ")
                if OOPS_LINE.search(line):      # a panic during boot: too little memory ...
                    self.oops.append(line)
                continue
            self.order.take(line)
            self._take(line, diag)
        self.stopped_diag = list(diag) if self.case else []     # the case that never ended

    def _take(self, line, diag):
        if self.plan is None and re.match(r"^1\.\.\d+$", line):
            self.plan = int(line[3:])
            return
        m = re.match(r"^    # Subtest: (.*)$", line)
        if m:
            self.suite, self.case = m.group(1), None
            return
        m = re.match(r"^    # (\S+): running$", line)
        if m:
            self.case = m.group(1)
            diag.clear()
            return
        if line.startswith("# Totals:"):
            self.totals_seen = True
            return
        if line.startswith("# kunit: no test matches"):
            self.no_match = line[len("# kunit: "):]
            return
        m = re.match(r"^    # (\S+): (leak: .*|report outside any case: .*)$", line)
        if m and m.group(1) == self.suite and not self.case:
            self.suite_problems.setdefault(self.suite, []).append(m.group(2))
            return
        if line.startswith("# kunit: report outside any case: "):
            self.outside.append(line[len("# kunit: "):])
            return
        if OOPS_LINE.search(line):
            self.oops.append(line)
        m = self.RESULT.match(line)
        if not m:
            if self.case:
                diag.append(line)
            return
        indent, status = len(m.group(1)), m.group(2)
        if indent == 0:
            self.suites_done += 1
            self.suite = self.case = None
        elif indent == 4:
            if m.group(5):
                status = "skip"
            self.cases.append((self.suite, m.group(4), status, list(diag), m.group(6) or ""))
            self.case = None
            diag.clear()

    def count(self, status):
        return sum(1 for c in self.cases if c[2] == status)

    def where(self):
        if self.suite and self.case:
            return "in suite '%s', case '%s'" % (self.suite, self.case)
        if self.suite:
            return "in suite '%s' (between cases)" % self.suite
        return "with no suite running" if self.started else "before the tests started"


class KtapOrder:
    """Whether a run's KTAP is in the order the KTAP spec (Linux's
    Documentation/dev-tools/ktap.rst) sets and Linux's own parser
    (tools/testing/kunit/kunit_parser.py) needs, so that Linux's tools read
    every log this kernel prints:

      * a plan "1..N" comes right after its test's "KTAP version" or
        "# Subtest:" line, before any result or subtest (Linux's parser reads
        a plan after the results as the start of the next test, and every
        number after it as wrong);
      * the results of each level are numbered 1, 2, 3 ..., no more than planned;
      * a subtest ends with its parent's result line, which names it, after
        as many results as it planned.

    The indentation tells the level (4 spaces a level, as Linux's KUnit);
    lines of no KTAP kind (diagnostics, reports, traces) may come anywhere.
    A run that stops early is judge()'s to report (MISSING, CRASH), not this."""

    VERSION = re.compile(r"^( *)KTAP version \d+$")
    HEADER = re.compile(r"^( *)# Subtest: (.*)$")
    PLAN = re.compile(r"^( *)1\.\.(\d+)$")

    class Level:
        def __init__(self, indent, name=None):
            self.indent, self.name = indent, name
            self.plan, self.results = None, 0
            self.begun = False      # a result or a subtest came: too late for a plan

    def __init__(self):
        self.levels = [self.Level(0)]   # the run's, from its first "KTAP version 1" on
        self.problems = []

    def take(self, line):
        for regex, step in ((self.VERSION, self._version), (self.HEADER, self._header),
                            (self.PLAN, self._plan), (Ktap.RESULT, self._result)):
            m = regex.match(line)
            if m:
                step(len(m.group(1)), m, line.strip())
                return

    @staticmethod
    def _name(level):
        return "'%s'" % level.name if level.name else "the run"

    def _open(self, indent, line, name=None):
        top = self.levels[-1]
        if indent <= top.indent:
            self.problems.append("'%s' (indent %d) opens no subtest of %s (indent %d)"
                                 % (line, indent, self._name(top), top.indent))
            return
        top.begun = True
        self.levels.append(self.Level(indent, name))

    def _version(self, indent, m, line):
        self._open(indent, line)

    def _header(self, indent, m, line):
        top = self.levels[-1]
        if top.indent == indent and top.name is None and top.plan is None and not top.begun:
            top.name = m.group(2)       # of the subtest its version line opened
        else:
            self._open(indent, line, m.group(2))

    def _plan(self, indent, m, line):
        top = self.levels[-1]
        if top.indent != indent:
            self.problems.append("'%s' (indent %d) in %s (indent %d), where no test begins"
                                 % (line, indent, self._name(top), top.indent))
        elif top.plan is not None or top.begun:
            self.problems.append("'%s' after the results of %s: a plan goes right after its "
                                 "test's 'KTAP version' or '# Subtest:' line, or nowhere"
                                 % (line, self._name(top)))
        else:
            top.plan = int(m.group(2))

    def _close(self, indent):
        """Close the subtests deeper than @indent; return the one a result there ends."""
        closed = None
        while len(self.levels) > 1 and self.levels[-1].indent > indent:
            if closed:
                self.problems.append("%s has no result line" % self._name(closed))
            closed = self.levels.pop()
            if closed.plan is not None and closed.results != closed.plan:
                self.problems.append("%s planned %d results and gave %d"
                                     % (self._name(closed), closed.plan, closed.results))
        return closed

    def _result(self, indent, m, line):
        closed = self._close(indent)
        top, number = self.levels[-1], int(m.group(3))
        if top.indent != indent:
            self.problems.append("'%s' (indent %d) in %s (indent %d)"
                                 % (line, indent, self._name(top), top.indent))
            return
        if closed and closed.name and closed.name != m.group(4).split(" # ")[0]:
            self.problems.append("'%s' ends the subtest %s" % (line, self._name(closed)))
        if number != top.results + 1:
            self.problems.append("'%s' in %s, where %d comes next"
                                 % (line, self._name(top), top.results + 1))
        elif top.plan is not None and number > top.plan:
            self.problems.append("'%s': %s planned %d" % (line, self._name(top), top.plan))
        top.results, top.begun = number, True


def judge(status, ktap, timeout, quiet=0):
    """Problems with a run as a whole (beyond failed cases), as messages.
    QUIET: the seconds between the last serial line and the end of the run."""
    problems = []
    if status is None:
        # A case still printing when the time ran out was slow, not stuck (page_poison=1
        # on gigabytes of RAM under TCG, say): say which, and how to wait longer.
        problems.append("TIMEOUT: no end after %ds; %s %s (%s)"
                        % (timeout, "hung" if quiet >= 10 else "still running", ktap.where(),
                           "nothing printed in its last %ds" % quiet if quiet >= 10 else
                           "it was still printing: TIMEOUT=%d waits longer" % (2 * timeout)))
    elif status == SILENT:
        problems.append("NO OUTPUT: not a byte on the serial port in %ds: the firmware did "
                        "not boot GRUB from the ISO (a machine without a CD-ROM or disk it "
                        "boots from? docs/testing.md, section 'Any machine')"
                        % min(timeout, SILENCE_SECONDS))
    elif status == EXIT_PANIC:
        problems.append("CRASH: the kernel panicked %s" % ktap.where())
    elif status != EXIT_TESTS_DONE:
        problems.append("CRASH: QEMU exited with status %d %s "
                        "(a triple fault or reset ends QEMU under -no-reboot)"
                        % (status, ktap.where()))
    if not ktap.started:
        problems.append("NO KTAP: the kernel never printed 'KTAP version 1'")
    elif ktap.plan is None:
        problems.append("NO PLAN: KTAP started but no '1..N' plan line")
    elif status is not None and ktap.suites_done < ktap.plan:
        problems.append("MISSING: %d of %d planned suites reported"
                        % (ktap.suites_done, ktap.plan))
    elif status == EXIT_TESTS_DONE and not ktap.cases:
        problems.append("NO TESTS: " + (ktap.no_match or "no case ran"))
    problems += ["REPORT " + r[len("report "):] for r in ktap.outside]
    order = ktap.order.problems
    problems += ["KTAP ORDER: " + p for p in order[:3]]
    if len(order) > 3:
        problems.append("KTAP ORDER: and %d more" % (len(order) - 3))
    return problems


# ---------------------------------------------------------------- one run

class Run:
    def __init__(self, name, ktap, problems, seconds):
        self.name, self.problems, self.seconds = name, problems, seconds
        self.cases, self.oops, self.stopped_diag = ktap.cases, ktap.oops, ktap.stopped_diag
        self.stopped_in = (ktap.suite, ktap.case)     # running when the output stopped
        self.failures = [c for c in ktap.cases if c[2] == "not ok"]
        self.suite_failures = sorted(ktap.suite_problems.items())
        self.passed, self.skipped = ktap.count("ok"), ktap.count("skip")
        self.failed = len(self.failures) + len(self.suite_failures) + (1 if problems else 0)
        self.lines = []     # the serial lines, set by the run that made it

    def summary(self):
        return "%d passed, %d failed, %d skipped" % (self.passed, self.failed, self.skipped)


# Before the kernel runs: GRUB's "error: out of memory." (a machine too small for it; under
# UEFI it reaches the serial port; under BIOS only the screen, so iso/grub.cfg says "error:
# GRUB could not load the kernel" on the serial port too) or the firmware's own exception.
# Not any "error: ": GRUB prints some it goes on after ("error: no suitable video mode found.").
BOOT_FAILURE = re.compile(r"^(error: out of memory|error: GRUB could not load|!!!! X64 Exception)")
# The kernel's own refusal, from its 32-bit entry (boot/entry.asm), after which it halts:
# a CPU without long mode (-machine isapc, -cpu qemu32).
CPU_REFUSED = re.compile(r"^boot: this CPU cannot run 64-bit code")


def smp_cpus(qemu_args):
    """How many CPUs QEMU's -smp gives: '-smp 4', '-smp 4,sockets=1', '-smp cpus=4'."""
    for i, word in enumerate(qemu_args[:-1]):
        if word == "-smp":
            first = qemu_args[i + 1].split(",")[0]
            for part in qemu_args[i + 1].split(","):
                if part.startswith("cpus="):
                    first = part[len("cpus="):]
            return int(first) if first.isdigit() else 1
    return 1


def with_lockdep(qemu_args, cmdline):
    """Lockdep (kernel/lockdep.c) validates every lock of every boot with more
    than one CPU: a lock order or interrupt state that could deadlock is then a
    report ("WARNING: possible circular locking dependency detected", ...),
    which fails its case like any other.  One CPU boots without it: its lines
    keep the figures of the kernel as shipped.  A command line that says
    lockdep= itself keeps its choice."""
    words = cmdline.split()
    if smp_cpus(qemu_args) < 2 or any(w.split("=")[0] == "lockdep" for w in words):
        return cmdline
    return " ".join(words + ["lockdep"])


def run_tests(kernel, glob, qemu_args, uefi, timeout, name, echo=False, cmdline=""):
    """Boot KERNEL with 'kunit' (and CMDLINE, and 'lockdep' on more than one
    CPU), judge the output, return a Run (with the serial lines, and when each
    came: run.lines, run.stamps)."""
    start, stamps = time.monotonic(), []
    cmdline = with_lockdep(qemu_args, cmdline)
    with tempfile.TemporaryDirectory(prefix="kmem-run-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        make_iso(kernel, "kunit kunit.filter_glob=%s %s" % (glob, cmdline), iso)
        cmd = qemu_command(iso, qemu_args, uefi, scratch)
        firmware_log = os.path.join(LOG_DIR, name + ".firmware.log")
        firmware_port = seabios_debug_port(qemu_args, firmware_log)
        cmd += firmware_port
        if os.path.exists(firmware_log + ".1"):
            os.remove(firmware_log + ".1")
        for boot in (1, 2):
            status, lines = run_qemu(cmd, timeout, os.path.join(LOG_DIR, name + ".log"), echo,
                                     stop_when=lambda l: (l.startswith("# Totals:") or
                                                          bool(BOOT_FAILURE.match(l)) or
                                                          bool(CPU_REFUSED.match(l))),
                                     stamps=stamps)
            if status != SILENT or boot == 2 or not firmware_port:
                break
            # SeaBIOS's microvm build hung silently (with the PIT on: see
            # boot_medium()).  Should it again, say so, keep its log, boot again.
            shutil.copy(firmware_log, firmware_log + ".1")
            print("  %s: NO OUTPUT in %ds on -machine microvm; booting once more (how far the "
                  "firmware got: build/test-logs/%s.firmware.log.1)"
                  % (name, min(timeout, SILENCE_SECONDS), name), flush=True)
            stamps.clear()
    ktap = Ktap(lines)
    problems = judge(status, ktap, timeout, round(time.monotonic() - (stamps or [start])[-1]))
    # QEMU itself refused the options (a student's -numa or -machine typo): say what it said.
    # Its warnings ("TCG doesn't support requested feature") are not a refusal.
    refused = [l for l in lines if l.startswith("qemu-system-") and ": warning:" not in l]
    if refused and not ktap.started:
        # nothing crashed, and that no KTAP came goes without saying
        problems = [p for p in problems if not p.startswith(("CRASH", "NO KTAP"))]
        problems.insert(0, "QEMU refused to run: " + refused[0])
    boot_failed = [l for l in lines if BOOT_FAILURE.match(l)]
    if boot_failed and not ktap.started:
        # it stopped early, before any KTAP, for the reason given
        problems = [p for p in problems if not p.startswith(("TIMEOUT", "NO KTAP"))]
        problems.insert(0, "BOOT FAILED before the kernel ran: " + boot_failed[0].strip() +
                        (" (under UEFI, OVMF and GRUB need about 64 MiB)" if uefi else
                         " (under BIOS: the machine is too small for GRUB and this kernel)"))
    refused_cpu = [l for l in lines if CPU_REFUSED.match(l)]
    if refused_cpu and not ktap.started:
        # it stopped early, before any KTAP, for the reason given
        problems = [p for p in problems if not p.startswith(("TIMEOUT", "NO KTAP"))]
        problems.insert(0, "BOOT FAILED: the kernel cannot run on this CPU: " +
                        refused_cpu[0].strip())
    run = Run(name, ktap, problems, time.monotonic() - start)
    run.lines, run.stamps, run.boots = lines, stamps, boot
    return run


OOPS_HEAD = re.compile(r"BUG:|#PF:|Oops:|RIP:|WARNING:|invalid opcode|general protection|"
                       r"double fault|Kernel panic")


def excerpt(diag, head=6, tail=10, frames=3):
    """A failed case's diagnostics, shortened: an oops's first lines (what and
    where: BUG:, #PF:, RIP: ...), the top FRAMES of its call trace (the bottom,
    run_one and kmain, says nothing), then the last lines; "..." where lines
    were left out."""
    trace = next((i for i, d in enumerate(diag) if d.strip() == "Call Trace:"), len(diag))
    rip = [i for i, d in enumerate(diag) if d.startswith("RIP:")][:1]     # always: the where
    keep = sorted(set([i for i, d in enumerate(diag) if OOPS_HEAD.search(d)][:head] + rip) |
                  set(range(trace, min(trace + 1 + frames, len(diag)))) |
                  set(range(max(0, len(diag) - tail), len(diag))))
    out, last = [], -1
    for i in keep:
        if i != last + 1:
            out.append("...")
        out.append(diag[i].strip())
        last = i
    return out


def skip_lines(run, most=4):
    """One line per skip reason, naming the cases it skipped."""
    by_reason = {}
    for suite, case, status, _, reason in run.cases:
        if status == "skip":
            by_reason.setdefault(reason or "(no reason given)", []).append(suite + "." + case)
    lines = []
    for reason, names in by_reason.items():
        more = " and %d more" % (len(names) - most) if len(names) > most else ""
        lines.append("SKIPPED (%s): %s%s" % (reason, ", ".join(names[:most]), more))
    # "needs 2 CPUs" on a machine given -smp 2: say why only one came up
    no_madt = any(l.startswith("ACPI: no MADT; assuming one CPU") for l in run.lines)
    if no_madt and any(re.match(r"needs \d+ CPUs", r) for r in by_reason):
        lines.append("(one CPU because the kernel found no ACPI MADT, which lists the others: "
                     "-machine ...,acpi=off or -no-acpi leaves them unseen)")
    return lines


def crash_lines(run):
    """The oops that ended a run, shortened as excerpt() does: from the case that never
    ended, else the last oops lines seen."""
    if any(OOPS_HEAD.search(d) for d in run.stopped_diag):
        return excerpt(run.stopped_diag, tail=4)
    return [line.strip() for line in run.oops[-6:]]


def report_lines(run):
    """What the terminal shows about a run: failures, problems, skips, the tally."""
    out = []
    for suite, case, _, diag, _ in run.failures:
        out.append("  FAILED %s.%s" % (suite, case))
        out += ["      " + d for d in excerpt(diag)]
    for suite, lines in run.suite_failures:
        out.append("  FAILED %s (the suite, after its cases)" % suite)
        out += ["      " + line for line in lines]
    for p in run.problems:
        out.append("  " + p)
        out += ["      " + line for line in crash_lines(run)]
    out += ["  " + line for line in skip_lines(run)]
    out.append("  %s: %s (%.1f s; log: build/test-logs/%s.log)"
               % (run.name, run.summary(), run.seconds, run.name))
    return out


def report(run):
    print("\n".join(report_lines(run)), flush=True)


def split_config(options):
    """'uefi kernel=ubsan cmdline=page_poison=1 -machine q35 ...'
    -> (True, 'page_poison=1', ['-machine', ...], 'ubsan')

    Before the QEMU options a matrix line may say "uefi" (boot through OVMF),
    "cmdline=WORDS" (more kernel command line; quote it for spaces) and
    "kernel=NAME" (boot the kernel built with NAME=1, such as UBSAN=1).
    """
    words = shlex.split(options)
    uefi, cmdline, variant = False, "", None
    while words and (words[0] == "uefi" or words[0].split("=")[0] in ("cmdline", "kernel")):
        word = words.pop(0)
        if word == "uefi":
            uefi = True
        elif word.startswith("kernel="):
            variant = word[len("kernel="):]
        else:
            cmdline += " " + word[len("cmdline="):]
    return uefi, cmdline.strip(), words, variant


# ---------------------------------------------------------------- self-test

def run_log(run):
    """Everything the kernel printed in @run (its log file)."""
    with open(os.path.join(LOG_DIR, run.name + ".log"), errors="replace") as f:
        return f.read()


def suite_lines(run, suite):
    """What the kernel said about @suite after its cases: its leaks, its reports outside cases."""
    return dict(run.suite_failures).get(suite, [])


def with_param_plans(lines, after_results):
    """@lines with a plan for each parameterised case's subtest: right after
    its "# Subtest:" line, or (@after_results) after its last result, where
    the kernel printed it until Linux's KTAP parser was tried on its log."""
    out, at, count = [], None, 0
    for line in lines:
        if re.match(r"^        # Subtest: ", line):
            at, count = len(out) + 1, 0
        elif at is not None and re.match(r"^        (not )?ok \d+ ", line):
            count += 1
        elif at is not None and re.match(r"^    (not )?ok \d+ ", line):
            out.insert(len(out) if after_results else at, "        1..%d" % count)
            at = None
        out.append(line)
    return out


def ktap_order_is_checked(run):
    """The KTAP order check catches a plan after the results (naming each
    parameterised case of @run) and takes one right after "# Subtest:"."""
    late = Ktap(with_param_plans(run.lines, True)).order.problems
    early = Ktap(with_param_plans(run.lines, False)).order.problems
    params = re.findall(r"^        # Subtest: (\S+)$", "\n".join(run.lines), re.M)
    return bool(params) and not early and \
        [re.search(r"after the results of '(\S+)'", p).group(1) for p in late] == params


# A machine too small for the kernel: the KASAN self-test kernel on 5 MiB
# (any suite: none runs).  GRUB loads it, but its shadow and its stack depot
# do not fit, and it panics before smp_init(): no other CPU to stop, no
# local APIC mapped yet.  A kernel whose image grows by half a MiB no longer
# gets that far (GRUB runs out of memory: TOO_SMALL_BIOS): then use 6M.
TOO_SMALL = "too_small"
# A machine too small for GRUB under UEFI: OVMF leaves it too little heap,
# and GRUB says "error: out of memory." on the serial port; the run must
# end there, not wait out its timeout.
TOO_SMALL_UEFI = "too_small_uefi"
# The same under BIOS, on 3 MiB: GRUB's error goes to the screen only, and
# iso/grub.cfg's own line to the serial port must end the run as soon.
TOO_SMALL_BIOS = "too_small_bios"
# A 32-bit CPU (qemu32 has no long mode): the kernel's one line must end the run as soon.
NO_LONG_MODE = "no_long_mode"
# Options QEMU itself refuses (a student's typo): what QEMU said is the report, not a crash.
QEMU_REFUSES = "qemu_refuses"
# The student's own -serial mon:stdio (make run's): the runner must not claim stdio twice.
SERIAL_ON_STDIO = "serial_on_stdio"
# Firmware that cannot boot the ISO (qboot boots only a -kernel): silence must end the run early.
NO_OUTPUT = "no_output"
# microvm under its SeaBIOS, silent (-S: the CPU never starts): booted once more, then NO OUTPUT.
MICROVM_SILENT = "microvm_silent"
# The self-tests that boot a machine of their own: (suites, QEMU options, UEFI?)
SPECIAL_RUNS = {
    TOO_SMALL: ("selftest_pass", ["-machine", "pc", "-m", "5M", "-smp", "2"], False),
    TOO_SMALL_UEFI: ("selftest_pass", ["-machine", "q35", "-m", "48M", "-smp", "2"], True),
    # Skylake-Server: QEMU warns of CPU features TCG lacks, which must not read as a refusal.
    TOO_SMALL_BIOS: ("selftest_pass", ["-machine", "pc", "-m", "3M", "-smp", "1",
                                       "-cpu", "Skylake-Server"], False),
    NO_LONG_MODE: ("selftest_pass", ["-machine", "pc", "-m", "128M", "-cpu", "qemu32"], False),
    QEMU_REFUSES: ("selftest_pass", ["-machine", "no_such_machine"], False),
    SERIAL_ON_STDIO: ("selftest_pass", ["-machine", "pc", "-m", "128M", "-serial", "mon:stdio"],
                      False),
    NO_OUTPUT: ("selftest_pass", ["-machine", "microvm", "-bios", "/usr/share/qemu/qboot.rom"],
                False),
    MICROVM_SILENT: ("selftest_pass", ["-machine", "microvm", "-S"], False),
}

SELFTESTS = [
    # (what it proves, glob, timeout, check(run, text of its report) -> bool).
    # Entries with the same glob share one run.
    ("a failing KUNIT_EXPECT fails the run, naming suite and case",
     "selftest_expect", 120,
     lambda r, text: r.failed >= 1 and r.passed >= 1 and
     any(f[0] == "selftest_expect" and f[1] == "failing_expectation" for f in r.failures)),
    ("kunit_fail_current_test() (Linux's, kunit/test-bug.h) fails the running case with its message",
     "selftest_expect", 120,
     lambda r, text: any(f[1] == "failed_from_a_helper" for f in r.failures) and
     "selftest: failed by a helper" in text),
    ("a page fault inside a case fails that case, and the next case still runs",
     "selftest_fault", 120,
     lambda r, text: any(f[1] == "null_dereference" for f in r.failures) and r.passed >= 1
     and not r.problems),
    ("the report of a crashed case keeps the oops's first lines (BUG:, #PF:, RIP:) and the "
     "top of its call trace",
     "selftest_fault", 120,
     lambda r, text: all(k in text for k in ("FAILED selftest_fault.null_dereference",
                                              "BUG: kernel NULL pointer dereference",
                                              "#PF: supervisor read access", "RIP: ",
                                              "Call Trace:", " null_dereference+0x",
                                              "test case crashed"))),
    ("an endless loop is stopped by the timeout, naming suite and case",
     "selftest_hang", 25,
     lambda r, text: any("TIMEOUT" in p and "selftest_hang" in p and "endless_loop" in p
                         for p in r.problems)),
    ("a triple fault (QEMU exits by itself) fails the run, naming the case",
     "selftest_triple", 120,
     lambda r, text: any("CRASH" in p and "triple_fault" in p for p in r.problems)),
    ("a panic fails the run, naming the case",
     "selftest_panic", 120,
     lambda r, text: any("panicked" in p and "calls_panic" in p for p in r.problems)),
    ("an oops on another CPU panics the kernel, naming the case",
     "selftest_ap_oops", 120,
     lambda r, text: any("panicked" in p and "oops_on_another_cpu" in p for p in r.problems)),
    ("a panic while another CPU holds the console still ends the run, naming the case",
     "selftest_panic_printing", 60,
     lambda r, text: any("panicked" in p and "panic_while_another_cpu_prints" in p
                         for p in r.problems)),
    ("a spinlock taken twice on one CPU is reported, then panics, naming the case",
     "selftest_spin_recursion", 60,
     lambda r, text: any("panicked" in p and "spinlock_taken_twice" in p for p in r.problems)
     and "BUG: spinlock recursion" in text),
    ("an out-of-bounds write is reported by KASAN, naming the function, fails its case, "
     "and the kernel goes on",
     "selftest_kasan", 120,
     lambda r, text: any(l.startswith("BUG: KASAN: slab-out-of-bounds in kasan_oob_write+0x")
                         for l in r.oops) and
     [f[1] for f in r.failures] == ["kasan_oob_write"] and
     "undeclared report: BUG: KASAN: slab-out-of-bounds in kasan_oob_write+0x" in text and
     not r.problems),
    ("a passing suite passes",
     "selftest_pass", 120,
     lambda r, text: r.passed >= 1 and r.failed == 0 and not r.problems and
     ktap_order_is_checked(r)),
    ("a skipped case is listed on the terminal with its reason; a case whose every "
     "parameter skipped, with theirs",
     "selftest_pass", 120,
     lambda r, text: r.skipped == 3 and
     "SKIPPED (selftest: skipped on purpose): selftest_pass.skipping_case" in text and
     "SKIPPED (selftest: every parameter skipped on purpose): "
     "selftest_pass.every_parameter_skips" in text and
     "SKIPPED (each of its 3 parameters skipped, for different reasons): "
     "selftest_pass.parameters_skip_for_different_reasons" in text),
    ("a suite that leaks fails, naming slab objects by cache, pages, and a vmalloc area "
     "by its caller", "selftest_leak*", 120,
     lambda r, text: "leak: kmalloc-512: 3 objects" in suite_lines(r, "selftest_leak") and
     "leak: 1 page" in suite_lines(r, "selftest_leak") and
     any(re.match(r"leak: vmalloc area 0x\w+-0x\w+ \(8192 bytes\) allocated by "
                  r"leaks_on_purpose\+0x", line) for line in suite_lines(r, "selftest_leak"))
     and "FAILED selftest_leak (the suite, after its cases)" in text),
    ("a suite that keeps memory and says why passes",
     "selftest_leak*", 120,
     lambda r, text: r.passed == 2 and r.failed == 1 and
     [f[0] for f in r.suite_failures] == ["selftest_leak"]),
    ("an undeclared WARNING fails its case, naming the report",
     "selftest_report", 120,
     lambda r, text: any(f[1] == "undeclared_warning" for f in r.failures) and
     "undeclared report: WARNING: at tests/selftest/selftest.c:" in text),
    ("a WARNING on another CPU counts against the case that runs",
     "selftest_report", 120,
     lambda r, text: any(f[1] == "warning_on_another_cpu" for f in r.failures)),
    ("a declared report that does not appear fails its case; one that appears passes",
     "selftest_report", 120,
     lambda r, text: any(f[1] == "declared_report_missing" for f in r.failures) and
     'expected report "BUG: kfree of" did not appear' in text and
     not any(f[1] == "declared_warning" for f in r.failures) and r.passed == 1),
    ("a report outside any case fails the suite",
     "selftest_report", 120,
     lambda r, text: any(line.startswith("report outside any case: WARNING:")
                         for line in suite_lines(r, "selftest_report"))),
    ("a suite without .strict (as for Linux) passes with a double free, a WARNING and a leak, "
     "each printed",
     "selftest_linux_style", 120,
     lambda r, text: r.passed == 3 and r.failed == 0 and not r.suite_failures and
     "undeclared report: BUG kmalloc-64" in run_log(r) and
     "undeclared report: WARNING: at tests/selftest/selftest.c:" in run_log(r) and
     "note: not failed for them, the suite is not .strict" in run_log(r) and
     "note: left behind, not failed (the suite is not .strict): 1 page" in run_log(r) and
     "note: report outside any case, not failed (the suite is not .strict): WARNING:"
     in run_log(r) and not r.problems),
    ("undefined behaviour (UBSAN) that no case declared fails that case, naming kind and place",
     "selftest_ubsan", 120,
     lambda r, text: any(f[1] == "undeclared_shift" for f in r.failures) and
     "undeclared report: UBSAN: shift-out-of-bounds in tests/selftest/selftest_ubsan.c:" in text),
    ("a machine too small for the kernel: a panic during boot, in one line, fails the run",
     TOO_SMALL, 60,
     lambda r, text: "CRASH: the kernel panicked before the tests started" in r.problems and
     any(l.startswith("Kernel panic - not syncing: ") for l in r.oops) and
     all("Kernel panic" in l for l in r.oops)),
    ("a machine too small for GRUB under UEFI: its 'error: out of memory.' ends the run at once",
     TOO_SMALL_UEFI, 120,
     lambda r, text: r.problems and r.problems[0].startswith(
         "BOOT FAILED before the kernel ran: error: out of memory.") and
     not any(p.startswith(("TIMEOUT", "NO KTAP")) for p in r.problems) and r.seconds < 60),
    ("a machine too small for GRUB under BIOS: iso/grub.cfg's line on the serial port ends "
     "the run at once",
     TOO_SMALL_BIOS, 120,
     lambda r, text: bool(r.problems) and r.problems[0].startswith(
         "BOOT FAILED before the kernel ran: error: GRUB could not load the kernel") and
     not any(p.startswith(("TIMEOUT", "QEMU refused", "NO KTAP")) for p in r.problems) and
     r.seconds < 60),
    ("a CPU without long mode: the kernel's line saying so ends the run at once",
     NO_LONG_MODE, 120,
     lambda r, text: bool(r.problems) and r.problems[0] ==
     "BOOT FAILED: the kernel cannot run on this CPU: boot: this CPU cannot run 64-bit code "
     "(no long mode); try qemu-system-x86_64 -cpu qemu64" and
     not any(p.startswith(("TIMEOUT", "NO KTAP")) for p in r.problems) and r.seconds < 60),
    ("options QEMU refuses fail the run with QEMU's own words, and no false CRASH",
     QEMU_REFUSES, 60,
     lambda r, text: bool(r.problems) and r.problems[0].startswith(
         "QEMU refused to run: qemu-system-x86_64: unsupported machine type") and
     not any(p.startswith(("CRASH", "TIMEOUT", "NO KTAP")) for p in r.problems)),
    ("a -serial mon:stdio of the student's own runs the tests (QEMU refused two claims on "
     "stdio)",
     SERIAL_ON_STDIO, 60,
     lambda r, text: r.passed >= 1 and r.failed == 0 and not r.problems),
    ("firmware that does not boot the ISO: NO OUTPUT when the serial port stays silent, "
     "not a TIMEOUT",
     NO_OUTPUT, 15,
     lambda r, text: bool(r.problems) and r.problems[0].startswith(
         "NO OUTPUT: not a byte on the serial port in 15s") and
     not any(p.startswith(("CRASH", "TIMEOUT")) for p in r.problems) and r.boots == 1),
    ("a silent boot under microvm's SeaBIOS is tried once more, with the firmware's log kept, "
     "then NO OUTPUT",
     MICROVM_SILENT, 5,
     lambda r, text: bool(r.problems) and r.problems[0].startswith(
         "NO OUTPUT: not a byte on the serial port in 5s") and r.boots == 2 and
     os.path.exists(os.path.join(LOG_DIR, "selftest-microvm_silent.firmware.log.1"))),
    ("a TESTS filter that matches no test fails, listing the suites there are",
     "no_such_suite", 120,
     lambda r, text: any(p.startswith("NO TESTS: no test matches 'no_such_suite'") and
                         "selftest_pass" in p for p in r.problems)),
]


# The self-tests that run on the KASAN build of the self-test kernel.
KASAN_SELFTESTS = {"selftest_kasan", TOO_SMALL}


def selftest(kernel, kasan_kernel, only_kasan=False):
    passed = failed = 0
    runs = {}
    print("runner self-test: each run below is meant to fail in one way; "
          "the runner must notice exactly that", flush=True)
    for what, glob, timeout, check in SELFTESTS:
        if only_kasan and glob not in KASAN_SELFTESTS:
            continue
        if glob not in runs:
            kernel_for = kasan_kernel if glob in KASAN_SELFTESTS else kernel
            suites, machine, uefi = SPECIAL_RUNS.get(
                glob, (glob, ["-machine", "pc", "-m", "128M", "-smp", "2"], False))
            runs[glob] = run_tests(kernel_for, suites, machine, uefi, timeout,
                                   "selftest-" + glob.replace("*", ""))
        run = runs[glob]
        text = "\n".join(report_lines(run))
        ok = check(run, text)
        passed, failed = passed + ok, failed + (not ok)
        print("%s - %s" % ("ok" if ok else "not ok", what), flush=True)
        if not ok:
            print(text, flush=True)
    return passed, failed


# ---------------------------------------------------------------- commands

def cmd_test(a):
    uefi = a.uefi
    run = run_tests(a.kernel, a.tests, shlex.split(a.qemu_args), uefi, a.timeout,
                    "test-qemu", echo=a.verbose, cmdline=a.cmdline)
    report(run)
    print(run.summary().replace(", 0 skipped", ""))
    return 1 if run.failed else 0


def cmd_selftest(a):
    passed, failed = selftest(a.selftest_kernel, a.kasan_selftest_kernel)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def cmd_bench(a):
    qemu_args = shlex.split(a.qemu_args)
    default_machine = not qemu_args
    if "-smp" not in qemu_args:     # the cross-CPU rows need a second CPU
        qemu_args += ["-smp", "2"]
    if not a.wall:
        qemu_args = ["-icount", "shift=0,align=off,sleep=off"] + qemu_args
    with tempfile.TemporaryDirectory(prefix="kmem-bench-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        make_iso(a.kernel, "bench bench.filter_glob=%s" % a.bench, iso)
        status, lines = run_qemu(qemu_command(iso, qemu_args, False, scratch), a.timeout,
                                 os.path.join(LOG_DIR, "bench.log"))
    print("make bench: %s; figures are %s" % (
        " ".join(qemu_args), "wall-clock TSC cycles" if a.wall else
        "guest instructions (QEMU -icount: the TSC counts instructions, identical every run)"))
    ours, rows = [], []
    for line in lines:
        m = LINUX_ROW.match(line)
        if m:
            ours.append(m.groups())
        elif line.startswith("bench: "):
            print(line[7:])
            rows.append(line[7:])
    if status != EXIT_BENCH_DONE:
        print("bench: QEMU ended with status %s; see build/test-logs/bench.log" % status)
        return 1
    ours += bench_traces(a)
    if ours:
        print_linux_comparison(ours, a.linux_reference, a.wall)
    if a.bench == "*" and not a.wall and default_machine:
        write_bench_figures(rows, ours)
    return 0


def write_bench_figures(rows, linux_rows):
    """Write tests/bench/figures.txt from a full make bench's rows, and say what moved.
    The traces' rows ("bench: linux trace.T.KEY FIGURE NAME") are kept by their names."""
    old = docs_check.read_bench_figures()
    new = {}
    for row in rows:
        m = docs_check.BENCH_ROW.match(row)
        if m:
            new[m.group(1)] = m.group(2)
    for key, figure, name in linux_rows:
        if key.startswith("trace."):
            new[name] = figure
    with open(docs_check.BENCH_FIGURES, "w") as f:
        f.write("# tests/bench/figures.txt - written by the last full `make bench` (guest\n"
                "# instructions per operation under -icount, identical every run; two CPUs):\n"
                "# every row, \"name<TAB>figure\", and the rows of the traces' replay (its second\n"
                "# boot, -smp 8).  The docs quote their figures from here, and\n"
                "# tests/docs_check.py checks them.  Commit it with the change that moved them.\n")
        for name in sorted(new):
            f.write("%s\t%s\n" % (name, new[name]))
    moved = ["%s: %s -> %s" % (n, old[n], new[n]) for n in sorted(new)
             if old.get(n) not in (None, new[n])]
    print("bench: wrote %s (%d rows; %d moved since it was last written)%s" % (
        os.path.relpath(docs_check.BENCH_FIGURES, ROOT), len(new), len(moved),
        "".join("\n  " + m for m in moved)))


# The lines of a torture run worth showing: its own, and any report (the kernel counts them too).
TORTURE_SHOWN = re.compile(r"^torture:|BUG|WARNING|Kernel panic|Oops")


def run_torture(kernel, seconds, qemu_args, cmdline, log_name, echo=False):
    """Boot KERNEL with "torture" for SECONDS; return (status, the lines worth showing, the
    seconds it took).  ECHO prints them as they come.  Lockdep is on with more than one
    CPU, as in the suites (with_lockdep())."""
    start = time.monotonic()
    cmdline = with_lockdep(shlex.split(qemu_args), cmdline)
    with tempfile.TemporaryDirectory(prefix="kmem-torture-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        make_iso(kernel, ("torture torture.seconds=%d %s" % (seconds, cmdline)).strip(), iso)
        # Time for the boot, the checkpoints and the end's checks, all under TCG.
        status, lines = run_qemu(qemu_command(iso, shlex.split(qemu_args), False, scratch),
                                 seconds * 2 + 300, os.path.join(LOG_DIR, log_name),
                                 echo=False)
    shown = [l for l in lines if TORTURE_SHOWN.search(l)]
    if echo:
        for line in shown:
            print(line, flush=True)
    return status, shown, time.monotonic() - start


def cmd_torture(a):
    """make torture: boot with "torture", print its lines, pass if it ended clean."""
    cmdline = with_lockdep(shlex.split(a.qemu_args), a.cmdline)
    print("make torture: %d s on %s%s" % (a.seconds, a.qemu_args,
                                          "; kernel: " + cmdline if cmdline else ""),
          flush=True)
    status, _, _ = run_torture(a.kernel, a.seconds, a.qemu_args, a.cmdline, "torture.log",
                               echo=True)
    if status == EXIT_TORTURE_CLEAN:
        print("1 passed, 0 failed")
        return 0
    print("torture: QEMU ended with status %s (see build/test-logs/torture.log)" % status)
    print("0 passed, 1 failed")
    return 1


# make test's short torture run, and its self-test: a run whose free path goes wrong must fail.
TORTURE_SHORT_SECONDS = 15
TORTURE_SHORT_CMDLINE = "torture.check=3"
TORTURE_MACHINE = "-machine q35 -m 256M -smp 4"
TORTURE_SELFTEST = ("torture.break=double_free torture.check=1", "reports seen: 1; the first: BUG")
# Options the torture test must refuse, each in one line, before it starts: (options, words
# of the refusal).  One CPU is enough to be refused.
TORTURE_REFUSALS = [
    ("torture.mix=pages=1,nothing=2", "torture.mix=pages=1,nothing=2: expected name=weight"),
    ("torture.mix=pages=0", "torture.mix gives every operation weight 0"),
    ("torture.break=twice", "torture.break=twice: expected double_free or overwrite"),
    ("torture.mix=pages=1 torture.break=double_free",
     "torture.break breaks a kmalloc object: give kmalloc a weight"),
]
TORTURE_REFUSAL_MACHINE = "-machine pc -m 128M -smp 1"


def torture_stage(kernel):
    """The short run (clean, with its table), the self-test, and the options it must refuse:
    (passed, failed)."""
    passed = failed = 0
    status, shown, took = run_torture(kernel, TORTURE_SHORT_SECONDS, TORTURE_MACHINE,
                                      TORTURE_SHORT_CMDLINE, "torture-short.log")
    ok = status == EXIT_TORTURE_CLEAN and shown and shown[-1] == "torture: clean"
    for line in shown:
        if not line.startswith("torture: ") or re.match(
                r"torture: (\d+ s on|cpu|all|failed|\d+ checkpoints|reports seen|free pages|clean"
                r"|FAILED)|torture: +\d+ +\d+ ", line):
            print("  " + line)
    print("  %s - %d s of torture on 4 CPUs ends clean (%.0f s; log: "
          "build/test-logs/torture-short.log)" % ("ok" if ok else "not ok",
                                                 TORTURE_SHORT_SECONDS, took), flush=True)
    passed, failed = passed + ok, failed + (not ok)
    cmdline, want = TORTURE_SELFTEST
    status, shown, took = run_torture(kernel, 2, TORTURE_MACHINE, cmdline,
                                      "torture-selftest.log")
    ok = status == EXIT_TORTURE_FAILED and any(want in l for l in shown) and \
        any(l.startswith("torture: FAILED") for l in shown)
    print("  %s - a torture run whose free path frees one object twice fails, the report "
          "counted (%.0f s)" % ("ok" if ok else "not ok", took), flush=True)
    if not ok:
        print("\n".join("      " + l for l in shown[-8:]))
    passed, failed = passed + ok, failed + (not ok)
    for options, want in TORTURE_REFUSALS:
        status, shown, took = run_torture(kernel, 2, TORTURE_REFUSAL_MACHINE, options,
                                          "torture-refusal.log")
        ok = status == EXIT_TORTURE_FAILED and any(want in l for l in shown) and \
            not any(l.startswith("torture: ") and " s on " in l for l in shown)
        print("  %s - torture refuses %s in one line, before it starts (%.0f s)"
              % ("ok" if ok else "not ok", options, took), flush=True)
        if not ok:
            print("\n".join("      " + l for l in shown[-8:]))
        passed, failed = passed + ok, failed + (not ok)
    return passed, failed


# ---------------------------------------------------------------- the traces

TRACES = os.path.join(ROOT, "tests", "traces")
REPLAY_SAMPLE = os.path.join(ROOT, "tests", "replay", "sample.kmr")
# The lines of a replay worth showing: its own, and any report.
REPLAY_SHOWN = re.compile(r"^replay:|BUG|WARNING|Kernel panic|Oops")
REPLAY_ICOUNT = ["-icount", "shift=0,align=off,sleep=off"]


def shipped_traces():
    """The traces captured from Linux that the repository ships (tests/traces/<T>.kmr.gz)."""
    return sorted(glob.glob(os.path.join(TRACES, "*.kmr.gz")))


def trace_name(path):
    """tests/traces/tmpfs.kmr.gz -> tmpfs"""
    name = os.path.basename(path)
    for suffix in (".gz", ".kmr"):
        if name.endswith(suffix):
            name = name[:-len(suffix)]
    return name


def prepare_traces(paths, scratch, max_events=None):
    """Each trace decompressed (if a .gz) into SCRATCH, with only its first MAX_EVENTS
    events if given (a prefix of a valid trace is valid: an object is freed after it is
    allocated, a cache declared before its use); [(path, "<T>.kmr")] for make_iso()."""
    modules = []
    for path in paths:
        name = trace_name(path) + ".kmr"
        out = os.path.join(scratch, name)
        with (gzip.open if path.endswith(".gz") else open)(path, "rb") as src, \
                open(out, "wb") as dst:
            if max_events is None:
                shutil.copyfileobj(src, dst)
            else:
                events = 0
                for line in src:
                    events += line[:1] in (b"a", b"k", b"p", b"v", b"f")
                    if events > max_events:
                        break
                    dst.write(line)
        modules.append((out, name))
    return modules


def run_replay(kernel, traces, qemu_args, cmdline, log_name, icount, max_events=None,
               timeout=3600):
    """Boot KERNEL with "replay" and the TRACES as modules; return (status, lines, seconds).
    ICOUNT: under -icount (the figures are instructions); else as fast as TCG goes."""
    start = time.monotonic()
    args = (REPLAY_ICOUNT if icount else []) + shlex.split(qemu_args)
    with tempfile.TemporaryDirectory(prefix="kmem-replay-") as scratch:
        modules = prepare_traces(traces, scratch, max_events)
        iso = os.path.join(scratch, "kmem.iso")
        make_iso(kernel, ("replay " + cmdline).strip(), iso, modules)
        status, lines = run_qemu(qemu_command(iso, args, False, scratch), timeout,
                                 os.path.join(LOG_DIR, log_name),
                                 stop_when=lambda l: l.startswith("replay: done"))
    return status, lines, time.monotonic() - start


def replay_clean(status, lines):
    return status == EXIT_REPLAY_CLEAN and "replay: clean" in lines


def cmd_replay(a):
    """make replay TRACE=file [SMP=N]: the figures of each trace, beside Linux's if known."""
    missing = [t for t in a.trace if not os.path.isfile(t)]
    if missing:
        raise SystemExit("qemu_runner: no such trace: %s" % " ".join(missing))
    qemu_args = shlex.split(a.qemu_args)
    if not has_option(qemu_args, "-m"):
        qemu_args += ["-m", "1G"]
    if "-smp" not in qemu_args:
        qemu_args += ["-smp", str(a.smp)]
    cmdline = ("replay.figures=1 " + a.cmdline).strip()
    print("make replay: %s on %s%s; figures are %s" % (
        " ".join(os.path.relpath(t) for t in a.trace), " ".join(qemu_args),
        "; kernel: " + cmdline, "wall-clock TSC cycles" if a.wall else
        "guest instructions (QEMU -icount: the TSC counts instructions)"), flush=True)
    status, lines, took = run_replay(a.kernel, a.trace, " ".join(shlex.quote(w) for w in qemu_args),
                                     cmdline, "replay.log", not a.wall, timeout=a.timeout)
    ours = []
    for line in lines:
        m = LINUX_ROW.match(line)
        if m:
            ours.append(m.groups())
        elif REPLAY_SHOWN.search(line):
            print(line)
    if ours:
        print_linux_comparison(ours, a.linux_reference, a.wall)
    if replay_clean(status, lines):
        print("1 passed, 0 failed (%.0f s; log: build/test-logs/replay.log)" % took)
        return 0
    print("replay: QEMU ended with status %s (see build/test-logs/replay.log)" % status)
    print("0 passed, 1 failed")
    return 1


# make test's replay: each shipped trace's first events, and the sample, on 1 and on 4 CPUs.
REPLAY_STAGE_EVENTS = 20000
REPLAY_STAGE_MACHINE = "-machine q35 -m 1G -smp %d"


def replay_stage(kernel):
    """Every trace replayed on 1 and 4 CPUs without a report, leak or id error, and a malformed
    one refused: (passed, failed)."""
    passed = failed = 0
    traces = shipped_traces() + [REPLAY_SAMPLE]
    for cpus in (1, 4):
        machine = REPLAY_STAGE_MACHINE % cpus
        log = "replay-%dcpu.log" % cpus
        status, lines, took = run_replay(kernel, traces, machine,
                                         with_lockdep(shlex.split(machine),
                                                      "replay.cpus=%d" % cpus),
                                         log, False, REPLAY_STAGE_EVENTS, timeout=600)
        ok = replay_clean(status, lines)
        for line in lines:
            if REPLAY_SHOWN.search(line) and not line.startswith("replay: done"):
                print("  " + line)
        print("  %s - %d trace%s replayed on %d CPU%s: no report, leak or id error (%.0f s; "
              "log: build/test-logs/%s)" % ("ok" if ok else "not ok", len(traces),
                                            "s" * (len(traces) > 1), cpus, "s" * (cpus > 1),
                                            took, log), flush=True)
        passed, failed = passed + ok, failed + (not ok)
    with tempfile.TemporaryDirectory(prefix="kmem-replay-bad-") as scratch:
        bad = os.path.join(scratch, "malformed.kmr")
        with open(bad, "w") as f:
            f.write(REPLAY_MALFORMED)
        status, lines, took = run_replay(kernel, [bad, REPLAY_SAMPLE], REPLAY_STAGE_MACHINE % 1,
                                         "replay.cpus=1", "replay-malformed.log", False,
                                         timeout=300)
    ok = status == EXIT_REPLAY_FAILED and REPLAY_REFUSAL in lines and \
        "replay: malformed: refused (nothing replayed)" in lines and \
        any(l.startswith("replay: FAILED: a trace refused") for l in lines)
    print("  %s - a malformed trace is refused on its line, and fails the replay (%.0f s)"
          % ("ok" if ok else "not ok", took), flush=True)
    if not ok:
        print("\n".join("      " + l for l in lines if REPLAY_SHOWN.search(l))[-2000:])
    return passed + ok, failed + (not ok)


# The stage's self-test: a trace whose fourth line frees an id that is not live.
REPLAY_MALFORMED = "#kmem-replay 1\nS 4\na 0 8 cc0 0\nf 1 0\n"
REPLAY_REFUSAL = "replay: line 4: id 1 not live"


def bench_traces(a):
    """make bench's second boot: every shipped trace on 8 CPUs under -icount; its rows."""
    traces = shipped_traces()
    if not traces or a.wall or not fnmatch.fnmatch("trace", a.bench):
        return []
    status, lines, took = run_replay(a.kernel, traces, "-machine pc -m 1G -smp 8",
                                     "replay.figures=1", "bench-replay.log", True)
    print("make bench: the traces (%s) replayed on -smp 8 -m 1G in %.0f s" %
          (" ".join(trace_name(t) for t in traces), took))
    for line in lines:
        if line.startswith("replay: ") and not line.startswith("replay: done"):
            print(line)
    if not replay_clean(status, lines):
        print("bench: the replay ended with status %s; see build/test-logs/bench-replay.log"
              % status)
    return [LINUX_ROW.match(l).groups() for l in lines if LINUX_ROW.match(l)]


# "bench: linux KEY FIGURE ROW NAME": a row that make bench-linux measured on Linux too.
LINUX_ROW = re.compile(r"^bench: linux (\S+) (\S+) (.*)$")


def read_linux_reference(path):
    """tests/bench/linux-reference.txt -> ({word: [rest of line]}, [series], {key: [figures]})."""
    header, figures = {}, {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "figure":
                figures[words[1]] = words[2:]
            elif words[0] != "info":
                header.setdefault(words[0], []).append(" ".join(words[1:]))
    return header, header.get("columns", [""])[0].split(), figures


def print_linux_comparison(ours, path, wall):
    """Our rows that name a Linux key, beside Linux's figures for that key and the ratio."""
    if wall:
        print("(no comparison with Linux: its figures are instruction counts, not time)")
        return
    try:
        header, series, figures = read_linux_reference(path)
    except OSError:
        print("(no comparison with Linux: %s is missing; make bench-linux writes it)" % path)
        return
    print("Linux in the same QEMU, same workloads: %s (make bench-linux, %s)"
          % (os.path.relpath(path, ROOT), header.get("date", ["?"])[0]))
    kernels_used = ", ".join(k.split()[1] for k in header.get("kernel", []))
    print("  kernels %s; command line: %s" % (kernels_used, header.get("cmdline", ["?"])[0]))
    # (the traces' keys and names are longer than the rows': the columns widen for them)
    nw = max([44] + [len(name) for _, _, name in ours])
    kw = max([16] + [len(key) for key, _, _ in ours])
    print("%-*s %-*s %9s" % (nw, "benchmark", kw, "linux key", "ours")
          + "".join("%11s" % ("Linux " + s) for s in series) + "  ours/best")
    for key, figure, name in ours:
        theirs = figures.get(key, [])
        known = [float(t) for t in theirs if t != "-"]
        ratio = "%9.2fx" % (float(figure) / min(known)) if known and min(known) else "%10s" % "-"
        print("%-*s %-*s %9s" % (nw, name, kw, key, figure)
              + "".join("%11s" % t for t in theirs + ["-"] * (len(series) - len(theirs)))
              + " " + ratio)


def read_host_results(path):
    try:
        with open(path) as f:
            m = re.search(r"(\d+) passed, (\d+) failed", f.read())
    except OSError:
        m = None
    if not m:
        print("host tests: no results in %s" % path)
        return 0, 1
    return int(m.group(1)), int(m.group(2))


def read_matrix(path):
    with open(path) as f:
        return [l.split(None, 1) for l in f if l.strip() and not l.startswith("#")]


# ---------------------------------------------------------------- the monitor

MONITOR_MACHINE = ["-machine", "pc", "-m", "256M", "-smp", "2"]
BAD_INPUTS = os.path.join(ROOT, "tests", "monitor", "bad_inputs.txt")
DOCS = [os.path.join(ROOT, "README.md")] + sorted(
    os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
    if f.endswith(".md"))


def fenced_block_after(path, heading):
    """The lines of the first fenced block after the line that contains @heading."""
    with open(path) as f:
        lines = f.read().split("\n")
    start = next(i for i, l in enumerate(lines) if heading in l)
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return lines[first + 1:lines.index("```", first + 1)]


def check_readme_excerpt(matrix):
    """The README's `make test` excerpt names what `make test` runs: the matrix
    machines, the monitor checks and every self-test, in order.  Its figures
    are one run's; this checks the names, which a change can leave behind."""
    block = fenced_block_after(os.path.join(ROOT, "README.md"), "### What `make test` shows")
    sections = [l[4:].split(":")[0] for l in block if l.startswith("=== ")]
    want = [name for name, _ in read_matrix(matrix)] + ["torture", "replay", "monitor",
                                                        "runner self-test"]
    problems = []
    if sections != want:
        problems.append("'=== ' sections %s, but make test runs %s" % (sections, want))
    selftests = [l[len("ok - "):] for l in block if l.startswith("ok - ")]
    if selftests != [t[0] for t in SELFTESTS]:
        problems.append("self-test lines %s, but the self-test proves %s"
                        % (selftests, [t[0] for t in SELFTESTS]))
    if not re.fullmatch(r"\d+ passed, 0 failed(, \d+ skipped)?", block[-1]):
        problems.append("it does not end with the 'N passed, 0 failed' line")
    return problems


def check_suite_table():
    """docs/testing.md's table of suites names every suite of tests/kernel/, and no other."""
    suites = set()
    kernel_tests = os.path.join(ROOT, "tests", "kernel")
    for name in os.listdir(kernel_tests):
        with open(os.path.join(kernel_tests, name)) as f:
            suites |= set(re.findall(r"struct kunit_suite \w+ = \{[^}]*?\.name = \"(\w+)\"",
                                     f.read()))
    with open(os.path.join(ROOT, "docs", "testing.md")) as f:
        listed = set(re.findall(r"^\| `(\w+)` \(`\w+\.c`\) \|", f.read(), re.M))
    return ["not in the table: %s" % " ".join(sorted(suites - listed))] * bool(suites - listed) + \
        ["in the table but not in tests/kernel/: %s" % " ".join(sorted(listed - suites))] * \
        bool(listed - suites)


# Where the image (with its .bss) may end, physically.  On `pc -m 6M` GRUB
# (Debian 12's 2.06) still loaded a kernel ending at 3442 KiB and not one at
# 3474 (docs/testing.md, "The smallest machine"); 256 KiB below that is kept
# for suites added from outside the repository (GRADE_EXTRA=, a grader's).
IMAGE_END_LIMIT_KIB = 3440 - 256


def image_end_kib(kernel):
    """The highest physical address a LOAD segment of the ELF KERNEL reaches, in KiB."""
    with open(kernel, "rb") as f:
        elf = f.read()
    phoff, = struct.unpack_from("<Q", elf, 32)
    phentsize, phnum = struct.unpack_from("<HH", elf, 54)
    end = 0
    for i in range(phnum):
        p_type, _, _, _, p_paddr, _, p_memsz = struct.unpack_from("<IIQQQQQ", elf,
                                                                    phoff + i * phentsize)
        if p_type == 1:         # PT_LOAD
            end = max(end, p_paddr + p_memsz)
    return end / 1024


def outside_sources():
    """Sources under tests/kernel that git does not track: suites added from outside."""
    try:
        out = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "tests/kernel"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return [l for l in out.split() if l.endswith(".c")]


def check_room_for_outside_suites(kernel):
    """The repository's image leaves GRUB room for 256 KiB more on the 6 MiB machine
    (not checked when suites from outside are built in: they are what the room is for)."""
    end = image_end_kib(kernel)
    if end <= IMAGE_END_LIMIT_KIB or outside_sources():
        return []
    return ["the image ends at %d KiB, above %d: it leaves less than 256 KiB for suites added "
            "from outside on pc-6M-2cpu; allocate large test buffers per case instead of keeping "
            "them static (nm -S --size-sort %s | grep ' [bBdD] ')"
            % (end, IMAGE_END_LIMIT_KIB, os.path.relpath(kernel, ROOT))]


def print_check(what, problems):
    print("  %s - %s" % ("not ok" if problems else "ok", what))
    for problem in problems:
        print("      " + problem)
    return (not problems), bool(problems)


def monitor_checks(kernel, matrix):
    """Bad input at the prompt, the docs' transcripts, the golden pictures, make run UEFI=1,
    the lists in the docs: (passed, failed)."""
    with tempfile.TemporaryDirectory(prefix="kmem-monitor-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        make_iso(kernel, "", iso)
        start = time.monotonic()
        passed, failed = monitor_check.check_bad_inputs(
            qemu_command(iso, MONITOR_MACHINE, False, scratch), BAD_INPUTS,
            os.path.join(LOG_DIR, "monitor-bad-inputs.log"), say=lambda l: print("  " + l))
    print("  bad input (%s, a line too long, Ctrl-C): %d passed, %d failed (%.1f s; "
          "log: build/test-logs/monitor-bad-inputs.log)"
          % (os.path.relpath(BAD_INPUTS, ROOT), passed, failed, time.monotonic() - start),
          flush=True)
    p, f = monitor_check.check_transcripts(DOCS, LOG_DIR, say=lambda l: print("  " + l))
    passed, failed = passed + p, failed + f
    p, f = monitor_check.check_golden(LOG_DIR, say=lambda l: print("  " + l))
    passed, failed = passed + p, failed + f
    p, f = monitor_check.check_kvdemo_step(os.path.join(LOG_DIR, "monitor-kvdemo-step.log"),
                                           say=lambda l: print("  " + l))
    passed, failed = passed + p, failed + f
    p, f = screen_check.check_screen(qemu_command, make_iso, kernel, LOG_DIR,
                                     say=lambda l: print("  " + l))
    passed, failed = passed + p, failed + f
    start = time.monotonic()
    p, f = monitor_check.check_run_uefi(os.path.join(LOG_DIR, "monitor-run-uefi.log"),
                                        say=lambda l: print("  " + l))
    print("  make run UEFI=1: %d passed, %d failed (%.1f s; log: "
          "build/test-logs/monitor-run-uefi.log)" % (p, f, time.monotonic() - start), flush=True)
    passed, failed = passed + p, failed + f
    for what, problems in [
            ("README.md: the make test excerpt names the machines and self-tests",
             check_readme_excerpt(matrix)),
            ("docs/testing.md: the table of suites names every suite", check_suite_table())] + \
            [(what, check()) for what, check in docs_check.CHECKS] + [
            ("%s: ends at %d KiB, leaving 256 KiB of room on pc-6M-2cpu%s"
             % (os.path.relpath(kernel, ROOT), image_end_kib(kernel),
                " (not checked: %d suites from outside are built in)" % len(outside_sources())
                if outside_sources() else ""),
             check_room_for_outside_suites(kernel))]:
        p, f = print_check(what, problems)
        passed, failed = passed + p, failed + f
    return passed, failed


def cmd_monitor(a):
    passed, failed = monitor_checks(a.kernel, a.matrix)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def cmd_all(a):
    passed = failed = skipped = 0
    if not a.only_variant:
        passed, failed = read_host_results(a.host_results)
        print("host tests: %d passed, %d failed" % (passed, failed), flush=True)
    variants = dict(v.split("=", 1) for v in a.kernel_variant)
    for name, options in read_matrix(a.matrix):
        uefi, cmdline, qemu_args, variant = split_config(options)
        if a.only_variant and variant != a.only_variant:
            continue
        print("=== %s: %s" % (name, options.strip()), flush=True)
        if variant and variant not in variants:
            print("  no kernel for kernel=%s (the Makefile passes --kernel-variant)" % variant)
            failed += 1
            continue
        run = run_tests(variants.get(variant, a.kernel), a.tests, qemu_args, uefi, a.timeout,
                        name, cmdline=cmdline)
        report(run)
        passed, failed, skipped = passed + run.passed, failed + run.failed, skipped + run.skipped
        if any(p.startswith("NO TESTS") for p in run.problems):
            print("=== stopping: TESTS='%s' selects nothing on any machine" % a.tests)
            break
    if a.only_variant or a.tests != "*":
        print("=== torture: left out (%s)" % ("make torture KASAN=1 tortures the KASAN kernel"
                                             if a.only_variant else
                                             "TESTS='%s' selects in-kernel suites" % a.tests))
    else:
        print("=== torture: %d s on 4 CPUs (%s), and its self-test"
              % (TORTURE_SHORT_SECONDS, TORTURE_MACHINE), flush=True)
        p, f = torture_stage(a.kernel)
        passed, failed = passed + p, failed + f
    if a.only_variant or a.tests != "*":
        print("=== replay: left out (%s)" % ("the traces replay on the plain kernel"
                                            if a.only_variant else
                                            "TESTS='%s' selects in-kernel suites" % a.tests))
    else:
        print("=== replay: the traces (their first %d events) on 1 and on 4 CPUs (%s)"
              % (REPLAY_STAGE_EVENTS, REPLAY_STAGE_MACHINE % 4), flush=True)
        p, f = replay_stage(a.kernel)
        passed, failed = passed + p, failed + f
    if a.only_variant:
        print("=== monitor: left out (%s=1 runs the %s machines%s)"
              % (a.only_variant.upper(), a.only_variant,
                 " and self-test" if a.only_variant == "kasan" else ""))
    elif a.tests == "*":
        print("=== monitor: bad input at the prompt, the docs' transcripts, make run UEFI=1", flush=True)
        p, f = monitor_checks(a.kernel, a.matrix)
        passed, failed = passed + p, failed + f
    else:
        print("=== monitor: left out (TESTS='%s' selects in-kernel suites)" % a.tests)
    if a.only_variant and a.only_variant != "kasan":
        # (make test KCSAN=1: the self-test is the plain and KASAN kernels' business)
        print("=== runner self-test: left out (%s=1)" % a.only_variant.upper())
    else:
        print("=== runner self-test", flush=True)
        p, f = selftest(a.selftest_kernel, a.kasan_selftest_kernel, a.only_variant == "kasan")
        passed, failed = passed + p, failed + f
    print("%d passed, %d failed%s" % (passed, failed,
                                      ", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("iso")
    p.add_argument("--kernel", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--cmdline", default="")
    p = sub.add_parser("boot-medium", help="the options that boot an ISO (make run)")
    p.add_argument("--iso", required=True)
    p.add_argument("--qemu-args", default="")
    p.add_argument("--uefi", metavar="DIR",
                   help="boot through OVMF, with its variable store copied into DIR")
    for name in ("test", "bench", "all", "monitor"):
        p = sub.add_parser(name)
        p.add_argument("--kernel", required=True)
        p.add_argument("--qemu-args", default="")
        p.add_argument("--timeout", type=int, default=300)
        p.add_argument("--tests", default="*")
        p.add_argument("--uefi", action="store_true")
        p.add_argument("--cmdline", default="", help="more kernel command line")
        p.add_argument("--verbose", "-v", action="store_true")
        p.add_argument("--bench", default="*")
        p.add_argument("--wall", action="store_true")
        p.add_argument("--linux-reference",
                       default=os.path.join(ROOT, "tests", "bench", "linux-reference.txt"))
        p.add_argument("--selftest-kernel")
        p.add_argument("--kasan-selftest-kernel", help="for the KASAN self-test")
        p.add_argument("--only-variant", metavar="NAME",
                       help="only the matrix lines that say kernel=NAME (make test KASAN=1, KCSAN=1)")
        p.add_argument("--matrix")
        p.add_argument("--host-results")
        p.add_argument("--kernel-variant", action="append", default=[], metavar="NAME=PATH",
                       help="the kernel for matrix lines that say kernel=NAME")
    p = sub.add_parser("selftest")
    p.add_argument("--selftest-kernel", required=True)
    p.add_argument("--kasan-selftest-kernel", required=True)
    p = sub.add_parser("replay")
    p.add_argument("--kernel", required=True)
    p.add_argument("--trace", action="append", required=True,
                   help="a trace, <T>.kmr or <T>.kmr.gz (again for more)")
    p.add_argument("--smp", type=int, default=1)
    p.add_argument("--qemu-args", default="")
    p.add_argument("--cmdline", default="", help="more kernel command line (replay.cpus=...)")
    p.add_argument("--timeout", type=int, default=3600)
    p.add_argument("--wall", action="store_true", help="no -icount: wall-clock TSC cycles")
    p.add_argument("--linux-reference",
                   default=os.path.join(ROOT, "tests", "bench", "linux-reference.txt"))
    p = sub.add_parser("torture")
    p.add_argument("--kernel", required=True)
    p.add_argument("--seconds", type=int, default=600)
    p.add_argument("--qemu-args", default="")
    p.add_argument("--cmdline", default="", help="more kernel command line")
    a = ap.parse_args()
    if a.command == "iso":
        make_iso(a.kernel, a.cmdline, a.output)
        return 0
    if a.command == "boot-medium":
        qemu_args = shlex.split(a.qemu_args)
        options = boot_medium(a.iso, qemu_args, bool(a.uefi))
        if a.uefi:
            options += ovmf_options(a.uefi)
        print(" ".join(options))
        return 0
    return {"test": cmd_test, "selftest": cmd_selftest, "bench": cmd_bench,
            "all": cmd_all, "monitor": cmd_monitor,
            "torture": cmd_torture, "replay": cmd_replay}[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
