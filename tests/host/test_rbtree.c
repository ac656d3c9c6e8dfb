/*
 * tests/host/test_rbtree.c - lib/rbtree.c on the host, under the sanitizers.
 *
 * Unit tests for each part of the API, then a randomized test: RBTREE_OPS
 * operations (default 200 000) from seed RBTREE_SEED (printed; set it to
 * replay) on an augmented tree and a cached plain tree, with every
 * invariant (rbtree_check.c) checked after every operation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "host_test.h"
#include "rbtree_check.h"

/* The test's object: a key for the order, a value whose subtree max is kept. */
struct item {
	unsigned long key;
	unsigned long value;
	unsigned long max;		/* the largest value in the subtree */
	struct rb_node rb;
	bool in_tree;
};

static unsigned long item_value(const struct item *it)
{
	return it->value;
}

RB_DECLARE_CALLBACKS_MAX(static, item_cb, struct item, rb, unsigned long, max, item_value);

#define to_item(node)	rb_entry(node, struct item, rb)

static bool item_in_order(const struct rb_node *prev, const struct rb_node *node)
{
	return to_item(prev)->key < to_item(node)->key;
}

static bool item_max_ok(const struct rb_node *node)
{
	const struct item *it = to_item(node);
	unsigned long max = it->value;

	if (node->rb_left && to_item(node->rb_left)->max > max)
		max = to_item(node->rb_left)->max;
	if (node->rb_right && to_item(node->rb_right)->max > max)
		max = to_item(node->rb_right)->max;
	return it->max == max;
}

/* Check @root; print what is wrong.  Returns the node count, or -1. */
static long check(const struct rb_root *root, bool augmented)
{
	unsigned long count;
	const char *why;

	why = rbtree_check(root, item_in_order, augmented ? item_max_ok : NULL, &count);

	if (why) {
		printf("    rbtree_check: %s\n", why);
		return -1;
	}
	return count;
}

/*
 * Link @it where its key belongs: the walk every user of the API writes.
 * Returns whether the walk only went left (@it is the new leftmost node).
 */
static bool link(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (it->key < to_item(parent)->key) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&it->rb, parent, link);
	it->in_tree = true;
	return leftmost;
}

/* link(), then rebalance, the plain or the augmented way. */
static bool insert(struct rb_root *root, struct item *it, bool augmented)
{
	bool leftmost = link(root, it);

	if (augmented) {
		it->max = it->value;
		item_cb_propagate(rb_parent(&it->rb), NULL);
		rb_insert_augmented(&it->rb, root, &item_cb);
	} else {
		rb_insert_color(&it->rb, root);
	}
	return leftmost;
}

static void erase(struct rb_root *root, struct item *it, bool augmented)
{
	if (augmented)
		rb_erase_augmented(&it->rb, root, &item_cb);
	else
		rb_erase(&it->rb, root);
	RB_CLEAR_NODE(&it->rb);
	it->in_tree = false;
}

static struct item *search(const struct rb_root *root, unsigned long key)
{
	struct rb_node *node = root->rb_node;

	while (node) {
		struct item *it = to_item(node);

		if (key == it->key)
			return it;
		node = key < it->key ? node->rb_left : node->rb_right;
	}
	return NULL;
}

static int depth_of(const struct rb_node *node)
{
	int d = 0;

	for (; node; node = rb_parent(node))
		d++;
	return d;
}

/* ---------------------------------------------------------------- unit tests */

HOST_TEST(empty_tree)
{
	struct rb_root root = RB_ROOT;
	struct rb_root_cached cached = RB_ROOT_CACHED;

	CHECK(RB_EMPTY_ROOT(&root));
	CHECK(rb_first(&root) == NULL);
	CHECK(rb_last(&root) == NULL);
	CHECK(rb_first_cached(&cached) == NULL);
	CHECK(RB_EMPTY_ROOT(&cached.rb_root));
	CHECK(check(&root, true) == 0);
	CHECK(rb_entry_safe((struct rb_node *)NULL, struct item, rb) == NULL);
}

