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
#                          this includes fuzz_NAME_replay, which runs the fuzz
#                          target tests/host/fuzz_NAME.c over its committed
#                          corpus tests/host/corpus/NAME/ (seconds; no fuzzing)
#   make fuzz              every fuzz target below, FUZZ_SECONDS each
#   make fuzz-buddy        fuzz the buddy allocator for FUZZ_SECONDS (60) with
#                          libFuzzer (clang), starting from its corpus; new
#                          inputs go to build/fuzz/corpus/buddy/ (copy good
#                          ones to the corpus)
#   make fuzz-vmap-area    the same for the vmap-area allocator
#   make fuzz-slab         the same for the slab allocator
#   make bench-host        instruction counts (callgrind) of the buddy allocator's
#                          fast paths and of the vmap-area allocator, and the slab's
#                          kmalloc+kfree beside glibc, jemalloc, tcmalloc and mimalloc

HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itests/host -DMM_HOSTED \
	-DLOG_BUF_SIZE='(1UL << 20)'
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/host/%,$(wildcard tests/host/test_*.c))

# The buddy allocator and everything it needs, for the host
HOST_MM_SRCS := mm/page_alloc.c mm/compaction.c mm/migrate.c mm/balloon.c mm/memalloc.c mm/page_debug.c mm/mm_init.c mm/memblock.c \
	mm/vmscan.c mm/percpu.c mm/oom_kill.c mm/vmstat.c lib/string.c lib/memcpy.c lib/vsprintf.c \
	mm/page_snapshot.c kernel/ansi.c kernel/printk_log.c tests/host/mm_host.c

HOST_SRCS_test_string := lib/string.c lib/memcpy.c lib/kstrtox.c
HOST_SRCS_test_vsprintf := lib/vsprintf.c lib/string.c lib/memcpy.c
HOST_SRCS_test_buddy := $(HOST_MM_SRCS) tests/host/buddy_check.c
HOST_SRCS_test_rbtree := lib/rbtree.c tests/host/rbtree_check.c
HOST_VMAP_SRCS := mm/vmap_area.c lib/rbtree.c tests/host/rbtree_check.c tests/host/vmap_check.c
HOST_SRCS_test_vmap_area := $(HOST_MM_SRCS) $(HOST_VMAP_SRCS)
# The slab allocator over the buddy allocator (and its checker and model)
HOST_SLAB_SRCS := $(HOST_MM_SRCS) mm/slab.c mm/slab_common.c mm/slab_debug.c \
	tests/host/buddy_check.c tests/host/slab_check.c tests/host/slab_model.c
HOST_SRCS_test_slab := $(HOST_SLAB_SRCS)

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

# The fuzz targets (see libFuzzer below), each replayed over its committed
# corpus with the host compiler: fuzz_NAME_replay is tests/host/fuzz_NAME.c,
# what it tests (FUZZ_SRCS_NAME) and tests/host/fuzz_replay.c.
FUZZ_TARGETS := buddy vmap_area slab
FUZZ_SRCS_buddy := $(HOST_MM_SRCS) tests/host/buddy_check.c
FUZZ_SRCS_vmap_area := $(HOST_MM_SRCS) $(HOST_VMAP_SRCS)
FUZZ_SRCS_slab := $(HOST_SLAB_SRCS)
HOST_TESTS += $(patsubst %,$(BUILD)/host/fuzz_%_replay,$(FUZZ_TARGETS))
fuzz_replay_objs = $(patsubst %.c,$(BUILD)/host/obj/%.o,$(FUZZ_SRCS_$(1)) \
	tests/host/fuzz_$(1).c tests/host/fuzz_replay.c)
$(BUILD)/host/fuzz_%_replay: $$(call fuzz_replay_objs,$$*)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $^

.PHONY: test-host-build
test-host-build: $(HOST_TESTS)
	@sh tests/host/run.sh $(HOST_TESTS) tests/host/kmem_replay_selftest.sh | tee $(BUILD)/host/results.log; \
	tail -n 1 $(BUILD)/host/results.log > $(BUILD)/host/results.txt

test-host: test-host-build
	@grep -q ' 0 failed' $(BUILD)/host/results.txt

# ---------------------------------------------------------------- libFuzzer

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itests/host -DMM_HOSTED

# Only the allocator itself is instrumented for coverage (FUZZ_COV_NAME), so
# that the fuzzer steers by what the allocator does, not by boot code, printk
# formatting or the checkers (which are still built with the sanitizers).
FUZZ_COV_buddy := mm/page_alloc.c mm/page_debug.c mm/vmscan.c mm/oom_kill.c
FUZZ_COV_vmap_area := mm/vmap_area.c lib/rbtree.c
FUZZ_COV_slab := mm/slab.c mm/slab_common.c mm/slab_debug.c

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

fuzz_objs = $(patsubst %.c,$(BUILD)/fuzz/cov/%.o,$(FUZZ_COV_$(1))) \
	$(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(filter-out $(FUZZ_COV_$(1)),$(FUZZ_SRCS_$(1))) \
		tests/host/fuzz_$(1).c)
