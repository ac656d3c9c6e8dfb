/*
 * mm/page_debug.c - catching misuse of the page allocator, and saying so.
 *
 * Every free is checked before anything is touched: the order, whether the
 * page exists, is RAM, is the first page of a block alloc_pages() handed
 * out with that same order, and is not already free.  A bad free is
 * reported in one line in Linux's style ("BUG: Bad page free ...") naming
 * the page and the caller, counted (PGALLOC_BAD_FREE), and ignored: the
 * allocator's lists are never touched by a bad free.
 *
 * Page poisoning (off by default; "page_poison=1" on the command line or
 * set_page_poisoning()) fills freed pages with PAGE_POISON and checks the
 * pattern when they are handed out again, catching writes after free.
 */
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/vmstat.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

bool poisoning;
unsigned long nr_poisoned;	/* pages carrying PG_poisoned: none means nothing to check */

/** set_page_poisoning - turn poisoning of freed pages on or off */
void set_page_poisoning(bool on)
{
	poisoning = on;
}

/** page_poisoning_enabled - is poisoning on? */
bool page_poisoning_enabled(void)
{
	return poisoning;
}

static void bad_free(unsigned long pfn, unsigned int order, void *caller, const char *why)
{
	count_vm_event(PGALLOC_BAD_FREE);
	pr_err("BUG: Bad page free: pfn:%#lx order:%u caller:%pS: %s\n", pfn, order, caller, why);
}

/* Is @pfn inside a free block (its first page or any later one)? */
static bool pfn_is_free(unsigned long pfn)
{
	const struct page *page = pfn_to_page(pfn);

	if (page_test(page, PG_pcp))
		return true;
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long head = pfn & ~((1UL << o) - 1);

		if (pfn_valid(head) && PageBuddy(pfn_to_page(head)) &&
		    pfn_to_page(head)->private >= o)
			return true;
	}
	return false;
}

/*
 * The allocated block that @pfn is an interior page of, or 0 (pfn 0 is never
 * allocated).  Only a block the page allocator describes counts: its first
 * page carries its order in the flags, aligned to it and covering @pfn.
 */
static unsigned long enclosing_block(unsigned long pfn, unsigned int *order)
{
	for (unsigned int o = 1; o <= MAX_PAGE_ORDER; o++) {
		unsigned long head = pfn & ~((1UL << o) - 1);
		const struct page *page;

		if (!pfn_valid(head))
			continue;
		page = pfn_to_page(head);
		if (page_test(page, PG_allocated) && !PageSlab(page) &&
		    allocated_order(page) >= o && allocated_order(page) <= MAX_PAGE_ORDER &&
		    IS_ALIGNED(head, 1UL << allocated_order(page))) {
			*order = allocated_order(page);
			return head;
		}
	}
	return 0;
}

/* The words of free_pages_check_bad()'s report: why this free is refused. */
static const char *bad_free_reason(struct page *page, unsigned long pfn, unsigned int order,
				   bool lost_race, char *why, size_t size)
{
	unsigned int real_order;

	if (lost_race)
		return "double free (freed twice at the same time)";
	if (order > MAX_PAGE_ORDER)
		return "order larger than MAX_PAGE_ORDER";
	if (page < vmemmap || ((unsigned long)page - (unsigned long)vmemmap) % sizeof(*page) ||
	    !pfn_valid(pfn))
		return "not a page of RAM (bad struct page pointer)";
	if (PageReserved(page))
		return "reserved page (never given out by the allocator)";
	if (PageSlab(page) || page_test(page, PG_large_kmalloc))
		return "the slab allocator owns it (use kfree())";
	if (pfn_is_free(pfn))
		return "double free (the page is already free)";
	if (PageTail(page)) {
		snprintf(why, size, "interior page of the order-%u block at pfn %#lx",
			 compound_order(compound_head(page)), page_to_pfn(compound_head(page)));
		return why;
	}
	if (!page_test(page, PG_allocated)) {
		unsigned long head = enclosing_block(pfn, &real_order);

		if (head)
			snprintf(why, size, "interior page of the order-%u block at pfn %#lx",
				 real_order, head);
		else	/* nor free: another CPU has just freed it, or is handing it out */
			snprintf(why, size, "not allocated (a double free, racing "
				 "with another CPU's free?)");
		return why;
	}
	snprintf(why, size, "freed with order %u, allocated with order %u",
		 order, allocated_order(page));
	return why;
}

