/*
 * mm/balloon.h - a memory balloon: pages taken from the page allocator and
 * held, movable, as Linux's balloon drivers hold pages a hypervisor took
 * back (Linux's include/linux/balloon_compaction.h).  Its pages are the
 * movable pages compaction moves (mm/compaction.c).
 */
#ifndef MM_BALLOON_H
#define MM_BALLOON_H

#include "mm/page_alloc.h"

/* The balloon's pages: __GFP_MOVABLE, and they give up at once (Linux's balloon_page_alloc()) */
#define BALLOON_GFP	(GFP_USER | __GFP_MOVABLE | __GFP_NOMEMALLOC | __GFP_NORETRY | \
			 __GFP_NOWARN)

struct balloon_stats {
	unsigned long pages;		/* held, isolated ones included */
	unsigned long isolated;		/* taken by compaction, not back yet */
	unsigned long migrated;		/* moved by compaction, ever */
	unsigned long bad_pattern;	/* pages found changed (reported), ever */
};

unsigned long balloon_inflate(unsigned long nr);
unsigned long balloon_deflate(unsigned long nr);
unsigned long balloon_deflate_alternate(void);
void balloon_get_stats(struct balloon_stats *stats);
unsigned long balloon_check(void);
bool balloon_page_pattern_ok(struct page *page);
void balloon_set_migrate_error(int err);

#endif
