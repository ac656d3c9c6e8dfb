"""tests/monitor_check.py - type at the monitor and check what it answers.

Three checks that `make test` runs after the QEMU matrix (qemu_runner.py calls
them; `make test-monitor` runs only them):

  bad inputs   Boot the kernel `make run` boots, with two CPUs, and type every
               input of tests/monitor/bad_inputs.txt.  Each must get exactly
               the one-line reply the file gives, and afterwards the free
               pages (meminfo), the held blocks (held), every vmstat counter
               and every CPU's IPI counts (cpuinfo) must be as they were.
               Then two inputs a file cannot hold: a line longer than the
               monitor's buffer, and Ctrl-C (byte 0x03) stopping a long `ipi`.
  transcripts  Every "printf '...' | make run ..." line in README.md and
               docs/*.md is run as written, and its output compared with the
               fenced block that follows it in the doc: line by line, a line
               "..." standing for any number of lines, and every number
               (decimal or hex) standing for any number, since pfns, counts
               and timings change from build to build and machine to machine.
               So the docs show what a student really sees, up to the figures.
  UEFI         `make run UEFI=1` on q35 boots through OVMF to the prompt, and
               `poweroff` there ends QEMU.
  kvdemo step  `kvdemo unmovable step`, Enter typed at each of its stops, ends
               with the table `kvdemo unmovable` prints, every count the
               same (the cycles row aside): a stop changes nothing in the
               story, as docs/kvmalloc.md says.
  golden       The colour picture of `memmap picture` (tests/monitor/*.golden)
               printed again, escape sequences and all, by the command the
               golden file names; compared as colours, not bytes: see
               canonical_picture().

Each input and each transcript counts as one test in `make test`'s total.
"""

import os
import re
import select
import shlex
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1bc")
PROMPT = "kmem> "
LINE_MAX = 255          # kernel/monitor.c: the longest line it takes


class MonitorGone(Exception):
    pass


class Monitor:
    """A kernel booted to its monitor prompt, with our pipe as its serial input."""

    def __init__(self, cmd, log_path, boot_timeout=120, env=None):
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
        self.log = open(log_path, "w")
        self.log.write("# " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        self.buf = ""
        self.boot_log = self.read_until_prompt(boot_timeout)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.log.close()

    def _read(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise MonitorGone("no prompt within the timeout; output so far: %r" % self.buf[-300:])
        ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 1.0))
        if not ready:
            return
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        if not chunk:
            raise MonitorGone("QEMU exited (status %s); output so far: %r"
                              % (self.proc.wait(), self.buf[-300:]))
        text = ANSI.sub("", chunk.decode("latin-1")).replace("\r", "")
        self.buf += text
        self.log.write(text)
        self.log.flush()

    def read_until(self, pattern, timeout):
        """Everything up to and including the first match of the regex @pattern."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.buf):
            self._read(deadline)
        m = re.search(pattern, self.buf)
        out, self.buf = self.buf[:m.end()], self.buf[m.end():]
        return out

    def read_until_prompt(self, timeout):
        """The output before the next prompt (the prompt itself is consumed)."""
        return self.read_until(r"(^|\n)" + re.escape(PROMPT) + r"$", timeout)[:-len(PROMPT)]

    def type(self, text):
        self.proc.stdin.write(text.encode("latin-1"))
        self.proc.stdin.flush()

    def command(self, line, timeout=60):
        """Type @line and Enter; return the reply's lines (without the echo of @line)."""
        self.type(line + "\n")
        out = self.read_until_prompt(timeout).rstrip("\n").split("\n")
        return out[1:]


# ---------------------------------------------------------------- bad inputs

def read_bad_inputs(path):
    """(setup commands, [(line number, input, expected reply)]) from bad_inputs.txt."""
    setup, cases = [], []
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("setup: "):
                setup.append(line[len("setup: "):])
                continue
            typed, sep, expected = line.partition(" => ")
            if not sep:
                raise SystemExit("%s:%d: no ' => ' between the input and its reply"
                                 % (path, number))
            cases.append((number, typed.rstrip(), expected.strip()))
    return setup, cases


