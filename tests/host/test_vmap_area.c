/*
 * tests/host/test_vmap_area.c - the vmap-area allocator (mm/vmap_area.c) on
 * the host, under AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Unit tests for each case: the four ways an allocation cuts a free range,
 * the four ways a free merges, alignment, the vstart/vend limits,
 * exhaustion, the busy tree's lookups, and every misuse report.  Then the
 * randomized model-based test (vmap_check.c): VMAP_OPS operations (default
 * 2 million) from seed VMAP_SEED (printed; set it to replay), checked
 * against a brute-force model after every one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "host_test.h"
#include "mm_host.h"
#include "vmap_check.h"
#include "kernel/printk.h"
#include "lib/errno.h"

#define PG		PAGE_SIZE
#define BASE		0xffffc90000000000UL	/* the kernel's VMALLOC_START */
#define VMALLOC_END_	0xffffe8ffffffffffUL	/* and its VMALLOC_END */
#define P(n)		(BASE + (n) * PG)	/* page n of the test's space */

/* A space of pages [BASE, BASE + 16 pages) and its trees, nodes from an array. */
struct fixture {
	struct rb_list free, busy;
	struct list_head spare;
	struct vmap_area nodes[64];
	int used;
	unsigned long log;		/* printk_log_pos() at the start */
};

static struct vmap_area *node(struct fixture *fx, unsigned long start, unsigned long end)
{
	struct vmap_area *va = &fx->nodes[fx->used++];

	va->va_start = start;
	va->va_end = end;
	RB_CLEAR_NODE(&va->rb_node);
	return va;
}

static void add_spare(struct fixture *fx)
{
	list_add(&node(fx, 0, 0)->list, &fx->spare);
}

static unsigned long nr_spare(struct fixture *fx)
{
	unsigned long n = 0;
	struct vmap_area *va;

	list_for_each_entry(va, &fx->spare, list)
		n++;
	return n;
}

/* A fresh space [P(0), P(pages)), all free, one spare node. */
static void setup(struct fixture *fx, unsigned long pages)
{
	memset(fx, 0, sizeof(*fx));
	rb_list_init(&fx->free);
	rb_list_init(&fx->busy);
	INIT_LIST_HEAD(&fx->spare);
	merge_or_add_vmap_area_augment(node(fx, P(0), P(pages)), &fx->free, &fx->spare);
	add_spare(fx);
	fx->log = printk_log_pos();
}

/* The free ranges, in pages from BASE: "0-4 6-16". */
static const char *free_ranges(struct fixture *fx)
{
	static char buf[512];
	struct vmap_area *va;
	size_t n = 0;

	buf[0] = 0;
	list_for_each_entry(va, &fx->free.head, list)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%lu-%lu", n ? " " : "",
			      (va->va_start - BASE) / PG, (va->va_end - BASE) / PG);
	return buf;
}

/* Allocate @pages pages aligned to @align pages, anywhere in the space. */
static unsigned long alloc(struct fixture *fx, unsigned long pages, unsigned long align)
{
	return __alloc_vmap_area(&fx->free, pages * PG, align * PG, BASE, VMALLOC_END_,
				 &fx->spare);
}

/* Give [P(a), P(b)) back; returns the node now holding it. */
static struct vmap_area *release(struct fixture *fx, unsigned long a, unsigned long b)
{
	return merge_or_add_vmap_area_augment(node(fx, P(a), P(b)), &fx->free, &fx->spare);
}

static bool reported(struct fixture *fx, const char *what)
{
	bool found = strstr(host_log_since(fx->log), what) != NULL;

	fx->log = printk_log_pos();
	return found;
}

static unsigned long root_max(struct fixture *fx)
{
	return rb_entry(fx->free.root.rb_node, struct vmap_area, rb_node)->subtree_max_size;
}

/* ---------------------------------------------------------------- allocating */

HOST_TEST(one_free_range_at_the_start)
{
	struct fixture fx;

	setup(&fx, 16);
	CHECK_STREQ(free_ranges(&fx), "0-16");
	CHECK(root_max(&fx) == 16 * PG);
	CHECK(nr_spare(&fx) == 1);
}

