/*
 * mm/kasan/report.c - what KASAN prints when an access is bad.
 *
 * Linux's report, line for line, except that there are no tasks here: the
 * CPU is named instead.  In order:
 *
 *   BUG: KASAN: <kind> in <function>+<offset>/<size>   the kind comes from the
 *   Write of size N at addr A by CPU C                  shadow byte (kasan.h)
 *   Call Trace: ...                                     where it happened
 *   Allocated by CPU C: <stack>                         slab objects: who made
 *   Freed by CPU C: <stack>                             and who freed it
 *   The buggy address belongs to the object at ...      which object, which
 *    which belongs to the cache kmalloc-64 of size 64   cache, and where in it
 *   The buggy address is located N bytes to the right of
 *    allocated 13-byte region [start, end)
 *   The buggy address belongs to the physical page: ... (or the variable, the
 *                                                        stack, the vmalloc area)
 *   Memory state around the buggy address:              the shadow, 16 bytes
 *    ...                                                a row (128 of memory),
 *   >ffff888004e8a000: 00 05 fc fc ...                  the row of the first bad
 *                         ^                             byte marked
 *
 * between two lines of '='.  The kernel goes on (Linux's kasan_multi_shot):
 * a test reads the report from the log.  KASAN is off on this CPU while it
 * prints, so that nothing the report itself does is reported.
 */
#include "mm/kasan/kasan.h"
#include "kernel/printk.h"
#include "lib/vsprintf.h"

#define SHADOW_BYTES_PER_ROW	16
#define SHADOW_ROWS_AROUND	2

static DEFINE_SPINLOCK(report_lock);

/* The first byte of the access that is not accessible (the shadow says which granule). */
static unsigned long first_bad_addr(unsigned long addr, size_t size)
{
	unsigned long p = addr;

	while (p < addr + size && !kasan_shadow_byte((void *)p))
		p = ALIGN_DOWN(p, KASAN_GRANULE_SIZE) + KASAN_GRANULE_SIZE;
	return p < addr + size ? p : addr;
}

/* Linux's names for the kinds of bad memory. */
static const char *bug_type(unsigned long bad)
{
	const u8 *shadow = kasan_mem_to_shadow((void *)bad);

	if (*shadow > 0 && *shadow < KASAN_GRANULE_SIZE)
		shadow++;		/* past the end of a partial granule: what follows says */
	switch (*shadow) {
	case KASAN_PAGE_REDZONE:
	case KASAN_SLAB_REDZONE:
		return "slab-out-of-bounds";
	case KASAN_GLOBAL_REDZONE:
		return "global-out-of-bounds";
	case KASAN_STACK_LEFT:
	case KASAN_STACK_MID:
	case KASAN_STACK_RIGHT:
	case KASAN_STACK_PARTIAL:
		return "stack-out-of-bounds";
	case KASAN_PAGE_FREE:
		return "use-after-free";
	case KASAN_SLAB_FREE:
		return "slab-use-after-free";
	case KASAN_ALLOCA_LEFT:
	case KASAN_ALLOCA_RIGHT:
		return "alloca-out-of-bounds";
	case KASAN_VMALLOC_INVALID:
		return "vmalloc-out-of-bounds";
	default:
		return "out-of-bounds";
	}
}

/* The trace of the code that made the bad access: from the frame that returns to @ip. */
static void print_call_trace(unsigned long ip)
{
	unsigned long *fp = __builtin_frame_address(0);

	while (fp && fp[1] != ip && (unsigned long *)fp[0] > fp)
		fp = (unsigned long *)fp[0];
	if (fp && fp[1] == ip)
		show_stack(fp[0], ip);
	else
		dump_stack();
}

static void print_track(const char *what, const struct kasan_track *track)
{
	const unsigned long *entries;
	unsigned int nr = stack_depot_fetch(track->stack, &entries);

	pr_err("%s by CPU %u:\n", what, track->cpu);
	if (!nr)
		pr_err(" (stack not saved)\n");
	for (unsigned int i = 0; i < nr; i++)
		pr_err(" %pS\n", (void *)(entries[i] - 1));
	pr_err("\n");
}

