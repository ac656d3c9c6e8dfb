/*
 * mm/memmap_screen.c - a live map of every page frame, on the framebuffer.
 *
 * The screen has four parts.  A title line at the top says what one cell
 * is.  The map below it, on the left, draws every frame of RAM as a square
 * cell in its state's colour (mm/page_snapshot.h: the same colours as the
 * `memmap picture` view and the PNGs of `make picture`).  The legend on the
 * right names each colour and counts the frames in that state.  The text
 * panel at the bottom shows what the serial console shows, scrolling.
 *
 * Layout of the map.  A pageblock (512 frames, the unit of migratetypes and
 * of compaction) is a tile of 32 x 16 cells, frames left to right then top
 * to bottom, with a one-pixel gap around it, and a row of the map is a
 * whole number of tiles: so a free order-9 block is a full tile, an order-5
 * block one line of a tile, and a pageblock the compactor emptied shows as
 * a square.  Each zone of each node is a section headed by its label
 * ("node 0 DMA32 pfn ..."); a gap in RAM of at least a row of tiles (the
 * PCI hole below 4 GiB) ends a section and is drawn as one labelled line
 * instead of rows of empty cells.  The cell size is the largest of 4, 3, 2
 * and 1 pixels at which all the sections fit (256 MiB: 2 px; 1 GiB: 1 px).
 * A machine too large for one pixel a frame gets the summarised view: a
 * cell stands for 2^k frames and shows the most significant of their
 * states (page_cell_fold(): anything in use before free, free before hole),
 * so a cell is "free" only if all its frames are; the title and the legend
 * say 1 cell = 2^k frames.  The layout is fixed at boot, from the zones and
 * the firmware's memory map (RAM is not hot-plugged here).
 *
 * Redrawing.  memmap_screen_redraw() takes a page snapshot of each section
 * and draws only the cells whose colour changed since the last time
 * (drawn[] keeps what is on the screen), and the legend's counts that
 * changed.  It runs after every monitor command (memmap_screen_run(), the
 * monitor's one call here) and, while a command runs, a few times a second
 * from a work item that the tick queues on another CPU: never in the
 * interrupt itself, where a snapshot could wait for a lock the interrupted
 * code holds.  map_lock serialises the two.  With one CPU there is no other
 * CPU to run the work: the map changes after the command only.
 *
 * The text panel.  The serial driver hands every byte it sends to
 * panel_putc() (serial_set_mirror()), the monitor's echo and prompt as well
 * as printk's lines, under panel_lock with interrupts off; it draws the
 * glyph at once and scrolls on a newline, redrawing only the characters
 * that differ.  The panel and the map are disjoint rectangles of the
 * screen, so the two locks never nest.  panel_lock is only ever tried: an
 * oops or an NMI on a CPU that holds it already leaves its characters off
 * the panel rather than hang.
 * ANSI escape sequences (the colours of `memmap picture`) are skipped.
 */
#include "mm/memmap_screen.h"
#include "mm/page_snapshot.h"
#include "mm/page_alloc.h"
#include "mm/vmalloc.h"
#include "arch/x86_64/framebuffer.h"
#include "arch/x86_64/multiboot2.h"
#include "arch/x86_64/serial.h"
#include "arch/x86_64/timer.h"
#include "kernel/cpumask.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "lib/errno.h"
#include "lib/font.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define TILE_COLS	32		/* a pageblock's cells across... */
#define TILE_ROWS	16		/* ...and down: TILE_COLS * TILE_ROWS = pageblock_nr_pages */
#define LABEL_H		FB_GLYPH_HEIGHT	/* a section's label line */
#define LEGEND_CHARS	27		/* the legend's width, in characters */
#define PANEL_ROWS	10		/* lines of the text panel */
#define PANEL_COLS_MAX	256		/* the widest panel: a 2048-pixel screen */
#define MAX_SECTIONS	32
#define MAX_SHIFT	8		/* the summarised view: up to 256 frames a cell */
#define REDRAW_TICKS	(HZ / 4)	/* the live redraw while a command runs */

#define BACKGROUND	0x101018
#define TEXT		0xd0d0d0
#define LINE		0x707080

