/*
 * mm/fault_inject.h - making allocations fail on purpose, to test the
 * code that handles the failure (Linux's fault-injection framework:
 * Documentation/fault-injection/fault-injection.rst).
 *
 * Three sets of knobs, each a struct fault_attr with Linux's fields:
 * fail_page_alloc (the page allocator), failslab (the slab allocator) and
 * fail_vmalloc (this kernel's: vmalloc() and vmap() at their entry).  They
 * are set from the command line (fail_page_alloc=, failslab=,
 * fail_vmalloc=, in Linux's format with this kernel's filters after it)
 * or by a test for one case (tests/kunit/fault_inject.h).  And, as Linux's
 * per-task fail-nth, the n-th allocation on one CPU can be made to fail:
 * the sweep (tests/kernel/fault_sweep_test.c) fails every allocation of an
 * entry point in turn.  docs/testing.md ("Fault injection") has it all.
 */
#ifndef MM_FAULT_INJECT_H
#define MM_FAULT_INJECT_H

#include "mm/gfp.h"
#include "mm/vmstat.h"

struct kmem_cache;

#define FAULT_CACHE_NAME_MAX	32

/*
 * One set of knobs.  The first six are Linux's, with its meanings; the
 * filters after them are Linux's where it has them (ignore-gfp-wait,
 * min-order, require-start/require-end as caller=), this kernel's else.
 */
struct fault_attr {
	const char *name;		/* "failslab": in reports and on the command line */
	unsigned long probability;	/* percent of the calls that pass the filters */
	unsigned long interval;		/* only every interval-th of those (1: each) */
	long times;			/* failures left to inject; -1: no limit */
	long space;			/* size let through before the first failure */
	unsigned long verbose;		/* 0: silent; 1: two lines; 2: and a backtrace */
	unsigned long count;		/* calls that passed the filters, for interval */
	bool ignore_gfp_wait;		/* spare allocations that may sleep and reclaim */
	unsigned int min_order;		/* fail_page_alloc: only orders >= this */
	char cache[FAULT_CACHE_NAME_MAX];	/* failslab: only this cache ("": any) */
	unsigned long require_start;	/* only with code in [start, end) on the stack */
	unsigned long require_end;	/* (0, 0: no such filter) */
	unsigned int kind;		/* FAIL_PAGE, FAIL_SLAB or FAIL_VMALLOC */
	enum vm_event_item event;	/* counted once per failure injected */
};

/* The kinds of allocation, for fail_nth_set() and kunit_fail_nth() */
#define FAIL_PAGE	0x1u	/* the page allocator (large kmallocs and slabs' pages too) */
#define FAIL_SLAB	0x2u	/* kmem_cache_alloc() and kmalloc() up to 8 KiB */
#define FAIL_VMALLOC	0x4u	/* vmalloc() and its family, vmap() */
#define FAIL_ALL	(FAIL_PAGE | FAIL_SLAB | FAIL_VMALLOC)

extern struct fault_attr fail_page_alloc, failslab, fail_vmalloc;

int setup_fault_attr(struct fault_attr *attr, const char *str);
void fault_inject_update(void);
void fail_nth_set(unsigned int kinds, unsigned int nth);
unsigned int fail_nth_get(void);

/* The hooks, called by the allocators only while injection is armed (see each) */
bool should_fail_alloc_page(gfp_t gfp_mask, unsigned int order);
bool should_failslab(struct kmem_cache *s, gfp_t gfpflags);
bool should_fail_vmalloc(unsigned long size, gfp_t gfp_mask);
bool failslab_marks(const char *cache_name);

extern bool fail_vmalloc_armed;

#endif
