/*
 * tests/host/vmap_check.h - the vmap-area allocator (mm/vmap_area.c) run
 * against a reference model, for test_vmap_area and fuzz_vmap_area.
 *
 * struct vmodel holds one allocator, used the way vmalloc.c uses it: a
 * free tree, a busy tree, a lazy tree (freed areas waiting for a purge)
 * and a list of spare nodes, topped up to one before each allocation and
 * trimmed back to one after each call, as vmalloc.c's per-CPU spare will
 * be.  Every node is malloc()ed and free()d on its own, so ASan sees any
 * node the allocator touches after giving it back, and LeakSanitizer any
 * it loses.
 *
 * Beside it, the model, written the plain way: the free space as a sorted
 * array of ranges, and the lowest fit found by trying each range in turn,
 * in 128-bit arithmetic (no wrap-around to get wrong).  Every call is
 * checked against it:
 *   - an allocation returns exactly the model's lowest fit (or failure),
 *     aligned, within [vstart, vend) (and so overlaps nothing);
 *   - a lookup finds the area holding the address;
 *   - a free merges back (the free ranges stay equal to the model's);
 *   - every misuse (double free, overlapping insert, empty area, unlink
 *     of a node in no tree, bad request, split without a spare node) is
 *     reported in one line and changes nothing;
 *   - every node is accounted for: in a tree, spare, or freed.
 * vmodel_check() checks the three trees whole: every red-black invariant
 * (rbtree_check.c), address order, subtree_max_size in every free node,
 * each list equal to its tree in order, no two free ranges touching, the
 * free ranges equal to the model's, every live area found by lookup.
 *
 * Failures are printed (unless vmap_check_quiet) and counted in
 * vmap_check_failures.
 */
#ifndef TESTS_HOST_VMAP_CHECK_H
#define TESTS_HOST_VMAP_CHECK_H

#include "mm/vmap_area.h"

extern unsigned long vmap_check_failures;
extern bool vmap_check_quiet;

struct vrange {
	unsigned long start, end;
};

struct varea {
	struct vmap_area *va;
	unsigned long start, end;
	bool lazy;			/* freed, in the lazy tree until a purge */
};

struct vmodel {
	unsigned long start, end;	/* the space */
	struct rb_list free, busy, lazy;
	struct list_head spare;
	unsigned long nr_spare;

	struct vrange *ranges;		/* the model's free space, sorted */
	unsigned long nr_ranges, cap_ranges;
	struct varea *live;		/* busy and lazy areas, in no order */
	unsigned long nr_live, nr_lazy, cap_live;
	long nodes;			/* malloc()ed and not yet free()d */

	unsigned long allocs, fails, frees, purges, misuses;
	unsigned long most_live, most_ranges;	/* the largest the trees were */
};

/* A fresh allocator over [@start, @end), all free. */
void vmodel_init(struct vmodel *m, unsigned long start, unsigned long end);

/* An allocation, as vmalloc's; with @no_spare, the spare list is empty for it. */
void vmodel_alloc(struct vmodel *m, unsigned long size, unsigned long align,
		  unsigned long vstart, unsigned long vend, bool no_spare);

/*
 * Free live area number @idx (mod the count), found by an address @offset
 * (mod its size) into it; to the lazy tree if @lazy, else straight back.
 */
void vmodel_free(struct vmodel *m, unsigned long idx, unsigned long offset, bool lazy);

/* Every lazy area back to the free tree. */
void vmodel_purge(struct vmodel *m);

/* Misuse number @kind (mod the number of kinds), aimed by @arg. */
void vmodel_misuse(struct vmodel *m, unsigned int kind, unsigned long arg);

/* Check everything; returns the number of problems. */
unsigned long vmodel_check(struct vmodel *m);

/* Free every area, purge, check that one free range is the whole space, free every node. */
void vmodel_finish(struct vmodel *m);

#endif
