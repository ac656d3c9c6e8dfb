/*
 * mm/gfp.h - "get free pages" flags: how hard an allocation may try.
 *
 * The bits and their combinations are Linux's (include/linux/gfp_types.h).
 * The one that matters most is __GFP_DIRECT_RECLAIM: it is in GFP_KERNEL
 * and means "you may sleep, reclaim memory and even call the OOM killer
 * to satisfy me".  GFP_ATOMIC and GFP_NOWAIT lack it: they never wait, and
 * GFP_ATOMIC (with __GFP_HIGH) may dig into the reserve below the min
 * watermark.  __GFP_NORETRY, __GFP_RETRY_MAYFAIL and __GFP_NOFAIL choose
 * between failing early, retrying while reclaim helps, and never failing.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

#include "lib/compiler.h"

typedef unsigned int gfp_t;

#define ___GFP_DMA		0x01u
#define ___GFP_HIGHMEM		0x02u
#define ___GFP_DMA32		0x04u
#define ___GFP_MOVABLE		0x08u
#define ___GFP_RECLAIMABLE	0x10u
#define ___GFP_HIGH		0x20u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_ZERO		0x100u
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define ___GFP_WRITE		0x1000u
#define ___GFP_NOWARN		0x2000u
#define ___GFP_RETRY_MAYFAIL	0x4000u
#define ___GFP_NOFAIL		0x8000u
#define ___GFP_NORETRY		0x10000u
#define ___GFP_MEMALLOC		0x20000u
#define ___GFP_COMP		0x40000u
#define ___GFP_NOMEMALLOC	0x80000u
#define ___GFP_HARDWALL		0x100000u
#define ___GFP_THISNODE		0x200000u
#define ___GFP_ACCOUNT		0x400000u

/* Which zone */
#define __GFP_DMA		((gfp_t)___GFP_DMA)
#define __GFP_HIGHMEM		((gfp_t)___GFP_HIGHMEM)	/* no highmem on x86-64: ignored */
#define __GFP_DMA32		((gfp_t)___GFP_DMA32)
#define __GFP_MOVABLE		((gfp_t)___GFP_MOVABLE)
#define __GFP_RECLAIMABLE	((gfp_t)___GFP_RECLAIMABLE)
#define GFP_ZONEMASK		(__GFP_DMA | __GFP_HIGHMEM | __GFP_DMA32 | __GFP_MOVABLE)

/* Reserves and placement */
#define __GFP_HIGH		((gfp_t)___GFP_HIGH)	/* may use part of the reserve */
#define __GFP_MEMALLOC		((gfp_t)___GFP_MEMALLOC)
#define __GFP_NOMEMALLOC	((gfp_t)___GFP_NOMEMALLOC)
#define __GFP_THISNODE		((gfp_t)___GFP_THISNODE)	/* no fallback to other nodes */
#define __GFP_HARDWALL		((gfp_t)___GFP_HARDWALL)
#define __GFP_ACCOUNT		((gfp_t)___GFP_ACCOUNT)
#define __GFP_WRITE		((gfp_t)___GFP_WRITE)

/* Reclaim: what the allocator may do when memory is short */
#define __GFP_IO		((gfp_t)___GFP_IO)
#define __GFP_FS		((gfp_t)___GFP_FS)
#define __GFP_DIRECT_RECLAIM	((gfp_t)___GFP_DIRECT_RECLAIM)	/* may sleep and reclaim */
#define __GFP_KSWAPD_RECLAIM	((gfp_t)___GFP_KSWAPD_RECLAIM)	/* may wake background reclaim */
#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define __GFP_RETRY_MAYFAIL	((gfp_t)___GFP_RETRY_MAYFAIL)	/* retry while reclaim helps; no OOM */
#define __GFP_NOFAIL		((gfp_t)___GFP_NOFAIL)		/* never return NULL */
#define __GFP_NORETRY		((gfp_t)___GFP_NORETRY)		/* one light try; no OOM */

/* Other modifiers */
#define __GFP_NOWARN		((gfp_t)___GFP_NOWARN)	/* no failure report */
#define __GFP_COMP		((gfp_t)___GFP_COMP)
#define __GFP_ZERO		((gfp_t)___GFP_ZERO)	/* return zeroed memory */

