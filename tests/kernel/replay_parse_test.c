/*
 * tests/kernel/replay_parse_test.c - the trace replayer (tests/replay/): its
 * parser refuses every malformed "kmem-replay 1" file of issue 34 on the
 * right line and keeps nothing; what it accepts is decoded exactly; the gfp
 * a trace gives is cut to what the replay honours; and a small trace replays
 * clean, on one CPU and on several, with its figures as counted by hand.
 *
 * The traces are strings here: no GRUB module is needed.  They are small
 * enough for the smallest machine of the matrix (6 MiB).
 */
#include "kunit/test.h"
#include "replay/replay.h"
#include "kernel/smp.h"
#include "mm/vmalloc.h"
#include "lib/errno.h"

#define HEAD	"#kmem-replay 1\n"

struct refusal {
	const char *text;
	unsigned long line;
	const char *reason;	/* a part of the reason */
};

static const struct refusal refusals[] = {
	{ "", 1, "first line" },
	{ "#kmem-replay 2\nS 1\n", 1, "first line" },
	{ "#kmem-replay 1 \nS 1\n", 1, "first line" },
	{ "S 1\n" HEAD, 1, "first line" },
	{ HEAD "a 0 8 cc0 0\n", 2, "S missing" },
	{ HEAD "# comment\nf 0 0\n", 3, "S missing" },
	{ HEAD "S 2\nS 2\n", 3, "S given twice" },
	{ HEAD "S 0\n", 2, "S 0" },
	{ HEAD "S 16777217\n", 2, "larger than" },
	{ HEAD "S 4\nx 0 0\n", 3, "unknown record 'x'" },
	{ HEAD "S 4\nab 0 8 cc0 0\n", 3, "unknown record 'ab'" },
	{ HEAD "S 4\n\n", 3, "unknown record ''" },
	{ HEAD "S 4\na 0 8 cc0\n", 3, "wrong field count (4, expected 5)" },
	{ HEAD "S 4\nv 0 8 0 0\n", 3, "wrong field count (5, expected 4)" },
	{ HEAD "S 4\nf 0\n", 3, "wrong field count" },
	{ HEAD "S 4\na 0 8  cc0 0\n", 3, "wrong field count" },
	{ HEAD "S\n", 2, "wrong field count" },
	{ HEAD "S 4\na 0 8x cc0 0\n", 3, "'8x' is not a number" },
	{ HEAD "S 4\na 0 8 0xg 0\n", 3, "'0xg' is not a number" },
	{ HEAD "S 4\na 0 8 0x 0\n", 3, "'0x' is not a number" },
	{ HEAD "S 4\na -1 8 cc0 0\n", 3, "'-1' is not a number" },
	{ HEAD "S 99999999999999999999\n", 2, "overflows" },
	{ HEAD "S 4\na 0 8 100000000 0\n", 3, "'100000000' overflows" },
	{ HEAD "S 4\nC 1 8 8 a\nC 1 16 16 b\n", 4, "cache 1 declared twice" },
	{ HEAD "C 1 0 8 a\n", 2, "object_size 0" },
	{ HEAD "C 1 16 8 a\n", 2, "object_size 16 > size 8" },
	{ HEAD "C 1 8 8388609 a\n", 2, "> 8 MiB" },
	{ HEAD "C 1 8 8 \n", 2, "empty name" },
	{ HEAD "S 4\na 4 8 cc0 0\n", 3, "id 4 >= S 4" },
	{ HEAD "S 4\nC 1 8 8 a\nk 9 1 cc0 0\n", 4, "id 9 >= S 4" },
	{ HEAD "S 4\np 4 0 cc0 0\n", 3, "id 4 >= S 4" },
	{ HEAD "S 4\nv 4 8 0\n", 3, "id 4 >= S 4" },
	{ HEAD "S 4\na 1 8 cc0 0\nv 1 8 0\n", 4, "id 1 already live" },
	{ HEAD "S 4\nk 0 3 cc0 0\n", 3, "cache 3 not declared" },
	{ HEAD "S 4\nC 1 8 8 a\nk 0 2 cc0 0\n", 4, "cache 2 not declared" },
	{ HEAD "S 4\np 0 11 cc0 0\n", 3, "order 11 > 10" },
	{ HEAD "S 4\na 0 0 cc0 0\n", 3, "kmalloc size 0" },
	{ HEAD "S 4\na 0 4194305 cc0 0\n", 3, "kmalloc size 4194305" },
	{ HEAD "S 4\nv 0 0 0\n", 3, "vmalloc size 0" },
	{ HEAD "S 4\nv 0 67108865 0\n", 3, "vmalloc size 67108865" },
	{ HEAD "S 4\nf 4 0\n", 3, "id 4 >= S 4" },
	{ HEAD "S 4\nf 0 0\n", 3, "id 0 not live" },
	{ HEAD "S 4\na 0 8 cc0 0\nf 0 0\nf 0 1\n", 5, "id 0 not live" },
	{ HEAD "S 4\na 0 8 cc0 4096\n", 3, "cpu 4096 > 4095" },
	{ HEAD "S 4\nf 0 4096\n", 3, "cpu 4096 > 4095" },
	{ HEAD "S 4\na 0 8 cc0 0\nf 0 0\na 0 8 cc0 0\nf 0 1\nq\n", 7, "unknown record 'q'" },
};

