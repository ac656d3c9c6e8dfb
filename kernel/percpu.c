/*
 * kernel/percpu.c - giving every CPU its copy of the per-CPU template.
 *
 * The linker gathers all DEFINE_PER_CPU variables between __per_cpu_start
 * and __per_cpu_end (.data..percpu, see linker.ld).  Each CPU's area is a
 * page-aligned copy of that template; __per_cpu_offset[cpu] is the area's
 * address minus the template's, and the same value is written to the CPU's
 * GS base (MSR_GS_BASE) so that %gs:var reaches its copy.
 *
 * Memory: the areas come from a static pool in .bss, enough for
 * PERCPU_POOL_SIZE / unit CPUs.  The page allocator does not run yet when
 * CPU 0 needs its area, and this kernel brings up at most a few CPUs in
 * its tests; percpu_alloc_area() is the one place to change to take larger
 * machines' areas from alloc_pages() instead.
 */
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/page.h"
#include "lib/string.h"

#define PERCPU_POOL_SIZE	(256 * 1024)

extern char __per_cpu_start[], __per_cpu_end[];

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(unsigned int, cpu_number);

static u8 percpu_pool[PERCPU_POOL_SIZE] __aligned(PAGE_SIZE);
static unsigned long pool_used;

/** percpu_area_size - bytes of one CPU's area (the template, page-rounded) */
unsigned long percpu_area_size(void)
{
	return ALIGN((unsigned long)(__per_cpu_end - __per_cpu_start), PAGE_SIZE);
}

/**
 * percpu_alloc_area - give CPU @cpu its copy of the per-CPU template
 * @cpu: logical CPU number, not yet running
 *
 * Copies the template (the variables' initial values) and sets the CPU's
 * offset, this_cpu_off and cpu_number.  Calling it again for a CPU that has
 * an area does nothing.
 * Context: boot CPU, before @cpu starts.
 * Return: 0, or -1 if the pool is exhausted (the CPU must then stay offline).
 */
int percpu_alloc_area(unsigned int cpu)
{
	unsigned long size = percpu_area_size();
	u8 *area;

	if (cpu >= NR_CPUS)
		return -1;
	if (__per_cpu_offset[cpu])
		return 0;
	if (pool_used + size > PERCPU_POOL_SIZE)
		return -1;
	area = percpu_pool + pool_used;
	pool_used += size;
	memcpy(area, __per_cpu_start, __per_cpu_end - __per_cpu_start);
	__per_cpu_offset[cpu] = (unsigned long)area - (unsigned long)__per_cpu_start;
	per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
	per_cpu(cpu_number, cpu) = cpu;
	return 0;
}

/**
 * setup_per_cpu_areas - give the boot CPU its area and point its GS base at it
 *
 * Context: the first thing kmain does, before any per-CPU variable is written.
 */
void setup_per_cpu_areas(void)
{
	if (percpu_alloc_area(0))
		panic("percpu: the template (%lu bytes) does not fit the static pool",
		      percpu_area_size());
	wrmsr(MSR_GS_BASE, __per_cpu_offset[0]);
}
