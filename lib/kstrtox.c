/*
 * lib/kstrtox.c - strict string to integer conversion (Linux's kstrtox.c).
 *
 * Every entry point funnels into parse_ull(): pick the base from the prefix,
 * read digits while noting overflow (but not stopping at it, so that the
 * answer for a huge number with junk after it is -ERANGE, as in Linux),
 * then insist that nothing but one newline follows.  The signed and
 * narrower variants parse as unsigned long long and check the range.
 */
#include "lib/kstrtox.h"
#include "lib/errno.h"

static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;	/* lower case */
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 16;	/* not a digit in any base we take */
}

/* Base 0: "0x" + a hex digit is hex, another leading 0 octal, else decimal. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	bool hex_prefix = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (*base == 0) {
		if (s[0] != '0')
			*base = 10;
		else if (hex_prefix && digit_value(s[2]) < 16)
			*base = 16;
		else
			*base = 8;
	}
	if (*base == 16 && hex_prefix)
		s += 2;
	return s;
}

/*
 * The whole of @s as a number in @base, or -EINVAL / -ERANGE.  No sign:
 * callers deal with '+' and '-'.
 */
static int parse_ull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long value = 0;
	const char *digits;
	bool overflow = false;

	s = fixup_radix(s, &base);
	for (digits = s; digit_value(*s) < base; s++) {
		unsigned int d = digit_value(*s);

		if (value > (ULLONG_MAX - d) / base)
			overflow = true;
		value = value * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (s == digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = value;
	return 0;
}

/**
 * kstrtoull - convert a string to an unsigned long long
 * @s: the string: digits, optionally one leading '+' and one trailing '\n'
 * @base: 0 (guess from the prefix), 8, 10 or 16
 * @res: where to store the value; untouched on failure
 *
 * Context: any.
 * Return: 0, -EINVAL for a string that is not entirely a number, -ERANGE
 * for a number above ULLONG_MAX.
 */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return parse_ull(s, base, res);
}

/**
 * kstrtoll - convert a string to a long long
 * @s: as kstrtoull(), or '-' followed by digits
 * @base: 0, 8, 10 or 16
 * @res: where to store the value; untouched on failure
 *
 * Context: any.
 * Return: 0, -EINVAL, or -ERANGE outside LLONG_MIN..LLONG_MAX.
 */
int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long tmp;
	int err;

	if (s[0] == '-') {
		err = parse_ull(s + 1, base, &tmp);
		if (err)
			return err;
		if (tmp > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		/* -tmp in unsigned arithmetic: LLONG_MIN itself has no positive twin */
		*res = (long long)(0ULL - tmp);
		return 0;
	}
	err = kstrtoull(s, base, &tmp);
	if (err)
		return err;
	if (tmp > (unsigned long long)LLONG_MAX)
		return -ERANGE;
	*res = (long long)tmp;
	return 0;
}

/**
 * kstrtouint - convert a string to an unsigned int
 *
 * As kstrtoull(); -ERANGE above UINT_MAX.
 */
int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long tmp;
	int err = kstrtoull(s, base, &tmp);

	if (err)
		return err;
	if (tmp != (unsigned int)tmp)
		return -ERANGE;
	*res = (unsigned int)tmp;
	return 0;
}

/**
 * kstrtoint - convert a string to an int
 *
 * As kstrtoll(); -ERANGE outside INT_MIN..INT_MAX.
 */
int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long tmp;
	int err = kstrtoll(s, base, &tmp);

	if (err)
		return err;
	if (tmp != (int)tmp)
		return -ERANGE;
	*res = (int)tmp;
	return 0;
}

/**
 * kstrtobool - read a yes or a no, as Linux's command-line switches are
 * @s: "1", "y", "yes", "t", "true", "on" (true) or "0", "n", "no", "f",
 *     "false", "off" (false): the first letter decides, or the first two
 *     for "on" and "off"; the case does not matter
 * @res: where the value goes; untouched on error
 *
 * Return: 0, or -EINVAL if @s (maybe NULL) says neither.
 */
int kstrtobool(const char *s, bool *res)
{
	char first, second;

	if (!s)
		return -EINVAL;
	first = s[0] | 0x20;	/* lower case; '0' and '1' are unchanged */
	second = s[0] ? s[1] | 0x20 : 0;	/* never past the end */
	if (first == '1' || first == 'y' || first == 't' || (first == 'o' && second == 'n')) {
		*res = true;
		return 0;
	}
	if (first == '0' || first == 'n' || first == 'f' || (first == 'o' && second == 'f')) {
		*res = false;
		return 0;
	}
	return -EINVAL;
}
