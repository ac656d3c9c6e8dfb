/*
 * kernel/printk.c - format a message, keep it in the log, show it on COM1.
 *
 * The log itself (a ring of bytes) and the log levels are in
 * kernel/printk_log.c; this file serialises writers and drives the console.
 *
 * Messages are formatted into a buffer on the stack and emitted whole, so an
 * oops printed from an exception cannot tear a line in half.  A message
 * longer than that buffer is cut.  Whoever registered a console probe
 * (register_trace_console(): the tests, which look for reports) sees each
 * message as it is stored.
 */
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include "lib/vsprintf.h"
#include "lib/string.h"
#include "arch/x86_64/serial.h"

#define LINE_MAX_LEN	512
#define MAX_CONSOLE_PROBES	4

static int console_level = 6;		/* print levels 0..6: all but debug */
static DEFINE_SPINLOCK(printk_lock);

/* register_trace_console()'s probes: set and cleared under printk_lock. */
static struct {
	console_probe_t fn;
	void *data;
} console_probes[MAX_CONSOLE_PROBES];

/**
 * register_trace_console - call @probe(@data, text, len) for every message
 *
 * Context: any; the probe may run on another CPU before this returns.
 * Return: 0, or -EBUSY if MAX_CONSOLE_PROBES are registered already.
 */
int register_trace_console(console_probe_t probe, void *data)
{
	unsigned long flags;
	int ret = -EBUSY;

	spin_lock_irqsave(&printk_lock, flags);
	for (unsigned int i = 0; i < MAX_CONSOLE_PROBES; i++) {
		if (!console_probes[i].fn) {
			console_probes[i].fn = probe;
			console_probes[i].data = data;
			ret = 0;
			break;
		}
	}
	spin_unlock_irqrestore(&printk_lock, flags);
	return ret;
}

/**
 * unregister_trace_console - stop calling @probe with @data
 *
 * Context: any; once it returns, the probe is running nowhere.
 */
void unregister_trace_console(console_probe_t probe, void *data)
{
	unsigned long flags;

	spin_lock_irqsave(&printk_lock, flags);
	for (unsigned int i = 0; i < MAX_CONSOLE_PROBES; i++) {
		if (console_probes[i].fn == probe && console_probes[i].data == data)
			console_probes[i].fn = NULL;
	}
	spin_unlock_irqrestore(&printk_lock, flags);
}

/** console_set_level - print messages of level < @level + 1 (Linux's loglevel=) */
void console_set_level(int level)
{
	console_level = level;
}

/**
 * vprintk - format and print a kernel message
 * @fmt: format, optionally starting with a KERN_* level
 * @args: arguments
 *
 * Context: any, including exceptions; spins with interrupts off while the
 * line is copied out, so it must not be called from inside serial code.
 * Return: the number of characters in the message.
 */
int vprintk(const char *fmt, va_list args)
{
	char line[LINE_MAX_LEN];
	const char *text = line;
	unsigned long flags;
	int level, len;

	/* The level is read from the result, so "%s" with KERN_INFO as argument works too. */
	len = vscnprintf(line, sizeof(line), fmt, args);
	level = printk_take_level(&text);
	len -= text - line;

	spin_lock_irqsave(&printk_lock, flags);
	printk_log_store(text, len);
	for (unsigned int i = 0; i < MAX_CONSOLE_PROBES; i++) {
		if (console_probes[i].fn)
			console_probes[i].fn(console_probes[i].data, text, len);
	}
	if (level <= console_level)
		serial_write(text, len);
	spin_unlock_irqrestore(&printk_lock, flags);
	return len;
}

/** printk - vprintk() with the arguments inline */
int printk(const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vprintk(fmt, args);
	va_end(args);
	return n;
}

/**
 * printk_bust_locks - let a panicking CPU print whatever the others held
 *
 * Context: panic(), after stop_other_cpus(): a stopped CPU may have been
 * halted holding the console lock (or waiting in its queue).
 */
void printk_bust_locks(void)
{
	spin_lock_init(&printk_lock);
}
