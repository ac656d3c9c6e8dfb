/*
 * tests/kernel/kunit_resource_test.c - kunit_kmalloc() memory is the case's:
 * usable during it, freed with kunit_kfree() or, at the latest, after the
 * case's exit(), whether the case passed or not; kunit_add_action()'s
 * actions run then too, newest first.
 *
 * The first case leaves a large allocation (whole pages) behind on
 * purpose; the second checks that its pages went back.  The same for two
 * actions.  And kunit_get_current_test() (kunit/test-bug.h) knows the case
 * on the CPU that runs it, and no case elsewhere, as Linux's in another task.
 */
#include "kunit/test.h"
#include "kunit/test-bug.h"
#include "kernel/smp.h"
#include "mm/internal.h"

static struct page *left_behind;

static void memory_is_usable_and_zeroed(struct kunit *test)
{
	u8 *z = kunit_kzalloc(test, 300, GFP_KERNEL);
	u32 *a = kunit_kcalloc(test, 50, sizeof(*a), GFP_KERNEL);
	void *big = kunit_kmalloc(test, 100000, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, z);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, big);
	for (int i = 0; i < 300; i++)
		KUNIT_EXPECT_EQ(test, z[i], 0);
	for (int i = 0; i < 50; i++)
		KUNIT_EXPECT_EQ(test, a[i], 0);
	KUNIT_EXPECT_NULL(test, kunit_kmalloc_array(test, SIZE_MAX / 2, 4, GFP_KERNEL));
	kunit_kfree(test, z);
	left_behind = virt_to_head_page(big);
	KUNIT_EXPECT_TRUE(test, page_test(left_behind, PG_large_kmalloc));
}

static void the_previous_case_gave_it_back(struct kunit *test)
{
	KUNIT_ASSERT_NOT_NULL(test, left_behind);
	KUNIT_EXPECT_FALSE(test, page_test(left_behind, PG_large_kmalloc));
	KUNIT_EXPECT_FALSE(test, page_test(left_behind, PG_allocated));
}

static unsigned long actions_run[4], nr_actions_run;

static void record_action(void *ctx)
{
	actions_run[nr_actions_run++ % 4] = (unsigned long)ctx;
}

static void actions_wait_for_the_end(struct kunit *test)
{
	nr_actions_run = 0;
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)1), 0);
	KUNIT_ASSERT_NOT_NULL(test, kunit_kmalloc(test, 64, GFP_KERNEL));
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)2), 0);
	KUNIT_EXPECT_EQ(test, nr_actions_run, 0);
}

static void the_actions_ran_newest_first(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nr_actions_run, 2);
	KUNIT_EXPECT_EQ(test, actions_run[0], 2);
	KUNIT_EXPECT_EQ(test, actions_run[1], 1);
}

static void read_current_test(void *info)
{
	*(struct kunit **)info = kunit_get_current_test();
}

static void current_test_is_this_cpus_case(struct kunit *test)
{
	struct kunit *seen = test;

	KUNIT_EXPECT_PTR_EQ(test, kunit_get_current_test(), test);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	smp_call_function_single(smp_processor_id() ? 0 : 1, read_current_test, &seen, 1);
	KUNIT_EXPECT_NULL(test, seen);
}

static struct kunit_case kunit_resource_cases[] = {
	KUNIT_CASE(memory_is_usable_and_zeroed),
	KUNIT_CASE(the_previous_case_gave_it_back),
	KUNIT_CASE(actions_wait_for_the_end),
	KUNIT_CASE(the_actions_ran_newest_first),
	KUNIT_CASE(current_test_is_this_cpus_case),
	{}
};

static struct kunit_suite kunit_resource_suite = {
	.name = "kunit_resource",
	.test_cases = kunit_resource_cases,
	.strict = true,
};
kunit_test_suite(kunit_resource_suite);