/* How many bytes of the object at @obj are accessible: what kmalloc() was asked for. */
static unsigned long accessible_size(const u8 *obj, unsigned int max)
{
	unsigned long size = 0;

	while (size < max) {
		u8 shadow = kasan_shadow_byte(obj + size);

		if (shadow >= KASAN_GRANULE_SIZE)
			break;
		size += shadow ? shadow : KASAN_GRANULE_SIZE;
		if (shadow)
			break;
	}
	return min(size, (unsigned long)max);
}

/*
 * The object of @s in @slab that @addr is about: the slot it is in, or the
 * next one when @addr is nearer to that one's start (an underflow).
 */
static u8 *nearest_object(struct kmem_cache *s, struct page *slab, unsigned long addr)
{
	u8 *first = (u8 *)slab_address(slab) + s->red_left_pad;
	long idx = ((long)addr - (long)first) / (long)s->size;
	u8 *obj, *next;

	idx = max(0L, min(idx, (long)slab->objects - 1));
	obj = first + idx * s->size;
	next = obj + s->size;
	if (idx + 1 < slab->objects && addr >= (unsigned long)obj + s->object_size &&
	    (unsigned long)next - addr < addr - ((unsigned long)obj + s->object_size))
		return next;
	return obj;
}

static void describe_object(struct kmem_cache *s, u8 *obj, unsigned long addr)
{
	bool freed = kasan_shadow_byte(obj) == KASAN_SLAB_FREE;
	unsigned long size = freed ? s->object_size : accessible_size(obj, s->object_size);
	unsigned long start = (unsigned long)obj, rel;
	struct kasan_meta *meta = kasan_get_meta(s, obj);
	const char *where;

	if (meta->alloc.stack || meta->alloc.cpu)
		print_track("Allocated", &meta->alloc);
	if (meta->free.stack)
		print_track("Freed", &meta->free);
	if (addr < start) {
		where = "to the left of";
		rel = start - addr;
	} else if (addr >= start + size) {
		where = "to the right of";
		rel = addr - (start + size);
	} else {
		where = "inside of";
		rel = addr - start;
	}
	pr_err("The buggy address belongs to the object at %px\n"
	       " which belongs to the cache %s of size %u\n", obj, s->name, s->object_size);
	pr_err("The buggy address is located %lu bytes %s\n %s %lu-byte region [%px, %px)\n\n",
	       rel, where, freed ? "freed" : "allocated", size, obj, obj + size);
}

/* The order of the block @page heads, where the page says (0 for a free page inside a block). */
static unsigned long page_order_of(const struct page *page)
{
	if (PageBuddy(page))
		return page->private;
	return page_test(page, PG_allocated) ? allocated_order(page) : 0;
}

static const char *page_state(const struct page *page)
{
	return PageSlab(page) ? "slab" :
	       page_test(page, PG_large_kmalloc) ? "large kmalloc" :
	       page_test(page, PG_allocated) ? "allocated" :
	       PageBuddy(page) ? "free (buddy)" :
	       page_test(page, PG_pcp) ? "free (per-CPU list)" :
	       PageReserved(page) ? "reserved" : "no flag (inside a block)";
}