HOST_TEST(left_edge_fit_shrinks_the_range_from_below)
{
	struct fixture fx;

	setup(&fx, 16);
	CHECK(alloc(&fx, 2, 1) == P(0));
	CHECK(alloc(&fx, 3, 1) == P(2));
	CHECK_STREQ(free_ranges(&fx), "5-16");
	CHECK(root_max(&fx) == 11 * PG);
	CHECK(nr_spare(&fx) == 1);
}

HOST_TEST(full_fit_removes_the_range_and_returns_its_node)
{
	struct fixture fx;

	setup(&fx, 16);
	release(&fx, 20, 23);			/* a second range, 20-23, apart */
	CHECK(__alloc_vmap_area(&fx.free, 4 * PG, PG, P(16), P(30), &fx.spare) == P(30));
	CHECK(__alloc_vmap_area(&fx.free, 3 * PG, PG, P(16), P(30), &fx.spare) == P(20));
	CHECK_STREQ(free_ranges(&fx), "0-16");
	CHECK(nr_spare(&fx) == 2);		/* 20-23's node is the caller's again */
}

HOST_TEST(right_edge_fit_shrinks_the_range_from_above)
{
	struct fixture fx;

	setup(&fx, 16);
	CHECK(alloc(&fx, 1, 1) == P(0));	/* free: 1-16 */
	CHECK(__alloc_vmap_area(&fx.free, 2 * PG, PG, P(14), P(16), &fx.spare) == P(14));
	CHECK_STREQ(free_ranges(&fx), "1-14");
	CHECK(nr_spare(&fx) == 1);
}

HOST_TEST(middle_fit_splits_with_a_spare_node)
{
	struct fixture fx;

	setup(&fx, 16);
	CHECK(alloc(&fx, 1, 1) == P(0));	/* free: 1-16 */
	CHECK(alloc(&fx, 2, 4) == P(4));
	CHECK_STREQ(free_ranges(&fx), "1-4 6-16");
	CHECK(nr_spare(&fx) == 0);		/* the spare holds 1-4 now */
	CHECK(root_max(&fx) == 10 * PG);
	CHECK(!reported(&fx, "vmalloc bug"));
}

HOST_TEST(middle_fit_without_a_spare_fails_and_says_so)
{
	struct fixture fx;

	setup(&fx, 16);
	INIT_LIST_HEAD(&fx.spare);
	CHECK(alloc(&fx, 1, 1) == P(0));	/* left edge: needs no spare */
	CHECK(alloc(&fx, 2, 4) == VMALLOC_END_);
	CHECK(reported(&fx, "vmalloc bug: no spare node to split free range 0x"));
	CHECK_STREQ(free_ranges(&fx), "1-16");
	add_spare(&fx);
	CHECK(alloc(&fx, 2, 4) == P(4));
}

HOST_TEST(lowest_fit_wins_over_the_larger_range)
{
	struct fixture fx;

	setup(&fx, 100);
	for (int i = 0; i < 10; i++)
		alloc(&fx, 1, 1);
	release(&fx, 3, 5);
	release(&fx, 0, 1);
	CHECK_STREQ(free_ranges(&fx), "0-1 3-5 10-100");
	CHECK(alloc(&fx, 2, 1) == P(3));
	CHECK(alloc(&fx, 1, 1) == P(0));
	CHECK(alloc(&fx, 1, 1) == P(10));
	CHECK_STREQ(free_ranges(&fx), "11-100");
}

/*
 * The lowest fit is 2-4, exactly 2 aligned pages, shorter than size + align
 * - 1 (what Linux looks for when the alignment is above a page).
 */
HOST_TEST(lowest_fit_even_when_the_alignment_is_tight)
{
	struct fixture fx;

	setup(&fx, 16);
	alloc(&fx, 8, 1);
	release(&fx, 2, 4);
	CHECK_STREQ(free_ranges(&fx), "2-4 8-16");
	CHECK(alloc(&fx, 2, 2) == P(2));
	CHECK_STREQ(free_ranges(&fx), "8-16");
}

HOST_TEST(ranges_too_short_once_aligned_are_passed_over)
{
	struct fixture fx;

	setup(&fx, 32);
	alloc(&fx, 16, 1);
	release(&fx, 1, 3);
	release(&fx, 5, 7);
	release(&fx, 9, 11);
	CHECK_STREQ(free_ranges(&fx), "1-3 5-7 9-11 16-32");
	CHECK(alloc(&fx, 2, 4) == P(16));	/* 4, 8 and 12 end past their ranges */
	CHECK(alloc(&fx, 2, 2) == P(18));	/* 2, 6 and 10 too */
	CHECK_STREQ(free_ranges(&fx), "1-3 5-7 9-11 20-32");
}

