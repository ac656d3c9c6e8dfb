#!/usr/bin/env python3
"""tests/grade/grade.py - `make grade`: the labs' graded tests, with points.

What is graded, and what it is worth, is in tests/grade/points.txt (read by
points.py).  For each lab and each machine it names (tests/matrix.txt), the
test kernel is booted once with a KUnit filter that selects the lab's tests
there (qemu_runner.run_tests()); the KTAP it prints decides each test: it
earns its points if, on every one of its machines, none of the cases it
selects failed and not all of them skipped.

A case that oopses is caught by KUnit and the run goes on, but whatever it
held (a lock, say) stays held: the tests that ran after it are run again in
a fresh boot, and so are those that had not finished when a run crashed or
hung.  So a broken case costs its own test and no other.

It prints one line per test, OK or FAIL with its points and time, the
failures' diagnostics, and the score, as xv6's `make grade` does; and
writes Gradescope's results.json (--json; make grade: build/grade.json).

  python3 tests/grade/grade.py --kernel build/kernel.elf [--lab LAB]... [--extra DIR]
"""

import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import qemu_runner  # noqa: E402
import points  # noqa: E402

EXCERPT_LINES = 12        # diagnostics shown for a failed case
SHOWN_FAILURES = 3        # failed cases shown with their diagnostics, per test and machine


class CaseResult:
    def __init__(self, suite, case, status, diag, reason, seconds):
        self.suite, self.case, self.status, self.diag = suite, case, status, diag
        self.reason, self.seconds = reason, seconds
        self.crashed = any("test case crashed" in d for d in diag)


def case_results(run):
    """The cases of a run in the order they ran, each with its time."""
    times, started, begun = [], None, False
    for line, stamp in zip(run.lines, run.stamps):
        if not begun:
            begun = line.strip() == "KTAP version 1" and not line.startswith(" ")
            continue
        if re.match(r"^    # \S+: running$", line):
            started = stamp
        elif re.match(r"^    (ok|not ok) \d+ ", line):
            times.append(stamp - started if started is not None else 0.0)
            started = None
    return [CaseResult(suite, case, status, diag, reason, t)
            for (suite, case, status, diag, reason), t in zip(run.cases, times)]


def finished_suites(run):
    return {m.group(4) for m in map(qemu_runner.Ktap.RESULT.match, run.lines)
            if m and not m.group(1)}


class Outcome:
    """What one test did on one machine."""

    def __init__(self, machine, ok, seconds, lines):
        self.machine, self.ok, self.seconds, self.lines = machine, ok, seconds, lines


def judge_test(test, cases, machine):
    """A test's outcome from the cases it selected (all of them ran to the end)."""
    mine = [c for c in cases if test.selects(c.suite, c.case)]
    seconds = sum(c.seconds for c in mine)
    if not mine:
        return Outcome(machine, False, 0.0, ["no case matches %s on this kernel" % test.glob])
    failed = [c for c in mine if c.status == "not ok"]
    lines = []
    for c in failed[:SHOWN_FAILURES]:
        lines.append("%s.%s: failed" % (c.suite, c.case))
        lines += ["    " + d for d in qemu_runner.excerpt(c.diag, 4, EXCERPT_LINES - 4)]
    if len(failed) > SHOWN_FAILURES:
        lines.append("and %d more failed: %s" % (len(failed) - SHOWN_FAILURES, ", ".join(
            "%s.%s" % (c.suite, c.case) for c in failed[SHOWN_FAILURES:])))
    if all(c.status == "skip" for c in mine):
        lines.append("every case skipped here (%s): points.txt should not grade it on %s"
                     % (mine[0].reason or "no reason given", machine))
    return Outcome(machine, not lines, seconds, lines)


MAX_FILTER = 127          # kernel/main.c: kunit.filter_glob's buffer


def boot_filter(tests, machine):
    """One KUnit filter for @tests: their globs, a case's left out where its whole
    suite is in; if that is still too long for the kernel, whole suites."""
    parts = []
    for t in tests:
        parts += [p for p in t.glob.split(",") if p not in parts]
    whole = [p for p in parts if "." not in p]
    parts = [p for p in parts if "." not in p or
             not any(points.fnmatch.fnmatchcase(p.split(".")[0], w) for w in whole)]
    if len(",".join(parts)) > MAX_FILTER:
        parts = list(dict.fromkeys(p.split(".")[0] for p in parts))
    if len(",".join(parts)) > MAX_FILTER:
        raise SystemExit("grade: the tests on %s select more suites than one kernel command line "
                         "holds (%s); split the lab's machines" % (machine, ",".join(parts)))
    return ",".join(parts)


