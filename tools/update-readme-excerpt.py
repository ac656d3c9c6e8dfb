#!/usr/bin/env python3
"""tools/update-readme-excerpt.py - put a real `make test` run into README.md.

The README shows the end of a real `make test` (section "Running the
tests"), and `make test` checks that the excerpt names every machine and
self-test there is.  After adding a machine or a self-test:

	make test 2>&1 | tee /tmp/make-test.log
	python3 tools/update-readme-excerpt.py /tmp/make-test.log

The excerpt is the log from the runner's command line to the final count,
with the SKIPPED lines of every machine but the first left out (they repeat
from machine to machine).  A log of .ci/run will do: what follows make
test's count (make test-labs) is not part of the excerpt.  A log
whose last count has failures is refused: the README shows a green run.
"""

import re
import sys

README = "README.md"
FIRST = "python3 tests/qemu_runner.py all "
TOTAL = re.compile(r"^(\d+) passed, (\d+) failed")


def excerpt(log_lines):
    start = next(i for i, l in enumerate(log_lines) if l.startswith(FIRST))
    end = next(i for i in range(start, len(log_lines)) if TOTAL.match(log_lines[i]))
    if int(TOTAL.match(log_lines[end]).group(2)):
        sys.exit("update-readme-excerpt: the run has failures; the README shows a green run")
    out, machines = [], 0
    for line in log_lines[start:end + 1]:
        if line.startswith("=== ") and not line.startswith("=== monitor"):
            machines += 1
        if line.startswith("  SKIPPED") and machines > 1:
            continue
        out.append(line)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    with open(sys.argv[1]) as f:
        lines = f.read().split("\n")
    new = excerpt(lines)
    with open(README) as f:
        text = f.read().split("\n")
    start = next(i for i, l in enumerate(text) if l.startswith(FIRST))
    end = next(i for i in range(start, len(text)) if text[i] == "```")
    text[start:end] = new
    with open(README, "w") as f:
        f.write("\n".join(text))
    print("README.md: the excerpt is now %d lines, ending '%s'" % (len(new), new[-1]))


if __name__ == "__main__":
    main()
