/*
 * lib/rbtree.c - red-black trees: insertion, erasure, walking in order.
 *
 * A red-black tree is a binary search tree (everything in a node's left
 * subtree sorts before the node, everything in its right subtree after)
 * whose nodes are coloured red or black so that
 *
 *   1. the root is black;
 *   2. a red node has no red child;
 *   3. every path from a node down to a missing child (NULL, which counts as
 *      black) passes the same number of black nodes, the node's "black height".
 *
 * Rule 3 makes the black nodes a perfectly balanced skeleton, and rule 2
 * lets red nodes at most double the length of a path.  So no path is more
 * than twice as long as another, and n nodes are at most 2*log2(n+1) deep.
 *
 * The only change of shape is the rotation.  "Rotate left at x":
 *
 *	      x                     y
 *	     / \                   / \
 *	    a   y       --->      x   c
 *	       / \               / \
 *	      b   c             a   b
 *
 * Read in order, both trees are  a x b y c : a rotation never breaks the
 * sort order.  The subtrees a, b and c are moved whole, so the black heights
 * inside them do not change; only the colours of x and y need thought, and
 * the fix-ups below choose them.
 *
 * Inserting: the new node goes in as a red leaf.  Black heights are
 * unchanged (rule 3 holds), but its parent may be red (rule 2 broken).  Then,
 * going up from the new node:
 *   - the parent is black: done;
 *   - the parent is red, and so is the uncle (the parent's sibling): paint
 *     both black and the grandparent red.  Every path through the grandparent
 *     still has as many black nodes, but the grandparent may now have a red
 *     parent: repeat from the grandparent;
 *   - the parent is red, the uncle black: one rotation (two if the node is an
 *     "inner" grandchild) brings the parent up into the grandparent's place.
 *     It is painted black, the grandparent, now its child, red: done.
 * If the walk reaches the root, the root is painted black (rule 1).
 *
 * Erasing: a node with two children first trades places with its successor
 * (the leftmost node of its right subtree, which has no left child), so the
 * node that really leaves its place has at most one child.  Taking out a red
 * node, or a black one whose only child (red, by rule 3) then turns black,
 * changes no black height.  Taking out a black leaf leaves its parent one
 * black short on that side: erase_fixup() either borrows a red node from the
 * sibling's side (rotations and recolouring: done) or paints the sibling red,
 * making the parent's whole subtree one black short, and repeats one level up.
 *
 * Each fix-up makes at most three rotations; the rest is recolouring on a
 * path up.  So inserting and erasing are O(log n).
 *
 * Left and right are mirror images: the code names a child by its side
 * (LEFT or RIGHT) and writes each case once, for "this side" and "the other
 * side" (!side).
 *
 * Augmented trees (lib/rbtree_augmented.h) run the same code, which tells
 * their callbacks of every rotation and every node that moves.  A plain tree
 * passes callbacks that do nothing, and the compiler removes the calls.
 */
#include "lib/rbtree_augmented.h"

enum { LEFT, RIGHT };	/* a child's side; !side is the other one */

static inline struct rb_node *child(const struct rb_node *node, int side)
{
	return side == LEFT ? node->rb_left : node->rb_right;
}

static inline void set_child(struct rb_node *node, int side, struct rb_node *new)
{
	if (side == LEFT)
		node->rb_left = new;
	else
		node->rb_right = new;
}

/*
 * The side of @parent that @node hangs on.  @node may be NULL: the missing
 * child of a parent that has one child at most.
 */
static inline int side_of(const struct rb_node *node, const struct rb_node *parent)
{
	return parent->rb_left == node ? LEFT : RIGHT;
}

/* A missing child counts as black. */
static inline bool is_red(const struct rb_node *node)
{
	return node && rb_is_red(node);
}

static inline void rb_set_parent(struct rb_node *node, struct rb_node *parent)
{
	node->__rb_parent_color = rb_color(node) | (unsigned long)parent;
}

static inline void rb_set_parent_color(struct rb_node *node, struct rb_node *parent, int color)
{
	node->__rb_parent_color = (unsigned long)parent | color;
}

static inline void rb_set_color(struct rb_node *node, int color)
{
	node->__rb_parent_color = (node->__rb_parent_color & ~1UL) | color;
}

