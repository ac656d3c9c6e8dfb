/*
 * mm/compaction.h - making free blocks large again by moving movable pages
 * (Linux's include/linux/compaction.h).  docs/page_alloc.md, "Compaction".
 */
#ifndef MM_COMPACTION_H
#define MM_COMPACTION_H

#include "mm/mmzone.h"

/* What a compaction run found or did, worst to best (Linux's order: max() of two is the better) */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE,	/* the zone's failure is lack of memory, not fragmentation */
	COMPACT_SKIPPED,		/* too few free pages to migrate into: reclaim first */
	COMPACT_DEFERRED,		/* failed recently at this order: not tried (defer_compaction()) */
	COMPACT_NO_SUITABLE_PAGE,	/* not used here; Linux's */
	COMPACT_CONTINUE,		/* go on (never returned by a finished run) */
	COMPACT_COMPLETE,		/* the scanners met over the whole zone: no block made */
	COMPACT_PARTIAL_SKIPPED,	/* they met over part of it (Linux's cached scanners: not here) */
	COMPACT_CONTENDED,		/* stopped early: free pages ran out under the watermark */
	COMPACT_SUCCESS,		/* a free block of the order asked for exists */
};

/* How hard to try, hardest first (Linux's enum compact_priority) */
enum compact_priority {
	COMPACT_PRIO_SYNC_FULL,
	MIN_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_FULL,
	COMPACT_PRIO_SYNC_LIGHT,
	MIN_COMPACT_COSTLY_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	DEF_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	COMPACT_PRIO_ASYNC,
	INIT_COMPACT_PRIORITY = COMPACT_PRIO_ASYNC
};

#define COMPACT_MAX_DEFER_SHIFT	6	/* skip at most 63 attempts after failures */
#define COMPACT_CLUSTER_MAX	32	/* pages isolated for one migrate_pages() (SWAP_CLUSTER_MAX) */

extern int sysctl_extfrag_threshold;	/* 500: below, a failure is lack of memory */

/* What one zone's run did, for compact_memory and the tests */
struct compact_stats {
	unsigned long migrate_scanned, free_scanned;
	unsigned long isolated_migrate, isolated_free;
	unsigned long migrated, migrate_failed;
};

struct zoneref;

bool compaction_suitable(struct zone *zone, int order, int highest_zoneidx);
void defer_compaction(struct zone *zone, int order);
bool compaction_deferred(struct zone *zone, int order);
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success);
bool compaction_restarting(struct zone *zone, int order);
enum compact_result compact_zone_order(struct zone *zone, int order, gfp_t gfp,
				       enum compact_priority prio, unsigned int alloc_flags,
				       int highest_zoneidx, struct compact_stats *stats);
enum compact_result try_to_compact_pages(gfp_t gfp, unsigned int order, unsigned int alloc_flags,
					 const struct zoneref *zonerefs, int highest_zoneidx,
					 enum compact_priority prio);
enum compact_result compact_zone_fully(struct zone *zone, struct compact_stats *stats);
const char *compact_result_name(enum compact_result result);
int fragmentation_index(struct zone *zone, unsigned int order);	/* in mm/vmstat.c, as Linux's */

/* mm/kcompactd.c */
extern unsigned int sysctl_compaction_proactiveness;	/* 0..100, Linux's default 20 */
void wakeup_kcompactd(pg_data_t *pgdat, int order, int highest_zoneidx);
void kcompactd_flush(void);
unsigned int fragmentation_score_node(pg_data_t *pgdat);

/* Linux's names for what a result means to the allocator's retry loop */
static inline bool compaction_failed(enum compact_result result)
{
	return result == COMPACT_COMPLETE;
}

static inline bool compaction_withdrawn(enum compact_result result)
{
	return result == COMPACT_SKIPPED || result == COMPACT_DEFERRED ||
	       result == COMPACT_CONTENDED || result == COMPACT_PARTIAL_SKIPPED;
}

static inline bool compaction_made_progress(enum compact_result result)
{
	return result == COMPACT_SUCCESS;
}

#endif