/* A part of the map: a zone's frames without a large hole, or such a hole. */
struct section {
	unsigned long start_pfn, end_pfn;	/* whole tiles */
	const struct zone *zone;		/* NULL: a collapsed hole */
	unsigned long first_cell;		/* its first frame's index, counting frames of zones */
	u32 y;					/* the top of its label */
};

/* The map's geometry, for one choice of cell size and frames per cell. */
struct layout {
	u32 cell_px, shift;			/* a cell: cell_px square, 2^shift frames */
	u32 tile_w, tile_h, tiles_per_row;
	unsigned int nr_sections;
	struct section sections[MAX_SECTIONS];
	unsigned long nr_frames;		/* frames of the zone sections */
	u32 height;
};

static struct fb_info fb;
static bool screen_on;
static struct layout map;
static u32 map_x, map_y, map_w, map_h, legend_x, panel_y, panel_cols;

/*
 * map_lock: the snapshot, drawn[] and the legend's counts.  A redraw takes
 * snapshots of CHUNK_FRAMES frames at a time into chunk[], and drawn[]
 * keeps one byte per cell, what it shows (cell_code()): so the map's
 * memory is bounded by the screen's size, not by RAM's, and comes from the
 * page allocator (out of the vmalloc space the monitor's examples show).
 */
#define CHUNK_FRAMES	4096UL		/* a multiple of 2^MAX_SHIFT: 16 KiB of cells */
#define DRAWN_NONE	0xff		/* drawn[] before the first redraw */
static DEFINE_SPINLOCK(map_lock);
static struct page_snapshot snap;
static struct page_cell *chunk;		/* CHUNK_FRAMES cells */
static u8 *drawn;			/* one per cell: its cell_code() on the screen */
static u8 *drawn_type;			/* one per tile: the migratetype its edge shows */
static unsigned long counts[NR_PAGE_STATES], drawn_counts[NR_PAGE_STATES];

/* the live redraw */
static bool command_running;
static unsigned long last_redraw;
static void redraw_work_fn(struct work_struct *work);
static DECLARE_WORK(redraw_work, redraw_work_fn);

/* panel_lock: the text panel */
static DEFINE_SPINLOCK(panel_lock);
static char panel_text[PANEL_ROWS][PANEL_COLS_MAX];
static u32 panel_col;
static bool panel_in_escape;

static void draw_text(u32 x, u32 y, const char *s, u32 fg, u32 bg)
{
	for (; *s; s++, x += FB_GLYPH_WIDTH)
		fb_draw_glyph(&fb, x, y, font_glyph(*s), fg, bg);
}

/* Is any of [start, end) RAM in the firmware's memory map? */
static bool range_has_ram(unsigned long start_pfn, unsigned long end_pfn)
{
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];

		if (e->type == MEMORY_AVAILABLE && (unsigned long)(e->base >> PAGE_SHIFT) < end_pfn &&
		    (unsigned long)((e->base + e->length - 1) >> PAGE_SHIFT) >= start_pfn)
			return true;
	}
	return false;
}

static int add_section(struct layout *l, unsigned long start, unsigned long end,
		       const struct zone *zone)
{
	struct section *s = &l->sections[l->nr_sections];
	u32 rows;

	if (start >= end)
		return 0;
	if (l->nr_sections == MAX_SECTIONS)
		return -ENOSPC;
	l->nr_sections++;
	*s = (struct section){ start, end, zone, l->nr_frames, l->height };
	l->height += LABEL_H;
	if (!zone)
		return 0;
	l->nr_frames += end - start;
	rows = DIV_ROUND_UP((end - start) >> l->shift, TILE_COLS * TILE_ROWS * l->tiles_per_row);
	l->height += rows * l->tile_h;
	return 0;
}

/* A zone's sections: its tiles, split at every hole of a row of tiles or more. */
static int add_zone(struct layout *l, const struct zone *zone, unsigned long *prev_end)
{
	unsigned long tile = pageblock_nr_pages << l->shift;
	unsigned long start = max(ALIGN_DOWN(zone->zone_start_pfn, tile), *prev_end);
	unsigned long end = ALIGN(zone_end_pfn(zone), tile), hole = 0, pfn;

	for (pfn = start; pfn < end; pfn += tile) {
		if (range_has_ram(pfn, pfn + tile)) {
			hole = 0;
			continue;
		}
		if (!hole)
			hole = pfn;
		if (pfn + tile >= end || range_has_ram(pfn + tile, pfn + 2 * tile))
			if ((pfn + tile - hole) / tile >= l->tiles_per_row) {
				if (add_section(l, start, hole, zone) ||
				    add_section(l, hole, pfn + tile, NULL))
					return -ENOSPC;
				start = pfn + tile;
			}
	}
	*prev_end = end;
	return add_section(l, start, end, zone);
}

