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

#endif
