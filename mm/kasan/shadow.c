/*
 * mm/kasan/shadow.c - writing the shadow, checked memcpy() and friends,
 * and the shadow of the vmalloc space.
 *
 * Poisoning and unpoisoning work on whole granules (8 bytes): an object
 * of 13 bytes at a granule's start has the shadow 00 05, and what follows
 * it whatever its redzone says.  Objects always start on a granule: every
 * allocator here aligns to 8 at least.
 *
 * memcpy(), memset() and memmove() are plain instructions (rep movsb), so
 * no check is compiled into them: the versions here check the ranges and
 * call the plain ones (__memcpy...), as Linux's do.  A bad range is
 * reported and the copy is not done.
 *
 * The vmalloc space has no shadow until an area is made: then the shadow
 * pages under it are populated (arch/x86_64/kasan_init.c) and the whole
 * area, guard page included, is poisoned; vmalloc() unpoisons the bytes
 * it hands out, to the byte; vfree() poisons them again.  The shadow
 * pages stay when the area goes (Linux frees them at the lazy purge).
 */
#include "mm/kasan/kasan.h"

#define _RET_IP_	((unsigned long)__builtin_return_address(0))

/** kasan_poison - mark [@addr, @addr+@size) (@size rounded up to granules) with @value */
void kasan_poison(const void *addr, size_t size, u8 value)
{
	__memset(kasan_mem_to_shadow(addr), value,
		 ALIGN(size, KASAN_GRANULE_SIZE) >> KASAN_SHADOW_SCALE_SHIFT);
}

/** kasan_unpoison - make [@addr, @addr+@size) accessible, and not a byte more of its granules */
void kasan_unpoison(const void *addr, size_t size)
{
	u8 *shadow = kasan_mem_to_shadow(addr);

	__memset(shadow, 0, size >> KASAN_SHADOW_SCALE_SHIFT);
	if (size & KASAN_GRANULE_MASK)
		shadow[size >> KASAN_SHADOW_SCALE_SHIFT] = size & KASAN_GRANULE_MASK;
}

/** kasan_shadow_byte - the shadow byte of @addr's granule */
u8 kasan_shadow_byte(const void *addr)
{
	return *kasan_mem_to_shadow(addr);
}

/** kasan_unpoison_range - make @size bytes at @addr accessible (kfree_sensitive() wipes them) */
void kasan_unpoison_range(const void *addr, size_t size)
{
	kasan_unpoison(addr, size);
}

#undef memset
#undef memcpy
#undef memmove

void *memset(void *addr, int c, size_t len)
{
	if (!kasan_check_range((unsigned long)addr, len, true, _RET_IP_))
		return NULL;
	return __memset(addr, c, len);
}

void *memcpy(void *dst, const void *src, size_t len)
{
	if (!kasan_check_range((unsigned long)src, len, false, _RET_IP_) ||
	    !kasan_check_range((unsigned long)dst, len, true, _RET_IP_))
		return NULL;
	return __memcpy(dst, src, len);
}

void *memmove(void *dst, const void *src, size_t len)
{
	if (!kasan_check_range((unsigned long)src, len, false, _RET_IP_) ||
	    !kasan_check_range((unsigned long)dst, len, true, _RET_IP_))
		return NULL;
	return __memmove(dst, src, len);
}

/**
 * kasan_populate_vmalloc - shadow for a new vmalloc area, all of it poisoned
 * @addr: its start
 * @size: its size, guard page included
 * @gfp: for the shadow pages
 *
 * Context: may sleep if @gfp does.  Return: 0, or -ENOMEM.
 */
int kasan_populate_vmalloc(unsigned long addr, unsigned long size, gfp_t gfp)
{
	int err = kasan_populate_shadow(addr, addr + size, gfp);

	if (!err)
		kasan_poison((void *)addr, size, KASAN_VMALLOC_INVALID);
	return err;
}

/** kasan_unpoison_vmalloc - the @size bytes vmalloc() hands out at @addr become accessible */
void kasan_unpoison_vmalloc(const void *addr, unsigned long size)
{
	kasan_unpoison(addr, size);
}

/** kasan_poison_vmalloc - @size bytes at @addr are vmalloc space out of use again */
void kasan_poison_vmalloc(const void *addr, unsigned long size)
{
	kasan_poison(addr, size, KASAN_VMALLOC_INVALID);
}
