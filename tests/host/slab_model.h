/*
 * tests/host/slab_model.h - a reference model of the slab allocator, for
 * the randomized test (test_slab.c) and the fuzzer (fuzz_slab.c).
 *
 * struct smodel holds every live object with the size asked for and a
 * tag, fills each with a pattern derived from the tag and checks it on
 * every free, krealloc and sweep (two owners of one object show up
 * here); checks each
 * allocation (size class, alignment, zeroing, node, zone, ctor state); a
 * few caches of its own are created and destroyed as it goes; misuses are
 * made where they cannot corrupt anything, and each must be reported
 * exactly once.  At the end everything is freed and shrunk, and the page
 * allocator's free lists must be exactly as at the start.
 */
#ifndef TESTS_HOST_SLAB_MODEL_H
#define TESTS_HOST_SLAB_MODEL_H

#include "slab_check.h"

#define SMODEL_CACHES	5

enum smodel_alloc {
	SM_KMALLOC, SM_KZALLOC, SM_KMALLOC_NODE, SM_KCALLOC, SM_KMEMDUP, SM_DMA,
	SM_CACHE, SM_CACHE_NODE, SM_NR_ALLOC
};

enum smodel_misuse {
	SM_INTERIOR, SM_WRONG_CACHE, SM_NOT_RAM, SM_PAGE, SM_DOUBLE_FREE, SM_KSIZE_BAD,
	SM_REDZONE, SM_WRITE_AFTER_FREE, SM_NR_MISUSE
};

struct sobj {
	void *p;
	size_t size;			/* as asked */
	int cache;			/* the model's cache it came from, or -1: kmalloc */
	u64 tag;
};

struct smodel {
	struct sobj *live;
	unsigned long nr_live, cap;
	struct kmem_cache *caches[SMODEL_CACHES];	/* NULL: not created (or destroyed) */
	unsigned long cache_live[SMODEL_CACHES];
	u64 next_tag;
	struct buddy_snapshot start;
	/* statistics */
	unsigned long allocs, fails, frees, reallocs, misuses, shrinks, cache_ops;
	unsigned long local, remote;	/* slab objects for any node; of those, another node's */
};

void smodel_init(struct smodel *m);
/* An allocation of kind @kind (enum smodel_alloc, modulo) of about @size bytes. */
void smodel_alloc(struct smodel *m, unsigned int kind, size_t size, unsigned int flags);
/* Free live object @idx (modulo), by kfree, kmem_cache_free or kfree_sensitive (@how). */
void smodel_free(struct smodel *m, unsigned long idx, unsigned int how);
/* krealloc() live kmalloc object @idx to @size bytes. */
void smodel_realloc(struct smodel *m, unsigned long idx, size_t size, unsigned int flags);
/* Create model cache @slot (modulo) if it does not exist, else destroy it (leaks reported). */
void smodel_cache_op(struct smodel *m, unsigned int slot);
/* kmem_cache_shrink() of one cache (@which modulo the caches), or of all. */
void smodel_shrink(struct smodel *m, unsigned int which);
/* validate_slab_cache() of one cache: no error may be found. */
void smodel_validate(struct smodel *m, unsigned int which);
/* A misuse of kind @kind (enum smodel_misuse, modulo) chosen with @arg: reported once. */
void smodel_misuse(struct smodel *m, unsigned int kind, unsigned long arg);
/* Every check: consistency, every live object allocated and intact, counts. */
unsigned long smodel_check(struct smodel *m);
/* Free everything, destroy the model's caches, shrink: the free lists must be as at the start. */
void smodel_finish(struct smodel *m);

#endif
