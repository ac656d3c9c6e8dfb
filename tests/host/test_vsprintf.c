/*
 * tests/host/test_vsprintf.c - lib/vsprintf.c against the formats printk
 * promises, on the host, under the sanitizers: each integer conversion,
 * flag, width, precision and size against the C library's own snprintf,
 * and by hand where the kernel does as Linux and not as C.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "host_test.h"

/* The C library's snprintf: defined before kernel_names.h renames the name. */
static int __attribute__((format(printf, 3, 4)))
libc_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

#include "kernel_names.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

static char buf[256];

#define FMT(expect, ...)						\
	do {								\
		int __n = snprintf(buf, sizeof(buf), __VA_ARGS__);	\
		CHECK_STREQ(buf, expect);				\
		CHECK(__n == (int)strlen(expect));			\
	} while (0)

HOST_TEST(integers)
{
	FMT("42 -7 42", "%d %i %u", 42, -7, 42u);
	FMT("-2147483648", "%d", INT_MIN);
	FMT("4294967295", "%u", UINT_MAX);
	FMT("-9223372036854775808", "%lld", LLONG_MIN);
	FMT("18446744073709551615", "%llu", ULLONG_MAX);
	FMT("123456789012", "%zu", (size_t)123456789012ULL);
	FMT("-5", "%zd", (long)-5);
	/* %hh converts the int to a char, which clang's -Wformat objects to */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
	FMT("-1 255", "%hhd %hhu", 255, 255);
#pragma GCC diagnostic pop
}

HOST_TEST(hex_and_octal)
{
	FMT("ff FF 0xff", "%x %X %#x", 255, 255, 255);
	FMT("ffffffffffffffff", "%lx", ~0UL);
	FMT("deadbeefcafe", "%llx", 0xdeadbeefcafeULL);
	FMT("17 017", "%o %#o", 15, 15);
	FMT("0", "%x", 0);
}

HOST_TEST(width_padding_precision)
{
	FMT("   42", "%5d", 42);
	FMT("42   |", "%-5d|", 42);
	FMT("00042", "%05d", 42);
	FMT("-0042", "%05d", -42);
	FMT("+42", "%+d", 42);
	FMT("00ff", "%04x", 255);
	FMT("0x00ff", "%#06x", 255);
	FMT("  007", "%5.3d", 7);
	FMT("   42", "%*d", 5, 42);
	FMT("42   |", "%*d|", -5, 42);
}

/* volatile: so the compiler cannot see (and warn about) what the test does on purpose */
static const char *volatile null_string;
static const char *volatile unknown_format = "a=%d %q b=%d";

/* The kernel's result and length for FMT and its argument are the C library's. */
#define LIKE_LIBC(fmt, arg)						\
	do {								\
		char __want[128];					\
		int __w = libc_snprintf(__want, sizeof(__want), fmt, arg); \
		int __n = snprintf(buf, sizeof(buf), fmt, arg);		\
		if (strcmp(buf, __want) || __n != __w)			\
			fprintf(stderr, "  %s: kernel '%s' (%d), C '%s' (%d)\n", \
				fmt, buf, __n, __want, __w);		\
		CHECK_STREQ(buf, __want);				\
		CHECK(__n == __w);					\
	} while (0)

/* Every flag, with width and precision, on each integer conversion */
#define EVERY_FLAG(conv, arg)						\
	do {								\
		LIKE_LIBC("%" conv, arg);				\
		LIKE_LIBC("%+" conv, arg);				\
		LIKE_LIBC("% " conv, arg);				\
		LIKE_LIBC("%-8" conv "|", arg);				\
		LIKE_LIBC("%08" conv, arg);				\
		LIKE_LIBC("%+08" conv, arg);				\
		LIKE_LIBC("%.5" conv, arg);				\
		LIKE_LIBC("%8.5" conv, arg);				\
		LIKE_LIBC("%-+8.5" conv "|", arg);			\
		LIKE_LIBC("% 08" conv, arg);				\
	} while (0)

