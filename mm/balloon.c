/*
 * mm/balloon.c - a balloon of movable pages, the user of mm/migrate.h.
 *
 * A virtual machine's balloon driver takes pages from the guest's page
 * allocator when the host wants memory back, and holds them; Linux lets
 * compaction move them (mm/balloon_compaction.c there), since a page the
 * host does not look at can live in any frame.  This one is the same
 * without a host: balloon_inflate() takes __GFP_MOVABLE order-0 pages and
 * keeps them on a list, balloon_deflate() gives them back, and its
 * movable_operations let compaction take a page off the list (isolate),
 * take the copy in its place (migrate) or give it back (putback).
 *
 * So that a test can see a move lose nothing, each page holds a pattern
 * made from its serial number (word 0 says which, the others follow from
 * it).  The pattern is checked when a page is moved (in the copy) and when
 * it is given back; a page that differs is reported in one line
 * ("balloon: page ... pattern broken") and counted.
 *
 * One lock, the balloon's own, orders everything: the list, the counts
 * and whether a page is still the balloon's (mm/migrate.c says why the
 * owner must check that).  It is never held around an allocation.
 */
#include "mm/balloon.h"
#include "mm/migrate.h"
#include "mm/mmdebug.h"
#include "kernel/printk.h"
#include "lib/errno.h"

#define BALLOON_MAGIC	0xba11003bba11003bUL

static DEFINE_SPINLOCK(balloon_lock);
static LIST_HEAD(balloon_pages);	/* the pages not isolated, newest first */
static struct balloon_stats balloon;
static unsigned long balloon_next_serial;
static int balloon_migrate_error;	/* tests: what migrate_page returns (0: works) */

static const struct movable_operations balloon_mops;

/* Word @i of the pattern of the page with serial @serial */
static unsigned long pattern_word(unsigned long serial, unsigned int i)
{
	if (!i)
		return BALLOON_MAGIC ^ serial;
	return (serial + 1) * 0x9e3779b97f4a7c15UL ^ ((unsigned long)i << 32 | i);
}

