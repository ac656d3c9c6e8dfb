/*
 * tests/host/mm_host.h - mm/cpu.h's interface for the host (-DMM_HOSTED).
 *
 * mm/ is written against a small interface to the CPU (mm/cpu.h).  Built
 * for the host, that interface is this file and mm_host.c:
 *
 *   - "physical memory" is one big PROT_NONE reservation of virtual address
 *     space; the RAM ranges of the fake machine are made readable and
 *     writable, holes stay PROT_NONE, so touching a hole faults at once.
 *     __va(phys) = host_phys_base + phys, exactly the kernel's linear map
 *     with PAGE_OFFSET = host_phys_base.
 *   - vmemmap is a second reservation, backed (mprotect'ed RW) only for the
 *     16 MiB sections that hold RAM, as the kernel backs its vmemmap: a
 *     struct page read for a pfn without one faults, as it would there.
 *   - spinlocks and "interrupts off" are plain flags, checked: taking a lock
 *     twice (a deadlock on one CPU) or releasing a free lock aborts.
 *   - there may be several "CPUs": host_set_cpu() chooses which one the
 *     code runs on, and on_each_cpu() runs the function on each in turn,
 *     so per-CPU lists can be tested.  Per-CPU variables work as in the
 *     kernel: DEFINE_PER_CPU puts them in a template (the host_percpu
 *     section), each of the NR_CPUS CPUs has a copy of it followed by the
 *     dynamic part alloc_percpu() carves, and per_cpu_ptr() adds the CPU's
 *     offset.  Deferred work runs at once, on the CPU it was queued for.
 *
 * printk() goes to stdout (unless host_printk_quiet) and into a log that
 * tests read with printk_log_pos()/printk_log_read(), as KUnit tests do.
 */
#ifndef TESTS_HOST_MM_HOST_H
#define TESTS_HOST_MM_HOST_H

#include "lib/compiler.h"
#include "kernel/config.h"
#include "kernel/panic.h"
#include "kernel/workqueue.h"

/* ---------------------------------------------------------------- pages */

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

typedef u64 phys_addr_t;

extern unsigned long host_phys_base;	/* virtual address of physical 0 */
extern void *host_vmemmap_base;		/* struct page of pfn 0 */

#define PAGE_OFFSET	host_phys_base

/*
 * The vmalloc space, for the headers that name it (mm/vmalloc.h through
 * mm/kvmalloc.h: kvfree() in mm/slab.c).  vmalloc itself is not built for
 * the host; no host address falls in this range, so kvfree() never takes
 * its vmalloc path here (tests/host/mm_host.c's vfree() says so if it did).
 */
#define VMALLOC_START	0xffffc90000000000UL
#define VMALLOC_END	0xffffe8ffffffffffUL
typedef struct {
	u64 pgprot;
} pgprot_t;
#define vmemmap		((struct page *)host_vmemmap_base)

static inline void *__va(phys_addr_t phys)
{
	return (void *)(phys + host_phys_base);
}

static inline phys_addr_t __phys_addr(unsigned long virt)
{
	return virt - host_phys_base;
}
#define __pa(virt)	__phys_addr((unsigned long)(virt))
#define PFN_UP(x)	(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x)	((x) >> PAGE_SHIFT)
#define LOAD_PHYS	0x100000UL	/* the kernel's, for mm/page_snapshot.c: no image here */

/* ---------------------------------------------------------------- CPUs */

extern unsigned int host_cpu;		/* the "current CPU": host_set_cpu() */
extern unsigned long host_this_cpu_off;	/* its __per_cpu_offset[], as the kernel's %gs */
extern unsigned int host_nr_cpus;	/* online CPUs: 0..host_nr_cpus-1 */
extern unsigned long host_irqs_off;	/* nonzero between local_irq_save/restore */

static inline unsigned int smp_processor_id(void)
{
	return host_cpu;
}

static inline unsigned int num_online_cpus(void)
{
	return host_nr_cpus;
}

#define for_each_online_cpu(cpu)	for ((cpu) = 0; (cpu) < host_nr_cpus; (cpu)++)

