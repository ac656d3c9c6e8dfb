/*
 * tests/host/bench_vmap_area.c - the cost of the vmap-area allocator's
 * part of a vmalloc() + vfree() pair, on the host, built with -O2 and no
 * sanitizers (not a test).  Same interface as bench_buddy.c:
 *
 *	bench_vmap_area SCENARIO N	N pairs inside measured_loop()
 *	bench_vmap_area --native	every scenario natively, ns per pair
 *	bench_vmap_area --list		the scenarios: name<TAB>description
 *	bench_vmap_area --title		the table's title
 *
 * A pair is what vmalloc.c will do under its locks, minus the locks:
 * __alloc_vmap_area() of one page and its guard page, insert_vmap_area()
 * into the busy tree; then vfree's __find_vmap_area(), unlink_va() and
 * merge_or_add_vmap_area_augment().  Nodes come from a list, as from
 * vmalloc.c's spare list: no memory allocator is counted.
 *
 * The space is the kernel's VMALLOC_START..VMALLOC_END with 1,000 busy
 * areas already in it, arranged per scenario so that the pair's path is
 * known (see scenarios[]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mm_host.h"
#include "mm/vmap_area.h"

#define VSTART		0xffffc90000000000UL
#define VEND		0xffffe8ffffffffffUL
#define BUSY		1000
#define NODES		(4 * BUSY + 16)

struct scenario {
	const char *name;
	const char *what;
	unsigned long hole;	/* pages between the busy areas (0: packed) */
	unsigned long pages;	/* the pair's area, with its guard page */
	unsigned long align;
};

static const struct scenario scenarios[] = {
	{ "packed", "1,000 areas side by side; the pair takes the free space's left edge and merges back", 0, 2, PAGE_SIZE },
	{ "holes-fit", "1,000 areas, 1,000 holes that fit: the lowest hole taken whole, put back alone", 2, 2, PAGE_SIZE },
	{ "holes-small", "1,000 areas, 1,000 holes too small: passed over by subtree_max_size", 1, 2, PAGE_SIZE },
	{ "align-2m", "1,000 areas, 2 MiB alignment: a free range split in three, merged back", 1, 2, 2UL << 20 },
};

static struct vmap_area nodes[NODES];
static struct rb_list free_tree, busy;
static LIST_HEAD(spare);

static struct vmap_area *get_node(void)
{
	struct vmap_area *va = list_first_entry(&spare, struct vmap_area, list);

	list_del(&va->list);
	return va;
}

static unsigned long get_area(unsigned long size, unsigned long align)
{
	unsigned long addr = __alloc_vmap_area(&free_tree, size, align, VSTART, VEND, &spare);
	struct vmap_area *va = get_node();

	va->va_start = addr;
	va->va_end = addr + size;
	insert_vmap_area(va, &busy);
	return addr;
}

static void put_area(unsigned long addr)
{
	struct vmap_area *va = __find_vmap_area(addr, &busy);

	unlink_va(va, &busy);
	merge_or_add_vmap_area_augment(va, &free_tree, &spare);
}

#ifdef __clang__
#define __noclone
#else
#define __noclone	__attribute__((noclone))
#endif

/* What callgrind counts: n pairs and nothing else. */
__noinline __noclone void measured_loop(unsigned long size, unsigned long align, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		unsigned long addr = get_area(size, align);

		__asm__ __volatile__("" : : "r"(addr) : "memory");
		put_area(addr);
	}
}

static void setup(const struct scenario *s)
{
	static unsigned long holes[BUSY];

	rb_list_init(&free_tree);
	rb_list_init(&busy);
	INIT_LIST_HEAD(&spare);
	for (int i = 1; i < NODES; i++)
		list_add_tail(&nodes[i].list, &spare);
	nodes[0].va_start = VSTART;
	nodes[0].va_end = VEND;
	merge_or_add_vmap_area_augment(&nodes[0], &free_tree, &spare);
	/* one page first, so that 2 MiB alignment falls in the middle of the free space */
	get_area(PAGE_SIZE, PAGE_SIZE);
	for (int i = 0; i < BUSY; i++) {
		get_area(2 * PAGE_SIZE, PAGE_SIZE);
		if (s->hole)
			holes[i] = get_area(s->hole * PAGE_SIZE, PAGE_SIZE);
	}
	for (int i = 0; s->hole && i < BUSY; i++)
		put_area(holes[i]);
	/* warm up */
	measured_loop(s->pages * PAGE_SIZE, s->align, 1000);
}

static const struct scenario *find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(scenarios); i++) {
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	}
	fprintf(stderr, "bench_vmap_area: no scenario '%s'\n", name);
	exit(2);
}

static double native_ns(const struct scenario *s)
{
	const unsigned long n = 2000000;
	struct timespec t0, t1;

	setup(s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	measured_loop(s->pages * PAGE_SIZE, s->align, n);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
}

int main(int argc, char **argv)
{
	host_printk_quiet = true;
	if (argc == 2 && !strcmp(argv[1], "--title")) {
		printf("vmap-area allocator on the host (gcc -O2, no sanitizers): "
		       "alloc + busy insert, then lookup + unlink + free, of one page and its guard\n");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < ARRAY_SIZE(scenarios); i++)
			printf("%s\t%s\n", scenarios[i].name, scenarios[i].what);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--native")) {
		for (size_t i = 0; i < ARRAY_SIZE(scenarios); i++)
			printf("%s\t%.1f\n", scenarios[i].name, native_ns(&scenarios[i]));
		return 0;
	}
	if (argc == 3) {
		const struct scenario *s = find(argv[1]);

		setup(s);
		measured_loop(s->pages * PAGE_SIZE, s->align, strtoul(argv[2], NULL, 0));
		return 0;
	}
	fprintf(stderr, "usage: bench_vmap_area SCENARIO N | --native | --list | --title\n");
	return 2;
}
