/*
 * mm/fault_inject.c - making allocations fail on purpose.
 *
 * Every caller of an allocator must cope with NULL, and the allocators
 * themselves allocate on the way (vmalloc() takes a vm_struct, a vmap_area,
 * a page array, pages and page tables) and must undo the first steps when
 * a later one fails.  Those paths run when memory is short, which a test
 * rarely arranges; so, as Linux does, we fail allocations on request:
 *
 *   alloc_pages()  ---> should_fail_alloc_page()   fail_page_alloc=
 *   kmalloc() ...  ---> should_failslab()          failslab=
 *   vmalloc() ...  ---> should_fail_vmalloc()      fail_vmalloc= (ours)
 *                          |
 *                          |  1. __GFP_NOFAIL: never
 *                          |  2. this CPU's fail-nth: the nth call fails
 *                          |  3. the attr's filters (min-order, cache, ...)
 *                          v  4. should_fail(): times, caller, space,
 *                     NULL, counted in vmstat,     interval, probability
 *                     and reported unless __GFP_NOWARN
 *
 * should_fail() is Linux's should_fail_ex() (lib/fault-inject.c), with
 * the same knobs in struct fault_attr: of the calls that pass the filters,
 * the first ones are let through until their sizes used up the space
 * budget, then every interval-th fails with probability percent chance,
 * times times in all (-1: no limit).  Each failure is reported, as Linux
 * does, by "FAULT_INJECTION: forcing a failure." and the attr's values,
 * then a backtrace.
 *
 * fail-nth is Linux's per-task /proc/self/task/<tid>/fail-nth made per
 * CPU, since there are no tasks here: fail_nth_set(FAIL_SLAB, 3) on a CPU
 * fails the third slab allocation that CPU makes outside interrupt
 * handlers, and nothing on the other CPUs.  Unlike Linux's, it works
 * beside the attrs rather than instead of them, so that a test can fail
 * one allocation for good with an attr and sweep the others with
 * fail-nth.
 *
 * Off, none of this may cost the fast paths anything (make bench checks):
 * the allocators call in here only through a gate each, set by
 * fault_inject_update() whenever something is armed or disarmed:
 *
 *   page allocator  alloc_checked_order: orders at or above it take the
 *                   path that refuses orders above MAX_PAGE_ORDER; that
 *                   compare was there already, against a constant;
 *   slab            SLAB_FAILSLAB on the caches that may fail (Linux's
 *                   flag): it sends them to the slow path, whose test of
 *                   the flags was there already too;
 *   vmalloc         fail_vmalloc_armed, one test at the entry.
 */
#include <stdarg.h>
#include "mm/fault_inject.h"
#include "mm/slab_internal.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define FAULT_ATTR_STR_MAX	128	/* the longest configuration string taken */
#define FAULT_STACK_DEPTH	32	/* frames the caller filter looks at (Linux's default) */

/* Linux's FAULT_ATTR_INITIALIZER: armed by nothing, one failure, reports with backtraces. */
#define FAULT_ATTR_INIT(attr_name, attr_kind, attr_event)		\
	{ .name = attr_name, .interval = 1, .times = 1, .verbose = 2,	\
	  .kind = attr_kind, .event = attr_event }

struct fault_attr fail_page_alloc = FAULT_ATTR_INIT("fail_page_alloc", FAIL_PAGE,
						    FAULT_INJECT_PAGE);
struct fault_attr failslab = FAULT_ATTR_INIT("failslab", FAIL_SLAB, FAULT_INJECT_SLAB);
struct fault_attr fail_vmalloc = FAULT_ATTR_INIT("fail_vmalloc", FAIL_VMALLOC,
						 FAULT_INJECT_VMALLOC);

bool fail_vmalloc_armed;	/* vmalloc()'s gate */
static bool failslab_all;	/* every cache may fail: SLAB_FAILSLAB on all of them */
static DEFINE_SPINLOCK(fault_inject_lock);	/* one update of the gates at a time */

/* This CPU's fail-nth: the kinds it counts, and how many to go (0: none armed). */
struct fail_nth {
	unsigned int kinds;
	unsigned int nth;
};
static DEFINE_PER_CPU(struct fail_nth, fail_nth);
static DEFINE_PER_CPU(u64, fault_random_state);

