#!/usr/bin/env python3
"""tools/mutants.py - put known bugs into the kernel one at a time and see which test notices.

`make mutants` (MUTANTS='id1,id2' for some).  Each mutant of tests/mutants.txt is a
realistic one-to-three-line bug: a unique snippet of one file and what replaces it.
The tool copies the tree once into build/mutants/tree (kept between runs, so that only
what changed is rebuilt), checks that the three stages below pass there without a mutant
(else a failure would pass for a kill; --no-baseline skips it), and for each mutant in turn:

  1. applies it to that copy and builds the kernel (a mutant that does not compile is
     "caught by the compiler": honest, but a weak catch, so the catalogue avoids them);
  2. runs, stopping at the first that fails:
       first     the suites the mutant names in its `first:` line (a shortcut only:
                 the full stages below still run if these do not catch it)
       host      make test-host
       debug     make test-qemu CMDLINE=slab_debug QEMU_ARGS='-smp 2' (checked caches)
       sheaves   make test-qemu QEMU_ARGS='-smp 2'  (the production configuration)
  3. puts the file back.

It prints, per mutant, the stage and the first test that failed (or the problem the
runner saw: a crash, a timeout), or SURVIVED; then the score, killed / applied.  A
mutant whose snippet is no longer in its file (the code moved on) is NOT APPLIED and
said so loudly: the catalogue needs updating, and it does not count either way.
Logs: build/mutants/logs/<id>.log; the table: build/mutants/results.txt.

Not part of `make test`: the whole catalogue takes tens of minutes.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "build", "mutants")
TREE = os.path.join(WORK, "tree")
LOGS = os.path.join(WORK, "logs")

STAGES = [
    ("host", None),
    ("debug", "slab_debug"),
    ("sheaves", ""),
]
QEMU_ARGS = "-smp 2"
KEYS = ("file", "find", "replace", "first", "line", "what")


class Mutant:
    def __init__(self, ident, lineno):
        self.id = ident
        self.lineno = lineno
        self.file = None
        self.find = []
        self.replace = []
        self.first = ""
        self.line = "sheaves"
        self.what = ""


def unescape(text):
    """A catalogue value: \\t is a tab, \\n a new line, \\\\ a backslash."""
    return re.sub(r"\\([tn\\])", lambda m: {"t": "\t", "n": "\n", "\\": "\\"}[m.group(1)], text)


def parse_catalogue(path):
    """The mutants of @path, in order.  Raises ValueError on a malformed entry."""
    mutants, cur = [], None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"^\[([A-Za-z0-9_.-]+)\]\s*$", line)
            if m:
                cur = Mutant(m.group(1), n)
                if any(x.id == cur.id for x in mutants):
                    raise ValueError("%s:%d: mutant %s twice" % (path, n, cur.id))
                mutants.append(cur)
                continue
            m = re.match(r"^(\w+):\s?(.*)$", line)
            if not m or m.group(1) not in KEYS or cur is None:
                raise ValueError("%s:%d: expected [id] or one of %s: %r" % (path, n, KEYS, line))
            key, value = m.group(1), m.group(2)
            if key in ("find", "replace"):
                getattr(cur, key).append(unescape(value))
            else:
                setattr(cur, key, value.strip())
    for m in mutants:
        if not m.file or not m.find or not m.what:
            raise ValueError("%s:%d: mutant %s needs file:, find: and what:" % (path, m.lineno, m.id))
        if m.line not in ("debug", "sheaves"):
            raise ValueError("%s:%d: line: is debug or sheaves" % (path, m.lineno))
    return mutants


def sync_tree():
    """Copy the tree (tracked and new files, not build/) into TREE; only what differs."""
    out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT,
                         check=True, capture_output=True).stdout.decode()
    files = [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    copied = 0
    for rel in files:
        src, dst = os.path.join(ROOT, rel), os.path.join(TREE, rel)
        with open(src, "rb") as f:
            data = f.read()
        try:
            with open(dst, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            copied += 1
    # files deleted from the tree since the last run go from the copy too
    listed = set(files)
    manifest = os.path.join(WORK, "tree.files")
    if os.path.exists(manifest):
        with open(manifest) as f:
            for rel in f.read().split("\n"):
                if rel and rel not in listed and os.path.exists(os.path.join(TREE, rel)):
                    os.remove(os.path.join(TREE, rel))
    with open(manifest, "w") as f:
        f.write("\n".join(files))
    return copied


def clean_env():
    """The environment for the inner makes: not the outer make's jobserver."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "TESTS", "CMDLINE",
              "QEMU_ARGS", "KASAN", "UBSAN", "KCSAN", "BUILD", "KCONFIG"):
        env.pop(k, None)
    return env


