/*
 * kernel/printk_log.c - the kernel log: a ring of bytes, and log levels.
 *
 * The log is a ring of bytes with a running write position, like Linux's
 * dmesg buffer but without records: a reader remembers printk_log_pos() and
 * later asks for everything written since.  Tests use this to assert that
 * a double free really printed its one-line report.
 *
 * Nothing here locks or prints: kernel/printk.c serialises the writers and
 * sends lines to the console, and the host tests' printk (tests/host) uses
 * the same ring, so both read their logs the same way.
 */
#include "kernel/printk.h"

#ifndef LOG_BUF_SIZE
#define LOG_BUF_SIZE	(64 * 1024)	/* the host tests build a larger one */
#endif

static char log_buf[LOG_BUF_SIZE];
static unsigned long log_pos;		/* bytes ever written */

/**
 * printk_take_level - strip a KERN_* prefix from a formatted message
 * @text: the message; moved past the prefix
 *
 * Return: the level 0..7 (KERN_CONT and no prefix count as 4, a warning).
 */
int printk_take_level(const char **text)
{
	const char *t = *text;

	if (t[0] != KERN_SOH[0] || !t[1])
		return 4;
	*text = t + 2;
	return t[1] >= '0' && t[1] <= '7' ? t[1] - '0' : 4;
}

/** printk_log_store - append @len bytes to the log; callers serialise */
void printk_log_store(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_pos + i) % LOG_BUF_SIZE] = s[i];
	log_pos += len;
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