/* ---------------------------------------------------------------- deciding */

/* A number in 0..99, from a per-CPU xorshift generator seeded at first use. */
static unsigned int random_percent(void)
{
	u64 x = this_cpu_read(fault_random_state);

	if (!x)
		x = get_random_long() | 1;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	this_cpu_write(fault_random_state, x);
	return (unsigned int)(x % 100);
}

/* Is code of [require_start, require_end) among the callers?  (Linux's fail_stacktrace()) */
static bool required_caller_on_stack(const struct fault_attr *attr)
{
	unsigned long trace[FAULT_STACK_DEPTH];
	unsigned int n;

	if (!attr->require_end)
		return true;
	n = stack_trace_save(trace, FAULT_STACK_DEPTH, 0);
	for (unsigned int i = 0; i < n; i++) {
		if (trace[i] >= attr->require_start && trace[i] < attr->require_end)
			return true;
	}
	return false;
}

/* Take one of @attr's failures into *@times (as it was): false if none is left. */
static bool take_one_time(struct fault_attr *attr, long *times)
{
	long old = __atomic_load_n(&attr->times, __ATOMIC_RELAXED);

	do {
		*times = old;
		if (old == 0)
			return false;
		if (old == -1)
			return true;
	} while (!__atomic_compare_exchange_n(&attr->times, &old, old - 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

/*
 * should_fail - does @attr fail a call of @size (bytes, or pages for the
 * page allocator) that passed its filters?  Linux's should_fail_ex(), step
 * by step; *@times is set to the failures that were left, for the report.
 * The space budget and the interval count are not kept exact under races
 * between CPUs (neither are Linux's): they are for tests, which run on one.
 */
static bool should_fail(struct fault_attr *attr, unsigned long size, long *times)
{
	if (!READ_ONCE(attr->probability) || !READ_ONCE(attr->times))
		return false;
	if (!required_caller_on_stack(attr))
		return false;
	if (READ_ONCE(attr->space) > (long)size) {
		__atomic_fetch_sub(&attr->space, (long)size, __ATOMIC_RELAXED);
		return false;
	}
	if (attr->interval > 1 &&
	    __atomic_add_fetch(&attr->count, 1, __ATOMIC_RELAXED) % attr->interval)
		return false;
	if (attr->probability <= random_percent())
		return false;
	return take_one_time(attr, times);
}

/*
 * Does this CPU's fail-nth fail this allocation of @kind?  Each allocation
 * of its kinds counts, except in interrupt handlers (Linux counts only in
 * task context), and the nth fails.
 */
static bool fail_nth_due(unsigned int kind)
{
	struct fail_nth *f = this_cpu_ptr(&fail_nth);

	if (!f->nth || !(f->kinds & kind) || in_interrupt())
		return false;
	return --f->nth == 0;
}

/* Count a failure injected through @attr and report it as Linux's fail_dump() does. */
static bool fault_injected(struct fault_attr *attr, gfp_t gfp, long times)
{
	count_vm_event(attr->event);
	if (!attr->verbose || (gfp & __GFP_NOWARN))
		return true;
	pr_notice("FAULT_INJECTION: forcing a failure.\n");
	pr_notice("name %s, interval %lu, probability %lu, space %ld, times %ld\n", attr->name,
		  attr->interval, attr->probability, READ_ONCE(attr->space), times);
	if (attr->verbose > 1)
		dump_stack();
	return true;
}

/* After the hook's own filters: fail-nth first, then the attr's knobs. */
static bool inject(struct fault_attr *attr, bool nth_due, unsigned long size, gfp_t gfp)
{
	long times;

	if (nth_due)
		return fault_injected(attr, gfp, READ_ONCE(attr->times));
	if (!should_fail(attr, size, &times))
		return false;
	return fault_injected(attr, gfp, times);
}

/* ---------------------------------------------------------------- the hooks */

/**
 * should_fail_alloc_page - shall this page allocation fail on purpose?
 * @gfp_mask: its flags: never with __GFP_NOFAIL; silent with __GFP_NOWARN
 * @order: its order; fail_page_alloc's min-order filter looks at it
 *
 * Called by the page allocator for orders at or above alloc_checked_order
 * (that is, only while fail_page_alloc or a fail-nth of FAIL_PAGE is
 * armed), the bulk allocator's pages one by one included.
 * Context: any.
 * Return: true if the allocation must return NULL (counted and reported).
 */
bool should_fail_alloc_page(gfp_t gfp_mask, unsigned int order)
{
	bool nth_due;

	if (gfp_mask & __GFP_NOFAIL)
		return false;
	nth_due = fail_nth_due(FAIL_PAGE);
	if (!nth_due && (order < fail_page_alloc.min_order ||
			 (fail_page_alloc.ignore_gfp_wait && (gfp_mask & __GFP_DIRECT_RECLAIM))))
		return false;
	return inject(&fail_page_alloc, nth_due, 1UL << order, gfp_mask);
}

/**
 * should_failslab - shall this slab allocation fail on purpose?
 * @s: the cache; failslab's cache= filter looks at its name
 * @gfpflags: its flags: never with __GFP_NOFAIL; silent with __GFP_NOWARN
 *
 * Called by the slab allocator for caches marked SLAB_FAILSLAB (only
 * while failslab or a fail-nth of FAIL_SLAB is armed).  A kmalloc() above
 * KMALLOC_MAX_CACHE_SIZE is a page allocation, as in Linux, not this.
 * Context: any.
 * Return: true if the allocation must return NULL (counted and reported).
 */
bool should_failslab(struct kmem_cache *s, gfp_t gfpflags)
{
	bool nth_due;

	if (gfpflags & __GFP_NOFAIL)
		return false;
	nth_due = fail_nth_due(FAIL_SLAB);
	if (!nth_due && ((failslab.cache[0] && strcmp(s->name, failslab.cache)) ||
			 (failslab.ignore_gfp_wait && (gfpflags & __GFP_DIRECT_RECLAIM))))
		return false;
	return inject(&failslab, nth_due, s->object_size, gfpflags);
}

/**
 * should_fail_vmalloc - shall this vmalloc() (or vmap()) fail on purpose, at once?
 * @size: the bytes asked for
 * @gfp_mask: its flags: never with __GFP_NOFAIL; silent with __GFP_NOWARN
 *
 * Called at the entry of vmalloc() and its family, and of vmap(), while
 * fail_vmalloc_armed is set.  Linux has no such knob: this kernel's.
 * Context: may sleep (as vmalloc()).
 * Return: true if the call must return NULL (counted and reported).
 */
bool should_fail_vmalloc(unsigned long size, gfp_t gfp_mask)
{
	if (gfp_mask & __GFP_NOFAIL)
		return false;
	return inject(&fail_vmalloc, fail_nth_due(FAIL_VMALLOC), size, gfp_mask);
}

/* ---------------------------------------------------------------- arming */

static bool attr_armed(const struct fault_attr *attr)
{
	return READ_ONCE(attr->probability) && READ_ONCE(attr->times);
}

/**
 * failslab_marks - may the cache called @cache_name fail now (SLAB_FAILSLAB)?
 *
 * Context: slab_caches_lock held (kmem_cache_open() and fault_inject_update()).
 */
bool failslab_marks(const char *cache_name)
{
	return READ_ONCE(failslab_all) ||
	       (failslab.cache[0] && attr_armed(&failslab) && !strcmp(failslab.cache, cache_name));
}

/* The kinds some CPU's fail-nth still counts. */
static unsigned int fail_nth_kinds(void)
{
	unsigned int kinds = 0, cpu;

	for_each_possible_cpu(cpu) {
		const struct fail_nth *f = per_cpu_ptr(&fail_nth, cpu);

		if (READ_ONCE(f->nth))
			kinds |= READ_ONCE(f->kinds);
	}
	return kinds;
}

/**
 * fault_inject_update - set the allocators' gates after an attr or a fail-nth changed
 *
 * Each gate opens while something may fail through it (see the file
 * comment) and closes when nothing can.  setup_fault_attr() and
 * fail_nth_set() call it; so does whoever changes an attr by hand.
 * Context: interrupts on, not in an interrupt handler.
 */
void fault_inject_update(void)
{
	unsigned int nth, order = NR_PAGE_ORDERS;
	struct kmem_cache *s;

	spin_lock(&fault_inject_lock);
	nth = fail_nth_kinds();		/* under the lock: the last update sees every CPU's */
	if (attr_armed(&fail_page_alloc))
		order = fail_page_alloc.min_order;
	if (nth & FAIL_PAGE)
		order = 0;
	WRITE_ONCE(alloc_checked_order, order);
	WRITE_ONCE(fail_vmalloc_armed, (nth & FAIL_VMALLOC) || attr_armed(&fail_vmalloc));
	WRITE_ONCE(failslab_all, (nth & FAIL_SLAB) ||
				 (attr_armed(&failslab) && !failslab.cache[0]));
	/* Caches made from here on are marked by kmem_cache_open(), under this lock too. */
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		if (failslab_marks(s->name))
			__atomic_fetch_or(&s->flags, SLAB_FAILSLAB, __ATOMIC_RELAXED);
		else
			__atomic_fetch_and(&s->flags, ~SLAB_FAILSLAB, __ATOMIC_RELAXED);
	}
	spin_unlock(&slab_caches_lock);
	spin_unlock(&fault_inject_lock);
}

/**
 * fail_nth_set - fail the @nth allocation of @kinds that this CPU makes from now on
 * @kinds: FAIL_PAGE, FAIL_SLAB, FAIL_VMALLOC, or'ed
 * @nth: 1 for the next one; 0 disarms
 *
 * Linux's fail-nth, per CPU: the other CPUs' allocations, and this CPU's
 * interrupt handlers', neither count nor fail.  __GFP_NOFAIL allocations do
 * not count.  Once the nth has failed, nothing more does.
 * Context: interrupts on, not in an interrupt handler.
 */
void fail_nth_set(unsigned int kinds, unsigned int nth)
{
	*this_cpu_ptr(&fail_nth) = (struct fail_nth){ .kinds = kinds, .nth = kinds ? nth : 0 };
	fault_inject_update();
}

/**
 * fail_nth_get - this CPU's fail-nth count (Linux: reading fail-nth)
 *
 * Return: how many allocations are still to go before the one that fails
 * (1: the next); 0 once it has failed, or if none was armed.
 */
unsigned int fail_nth_get(void)
{
	return this_cpu_ptr(&fail_nth)->nth;
}

/* ---------------------------------------------------------------- the command line */

/* Refuse @str for @attr in one line, saying why; Return: -EINVAL. */
static __printf(3, 4) int refuse(const struct fault_attr *attr, const char *str,
				  const char *fmt, ...)
{
	char why[128];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);
	pr_err("%s=%s: %s; not armed\n", attr->name, str, why);
	return -EINVAL;
}

/* The options after the four numbers that @attr takes. */
static const char *options_of(const struct fault_attr *attr)
{
	switch (attr->kind) {
	case FAIL_PAGE:
		return "verbose=, caller=, ignore-gfp-wait, min-order=";
	case FAIL_SLAB:
		return "verbose=, caller=, ignore-gfp-wait, cache=";
	default:
		return "verbose=, caller=";
	}
}

/* caller=FUNCTION or caller=START-END (Linux's require-start and require-end). */
static int parse_caller(struct fault_attr *new, const char *str, char *value)
{
	char *dash = strchr(value, '-');
	unsigned long size;

	if (value[0] >= '0' && value[0] <= '9') {
		if (!dash)
			return refuse(new, str, "caller=%s: a range is START-END", value);
		*dash = '\0';
		if (kstrtoul(value, 0, &new->require_start) ||
		    kstrtoul(dash + 1, 0, &new->require_end) ||
		    new->require_start >= new->require_end)
			return refuse(new, str, "caller=%s-%s: not a range START-END", value,
				      dash + 1);
		return 0;
	}
	new->require_start = kallsyms_lookup_name(value);
	if (!new->require_start ||
	    !kallsyms_lookup(new->require_start, &size, NULL))
		return refuse(new, str, "caller=%s: no function of that name", value);
	new->require_end = new->require_start + size;
	return 0;
}

/* One option after the four numbers: KEY or KEY=VALUE. */
static int parse_option(struct fault_attr *new, const char *str, char *opt)
{
	char *value = strchr(opt, '=');
	unsigned long n;

	if (value)
		*value++ = '\0';
	if (!strcmp(opt, "ignore-gfp-wait") && !value && new->kind != FAIL_VMALLOC) {
		new->ignore_gfp_wait = true;
		return 0;
	}
	if (!value || (!strcmp(opt, "min-order") && new->kind != FAIL_PAGE) ||
	    (!strcmp(opt, "cache") && new->kind != FAIL_SLAB))
		goto unknown;
	if (!strcmp(opt, "verbose")) {
		if (kstrtoul(value, 10, &n) || n > 2)
			return refuse(new, str, "verbose must be 0, 1 or 2 (got '%s')", value);
		new->verbose = n;
	} else if (!strcmp(opt, "min-order")) {
		if (kstrtoul(value, 10, &n) || n > MAX_PAGE_ORDER)
			return refuse(new, str, "min-order must be 0..%d (got '%s')",
				      MAX_PAGE_ORDER, value);
		new->min_order = (unsigned int)n;
	} else if (!strcmp(opt, "cache")) {
		if (!value[0] || strscpy(new->cache, value, sizeof(new->cache)) < 0)
			return refuse(new, str, "cache= needs a cache's name (at most %d "
				      "characters)", FAULT_CACHE_NAME_MAX - 1);
	} else if (!strcmp(opt, "caller")) {
		return parse_caller(new, str, value);
	} else {
		goto unknown;
	}
	return 0;
unknown:
	return refuse(new, str, "unknown option '%s%s%s' (%s takes %s)", opt, value ? "=" : "",
		      value ? value : "", new->name, options_of(new));
}

/* Field @i of the four: a number in its range, or a refusal. */
static int parse_field(struct fault_attr *new, const char *str, unsigned int i, const char *field)
{
	static const char *const rule[] = {
		"interval must be 1 or more", "probability must be 0..100",
		"space must be 0 or more", "times must be -1 (no limit) or more",
	};
	long v;

	if (kstrtol(field, 10, &v) || v < (i == 3 ? -1 : i == 0) || (i == 1 && v > 100))
		return refuse(new, str, "%s (got '%s')", rule[i], field);
	if (i == 0)
		new->interval = (unsigned long)v;
	else if (i == 1)
		new->probability = (unsigned long)v;
	else if (i == 2)
		new->space = v;
	else
		new->times = v;
	return 0;
}

/**
 * setup_fault_attr - arm @attr as "<interval>,<probability>,<space>,<times>[,option...]"
 * @attr: fail_page_alloc, failslab or fail_vmalloc
 * @str: the four numbers of Linux's boot option, then this kernel's filters:
 *	 verbose=0..2, caller=FUNCTION or caller=START-END, and ignore-gfp-wait
 *	 (fail_page_alloc, failslab), min-order=N (fail_page_alloc), cache=NAME
 *	 (failslab)
 *
 * The string says everything: a filter it does not name is off, and the
 * count for the interval starts again.  A malformed string is refused in
 * one line that says why, and @attr is left as it was.  A probability of 0
 * (or times 0) disarms.
 * Context: interrupts on, not in an interrupt handler.
 * Return: 0, or -EINVAL.
 */
int setup_fault_attr(struct fault_attr *attr, const char *str)
{
	struct fault_attr new = { .name = attr->name, .kind = attr->kind, .event = attr->event,
				  .verbose = 2 };
	char buf[FAULT_ATTR_STR_MAX], *p = buf, *field;
	unsigned int i = 0;

	if (strscpy(buf, str, sizeof(buf)) < 0)
		return refuse(attr, str, "longer than %d characters", FAULT_ATTR_STR_MAX - 1);
	while ((field = p)) {
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
		if (i < 4 ? parse_field(&new, str, i, field) : parse_option(&new, str, field))
			return -EINVAL;
		i++;
	}
	if (i < 4)
		return refuse(attr, str, "expected interval,probability,space,times");
	*attr = new;
	fault_inject_update();
	return 0;
}
