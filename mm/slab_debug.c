/*
 * mm/slab_debug.c - catching misuse of slab objects (Linux's SLUB debugging).
 *
 * A cache created with SLAB_POISON, SLAB_RED_ZONE, SLAB_STORE_USER or
 * SLAB_CONSISTENCY_CHECKS (or named by slab_debug= at boot) lays each slot
 * out with room to notice mistakes, and checks it on every alloc and free,
 * under the node's lock (such caches skip the per-CPU sheaves):
 *
 *   [ left redzone | object | right redzone | free pointer | alloc track | free track ]
 *       bb / cc      6b..a5     bb / cc
 *
 *   poison (P)    a free object is filled with 0x6b and ends with 0xa5;
 *                 a byte changed while it was free is a write after free,
 *                 found when the object is handed out again or by validate;
 *   redzones (Z)  guard bytes on both sides, 0xbb while the object is free
 *                 and 0xcc while it is allocated; a change is an overflow
 *                 (or underflow), found at the free or by validate;
 *   user (U)      who allocated and who freed the object, on which CPU, when;
 *   checks (F)    every free is checked against the slab's freelist: an
 *                 object already on it is a double free;
 *   trace (T)     a line for every alloc and free.
 *
 * slab_debug= (Linux's slub_debug=) chooses the letters per cache, below;
 * 'O' keeps debugging off a cache whose slots it would make need a higher
 * page order.
 *
 * Slab memory no object uses (the slab's tail) is filled with 0x5a.
 * Every problem is reported in Linux's form - "BUG <cache> (Not tainted):
 * <what>", the object's bytes, the callers - and then put right ("FIX
 * <cache>: ...") so that the kernel runs on with nothing corrupted: a
 * double free is ignored, an overwritten redzone restored, an object whose
 * poison was overwritten is never handed out again.
 */
#include <stdarg.h>
#include "mm/slab_internal.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define POISON_INUSE		0x5a	/* slab memory no object uses */
#define POISON_FREE		0x6b	/* a free object */
#define POISON_END		0xa5	/* the last byte of a free object */
#define SLUB_RED_INACTIVE	0xbb	/* redzone of a free object */
#define SLUB_RED_ACTIVE		0xcc	/* redzone of an allocated object */

#define DUMP_BYTES		64	/* of an object, in a report */

/*
 * slab_debug= as given (Linux's slub_debug= syntax): blocks separated by
 * ';', each "letters[,cache,cache...]".  A block without caches sets the
 * flags of every cache no other block names; a block with caches sets
 * theirs (the first block that names a cache wins; "kmalloc-*" names every
 * cache whose name starts "kmalloc-").  No letters (a bare slab_debug, or
 * slab_debug=) means F, Z, P and U.  Without slab_debug=, no cache is
 * checked but those created with debugging flags (CONFIG_SLUB_DEBUG_ON is
 * 0, as Linux distributions ship it: kernel/config.h).
 */
static char debug_spec[160];
static bool debug_spec_given;
static bool debug_min_order_off;	/* 'O' */

/*
 * The flags the letters from @p to the first ',' or ';' ask for; @p moves
 * past them.  @at_boot: the first reading, which notes 'O' (it is for
 * every cache) and reports unknown letters.
 */
static slab_flags_t parse_letters(const char **p, bool at_boot)
{
	const char *start = *p;
	slab_flags_t flags = 0;

	for (; **p && **p != ',' && **p != ';'; (*p)++) {
		switch (**p | 0x20) {	/* lower case */
		case 'f': flags |= SLAB_CONSISTENCY_CHECKS; break;
		case 'z': flags |= SLAB_RED_ZONE; break;
		case 'p': flags |= SLAB_POISON; break;
		case 'u': flags |= SLAB_STORE_USER; break;
		case 't': flags |= SLAB_TRACE; break;
		case 'o': debug_min_order_off |= at_boot; break;
		case '-': flags = 0; break;
		case 'a':
			if (at_boot)
				pr_err("slab_debug: 'A' ignored: failslab=...,cache=NAME chooses the "
				       "cache that may fail\n");
			break;
		default:
			if (at_boot)
				pr_err("slab_debug: unknown option '%c' in '%s' ignored\n", **p,
				       debug_spec);
		}
	}
	return *p == start ? SLAB_DEBUG_DEFAULT_FLAGS : flags;
}