/* The layout at cell size @cell_px and 2^@shift frames a cell: 0 if it fits. */
static int try_layout(struct layout *l, u32 cell_px, u32 shift)
{
	unsigned long prev_end = 0;
	struct zone *zone;

	*l = (struct layout){ .cell_px = cell_px, .shift = shift };
	l->tile_w = TILE_COLS * cell_px + 1;
	l->tile_h = TILE_ROWS * cell_px + 1;
	l->tiles_per_row = map_w / l->tile_w;
	if (!l->tiles_per_row)
		return -ENOSPC;
	for_each_populated_zone(zone) {
		unsigned long start = ALIGN_DOWN(zone->zone_start_pfn, pageblock_nr_pages << shift);

		/* a gap between zones (the PCI hole below 4 GiB): one line, as in a zone */
		if (prev_end && start > prev_end && add_section(l, prev_end, start, NULL))
			return -ENOSPC;
		if (add_zone(l, zone, &prev_end))
			return -ENOSPC;
	}
	return l->height <= map_h ? 0 : -ENOSPC;
}

static int choose_layout(void)
{
	BUILD_BUG_ON(TILE_COLS * TILE_ROWS != pageblock_nr_pages);	/* a tile is a pageblock */
	for (u32 px = 4; px >= 1; px--) {
		if (!try_layout(&map, px, 0))
			return 0;
	}
	for (u32 shift = 1; shift <= MAX_SHIFT; shift++) {
		if (!try_layout(&map, 1, shift))
			return 0;
	}
	return -ENOSPC;
}

/* Where the cell holding @pfn of section @s is. */
static void cell_xy(const struct section *s, unsigned long pfn, u32 *x, u32 *y)
{
	unsigned long cell = (pfn - s->start_pfn) >> map.shift;
	unsigned long tile = cell / pageblock_nr_pages, in = cell % pageblock_nr_pages;

	*x = map_x + (u32)(tile % map.tiles_per_row) * map.tile_w + 1 +
	     (u32)(in % TILE_COLS) * map.cell_px;
	*y = map_y + s->y + LABEL_H + (u32)(tile / map.tiles_per_row) * map.tile_h + 1 +
	     (u32)(in / TILE_COLS) * map.cell_px;
}

/* What a cell of 2^map.shift frames, from @first, shows (page_cell_fold()). */
static struct page_cell cell_summary(const struct page_cell *first)
{
	struct page_cell summary = first[0];

	for (unsigned long i = 1; i < (1UL << map.shift); i++)
		page_cell_fold(&summary, &first[i]);
	return summary;
}

static void draw_section_label(const struct section *s)
{
	char text[96];
	u32 y = map_y + s->y;

	if (s->zone)
		snprintf(text, sizeof(text), "node %d %s  pfn %#lx-%#lx", s->zone->node,
			 s->zone->name, s->start_pfn, s->end_pfn - 1);
	else
		snprintf(text, sizeof(text), "hole  pfn %#lx-%#lx: %lu MiB, not drawn",
			 s->start_pfn, s->end_pfn - 1, (s->end_pfn - s->start_pfn) >> (20 - PAGE_SHIFT));
	fb_fillrect(&fb, map_x, y + LABEL_H / 2, map_w, 1, LINE);
	draw_text(map_x + 8, y, text, s->zone ? TEXT : LINE, BACKGROUND);
}

/* Where the legend of pageblock types starts, under the states'. */
static u32 legend_types_y(void)
{
	return map_y + (NR_PAGE_STATES + 2) * FB_GLYPH_HEIGHT;
}

