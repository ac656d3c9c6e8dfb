/*
 * tests/host/mm_host.c - the hosted half of mm/cpu.h (see mm_host.h):
 * the fake machine, printk and its log, panic/WARN, CPUs and locks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include "kernel_names.h"
#include "host_rng.h"
#include "mm/slab_internal.h"
#include "mm/fault_inject.h"
#include "mm/memblock.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define SECTION_PAGES	(1UL << 12)	/* as mm/mm_init.c: 16 MiB sections */

unsigned long host_phys_base;
void *host_vmemmap_base;
unsigned int host_cpu;
unsigned long host_this_cpu_off;
unsigned int host_nr_cpus = 1;
unsigned long host_irqs_off;
unsigned int host_in_interrupt;
unsigned long __per_cpu_offset[NR_CPUS];
bool host_printk_quiet;

struct host_range host_ram[16], host_reserved[16];
int host_nr_ram, host_nr_reserved;
static u8 next_distances[MAX_NUMNODES * MAX_NUMNODES];	/* for the next machine only */
static int next_nr_distances;

static uint64_t random_state;		/* get_random_long()'s */

/* ---------------------------------------------------------------- the fake machine */

const struct host_range host_default_ram[] = {
	{ 0x0, 0x9f000, 0 },				/* low 636 KiB, as a PC */
	{ 1UL << 20, (30UL << 20) + 0x3000, 0 },	/* 1 MiB .. 31 MiB + 12 KiB */
	{ (40UL << 20) + 0x800, 0xf900, 0 },		/* a sliver with unaligned edges */
	{ (4UL << 30) - (12UL << 20) + 0x5000,		/* across the 4 GiB line */
	  (32UL << 20) - 0x7000, 0 },
};
const int host_default_nr_ram = ARRAY_SIZE(host_default_ram);

const struct host_range host_default_reserved[] = {
	{ 0x0, 1UL << 20, 0 },				/* the first MiB */
	{ 2UL << 20, (5UL << 20) + 0x123, 0 },		/* "the kernel image" */
	{ (4UL << 30) - (4UL << 20) + 0x800, 0x2000, 0 },	/* unaligned: 3 pages */
	{ (4UL << 30) + (8UL << 20), 0x1000, 0 },	/* one page in ZONE_NORMAL */
};
const int host_default_nr_reserved = ARRAY_SIZE(host_default_reserved);

static size_t vmemmap_bytes(void)
{
	return (HOST_PHYS_LIMIT >> PAGE_SHIFT) * sizeof(struct page);
}

/*
 * @bytes of address space that start on a multiple of the largest block,
 * as the kernel's direct map does (PAGE_OFFSET): the slab's kfree() relies
 * on a block's address being a multiple of its size (mm/slab.c,
 * fast_free_mask()).
 */
static void *reserve_aligned(size_t bytes, int flags)
{
	size_t align = PAGE_SIZE << MAX_PAGE_ORDER;
	char *p = mmap(NULL, bytes + align, PROT_NONE, flags, -1, 0);
	char *start;

	if (p == MAP_FAILED)
		return p;
	start = (char *)ALIGN((unsigned long)p, align);
	if (start != p)
		munmap(p, start - p);
	munmap(start + bytes, p + align - start);
	return start;
}

/* (Re)reserve the address space of physical memory and vmemmap, nothing backed. */
static void host_reserve_space(void)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	void *phys, *map;

	if (host_phys_base) {
		flags |= MAP_FIXED;
		phys = (void *)host_phys_base;
		map = host_vmemmap_base;
	} else {
		phys = map = NULL;
	}
	phys = host_phys_base ? mmap(phys, HOST_PHYS_LIMIT, PROT_NONE, flags, -1, 0)
			      : reserve_aligned(HOST_PHYS_LIMIT, flags);
	map = mmap(map, vmemmap_bytes(), PROT_NONE, flags, -1, 0);
	if (phys == MAP_FAILED || map == MAP_FAILED) {
		perror("mm_host: mmap");
		abort();
	}
	host_phys_base = (unsigned long)phys;
	host_vmemmap_base = map;
}

