/*
 * lib/compiler.h - the handful of compiler words every file uses.
 *
 * Linux's names, so code reads the same here as there: likely(), READ_ONCE(),
 * container_of(), __section().  Nothing here generates code by itself.
 */
#ifndef LIB_COMPILER_H
#define LIB_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#include "lib/limits.h"
#include "lib/sizes.h"

#define __packed		__attribute__((packed))
#define __aligned(x)		__attribute__((aligned(x)))
#define __section(s)		__attribute__((section(s)))
#define __used			__attribute__((used))
#define __unused		__attribute__((unused))
#define __noreturn		__attribute__((noreturn))
#define __noinline		__attribute__((noinline))
#ifndef __always_inline	/* glibc has one, when built for the host */
#define __always_inline		inline __attribute__((always_inline))
#endif
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __weak			__attribute__((weak))
/* Not checked by KASAN (mm/kasan/): for code that looks at freed memory on purpose. */
#define __no_sanitize_address	__attribute__((no_sanitize_address))

/* KASAN_SANITIZED: this file is compiled with KASAN's checks (clang 14 only says it this way). */
#if defined(__SANITIZE_ADDRESS__)
#define KASAN_SANITIZED		1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KASAN_SANITIZED		1
#endif
#endif
#ifndef KASAN_SANITIZED
#define KASAN_SANITIZED		0
#endif

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" ::: "memory")

/*
 * Marked accesses (Linux's, tools/memory-model): one volatile load or store,
 * which the compiler may neither tear, fuse, nor invent.  Under KCSAN the
 * compiler reports each as __tsan_volatile_read/write, which the detector
 * treats as intended to race (kernel/kcsan.c): they are never the plain side
 * of a data race, though they still count for ASSERT_EXCLUSIVE_*().
 */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

/*
 * KCSAN, the data-race detector (kernel/kcsan.c, docs/testing.md): only in
 * the kernels `make KCSAN=1` builds, which pass -DCONFIG_KCSAN=1.
 *
 * data_race(expr): @expr's accesses race on purpose and the race is benign
 * (a statistic read without its lock, a hint re-checked under the lock);
 * KCSAN ignores them.  Unlike READ_ONCE() it promises nothing about the
 * code: without KCSAN it compiles to @expr's code alone (the hooks are empty
 * inline functions), so marking a fast path with it changes no
 * instruction.  Every use says why, in a comment.
 *
 * ASSERT_EXCLUSIVE_WRITER(var): no other CPU may write @var concurrently
 * (readers are fine); ASSERT_EXCLUSIVE_ACCESS(var): no other CPU may even
 * read it.  They check the rule, not the code: under KCSAN, sampled like
 * any access, a concurrent writer (or accessor) is reported as "BUG: KCSAN:
 * assert: race in ...", marked accesses included; otherwise they are nothing.
 */
#define KCSAN_ACCESS_WRITE	0x1
#define KCSAN_ACCESS_COMPOUND	0x2
#define KCSAN_ACCESS_ATOMIC	0x4
#define KCSAN_ACCESS_ASSERT	0x8

#if defined(CONFIG_KCSAN) && CONFIG_KCSAN
void kcsan_disable_current(void);
void kcsan_enable_current(void);
void __kcsan_check_access(const volatile void *ptr, size_t size, int type);
#else
/* Nothing, but the same macros below: what builds without KCSAN builds with it. */
static inline void kcsan_disable_current(void) { }
static inline void kcsan_enable_current(void) { }
static inline void __kcsan_check_access(const volatile void *ptr, size_t size, int type)
{
	(void)ptr;
	(void)size;
	(void)type;
}
#endif

/* (the inner braces let @expr be a bit-field, which __auto_type refuses) */
#define data_race(expr) ({						\
	kcsan_disable_current();					\
	__auto_type __kcsan_v = ({ (expr); });				\
	kcsan_enable_current();						\
	__kcsan_v;							\
})
#define ASSERT_EXCLUSIVE_WRITER(var)					\
	__kcsan_check_access(&(var), sizeof(var), KCSAN_ACCESS_ASSERT)
#define ASSERT_EXCLUSIVE_ACCESS(var)					\
	__kcsan_check_access(&(var), sizeof(var),			\
			     KCSAN_ACCESS_ASSERT | KCSAN_ACCESS_WRITE)

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define clamp(x, lo, hi)	min(max(x, lo), hi)
#define min_t(type, a, b)	min((type)(a), (type)(b))
#define max_t(type, a, b)	max((type)(a), (type)(b))
/* Rounding to a power of two @a, as Linux's round_up()/round_down() */
#define round_up(x, a)		ALIGN(x, a)
#define round_down(x, a)	ALIGN_DOWN(x, a)

#define BIT(n)			(1UL << (n))
/* The highest set bit's number (Linux's ilog2() of a variable): @n must not be 0 */
#define ilog2(n)		(63 - __builtin_clzl((unsigned long)(n)))
#define BIT_ULL(n)		(1ULL << (n))

/* The address of the instruction being executed (who takes a lock, where a WARN is) */
#define _THIS_IP_	({ unsigned long __ip;					\
			   __asm__ __volatile__("leaq 0(%%rip), %0" : "=r"(__ip));	\
			   __ip; })

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)

#endif
