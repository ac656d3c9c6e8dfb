/*
 * mm/percpu.h - per-CPU objects allocated at run time, with Linux's names.
 *
 * DEFINE_PER_CPU (kernel/percpu.h) gives one copy per CPU of a variable
 * known when the kernel is linked.  Allocators need per-CPU data for
 * things made at run time (a zone's per-CPU page list, a slab cache's
 * per-CPU object arrays): alloc_percpu(type) returns one object per
 * possible CPU, all zeroed, reached like a per-CPU variable:
 *
 *	struct per_cpu_pages *pcp = alloc_percpu(struct per_cpu_pages);
 *	this_cpu_ptr(pcp)->count++;		(this CPU's copy)
 *	per_cpu_ptr(pcp, 3)->count;		(CPU 3's copy)
 *	free_percpu(pcp);
 *
 * Each CPU's copies sit in that CPU's own area, so different CPUs' copies
 * never share a cache line.  The pointer itself must never be dereferenced.
 */
#ifndef MM_PERCPU_H
#define MM_PERCPU_H

#include "mm/cpu.h"

#define alloc_percpu(type)						\
	((type *)__alloc_percpu(sizeof(type), __alignof__(type)))

void *__alloc_percpu(size_t size, size_t align);
void free_percpu(void *ptr);
size_t percpu_dynamic_free(void);

#endif
