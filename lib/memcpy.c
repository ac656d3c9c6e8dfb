/*
 * lib/memcpy.c - memcpy(), memset() and memmove(): the bulk copies.
 *
 * The x86 string instructions, 8 bytes a step ("rep movsq/stosq") and the
 * last few bytes one at a time ("rep movsb/stosb").  On CPUs with ERMS (Ivy
 * Bridge and later) a byte-wise "rep movsb" of the whole length is as
 * quick in hardware, and Linux picks it there by CPU feature; QEMU's
 * default CPU has no ERMS, and under -icount every step of a "rep" counts
 * as one instruction, so byte steps made zeroing a page cost 4,096
 * instructions where Linux, on that CPU, stores 8 bytes at a time ("rep
 * stosq" or an unrolled loop of movq: arch/x86/lib/clear_page_64.S), 512
 * to 700.  Eight bytes a step is right on every x86-64 CPU.
 * (`make bench` measures memcpy and memset of a page.)
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
	size_t words = n / 8, bytes = n % 8;

	__asm__ __volatile__("rep movsq\n\t"
			     "movq %[bytes], %%rcx\n\t"
			     "rep movsb"
			     : "+D"(dst), "+S"(src), "+c"(words)
			     : [bytes] "r"(bytes) : "memory");
	return ret;
}

void *memset(void *s, int c, size_t n)
{
	void *ret = s;
	size_t words = n / 8, bytes = n % 8;
	/* the byte in all eight lanes: stosq stores RAX, stosb its low byte */
	unsigned long pattern = (unsigned char)c * 0x0101010101010101UL;

	__asm__ __volatile__("rep stosq\n\t"
			     "movq %[bytes], %%rcx\n\t"
			     "rep stosb"
			     : "+D"(s), "+c"(words)
			     : "a"(pattern), [bytes] "r"(bytes) : "memory");
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
