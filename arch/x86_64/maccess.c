/*
 * arch/x86_64/maccess.c - loads that may fault, made safe by the exception table.
 *
 * probe_read_byte() below is one mov instruction with an entry in the
 * __ex_table section: "if the instruction at 1: faults, continue at 3:".
 * The page-fault and general-protection handlers look the faulting address
 * up in that table (arch/x86_64/traps.c) and, finding it, resume at the
 * fixup, which reports -EFAULT.  Nothing is printed; no oops happens.
 *
 * Before any load, the range itself is checked, as Linux's x86 does: an
 * address in the lower half (user space on Linux, where NULL and small
 * offsets from it land) or a non-canonical one is never kernel memory, and
 * is refused with -ERANGE without being touched.
 */
#include "mm/maccess.h"
#include "lib/compiler.h"
#include "lib/errno.h"

/* With 48-bit addresses, the upper half's first canonical address */
#define UPPER_HALF_START	0xffff800000000000UL

static inline long probe_read_byte(u8 *dst, const u8 *src)
{
	long err;
	u8 v;

	__asm__ __volatile__(
		"1:	movb (%[src]), %[val]\n"
		"	xorl %k[err], %k[err]\n"
		"2:\n"
		"	.pushsection .text.fixup, \"ax\"\n"
		"3:	movq %[efault], %[err]\n"
		"	xorb %[val], %[val]\n"
		"	jmp 2b\n"
		"	.popsection\n"
		"	.pushsection __ex_table, \"a\"\n"
		"	.balign 8\n"
		"	.quad 1b, 3b\n"
		"	.popsection\n"
		: [err] "=r"(err), [val] "=q"(v)
		: [src] "r"(src), [efault] "i"((long)-EFAULT));
	*dst = v;
	return err;
}

/* Could [@src, @src + @size) be kernel memory: in the upper half, and canonical? */
static bool copy_from_kernel_nofault_allowed(const void *src, size_t size)
{
	unsigned long start = (unsigned long)src;

	return start >= UPPER_HALF_START && start + size >= start;
}

/**
 * copy_from_kernel_nofault - copy kernel memory, tolerating faults
 * @dst: destination (must be valid)
 * @src: source, which may be unmapped or non-canonical
 * @size: bytes to copy
 *
 * Context: any; never sleeps, never oopses on @src.
 * Return: 0; -ERANGE if @src is not a kernel address (the lower half, NULL
 * included, or non-canonical: nothing is read); -EFAULT if a byte of @src
 * could not be read (@dst then holds what was read before the fault).
 */
long copy_from_kernel_nofault(void *dst, const void *src, size_t size)
{
	u8 *d = dst;
	const u8 *s = src;

	if (!copy_from_kernel_nofault_allowed(src, size))
		return -ERANGE;

	for (size_t i = 0; i < size; i++) {
		if (probe_read_byte(&d[i], &s[i]))
			return -EFAULT;
	}
	return 0;
}