HOST_TEST(alignment_is_honoured)
{
	struct fixture fx;

	setup(&fx, 4096);
	CHECK(alloc(&fx, 1, 1) == P(0));
	for (unsigned long align = 2; align <= 1024; align *= 2) {
		add_spare(&fx);
		CHECK(alloc(&fx, 1, align) == P(align));
	}
	/* byte sizes and alignments: nothing here is about pages */
	CHECK(__alloc_vmap_area(&fx.free, 3, 1, BASE, VMALLOC_END_, &fx.spare) == P(1));
	add_spare(&fx);
	CHECK(__alloc_vmap_area(&fx.free, 5, 8, BASE, VMALLOC_END_, &fx.spare) == P(1) + 8);
	CHECK(__alloc_vmap_area(&fx.free, 2, 2, BASE, VMALLOC_END_, &fx.spare) == P(1) + 4);
	CHECK(!reported(&fx, "vmalloc bug"));
}

HOST_TEST(vstart_and_vend_bound_the_area)
{
	struct fixture fx;

	setup(&fx, 16);
	CHECK(__alloc_vmap_area(&fx.free, PG, PG, P(5), P(16), &fx.spare) == P(5));
	CHECK(__alloc_vmap_area(&fx.free, PG, PG, P(5) + 1, P(16), &fx.spare) == P(6));
	CHECK(__alloc_vmap_area(&fx.free, 3 * PG, PG, P(14), P(16), &fx.spare) == P(16));
	CHECK(__alloc_vmap_area(&fx.free, 3 * PG, PG, P(0), P(3), &fx.spare) == P(0));
	CHECK(__alloc_vmap_area(&fx.free, PG, PG, P(0), P(3), &fx.spare) == P(3));
	CHECK(__alloc_vmap_area(&fx.free, 4 * PG, 4 * PG, P(9), P(15), &fx.spare) == P(15));
	CHECK(__alloc_vmap_area(&fx.free, 4 * PG, 4 * PG, P(9), P(16), &fx.spare) == P(12));
	CHECK_STREQ(free_ranges(&fx), "3-5 7-12");
	CHECK(!reported(&fx, "vmalloc bug"));
}

HOST_TEST(exhaustion_fails_and_a_free_page_is_found_again)
{
	struct fixture fx;
	unsigned long addr;

	setup(&fx, 32);
	for (int i = 0; i < 32; i++)
		CHECK(alloc(&fx, 1, 1) == P(i));
	CHECK(RB_EMPTY_ROOT(&fx.free.root) && list_empty(&fx.free.head));
	CHECK(alloc(&fx, 1, 1) == VMALLOC_END_);
	CHECK(nr_spare(&fx) == 2);		/* the last page was a full fit */
	release(&fx, 17, 18);
	CHECK(alloc(&fx, 2, 1) == VMALLOC_END_);
	addr = alloc(&fx, 1, 1);
	CHECK(addr == P(17));
	CHECK(__alloc_vmap_area(&fx.free, 33 * PG, PG, P(0), P(32), &fx.spare) == P(32));
	CHECK(!reported(&fx, "vmalloc bug"));
}

/* The space at the very top of the address space: nothing may wrap around. */
HOST_TEST(top_of_the_address_space)
{
	struct vmodel m;
	unsigned long top = 0UL - 16 * PG;

	vmodel_init(&m, top, ~0UL);		/* 16 pages, less the last byte */
	vmodel_alloc(&m, PG, 1UL << 63, top, ~0UL, false);	/* rounds past 2^64 */
	vmodel_alloc(&m, 16 * PG, PG, top, ~0UL, false);
	vmodel_alloc(&m, 15 * PG, PG, top, ~0UL, false);
	vmodel_alloc(&m, PG - 1, PG, top, ~0UL, false);	/* the rest, exactly */
	vmodel_alloc(&m, 1, 1, top, ~0UL, false);
	CHECK(m.allocs == 2 && m.fails == 3);
	CHECK(vmodel_check(&m) == 0);
	vmodel_finish(&m);
	CHECK(vmap_check_failures == 0);
}

