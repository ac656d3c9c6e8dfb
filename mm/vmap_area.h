/*
 * mm/vmap_area.h - the vmap-area allocator: ranges of a virtual address space.
 *
 * vmalloc needs, for every allocation, a range of addresses in the vmalloc
 * space (VMALLOC_START..VMALLOC_END) that nobody else uses.  This is the
 * part of Linux's mm/vmalloc.c that chooses the ranges, on its own: it
 * knows nothing of page tables, pages or memory allocators.  It deals in
 * struct vmap_area, a range [va_start, va_end), and keeps each one in a
 * tree sorted by address:
 *
 *   the free tree   the ranges nobody uses; never two that touch (they are
 *                   merged); each node also knows the largest free range in
 *                   its subtree (subtree_max_size), so the lowest range that
 *                   fits a request is found in O(log n);
 *   the busy tree   the areas given out, so that an address finds its area
 *                   in O(log n);
 *   others          any other set of areas (vmalloc's lazily freed ones).
 *
 * A tree is a struct rb_list: the rbtree, and the same areas on a list in
 * address order (so that a range's neighbours are one step away).
 *
 * The allocator never allocates memory.  Its caller owns every struct
 * vmap_area, and passes a list of spare nodes (linked by ->list) to the two
 * calls that may need one or give one back: __alloc_vmap_area() takes a
 * spare to cut a free range in two, and puts back the node of a free range
 * it uses up whole; merge_or_add_vmap_area_augment() puts back the nodes of
 * ranges merged into a neighbour.  Nor does it lock: the caller serialises
 * each tree.  Misuse (a range that overlaps one already in the tree, an
 * empty range, a bad request) is reported in one line and changes nothing.
 *
 * How mm/vmalloc.c builds on it (Linux's shape):
 *
 *   boot      rb_list_init() the trees; one node [VMALLOC_START, VMALLOC_END)
 *             into the empty free tree with merge_or_add_vmap_area_augment().
 *   allocate  va = kmem_cache_alloc(); if the spare list is empty, allocate
 *             a node for it too (before taking the lock);
 *             lock free tree:
 *               addr = __alloc_vmap_area(&free, size + PAGE_SIZE, align,
 *                                        vstart, vend, &spare);
 *             (size + PAGE_SIZE: the area includes its guard page)
 *             unlock; free the spares beyond one; addr == vend: no room:
 *             purge the lazy areas and retry, or fail;
 *             va->va_start = addr, va->va_end = addr + size + PAGE_SIZE;
 *             lock busy tree: insert_vmap_area(va, &busy).
 *   look up   va = __find_vmap_area(addr, &busy): the area holding addr;
 *             va->va_start == addr for the area starting at addr (vfree),
 *             addr >= va->va_end - PAGE_SIZE for its guard page (a fault).
 *   free      lock busy tree: find it as above (not there, or not at its
 *             start: a misuse to report), unlink_va(va, &busy); then
 *             insert_vmap_area(va, &lazy) until the lazy purge, which
 *             flushes the TLB once for all of them and, for each,
 *             unlink_va(va, &lazy) and merge_or_add_vmap_area_augment(va,
 *             &free, &spare); then frees the spares beyond one.
 *
 * Addresses and sizes are plain numbers here (a page or a byte is the
 * caller's business): host tests and fuzzers run the same code.
 * docs/vmalloc.md, "The area tree", has the pictures.
 */
#ifndef MM_VMAP_AREA_H
#define MM_VMAP_AREA_H

#include "lib/list.h"
#include "lib/rbtree.h"

struct vm_struct;

struct vmap_area {
	unsigned long va_start;
	unsigned long va_end;			/* the first address after it */
	struct rb_node rb_node;			/* in its tree, by address */
	struct list_head list;			/* on its tree's list, or a spare list */
	union {
		unsigned long subtree_max_size;	/* free tree: largest range in the subtree */
		struct vm_struct *vm;		/* busy: vmalloc's description of it */
	};
};

/* A tree of areas, and the same areas on a list in address order. */
struct rb_list {
	struct rb_root root;
	struct list_head head;
};

/* An empty tree, at boot or before a test. */
static inline void rb_list_init(struct rb_list *tree)
{
	tree->root = RB_ROOT;
	INIT_LIST_HEAD(&tree->head);
}

/* The area's length in bytes (with its guard page, for vmalloc's). */
static inline unsigned long va_size(const struct vmap_area *va)
{
	return va->va_end - va->va_start;
}

/* The calls (kernel-doc in mm/vmap_area.c); none sleeps, none locks. */
unsigned long __alloc_vmap_area(struct rb_list *free, unsigned long size, unsigned long align,
				unsigned long vstart, unsigned long vend, struct list_head *spare);
struct vmap_area *merge_or_add_vmap_area_augment(struct vmap_area *va, struct rb_list *free,
						  struct list_head *spare);
int insert_vmap_area(struct vmap_area *va, struct rb_list *tree);
void unlink_va(struct vmap_area *va, struct rb_list *tree);
struct vmap_area *__find_vmap_area(unsigned long addr, struct rb_list *tree);
const char *vmap_area_tree_check(struct rb_list *tree, bool free, unsigned long *count);

#endif