/* Does the cache list from @p to the end of its block name @name?  @p moves past the block. */
static bool block_names(const char **p, const char *name)
{
	bool found = false;

	while (**p == ',') {
		const char *item = ++*p;
		size_t len;

		while (**p && **p != ',' && **p != ';')
			(*p)++;
		len = *p - item;
		if (len && item[len - 1] == '*')	/* a prefix */
			found |= !strncmp(item, name, len - 1);
		else
			found |= len == strlen(name) && !strncmp(item, name, len);
	}
	return found;
}

/*
 * Walk slab_debug= for cache @name (NULL: check the letters, reporting
 * what is unknown).  Return: the flags it gives that cache.
 */
static slab_flags_t spec_flags(const char *name)
{
	slab_flags_t global = 0;
	const char *p = debug_spec;

	for (;;) {
		slab_flags_t flags = parse_letters(&p, !name);

		if (*p != ',')
			global = flags;
		else if (block_names(&p, name ? name : "") && name)
			return flags;
		if (*p != ';')
			return global;
		p++;
	}
}

/**
 * slab_debug_parse - read slab_debug= (Linux's slub_debug= syntax)
 * @str: "" (everything, all caches), "-" (nothing), letters (F Z P U T O,
 *	 '-' for none; Linux's A is ignored, with a line that says so)
 *	 optionally followed by ",cache,cache..." for those caches only;
 *	 several such blocks separated by ';'
 *
 * Unknown letters are reported and ignored.  Caches created later use it.
 */
void slab_debug_parse(const char *str)
{
	strscpy(debug_spec, str, sizeof(debug_spec));
	debug_spec_given = true;
	debug_min_order_off = false;
	spec_flags(NULL);
}

/** slab_debug_flags - @flags of a new cache @name, with what slab_debug= adds */
slab_flags_t slab_debug_flags(const char *name, slab_flags_t flags)
{
	if (!debug_spec_given)
		return flags | (CONFIG_SLUB_DEBUG_ON ? SLAB_DEBUG_DEFAULT_FLAGS : 0);
	return flags | spec_flags(name);
}

/**
 * slab_debug_min_order_off - did slab_debug= say 'O': no debugging for a
 * cache whose slots it would push to a higher page order?
 */
bool slab_debug_min_order_off(void)
{
	return debug_min_order_off;
}

/* ---------------------------------------------------------------- reports */

/**
 * slab_bug - the first lines of a report about cache @s, in Linux's form
 */
void slab_bug(struct kmem_cache *s, const char *fmt, ...)
{
	char msg[160];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	count_vm_event(SLAB_ERRORS);
	pr_err("=============================================================================\n");
	pr_err("BUG %s (Not tainted): %s\n", s->name, msg);
	pr_err("-----------------------------------------------------------------------------\n");
}

static void slab_fix(struct kmem_cache *s, const char *what, const void *obj)
{
	pr_err("FIX %s: %s (object %px)\n", s->name, what, obj);
}

/*
 * The tracks follow the object and its right redzone (s->inuse bytes from
 * the object's start), and the free pointer when it is kept there too.  A
 * cache with SLAB_STORE_USER alone keeps its free pointer inside the
 * object (calculate_sizes()): counting from the pointer put the tracks in
 * the object's own bytes, where a free overwrote what it had held.
 */
static struct track *get_track(struct kmem_cache *s, void *obj, enum track_item which)
{
	unsigned int start = s->offset >= s->inuse ? s->offset + sizeof(void *) : s->inuse;

	return (struct track *)((char *)obj + start) + which;
}

static void set_track(struct kmem_cache *s, void *obj, enum track_item which, void *caller)
{
	if (s->flags & SLAB_STORE_USER)
		*get_track(s, obj, which) = (struct track){ caller, smp_processor_id(),
							    ktime_get_ns() };
}

static void print_track(const char *what, const struct track *t)
{
	if (!t->addr)
		return;
	pr_err("%s in %pS age=%llu ns cpu=%u\n", what, t->addr,
	       (unsigned long long)(ktime_get_ns() - t->when), t->cpu);
}

/** print_tracks - who allocated and who last freed @obj (SLAB_STORE_USER) */
void print_tracks(struct kmem_cache *s, void *obj)
{
	if (!(s->flags & SLAB_STORE_USER))
		return;
	print_track("Allocated", get_track(s, obj, TRACK_ALLOC));
	print_track("Freed", get_track(s, obj, TRACK_FREE));
}