static void draw_frame(void)
{
	char text[128];

	fb_fillrect(&fb, 0, 0, fb.width, panel_y, BACKGROUND);
	snprintf(text, sizeof(text), "kmem: page frames, 1 cell = %lu frame%s (%u px), %u frames a row",
		 1UL << map.shift, map.shift ? "s" : "", map.cell_px,
		 map.tiles_per_row * (u32)(pageblock_nr_pages << map.shift));
	draw_text(map_x, 0, text, TEXT, BACKGROUND);
	for (unsigned int i = 0; i < map.nr_sections; i++)
		draw_section_label(&map.sections[i]);
	draw_text(legend_x, map_y, "state          frames", TEXT, BACKGROUND);
	draw_text(legend_x, legend_types_y(), "pageblock (top, left edge)", TEXT, BACKGROUND);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		u32 y = legend_types_y() + (u32)(mt + 1) * FB_GLYPH_HEIGHT;

		if (y + FB_GLYPH_HEIGHT > panel_y - 2)
			break;	/* a small screen (640x480): the panel's */
		fb_fillrect(&fb, legend_x, y + 3, 10, 2, migratetype_style[mt].rgb);
		fb_fillrect(&fb, legend_x, y + 3, 2, 10, migratetype_style[mt].rgb);
		draw_text(legend_x + 16, y, migratetype_style[mt].name, TEXT, BACKGROUND);
	}
	if (map.shift && legend_types_y() + (MIGRATE_TYPES + 3) * FB_GLYPH_HEIGHT <= panel_y - 2)
		draw_text(legend_x, legend_types_y() + (MIGRATE_TYPES + 2) * FB_GLYPH_HEIGHT,
			  "a cell: its busiest frame", TEXT, BACKGROUND);
	fb_fillrect(&fb, 0, panel_y - 2, fb.width, 1, LINE);
}

static void draw_legend_line(unsigned int state)
{
	u32 y = map_y + (state + 1) * FB_GLYPH_HEIGHT;
	char text[32];

	fb_fillrect(&fb, legend_x, y + 3, 10, 10, page_state_style[state].rgb);
	snprintf(text, sizeof(text), "%-13s %8lu", page_state_style[state].name, counts[state]);
	draw_text(legend_x + 16, y, text, TEXT, BACKGROUND);
}

/* What a cell shows, in a byte: its state, or for a free one its block's order too. */
static u8 cell_code(const struct page_cell *c)
{
	return c->state == PAGE_STATE_FREE ? (u8)(NR_PAGE_STATES + c->order) : c->state;
}

static struct page_cell code_cell(u8 code)
{
	if (code >= NR_PAGE_STATES)
		return (struct page_cell){ .state = PAGE_STATE_FREE, .order = code - NR_PAGE_STATES };
	return (struct page_cell){ .state = code };
}

/* The index in drawn[] of the cell of @pfn, in zone section @s. */
static unsigned long cell_index(const struct section *s, unsigned long pfn)
{
	return (s->first_cell + (pfn - s->start_pfn)) >> map.shift;
}

/*
 * A tile's pageblock type, as its top and left edges (the gap above and
 * left of its cells) in migratetype_style[]'s colour; in the summarised
 * view, the type of the tile's first pageblock.
 */
static void draw_tile_edge(const struct section *s, unsigned long pfn, u8 mt)
{
	unsigned long tile = cell_index(s, pfn) / pageblock_nr_pages;
	u32 x, y, rgb;

	if (drawn_type[tile] == mt)
		return;
	drawn_type[tile] = mt;
	rgb = mt < MIGRATE_TYPES ? migratetype_style[mt].rgb : BACKGROUND;
	cell_xy(s, pfn, &x, &y);
	fb_fillrect(&fb, x - 1, y - 1, map.tile_w, 1, rgb);
	fb_fillrect(&fb, x - 1, y - 1, 1, map.tile_h, rgb);
}

/* Draw the cells of chunk[] (@n frames from @pfn, in section @s) that changed; map_lock held. */
static void draw_chunk(const struct section *s, unsigned long pfn, unsigned long n)
{
	unsigned long frames = 1UL << map.shift;
	u32 x, y;

	for (unsigned long off = 0; off < n; off += frames) {
		if (!((pfn + off - s->start_pfn) % (pageblock_nr_pages << map.shift)))
			draw_tile_edge(s, pfn + off, chunk[off].migratetype);
		unsigned long i = cell_index(s, pfn + off);
		struct page_cell summary = cell_summary(&chunk[off]);
		u8 code = cell_code(&summary);
		struct page_cell shown = code_cell(code);

		if (drawn[i] == code)
			continue;
		drawn[i] = code;
		cell_xy(s, pfn + off, &x, &y);
		fb_fillrect(&fb, x, y, map.cell_px, map.cell_px, page_cell_rgb(&shown));
	}
}

