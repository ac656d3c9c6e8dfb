/*
 * kernel/monitor.h - commands for the interactive serial shell.
 *
 * The monitor knows no subsystem.  A subsystem adds a command by writing,
 * in its own .c file,
 *
 *	static int cmd_alloc(int argc, char **argv) { ... }
 *	MONITOR_COMMAND(alloc, "ORDER [dma|dma32|atomic|movable]", "allocate and hold a block",
 *			cmd_alloc);
 *
 * The macro puts a struct monitor_command into a section of its own,
 * .monitor_cmds.NAME; the linker gathers them all, sorted by name (so
 * `help` lists them A to Z whatever the compiler's order within a file),
 * and the monitor walks that array.  The
 * second argument is the usage (the arguments, "" for none), which `help`
 * prints and every argument error repeats.  A command whose usage is ""
 * never sees an argument: the monitor rejects one before calling it.
 *
 * Arguments.  A bad argument must be refused with one line that names the
 * argument and what would have been accepted, and nothing else may happen.
 * The helpers below do the parsing and print that line, so every command
 * says it the same way.  A command takes its words in order through a
 * cursor, struct monitor_args:
 *
 *	struct monitor_args args = MONITOR_ARGS(argc, argv);
 *	unsigned long order;
 *	int flags = -1;		(an index into alloc_flag_names, or -1 if absent)
 *
 *	if (monitor_arg_ulong(&args, "ORDER", 0, MAX_PAGE_ORDER, &order) ||
 *	    monitor_opt_keyword(&args, "FLAGS", alloc_flag_names, &flags) ||
 *	    monitor_args_end(&args))
 *		return -EINVAL;
 *
 * and the replies are
 *
 *	alloc: missing ORDER (usage: alloc ORDER [dma|dma32|atomic|movable])
 *	alloc: ORDER must be 0..10 (got '-1': not a number)
 *	alloc: ORDER must be 0..10 (got '99999999999999999999': too large)
 *	alloc: ORDER must be 0..10 (got '11')
 *	alloc: FLAGS must be one of dma, dma32, atomic, movable (got 'dmx')
 *	alloc: unexpected argument 'x' (usage: alloc ORDER [dma|dma32|atomic|movable])
 *
 * Numbers are decimal, parsed by kstrtoul(word, 10, ...) (lib/kstrtox.h):
 * "010" is ten, "0x10", "1k", "-1" and "" are refused.  Addresses are hex,
 * with or without "0x".  A literal word that introduces an optional
 * argument ("kmalloc SIZE [node N]") is taken with monitor_take_word().
 * Every helper returns 0 or -EINVAL and has then printed the line; the
 * command returns at once and changes nothing.  The words of the bad-input
 * test (tests/monitor/bad_inputs.txt) exercise every command this way.
 *
 * A command that may run long (a loop the user sizes) calls
 * monitor_interrupted() now and then and stops when it returns true: the
 * user pressed Ctrl-C.  Counts a user gives have a documented cap anyway.
 */
#ifndef KERNEL_MONITOR_H
#define KERNEL_MONITOR_H

#include "lib/compiler.h"

struct monitor_command {
	const char *name;
	const char *usage;	/* arguments, e.g. "ORDER [dma|dma32|atomic|movable]"; "" for none */
	const char *help;
	int (*fn)(int argc, char **argv);	/* returns 0 or a negative errno */
};

#define MONITOR_COMMAND(cmd, usagetext, helptext, func)			\
	static const struct monitor_command __monitor_cmd_##cmd		\
	__used __section(".monitor_cmds." #cmd) __aligned(8) =		\
		{ .name = #cmd, .usage = usagetext, .help = helptext, .fn = func }

/* The words of one command line, taken in order; argv[0] is the command. */
struct monitor_args {
	int argc;
	char **argv;
	int next;		/* the next word to take */
};

#define MONITOR_ARGS(argc, argv)	((struct monitor_args){ (argc), (argv), 1 })

int monitor_arg_ulong(struct monitor_args *args, const char *name,
		      unsigned long min, unsigned long max, unsigned long *val);
int monitor_opt_ulong(struct monitor_args *args, const char *name,
		      unsigned long min, unsigned long max, unsigned long *val);
int monitor_arg_size(struct monitor_args *args, const char *name,
		     unsigned long min, unsigned long max, unsigned long *val);
int monitor_arg_addr(struct monitor_args *args, const char *name, unsigned long *addr);
int monitor_opt_keyword(struct monitor_args *args, const char *name,
			const char *const *words, int *index);
bool monitor_take_word(struct monitor_args *args, const char *word);
int monitor_args_end(struct monitor_args *args);

/*
 * What a command holds for the user between commands (kmalloc's objects,
 * vmalloc's areas), and the last few pointers it freed, so that freeing one
 * again can be shown on purpose.
 */
#define MONITOR_HELD_MAX	64
#define MONITOR_FREED_MAX	16

struct monitor_held {
	void *held[MONITOR_HELD_MAX];
	void *freed[MONITOR_FREED_MAX];
	unsigned int next_freed;
};

bool monitor_held_full(const struct monitor_held *h);
int monitor_held_add(struct monitor_held *h, void *p);
int monitor_held_find(const struct monitor_held *h, const void *p);
void monitor_held_forget(struct monitor_held *h, int slot);
bool monitor_held_was_freed(const struct monitor_held *h, const void *p);

bool monitor_interrupted(void);
void monitor_wait_for_enter(void);

void monitor_run(void);
int monitor_execute(char *line);

void monitor_idle(void);

#endif