static void print_bytes(const char *what, const u8 *p, unsigned int len)
{
	for (unsigned int i = 0; i < len; i += 16) {
		char line[16 * 3 + 1];
		int n = 0;

		for (unsigned int j = i; j < len && j < i + 16; j++)
			n += scnprintf(line + n, sizeof(line) - n, " %02x", p[j]);
		pr_err("%-8s %px:%s\n", what, p + i, line);
	}
}

/* The object, its redzones and who used it, after a BUG line. */
static void print_object(struct kmem_cache *s, struct page *slab, u8 *obj)
{
	pr_err("Slab %px objects=%u used=%u fp=%px\n", slab_address(slab), slab->objects,
	       slab->inuse, slab_freelist(s, slab));
	print_tracks(s, obj);
	if (s->red_left_pad)
		print_bytes("Redzone", obj - s->red_left_pad, s->red_left_pad);
	print_bytes("Object", obj, min(s->object_size, (unsigned int)DUMP_BYTES));
	if (s->flags & SLAB_RED_ZONE)
		print_bytes("Redzone", obj + s->object_size, s->inuse - s->object_size);
}

/*
 * slab_debug=T: one line for every alloc and free of the cache, as Linux's
 * "TRACE" lines, with the caller where Linux dumps the stack.  @slab's
 * in-use count and freelist are as they were before this alloc or free.
 */
static void trace(struct kmem_cache *s, struct page *slab, void *obj, const char *what,
		  void *caller)
{
	if (s->flags & SLAB_TRACE)
		pr_info("TRACE %s %s 0x%px inuse=%u fp=0x%px by %pS\n", s->name, what, obj,
			slab->inuse, slab_freelist(s, slab), caller);
}

/* The first byte of [@start, @start+@len) that is not @value, or NULL. */
static u8 *first_byte_not(u8 *start, u8 value, unsigned int len)
{
	for (unsigned int i = 0; i < len; i++) {
		if (start[i] != value)
			return start + i;
	}
	return NULL;
}

/* Report the first byte of [@start, @start+@len) that is not @value, and put it right. */
static bool check_bytes(struct kmem_cache *s, struct page *slab, u8 *obj, const char *what,
			u8 *start, u8 value, unsigned int len)
{
	u8 *bad = first_byte_not(start, value, len);

	if (!bad)
		return true;
	slab_bug(s, "%s overwritten", what);
	pr_err("%px-%px @offset=%ld. First byte %#x instead of %#x\n", bad, start + len - 1,
	       (long)(bad - obj), *bad, value);
	print_object(s, slab, obj);
	memset(start, value, len);
	slab_fix(s, what[0] == 'P' ? "Restoring poison" : "Restoring redzone", obj);
	return false;
}

/* ---------------------------------------------------------------- object states */

static void set_redzones(struct kmem_cache *s, u8 *obj, u8 value)
{
	if (!(s->flags & SLAB_RED_ZONE))
		return;
	memset(obj - s->red_left_pad, value, s->red_left_pad);
	memset(obj + s->object_size, value, s->inuse - s->object_size);
}

static bool check_redzones(struct kmem_cache *s, struct page *slab, u8 *obj, u8 value)
{
	bool left, right;

	if (!(s->flags & SLAB_RED_ZONE))
		return true;
	left = check_bytes(s, slab, obj, "Left Redzone", obj - s->red_left_pad, value,
			   s->red_left_pad);
	right = check_bytes(s, slab, obj, "Right Redzone", obj + s->object_size, value,
			    s->inuse - s->object_size);
	return left && right;
}

static void poison_object(struct kmem_cache *s, u8 *obj)
{
	if (!(s->flags & SLAB_POISON) || s->ctor)
		return;		/* a constructed object keeps its state while free */
	memset(obj, POISON_FREE, s->object_size - 1);
	obj[s->object_size - 1] = POISON_END;
}

static bool check_poison(struct kmem_cache *s, struct page *slab, u8 *obj)
{
	if (!(s->flags & SLAB_POISON) || s->ctor)
		return true;
	return check_bytes(s, slab, obj, "Poison", obj, POISON_FREE, s->object_size - 1) &&
	       check_bytes(s, slab, obj, "Poison", obj + s->object_size - 1, POISON_END, 1);
}

