/*
 * lib/vsprintf.c - the one formatter behind printk, snprintf and the tests.
 *
 * The idea: walk the format once, and for each conversion turn the argument
 * into digits in a small scratch buffer, then emit it with padding through
 * one output function that counts every character but stores only those
 * that fit.  So vsnprintf always returns the length the full result would
 * have had, as C requires, and never writes past @size.
 */
#include "lib/vsprintf.h"
#include "lib/string.h"

struct out {
	char *buf;
	size_t size;
	size_t len;		/* characters produced, stored or not */
};

struct spec {
	bool left;		/* '-' */
	bool zero;		/* '0' */
	bool plus;		/* '+' */
	bool space;		/* ' ' */
	bool alt;		/* '#' */
	int width;
	int precision;		/* -1 when absent */
};

static symbol_formatter_t symbol_formatter;

void vsprintf_set_symbol_formatter(symbol_formatter_t fn)
{
	symbol_formatter = fn;
}

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padding(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* Emit @s (of @len chars) padded to the field width. */
static void put_field(struct out *o, const struct spec *sp, const char *s, int len)
{
	if (!sp->left)
		put_padding(o, ' ', sp->width - len);
	for (int i = 0; i < len; i++)
		put(o, s[i]);
	if (sp->left)
		put_padding(o, ' ', sp->width - len);
}

static void put_string(struct out *o, const struct spec *sp, const char *s)
{
	if (!s)
		s = "(null)";
	put_field(o, sp, s, sp->precision < 0 ? (int)strlen(s)
					      : (int)strnlen(s, sp->precision));
}

/*
 * Emit @v in @base with @sign (0 for none) before it.  At least one digit
 * is printed, even for a value of 0 at precision 0 (as Linux does; C would
 * print nothing).  '#' puts "0x" before hex (also before 0, as Linux) and
 * makes octal start with a 0, adding one only if the precision did not.
 */
static void put_number(struct out *o, const struct spec *sp, unsigned long long v,
		       char sign, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, ndigits, len;
	const char *prefix = "";

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);

	ndigits = sp->precision > n ? sp->precision : n;
	if (sp->alt && base == 16)
		prefix = upper ? "0X" : "0x";
	else if (sp->alt && base == 8 && ndigits == n && tmp[n - 1] != '0')
		prefix = "0";
	len = ndigits + (sign != 0) + (int)strlen(prefix);

	if (!sp->left && !(sp->zero && sp->precision < 0))
		put_padding(o, ' ', sp->width - len);
	if (sign)
		put(o, sign);
	while (*prefix)
		put(o, *prefix++);
	if (!sp->left && sp->zero && sp->precision < 0)
		put_padding(o, '0', sp->width - len);
	put_padding(o, '0', ndigits - n);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		put_padding(o, ' ', sp->width - len);
}

static void put_pointer(struct out *o, struct spec *sp, const char **fmt, void *p)
{
	char sym[128];
	char kind = **fmt;

	if ((kind == 'S' || kind == 's') && symbol_formatter) {
		(*fmt)++;
		put_field(o, sp, sym,
			  symbol_formatter(sym, sizeof(sym), (unsigned long)p, kind == 'S'));
		return;
	}
	if (kind == 'S' || kind == 's' || kind == 'x')
		(*fmt)++;
	sp->zero = true;
	sp->width = 16;
	put_number(o, sp, (unsigned long)p, 0, 16, false);
}

/*
 * Parse flags, width, precision; return the size modifier ('H' is hh, 'L'
 * is ll and j, 'l' also z and t: long is 64 bits, as intmax_t and size_t).
 */
static char parse_spec(const char **fmt, struct spec *sp, va_list *args)
{
	const char *f = *fmt;
	char size = 0;

	memset(sp, 0, sizeof(*sp));
	sp->precision = -1;
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*args, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->precision = 0;
		if (*f == '*') {
			sp->precision = va_arg(*args, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->precision = sp->precision * 10 + (*f++ - '0');
	}
	if (*f == 'h') {
		size = *++f == 'h' ? (f++, 'H') : 'h';
	} else if (*f == 'l') {
		size = *++f == 'l' ? (f++, 'L') : 'l';
	} else if (*f == 'j') {
		size = 'L';
		f++;
	} else if (*f == 'z' || *f == 't') {
		size = 'l';
		f++;
	}
	*fmt = f;
	return size;
}

static unsigned long long get_unsigned(char size, va_list *args)
{
	switch (size) {
	case 'L': return va_arg(*args, unsigned long long);
	case 'l': return va_arg(*args, unsigned long);
	case 'h': return (unsigned short)va_arg(*args, unsigned int);
	case 'H': return (unsigned char)va_arg(*args, unsigned int);
	default: return va_arg(*args, unsigned int);
	}
}

static long long get_signed(char size, va_list *args)
{
	switch (size) {
	case 'L': return va_arg(*args, long long);
	case 'l': return va_arg(*args, long);
	case 'h': return (short)va_arg(*args, int);
	case 'H': return (signed char)va_arg(*args, int);
	default: return va_arg(*args, int);
	}
}

/* '+' and ' ' sign only the signed conversions (%d, %i), as C and Linux. */
static char sign_of(const struct spec *sp, bool negative)
{
	if (negative)
		return '-';
	if (sp->plus)
		return '+';
	return sp->space ? ' ' : 0;
}

/**
 * vsnprintf - format into a buffer
 * @buf: destination, may be NULL when @size is 0
 * @size: bytes available in @buf, including the terminating NUL
 * @fmt: format string (see lib/vsprintf.h for what is supported)
 * @args: arguments
 *
 * An unknown conversion ends the output there, as in Linux (6.12): the
 * arguments after it can no longer be matched to the conversions, so
 * printing on would show every later value in the wrong place.
 *
 * Context: any; does not allocate.
 * Return: the length the whole result has, even if it was cut to fit.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };
	struct spec sp;
	va_list ap;

	va_copy(ap, args);
	while (*fmt) {
		char size_mod, conv;

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		size_mod = parse_spec(&fmt, &sp, &ap);
		conv = *fmt ? *fmt++ : '\0';
		switch (conv) {
		case 'd':
		case 'i': {
			long long v = get_signed(size_mod, &ap);
			unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v
						       : (unsigned long long)v;
			put_number(&o, &sp, mag, sign_of(&sp, v < 0), 10, false);
			break;
		}
		case 'u':
			put_number(&o, &sp, get_unsigned(size_mod, &ap), 0, 10, false);
			break;
		case 'x':
		case 'X':
			put_number(&o, &sp, get_unsigned(size_mod, &ap), 0, 16, conv == 'X');
			break;
		case 'o':
			put_number(&o, &sp, get_unsigned(size_mod, &ap), 0, 8, false);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			put_field(&o, &sp, &c, 1);
			break;
		}
		case 's':
			put_string(&o, &sp, va_arg(ap, const char *));
			break;
		case 'p':
			put_pointer(&o, &sp, &fmt, va_arg(ap, void *));
			break;
		case '%':
			put(&o, '%');
			break;
		default:	/* unknown, or the format ended after '%' */
			goto out;
		}
	}
out:
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

/** snprintf - vsnprintf() with the arguments inline */
int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

/**
 * vscnprintf - like vsnprintf(), but returns what was really stored
 *
 * Return: the number of characters written to @buf, not counting the NUL.
 */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int n = vsnprintf(buf, size, fmt, args);

	if (!size)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

/** scnprintf - vscnprintf() with the arguments inline */
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}