def run(cmd, log, timeout):
    """Run @cmd in TREE, its output appended to @log; (status, output)."""
    with open(log, "a") as f:
        f.write("\n$ %s\n" % " ".join(cmd))
        f.flush()
        try:
            p = subprocess.run(cmd, cwd=TREE, env=clean_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout)
            text = p.stdout.decode(errors="replace")
            status = p.returncode
        except subprocess.TimeoutExpired as e:
            text = (e.stdout or b"").decode(errors="replace") + "\n(mutants.py: killed after %d s)\n" % timeout
            status = -1
        f.write(text)
    return status, text


def first_failure_qemu(text):
    """The first failed case the runner named, else the problem it saw, in short."""
    for line in text.splitlines():
        m = re.match(r"^\s+FAILED (\S+)", line)
        if m:
            return m.group(1)
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"^(CRASH|TIMEOUT|NO OUTPUT|NO KTAP|BOOT FAILED)\b", s)
        if not m:
            continue
        kind = {"CRASH": "a panic", "TIMEOUT": "a hang (the runner's timeout)",
                "NO OUTPUT": "no output", "NO KTAP": "no KTAP",
                "BOOT FAILED": "a failed boot"}[m.group(1)]
        w = re.search(r"in suite '([^']+)', case '([^']+)'", s)
        if w:
            return "(%s in %s.%s)" % (kind, w.group(1), w.group(2))
        w = re.search(r"in suite '([^']+)'", s)
        if w:
            return "(%s in suite %s)" % (kind, w.group(1))
        if "before the tests started" in s:
            return "(%s before the tests started)" % kind
        return "(%s: %s)" % (kind, s[:100])
    m = re.search(r"(\d+) passed, (\d+) failed", text)
    return "(%s)" % (m.group(0) if m else "no result line: see the log")


def first_failure_host(text):
    prog = None
    for line in text.splitlines():
        m = re.match(r"^(\S+): (\d+) passed, (\d+) failed$", line)
        if m and m.group(3) != "0" and not line.startswith("host:"):
            prog = os.path.basename(m.group(1))
            break
        m = re.match(r"^(\S+): crashed", line)
        if m:
            return "%s (crashed: a sanitizer report)" % os.path.basename(m.group(1))
    names = [re.match(r"^not ok \d+ (.*)$", l).group(1) for l in text.splitlines()
             if re.match(r"^not ok \d+ ", l)]
    if prog and names:
        return "%s.%s" % (prog, names[0])
    if names:
        return names[0]
    if prog:
        return prog
    return "(%s)" % first_error(text)


def first_error(text):
    for line in text.splitlines():
        if "error:" in line or "Error " in line:
            return line.strip()[:100]
    return "failed: see the log"


def qemu_cmd(glob, cmdline, timeout):
    cmd = ["make", "-j2", "test-qemu", "QEMU_ARGS=%s" % QEMU_ARGS, "TIMEOUT=%d" % timeout]
    if glob:
        cmd.append("TESTS=%s" % glob)
    if cmdline:
        cmd.append("CMDLINE=%s" % cmdline)
    return cmd


def apply(m):
    """Put @m into TREE; the original text, or raise LookupError saying why not."""
    path = os.path.join(TREE, m.file)
    if not os.path.exists(path):
        raise LookupError("%s does not exist" % m.file)
    with open(path) as f:
        original = f.read()
    find, replace = "\n".join(m.find), "\n".join(m.replace)
    count = original.count(find)
    if count != 1:
        raise LookupError("snippet %s in %s: %r (the code changed? update tests/mutants.txt)"
                          % ("not found" if count == 0 else "found %d times" % count,
                             m.file, m.find[0][:60]))
    with open(path, "w") as f:
        f.write(original.replace(find, replace))
    return original


def restore(m, original):
    with open(os.path.join(TREE, m.file), "w") as f:
        f.write(original)


