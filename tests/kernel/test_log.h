/*
 * tests/kernel/test_log.h - reading what the kernel printed, for suites
 * that check a report: mark printk_log_pos() before, then look at
 * log_since(pos) after.
 *
 * A header, not a suite of its own; its one buffer is in test_log.c.
 */
#ifndef TESTS_KERNEL_TEST_LOG_H
#define TESTS_KERNEL_TEST_LOG_H

#include "kernel/printk.h"
#include "lib/string.h"

/*
 * The one buffer every suite reads the log into (tests/kernel/test_log.c):
 * a static one in the function below was one copy per file that includes
 * this header, 176 KiB of the smallest machine's memory.
 */
extern char test_log_buf[16384];

/* All that was printed since @pos (the newest 16 KiB of it), NUL-terminated. */
static inline const char *log_since_with_traces(unsigned long pos)
{
	printk_log_read(pos, test_log_buf, sizeof(test_log_buf));
	return test_log_buf;
}

/*
 * What was printed since @pos, without the "TRACE " lines of slab_debug=T,
 * which trace every allocation and free of a cache (all of them, with T
 * alone): a trace, not a report, so a case that checks what a call reported,
 * or that it reported nothing, reads the same under it.
 */
static inline const char *log_since(unsigned long pos)
{
	char *buf = (char *)log_since_with_traces(pos), *to = buf;

	for (const char *line = buf; *line; ) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) + 1 : strlen(line);

		if (strncmp(line, "TRACE ", 6)) {
			memmove(to, line, len);
			to += len;
		}
		line += len;
	}
	*to = '\0';
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
