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

/* The first run of @units free units starting at a multiple of @step, or -1. */
static int find_free_run(unsigned int units, unsigned int step)
{
	for (unsigned int start = 0; start + units <= PCPU_NR_UNITS; start += step) {
		unsigned int u;

		for (u = 0; u < units && !unit_test(alloc_map, start + u); u++)
			;
		if (u == units)
			return (int)start;
	}
	return -1;
}

/**
 * __alloc_percpu - one zeroed object of @size bytes on every possible CPU
 * @size: bytes (rounded up to 8)
 * @align: a power of two; 8 is the least
 *
 * Context: any (a spinlock with interrupts off); never sleeps.
 * Return: the per-CPU pointer (see mm/percpu.h), or NULL with a report if
 * the dynamic part of the areas is full.
 */
void *__alloc_percpu(size_t size, size_t align)
{
	unsigned int units = DIV_ROUND_UP(size ? size : 1, PCPU_UNIT);
	unsigned int step = align > PCPU_UNIT ? align / PCPU_UNIT : 1;
	unsigned long flags;
	unsigned int cpu;
	char *ptr;
	int start;

	spin_lock_irqsave(&pcpu_lock, flags);
	start = find_free_run(units, step);
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