HOST_TEST(node_packs_parent_and_colour_in_one_word)
{
	struct rb_root root = RB_ROOT;
	struct item a = { .key = 1 }, b = { .key = 2 };

	CHECK(sizeof(struct rb_node) == 3 * sizeof(long));
	CHECK(_Alignof(struct rb_node) >= 4);
	RB_CLEAR_NODE(&a.rb);
	CHECK(RB_EMPTY_NODE(&a.rb));
	CHECK(rb_next(&a.rb) == NULL && rb_prev(&a.rb) == NULL);
	insert(&root, &a, false);
	CHECK(!RB_EMPTY_NODE(&a.rb));
	CHECK(rb_parent(&a.rb) == NULL && rb_is_black(&a.rb));	/* the root is black */
	insert(&root, &b, false);
	CHECK(rb_parent(&b.rb) == &a.rb && rb_is_red(&b.rb));	/* a new node is red */
	CHECK(b.rb.__rb_parent_color == ((unsigned long)&a.rb | RB_RED));
	CHECK(a.rb.rb_right == &b.rb && a.rb.rb_left == NULL);
	CHECK(check(&root, false) == 2);
}

/* 1..n in ascending, descending and zig-zag order: always balanced. */
HOST_TEST(sorted_insertions_stay_balanced)
{
	enum { N = 10000 };
	static struct item items[N];
	static const char *orders[] = { "ascending", "descending", "zig-zag" };

	for (int o = 0; o < 3; o++) {
		struct rb_root root = RB_ROOT;
		long n;

		for (int i = 0; i < N; i++) {
			int k = o == 0 ? i : o == 1 ? N - 1 - i : (i % 2 ? i / 2 : N - 1 - i / 2);

			items[i] = (struct item){ .key = k, .value = k };
			insert(&root, &items[i], o == 2);
		}
		n = check(&root, o == 2);
		if (n != N)
			printf("    %s: %ld nodes\n", orders[o], n);
		CHECK(n == N);
		CHECK(depth_of(rb_last(&root)) <= 2 * 14);	/* 2 * log2(10001) = 26.6 */
	}
}

HOST_TEST(walks_in_order_both_ways)
{
	enum { N = 100 };
	struct item items[N];
	struct rb_root root = RB_ROOT;
	struct rb_node *node;
	int i;

	for (i = 0; i < N; i++) {
		items[i] = (struct item){ .key = (i * 37) % N };
		insert(&root, &items[i], false);
	}
	for (i = 0, node = rb_first(&root); node; node = rb_next(node), i++)
		CHECK(to_item(node)->key == (unsigned long)i);
	CHECK(i == N);
	for (i = N, node = rb_last(&root); node; node = rb_prev(node))
		CHECK(to_item(node)->key == (unsigned long)--i);
	CHECK(i == 0);
	CHECK(rb_next(rb_last(&root)) == NULL);
	CHECK(rb_prev(rb_first(&root)) == NULL);
}

enum erase_case { LEAF_RED, LEAF_BLACK, ONE_CHILD, SUCC_IS_RIGHT_CHILD, SUCC_DEEPER, NR_CASES };

static enum erase_case erase_case_of(const struct rb_node *node)
{
	if (!node->rb_left && !node->rb_right)
		return rb_is_red(node) ? LEAF_RED : LEAF_BLACK;
	if (!node->rb_left || !node->rb_right)
		return ONE_CHILD;
	return node->rb_right->rb_left ? SUCC_DEEPER : SUCC_IS_RIGHT_CHILD;
}

/*
 * Every node of every tree of 1..64 nodes erased in turn, from a fresh
 * tree each time: each shape of erase (leaf, one child, two children with
 * the successor near or deep) and each fix-up case is met, and checked.
 */
