/*
 * mm/maccess.h - reading kernel memory that may not be mapped.
 *
 * copy_from_kernel_nofault() copies like memcpy() but returns -EFAULT instead
 * of oopsing when the source faults (an unmapped page, a guard page), and
 * -ERANGE, reading nothing, when the source is not a kernel address at all
 * (the lower half, where NULL is, or non-canonical), as Linux.  Tests use it to prove that a freed vmalloc area
 * is really unmapped; the oops code uses it to walk a possibly corrupt
 * stack.  It is part of mm's interface to the CPU: the implementation is in
 * arch/x86_64/maccess.c (exception-table fixups), and tests/host has its own.
 */
#ifndef MM_MACCESS_H
#define MM_MACCESS_H

#include <stddef.h>

long copy_from_kernel_nofault(void *dst, const void *src, size_t size);

/* 0 and @val set from *@ptr, or -EFAULT or -ERANGE with @val unchanged. */
#define get_kernel_nofault(val, ptr) ({					\
	__typeof__(val) __gkn_tmp;					\
	long __gkn_ret = copy_from_kernel_nofault(&__gkn_tmp, (ptr),	\
						  sizeof(__gkn_tmp));	\
	if (!__gkn_ret)							\
		(val) = __gkn_tmp;					\
	__gkn_ret;							\
})

#endif
