/*
 * tests/host/test_string.c - lib/string.c and lib/memcpy.c on the host, under the sanitizers.
 */
#include "host_test.h"
#include "kernel_names.h"
#include "lib/string.h"
#include "lib/kstrtox.h"
#include "lib/errno.h"

HOST_TEST(memcpy_copies_and_returns_dst)
{
	char src[64], dst[64];

	for (int i = 0; i < 64; i++)
		src[i] = (char)i;
	CHECK(memcpy(dst, src, 64) == dst);
	CHECK(memcmp(dst, src, 64) == 0);
	CHECK(memcpy(dst, src, 0) == dst);
}

HOST_TEST(memset_fills)
{
	unsigned char b[33];

	memset(b, 0xab, sizeof(b));
	for (int i = 0; i < 33; i++)
		CHECK(b[i] == 0xab);
}

HOST_TEST(memmove_handles_overlap_both_ways)
{
	char b[16] = "0123456789";

	memmove(b + 2, b, 8);
	CHECK(!memcmp(b, "0101234567", 10));
	memmove(b, b + 2, 8);
	CHECK(!memcmp(b, "0123456767", 10));
}

/*
 * Eight bytes a step, then the rest one at a time: every length from 0 to
 * 40 at every alignment, with the bytes on both sides left alone.
 */
HOST_TEST(memset_and_memcpy_every_length_and_alignment)
{
	unsigned char src[64], dst[64];

	for (int i = 0; i < 64; i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (int align = 0; align < 8; align++) {
		for (int len = 0; len <= 40; len++) {
			memset(dst, 0x5a, sizeof(dst));
			CHECK(memset(dst + align, 0xc3, len) == dst + align);
			for (int i = 0; i < 64; i++)
				CHECK(dst[i] == (i >= align && i < align + len ? 0xc3 : 0x5a));
			memset(dst, 0x5a, sizeof(dst));
			CHECK(memcpy(dst + align, src + 7 - align, len) == dst + align);
			for (int i = 0; i < 64; i++)
				CHECK(dst[i] == (i >= align && i < align + len ?
						 src[7 - align + i - align] : 0x5a));
		}
	}
}

/* Overlapping with the destination below the source: copied forwards, 8 bytes a step. */
HOST_TEST(memmove_down_by_every_distance)
{
	unsigned char b[64], want[64];

	for (int dist = 1; dist <= 9; dist++) {
		for (int len = 0; len <= 40; len++) {
			for (int i = 0; i < 64; i++)
				b[i] = want[i] = (unsigned char)i;
			for (int i = 0; i < len; i++)
				want[4 + i] = (unsigned char)(4 + dist + i);
			memmove(b + 4, b + 4 + dist, len);
			CHECK(!memcmp(b, want, sizeof(b)));
		}
	}
}

HOST_TEST(memcmp_orders_bytes_unsigned)
{
	CHECK(memcmp("\x01", "\xff", 1) < 0);
	CHECK(memcmp("abc", "abd", 3) < 0);
	CHECK(memcmp("abc", "abc", 3) == 0);
}

HOST_TEST(memchr_finds_first)
{
	const char *h = "hello";

	CHECK(memchr(h, 'l', 5) == h + 2);
	CHECK(memchr(h, 'z', 5) == NULL);
	CHECK(memchr(h, 'o', 4) == NULL);
}

HOST_TEST(strings_compare_and_search)
{
	const char *s = "buddy allocator";

	CHECK(strlen(s) == 15);
	CHECK(strnlen(s, 5) == 5);
	CHECK(strcmp("a", "b") < 0 && strcmp("b", "a") > 0 && strcmp("x", "x") == 0);
	CHECK(strncmp("abcX", "abcY", 3) == 0);
	CHECK(strchr(s, 'a') == s + 6);
	CHECK(strrchr(s, 'a') == s + 11);
	CHECK(strchr(s, 'z') == NULL);
	CHECK(strstr(s, "alloc") == s + 6);
	CHECK(strstr(s, "slab") == NULL);
	CHECK(strstr(s, "") == s);
}

HOST_TEST(strscpy_truncates_and_terminates)
{
	char b[4];

	CHECK(strscpy(b, "ab", sizeof(b)) == 2);
	CHECK_STREQ(b, "ab");
	CHECK(strscpy(b, "abcdef", sizeof(b)) == -E2BIG);
	CHECK_STREQ(b, "abc");
	CHECK(strscpy(b, "x", 0) == -E2BIG);
}

/* The edges where the arithmetic could overflow: undefined behaviour shows up here. */
HOST_TEST(kstrtox_limits)
{
	unsigned long long ull = 7;
	long long ll = 7;
	unsigned int u = 7;
	int i = 7;

	CHECK(kstrtoull("18446744073709551615", 10, &ull) == 0 && ull == ~0ULL);
	CHECK(kstrtoull("18446744073709551616", 10, &ull) == -ERANGE && ull == ~0ULL);
	CHECK(kstrtoull("0xffffffffffffffff", 0, &ull) == 0 && ull == ~0ULL);
	CHECK(kstrtoull("0x10000000000000000", 0, &ull) == -ERANGE);
	CHECK(kstrtoll("-9223372036854775808", 10, &ll) == 0 && ll == -9223372036854775807LL - 1);
	CHECK(kstrtoll("-9223372036854775809", 10, &ll) == -ERANGE);
	CHECK(kstrtoll("9223372036854775808", 10, &ll) == -ERANGE);
	CHECK(kstrtouint("4294967296", 10, &u) == -ERANGE && u == 7);
	CHECK(kstrtoint("-2147483648", 10, &i) == 0 && i == -2147483647 - 1);
	CHECK(kstrtoint("2147483648", 10, &i) == -ERANGE);
	CHECK(kstrtoint("12x", 10, &i) == -EINVAL && i == -2147483647 - 1);
}

HOST_TEST(glob_matches_like_a_shell)
{
	CHECK(glob_match("*", "anything"));
	CHECK(glob_match("*", ""));
	CHECK(glob_match("buddy*", "buddy_alloc"));
	CHECK(!glob_match("buddy*", "slab"));
	CHECK(glob_match("*alloc*", "page_alloc_test"));
	CHECK(glob_match("a?c", "abc"));
	CHECK(!glob_match("a?c", "ac"));
	CHECK(glob_match("a*b*c", "aXXbYYc"));
	CHECK(!glob_match("a*b*c", "aXXbYY"));
	CHECK(glob_match("selftest_fault", "selftest_fault"));
}
