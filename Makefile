# Makefile - build the kernel, its bootable ISO, and run it in QEMU.
#
#   make                 build/kernel.elf and build/kmem.iso
#   make run             boot it with the serial console on this terminal (UEFI=1: OVMF;
#                        GUI=1: and QEMU's window, with the map of memory on the screen)
#   make picture         boot a scripted scenario and save the screen map after each step as
#                        build/pictures/NAME.png (tools/picture.py); docs/pictures/ gets a copy
#   make test            host tests, then the in-kernel tests on the QEMU matrix
#   make test-qemu       the in-kernel tests once, under QEMU_ARGS (and UEFI=1)
#   make test-monitor    bad input at the monitor prompt, the docs' transcripts, the golden pictures
#   make bench           the benchmarks, as a table (two CPUs unless QEMU_ARGS says -smp), and
#                        tests/bench/figures.txt, which the docs' figures are checked against
#   make torture         the allocator torture test: every allocator on every CPU, every checker,
#                        for TORTURE_SECONDS (600) on TORTURE_CPUS (4); TORTURE_SEED=, TORTURE_MIX=,
#                        TORTURE_ARGS (QEMU), TORTURE_CMDLINE (kernel); KASAN=1, CMDLINE=slab_debug
#   make replay TRACE=f  replay an allocation trace (<T>.kmr or .kmr.gz, captured from Linux:
#                        docs/bench.md, section 8) under -icount on SMP CPUs (1; SMP=8 for
#                        the 2, 4 and 8-CPU runs too), -m 1G; its figures beside Linux's
#   make test-host       only the host tests (tests/host: mm/ under ASan/UBSan)
#   make mutants         put each bug of tests/mutants.txt into a copy of the tree and say
#                        which test caught it, and the score (MUTANTS='id1,id2' for some)
#   make bench-host      callgrind instruction counts of the buddy allocator's fast paths,
#                        and kmalloc+kfree beside glibc, jemalloc, tcmalloc, mimalloc
#   make bench-linux     Linux's allocators in the same QEMU (downloads Debian's kernels)
#   make trace-linux     Linux 6.12's own allocations in tests/traces/*.kmr.gz (boots it in QEMU)
#   make fuzz-buddy      fuzz the buddy allocator for FUZZ_SECONDS (libFuzzer, clang)
#   make grade           the labs' graded tests, with points (LAB=slab for one; GRADE_EXTRA=dir
#                        adds hidden suites); writes build/grade.json (docs/labs/)
#   make handout LAB=slab OUT=dir   a lab's student tree, made from this one
#   make test-labs       prove every lab: its handout builds, boots and scores zero on it
#   make debug           QEMU waiting for gdb, and gdb stopped at kmain
#   make console         type at the monitor of the kernel make debug runs (another terminal)
#   make CC=clang        the same with clang; CROSS_COMPILE=x86_64-elf- for a cross gcc
#   make KASAN=1         the kernels with KASAN (mm/kasan/), in build/kasan; with it,
#                        make test runs the suites on the KASAN machine of the matrix
#   make ... UBSAN=1     everything with the Undefined Behaviour Sanitizer, in build/ubsan
#   make KCSAN=1         the kernel with KCSAN, the data-race detector (kernel/kcsan.c), in
#                        build/kcsan; make test boots it on the matrix's kernel=kcsan line
#
# Every .c under arch/x86_64, kernel, mm and lib is kernel code; every .c
# under tests/kunit, tests/kernel, tests/bench and tests/torture is linked into
# the same image and run when the command line says "kunit", "bench" or "torture".

CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
LD := $(CROSS_COMPILE)ld
NM := $(CROSS_COMPILE)nm
NASM ?= nasm
PYTHON ?= python3
HOSTCC ?= gcc

KASAN ?= 0
UBSAN ?= 0
KCSAN ?= 0
BUILD := build$(if $(filter 1,$(KASAN)),/kasan)$(if $(filter 1,$(UBSAN)),/ubsan)$\
	$(if $(filter 1,$(KCSAN)),/kcsan)
