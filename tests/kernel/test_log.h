/*
 * tests/kernel/test_log.h - reading what the kernel printed, for suites
 * that check a report: mark printk_log_pos() before, then look at
 * log_since(pos) after.
 *
 * Not a .c file, so it is not a suite of its own.
 */
#ifndef TESTS_KERNEL_TEST_LOG_H
#define TESTS_KERNEL_TEST_LOG_H

#include "kernel/printk.h"
#include "lib/string.h"

/* What was printed since @pos (the newest 16 KiB of it), NUL-terminated. */
static inline const char *log_since(unsigned long pos)
{
	static char buf[16384];

	printk_log_read(pos, buf, sizeof(buf));
	return buf;
}

/* How many times @needle occurs in @haystack. */
static inline unsigned int count_substr(const char *haystack, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

#endif
