/*
 * lib/atomic.h - Linux's atomic_t and atomic_long_t: a counter that every
 * CPU may change at once, read and changed only through these calls.
 *
 * Each is one of the compiler's __atomic builtins.  The ones that return
 * a value (atomic_inc_return(), atomic_cmpxchg(), atomic_dec_and_test())
 * are fully ordered, as Linux's; atomic_read(), atomic_set() and the ones
 * that return nothing are relaxed, as Linux's are.
 */
#ifndef LIB_ATOMIC_H
#define LIB_ATOMIC_H

#include "lib/compiler.h"

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

/* The same calls for both types: atomic_*() on atomic_t, atomic_long_*() on atomic_long_t. */
#define __ATOMIC_OPS(prefix, type, atomic_type)						\
static inline type prefix##_read(const atomic_type *v)					\
{											\
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);				\
}											\
static inline void prefix##_set(atomic_type *v, type i)					\
{											\
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);				\
}											\
static inline void prefix##_add(type i, atomic_type *v)					\
{											\
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);				\
}											\
static inline void prefix##_sub(type i, atomic_type *v)					\
{											\
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);				\
}											\
static inline type prefix##_add_return(type i, atomic_type *v)				\
{											\
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);			\
}											\
static inline type prefix##_sub_return(type i, atomic_type *v)				\
{											\
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);			\
}											\
static inline type prefix##_fetch_add(type i, atomic_type *v)				\
{											\
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);			\
}											\
static inline type prefix##_xchg(atomic_type *v, type i)				\
{											\
	return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST);			\
}											\
/* The old value; @v became @new only if it was @old */					\
static inline type prefix##_cmpxchg(atomic_type *v, type old, type new)			\
{											\
	__atomic_compare_exchange_n(&v->counter, &old, new, false, __ATOMIC_SEQ_CST,	\
				    __ATOMIC_SEQ_CST);					\
	return old;									\
}											\
static inline void prefix##_inc(atomic_type *v)						\
{											\
	prefix##_add(1, v);								\
}											\
static inline void prefix##_dec(atomic_type *v)						\
{											\
	prefix##_sub(1, v);								\
}											\
static inline type prefix##_inc_return(atomic_type *v)					\
{											\
	return prefix##_add_return(1, v);						\
}											\
static inline type prefix##_dec_return(atomic_type *v)					\
{											\
	return prefix##_sub_return(1, v);						\
}											\
static inline bool prefix##_dec_and_test(atomic_type *v)				\
{											\
	return prefix##_sub_return(1, v) == 0;						\
}

__ATOMIC_OPS(atomic, int, atomic_t)
__ATOMIC_OPS(atomic_long, long, atomic_long_t)

#undef __ATOMIC_OPS

#endif
