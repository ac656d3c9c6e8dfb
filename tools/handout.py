#!/usr/bin/env python3
"""tools/handout.py - a lab's student tree, made from the reference kernel.

The reference kernel is the only copy of the code.  Regions of it are
marked with two comment lines, one before and one after:

	/* LAB buddy */                        <- the lab's name
	...the reference code...
	/* END LAB */

The stub, the C that stands in the student's tree where the region was, is
kept apart, in tests/grade/stubs.txt, so that the reference reads as if no
lab existed: an entry "[mm/page_alloc.c:page_is_buddy]" (the file, and the
function or variable the region is in; "#2" for a second region there),
then the stub's lines.  Every region has an entry and every entry a region.

`make handout LAB=slab OUT=dir` (this script) writes the tracked files of
the work tree (git ls-files: no .git, no build/) to OUT, with

  * the regions of LAB, and of every lab that LAB does not build on
    (tests/grade/points.txt says which), replaced by their stubs, under a
    "your code here" line;
  * the regions of the labs LAB builds on kept as they are, markers and
    all (a file with nothing stubbed is the reference's, byte for byte);
  * tests/grade/points.txt cut down to LAB and the labs it builds on, so
    that `make grade` there grades just those;
  * docs/labs/ cut down to those labs' pages (the instructors' README.md
    stays out);

then checks that no solution is left: every line of a replaced region that
appears nowhere else in the kernel's code (lines like "return 0;" do) must
appear in no file of OUT: not in the docs, the tests or anything else.

  python3 tools/handout.py LAB OUT [--build-from DIR]
  python3 tools/handout.py --list      the labs and their regions

--build-from DIR copies a reference build directory (objects and their
dependency files) to OUT/build, so that `make` there compiles only what the
handout changed: `make test-labs` uses it (docs/labs/README.md).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "grade"))

import points  # noqa: E402  (tests/grade/points.py)

OPEN = re.compile(r"^(\s*)/\* LAB ([a-z][a-z0-9_]*)(.*)$")
CLOSE = re.compile(r"^\s*/\* END LAB \*/\s*$")
MARKED = (".c", ".h")
STUBS = "tests/grade/stubs.txt"   # the stubs, by region (the handouts leave it out)
# make mutants' catalogue quotes the reference code (its bugs are edits of it): left out too
MUTANTS = "tests/mutants.txt"
LABS_HEADER = "kernel/labs.h"     # where a handout names the labs it is handed out with
# The kernel's own code: a line of a region that also appears here is not the solution.
KERNEL_DIRS = ("arch/", "boot/", "kernel/", "lib/", "mm/")
MIN_DISTINCTIVE = 24      # shorter lines ("list_del(&va->list);") say nothing


class MarkerError(Exception):
    pass


class Region:
    """A marked region: lines [first, last] of its file (0-based, markers included)."""

    def __init__(self, path, lab, first, last, indent):
        self.path, self.lab, self.first, self.body_first = path, lab, first, first + 1
        self.last, self.indent = last, indent
        self.name = self.stub = None    # set from the file and tests/grade/stubs.txt

    def body(self, lines):
        return lines[self.body_first:self.last]


def parse_regions(path, lines):
    """The regions of a file's lines; MarkerError for a malformed one."""
    regions, i = [], 0
    while i < len(lines):
        line = lines[i]
        if CLOSE.match(line):
            raise MarkerError("%s:%d: END LAB without LAB" % (path, i + 1))
        m = OPEN.match(line)
        if not m:
            i += 1
            continue
        indent, lab, rest = m.groups()
        if rest.strip() != "*/":
            raise MarkerError("%s:%d: write '/* LAB %s */' alone on its line (its stub goes "
                              "in %s)" % (path, i + 1, lab, STUBS))
        first, i = i, i + 1
        while i < len(lines) and not CLOSE.match(lines[i]):
            if OPEN.match(lines[i]):
                raise MarkerError("%s:%d: LAB inside LAB %s (line %d)"
                                  % (path, i + 1, lab, first + 1))
            i += 1
        if i == len(lines):
            raise MarkerError("%s:%d: LAB %s has no END LAB" % (path, first + 1, lab))
        regions.append(Region(path, lab, first, i, indent))
        i += 1
    return regions


