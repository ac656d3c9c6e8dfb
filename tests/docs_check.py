"""tests/docs_check.py - the docs name only what exists, and the root holds only the layout.

Checks that `make test` runs with the monitor checks (qemu_runner.py calls
them; each is one test of the total).  They read files only; nothing boots.

  root layout  Every file or folder at the top of the tree (tracked, or not
               ignored by git) is one the layout of docs/design.md names: a
               stray file (a log written by accident) fails, before it is
               copied into every lab handout.
  paths        Every path of this tree that README.md or a page of docs/
               names (`mm/slab.c`, `tests/kunit/test.h`, a link) exists.  A
               path of Linux's own tree that shares a folder name with ours
               (`mm/slub.c`) is listed below as Linux's.  No page points
               outside the repository (a clone has no ../shared).
  citations    A doc cites code by function, `mm/vmalloc.c:vfree`, and the
               function must be in that file.  A line number drifts with every
               edit, so a `file:N` is allowed only inside a pasted report whose
               line can be checked: "EXPECTATION FAILED at F:N" (line N holds a
               KUNIT_ check), "kernel BUG at F:N" (a BUG), "WARNING: at F:N" (a
               WARN), UBSAN's "in F:N:C" (the line exists).
  handout list The `tools/handout.py --list` block of docs/labs/README.md is
               what the tool prints today.
  bench        A figure a doc quotes from `make bench` is the one the last full
               run wrote to tests/bench/figures.txt: a number followed by
               `<!-- bench: ROW -->` (invisible once rendered), and every row
               of a pasted `$ make bench` run.  `make bench` says
               which rows moved; the docs follow, or this check fails.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# docs/design.md, section 1 (and .ci/run, .gitignore, which every clone has)
ROOT_LAYOUT = {"arch", "boot", "kernel", "mm", "lib", "tests", "tools", "iso", "docs",
               "linker.ld", "Makefile", "README.md", ".ci", ".gitignore", ".git", "build",
               "compile_commands.json"}
OUR_FOLDERS = ("arch/x86_64/", "boot/", "kernel/", "mm/", "lib/", "tests/", "tools/", "iso/",
               "docs/", ".ci/")
# Files and folders of Linux's tree that the docs name as Linux's, under names we also have
LINUX_FILES = {"mm/slub.c", "mm/util.c", "mm/failslab.c", "mm/fail_page_alloc.c",
               "mm/maccess.c", "mm/sparse-vmemmap.c", "lib/fault-inject.c"}
LINUX_FOLDERS = ("arch/x86/", "lib/kunit/", "tools/testing/")
# Where an include-style path (kunit/test.h) is found: the compiler's -I. and -Itests
SEARCH = ("", "tests/")

PATH = re.compile(r"(?<![\w./-])((?:\.ci|arch|boot|kernel|mm|lib|tests|tools|iso|docs|kunit)"
                  r"/[\w./-]*\w)(?::(\d+)(?:[-:]\d+)?|:(\w+))?")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CHECKED_LINE = [(re.compile(r"(?:EXPECTATION|ASSERTION) FAILED at $"), "KUNIT_"),
                (re.compile(r"kernel BUG at $"), "BUG"),
                (re.compile(r"WARNING: at $"), "WARN"),
                (re.compile(r"UBSAN: [\w-]+ in $"), "")]


def doc_pages():
    pages = ["README.md"]
    for folder in ("docs", "docs/labs"):
        pages += sorted(os.path.join(folder, n) for n in os.listdir(os.path.join(ROOT, folder))
                        if n.endswith(".md"))
    return pages


def git_files(*args):
    try:
        out = subprocess.run(["git", "ls-files"] + list(args), cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.split()


def check_root_layout():
    """Problems: entries at the top of the tree that the layout does not name."""
    files = git_files("--cached", "--others", "--exclude-standard")
    if files is None:   # not a git checkout (a handout's copy, say): every entry counts
        files = os.listdir(ROOT)
    top = {f.split("/")[0] for f in files}
    return ["%s: not part of the layout (docs/design.md, section 1); remove it" % name
            for name in sorted(top - ROOT_LAYOUT)]


def resolve(path, page):
    """The file PATH names, seen from PAGE (a doc), or None."""
    if path.startswith("kunit/") or "/" not in path.rstrip("/"):
        bases = SEARCH
    else:
        bases = ("",)
    for base in bases + (os.path.dirname(page) + "/",):
        full = os.path.normpath(os.path.join(ROOT, base, path))
        if os.path.exists(full):
            return full
    return None


def placeholder(path):
    return bool(re.search(r"NAME|\bname\b|example|/yours?\w*", path))


def check_line(full, line_no, before):
    """Problems with a `file:N` that follows the text BEFORE on its line."""
    for context, must_hold in CHECKED_LINE:
        if context.search(before):
            with open(full, errors="replace") as f:
                lines = f.read().split("\n")
            if line_no > len(lines):
                return ["line %d is past the end of the file" % line_no]
            if must_hold not in lines[line_no - 1]:
                return ["line %d no longer holds the %s this report names" % (line_no, must_hold)]
            return []
    return ["a line number drifts with every edit: cite the function (file:function)"]


def check_page(page):
    problems = []
    with open(os.path.join(ROOT, page), errors="replace") as f:
        text = f.read()
    for n, line in enumerate(text.split("\n"), 1):
        where = "%s:%d: " % (page, n)
        if "shared/" in line and re.search(r"(\.\./)+shared/|`shared/", line):
            problems.append(where + "points outside the repository (a clone has no shared/)")
        for m in PATH.finditer(line):
            path, line_no, ident = m.group(1), m.group(2), m.group(3)
            if path in LINUX_FILES or placeholder(path) or path.startswith(LINUX_FOLDERS) or \
                    line[m.end():m.end() + 1] in ("*", "{"):     # a glob, `kernel/{a,b}.c`
                continue
            if not any(path.startswith(f) for f in OUR_FOLDERS + ("kunit/",)):
                continue
            full = resolve(path, page)
            if not full:
                problems.append(where + "%s does not exist" % path)
            elif line_no and os.path.isfile(full) and not path.endswith(".md") and \
                    not re.search(r"\d+ lines; stub", line):   # check_handout_list()
                problems += [where + "%s:%s: %s" % (path, line_no, p)
                             for p in check_line(full, int(line_no), line[:m.start()])]
            elif ident and not ident.isupper() and os.path.isfile(full):   # not `F:LINE`
                with open(full, errors="replace") as f:
                    if not re.search(r"\b%s\b" % re.escape(ident), f.read()):
                        problems.append(where + "%s has no %s" % (path, ident))
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):    # a URL
                continue
            if not os.path.exists(os.path.normpath(os.path.join(ROOT, os.path.dirname(page),
                                                                target))):
                problems.append(where + "the link to %s leads nowhere" % target)
    return problems


def check_doc_references():
    """Problems: paths, links and citations in the docs that name nothing."""
    problems = []
    for page in doc_pages():
        problems += check_page(page)
    return problems


def check_handout_list():
    """Problems: lines of docs/labs/README.md's handout.py --list block the tool no longer prints."""
    with open(os.path.join(ROOT, "docs", "labs", "README.md")) as f:
        text = f.read()
    m = re.search(r"`python3 tools/handout.py --list`.*?```\n(.*?)```", text, re.S)
    if not m:
        return ["docs/labs/README.md: no `python3 tools/handout.py --list` block"]
    real = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "handout.py"), "--list"],
                          cwd=ROOT, capture_output=True, text=True).stdout.split("\n")
    return ["docs/labs/README.md: handout.py --list no longer prints: %s" % line
            for line in m.group(1).split("\n") if line and line != "..." and line not in real]


