/*
 * kernel/lockdep.c - the runtime locking correctness validator, in small.
 *
 * A deadlock needs bad luck: two CPUs taking two locks in opposite orders
 * at the same moment, or an interrupt arriving just while the code it
 * interrupts holds the lock the handler wants.  A test may run such code a
 * million times and never hit the moment.  Lockdep (Linux's, described in
 * https://docs.kernel.org/locking/lockdep-design.html; this is the idea of
 * Linux 6.12's kernel/locking/lockdep.c, written afresh and much smaller)
 * does not wait for the moment: it remembers, for every pair of lock
 * classes, whether one was ever held while the other was taken, and reports
 * the first order or interrupt state that *could* deadlock, the first time
 * the code runs at all, on any CPU, even if nothing ever hung.
 *
 * Lock classes.  Locks are many (a zone lock per zone, a list_lock per
 * slab node) but the rules are about kinds of locks, so lockdep reasons
 * about classes.  A lock's class is its key: the static struct
 * lock_class_key of its spin_lock_init() site (the macro declares one per
 * site, as Linux's does), or one given by lockdep_set_class(); a lock
 * defined with DEFINE_SPINLOCK() has the lock's own address as key when
 * the lock is in the kernel image (Linux's rule for static objects), and
 * its name when it is not (a DEFINE_SPINLOCK() on the stack, a per-CPU
 * copy: the name's string is one per site too).  spin_lock_nested(lock, n)
 * makes a subclass n of the class, for two locks of one class always
 * taken in a fixed order.  A lock with no key, not static and with no name
 * cannot be given a class: that is reported (Linux's "trying to register
 * non-static key").
 *
 * Held locks.  Each CPU has a stack of the locks it holds, pushed by
 * lock_acquire() and popped by lock_release() (out of order too); this
 * kernel has no preemption, so a CPU is what Linux calls a task.  Each
 * entry remembers whether it was taken inside an interrupt handler: the
 * handler's locks are a context of their own, and nothing the interrupted
 * code holds is made to depend on them (the interrupt state below covers
 * that case).
 *
 * Dependencies.  Taking B while holding A (in one context) records the
 * edge A -> B in a graph of classes, with the stack trace of the moment it
 * was first seen.  Only the edge from the innermost held lock is added
 * (and from trylocks above the one below it): the rest follow by
 * transitivity.  Before a new edge A -> B goes in, a breadth-first search
 * from B looks for A: if there is a path, the edge closes a cycle, and
 * the cycle is a possible deadlock: "WARNING: possible circular locking
 * dependency detected", printed with the stack of each edge on the path
 * (where that order was seen) and the current one.  A second lock of a
 * class held already is "possible recursive locking" unless it is taken
 * as a distinct subclass.  A trylock never waits, so it adds no edge into
 * the lock it takes, and never counts as recursion.
 *
 * The chain cache.  The checks above walk the graph; done on every lock
 * they would cost far too much.  But the sequence of classes a CPU holds
 * is almost always one seen before.  Each held-lock entry carries a 64-bit
 * hash of the classes from the bottom of its context up to it (the chain
 * key); a sequence validated once goes into an open-addressed table of
 * keys, and a known sequence costs one hash step and one lookup, with no
 * lock taken.
 *
 * Interrupt state.  A class taken inside an interrupt handler is
 * IN-HARDIRQ-W; one taken, or held, with interrupts on is HARDIRQ-ON-W.
 * A class that is both can deadlock on one CPU: the handler arrives while
 * the code it interrupted holds the lock, and spins on it forever.  The
 * first acquire that makes a class both prints "WARNING: inconsistent lock
 * state" with "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage." (or
 * the reverse), and the stack where the other usage was first seen.
 * "In an interrupt handler" is kernel/hardirq.h's in_hardirq(): do_interrupt()
 * and the cross-CPU call functions raise it.  "Interrupts on" is the
 * flags' IF bit at the acquire, and every local_irq_enable() (and so every
 * local_irq_restore() that turns them on) calls lockdep_hardirqs_on(),
 * which marks the locks then held.  Softirq state is not tracked: this
 * kernel has no softirq context (kernel/workqueue.c runs its work items in
 * process context, from the waiting CPU's loop, never at interrupt exit),
 * so a lock cannot be taken in a context between the two.
 *
 * The interrupt state and the order together: a class taken in a handler
 * (irq-safe) held, directly or not, while a class taken with interrupts on
 * (irq-unsafe) is taken deadlocks across two CPUs: one holds the unsafe
 * lock with interrupts on and is interrupted by a handler that wants the
 * safe one, which the other CPU holds while it waits for the unsafe one.
 * A new edge whose backward closure has an irq-safe class and whose
 * forward closure an irq-unsafe one is "WARNING: HARDIRQ-safe ->
 * HARDIRQ-unsafe lock order detected"; a usage that makes an existing path
 * such is "WARNING: possible irq lock inversion dependency detected".
 *
 * After the first report lockdep stops validating (Linux's debug_locks
 * becomes 0) and says "turning off the locking correctness validator.":
 * the graph may now describe a kernel that went wrong.  It keeps the
 * held-lock stacks up to date, so that lockdep_is_held() stays exact and a
 * self-test can re-arm it: lockdep_selftest_mark() notes how far the
 * tables were filled, and lockdep_selftest_rearm() forgets every class,
 * edge and trace added since (and the chain cache), then validates again.
 * Only tests/kernel/lockdep_test.c calls them.
 *
 * Cost.  Off (no "lockdep" on the command line): a load and a branch per
 * lock, unlock and local_irq_enable().  On: a call with interrupts off, a
 * usage-bit test, a hash step and the lookup; the graph lock (a plain
 * test-and-set lock lockdep does not track) only on a chain or usage seen
 * for the first time.  The benchmark kernel (CONFIG_DEBUG_SPINLOCK=0, and
 * so CONFIG_LOCKDEP=0) has none of it.
 *
 * The tables are small (the smallest test machine has 6 MiB) and come
 * from the page allocator at boot, only when lockdep is on; when one is full lockdep says which ("BUG: MAX_LOCKDEP_ENTRIES too
 * low!", as Linux) and turns itself off.
 */
#include "kernel/lockdep.h"
#include "kernel/spinlock.h"
#include "kernel/hardirq.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/cmdline.h"
#include "kernel/monitor.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/stacktrace.h"
#include "mm/page_alloc.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#if CONFIG_LOCKDEP

/*
 * The whole suite makes about 25 classes, 20 dependencies and 65 chains;
 * the tables hold five times that or more, in one 64 KiB block
 * (lockdep_init()).
 */
