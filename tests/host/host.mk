# tests/host/host.mk - kernel code built as ordinary host programs, under
# AddressSanitizer and UndefinedBehaviorSanitizer.  Each tests/host/test_*.c
# is one program; it names the kernel sources it tests in HOST_SRCS_<name>.
# `make test-host` runs them all and writes the summed result line to
# build/host/results.txt (which `make test` adds to its total).
#
# Kernel sources are compiled with tests/host/kernel_names.h forced in, so
# their memcpy, strlen, snprintf... are renamed kernel_memcpy... and do not
# replace the C library's.  A test includes its C library headers first and
# kernel_names.h after them, then calls the kernel's functions by either name.
# The host's own support files (tests/host/*.c: mm_host.c, the checkers) are
# built the same way as the tests, without the forced include.
#
# mm/ is built with -DMM_HOSTED: mm/cpu.h then takes tests/host/mm_host.h
# (fake RAM, vmemmap, locks and CPUs) instead of the kernel's.
#
#   make test-host-build   build and run every host test (part of `make test`);
#                          this includes fuzz_buddy_replay, which runs the
#                          fuzz target over the committed corpus
#                          tests/host/corpus/buddy/ (a second or two; no fuzzing)
#   make fuzz-buddy        fuzz for FUZZ_SECONDS (60) with libFuzzer (clang),
#                          starting from that corpus; new inputs go to
#                          build/fuzz/corpus/ (copy good ones to the corpus)
#   make bench-host        instruction counts (callgrind) of the buddy fast paths

HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itests/host -DMM_HOSTED \
	-DLOG_BUF_SIZE='(1UL << 20)'
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/host/%,$(wildcard tests/host/test_*.c))

# The buddy allocator and everything it needs, for the host
HOST_MM_SRCS := mm/page_alloc.c mm/page_debug.c mm/mm_init.c mm/memblock.c mm/vmscan.c \
	mm/oom_kill.c mm/vmstat.c lib/string.c lib/vsprintf.c kernel/printk_log.c \
	tests/host/mm_host.c

HOST_SRCS_test_string := lib/string.c
HOST_SRCS_test_vsprintf := lib/vsprintf.c lib/string.c
HOST_SRCS_test_buddy := $(HOST_MM_SRCS) tests/host/buddy_check.c
HOST_SRCS_test_rbtree := lib/rbtree.c tests/host/rbtree_check.c

host_objs = $(patsubst %.c,$(BUILD)/host/obj/%.o,$(HOST_SRCS_$(1)))

$(BUILD)/host/obj/%.o: %.c tests/host/kernel_names.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -include tests/host/kernel_names.h -MMD -MP -c $< -o $@

$(BUILD)/host/obj/tests/host/%.o: tests/host/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

.SECONDEXPANSION:
$(BUILD)/host/%: tests/host/%.c tests/host/host_test.h $$(call host_objs,$$*)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MMD -MP -o $@ $< $(filter %.o,$^)

# The fuzz target, replayed over the committed corpus with the host compiler.
HOST_FUZZ_OBJS := $(patsubst %.c,$(BUILD)/host/obj/%.o,$(HOST_MM_SRCS) \
	tests/host/buddy_check.c tests/host/fuzz_buddy.c tests/host/fuzz_replay.c)
HOST_TESTS += $(BUILD)/host/fuzz_buddy_replay
$(BUILD)/host/fuzz_buddy_replay: $(HOST_FUZZ_OBJS)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $^

.PHONY: test-host-build
test-host-build: $(HOST_TESTS)
	@sh tests/host/run.sh $(HOST_TESTS) | tee $(BUILD)/host/results.log; \
	tail -n 1 $(BUILD)/host/results.log > $(BUILD)/host/results.txt

test-host: test-host-build
	@grep -q ' 0 failed' $(BUILD)/host/results.txt

# ---------------------------------------------------------------- libFuzzer

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itests/host -DMM_HOSTED

# Only the allocator itself is instrumented for coverage, so that the fuzzer
# steers by what the allocator does, not by boot code, printk formatting or
# the checkers (which are still built with the sanitizers).
FUZZ_COV_SRCS := mm/page_alloc.c mm/page_debug.c mm/vmscan.c mm/oom_kill.c
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz/cov/%.o,$(FUZZ_COV_SRCS)) \
	$(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(filter-out $(FUZZ_COV_SRCS),$(HOST_MM_SRCS)) \
		tests/host/buddy_check.c tests/host/fuzz_buddy.c)

$(BUILD)/fuzz/cov/%.o: %.c tests/host/kernel_names.h
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-include tests/host/kernel_names.h -MMD -MP -c $< -o $@

$(BUILD)/fuzz/obj/%.o: %.c tests/host/kernel_names.h
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -include tests/host/kernel_names.h -MMD -MP -c $< -o $@

$(BUILD)/fuzz/obj/tests/host/%.o: tests/host/%.c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/fuzz/fuzz_buddy: $(FUZZ_OBJS)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

.PHONY: fuzz-buddy fuzz-deps
fuzz-deps:
	@sh tools/install-deps.sh clang
	@mkdir -p $(BUILD)/fuzz
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' \
		> $(BUILD)/fuzz/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer $(BUILD)/fuzz/probe.c -o $(BUILD)/fuzz/probe 2>/dev/null || \
		{ echo "fuzz-buddy: $(FUZZ_CC) cannot link -fsanitize=fuzzer: libFuzzer is missing" \
		       "(on Debian it comes with clang's runtime, libclang-rt-dev)" >&2; exit 1; }

fuzz-buddy: fuzz-deps $(BUILD)/fuzz/fuzz_buddy
	@mkdir -p $(BUILD)/fuzz/corpus
	$(BUILD)/fuzz/fuzz_buddy -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
		$(BUILD)/fuzz/corpus tests/host/corpus/buddy

# ---------------------------------------------------------------- benchmark

BENCH_HOST_CFLAGS := -std=gnu11 -g -O2 -Wall -Wextra -Werror -I. -Itests/host -DMM_HOSTED \
	-DLOG_BUF_SIZE='(1UL << 20)'

$(BUILD)/bench-host/obj/%.o: %.c tests/host/kernel_names.h
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -include tests/host/kernel_names.h -MMD -MP -c $< -o $@

$(BUILD)/bench-host/obj/tests/host/%.o: tests/host/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/bench-host/bench_buddy: $(patsubst %.c,$(BUILD)/bench-host/obj/%.o,$(HOST_MM_SRCS) \
		tests/host/bench_buddy.c)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -o $@ $^

.PHONY: bench-host
bench-host: $(BUILD)/bench-host/bench_buddy
	@sh tests/host/bench.sh $<
