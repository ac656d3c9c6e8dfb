/*
 * mm/vmap_area.c - the vmap-area allocator: where a new area goes, and how
 * a freed one goes back (the interface and its use: mm/vmap_area.h).
 *
 * The free ranges are an augmented rbtree (lib/rbtree_augmented.h), sorted
 * by address, in which every node knows the largest free range of its
 * subtree: subtree_max_size.  With it, find_vmap_lowest_match() walks one
 * path from the root to the lowest range that is long enough, skipping every
 * subtree whose largest range is too small.
 *
 * Allocating cuts the new area out of that range.  va_clip() has four cases
 * (classify_va_fit_type()), as Linux:
 *
 *	free range       |<------------------- va ------------------->|
 *	FL_FIT_TYPE      |<================ new area =================>|  va goes away
 *	LE_FIT_TYPE      |<== new area ==>|<------------ va ---------->|  va starts later
 *	RE_FIT_TYPE      |<------------ va ---------->|<== new area ==>|  va ends sooner
 *	NE_FIT_TYPE      |<--- lva --->|<== new area ==>|<---- va ---->|  a spare node
 *	                                                                  for the left part
 *
 * Freeing puts the range back and merges it with the free ranges that
 * touch it, so that the free tree never holds two neighbours:
 *
 *	before           |<-- prev -->|<== freed ==>|<-- next -->|
 *	after            |<------------------ prev ------------------>|
 *	                 (the freed range's node and next's are spare now)
 *
 * Every change of a free range's size is propagated up the tree; every
 * insertion and erasure goes through the augmented rbtree calls, which keep
 * subtree_max_size right through their rotations.
 */
#include "mm/vmap_area.h"
#include "lib/rbtree_augmented.h"
#include "lib/errno.h"
#include "kernel/printk.h"

RB_DECLARE_CALLBACKS_MAX(static, free_vmap_area_rb_augment_cb, struct vmap_area, rb_node,
			 unsigned long, subtree_max_size, va_size);

static inline unsigned long get_subtree_max_size(const struct rb_node *node)
{
	return node ? rb_entry(node, struct vmap_area, rb_node)->subtree_max_size : 0;
}

/* @va's size changed: bring subtree_max_size up to date from it to the root. */
static void augment_tree_propagate_from(struct vmap_area *va)
{
	free_vmap_area_rb_augment_cb_propagate(&va->rb_node, NULL);
}

/* ---------------------------------------------------------------- linking */

/*
 * Where @va goes in @root: the empty child pointer, with its parent in
 * *@parent.  NULL, reported, if @va is empty or overlaps an area there.
 */
static struct rb_node **find_va_links(const struct vmap_area *va, struct rb_root *root,
				      struct rb_node **parent)
{
	struct rb_node **link = &root->rb_node;

	*parent = NULL;
	if (va->va_start >= va->va_end) {
		pr_err("vmalloc bug: empty area 0x%lx-0x%lx\n", va->va_start, va->va_end);
		return NULL;
	}
	while (*link) {
		struct vmap_area *tmp = rb_entry(*link, struct vmap_area, rb_node);

		*parent = *link;
		if (va->va_end <= tmp->va_start) {
			link = &(*link)->rb_left;
		} else if (va->va_start >= tmp->va_end) {
			link = &(*link)->rb_right;
		} else {
			pr_err("vmalloc bug: 0x%lx-0x%lx overlaps with 0x%lx-0x%lx\n",
			       va->va_start, va->va_end, tmp->va_start, tmp->va_end);
			return NULL;
		}
	}
	return link;
}

/* The list entry that will follow an area linked at @link under @parent. */
static struct list_head *get_va_next_sibling(struct rb_list *tree, struct rb_node *parent,
					     struct rb_node **link)
{
	struct vmap_area *va;

	if (!parent)
		return &tree->head;	/* an empty tree */
	va = rb_entry(parent, struct vmap_area, rb_node);
	/* a left child sorts just before its parent, a right child just after */
	return link == &parent->rb_left ? &va->list : va->list.next;
}

static void link_va(struct vmap_area *va, struct rb_list *tree, struct rb_node *parent,
		    struct rb_node **link, struct list_head *next, bool augment)
{
	rb_link_node(&va->rb_node, parent, link);
	if (augment) {
		/* a new leaf: the values above it can only grow to its size */
		va->subtree_max_size = va_size(va);
		free_vmap_area_rb_augment_cb_propagate(parent, NULL);
		rb_insert_augmented(&va->rb_node, &tree->root, &free_vmap_area_rb_augment_cb);
	} else {
		rb_insert_color(&va->rb_node, &tree->root);
	}
	list_add_tail(&va->list, next);
}