HOST_TEST(erase_every_node_of_small_trees)
{
	enum { N = 64 };
	struct item items[N];
	int seen[NR_CASES] = { 0 };

	for (int n = 1; n <= N; n++) {
		for (int victim = 0; victim < n; victim++) {
			for (int augmented = 0; augmented < 2; augmented++) {
				struct rb_root root = RB_ROOT;

				for (int i = 0; i < n; i++) {
					/* scrambled (67 is prime to n): red nodes everywhere */
					items[i] = (struct item){ .key = (i * 67 + 3) % n,
								  .value = i };
					insert(&root, &items[i], augmented);
				}
				seen[erase_case_of(&items[victim].rb)]++;
				erase(&root, &items[victim], augmented);
				if (check(&root, augmented) != n - 1) {
					printf("    n %d, victim key %lu\n", n, items[victim].key);
					CHECK(0);
					return;
				}
				CHECK(search(&root, items[victim].key) == NULL);
			}
		}
	}
	for (int c = 0; c < NR_CASES; c++)
		CHECK(seen[c] > 0);
}

HOST_TEST(erase_everything_in_any_order)
{
	enum { N = 3000 };
	static struct item items[N];
	struct rb_root root = RB_ROOT;

	for (int i = 0; i < N; i++) {
		items[i] = (struct item){ .key = i, .value = (i * 7919) % 1000 };
		insert(&root, &items[i], true);
	}
	for (int i = 0; i < N; i++) {
		erase(&root, &items[(i * 1237) % N], true);	/* 1237 and 3000 are coprime */
		if (i % 100 == 0)
			CHECK(check(&root, true) == N - 1 - i);
	}
	CHECK(RB_EMPTY_ROOT(&root));
}

HOST_TEST(replace_node_keeps_place_and_colour)
{
	enum { N = 50 };
	struct item items[N], new;
	struct rb_root root = RB_ROOT;
	struct rb_node *prev, *next;
	unsigned long colour;

	for (int i = 0; i < N; i++) {
		items[i] = (struct item){ .key = i * 2 };
		insert(&root, &items[i], false);
	}
	for (int i = 0; i < N; i += 7) {
		struct item *old = &items[i];

		prev = rb_prev(&old->rb);
		next = rb_next(&old->rb);
		colour = rb_color(&old->rb);
		new = (struct item){ .key = old->key };
		rb_replace_node(&old->rb, &new.rb, &root);
		CHECK(check(&root, false) == N);
		CHECK(search(&root, old->key) == &new);
		CHECK(rb_prev(&new.rb) == prev && rb_next(&new.rb) == next);
		CHECK(rb_color(&new.rb) == colour);
		/* and back, so that items[] is the tree again */
		rb_replace_node(&new.rb, &old->rb, &root);
		CHECK(search(&root, old->key) == old);
	}
	CHECK(check(&root, false) == N);
}

HOST_TEST(cached_root_tracks_leftmost)
{
	enum { N = 200 };
	struct item items[N];
	struct rb_root_cached root = RB_ROOT_CACHED;
	unsigned long lowest = ~0UL;

	for (int i = 0; i < N; i++) {
		items[i] = (struct item){ .key = (i * 89) % N + 1000 };
		rb_insert_color_cached(&items[i].rb, &root, link(&root.rb_root, &items[i]));
		lowest = min(lowest, items[i].key);
		CHECK(rb_first_cached(&root) == rb_first(&root.rb_root));
		CHECK(to_item(rb_first_cached(&root))->key == lowest);
	}
	CHECK(check(&root.rb_root, false) == N);
	for (unsigned long k = 1000; k < 1000 + N; k++) {
		struct item *it = search(&root.rb_root, k);
		struct rb_node *leftmost = rb_erase_cached(&it->rb, &root);

		/* the lowest goes each time: the new leftmost is returned */
		CHECK(leftmost == rb_first(&root.rb_root));
		CHECK(rb_first_cached(&root) == rb_first(&root.rb_root));
	}
	CHECK(RB_EMPTY_ROOT(&root.rb_root) && rb_first_cached(&root) == NULL);
}

