/*
 * tests/kernel/shrinker_test.c - the three ways Linux has had to register
 * a shrinker all work here, and reclaim asks a shrinker for its objects if
 * and only if it is registered: register_shrinker(s) (before 6.0, named
 * after its scan_objects function), register_shrinker(s, fmt, ...) (6.0 to
 * 6.6, a printf format for the name), shrinker_alloc(), shrinker_register()
 * and shrinker_free() (6.7 on).  What reclaim does with the shrinkers under
 * memory pressure is page_alloc_reclaim's subject.
 */
#include "kunit/test.h"
#include "mm/internal.h"
#include "mm/shrinker.h"
#include "lib/errno.h"

static unsigned long forms_objects;	/* what this suite's shrinkers hold */

static unsigned long forms_count(struct shrinker *s, struct shrink_control *sc)
{
	return forms_objects ? forms_objects : SHRINK_EMPTY;
}

static unsigned long forms_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = min(forms_objects, sc->nr_to_scan);

	forms_objects -= freed;
	return freed;
}

/* Reclaim asks @s's objects back (all of them) if and only if it is registered. */
static void expect_reclaim_asks(struct kunit *test, struct shrinker *s, bool registered)
{
	forms_objects = 10;
	drop_slab();
	KUNIT_EXPECT_EQ_MSG(test, forms_objects, registered ? 0 : 10, "shrinker %s", s->name);
}

/*
 * Linux's other two forms: register_shrinker(s) before 6.0 (named after
 * its scan_objects function) and 6.7's shrinker_alloc(), shrinker_register(),
 * shrinker_free().
 */
static void register_shrinker_in_every_linux_form(struct kunit *test)
{
	static struct shrinker embedded = { .count_objects = forms_count,
					    .scan_objects = forms_scan,
					    .seeks = DEFAULT_SEEKS };
	struct shrinker *s;

	KUNIT_EXPECT_EQ(test, register_shrinker(&embedded), 0);
	KUNIT_EXPECT_STREQ(test, embedded.name, "forms_scan");
	expect_reclaim_asks(test, &embedded, true);
	unregister_shrinker(&embedded);
	expect_reclaim_asks(test, &embedded, false);

	s = shrinker_alloc(SHRINKER_NUMA_AWARE, "kunit-%s-%d", "alloc", 6);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s->name, "kunit-alloc-6");
	KUNIT_EXPECT_EQ(test, s->seeks, DEFAULT_SEEKS);
	s->count_objects = forms_count;
	s->scan_objects = forms_scan;
	shrinker_register(s);
	expect_reclaim_asks(test, s, true);
	shrinker_free(s);	/* unregisters and frees it (the suite would fail on a leak) */
	expect_reclaim_asks(test, &embedded, false);
	shrinker_free(shrinker_alloc(0, "never-registered"));
	shrinker_free(NULL);
}

/* register_shrinker(s, fmt, ...) takes a printf format for the name, as Linux 6.0-6.6's; cut to 31 chars. */
static void register_shrinker_formats_its_name(struct kunit *test)
{
	static struct shrinker s = { .count_objects = forms_count, .scan_objects = forms_scan,
				     .seeks = DEFAULT_SEEKS };

	KUNIT_EXPECT_EQ(test, register_shrinker(&s, "kunit-%s-%d", "cache", 7), 0);
	KUNIT_EXPECT_STREQ(test, s.name, "kunit-cache-7");
	expect_reclaim_asks(test, &s, true);
	unregister_shrinker(&s);
	register_shrinker(&s, "%s-%s", "a-name-longer-than-the-field", "holds-is-cut");
	KUNIT_EXPECT_EQ(test, strlen(s.name), sizeof(s.name) - 1);
	unregister_shrinker(&s);
}

/*
 * Unregistering twice, or a shrinker never registered, and registering
 * twice: one line each, and the list is intact (reclaim still runs, and
 * asks only the registered shrinker).  Before the fix the second
 * unregister_shrinker() oopsed inside the shrinker lock, which stayed held.
 */