HOST_TEST(bad_requests_are_reported)
{
	struct fixture fx;

	setup(&fx, 16);
	CHECK(__alloc_vmap_area(&fx.free, 0, PG, BASE, P(16), &fx.spare) == P(16));
	CHECK(reported(&fx, "vmalloc bug: bad request: size 0x0 align 0x1000"));
	CHECK(__alloc_vmap_area(&fx.free, PG, 0, BASE, P(16), &fx.spare) == P(16));
	CHECK(reported(&fx, "bad request"));
	CHECK(__alloc_vmap_area(&fx.free, PG, 3 * PG, BASE, P(16), &fx.spare) == P(16));
	CHECK(reported(&fx, "bad request"));
	CHECK(__alloc_vmap_area(&fx.free, PG, PG, P(3), P(3), &fx.spare) == P(3));
	CHECK(reported(&fx, "bad request"));
	CHECK(__alloc_vmap_area(&fx.free, 17 * PG, PG, BASE, P(16), &fx.spare) == P(16));
	CHECK(!reported(&fx, "vmalloc bug"));	/* too large is no bug: just no room */
	CHECK_STREQ(free_ranges(&fx), "0-16");
}

/* ---------------------------------------------------------------- freeing */

static void fragment(struct fixture *fx)
{
	for (int i = 0; i < 10; i++)
		alloc(fx, 1, 1);
	release(fx, 1, 2);
	release(fx, 5, 6);
	CHECK_STREQ(free_ranges(fx), "1-2 5-6 10-16");
}

HOST_TEST(free_between_busy_areas_adds_a_range)
{
	struct fixture fx;
	struct vmap_area *va;

	setup(&fx, 16);
	fragment(&fx);
	va = release(&fx, 7, 8);
	CHECK(va == &fx.nodes[fx.used - 1]);
	CHECK_STREQ(free_ranges(&fx), "1-2 5-6 7-8 10-16");
	CHECK(nr_spare(&fx) == 1);
}

HOST_TEST(free_merges_with_the_range_below)
{
	struct fixture fx;
	struct vmap_area *va;

	setup(&fx, 16);
	fragment(&fx);
	va = release(&fx, 6, 7);
	CHECK(va->va_start == P(5) && va->va_end == P(7));
	CHECK_STREQ(free_ranges(&fx), "1-2 5-7 10-16");
	CHECK(nr_spare(&fx) == 2);		/* the freed range's node */
}

HOST_TEST(free_merges_with_the_range_above)
{
	struct fixture fx;
	struct vmap_area *va;

	setup(&fx, 16);
	fragment(&fx);
	va = release(&fx, 9, 10);
	CHECK(va->va_start == P(9) && va->va_end == P(16));
	CHECK_STREQ(free_ranges(&fx), "1-2 5-6 9-16");
	CHECK(root_max(&fx) == 7 * PG);
	CHECK(nr_spare(&fx) == 2);
}

HOST_TEST(free_merges_with_both_and_returns_two_nodes)
{
	struct fixture fx;
	struct vmap_area *va;

	setup(&fx, 16);
	fragment(&fx);
	release(&fx, 6, 9);
	va = release(&fx, 2, 5);
	CHECK(va->va_start == P(1) && va->va_end == P(9));
	CHECK_STREQ(free_ranges(&fx), "1-9 10-16");
	va = release(&fx, 9, 10);
	CHECK(va->va_start == P(1) && va->va_end == P(16));
	CHECK_STREQ(free_ranges(&fx), "1-16");
	CHECK(root_max(&fx) == 15 * PG);
	CHECK(nr_spare(&fx) == 1 + 2 + 1 + 2);
}

HOST_TEST(double_free_is_reported_and_changes_nothing)
{
	struct fixture fx;
	struct vmap_area *va;

	setup(&fx, 16);
	fragment(&fx);
	va = node(&fx, P(5), P(6));
	CHECK(merge_or_add_vmap_area_augment(va, &fx.free, &fx.spare) == NULL);
	CHECK(reported(&fx, "vmalloc bug: 0xffffc90000005000-0xffffc90000006000 overlaps with "
			    "0xffffc90000005000-0xffffc90000006000\n"));
	CHECK(fx.spare.next == &va->list);	/* the node is given back */
	CHECK(release(&fx, 12, 20) == NULL);
	CHECK(reported(&fx, "overlaps"));
	CHECK(release(&fx, 7, 7) == NULL);
	CHECK(reported(&fx, "vmalloc bug: empty area 0xffffc90000007000-0xffffc90000007000"));
	CHECK_STREQ(free_ranges(&fx), "1-2 5-6 10-16");
}

