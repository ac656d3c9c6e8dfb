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

HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itests/host
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/host/%,$(wildcard tests/host/test_*.c))

HOST_SRCS_test_string := lib/string.c
HOST_SRCS_test_vsprintf := lib/vsprintf.c lib/string.c

host_objs = $(patsubst %.c,$(BUILD)/host/obj/%.o,$(HOST_SRCS_$(1)))

$(BUILD)/host/obj/%.o: %.c tests/host/kernel_names.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -include tests/host/kernel_names.h -MMD -MP -c $< -o $@

.SECONDEXPANSION:
$(BUILD)/host/%: tests/host/%.c tests/host/host_test.h $$(call host_objs,$$*)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTLD  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< $(filter %.o,$^)

.PHONY: test-host-build
test-host-build: $(HOST_TESTS)
	@sh tests/host/run.sh $(HOST_TESTS) | tee $(BUILD)/host/results.log; \
	tail -n 1 $(BUILD)/host/results.log > $(BUILD)/host/results.txt

test-host: test-host-build
	@grep -q ' 0 failed' $(BUILD)/host/results.txt
