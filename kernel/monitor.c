/*
 * kernel/monitor.c - the interactive shell on the serial console.
 *
 * Read a line (with backspace), split it into words, find the command in
 * the .monitor_cmds table (see monitor.h) and run it.  If a command oopses,
 * the oops is printed and we come back to the prompt: a student poking at
 * the allocators should see the report, not lose the machine.
 */
#include "kernel/monitor.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/serial.h"
#include "arch/x86_64/setjmp.h"
#include "lib/string.h"

#define LINE_MAX	256
#define ARGS_MAX	16

extern const struct monitor_command __start_monitor_cmds[], __stop_monitor_cmds[];
static jmp_buf prompt_env;

static void back_to_prompt(void)
{
	longjmp(prompt_env, 1);
}

/* Read one line, echoing; backspace and DEL erase.  Returns its length. */
static size_t read_line(char *buf, size_t size)
{
	size_t len = 0;
	static char last;

	for (;;) {
		char c = serial_getc();

		/* "\r\n" from a terminal is one Enter, not two */
		if (c == '\n' && last == '\r') {
			last = c;
			continue;
		}
		last = c;
		if (c == '\r' || c == '\n') {
			serial_putc('\n');
			buf[len] = '\0';
			return len;
		}
		if (c == '\b' || c == 0x7f) {
			if (len) {
				len--;
				serial_write("\b \b", 3);
			}
			continue;
		}
		if (c >= ' ' && c < 0x7f && len + 1 < size) {
			buf[len++] = c;
			serial_putc(c);
		}
	}
}

static int split_words(char *line, char **argv)
{
	int argc = 0;

	while (*line && argc < ARGS_MAX) {
		while (*line == ' ' || *line == '\t')
			*line++ = '\0';
		if (!*line)
			break;
		argv[argc++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
	}
	return argc;
}

static const struct monitor_command *find_command(const char *name)
{
	for (const struct monitor_command *c = __start_monitor_cmds; c < __stop_monitor_cmds; c++) {
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/**
 * monitor_execute - run one command line
 * @line: the line; it is split in place
 *
 * Return: the command's result, -ENOENT (-2) for an unknown command, 0 for
 * an empty line.
 */
int monitor_execute(char *line)
{
	char *argv[ARGS_MAX];
	int argc = split_words(line, argv);
	const struct monitor_command *cmd;

	if (!argc)
		return 0;
	cmd = find_command(argv[0]);
	if (!cmd) {
		printk("%s: unknown command; type 'help' for the list\n", argv[0]);
		return -2;
	}
	return cmd->fn(argc, argv);
}

/**
 * monitor_run - the prompt loop; never returns
 *
 * Context: boot CPU, after all subsystems are up.
 */
void monitor_run(void)
{
	char line[LINE_MAX];

	printk("\nkmem monitor: type 'help' for commands\n");
	if (setjmp(prompt_env))
		printk("(the command oopsed; back at the prompt)\n");
	set_oops_catcher(back_to_prompt);
	for (;;) {
		local_irq_enable();
		serial_write("kmem> ", 6);
		read_line(line, sizeof(line));
		monitor_execute(line);
	}
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (const struct monitor_command *c = __start_monitor_cmds; c < __stop_monitor_cmds; c++)
		printk("  %-12s %s\n", c->name, c->help);
	return 0;
}
MONITOR_COMMAND(help, "list the commands", cmd_help);

static int cmd_dmesg(int argc, char **argv)
{
	static char buf[16384];

	(void)argc;
	(void)argv;
	/* Print with serial_write: printk would append to the log being read. */
	serial_write(buf, printk_log_read(0, buf, sizeof(buf)));
	return 0;
}
MONITOR_COMMAND(dmesg, "print the kernel log buffer (the newest 16 KiB)", cmd_dmesg);
