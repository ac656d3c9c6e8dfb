/*
 * mm/mmdebug.h - the allocators checking their own invariants (Linux's names).
 *
 * VM_BUG_ON(cond) states something that must hold inside mm/ whatever the
 * callers do: a block on a free list is aligned to its order, a page is
 * freed into its own zone, the zone lock is held where the free lists
 * change.  If it does not hold, mm/ itself is broken, so the check stops
 * the current work with an oops at the line that found it;
 * VM_BUG_ON_PAGE() first prints what the struct page says (dump_page()).
 * Misuse by callers (a double free, a bad order) is not checked here: it
 * is reported and survived (mm/page_debug.c).
 *
 * The checks are on in every kernel that runs tests and in the host build
 * (CONFIG_DEBUG_VM, kernel/config.h), and compiled out in the benchmark
 * kernel, as in a Linux distribution's kernel: they cost instructions on
 * the fast paths.  Compiled out, the condition is still type-checked.
 */
#ifndef MM_MMDEBUG_H
#define MM_MMDEBUG_H

#include "kernel/config.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

struct page;
void dump_page(const struct page *page, const char *reason);

#if CONFIG_DEBUG_VM
#define VM_BUG_ON(cond)		BUG_ON(cond)
#define VM_BUG_ON_PAGE(cond, page)					\
	do {								\
		if (unlikely(cond)) {					\
			dump_page(page, "VM_BUG_ON_PAGE(" #cond ")");	\
			BUG();						\
		}							\
	} while (0)
#else
#define VM_BUG_ON(cond)			((void)sizeof(!!(cond)))
#define VM_BUG_ON_PAGE(cond, page)	((void)sizeof(!!(cond) + sizeof(page)))
#endif

#endif
