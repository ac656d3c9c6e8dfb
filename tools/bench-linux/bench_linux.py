#!/usr/bin/env python3
"""tools/bench-linux/bench_linux.py - measure Linux's allocators the way make bench measures ours.

make bench-linux runs this.  For each kernel (by default the newest 6.1 and the newest 6.12
that the Debian archive serves, found with apt-cache):

  1. fetch Debian's linux-image, linux-headers (flavour and common) and linux-kbuild packages
     with `apt-get download` into build/bench-linux/debs/, and unpack them with dpkg into
     build/bench-linux/<kernel>/: nothing is installed on this machine, nothing is committed;
  2. build tools/bench-linux/module/kmem_bench.c and kmem_replay.c against those headers;
  3. put busybox, tools/bench-linux/init and the module into an initramfs;
  4. boot the kernel in QEMU (TCG, -icount shift=0,align=off,sleep=off) twice: with one CPU
     for every row, then with two CPUs for the cross-CPU rows; then, when tests/traces/ holds
     traces (issue 34's "kmem-replay 1" files), three more times with eight CPUs, the traces
     decompressed into the initramfs's /traces/ and kmem_replay.ko replaying them (each
     trace figure is the median of the three);
  5. write the figures, one "key value" line each, to build/bench-linux/linux-<series>.txt.

Then it writes tests/bench/linux-reference.txt, the file make bench reads to put Linux's figure
beside ours.  By default Linux boots with init_on_alloc=0 (ours does not zero what it hands
out, and Debian's Linux does unless told not to); --debian-defaults measures Debian's own
command line instead, into linux-<series>-debian-defaults.txt, and leaves the reference alone.
docs/bench.md explains the workloads and the figures.
"""

import argparse
import datetime
import glob
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from qemu_runner import run_qemu  # noqa: E402  (the serial reader of make test and make bench)

HERE = os.path.join(ROOT, "tools", "bench-linux")
OUT = os.path.join(ROOT, "build", "bench-linux")
REFERENCE = os.path.join(ROOT, "tests", "bench", "linux-reference.txt")

SERIES = ["6.1", "6.12"]
# What the steps above run, by Debian package; installed with apt-get when missing and root.
TOOLS = {"busybox-static": "/bin/busybox", "cpio": "cpio", "gcc-12": "gcc-12", "make": "make",
         "pahole": "pahole", "qemu-system-x86": "qemu-system-x86_64"}
# The real-time clock starts at a fixed date and runs on the virtual clock, as every other
# clock does under -icount: so that a run is the same instructions every time.
QEMU_ARGS = ["-machine", "pc", "-m", "1G", "-icount", "shift=0,align=off,sleep=off",
             "-rtc", "base=2024-01-01T00:00:00,clock=vm"]
CMDLINE = "console=ttyS0 quiet panic=-1"
BOOT_TIMEOUT = 900
# The replay boot runs every trace at 1, 2, 4 and 8 CPUs, sampling memory after every
# operation of the first run: seconds for today's traces, hours for traces 100 times longer.
REPLAY_TIMEOUT = 4 * 3600
# An 8-CPU boot under -icount is not quite the same twice (QEMU switches between the vCPUs at
# moments the host decides, and the boot's leftovers and the idle CPUs' work differ): the
# replay boots this many times, and each figure is the median.
REPLAY_BOOTS = 3
TRACES = os.path.join(ROOT, "tests", "traces", "*.kmr.gz")
# Each boot: its -smp, and what it adds to the command line.  The second CPU comes online
# from /init (maxcpus=1 holds it back at boot, where Linux 6.1 hangs under -icount), and the
# module then runs the rows that need it.
BOOTS = [("1", ""), ("2", "maxcpus=1 kmem_bench.cross_cpu=1")]
# The replay boot: eight CPUs, seven of them brought up by /init as above.
REPLAY_SMP = "8"
LINE = re.compile(r"kmem_bench: (row|info) (\S+) (.*)$")


def fail(message):
    raise SystemExit("bench-linux: " + message)


