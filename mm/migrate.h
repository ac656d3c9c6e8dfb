/*
 * mm/migrate.h - pages that can move, and moving them (Linux's
 * include/linux/migrate.h, the part for non-LRU movable pages).
 *
 * An owner whose pages may live anywhere (a balloon: mm/balloon.c) marks
 * each order-0 page it holds with __SetPageMovable(page, &its_ops).
 * Compaction (mm/compaction.c) then may, with the owner's consent
 * (isolate_page), take the page off the owner's list, copy it to another
 * page and tell the owner (migrate_page), or give it back (putback_page).
 */
#ifndef MM_MIGRATE_H
#define MM_MIGRATE_H

#include "mm/page_alloc.h"
#include "lib/list.h"

/* How hard migration may try (Linux's enum migrate_mode). */
enum migrate_mode {
	MIGRATE_ASYNC,		/* never wait: one pass, -EAGAIN is a failure */
	MIGRATE_SYNC_LIGHT,	/* may retry a page an owner found busy */
	MIGRATE_SYNC,		/* as SYNC_LIGHT here: nothing blocks for I/O */
};

#define MIGRATEPAGE_SUCCESS	0

/**
 * struct movable_operations - what an owner of movable pages provides
 * @isolate_page: may @page be taken for migration?  The owner checks, under
 *	its own lock, that the page is still its own and not in use, takes it
 *	off its lists and returns true; false leaves everything as it was.
 * @migrate_page: @src's contents were copied to @dst: the owner takes @dst
 *	in @src's place (__SetPageMovable(dst, ...), its lists) and returns
 *	MIGRATEPAGE_SUCCESS, after which @src is freed; or returns an error
 *	(-EAGAIN: try again later) and keeps @src, still isolated.
 * @putback_page: migration gave up on @page (isolated): take it back.
 *
 * The three are called without any lock of mm/ held, interrupts on.
 */
struct movable_operations {
	bool (*isolate_page)(struct page *page, enum migrate_mode mode);
	int (*migrate_page)(struct page *dst, struct page *src, enum migrate_mode mode);
	void (*putback_page)(struct page *page);
};

void __SetPageMovable(struct page *page, const struct movable_operations *mops);
void __ClearPageMovable(struct page *page);

/* The owner's operations of a movable page (NULL for any other page). */
static inline const struct movable_operations *page_movable_ops(const struct page *page)
{
	if (!PageMovable(page))
		return NULL;
	return (const struct movable_operations *)READ_ONCE(page->private);
}

/* Where migrate_pages() takes a target for @src, and gives back one it did not use. */
typedef struct page *new_page_t(struct page *src, unsigned long private);
typedef void free_page_t(struct page *dst, unsigned long private);

bool isolate_movable_page(struct page *page, enum migrate_mode mode);
void putback_movable_pages(struct list_head *l);
int migrate_pages(struct list_head *from, new_page_t *get_new_page, free_page_t *put_new_page,
		  unsigned long private, enum migrate_mode mode, unsigned int *nr_succeeded);

#endif
