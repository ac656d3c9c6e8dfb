/*
 * mm/migrate.c - moving the contents of movable pages to other pages.
 *
 * A page is movable when its owner said so (__SetPageMovable()) and gave
 * the three callbacks of struct movable_operations: Linux's interface for
 * pages that are not on an LRU list (balloon pages, zsmalloc's), the only
 * kind this kernel has.  Migration goes in three steps, as in Linux:
 *
 *   isolate   isolate_movable_page(): the owner agrees and takes the page
 *             off its lists; the page is marked PG_isolated and joins the
 *             caller's list (page->lru is the owner's no longer);
 *   migrate   migrate_pages(): for each page a target comes from the
 *             caller's callback, the contents are copied, the owner is
 *             told (migrate_page) and the old page is freed;
 *   put back  putback_movable_pages(): what could not move goes back to
 *             its owner (putback_page).
 *
 * Linux copies an LRU folio itself but leaves a movable_operations page's
 * contents to the owner's migrate_page; here mm/ copies every page first,
 * so that an owner only has to take the new page (and a test can check
 * the copy).  Linux pins the page with a reference before asking the
 * owner; pages have no reference count here, so the owner checks, under
 * its own lock, that the page is still its own (mm/balloon.c shows how).
 */
#include "mm/migrate.h"
#include "mm/internal.h"
#include "mm/mmdebug.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Passes over the pages an owner found busy (-EAGAIN), as Linux's NR_MAX_MIGRATE_PAGES_RETRY */
#define MIGRATE_RETRY_PASSES	10

/**
 * __SetPageMovable - mark @page movable, owned by @mops
 * @page: an allocated order-0 page (not compound) its owner holds
 * @mops: the owner's callbacks, kept in page->private as Linux keeps them in page->mapping
 *
 * Context: any; the owner's lock held if compaction may be looking.
 */
void __SetPageMovable(struct page *page, const struct movable_operations *mops)
{
	VM_BUG_ON_PAGE(!page_test(page, PG_allocated) || allocated_order(page) ||
		       PageCompound(page), page);
	WRITE_ONCE(page->private, (unsigned long)mops);
	__atomic_fetch_or(&page->flags, 1UL << PG_movable, __ATOMIC_RELEASE);
}

/**
 * __ClearPageMovable - @page is not movable any more (its owner is done with it)
 * @page: a page __SetPageMovable() marked
 *
 * An owner calls it before it frees the page (freeing clears it too).
 * Context: any; the owner's lock held if compaction may be looking.
 */
void __ClearPageMovable(struct page *page)
{
	__atomic_fetch_and(&page->flags, ~(1UL << PG_movable), __ATOMIC_RELEASE);
	WRITE_ONCE(page->private, 0);
}

/**
 * isolate_movable_page - take a movable page from its owner for migration
 * @page: any page; only an allocated movable one not isolated yet is taken
 * @mode: how hard the caller will try (passed to the owner)
 *
 * The page's flags are read without a lock: the owner's isolate_page has
 * the last word, under its own lock.  On success the page is PG_isolated
 * and its lru is the caller's, to put it on a migration list.
 * Context: interrupts on, no lock of mm/ held (the owner takes its own).
 * Return: true if the page is isolated.
 */
bool isolate_movable_page(struct page *page, enum migrate_mode mode)
{
	unsigned long flags = READ_ONCE(page->flags);
	const struct movable_operations *mops;

	if ((flags & (1UL << PG_allocated | 1UL << PG_movable | 1UL << PG_isolated |
		      PAGE_ORDER_MASK << PAGE_ORDER_SHIFT)) !=
	    (1UL << PG_allocated | 1UL << PG_movable))
		return false;
	mops = page_movable_ops(page);
	if (!mops || !mops->isolate_page(page, mode))
		return false;
	__atomic_fetch_or(&page->flags, 1UL << PG_isolated, __ATOMIC_RELEASE);
	return true;
}

/**
 * putback_movable_pages - give the pages of @l back to their owners
 * @l: isolated movable pages (linked by lru), as migrate_pages() left them
 *
 * Context: interrupts on, no lock of mm/ held.
 */
void putback_movable_pages(struct list_head *l)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, l, lru) {
		const struct movable_operations *mops = page_movable_ops(page);

		list_del(&page->lru);
		VM_BUG_ON_PAGE(!mops || !PageIsolated(page), page);
		/* not isolated before the owner has it: it may free it at once */
		__atomic_fetch_and(&page->flags, ~(1UL << PG_isolated), __ATOMIC_RELEASE);
		mops->putback_page(page);
	}
}