# Every row of the last full `make bench` (tests/qemu_runner.py writes it)
BENCH_FIGURES = os.path.join(ROOT, "tests", "bench", "figures.txt")
BENCH_ROW = re.compile(r"^(.+?)\s+(\d+\.\d)(?:\s|$)")
BENCH_MARK = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)\s*<!-- bench: (.+?) -->")


def read_bench_figures():
    """{row name: figure as printed} from tests/bench/figures.txt ({} if there is none)."""
    figures = {}
    if os.path.exists(BENCH_FIGURES):
        with open(BENCH_FIGURES) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    name, figure = line.rstrip("\n").split("\t")
                    figures[name] = figure
    return figures


def same_figure(quoted, figure):
    """Does @quoted (as a doc writes it: 1,714 or 204.5) say @figure (1714.0)?"""
    return float(quoted.replace(",", "")) == float(figure)


def check_bench_figures():
    """Problems: figures quoted from make bench that its last full run did not print."""
    table, problems = read_bench_figures(), []
    for page in doc_pages():
        with open(os.path.join(ROOT, page)) as f:
            lines = f.read().split("\n")
        in_run = False
        for n, line in enumerate(lines, 1):
            where = "%s:%d: " % (page, n)
            for m in BENCH_MARK.finditer(line):
                quoted, row = m.groups()
                if row not in table:
                    problems.append(where + "no make bench row '%s'" % row)
                elif not same_figure(quoted, table[row]):
                    problems.append(where + "%s for '%s'; make bench last printed %s"
                                    % (quoted, row, table[row]))
            if line.startswith("make bench: -icount") or re.match(r"\$ make bench(\s|$)", line):
                in_run = True
            elif line.startswith("```"):
                in_run = False
            elif in_run:
                m = BENCH_ROW.match(line)
                if m and m.group(1) in table and not same_figure(m.group(2), table[m.group(1)]):
                    problems.append(where + "the pasted run says %s for '%s'; make bench "
                                    "last printed %s" % (m.group(2), m.group(1),
                                                        table[m.group(1)]))
    return problems


CHECKS = [
    ("the top of the tree holds only the layout's folders and files", check_root_layout),
    ("README.md and docs/ name only files and functions that exist", check_doc_references),
    ("docs/labs/README.md shows what tools/handout.py --list prints", check_handout_list),
    ("the figures the docs quote from make bench are its last run's (tests/bench/figures.txt)",
     check_bench_figures),
]

if __name__ == "__main__":
    failed = 0
    for what, check in CHECKS:
        problems = check()
        print("%s - %s" % ("not ok" if problems else "ok", what))
        for p in problems:
            print("    " + p)
        failed += bool(problems)
    print("%d passed, %d failed" % (len(CHECKS) - failed, failed))
    sys.exit(bool(failed))
