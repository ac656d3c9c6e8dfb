#!/usr/bin/env python3
"""tools/update-transcripts.py [DOC...] - rewrite the docs' monitor transcripts.
tools/update-transcripts.py --golden [FILE...] - rewrite the golden pictures.

README.md and docs/smp.md show real `printf '...' | make run` sessions, and
`make test` checks that a fresh run still prints them (numbers aside; see
tests/monitor_check.py).  When a command's output changes on purpose, this
runs each session again and writes its output into the doc, keeping every
`...` the doc had: the lines between the line before and the line after an
elision are elided again.  Read the diff before committing it.

With --golden it draws each tests/monitor/*.golden picture again with the
command the file names ("# $ ..."), and writes the reply under the file's
comment lines, each ESC as \e (tests/monitor_check.py, check_golden()).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import monitor_check  # noqa: E402

ROOT = monitor_check.ROOT
DEFAULT_DOCS = ["README.md", "docs/smp.md"]


def keep_elisions(old, new):
    """@new with the lines @old elided ('...') elided again.

    An elision between two lines is kept between the same two lines of
    @new; one at the start of @old elides everything before the line after
    it, and one at the end everything after the line before it.
    """
    norm_new = [monitor_check.normalise(l) for l in new]
    out, pos = [], 0
    for k, line in enumerate(old):
        if line.strip() != "...":
            continue
        try:
            a = norm_new.index(monitor_check.normalise(old[k - 1]), pos) if k else pos - 1
            if k + 1 >= len(old):
                return out + new[pos:a + 1] + ["..."]
            b = norm_new.index(monitor_check.normalise(old[k + 1]), a + 1)
        except ValueError:
            continue            # the anchors changed: keep the output whole there
        out += new[pos:a + 1] + ["..."]
        pos = b
    return out + new[pos:]


def update(doc):
    path = os.path.join(ROOT, doc)
    with open(path) as f:
        lines = f.read().split("\n")
    for _, command, expected, first in reversed(monitor_check.transcripts(path)):
        actual = monitor_check.run_transcript(command)
        lines[first - 1:first - 1 + len(expected)] = keep_elisions(expected, actual)
        print("%s:%d: %s" % (doc, first, command))
    with open(path, "w") as f:
        f.write("\n".join(lines))


def update_golden(path):
    command, _ = monitor_check.read_golden(path)
    with open(path, encoding="utf-8") as f:
        comments = [l for l in f.read().split("\n") if l.startswith("#")]
    picture = [monitor_check.visible(l) for l in monitor_check.run_picture(command)]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(comments + picture) + "\n")
    print("%s: %s" % (os.path.relpath(path, ROOT), command))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--golden"]:
        for g in sys.argv[2:] or monitor_check.golden_files():
            update_golden(g)
    else:
        for d in sys.argv[1:] or DEFAULT_DOCS:
            update(d)