/* A migrated page's old frame: no longer the owner's, freed. */
static void free_migrated_page(struct page *src)
{
	__atomic_fetch_and(&src->flags, ~(1UL << PG_isolated | 1UL << PG_movable),
			   __ATOMIC_RELEASE);
	WRITE_ONCE(src->private, 0);
	__free_page(src);
}

/*
 * Move one isolated page, off any list: a target from @get_new_page, the
 * contents copied, the owner told.  Returns MIGRATEPAGE_SUCCESS (@src is
 * freed), -ENOMEM (no target) or the owner's error (@src kept, isolated).
 */
static int migrate_one_page(struct page *src, new_page_t *get_new_page,
			    free_page_t *put_new_page, unsigned long private,
			    enum migrate_mode mode)
{
	/* LAB compaction */
	const struct movable_operations *mops = page_movable_ops(src);
	struct page *dst = get_new_page(src, private);
	int rc;

	if (!dst)
		return -ENOMEM;
	memcpy(page_address(dst), page_address(src), PAGE_SIZE);
	rc = mops->migrate_page(dst, src, mode);
	if (rc != MIGRATEPAGE_SUCCESS) {
		if (put_new_page)
			put_new_page(dst, private);
		else
			__free_page(dst);
		return rc;
	}
	free_migrated_page(src);
	return MIGRATEPAGE_SUCCESS;
	/* END LAB */
}

/*
 * One pass over @from: each page moved, or put on @busy (the owner said
 * -EAGAIN and another pass may follow) or on @failed.  Stops at the first
 * page without a target (-ENOMEM), which stays on @from with the rest.
 */
static int migrate_pages_pass(struct list_head *from, struct list_head *busy,
			      struct list_head *failed, new_page_t *get_new_page,
			      free_page_t *put_new_page, unsigned long private,
			      enum migrate_mode mode, bool last, unsigned int *nr_succeeded,
			      unsigned int *nr_failed)
{
	/* LAB compaction */
	struct page *page, *next;

	list_for_each_entry_safe(page, next, from, lru) {
		int rc;

		list_del(&page->lru);
		rc = migrate_one_page(page, get_new_page, put_new_page, private, mode);
		if (rc == MIGRATEPAGE_SUCCESS) {
			(*nr_succeeded)++;
		} else if (rc == -ENOMEM) {
			list_add(&page->lru, from);
			return -ENOMEM;
		} else if (rc == -EAGAIN && !last) {
			list_add_tail(&page->lru, busy);
		} else {
			list_add_tail(&page->lru, failed);
			(*nr_failed)++;
		}
	}
	return 0;
	/* END LAB */
}

/**
 * migrate_pages - move isolated movable pages to pages the caller provides
 * @from: the pages (isolated: isolate_movable_page()), linked by lru
 * @get_new_page: gives a target for a page (an allocated order-0 page), or NULL
 * @put_new_page: takes back a target that was not used (NULL: __free_page())
 * @private: for the two callbacks
 * @mode: MIGRATE_ASYNC tries each page once; the sync modes retry the pages
 *	an owner found busy (-EAGAIN), up to 10 passes, as Linux
 * @nr_succeeded: set to the number of pages moved
 *
 * Each moved page's old frame is freed.  Counted in pgmigrate_success and
 * pgmigrate_fail.  As in Linux, the pages that did not move are left on
 * @from, still isolated: the caller gives them back with
 * putback_movable_pages() when this does not return 0.
 * Context: interrupts on, no lock of mm/ held; may take long (copies pages).
 * Return: 0 if every page moved, -ENOMEM if @get_new_page ran out (the
 * rest not tried), else the number of pages that did not move.
 */
int migrate_pages(struct list_head *from, new_page_t *get_new_page, free_page_t *put_new_page,
		  unsigned long private, enum migrate_mode mode, unsigned int *nr_succeeded)
{
	int passes = mode == MIGRATE_ASYNC ? 1 : MIGRATE_RETRY_PASSES, rc = 0;
	unsigned int nr_failed = 0;
	LIST_HEAD(busy);
	LIST_HEAD(failed);

	*nr_succeeded = 0;
	for (int pass = 0; pass < passes && !list_empty(from); pass++) {
		rc = migrate_pages_pass(from, &busy, &failed, get_new_page, put_new_page, private,
					mode, pass == passes - 1, nr_succeeded, &nr_failed);
		list_splice_init(&busy, from);	/* round again */
		if (rc)
			break;
	}
	if (rc == -ENOMEM) {
		struct page *page;

		list_for_each_entry(page, from, lru)
			nr_failed++;
	}
	list_splice_init(&failed, from);
	count_vm_events(PGMIGRATE_SUCCESS, *nr_succeeded);
	if (nr_failed)
		count_vm_events(PGMIGRATE_FAIL, nr_failed);
	return rc ? rc : (int)nr_failed;
}