typedef void (*smp_call_func_t)(void *info);

/* Run @func on every online CPU, one after the other (wait is implied). */
void on_each_cpu(smp_call_func_t func, void *info, int wait);

static inline void cpu_relax(void)
{
	__asm__ __volatile__("" ::: "memory");
}

#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)

static inline bool cpu_possible(unsigned int cpu)
{
	return cpu < NR_CPUS;
}

extern unsigned int host_in_interrupt;	/* nonzero: "in an interrupt handler" */

/* The host's machines are always "running": the context checks apply. */
enum system_states {
	SYSTEM_BOOTING,
	SYSTEM_RUNNING,
};
#define system_state	SYSTEM_RUNNING

static inline bool in_interrupt(void)
{
	return host_in_interrupt != 0;
}

static inline bool irqs_disabled(void)
{
	return host_irqs_off != 0;
}

/* ---------------------------------------------------------------- per-CPU data */

#define PERCPU_DYNAMIC_SIZE	(16 * 1024)

extern char __start_host_percpu[] __weak, __stop_host_percpu[] __weak;
extern unsigned long __per_cpu_offset[NR_CPUS];

#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name
#define DEFINE_PER_CPU(type, name)					\
	__section("host_percpu") __aligned(8) __typeof__(type) name

#define __per_cpu_start		__start_host_percpu
#define __per_cpu_dynamic_start						\
	(__start_host_percpu + ALIGN(__stop_host_percpu - __start_host_percpu, 64))

#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((unsigned long)(ptr) + __per_cpu_offset[cpu]))
#define this_cpu_ptr(ptr)	((__typeof__(ptr))((unsigned long)(ptr) + host_this_cpu_off))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))
#define this_cpu_read(var)	(*this_cpu_ptr(&(var)))
#define this_cpu_write(var, val)	(*this_cpu_ptr(&(var)) = (val))
#define this_cpu_add(var, val)	(*this_cpu_ptr(&(var)) += (val))
#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define this_cpu_dec(var)	this_cpu_add(var, -1)

/*
 * As the kernel's, these are compiler barriers: what is done with
 * "interrupts off" stays between them, and the flag is really written
 * (so the benchmarks count what the kernel does).
 */
#define local_irq_save(flags)						\
	do {								\
		(flags) = host_irqs_off;				\
		host_irqs_off = 1;					\
		__asm__ __volatile__("" : : : "memory");		\
	} while (0)

#define local_irq_restore(flags)					\
	do {								\
		__asm__ __volatile__("" : : : "memory");		\
		host_irqs_off = (flags);				\
	} while (0)

/*
 * The kernel's restartable sequences (arch/x86_64/restart.h), in C: a host
 * program has no interrupts, so nothing can come between two of these
 * instructions, and the compiler makes of them what the kernel's asm is.
 */
static inline bool percpu_stack_pop(void ***top, void **const *bottom, void **objp)
{
	if (*top == *bottom)
		return false;
	*objp = *--*top;
	return true;
}

static inline bool percpu_stack_push(void ***top, void **const *limit, void *obj)
{
	if (*top == *limit)
		return false;
	*(*top)++ = obj;
	return true;
}

/* ---------------------------------------------------------------- spinlocks */

typedef struct {
	int locked;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED	{ .locked = 0 }
#define DEFINE_SPINLOCK(name)	spinlock_t name = __SPIN_LOCK_UNLOCKED

__noreturn void host_lock_bug(const char *what, spinlock_t *lock);

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->locked = 0;
}

/* One CPU at a time: a lock already held can only mean a deadlock. */
static inline void spin_lock(spinlock_t *lock)
{
	if (unlikely(lock->locked))
		host_lock_bug("spin_lock: recursive locking (deadlock)", lock);
	lock->locked = 1;
}

static inline bool spin_trylock(spinlock_t *lock)
{
	if (lock->locked)
		return false;
	lock->locked = 1;
	return true;
}