HOST_TEST(erase_cached_of_a_middle_node_returns_null)
{
	struct item a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 };
	struct rb_root_cached root = RB_ROOT_CACHED;

	rb_insert_color_cached(&b.rb, &root, link(&root.rb_root, &b));
	rb_insert_color_cached(&a.rb, &root, link(&root.rb_root, &a));
	rb_insert_color_cached(&c.rb, &root, link(&root.rb_root, &c));
	CHECK(rb_first_cached(&root) == &a.rb);
	CHECK(rb_erase_cached(&b.rb, &root) == NULL);
	CHECK(rb_first_cached(&root) == &a.rb);
	CHECK(rb_erase_cached(&a.rb, &root) == &c.rb);
	CHECK(check(&root.rb_root, false) == 1);
}

/* The generated helpers: compute_max(node, exit) reports "unchanged" only with exit. */
HOST_TEST(declare_callbacks_max_helpers)
{
	struct item a = { .key = 1, .value = 5 }, b = { .key = 2, .value = 9 };
	struct rb_root root = RB_ROOT;

	insert(&root, &a, true);
	insert(&root, &b, true);
	CHECK(a.max == 9 && b.max == 9);
	CHECK(item_cb_compute_max(&a, true));		/* up to date */
	b.value = 3;
	item_cb_propagate(&b.rb, NULL);			/* what a user does after a change */
	CHECK(a.max == 5 && b.max == 3);
	CHECK(!item_cb_compute_max(&a, false));
	CHECK(item_cb.propagate == item_cb_propagate && item_cb.copy == item_cb_copy &&
	      item_cb.rotate == item_cb_rotate);
	CHECK(check(&root, true) == 2);
}

/*
 * The picture in lib/rbtree_augmented.h: free ranges [start, end) with the
 * largest size below each node; the lowest range of at least 6 is found on
 * one path from the root.
 */
static struct item *lowest_at_least(const struct rb_root *root, unsigned long size, int *steps)
{
	struct rb_node *node = root->rb_node;

	*steps = 0;
	while (node) {
		(*steps)++;
		if (node->rb_left && to_item(node->rb_left)->max >= size)
			node = node->rb_left;
		else if (to_item(node)->value >= size)
			return to_item(node);
		else if (node->rb_right && to_item(node->rb_right)->max >= size)
			node = node->rb_right;
		else
			return NULL;
	}
	return NULL;
}

HOST_TEST(augmented_picture_lowest_fit)
{
	/* key = start, value = size: [30,35) [10,12) [50,90) [0,1) [20,26) */
	struct item r[] = {
		{ .key = 30, .value = 5 }, { .key = 10, .value = 2 }, { .key = 50, .value = 40 },
		{ .key = 0, .value = 1 }, { .key = 20, .value = 6 },
	};
	struct rb_root root = RB_ROOT;
	struct item *found;
	int steps;

	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		insert(&root, &r[i], true);
	/* the same shape as the picture */
	CHECK(root.rb_node == &r[0].rb);
	CHECK(r[0].rb.rb_left == &r[1].rb && r[0].rb.rb_right == &r[2].rb);
	CHECK(r[1].rb.rb_left == &r[3].rb && r[1].rb.rb_right == &r[4].rb);
	CHECK(r[0].max == 40 && r[1].max == 6 && r[2].max == 40 && r[3].max == 1 && r[4].max == 6);
	found = lowest_at_least(&root, 6, &steps);
	CHECK(found == &r[4] && steps == 3);
	found = lowest_at_least(&root, 7, &steps);
	CHECK(found == &r[2]);
	CHECK(lowest_at_least(&root, 41, &steps) == NULL && steps == 1);
	CHECK(check(&root, true) == 5);
}

/* ---------------------------------------------------------------- randomized */

#define POOL	600

struct rtree {
	const char *name;
	bool augmented;
	struct rb_root_cached root;	/* the augmented tree ignores the cache */
	struct item items[POOL];
	struct item spare;		/* for rb_replace_node() */
	long count;
};

static struct item *random_member(struct rtree *t, u64 r)
{
	for (int i = 0; i < POOL; i++) {
		struct item *it = &t->items[(r + i) % POOL];

		if (it->in_tree)
			return it;
	}
	return NULL;
}