static void host_protect(void *start, void *end, int prot)
{
	unsigned long s = ALIGN_DOWN((unsigned long)start, PAGE_SIZE);
	unsigned long e = ALIGN((unsigned long)end, PAGE_SIZE);

	if (mprotect((void *)s, e - s, prot)) {
		perror("mm_host: mprotect");
		abort();
	}
}

static void host_back(void *start, void *end)
{
	host_protect(start, end, PROT_READ | PROT_WRITE);
}

bool host_pfn_is_ram(unsigned long pfn)
{
	for (int i = 0; i < host_nr_ram; i++) {
		unsigned long s = ALIGN(host_ram[i].base, PAGE_SIZE) >> PAGE_SHIFT;
		unsigned long e = (host_ram[i].base + host_ram[i].size) >> PAGE_SHIFT;

		if (pfn >= s && pfn < e)
			return true;
	}
	return false;
}

bool host_pfn_is_reserved(unsigned long pfn)
{
	for (int i = 0; i < host_nr_reserved; i++) {
		unsigned long s = host_reserved[i].base >> PAGE_SHIFT;
		unsigned long e = ALIGN(host_reserved[i].base + host_reserved[i].size,
					PAGE_SIZE) >> PAGE_SHIFT;

		if (pfn >= s && pfn < e)
			return true;
	}
	return false;
}

static bool same_ranges(const struct host_range *a, int na, const struct host_range *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		if (a[i].base != b[i].base || a[i].size != b[i].size || a[i].nid != b[i].nid)
			return false;
	}
	return true;
}

void host_set_distances(int nr_nodes, const u8 *distance)
{
	if (nr_nodes < 1 || nr_nodes > MAX_NUMNODES) {
		fprintf(stderr, "mm_host: bad distance table\n");
		abort();
	}
	memcpy(next_distances, distance, (size_t)(nr_nodes * nr_nodes));
	next_nr_distances = nr_nodes;
}

/* What kmain does with the SLIT: the distances, before the zonelists are built. */
static void host_apply_distances(void)
{
	numa_reset_distance();
	for (int from = 0; from < next_nr_distances; from++) {
		for (int to = 0; to < next_nr_distances; to++)
			numa_set_distance(from, to, next_distances[from * next_nr_distances + to]);
	}
	next_nr_distances = 0;
}

static void pageblock_flags_free(void);

void host_machine_init(const struct host_range *ram, int nr_ram,
		       const struct host_range *reserved, int nr_reserved,
		       unsigned int nr_cpus)
{
	const struct memblock_region *r;

	pageblock_flags_free();		/* the last machine's */
	if (nr_ram > (int)ARRAY_SIZE(host_ram) || nr_reserved > (int)ARRAY_SIZE(host_reserved) ||
	    !nr_cpus || nr_cpus > NR_CPUS) {
		fprintf(stderr, "mm_host: bad machine description\n");
		abort();
	}
	/*
	 * A new layout gets fresh address space; the same layout again keeps
	 * its memory (nothing may depend on what RAM holds at boot, and the
	 * fuzzer boots the same machine thousands of times a second).
	 */
	if (!host_phys_base || !same_ranges(ram, nr_ram, host_ram, host_nr_ram) ||
	    !same_ranges(reserved, nr_reserved, host_reserved, host_nr_reserved))
		host_reserve_space();
	host_nr_ram = nr_ram;
	host_nr_reserved = nr_reserved;
	for (int i = 0; i < nr_ram; i++)
		host_ram[i] = ram[i];
	for (int i = 0; i < nr_reserved; i++)
		host_reserved[i] = reserved[i];

	memblock_reset();
	sparse_reset();
	for (int i = 0; i < nr_ram; i++) {
		if (ram[i].base + ram[i].size > HOST_PHYS_LIMIT) {
			fprintf(stderr, "mm_host: RAM above HOST_PHYS_LIMIT\n");
			abort();
		}
		memblock_add_node(ram[i].base, ram[i].size, ram[i].nid);
	}
	for (int i = 0; i < nr_reserved; i++)
		memblock_reserve(reserved[i].base, reserved[i].size);

	/* What mm/init.c does with page tables: back RAM and its struct pages. */
	for_each_memblock(memory, r) {
		unsigned long start = ALIGN_DOWN(r->base >> PAGE_SHIFT, SECTION_PAGES);
		unsigned long end = ALIGN((r->base + r->size) >> PAGE_SHIFT, SECTION_PAGES);

		host_back(__va(r->base), __va(r->base + r->size));
		sparse_mark_present(start, end);
		host_back(pfn_to_page(start), pfn_to_page(end));
	}
	/* ... and holes below max_pfn read as zeroed struct pages (vmemmap_back_holes()) */
	for (unsigned long pfn = 0; pfn < max_pfn; pfn += SECTION_PAGES) {
		if (!pfn_valid(pfn))
			host_protect(pfn_to_page(pfn), pfn_to_page(pfn + SECTION_PAGES), PROT_READ);
	}

	host_nr_cpus = nr_cpus;
	host_irqs_off = 0;
	host_in_interrupt = 0;
	host_percpu_reset();
	host_set_cpu(0);
	random_state = 0;
	set_page_poisoning(false);
	host_apply_distances();
	mm_core_init();
}