def run(cmd, **kw):
    """Run CMD quietly; on failure show what it printed and stop."""
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    if done.returncode != 0:
        sys.stderr.write(done.stdout.decode(errors="replace")[-4000:])
        fail("failed (%d): %s" % (done.returncode, " ".join(cmd)))
    return done.stdout.decode(errors="replace")


lists_updated = False


def apt_update():
    """Refresh the package lists, once and only as root; False if that cannot be done."""
    global lists_updated
    if lists_updated or os.geteuid() != 0:
        return False
    print("bench-linux: apt-get update", flush=True)
    run(["apt-get", "update"])
    lists_updated = True
    return True


def run_apt(cmd, **kw):
    """Run an apt-get command; if it fails, refresh the package lists and try once more."""
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    if done.returncode != 0 and not apt_update():
        sys.stderr.write(done.stdout.decode(errors="replace")[-4000:])
        fail("failed (%d): %s" % (done.returncode, " ".join(cmd)))
    if done.returncode != 0:
        run(cmd, **kw)


def installed(package):
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return done.stdout.decode().endswith("installed")


def install_tools():
    missing = [p for p, tool in TOOLS.items()
               if not installed(p) or not (os.path.exists(tool) or shutil.which(tool))]
    if not missing:
        return
    if os.geteuid() != 0:
        fail("missing packages; run: sudo apt-get install " + " ".join(missing))
    print("bench-linux: installing " + " ".join(missing), flush=True)
    run_apt(["apt-get", "install", "-y", "--no-install-recommends"] + missing,
            env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


# ---------------------------------------------------------------- which kernels

def version_key(text):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def newest_kernel(series):
    """The newest kernel ABI of SERIES ("6.1" -> "6.1.0-57-amd64") in the apt lists."""
    while True:
        names = run(["apt-cache", "pkgnames", "linux-image-%s." % series]).split()
        abis = [n[len("linux-image-"):] for n in names
                if re.fullmatch(r"linux-image-%s\.\d+[-.+\w]*-amd64" % re.escape(series), n)
                and "-cloud-" not in n and "-rt-" not in n]
        if abis:
            return max(abis, key=version_key)
        if not apt_update():
            fail("the apt lists have no linux-image-%s.*-amd64 (run apt-get update)" % series)


def package_field(package, field):
    text = run(["apt-cache", "show", "--no-all-versions", package])
    m = re.search(r"^%s: (.*)$" % field, text, re.M)
    if not m:
        fail("apt-cache show %s has no %s" % (package, field))
    return m.group(1)


def kernel_packages(abi):
    """(image package, [packages the headers need to build a module]) for kernel ABI."""
    headers = "linux-headers-" + abi
    needs = [headers]
    for dep in package_field(headers, "Depends").split(","):
        name = dep.split("|")[0].split()[0]
        if name.startswith(("linux-headers-", "linux-kbuild-")):
            needs.append(name)
    return "linux-image-" + abi, needs


# ---------------------------------------------------------------- fetch, unpack, build

def fetch(package):
    """The .deb of PACKAGE's candidate version, downloaded once into build/bench-linux/debs."""
    debs = os.path.join(OUT, "debs")
    os.makedirs(debs, exist_ok=True)
    version = package_field(package, "Version").replace(":", "%3a")
    if not glob.glob(os.path.join(debs, "%s_%s_*.deb" % (package, version))):
        run_apt(["apt-get", "download", package], cwd=debs)
        version = package_field(package, "Version").replace(":", "%3a")
    return glob.glob(os.path.join(debs, "%s_%s_*.deb" % (package, version)))[0]


def unpack(abi, image, needs):
    """Unpack the headers and the image's vmlinuz into build/bench-linux/ABI; return its paths."""
    tree = os.path.join(OUT, abi)
    vmlinuz = os.path.join(tree, "boot", "vmlinuz-" + abi)
    headers = os.path.join(tree, "usr", "src", "linux-headers-" + abi)
    if not os.path.exists(vmlinuz):
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        for package in needs:
            run(["dpkg-deb", "-x", fetch(package), tree])
        # The flavour's Makefile includes the common one by its installed path.
        makefile = os.path.join(headers, "Makefile")
        with open(makefile) as f:
            text = f.read()
        with open(makefile, "w") as f:
            f.write(text.replace("include /usr/src/", "include %s/usr/src/" % tree))
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", fetch(image)],
                               stdout=subprocess.PIPE)
        run(["tar", "-x", "-C", tree, "./boot/vmlinuz-" + abi], stdin=tar.stdout)
        tar.wait()
    return vmlinuz, headers