/* ---------------------------------------------------------------- the busy tree */

HOST_TEST(busy_tree_finds_the_area_holding_an_address)
{
	struct fixture fx;
	struct vmap_area *a, *b;

	setup(&fx, 16);
	a = node(&fx, P(2), P(4));
	b = node(&fx, P(4), P(5));
	CHECK(insert_vmap_area(b, &fx.busy) == 0);
	CHECK(insert_vmap_area(a, &fx.busy) == 0);
	CHECK(__find_vmap_area(P(2), &fx.busy) == a);
	CHECK(__find_vmap_area(P(3) + 123, &fx.busy) == a);
	CHECK(__find_vmap_area(P(4) - 1, &fx.busy) == a);
	CHECK(__find_vmap_area(P(4), &fx.busy) == b);
	CHECK(__find_vmap_area(P(5), &fx.busy) == NULL);
	CHECK(__find_vmap_area(P(2) - 1, &fx.busy) == NULL);
	/* vfree's test: the area starting at the address, or an interior pointer */
	CHECK(__find_vmap_area(P(3), &fx.busy)->va_start != P(3));
	CHECK(list_first_entry(&fx.busy.head, struct vmap_area, list) == a);
	unlink_va(a, &fx.busy);
	CHECK(RB_EMPTY_NODE(&a->rb_node));
	CHECK(__find_vmap_area(P(2), &fx.busy) == NULL);
	CHECK(__find_vmap_area(P(4), &fx.busy) == b);
	CHECK(!reported(&fx, "vmalloc bug"));
}

HOST_TEST(busy_tree_misuse_is_reported)
{
	struct fixture fx;
	struct vmap_area *a;

	setup(&fx, 16);
	a = node(&fx, P(2), P(4));
	CHECK(insert_vmap_area(a, &fx.busy) == 0);
	CHECK(insert_vmap_area(node(&fx, P(3), P(6)), &fx.busy) == -EINVAL);
	CHECK(reported(&fx, "vmalloc bug: 0xffffc90000003000-0xffffc90000006000 overlaps with "
			    "0xffffc90000002000-0xffffc90000004000"));
	CHECK(insert_vmap_area(node(&fx, P(6), P(5)), &fx.busy) == -EINVAL);
	CHECK(reported(&fx, "empty area"));
	unlink_va(a, &fx.busy);
	unlink_va(a, &fx.busy);
	CHECK(reported(&fx, "vmalloc bug: unlink of 0xffffc90000002000-0xffffc90000004000, "
			    "which is in no tree"));
	CHECK(RB_EMPTY_ROOT(&fx.busy.root) && list_empty(&fx.busy.head));
}

/* The model itself, on a few hand-made steps, so that its checks are known to bite. */
HOST_TEST(model_checks_catch_a_corrupted_tree)
{
	struct vmodel m;
	struct vmap_area *va;

	vmap_check_failures = 0;
	vmodel_init(&m, BASE, P(64));
	for (int i = 0; i < 8; i++)
		vmodel_alloc(&m, 2 * PG, PG, BASE, P(64), false);
	vmodel_free(&m, 3, 0, false);
	CHECK(vmodel_check(&m) == 0);
	vmap_check_quiet = true;
	/* a free range grows behind the tree's back */
	va = list_first_entry(&m.free.head, struct vmap_area, list);
	va->va_end += PG;
	CHECK(vmodel_check(&m) > 0);
	va->va_end -= PG;
	/* a subtree_max_size goes stale */
	va->subtree_max_size++;
	CHECK(vmodel_check(&m) > 0);
	va->subtree_max_size--;
	/* a busy area is lost from its list */
	va = list_first_entry(&m.busy.head, struct vmap_area, list);
	list_del(&va->list);
	CHECK(vmodel_check(&m) > 0);
	list_add(&va->list, &m.busy.head);
	vmap_check_quiet = false;
	vmap_check_failures = 0;
	CHECK(vmodel_check(&m) == 0);
	vmodel_finish(&m);
	CHECK(vmap_check_failures == 0);
}