def reply_matches(reply, expected):
    """A reply is one line, equal to @expected (or matching it whole, after 're:')."""
    if len(reply) != 1:
        return False
    if expected.startswith("re:"):
        return re.fullmatch(expected[3:].strip(), reply[0]) is not None
    return reply[0] == expected


CPU_ROW = re.compile(r"^\s*(\d+)\s+\d+\s+(?:online|offline)\s+\d+\s+(\d+)\s+(\d+)\s+(\d+)\s*$")


def machine_state(mon):
    """What no bad input may change: free pages, held blocks, counters, IPIs taken."""
    free = [l for l in mon.command("meminfo") if l.startswith("MemFree")]
    ipis = [m.groups() for m in map(CPU_ROW.match, mon.command("cpuinfo")) if m]
    return {"free pages": free, "held blocks": mon.command("held"),
            "vmstat": mon.command("vmstat"), "IPIs (cpu, call, tlb, wakeup)": ipis}


def state_changes(before, after):
    return ["%s: %s -> %s" % (k, before[k], after[k]) for k in before if before[k] != after[k]]


def check_bad_inputs(qemu_cmd, path, log_path, say=print):
    """Type every bad input, and the over-long line and Ctrl-C; return (passed, failed)."""
    setup, cases = read_bad_inputs(path)
    too_long = "alloc 1 " + "0" * LINE_MAX
    cases = [("line %d: %s" % (n, typed), typed, exp) for n, typed, exp in cases]
    cases.append(("a line of %d characters" % len(too_long), too_long,
                  "monitor: line too long (more than %d characters); ignored" % LINE_MAX))
    passed = failed = 0
    mon = Monitor(qemu_cmd, log_path)
    try:
        for line in setup:
            mon.command(line)
        for what, typed, expected in cases:
            before = machine_state(mon)
            reply = mon.command(typed)
            problems = [] if reply_matches(reply, expected) else [
                "expected: " + expected, "got:      " + "\n          ".join(reply)]
            problems += state_changes(before, machine_state(mon))
            passed, failed = passed + (not problems), failed + bool(problems)
            if problems:
                say("not ok - monitor: " + what)
                for p in problems:
                    say("      " + p)
        ok = check_ctrl_c(mon)
        passed, failed = passed + ok, failed + (not ok)
        if not ok:
            say("not ok - monitor: Ctrl-C stops 'ipi 1 1000000' and the prompt comes back")
    except MonitorGone as e:
        say("not ok - monitor: %s" % e)
        failed += 1
    finally:
        mon.close()
    return passed, failed


def check_ctrl_c(mon):
    """Ctrl-C ends a long command; the held blocks are still there afterwards."""
    held = mon.command("held")
    mon.type("ipi 1 1000000\n")
    mon.read_until(r"ipi 1 1000000\n", 10)
    time.sleep(0.3)
    mon.type("\x03")
    reply = mon.read_until_prompt(30).rstrip("\n").split("\n")
    return (bool(reply) and re.fullmatch(r"ipi: interrupted after \d+ of 1000000 round trips",
                                          reply[0]) is not None
            and mon.command("held") == held)


# ---------------------------------------------------------------- make run UEFI=1

RUN_UEFI = ["make", "--no-print-directory", "run", "UEFI=1", "QEMU_ARGS=-machine q35"]


def check_run_uefi(log_path, say=print):
    """`make run UEFI=1` boots through OVMF to the prompt, and `poweroff` ends QEMU.

    Not a transcript: under UEFI, OVMF and GRUB read the serial line too, so
    input piped in before the prompt would go to them.  Returns (passed, failed).
    """
    what = "make run UEFI=1 QEMU_ARGS='-machine q35': OVMF boots it to the prompt"
    try:
        mon = Monitor(RUN_UEFI, log_path, boot_timeout=180, env=student_env())
    except MonitorGone as e:
        say("not ok - %s: %s" % (what, e))
        return 0, 1
    try:
        problems = []
        if "pflash" not in mon.boot_log or "ACPI: RSDP v2" not in mon.boot_log:
            problems.append("no OVMF in the QEMU command, or no UEFI's ACPI 2 RSDP in the log")
        mon.type("poweroff\n")
        try:
            mon.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            problems.append("poweroff did not end QEMU within 30 s")
    finally:
        mon.close()
    for p in problems:
        say("not ok - %s: %s" % (what, p))
    return (0, 1) if problems else (1, 0)