/* Snapshot every section, a chunk at a time, and draw what changed; map_lock held. */
static void redraw_locked(void)
{
	memset(counts, 0, sizeof(counts));
	for (unsigned int i = 0; i < map.nr_sections; i++) {
		const struct section *s = &map.sections[i];

		if (!s->zone) {
			counts[PAGE_STATE_HOLE] += s->end_pfn - s->start_pfn;
			continue;
		}
		for (unsigned long pfn = s->start_pfn; pfn < s->end_pfn; pfn += CHUNK_FRAMES) {
			unsigned long n = min(CHUNK_FRAMES, s->end_pfn - pfn);

			page_snapshot_take(&snap, pfn, n, chunk);
			for (unsigned int st = 0; st < NR_PAGE_STATES; st++)
				counts[st] += snap.count[st];
			draw_chunk(s, pfn, n);
		}
	}
	for (unsigned int st = 0; st < NR_PAGE_STATES; st++) {
		if (counts[st] != drawn_counts[st]) {
			drawn_counts[st] = counts[st];
			draw_legend_line(st);
		}
	}
}

/**
 * memmap_screen_redraw - bring the map up to date with memory
 *
 * Context: process context (the monitor, a work item), no spinlock held;
 * nothing if there is no screen.
 */
void memmap_screen_redraw(void)
{
	if (!screen_on)
		return;
	spin_lock(&map_lock);
	redraw_locked();
	WRITE_ONCE(last_redraw, jiffies);
	spin_unlock(&map_lock);
}

static void redraw_work_fn(struct work_struct *work)
{
	(void)work;
	memmap_screen_redraw();
}

/**
 * memmap_screen_run - run a monitor command, then redraw the map
 * @fn: the command
 * @argc: its word count
 * @argv: its words
 *
 * While @fn runs, memmap_screen_tick() has the map redrawn a few times a
 * second on another CPU.  Context: the monitor, on the boot CPU.
 * Return: what @fn returned.
 */
int memmap_screen_run(int (*fn)(int argc, char **argv), int argc, char **argv)
{
	int ret;

	WRITE_ONCE(command_running, true);
	ret = fn(argc, argv);
	WRITE_ONCE(command_running, false);
	memmap_screen_redraw();
	return ret;
}

/**
 * memmap_screen_tick - queue a redraw on another CPU while a command runs
 *
 * Context: the timer interrupt, on every CPU; only CPU 0's does anything,
 * REDRAW_TICKS after the last redraw, when a command is running and
 * another CPU is online to do the drawing.
 */
void memmap_screen_tick(void)
{
	unsigned int cpu;

	if (!READ_ONCE(screen_on) || smp_processor_id() != 0 || !READ_ONCE(command_running) ||
	    jiffies - READ_ONCE(last_redraw) < REDRAW_TICKS)
		return;
	for_each_online_cpu(cpu) {
		if (cpu) {
			schedule_work_on(cpu, &redraw_work);
			return;
		}
	}
}

/* Redraw panel line @row, only the characters that differ from @old. */
static void panel_draw_row(u32 row, const char *old)
{
	const char *text = panel_text[row];

	for (u32 col = 0; col < panel_cols; col++) {
		if (old && old[col] == text[col])
			continue;
		fb_draw_glyph(&fb, col * FB_GLYPH_WIDTH, panel_y + row * FB_GLYPH_HEIGHT,
			      font_glyph(text[col]), TEXT, BACKGROUND);
	}
}

static void panel_newline(void)
{
	char old[PANEL_COLS_MAX];

	for (u32 row = 0; row < PANEL_ROWS; row++) {
		memcpy(old, panel_text[row], panel_cols);
		if (row + 1 < PANEL_ROWS)
			memcpy(panel_text[row], panel_text[row + 1], panel_cols);
		else
			memset(panel_text[row], ' ', panel_cols);
		panel_draw_row(row, old);
	}
	panel_col = 0;
}

