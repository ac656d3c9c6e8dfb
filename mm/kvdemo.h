/*
 * mm/kvdemo.h - the seeds' story, run live: why kmalloc() then vmalloc()
 * is the wrong fallback, and what kvmalloc() does instead.
 *
 * The monitor's `kvdemo` prints it; tests/kernel/kvdemo_test.c checks its
 * numbers.  Both use these steps:
 *
 *	kvdemo_setup(&d)            the hard state: memory fragmented (no free
 *	                            block of order >= 3), an OOM victim holding
 *	                            memory, a cache a shrinker can reclaim
 *	kvdemo_setup_movable(&d)    the same, but the pages that fragment it
 *	                            are movable: compaction can undo it
 *	kvdemo_run(&d, policy, size, &r)   one kvmalloc() from that state
 *	kvdemo_run_background(&r)   then kswapd and kcompactd, run now
 *	kvdemo_restore(&d)          the same state again for the next run
 *	kvdemo_unregister(&d)       victim and cache out of reach, memory held
 *	kvdemo_teardown(&d)         everything back
 *
 * How each step works is in mm/kvdemo.c; the story in docs/kvmalloc.md.
 */
#ifndef MM_KVDEMO_H
#define MM_KVDEMO_H

#include "mm/kvmalloc.h"
#include "mm/oom.h"
#include "mm/shrinker.h"

struct kvdemo {
	bool movable;			/* the kept pages are movable (kvdemo_setup_movable()) */
	struct list_head kept;		/* one page of every 8-page block that was free */
	unsigned long nr_kept;		/* isolated ones included */
	unsigned long nr_migrated;	/* kept pages compaction moved, ever */
	struct oom_victim victim;	/* holds order-3 blocks; killing it frees them */
	struct list_head victim_blocks;
	unsigned long victim_blocks_wanted, nr_victim_blocks;
	bool victim_registered;
	struct shrinker shrinker;	/* a cache of single pages it can give back */
	struct list_head cache;
	unsigned long cache_wanted, nr_cache, cache_reclaimed;
	bool shrinker_registered;
};

/*
 * The hard state at its least, on a small machine: the victim's 8 order-3
 * blocks, and the cache's 256 pages taken from the 7 pages in 8 that
 * fragmenting leaves free.  With fewer free pages kvdemo_setup() fails.
 */
#define KVDEMO_MIN_VICTIM_BLOCKS	8
#define KVDEMO_MIN_CACHE		256
#define KVDEMO_LEAST_PAGES	(KVDEMO_MIN_VICTIM_BLOCKS * 8 + KVDEMO_MIN_CACHE * 8 / 7)

/*
 * The movable state also needs movable pageblocks with free pages, for
 * compaction to move the kept pages into: this many free 2 MiB blocks
 * (pageblocks), taken as movable before the fragmenting and then
 * fragmented like the rest.  Without them kvdemo_setup_movable() fails.
 */
#define KVDEMO_TARGET_PAGEBLOCKS	2

enum kvdemo_source { KVDEMO_SLAB, KVDEMO_VMALLOC, KVDEMO_FAILED };

/* What one kvmalloc() from the hard state did. */
struct kvdemo_result {
	enum kvdemo_source source;	/* where the memory came from */
	unsigned long reclaim_passes;	/* direct reclaim passes (allocstall) */
	unsigned long scanned;		/* objects the shrinkers looked at (slabs_scanned) */
	unsigned long reclaimed;	/* pages the shrinkers gave back */
	unsigned long oom_kills;
	unsigned long cycles;		/* rdtsc: instructions under make bench's -icount */
	bool victim_alive;
	/* direct compaction during the run */
	unsigned long compact_stall, compact_fail, compact_success;
	unsigned long migrated;		/* pages migrated (pgmigrate_success) */
	/* kswapd and kcompactd, which the run woke, run after it (kvdemo_run_background()) */
	unsigned long kswapd_runs;	/* pageoutrun */
	unsigned long kswapd_reclaimed;	/* pgsteal_kswapd */
	unsigned long kcompactd_runs;	/* compact_daemon_wake */
	unsigned long kcompactd_migrated;	/* pgmigrate_success while they ran */
	bool order3_free_after;		/* a block of order >= 3 free once they ran */
};

int kvdemo_setup(struct kvdemo *d);
int kvdemo_setup_movable(struct kvdemo *d);
bool kvdemo_fragmented(void);
void kvdemo_run(struct kvdemo *d, enum kvmalloc_policy policy, size_t size,
		struct kvdemo_result *r);
void kvdemo_run_background(struct kvdemo_result *r);
int kvdemo_restore(struct kvdemo *d);
void kvdemo_teardown(struct kvdemo *d);
void kvdemo_unregister(struct kvdemo *d);
size_t kvdemo_first_vmalloc_size(size_t *largest);
size_t kvdemo_order3_size(void);

#endif