static void __unlink_va(struct vmap_area *va, struct rb_list *tree, bool augment)
{
	if (augment)
		rb_erase_augmented(&va->rb_node, &tree->root, &free_vmap_area_rb_augment_cb);
	else
		rb_erase(&va->rb_node, &tree->root);
	RB_CLEAR_NODE(&va->rb_node);
	list_del_init(&va->list);
}

/**
 * insert_vmap_area - put an area in a tree that is not the free tree
 * @va: the area, in no tree
 * @tree: the busy tree, or another plain one (vmalloc's lazy areas)
 *
 * Context: any; the caller serialises @tree.
 * Return: 0, or -EINVAL if @va is empty or overlaps an area of @tree
 * (reported; nothing is changed).
 */
int insert_vmap_area(struct vmap_area *va, struct rb_list *tree)
{
	struct rb_node **link, *parent;

	link = find_va_links(va, &tree->root, &parent);
	if (!link)
		return -EINVAL;
	link_va(va, tree, parent, link, get_va_next_sibling(tree, parent, link), false);
	return 0;
}

/**
 * unlink_va - take an area out of a tree that is not the free tree
 * @va: the area
 * @tree: the tree it is in
 *
 * Afterwards @va is in no tree (RB_EMPTY_NODE()); unlinking it again is
 * reported and does nothing.
 * Context: any; the caller serialises @tree.
 */
void unlink_va(struct vmap_area *va, struct rb_list *tree)
{
	if (RB_EMPTY_NODE(&va->rb_node)) {
		pr_err("vmalloc bug: unlink of 0x%lx-0x%lx, which is in no tree\n",
		       va->va_start, va->va_end);
		return;
	}
	__unlink_va(va, tree, false);
}

/**
 * __find_vmap_area - the area of a tree that holds an address
 * @addr: the address
 * @tree: the tree
 *
 * The area starting at @addr is the result if its va_start is @addr.
 * Context: any; the caller serialises @tree.
 * Return: the area with va_start <= @addr < va_end, or NULL.
 */
struct vmap_area *__find_vmap_area(unsigned long addr, struct rb_list *tree)
{
	struct rb_node *node = tree->root.rb_node;

	while (node) {
		struct vmap_area *va = rb_entry(node, struct vmap_area, rb_node);

		if (addr < va->va_start)
			node = node->rb_left;
		else if (addr >= va->va_end)
			node = node->rb_right;
		else
			return va;
	}
	return NULL;
}

/* ---------------------------------------------------------------- the free tree */

/* Put @va, which touches no free range, in the free tree. */
static void insert_vmap_area_augment(struct vmap_area *va, struct rb_list *free)
{
	struct rb_node **link, *parent;

	link = find_va_links(va, &free->root, &parent);
	if (link)
		link_va(va, free, parent, link, get_va_next_sibling(free, parent, link), true);
}

/**
 * merge_or_add_vmap_area_augment - give a range back to the free tree
 * @va: a node holding the range, in no tree
 * @free: the free tree
 * @spare: where the nodes that are no longer needed go
 *
 * The range is merged with the free ranges just below and just above it,
 * if they touch it; the nodes merged away (@va's, the upper neighbour's)
 * are added to @spare for the caller to free or keep.
 * Context: any; the caller serialises the free tree.
 * Return: the node that now holds the range, or NULL if @va is empty or
 * overlaps a free range (a double free: reported, nothing changed, @va
 * added to @spare).
 */
struct vmap_area *merge_or_add_vmap_area_augment(struct vmap_area *va, struct rb_list *free,
						  struct list_head *spare)
{
	struct rb_node **link, *parent;
	struct list_head *next;
	struct vmap_area *sibling;
	bool merged = false;

	link = find_va_links(va, &free->root, &parent);
	if (!link) {
		list_add(&va->list, spare);
		return NULL;
	}
	next = get_va_next_sibling(free, parent, link);

	/* |<-- va -->|<-- next -->|: next grows down over va */
	if (next != &free->head) {
		sibling = list_entry(next, struct vmap_area, list);
		if (sibling->va_start == va->va_end) {
			sibling->va_start = va->va_start;
			list_add(&va->list, spare);
			va = sibling;
			merged = true;
		}
	}
	/* |<-- prev -->|<-- va -->|: prev grows up over va, which may be next by now */
	if (next->prev != &free->head) {
		sibling = list_entry(next->prev, struct vmap_area, list);
		if (sibling->va_end == va->va_start) {
			if (merged)
				__unlink_va(va, free, true);
			sibling->va_end = va->va_end;
			list_add(&va->list, spare);
			va = sibling;
			merged = true;
		}
	}
	if (merged)
		augment_tree_propagate_from(va);
	else
		link_va(va, free, parent, link, next, true);
	return va;
}

