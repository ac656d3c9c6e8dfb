/*
 * lib/string.c - byte-at-a-time string and memory functions.
 *
 * Plain loops, chosen for being obviously right rather than fast: the
 * allocators never copy much.  The bulk copies, memcpy(), memset() and
 * memmove(), are in lib/memcpy.c.
 *
 * In a KASAN kernel every byte these loops read or write is checked, as in
 * any other file: a memchr() or strlen() that runs past its object is
 * reported at the first bad byte, naming the function, as Linux's
 * instrumented lib/string.c does.
 */
#include "lib/string.h"
#include "lib/compiler.h"
#include "lib/errno.h"

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
	}
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++) {
		if (*p == (unsigned char)c)
			return (void *)p;
	}
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++) {
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	}
	return n ? NULL : (char *)haystack;
}

/**
 * strscpy - copy a string into a buffer of @size bytes, always terminated
 * @dst: destination
 * @src: source string
 * @size: size of @dst in bytes
 *
 * Return: the length copied, or -E2BIG if @src did not fit and was cut.
 */
long strscpy(char *dst, const char *src, size_t size)
{
	/* each byte of @src read once: a bad one is reported once (KASAN) */
	for (size_t i = 0; i < size; i++) {
		char c = src[i];

		dst[i] = c;
		if (!c)
			return i;
	}
	if (size)
		dst[size - 1] = '\0';
	return -E2BIG;
}

/**
 * glob_match - shell-style pattern match: '*' any run, '?' one character
 * @pattern: the pattern
 * @str: the string to test
 *
 * Used to pick test suites by name (make test TESTS='buddy*').
 * Return: 1 if @str matches the whole of @pattern, else 0.
 */
int glob_match(const char *pattern, const char *str)
{
	const char *star = NULL, *retry = NULL;

	while (*str) {
		if (*pattern == '*') {
			star = ++pattern;
			retry = str;
		} else if (*pattern == '?' || *pattern == *str) {
			pattern++;
			str++;
		} else if (star) {
			/* Let the last '*' swallow one more character. */
			pattern = star;
			str = ++retry;
		} else {
			return 0;
		}
	}
	while (*pattern == '*')
		pattern++;
	return *pattern == '\0';
}
