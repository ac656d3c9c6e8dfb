/*
 * tests/kernel/kunit_api_test.c - a suite written only with what a Linux
 * KUnit test reaches from <kunit/test.h>: error numbers, INT_MAX and the
 * other limits, printk() and snprintf(), kunit_log() from a case and from
 * suite_init(), attributes, both forms of a parameter generator (Linux
 * 6.18 gave it the test as its first argument; suites written before keep
 * the two-argument form), and the actions a case may remove or run early.
 *
 * It includes nothing else on purpose (but kernel/smp.h, which docs/design.md
 * names, for on_each_cpu()): a suite written for Linux must build here
 * with the headers Linux's <kunit/test.h> would have brought in, and
 * Linux's small helpers: SZ_*, BIT(), min_t(), PAGE_ALIGN(), atomic_t.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include "kernel/smp.h"

VISIBLE_IF_KUNIT int kunit_api_visible(void);
VISIBLE_IF_KUNIT int kunit_api_visible(void)
{
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(kunit_api_visible);

static int suite_init_ran;

static int kunit_api_suite_init(struct kunit_suite *suite)
{
	kunit_log(KERN_INFO, suite, "# %s: suite_init() may log as a case does", suite->name);
	suite_init_ran = 1;
	return 0;
}

static void linux_headers_are_reachable(struct kunit *test)
{
	char buf[32];

	KUNIT_EXPECT_EQ(test, kunit_api_visible(), -12);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ERR_PTR(-EFAULT)), -14);
	KUNIT_EXPECT_EQ(test, -ERANGE, -34);
	KUNIT_EXPECT_EQ(test, INT_MAX, 0x7fffffff);
	KUNIT_EXPECT_EQ(test, INT_MIN, -INT_MAX - 1);
	KUNIT_EXPECT_EQ(test, UINT_MAX, 0xffffffffU);
	KUNIT_EXPECT_EQ(test, ULONG_MAX, ~0UL);
	KUNIT_EXPECT_EQ(test, LONG_MAX, (long)(~0UL >> 1));
	KUNIT_EXPECT_EQ(test, U32_MAX, 0xffffffffU);
	KUNIT_EXPECT_EQ(test, S64_MIN, (s64)(1ULL << 63));
	KUNIT_EXPECT_EQ(test, snprintf(buf, sizeof(buf), "%d-%s", 7, "x"), 3);
	KUNIT_EXPECT_STREQ(test, buf, "7-x");
	pr_info("kunit_api: pr_info() from a case\n");
	kunit_log(KERN_INFO, test, "    # %s: kunit_log() from a case", test->name);
	KUNIT_EXPECT_EQ(test, suite_init_ran, 1);
}

static atomic_t cpus_seen = ATOMIC_INIT(0);
static atomic_long_t weight_seen = ATOMIC_LONG_INIT(0);

static void count_me(void *unused)
{
	atomic_inc(&cpus_seen);
	atomic_long_add(SZ_1K, &weight_seen);
}

static DEFINE_PER_CPU(unsigned long, kunit_api_pcp);
static DEFINE_SPINLOCK(kunit_api_lock);

static void linux_helpers_are_there(struct kunit *test)
{
	atomic_t a = ATOMIC_INIT(5);
	unsigned long flags;

	KUNIT_EXPECT_EQ(test, SZ_4K, 4096);
	KUNIT_EXPECT_EQ(test, SZ_2M, 2UL << 20);
	KUNIT_EXPECT_EQ(test, SZ_4G, 1UL << 32);
	KUNIT_EXPECT_EQ(test, BIT(5), 32);
	KUNIT_EXPECT_EQ(test, BIT_ULL(40), 1ULL << 40);
	KUNIT_EXPECT_EQ(test, min_t(int, -1, 3u), -1);
	KUNIT_EXPECT_EQ(test, max_t(unsigned long, 2, 7), 7);
	KUNIT_EXPECT_EQ(test, round_up(13, 8), 16);
	KUNIT_EXPECT_EQ(test, round_down(13, 8), 8);
	KUNIT_EXPECT_EQ(test, PAGE_ALIGN(4097UL), 8192);
	KUNIT_EXPECT_EQ(test, offset_in_page((void *)0xffff888000001234UL), 0x234);
	KUNIT_EXPECT_EQ(test, PFN_UP(4097UL), 2);
	KUNIT_EXPECT_EQ(test, PFN_DOWN(4097UL), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a), 5);
	KUNIT_EXPECT_EQ(test, atomic_inc_return(&a), 6);
	KUNIT_EXPECT_EQ(test, atomic_cmpxchg(&a, 6, 10), 6);
	KUNIT_EXPECT_EQ(test, atomic_cmpxchg(&a, 6, 11), 10);
	KUNIT_EXPECT_EQ(test, atomic_xchg(&a, 1), 10);
	KUNIT_EXPECT_TRUE(test, atomic_dec_and_test(&a));
	spin_lock_irqsave(&kunit_api_lock, flags);
	lockdep_assert_held(&kunit_api_lock);	/* held: no WARNING (the suite is strict) */
	assert_spin_locked(&kunit_api_lock);
	__this_cpu_write(kunit_api_pcp, 40);
	__this_cpu_add(kunit_api_pcp, 3);
	__this_cpu_inc(kunit_api_pcp);
	this_cpu_sub(kunit_api_pcp, 2);
	KUNIT_EXPECT_EQ(test, __this_cpu_read(kunit_api_pcp), 42);
	spin_unlock_irqrestore(&kunit_api_lock, flags);
	kunit_expect_report(test, "WARNING");
	lockdep_assert_held(&kunit_api_lock);	/* not held now: one WARNING */
	atomic_set(&cpus_seen, 0);
	atomic_long_set(&weight_seen, 0);
	on_each_cpu(count_me, NULL, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&cpus_seen), (int)num_online_cpus());
	KUNIT_EXPECT_EQ(test, atomic_long_read(&weight_seen), (long)num_online_cpus() * SZ_1K);
}