/**
 * free_pages_check_bad - report why a block may not be freed
 * @page: what the caller passed
 * @order: the order it claims
 * @caller: who is freeing, for the report
 * @lost_race: it passed the cheap checks, but another CPU cleared PG_allocated first
 *
 * free_pages_check() (mm/internal.h) calls this when its fast test fails.
 * Return: false, after the report.
 */
bool free_pages_check_bad(struct page *page, unsigned int order, void *caller, bool lost_race)
{
	unsigned long pfn = page_to_pfn(page);
	const char *reason;
	char why[96];

	/* data_race(): the block may be freed by another CPU as we look (the double free
	 * reported), without the zone lock; a stale view changes only the words. */
	reason = data_race(bad_free_reason(page, pfn, order, lost_race, why, sizeof(why)));
	bad_free(pfn, order, caller, reason);
	return false;
}

/**
 * free_pages_addr_check - is @addr a plausible address to give free_pages()?
 *
 * Return: true if it is page-aligned and in the direct map of RAM; false
 * after reporting why not.
 */
bool free_pages_addr_check(unsigned long addr, unsigned int order, void *caller)
{
	unsigned long pfn;

	if (addr & (PAGE_SIZE - 1)) {
		count_vm_event(PGALLOC_BAD_FREE);
		pr_err("BUG: Bad page free: address %#lx order:%u caller:%pS: not page-aligned\n",
		       addr, order, caller);
		return false;
	}
	pfn = __pa((void *)addr) >> PAGE_SHIFT;
	if (addr < PAGE_OFFSET || addr >= PAGE_OFFSET + (max_pfn << PAGE_SHIFT) || !pfn_valid(pfn)) {
		count_vm_event(PGALLOC_BAD_FREE);
		pr_err("BUG: Bad page free: address %#lx order:%u caller:%pS: not in the direct map of RAM\n",
		       addr, order, caller);
		return false;
	}
	return true;
}

/*
 * __poison_block - fill a block being freed with PAGE_POISON (poisoning is on)
 *
 * In a KASAN kernel the block may still carry its last owner's shadow (a
 * slab's redzones): these writes are the allocator's, not a bad access.
 */
void __poison_block(struct page *page, unsigned int order)
{
	kasan_disable_current();
	for (unsigned long i = 0; i < (1UL << order); i++) {
		memset(page_address(page + i), PAGE_POISON, PAGE_SIZE);
		page_set(page + i, PG_poisoned);
		__atomic_fetch_add(&nr_poisoned, 1, __ATOMIC_RELAXED);
	}
	kasan_enable_current();
}

/** __check_poison_block - report a block whose poison was overwritten while free */
void __check_poison_block(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		const u8 *p = page_address(page + i);

		if (!page_test(page + i, PG_poisoned))
			continue;
		page_clear(page + i, PG_poisoned);
		__atomic_fetch_sub(&nr_poisoned, 1, __ATOMIC_RELAXED);
		for (unsigned long off = 0; off < PAGE_SIZE; off++) {
			if (p[off] != PAGE_POISON) {
				pr_err("BUG: page poison overwritten: pfn:%#lx offset:%#lx byte:%#x "
				       "(expected %#x): written after it was freed\n",
				       page_to_pfn(page + i), off, p[off], PAGE_POISON);
				break;
			}
		}
	}
}

/**
 * dump_page - print what @page's struct page says, and why (for VM_BUG_ON_PAGE)
 * @page: the page
 * @reason: the check that failed
 */
void dump_page(const struct page *page, const char *reason)
{
	printk(KERN_EMERG "page:%p pfn:%#lx flags:%#lx(node=%d|zone=%u) private:%#lx\n",
	       (const void *)page, page_to_pfn(page), page->flags, page_to_nid(page),
	       page_zonenum(page), page->private);
	printk(KERN_EMERG "page dumped because: %s\n", reason);
}