/* '+' and ' ' with an unsigned conversion on purpose: C says they do nothing there */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
HOST_TEST(integers_as_the_c_library)
{
	static const int ints[] = { 0, 1, -1, 8, 42, -42, 255, INT_MAX, INT_MIN };

	for (unsigned int i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		EVERY_FLAG("d", ints[i]);
		EVERY_FLAG("i", ints[i]);
		EVERY_FLAG("u", (unsigned int)ints[i]);
		EVERY_FLAG("x", (unsigned int)ints[i]);
		EVERY_FLAG("X", (unsigned int)ints[i]);
		EVERY_FLAG("o", (unsigned int)ints[i]);
		EVERY_FLAG("ld", (long)ints[i]);
		EVERY_FLAG("lu", (unsigned long)ints[i]);
		EVERY_FLAG("lld", (long long)ints[i]);
		EVERY_FLAG("llx", (unsigned long long)ints[i]);
		EVERY_FLAG("jd", (intmax_t)ints[i]);
		EVERY_FLAG("ju", (uintmax_t)ints[i]);
		EVERY_FLAG("zu", (size_t)ints[i]);
		EVERY_FLAG("zd", (ssize_t)ints[i]);
		EVERY_FLAG("td", (ptrdiff_t)ints[i]);
		EVERY_FLAG("hd", (short)ints[i]);
		EVERY_FLAG("hu", (unsigned short)ints[i]);
		if (ints[i]) {	/* '#' of 0: see the Linux test below */
			LIKE_LIBC("%#x", (unsigned int)ints[i]);
			LIKE_LIBC("%#10x", (unsigned int)ints[i]);
			LIKE_LIBC("%#010x", (unsigned int)ints[i]);
			LIKE_LIBC("%#o", (unsigned int)ints[i]);
			LIKE_LIBC("%#.5o", (unsigned int)ints[i]);
			LIKE_LIBC("%#8.5o", (unsigned int)ints[i]);
			LIKE_LIBC("%#.5x", (unsigned int)ints[i]);
		}
	}
	LIKE_LIBC("%jd", INTMAX_MIN);
	LIKE_LIBC("%ju", UINTMAX_MAX);
}
#pragma GCC diagnostic pop

/* A later argument still lands in its own conversion after %jd and %zu. */
HOST_TEST(size_modifiers_keep_the_arguments_in_step)
{
	FMT("-5 7 x", "%jd %zu %s", (intmax_t)-5, (size_t)7, "x");
	FMT("3 4", "%td %d", (ptrdiff_t)3, 4);
}

/* Where Linux's vsprintf (6.12) differs from C, this kernel does as Linux. */
HOST_TEST(as_linux_where_linux_is_not_c)
{
	FMT("0", "%.0d", 0);		/* C: "" */
	FMT("0x0", "%#x", 0);		/* C: "0" */
	FMT("0", "%#o", 0);		/* C too */
}

HOST_TEST(strings_and_chars)
{
	FMT("hello", "%s", "hello");
	FMT("  abc|abc  |", "%5s|%-5s|", "abc", "abc");
	FMT("ab", "%.2s", "abcdef");
	FMT("ab", "%.*s", 2, "abcdef");
	FMT("(null)", "%s", null_string);
	FMT("x|  y", "%c|%3c", 'x', 'y');
	FMT("100%", "100%%");
}

HOST_TEST(pointers_without_symbols)
{
	FMT("ffff888000001000", "%p", (void *)0xffff888000001000UL);
	FMT("0000000000000000", "%p", NULL);
	/* with no symbol formatter registered, %pS falls back to the address */
	FMT("ffffffff80100000", "%pS", (void *)0xffffffff80100000UL);
}

static int fake_symbols(char *b, size_t size, unsigned long addr, bool with_offset)
{
	return with_offset ? snprintf(b, size, "func+0x%lx/0x40", addr & 0xf)
			   : snprintf(b, size, "func");
}

HOST_TEST(pointers_with_symbols)
{
	vsprintf_set_symbol_formatter(fake_symbols);
	FMT("at func+0x3/0x40!", "at %pS!", (void *)0x1003);
	FMT("at func!", "at %ps!", (void *)0x1003);
	vsprintf_set_symbol_formatter(NULL);
}

HOST_TEST(truncation_is_safe_and_counted)
{
	char small[6];
	int n = snprintf(small, sizeof(small), "%s", "overflowing");

	CHECK(n == 11);
	CHECK_STREQ(small, "overf");
	CHECK(snprintf(NULL, 0, "%d", 12345) == 5);
	CHECK(scnprintf(small, sizeof(small), "%s", "overflowing") == 5);
	CHECK(scnprintf(small, sizeof(small), "%s", "ok") == 2);
}

/* As Linux: the arguments after an unknown conversion cannot be matched, so the output ends */
HOST_TEST(unknown_conversion_ends_the_output)
{
	FMT("a=1 ", unknown_format, 1, 2);
}