ifeq ($(KASAN)$(KCSAN),11)
$(error KASAN=1 and KCSAN=1 together: each is its own kernel (as Linux's Kconfig: KCSAN depends on !KASAN))
endif
KERNEL := $(BUILD)/kernel.elf
ISO := $(BUILD)/kmem.iso

# What a test or bench run selects, and how QEMU is started
TESTS ?= *
BENCH ?= *
QEMU_ARGS ?=
UEFI ?= 0
# GUI=1 boots two CPUs unless SMP says otherwise: the second redraws the screen map
# while a command runs (mm/memmap_screen.c); with one, the map changes after each command.
SMP ?= $(if $(filter 1,$(GUI)),2,1)
MEM ?= 256M
CMDLINE ?=
TIMEOUT ?= 300

KASAN_C := $(wildcard mm/kasan/*.c) arch/x86_64/kasan_init.c
CORE_C := $(filter-out $(KASAN_C),$(wildcard arch/x86_64/*.c kernel/*.c mm/*.c lib/*.c)) \
	$(if $(filter 1,$(KASAN)),$(KASAN_C))
CORE_ASM := $(wildcard boot/*.asm arch/x86_64/*.asm)
TEST_C := $(wildcard tests/kunit/*.c tests/kernel/*.c tests/bench/*.c tests/torture/*.c \
	tests/replay/*.c)
# GRADE_EXTRA=dir: an instructor's hidden suites, built in like tests/kernel (docs/labs/README.md)
EXTRA_DIR := $(if $(GRADE_EXTRA),$(abspath $(GRADE_EXTRA)))
EXTRA_C := $(if $(EXTRA_DIR),$(wildcard $(EXTRA_DIR)/*.c))
# (objects under the directory's own path: another directory's file of the same name,
# older than the object, must not pass for it)
EXTRA_OBJS := $(patsubst $(EXTRA_DIR)/%.c,$(BUILD)/grade-extra$(EXTRA_DIR)/%.o,$(EXTRA_C))
SELFTEST_C := $(wildcard tests/kunit/*.c tests/selftest/*.c tests/bench/*.c tests/torture/*.c \
	tests/replay/*.c)

obj = $(patsubst %,$(BUILD)/%.o,$(basename $(1)))
# The text panel's font (lib/font.h), made from a Debian font at build time.
FONT_PSF := /usr/share/consolefonts/Lat15-VGA16.psf.gz
CORE_OBJS := $(call obj,$(CORE_C) $(CORE_ASM)) $(BUILD)/font8x16.o
KERNEL_OBJS := $(CORE_OBJS) $(call obj,$(TEST_C)) $(EXTRA_OBJS)
SELFTEST_OBJS := $(CORE_OBJS) $(call obj,$(SELFTEST_C))

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
	-fno-stack-protector -fno-pic -fno-pie -fcf-protection=none \
	-mno-red-zone -mcmodel=kernel -mno-mmx -mno-sse -mno-sse2 -mno-avx \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-fno-asynchronous-unwind-tables -fno-strict-aliasing -fno-common \
	-fno-delete-null-pointer-checks \
	-MMD -MP -I. -Itests $(KCONFIG)
# Test code compares values of mixed signedness all the time, as Linux's does, and
# leaves callback parameters unused (suite_init(suite), a shrinker's sc): Linux turns
# -Wunused-parameter off even at W=1, so a suite written for Linux builds here as is.
TEST_KCFLAGS := -Wno-sign-compare -Wno-unused-parameter

CC_IS_CLANG := $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1))

# KASAN=1: every access checked against the shadow by a call (outline:
# __asan_load8_noabort() and friends, mm/kasan/generic.c), stack and global
# variables with redzones, alloca() and variable-length arrays too (gcc asks
# for asan-instrument-allocas, as Linux's scripts/Makefile.kasan does; clang's
# switch is on by default, named here all the same).  Not checked: KASAN
# itself, the slab's debugging (it reads freed objects on purpose) and the
# plain memcpy/memset/memmove of lib/memcpy.c (their callers check).
ifeq ($(KASAN),1)
KCFLAGS += -DCONFIG_KASAN=1
ifeq ($(CC_IS_CLANG),)
KASAN_CFLAGS := -fsanitize=kernel-address -fasan-shadow-offset=0xdffffc0000000000 \
	--param asan-instrumentation-with-call-threshold=0 --param asan-stack=1 \
	--param asan-globals=1 --param asan-instrument-allocas=1
else
KASAN_CFLAGS := -fsanitize=kernel-address -mllvm -asan-mapping-offset=0xdffffc0000000000 \
	-mllvm -asan-instrumentation-with-call-threshold=0 -mllvm -asan-stack=1 \
	-mllvm -asan-globals=1 -mllvm -asan-instrument-dynamic-allocas=1
endif
endif
KASAN_SANITIZE_NO := mm/kasan/% arch/x86_64/kasan_init.c mm/slab_debug.c lib/memcpy.c
kasan_cflags = $(if $(filter $(KASAN_SANITIZE_NO),$(1)),,$(KASAN_CFLAGS))

# The Undefined Behaviour Sanitizer (docs/testing.md): the checks that make sense in a
# kernel, reported by kernel/ubsan.c (itself never instrumented) and going on.  Left out:
# alignment (x86 does not care), null (a NULL dereference faults anyway), object-size
# (Linux dropped it), enum (C lets an enum hold any int), vptr and return (C++).  UBSAN=1
# builds everything with them; the two test files that provoke each report always are.
UBSAN_CFLAGS := -fsanitize=shift,integer-divide-by-zero,signed-integer-overflow,unreachable \
	-fsanitize=bool,$(if $(CC_IS_CLANG),array-bounds,bounds)
UBSAN_ALWAYS := tests/kernel/ubsan_test.c tests/selftest/selftest_ubsan.c
# KCSAN=1: the thread-sanitizer instrumentation with the parameters of Linux's
# scripts/Makefile.kcsan (Linux 6.6): a call before every plain access, volatile
# ones told apart (__tsan_volatile_*: READ_ONCE()/WRITE_ONCE() are marked), no calls
# at function entry and exit, and no sibling calls (a stack must name the caller).
# clang also reports x++ as one read-write access (tsan-compound-read-before-write);
# gcc 12 knows neither that parameter nor its older form, and Linux's cc-option then
# drops it, as here: gcc reports x++ as a read and a write.  -Wno-tsan: gcc warns that
# user-space TSan cannot model a fence; KCSAN is not TSan (Linux says the same).
# Not instrumented: the runtime, and KASAN's (never built together).
ifeq ($(KCSAN),1)
KCFLAGS += -DCONFIG_KCSAN=1
ifeq ($(CC_IS_CLANG),)
KCSAN_CFLAGS := -fsanitize=thread -fno-optimize-sibling-calls \
	--param tsan-distinguish-volatile=1 --param tsan-instrument-func-entry-exit=0 -Wno-tsan
else
KCSAN_CFLAGS := -fsanitize=thread -fno-optimize-sibling-calls \
	-mllvm -tsan-compound-read-before-write=1 -mllvm -tsan-distinguish-volatile=1 \
	-mllvm -tsan-instrument-func-entry-exit=0
endif
endif
KCSAN_SANITIZE_NO := kernel/kcsan.c mm/kasan/% arch/x86_64/kasan_init.c
kcsan_cflags = $(if $(filter $(KCSAN_SANITIZE_NO),$(1)),,$(KCSAN_CFLAGS))

ubsan_flags = $(if $(filter kernel/ubsan.c,$(1)),,$(if $(filter 1,$(UBSAN))$(filter \
	$(UBSAN_ALWAYS),$(1)),$(UBSAN_CFLAGS)))

LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T linker.ld
NASMFLAGS := -f elf64 -g -F dwarf

.SECONDARY:
.PHONY: FORCE all iso run picture debug console test test-host test-qemu test-selftest test-monitor bench torture replay clean deps \
	kasan-kernels kcsan-kernels \
	bench-linux trace-linux compile_commands.json grade handout test-labs mutants
all: $(KERNEL) $(ISO)
iso: $(ISO)

deps:
	@sh tools/install-deps.sh $(if $(findstring clang,$(CC)),clang)

# `make V=1` shows the full commands.
Q := $(if $(filter 1,$(V)),,@)

# The compiler and its flags, in a file rewritten only when they change.  Every
# object depends on it, so `make CC=clang` in a tree gcc built (or a change of
# KCONFIG) rebuilds everything: make by itself compares only timestamps.
COMPILER_ID := $(CC) $(shell $(CC) --version 2>/dev/null | head -n 1) $(KCFLAGS) $(TEST_KCFLAGS) \
	$(KASAN_CFLAGS) $(KCSAN_CFLAGS)
$(BUILD)/compiler.id: FORCE
	@mkdir -p $(BUILD)
	@echo '$(COMPILER_ID)' | cmp -s - $@ || echo '$(COMPILER_ID)' > $@

$(BUILD)/%.o: %.c $(BUILD)/compiler.id
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KCFLAGS) $(if $(filter tests/%,$<),$(TEST_KCFLAGS)) $(call kasan_cflags,$<) \
		$(call kcsan_cflags,$<) $(call ubsan_flags,$<) \
		-c $< -o $@

$(BUILD)/grade-extra$(EXTRA_DIR)/%.o: $(EXTRA_DIR)/%.c $(BUILD)/compiler.id
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KCFLAGS) $(TEST_KCFLAGS) -Itests/kernel -c $< -o $@

$(BUILD)/%.o: %.asm
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NASM    $<")
	$(Q)$(NASM) $(NASMFLAGS) $< -o $@

# The symbol table needs the kernel's addresses, which need the kernel:
# link once with an empty table, list the functions, link again with them.
# The table is at the end of .rodata, after all code, so no function moves
# between the links; the cmp proves it.
$(BUILD)/kallsyms-empty.c: tools/gen-kallsyms.sh
	@mkdir -p $(BUILD)
	$(Q)sh tools/gen-kallsyms.sh < /dev/null > $@

$(BUILD)/%.kallsyms.c: $(BUILD)/%.pass1.elf tools/gen-kallsyms.sh
	@$(if $(Q),echo "  KSYMS   $@")
	$(Q)$(NM) -n $< | sh tools/gen-kallsyms.sh > $@

$(BUILD)/font8x16.c: tools/gen-font.py | deps
	@mkdir -p $(BUILD)
	@$(if $(Q),echo "  FONT    $@")
	$(Q)$(PYTHON) tools/gen-font.py $(FONT_PSF) > $@.tmp && mv $@.tmp $@

$(BUILD)/%.o: $(BUILD)/%.c
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

# Each image's object list, rewritten only when it changes: so that removing
# a file (a test suite, say) relinks too, not only adding or changing one.
define objs_list
$(BUILD)/$(1).objs: FORCE
	@mkdir -p $(BUILD)
	@echo '$(2)' | cmp -s - $$@ || echo '$(2)' > $$@
endef
$(eval $(call objs_list,kernel,$(KERNEL_OBJS)))
$(eval $(call objs_list,selftest,$(SELFTEST_OBJS)))

$(BUILD)/kernel.pass1.elf: $(KERNEL_OBJS) $(BUILD)/kernel.objs
$(BUILD)/selftest.pass1.elf: $(SELFTEST_OBJS) $(BUILD)/selftest.objs
$(BUILD)/%.pass1.elf: $(BUILD)/kallsyms-empty.o linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) -o $@ $(filter %.o,$^)

$(BUILD)/kernel.elf: $(KERNEL_OBJS)
$(BUILD)/selftest.elf: $(SELFTEST_OBJS)
$(BUILD)/%.elf: $(BUILD)/%.kallsyms.o $(BUILD)/%.pass1.elf linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) -o $@ $(filter-out %/kallsyms-empty.o,$(filter %.o,$^))
	@$(NM) -n $(BUILD)/$*.pass1.elf | awk '$$2 ~ /^[tT]$$/' > $@.syms1
	@$(NM) -n $@ | awk '$$2 ~ /^[tT]$$/' > $@.syms2
	@cmp -s $@.syms1 $@.syms2 || { echo "kallsyms: code moved between the two links" >&2; rm -f $@; exit 1; }

$(ISO): $(KERNEL) iso/grub.cfg | deps
	@$(if $(Q),echo "  ISO     $@")
	$(Q)$(PYTHON) tests/qemu_runner.py iso --kernel $(KERNEL) --output $@

# make run CMDLINE='page_poison=1 loglevel=7' passes options to the kernel.
RUN_ISO := $(BUILD)/kmem-run.iso
$(RUN_ISO): $(KERNEL) iso/grub.cfg FORCE | deps
	$(Q)$(PYTHON) tests/qemu_runner.py iso --kernel $(KERNEL) --output $@ --cmdline='$(CMDLINE)'

# A -m or -smp in QEMU_ARGS replaces MEM= or SMP= (QEMU would take the last of two).
RUN_MACHINE = $(if $(filter -m,$(QEMU_ARGS)),,-m $(MEM)) $(if $(filter -smp,$(QEMU_ARGS)),,-smp $(SMP))
# -nographic in QEMU_ARGS already puts the serial port and QEMU's monitor on the terminal;
# a -serial ...stdio there puts the serial port (QEMU refuses two claims on stdio).
# GUI=1: QEMU's window shows the screen map (mm/memmap_screen.c); the serial port stays here.
GUI ?= 0
RUN_CONSOLE = $(strip $(if $(filter -nographic,$(QEMU_ARGS)),,$(if $(filter 1,$(GUI)),,-display none) $\
	$(if $(findstring stdio,$(QEMU_ARGS)),,-serial mon:stdio)))

# The ISO as a CD-ROM; on -machine microvm, which has no CD drive, as a virtio disk.
# UEFI=1 adds OVMF's two flash drives (its variable store copied into $(BUILD)).
BOOT_MEDIUM = $(PYTHON) tests/qemu_runner.py boot-medium --iso $(RUN_ISO) \
	--qemu-args='$(QEMU_ARGS)' $(if $(filter 1,$(UEFI)),--uefi $(BUILD))
RUN_BOOT = $(shell $(BOOT_MEDIUM) 2>/dev/null)

# The first line says what the medium was refused for (microvm under UEFI, say):
# RUN_BOOT's $(shell) keeps quiet.
run: deps $(RUN_ISO)
	@$(BOOT_MEDIUM) >/dev/null
	qemu-system-x86_64 $(strip $(RUN_MACHINE)) $(RUN_BOOT) \
		$(RUN_CONSOLE) -no-reboot $(QEMU_ARGS)

# The scenario's screens as PNGs (tools/picture.py): build/pictures/, copied to docs/pictures/.
picture: deps $(KERNEL)
	$(PYTHON) tools/picture.py --kernel $(KERNEL)

# The serial port goes to a socket that `make console` connects to from another terminal
# (gdb has this one), and to build/debug-serial.log.
DEBUG_SERIAL := -chardev socket,id=serial0,path=$(BUILD)/debug-serial.sock,server=on,wait=off,$\
	logfile=$(BUILD)/debug-serial.log -serial chardev:serial0
debug: deps $(RUN_ISO)
	@$(BOOT_MEDIUM) >/dev/null
	@rm -f $(BUILD)/debug-serial.sock
	qemu-system-x86_64 $(strip $(RUN_MACHINE)) $(RUN_BOOT) -display none \
		$(DEBUG_SERIAL) -no-reboot -s -S $(QEMU_ARGS) & \
	gdb -q -x tools/kmem.gdb; kill %1 2>/dev/null || true

console:
	@$(PYTHON) tools/console.py $(BUILD)/debug-serial.sock

# The KASAN kernels (make KASAN=1) that make test boots on the matrix lines that
# say kernel=kasan and for the runner's KASAN self-test: built in $(BUILD)/kasan.
KASAN_KERNELS := --kernel-variant kasan=$(BUILD)/kasan/kernel.elf \
	--kasan-selftest-kernel $(BUILD)/kasan/selftest.elf
kasan-kernels: FORCE
	@$(MAKE) --no-print-directory KASAN=1 UBSAN=0 BUILD=$(BUILD)/kasan \
		$(BUILD)/kasan/kernel.elf $(BUILD)/kasan/selftest.elf

# The KCSAN kernel (make KCSAN=1) that make test boots on the matrix lines that say
# kernel=kcsan: built in $(BUILD)/kcsan.
KCSAN_KERNELS := --kernel-variant kcsan=$(BUILD)/kcsan/kernel.elf
kcsan-kernels: FORCE
	@$(MAKE) --no-print-directory KCSAN=1 KASAN=0 UBSAN=0 BUILD=$(BUILD)/kcsan \
		$(BUILD)/kcsan/kernel.elf

# The kernel of the matrix lines that say kernel=ubsan: under UBSAN=1, the one kernel.
# (Defined before the rules that name it: a prerequisite is expanded where it is read.)
# The docs' `make run` transcripts (the monitor checks) run as a student types them,
# without UBSAN=1: the kernel they boot is built too.
ifeq ($(UBSAN),1)
UBSAN_KERNEL := $(KERNEL)
test: build/kernel.elf
build/kernel.elf: FORCE
	@$(MAKE) --no-print-directory UBSAN=0 BUILD=build $@
else
UBSAN_KERNEL := $(BUILD)/ubsan/kernel.elf
$(UBSAN_KERNEL): FORCE
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/ubsan UBSAN=1 $@
endif

# The whole suite: host tests, then the QEMU matrix (tests/matrix.txt), then
# the runner's own self-test.  The last line is "N passed, N failed".
# With KASAN=1: only the matrix's KASAN machines and the KASAN self-test.
ifeq ($(KASAN),1)
test: deps $(KERNEL) $(BUILD)/selftest.elf
	$(PYTHON) tests/qemu_runner.py all --only-variant kasan --kernel $(KERNEL) \
		--kernel-variant kasan=$(KERNEL) --selftest-kernel $(BUILD)/selftest.elf \
		--kasan-selftest-kernel $(BUILD)/selftest.elf --matrix tests/matrix.txt \
		--tests '$(TESTS)' --timeout $(TIMEOUT)
else ifeq ($(KCSAN),1)
# With KCSAN=1: only the matrix's KCSAN machines.
test: deps $(KERNEL)
	$(PYTHON) tests/qemu_runner.py all --only-variant kcsan --kernel $(KERNEL) \
		--kernel-variant kcsan=$(KERNEL) --matrix tests/matrix.txt \
		--tests '$(TESTS)' --timeout $(TIMEOUT)
else
test: deps test-host-build $(KERNEL) $(BUILD)/selftest.elf kasan-kernels kcsan-kernels \
		$(UBSAN_KERNEL)
	$(PYTHON) tests/qemu_runner.py all --kernel $(KERNEL) --selftest-kernel $(BUILD)/selftest.elf \
		$(KASAN_KERNELS) $(KCSAN_KERNELS) --kernel-variant ubsan=$(UBSAN_KERNEL) --matrix tests/matrix.txt \
		--host-results $(BUILD)/host/results.txt --tests '$(TESTS)' --timeout $(TIMEOUT)
endif

test-qemu: deps $(KERNEL)
	$(PYTHON) tests/qemu_runner.py test --kernel $(KERNEL) --tests '$(TESTS)' \
		--timeout $(TIMEOUT) $(if $(filter 1,$(UEFI)),--uefi) --qemu-args='$(QEMU_ARGS)' \
		--cmdline='$(CMDLINE)'

test-selftest: deps $(BUILD)/selftest.elf kasan-kernels
	$(PYTHON) tests/qemu_runner.py selftest --selftest-kernel $(BUILD)/selftest.elf \
		--kasan-selftest-kernel $(BUILD)/kasan/selftest.elf

# The labs (docs/labs/README.md): points in tests/grade/points.txt, regions marked
# /* LAB name */ ... /* END LAB */ in the code.  LAB=a,b grades some labs only.
grade: deps $(KERNEL)
	$(PYTHON) tests/grade/grade.py --kernel $(KERNEL) --json $(BUILD)/grade.json \
		--timeout $(TIMEOUT) $(if $(LAB),--lab '$(LAB)') $(if $(GRADE_EXTRA),--extra '$(EXTRA_DIR)')

handout:
	@test -n "$(LAB)" -a -n "$(OUT)" || { echo "usage: make handout LAB=name OUT=dir" >&2; exit 1; }
	$(PYTHON) tools/handout.py '$(LAB)' '$(OUT)'

# The reference scores full marks; every lab's handout (in build/labs/) builds with gcc and
# clang, boots, and scores zero on its lab and full marks on those before it.  .ci/run runs it.
test-labs: deps $(KERNEL)
	$(PYTHON) tests/grade/test_labs.py --kernel $(KERNEL) $(if $(LAB),--lab '$(LAB)')

# The benchmark kernel: the test kernel without the self-checks (CONFIG_DEBUG_VM,
# CONFIG_DEBUG_SPINLOCK), built in its own directory, as a distribution ships Linux.
BENCH_KCONFIG := -DCONFIG_DEBUG_VM=0 -DCONFIG_DEBUG_SPINLOCK=0 -DCONFIG_SLUB_DEBUG=0
BENCH_KERNEL := $(BUILD)/bench/kernel.elf
$(BENCH_KERNEL): FORCE
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/bench KCONFIG='$(BENCH_KCONFIG)' $@

# Bad input at the monitor prompt (tests/monitor/bad_inputs.txt) and the docs' transcripts.
test-monitor: deps $(KERNEL)
	$(PYTHON) tests/qemu_runner.py monitor --kernel $(KERNEL) --matrix tests/matrix.txt

# The in-kernel table (and, when traces are shipped, a second boot that replays them on 8 CPUs:
# docs/bench.md section 8), then the host build's instruction counts (callgrind).
bench: deps $(BENCH_KERNEL)
	$(PYTHON) tests/qemu_runner.py bench --kernel $(BENCH_KERNEL) --bench '$(BENCH)' \
		$(if $(filter 1,$(BENCH_WALL)),--wall) --qemu-args='$(QEMU_ARGS)'
	@$(MAKE) --no-print-directory bench-host

# The allocator torture test (tests/torture/, docs/testing.md "Torture"): minutes of it here;
# make test runs a short one.  Four CPUs by default; TORTURE_ARGS are QEMU's options (a -smp
# there wins over TORTURE_CPUS), TORTURE_CMDLINE and CMDLINE the kernel's (slab_debug...).
# The kernel is $(KERNEL): KASAN=1 (or any option that picks the build directory) tortures it.
TORTURE_SECONDS ?= 600
TORTURE_CPUS ?= 4
TORTURE_ARGS ?= -machine q35 -m 256M
TORTURE_SEED ?=
TORTURE_MIX ?=
TORTURE_CMDLINE ?=
TORTURE_OPTIONS = --kernel $(KERNEL) --seconds $(TORTURE_SECONDS) \
	--qemu-args='$(TORTURE_ARGS) $(if $(filter -smp,$(TORTURE_ARGS)),,-smp $(TORTURE_CPUS))' \
	--cmdline='$(strip $(CMDLINE) $(TORTURE_CMDLINE) \
		$(if $(TORTURE_SEED),torture.seed=$(TORTURE_SEED)) \
		$(if $(TORTURE_MIX),torture.mix=$(TORTURE_MIX)))'
torture: deps $(KERNEL)
	$(PYTHON) tests/qemu_runner.py torture $(TORTURE_OPTIONS)

# A trace of Linux's allocations replayed on the benchmark kernel (tests/replay/, docs/bench.md
# section 8): make replay TRACE=tests/traces/tmpfs.kmr.gz SMP=8.  QEMU_ARGS adds QEMU options
# (a -m there replaces 1G), CMDLINE kernel options (replay.cpus=1,4); BENCH_WALL=1 drops -icount.
replay: deps $(BENCH_KERNEL)
	@test -n "$(TRACE)" || { echo "usage: make replay TRACE=file.kmr[.gz] [SMP=N]" >&2; exit 1; }
	$(PYTHON) tests/qemu_runner.py replay --kernel $(BENCH_KERNEL) \
		$(foreach t,$(TRACE),--trace '$(t)') --smp $(SMP) --qemu-args='$(QEMU_ARGS)' \
		--cmdline='$(CMDLINE)' $(if $(filter 1,$(BENCH_WALL)),--wall)

# Linux's own allocators, measured like ours; writes tests/bench/linux-reference.txt, which
# make bench reads.  Not part of make test: it downloads two kernels and boots each twice
# (and three times more, with eight CPUs, to replay tests/traces/*.kmr.gz when there are any).
# LINUX_KERNELS='6.1.0-57-amd64 ...' picks the kernels; DEBIAN_DEFAULTS=1 keeps Debian's
# command line (init_on_alloc on) and leaves the reference file alone.
bench-linux: deps
	$(PYTHON) tools/bench-linux/bench_linux.py --kernels '$(LINUX_KERNELS)' \
		$(if $(filter 1,$(DEBIAN_DEFAULTS)),--debian-defaults)

# Linux's own allocation traces (docs/bench.md, section 7): Debian's 6.12 boots in QEMU with
# the kmem and vmalloc trace events on, runs a workload per trace window, and sends the
# binary ring buffers out; tools/trace-linux/trace_linux.py converts them to
# tests/traces/<window>.kmr.gz and validates each with tools/trace-linux/kmem_replay.py.
# Not part of make test: it downloads a kernel and boots it once (about a minute).
trace-linux: deps
	$(PYTHON) tools/trace-linux/trace_linux.py

# The mutants (docs/testing.md): each realistic bug of tests/mutants.txt put into a copy
# of the tree (build/mutants/tree) in turn, then make test-host and two make test-qemu
# lines, stopping at the first test that fails.  Not part of make test: tens of minutes.
mutants: deps
	$(PYTHON) tools/mutants.py $(if $(MUTANTS),--mutants '$(MUTANTS)')

include tests/host/host.mk

compile_commands.json:
	@sh tools/gen-compile-commands.sh "$(CC) $(KCFLAGS)" $(CORE_C) $(TEST_C) > $@
	@echo "wrote $@"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