$(BUILD)/fuzz/fuzz_%: $$(call fuzz_objs,$$*)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

.PHONY: fuzz-deps $(subst _,-,$(patsubst %,fuzz-%,$(FUZZ_TARGETS)))
fuzz-deps:
	@sh tools/install-deps.sh clang
	@mkdir -p $(BUILD)/fuzz
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' \
		> $(BUILD)/fuzz/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer $(BUILD)/fuzz/probe.c -o $(BUILD)/fuzz/probe 2>/dev/null || \
		{ echo "fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer: libFuzzer is missing" \
		       "(on Debian it comes with clang's runtime, libclang-rt-dev)" >&2; exit 1; }

# make fuzz-NAME (with - for _): fuzz tests/host/fuzz_NAME.c from its corpus.
define fuzz_rule
fuzz-$(subst _,-,$(1)): fuzz-deps $(BUILD)/fuzz/fuzz_$(1)
	@mkdir -p $(BUILD)/fuzz/corpus/$(1)
	$(BUILD)/fuzz/fuzz_$(1) -max_total_time=$$(FUZZ_SECONDS) -max_len=4096 \
		-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/ \
		$(BUILD)/fuzz/corpus/$(1) tests/host/corpus/$(1)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rule,$(t))))

# make fuzz: every fuzz target in turn, FUZZ_SECONDS each.
.PHONY: fuzz
fuzz: $(subst _,-,$(patsubst %,fuzz-%,$(FUZZ_TARGETS)))

# ---------------------------------------------------------------- benchmark

# As the benchmark kernel: without the allocators' self-checks (mm/mmdebug.h) and
# without slab debugging.
BENCH_HOST_CFLAGS := -std=gnu11 -g -O2 -Wall -Wextra -Werror -I. -Itests/host -DMM_HOSTED \
	-DLOG_BUF_SIZE='(1UL << 20)' -DCONFIG_DEBUG_VM=0 -DCONFIG_SLUB_DEBUG=0

$(BUILD)/bench-host/obj/%.o: %.c tests/host/kernel_names.h
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -include tests/host/kernel_names.h -MMD -MP -c $< -o $@

$(BUILD)/bench-host/obj/tests/host/%.o: tests/host/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/bench-host/bench_buddy: $(patsubst %.c,$(BUILD)/bench-host/obj/%.o,$(HOST_MM_SRCS) \
		tests/host/bench_buddy.c tests/host/bench_main.c)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -o $@ $^

$(BUILD)/bench-host/bench_vmap_area: $(patsubst %.c,$(BUILD)/bench-host/obj/%.o,$(HOST_MM_SRCS) \
		mm/vmap_area.c lib/rbtree.c tests/host/bench_vmap_area.c tests/host/bench_main.c)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -o $@ $^

# kmalloc+kfree beside other allocators' malloc+free: one program per allocator
# (tests/host/bench_kmalloc.c), each peer linked with its library alone.
BENCH_PEERS := glibc jemalloc tcmalloc mimalloc
BENCH_LIBS_glibc :=
BENCH_LIBS_jemalloc := -ljemalloc
BENCH_LIBS_tcmalloc := -ltcmalloc_minimal
BENCH_LIBS_mimalloc := -lmimalloc
BENCH_KMALLOC := $(patsubst %,$(BUILD)/bench-host/bench_kmalloc_%,slab $(BENCH_PEERS))

$(BUILD)/bench-host/bench_kmalloc_slab: tests/host/bench_kmalloc.c tests/host/bench_host.h \
		$(patsubst %.c,$(BUILD)/bench-host/obj/%.o,$(HOST_MM_SRCS) mm/slab.c \
			mm/slab_common.c mm/slab_debug.c tests/host/bench_main.c)
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -DBENCH_SLAB -o $@ $< $(filter %.o,$^)

$(patsubst %,$(BUILD)/bench-host/bench_kmalloc_%,$(BENCH_PEERS)): \
$(BUILD)/bench-host/bench_kmalloc_%: tests/host/bench_kmalloc.c tests/host/bench_main.c \
		tests/host/bench_host.h | bench-host-deps
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -std=gnu11 -g -O2 -Wall -Wextra -Werror -Itests/host -DBENCH_LIB='"$*"' \
		-o $@ $(filter %.c,$^) $(BENCH_LIBS_$*)

.PHONY: bench-host bench-host-deps
bench-host-deps:
	@sh tools/install-deps.sh bench-host

bench-host: bench-host-deps $(BUILD)/bench-host/bench_buddy $(BUILD)/bench-host/bench_vmap_area \
		$(BENCH_KMALLOC)
	@for b in bench_buddy bench_vmap_area; do \
		sh tests/host/bench.sh $(BUILD)/bench-host/$$b || exit 1; done
	@sh tests/host/bench_peers.sh $(BENCH_KMALLOC)
