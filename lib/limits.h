/*
 * lib/limits.h - the largest and smallest values of the integer types, by
 * the C names (INT_MAX, ULONG_MAX) and Linux's (U32_MAX, S64_MIN).  The
 * kernel is built without the C library, so its <limits.h> is not there.
 * Each is defined only if nothing defined it first: the host tests build
 * this code beside the C library's <limits.h>.
 */
#ifndef LIB_LIMITS_H
#define LIB_LIMITS_H

#ifndef INT_MAX
#define INT_MAX		__INT_MAX__
#define INT_MIN		(-INT_MAX - 1)
#define UINT_MAX	(INT_MAX * 2U + 1)
#define LONG_MAX	__LONG_MAX__
#define LONG_MIN	(-LONG_MAX - 1)
#define ULONG_MAX	(LONG_MAX * 2UL + 1)
#define LLONG_MAX	__LONG_LONG_MAX__
#define LLONG_MIN	(-LLONG_MAX - 1)
#define ULLONG_MAX	(LLONG_MAX * 2ULL + 1)
#endif

#define U8_MAX		((u8)~0U)
#define S8_MAX		((s8)(U8_MAX >> 1))
#define S8_MIN		((s8)(-S8_MAX - 1))
#define U16_MAX		((u16)~0U)
#define S16_MAX		((s16)(U16_MAX >> 1))
#define S16_MIN		((s16)(-S16_MAX - 1))
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))

#endif
