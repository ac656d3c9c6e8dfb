/*
 * kernel/main.c - kmain(): bring the subsystems up, in order, then run.
 *
 * This is one of the two places allowed to know every subsystem (the other
 * is the tests).  The order matters and is the story of the boot: console
 * first so anything can be reported, then the CPU's tables so faults are
 * reported, then what GRUB told us, then the firmware tables.  What the
 * kernel does afterwards is chosen on the command line: "kunit" runs the
 * in-kernel tests, "bench" the benchmarks, and otherwise the monitor starts.
 */
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "kernel/monitor.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/multiboot2.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/power.h"
#include "arch/x86_64/serial.h"
#include "lib/vsprintf.h"
#include "kunit/test.h"
#include "bench/bench.h"

void kmain(u32 magic, u32 info);

static void run_tests(void)
{
	char glob[128] = "*";

	cmdline_get("kunit.filter_glob", glob, sizeof(glob));
	kunit_run_all_tests(glob);
	qemu_exit(QEMU_EXIT_TESTS_DONE);
	machine_power_off();
}

static void run_benchmarks(void)
{
	char glob[128] = "*";

	cmdline_get("bench.filter_glob", glob, sizeof(glob));
	bench_run_all(glob);
	qemu_exit(QEMU_EXIT_BENCH_DONE);
	machine_power_off();
}

/**
 * kmain - the first C function, called by boot/entry.asm in long mode
 * @magic: multiboot2 magic from EAX
 * @info: physical address of GRUB's boot information, from EBX
 */
void kmain(u32 magic, u32 info)
{
	setup_per_cpu_areas();
	serial_init();
	vsprintf_set_symbol_formatter(sprint_symbol);
	gdt_init_cpu(0, NULL);
	idt_init();
	idt_load();
	pic_disable();

	pr_info("kmem: a kernel about memory allocation, booting on x86-64\n");
	if (multiboot2_parse(magic, info))
		panic("not started by a multiboot2 boot loader");
	zap_boot_identity_map();
	cmdline_init(boot_info.cmdline);
	console_set_level(cmdline_get_ulong("loglevel", 6));
	pr_info("Command line: %s\n", boot_info.cmdline);
	acpi_init();
	smp_init();

	if (cmdline_has("kunit"))
		run_tests();
	if (cmdline_has("bench"))
		run_benchmarks();
	monitor_run();
}
