/*
 * mm/kasan/common.c - the allocators' hooks: what becomes accessible when.
 *
 * A slab slot in a KASAN kernel (mm/slab.c's calculate_sizes() asks
 * kasan_cache_create() for the room):
 *
 *   [ object ........ | slab_debug's words | kasan_meta | redzone ]
 *     00 00 00 00 05    fc fc fc ...         (poisoned: the redzone)
 *
 * kasan_meta holds who allocated and who freed the object (a CPU and a
 * stack, saved in the stack depot) and the quarantine's link; the whole
 * slot after the object's requested size is poisoned, so an overflow
 * into any of it is reported.  The states:
 *
 *   new slab        every byte KASAN_SLAB_REDZONE (never handed out)
 *   allocated       the object accessible; kmalloc(): only the bytes asked for
 *   freed           KASAN_SLAB_FREE, then the quarantine (mm/kasan/quarantine.c)
 *
 * Pages: accessible from alloc_pages() to __free_pages(), KASAN_PAGE_FREE
 * after.  A large kmalloc() (whole pages) poisons its tail past the size
 * asked for with KASAN_PAGE_REDZONE.
 */
#include "mm/kasan/kasan.h"
#include "mm/maccess.h"
#include "mm/vmstat.h"

/* Linux's redzone sizes: bigger objects, bigger overflows to catch. */
static unsigned int optimal_redzone(unsigned int object_size)
{
	return object_size <= 64 - 16 ? 16 :
	       object_size <= 128 - 32 ? 32 :
	       object_size <= 512 - 64 ? 64 :
	       object_size <= 4096 - 128 ? 128 :
	       object_size <= (1 << 14) - 256 ? 256 : 512;
}

/**
 * kasan_cache_create - room in each slot of @s for KASAN
 * @size: the bytes each slot needs so far, counted from the object's start
 *
 * Return: the bytes it needs with KASAN's record and a redzone.
 */
unsigned int kasan_cache_create(struct kmem_cache *s, unsigned int size)
{
	s->kasan_meta_offset = ALIGN(size, sizeof(void *));
	size = s->kasan_meta_offset + sizeof(struct kasan_meta);
	return max(size, s->object_size + optimal_redzone(s->object_size));
}

/** kasan_get_meta - KASAN's record of object @obj of cache @s */
struct kasan_meta *kasan_get_meta(struct kmem_cache *s, const void *obj)
{
	return (struct kasan_meta *)((char *)obj + s->kasan_meta_offset);
}

/*
 * The return addresses of the calls that led here, from the frame
 * pointers (read without faulting: a corrupt chain ends the trace).  The
 * first is in KASAN's own hook: left out.
 */
static __noinline unsigned int save_stack(unsigned long *entries, unsigned int max)
{
	unsigned long frame[2], fp = (unsigned long)__builtin_frame_address(0);
	unsigned int nr = 0;
	bool first = true;

	while (nr < max && fp && !(fp & 7)) {
		if (copy_from_kernel_nofault(frame, (void *)fp, sizeof(frame)) || !frame[1])
			break;
		if (!first)
			entries[nr++] = frame[1];
		first = false;
		if (frame[0] <= fp)
			break;		/* callers are higher up the stack */
		fp = frame[0];
	}
	return nr;
}

/** kasan_save_track - this CPU and the stack that led to the hook, into @track */
void kasan_save_track(struct kasan_track *track)
{
	unsigned long entries[KASAN_STACK_DEPTH];
	unsigned int nr = save_stack(entries, KASAN_STACK_DEPTH);

	track->cpu = smp_processor_id();
	track->stack = stack_depot_save(entries, nr);
}

/** kasan_poison_slab - a new slab: nothing in it may be accessed yet */
void kasan_poison_slab(struct page *slab)
{
	struct kmem_cache *s = slab->slab_cache;
	char *obj = (char *)slab_address(slab) + s->red_left_pad;

	kasan_poison(slab_address(slab), PAGE_SIZE << slab_order(s, slab), KASAN_SLAB_REDZONE);
	for (unsigned int i = 0; i < slab->objects; i++, obj += s->size)
		__memset(kasan_get_meta(s, obj), 0, sizeof(struct kasan_meta));
}

/** kasan_unpoison_new_object - a new object of @s, for its constructor */
void kasan_unpoison_new_object(struct kmem_cache *s, void *obj)
{
	kasan_unpoison(obj, s->object_size);
}

/** kasan_poison_new_object - ... and after it: not allocated yet */
void kasan_poison_new_object(struct kmem_cache *s, void *obj)
{
	kasan_poison(obj, s->object_size, KASAN_SLAB_REDZONE);
}

/**
 * kasan_slab_alloc - @obj of @s is handed out: all of it accessible,
 * the allocation recorded (and the last free forgotten)
 *
 * Return: @obj (NULL stays NULL).
 */