/** init_object_debug - a new slab's free object: poisoned, redzones inactive */
void init_object_debug(struct kmem_cache *s, struct page *slab, void *obj)
{
	u8 *slot = (u8 *)obj - s->red_left_pad;

	if (obj == (char *)slab_address(slab) + s->red_left_pad)	/* the first: whole slab */
		memset(slab_address(slab), POISON_INUSE, PAGE_SIZE << slab_order(s, slab));
	memset(slot, 0, s->size);
	poison_object(s, obj);
	set_redzones(s, obj, SLUB_RED_INACTIVE);
}

/** slab_on_freelist - is @obj on @slab's freelist?  The node's list_lock is held. */
bool slab_on_freelist(struct kmem_cache *s, struct page *slab, const void *obj)
{
	unsigned int n = 0;

	for (void *p = slab_freelist(s, slab); p && n <= slab->objects;
	     p = get_freepointer(s, slab, p), n++) {
		if (p == obj)
			return true;
	}
	return false;
}

/**
 * alloc_debug_check - may @obj, free on @slab, be handed out?
 *
 * Its poison and redzones must be as a free object's.  If so, they become
 * an allocated object's and the allocation is recorded.  If not, the
 * damage is reported and the object is not handed out.
 * Context: the slab's node's list_lock is held.
 */
bool alloc_debug_check(struct kmem_cache *s, struct page *slab, void *obj, void *caller)
{
	if (!check_poison(s, slab, obj) || !check_redzones(s, slab, obj, SLUB_RED_INACTIVE))
		return false;
	set_redzones(s, obj, SLUB_RED_ACTIVE);
	set_track(s, obj, TRACK_ALLOC, caller);
	trace(s, slab, obj, "alloc", caller);
	return true;
}

/**
 * free_debug_check - may @obj go back on @slab's freelist?
 *
 * A double free is reported and refused.  Overwritten redzones are
 * reported and restored; the free goes ahead.  The object is then
 * poisoned, its redzones made inactive, and the free recorded.
 * Context: the slab's node's list_lock is held.
 */
bool free_debug_check(struct kmem_cache *s, struct page *slab, void *obj, void *caller)
{
	if (slab_on_freelist(s, slab, obj)) {
		slab_bug(s, "Object already free");
		pr_err("Object %px freed again by %pS\n", obj, caller);
		print_object(s, slab, obj);
		slab_fix(s, "Object not freed", obj);
		return false;
	}
	check_redzones(s, slab, obj, SLUB_RED_ACTIVE);
	set_track(s, obj, TRACK_FREE, caller);
	trace(s, slab, obj, "free", caller);
	poison_object(s, obj);
	set_redzones(s, obj, SLUB_RED_INACTIVE);
	return true;
}

/**
 * mark_objects_used - @slab's free objects, cut off its freelist, now count as in use
 *
 * When a slab's freelist is corrupted, or a free object fails its checks,
 * take_objects() hands out none of the rest and counts every object as
 * used (as Linux does).  The free ones still have a free object's
 * redzones; they get an allocated one's, or validate would report each of
 * them as overwritten.
 * Context: the slab's node's list_lock is held.
 */
void mark_objects_used(struct kmem_cache *s, struct page *slab)
{
	if (!(s->flags & SLAB_RED_ZONE))
		return;
	for (unsigned int i = 0; i < slab->objects; i++) {
		u8 *obj = (u8 *)slab_address(slab) + s->red_left_pad + i * s->size;

		if (!first_byte_not(obj - s->red_left_pad, SLUB_RED_INACTIVE, s->red_left_pad) &&
		    !first_byte_not(obj + s->object_size, SLUB_RED_INACTIVE,
				    s->inuse - s->object_size))
			set_redzones(s, obj, SLUB_RED_ACTIVE);
	}
}

/* ---------------------------------------------------------------- validate, leaks */