/* Which memory @addr is: a slab object, a page, a global, a stack, a vmalloc area. */
static void describe_address(unsigned long addr)
{
	struct page *page = virt_to_slab_checked((void *)addr);
	unsigned long start, size, bottom, top;
	const char *name;

	if (page && pfn_valid(page_to_pfn(page))) {
		struct page *own = virt_to_page((void *)addr);

		page = compound_head(page);	/* a slab's may be any of its pages */

		if (PageSlab(page))
			describe_object(page->slab_cache, nearest_object(page->slab_cache, page, addr),
					addr);
		pr_err("The buggy address belongs to the physical page:\n");
		if (own != page)
			pr_err("page:%px pfn:%#lx, in the block of pfn %#lx:\n", own,
			       page_to_pfn(own), page_to_pfn(page));
		pr_err("page:%px pfn:%#lx %s, order %lu\n\n", page, page_to_pfn(page),
		       page_state(page), PageSlab(page) ?
		       (unsigned long)slab_order(page->slab_cache, page) : page_order_of(page));
		return;
	}
	name = kasan_find_global(addr, &start, &size);
	if (name) {
		pr_err("The buggy address belongs to the variable:\n %s+%#lx/%#lx\n\n", name,
		       addr - start, size);
		return;
	}
	kasan_current_stack(&bottom, &top);
	if (addr >= bottom && addr < top) {
		pr_err("The buggy address belongs to the stack of CPU %u [%#lx, %#lx)\n\n",
		       smp_processor_id(), bottom, top);
		return;
	}
	if (is_vmalloc_addr((void *)addr)) {
		pr_err("The buggy address belongs to a vmalloc area:\n");
		describe_fault_address(addr);
		pr_err("\n");
	}
}

/* The shadow around @bad: 2 rows before its row, its row (marked), 2 after. */
static void print_shadow(unsigned long bad)
{
	const u8 *shadow = kasan_mem_to_shadow((void *)bad);
	const u8 *row = (const u8 *)ALIGN_DOWN((unsigned long)shadow, SHADOW_BYTES_PER_ROW) -
			SHADOW_ROWS_AROUND * SHADOW_BYTES_PER_ROW;

	pr_err("Memory state around the buggy address:\n");
	for (int r = 0; r <= 2 * SHADOW_ROWS_AROUND; r++, row += SHADOW_BYTES_PER_ROW) {
		bool marked = shadow >= row && shadow < row + SHADOW_BYTES_PER_ROW;
		char line[SHADOW_BYTES_PER_ROW * 3 + 1];

		for (int i = 0; i < SHADOW_BYTES_PER_ROW; i++)
			scnprintf(line + 3 * i, 4, " %02x", row[i]);
		pr_err("%c%px:%s\n", marked ? '>' : ' ', kasan_shadow_to_mem(row), line);
		if (marked)	/* under the byte: '>', 16 digits, ':', then " xx" per byte */
			pr_err("%*c\n", (int)(1 + 16 + 1 + 3 * (shadow - row) + 2), '^');
	}
}

static void start_report(unsigned long *flags)
{
	kasan_disable_current();
	spin_lock_irqsave(&report_lock, *flags);
	pr_err("==================================================================\n");
}

static void end_report(unsigned long flags)
{
	pr_err("==================================================================\n");
	spin_unlock_irqrestore(&report_lock, flags);
	kasan_enable_current();
}

/**
 * kasan_report - report a bad access of @size bytes at @addr
 * @write: a store (or a load)
 * @ip: the address of the access, in the function that made it
 *
 * Context: any.  Return: true (it was reported).
 */
bool kasan_report(unsigned long addr, size_t size, bool write, unsigned long ip)
{
	unsigned long bad = first_bad_addr(addr, size), flags;

	start_report(&flags);
	pr_err("BUG: KASAN: %s in %pS\n", bug_type(bad), (void *)ip);
	pr_err("%s of size %zu at addr %px by CPU %u\n\n", write ? "Write" : "Read", size,
	       (void *)addr, smp_processor_id());
	print_call_trace(ip);
	pr_err("\n");
	describe_address(addr);
	print_shadow(bad);
	end_report(flags);
	return true;
}

/**
 * kasan_report_invalid_free - report a free of @obj that must not happen
 * @ip: in the caller of kfree() (or kmem_cache_free())
 * @what: "double-free"
 */
void kasan_report_invalid_free(void *obj, unsigned long ip, const char *what)
{
	unsigned long flags;

	start_report(&flags);
	pr_err("BUG: KASAN: %s in %pS\n", what, (void *)ip);
	pr_err("Free of addr %px by CPU %u\n\n", obj, smp_processor_id());
	dump_stack();
	pr_err("\n");
	describe_address((unsigned long)obj);
	print_shadow((unsigned long)obj);
	end_report(flags);
}