/* One byte to the panel's last line; panel_lock held. */
static void panel_putc_locked(char c)
{
	char *line = panel_text[PANEL_ROWS - 1];

	if (panel_in_escape) {
		/* ESC [ parameters, then a final byte from '@' to '~' */
		panel_in_escape = !(c >= '@' && c <= '~' && c != '[');
		return;
	}
	if (c == '\x1b') {
		panel_in_escape = true;
	} else if (c == '\n') {
		panel_newline();
	} else if (c == '\b') {
		if (panel_col)
			panel_col--;
	} else if (c != '\r' && ((u8)c < 0x80 || (u8)c >= 0xc0)) {
		/* one glyph per character: UTF-8's continuation bytes add none */
		if (panel_col == panel_cols)
			panel_newline();
		line[panel_col] = c;
		fb_draw_glyph(&fb, panel_col * FB_GLYPH_WIDTH,
			      panel_y + (PANEL_ROWS - 1) * FB_GLYPH_HEIGHT,
			      font_glyph(c), TEXT, BACKGROUND);
		panel_col++;
	}
}

/* serial_set_mirror()'s function: every byte COM1 sends. */
static void panel_putc(char c)
{
	unsigned long flags;

	/*
	 * Only a trylock: the caller may be an oops, or an NMI, on a CPU that
	 * holds panel_lock already (a fault while drawing).  Anywhere else
	 * printk's own lock lets one CPU print at a time, so the lock is free
	 * and nothing is lost; there, a character is left off the panel (the
	 * serial line has it) rather than the machine hanging.
	 */
	local_irq_save(flags);
	if (spin_trylock(&panel_lock)) {
		panel_putc_locked(c);
		spin_unlock(&panel_lock);
	}
	local_irq_restore(flags);
}

static int screen_buffers(void)
{
	unsigned long nr_cells = map.nr_frames >> map.shift;
	unsigned long nr_tiles = nr_cells / pageblock_nr_pages;
	unsigned int drawn_order = get_order(nr_cells + nr_tiles);
	unsigned int chunk_order = get_order(CHUNK_FRAMES * sizeof(*chunk));
	struct page *d = alloc_pages(GFP_KERNEL | __GFP_NOWARN, drawn_order);
	struct page *c = alloc_pages(GFP_KERNEL | __GFP_NOWARN, chunk_order);

	if (!d || !c) {
		if (d)
			__free_pages(d, drawn_order);
		if (c)
			__free_pages(c, chunk_order);
		return -ENOMEM;
	}
	drawn = page_address(d);
	chunk = page_address(c);
	/* the first redraw draws every cell, and every count */
	drawn_type = drawn + nr_cells;
	memset(drawn, DRAWN_NONE, nr_cells + nr_tiles);
	memset(drawn_counts, 0xff, sizeof(drawn_counts));
	return 0;
}

static void screen_geometry(void)
{
	legend_x = fb.width - LEGEND_CHARS * FB_GLYPH_WIDTH;
	map_x = 4;
	map_y = FB_GLYPH_HEIGHT + 4;
	map_w = legend_x - 8 - map_x;
	panel_y = fb.height - PANEL_ROWS * FB_GLYPH_HEIGHT;
	map_h = panel_y - 6 - map_y;
	panel_cols = min(fb.width / FB_GLYPH_WIDTH, (u32)PANEL_COLS_MAX);
	memset(panel_text, ' ', sizeof(panel_text));
}

static int screen_start(void)
{
	const struct boot_framebuffer *bf = &boot_info.fb;

	if (!bf->addr) {
		pr_info("memmap: no framebuffer (%s): the screen map is off\n",
			!boot_info.fb_tag ? "GRUB gave none" :
			"GRUB's mode is not direct colour of 16, 24 or 32 bits");
		return -ENODEV;
	}
	if (bf->width < 640 || bf->height < 480) {
		pr_info("memmap: framebuffer %ux%u too small (640x480 at least): the screen map is off\n",
			bf->width, bf->height);
		return -ENODEV;
	}
	if (fb_init(&fb, bf)) {
		pr_info("memmap: framebuffer at %#llx could not be mapped: the screen map is off\n",
			(unsigned long long)bf->addr);
		return -ENOMEM;
	}
	screen_geometry();
	if (choose_layout() || screen_buffers()) {
		pr_info("memmap: the map of %lu frames does not fit %ux%u: the screen map is off\n",
			page_snapshot_end_pfn(), fb.width, fb.height);
		return -ENOSPC;
	}
	return 0;
}