#define MAX_LOCKDEP_KEYS	128	/* classes */
#define MAX_LOCKDEP_ENTRIES	512	/* dependency edges */
#define MAX_LOCKDEP_CHAINS	1024	/* validated chains (a power of two) */
#define MAX_STACK_TRACE_ENTRIES	4096	/* addresses, for all the traces */
#define LOCKDEP_TABLES_SIZE	(64 << 10)
#define LOCKDEP_TRACE_DEPTH	8	/* frames kept per trace */
#define MAX_LOCK_DEPTH		48	/* locks one CPU holds at once */
#define CLASSHASH_SIZE		128

enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ,		/* taken inside an interrupt handler */
	LOCK_ENABLED_HARDIRQ,		/* taken or held with interrupts on */
	LOCK_USAGE_STATES
};

static const char *const usage_str[LOCK_USAGE_STATES] = {
	[LOCK_USED_IN_HARDIRQ] = "IN-HARDIRQ-W",
	[LOCK_ENABLED_HARDIRQ] = "HARDIRQ-ON-W",
};

/* A stored stack trace: where in trace_pool, and how many frames. */
struct lock_trace {
	u16 nr;
	u16 offset_hi;
	u16 offset;
};

struct lock_class {
	const void *key;		/* the key, or the lock, or its name */
	const char *name;
	unsigned int subclass;
	unsigned int usage_mask;	/* 1 << enum lock_usage_bit */
	struct lock_trace usage_trace[LOCK_USAGE_STATES];
	u16 hash_next;			/* next class in its hash bucket, 0: none */
	u16 deps;			/* first edge out of this class, 0: none */
	u16 bfs_parent;			/* the edge the search reached it by */
	unsigned int bfs_gen;
};

/* An edge: @from was held when @to was taken (Linux's struct lock_list). */
struct lock_list {
	u16 from, to;
	u16 next;			/* next edge out of @from, 0: none */
	struct lock_trace trace;	/* where it was first seen */
};

struct held_lock {
	struct lockdep_map *map;
	unsigned long ip;		/* where it was taken */
	u64 chain_key;			/* the classes from the context's bottom to here */
	u16 class_idx;			/* 0: taken while lockdep did not validate */
	u8 hardirq;			/* taken inside an interrupt handler */
	u8 trylock;
	u8 abandoned;			/* held by code an oops ended */
};

struct lockdep_cpu {
	unsigned int depth;
	unsigned int recursion;		/* inside lockdep (its own printk's lock) */
	unsigned long trace_from;	/* the return address into the lock's caller */
	struct held_lock held[MAX_LOCK_DEPTH];
};

bool lockdep_tracking;
int debug_locks = 1;

/*
 * The tables, from the page allocator when lockdep is turned on
 * (lockdep_init()), so that a kernel without "lockdep" keeps the memory.
 * Index 0 of classes and edges is "none", so an index fits a u16 with 0
 * free.
 */
static struct lock_class *lock_classes;		/* [MAX_LOCKDEP_KEYS] */
static struct lock_list *list_entries;		/* [MAX_LOCKDEP_ENTRIES] */
static unsigned long *trace_pool;		/* [MAX_STACK_TRACE_ENTRIES] */
static u64 *chain_keys;				/* [MAX_LOCKDEP_CHAINS] */
static u16 *bfs_queue;				/* [MAX_LOCKDEP_KEYS] */
static u16 classhash[CLASSHASH_SIZE];
static unsigned int nr_lock_classes = 1, nr_list_entries = 1, nr_trace_entries, nr_chains;
static unsigned int bfs_generation;
static u32 graph_lock_word;
static DEFINE_PER_CPU(struct lockdep_cpu, lockdep_cpu);

/* The self-test's checkpoint (lockdep_selftest_mark()). */
static struct {
	bool set;
	unsigned int classes, entries, traces;
} mark;

extern char _text[], _end[], __per_cpu_start[], __per_cpu_end[];
extern char boot_stack_guard[], boot_stack_top[];	/* boot/entry.asm */

/* ------------------------------------------------------------ the basics */

