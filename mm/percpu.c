/*
 * mm/percpu.c - alloc_percpu(): carving per-CPU objects out of the dynamic
 * part of every CPU's per-CPU area.
 *
 * Every CPU's area ends with the same PERCPU_DYNAMIC_SIZE bytes reserved
 * for run-time objects (kernel/percpu.c).  An object is the same offset in
 * all of them, so one allocator serves every CPU: a bitmap with one bit
 * per 8-byte unit says which units are taken, and a second bitmap marks
 * where each object starts so that free_percpu() knows how far it goes.
 * First fit, as Linux's first chunk does; allocations are few (a handful
 * per zone and per slab cache) and live long.
 *
 * The pointer handed out is a template address (__per_cpu_dynamic_start +
 * offset), which per_cpu_ptr() and this_cpu_ptr() turn into a CPU's copy
 * exactly as they do for &var of a DEFINE_PER_CPU variable.
 */
#include "mm/percpu.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define PCPU_UNIT		8
#define PCPU_NR_UNITS		(PERCPU_DYNAMIC_SIZE / PCPU_UNIT)
#define BITS_PER_LONG		64

static unsigned long alloc_map[PCPU_NR_UNITS / BITS_PER_LONG];	/* unit taken */
static unsigned long bound_map[PCPU_NR_UNITS / BITS_PER_LONG];	/* an object starts here */
static DEFINE_SPINLOCK(pcpu_lock);

static bool unit_test(const unsigned long *map, unsigned int unit)
{
	return (map[unit / BITS_PER_LONG] >> (unit % BITS_PER_LONG)) & 1;
}

static void unit_assign(unsigned long *map, unsigned int unit, bool on)
{
	if (on)
		map[unit / BITS_PER_LONG] |= 1UL << (unit % BITS_PER_LONG);
	else
		map[unit / BITS_PER_LONG] &= ~(1UL << (unit % BITS_PER_LONG));
}

/*
 * Where the dynamic part starts inside a CPU's area.  Every area is
 * page-aligned (kernel/percpu.c), so an offset aligned from the area's
 * start gives aligned copies on every CPU, for any alignment up to a page;
 * the dynamic part itself is only 64-byte aligned.
 */
static unsigned long dynamic_base(void)
{
	return (unsigned long)(__per_cpu_dynamic_start - __per_cpu_start);
}

/* The first run of @units free units whose copies are @align-aligned, or -1. */
static int find_free_run(unsigned int units, size_t align)
{
	unsigned long base = dynamic_base();
	unsigned int first = (ALIGN(base, align) - base) / PCPU_UNIT;
	unsigned int step = align / PCPU_UNIT;

	for (unsigned int start = first; start + units <= PCPU_NR_UNITS; start += step) {
		unsigned int u;

		for (u = 0; u < units && !unit_test(alloc_map, start + u); u++)
			;
		if (u == units)
			return (int)start;
	}
	return -1;
}

/*
 * A request that no state of the areas could satisfy is the caller's bug:
 * warned about and refused, as Linux 6.12's pcpu_alloc() does.  Checked
 * before any rounding, so that a huge size cannot wrap to a small one.
 */
static bool pcpu_request_illegal(size_t size, size_t align)
{
	return WARN(!size || size > PERCPU_DYNAMIC_SIZE || align > PAGE_SIZE ||
		    (align & (align - 1)),
		    "illegal size (%zu) or align (%zu) for percpu allocation\n", size, align);
}

/**
 * __alloc_percpu - one zeroed object of @size bytes on every possible CPU
 * @size: bytes (rounded up to 8), at most PERCPU_DYNAMIC_SIZE
 * @align: a power of two up to PAGE_SIZE; 8 is the least (a smaller one is raised)
 *
 * Every CPU's copy is aligned to @align.
 * Context: any (a spinlock with interrupts off); never sleeps.
 * Return: the per-CPU pointer (see mm/percpu.h); NULL with a report if the
 * dynamic part of the areas has no room, or with a warning if @size or
 * @align is illegal (zero, too large, not a power of two).
 */
void *__alloc_percpu(size_t size, size_t align)
{
	unsigned int units;
	unsigned long flags;
	unsigned int cpu;
	char *ptr;
	int start;

	if (align < PCPU_UNIT)
		align = PCPU_UNIT;
	if (pcpu_request_illegal(size, align))
		return NULL;
	units = DIV_ROUND_UP(size, PCPU_UNIT);
	spin_lock_irqsave(&pcpu_lock, flags);
	start = find_free_run(units, align);
	if (start >= 0) {
		for (unsigned int u = 0; u < units; u++)
			unit_assign(alloc_map, start + u, true);
		unit_assign(bound_map, start, true);
	}
	spin_unlock_irqrestore(&pcpu_lock, flags);
	if (start < 0) {
		pr_warn("percpu: allocation failed, size=%zu align=%zu, %zu bytes free\n",
			size, align, percpu_dynamic_free());
		return NULL;
	}
	ptr = __per_cpu_dynamic_start + (unsigned long)start * PCPU_UNIT;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(ptr, cpu), 0, (size_t)units * PCPU_UNIT);
	return ptr;
}

/**
 * free_percpu - give back what __alloc_percpu() returned
 * @ptr: the per-CPU pointer, or NULL (ignored)
 *
 * A pointer that is not the start of a live object is reported and ignored.
 * Context: any.
 */
void free_percpu(void *ptr)
{
	unsigned long off = (unsigned long)((char *)ptr - __per_cpu_dynamic_start);
	unsigned int unit = off / PCPU_UNIT;
	unsigned long flags;

	if (!ptr)
		return;
	spin_lock_irqsave(&pcpu_lock, flags);
	if ((char *)ptr < __per_cpu_dynamic_start || off % PCPU_UNIT || unit >= PCPU_NR_UNITS ||
	    !unit_test(bound_map, unit) || !unit_test(alloc_map, unit)) {
		spin_unlock_irqrestore(&pcpu_lock, flags);
		pr_err("BUG: percpu: free of %p, which alloc_percpu() did not return\n", ptr);
		return;
	}
	unit_assign(bound_map, unit, false);
	do {
		unit_assign(alloc_map, unit++, false);
	} while (unit < PCPU_NR_UNITS && unit_test(alloc_map, unit) && !unit_test(bound_map, unit));
	spin_unlock_irqrestore(&pcpu_lock, flags);
}

/** percpu_dynamic_free - bytes of the dynamic part not allocated (on each CPU) */
size_t percpu_dynamic_free(void)
{
	size_t free = 0;

	for (unsigned int u = 0; u < PCPU_NR_UNITS; u++)
		free += unit_test(alloc_map, u) ? 0 : PCPU_UNIT;
	return free;
}
