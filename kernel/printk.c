/*
 * kernel/printk.c - format a message, keep it in the log, show it on COM1.
 *
 * The log is a ring of bytes with a running write position, like Linux's
 * dmesg buffer but without records: a reader remembers printk_log_pos() and
 * later asks for everything written since.  Tests use this to assert that
 * a double free really printed its one-line report.
 *
 * Messages are formatted into a buffer on the stack and emitted whole, so an
 * oops printed from an exception cannot tear a line in half.  A message
 * longer than that buffer is cut.
 */
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/vsprintf.h"
#include "lib/string.h"
#include "arch/x86_64/serial.h"

#define LOG_BUF_SIZE	(64 * 1024)
#define LINE_MAX_LEN	512

static char log_buf[LOG_BUF_SIZE];
static unsigned long log_pos;		/* bytes ever written */
static int console_level = 6;		/* print levels 0..6: all but debug */
static DEFINE_SPINLOCK(printk_lock);

/** console_set_level - print messages of level < @level + 1 (Linux's loglevel=) */
void console_set_level(int level)
{
	console_level = level;
}

static void log_store(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_pos + i) % LOG_BUF_SIZE] = s[i];
	log_pos += len;
}

/* Strip a KERN_* prefix; return its level (KERN_CONT counts as default). */
static int take_level(const char **fmt)
{
	const char *f = *fmt;

	if (f[0] != KERN_SOH[0] || !f[1])
		return 4;
	*fmt = f + 2;
	return f[1] >= '0' && f[1] <= '7' ? f[1] - '0' : 4;
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
	level = take_level(&text);
	len -= text - line;

	spin_lock_irqsave(&printk_lock, flags);
	log_store(text, len);
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

/** printk_log_pos - the log's write position, to pass to printk_log_read() */
unsigned long printk_log_pos(void)
{
	return READ_ONCE(log_pos);
}

/**
 * printk_log_read - copy out what was logged since a remembered position
 * @since: a value printk_log_pos() returned earlier
 * @buf: where to copy; always NUL-terminated
 * @size: size of @buf
 *
 * If more was written than the ring holds, the oldest part is lost and only
 * the newest LOG_BUF_SIZE bytes are returned.
 * Return: the number of bytes copied, not counting the NUL.
 */
size_t printk_log_read(unsigned long since, char *buf, size_t size)
{
	unsigned long end = READ_ONCE(log_pos);
	size_t n;

	if (!size)
		return 0;
	if (end - since > LOG_BUF_SIZE)
		since = end - LOG_BUF_SIZE;
	n = min(end - since, size - 1);
	since = end - n;	/* keep the newest bytes if @buf is short */
	for (size_t i = 0; i < n; i++)
		buf[i] = log_buf[(since + i) % LOG_BUF_SIZE];
	buf[n] = '\0';
	return n;
}