def build_module(abi, headers):
    """Build both modules; return the paths of kmem_bench.ko and kmem_replay.ko."""
    build = os.path.join(OUT, abi, "module")
    os.makedirs(build, exist_ok=True)
    for name in ("kmem_bench.c", "kmem_replay.c", "Kbuild"):
        shutil.copy(os.path.join(HERE, "module", name), build)
    run(["make", "-C", headers, "M=" + build, "modules"])
    return os.path.join(build, "kmem_bench.ko"), os.path.join(build, "kmem_replay.ko")


def trace_name(path):
    """boot for tests/traces/boot.kmr.gz: the T of the trace.T.* keys."""
    name = os.path.basename(path)
    for ext in (".gz", ".kmr"):
        name = name[:-len(ext)] if name.endswith(ext) else name
    return name


def make_initramfs(abi, module, replay=None, traces=()):
    """A gzipped newc cpio: busybox and its links, our /init, the module; for the replay
    boot (REPLAY, the path of kmem_replay.ko) also that module and TRACES under /traces/."""
    tag = "-replay" if replay else ""
    tree = os.path.join(OUT, abi, "initramfs" + tag)
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("bin", "dev", "proc", "sys"):
        os.makedirs(os.path.join(tree, d))
    shutil.copy("/bin/busybox", os.path.join(tree, "bin", "busybox"))
    for cmd in ("sh", "cat", "dmesg", "grep", "insmod", "mount", "poweroff", "sleep", "uname"):
        os.symlink("busybox", os.path.join(tree, "bin", cmd))
    shutil.copy(os.path.join(HERE, "init"), os.path.join(tree, "init"))
    shutil.copy(module, os.path.join(tree, "kmem_bench.ko"))
    if replay:
        shutil.copy(replay, os.path.join(tree, "kmem_replay.ko"))
        os.makedirs(os.path.join(tree, "traces"))
        for path in traces:
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rb") as f, \
                    open(os.path.join(tree, "traces", trace_name(path) + ".kmr"), "wb") as out:
                shutil.copyfileobj(f, out)
    return pack_initramfs(tree, os.path.join(OUT, abi, "initrd%s.gz" % tag))


def pack_initramfs(tree, initrd):
    """Write TREE as a gzipped newc cpio to INITRD (its path, returned).  Fixed times and
    order: the same files make the same bytes, and so the same boot.  make trace-linux
    packs its initramfs with it too."""
    files = []
    for top, dirs, names in os.walk(tree):
        dirs.sort()
        rel = os.path.relpath(top, tree)
        files += [os.path.normpath(os.path.join(rel, n)) for n in dirs + sorted(names)]
    for name in files + ["."]:
        os.utime(os.path.join(tree, name), (0, 0), follow_symlinks=False)
    archive = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet", "--reproducible"],
                             cwd=tree, check=True,
                             input="\n".join(files).encode(), stdout=subprocess.PIPE).stdout
    with open(initrd, "wb") as f:
        f.write(gzip.compress(archive, compresslevel=1, mtime=0))
    return initrd


# ---------------------------------------------------------------- boot and measure