def run_machine(kernel, lab, machine, options, tests, timeout, say):
    """Run @tests on one machine; {test: Outcome}.  Boots again after a crash."""
    uefi, cmdline, qemu_args, variant = qemu_runner.split_config(options)
    if variant:
        sys.exit("make grade: machine %s boots another kernel (kernel=%s): a lab names "
                 "machines that boot the one being graded" % (machine, variant))
    results, pending, boots = {}, list(tests), 0
    while pending:
        glob = boot_filter(pending, machine)
        boots += 1
        name = "grade-%s-%s%s" % (lab, machine, "-%d" % boots if boots > 1 else "")
        run = qemu_runner.run_tests(kernel, glob, qemu_args, uefi, timeout, name,
                                    cmdline=cmdline)
        cases = case_results(run)
        say("    %s: %d cases in %.1f s (boot and all; log: build/test-logs/%s.log)%s"
            % (machine, len(cases), run.seconds, name,
               "" if boots == 1 else ", again after a crash"))
        crash = next((i for i, c in enumerate(cases) if c.crashed), None)
        died = [p for p in run.problems if not p.startswith("NO TESTS")]
        done = finished_suites(run)
        still = []
        for test in pending:
            at = [i for i, c in enumerate(cases) if test.selects(c.suite, c.case)]
            # the case running when the run died or hung, after every case that ended
            died_in_it = died and run.stopped_in[0] and test.selects(run.stopped_in[0],
                                                                     run.stopped_in[1] or "*")
            if crash is not None and crash in at:
                results[test] = judge_test(test, cases[:crash + 1], machine)
            elif crash is not None and (died_in_it or any(i > crash for i in at)):
                still.append(test)      # ran after the oops: maybe its victim
            elif died_in_it:
                results[test] = Outcome(machine, False, sum(cases[i].seconds for i in at),
                                        [p for p in died] +
                                        ["    " + l for l in qemu_runner.crash_lines(run)])
            elif died and not all(fnmatch_suites(test, done, cases)):
                still.append(test)      # never reached its suites
            else:
                results[test] = judge_test(test, cases, machine)
        if len(still) == len(pending):  # nothing decided: never loop
            for test in still:
                results[test] = Outcome(machine, False, 0.0, died or ["no result"])
            still = []
        pending = still
    return results


def fnmatch_suites(test, done, cases):
    """For each suite that ran or was planned for @test: did it finish?"""
    suites = {c.suite for c in cases if test.selects(c.suite, c.case)}
    return [s in done for s in suites] or [False]


def grade_lab(kernel, lab, matrix, timeout, say):
    """{test: [Outcome per machine]} for every test of @lab."""
    outcomes = {t: [] for t in lab.tests}
    machines = []
    for t in lab.tests:
        machines += [m for m in lab.machines_of(t) if m not in machines]
    for machine in machines:
        if machine not in matrix:
            raise SystemExit("grade: %s: lab %s runs on '%s', which is not in tests/matrix.txt"
                             % (lab.where, lab.name, machine))
        tests = [t for t in lab.tests if machine in lab.machines_of(t)]
        for test, outcome in run_machine(kernel, lab.name, machine, matrix[machine], tests,
                                         timeout, say).items():
            outcomes[test].append(outcome)
    return outcomes


def test_name(test):
    return "%s: %s" % (test.lab, test.glob)


