#!/usr/bin/env python3
"""tests/grade/test_labs.py - `make test-labs`: prove that every lab can be done.

  1. The reference kernel (this tree's build/kernel.elf) scores full marks
     on every lab's tests (make grade).
  2. For each lab, its handout is made from this tree's tracked files (as
     `make handout` makes it, with its check that no solution is left), and
     in it:
       - the kernel builds with gcc, warning-free (-Werror), and with clang
         if clang is installed;
       - it boots to the monitor prompt and answers a command, with no oops;
       - the `printf ... | make run` transcripts of its lab's page
         (docs/labs/LAB.md) are what it prints, compared as make test compares
         the reference's pages (tests/monitor_check.py);
       - `make grade` there scores zero on every test of the lab, and full
         marks on every test of the labs it builds on.

A handout's build starts from a copy of this tree's build directories
(build/ and build/clang/, when they exist), so that make compiles only what
the handout changed: the objects of the unchanged files are those of the
reference, and make's own dependencies decide the rest.  --clean builds
each handout from nothing instead.  The handouts stay in build/labs/.

Each check is one test; the last line is "N passed, N failed".
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))

import grade as grade_py  # noqa: E402
import handout  # noqa: E402
import monitor_check  # noqa: E402
import points  # noqa: E402
import qemu_runner  # noqa: E402

LABS_DIR = os.path.join(ROOT, "build", "labs")


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what, details=()):
        print("  %s - %s" % ("ok" if ok else "not ok", what), flush=True)
        if not ok:
            for line in details:
                print("      " + line)
        self.passed, self.failed = self.passed + bool(ok), self.failed + (not ok)
        return ok


def grade(tree, kernel, labs):
    """Run make grade's script in @tree for @labs: (its results.json or None, its output,
    seconds per lab)."""
    out = os.path.join(tree, "build", "grade.json")
    if os.path.exists(out):
        os.remove(out)
    done = subprocess.run([sys.executable, os.path.join(tree, "tests", "grade", "grade.py"),
                           "--kernel", kernel, "--json", out] +
                          ["--lab=" + ",".join(labs)],
                          cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = done.stdout.decode(errors="replace")
    if done.returncode or not os.path.exists(out):
        return None, text, 0.0
    with open(out) as f:
        results = json.load(f)
    return results, text, results["execution_time"] / len(labs)


def lab_score(results, lab):
    tests = [t for t in results["tests"] if t["tags"] == [lab]]
    return sum(t["score"] for t in tests), sum(t["max_score"] for t in tests), tests


def check_scores(tally, results, text, lab, want_full, where, seconds):
    """@lab's tests in @results: all full marks, or all zero."""
    if results is None:
        tally.check(False, "%s: make grade in %s" % (lab, where), text.split("\n")[-15:])
        return
    got, most, tests = lab_score(results, lab)
    if want_full:
        wrong = [t for t in tests if t["score"] != t["max_score"]]
        what = "%s: %s/%s in %s (graded in %.0f s)" % (lab, got, most, where, seconds)
    else:
        wrong = [t for t in tests if t["score"]]
        what = "%s: %s/%s in its handout: every test fails until the lab is done (%.0f s)" % (
            lab, got, most, seconds)
    details = []
    for t in wrong:
        details.append("%s: %s/%s" % (t["name"], t["score"], t["max_score"]))
        details += ["    " + l for l in t["output"].split("\n")[:8]]
    tally.check(tests and not wrong, what, details)