/* Put @new where @old hangs: under @parent, or at the root if @parent is NULL. */
static inline void change_child(struct rb_node *old, struct rb_node *new,
				struct rb_node *parent, struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

typedef void (*rotate_fn)(struct rb_node *old, struct rb_node *new);

/*
 * Rotate at @x: its child on side @up comes up into x's place, and x goes
 * down on the other side of it, taking over the child's inner subtree (b
 * in the picture above, which is up == RIGHT).  The colours are left as
 * they were.
 */
static __always_inline void rotate(struct rb_node *x, int up, struct rb_root *root,
				   rotate_fn augment_rotate)
{
	struct rb_node *y = child(x, up);
	struct rb_node *inner = child(y, !up);
	struct rb_node *parent = rb_parent(x);

	set_child(x, up, inner);
	if (inner)
		rb_set_parent(inner, x);
	set_child(y, !up, x);
	rb_set_parent(x, y);
	rb_set_parent(y, parent);
	change_child(x, y, parent, root);
	augment_rotate(x, y);
}

/* ---------------------------------------------------------------- inserting */

static __always_inline void insert_fixup(struct rb_node *node, struct rb_root *root,
					 rotate_fn augment_rotate)
{
	for (;;) {
		struct rb_node *parent = rb_parent(node), *gparent, *uncle;
		int side;

		if (!parent) {
			rb_set_parent_color(node, NULL, RB_BLACK);	/* rule 1 */
			return;
		}
		if (rb_is_black(parent))
			return;
		/* a red parent is not the root (rule 1), so there is a grandparent, black */
		gparent = rb_parent(parent);
		side = side_of(parent, gparent);
		uncle = child(gparent, !side);
		if (is_red(uncle)) {
			/* the grandparent's black moves down to both its children */
			rb_set_color(parent, RB_BLACK);
			rb_set_color(uncle, RB_BLACK);
			rb_set_color(gparent, RB_RED);
			node = gparent;
			continue;
		}
		if (node == child(parent, !side)) {
			/* an inner grandchild: rotate it up; its parent becomes its outer child */
			rotate(parent, !side, root, augment_rotate);
			parent = node;
		}
		/* the red parent takes the black grandparent's place, and they swap colours */
		rotate(gparent, side, root, augment_rotate);
		rb_set_color(parent, RB_BLACK);
		rb_set_color(gparent, RB_RED);
		return;
	}
}

/* ---------------------------------------------------------------- erasing */

/*
 * @child (maybe NULL) has taken, under @parent, the place of a node that
 * was black if @was_black.  Returns the parent of a place left one black
 * short, or NULL if the black heights are right.
 */
static inline struct rb_node *took_place(struct rb_node *child, struct rb_node *parent,
					 bool was_black)
{
	if (child) {
		/* a lone child is red (rule 3) under a black node: black now, in its place */
		rb_set_parent_color(child, parent, RB_BLACK);
		return NULL;
	}
	return was_black ? parent : NULL;
}

/*
 * Take @node out of the tree, keeping the order and the augmented values.
 * Returns the parent of the place left one black short (see erase_fixup()),
 * or NULL if every black height is still right.
 */
static __always_inline struct rb_node *erase_node(struct rb_node *node, struct rb_root *root,
						  const struct rb_augment_callbacks *augment)
{
	struct rb_node *left = node->rb_left, *right = node->rb_right;
	struct rb_node *parent = rb_parent(node);
	struct rb_node *succ, *succ_parent, *orphan, *short_parent;

	if (!left || !right) {
		struct rb_node *only = left ? left : right;

		change_child(node, only, parent, root);
		short_parent = took_place(only, parent, rb_is_black(node));
		augment->propagate(parent, NULL);
		return short_parent;
	}

	/* Two children: the successor leaves its place and takes node's. */
	succ = right;
	while (succ->rb_left)
		succ = succ->rb_left;
	orphan = succ->rb_right;	/* succ's only child, if any, takes succ's place */
	if (succ == right) {
		succ_parent = succ;	/* orphan stays where it is, under succ */
	} else {
		succ_parent = rb_parent(succ);
		succ_parent->rb_left = orphan;
		succ->rb_right = right;
		rb_set_parent(right, succ);
		/* values from orphan's new parent up to succ, now without succ */
		augment->propagate(succ_parent, succ);
	}
	augment->copy(node, succ);
	succ->rb_left = left;
	rb_set_parent(left, succ);
	change_child(node, succ, parent, root);
	short_parent = took_place(orphan, succ_parent, rb_is_black(succ));
	succ->__rb_parent_color = node->__rb_parent_color;	/* node's parent and colour */
	augment->propagate(succ, NULL);
	return short_parent;
}

/*
 * Every path into one side of @parent (whose child there is black, or
 * missing) has one black node too few.  Restore rule 3.
 */
static __always_inline void erase_fixup(struct rb_node *parent, struct rb_root *root,
					rotate_fn augment_rotate)
{
	struct rb_node *node = NULL, *sibling, *near, *far;
	int side;

	for (;;) {
		side = side_of(node, parent);
		/* the sibling's side has a black node more, so it is not empty */
		sibling = child(parent, !side);
		if (rb_is_red(sibling)) {
			/* rotate the red sibling up: node gets a red parent and a black sibling */
			rotate(parent, !side, root, augment_rotate);
			rb_set_color(sibling, RB_BLACK);
			rb_set_color(parent, RB_RED);
			sibling = child(parent, !side);
		}
		near = child(sibling, side);
		far = child(sibling, !side);
		if (!is_red(near) && !is_red(far)) {
			/* the sibling's side gives up a black too: both sides are short now */
			rb_set_color(sibling, RB_RED);
			if (rb_is_red(parent)) {
				rb_set_color(parent, RB_BLACK);	/* a black more on both: done */
				return;
			}
			node = parent;
			parent = rb_parent(node);
			if (!parent)
				return;		/* the whole tree is one black shorter: fine */
			continue;
		}
		if (!is_red(far)) {
			/*
			 * Make the red child the far one: rotate near up into the
			 * sibling's place, the sibling (black) becomes its far child.
			 * The colours are set just below.
			 */
			rotate(sibling, side, root, augment_rotate);
			far = sibling;
			sibling = near;
		}
		/*
		 * The far child is red.  The sibling comes up into parent's place
		 * and colour; parent goes down on node's side, black: the missing
		 * black.  far turns black in place of the sibling on its side.
		 */
		rotate(parent, !side, root, augment_rotate);
		rb_set_color(sibling, rb_color(parent));
		rb_set_color(parent, RB_BLACK);
		rb_set_color(far, RB_BLACK);
		return;
	}
}

/* ---------------------------------------------------------------- the API */

static inline void dummy_propagate(struct rb_node *node, struct rb_node *stop)
{
	(void)node;
	(void)stop;
}

static inline void dummy_copy(struct rb_node *old, struct rb_node *new)
{
	(void)old;
	(void)new;
}

static inline void dummy_rotate(struct rb_node *old, struct rb_node *new)
{
	(void)old;
	(void)new;
}

static const struct rb_augment_callbacks dummy_callbacks = {
	.propagate = dummy_propagate,
	.copy = dummy_copy,
	.rotate = dummy_rotate,
};

/**
 * rb_insert_color - rebalance after linking a node with rb_link_node()
 * @node: the new node
 * @root: the tree
 *
 * Context: any; the caller serialises access to the tree.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	insert_fixup(node, root, dummy_rotate);
}

void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *augment)
{
	insert_fixup(node, root, augment->rotate);
}

/**
 * rb_erase - take a node out of its tree
 * @node: the node
 * @root: the tree
 *
 * @node's own fields are left as they were; RB_CLEAR_NODE() it to mark it
 * as in no tree.
 * Context: any; the caller serialises access to the tree.
 */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *short_parent = erase_node(node, root, &dummy_callbacks);

	if (short_parent)
		erase_fixup(short_parent, root, dummy_rotate);
}

