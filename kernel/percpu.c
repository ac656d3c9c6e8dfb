/*
 * kernel/percpu.c - giving every CPU its copy of the per-CPU template.
 *
 * The linker gathers all DEFINE_PER_CPU variables between __per_cpu_start
 * and __per_cpu_end (.data..percpu, see linker.ld).  Each CPU's area is a
 * copy of that template followed by PERCPU_DYNAMIC_SIZE bytes for
 * alloc_percpu(); __per_cpu_offset[cpu] is the area's address minus the
 * template's, and the same value is written to the CPU's GS base
 * (MSR_GS_BASE) so that %gs:var reaches its copy.
 *
 *     template (.data)      CPU 0's area            CPU 1's area
 *     [static vars]         [static vars|dynamic]   [static vars|dynamic]
 *      ^ &var                ^ &var + offset[0]      ^ &var + offset[1]
 *
 * Two steps, as in Linux.  The boot CPU needs its area before anything
 * else (printk counts per CPU), so percpu_init_boot_cpu() gives it one
 * from a static buffer.  The other CPUs' areas come from memblock once the
 * firmware has said which CPUs are possible and memory is mapped
 * (setup_per_cpu_areas(), called by mm_init()), before the first
 * alloc_percpu(): every object it hands out exists in every possible CPU's
 * area from the start.
 */
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/page.h"
#include "lib/string.h"

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(unsigned int, cpu_number);

/* The boot CPU's area: a static-part size guess, checked at boot. */
#define BOOT_AREA_SIZE		(16 * 1024 + PERCPU_DYNAMIC_SIZE)
static u8 boot_cpu_area[BOOT_AREA_SIZE] __aligned(PAGE_SIZE);

/** percpu_area_size - bytes of one CPU's area: the template, then the dynamic part */
unsigned long percpu_area_size(void)
{
	return (unsigned long)(__per_cpu_end - __per_cpu_start) + PERCPU_DYNAMIC_SIZE;
}

/**
 * percpu_install_area - make @area (percpu_area_size() bytes) CPU @cpu's
 * @cpu: a CPU that has no area yet
 * @area: the memory, page-aligned (alloc_percpu() aligns its objects from
 *	the area's start): the template is copied in, the dynamic part zeroed
 *
 * setup_per_cpu_areas() does this for every CPU possible at boot.  A CPU
 * made possible later (a test that fakes one) gets an area this way, but
 * no alloc_percpu() object made before is initialised for it: such a CPU
 * must never run kernel code.
 * Context: boot CPU.
 */
void percpu_install_area(unsigned int cpu, void *area)
{
	unsigned long static_size = __per_cpu_end - __per_cpu_start;

	memcpy(area, __per_cpu_start, static_size);
	memset(area + static_size, 0, PERCPU_DYNAMIC_SIZE);
	__per_cpu_offset[cpu] = (unsigned long)area - (unsigned long)__per_cpu_start;
	per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
	per_cpu(cpu_number, cpu) = cpu;
}

/**
 * percpu_init_boot_cpu - give the boot CPU its area and point its GS base at it
 *
 * Context: the first thing kmain does, before any per-CPU variable is written.
 */
void percpu_init_boot_cpu(void)
{
	if (percpu_area_size() > BOOT_AREA_SIZE)
		panic("percpu: the template (%lu bytes) does not fit the boot CPU's area",
		      (unsigned long)(__per_cpu_end - __per_cpu_start));
	percpu_install_area(0, boot_cpu_area);
	wrmsr(MSR_GS_BASE, __per_cpu_offset[0]);
}

/**
 * setup_per_cpu_areas - give every other possible CPU its area
 * @alloc: where the memory comes from (memblock at boot); returns NULL on failure
 *
 * Context: boot CPU, once, after the possible CPUs are known and before
 * the first alloc_percpu() and the first other CPU starts.  A CPU without
 * memory for its area is dropped from the possible CPUs, with a report.
 */
void setup_per_cpu_areas(void *(*alloc)(unsigned long size))
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		void *area;

		if (!cpu)
			continue;
		area = alloc(percpu_area_size());
		if (!area) {
			pr_err("percpu: no memory for CPU%u's area; it stays offline\n", cpu);
			cpumask_clear_cpu(cpu, &__cpu_possible_mask);
			continue;
		}
		percpu_install_area(cpu, area);
	}
}
