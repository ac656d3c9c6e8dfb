/*
 * mm/kasan/generic.c - the checks the compiler calls, and KASAN's start.
 *
 * Built with -fsanitize=kernel-address and an instrumentation threshold of
 * 0, gcc and clang put a call before every load and store of the kernel:
 *
 *   x = p->next;      becomes    __asan_load8_noabort(&p->next); x = p->next;
 *
 * Each call reads the shadow byte(s) of the access (arch/x86_64/kasan.h)
 * and, if any byte of it is poisoned, reports it (mm/kasan/report.c) and
 * returns: the access then happens, and the kernel goes on, as Linux's
 * kasan_multi_shot (a test can look at the report).  The compiler also
 * gives every global variable a redzone after it, which its constructor
 * registers here, and every array on the stack redzones on both sides,
 * which the function's own code poisons and unpoisons in the shadow (or,
 * for alloca() and variable-length arrays, has KASAN poison).
 *
 * Nothing is checked before kasan_init() (the shadow of RAM does not exist
 * yet), on a CPU that called kasan_disable_current() (a test that reads
 * freed memory on purpose, a report being printed), nor below the kernel
 * half (a NULL pointer: the access itself faults, as without KASAN).
 */
#include "mm/kasan/kasan.h"
#include "mm/memblock.h"
#include "kernel/printk.h"

#define _RET_IP_	((unsigned long)__builtin_return_address(0))

bool kasan_ready;
static DEFINE_PER_CPU(int, kasan_depth);

/**
 * kasan_disable_current - no checks on this CPU until kasan_enable_current()
 *
 * For code that touches freed memory on purpose (a test of the slab's
 * poisoning); calls nest.  Context: interrupts off or a test case that
 * stays on its CPU.
 */
void kasan_disable_current(void)
{
	this_cpu_inc(kasan_depth);
}

/** kasan_enable_current - undo one kasan_disable_current() */
void kasan_enable_current(void)
{
	this_cpu_dec(kasan_depth);
}

/* Is the one byte at @addr poisoned?  A partial granule allows its first N bytes. */
static __always_inline bool byte_poisoned(unsigned long addr)
{
	s8 shadow = *(s8 *)kasan_mem_to_shadow((void *)addr);

	return unlikely(shadow) && (s8)(addr & KASAN_GRANULE_MASK) >= shadow;
}

/* Is any byte of [@addr, @addr+@size) poisoned?  Granule by granule, zeros skipped. */
static bool range_poisoned(unsigned long addr, size_t size)
{
	unsigned long last = addr + size - 1;
	u8 *shadow = kasan_mem_to_shadow((void *)addr);
	u8 *last_shadow = kasan_mem_to_shadow((void *)last);

	if (size <= 8 && shadow == last_shadow)
		return byte_poisoned(last);		/* one granule: its last byte decides */
	for (; shadow < last_shadow; shadow++) {
		if (*shadow)
			return true;	/* not the last granule: it must be whole */
	}
	return byte_poisoned(last);
}

/**
 * kasan_check_range - check an access of @size bytes at @addr, report it if bad
 * @write: a store (or a load)
 * @ret_ip: where the access is, for the report
 *
 * Return: true if the access is good (or not checked), false if it was reported.
 */
bool kasan_check_range(unsigned long addr, size_t size, bool write, unsigned long ret_ip)
{
	if (unlikely(!size))
		return true;
	if (!READ_ONCE(kasan_ready) || this_cpu_read(kasan_depth))
		return true;
	if (addr < KASAN_MEM_START)
		return true;		/* no shadow: if it is wrong, it faults */
	if (unlikely(addr + size < addr) || range_poisoned(addr, size))
		return !kasan_report(addr, size, write, ret_ip);
	return true;
}

/* The calls the compiler emits, one pair per access size (Linux's names). */
#define DEFINE_ASAN_LOAD_STORE(size)						\
	void __asan_load##size##_noabort(unsigned long addr);			\
	void __asan_load##size##_noabort(unsigned long addr)			\
	{									\
		kasan_check_range(addr, size, false, _RET_IP_);			\
	}									\
	void __asan_store##size##_noabort(unsigned long addr);			\
	void __asan_store##size##_noabort(unsigned long addr)			\
	{									\
		kasan_check_range(addr, size, true, _RET_IP_);			\
	}

DEFINE_ASAN_LOAD_STORE(1)
DEFINE_ASAN_LOAD_STORE(2)
DEFINE_ASAN_LOAD_STORE(4)
DEFINE_ASAN_LOAD_STORE(8)
DEFINE_ASAN_LOAD_STORE(16)

void __asan_loadN_noabort(unsigned long addr, size_t size);
void __asan_loadN_noabort(unsigned long addr, size_t size)
{
	kasan_check_range(addr, size, false, _RET_IP_);
}

void __asan_storeN_noabort(unsigned long addr, size_t size);
void __asan_storeN_noabort(unsigned long addr, size_t size)
{
	kasan_check_range(addr, size, true, _RET_IP_);
}

/*
 * Before a call that does not return (longjmp() out of a failed test
 * case): the frames it leaves behind keep their poisoned redzones, which
 * the next calls would trip over.  The whole stack of this CPU becomes
 * accessible; the live frames above lose their redzones until they return.
 */