/* The usual combinations */
#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)	/* quiet, as since Linux 6.18 */
#define GFP_NOIO		(__GFP_RECLAIM)
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_USER		(__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA			__GFP_DMA
#define GFP_DMA32		__GFP_DMA32

#define NUMA_NO_NODE		(-1)

static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return !!(gfp & __GFP_DIRECT_RECLAIM);
}

/*
 * Scopes (Linux's include/linux/sched/mm.h): code that must not recurse
 * into the filesystem or into I/O (it holds what reclaim would wait for)
 * marks the stretch once, instead of passing GFP_NOFS/GFP_NOIO down every
 * call chain, page tables included:
 *
 *	flags = memalloc_nofs_save();
 *	... every allocation here loses __GFP_FS ...
 *	memalloc_nofs_restore(flags);
 *
 * Linux keeps the marks in current->flags; this kernel has no tasks, and
 * code runs on one CPU from start to end, so they are per CPU.  Scopes
 * nest: restore gives back what its save found.  current_gfp_context()
 * applies them; the page allocator does so in its slow path only (the
 * fast path never reclaims), vmalloc for its page tables.  One bit per
 * scope.
 *
 * The third is Linux's PF_MEMALLOC, set by memalloc_noreclaim_save():
 * reclaim, the shrinkers it calls and the OOM killer run under it.  An
 * allocation made there may go below the watermarks (ALLOC_NO_WATERMARKS:
 * reclaim needs memory to free memory) and never reclaims nor calls the
 * OOM killer: reclaim inside reclaim would wait for the locks its own CPU
 * holds, or for the OOM lock held by a CPU waiting for those.  If the
 * reserves are gone too, it fails (__GFP_NOFAIL: waits for memory).
 */
#define PF_MEMALLOC_NOFS	0x1u	/* no __GFP_FS */
#define PF_MEMALLOC_NOIO	0x2u	/* no __GFP_IO, hence no __GFP_FS either */
#define PF_MEMALLOC		0x4u	/* in reclaim: reserves, no reclaim, no OOM killer */
#define PF_KSWAPD		0x8u	/* this CPU runs a kswapd (mm/kswapd.c): current_is_kswapd() */

unsigned int memalloc_flags_save(unsigned int flags);
void memalloc_flags_restore(unsigned int flags);
unsigned int current_memalloc_flags(void);
gfp_t current_gfp_context(gfp_t gfp);

/** memalloc_nofs_save - no __GFP_FS for this CPU's allocations until restored; Return: for it */
static inline unsigned int memalloc_nofs_save(void)
{
	return memalloc_flags_save(PF_MEMALLOC_NOFS);
}

/** memalloc_nofs_restore - end the scope that memalloc_nofs_save() returned @flags for */
static inline void memalloc_nofs_restore(unsigned int flags)
{
	memalloc_flags_restore(flags);
}

/** memalloc_noio_save - no __GFP_IO (nor __GFP_FS) until restored; Return: for the restore */
static inline unsigned int memalloc_noio_save(void)
{
	return memalloc_flags_save(PF_MEMALLOC_NOIO);
}

/** memalloc_noio_restore - end the scope that memalloc_noio_save() returned @flags for */
static inline void memalloc_noio_restore(unsigned int flags)
{
	memalloc_flags_restore(flags);
}

/** memalloc_noreclaim_save - PF_MEMALLOC for this CPU until restored; Return: for the restore */
static inline unsigned int memalloc_noreclaim_save(void)
{
	return memalloc_flags_save(PF_MEMALLOC);
}

/** memalloc_noreclaim_restore - end the scope memalloc_noreclaim_save() returned @flags for */
static inline void memalloc_noreclaim_restore(unsigned int flags)
{
	memalloc_flags_restore(flags);
}

/*
 * The migratetype an allocation asks for: __GFP_MOVABLE is 1, MOVABLE, and
 * __GFP_RECLAIMABLE 2, RECLAIMABLE (Linux's values, and so its
 * gfp_migratetype()); neither is UNMOVABLE, and both, which makes no sense,
 * too.
 */
#define GFP_MOVABLE_MASK	(__GFP_RECLAIMABLE | __GFP_MOVABLE)
#define GFP_MOVABLE_SHIFT	3

static inline int gfp_migratetype(gfp_t gfp)
{
	unsigned int mt = (gfp & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT;

	return mt == 3 ? 0 : (int)mt;
}

#endif
