/*
 * tests/kernel/vmstat_test.c - the event counters are summed over every
 * possible CPU, not only the online ones.
 *
 * Each CPU counts its events in its own per-CPU area (mm/vm_event_item.h)
 * and the readers add the areas up (mm/vmstat.c).  What a CPU counted
 * stays in its area when it stops: Linux folds the counts of a CPU going
 * offline into another's (vm_events_fold_cpu()); this kernel, which never
 * takes a CPU down, sums every possible CPU instead, so that no count is
 * lost whatever a CPU's state.  On every machine of the matrix the
 * possible CPUs are the online ones (the MADT's enabled CPUs, all
 * started), so a sum over the online CPUs only would pass every other
 * suite.  Here a CPU number is made possible without starting it (as
 * smp_stack's absent CPU, which never runs any code) and its area is
 * given counts, standing for events it counted before it stopped: every
 * reader must see them.
 */
#include "kunit/test.h"
#include "kernel/cpumask.h"
#include "kernel/percpu.h"
#include "mm/page_alloc.h"
#include "mm/vmstat.h"
#include "mm/vm_event_item.h"
#include "lib/string.h"

#define STOPPED_COUNT	1000000ul	/* far above what the suites count meanwhile */

static struct {
	unsigned int cpu;
	void *area;
} stopped;

/* The last CPU number, possible with a zeroed per-CPU area, never online. */
static int stopped_cpu_init(struct kunit *test)
{
	unsigned int cpu = NR_CPUS - 1;

	stopped.area = NULL;
	if (cpu_possible(cpu))
		return 0;		/* the case skips: this machine has that CPU */
	stopped.area = alloc_pages_exact(percpu_area_size(), GFP_KERNEL);
	if (!stopped.area)
		return -ENOMEM;
	stopped.cpu = cpu;
	percpu_install_area(cpu, stopped.area);	/* the template: every count 0 */
	cpumask_set_cpu(cpu, &__cpu_possible_mask);
	return 0;
}

static void stopped_cpu_exit(struct kunit *test)
{
	if (!stopped.area)
		return;
	cpumask_clear_cpu(stopped.cpu, &__cpu_possible_mask);
	__per_cpu_offset[stopped.cpu] = 0;
	free_pages_exact(stopped.area, percpu_area_size());
	stopped.area = NULL;
}

static void stopped_cpu_or_skip(struct kunit *test)
{
	if (!stopped.area)
		kunit_skip(test, "CPU %u exists on this machine", NR_CPUS - 1);
	KUNIT_ASSERT_FALSE(test, cpu_online(stopped.cpu));
}

/* global_vm_event() and all_vm_events() count what a CPU that is not online counted. */
static void events_of_a_cpu_not_online_are_counted(struct kunit *test)
{
	static unsigned long all[NR_VM_EVENT_ITEMS];
	unsigned long before, after;

	stopped_cpu_or_skip(test);
	before = global_vm_event(SLABS_SCANNED);
	per_cpu(vm_event_states, stopped.cpu).event[SLABS_SCANNED] = STOPPED_COUNT;
	after = global_vm_event(SLABS_SCANNED);
	all_vm_events(all);
	per_cpu(vm_event_states, stopped.cpu).event[SLABS_SCANNED] = 0;
	KUNIT_EXPECT_GE_MSG(test, after, before + STOPPED_COUNT,
			    "global_vm_event() left out CPU %u, possible but not online",
			    stopped.cpu);
	KUNIT_EXPECT_GE_MSG(test, all[SLABS_SCANNED], before + STOPPED_COUNT,
			    "all_vm_events() left out CPU %u, possible but not online",
			    stopped.cpu);
	KUNIT_EXPECT_EQ(test, cpu_vm_event(stopped.cpu, SLABS_SCANNED), 0);
}

/* pgalloc, read from the per-order counts, the same. */
static void pages_of_a_cpu_not_online_are_counted(struct kunit *test)
{
	unsigned long before, after;

	stopped_cpu_or_skip(test);
	before = global_vm_event(PGALLOC);
	per_cpu(vm_event_states, stopped.cpu).event[PGALLOC_ORDER0 + 2] = STOPPED_COUNT;
	after = global_vm_event(PGALLOC);
	per_cpu(vm_event_states, stopped.cpu).event[PGALLOC_ORDER0 + 2] = 0;
	KUNIT_EXPECT_GE(test, after, before + 4 * STOPPED_COUNT);
}

/* The NUMA counters (numastat) too. */
static void numa_events_of_a_cpu_not_online_are_counted(struct kunit *test)
{
	unsigned long before, after;

	stopped_cpu_or_skip(test);
	before = sum_zone_numa_event_state(0, NUMA_FOREIGN);
	per_cpu(vm_numa_event_states, stopped.cpu).numa_event[NUMA_FOREIGN][0] = STOPPED_COUNT;
	after = sum_zone_numa_event_state(0, NUMA_FOREIGN);
	per_cpu(vm_numa_event_states, stopped.cpu).numa_event[NUMA_FOREIGN][0] = 0;
	KUNIT_EXPECT_GE_MSG(test, after, before + STOPPED_COUNT,
			    "sum_zone_numa_event_state() left out CPU %u", stopped.cpu);
}

static struct kunit_case vmstat_cases[] = {
	KUNIT_CASE(events_of_a_cpu_not_online_are_counted),
	KUNIT_CASE(pages_of_a_cpu_not_online_are_counted),
	KUNIT_CASE(numa_events_of_a_cpu_not_online_are_counted),
	{}
};

static struct kunit_suite vmstat_suite = {
	.name = "vmstat",
	.init = stopped_cpu_init,
	.exit = stopped_cpu_exit,
	.test_cases = vmstat_cases,
	.strict = true,
};
kunit_test_suite(vmstat_suite);