def boot(abi, vmlinuz, initrd, cmdline, smp, options, tag, timeout=BOOT_TIMEOUT):
    """Boot once; return the module's rows and info lines, as {key: value}."""
    log = os.path.join(OUT, "%s%s-smp%s.log" % (abi, tag, smp))
    cmd = ["qemu-system-x86_64"] + QEMU_ARGS + ["-smp", smp, "-kernel", vmlinuz,
           "-initrd", initrd, "-append", (cmdline + " " + options).strip(),
           "-display", "none", "-serial", "stdio", "-monitor", "none", "-no-reboot"]
    status, lines = run_qemu(cmd, timeout, log,
                             stop_when=lambda l: l.endswith("kmem_bench: done"))
    found = {"row": {}, "info": {}}
    for line in lines:
        m = LINE.search(line)
        if m:
            found[m.group(1)][m.group(2)] = m.group(3)
    if status is None or not any(l.endswith("kmem_bench: done") for l in lines):
        fail("Linux %s (-smp %s) did not finish the module (status %s); see %s"
             % (abi, smp, status, os.path.relpath(log, ROOT)))
    # A refused trace (or one the module could not read or prepare) is a bug to fix, not a
    # row to leave out quietly.
    refused = [l for l in lines
               if re.search(r"kmem_bench: (replay \S+: |replay needs|cannot)", l)]
    if refused:
        fail("Linux %s (-smp %s): %s; see %s"
             % (abi, smp, refused[0].strip(), os.path.relpath(log, ROOT)))
    return found["row"], found["info"]


def replay_options(traces, verbose=False):
    return "maxcpus=1 kmem_replay.traces=" + ",".join(
        "/traces/%s.kmr" % trace_name(t) for t in traces) + (
        " kmem_replay.verbose=1" if verbose else "")


