/*
 * tests/kernel/percpu_test.c - per-CPU objects made at run time (mm/percpu.c).
 *
 * alloc_percpu() gives one zeroed object per possible CPU, each inside that
 * CPU's own per-CPU area, so two CPUs' copies never share a cache line; a
 * freed object's space is reused; a pointer that alloc_percpu() did not
 * return is refused with a report; a full dynamic part fails cleanly.  The
 * allocators' own per-CPU data (a zone's page lists, the vmstat counters)
 * lives in the CPUs' areas too, not in one shared array.
 */
#include "kunit/test.h"
#include "test_log.h"
#include "mm/mmzone.h"
#include "mm/percpu.h"
#include "mm/vmstat.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"

struct sample {
	unsigned long a, b;
};

/* Is [@p, @p + @size) inside CPU @cpu's per-CPU area? */
static bool in_area_of(const void *p, unsigned long size, unsigned int cpu)
{
	unsigned long start = (unsigned long)__per_cpu_start + per_cpu_offset(cpu);

	return (unsigned long)p >= start && (unsigned long)p + size <= start + percpu_area_size();
}

static void each_cpu_has_its_own_zeroed_copy(struct kunit *test)
{
	struct sample *s = alloc_percpu(struct sample);
	unsigned int cpu, other;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for_each_possible_cpu(cpu) {
		struct sample *mine = per_cpu_ptr(s, cpu);

		KUNIT_EXPECT_TRUE(test, in_area_of(mine, sizeof(*mine), cpu));
		KUNIT_EXPECT_EQ(test, mine->a + mine->b, 0);
		mine->a = cpu + 1;
		for_each_possible_cpu(other) {
			unsigned long d = (unsigned long)per_cpu_ptr(s, other) - (unsigned long)mine;

			if (other != cpu)	/* never in the same 64-byte line */
				KUNIT_EXPECT_GE(test, d < (1UL << 63) ? d : -d, 64);
		}
	}
	KUNIT_EXPECT_PTR_EQ(test, this_cpu_ptr(s), per_cpu_ptr(s, smp_processor_id()));
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, per_cpu_ptr(s, cpu)->a, cpu + 1);
	free_percpu(s);
}

static void freed_space_is_reused_and_zeroed(struct kunit *test)
{
	size_t before = percpu_dynamic_free();
	struct sample *s = alloc_percpu(struct sample), *again;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before - sizeof(*s));
	this_cpu_ptr(s)->b = 42;
	free_percpu(s);
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before);
	again = alloc_percpu(struct sample);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_EQ(test, this_cpu_ptr(again)->b, 0);
	free_percpu(again);
	free_percpu(NULL);	/* a no-op, as in Linux */
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before);
}

static void a_bad_free_is_refused(struct kunit *test)
{
	struct sample *s = alloc_percpu(struct sample);
	size_t free;
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "BUG: percpu: free of");
	KUNIT_ASSERT_NOT_NULL(test, s);
	free = percpu_dynamic_free();
	free_percpu((char *)s + 8);		/* inside an object */
	free_percpu(&free);			/* not a per-CPU pointer at all */
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), free);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "which alloc_percpu() did not return"),
			2);
	free_percpu(s);
	pos = printk_log_pos();
	free_percpu(s);				/* twice */
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "which alloc_percpu() did not return"));
}

static void a_full_dynamic_part_fails_cleanly(struct kunit *test)
{
	size_t before = percpu_dynamic_free();
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "percpu: allocation failed");
	KUNIT_EXPECT_NULL(test, __alloc_percpu(PERCPU_DYNAMIC_SIZE + 8, 8));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "percpu: allocation failed"));
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before);
}

static void allocators_keep_their_per_cpu_data_in_the_areas(struct kunit *test)
{
	struct zone *zone;
	unsigned int cpu;

	for_each_populated_zone(zone) {
		for_each_possible_cpu(cpu)
			KUNIT_EXPECT_TRUE(test, in_area_of(per_cpu_ptr(zone->per_cpu_pageset, cpu),
							   sizeof(struct per_cpu_pages), cpu));
	}
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_TRUE(test, in_area_of(&per_cpu(vm_event_states, cpu),
						   sizeof(struct vm_event_state), cpu));
}

static struct kunit_case percpu_cases[] = {
	KUNIT_CASE(each_cpu_has_its_own_zeroed_copy),
	KUNIT_CASE(freed_space_is_reused_and_zeroed),
	KUNIT_CASE(a_bad_free_is_refused),
	KUNIT_CASE(a_full_dynamic_part_fails_cleanly),
	KUNIT_CASE(allocators_keep_their_per_cpu_data_in_the_areas),
	{}
};

static struct kunit_suite percpu_suite = {
	.name = "percpu",
	.test_cases = percpu_cases,
	.strict = true,
};
kunit_test_suite(percpu_suite);
