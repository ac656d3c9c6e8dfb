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
	/* the zones' lists took some: a request this large is legal but cannot fit */
	KUNIT_ASSERT_LT(test, before, PERCPU_DYNAMIC_SIZE);
	KUNIT_EXPECT_NULL(test, __alloc_percpu(before + 8, 8));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "percpu: allocation failed"));
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before);
}

/*
 * Every power-of-two alignment up to PAGE_SIZE is honoured, as in Linux: in
 * every CPU's copy, wherever the dynamic part starts in the area.
 */
static void every_copy_is_aligned(struct kunit *test)
{
	size_t before = percpu_dynamic_free();

	for (size_t align = 8; align <= PAGE_SIZE; align *= 2) {
		void *p = __alloc_percpu(8, align);
		unsigned int cpu;

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "align %zu", align);
		for_each_possible_cpu(cpu) {
			unsigned long addr = (unsigned long)per_cpu_ptr(p, cpu);

			KUNIT_EXPECT_EQ_MSG(test, addr % align, 0, "align %zu, CPU%u's copy at %#lx",
					    align, cpu, addr);
		}
		free_percpu(p);
	}
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before);
}

/*
 * A request no allocation can satisfy is a caller's bug: Linux 6.12's
 * pcpu_alloc() warns ("illegal size (%zu) or align (%zu) for percpu
 * allocation") and returns NULL.  A size so large that its unit count
 * wraps must not "fit" at the start of the dynamic part, over live objects.
 */
static void an_illegal_request_warns_and_fails(struct kunit *test)
{
	static const struct {
		size_t size, align;
	} bad[] = {
		{ 0, 8 },				/* nothing to allocate */
		{ PERCPU_DYNAMIC_SIZE + 8, 8 },		/* larger than a CPU's dynamic part */
		{ 32UL << 30, 8 },
		{ ~(size_t)0, 8 },			/* its units wrap to 0 */
		{ ~(size_t)0 - 6, 8 },		/* rounded up to 8, it wraps to 0 */
		{ 8, PAGE_SIZE * 2 },			/* beyond a page */
		{ 8, 24 },				/* not a power of two */
	};
	size_t before = percpu_dynamic_free();
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "WARNING: at mm/percpu.c");
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		void *p = __alloc_percpu(bad[i].size, bad[i].align);

		/* not freed if it was given: it may be another object's start */
		KUNIT_EXPECT_NULL_MSG(test, p, "size %zu align %zu", bad[i].size, bad[i].align);
	}
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "for percpu allocation"),
			ARRAY_SIZE(bad));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos),
		"illegal size (18446744073709551615) or align (8) for percpu allocation"));
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
	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_TRUE(test, in_area_of(&per_cpu(vm_event_states, cpu),
						   sizeof(struct vm_event_state), cpu));
		KUNIT_EXPECT_TRUE(test, in_area_of(&per_cpu(vm_numa_event_states, cpu),
						   sizeof(struct vm_numa_event_state), cpu));
	}
}

/*
 * A size that is not a multiple of 8 is rounded up, never down: two
 * objects of 1 and 12 bytes, each written whole on every CPU, overlap
 * neither each other nor a third made after them, and the free space
 * shrinks by 8 and 16 bytes.
 */
static void odd_sizes_are_rounded_up(struct kunit *test)
{
	size_t before = percpu_dynamic_free();
	u8 *one = __alloc_percpu(1, 1), *twelve = __alloc_percpu(12, 4), *after;
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, one);
	KUNIT_ASSERT_NOT_NULL(test, twelve);
	after = __alloc_percpu(8, 8);
	KUNIT_ASSERT_NOT_NULL(test, after);
	KUNIT_EXPECT_EQ(test, before - percpu_dynamic_free(), 8 + 16 + 8);
	for_each_possible_cpu(cpu) {
		memset(per_cpu_ptr(one, cpu), 0x11, 1);
		memset(per_cpu_ptr(twelve, cpu), 0x22, 12);
	}
	for_each_possible_cpu(cpu) {
		u8 *p1 = per_cpu_ptr(one, cpu), *p12 = per_cpu_ptr(twelve, cpu);
		u8 *p8 = per_cpu_ptr(after, cpu);

		KUNIT_EXPECT_EQ_MSG(test, p1[0], 0x11, "CPU %u: the 1-byte object was overwritten",
				    cpu);
		for (unsigned int i = 0; i < 12; i++)
			KUNIT_EXPECT_EQ_MSG(test, p12[i], 0x22, "CPU %u: byte %u of 12", cpu, i);
		for (unsigned int i = 0; i < 8; i++)
			KUNIT_EXPECT_EQ_MSG(test, p8[i], 0, "CPU %u: the object after them, byte %u",
					    cpu, i);
	}
	free_percpu(after);
	free_percpu(twelve);
	free_percpu(one);
	KUNIT_EXPECT_EQ(test, percpu_dynamic_free(), before);
}

static struct kunit_case percpu_cases[] = {
	KUNIT_CASE(each_cpu_has_its_own_zeroed_copy),
	KUNIT_CASE(freed_space_is_reused_and_zeroed),
	KUNIT_CASE(a_bad_free_is_refused),
	KUNIT_CASE(a_full_dynamic_part_fails_cleanly),
	KUNIT_CASE(every_copy_is_aligned),
	KUNIT_CASE(odd_sizes_are_rounded_up),
	KUNIT_CASE(an_illegal_request_warns_and_fails),
	KUNIT_CASE(allocators_keep_their_per_cpu_data_in_the_areas),
	{}
};

static struct kunit_suite percpu_suite = {
	.name = "percpu",
	.test_cases = percpu_cases,
	.strict = true,
};
kunit_test_suite(percpu_suite);