/**
 * memmap_screen_init - draw the map on GRUB's framebuffer, if there is one
 *
 * Prints one line: the mode and the cell size, or why the map is off.
 * From here on the text panel mirrors the serial console.
 * Context: boot, once the allocators are up, before the monitor starts.
 */
void memmap_screen_init(void)
{
	if (screen_start())
		return;
	pr_info("memmap: framebuffer %ux%u 32-bit at %#llx: the map of memory, 1 cell = %lu frame%s of %u px, %u frames a row\n",
		fb.width, fb.height, (unsigned long long)boot_info.fb.addr, 1UL << map.shift,
		map.shift ? "s" : "", map.cell_px,
		map.tiles_per_row * (u32)(pageblock_nr_pages << map.shift));
	draw_frame();
	fb_fillrect(&fb, 0, panel_y, fb.width, fb.height - panel_y, BACKGROUND);
	WRITE_ONCE(screen_on, true);
	memmap_screen_redraw();
	serial_set_mirror(panel_putc);
}

/* The section whose cells draw @pfn, or NULL. */
static const struct section *pfn_section(unsigned long pfn)
{
	for (unsigned int i = 0; i < map.nr_sections; i++) {
		const struct section *s = &map.sections[i];

		if (pfn >= s->start_pfn && pfn < s->end_pfn)
			return s;
	}
	return NULL;
}

static int screen_show_pfn(unsigned long pfn)
{
	const struct section *s = pfn_section(pfn);
	struct page_cell c;
	u32 x, y, rgb;

	if (!s || !s->zone) {
		printk("screen: pfn %#lx is not drawn (%s)\n", pfn,
		       s ? "in a collapsed hole" : "outside the zones");
		return 0;
	}
	spin_lock(&map_lock);
	redraw_locked();	/* what the cell shows now */
	c = code_cell(drawn[cell_index(s, pfn)]);
	rgb = page_cell_rgb(&c);
	cell_xy(s, pfn, &x, &y);
	spin_unlock(&map_lock);
	printk("screen: pfn %#lx: cell at x %u y %u, %u px, colour #%06x: %s\n", pfn, x, y,
	       map.cell_px, rgb, page_state_style[c.state].name);
	return 0;
}

/*
 * The frame behind kernel address @addr: a vmalloc address through its
 * page table, a direct-map address by arithmetic; -EINVAL (said) otherwise.
 */
static int addr_to_pfn(unsigned long addr, unsigned long *pfn)
{
	if (is_vmalloc_addr((const void *)addr)) {
		*pfn = vmalloc_to_pfn((const void *)addr);
		if (*pfn)
			return 0;
	} else if (addr >= PAGE_OFFSET && (addr - PAGE_OFFSET) >> PAGE_SHIFT < max_pfn) {
		*pfn = (addr - PAGE_OFFSET) >> PAGE_SHIFT;
		return 0;
	}
	printk("screen: ADDR must be a mapped vmalloc or direct-map address (got '%lx')\n", addr);
	return -EINVAL;
}

static int screen_layout(void)
{
	printk("screen: %ux%u, map at x %u y %u, 1 cell = %lu frame%s of %u px, tiles of %ux%u cells, %u tiles a row, %u sections\n",
	       fb.width, fb.height, map_x, map_y, 1UL << map.shift, map.shift ? "s" : "",
	       map.cell_px, TILE_COLS, TILE_ROWS, map.tiles_per_row, map.nr_sections);
	return 0;
}

static int cmd_screen(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long pfn = 0, addr;
	bool which = args.argc > 1;

	if (monitor_take_word(&args, "va")) {
		if (monitor_arg_addr(&args, "ADDR", &addr) || monitor_args_end(&args) ||
		    addr_to_pfn(addr, &pfn))
			return -EINVAL;
	} else if (which && (monitor_arg_addr(&args, "PFN", &pfn) || monitor_args_end(&args))) {
		return -EINVAL;
	}
	if (!screen_on) {
		printk("screen: no framebuffer: the screen map is off\n");
		return 0;
	}
	return which ? screen_show_pfn(pfn) : screen_layout();
}
MONITOR_COMMAND(screen, "[PFN | va ADDR]",
		"the screen map: its layout, or where frame PFN (hex) or the frame of ADDR is drawn",
		cmd_screen);