static int validate_slab(struct kmem_cache *s, struct page *slab)
{
	unsigned int nr_free = 0, errors = 0;
	u8 *tail = (u8 *)slab_address(slab) + slab->objects * s->size;
	u8 *end = (u8 *)slab_address(slab) + (PAGE_SIZE << slab_order(s, slab));

	for (void *p = slab_freelist(s, slab); p && nr_free <= slab->objects;
	     p = get_freepointer(s, slab, p))
		nr_free++;
	if (nr_free != (unsigned int)(slab->objects - slab->inuse)) {
		slab_bug(s, "Wrong number of free objects");
		pr_err("Slab %px: %u on the freelist, but %u objects and %u in use\n",
		       slab_address(slab), nr_free, slab->objects, slab->inuse);
		errors++;
	}
	if (!(s->flags & SLAB_DEBUG_FLAGS))
		return errors;
	for (unsigned int i = 0; i < slab->objects; i++) {
		u8 *obj = (u8 *)slab_address(slab) + s->red_left_pad + i * s->size;

		if (slab_on_freelist(s, slab, obj))
			errors += !check_poison(s, slab, obj) +
				  !check_redzones(s, slab, obj, SLUB_RED_INACTIVE);
		else
			errors += !check_redzones(s, slab, obj, SLUB_RED_ACTIVE);
	}
	if ((s->flags & SLAB_POISON) && tail < end)
		errors += !check_bytes(s, slab, tail, "Padding", tail, POISON_INUSE, end - tail);
	return errors;
}

static int validate_list(struct kmem_cache *s, u32 head)
{
	int errors = 0;

	for (struct page *slab = pfn_to_slab(head); slab; slab = pfn_to_slab(slab->slab_next))
		errors += validate_slab(s, slab);
	return errors;
}

static int validate_slabs(struct kmem_cache *s);

/**
 * validate_slab_cache - check every slab of @s (the monitor's slabcheck)
 *
 * Every freelist must be whole and as long as the free count says; with
 * debugging, every free object's poison and every redzone must be intact.
 * What is wrong is reported (and put right where it can be).
 * Context: may sleep (the sheaves are flushed first, by IPI).
 * Return: the number of problems found.
 */
int validate_slab_cache(struct kmem_cache *s)
{
	kmem_cache_flush_cpus(s);
	return validate_slabs(s);
}

/* validate_slab_cache() without the flush: the sheaves' objects count as in use. */
static int validate_slabs(struct kmem_cache *s)
{
	unsigned long flags;
	int errors = 0, nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		spin_lock_irqsave(&n->list_lock, flags);
		errors += validate_list(s, n->partial) + validate_list(s, n->full);
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	return errors;
}

/* Is @obj the start of an object of @s, in a slab of @s that has objects in use? */
static bool cache_object_ok(struct kmem_cache *s, const void *obj)
{
	struct page *slab;
	unsigned long off;

	if ((unsigned long)obj < PAGE_OFFSET || (unsigned long)obj >= VMALLOC_START ||
	    !pfn_valid(virt_to_pfn(obj)))
		return false;
	slab = virt_to_head_page(obj);
	if (!PageSlab(slab) || slab->slab_cache != s || !slab->inuse)
		return false;
	off = (unsigned long)obj - (unsigned long)slab_address(slab) - s->red_left_pad;
	return off % s->size == 0 && off / s->size < slab->objects;
}

/* @sheaf, holding @size objects (what its CPU's top says, for a main sheaf). */
static int check_sheaf(struct kmem_cache *s, const struct slab_sheaf *sheaf, unsigned int size,
		       const char *what, int n)
{
	if (!sheaf->capacity)		/* the bootstrap sheaf, empty for ever */
		return size ? (pr_err("BUG %s: the %s %d: the bootstrap sheaf holds %u objects\n",
				      s->name, what, n, size), 1) : 0;
	if (sheaf->capacity != s->sheaf_capacity || size > sheaf->capacity) {
		pr_err("BUG %s: the %s %d: %u objects, capacity %u (the cache's: %u)\n", s->name,
		       what, n, size, sheaf->capacity, s->sheaf_capacity);
		return 1;
	}
	for (unsigned int i = 0; i < size; i++) {
		if (!cache_object_ok(s, sheaf->slots[i])) {
			pr_err("BUG %s: the %s %d: entry %u (%px) is not an object of the cache\n",
			       s->name, what, n, i, sheaf->slots[i]);
			return 1;
		}
	}
	return 0;
}