# ---------------------------------------------------------------- transcripts

NUMBER = re.compile(r"0x[0-9a-fA-F]+|[0-9a-fA-F]*[0-9][0-9a-fA-F]*")


def normalise(line):
    """A line with every number replaced by '#' and runs of blanks by one space."""
    return " ".join(NUMBER.sub("#", line).split())


def transcripts(path):
    """[(line number of the command, shell command, expected lines, line number of the
    first expected line)] for each piped `make run` in @path."""
    with open(path) as f:
        lines = f.read().split("\n")
    blocks, i = [], 0
    while i < len(lines):      # fenced blocks: (first line number, language, body)
        if lines[i].startswith("```"):
            j = lines.index("```", i + 1) if "```" in lines[i + 1:] else len(lines)
            inner = [k for k in range(i + 1, j) if lines[k].startswith("```")]
            if j == len(lines) or inner:
                # A fence left open swallows the transcripts after it: say so.
                raise ValueError("line %d: a fence inside a code block (or one never"
                                 " closed): a block before it is left open"
                                 % ((inner or [i])[0] + 1))
            blocks.append((i + 1, lines[i][3:].strip(), lines[i + 1:j]))
            i = j
        i += 1
    found = []
    for (number, lang, body), following in zip(blocks, blocks[1:] + [None]):
        for k, line in enumerate(body):
            if lang == "sh" and "| make run" in line and following:
                found.append((number + 1 + k, line.strip(), following[2], following[0] + 1))
    return found


def compare(expected, actual, first_line=1):
    """None if @actual shows @expected (see the module comment), else what differs;
    @first_line is the doc's line number of expected[0], for the message."""
    exp = [normalise(l) for l in expected]
    act = [normalise(l) for l in actual]
    pos, gap = 0, False
    for k, want in enumerate(exp):
        if want == "...":
            gap = True
            continue
        if gap:
            while pos < len(act) and act[pos] != want:
                pos += 1
        if pos >= len(act) or act[pos] != want:
            seen = actual[pos] if pos < len(actual) else "(end of output)"
            return "line %d: %r\n      output:  %r" % (first_line + k, expected[k], seen)
        pos, gap = pos + 1, False
    if not gap and any(act[pos:]):
        return "the output goes on after the doc's last line: %r" % actual[pos]
    return None


def student_env():
    """The environment of a student's shell: without what make hands down to its
    commands, MAKEFLAGS and the variables set on make's command line (`make test
    UBSAN=1` must not turn the docs' `make run` into `make run UBSAN=1`)."""
    flags = os.environ.get("MAKEFLAGS", "")
    set_on_cmdline = [w.split("=", 1)[0] for w in shlex.split(flags.partition(" -- ")[2])]
    dropped = {"MAKEFLAGS", "MAKELEVEL", "MFLAGS"} | set(set_on_cmdline)
    return {k: v for k, v in os.environ.items() if k not in dropped}


def run_transcript(command, timeout=180, tree=ROOT):
    """The output of a doc's `printf ... | make run ...` in @tree, as a student's terminal
    shows it."""
    env = student_env()
    done = subprocess.run(["sh", "-c", command], cwd=tree, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout)
    text = ANSI.sub("", done.stdout.decode("latin-1")).replace("\r", "")
    return [l.rstrip() for l in text.rstrip("\n").split("\n")]


KVDEMO_RUN = "printf '%s\\npoweroff\\n' | make run SMP=2"


