/*
 * lib/rbtree.h - red-black trees, with Linux's API (include/linux/rbtree.h).
 *
 * A red-black tree is a binary search tree that keeps itself balanced: no
 * path from the root down to a missing child is more than twice as long as
 * any other, so a tree of n nodes is at most 2*log2(n+1) deep and finding,
 * inserting and erasing cost O(log n).  lib/rbtree.c explains how.
 *
 * The tree is intrusive, like struct list_head: the caller puts a struct
 * rb_node inside its own object, and rb_entry() gets back from the node to
 * the object.  So the tree never allocates, and never compares anything
 * either: the caller walks down from the root itself, with its own key,
 * to find where a new node goes, links it there, and asks the tree to
 * rebalance:
 *
 *	struct thing { unsigned long key; struct rb_node rb; };
 *
 *	void thing_insert(struct rb_root *root, struct thing *new)
 *	{
 *		struct rb_node **link = &root->rb_node, *parent = NULL;
 *
 *		while (*link) {
 *			struct thing *t = rb_entry(*link, struct thing, rb);
 *
 *			parent = *link;
 *			link = new->key < t->key ? &parent->rb_left : &parent->rb_right;
 *		}
 *		rb_link_node(&new->rb, parent, link);
 *		rb_insert_color(&new->rb, root);
 *	}
 *
 * Lookups are the same walk without the insertion.  rb_erase() takes a
 * node out; rb_first()/rb_next() walk the nodes in order.
 *
 * Each node's parent pointer and colour share one word: nodes are aligned
 * to at least 4 bytes, so the low bits of a node's address are always zero
 * and bit 0 can hold the colour (lib/rbtree_augmented.h has the helpers).
 */
#ifndef LIB_RBTREE_H
#define LIB_RBTREE_H

#include "lib/compiler.h"

struct rb_node {
	unsigned long __rb_parent_color;	/* parent's address | colour (bit 0) */
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __aligned(sizeof(long));

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT			((struct rb_root) { NULL })

#define rb_parent(r)		((struct rb_node *)((r)->__rb_parent_color & ~3UL))

#define rb_entry(ptr, type, member)	container_of(ptr, type, member)
/* rb_entry(), or NULL for a NULL node (a missing child) */
#define rb_entry_safe(ptr, type, member) ({				\
	__typeof__(ptr) ____ptr = (ptr);				\
	____ptr ? rb_entry(____ptr, type, member) : NULL;		\
})

#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)

/*
 * A node marked as in no tree points to itself.  rb_erase() does not mark
 * the node it takes out: the user does, if it needs to know (as Linux).
 */
#define RB_EMPTY_NODE(node)	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node)	((node)->__rb_parent_color = (unsigned long)(node))

/**
 * rb_link_node - put a new node where a search ended
 * @node: the new node
 * @parent: the last node the search passed (NULL for an empty tree)
 * @rb_link: the empty child pointer of @parent (or the root's) it ended on
 *
 * The node goes in red, with no children.  rb_insert_color() must follow
 * at once to restore the tree's balance.
 * Context: any; the caller serialises access to the tree.
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

void rb_replace_node(struct rb_node *victim, struct rb_node *new, struct rb_root *root);

/*
 * A tree that also remembers its leftmost node, so that rb_first_cached()
 * is O(1): for a tree used as a priority queue (the lowest key first).
 */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT_CACHED		((struct rb_root_cached) { { NULL }, NULL })

#define rb_first_cached(root)	((root)->rb_leftmost)

/**
 * rb_insert_color_cached - rb_insert_color() for a tree with a cached leftmost node
 * @node: the node just linked with rb_link_node()
 * @root: the tree
 * @leftmost: true if the search for @node's place only ever went left
 *
 * Context: any; the caller serialises access to the tree.
 */
static inline void rb_insert_color_cached(struct rb_node *node, struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/**
 * rb_erase_cached - rb_erase() for a tree with a cached leftmost node
 * @node: the node to take out
 * @root: the tree
 *
 * Context: any; the caller serialises access to the tree.
 * Return: the new leftmost node if @node was the leftmost one, else NULL.
 */
static inline struct rb_node *rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
	return leftmost;
}

#endif