/* A barn's list of full or empty sheaves, and its count. */
static int check_barn_list(struct kmem_cache *s, int nid, struct list_head *head, bool full,
			   unsigned int count)
{
	const char *what = full ? "full sheaf in the barn of node" : "empty sheaf in the barn of node";
	struct slab_sheaf *sheaf;
	unsigned int n = 0;
	int errors = 0;

	list_for_each_entry(sheaf, head, barn_list) {
		if (++n > count)
			break;
		if (full != (sheaf->size != 0)) {	/* "full": holds objects (barn_put()) */
			pr_err("BUG %s: a %s %d holds %u objects\n", s->name, what, nid, sheaf->size);
			errors++;
		}
		errors += check_sheaf(s, sheaf, sheaf->size, what, nid);
	}
	if (n != count) {
		pr_err("BUG %s: node %d: the barn counts %u %s sheaves, holds %s%u\n", s->name, nid,
		       count, full ? "full" : "empty", n > count ? "more than " : "", min(n, count));
		errors++;
	}
	if (count > (full ? MAX_FULL_SHEAVES : MAX_EMPTY_SHEAVES)) {
		pr_err("BUG %s: node %d: the barn holds %u %s sheaves, more than its limit %u\n",
		       s->name, nid, count, full ? "full" : "empty",
		       full ? MAX_FULL_SHEAVES : MAX_EMPTY_SHEAVES);
		errors++;
	}
	return errors;
}

/* Each CPU's main and spare sheaf: where their pointers say, holding objects of @s. */
static int check_cpu_sheaves(struct kmem_cache *s)
{
	unsigned int cpu;
	int errors = 0;

	if (!s->cpu_sheaves)
		return 0;
	for_each_possible_cpu(cpu) {
		struct slub_percpu_sheaves *pcs = per_cpu_ptr(s->cpu_sheaves, cpu);

		if (!pcs->main || pcs->base != sheaf_objects(pcs->main) ||
		    pcs->end != pcs->base + pcs->main->capacity || pcs->top < pcs->base ||
		    pcs->top > pcs->end) {
			pr_err("BUG %s: CPU %u's sheaf pointers (top %px base %px end %px) do not "
			       "match its main sheaf %px\n", s->name, cpu, pcs->top, pcs->base,
			       pcs->end, pcs->main);
			errors++;
			continue;
		}
		errors += check_sheaf(s, pcs->main, main_size(pcs), "main sheaf of CPU", (int)cpu);
		if (pcs->spare_size != (pcs->spare ? pcs->spare->size : 0)) {
			pr_err("BUG %s: CPU %u's spare_size %u, its spare holds %u\n", s->name, cpu,
			       pcs->spare_size, pcs->spare ? pcs->spare->size : 0);
			errors++;
		}
		if (pcs->spare)
			errors += check_sheaf(s, pcs->spare, pcs->spare->size, "spare sheaf of CPU",
					      (int)cpu);
	}
	return errors;
}

struct list_totals {
	unsigned long slabs, empty, objects;
};

/* One node's partial or full list: linked both ways, each slab of @s and where its use says. */
static int check_slab_list(struct kmem_cache *s, int nid, u32 head, bool full,
			   struct list_totals *t)
{
	const char *list = full ? "full" : "partial";
	u32 prev = 0;
	int errors = 0;

	for (struct page *slab = pfn_to_slab(head); slab; slab = pfn_to_slab(slab->slab_next)) {
		u32 pfn = (u32)page_to_pfn(slab);

		if (!PageSlab(slab) || slab->slab_cache != s || slab->slab_prev != prev ||
		    t->slabs > totalram_pages) {
			pr_err("BUG %s: node %d: %s list broken at pfn %#x (slab_prev %#x, expected "
			       "%#x)\n", s->name, nid, list, pfn, slab->slab_prev, prev);
			return errors + 1;
		}
		if (full ? slab->inuse != slab->objects : slab->inuse >= slab->objects) {
			pr_err("BUG %s: node %d: slab %#x on the %s list with %u of %u in use\n",
			       s->name, nid, pfn, list, slab->inuse, slab->objects);
			errors++;
		}
		t->slabs++;
		t->empty += !slab->inuse;
		t->objects += slab->objects;
		prev = pfn;
	}
	return errors;
}

