/*
 * mm/vmalloc_monitor.c - the vmalloc space at the monitor prompt.
 *
 *   vmallocinfo          every area, as Linux's /proc/vmallocinfo, and the
 *                        lazily freed ones waiting for the next purge
 *   vmallocmap           a picture of the used part of the space (with colour
 *                        on, '#' in the colour of vmalloc's frames in
 *                        `memmap picture`, '.' in free's)
 *   vmalloc SIZE [node N]   allocate and hold an area (see 'vheld')
 *   vfree ADDR           free an area 'vmalloc' gave; an address it freed
 *                        already is freed again on purpose, to show the report
 *   vheld                the areas 'vmalloc' holds
 *   purge                flush the lazily freed areas now (one TLB shootdown)
 */
#include "mm/internal.h"
#include "mm/vmalloc.h"
#include "mm/vmap_area.h"
#include "mm/vmstat.h"
#include "mm/page_snapshot.h"
#include "kernel/ansi.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define MAP_COLUMNS	64

static struct monitor_held vheld;	/* what 'vmalloc' holds, and what 'vfree' freed */

/**
 * vmallocinfo_show_area - @va's line of vmallocinfo (as Linux's /proc/vmallocinfo), into @buf
 * @va: a busy area, or a lazily freed one (@lazy)
 * @lazy: @va waits for the next purge
 * @buf: where the line goes, without a newline
 * @size: its size
 *
 * The monitor's vmallocinfo prints it; the allocator torture
 * (tests/torture/) reads it while every CPU allocates.
 * Context: from vmalloc_for_each_area()'s callback (the areas locked).
 * Return: the length of the line (snprintf()'s).
 */
int vmallocinfo_show_area(const struct vmap_area *va, bool lazy, char *buf, size_t size)
{
	const struct vm_struct *vm = READ_ONCE(va->vm);	/* published without the lock */
	int n;

	if (lazy)
		return snprintf(buf, size, "%#lx-%#lx %9lu (freed: waiting for the next purge)",
				va->va_start, va->va_end, va_size(va));
	if (!vm)
		return snprintf(buf, size, "%#lx-%#lx %9lu (being set up)", va->va_start,
				va->va_end, va_size(va));
	n = snprintf(buf, size, "%#lx-%#lx %9lu %pS pages=%u%s%s%s", va->va_start, va->va_end,
		     va_size(va), vm->caller, vm->nr_pages << vm->page_order,
		     vm->flags & VM_ALLOC ? " vmalloc" : "", vm->flags & VM_MAP ? " vmap" : "",
		     vm->flags & VM_HUGE_PAGES ? " huge" : "");
	if (vm->flags & VM_ALLOC && vm->nr_pages && (size_t)n < size)
		n += snprintf(buf + n, size - n, " N%d=%u", page_to_nid(vm->pages[0]),
			      vm->nr_pages << vm->page_order);
	return n;
}

static void print_area(const struct vmap_area *va, bool lazy, void *arg)
{
	char line[160];

	(void)arg;
	vmallocinfo_show_area(va, lazy, line, sizeof(line));
	printk("%s\n", line);
}

static int cmd_vmallocinfo(int argc, char **argv)
{
	unsigned long lazy, max;

	(void)argc;
	(void)argv;
	vmalloc_for_each_area(print_area, NULL);
	lazy = vmalloc_lazy_pages(&max);
	printk("(sizes include the guard page; lazily freed: %lu pages of %lu before a purge; "
	       "purges so far: %lu)\n", lazy, max, global_vm_event(VMALLOC_LAZY_PURGE));
	return 0;
}
MONITOR_COMMAND(vmallocinfo, "", "the vmalloc areas, as /proc/vmallocinfo, and the lazily freed",
		cmd_vmallocinfo);

struct picture {
	unsigned long start, end;	/* the span drawn */
	char cells[MAP_COLUMNS + 1];
};

static void find_end(const struct vmap_area *va, bool lazy, void *arg)
{
	struct picture *pic = arg;

	(void)lazy;
	if (va->va_end > pic->end)
		pic->end = va->va_end;
}

/*
 * Mark the cells an area covers: '#' where it is in use, 'g' where there
 * is only its guard page, 'L' if it was freed lazily.  A cell shared by
 * two areas shows the busier: '#' over 'L' over 'g'.
 */
static void draw_area(const struct vmap_area *va, bool lazy, void *arg)
{
	static const char rank[] = ".gL#";
	struct picture *pic = arg;
	unsigned long cell = (pic->end - pic->start) / MAP_COLUMNS;
	unsigned long first = (va->va_start - pic->start) / cell;
	unsigned long last = (va->va_end - 1 - pic->start) / cell;
	unsigned long guard = va->va_end - PAGE_SIZE;

	for (unsigned long i = first; i <= last && i < MAP_COLUMNS; i++) {
		unsigned long cell_start = pic->start + i * cell;
		char c = lazy ? 'L' : cell_start < guard ? '#' : 'g';

		if (strchr(rank, c) > strchr(rank, pic->cells[i]))
			pic->cells[i] = c;
	}
}

#define TERMINAL_COLOR	(~0U)	/* the terminal's own: never an 0xRRGGBB */

/* A cell's colour: vmalloc's and free's of `memmap picture`; 'g', 'L': no page. */
static u32 cell_rgb(char c)
{
	if (c == '#')
		return page_state_style[PAGE_STATE_VMALLOC].rgb;
	if (c == '.')
		return page_state_style[PAGE_STATE_FREE].rgb;
	return TERMINAL_COLOR;
}

