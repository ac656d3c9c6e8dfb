/*
 * kernel/cpumask.h - sets of CPUs, with Linux's names.
 *
 * A struct cpumask is a bitmap of NR_CPUS bits.  Three global masks say
 * what each CPU is: possible (listed, enabled, in the MADT and given a
 * number), present (the same here: no hotplug) and online (running the
 * kernel, reachable by IPIs).  Bits are set and cleared atomically, so CPUs
 * may come online while others read the mask.
 */
#ifndef KERNEL_CPUMASK_H
#define KERNEL_CPUMASK_H

#include "lib/compiler.h"
#include "kernel/config.h"

#define BITS_PER_LONG		64
#define CPUMASK_LONGS		((NR_CPUS + BITS_PER_LONG - 1) / BITS_PER_LONG)

struct cpumask {
	unsigned long bits[CPUMASK_LONGS];
};

extern struct cpumask __cpu_possible_mask, __cpu_online_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_or(&m->bits[cpu / BITS_PER_LONG], 1UL << (cpu % BITS_PER_LONG),
			  __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_and(&m->bits[cpu / BITS_PER_LONG], ~(1UL << (cpu % BITS_PER_LONG)),
			   __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return cpu < NR_CPUS &&
	       (READ_ONCE(m->bits[cpu / BITS_PER_LONG]) >> (cpu % BITS_PER_LONG)) & 1;
}

static inline void cpumask_clear(struct cpumask *m)
{
	for (unsigned int i = 0; i < CPUMASK_LONGS; i++)
		m->bits[i] = 0;
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	for (unsigned int i = 0; i < CPUMASK_LONGS; i++)
		dst->bits[i] = READ_ONCE(src->bits[i]);
}

/* @dst = @a & @b; returns whether any bit is left */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	unsigned long any = 0;

	for (unsigned int i = 0; i < CPUMASK_LONGS; i++)
		any |= dst->bits[i] = READ_ONCE(a->bits[i]) & READ_ONCE(b->bits[i]);
	return any != 0;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < CPUMASK_LONGS; i++) {
		for (unsigned long b = READ_ONCE(m->bits[i]); b; b &= b - 1)
			n++;		/* (no popcnt: the kernel targets plain x86-64) */
	}
	return n;
}

/* The first set bit at or after @cpu, or NR_CPUS: a word at a time (bsf). */
static inline unsigned int cpumask_next_from(unsigned int cpu, const struct cpumask *m)
{
	while (cpu < NR_CPUS) {
		unsigned long w = READ_ONCE(m->bits[cpu / BITS_PER_LONG]) >> (cpu % BITS_PER_LONG);

		if (w) {
			cpu += __builtin_ctzl(w);
			return cpu < NR_CPUS ? cpu : NR_CPUS;
		}
		cpu = (cpu / BITS_PER_LONG + 1) * BITS_PER_LONG;
	}
	return NR_CPUS;
}

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = cpumask_next_from(0, mask); (cpu) < NR_CPUS;	\
	     (cpu) = cpumask_next_from((cpu) + 1, mask))

#define for_each_possible_cpu(cpu)	for_each_cpu(cpu, cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu(cpu, cpu_online_mask)

static inline bool cpu_online(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_online_mask);
}

static inline bool cpu_possible(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_possible_mask);
}

static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(cpu_online_mask);
}

static inline unsigned int num_possible_cpus(void)
{
	return cpumask_weight(cpu_possible_mask);
}

#endif