static void shrinker_misuse_is_reported_and_ignored(struct kunit *test)
{
	static struct shrinker s = { .count_objects = forms_count, .scan_objects = forms_scan,
				     .seeks = DEFAULT_SEEKS };
	static struct shrinker never = { .count_objects = forms_count, .scan_objects = forms_scan,
				     .seeks = DEFAULT_SEEKS };

	kunit_expect_report(test, "BUG: unregister_shrinker of shrinker");
	kunit_expect_report(test, "BUG: shrinker_register of shrinker 'kunit-twice'");
	KUNIT_ASSERT_EQ(test, register_shrinker(&s, "kunit-twice"), 0);
	KUNIT_EXPECT_EQ(test, register_shrinker(&s, "kunit-renamed"), -EBUSY);
	KUNIT_EXPECT_STREQ(test, s.name, "kunit-twice");
	shrinker_register(&s);
	expect_reclaim_asks(test, &s, true);
	unregister_shrinker(&s);
	unregister_shrinker(&s);
	unregister_shrinker(&never);
	expect_reclaim_asks(test, &s, false);
	KUNIT_EXPECT_FALSE(test, s.registered || never.registered);
}

/* A cache of DEFERRED_OBJECTS that never runs out: each scan "frees" what it is asked. */
#define DEFERRED_OBJECTS	200
#define DEFERRED_PRIORITY	2	/* a pass's share: 2 * (200 >> 2) = 100, under a batch */

static unsigned long deferred_scans, deferred_scanned;

static unsigned long deferred_count(struct shrinker *s, struct shrink_control *sc)
{
	return DEFERRED_OBJECTS;
}

static unsigned long deferred_scan(struct shrinker *s, struct shrink_control *sc)
{
	deferred_scans++;
	deferred_scanned += sc->nr_to_scan;
	return sc->nr_to_scan;
}

/*
 * Scan work a pass leaves undone is done by a later one, as Linux's
 * nr_deferred: a pass whose share of a cache is less than a batch (and
 * than the cache) scans nothing and defers the share, and the next passes
 * add what was deferred (shifted by their priority) to their own.  Here
 * the share is 100 of 200 objects, a batch is 128: the first two passes
 * defer, the third scans a batch.  Without the deferred work no pass at
 * this priority would ever scan this cache.
 */
static void deferred_work_is_done_by_a_later_pass(struct kunit *test)
{
	static struct shrinker s = { .count_objects = deferred_count,
				     .scan_objects = deferred_scan, .seeks = DEFAULT_SEEKS };
	unsigned int pass;

	deferred_scans = deferred_scanned = 0;
	KUNIT_ASSERT_EQ(test, register_shrinker(&s, "kunit-deferred"), 0);
	for (pass = 1; pass <= 4 && !deferred_scans; pass++)
		shrink_slab(GFP_KERNEL, numa_mem_id(), DEFERRED_PRIORITY);
	unregister_shrinker(&s);
	KUNIT_EXPECT_EQ_MSG(test, deferred_scans, 1, "the work of %u passes was never done",
			    pass - 1);
	KUNIT_EXPECT_EQ(test, pass - 1, 3);
	KUNIT_EXPECT_EQ(test, deferred_scanned, SHRINK_BATCH);
}

static struct kunit_case shrinker_cases[] = {
	KUNIT_CASE(shrinker_misuse_is_reported_and_ignored),
	KUNIT_CASE(register_shrinker_formats_its_name),
	KUNIT_CASE(register_shrinker_in_every_linux_form),
	KUNIT_CASE(deferred_work_is_done_by_a_later_pass),
	{}
};

static struct kunit_suite shrinker_suite = {
	.name = "shrinker",
	.test_cases = shrinker_cases,
	.strict = true,
};
kunit_test_suite(shrinker_suite);