/* The same line as in plain text, each run of cells in its colour. */
static void print_cells_color(const struct picture *pic)
{
	u32 now = TERMINAL_COLOR;

	printk("%#lx |", pic->start);
	for (int i = 0; i < MAP_COLUMNS; i++) {
		u32 rgb = cell_rgb(pic->cells[i]);

		if (rgb != now && rgb == TERMINAL_COLOR)
			ansi_reset();
		else if (rgb != now)
			ansi_fg(rgb);
		now = rgb;
		printk(KERN_CONT "%c", pic->cells[i]);
	}
	ansi_reset();
	printk(KERN_CONT "| %#lx\n", pic->end);
}

static int cmd_vmallocmap(int argc, char **argv)
{
	struct picture pic = { .start = VMALLOC_START, .end = VMALLOC_START };

	(void)argc;
	(void)argv;
	vmalloc_for_each_area(find_end, &pic);
	if (pic.end == pic.start) {
		printk("vmallocmap: no area is in use: the whole space is free\n");
		return 0;
	}
	pic.end = pic.start + ALIGN(pic.end - pic.start, MAP_COLUMNS * PAGE_SIZE);
	memset(pic.cells, '.', MAP_COLUMNS);
	pic.cells[MAP_COLUMNS] = '\0';
	vmalloc_for_each_area(draw_area, &pic);
	if (ansi_color_enabled())
		print_cells_color(&pic);
	else
		printk("%#lx |%s| %#lx\n", pic.start, pic.cells, pic.end);
	printk("one cell = %lu KiB; # in use, g a guard page, L freed (waiting for the purge), "
	       ". free; the rest of the 32 TiB space is free\n",
	       (pic.end - pic.start) / MAP_COLUMNS / 1024);
	return 0;
}
MONITOR_COMMAND(vmallocmap, "", "a picture of the used part of the vmalloc space", cmd_vmallocmap);

static int cmd_vmalloc(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long size, node = NUMA_NO_NODE;
	unsigned int nr;
	int slot;
	void *p;

	if (monitor_arg_size(&args, "SIZE", 1, 1UL << 30, &size))
		return -EINVAL;
	if (monitor_take_word(&args, "node") &&
	    monitor_arg_ulong(&args, "N", 0, nr_node_ids - 1, &node))
		return -EINVAL;
	if (monitor_args_end(&args))
		return -EINVAL;
	if (monitor_held_full(&vheld)) {
		printk("vmalloc: already holding %d areas; vfree some first\n", MONITOR_HELD_MAX);
		return -ENOMEM;
	}
	p = vmalloc_node(size, (int)node);
	if (!p) {
		printk("vmalloc: %lu bytes failed\n", size);
		return -ENOMEM;
	}
	slot = monitor_held_add(&vheld, p);
	nr = find_vm_area(p)->nr_pages;
	printk("[%d] %lu bytes at %px: %u page%s, the first on node %d\n", slot, size, p, nr,
	       nr == 1 ? "" : "s", page_to_nid(vmalloc_to_page(p)));
	return 0;
}
MONITOR_COMMAND(vmalloc, "SIZE [node N]",
		"allocate SIZE bytes (up to 1G; 64K, 1M...) and hold them",
		cmd_vmalloc);

static int cmd_vfree(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long addr;
	int slot;
	void *p;

	if (monitor_arg_addr(&args, "ADDR", &addr) || monitor_args_end(&args))
		return -EINVAL;
	p = (void *)addr;
	slot = monitor_held_find(&vheld, p);
	if (slot >= 0) {
		vfree(p);
		monitor_held_forget(&vheld, slot);
		printk("vfree: freed [%d] %px (its range waits for the next purge)\n", slot, p);
		return 0;
	}
	if (monitor_held_was_freed(&vheld, p) && find_vm_area(p)) {
		/* Someone else's now (a page array, say): freeing it would be a bug. */
		printk("vfree: %px was freed, and the range is in use again (by %pS); "
		       "not freed twice\n", p, find_vm_area(p)->caller);
		return -EINVAL;
	}
	if (monitor_held_was_freed(&vheld, p)) {
		printk("vfree: %px was freed already: freeing it again (watch the report)\n", p);
		vfree(p);
		return 0;
	}
	printk("vfree: %px is not an area 'vmalloc' gave (see 'vheld'); not freed\n", p);
	return -EINVAL;
}
MONITOR_COMMAND(vfree, "ADDR", "free an area 'vmalloc' gave (ADDR in hex)", cmd_vfree);

static int cmd_vheld(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < MONITOR_HELD_MAX; i++) {
		if (vheld.held[i])
			printk("[%d] %px, %lu bytes\n", i, vheld.held[i],
			       find_vm_area(vheld.held[i])->requested_size);
	}
	return 0;
}
MONITOR_COMMAND(vheld, "", "list the areas 'vmalloc' holds", cmd_vheld);

static int cmd_purge(int argc, char **argv)
{
	unsigned long before = global_vm_event(VMALLOC_PURGED_AREAS), max;
	unsigned long pages = vmalloc_lazy_pages(&max);

	(void)argc;
	(void)argv;
	if (!pages) {
		printk("purge: no area is waiting for a purge\n");
		return 0;
	}
	vm_unmap_aliases();
	printk("purge: %lu lazily freed areas (%lu pages) back in the free space, "
	       "after one TLB shootdown\n", global_vm_event(VMALLOC_PURGED_AREAS) - before, pages);
	return 0;
}
MONITOR_COMMAND(purge, "", "purge the lazily freed vmalloc areas now (one TLB shootdown)",
		cmd_purge);
