/* arch/x86_64/power.h - leaving the machine: power off, and QEMU's exit port. */
#ifndef ARCH_X86_64_POWER_H
#define ARCH_X86_64_POWER_H

#include "lib/compiler.h"

/*
 * Values for the isa-debug-exit device (-device isa-debug-exit,iobase=0xf4):
 * QEMU exits with status (value << 1) | 1, so these become 33, 35, 37 and so on.
 */
#define QEMU_EXIT_TESTS_DONE	0x10
#define QEMU_EXIT_PANIC		0x11
#define QEMU_EXIT_BENCH_DONE	0x12
#define QEMU_EXIT_TORTURE_CLEAN	0x13
#define QEMU_EXIT_TORTURE_FAILED	0x14
#define QEMU_EXIT_REPLAY_CLEAN	0x15
#define QEMU_EXIT_REPLAY_FAILED	0x16

void qemu_exit(u8 value);
__noreturn void machine_power_off(void);

#endif
