/*
 * arch/x86_64/power.c - switching the machine off, and telling QEMU a result.
 */
#include "arch/x86_64/power.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"

#define QEMU_DEBUG_EXIT_PORT	0xf4

/**
 * qemu_exit - end QEMU through its isa-debug-exit device
 * @value: QEMU exits with status (@value << 1) | 1
 *
 * On a machine without the device (make run, real hardware) nothing
 * happens and the caller goes on.
 */
void qemu_exit(u8 value)
{
	outb(QEMU_DEBUG_EXIT_PORT, value);
}

/**
 * machine_power_off - turn the machine off (ACPI S5); halt if that fails
 *
 * Context: any.  Does not return.
 */
void machine_power_off(void)
{
	local_irq_disable();
	acpi_power_off();
	/* The machine goes off a moment after the write, not at once. */
	for (int i = 0; i < 50000000; i++)
		cpu_relax();
	pr_emerg("power off failed: halting\n");
	for (;;)
		halt();
}

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("Power down\n");
	machine_power_off();
}
MONITOR_COMMAND(poweroff, "", "switch the machine off (QEMU exits with status 0)", cmd_poweroff);
