/*
 * kernel/smp.h - which CPU am I, and how many are there.
 *
 * PLACEHOLDER until SMP bring-up lands (issue 4): one CPU, number 0.
 * The SMP work replaces this file, keeping these names and meanings.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "kernel/config.h"

static inline unsigned int smp_processor_id(void)
{
	return 0;
}

static inline unsigned int num_online_cpus(void)
{
	return 1;
}

#define for_each_online_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)

typedef void (*smp_call_func_t)(void *info);

static inline void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	(void)wait;
	func(info);
}

#endif