static const int squares[] = { 0, 1, 4, 9 };

/* The generator as Linux 6.18 declares it, with the test first. */
static const void *square_gen(struct kunit *test, const void *prev, char *desc)
{
	const int *next = prev ? (const int *)prev + 1 : squares;

	KUNIT_EXPECT_NOT_NULL(test, test);
	if (next == squares + ARRAY_SIZE(squares))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "square %d", *next);
	return next;
}

/* The same, as suites written before 6.18 declare it. */
static const void *square_gen_noctx(const void *prev, char *desc)
{
	const int *next = prev ? (const int *)prev + 1 : squares;

	if (next == squares + ARRAY_SIZE(squares))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "square %d", *next);
	return next;
}

static unsigned int nr_squares_seen[2];

static void each_square(struct kunit *test)
{
	int n = *(const int *)test->param_value;
	int root = 0;

	while (root * root < n)
		root++;
	KUNIT_EXPECT_EQ(test, root * root, n);
}

static void sees_every_square(struct kunit *test)
{
	each_square(test);
	nr_squares_seen[0]++;
}

static void sees_every_square_noctx(struct kunit *test)
{
	each_square(test);
	nr_squares_seen[1]++;
}

static void both_generators_gave_every_parameter(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nr_squares_seen[0], ARRAY_SIZE(squares));
	KUNIT_EXPECT_EQ(test, nr_squares_seen[1], ARRAY_SIZE(squares));
}

static unsigned long actions_run[4], nr_actions_run;

static void record_action(void *ctx)
{
	actions_run[nr_actions_run++ % 4] = (unsigned long)ctx;
}

static void actions_removed_or_run_early(struct kunit *test)
{
	char *copy;

	nr_actions_run = 0;
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)1), 0);
	kunit_remove_action(test, record_action, (void *)1);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)2), 0);
	kunit_release_action(test, record_action, (void *)2);
	KUNIT_EXPECT_EQ(test, nr_actions_run, 1);
	KUNIT_EXPECT_EQ(test, actions_run[0], 2);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, record_action, (void *)3), 0);
	KUNIT_EXPECT_EQ(test, nr_actions_run, 1);
	copy = kunit_kstrdup(test, "kunit", GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	KUNIT_EXPECT_STREQ(test, copy, "kunit");
	KUNIT_EXPECT_NULL(test, kunit_kstrdup(test, NULL, GFP_KERNEL));
	KUNIT_ASSERT_MEMNEQ_MSG(test, copy, "KUNIT", 5, "kstrdup copied %s", copy);
}

static void only_the_kept_action_ran_at_the_end(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nr_actions_run, 2);
	KUNIT_EXPECT_EQ(test, actions_run[1], 3);
}

static struct kunit_case kunit_api_cases[] = {
	KUNIT_CASE(linux_headers_are_reachable),
	KUNIT_CASE(linux_helpers_are_there),
	KUNIT_CASE_PARAM(sees_every_square, square_gen),
	KUNIT_CASE_PARAM_ATTR(sees_every_square_noctx, square_gen_noctx,
			      { .speed = KUNIT_SPEED_NORMAL }),
	KUNIT_CASE_ATTR(both_generators_gave_every_parameter, { .speed = KUNIT_SPEED_NORMAL }),
	KUNIT_CASE(actions_removed_or_run_early),
	KUNIT_CASE_SLOW(only_the_kept_action_ran_at_the_end),
	{}
};

static struct kunit_suite kunit_api_suite = {
	.name = "kunit_api",
	.suite_init = kunit_api_suite_init,
	.test_cases = kunit_api_cases,
	.strict = true,
};
kunit_test_init_section_suite(kunit_api_suite);

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");
