/*
 * mm/kasan.h - the allocators' hooks into KASAN, the kernel address sanitizer.
 *
 * In a KASAN kernel (make KASAN=1) every byte of memory has a state in the
 * shadow (arch/x86_64/kasan.h), and every load and store the compiler
 * emits is checked against it first (mm/kasan/generic.c).  The allocators
 * keep the states true with these hooks: an object is accessible from its
 * allocation to its free and not a byte beyond its requested size; a free
 * object, a redzone, a free page are not.  A freed slab object waits in a
 * quarantine before its slab may reuse it, so a late access still finds it
 * freed.  Reports are Linux's (mm/kasan/report.c).
 *
 * In every other kernel the hooks are empty inlines: no code, no cost.
 * The names and places are Linux's (include/linux/kasan.h); docs/testing.md
 * tells how to read a report.
 */
#ifndef MM_KASAN_H
#define MM_KASAN_H

#include "kernel/config.h"
#include "mm/gfp.h"
#include "lib/compiler.h"

struct kmem_cache;
struct page;
struct phys_range;

#if CONFIG_KASAN

/* Room for KASAN's record after each object (its alloc and free stacks). */
struct kasan_track {
	u32 cpu;
	u32 stack;		/* a stack depot handle (mm/kasan/stack_depot.c), 0: none */
};

struct kasan_meta {
	struct kasan_track alloc, free;
	void *quarantine_next;	/* while the object waits in the quarantine */
};

void kasan_init(const struct phys_range *ram, unsigned int nr_ranges);
void kasan_disable_current(void);
void kasan_enable_current(void);

unsigned int kasan_cache_create(struct kmem_cache *s, unsigned int size);
void kasan_poison_slab(struct page *slab);
void kasan_unpoison_new_object(struct kmem_cache *s, void *obj);
void kasan_poison_new_object(struct kmem_cache *s, void *obj);
void *kasan_slab_alloc(struct kmem_cache *s, void *obj);
void *kasan_kmalloc(struct kmem_cache *s, void *obj, size_t size);
bool kasan_slab_free(struct kmem_cache *s, void *obj, void *caller);
void kasan_cache_shrink(struct kmem_cache *s);
unsigned long kasan_quarantine_pages(void);
void *kasan_kmalloc_large(void *ptr, size_t size);
void kasan_krealloc(const void *obj, size_t new_size);
void kasan_unpoison_range(const void *addr, size_t size);
bool kasan_check_byte(const void *addr, unsigned long ip);
bool kasan_check_double_free(const void *obj, unsigned long ip);

void kasan_alloc_pages(struct page *page, unsigned int order);
void kasan_free_pages(struct page *page, unsigned int order);

int kasan_populate_vmalloc(unsigned long addr, unsigned long size, gfp_t gfp);
void kasan_unpoison_vmalloc(const void *addr, unsigned long size);
void kasan_poison_vmalloc(const void *addr, unsigned long size);

#else /* !CONFIG_KASAN */

static inline void kasan_init(const struct phys_range *ram, unsigned int nr)
{
	(void)ram;
	(void)nr;
}
static inline void kasan_disable_current(void) {}
static inline void kasan_enable_current(void) {}
static inline unsigned int kasan_cache_create(struct kmem_cache *s, unsigned int size)
{
	(void)s;
	return size;
}
static inline void kasan_poison_slab(struct page *slab) { (void)slab; }
static inline void kasan_unpoison_new_object(struct kmem_cache *s, void *obj)
{
	(void)s;
	(void)obj;
}
static inline void kasan_poison_new_object(struct kmem_cache *s, void *obj)
{
	(void)s;
	(void)obj;
}
static inline void *kasan_slab_alloc(struct kmem_cache *s, void *obj)
{
	(void)s;
	return obj;
}
static inline void *kasan_kmalloc(struct kmem_cache *s, void *obj, size_t size)
{
	(void)s;
	(void)size;
	return obj;
}
static inline bool kasan_slab_free(struct kmem_cache *s, void *obj, void *caller)
{
	(void)s;
	(void)obj;
	(void)caller;
	return false;
}
static inline void kasan_cache_shrink(struct kmem_cache *s) { (void)s; }
static inline unsigned long kasan_quarantine_pages(void)
{
	return 0;
}
static inline void *kasan_kmalloc_large(void *ptr, size_t size)
{
	(void)size;
	return ptr;
}
static inline void kasan_krealloc(const void *obj, size_t new_size)
{
	(void)obj;
	(void)new_size;
}
static inline void kasan_unpoison_range(const void *addr, size_t size)
{
	(void)addr;
	(void)size;
}
static inline bool kasan_check_byte(const void *addr, unsigned long ip)
{
	(void)addr;
	(void)ip;
	return true;
}
static inline bool kasan_check_double_free(const void *obj, unsigned long ip)
{
	(void)obj;
	(void)ip;
	return true;
}
static inline void kasan_alloc_pages(struct page *page, unsigned int order)
{
	(void)page;
	(void)order;
}
static inline void kasan_free_pages(struct page *page, unsigned int order)
{
	(void)page;
	(void)order;
}
static inline int kasan_populate_vmalloc(unsigned long addr, unsigned long size, gfp_t gfp)
{
	(void)addr;
	(void)size;
	(void)gfp;
	return 0;
}
static inline void kasan_unpoison_vmalloc(const void *addr, unsigned long size)
{
	(void)addr;
	(void)size;
}
static inline void kasan_poison_vmalloc(const void *addr, unsigned long size)
{
	(void)addr;
	(void)size;
}

#endif /* CONFIG_KASAN */
#endif
