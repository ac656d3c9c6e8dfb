/*
 * tests/kernel/lib_rbtree_test.c - lib/rbtree.c inside the kernel, built as
 * the kernel builds it (the host tests, test_rbtree, check every invariant
 * under the sanitizers; this checks what a user of the tree sees here).
 *
 * A few thousand nodes in an array, inserted in a scrambled order,
 * half of them erased, some replaced: after each step the tree must walk in
 * order both ways, hold every node once, be no deeper than 2 * log2(n + 1),
 * and answer "the lowest node whose value is at least V" (an augmented
 * query, as the vmap-area allocator asks) exactly as a linear scan does.
 *
 * The array (224 KiB) is kvmalloc()ed for each case, not static: GRUB must
 * find room for the whole image and its .bss on a 6 MiB machine, and every
 * KiB of .bss a test keeps is one less for suites added from outside
 * (docs/testing.md, "The smallest machine").
 */
#include "kunit/test.h"
#include "lib/rbtree_augmented.h"
#include "mm/kvmalloc.h"

#define N	4096

struct knode {
	struct rb_node rb;
	unsigned long key;
	unsigned long value;
	unsigned long max;		/* the largest value in the subtree */
	bool in_tree;
};

static unsigned long knode_value(const struct knode *k)
{
	return k->value;
}

RB_DECLARE_CALLBACKS_MAX(static, knode_cb, struct knode, rb, unsigned long, max, knode_value);

static struct knode *nodes;

static void knode_insert(struct rb_root *root, struct knode *k)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (k->key < rb_entry(parent, struct knode, rb)->key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&k->rb, parent, link);
	k->max = k->value;
	knode_cb_propagate(parent, NULL);
	rb_insert_augmented(&k->rb, root, &knode_cb);
	k->in_tree = true;
}

static void knode_erase(struct rb_root *root, struct knode *k)
{
	rb_erase_augmented(&k->rb, root, &knode_cb);
	k->in_tree = false;
}

/* The lowest key whose value is >= @v, by the subtree maxima: one path down. */
static struct knode *lowest_at_least(struct rb_root *root, unsigned long v)
{
	struct rb_node *node = root->rb_node;

	while (node) {
		struct knode *k = rb_entry(node, struct knode, rb);

		if (node->rb_left && rb_entry(node->rb_left, struct knode, rb)->max >= v)
			node = node->rb_left;
		else if (k->value >= v)
			return k;
		else if (node->rb_right && rb_entry(node->rb_right, struct knode, rb)->max >= v)
			node = node->rb_right;
		else
			return NULL;
	}
	return NULL;
}

/* The same by brute force over the array. */
static struct knode *lowest_at_least_scan(unsigned long v)
{
	struct knode *best = NULL;

	for (int i = 0; i < N; i++) {
		if (nodes[i].in_tree && nodes[i].value >= v && (!best || nodes[i].key < best->key))
			best = &nodes[i];
	}
	return best;
}

static int depth(const struct rb_node *node)
{
	int l, r;

	if (!node)
		return 0;
	l = depth(node->rb_left);
	r = depth(node->rb_right);
	return 1 + (l > r ? l : r);
}

/* Everything a user can see of the tree, checked against the array. */
static void check_tree(struct kunit *test, struct rb_root *root)
{
	unsigned long count = 0, expect = 0, bound = 0;
	struct rb_node *node, *prev = NULL;

	for (int i = 0; i < N; i++)
		expect += nodes[i].in_tree;
	for (node = rb_first(root); node; prev = node, node = rb_next(node)) {
		struct knode *k = rb_entry(node, struct knode, rb);

		KUNIT_ASSERT_TRUE(test, k->in_tree);
		if (prev)
			KUNIT_ASSERT_LT(test, rb_entry(prev, struct knode, rb)->key, k->key);
		KUNIT_ASSERT_PTR_EQ(test, rb_prev(node), prev);
		count++;
	}
	KUNIT_ASSERT_PTR_EQ(test, rb_last(root), prev);
	KUNIT_ASSERT_EQ(test, count, expect);
	/* 2 * log2(n + 1), rounded up */
	for (unsigned long n = count + 1; n > 1; n = (n + 1) / 2)
		bound += 2;
	KUNIT_EXPECT_LE(test, (unsigned long)depth(root->rb_node), bound);
	for (unsigned long v = 0; v < 1100; v += 37)
		KUNIT_EXPECT_PTR_EQ(test, lowest_at_least(root, v), lowest_at_least_scan(v));
}