def kvdemo_table(lines):
    """The table of kvdemo's part 2, without its row of cycles (wall-clock time)."""
    start = next((k for k, l in enumerate(lines) if "noretry     nodirect" in l), None)
    if start is None:
        return None
    end = next((k for k in range(start, len(lines)) if "order-3 block free" in lines[k]),
               len(lines) - 1)
    return [l for l in lines[start:end + 1] if not l.lstrip().startswith("cycles")]


def check_kvdemo_step(log_path, say=print):
    """`kvdemo unmovable step` against `kvdemo unmovable`; return (passed, failed)."""
    plain = run_transcript(KVDEMO_RUN % "kvdemo unmovable")
    stepped = run_transcript(KVDEMO_RUN % "kvdemo unmovable step\\n\\n\\n")
    with open(log_path, "w") as log:
        log.write("\n".join(["# kvdemo unmovable"] + plain + ["# kvdemo unmovable step"] + stepped))
    want, got = kvdemo_table(plain), kvdemo_table(stepped)
    stops = sum("kvdemo: stopped at" in l for l in stepped)
    if want and want == got and stops == 3:
        say("ok - kvdemo unmovable step: 3 stops, and the same table as kvdemo unmovable")
        return 1, 0
    say("not ok - kvdemo unmovable step: %d stops (3 expected); table %s"
        % (stops, "missing" if not want or not got else "differs: %r against %r" % (got, want)))
    return 0, 1


def check_transcripts(docs, log_dir, say=print, tree=ROOT):
    """Run every transcript in @docs, in @tree (a lab's handout, say); return (passed,
    failed)."""
    passed = failed = 0
    for doc in docs:
        try:
            found = transcripts(doc)
        except ValueError as e:
            failed += 1
            say("not ok - %s: %s" % (os.path.relpath(doc, tree), e))
            continue
        for number, command, expected, first_line in found:
            name = "%s:%d" % (os.path.relpath(doc, tree), number)
            actual = run_transcript(command, tree=tree)
            with open(os.path.join(log_dir, "transcript-%s-%d.log"
                                   % (os.path.basename(doc), number)), "w") as log:
                log.write("# %s\n%s\n" % (command, "\n".join(actual)))
            problem = compare(expected, actual, first_line)
            passed, failed = passed + (problem is None), failed + (problem is not None)
            say("%s - %s: %s" % ("not ok" if problem else "ok", name, command))
            if problem:
                say("      " + problem)
    return passed, failed


# ---------------------------------------------------------------- golden pictures

GOLDEN_DIR = os.path.join(ROOT, "tests", "monitor")
SGR = re.compile(r"\x1b\[([0-9;]*)m")
HALF_BLOCK = "\u2580"
RAMP = "free blocks by order:"


def golden_files():
    return sorted(os.path.join(GOLDEN_DIR, f) for f in os.listdir(GOLDEN_DIR)
                  if f.endswith(".golden"))