def median_of(boots):
    """{key: value} of several boots: the median of each numeric key (the middle boot's own
    text, so that its decimals stay as printed), the first boot's for any other key."""
    merged = {}
    for key, value in boots[0].items():
        values = [b[key] for b in boots if key in b]
        try:
            values.sort(key=float)
        except ValueError:
            merged[key] = value
            continue
        merged[key] = values[len(values) // 2]
    return merged


def measure(abi, cmdline, tag, traces, replay_only=False, verbose=False,
            replay_boots=REPLAY_BOOTS):
    image, needs = kernel_packages(abi)
    start = time.monotonic()
    vmlinuz, headers = unpack(abi, image, needs)
    bench_ko, replay_ko = build_module(abi, headers)
    rows, info = {}, {}
    if not replay_only:
        initrd = make_initramfs(abi, bench_ko)
        for smp, options in BOOTS:
            r, i = boot(abi, vmlinuz, initrd, cmdline, smp, options, tag)
            rows.update(r)
            info.update(i)
    if traces:
        initrd = make_initramfs(abi, bench_ko, replay_ko, traces)
        boot_start = time.monotonic()
        rtag = tag if tag.endswith("-replay") else tag + "-replay"
        got = [boot(abi, vmlinuz, initrd, cmdline, REPLAY_SMP, replay_options(traces, verbose),
                    rtag + ("-%d" % n if n else ""), REPLAY_TIMEOUT)
               for n in range(replay_boots)]
        rows.update(median_of([r for r, _ in got]))
        info.update(median_of([i for _, i in got]))
        print("bench-linux: %s: replayed %d traces %d times in %.0f s"
              % (abi, len(traces), replay_boots, time.monotonic() - boot_start), flush=True)
    print("bench-linux: %s: %d rows in %.0f s" % (abi, len(rows), time.monotonic() - start),
          flush=True)
    return {"image": image, "version": package_field(image, "Version"), "rows": rows,
            "info": info}


def qemu_version():
    return run(["qemu-system-x86_64", "--version"]).splitlines()[0]


def describe(cmdline, traces=()):
    """The header lines every results file starts with."""
    smp = "-smp 1 (kmalloc_64_remote_free: -smp 2"
    smp += ("; trace.*: -smp %s maxcpus=1, median of %d boots)" % (REPLAY_SMP, REPLAY_BOOTS)
            if traces else ")")
    lines = ["date %s" % datetime.date.today().isoformat(),
             "qemu %s" % qemu_version(),
             "qemu_args %s %s" % (" ".join(QEMU_ARGS), smp),
             "cmdline %s" % cmdline]
    if traces:
        lines.append("traces %s" % " ".join(trace_id(t) for t in traces))
    return lines


def trace_id(path):
    """boot:1a2b3c4d5e6f: the trace's name and the start of its text's SHA-256, so that
    the reference says which traces it replayed."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return "%s:%s" % (trace_name(path), hashlib.sha256(f.read()).hexdigest()[:12])


def write_results(series, abi, got, cmdline, tag, traces):
    path = os.path.join(OUT, "linux-%s%s.txt" % (series, tag))
    lines = ["# make bench-linux: Linux %s, guest instructions per operation (median of 7)"
             % abi, "kernel %s" % abi, "package %s %s" % (got["image"], got["version"])]
    lines += describe(cmdline, traces)
    lines += ["%s %s" % kv for kv in sorted(got["info"].items())]
    lines += ["%s %s" % kv for kv in got["rows"].items()]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def keys_of(results, table):
    """The keys of TABLE ("rows" or "info") over all kernels, in the order first seen."""
    keys = []
    for got in results.values():
        keys += [k for k in got[table] if k not in keys]
    return keys


def write_reference(results, cmdline, traces):
    """tests/bench/linux-reference.txt: every kernel's figures, one line per key."""
    lines = ["# Linux's allocators in the same QEMU, for make bench's comparison; written by",
             "# make bench-linux (do not edit).  Guest instructions per operation under -icount,",
             "# median of 7 samples, loop included; docs/bench.md defines each key."]
    lines += describe(cmdline, traces)
    lines += ["kernel %s %s %s %s" % (s, got["abi"], got["image"], got["version"])
              for s, got in results.items()]
    lines.append("columns " + " ".join(results))
    # Of the info lines, those about a row (KEY.WHAT, one word each); the rest, the boot's
    # own (uname, mitigations), stay in the results files.
    for word, table in (("info", "info"), ("figure", "rows")):
        for k in keys_of(results, table):
            if word == "info" and "." not in k:
                continue
            lines.append("%s %s %s" % (word, k, " ".join(got[table].get(k, "-")
                                                        for got in results.values())))
    with open(REFERENCE, "w") as f:
        f.write("\n".join(lines) + "\n")


def print_table(results):
    print("%-24s" % "key" + "".join("%12s" % ("Linux " + s) for s in results))
    for k in keys_of(results, "rows"):
        print("%-24s" % k + "".join("%12s" % got["rows"].get(k, "-")
                                    for got in results.values()))


def main():
    global REPLAY_BOOTS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default="",
                    help="kernel ABIs to measure (default: the newest of %s)" % ", ".join(SERIES))
    ap.add_argument("--debian-defaults", action="store_true",
                    help="keep Debian's command line (init_on_alloc on); no reference file")
    ap.add_argument("--traces", default=None,
                    help="trace files to replay, .kmr or .kmr.gz (default: tests/traces/*.kmr.gz)")
    ap.add_argument("--replay-only", action="store_true",
                    help="only the replay boot; results in linux-<series>-replay.txt, "
                         "no reference file")
    ap.add_argument("--replay-boots", type=int, default=REPLAY_BOOTS,
                    help="replay boots per kernel, each figure their median (default %d)"
                         % REPLAY_BOOTS)
    ap.add_argument("--replay-verbose", action="store_true",
                    help="the replay also logs where each run's instructions went")
    a = ap.parse_args()
    REPLAY_BOOTS = a.replay_boots
    traces = sorted(glob.glob(TRACES)) if a.traces is None else a.traces.split()
    if a.replay_only and not traces:
        fail("--replay-only: no traces")
    start = time.monotonic()
    install_tools()
    abis = a.kernels.split() or [newest_kernel(s) for s in SERIES]
    cmdline = CMDLINE if a.debian_defaults else CMDLINE + " init_on_alloc=0"
    tag = "-debian-defaults" if a.debian_defaults else ""
    tag += "-replay" if a.replay_only else ""
    results = {}
    for abi in abis:
        series = ".".join(abi.split(".")[:2])
        got = measure(abi, cmdline, tag, traces, a.replay_only,
                      a.replay_verbose, a.replay_boots)
        got["abi"] = abi
        results[series] = got
        print("bench-linux: wrote %s" % os.path.relpath(
            write_results(series, abi, got, cmdline, tag, traces), ROOT), flush=True)
    if not a.debian_defaults and not a.replay_only:
        write_reference(results, cmdline, traces)
        print("bench-linux: wrote %s" % os.path.relpath(REFERENCE, ROOT))
    print_table(results)
    print("bench-linux: %.0f s in all" % (time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