def read_stubs(root):
    """{region name: its stub's lines} from tests/grade/stubs.txt."""
    if not os.path.exists(os.path.join(root, STUBS)):
        raise MarkerError("no %s: this is a lab's handout, and making one needs the "
                          "reference tree" % STUBS)
    stubs, name = {}, None
    for n, line in enumerate(read_text(os.path.join(root, STUBS)).split("\n"), 1):
        m = re.match(r"^\[(\S+)\]$", line)
        if m:
            name = m.group(1)
            if name in stubs:
                raise MarkerError("%s:%d: [%s] a second time" % (STUBS, n, name))
            stubs[name] = []
        elif name:
            stubs[name].append(line)
        elif line.strip() and not line.startswith("#"):
            raise MarkerError("%s:%d: a stub line before any [file:function]" % (STUBS, n))
    return {k: "\n".join(v).strip("\n").split("\n") if "".join(v).strip() else []
            for k, v in stubs.items()}


def name_regions(path, lines, regions, stubs):
    """Give each region its name (file:function, #2 for a second one there) and stub."""
    seen = {}
    for r in regions:
        fn = enclosing_name(lines, r.first, r.last)
        seen[fn] = seen.get(fn, 0) + 1
        r.name = "%s:%s%s" % (path, fn, "#%d" % seen[fn] if seen[fn] > 1 else "")
        if r.name not in stubs:
            raise MarkerError("%s:%d: LAB %s has no stub: add [%s] to %s"
                              % (path, r.first + 1, r.lab, r.name, STUBS))
        r.stub = stubs[r.name]