void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			const struct rb_augment_callbacks *augment)
{
	struct rb_node *short_parent = erase_node(node, root, augment);

	if (short_parent)
		erase_fixup(short_parent, root, augment->rotate);
}

/**
 * rb_replace_node - put a new node in an old one's place
 * @victim: the node in the tree
 * @new: the node to take its place (and colour)
 * @root: the tree
 *
 * Nothing is compared or rebalanced: @new must sort where @victim did (and,
 * in an augmented tree, carry the same value).
 * Context: any; the caller serialises access to the tree.
 */
void rb_replace_node(struct rb_node *victim, struct rb_node *new, struct rb_root *root)
{
	struct rb_node *parent = rb_parent(victim);

	*new = *victim;
	if (victim->rb_left)
		rb_set_parent(victim->rb_left, new);
	if (victim->rb_right)
		rb_set_parent(victim->rb_right, new);
	change_child(victim, new, parent, root);
}

/* ---------------------------------------------------------------- walking in order */

/* The last node met going down from @node always to side @side. */
static struct rb_node *outermost(struct rb_node *node, int side)
{
	if (!node)
		return NULL;
	while (child(node, side))
		node = child(node, side);
	return node;
}

/* The node next to @node in order, on side @side (RIGHT: the next one up). */
static struct rb_node *neighbour(const struct rb_node *node, int side)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	/* with a subtree on that side: the nearest node of that subtree */
	if (child(node, side))
		return outermost(child(node, side), !side);
	/* else the first ancestor that we reach from its other side */
	while ((parent = rb_parent(node)) && node == child(parent, side))
		node = parent;
	return parent;
}

/**
 * rb_first - the first node in order
 * @root: the tree
 *
 * Context: any; the caller serialises access to the tree.
 * Return: the leftmost node, or NULL if the tree is empty.
 */
struct rb_node *rb_first(const struct rb_root *root)
{
	return outermost(root->rb_node, LEFT);
}

/**
 * rb_last - the last node in order
 * @root: the tree
 *
 * Context: any; the caller serialises access to the tree.
 * Return: the rightmost node, or NULL if the tree is empty.
 */
struct rb_node *rb_last(const struct rb_root *root)
{
	return outermost(root->rb_node, RIGHT);
}

/**
 * rb_next - the node after @node in order
 * @node: a node in a tree
 *
 * Context: any; the caller serialises access to the tree.
 * Return: the next node, or NULL after the last one (or if @node is marked
 * RB_EMPTY_NODE()).
 */
struct rb_node *rb_next(const struct rb_node *node)
{
	return neighbour(node, RIGHT);
}

/**
 * rb_prev - the node before @node in order
 * @node: a node in a tree
 *
 * Context: any; the caller serialises access to the tree.
 * Return: the previous node, or NULL before the first one (or if @node is
 * marked RB_EMPTY_NODE()).
 */
struct rb_node *rb_prev(const struct rb_node *node)
{
	return neighbour(node, LEFT);
}