void __asan_handle_no_return(void);
void __asan_handle_no_return(void)
{
	unsigned long bottom, top;

	if (!READ_ONCE(kasan_ready))
		return;
	kasan_current_stack(&bottom, &top);
	if (bottom)
		kasan_unpoison((void *)bottom, top - bottom);
}

/*
 * alloca() and variable-length arrays (--param asan-instrument-allocas=1,
 * clang's -asan-instrument-dynamic-allocas): the compiler places each at a
 * 32-byte boundary with 32 bytes of room before it and 32 or more after it
 * (to the next boundary, and 32 more), and has KASAN poison that room.
 */
#define KASAN_ALLOCA_REDZONE_SIZE	32

void __asan_alloca_poison(unsigned long addr, size_t size);
void __asan_alloca_poison(unsigned long addr, size_t size)
{
	unsigned long end = ALIGN(addr + size, KASAN_GRANULE_SIZE);
	unsigned long right_end = ALIGN(addr + size, KASAN_ALLOCA_REDZONE_SIZE) +
				  KASAN_ALLOCA_REDZONE_SIZE;

	kasan_poison((void *)(addr - KASAN_ALLOCA_REDZONE_SIZE), KASAN_ALLOCA_REDZONE_SIZE,
		     KASAN_ALLOCA_LEFT);
	kasan_unpoison((void *)addr, size);
	kasan_poison((void *)end, right_end - end, KASAN_ALLOCA_RIGHT);
}

/* The function leaves (or its dynamic area shrinks): [@top, @bottom) is plain stack again. */
void __asan_allocas_unpoison(unsigned long top, unsigned long bottom);
void __asan_allocas_unpoison(unsigned long top, unsigned long bottom)
{
	if (top && top <= bottom)
		kasan_unpoison((void *)top, bottom - top);
}

/* ---------------------------------------------------------------- global variables */

/* What the compiler says of each global variable it gave a redzone (gcc and clang agree). */
struct kasan_global {
	const void *beg;
	size_t size;
	size_t size_with_redzone;
	const char *name;
	const char *module_name;
	unsigned long has_dynamic_init;
	void *location;
	unsigned long odr_indicator;
};

#define MAX_GLOBAL_TABLES	512	/* one per instrumented file */

static struct {
	struct kasan_global *globals;
	size_t nr;
} global_tables[MAX_GLOBAL_TABLES];
static unsigned int nr_global_tables;

/* Called by each file's constructor, from kasan_init(): poison the redzones. */
void __asan_register_globals(struct kasan_global *globals, size_t nr);
void __asan_register_globals(struct kasan_global *globals, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct kasan_global *g = &globals[i];
		unsigned long end = ALIGN((unsigned long)g->beg + g->size, KASAN_GRANULE_SIZE);

		kasan_unpoison(g->beg, g->size);
		kasan_poison((void *)end, (unsigned long)g->beg + g->size_with_redzone - end,
			     KASAN_GLOBAL_REDZONE);
	}
	if (nr_global_tables < MAX_GLOBAL_TABLES)
		global_tables[nr_global_tables++] = (typeof(global_tables[0])){ globals, nr };
}

void __asan_unregister_globals(struct kasan_global *globals, size_t nr);
void __asan_unregister_globals(struct kasan_global *globals, size_t nr)
{
	(void)globals;
	(void)nr;		/* the kernel's globals live for ever */
}

/**
 * kasan_find_global - the global variable whose redzone or bytes @addr is in
 * @start: set to its first byte
 * @size: set to its size
 *
 * Return: its name, or NULL if @addr is in none that KASAN knows.
 */
const char *kasan_find_global(unsigned long addr, unsigned long *start, unsigned long *size)
{
	for (unsigned int t = 0; t < nr_global_tables; t++) {
		for (size_t i = 0; i < global_tables[t].nr; i++) {
			const struct kasan_global *g = &global_tables[t].globals[i];
			unsigned long beg = (unsigned long)g->beg;

			if (addr >= beg && addr < beg + g->size_with_redzone) {
				*start = beg;
				*size = g->size;
				return g->name;
			}
		}
	}
	return NULL;
}

/* ---------------------------------------------------------------- start */

typedef void (*ctor_fn)(void);
extern const ctor_fn __init_array_start[], __init_array_end[];

/**
 * kasan_init - shadow memory for everything there is, then the checks on
 * @ram: the RAM ranges (as paging_init() got them)
 * @nr_ranges: how many
 *
 * Context: boot CPU, once, in mm_init() after paging_init() and before the
 * page allocator starts (the shadow of RAM comes from memblock).
 */
void kasan_init(const struct phys_range *ram, unsigned int nr_ranges)
{
	unsigned long ram_bytes = 0;

	kasan_init_shadow(ram, nr_ranges);
	for (unsigned int i = 0; i < nr_ranges; i++)
		ram_bytes += ram[i].end - ram[i].start;
	stack_depot_init();
	kasan_quarantine_init(ram_bytes);
	for (const ctor_fn *fn = __init_array_start; fn < __init_array_end; fn++)
		(*fn)();
	WRITE_ONCE(kasan_ready, true);
	pr_info("kasan: KernelAddressSanitizer initialized (generic, outline; %u files' "
		"globals registered)\n", nr_global_tables);
}