void *kasan_slab_alloc(struct kmem_cache *s, void *obj)
{
	struct kasan_meta *meta;

	if (!obj)
		return NULL;
	kasan_unpoison(obj, s->object_size);
	meta = kasan_get_meta(s, obj);
	kasan_save_track(&meta->alloc);
	meta->free = (struct kasan_track){ 0, 0 };
	return obj;
}

/**
 * kasan_kmalloc - kmalloc(@size) got @obj from @s: the bytes past @size
 * become redzone, so an overflow by one byte is caught (and past the
 * object, if @s was too small a size class)
 *
 * Return: @obj.
 */
void *kasan_kmalloc(struct kmem_cache *s, void *obj, size_t size)
{
	unsigned long end;

	if (!obj)
		return NULL;
	/* A size class too small for @size (an allocator bug): the first write past it is caught. */
	size = min(size, (size_t)s->object_size);
	end = ALIGN(size, KASAN_GRANULE_SIZE);
	kasan_unpoison(obj, size);
	kasan_poison((char *)obj + end, ALIGN(s->object_size, KASAN_GRANULE_SIZE) - end,
		     KASAN_SLAB_REDZONE);
	return obj;
}

static void report_double_free(const void *obj, unsigned long ip)
{
	kasan_report_invalid_free((void *)obj, ip, "double-free");
	count_vm_event(SLAB_BAD_FREE);
}

/**
 * kasan_check_byte - may the byte at @addr be accessed?  Reported if not,
 * as an access at @ip (Linux's __kasan_check_byte())
 *
 * For ksize() and krealloc(), which must not hand out a freed object.
 * Context: any.  Return: true if it may (or KASAN is off on this CPU).
 */
bool kasan_check_byte(const void *addr, unsigned long ip)
{
	return kasan_check_range((unsigned long)addr, 1, false, ip);
}

/**
 * kasan_check_double_free - before a free that writes the object first
 * (kfree_sensitive()): is @obj, the start of an object, already freed?
 * @ip: the free's caller, for the report
 *
 * A freed object is reported as kfree() reports a double free, whether its
 * cache is checked by slab debugging or not; any other poisoned first byte
 * as a bad access.
 * Context: any.  Return: true if @obj may be freed.
 */
bool kasan_check_double_free(const void *obj, unsigned long ip)
{
	if (kasan_shadow_byte(obj) != KASAN_SLAB_FREE)
		return kasan_check_byte(obj, ip);
	report_double_free(obj, ip);
	return false;
}

/**
 * kasan_slab_free - @obj of @s is being freed by @caller
 *
 * A second free of an object KASAN holds (in its quarantine, or freed to
 * its slab since) is reported and refused - unless @s has slab debugging,
 * whose own check reports it (mm/slab_debug.c).  Otherwise the object is
 * poisoned and the free recorded; an object of a cache without debugging
 * then goes into the quarantine instead of back to its slab.
 *
 * Return: true if KASAN kept the object (the caller must not free it).
 */
bool kasan_slab_free(struct kmem_cache *s, void *obj, void *caller)
{
	bool checked = s->flags & SLAB_DEBUG_FLAGS;

	if (kasan_shadow_byte(obj) == KASAN_SLAB_FREE) {
		if (checked)
			return false;
		report_double_free(obj, (unsigned long)caller);
		return true;
	}
	kasan_poison(obj, s->object_size, KASAN_SLAB_FREE);
	kasan_save_track(&kasan_get_meta(s, obj)->free);
	if (checked)
		return false;
	kasan_quarantine_put(s, obj);
	return true;
}

/** kasan_kmalloc_large - kmalloc(@size) got whole pages at @ptr: their tail is redzone */
void *kasan_kmalloc_large(void *ptr, size_t size)
{
	unsigned long end = ALIGN(size, KASAN_GRANULE_SIZE);

	if (!ptr)
		return NULL;
	kasan_unpoison(ptr, size);
	kasan_poison((char *)ptr + end, (PAGE_SIZE << get_order(size)) - end, KASAN_PAGE_REDZONE);
	return ptr;
}

/** kasan_krealloc - krealloc() kept @obj for @new_size bytes: those, and no more */
void kasan_krealloc(const void *obj, size_t new_size)
{
	struct page *page = virt_to_head_page(obj);

	if (PageSlab(page))
		kasan_kmalloc(page->slab_cache, (void *)obj, new_size);
	else
		kasan_kmalloc_large((void *)obj, new_size);
}

/** kasan_alloc_pages - a block is handed out: accessible */
void kasan_alloc_pages(struct page *page, unsigned int order)
{
	kasan_unpoison(page_address(page), PAGE_SIZE << order);
}

/** kasan_free_pages - a block is freed: no access until it is handed out again */
void kasan_free_pages(struct page *page, unsigned int order)
{
	kasan_poison(page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE);
}