void host_machine_default(void)
{
	host_machine_init(host_default_ram, host_default_nr_ram,
			  host_default_reserved, host_default_nr_reserved, 1);
}

/* ---------------------------------------------------------------- time and randomness */

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* every value differs, and the sequence is the same on every run */
unsigned long get_random_long(void)
{
	return splitmix64(&random_state);
}

/* ---------------------------------------------------------------- CPUs and locks */

/*
 * Copy @n bytes of the per-CPU template.  Byte by byte and uninstrumented:
 * AddressSanitizer may keep redzones between the variables of the section.
 */
__attribute__((no_sanitize("address")))
static void copy_template(volatile char *to, const volatile char *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = from[i];
}

static size_t percpu_static_size(void)
{
	return (size_t)(__per_cpu_dynamic_start - __per_cpu_start);
}

/* Every CPU gets its area at start-up, before any test runs: as the kernel's. */
__attribute__((constructor))
static void host_percpu_setup(void)
{
	static char *areas[NR_CPUS];	/* reachable, for LeakSanitizer */
	size_t size = percpu_static_size() + PERCPU_DYNAMIC_SIZE;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		char *area = areas[cpu] = aligned_alloc(PAGE_SIZE, ALIGN(size, PAGE_SIZE));

		if (!area) {
			perror("mm_host: per-CPU area");
			abort();
		}
		__per_cpu_offset[cpu] = (unsigned long)area - (unsigned long)__per_cpu_start;
		memset(area + percpu_static_size(), 0, PERCPU_DYNAMIC_SIZE);
	}
	host_percpu_reset();
	host_set_cpu(0);
}

/**
 * host_percpu_reset - every CPU's per-CPU variables back to their initial values
 *
 * The dynamic part (alloc_percpu() objects) is left as it is: its owners
 * free and reallocate it (mm_core_init() does, for the zones' lists).
 */
void host_percpu_reset(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		copy_template(per_cpu_ptr((char *)__per_cpu_start, cpu), __per_cpu_start,
			      percpu_static_size());
}

/*
 * A zone's pageblock types: outside the simulated RAM, so that no test
 * counts them; the last machine's are freed when the next one boots.
 */
static void *pageblock_flags[MAX_NUMNODES * MAX_NR_ZONES];
static unsigned int nr_pageblock_flags;

void *pageblock_flags_alloc(unsigned long bytes)
{
	if (nr_pageblock_flags == ARRAY_SIZE(pageblock_flags))
		return NULL;
	return pageblock_flags[nr_pageblock_flags++] = calloc(1, bytes);
}

