/*
 * lib/rbtree_augmented.h - red-black trees whose nodes know something about
 * their whole subtree (Linux's include/linux/rbtree_augmented.h).
 *
 * An augmented tree keeps, in every node, a value computed from the node
 * and everything below it.  The classic one is "the largest X in my
 * subtree".  Free ranges of addresses, sorted by address, each knowing the
 * largest free range below it (the numbers are [start, end) size, then the
 * subtree's max):
 *
 *                      [30,35) 5
 *                        max 40
 *                      /        \
 *             [10,12) 2          [50,90) 40
 *               max 6              max 40
 *              /     \
 *        [0,1) 1     [20,26) 6
 *         max 1        max 6
 *
 * Which is the lowest range of at least 6?  The root's max (40) says one
 * exists; its left subtree's max (6) says one is there, so go left; at
 * [10,12) the left max (1) is too small and the node itself too, so go
 * right: [20,26).  One path from the root, O(log n), never a scan.
 *
 * The price is keeping the values right.  A node's value depends only on
 * itself and its two children's values, so
 *   - when a node changes (a range grows or shrinks), the values on the path
 *     from it up to the root may change: "propagate";
 *   - a rotation moves two nodes; the one that goes up now covers exactly
 *     the subtree the other one covered, so it takes that value, and the one
 *     that went down is recomputed from its new children: "rotate";
 *   - erasing a node with two children moves its successor into its place;
 *     the successor takes over the erased node's value ("copy"), then the
 *     values from the successor's old place up are recomputed ("propagate").
 * The tree code calls these three callbacks at the right moments; the user
 * of the tree writes them, or has RB_DECLARE_CALLBACKS_MAX() write them.
 *
 * Inserting works in two steps, as in Linux: the caller links the new node
 * (rb_link_node()), sets its value and brings the values on the path above
 * it up to date (the new node is a leaf, so they can only grow; the
 * generated _propagate() from the new node's parent does it), then calls
 * rb_insert_augmented() instead of rb_insert_color().  Erasing is
 * rb_erase_augmented() instead of rb_erase(): it does all of the work.
 */
#ifndef LIB_RBTREE_AUGMENTED_H
#define LIB_RBTREE_AUGMENTED_H

#include "lib/rbtree.h"

struct rb_augment_callbacks {
	/* recompute values from @node up to, not including, @stop (NULL: the root) */
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	/* @new takes @old's place: it takes @old's value */
	void (*copy)(struct rb_node *old, struct rb_node *new);
	/* a rotation put @new where @old was: @new takes @old's value, @old is recomputed */
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

/**
 * rb_insert_augmented - rebalance after linking a node into an augmented tree
 * @node: the node, linked with rb_link_node(), its value and those above it up to date
 * @root: the tree
 * @augment: the tree's callbacks
 *
 * Context: any; the caller serialises access to the tree.
 */
void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *augment);

/**
 * rb_erase_augmented - take a node out of an augmented tree
 * @node: the node
 * @root: the tree
 * @augment: the tree's callbacks
 *
 * Every value in the tree is right afterwards.
 * Context: any; the caller serialises access to the tree.
 */
void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			const struct rb_augment_callbacks *augment);

/*
 * RB_DECLARE_CALLBACKS - define the callbacks of an augmented tree
 * @RBSTATIC: `static` or nothing, for the callbacks structure
 * @RBNAME: the structure's name; the functions are RBNAME_propagate, _copy, _rotate
 * @RBSTRUCT: the type of the tree's objects
 * @RBFIELD: the struct rb_node member of RBSTRUCT
 * @RBAUGMENTED: the member of RBSTRUCT that holds the subtree's value
 * @RBCOMPUTE: bool RBCOMPUTE(RBSTRUCT *node, bool exit) recomputes @node's
 *	value from its children's; with @exit, it returns true (and changes
 *	nothing) if the value did not change, so propagate can stop there: the
 *	values above depend on this one only.
 */
#define RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, RBCOMPUTE)	\
static void RBNAME ## _propagate(struct rb_node *rb, struct rb_node *stop)		\
{											\
	while (rb != stop) {								\
		RBSTRUCT *node = rb_entry(rb, RBSTRUCT, RBFIELD);			\
											\
		if (RBCOMPUTE(node, true))						\
			break;								\
		rb = rb_parent(&node->RBFIELD);						\
	}										\
}											\
static void RBNAME ## _copy(struct rb_node *rb_old, struct rb_node *rb_new)		\
{											\
	rb_entry(rb_new, RBSTRUCT, RBFIELD)->RBAUGMENTED =				\
		rb_entry(rb_old, RBSTRUCT, RBFIELD)->RBAUGMENTED;			\
}											\
static void RBNAME ## _rotate(struct rb_node *rb_old, struct rb_node *rb_new)		\
{											\
	RBSTRUCT *old = rb_entry(rb_old, RBSTRUCT, RBFIELD);				\
											\
	rb_entry(rb_new, RBSTRUCT, RBFIELD)->RBAUGMENTED = old->RBAUGMENTED;		\
	RBCOMPUTE(old, false);								\
}											\
RBSTATIC const struct rb_augment_callbacks RBNAME = {					\
	.propagate = RBNAME ## _propagate,						\
	.copy = RBNAME ## _copy,							\
	.rotate = RBNAME ## _rotate,							\
}

/*
 * RB_DECLARE_CALLBACKS_MAX - the callbacks for "the largest value in the subtree"
 * @RBSTATIC, @RBNAME, @RBSTRUCT, @RBFIELD, @RBAUGMENTED: as RB_DECLARE_CALLBACKS
 * @RBTYPE: the type of the values
 * @RBCOMPUTE: RBTYPE RBCOMPUTE(RBSTRUCT *node): the node's own value
 *
 * Also defines bool RBNAME_compute_max(RBSTRUCT *node, bool exit).
 */
#define RB_DECLARE_CALLBACKS_MAX(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBTYPE,		\
				 RBAUGMENTED, RBCOMPUTE)				\
static inline bool RBNAME ## _compute_max(RBSTRUCT *node, bool exit)			\
{											\
	RBTYPE max = RBCOMPUTE(node);							\
	struct rb_node *child[] = { node->RBFIELD.rb_left, node->RBFIELD.rb_right };	\
											\
	for (int i = 0; i < 2; i++) {							\
		if (child[i] && rb_entry(child[i], RBSTRUCT, RBFIELD)->RBAUGMENTED > max) \
			max = rb_entry(child[i], RBSTRUCT, RBFIELD)->RBAUGMENTED;	\
	}										\
	if (exit && node->RBAUGMENTED == max)						\
		return true;								\
	node->RBAUGMENTED = max;							\
	return false;									\
}											\
RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, RBNAME ## _compute_max)

/* ---------------------------------------------------------------- colours */

#define RB_RED		0
#define RB_BLACK	1

#define __rb_color(pc)		((pc) & 1)
#define rb_color(rb)		__rb_color((rb)->__rb_parent_color)
#define rb_is_red(rb)		(rb_color(rb) == RB_RED)
#define rb_is_black(rb)		(rb_color(rb) == RB_BLACK)

#endif