/*
 * The lowest free range that is at least @size long and ends above @from,
 * or NULL.  The walk enters no subtree whose largest range is too small,
 * and none that lies wholly at or below @from: it follows the path towards
 * @from, and leaves it once, down to the answer.  O(log n).
 */
static struct vmap_area *lowest_range_above(struct rb_root *root, unsigned long size,
					    unsigned long from)
{
	struct rb_node *node = root->rb_node;

	while (node) {
		struct vmap_area *va = rb_entry(node, struct vmap_area, rb_node);
		struct rb_node *child;

		/* lower ranges first: the left subtree, if it can hold one above from */
		if (va->va_start > from && get_subtree_max_size(node->rb_left) >= size) {
			node = node->rb_left;
			continue;
		}
		if (va->va_end > from && va_size(va) >= size)
			return va;
		if (get_subtree_max_size(node->rb_right) >= size) {
			node = node->rb_right;
			continue;
		}
		/*
		 * Nothing here after all: the long ranges of this subtree lie below
		 * from.  Back up to the ancestor whose left subtree this is.  All
		 * below it is done, so from moves up to its start: that keeps the
		 * walk out of its left subtree, and loses nothing.
		 */
		do {
			child = node;
			node = rb_parent(node);
		} while (node && child == node->rb_right);
		if (node)
			from = rb_entry(node, struct vmap_area, rb_node)->va_start;
	}
	return NULL;
}

/*
 * The lowest free range that holds @size bytes at an address aligned to
 * @align, at or above @vstart, ending at or below @vend; that address in
 * *@addr.
 *
 * The candidates, lowest first, are the ranges at least @size long; one may
 * still be too short once its start is rounded up.  (Linux looks for @size
 * + @align - 1 bytes instead when @align is more than a page: a single
 * O(log n) walk, but it may pass over a lower range that would have fitted.
 * This one finds the lowest, at one walk per range passed over.)
 */
static struct vmap_area *find_vmap_lowest_match(struct rb_root *root, unsigned long size,
						unsigned long align, unsigned long vstart,
						unsigned long vend, unsigned long *addr)
{
	unsigned long from = vstart;
	struct vmap_area *va;

	while ((va = lowest_range_above(root, size, from))) {
		unsigned long low = max(va->va_start, vstart);
		unsigned long start = ALIGN(low, align);

		/* every later range starts higher: if this start is too high, so is theirs */
		if (start < low || start > vend - size)
			return NULL;
		if (start <= va->va_end - size) {
			*addr = start;
			return va;
		}
		from = va->va_end;
	}
	return NULL;
}

enum fit_type {
	FL_FIT_TYPE,	/* full fit: the area is the whole free range */
	LE_FIT_TYPE,	/* left edge fit */
	RE_FIT_TYPE,	/* right edge fit */
	NE_FIT_TYPE,	/* no edge fit: in the middle */
};

static enum fit_type classify_va_fit_type(const struct vmap_area *va, unsigned long start,
					  unsigned long size)
{
	bool left = start == va->va_start, right = start + size == va->va_end;

	if (left && right)
		return FL_FIT_TYPE;
	if (left)
		return LE_FIT_TYPE;
	return right ? RE_FIT_TYPE : NE_FIT_TYPE;
}

/* Take [@start, @start + @size) out of the free range @va, which holds it. */
static int va_clip(struct rb_list *free, struct vmap_area *va, unsigned long start,
		   unsigned long size, struct list_head *spare)
{
	/* LAB vmalloc */
	struct vmap_area *lva;

	switch (classify_va_fit_type(va, start, size)) {
	case FL_FIT_TYPE:
		__unlink_va(va, free, true);
		list_add(&va->list, spare);
		return 0;
	case LE_FIT_TYPE:
		va->va_start += size;
		break;
	case RE_FIT_TYPE:
		va->va_end = start;
		break;
	case NE_FIT_TYPE:
		if (list_empty(spare)) {
			pr_err("vmalloc bug: no spare node to split free range 0x%lx-0x%lx\n",
			       va->va_start, va->va_end);
			return -ENOMEM;
		}
		lva = list_first_entry(spare, struct vmap_area, list);
		list_del(&lva->list);
		lva->va_start = va->va_start;
		lva->va_end = start;
		va->va_start = start + size;
		/* the tree must be right before lva goes in: it rotates */
		augment_tree_propagate_from(va);
		insert_vmap_area_augment(lva, free);
		return 0;
	}
	augment_tree_propagate_from(va);
	return 0;
	/* END LAB */
}

