/*
 * kernel/printk.h - kernel messages, with Linux's log levels.
 *
 * printk(KERN_ERR "thing: %d\n", x) or pr_err("thing: %d\n", x).  Messages
 * below the console level (the "loglevel=" boot option, default 6: all but
 * KERN_DEBUG) are kept in the log buffer but not printed.  Every message
 * also goes to an in-memory log buffer, which the `dmesg` monitor command
 * prints and which tests read to check that a misuse was reported.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>
#include "lib/compiler.h"

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args);
void console_set_level(int level);
void printk_bust_locks(void);

/*
 * Watching what is printed (Linux's console tracepoint, which KFENCE's and
 * KCSAN's tests use the same way): each probe is called with every message
 * as it enters the log, its level stripped, from any CPU and any context,
 * with the console lock held and interrupts off.  A probe must only look
 * and record: never print, never take a lock that printk's callers hold.
 */
typedef void (*console_probe_t)(void *data, const char *text, size_t len);
int register_trace_console(console_probe_t probe, void *data);
void unregister_trace_console(console_probe_t probe, void *data);

/* The log buffer: a position to remember, and the text written since. */
int printk_take_level(const char **text);
void printk_log_store(const char *s, size_t len);
unsigned long printk_log_pos(void);
size_t printk_log_read(unsigned long since, char *buf, size_t size);

#endif