/**
 * might_alloc_report - report an allocation that may sleep from a context that may not
 * @gfp: its flags (with __GFP_DIRECT_RECLAIM)
 * @caller: who allocated
 *
 * Return: @gfp without __GFP_DIRECT_RECLAIM, which the call goes on with.
 */
gfp_t might_alloc_report(gfp_t gfp, void *caller)
{
	static struct report_once reported;
	char flags[160];

	if (report_once_per_caller(&reported, caller)) {
		format_gfp(flags, sizeof(flags), gfp);
		pr_err("BUG: sleeping allocation from invalid context by %pS\n", caller);
		pr_err("in_interrupt(): %d, irqs_disabled(): %d, gfp_mask: %#x(%s): "
		       "continuing without reclaim\n", in_interrupt(), irqs_disabled(), gfp, flags);
		dump_stack();
	}
	count_vm_event(ALLOC_BAD_CONTEXT);
	return gfp & ~__GFP_DIRECT_RECLAIM;
}

struct gfp_name {
	gfp_t flags;
	const char *name;
};

/* Combinations first: GFP_KERNEL reads better than its three bits. */
static const struct gfp_name gfp_names[] = {
	{ GFP_KERNEL, "GFP_KERNEL" }, { GFP_ATOMIC, "GFP_ATOMIC" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ __GFP_DMA, "__GFP_DMA" }, { __GFP_DMA32, "__GFP_DMA32" },
	{ __GFP_HIGH, "__GFP_HIGH" }, { __GFP_IO, "__GFP_IO" }, { __GFP_FS, "__GFP_FS" },
	{ __GFP_ZERO, "__GFP_ZERO" }, { __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" }, { __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" }, { __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" }, { __GFP_MEMALLOC, "__GFP_MEMALLOC" },
	{ __GFP_COMP, "__GFP_COMP" }, { __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	{ __GFP_THISNODE, "__GFP_THISNODE" }, { __GFP_ACCOUNT, "__GFP_ACCOUNT" },
	{ __GFP_HARDWALL, "__GFP_HARDWALL" }, { __GFP_MOVABLE, "__GFP_MOVABLE" },
	{ __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" }, { __GFP_WRITE, "__GFP_WRITE" },
};

/**
 * format_gfp - write @gfp as "GFP_KERNEL|__GFP_NORETRY" (Linux's %pGg)
 *
 * Return: the length written.
 */
int format_gfp(char *buf, size_t size, gfp_t gfp)
{
	int len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(gfp_names) && gfp; i++) {
		if ((gfp & gfp_names[i].flags) != gfp_names[i].flags)
			continue;
		len += scnprintf(buf + len, size - len, "%s%s", len ? "|" : "", gfp_names[i].name);
		gfp &= ~gfp_names[i].flags;
	}
	if (gfp)
		len += scnprintf(buf + len, size - len, "%s%#x", len ? "|" : "", gfp);
	return len;
}

/** show_free_areas - one line per zone: free, watermarks, free blocks per order */
void show_free_areas(void)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		printk("Node %d %s free:%lukB min:%lukB low:%lukB high:%lukB managed:%lukB\n",
		       zone->node, zone->name, zone_free_pages(zone) * 4,
		       zone->watermark[WMARK_MIN] * 4, zone->watermark[WMARK_LOW] * 4,
		       zone->watermark[WMARK_HIGH] * 4, zone->managed_pages * 4);
}

/**
 * warn_alloc - the "page allocation failure" report, as Linux prints it
 * @gfp: the failed allocation's flags
 * @order: its order
 */
void warn_alloc(gfp_t gfp, unsigned int order)
{
	char flags[160];

	format_gfp(flags, sizeof(flags), gfp);
	pr_warn("kmem: page allocation failure: order:%u, mode:%#x(%s), nodemask=(null)\n",
		order, gfp, flags);
	dump_stack();
	show_free_areas();
}