def try_mutant(m, a):
    """(verdict, stage, test) for @m: verdict is killed, survived or not-applied."""
    log = os.path.join(LOGS, m.id + ".log")
    with open(log, "w") as f:
        f.write("mutant %s: %s\n%s\n- %s\n+ %s\n" % (m.id, m.what, m.file, "\n- ".join(m.find),
                                                    "\n+ ".join(m.replace)))
    try:
        original = apply(m)
    except LookupError as e:
        return "NOT APPLIED", "-", str(e)
    try:
        status, text = run(["make", "-j2", "build/kernel.elf"], log, 900)
        if status:
            return "killed", "compiler", first_error(text)
        if m.first:
            if m.first == "host":
                status, text = run(["make", "-j2", "test-host"], log, 900)
                if status:
                    return "killed", "host", first_failure_host(text)
            else:
                cmdline = "slab_debug" if m.line == "debug" else ""
                status, text = run(qemu_cmd(m.first, cmdline, a.timeout), log, a.timeout + 120)
                if status:
                    return "killed", "%s (%s)" % (m.line, m.first), first_failure_qemu(text)
        for stage, cmdline in STAGES:
            if stage == "host":
                if m.first == "host":
                    continue
                status, text = run(["make", "-j2", "test-host"], log, 900)
                if status:
                    return "killed", "host", first_failure_host(text)
                continue
            status, text = run(qemu_cmd(None, cmdline, a.timeout), log, a.timeout + 300)
            if status:
                return "killed", stage, first_failure_qemu(text)
        return "SURVIVED", "-", "-"
    finally:
        restore(m, original)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--catalogue", default=os.path.join(ROOT, "tests", "mutants.txt"))
    p.add_argument("--mutants", default="", help="comma-separated ids (default: all)")
    p.add_argument("--timeout", type=int, default=120, help="per QEMU run, seconds")
    p.add_argument("--no-baseline", action="store_true", help="skip the run of the three "
                   "stages on the tree without a mutant (a failure there would pass for a kill)")
    p.add_argument("--list", action="store_true", help="list the catalogue and check each "
                   "snippet is found once, applying nothing")
    a = p.parse_args()

    if not os.path.exists(a.catalogue):
        print("mutants: no catalogue %s (a lab handout has none: it quotes the reference code)"
              % os.path.relpath(a.catalogue, ROOT))
        return 2
    try:
        mutants = parse_catalogue(a.catalogue)
    except ValueError as e:
        print("mutants: %s" % e)
        return 2
    if a.mutants.strip():
        wanted = [w.strip() for w in a.mutants.split(",") if w.strip()]
        unknown = [w for w in wanted if not any(m.id == w for m in mutants)]
        if unknown:
            print("mutants: no such mutant: %s" % ", ".join(unknown))
            return 2
        mutants = [m for m in mutants if m.id in wanted]

    if a.list:
        bad = 0
        for m in mutants:
            with open(os.path.join(ROOT, m.file)) as f:
                n = f.read().count("\n".join(m.find))
            bad += n != 1
            print("%-26s %-22s %s%s" % (m.id, m.file, m.what,
                                        "" if n == 1 else "   <- SNIPPET FOUND %d TIMES" % n))
        print("%d mutants, %d with a snippet not found exactly once" % (len(mutants), bad))
        return 1 if bad else 0

    os.makedirs(LOGS, exist_ok=True)
    os.makedirs(TREE, exist_ok=True)
    print("mutants: copying the tree to %s (%d files changed)" % (os.path.relpath(TREE, ROOT),
                                                                   sync_tree()), flush=True)
    baseline = os.path.join(LOGS, "baseline.log")
    open(baseline, "w").close()
    status, text = run(["make", "-j2", "build/kernel.elf"], baseline, 900)
    if status:
        print("mutants: the tree does not build without a mutant: %s" % first_error(text))
        return 2
    if not a.no_baseline:
        # Every stage must pass without a mutant, or its failures would count as kills.
        t0 = time.time()
        for stage, cmdline in STAGES:
            if stage == "host":
                status, text = run(["make", "-j2", "test-host"], baseline, 900)
                what = first_failure_host(text) if status else ""
            else:
                status, text = run(qemu_cmd(None, cmdline, a.timeout), baseline, a.timeout + 300)
                what = first_failure_qemu(text) if status else ""
            if status:
                print("mutants: without a mutant, stage %s fails already: %s (see %s)"
                      % (stage, what, os.path.relpath(baseline, ROOT)))
                return 2
        print("mutants: without a mutant every stage passes (%.0f s)" % (time.time() - t0),
              flush=True)

    results, t_all = [], time.time()
    for i, m in enumerate(mutants, 1):
        t0 = time.time()
        verdict, stage, test = try_mutant(m, a)
        secs = time.time() - t0
        results.append((m, verdict, stage, test, secs))
        print("[%2d/%d] %-26s %-11s %-30s %s  (%.0f s)" % (i, len(mutants), m.id, verdict, stage,
                                                          test, secs), flush=True)

    killed = sum(r[1] == "killed" for r in results)
    applied = sum(r[1] != "NOT APPLIED" for r in results)
    lines = ["| mutant | the bug | caught by | first failing test |", "|---|---|---|---|"]
    for m, verdict, stage, test, _ in results:
        lines.append("| `%s` | %s (`%s`) | %s | %s |" % (
            m.id, m.what, m.file, stage if verdict == "killed" else "**%s**" % verdict, test))
    score = "%d/%d killed (%.1f%%)" % (killed, applied, 100.0 * killed / applied if applied else 0)
    with open(os.path.join(WORK, "results.txt"), "w") as f:
        f.write("\n".join(lines) + "\n\nscore: %s in %.0f min\n" % (score, (time.time() - t_all) / 60))
    print()
    for m, verdict, stage, test, _ in results:
        if verdict != "killed":
            print("%s: %s (%s): %s" % (verdict, m.id, m.what, test))
    print("mutants: %s, %d survived, %d not applied, in %.0f min (table: build/mutants/results.txt)"
          % (score, sum(r[1] == "SURVIVED" for r in results),
             sum(r[1] == "NOT APPLIED" for r in results), (time.time() - t_all) / 60))
    return 0 if killed == applied and applied == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