def report_lab(lab, number, width, say):
    """Print @lab's tests, OK or FAIL, and its score; return (its results.json tests, score)."""
    tests, got = [], 0
    for n, test in enumerate(lab.tests, 1):
        outcome = lab.outcomes[test]
        ok = all(o.ok for o in outcome)
        score = test.points if ok else 0
        got += score
        # a hidden test's line and diagnostics go to the terminal, not to results.json's
        # output, which Gradescope shows students whatever the test's visibility
        say("%-*s  %s %3s/%-3s (%.2f s)" % (width, test_name(test), "OK  " if ok else "FAIL",
                                           score, test.points, sum(o.seconds for o in outcome)),
            test.hidden)
        text = []
        for o in outcome:
            text.append("%s on %s (%.1f s)" % ("OK" if o.ok else "FAIL", o.machine, o.seconds))
            text += ["    " + l for l in o.lines]
        if not ok:
            for line in text:
                if not line.startswith("OK"):
                    say("    " + line, test.hidden)
        tests.append({"name": test_name(test) + (" (hidden)" if test.hidden else ""),
                      "number": "%d.%d" % (number, n), "score": score,
                      "max_score": test.points, "status": "passed" if ok else "failed",
                      "output": "\n".join(text),
                      "visibility": test.visibility or lab.visibility, "tags": [lab.name]})
    say("lab %s: %s/%s" % (lab.name, got, sum(t.points for t in lab.tests)))
    return tests, got


def read_matrix(path):
    return {name: options for name, options in qemu_runner.read_matrix(path)}


def extra_suites(directory):
    """The KUnit suites defined in GRADE_EXTRA's .c files."""
    found = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".c"):
            with open(os.path.join(directory, name)) as f:
                found += re.findall(r"struct kunit_suite \w+ = \{[^}]*?\.name = \"(\w+)\"",
                                    f.read())
    return found


def add_extra(labs, graded, directory):
    """GRADE_EXTRA's tests: as its points.txt says, else each suite for 1 point in
    the last lab graded."""
    path = os.path.join(directory, "points.txt")
    if os.path.exists(path):
        points.read_points(path, labs)
    listed = {s for lab in labs.values() for t in lab.tests if t.hidden for s, _ in t.parts}
    for suite in extra_suites(directory):
        if suite not in listed:
            lab = labs[graded[-1]]
            test = points.Test(lab.name, 1, suite, [], "%s (no points.txt line)" % directory)
            test.hidden, test.visibility = True, "after_due_date"
            lab.tests.append(test)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--lab", action="append", default=[],
                    help="grade this lab (repeat, or separate by commas); default: all")
    ap.add_argument("--extra", help="GRADE_EXTRA: a directory of hidden suites")
    ap.add_argument("--points", default=os.path.join(ROOT, points.POINTS))
    ap.add_argument("--matrix", default=os.path.join(ROOT, "tests", "matrix.txt"))
    ap.add_argument("--json", help="write Gradescope's results.json here")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per boot")
    a = ap.parse_args()
    start = time.monotonic()
    output = []

    def say(line, terminal_only=False):
        if not terminal_only:
            output.append(line)
        print(line, flush=True)

    try:
        labs = points.read_points(a.points)
    except points.PointsError as e:
        raise SystemExit("grade: %s" % e)
    graded = [l for arg in a.lab for l in re.split(r"[,\s]+", arg) if l] or list(labs)
    for name in graded:
        if name not in labs:
            raise SystemExit("grade: no lab '%s' (labs: %s)" % (name, " ".join(labs)))
    if a.extra:
        try:
            add_extra(labs, graded, a.extra)
        except points.PointsError as e:
            raise SystemExit("grade: %s" % e)
    matrix = read_matrix(a.matrix)
    width = max([len(test_name(t)) for n in graded for t in labs[n].tests] + [20])
    tests, total, max_total = [], 0, 0
    for number, name in enumerate(graded, 1):
        lab = labs[name]
        say("== lab %s (docs/labs/%s.md): %d tests on %s" % (
            name, name, len(lab.tests),
            ", ".join(sorted({m for t in lab.tests for m in lab.machines_of(t)}))))
        lab.outcomes = grade_lab(a.kernel, lab, matrix, a.timeout, say)
        lab_tests, got = report_lab(lab, number, width, say)
        tests += lab_tests
        total, max_total = total + got, max_total + sum(t.points for t in lab.tests)
    say("Score: %s/%s" % (total, max_total))
    results = {"score": total, "execution_time": round(time.monotonic() - start, 1),
               "output": "\n".join(output), "visibility": "visible",
               "stdout_visibility": "visible", "tests": tests}
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
        print("wrote %s (Gradescope's results.json)" % os.path.relpath(a.json))
    return 0


if __name__ == "__main__":
    sys.exit(main())
