/*
 * tests/host/test_vsprintf.c - lib/vsprintf.c against the formats printk
 * promises, on the host, under the sanitizers.
 */
#include <limits.h>
#include "host_test.h"
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
static const char *volatile unknown_format = "%q";

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

HOST_TEST(unknown_conversion_is_shown)
{
	FMT("%q", unknown_format, 0);
}
