/*
 * kernel/monitor.h - commands for the interactive serial shell.
 *
 * The monitor knows no subsystem.  A subsystem adds a command by writing,
 * in its own .c file,
 *
 *	static int cmd_buddyinfo(int argc, char **argv) { ... }
 *	MONITOR_COMMAND(buddyinfo, "free blocks per order", cmd_buddyinfo);
 *
 * The macro puts a struct monitor_command into the .monitor_cmds section;
 * the linker gathers them all, and the monitor walks that array.
 */
#ifndef KERNEL_MONITOR_H
#define KERNEL_MONITOR_H

#include "lib/compiler.h"

struct monitor_command {
	const char *name;
	const char *help;
	int (*fn)(int argc, char **argv);	/* returns 0 or a negative errno */
};

#define MONITOR_COMMAND(cmd, helptext, func)				\
	static const struct monitor_command __monitor_cmd_##cmd		\
	__used __section(".monitor_cmds") __aligned(8) =		\
		{ .name = #cmd, .help = helptext, .fn = func }

void monitor_run(void);
int monitor_execute(char *line);

#endif