/**
 * __alloc_vmap_area - take the lowest free range that fits out of the free tree
 * @free: the free tree
 * @size: bytes, more than 0
 * @align: the start's alignment, a power of 2
 * @vstart: the lowest address the area may start at
 * @vend: the area must end at or below this
 * @spare: spare nodes: one is taken if a free range must be cut in two,
 *	and the node of a free range used up whole is added
 *
 * Finds the lowest-addressed free range that holds [addr, addr + @size)
 * with addr aligned and within [@vstart, @vend), and takes that area out of
 * it.  O(log n) for n free ranges; with @align larger than the granule of
 * the sizes and starts, each lower range that is long enough but too short
 * once aligned costs one more O(log n) walk.
 * Context: any; the caller serialises the free tree.
 * Return: addr, or @vend if there is no room, if @spare was empty when a
 * node was needed, or if the request is bad (the last two reported).
 */
unsigned long __alloc_vmap_area(struct rb_list *free, unsigned long size, unsigned long align,
				unsigned long vstart, unsigned long vend, struct list_head *spare)
{
	struct vmap_area *va;
	unsigned long addr;

	if (!size || !align || (align & (align - 1)) || vstart >= vend) {
		pr_err("vmalloc bug: bad request: size 0x%lx align 0x%lx in 0x%lx-0x%lx\n",
		       size, align, vstart, vend);
		return vend;
	}
	if (size > vend - vstart)
		return vend;
	va = find_vmap_lowest_match(&free->root, size, align, vstart, vend, &addr);
	if (!va || va_clip(free, va, addr, size, spare))
		return vend;
	return addr;
}

/* ---------------------------------------------------------------- checking */

struct tree_walk {
	const struct vmap_area *prev;	/* the area before, in address order */
	const struct list_head *next;	/* where the list should be */
	const struct list_head *head;
	unsigned long count;
	bool free;
	const char *why;
};

static int walk_fails(struct tree_walk *w, const char *why)
{
	w->why = why;
	return -1;
}

/* Black height of @node's subtree, or -1 with w->why set. */
static int check_subtree(struct tree_walk *w, const struct rb_node *node,
			 const struct rb_node *parent, int depth)
{
	const struct vmap_area *va;
	int left, right;

	if (!node)
		return 1;
	va = rb_entry(node, struct vmap_area, rb_node);
	if (depth > 128 || rb_parent(node) != parent)
		return walk_fails(w, "a node's parent pointer is wrong (or the tree loops)");
	if (rb_is_red(node) && parent && rb_is_red(parent))
		return walk_fails(w, "a red node has a red parent");
	left = check_subtree(w, node->rb_left, node, depth + 1);
	if (left < 0)
		return -1;
	if (va->va_start >= va->va_end)
		return walk_fails(w, "an area is empty or inverted");
	if (w->prev && (w->free ? w->prev->va_end >= va->va_start :
				  w->prev->va_end > va->va_start))
		return walk_fails(w, w->free ? "two free ranges touch or overlap (not merged)" :
					  "two areas overlap, or are out of order");
	if (w->free && va->subtree_max_size != max(va_size(va), max(get_subtree_max_size(
			node->rb_left), get_subtree_max_size(node->rb_right))))
		return walk_fails(w, "subtree_max_size is stale");
	if (w->next != &va->list)
		return walk_fails(w, "the list is out of step with the tree");
	w->next = w->next->next;
	w->prev = va;
	w->count++;
	right = check_subtree(w, node->rb_right, node, depth + 1);
	if (right < 0)
		return -1;
	if (left != right)
		return walk_fails(w, "black heights differ");
	return left + rb_is_black(node);
}

/**
 * vmap_area_tree_check - check one tree of areas, and its list
 * @tree: the tree (and list) to check
 * @free: it is a free tree: its ranges never touch, and subtree_max_size holds
 * @count: set to the number of areas in it
 *
 * The red-black rules (parents, no red child of a red node, equal black
 * heights), address order without overlaps, the augmented value of a free
 * tree, and the list holding the same areas in the same order.
 * tests/host/vmap_check.c checks the same on the host, against a model.
 * Context: the tree's lock held; does not sleep.
 * Return: NULL if the tree is sound, else what is wrong (one phrase).
 */
const char *vmap_area_tree_check(struct rb_list *tree, bool free, unsigned long *count)
{
	struct tree_walk w = { .next = tree->head.next, .head = &tree->head, .free = free };

	if (tree->root.rb_node && rb_is_red(tree->root.rb_node))
		w.why = "the root is red";
	else if (check_subtree(&w, tree->root.rb_node, NULL, 0) >= 0 && w.next != w.head)
		w.why = "the list is longer than the tree";
	*count = w.count;
	return w.why;
}
