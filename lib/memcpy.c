/*
 * lib/memcpy.c - memcpy(), memset() and memmove(): the bulk copies.
 *
 * The x86 "rep movsb/stosb" instructions, because on every CPU since Ivy
 * Bridge they are both simple and quick (`make bench` measures memcpy and
 * memset of a page).
 *
 * In a KASAN kernel this is the one file of lib/ that KASAN does not
 * instrument, and these are the plain versions, named __memcpy(),
 * __memset() and __memmove() there (lib/string.h): the memcpy() that code
 * calls checks both ranges first and then calls the plain one
 * (mm/kasan/shadow.c), and KASAN and the slab's debugging, which must
 * write poisoned memory, call the plain ones directly.  A check here would
 * be a second check of every byte, or a report where none is wanted.  An
 * instruction is not instrumented anyway: only memmove()'s backwards loop
 * would be.
 */
#include "lib/string.h"

void *memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;

	__asm__ __volatile__("rep movsb"
			     : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
	return ret;
}

void *memset(void *s, int c, size_t n)
{
	void *ret = s;

	__asm__ __volatile__("rep stosb"
			     : "+D"(s), "+c"(n) : "a"(c) : "memory");
	return ret;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* Overlapping with dst above src: copy from the end. */
	while (n--)
		d[n] = s[n];
	return dst;
}