/* Each malformed file is refused on its line, for its reason, and nothing is kept. */
static void refuses_each_malformed_file(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(refusals); i++) {
		const struct refusal *c = &refusals[i];
		struct replay_trace t;

		KUNIT_EXPECT_EQ_MSG(test, replay_parse(c->text, strlen(c->text), &t), -EINVAL,
				    "case %zu", i);
		KUNIT_EXPECT_EQ_MSG(test, t.error.line, c->line, "case %zu (%s)", i, t.error.reason);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(t.error.reason, c->reason),
					  "case %zu: \"%s\" does not say \"%s\"", i, t.error.reason,
					  c->reason);
		KUNIT_EXPECT_NULL(test, t.events);
		KUNIT_EXPECT_NULL(test, t.caches);
	}
}

/*
 * Valid: a comment, caches, every record, gfp with and without 0x, a remote
 * free, objects live at the end.  Live bytes after each op (the figures):
 * 100, 164, 8356, 16548 (the peak), 16448, 8256, 8456, 10456, 2264, 2200, 6296.
 */
static const char sample[] =
	HEAD
	"# a comment\n"
	"S 4\n"
	"C 7 64 64 small\n"
	"C 9 200 256 medium\n"
	"a 0 100 cc0 0\n"
	"k 1 7 cc0 1\n"
	"p 2 1 0xcc0 2\n"
	"v 3 8192 3\n"
	"f 0 1\n"
	"f 3 0\n"
	"k 0 9 2dc0 3\n"
	"a 3 2000 cc0 2\n"
	"f 2 3\n"
	"f 1 0\n"
	"p 1 0 cc0 1\n";

static void accepts_and_decodes_a_valid_trace(struct kunit *test)
{
	struct replay_trace t;
	const struct replay_event *e;

	KUNIT_ASSERT_EQ(test, replay_parse(sample, strlen(sample), &t), 0);
	KUNIT_EXPECT_EQ(test, t.error.line, 0);
	KUNIT_EXPECT_EQ(test, t.slots, 4);
	KUNIT_EXPECT_EQ(test, t.nr_events, 11);
	KUNIT_ASSERT_EQ(test, t.nr_caches, 2);
	KUNIT_EXPECT_EQ(test, t.caches[1].cid, 9);
	KUNIT_EXPECT_EQ(test, t.caches[1].object_size, 200);
	KUNIT_EXPECT_EQ(test, t.caches[1].size, 256);
	KUNIT_EXPECT_STREQ(test, t.caches[1].name, "replay-medium");
	e = t.events;
	KUNIT_EXPECT_EQ(test, e[0].op, REPLAY_KMALLOC);
	KUNIT_EXPECT_EQ(test, e[0].arg, 100);
	KUNIT_EXPECT_EQ(test, e[0].gfp, 0xcc0);
	KUNIT_EXPECT_EQ(test, e[1].op, REPLAY_CACHE);
	KUNIT_EXPECT_EQ(test, e[1].arg, 0);		/* cid 7: the first cache */
	KUNIT_EXPECT_EQ(test, e[1].cpu, 1);
	KUNIT_EXPECT_EQ(test, e[2].op, REPLAY_PAGES);
	KUNIT_EXPECT_EQ(test, e[2].arg, 1);
	KUNIT_EXPECT_EQ(test, e[2].gfp, 0xcc0);		/* with 0x, the same */
	KUNIT_EXPECT_EQ(test, e[3].op, REPLAY_VMALLOC);
	KUNIT_EXPECT_EQ(test, e[3].arg, 8192);
	KUNIT_EXPECT_EQ(test, e[4].op, REPLAY_FREE);	/* f 0 1: the kmalloc of 100 */
	KUNIT_EXPECT_EQ(test, e[4].kind, REPLAY_KMALLOC);
	KUNIT_EXPECT_EQ(test, e[4].arg, 100);
	KUNIT_EXPECT_EQ(test, e[4].cpu, 1);
	KUNIT_EXPECT_EQ(test, e[6].arg, 1);		/* cid 9: the second cache */
	KUNIT_EXPECT_EQ(test, e[8].kind, REPLAY_PAGES);	/* f 2 3: the order-1 pages */
	KUNIT_EXPECT_EQ(test, e[8].arg, 1);
	KUNIT_EXPECT_EQ(test, e[9].kind, REPLAY_CACHE);
	KUNIT_EXPECT_EQ(test, e[9].arg, 0);
	replay_free_trace(&t);
	/* Without the last newline, the same. */
	KUNIT_ASSERT_EQ(test, replay_parse(sample, strlen(sample) - 1, &t), 0);
	KUNIT_EXPECT_EQ(test, t.nr_events, 11);
	replay_free_trace(&t);
}