static void pageblock_flags_free(void)
{
	while (nr_pageblock_flags)
		free(pageblock_flags[--nr_pageblock_flags]);
}

bool schedule_work_on(int cpu, struct work_struct *work)
{
	unsigned int self = host_cpu;

	host_set_cpu((unsigned int)cpu);
	work->func(work);
	host_set_cpu(self);
	return true;
}

void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	unsigned int self = host_cpu;

	(void)wait;
	for (unsigned int cpu = 0; cpu < host_nr_cpus; cpu++) {
		host_set_cpu(cpu);
		func(info);
	}
	host_set_cpu(self);
}

/*
 * No background reclaim on the host: nothing runs between two calls of a
 * test, so mm/kswapd.c is left out and a wakeup does nothing (the kernel's
 * page_alloc_reclaim suite tests kswapd).
 */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, int highest_zoneidx)
{
	(void)zone, (void)gfp, (void)order, (void)highest_zoneidx;
}

/*
 * No vmalloc on the host: mm/page_snapshot.c, built for buddyinfo's
 * colours, finds no vmalloc area to mark.
 */
void vmalloc_for_each_area(void (*fn)(const struct vmap_area *va, bool lazy, void *arg), void *arg)
{
	(void)fn, (void)arg;
}

/*
 * No fault injection on the host (mm/fault_inject.c is kernel-only): its
 * gates stay shut, so the allocators never ask these.  The page
 * allocator's alloc_checked_order never drops below the orders it refuses;
 * no cache is ever marked SLAB_FAILSLAB.
 */
bool should_fail_alloc_page(gfp_t gfp_mask, unsigned int order)
{
	(void)gfp_mask;
	(void)order;
	return false;
}

bool failslab_marks(const char *cache_name)
{
	(void)cache_name;
	return false;
}

bool should_failslab(struct kmem_cache *s, gfp_t gfpflags)
{
	(void)s;
	(void)gfpflags;
	return false;
}

void host_lock_bug(const char *what, spinlock_t *lock)
{
	fprintf(stderr, "mm_host: %s (lock %p)\n", what, (void *)lock);
	abort();
}

/* ---------------------------------------------------------------- printk */

#define LINE_MAX_LEN	512

static int console_level = 6;

void console_set_level(int level)
{
	console_level = level;
}

/* As the kernel's, with stdout for the console; the log is kernel/printk_log.c. */
int vprintk(const char *fmt, va_list args)
{
	char line[LINE_MAX_LEN];
	const char *text = line;
	int len = vscnprintf(line, sizeof(line), fmt, args);
	int level = printk_take_level(&text);

	len -= text - line;
	printk_log_store(text, len);
	if (!host_printk_quiet && level <= console_level) {
		fwrite(text, 1, len, stdout);
		fflush(stdout);
	}
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vprintk(fmt, args);
	va_end(args);
	return n;
}

const char *host_log_since(unsigned long since)
{
	static char buf[256 * 1024];

	printk_log_read(since, buf, sizeof(buf));
	return buf;
}

/* ---------------------------------------------------------------- panic, WARN */

void dump_stack(void)
{
	printk(KERN_WARNING "CPU: %u PID: 0 Comm: host\nCall Trace:\n [<%p>] (host: no unwinder)\n",
	       host_cpu, __builtin_return_address(0));
}

void __warn(const char *file, int line, void *caller, const char *fmt, ...)
{
	va_list args;

	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_WARNING "WARNING: at %s:%d %pS\n", file, line, caller);
	if (fmt) {
		va_start(args, fmt);
		vprintk(fmt, args);
		va_end(args);
	}
	dump_stack();
	printk(KERN_WARNING "---[ end trace ]---\n");
}

void panic(const char *fmt, ...)
{
	char msg[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	fflush(stdout);
	abort();
}

/* kvfree()'s vmalloc path, never taken on the host (see mm_host.h): stop loudly if it is. */
void vfree(const void *addr)
{
	panic("vfree(%p) on the host: vmalloc is not built here", addr);
}
