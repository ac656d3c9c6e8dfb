/*
 * kernel/percpu.h - per-CPU variables, with Linux's names.
 *
 * DEFINE_PER_CPU(type, name) puts one variable in the .data..percpu
 * section of the image.  That section is only a template: at boot each CPU
 * gets its own copy of it (its "per-CPU area"), and the CPU's GS base
 * register holds the distance from the template to its copy,
 * __per_cpu_offset[cpu].  So "%gs:name" addresses this CPU's copy in one
 * instruction, with no need to know which CPU we are:
 *
 *	this_cpu_read(x), this_cpu_write(x, v), this_cpu_inc(x), this_cpu_add(x, n)
 *		one instruction each on this CPU's copy; an interrupt cannot
 *		split them (but another CPU's copy is not touched);
 *	this_cpu_ptr(&x)	a pointer to this CPU's copy (stable only while the
 *				code cannot move to another CPU: always here, since
 *				this kernel has no scheduler);
 *	per_cpu_ptr(&x, cpu), per_cpu(x, cpu)	another CPU's copy.
 *
 * Before percpu_init_boot_cpu() the GS base is 0 and the template itself
 * serves as CPU 0's copy; percpu_init_boot_cpu() must therefore run before
 * anything writes a per-CPU variable (it is the first call in kmain).
 *
 * Each area also has a dynamic part after the copy of the template, where
 * alloc_percpu() (mm/percpu.h) carves per-CPU objects at run time: the
 * zones' per-CPU page lists, the slab caches' per-CPU sheaves.  A pointer
 * alloc_percpu() returns is used exactly like &var of a DEFINE_PER_CPU
 * variable: this_cpu_ptr(p), per_cpu_ptr(p, cpu); never dereference it as
 * it is (it points past the template, where no CPU's data lives).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "lib/compiler.h"
#include "kernel/config.h"

#define PER_CPU_SECTION		".data..percpu"

#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name
#define DEFINE_PER_CPU(type, name)					\
	__section(PER_CPU_SECTION) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name)				\
	__section(PER_CPU_SECTION) __aligned(64) __typeof__(type) name

/* Distance from the template to each CPU's copy (0 until it has one). */
extern unsigned long __per_cpu_offset[NR_CPUS];
DECLARE_PER_CPU(unsigned long, this_cpu_off);

#define per_cpu_offset(cpu)	(__per_cpu_offset[cpu])

#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((unsigned long)(ptr) + per_cpu_offset(cpu)))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

/* One instruction with a %gs prefix: this CPU's copy of @var. */
#define this_cpu_read(var) ({						\
	__typeof__(var) __pcp_v;					\
	__asm__ __volatile__("mov %%gs:%1, %0"				\
			     : "=r"(__pcp_v) : "m"(var));		\
	__pcp_v;							\
})

/*
 * "op %gs:var, value" with the operand size spelled out, so that a constant
 * can be an immediate: this_cpu_inc() of a counter is one instruction.
 */
#define __pcp_op(op, var, val) do {					\
	switch (sizeof(var)) {						\
	case 1:								\
		__asm__ __volatile__(op "b %1, %%gs:%0" : "+m"(var)	\
				     : "qi"((u8)(unsigned long)(val)) : "memory"); \
		break;							\
	case 2:								\
		__asm__ __volatile__(op "w %1, %%gs:%0" : "+m"(var)	\
				     : "ri"((u16)(unsigned long)(val)) : "memory"); \
		break;							\
	case 4:								\
		__asm__ __volatile__(op "l %1, %%gs:%0" : "+m"(var)	\
				     : "ri"((u32)(unsigned long)(val)) : "memory"); \
		break;							\
	default:							\
		__asm__ __volatile__(op "q %1, %%gs:%0" : "+m"(var)	\
				     : "er"((u64)(unsigned long)(val)) : "memory"); \
	}								\
} while (0)

#define this_cpu_write(var, val)	__pcp_op("mov", var, val)
#define this_cpu_add(var, val)		__pcp_op("add", var, val)

#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define this_cpu_dec(var)	this_cpu_add(var, -1)
#define this_cpu_sub(var, val)	this_cpu_add(var, -(val))

/*
 * Linux's __this_cpu_*() may be used only where the caller already keeps
 * the task on its CPU; here every this_cpu_*() is one instruction that an
 * interrupt cannot split, so they are the same.
 */
#define __this_cpu_read(var)		this_cpu_read(var)
#define __this_cpu_write(var, val)	this_cpu_write(var, val)
#define __this_cpu_add(var, val)	this_cpu_add(var, val)
#define __this_cpu_sub(var, val)	this_cpu_sub(var, val)
#define __this_cpu_inc(var)		this_cpu_inc(var)
#define __this_cpu_dec(var)		this_cpu_dec(var)

#define this_cpu_ptr(ptr)						\
	((__typeof__(ptr))((unsigned long)(ptr) + this_cpu_read(this_cpu_off)))

/* Bytes of every CPU's area kept for alloc_percpu() (mm/percpu.c) */
#define PERCPU_DYNAMIC_SIZE	(16 * 1024)

extern char __per_cpu_start[], __per_cpu_end[];

/* Where the dynamic part starts, as a template address (see above) */
#define __per_cpu_dynamic_start	__per_cpu_end

void percpu_init_boot_cpu(void);
void setup_per_cpu_areas(void *(*alloc)(unsigned long size));
void percpu_install_area(unsigned int cpu, void *area);
unsigned long percpu_area_size(void);

#endif
