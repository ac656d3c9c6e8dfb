/*
 * mm/memalloc.c - the allocation scopes of mm/gfp.h (memalloc_nofs_save()
 * and its kin): this CPU's marks, and the gfp they leave an allocation.
 *
 * Linux keeps the marks in the task (current->flags, PF_MEMALLOC_*); this
 * kernel has no tasks and code does not move between CPUs, so each CPU
 * has a word of them.  An interrupt handler sees the marks of the code it
 * interrupted, as Linux's does: harmless, since it cannot reclaim anyway.
 */
#include "mm/cpu.h"
#include "mm/gfp.h"

static DEFINE_PER_CPU(unsigned int, memalloc_flags);

/**
 * memalloc_flags_save - set the scope marks @flags (PF_MEMALLOC_*) on this CPU
 *
 * Context: any; pair with memalloc_flags_restore() on the same CPU.
 * Return: the marks of @flags that were not set yet, for the restore.
 */
unsigned int memalloc_flags_save(unsigned int flags)
{
	unsigned int old = this_cpu_read(memalloc_flags);

	this_cpu_write(memalloc_flags, old | flags);
	return ~old & flags;
}

/**
 * memalloc_flags_restore - clear what the matching memalloc_flags_save() set
 * @flags: its return value (marks set by an outer scope stay)
 *
 * Context: any, on the CPU that saved.
 */
void memalloc_flags_restore(unsigned int flags)
{
	this_cpu_write(memalloc_flags, this_cpu_read(memalloc_flags) & ~flags);
}

/**
 * current_memalloc_flags - this CPU's scope marks (PF_MEMALLOC_*, PF_MEMALLOC)
 *
 * Linux reads them in current->flags.
 * Context: any.
 */
unsigned int current_memalloc_flags(void)
{
	return this_cpu_read(memalloc_flags);
}

/**
 * current_gfp_context - @gfp as the scopes of this CPU allow it
 *
 * Linux's: within memalloc_noio_save() both __GFP_IO and __GFP_FS go,
 * within memalloc_nofs_save() __GFP_FS.
 * Context: any.  Return: the reduced gfp.
 */
gfp_t current_gfp_context(gfp_t gfp)
{
	unsigned int flags = this_cpu_read(memalloc_flags);

	if (likely(!flags))
		return gfp;
	if (flags & PF_MEMALLOC_NOIO)
		return gfp & ~(__GFP_IO | __GFP_FS);
	if (flags & PF_MEMALLOC_NOFS)
		return gfp & ~__GFP_FS;
	return gfp;
}
