/*
 * tests/host/rbtree_check.c - check every invariant of a red-black tree
 * (see rbtree_check.h).  Plain recursion: this is test code, and a valid
 * tree is shallow; an invalid one is caught by the depth limit first.
 */
#include <stdio.h>
#include "rbtree_check.h"

struct walk {
	rbtree_order_fn in_order;
	rbtree_augmented_fn augmented_ok;
	const struct rb_node **nodes;	/* in order, as found */
	unsigned long count, cap;
	int deepest;
	char why[256];
};

/* Returns the black height of @node's subtree, or -1 with w->why set. */
static int walk(struct walk *w, const struct rb_node *node, const struct rb_node *parent,
		int depth)
{
	int left, right;

	if (!node)
		return 1;
	if (depth > 120) {
		snprintf(w->why, sizeof(w->why), "deeper than 120: not balanced (or a cycle)");
		return -1;
	}
	if (depth > w->deepest)
		w->deepest = depth;
	if (rb_parent(node) != parent) {
		snprintf(w->why, sizeof(w->why), "node %p: parent %p, should be %p",
			 (void *)node, (void *)rb_parent(node), (void *)parent);
		return -1;
	}
	if (rb_is_red(node) && parent && rb_is_red(parent)) {
		snprintf(w->why, sizeof(w->why), "red node %p has a red parent %p",
			 (void *)node, (void *)parent);
		return -1;
	}
	left = walk(w, node->rb_left, node, depth + 1);
	if (left < 0)
		return -1;
	if (w->count == w->cap) {
		snprintf(w->why, sizeof(w->why), "more than %lu nodes (a cycle?)", w->cap);
		return -1;
	}
	if (w->count && !w->in_order(w->nodes[w->count - 1], node)) {
		snprintf(w->why, sizeof(w->why), "node %p sorts before the node before it, %p",
			 (void *)node, (void *)w->nodes[w->count - 1]);
		return -1;
	}
	w->nodes[w->count++] = node;
	if (w->augmented_ok && !w->augmented_ok(node)) {
		snprintf(w->why, sizeof(w->why), "node %p: wrong augmented value", (void *)node);
		return -1;
	}
	right = walk(w, node->rb_right, node, depth + 1);
	if (right < 0)
		return -1;
	if (left != right) {
		snprintf(w->why, sizeof(w->why),
			 "node %p: black height %d on the left, %d on the right",
			 (void *)node, left, right);
		return -1;
	}
	return left + rb_is_black(node);
}

/* The walk found nodes[0..count); do rb_first/rb_next and rb_last/rb_prev agree? */
static bool iterators_agree(struct walk *w, const struct rb_root *root)
{
	const struct rb_node *n = rb_first(root);
	unsigned long i;

	for (i = 0; i < w->count; i++, n = rb_next(n)) {
		if (n != w->nodes[i]) {
			snprintf(w->why, sizeof(w->why),
				 "rb_first/rb_next: node %lu is %p, should be %p",
				 i, (void *)n, (void *)w->nodes[i]);
			return false;
		}
	}
	if (n) {
		snprintf(w->why, sizeof(w->why), "rb_next after the last node is %p", (void *)n);
		return false;
	}
	n = rb_last(root);
	for (i = w->count; i-- > 0; n = rb_prev(n)) {
		if (n != w->nodes[i]) {
			snprintf(w->why, sizeof(w->why),
				 "rb_last/rb_prev: node %lu is %p, should be %p",
				 i, (void *)n, (void *)w->nodes[i]);
			return false;
		}
	}
	if (n) {
		snprintf(w->why, sizeof(w->why), "rb_prev before the first node is %p", (void *)n);
		return false;
	}
	return true;
}

const char *rbtree_check(const struct rb_root *root, rbtree_order_fn in_order,
			 rbtree_augmented_fn augmented_ok, unsigned long *count)
{
	static const struct rb_node *nodes[1 << 22];
	static struct walk w;
	unsigned __int128 n1;

	w = (struct walk){ in_order, augmented_ok, nodes, 0, ARRAY_SIZE(nodes), 0, "" };
	*count = 0;
	if (root->rb_node && (rb_parent(root->rb_node) || rb_is_red(root->rb_node)))
		return "the root has a parent or is red";
	if (walk(&w, root->rb_node, NULL, 1) < 0 || !iterators_agree(&w, root))
		return w.why;
	*count = w.count;
	/* depth <= 2 * log2(n + 1), that is 2^depth <= (n + 1)^2 */
	n1 = w.count + 1;
	if (((unsigned __int128)1 << w.deepest) > n1 * n1) {
		snprintf(w.why, sizeof(w.why), "%lu nodes %d deep: more than 2 * log2(n + 1)",
			 w.count, w.deepest);
		return w.why;
	}
	return NULL;
}
