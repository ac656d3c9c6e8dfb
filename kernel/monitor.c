/*
 * kernel/monitor.c - the interactive shell on the serial console.
 *
 * Read a line (with backspace), split it into words, find the command in
 * the .monitor_cmds table (see monitor.h) and run it.  If a command oopses,
 * the oops is printed and we come back to the prompt: a student poking at
 * the allocators should see the report, not lose the machine.
 *
 * Nothing typed is ever half-used: a line longer than the buffer, or with
 * more words than ARGS_MAX, is refused whole with a message, and the
 * argument helpers (monitor.h) refuse a bad word before the command does
 * anything.  Ctrl-C (byte 0x03) at the prompt drops the line; during a
 * command it sets a flag that monitor_interrupted() reports.  Whatever else
 * arrives while a command polls for Ctrl-C is kept, in order, for the next
 * prompt (so piped input survives a long command), unless Ctrl-C comes:
 * then it is dropped, as a terminal drops type-ahead on an interrupt.
 */
#include "kernel/monitor.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/workqueue.h"
#include "mm/memmap_screen.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/serial.h"
#include "arch/x86_64/setjmp.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define LINE_MAX	256	/* with the NUL: lines of up to 255 characters */
#define ARGS_MAX	16
#define CTRL_C		0x03

extern const struct monitor_command __start_monitor_cmds[], __stop_monitor_cmds[];
static jmp_buf prompt_env;

/* Bytes read while a command polled for Ctrl-C: a ring, oldest at head. */
static char typeahead[LINE_MAX];
static unsigned int typeahead_head, typeahead_len;
static bool interrupted;

static void back_to_prompt(void)
{
	longjmp(prompt_env, 1);
}

/**
 * monitor_interrupted - has the user pressed Ctrl-C since the command started?
 *
 * Reads what the serial line has received so far without waiting; other
 * bytes are kept for the next prompt (up to a line's worth: behind that,
 * they wait in the UART, and so would a Ctrl-C).  Once it has returned
 * true it keeps returning true until the next command starts.
 *
 * Context: the monitor's command, on the boot CPU.  Cheap (one port read
 * when nothing arrived), but call it every few milliseconds, not per byte.
 * Return: true if the command should stop.
 */
bool monitor_interrupted(void)
{
	int c;

	while (!interrupted && typeahead_len < sizeof(typeahead) &&
	       (c = serial_getc_nowait()) >= 0) {
		if (c == CTRL_C) {
			interrupted = true;
			typeahead_len = 0;
			break;
		}
		typeahead[(typeahead_head + typeahead_len++) % sizeof(typeahead)] = (char)c;
	}
	return interrupted;
}

/* The next byte typed: what monitor_interrupted() kept first; -1 if none yet. */
static int take_char_nowait(void)
{
	int c;

	if (!typeahead_len)
		return serial_getc_nowait();
	c = (unsigned char)typeahead[typeahead_head];
	typeahead_head = (typeahead_head + 1) % sizeof(typeahead);
	typeahead_len--;
	return c;
}

/**
 * monitor_wait_for_enter - wait until the user presses Enter (or Ctrl-C)
 *
 * For a command that stops at points the user should look at (`kvdemo
 * ... step`, while the screen map shows the state).  Bytes before the
 * Enter are dropped.  Unlike the prompt it runs no deferred work meanwhile,
 * so a story's kswapd and kcompactd runs happen where they would without the
 * stop.  A Ctrl-C ends the wait too, and monitor_interrupted() reports it.
 *
 * Context: the monitor's command, on the boot CPU.
 */
void monitor_wait_for_enter(void)
{
	int c;

	for (;;) {
		while ((c = take_char_nowait()) < 0)
			cpu_relax();
		if (c == CTRL_C)
			interrupted = true;
		if (c == '\r' || c == '\n' || c == CTRL_C)
			return;
	}
}

/**
 * monitor_idle - one turn of the prompt's wait for a key: the boot CPU's idle loop
 *
 * The boot CPU has no idle loop but this one, so it runs its deferred work
 * here, as the application processors' cpu_idle() does: another CPU may be
 * waiting for it with interrupts off (an AP's __GFP_NOFAIL allocation that
 * needs the pages on this CPU's per-CPU lists asks for them this way).
 *
 * Context: the boot CPU at the prompt (or a test standing in for it),
 * interrupts on, no lock held.
 */
void monitor_idle(void)
{
	if (deferred_work_pending())
		run_deferred_work();
	cpu_relax();
}

static char next_char(void)
{
	int c;

	while ((c = take_char_nowait()) < 0)
		monitor_idle();
	return (char)c;
}