static void rtree_insert(struct rtree *t, struct item *it)
{
	if (t->augmented)
		insert(&t->root.rb_root, it, true);
	else
		rb_insert_color_cached(&it->rb, &t->root, link(&t->root.rb_root, it));
	t->count++;
}

static void rtree_erase(struct rtree *t, struct item *it)
{
	if (t->augmented) {
		erase(&t->root.rb_root, it, true);
	} else {
		rb_erase_cached(&it->rb, &t->root);
		RB_CLEAR_NODE(&it->rb);
		it->in_tree = false;
	}
	t->count--;
}

/* One random operation: insert (or erase, if the key is there), erase, replace, change a value. */
static void random_op(struct rtree *t, bool growing)
{
	u64 r = host_rng();
	unsigned int what = r % 100;
	struct item *it;

	r >>= 8;
	if (what < (growing ? 60u : 35u)) {
		unsigned long key = r % 5000;

		it = search(&t->root.rb_root, key);
		if (it) {
			rtree_erase(t, it);
			return;
		}
		for (int i = 0; i < POOL && !it; i++)
			if (!t->items[(r + i) % POOL].in_tree)
				it = &t->items[(r + i) % POOL];
		if (!it)
			return;
		it->key = key;
		it->value = (r >> 16) % 1000000;
		rtree_insert(t, it);
	} else if (what < 90) {
		it = random_member(t, r);
		if (it)
			rtree_erase(t, it);
	} else if (what < 95) {
		it = random_member(t, r);
		if (!it)
			return;
		/* replace by the spare, which then becomes this slot's item */
		t->spare = (struct item){ .key = it->key, .value = it->value, .max = it->max,
					  .in_tree = true };
		rb_replace_node(&it->rb, &t->spare.rb, &t->root.rb_root);
		if (t->root.rb_leftmost == &it->rb)
			t->root.rb_leftmost = &t->spare.rb;
		*it = t->spare;
		rb_replace_node(&t->spare.rb, &it->rb, &t->root.rb_root);
		if (t->root.rb_leftmost == &t->spare.rb)
			t->root.rb_leftmost = &it->rb;
	} else if (t->augmented) {
		it = random_member(t, r);
		if (!it)
			return;
		it->value = (r >> 16) % 1000000;
		item_cb_propagate(&it->rb, NULL);
	}
}

HOST_TEST(random_operations_keep_every_invariant)
{
	const char *env_seed = getenv("RBTREE_SEED"), *env_ops = getenv("RBTREE_OPS");
	u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eedb1ac4ULL;
	unsigned long ops = env_ops ? strtoul(env_ops, NULL, 0) : 200000;
	static struct rtree trees[2] = { { .name = "augmented", .augmented = true },
					 { .name = "cached" } };
	clock_t t0 = clock();
	unsigned long i;
	long most = 0;
	bool failed = false;

	printf("    random test: seed %#llx (RBTREE_SEED), %lu operations (RBTREE_OPS)\n",
	       (unsigned long long)seed, ops);
	host_rng_state = seed;
	for (i = 0; i < ops && !failed; i++) {
		/* phases of growth and shrinkage: from empty trees to full ones and back */
		bool growing = (i / 5000) % 2 == 0;

		for (int t = 0; t < 2; t++) {
			struct rtree *tr = &trees[t];
			long n;

			random_op(tr, growing);
			n = check(&tr->root.rb_root, tr->augmented);
			most = max(most, n);
			if (n != tr->count || (!tr->augmented &&
			    rb_first_cached(&tr->root) != rb_first(&tr->root.rb_root))) {
				printf("    %s tree after op %lu: %ld nodes, %ld expected\n",
				       tr->name, i, n, tr->count);
				failed = true;
			}
		}
	}
	printf("    %lu ops; trees of up to %ld nodes, %ld and %ld at the end; %.1f s\n", i, most,
	       trees[0].count, trees[1].count, (double)(clock() - t0) / CLOCKS_PER_SEC);
	CHECK(!failed);
	if (failed)
		printf("    replay with RBTREE_SEED=%#llx RBTREE_OPS=%lu\n",
		       (unsigned long long)seed, i);
}