static void keeps_the_gfp_bits_it_honours(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, replay_gfp(0xcc0), GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, replay_gfp(0x2dc0), GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	KUNIT_EXPECT_EQ(test, replay_gfp(0xa20), GFP_ATOMIC);	/* 6.1's ___GFP_ATOMIC, 0x200, goes */
	KUNIT_EXPECT_EQ(test, replay_gfp(0x820), GFP_ATOMIC);
	KUNIT_EXPECT_EQ(test, replay_gfp(GFP_KERNEL | __GFP_NOFAIL), GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, replay_gfp(GFP_KERNEL | __GFP_MEMALLOC), GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, replay_gfp(0xff800000u | GFP_KERNEL), GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, replay_gfp(__GFP_DMA32 | __GFP_MOVABLE | __GFP_RECLAIMABLE |
					 __GFP_NORETRY | __GFP_RETRY_MAYFAIL | __GFP_COMP |
					 __GFP_THISNODE | __GFP_ACCOUNT),
			__GFP_DMA32 | __GFP_MOVABLE | __GFP_RECLAIMABLE | __GFP_NORETRY |
			__GFP_RETRY_MAYFAIL | __GFP_COMP | __GFP_THISNODE | __GFP_ACCOUNT);
}

/* One run of the sample on @cpus CPUs: clean, every op counted. */
static void run_sample(struct kunit *test, unsigned int cpus, struct replay_result *r)
{
	struct replay_trace t;

	KUNIT_ASSERT_EQ(test, replay_parse(sample, strlen(sample), &t), 0);
	KUNIT_EXPECT_EQ(test, replay_run(&t, cpus, r), 0);
	replay_free_trace(&t);
	KUNIT_EXPECT_EQ(test, r->cpus, cpus);
	KUNIT_EXPECT_EQ(test, r->ops, 11);
	KUNIT_EXPECT_EQ(test, r->alloc_failures, 0);
	KUNIT_EXPECT_EQ(test, r->id_errors, 0);
	KUNIT_EXPECT_GT(test, r->cycles, r->ops * r->empty);
}

static void replays_clean_on_one_cpu(struct kunit *test)
{
	struct replay_result r;

	run_sample(test, 1, &r);
	KUNIT_EXPECT_EQ(test, r.peak_live_bytes, 16548);
	/* At least the pages and the area's; the slabs' and tables' too, if they were made. */
	KUNIT_EXPECT_GE(test, r.peak_held_pages, 2 + 2);
	KUNIT_EXPECT_GT(test, r.frag_all, 0);
	KUNIT_EXPECT_LE(test, r.frag_high, r.frag_all);
}

static void replays_clean_on_several_cpus(struct kunit *test)
{
	struct replay_result r;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	run_sample(test, 2, &r);
	KUNIT_EXPECT_EQ(test, r.peak_live_bytes, 0);	/* memory figures: the 1-CPU run's */
	if (num_online_cpus() >= 4)
		run_sample(test, 4, &r);
}

static void refuses_cpus_that_are_not_online(struct kunit *test)
{
	struct replay_trace t;
	struct replay_result r;

	KUNIT_ASSERT_EQ(test, replay_parse(sample, strlen(sample), &t), 0);
	KUNIT_EXPECT_EQ(test, replay_run(&t, num_online_cpus() + 1, &r), -EINVAL);
	KUNIT_EXPECT_EQ(test, replay_run(&t, 0, &r), -EINVAL);
	KUNIT_EXPECT_EQ(test, r.ops, 0);
	replay_free_trace(&t);
}

static struct kunit_case replay_parse_cases[] = {
	KUNIT_CASE(refuses_each_malformed_file),
	KUNIT_CASE(accepts_and_decodes_a_valid_trace),
	KUNIT_CASE(keeps_the_gfp_bits_it_honours),
	KUNIT_CASE(replays_clean_on_one_cpu),
	KUNIT_CASE(replays_clean_on_several_cpus),
	KUNIT_CASE(refuses_cpus_that_are_not_online),
	{}
};

static struct kunit_suite replay_parse_suite = {
	.name = "replay_parse",
	.test_cases = replay_parse_cases,
	.strict = true,
};
kunit_test_suite(replay_parse_suite);
