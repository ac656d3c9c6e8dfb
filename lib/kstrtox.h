/*
 * lib/kstrtox.h - strict string to integer conversion, as Linux's kstrto*().
 *
 * Unlike C's strtoul() (and Linux's old simple_strtoul()), these accept a
 * string only if the whole of it is one number: "12" is 12, but "12abc",
 * "abc", "" and " 12" are -EINVAL, and a number too large for the result
 * type is -ERANGE instead of wrapping.  Exactly as in Linux:
 *
 *   - one leading '+' is allowed; a leading '-' only for the signed types;
 *   - one trailing newline is allowed ("12\n": what `echo 12 > file` writes
 *     into a sysfs file), nothing else after the digits;
 *   - @base is 0, 8, 10 or 16 (any of 2..16 works).  Base 0 guesses from the
 *     prefix: "0x" (or "0X") means hex, a leading "0" octal, else decimal.
 *     Base 16 also accepts the "0x" prefix.  Base 10 reads "010" as ten;
 *   - *@res is written only on success.
 *
 * kstrtobool() reads a yes or a no instead ("1", "y", "on", "0", "n",
 * "off", ...: see lib/kstrtox.c).
 *
 * Return (all of them): 0, -EINVAL (no digits, or anything after them but
 * one '\n'), or -ERANGE (the value does not fit; checked first, so
 * "99999999999999999999x" is -ERANGE).
 */
#ifndef LIB_KSTRTOX_H
#define LIB_KSTRTOX_H

#include "lib/compiler.h"

int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtobool(const char *s, bool *res);

/* long is long long on x86-64, as Linux's kstrtoul() assumes when it can. */
static inline int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(unsigned long long));
	return kstrtoull(s, base, (unsigned long long *)res);
}

static inline int kstrtol(const char *s, unsigned int base, long *res)
{
	BUILD_BUG_ON(sizeof(long) != sizeof(long long));
	return kstrtoll(s, base, (long long *)res);
}

#endif