static inline void spin_unlock(spinlock_t *lock)
{
	if (unlikely(!lock->locked))
		host_lock_bug("spin_unlock: lock not held", lock);
	lock->locked = 0;
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return lock->locked;
}

/* One CPU runs at a time: a held lock is held by "this CPU". */
static inline bool lockdep_is_held(spinlock_t *lock)
{
	return lock->locked;
}

#define spin_lock_irqsave(lock, flags)					\
	do {								\
		local_irq_save(flags);					\
		spin_lock(lock);					\
	} while (0)

#define spin_unlock_irqrestore(lock, flags)				\
	do {								\
		spin_unlock(lock);					\
		local_irq_restore(flags);				\
	} while (0)

/* ---------------------------------------------------------------- time and randomness */

/* Nanoseconds of the host's monotonic clock (the kernel's: since time_init()). */
u64 ktime_get_ns(void);

/*
 * The kernel's is RDRAND (mm/cpu.h); the host's is a fixed sequence that
 * starts again with every machine, so that a test or fuzz input replays
 * exactly, freelist secrets included.
 */
unsigned long get_random_long(void);

/* ---------------------------------------------------------------- the fake machine */

/* A range of fake physical memory, on a NUMA node. */
struct host_range {
	phys_addr_t base;
	phys_addr_t size;
	int nid;
};

/* Fake physical addresses go up to this (virtual space reserved, not memory). */
#define HOST_PHYS_LIMIT		(8ULL << 30)

/*
 * host_machine_init - forget everything and boot a fresh fake machine
 * @ram: RAM ranges (page-aligned or not: memblock rounds as the kernel does)
 * @nr_ram: how many
 * @reserved: ranges memblock_reserve()s before the buddy allocator starts
 * @nr_reserved: how many
 * @nr_cpus: online CPUs (1..NR_CPUS)
 *
 * Discards the previous machine's memory, resets memblock and the present
 * sections, backs RAM and its struct pages, then runs mm_core_init() with
 * the distances host_set_distances() gave (else the defaults).
 * Poisoning is turned off, the CPU is 0 and get_random_long() starts its
 * sequence again.  The slab allocator is not started: a test that uses it
 * calls kmem_cache_init() next (tests/host/slab_check.h does).
 */
void host_machine_init(const struct host_range *ram, int nr_ram,
		       const struct host_range *reserved, int nr_reserved,
		       unsigned int nr_cpus);

/*
 * host_set_distances - give the next host_machine_init() a SLIT
 * @nr_nodes: the table is @nr_nodes x @nr_nodes
 * @distance: distance[from * @nr_nodes + to]
 *
 * Only the next machine has these distances; every other one has the
 * defaults (10 local, 20 remote), as a machine without a SLIT.
 */
void host_set_distances(int nr_nodes, const u8 *distance);

/*
 * The standard machine: RAM from 0 to 31 MiB with the first MiB reserved
 * (ZONE_DMA and the start of ZONE_DMA32), a hole, then 32 MiB across the
 * 4 GiB line (the end of ZONE_DMA32 and ZONE_NORMAL), with a few reserved
 * ranges and unaligned edges.  One node, one CPU.
 */
void host_machine_default(void);

extern const struct host_range host_default_ram[];
extern const int host_default_nr_ram;
extern const struct host_range host_default_reserved[];
extern const int host_default_nr_reserved;

/* The current machine's layout, as given to host_machine_init() */
extern struct host_range host_ram[16], host_reserved[16];
extern int host_nr_ram, host_nr_reserved;

/* Is [@pfn] RAM of the current machine, and not reserved by memblock? */
bool host_pfn_is_ram(unsigned long pfn);
bool host_pfn_is_reserved(unsigned long pfn);

void host_percpu_reset(void);

static inline void host_set_cpu(unsigned int cpu)
{
	host_cpu = cpu;
	host_this_cpu_off = __per_cpu_offset[cpu];
}

/* ---------------------------------------------------------------- messages */

extern bool host_printk_quiet;		/* keep messages in the log only */

/* Everything printk()ed since @since (from printk_log_pos()), in a static buffer */
const char *host_log_since(unsigned long since);

#endif
