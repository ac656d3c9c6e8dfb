/*
 * tests/host/rbtree_check.h - check every invariant of a red-black tree.
 *
 * rbtree_check() walks the whole tree and returns a description of the
 * first thing wrong, or NULL:
 *   - the root has no parent and is black;
 *   - every child's parent pointer names its parent;
 *   - no red node has a red child;
 *   - every path down to a missing child has the same number of black nodes;
 *   - the depth is at most 2 * log2(n + 1);
 *   - in-order, each node sorts after the one before (@in_order(prev, node));
 *   - each node's augmented value is right (@augmented_ok(node), if given);
 *   - rb_first()/rb_next() and rb_last()/rb_prev() visit the same nodes in
 *     the same order as the walk.
 * It is used by test_rbtree (on its own trees) and vmap_check (on the free,
 * busy and lazy trees of the vmap-area allocator).
 */
#ifndef TESTS_HOST_RBTREE_CHECK_H
#define TESTS_HOST_RBTREE_CHECK_H

#include "lib/rbtree_augmented.h"

typedef bool (*rbtree_order_fn)(const struct rb_node *prev, const struct rb_node *node);
typedef bool (*rbtree_augmented_fn)(const struct rb_node *node);

/* NULL if every invariant holds, else what is wrong (a static buffer); the count in *@count */
const char *rbtree_check(const struct rb_root *root, rbtree_order_fn in_order,
			 rbtree_augmented_fn augmented_ok, unsigned long *count);

#endif