def read_golden(path):
    """(the command its "# $ " line names, the picture's lines with ESC for each \e)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().rstrip("\n").split("\n")
    command = next(l[4:] for l in lines if l.startswith("# $ "))
    return command, [l.replace("\\e", "\x1b") for l in lines if not l.startswith("#")]


def run_picture(command, timeout=180, tree=ROOT):
    """The reply of @command's first monitor command, escape sequences kept."""
    done = subprocess.run(["sh", "-c", command], cwd=tree, env=student_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    lines = done.stdout.decode("utf-8", "replace").replace("\r", "").split("\n")
    first = next((i for i, l in enumerate(lines) if l.startswith(PROMPT)), len(lines))
    end = next((i for i in range(first + 1, len(lines)) if lines[i].startswith(PROMPT)),
               len(lines))
    return [l.rstrip() for l in lines[first + 1:end]]


MAP_LINE = re.compile(r"^\s*[0-9a-f]+ \x1b\[")


def sgr_parts(line):
    """@line as [(fg, bg, text)]: each piece of text with the colours it is printed in
    (None: the terminal's own); an SGR other than 0, 38;2 and 48;2 is kept as text."""
    out, fg, bg = [], None, None
    for k, part in enumerate(SGR.split(line)):
        params = part.split(";")
        if not k % 2:
            out.append((fg, bg, part))
        elif params in (["0"], [""]):
            fg = bg = None
        elif params[:2] in (["38", "2"], ["48", "2"]) and len(params) == 5:
            rgb = "#%02x%02x%02x" % tuple(int(p) for p in params[2:])
            fg, bg = (rgb, bg) if params[0] == "38" else (fg, rgb)
        else:
            out.append((fg, bg, "\\e[%sm" % part))
    return out, (fg, bg) != (None, None)


def map_pixels(line, name):
    """The pixels of a map line in frame order: the upper halves' row, then the lower's."""
    upper, lower = [], []
    for fg, bg, text in sgr_parts(line)[0]:
        n = text.count(HALF_BLOCK)
        upper += [name(fg)] * n
        lower += [name(bg)] * n
    return upper + lower


def legend_line(line):
    """A line that is not the map: its text (numbers as '#'), each swatch's colours."""
    out = []
    for fg, bg, text in sgr_parts(line)[0]:
        for piece in re.split("(%s+)" % HALF_BLOCK, text):
            if piece.startswith(HALF_BLOCK):
                out.append(("swatch", fg, bg))
            elif piece.strip():
                out.append(("text", normalise(piece)))
    return tuple(out)


def canonical_picture(lines):
    """What a picture shows, not where its rows break: each block of map lines is the
    colours of its frames in frame order, a run of equal colours counting once and
    every shade of free (the ramp line's) being "free"; every other line is its text
    and swatches.  Returns [(canonical, the first line it comes from)] and the numbers
    of the lines left coloured at their end."""
    ramp = next((l for l in lines if RAMP in l), "")
    free_shades = {fg for fg, _, text in sgr_parts(ramp)[0] if HALF_BLOCK in text}
    name = lambda rgb: "free" if rgb in free_shades else rgb
    out, coloured, runs = [], [], None
    for k, line in enumerate(lines):
        if sgr_parts(line)[1]:
            coloured.append(k)
        if not MAP_LINE.match(line):
            out.append((legend_line(line), line))
            runs = None
            continue
        if runs is None:
            runs = []
            out.append((runs, line))
        for pixel in map_pixels(line, name):
            if not runs or runs[-1] != pixel:
                runs.append(pixel)
    return out, coloured


def visible(line):
    return line.replace("\x1b", "\\e")


def compare_picture(expected, actual):
    """None if @actual shows what @expected does (canonical_picture()), else what differs."""
    want, _ = canonical_picture(expected)
    got, coloured = canonical_picture(actual)
    if coloured:
        return "line %d is not reset to the terminal's colours (ESC[0m) at its end: %r" \
            % (coloured[0] + 1, visible(actual[coloured[0]]))
    for k, ((w, wline), (g, gline)) in enumerate(zip(want, got)):
        if w != g:
            return "picture part %d, from:\n      golden:  %r\n      output:  %r\n" \
                "      (golden: %s;\n       output: %s)" \
                % (k + 1, visible(wline), visible(gline), w, g)
    if len(want) != len(got):
        return "the golden has %d parts (map blocks and other lines), the output %d" \
            % (len(want), len(got))
    return None


def check_golden(log_dir, say=print, tree=ROOT):
    """Draw each golden picture again and compare; return (passed, failed)."""
    passed = failed = 0
    for path in golden_files():
        command, expected = read_golden(path)
        actual = run_picture(command, tree=tree)
        with open(os.path.join(log_dir, "golden-%s.log" % os.path.basename(path)), "w") as log:
            log.write("# %s\n%s\n" % (command, "\n".join(visible(l) for l in actual)))
        problem = compare_picture(expected, actual)
        passed, failed = passed + (problem is None), failed + (problem is not None)
        say("%s - %s: %s" % ("not ok" if problem else "ok", os.path.relpath(path, tree), command))
        if problem:
            say("      " + problem)
    return passed, failed