static int rbtree_test_init(struct kunit *test)
{
	nodes = kvmalloc_array(N, sizeof(*nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nodes);
	for (int i = 0; i < N; i++) {
		/* 2621 is prime to 4096: every key once, in a scrambled order */
		nodes[i] = (struct knode){ .key = (i * 2621UL) % N,
					   .value = (i * 7919UL) % 1000 };
	}
	return 0;
}

static void rbtree_test_exit(struct kunit *test)
{
	(void)test;
	kvfree(nodes);
	nodes = NULL;
}

static void insert_walk_and_query(struct kunit *test)
{
	struct rb_root root = RB_ROOT;

	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&root));
	KUNIT_EXPECT_NULL(test, rb_first(&root));
	for (int i = 0; i < N; i++)
		knode_insert(&root, &nodes[i]);
	KUNIT_EXPECT_FALSE(test, RB_EMPTY_ROOT(&root));
	KUNIT_EXPECT_EQ(test, rb_entry(rb_first(&root), struct knode, rb)->key, 0);
	KUNIT_EXPECT_EQ(test, rb_entry(rb_last(&root), struct knode, rb)->key, N - 1);
	check_tree(test, &root);
}

static void erase_half_then_all(struct kunit *test)
{
	struct rb_root root = RB_ROOT;

	for (int i = 0; i < N; i++)
		knode_insert(&root, &nodes[i]);
	for (int i = 0; i < N; i += 2)
		knode_erase(&root, &nodes[(i * 1237) % N]);
	check_tree(test, &root);
	/* values change: propagate, as a user of an augmented tree must */
	for (int i = 0; i < N; i++) {
		if (nodes[i].in_tree && i % 3 == 0) {
			nodes[i].value = 1000 + i % 50;
			knode_cb_propagate(&nodes[i].rb, NULL);
		}
	}
	check_tree(test, &root);
	for (int i = 0; i < N; i++) {
		if (nodes[i].in_tree)
			knode_erase(&root, &nodes[i]);
	}
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&root));
	check_tree(test, &root);
}

static void replace_and_cached_root(struct kunit *test)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	static struct knode other;

	for (int i = 0; i < 64; i++) {
		struct rb_node **link = &root.rb_root.rb_node, *parent = NULL;
		bool leftmost = true;

		while (*link) {
			parent = *link;
			if (nodes[i].key < rb_entry(parent, struct knode, rb)->key) {
				link = &parent->rb_left;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
		rb_link_node(&nodes[i].rb, parent, link);
		rb_insert_color_cached(&nodes[i].rb, &root, leftmost);
		KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&root), rb_first(&root.rb_root));
	}
	other = nodes[10];
	rb_replace_node(&nodes[10].rb, &other.rb, &root.rb_root);
	KUNIT_EXPECT_PTR_EQ(test, rb_next(rb_prev(&other.rb)), &other.rb);
	KUNIT_EXPECT_PTR_EQ(test, rb_prev(rb_next(&other.rb)), &other.rb);
	while (!RB_EMPTY_ROOT(&root.rb_root)) {
		struct rb_node *first = rb_first_cached(&root);

		KUNIT_ASSERT_PTR_EQ(test, rb_erase_cached(first, &root), rb_first(&root.rb_root));
	}
	KUNIT_EXPECT_NULL(test, rb_first_cached(&root));
}

static struct kunit_case lib_rbtree_cases[] = {
	KUNIT_CASE(insert_walk_and_query),
	KUNIT_CASE(erase_half_then_all),
	KUNIT_CASE(replace_and_cached_root),
	{}
};

static struct kunit_suite lib_rbtree_suite = {
	.name = "lib_rbtree",
	.init = rbtree_test_init,
	.exit = rbtree_test_exit,
	.test_cases = lib_rbtree_cases,
	.strict = true,
};
kunit_test_suite(lib_rbtree_suite);