def make(tree, args, what, tally):
    """make @args in @tree; a check that it built (warnings are errors: -Werror)."""
    start = time.monotonic()
    done = subprocess.run(["make", "-j2"] + args, cwd=tree, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    lines = done.stdout.decode(errors="replace").split("\n")
    compiled = sum(1 for l in lines if l.startswith("  CC "))
    return tally.check(done.returncode == 0, "%s, warning-free (%d files compiled, %.1f s)"
                       % (what, compiled, time.monotonic() - start),
                       [l for l in lines if l.strip()][-15:])


def boots_to_monitor(tree, tally):
    """The handout's kernel reaches the monitor prompt and answers meminfo, with no oops."""
    start = time.monotonic()
    problems = []
    with tempfile.TemporaryDirectory(prefix="kmem-labs-") as scratch:
        iso = os.path.join(scratch, "kmem.iso")
        qemu_runner.make_iso(os.path.join(tree, "build", "kernel.elf"), "", iso)
        cmd = qemu_runner.qemu_command(iso, qemu_runner.MONITOR_MACHINE, False, scratch)
        mon = None
        try:
            mon = monitor_check.Monitor(cmd, os.path.join(tree, "build", "test-logs",
                                                          "monitor-boot.log"))
            reply = mon.command("meminfo")
            if not any(l.startswith("MemFree:") for l in reply):
                problems.append("meminfo answered: %s" % " / ".join(reply[:3]))
            oops = [l for l in (mon.boot_log + "\n".join(reply)).split("\n")
                    if qemu_runner.OOPS_HEAD.search(l)]
            problems += ["at boot: " + l for l in oops[:6]]
        except monitor_check.MonitorGone as e:
            problems.append(str(e))
        finally:
            if mon:
                mon.close()
    tally.check(not problems, "boots to the monitor prompt, meminfo answers, no oops (%.1f s)"
                % (time.monotonic() - start), problems)


def check_lab_transcripts(out, lab, tally):
    """The `printf ... | make run` transcripts of the lab's page show what its handout prints
    (the page describes the kernel before the student's work; make test checks only the
    reference's pages)."""
    lines = []
    passed, failed = monitor_check.check_transcripts(
        [os.path.join(out, "docs", "labs", lab + ".md")], os.path.join(out, "build"),
        say=lines.append, tree=out)
    tally.check(passed and not failed, "docs/labs/%s.md's transcripts are what its handout "
                "prints (%d of them)" % (lab, passed + failed), lines)


def prove_lab(lab, labs, tally, clean, clang):
    out = os.path.join(LABS_DIR, lab)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(LABS_DIR, exist_ok=True)
    said, start = [], time.monotonic()
    try:
        handout.make_handout(lab, out, build_from=None if clean else os.path.join(ROOT, "build"),
                             say=said.append)
    except SystemExit as e:
        tally.check(False, "make handout LAB=%s" % lab, [str(e)])
        return
    tally.check(True, "make handout LAB=%s: %s (%.0f s)" % (lab, said[-1].split(": ", 1)[1],
                                                           time.monotonic() - start))
    log = subprocess.run(["git", "-C", out, "log", "--oneline"], capture_output=True, text=True)
    status = subprocess.run(["git", "-C", out, "status", "--porcelain"], capture_output=True,
                            text=True)
    tally.check(log.returncode == 0 and len(log.stdout.splitlines()) == 1 and
                not status.stdout.strip(),
                "the handout of %s is a git repository: one commit, nothing left out of it" % lab,
                (log.stdout + log.stderr + status.stdout).splitlines())
    if not make(out, ["build/kernel.elf"], "gcc build", tally):
        return
    if clang:
        make(out, ["CC=clang", "BUILD=build/clang", "build/clang/kernel.elf"], "clang build",
             tally)
    boots_to_monitor(out, tally)
    check_lab_transcripts(out, lab, tally)
    deps = points.depends_on(labs, lab)
    results, text, seconds = grade(out, os.path.join(out, "build", "kernel.elf"),
                                   [l for l in labs if l in deps or l == lab])
    check_scores(tally, results, text, lab, False, "its handout", seconds)
    for dep in [l for l in labs if l in deps]:
        check_scores(tally, results, text, dep, True, "the handout of %s (it builds on it)"
                     % lab, seconds)


# An oops as the kernel prints it inside a case (selftest_fault's, trimmed registers)
CRASH = """BUG: kernel NULL pointer dereference, address: 0000000000000000
#PF: supervisor read access in kernel mode
#PF: error_code(0x0000) - not-present page
Oops: 0000 [#1] SMP
CPU: 0
RIP: 0008:kfree+0x8/0x60
RSP: 0010:ffffffff801936d0 EFLAGS: 00000282
RAX: ffffffff8014e280 RBX: ffffffff80193710 RCX: 00000000000003fd
Call Trace:
 kfree+0x8/0x60
 free_to_sheaf+0x21/0x90
 slab_test_case+0x40/0x120
 run_one+0x7b/0x150
 run_suite+0x5f0/0x6b0
 kunit_run_all_tests+0x1d2/0x2d0
 kmain+0x56b/0x5b0
 high_entry+0x1e/0x1f
---[ end trace ]---
    # slab_test_case: test case crashed (oops above)""".split("\n")


def check_crash_summary(tally):
    """make grade's summary of a crashed case names where it crashed: RIP: and the top frames."""
    case = grade_py.CaseResult("slab", "slab_test_case", "not ok", CRASH, "", 0.1)
    lines = grade_py.judge_test(points.Test("slab", 1, "slab.slab_test_case", [], "points.txt"),
                                [case], "pc-256M-2cpu").lines
    text = "\n".join(lines)
    tally.check(all(k in text for k in ("BUG: kernel NULL", "RIP: 0008:kfree+0x8", "Call Trace:",
                                        "free_to_sheaf+0x21", "test case crashed")),
                "make grade's summary of a crash keeps RIP: and the top of the call trace",
                lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", default=os.path.join(ROOT, "build", "kernel.elf"))
    ap.add_argument("--lab", action="append", default=[], help="only these labs' handouts")
    ap.add_argument("--clean", action="store_true", help="build each handout from nothing")
    a = ap.parse_args()
    start = time.monotonic()
    tally = Tally()
    labs = points.read_points(os.path.join(ROOT, points.POINTS))
    chosen = [l for arg in a.lab for l in arg.split(",") if l] or list(labs)
    clang = shutil.which("clang") is not None
    print("make test-labs: the reference scores full marks; each lab's handout builds, boots "
          "and scores zero on its lab, full marks on the labs before it", flush=True)
    check_crash_summary(tally)
    print("=== reference: every lab", flush=True)
    results, text, seconds = grade(ROOT, a.kernel, list(labs))
    for lab in labs:
        check_scores(tally, results, text, lab, True, "the reference", seconds)
    for lab in chosen:
        print("=== handout %s (%s)" % (lab, os.path.relpath(os.path.join(LABS_DIR, lab), ROOT)),
              flush=True)
        prove_lab(lab, labs, tally, a.clean, clang)
    if not clang:
        print("(clang is not installed: the handouts were built with gcc only)")
    print("test-labs: %.0f s" % (time.monotonic() - start))
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