enum line_status { LINE_OK, LINE_TOO_LONG, LINE_CANCELLED };

/*
 * Read one line into @buf, echoing; backspace and DEL erase, Ctrl-C drops
 * the line.  Characters past the buffer are counted (and echoed) but not
 * kept, so a line that was too long is known as such when Enter comes.
 */
static enum line_status read_line(char *buf, size_t size)
{
	size_t typed = 0;
	static char last;

	for (;;) {
		char c = next_char();

		/* "\r\n" from a terminal is one Enter, not two */
		if (c == '\n' && last == '\r') {
			last = c;
			continue;
		}
		last = c;
		if (c == '\r' || c == '\n') {
			serial_putc('\n');
			buf[min(typed, size - 1)] = '\0';
			return typed < size ? LINE_OK : LINE_TOO_LONG;
		}
		if (c == CTRL_C) {
			serial_write("^C\n", 3);
			return LINE_CANCELLED;
		}
		if (c == '\b' || c == 0x7f) {
			if (typed) {
				typed--;
				serial_write("\b \b", 3);
			}
			continue;
		}
		if ((c >= ' ' && c < 0x7f) || c == '\t') {
			if (typed < size - 1)
				buf[typed] = c;
			typed++;
			serial_putc(c);
		}
	}
}

/* Split @line in place; the number of words, or -E2BIG if over ARGS_MAX. */
static int split_words(char *line, char **argv)
{
	int argc = 0;

	for (;;) {
		while (*line == ' ' || *line == '\t')
			*line++ = '\0';
		if (!*line)
			return argc;
		if (argc == ARGS_MAX)
			return -E2BIG;
		argv[argc++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
	}
}

static const struct monitor_command *find_command(const char *name)
{
	for (const struct monitor_command *c = __start_monitor_cmds; c < __stop_monitor_cmds; c++) {
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/* "(usage: alloc ORDER [dma|dma32|atomic|movable])" for the command being parsed */
static void print_usage_tail(const struct monitor_args *args)
{
	const struct monitor_command *cmd = find_command(args->argv[0]);
	const char *usage = cmd ? cmd->usage : "";

	printk(KERN_CONT " (usage: %s%s%s)\n", args->argv[0], *usage ? " " : "", usage);
}

/* The next word, or NULL (and a "missing NAME" line if @name) at the end. */
static const char *take(struct monitor_args *args, const char *name)
{
	if (args->next < args->argc)
		return args->argv[args->next++];
	if (name) {
		printk("%s: missing %s", args->argv[0], name);
		print_usage_tail(args);
	}
	return NULL;
}

static int parse_ulong(struct monitor_args *args, const char *name, const char *word,
		       unsigned long min, unsigned long max, unsigned long *val)
{
	unsigned long v;
	int err = kstrtoul(word, 10, &v);

	if (!err && v >= min && v <= max) {
		*val = v;
		return 0;
	}
	printk("%s: %s must be %lu..%lu (got '%s'%s)\n", args->argv[0], name, min, max, word,
	       err == -ERANGE ? ": too large" : err ? ": not a number" : "");
	return -EINVAL;
}

/**
 * monitor_arg_ulong - take the next word as a decimal number in [@min, @max]
 * @args: the cursor
 * @name: the argument's name in the usage, e.g. "ORDER"
 * @min: smallest value accepted
 * @max: largest value accepted
 * @val: set to the value on success, untouched otherwise
 *
 * Context: a monitor command.
 * Return: 0, or -EINVAL after printing why (missing, not a number, out of range).
 */
int monitor_arg_ulong(struct monitor_args *args, const char *name,
		      unsigned long min, unsigned long max, unsigned long *val)
{
	const char *word = take(args, name);

	return word ? parse_ulong(args, name, word, min, max, val) : -EINVAL;
}

/**
 * monitor_opt_ulong - like monitor_arg_ulong(), but the word may be absent
 *
 * With no word left, *@val keeps the default the caller put there.
 * Return: 0, or -EINVAL after printing why.
 */
int monitor_opt_ulong(struct monitor_args *args, const char *name,
		      unsigned long min, unsigned long max, unsigned long *val)
{
	const char *word = take(args, NULL);

	return word ? parse_ulong(args, name, word, min, max, val) : 0;
}

/*
 * A size: decimal, with an optional K, M or G suffix (binary units, as
 * Linux's memparse()).  Returns 0, -EINVAL or -ERANGE like kstrtoul().
 */
static int parse_size(const char *word, unsigned long *val)
{
	char digits[24];
	size_t len = strlen(word);
	unsigned int shift = 0;
	unsigned long v;
	int err;

	if (len && strchr("kKmMgG", word[len - 1])) {
		shift = word[len - 1] == 'k' || word[len - 1] == 'K' ? 10 :
			word[len - 1] == 'm' || word[len - 1] == 'M' ? 20 : 30;
		len--;
	}
	if (len == 0 || len >= sizeof(digits))
		return len ? -ERANGE : -EINVAL;
	memcpy(digits, word, len);
	digits[len] = '\0';
	err = kstrtoul(digits, 10, &v);
	if (err)
		return err;
	if (v > (~0UL >> shift))
		return -ERANGE;
	*val = v << shift;
	return 0;
}

/** monitor_held_full - are all MONITOR_HELD_MAX slots taken? */
bool monitor_held_full(const struct monitor_held *h)
{
	for (int i = 0; i < MONITOR_HELD_MAX; i++) {
		if (!h->held[i])
			return false;
	}
	return true;
}

/**
 * monitor_held_add - hold @p in the first empty slot
 * Return: the slot, or -ENOSPC if all are taken (check monitor_held_full() first).
 */
int monitor_held_add(struct monitor_held *h, void *p)
{
	for (int i = 0; i < MONITOR_HELD_MAX; i++) {
		if (!h->held[i]) {
			h->held[i] = p;
			return i;
		}
	}
	return -ENOSPC;
}

/** monitor_held_find - the slot that holds @p (never an empty slot for NULL), or -1 */
int monitor_held_find(const struct monitor_held *h, const void *p)
{
	for (int i = 0; p && i < MONITOR_HELD_MAX; i++) {
		if (h->held[i] == p)
			return i;
	}
	return -1;
}

/** monitor_held_forget - empty @slot, remembering its pointer among the freed ones */
void monitor_held_forget(struct monitor_held *h, int slot)
{
	h->freed[h->next_freed++ % MONITOR_FREED_MAX] = h->held[slot];
	h->held[slot] = NULL;
}

/** monitor_held_was_freed - was @p (not NULL) one of the last pointers forgotten? */
bool monitor_held_was_freed(const struct monitor_held *h, const void *p)
{
	for (int i = 0; p && i < MONITOR_FREED_MAX; i++) {
		if (h->freed[i] == p)
			return true;
	}
	return false;
}

/**
 * monitor_arg_size - take the next word as a size in bytes, in [@min, @max]
 * @args: the cursor
 * @name: the argument's name in the usage, e.g. "SIZE"
 * @min: smallest size accepted
 * @max: largest size accepted
 * @val: set to the size on success, untouched otherwise
 *
 * The word is decimal with an optional K, M or G suffix: "4096", "64K", "1M".
 * Context: a monitor command.
 * Return: 0, or -EINVAL after printing why (missing, not a size, out of range).
 */
int monitor_arg_size(struct monitor_args *args, const char *name,
		     unsigned long min, unsigned long max, unsigned long *val)
{
	const char *word = take(args, name);
	unsigned long v;
	int err;

	if (!word)
		return -EINVAL;
	err = parse_size(word, &v);
	if (!err && v >= min && v <= max) {
		*val = v;
		return 0;
	}
	printk("%s: %s must be %lu..%lu bytes; K, M and G may follow (got '%s'%s)\n",
	       args->argv[0], name, min, max, word,
	       err == -ERANGE ? ": too large" : err ? ": not a size" : "");
	return -EINVAL;
}

/**
 * monitor_arg_addr - take the next word as a hex address ("0x" optional)
 * @args: the cursor
 * @name: the argument's name, e.g. "ADDR"
 * @addr: set to the address on success, untouched otherwise
 *
 * Only the syntax is checked: whether anything lives at the address is the
 * command's business (kfree of a bad pointer must itself be reported).
 * Context: a monitor command.
 * Return: 0, or -EINVAL after printing why.
 */
int monitor_arg_addr(struct monitor_args *args, const char *name, unsigned long *addr)
{
	const char *word = take(args, name);
	int err;

	if (!word)
		return -EINVAL;
	err = kstrtoul(word, 16, addr);
	if (!err)
		return 0;
	printk("%s: %s must be a hex address (got '%s': %s)\n", args->argv[0], name, word,
	       err == -ERANGE ? "too large" : "not a number");
	return -EINVAL;
}

/**
 * monitor_opt_keyword - take the next word, if any, as one of @words
 * @args: the cursor
 * @name: what the word stands for in the usage, e.g. "FLAGS"
 * @words: the accepted words, ending with NULL
 * @index: set to the word's index in @words; untouched if there is no word
 *
 * Context: a monitor command.
 * Return: 0 (also when no word is left), or -EINVAL after printing the
 * accepted words.
 */
int monitor_opt_keyword(struct monitor_args *args, const char *name,
			const char *const *words, int *index)
{
	const char *word = take(args, NULL);

	if (!word)
		return 0;
	for (int i = 0; words[i]; i++) {
		if (!strcmp(word, words[i])) {
			*index = i;
			return 0;
		}
	}
	printk("%s: %s must be one of", args->argv[0], name);
	for (int i = 0; words[i]; i++)
		printk(KERN_CONT "%s %s", i ? "," : "", words[i]);
	printk(KERN_CONT " (got '%s')\n", word);
	return -EINVAL;
}

/**
 * monitor_take_word - take the next word if it is exactly @word
 * @args: the cursor
 * @word: a literal, such as "all" in "free N | all" or "node" in "[node N]"
 *
 * Context: a monitor command.
 * Return: true if it was there (and is now taken), false otherwise.
 */
bool monitor_take_word(struct monitor_args *args, const char *word)
{
	if (args->next >= args->argc || strcmp(args->argv[args->next], word))
		return false;
	args->next++;
	return true;
}

/**
 * monitor_args_end - check that every word has been taken
 * @args: the cursor, after the last argument the command accepts
 *
 * Context: a monitor command.
 * Return: 0, or -EINVAL after naming the first extra word.
 */
int monitor_args_end(struct monitor_args *args)
{
	if (args->next >= args->argc)
		return 0;
	printk("%s: unexpected argument '%s'", args->argv[0], args->argv[args->next]);
	print_usage_tail(args);
	return -EINVAL;
}

/**
 * monitor_execute - run one command line
 * @line: the line; it is split in place
 *
 * Context: the monitor, or a test, on the boot CPU.
 * Return: the command's result; -ENOENT for an unknown command, -E2BIG for
 * more than ARGS_MAX words, -EINVAL for an argument to a command that takes
 * none; 0 for an empty line.
 */
int monitor_execute(char *line)
{
	char *argv[ARGS_MAX];
	int argc = split_words(line, argv);
	const struct monitor_command *cmd;
	struct monitor_args args;

	if (argc < 0) {
		printk("monitor: too many words (at most %d); nothing done\n", ARGS_MAX);
		return argc;
	}
	if (!argc)
		return 0;
	cmd = find_command(argv[0]);
	if (!cmd) {
		printk("%s: unknown command; type 'help' for the list\n", argv[0]);
		return -ENOENT;
	}
	args = MONITOR_ARGS(argc, argv);
	if (!*cmd->usage && monitor_args_end(&args))
		return -EINVAL;
	interrupted = false;
	return memmap_screen_run(cmd->fn, argc, argv);
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
		switch (read_line(line, sizeof(line))) {
		case LINE_OK:
			monitor_execute(line);
			break;
		case LINE_TOO_LONG:
			printk("monitor: line too long (more than %d characters); ignored\n",
			       LINE_MAX - 1);
			break;
		case LINE_CANCELLED:
			break;
		}
	}
}

static void print_command(const struct monitor_command *c)
{
	char synopsis[48];

	snprintf(synopsis, sizeof(synopsis), "%s %s", c->name, c->usage);
	printk("  %-30s %s\n", synopsis, c->help);
}

static int cmd_help(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	const struct monitor_command *one = NULL;

	if (argc > 1) {
		one = find_command(argv[1]);
		if (!one) {
			printk("help: COMMAND must be one that 'help' lists (got '%s')\n", argv[1]);
			return -EINVAL;
		}
		args.next++;
	}
	if (monitor_args_end(&args))
		return -EINVAL;
	if (one) {
		print_command(one);
		return 0;
	}
	for (const struct monitor_command *c = __start_monitor_cmds; c < __stop_monitor_cmds; c++)
		print_command(c);
	printk("Numbers are decimal (kstrtoul base 10: '010' is ten, '0x10' is refused); "
	       "Ctrl-C stops a long command.\n");
	return 0;
}
MONITOR_COMMAND(help, "[COMMAND]", "list the commands, or show one", cmd_help);

static int cmd_dmesg(int argc, char **argv)
{
	static char buf[16384];

	(void)argc;
	(void)argv;
	/* Print with serial_write: printk would append to the log being read. */
	serial_write(buf, printk_log_read(0, buf, sizeof(buf)));
	return 0;
}
MONITOR_COMMAND(dmesg, "", "print the kernel log buffer (the newest 16 KiB)", cmd_dmesg);