/* @s's node lists and barns against their counters (under the node's locks). */
static int check_nodes(struct kmem_cache *s)
{
	unsigned long flags;
	int errors = 0, nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);
		struct list_totals partial = { 0 }, full = { 0 };

		spin_lock_irqsave(&n->list_lock, flags);
		errors += check_slab_list(s, nid, n->partial, false, &partial) +
			  check_slab_list(s, nid, n->full, true, &full);
		if (n->nr_partial != partial.slabs || n->nr_empty != partial.empty ||
		    n->nr_slabs != partial.slabs + full.slabs ||
		    n->total_objects != partial.objects + full.objects) {
			pr_err("BUG %s: node %d: counters say %lu partial, %lu empty, %lu slabs, "
			       "%lu objects; the lists hold %lu, %lu, %lu, %lu\n", s->name, nid,
			       n->nr_partial, n->nr_empty, n->nr_slabs, n->total_objects,
			       partial.slabs, partial.empty, partial.slabs + full.slabs,
			       partial.objects + full.objects);
			errors++;
		}
		spin_unlock_irqrestore(&n->list_lock, flags);
		spin_lock_irqsave(&n->barn.lock, flags);
		errors += check_barn_list(s, nid, &n->barn.sheaves_full, true, n->barn.nr_full) +
			  check_barn_list(s, nid, &n->barn.sheaves_empty, false, n->barn.nr_empty);
		spin_unlock_irqrestore(&n->barn.lock, flags);
	}
	return errors;
}

/**
 * slab_check_cache - every invariant of @s: sheaves, barns, lists, slabs
 *
 * First what the sheaves hold (each CPU's main and spare, each barn's full
 * and empty sheaves: objects of @s, no more than a sheaf holds, counts
 * that match, no barn above its limit), then the node lists (linked both ways, a full slab on the
 * full list and only there, counters equal to what the lists hold), then
 * every slab as validate_slab_cache() checks it (every freelist, and with
 * slab_debug every redzone and poison), without its flush of the sheaves:
 * one IPI to every CPU per cache adds up, at a checkpoint of the torture.  A problem is
 * printed as one "BUG <cache>:" line, as Linux's slab reports.
 * (tests/host/slab_check.c checks more on the host, with a bitmap of every
 * slab and object.)
 *
 * Context: a quiescent point: no other CPU allocates from or frees to @s
 * (their sheaves are read without their interrupts off); takes the
 * node locks.  The allocator torture (tests/torture/) calls it.
 * Return: the number of problems found (0: consistent).
 */
int slab_check_cache(struct kmem_cache *s)
{
	return check_cpu_sheaves(s) + check_nodes(s) + validate_slabs(s);
}

/* The allocated objects of one slab, up to *@left of them, with who allocated them. */
static void report_slab_leaks(struct kmem_cache *s, struct page *slab, unsigned int *left)
{
	for (unsigned int i = 0; i < slab->objects && *left; i++) {
		u8 *obj = (u8 *)slab_address(slab) + s->red_left_pad + i * s->size;

		if (slab_on_freelist(s, slab, obj))
			continue;
		(*left)--;
		if (s->flags & SLAB_STORE_USER)
			pr_err("Object %px allocated in %pS\n", obj,
			       get_track(s, obj, TRACK_ALLOC)->addr);
		else
			pr_err("Object %px\n", obj);
	}
}

/**
 * report_leaks - kmem_cache_destroy() of @s found objects still allocated
 *
 * Linux's report, with the number of objects and (SLAB_STORE_USER) who
 * allocated each of the first few.
 */
void report_leaks(struct kmem_cache *s)
{
	unsigned long used = 0, flags;
	unsigned int left = 16;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		spin_lock_irqsave(&n->list_lock, flags);
		for (struct page *slab = pfn_to_slab(n->partial); slab;
		     slab = pfn_to_slab(slab->slab_next))
			used += slab->inuse;
		for (struct page *slab = pfn_to_slab(n->full); slab;
		     slab = pfn_to_slab(slab->slab_next))
			used += slab->inuse;
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	slab_bug(s, "Objects remaining on __kmem_cache_shutdown()");
	pr_err("%s: %lu object%s still allocated%s\n", s->name, used, used == 1 ? "" : "s",
	       s->flags & SLAB_STORE_USER ? ", allocated by:" : "");
	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		spin_lock_irqsave(&n->list_lock, flags);
		for (struct page *slab = pfn_to_slab(n->partial); slab;
		     slab = pfn_to_slab(slab->slab_next))
			report_slab_leaks(s, slab, &left);
		for (struct page *slab = pfn_to_slab(n->full); slab;
		     slab = pfn_to_slab(slab->slab_next))
			report_slab_leaks(s, slab, &left);
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	pr_err("kmem_cache_destroy %s: Slab cache still has objects: not destroyed\n", s->name);
}