static void fill_pattern(struct page *page, unsigned long serial)
{
	unsigned long *w = page_address(page);

	for (unsigned int i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		w[i] = pattern_word(serial, i);
}

/**
 * balloon_page_pattern_ok - does @page hold a balloon pattern, whole?
 * @page: a page the balloon holds (or a copy of one)
 *
 * Reports the first word that differs, in one line, and counts it.
 * Context: any.
 * Return: true if the page is intact.
 */
bool balloon_page_pattern_ok(struct page *page)
{
	const unsigned long *w = page_address(page);
	unsigned long serial = w[0] ^ BALLOON_MAGIC;

	for (unsigned int i = 0; i < PAGE_SIZE / sizeof(*w); i++) {
		if (serial < READ_ONCE(balloon_next_serial) && w[i] == pattern_word(serial, i))
			continue;
		pr_err("balloon: page at pfn %#lx: pattern broken at word %u (%#lx; serial %#lx)\n",
		       page_to_pfn(page), i, w[i], serial);
		__atomic_fetch_add(&balloon.bad_pattern, 1, __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

/*
 * Is @page the balloon's, on its list?  Under balloon_lock.  Off the list
 * (list_del() leaves lru.next NULL) it is not, even with PG_isolated clear:
 * between putback_movable_pages() clearing it and our putback_page.
 */
static bool balloon_owns(const struct page *page)
{
	return PageMovable(page) && !PageIsolated(page) &&
	       page_movable_ops(page) == &balloon_mops && page->lru.next;
}

/**
 * balloon_inflate - take @nr pages from the page allocator into the balloon
 * @nr: how many
 *
 * Each an order-0 BALLOON_GFP page, filled with its pattern and marked
 * movable.  Stops at the first allocation that fails.
 * Context: may sleep (reclaims, as BALLOON_GFP allows: one round at most).
 * Return: the pages taken (fewer than @nr if memory ran out).
 */
unsigned long balloon_inflate(unsigned long nr)
{
	unsigned long done;

	for (done = 0; done < nr; done++) {
		struct page *page = alloc_page(BALLOON_GFP);
		unsigned long serial;

		if (!page)
			break;
		spin_lock(&balloon_lock);
		serial = balloon_next_serial;
		spin_unlock(&balloon_lock);
		fill_pattern(page, serial);
		spin_lock(&balloon_lock);
		balloon_next_serial = serial + 1;	/* only after the fill: the check's bound */
		__SetPageMovable(page, &balloon_mops);
		list_add(&page->lru, &balloon_pages);
		balloon.pages++;
		spin_unlock(&balloon_lock);
	}
	return done;
}

/* Take @page off the balloon (under balloon_lock); the caller checks and frees it. */
static void balloon_remove(struct page *page)
{
	list_del(&page->lru);
	__ClearPageMovable(page);
	balloon.pages--;
}

static void balloon_release(struct page *page)
{
	balloon_page_pattern_ok(page);
	__free_page(page);
}

/**
 * balloon_deflate - give @nr pages of the balloon back, newest first
 * @nr: how many
 *
 * Each page's pattern is checked first.  Pages compaction has isolated
 * are not on the list and stay.
 * Context: any that may take a spinlock and free a page.
 * Return: the pages given back (fewer than @nr if the list ran out).
 */
unsigned long balloon_deflate(unsigned long nr)
{
	unsigned long done;

	for (done = 0; done < nr; done++) {
		struct page *page = NULL;

		spin_lock(&balloon_lock);
		if (!list_empty(&balloon_pages)) {
			page = list_first_entry(&balloon_pages, struct page, lru);
			balloon_remove(page);
		}
		spin_unlock(&balloon_lock);
		if (!page)
			break;
		balloon_release(page);
	}
	return done;
}

/**
 * balloon_deflate_alternate - give back every other page of the balloon
 *
 * The pages were taken in order, mostly from consecutive frames: freeing
 * every other one leaves free single pages whose buddies are held, so free
 * memory is scattered and no large block forms, until compaction moves the
 * rest (the monitor's `frag` for movable pages).
 * Context: as balloon_deflate().
 * Return: the pages given back.
 */
unsigned long balloon_deflate_alternate(void)
{
	struct page *page, *next;
	unsigned long done = 0, i = 0;
	LIST_HEAD(freed);

	spin_lock(&balloon_lock);
	list_for_each_entry_safe(page, next, &balloon_pages, lru) {
		if (i++ % 2)
			continue;
		balloon_remove(page);
		list_add(&page->lru, &freed);
	}
	spin_unlock(&balloon_lock);
	list_for_each_entry_safe(page, next, &freed, lru) {
		list_del(&page->lru);
		balloon_release(page);
		done++;
	}
	return done;
}

/** balloon_get_stats - the balloon's counts, at one moment */
void balloon_get_stats(struct balloon_stats *stats)
{
	spin_lock(&balloon_lock);
	*stats = balloon;
	spin_unlock(&balloon_lock);
}

/**
 * balloon_check - check the pattern of every page on the balloon's list
 *
 * Context: not while other CPUs deflate (the list is walked under the lock).
 * Return: the pages found broken (each reported).
 */
unsigned long balloon_check(void)
{
	unsigned long bad = 0;
	struct page *page;

	spin_lock(&balloon_lock);
	list_for_each_entry(page, &balloon_pages, lru)
		bad += !balloon_page_pattern_ok(page);
	spin_unlock(&balloon_lock);
	return bad;
}

/**
 * balloon_set_migrate_error - make the balloon refuse every migration (tests)
 * @err: what its migrate_page returns from now on: 0 (accept), -EAGAIN, -EBUSY...
 */
void balloon_set_migrate_error(int err)
{
	WRITE_ONCE(balloon_migrate_error, err);
}

/* ---------------------------------------------------------------- movable_operations */

static bool balloon_isolate_page(struct page *page, enum migrate_mode mode)
{
	bool ok;

	(void)mode;
	spin_lock(&balloon_lock);
	ok = balloon_owns(page);
	if (ok) {
		list_del(&page->lru);
		balloon.isolated++;
	}
	spin_unlock(&balloon_lock);
	return ok;
}

static int balloon_migrate_page(struct page *dst, struct page *src, enum migrate_mode mode)
{
	int err = READ_ONCE(balloon_migrate_error);

	(void)mode;
	VM_BUG_ON_PAGE(!PageIsolated(src), src);
	if (err)
		return err;
	balloon_page_pattern_ok(dst);	/* the copy: reported if it differs */
	spin_lock(&balloon_lock);
	__SetPageMovable(dst, &balloon_mops);
	list_add(&dst->lru, &balloon_pages);
	balloon.isolated--;
	balloon.migrated++;
	spin_unlock(&balloon_lock);
	return MIGRATEPAGE_SUCCESS;
}

static void balloon_putback_page(struct page *page)
{
	spin_lock(&balloon_lock);
	list_add(&page->lru, &balloon_pages);
	balloon.isolated--;
	spin_unlock(&balloon_lock);
}

static const struct movable_operations balloon_mops = {
	.isolate_page = balloon_isolate_page,
	.migrate_page = balloon_migrate_page,
	.putback_page = balloon_putback_page,
};
