/*
 * lib/string.h - the C string and memory functions, freestanding.
 *
 * The compiler may emit calls to memcpy, memset, memmove and memcmp on its
 * own (for struct copies), so these four must exist with exactly these
 * names even in a kernel without a C library.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
long strscpy(char *dst, const char *src, size_t size);
int glob_match(const char *pattern, const char *str);

/*
 * In a KASAN kernel (make KASAN=1) memcpy(), memset() and memmove() check
 * the memory they touch (mm/kasan/shadow.c) and call these, the plain
 * ones (lib/memcpy.c, which defines them under these names).  A file KASAN
 * does not instrument - KASAN itself, the slab's debugging, which looks at
 * freed memory on purpose - calls the plain ones directly, as in Linux
 * (arch/x86/include/asm/string_64.h).  The other functions here are
 * always checked.
 */
#if defined(CONFIG_KASAN) && CONFIG_KASAN
#include "lib/compiler.h"
void *__memcpy(void *dst, const void *src, size_t n);
void *__memmove(void *dst, const void *src, size_t n);
void *__memset(void *s, int c, size_t n);
#if !KASAN_SANITIZED
#define memcpy(dst, src, n)	__memcpy(dst, src, n)
#define memmove(dst, src, n)	__memmove(dst, src, n)
#define memset(s, c, n)		__memset(s, c, n)
#endif
#endif

/*
 * memzero_explicit - memset(@s, 0, @count) that the compiler may not drop,
 * even when @s is about to be freed (a secret must not stay behind).
 */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

#endif
