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
 *
 * An NMI can come in while its CPU is inside printk, waiting for the lock or
 * holding it: taking the lock again would wait forever.  Its lines are kept
 * in a per-CPU buffer instead, and the printk it interrupted prints them
 * before it lets the lock go (as Linux's printk_safe did for NMIs).
 */
#include "kernel/printk.h"
#include "kernel/hardirq.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include "lib/vsprintf.h"
#include "lib/string.h"
#include "arch/x86_64/serial.h"

#define LINE_MAX_LEN	512
#define MAX_CONSOLE_PROBES	4

static int console_level = 6;		/* print levels 0..6: all but debug */
static DEFINE_SPINLOCK(printk_lock);

/* This CPU is in vprintk(), from before it queues for the lock to after it lets go. */
static DEFINE_PER_CPU(bool, printk_busy);

/*
 * Messages an NMI printed while its CPU was in vprintk(): each a u16
 * length, then its text.  Only that CPU's vprintk() and NMI touch it; the
 * NMI only appends (an NMI never nests in an NMI).
 */
struct nmi_deferred {
	unsigned int len;
	unsigned int dropped;		/* messages that did not fit */
	char buf[2 * LINE_MAX_LEN];
};
static DEFINE_PER_CPU(struct nmi_deferred, nmi_deferred);

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

	kcsan_disable_current();	/* as in vprintk() */
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
	kcsan_enable_current();
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

	kcsan_disable_current();	/* as in vprintk() */
	spin_lock_irqsave(&printk_lock, flags);
	for (unsigned int i = 0; i < MAX_CONSOLE_PROBES; i++) {
		if (console_probes[i].fn == probe && console_probes[i].data == data)
			console_probes[i].fn = NULL;
	}
	spin_unlock_irqrestore(&printk_lock, flags);
	kcsan_enable_current();
}

/** console_set_level - print messages of level < @level + 1 (Linux's loglevel=) */
void console_set_level(int level)
{
	console_level = level;
}

/* Store, show and pass to the probes one formatted message; printk_lock is held. */
static void emit(const char *line, int len)
{
	const char *text = line;
	/* The level is read from the result, so "%s" with KERN_INFO as argument works too. */
	int level = printk_take_level(&text);

	len -= (int)(text - line);
	printk_log_store(text, len);
	for (unsigned int i = 0; i < MAX_CONSOLE_PROBES; i++) {
		if (console_probes[i].fn)
			console_probes[i].fn(console_probes[i].data, text, len);
	}
	if (level <= console_level)
		serial_write(text, len);
}

/* An NMI's message while this CPU is in vprintk(): keep it for that vprintk(). */
static void defer_nmi_message(const char *line, int len)
{
	struct nmi_deferred *d = this_cpu_ptr(&nmi_deferred);
	u16 n = (u16)len;

	if (d->len + sizeof(n) + n > sizeof(d->buf)) {
		d->dropped++;
		return;
	}
	memcpy(d->buf + d->len, &n, sizeof(n));
	memcpy(d->buf + d->len + sizeof(n), line, n);
	WRITE_ONCE(d->len, d->len + (unsigned int)sizeof(n) + n);
}

/*
 * Print what NMIs deferred on this CPU; printk_lock is held and printk_busy
 * set, so an NMI coming in meanwhile appends, and is printed too.
 */
static void emit_nmi_messages(void)
{
	struct nmi_deferred *d = this_cpu_ptr(&nmi_deferred);
	unsigned int done = 0, len, dropped;
	char line[LINE_MAX_LEN];
	u16 n;

	for (;;) {
		while (done < READ_ONCE(d->len)) {
			memcpy(&n, d->buf + done, sizeof(n));
			memcpy(line, d->buf + done + sizeof(n), n);
			done += sizeof(n) + n;
			emit(line, n);
		}
		/* back to empty, unless an NMI appended since the last look */
		len = done;
		if (__atomic_compare_exchange_n(&d->len, &len, 0, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
	}
	dropped = __atomic_exchange_n(&d->dropped, 0, __ATOMIC_RELAXED);
	if (dropped) {
		n = (u16)snprintf(line, sizeof(line), "printk: %u messages from an NMI dropped\n",
				  dropped);
		emit(line, n);
	}
}

/**
 * vprintk - format and print a kernel message
 * @fmt: format, optionally starting with a KERN_* level
 * @args: arguments
 *
 * Context: any, including exceptions and NMIs (an NMI that interrupted
 * this CPU's printk has its message printed when that printk ends); spins
 * with interrupts off while the line is copied out, so it must not be
 * called from inside serial code.
 * Return: the number of characters in the message.
 */
int vprintk(const char *fmt, va_list args)
{
	char line[LINE_MAX_LEN];
	const char *text = line;
	unsigned long flags;
	int len;

	len = vscnprintf(line, sizeof(line), fmt, args);
	printk_take_level(&text);
	if (unlikely(in_nmi() && this_cpu_read(printk_busy))) {
		defer_nmi_message(line, len);
		return len - (int)(text - line);
	}
	local_irq_save(flags);
	this_cpu_write(printk_busy, true);	/* before the queue: see the top of the file */
	/*
	 * KCSAN=1: no race is looked for in here, where a report would print
	 * under printk_lock (recursion), or wait for the CPU printing one, which
	 * waits for printk_lock (nothing, in other kernels: lib/compiler.h).
	 */
	kcsan_disable_current();
	spin_lock(&printk_lock);
	emit(line, len);
	if (unlikely(READ_ONCE(this_cpu_ptr(&nmi_deferred)->len)))
		emit_nmi_messages();
	spin_unlock(&printk_lock);
	kcsan_enable_current();
	this_cpu_write(printk_busy, false);
	local_irq_restore(flags);
	return len - (int)(text - line);
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