def tracked_files(root):
    """The files of the work tree that git tracks (as they are now), or all but build/."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for top, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in (".git", "build", "__pycache__")]
            names += [os.path.relpath(os.path.join(top, f), root) for f in files]
    return sorted(n for n in names if os.path.lexists(os.path.join(root, n)))


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, IsADirectoryError):
        return None


def all_regions(root, files):
    """{file: its regions, each named and with its stub}; MarkerError for a bad marker, a
    region without a stub or a stub without a region."""
    regions, stubs = {}, read_stubs(root)
    for name in files:
        if name.endswith(MARKED):
            text = read_text(os.path.join(root, name))
            if text is not None:
                found = parse_regions(name, text.split("\n"))
                if found:
                    name_regions(name, text.split("\n"), found, stubs)
                    regions[name] = found
    unused = set(stubs) - {r.name for rs in regions.values() for r in rs}
    if unused:
        raise MarkerError("%s: no region is %s" % (STUBS, ", ".join(sorted(unused))))
    return regions


def stub_lines(region, lab, current):
    """What stands where @region was, in the handout of lab @current."""
    if region.lab == current:
        head = "/* LAB %s: your code here (docs/labs/%s.md) */" % (region.lab, region.lab)
    else:
        head = "/* LAB %s: a later lab's code; a stub until then */" % region.lab
    return [region.indent + head] + [region.indent + s if s else "" for s in region.stub]


def rewrite(lines, regions, keep, current):
    """@lines with the @regions of labs not in @keep stubbed (the others stay as they are,
    markers and all: a file with nothing stubbed is the reference's, byte for byte)."""
    out, at = [], 0
    for r in regions:
        if r.lab in keep:
            continue
        out += lines[at:r.first] + stub_lines(r, r.lab, current)
        at = r.last + 1
    return out + lines[at:]


# The host tests build mm/ for the host and check it against models and
# checkers that know the reference's answers (tests/host/slab_check.c finds
# a slab from an address as kfree() does): they would give the labs away.
# A handout has this in place of their makefile.
HOST_MK = "tests/host/host.mk"
HOST_MK_STUB = """\
# tests/host/host.mk, as a lab's handout has it.  The host tests build mm/ for
# the host and check it against models that know the reference's answers, so
# they are not handed out; `make grade` tests the lab (docs/labs/).
.PHONY: test-host-build test-host bench-host fuzz
test-host-build test-host bench-host fuzz:
	@echo "$@: the host tests are not part of a lab's handout; make grade tests the lab"
"""


def handout_files(files, kept):
    """The files a handout has: not the host tests, no instructors' page, no
    pages of other labs (the students' page on debugging is every lab's)."""
    pages = {"docs/labs/%s.md" % lab for lab in kept} | {"docs/labs/debugging.md"}
    return [f for f in files
            if (not f.startswith("docs/labs/") or f in pages) and
            (not f.startswith("tests/host/") or f == HOST_MK) and f not in (STUBS, MUTANTS)]


def distinctive_lines(root, files, regions, keep):
    """Lines of the replaced regions that the kernel's code has nowhere else."""
    removed, kept = set(), []
    for name in files:
        text = read_text(os.path.join(root, name))
        if text is None or not name.startswith(KERNEL_DIRS):
            continue
        lines = text.split("\n")
        gone = [r for r in regions.get(name, []) if r.lab not in keep]
        for r in gone:
            removed |= {l.strip() for l in r.body(lines) if len(l.strip()) >= MIN_DISTINCTIVE}
        kept.append("\n".join(rewrite(lines, gone, keep, "")))
    kept = "\n".join(kept)
    return sorted(l for l in removed if l not in kept)


def check_no_solution(out, distinctive):
    """Every file of @out, as bytes, against every distinctive line: the leaks found."""
    leaks = []
    needles = [(l, l.encode()) for l in distinctive]
    for top, dirs, names in os.walk(out):
        if ".git" in dirs or ".git" in names:
            leaks.append((os.path.relpath(top, out), ".git: the reference's history"))
        dirs[:] = [d for d in dirs if d != "build"]
        for name in names:
            path = os.path.join(top, name)
            if os.path.islink(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            for line, needle in needles:
                if needle in data:
                    leaks.append((os.path.relpath(path, out), line))
    return leaks


# Not worth copying: other trees, logs, images, the host and benchmark builds.
BUILD_SKIP = ("labs", "test-logs", "host", "fuzz", "bench", "bench-host", "bench-linux",
              "grade-extra", "grade.json")


def copy_build(src, dst):
    """A reference build directory's objects and dependency files, mtimes kept."""
    def ignore(top, names):
        return [n for n in names if n in BUILD_SKIP or n.endswith(".iso")]
    shutil.copytree(src, dst, symlinks=True, ignore=ignore, dirs_exist_ok=True)


def make_handout(lab, out, root=ROOT, build_from=None, say=print):
    """Write lab @lab's tree to @out; return the number of regions stubbed."""
    labs = points.read_points(os.path.join(root, points.POINTS))
    if lab not in labs:
        raise SystemExit("handout: no lab '%s' in %s (labs: %s)"
                         % (lab, points.POINTS, " ".join(labs)))
    keep = points.depends_on(labs, lab)            # intact: the labs @lab builds on
    graded = keep | {lab}
    if os.path.exists(out) and os.listdir(out):
        raise SystemExit("handout: %s exists and is not empty" % out)
    if os.path.realpath(out).startswith(os.path.realpath(root) + os.sep) and \
            not os.path.realpath(out).startswith(os.path.join(os.path.realpath(root), "build")):
        raise SystemExit("handout: write it outside the tree (or under build/), not in %s" % out)
    files = tracked_files(root)
    try:
        regions = all_regions(root, files)
    except MarkerError as e:
        raise SystemExit("handout: %s" % e)
    unknown = {r.lab for rs in regions.values() for r in rs} - set(labs)
    if unknown:
        raise SystemExit("handout: regions of labs not in %s: %s"
                         % (points.POINTS, " ".join(sorted(unknown))))
    stubbed = {name: [r for r in rs if r.lab not in keep] for name, rs in regions.items()}
    existed = os.path.isdir(out)
    os.makedirs(out, exist_ok=True)
    n_regions = n_lines = 0
    for name in handout_files(files, graded):
        src, dst = os.path.join(root, name), os.path.join(out, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if stubbed.get(name):
            lines = read_text(src).split("\n")
            with open(dst, "w") as f:
                f.write("\n".join(rewrite(lines, regions[name], keep, lab)))
            shutil.copymode(src, dst)
            n_regions += len(stubbed[name])
            n_lines += sum(r.last - r.body_first for r in stubbed[name])
        elif name == points.POINTS:
            with open(dst, "w") as f:
                f.write(points.cut_points(read_text(src), graded))
        elif name == HOST_MK:
            with open(dst, "w") as f:
                f.write(HOST_MK_STUB)
        else:
            shutil.copy2(src, dst, follow_symlinks=False)
    write_labs_header(out, [l for l in labs if l not in keep])
    distinctive = distinctive_lines(root, files, regions, keep)
    leaks = check_no_solution(out, distinctive)
    if leaks:
        for path, line in leaks:
            print("handout: solution text in %s: %s" % (path, line), file=sys.stderr)
        shutil.rmtree(out)      # so that nobody hands it out anyway
        if existed:
            os.makedirs(out)
        raise SystemExit("handout: %d solution lines found; %s %s, nothing may be handed out"
                         % (len(leaks), out, "emptied" if existed else "removed"))
    if build_from:
        copy_build(build_from, os.path.join(out, "build"))
    say("handout %s -> %s: %d regions stubbed in %d files (%d lines of reference code left "
        "out), %s kept; checked: none of the %d lines unique to the left-out code is in any "
        "file; %s" % (lab, out, n_regions, sum(1 for rs in stubbed.values() if rs), n_lines,
                      ", ".join(sorted(keep)) or "no earlier lab", len(distinctive),
                      first_commit(out, lab)))
    return n_regions


def write_labs_header(out, to_do):
    """Name in the handout's LABS_HEADER the labs it is handed out with to do."""
    path = os.path.join(out, LABS_HEADER)
    text = read_text(path)
    for macro, value in (("LABS_HANDED_OUT", " ".join(to_do)),
                         ("LABS_NEEDED", " (needs the labs done: %s)" % " ".join(to_do))):
        text, n = re.subn(r'(#define %s\t)""' % macro, r'\g<1>"%s"' % value, text)
        if n != 1:
            raise SystemExit("handout: %s: no '#define %s\t\"\"' to fill in"
                             % (LABS_HEADER, macro))
    with open(path, "w") as f:
        f.write(text)


def first_commit(out, lab):
    """Make @out a git repository whose one commit is the handout as given, so that a
    student's `git diff` shows their work; say what was done."""
    if os.path.exists(os.path.join(out, ".git")):
        return "%s is a git repository already: no commit made" % out
    git = ["git", "-C", out, "-c", "user.name=make handout", "-c", "user.email=handout@kmem",
           "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]
    try:
        for args in (["init", "-q"], ["add", "-A"],
                     ["commit", "-q", "-m", "lab %s: the handout as given" % lab]):
            subprocess.run(git + args, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return "no git repository made (%s)" % e
    return "a git repository with the handout as its first commit (git diff shows your work)"


FUNCTION = re.compile(r"^[A-Za-z_][\w\s*]*?\b(\w+)\(")
DEFINITION = re.compile(r"^[A-Za-z_][\w\s*]*?\b(\w+)\s*(?:\[[^]]*\])*\s*=")


def enclosing_name(lines, first, last):
    """The C function or variable that the region of lines FIRST..LAST is part of (or is)."""
    for line in reversed(lines[:first + 1]):
        if line.startswith("}"):    # the end of the one before: the region is at file scope
            break
        m = FUNCTION.match(line) or DEFINITION.match(line)
        if m and not line.rstrip().endswith(";"):
            return m.group(1)
    for line in lines[first + 1:last]:
        m = DEFINITION.match(line)
        if m:
            return m.group(1)
    return "(file scope)"


def list_regions(root=ROOT):
    files = tracked_files(root)
    labs = points.read_points(os.path.join(root, points.POINTS))
    try:
        regions = all_regions(root, files)
    except MarkerError as e:
        raise SystemExit("handout: %s" % e)
    for lab in labs:
        print("lab %s (after: %s)" % (lab, " ".join(labs[lab].after) or "-"))
        for name in sorted(regions):
            for r in regions[name]:
                if r.lab == lab:
                    print("  %s  %d lines; stub: %s" % (
                        r.name, r.last - r.body_first,
                        " ".join(s.strip() for s in r.stub) or "(nothing)"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lab", nargs="?")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--list", action="store_true", help="the labs and their regions")
    ap.add_argument("--build-from", help="a reference build directory to start OUT/build from")
    a = ap.parse_args()
    if a.list:
        list_regions()
        return 0
    if not a.lab or not a.out:
        ap.error("give LAB and OUT (make handout LAB=slab OUT=dir), or --list")
    make_handout(a.lab, a.out, build_from=a.build_from)
    return 0


if __name__ == "__main__":
    sys.exit(main())