static void graph_lock(void)
{
	while (__atomic_exchange_n(&graph_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void graph_unlock(void)
{
	__atomic_store_n(&graph_lock_word, 0, __ATOMIC_RELEASE);
}

/**
 * debug_locks_off - stop validating, after a report (Linux's name)
 *
 * Context: any.  Return: 1 if this call turned it off (the caller then
 * prints its report), 0 if it was off already.
 */
int debug_locks_off(void)
{
	return __atomic_exchange_n(&debug_locks, 0, __ATOMIC_RELAXED) != 0;
}

/* A report's last words, as Linux's lockdep says them once it stops. */
static void print_turning_off(void)
{
	printk(KERN_ERR "turning off the locking correctness validator.\n");
}

static u64 iterate_chain_key(u64 key, unsigned int id)
{
	key ^= id * 0x9e3779b97f4a7c15ULL;
	key = (key << 27 | key >> 37) * 0xbf58476d1ce4e5b9ULL;
	return key ?: 1;		/* 0 marks an empty slot of chain_keys */
}

/* The chain key a context starts from: an interrupt handler's is its own. */
static u64 context_seed(unsigned int hardirq)
{
	return hardirq ? 0x48415244495251ULL : 0;
}

static struct lock_class *hlock_class(const struct held_lock *hl)
{
	return hl->class_idx ? &lock_classes[hl->class_idx] : NULL;
}

/*
 * The current stack into @buf (LOCKDEP_TRACE_DEPTH + 8 entries), and in
 * *@from the first frame outside lockdep: the caller of the lock
 * operation (lock_acquire() noted its return address).  Return: frames.
 */
static unsigned int current_trace(unsigned long *buf, unsigned int *from)
{
	unsigned long ret = this_cpu_read(lockdep_cpu.trace_from) - 1;
	unsigned int n = stack_trace_save(buf, LOCKDEP_TRACE_DEPTH + 8, 0);

	*from = 0;
	for (unsigned int i = 0; i < n; i++) {
		if (buf[i] == ret) {
			*from = i;
			break;
		}
	}
	return min(n - *from, (unsigned int)LOCKDEP_TRACE_DEPTH);
}

/* Save the current stack (current_trace()).  Context: graph lock held. */
static struct lock_trace save_trace(void)
{
	unsigned long buf[LOCKDEP_TRACE_DEPTH + 8];
	unsigned int from, n = current_trace(buf, &from);
	struct lock_trace t = { 0 };

	if (nr_trace_entries + n > MAX_STACK_TRACE_ENTRIES)
		return t;	/* no room: the report says "(no trace)" */
	memcpy(&trace_pool[nr_trace_entries], &buf[from], n * sizeof(buf[0]));
	t.nr = n;
	t.offset = nr_trace_entries & 0xffff;
	t.offset_hi = nr_trace_entries >> 16;
	nr_trace_entries += n;
	return t;
}

/* The current stack, as save_trace() would keep it. */
static void print_current_trace(unsigned int indent)
{
	unsigned long buf[LOCKDEP_TRACE_DEPTH + 8];
	unsigned int from, n = current_trace(buf, &from);

	for (unsigned int i = 0; i < n; i++)
		printk(KERN_ERR "%*s%pS\n", indent, "", (void *)buf[from + i]);
}

static void print_trace(const struct lock_trace *t, unsigned int indent)
{
	unsigned long off = (unsigned long)t->offset_hi << 16 | t->offset;

	if (!t->nr)
		printk(KERN_ERR "%*s(no trace)\n", indent, "");
	for (unsigned int i = 0; i < t->nr; i++)
		printk(KERN_ERR "%*s%pS\n", indent, "", (void *)trace_pool[off + i]);
}

/* ------------------------------------------------------------ the classes */

/*
 * Static: in the kernel image, but neither on the boot CPU's stack nor in a
 * CPU's per-CPU area, which are in the image's .bss too: a lock there is
 * one of many made by the same code (the stack slot is reused by other
 * calls, and each CPU has its own copy), so its name is its class.
 */
static bool static_obj(const void *p)
{
	const char *c = p;
	unsigned int cpu;

	if (c < _text || c >= _end)
		return false;
	if (c >= boot_stack_guard && c < boot_stack_top)
		return false;
	if (c >= __per_cpu_start && c < __per_cpu_end)
		return false;	/* the template: each CPU's copy is elsewhere */
	for_each_possible_cpu(cpu) {
		const char *area = __per_cpu_start + __per_cpu_offset[cpu];

		if (c >= area && c < area + percpu_area_size())
			return false;
	}
	return true;
}

/* The key @map's class is found by: see the file comment. */
static const void *map_key(const struct lockdep_map *map)
{
	if (map->key)
		return map->key;
	if (static_obj(map))
		return map;
	return map->name;
}

static unsigned int classhash_of(const void *key, unsigned int subclass)
{
	return (((unsigned long)key >> 3) * 31 + subclass) % CLASSHASH_SIZE;
}

static struct lock_class *look_up_class(const void *key, unsigned int subclass)
{
	u16 i = __atomic_load_n(&classhash[classhash_of(key, subclass)], __ATOMIC_ACQUIRE);

	for (; i; i = lock_classes[i].hash_next) {
		if (lock_classes[i].key == key && lock_classes[i].subclass == subclass)
			return &lock_classes[i];
	}
	return NULL;
}

static void print_lock_name(const struct lock_class *class)
{
	char usage = '.';

	if (class->usage_mask == (1u << LOCK_USED_IN_HARDIRQ))
		usage = '-';
	else if (class->usage_mask == (1u << LOCK_ENABLED_HARDIRQ))
		usage = '+';
	else if (class->usage_mask)
		usage = '?';
	if (class->subclass)
		printk(KERN_CONT "(%s/%u){%c}", class->name, class->subclass, usage);
	else
		printk(KERN_CONT "(%s){%c}", class->name, usage);
}

/* " #0: ffff... (&zone->lock){+}, at: rmqueue+0x42/0x90" */
static void print_lock(const struct held_lock *hl)
{
	const struct lock_class *class = hlock_class(hl);

	printk(KERN_ERR "%px ", hl->map);
	if (class)
		print_lock_name(class);
	else
		printk(KERN_CONT "(%s){?}", hl->map->name ?: "?");
	printk(KERN_CONT ", at: %pS\n", (void *)hl->ip);
}

/* A report needs it off, and only the first one is printed. */
static bool report_begin(void)
{
	return debug_locks_off();
}

static void print_report_end(void)
{
	printk(KERN_ERR "\nstack backtrace:\n");
	printk(KERN_ERR "CPU: %u\n", smp_processor_id());
	dump_stack();
	print_turning_off();
}

static void too_low(const char *what)
{
	if (!report_begin())
		return;
	printk(KERN_ERR "BUG: %s too low!\n", what);
	print_turning_off();
}

/*
 * The class of @map as @subclass, made the first time it is seen.
 * Context: interrupts off, inside lockdep.  Return: NULL if it has none
 * (reported) or the table is full.
 */
static struct lock_class *register_lock_class(struct lockdep_map *map, unsigned int subclass)
{
	const void *key = map_key(map);
	struct lock_class *class;
	unsigned int h;

	if (!key) {
		if (report_begin()) {
			printk(KERN_ERR "WARNING: lockdep: trying to register non-static key.\n");
			printk(KERN_ERR "The code is fine but needs lockdep annotation, or maybe\n");
			printk(KERN_ERR "you didn't initialize this object before use?\n");
			printk(KERN_ERR "lock: %px\n", map);
			print_report_end();
		}
		return NULL;
	}
	class = look_up_class(key, subclass);
	if (class)
		goto out;
	graph_lock();
	class = look_up_class(key, subclass);
	if (!class && nr_lock_classes < MAX_LOCKDEP_KEYS) {
		h = classhash_of(key, subclass);
		class = &lock_classes[nr_lock_classes];
		*class = (struct lock_class){ .key = key, .subclass = subclass,
					      .name = map->name ?: "(unnamed)",
					      .hash_next = classhash[h] };
		__atomic_store_n(&classhash[h], nr_lock_classes++, __ATOMIC_RELEASE);
	}
	graph_unlock();
	if (!class) {
		too_low("MAX_LOCKDEP_KEYS");
		return NULL;
	}
out:
	if (!subclass)
		WRITE_ONCE(map->class_cache, class);	/* same value from any CPU */
	return class;
}

static struct lock_class *map_class(struct lockdep_map *map, unsigned int subclass)
{
	struct lock_class *class = READ_ONCE(map->class_cache);

	/* the cache may name a class a self-test re-arm forgot: check it */
	if (!subclass && class && class->key == map_key(map) && !class->subclass)
		return class;
	return register_lock_class(map, subclass);
}

/* ------------------------------------------------------------ the reports */

static void print_held_locks(unsigned int cpu)
{
	const struct lockdep_cpu *ld = per_cpu_ptr(&lockdep_cpu, cpu);

	if (!ld->depth) {
		printk(KERN_ERR "no locks held by CPU#%u.\n", cpu);
		return;
	}
	printk(KERN_ERR "%u lock%s held by CPU#%u:\n", ld->depth, ld->depth > 1 ? "s" : "", cpu);
	for (unsigned int i = 0; i < ld->depth; i++) {
		printk(KERN_ERR " #%u: ", i);
		print_lock(&ld->held[i]);
	}
}

static void print_header(const char *title)
{
	unsigned int n = strlen(title);
	char line[80];

	n = min(n, (unsigned int)sizeof(line) - 1);
	memset(line, '=', n);
	line[n] = '\0';
	printk(KERN_ERR "\n%s\n", line);
	printk(KERN_ERR "%s\n", title);
	memset(line, '-', n);
	printk(KERN_ERR "%s\n", line);
}

/* Context: graph lock held; @hl is the lock being taken (not on the stack yet). */
static void print_recursive_bug(const struct held_lock *prev, const struct held_lock *next)
{
	const struct lock_class *class = hlock_class(next);

	if (!report_begin())
		return;
	print_header("WARNING: possible recursive locking detected");
	printk(KERN_ERR "CPU#%u is trying to acquire lock:\n", smp_processor_id());
	print_lock(next);
	printk(KERN_ERR "\nbut task is already holding lock:\n");
	print_lock(prev);
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0\n       ----\n");
	printk(KERN_ERR "  lock(%s);\n  lock(%s);\n", class->name, class->name);
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	printk(KERN_ERR " May be due to missing lock nesting notation\n\n");
	print_held_locks(smp_processor_id());
	print_report_end();
}

/*
 * The edge prev -> next closes a cycle: next -> ... -> prev is the path
 * the search found, each class's bfs_parent naming the edge into it.
 * Context: graph lock held.
 */
static void print_circular_bug(const struct held_lock *prev, const struct held_lock *next)
{
	struct lock_class *pc = hlock_class(prev), *nc = hlock_class(next);
	u16 path[MAX_LOCKDEP_KEYS];
	unsigned int n = 0;

	if (!report_begin())
		return;
	for (struct lock_class *c = pc; c != nc && n < ARRAY_SIZE(path); ) {
		const struct lock_list *e = &list_entries[c->bfs_parent];

		path[n++] = c->bfs_parent;
		c = &lock_classes[e->from];
	}
	print_header("WARNING: possible circular locking dependency detected");
	printk(KERN_ERR "CPU#%u is trying to acquire lock:\n", smp_processor_id());
	print_lock(next);
	printk(KERN_ERR "\nbut task is already holding lock:\n");
	print_lock(prev);
	printk(KERN_ERR "\nwhich lock already depends on the new lock.\n\n");
	printk(KERN_ERR "\nthe existing dependency chain (in reverse order) is:\n");
	/* path[0] is the edge into prev, path[n - 1] the edge out of next */
	for (unsigned int i = 0; i < n; i++) {
		const struct lock_list *e = &list_entries[path[i]];

		printk(KERN_ERR "\n-> #%u ", n - i);
		print_lock_name(&lock_classes[e->to]);
		printk(KERN_CONT ":\n");
		print_trace(&e->trace, 7);
	}
	printk(KERN_ERR "\n-> #0 ");
	print_lock_name(nc);
	printk(KERN_CONT ":\n");
	print_current_trace(7);
	printk(KERN_ERR "\nother info that might help us debug this:\n\n");
	if (n == 1) {
		printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
		printk(KERN_ERR "       CPU0                    CPU1\n");
		printk(KERN_ERR "       ----                    ----\n");
		printk(KERN_ERR "  lock(%s);\n", pc->name);
		printk(KERN_ERR "                               lock(%s);\n", nc->name);
		printk(KERN_ERR "                               lock(%s);\n", pc->name);
		printk(KERN_ERR "  lock(%s);\n", nc->name);
		printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	} else {
		printk(KERN_ERR "Chain exists of:\n  %s --> ... --> %s\n\n", nc->name, pc->name);
	}
	print_held_locks(smp_processor_id());
	print_report_end();
}

static void print_usage_bug(const struct held_lock *hl, enum lock_usage_bit prev_bit,
			    enum lock_usage_bit new_bit)
{
	struct lock_class *class = hlock_class(hl);

	if (!report_begin())
		return;
	print_header("WARNING: inconsistent lock state");
	printk(KERN_ERR "inconsistent {%s} -> {%s} usage.\n", usage_str[prev_bit],
	       usage_str[new_bit]);
	printk(KERN_ERR "CPU#%u [HC%u:HE%u] takes:\n", smp_processor_id(), in_hardirq(),
	       !irqs_disabled() || new_bit == LOCK_ENABLED_HARDIRQ);
	print_lock(hl);
	printk(KERN_ERR "{%s} state was registered at:\n", usage_str[prev_bit]);
	print_trace(&class->usage_trace[prev_bit], 2);
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0\n       ----\n");
	printk(KERN_ERR "  lock(%s);\n  <Interrupt>\n    lock(%s);\n", class->name, class->name);
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	print_held_locks(smp_processor_id());
	print_report_end();
}

/* ------------------------------------------------------------ validation */

/* Is @target reachable from @from?  Breadth-first; bfs_parent records the way. */
static bool reachable(u16 from, u16 target)
{
	unsigned int head = 0, tail = 0;

	if (!++bfs_generation)
		bfs_generation = 1;
	lock_classes[from].bfs_gen = bfs_generation;
	bfs_queue[tail++] = from;
	while (head < tail) {
		u16 c = bfs_queue[head++];

		for (u16 e = lock_classes[c].deps; e; e = list_entries[e].next) {
			u16 to = list_entries[e].to;

			if (lock_classes[to].bfs_gen == bfs_generation)
				continue;
			lock_classes[to].bfs_gen = bfs_generation;
			lock_classes[to].bfs_parent = e;
			if (to == target)
				return true;
			bfs_queue[tail++] = to;
		}
	}
	return false;
}

/*
 * The first class with usage @bit found from @start (itself included) by
 * following the edges forwards, or backwards; 0 if none.  Context: graph
 * lock held.
 */
static u16 find_usage(u16 start, enum lock_usage_bit bit, bool forwards)
{
	unsigned int head = 0, tail = 0;

	if (!++bfs_generation)
		bfs_generation = 1;
	lock_classes[start].bfs_gen = bfs_generation;
	bfs_queue[tail++] = start;
	while (head < tail) {
		u16 c = bfs_queue[head++];

		if (lock_classes[c].usage_mask & (1u << bit))
			return c;
		for (u16 e = 1; e < nr_list_entries; e++) {
			const struct lock_list *l = &list_entries[e];
			u16 other = forwards ? l->to : l->from;

			if ((forwards ? l->from : l->to) != c ||
			    lock_classes[other].bfs_gen == bfs_generation)
				continue;
			lock_classes[other].bfs_gen = bfs_generation;
			bfs_queue[tail++] = other;
		}
	}
	return 0;
}

/* The two classes of an irq-safe -> irq-unsafe order, with where each became so. */
static void print_safe_and_unsafe(u16 safe, u16 unsafe)
{
	printk(KERN_ERR "\nand interrupts could create inverse lock ordering between them:\n");
	printk(KERN_ERR "a HARDIRQ-irq-safe lock:\n ");
	print_lock_name(&lock_classes[safe]);
	printk(KERN_CONT "\n\n... which became HARDIRQ-irq-safe at:\n");
	print_trace(&lock_classes[safe].usage_trace[LOCK_USED_IN_HARDIRQ], 2);
	printk(KERN_ERR "\nto a HARDIRQ-irq-unsafe lock:\n ");
	print_lock_name(&lock_classes[unsafe]);
	printk(KERN_CONT "\n\n... which became HARDIRQ-irq-unsafe at:\n");
	print_trace(&lock_classes[unsafe].usage_trace[LOCK_ENABLED_HARDIRQ], 2);
	printk(KERN_ERR "\nother info that might help us debug this:\n\n");
	printk(KERN_ERR " Possible interrupt unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0                    CPU1\n");
	printk(KERN_ERR "       ----                    ----\n");
	printk(KERN_ERR "  lock(%s);\n", lock_classes[unsafe].name);
	printk(KERN_ERR "                               local_irq_disable();\n");
	printk(KERN_ERR "                               lock(%s);\n", lock_classes[safe].name);
	printk(KERN_ERR "                               lock(%s);\n", lock_classes[unsafe].name);
	printk(KERN_ERR "  <Interrupt>\n    lock(%s);\n", lock_classes[safe].name);
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	print_held_locks(smp_processor_id());
	print_report_end();
}

/*
 * Holding @prev (or under it something taken in a handler), @next is taken,
 * and @next (or something after it) is taken with interrupts on: a handler
 * spinning on the irq-safe lock can wait for a CPU that waits for it.
 * Context: graph lock held.  Return: false after a report.
 */
static bool check_irq_usage(const struct held_lock *prev, const struct held_lock *next)
{
	u16 safe = find_usage(prev->class_idx, LOCK_USED_IN_HARDIRQ, false), unsafe;

	if (!safe)
		return true;
	unsafe = find_usage(next->class_idx, LOCK_ENABLED_HARDIRQ, true);
	if (!unsafe || !report_begin())
		return !unsafe;
	print_header("WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	printk(KERN_ERR "CPU#%u is trying to acquire:\n", smp_processor_id());
	print_lock(next);
	printk(KERN_ERR "\nand this task is already holding:\n");
	print_lock(prev);
	printk(KERN_ERR "which would create a new lock dependency:\n ");
	print_lock_name(hlock_class(prev));
	printk(KERN_CONT " -> ");
	print_lock_name(hlock_class(next));
	printk(KERN_CONT "\n");
	print_safe_and_unsafe(safe, unsafe);
	return false;
}

/*
 * @class just got usage @bit: is there now an irq-safe class before an
 * irq-unsafe one in the graph (through it)?  Context: graph lock held.
 */
static void check_usage_inversion(const struct held_lock *hl, enum lock_usage_bit bit)
{
	u16 c = hl->class_idx, safe, unsafe;

	if (bit == LOCK_USED_IN_HARDIRQ) {
		safe = c;
		unsafe = find_usage(c, LOCK_ENABLED_HARDIRQ, true);
	} else {
		unsafe = c;
		safe = find_usage(c, LOCK_USED_IN_HARDIRQ, false);
	}
	if (!safe || !unsafe || safe == unsafe || !report_begin())
		return;		/* safe == unsafe: the inconsistent-state report's */
	print_header("WARNING: possible irq lock inversion dependency detected");
	printk(KERN_ERR "CPU#%u just changed the state of lock:\n", smp_processor_id());
	print_lock(hl);
	if (bit == LOCK_USED_IN_HARDIRQ)
		printk(KERN_ERR "but this lock took another, HARDIRQ-unsafe lock in the past:\n ");
	else
		printk(KERN_ERR "but this lock was taken by another, HARDIRQ-safe lock in the past:\n ");
	print_lock_name(&lock_classes[bit == LOCK_USED_IN_HARDIRQ ? unsafe : safe]);
	printk(KERN_CONT "\n");
	print_safe_and_unsafe(safe, unsafe);
}

/*
 * Record prev -> next, unless it is known; report if it closes a cycle.
 * Context: graph lock held.  Return: false after a report or when full.
 */
static bool check_prev_add(const struct held_lock *prev, const struct held_lock *next)
{
	u16 from = prev->class_idx, to = next->class_idx;
	struct lock_list *e;

	if (from == to)
		return true;	/* a trylock of one class over another: no order */
	for (u16 i = lock_classes[from].deps; i; i = list_entries[i].next) {
		if (list_entries[i].to == to)
			return true;
	}
	if (reachable(to, from)) {
		print_circular_bug(prev, next);
		return false;
	}
	if (!check_irq_usage(prev, next))
		return false;
	if (nr_list_entries >= MAX_LOCKDEP_ENTRIES) {
		too_low("MAX_LOCKDEP_ENTRIES");
		return false;
	}
	e = &list_entries[nr_list_entries];
	*e = (struct lock_list){ .from = from, .to = to, .next = lock_classes[from].deps,
				 .trace = save_trace() };
	lock_classes[from].deps = nr_list_entries++;
	return true;
}

/*
 * Give @hl's class the usage @bit; if it had the opposite one, report.
 * Context: interrupts off, inside lockdep.
 */
static void mark_lock(const struct held_lock *hl, enum lock_usage_bit bit)
{
	struct lock_class *class = hlock_class(hl);
	enum lock_usage_bit other = bit == LOCK_USED_IN_HARDIRQ ? LOCK_ENABLED_HARDIRQ :
						LOCK_USED_IN_HARDIRQ;

	if (!class || (READ_ONCE(class->usage_mask) & (1u << bit)))
		return;		/* the usual case: nothing new */
	graph_lock();
	if (READ_ONCE(debug_locks) && !(class->usage_mask & (1u << bit))) {
		class->usage_trace[bit] = save_trace();
		__atomic_fetch_or(&class->usage_mask, 1u << bit, __ATOMIC_RELAXED);
		if (class->usage_mask & (1u << other))
			print_usage_bug(hl, other, bit);
		else
			check_usage_inversion(hl, bit);
	}
	graph_unlock();
}

static bool chain_cached(u64 key)
{
	for (unsigned int i = key & (MAX_LOCKDEP_CHAINS - 1); ; i = (i + 1) & (MAX_LOCKDEP_CHAINS - 1)) {
		u64 k = __atomic_load_n(&chain_keys[i], __ATOMIC_ACQUIRE);

		if (k == key)
			return true;
		if (!k)
			return false;
	}
}

/* Context: graph lock held.  Return: false if the table is full. */
static bool add_chain_cache(u64 key)
{
	unsigned int i = key & (MAX_LOCKDEP_CHAINS - 1);

	if (nr_chains >= MAX_LOCKDEP_CHAINS * 3 / 4)
		return false;
	while (chain_keys[i] && chain_keys[i] != key)
		i = (i + 1) & (MAX_LOCKDEP_CHAINS - 1);
	if (!chain_keys[i])
		nr_chains++;
	__atomic_store_n(&chain_keys[i], key, __ATOMIC_RELEASE);
	return true;
}

/*
 * The checks of a chain not seen before: recursion, then the edges from
 * the held locks of this context.  Context: interrupts off, inside lockdep.
 */
static void validate_chain(struct lockdep_cpu *cpu, struct held_lock *next)
{
	bool full = false;

	if (chain_cached(next->chain_key))
		return;
	graph_lock();
	if (!READ_ONCE(debug_locks))
		goto out;
	for (int i = cpu->depth - 2; i >= 0 && !next->trylock; i--) {
		const struct held_lock *prev = &cpu->held[i];

		if (prev->hardirq != next->hardirq)
			break;
		if (prev->class_idx == next->class_idx) {
			print_recursive_bug(prev, next);
			goto out;
		}
	}
	for (int i = cpu->depth - 2; i >= 0 && !next->trylock; i--) {
		const struct held_lock *prev = &cpu->held[i];

		if (prev->hardirq != next->hardirq)
			break;
		if (!prev->class_idx)
			continue;
		if (!check_prev_add(prev, next))
			goto out;
		if (!prev->trylock)
			break;
	}
	full = !add_chain_cache(next->chain_key);
out:
	graph_unlock();
	if (full)
		too_low("MAX_LOCKDEP_CHAINS");
}

/* The chain key of held[i], from the one below it in its context. */
static u64 chain_key_at(const struct lockdep_cpu *cpu, unsigned int i)
{
	const struct held_lock *hl = &cpu->held[i];
	u64 key = context_seed(hl->hardirq);

	if (i && cpu->held[i - 1].hardirq == hl->hardirq)
		key = cpu->held[i - 1].chain_key;
	if (!hl->class_idx)
		return key;
	return iterate_chain_key(key, hl->class_idx * 2 + hl->trylock);
}

static unsigned long lockdep_enter(struct lockdep_cpu **cpu)
{
	unsigned long flags = read_flags();

	local_irq_disable();
	*cpu = this_cpu_ptr(&lockdep_cpu);
	(*cpu)->recursion++;
	return flags;
}

static void lockdep_exit(struct lockdep_cpu *cpu, unsigned long flags)
{
	cpu->recursion--;
	if (flags & X86_EFLAGS_IF)
		raw_local_irq_enable();
}

/**
 * lock_acquire - a lock is being taken on this CPU (Linux's name)
 * @map: the lock's lockdep_map
 * @subclass: 0, or spin_lock_nested()'s subclass
 * @trylock: it was taken by a trylock (it never waited)
 * @ip: where it is taken
 *
 * Pushes it on this CPU's held-lock stack and, while lockdep validates,
 * checks the order and the interrupt state (see the file comment).
 * Context: any but NMI; called by the spinlocks with lockdep_tracking on.
 */
void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock,
		  unsigned long ip)
{
	struct lockdep_cpu *cpu;
	struct held_lock *hl;
	unsigned long flags;

	if (in_nmi() || this_cpu_read(lockdep_cpu.recursion))
		return;
	flags = lockdep_enter(&cpu);
	cpu->trace_from = (unsigned long)__builtin_return_address(0);
	if (cpu->depth >= MAX_LOCK_DEPTH) {
		too_low("MAX_LOCK_DEPTH");
		goto out;
	}
	hl = &cpu->held[cpu->depth];
	*hl = (struct held_lock){ .map = map, .ip = ip, .hardirq = in_hardirq() ? 1 : 0,
				  .trylock = trylock };
	if (READ_ONCE(debug_locks)) {
		struct lock_class *class = map_class(map, subclass % MAX_LOCKDEP_SUBCLASSES);

		if (class)
			hl->class_idx = class - lock_classes;
	}
	hl->chain_key = chain_key_at(cpu, cpu->depth);
	cpu->depth++;		/* held from here on, in the reports too */
	if (hl->class_idx && READ_ONCE(debug_locks)) {
		if (hl->hardirq)
			mark_lock(hl, LOCK_USED_IN_HARDIRQ);
		else if (flags & X86_EFLAGS_IF)
			mark_lock(hl, LOCK_ENABLED_HARDIRQ);
		validate_chain(cpu, hl);
	}
out:
	lockdep_exit(cpu, flags);
}

static void print_unlock_imbalance_bug(struct lockdep_map *map, unsigned long ip)
{
	if (!report_begin())
		return;
	print_header("WARNING: bad unlock balance detected!");
	printk(KERN_ERR "CPU#%u is trying to release lock (%s) at:\n%pS\n", smp_processor_id(),
	       map->name ?: "?", (void *)ip);
	printk(KERN_ERR "but there are no more locks to release!\n\n");
	printk(KERN_ERR "other info that might help us debug this:\n");
	print_held_locks(smp_processor_id());
	print_report_end();
}

/**
 * lock_release - a lock is being let go on this CPU (Linux's name)
 * @map: the lock's lockdep_map
 * @ip: where
 *
 * Takes it off this CPU's stack, from any depth; the chain keys of the
 * locks above it are recomputed.  A lock this CPU does not hold is
 * reported ("bad unlock balance") while lockdep validates.
 */
void lock_release(struct lockdep_map *map, unsigned long ip)
{
	struct lockdep_cpu *cpu;
	unsigned long flags;
	int i;

	if (in_nmi() || this_cpu_read(lockdep_cpu.recursion))
		return;
	flags = lockdep_enter(&cpu);
	for (i = cpu->depth - 1; i >= 0; i--) {
		if (cpu->held[i].map == map)
			break;
	}
	if (i < 0) {
		if (READ_ONCE(debug_locks))
			print_unlock_imbalance_bug(map, ip);
		goto out;
	}
	cpu->depth--;
	for (unsigned int j = i; j < cpu->depth; j++) {
		cpu->held[j] = cpu->held[j + 1];
		cpu->held[j].chain_key = chain_key_at(cpu, j);
	}
out:
	lockdep_exit(cpu, flags);
}

/**
 * lock_is_held - is @map on this CPU's held-lock stack?  (Linux's name)
 *
 * Context: any; exact on this CPU whether or not lockdep still validates.
 */
bool lock_is_held(const struct lockdep_map *map)
{
	unsigned long flags = read_flags();
	const struct lockdep_cpu *cpu;
	bool held = false;

	local_irq_disable();
	cpu = this_cpu_ptr(&lockdep_cpu);
	for (unsigned int i = 0; i < cpu->depth && !held; i++)
		held = cpu->held[i].map == map;
	if (flags & X86_EFLAGS_IF)
		raw_local_irq_enable();
	return held;
}

/**
 * lockdep_hardirqs_on - interrupts are about to go on: every lock this CPU
 * holds is now held with them on (HARDIRQ-ON-W)
 * @ip: where they go on
 *
 * Context: local_irq_enable() (arch/x86_64/cpu.h), interrupts still off.
 */
void lockdep_hardirqs_on(unsigned long ip)
{
	struct lockdep_cpu *cpu;
	unsigned long flags;

	(void)ip;
	if (!READ_ONCE(debug_locks) || in_nmi() || in_hardirq() ||
	    this_cpu_read(lockdep_cpu.recursion) || !this_cpu_read(lockdep_cpu.depth))
		return;
	flags = lockdep_enter(&cpu);
	cpu->trace_from = (unsigned long)__builtin_return_address(0);
	for (unsigned int i = 0; i < cpu->depth; i++) {
		if (!cpu->held[i].hardirq)
			mark_lock(&cpu->held[i], LOCK_ENABLED_HARDIRQ);
	}
	lockdep_exit(cpu, flags);
}

/**
 * debug_check_no_locks_held - report the locks this CPU still holds
 * @when: the moment, for the report's first line ("a test case ended")
 *
 * "WARNING: lock held when @when!" and the list, as Linux's report of a
 * task returning to user space with a lock held; then lockdep forgets
 * them (the code that left them is over) and stops validating.  Locks an
 * oops abandoned (lockdep_forget_held_locks()) are forgotten unreported:
 * the oops was the report.  Context: process context, no lock meant to be
 * held.
 */
void debug_check_no_locks_held(const char *when)
{
	struct lockdep_cpu *cpu;
	unsigned long flags;
	unsigned int live = 0;
	char title[80];

	if (!lockdep_tracking || !this_cpu_read(lockdep_cpu.depth))
		return;
	flags = lockdep_enter(&cpu);
	for (unsigned int i = 0; i < cpu->depth; i++)
		live += !cpu->held[i].abandoned;
	if (live && report_begin()) {
		snprintf(title, sizeof(title), "WARNING: lock held when %s!", when);
		print_header(title);
		printk(KERN_ERR "CPU#%u is leaving the %s with locks still held!\n",
		       smp_processor_id(), strstr(when, "case") ? "case" : "code");
		print_held_locks(smp_processor_id());
		print_report_end();
	}
	cpu->depth = 0;
	lockdep_exit(cpu, flags);
}

/**
 * lockdep_forget_held_locks - the locks this CPU holds were abandoned
 *
 * For an oops that a catcher resumes from (kernel/panic.c: oops_end()):
 * the locks the oopsing code held stay held (a test that knows which may
 * let one go), but later locks must not seem to nest inside them, nor the
 * case that oopsed be reported for them.  They stay on the stack without
 * a class, marked abandoned, until let go or the case ends.
 * Context: oops_end(), interrupts off.
 */
void lockdep_forget_held_locks(void)
{
	struct lockdep_cpu *cpu;

	if (!lockdep_tracking)
		return;
	cpu = this_cpu_ptr(&lockdep_cpu);
	cpu->recursion = 0;	/* an oops inside lockdep (or its printk) left it */
	for (unsigned int i = 0; i < cpu->depth; i++) {
		cpu->held[i].class_idx = 0;
		cpu->held[i].abandoned = 1;
	}
}

/* ------------------------------------------------------------ the self-test's re-arm */

/**
 * lockdep_selftest_mark - remember how full the tables are now
 *
 * Context: tests/kernel/lockdep_test.c only, before it makes classes.
 */
void lockdep_selftest_mark(void)
{
	unsigned long flags = read_flags();

	local_irq_disable();
	graph_lock();
	mark.set = true;
	mark.classes = nr_lock_classes;
	mark.entries = nr_list_entries;
	mark.traces = nr_trace_entries;
	graph_unlock();
	if (flags & X86_EFLAGS_IF)
		raw_local_irq_enable();
}

/**
 * lockdep_selftest_rearm - forget what was added since the mark, validate again
 *
 * Classes, edges and traces made since lockdep_selftest_mark() go (they
 * are the self-test's own, and what it provoked); new edges and classes
 * are always at the heads of their lists, so each list loses a prefix.
 * The chain cache is emptied: it is only a cache.  Usage bits of older
 * classes stay.  Context: tests/kernel/lockdep_test.c only, holding no
 * lock, with the other CPUs holding none of the forgotten classes.
 */
void lockdep_selftest_rearm(void)
{
	unsigned long flags = read_flags();

	if (!lockdep_tracking || !mark.set)
		return;
	local_irq_disable();
	graph_lock();
	for (unsigned int h = 0; h < CLASSHASH_SIZE; h++) {
		while (classhash[h] >= mark.classes)
			classhash[h] = lock_classes[classhash[h]].hash_next;
	}
	for (unsigned int c = 1; c < mark.classes; c++) {
		while (lock_classes[c].deps >= mark.entries)
			lock_classes[c].deps = list_entries[lock_classes[c].deps].next;
	}
	memset(&lock_classes[mark.classes], 0,
	       (nr_lock_classes - mark.classes) * sizeof(lock_classes[0]));
	nr_lock_classes = mark.classes;
	nr_list_entries = mark.entries;
	nr_trace_entries = mark.traces;
	memset(chain_keys, 0, MAX_LOCKDEP_CHAINS * sizeof(chain_keys[0]));
	nr_chains = 0;
	__atomic_store_n(&debug_locks, 1, __ATOMIC_RELAXED);
	graph_unlock();
	if (flags & X86_EFLAGS_IF)
		raw_local_irq_enable();
}

/* ------------------------------------------------------------ the graph, as /proc/lockdep */

/* How many classes are reachable from @c (forward) or reach it (backward). */
static unsigned int count_forward(u16 c)
{
	unsigned int n = 0;

	if (!++bfs_generation)
		bfs_generation = 1;
	lock_classes[c].bfs_gen = bfs_generation;
	bfs_queue[0] = c;
	for (unsigned int head = 0, tail = 1; head < tail; head++) {
		for (u16 e = lock_classes[bfs_queue[head]].deps; e; e = list_entries[e].next) {
			u16 to = list_entries[e].to;

			if (lock_classes[to].bfs_gen != bfs_generation) {
				lock_classes[to].bfs_gen = bfs_generation;
				bfs_queue[tail++] = to;
				n++;
			}
		}
	}
	return n;
}

static unsigned int count_backward(u16 c)
{
	unsigned int n = 0;

	for (u16 o = 1; o < nr_lock_classes; o++) {
		if (o != c)
			n += reachable(o, c);
	}
	return n;
}

static void print_class_name(const struct lock_class *class)
{
	if (class->subclass)
		printk(KERN_CONT "%s/%u", class->name, class->subclass);
	else
		printk(KERN_CONT "%s", class->name);
}

/**
 * lockdep_print_graph - every class and its direct dependencies, as Linux's
 * /proc/lockdep: "KEY FD: n BD: n U: name" (FD: classes taken after it,
 * directly or not; BD: classes held before it; U: its usage, as in the
 * reports), then " -> [KEY] name" for each class taken while it is held,
 * with the function that first took it so (which Linux's does not print).
 *
 * Context: process context; reads the graph under its lock.
 */
void lockdep_print_graph(void)
{
	unsigned long flags = read_flags();
	static const char usage_chars[4] = { '.', '-', '+', '?' };

	if (!lockdep_tracking) {
		printk("lockdep: off (boot with \"lockdep\" on the command line)\n");
		return;
	}
	this_cpu_inc(lockdep_cpu.recursion);
	local_irq_disable();
	graph_lock();
	printk("all lock classes (%u classes, %u dependencies, %u chains, %s):\n",
	       nr_lock_classes - 1, nr_list_entries - 1, nr_chains,
	       READ_ONCE(debug_locks) ? "validating" : "validator off after a report");
	for (u16 c = 1; c < nr_lock_classes; c++) {
		const struct lock_class *class = &lock_classes[c];

		printk("%px FD:%5u BD:%5u %c: ", class->key, count_forward(c), count_backward(c),
		       usage_chars[class->usage_mask & 3]);
		print_class_name(class);
		printk(KERN_CONT "\n");
		for (u16 e = class->deps; e; e = list_entries[e].next) {
			const struct lock_class *to = &lock_classes[list_entries[e].to];

			const struct lock_trace *t = &list_entries[e].trace;
			unsigned long off = (unsigned long)t->offset_hi << 16 | t->offset;

			printk(" -> [%px] ", to->key);
			print_class_name(to);
			if (t->nr)	/* not in /proc/lockdep: where it was first seen */
				printk(KERN_CONT "  (first at %pS)", (void *)trace_pool[off]);
			printk(KERN_CONT "\n");
		}
	}
	graph_unlock();
	if (flags & X86_EFLAGS_IF)
		raw_local_irq_enable();
	this_cpu_dec(lockdep_cpu.recursion);
}

/**
 * lockdep_init - turn lockdep on if the command line says "lockdep"
 *
 * Its tables are one zeroed 64 KiB block of the page allocator: a kernel
 * without "lockdep" keeps the memory, and one naturally aligned block
 * splits no larger free block.  Context: boot, on the boot CPU alone,
 * right after mm_init(), holding no lock (every lock taken before is let go
 * before, and each one after is seen both times).
 */
void lockdep_init(void)
{
	struct page *page;
	char *p;

	BUILD_BUG_ON(MAX_LOCKDEP_KEYS * (sizeof(*lock_classes) + sizeof(*bfs_queue)) +
		     MAX_LOCKDEP_ENTRIES * sizeof(*list_entries) +
		     MAX_STACK_TRACE_ENTRIES * sizeof(*trace_pool) +
		     MAX_LOCKDEP_CHAINS * sizeof(*chain_keys) > LOCKDEP_TABLES_SIZE);
	if (!cmdline_get_bool("lockdep", false))
		return;
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, get_order(LOCKDEP_TABLES_SIZE));
	if (!page) {
		pr_err("lockdep: no memory for its %u KiB of tables: off\n",
		       LOCKDEP_TABLES_SIZE >> 10);
		return;
	}
	p = page_address(page);
	chain_keys = (u64 *)p;
	p += MAX_LOCKDEP_CHAINS * sizeof(*chain_keys);
	trace_pool = (unsigned long *)p;
	p += MAX_STACK_TRACE_ENTRIES * sizeof(*trace_pool);
	list_entries = (struct lock_list *)p;
	p += MAX_LOCKDEP_ENTRIES * sizeof(*list_entries);
	lock_classes = (struct lock_class *)p;
	p += MAX_LOCKDEP_KEYS * sizeof(*lock_classes);
	bfs_queue = (u16 *)p;
	lockdep_tracking = true;
	pr_info("lockdep: on: %u classes, %u dependencies, %u chains, %u held locks per CPU "
		"at most (%u KiB)\n", MAX_LOCKDEP_KEYS - 1, MAX_LOCKDEP_ENTRIES - 1,
		MAX_LOCKDEP_CHAINS * 3 / 4, MAX_LOCK_DEPTH, LOCKDEP_TABLES_SIZE >> 10);
}

#endif /* CONFIG_LOCKDEP */

static int cmd_lockdep(int argc, char **argv)
{
	(void)argc;
	(void)argv;
#if CONFIG_LOCKDEP
	lockdep_print_graph();
#else
	printk("lockdep: not in this kernel (built with CONFIG_LOCKDEP=0)\n");
#endif
	return 0;
}
MONITOR_COMMAND(lockdep, "", "lock classes and their dependencies, as /proc/lockdep",
		cmd_lockdep);