/* ---------------------------------------------------------------- randomized */

/* Mostly small areas plus a guard page, as vmalloc's; some large; a few of any byte size. */
static unsigned long random_size(u64 r)
{
	unsigned int what = r % 100;

	r >>= 8;
	if (what < 70)
		return (1 + r % 4 + 1) * PG;
	if (what < 90)
		return (5 + r % 60 + 1) * PG;
	if (what < 98)
		return (65 + r % 960 + 1) * PG;
	return 1 + r % (3 * PG);
}

static unsigned long random_align(u64 r)
{
	unsigned int what = r % 100;

	r >>= 8;
	if (what < 80)
		return PG;
	if (what < 95)
		return PG << (1 + r % 6);
	if (what < 99)
		return PG << (7 + r % 10);
	return 1UL << (r % 64);
}

static void random_ops(struct vmodel *m, unsigned long ops, unsigned long *done)
{
	unsigned long space = m->end - m->start, i;

	for (i = 0; i < ops && !vmap_check_failures; i++) {
		/* phases of growth and shrinkage: the space fills up, and empties */
		bool growing = (i / 50000) % 2 == 0;
		u64 r = host_rng(), r2 = host_rng();
		unsigned int what = r % 1000;

		r >>= 10;
		if (what < (growing ? 620u : 330u)) {
			unsigned long vstart = m->start, vend = m->end;

			if (r % 8 == 0) {	/* a window of the space, maybe unaligned */
				vstart += r2 % space;
				vend = vstart + (r2 >> 32) % (m->end - vstart) + 1;
			}
			vmodel_alloc(m, random_size(r >> 3), random_align(r >> 20), vstart, vend,
				     (r >> 40) % 50 == 0);
		} else if (what < 985) {
			vmodel_free(m, r, r2, (r >> 40) % 3 == 0);
		} else if (what < 990 || m->nr_lazy > 100) {
			vmodel_purge(m);
		} else {
			vmodel_misuse(m, r % 6, r2);
		}
		if ((i < 20000 && i % 100 == 0) || i % 10000 == 0)
			vmodel_check(m);
	}
	*done += i;
}

HOST_TEST(random_model_based_test)
{
	const char *env_seed = getenv("VMAP_SEED"), *env_ops = getenv("VMAP_OPS");
	u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eedfa11ULL;
	unsigned long ops = env_ops ? strtoul(env_ops, NULL, 0) : 2000000, done = 0;
	struct { const char *what; unsigned long start, end, share; } spaces[] = {
		{ "64 MiB at VMALLOC_START", BASE, BASE + (64UL << 20), 4 },
		{ "16 MiB at the top of the address space", 0UL - (16UL << 20), ~0UL, 1 },
	};
	unsigned long allocs = 0, fails = 0, frees = 0, purges = 0, misuses = 0;
	clock_t t0 = clock();

	printf("    random model test: seed %#llx (VMAP_SEED), %lu operations (VMAP_OPS)\n",
	       (unsigned long long)seed, ops);
	host_rng_state = seed;
	vmap_check_failures = 0;
	host_printk_quiet = true;
	for (size_t s = 0; s < ARRAY_SIZE(spaces) && !vmap_check_failures; s++) {
		struct vmodel m;

		vmodel_init(&m, spaces[s].start, spaces[s].end);
		random_ops(&m, ops / 5 * spaces[s].share, &done);
		vmodel_check(&m);
		printf("    %s: up to %lu areas and %lu free ranges\n", spaces[s].what,
		       m.most_live, m.most_ranges);
		vmodel_finish(&m);
		allocs += m.allocs;
		fails += m.fails;
		frees += m.frees;
		purges += m.purges;
		misuses += m.misuses;
	}
	host_printk_quiet = false;
	printf("    %lu ops: %lu allocs (%lu failed), %lu frees, %lu purges, %lu misuses; "
	       "%.1f s\n",
	       done, allocs, fails, frees, purges, misuses,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	CHECK(vmap_check_failures == 0);
	CHECK(done == ops / 5 * 5);
	if (vmap_check_failures)
		printf("    replay with VMAP_SEED=%#llx\n", (unsigned long long)seed);
}
