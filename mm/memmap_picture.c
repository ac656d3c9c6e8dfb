/*
 * mm/memmap_picture.c - `memmap picture`: every page frame, in a terminal.
 *
 * The map is drawn from page snapshots (mm/page_snapshot.h), in the colours
 * every view of memory uses.  A row is PICTURE_WIDTH pixels; a pixel is one
 * frame, or 2^shift frames when the range would take more than
 * PICTURE_LINES lines at one (256 MiB: 8 frames, so a row is a pageblock).
 * A summarised pixel shows the most significant of its frames (page_cell_fold():
 * anything in use over free, free over a hole), and a free pixel the
 * smallest order among its frames: a pixel is free only when all of it is.
 *
 * In colour each character is U+2580, the upper half block, whose
 * foreground is one row's pixel and whose background the next row's: two
 * rows a line, and square pixels on a terminal whose cells are twice as tall
 * as wide.  In plain text (`plain`, or "color=off") a line is one row, a
 * pixel its state's letter, a free one the order of its block in hex (0-a),
 * which shows fragmentation without colour:
 *
 *	    1000 ssvvaaaa000000001111222233333333...	(plain)
 *	    1000 ▀▀▀▀▀▀▀▀▀▀...				(colour: two rows)
 *
 * Each line starts with its first frame in hex.  A line of nothing but
 * holes is folded with the ones after it into one line; a line where a
 * zone starts is preceded by a line naming the zone and its node.  The
 * snapshots are taken a line at a time, SNAPSHOT_CHUNK frames at once, so
 * a machine of any size costs one small buffer.  A line ends with the
 * migratetype letters of the pageblocks that start in it (U unmovable,
 * M movable...: migratetype_style[]).  The legend counts the
 * frames of each state over the lines drawn.
 */
#include "mm/memmap_picture.h"
#include "mm/page_snapshot.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "kernel/ansi.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PICTURE_WIDTH	64	/* pixels a row: a pageblock is 8 rows of single frames */
#define PICTURE_LINES	64	/* at most, before pixels become 2^shift frames */
#define SNAPSHOT_CHUNK	1024	/* frames a page_snapshot_take(): 4 KiB of cells */
#define NO_HOLE		(~0UL)
#define MAX_LINE_TYPES	32	/* pageblock letters at a line's end, at most */

#define UPPER_HALF_BLOCK	"\xe2\x96\x80"	/* U+2580 in UTF-8 */

static const char order_digit[] = "0123456789a";	/* hex; MAX_PAGE_ORDER is 10 */

struct picture {
	unsigned long start, end;	/* the frames drawn: whole lines */
	unsigned long ram_end;		/* page_snapshot_end_pfn(): no frame from here on */
	unsigned int shift;		/* a pixel is 2^shift frames */
	unsigned int rows;		/* rows a line: 2 in colour, 1 in plain text */
	bool color;
	unsigned long hole_from;	/* the first of the hole lines not printed yet */
	unsigned long count[NR_PAGE_STATES];
	struct page_cell pixel[2][PICTURE_WIDTH];
	struct page_snapshot snap;
	struct page_cell cells[SNAPSHOT_CHUNK];
	char types[MAX_LINE_TYPES + 1];	/* the pageblocks that start in the line */
	unsigned int nr_types;
};

static unsigned long line_frames(const struct picture *pic)
{
	return ((unsigned long)pic->rows * PICTURE_WIDTH) << pic->shift;
}

/*
 * A pageblock that starts at @pfn, a frame of the line being taken: its
 * migratetype's letter, for the end of the line (none in a hole).
 */
static void note_pageblock(struct picture *pic, unsigned long pfn, const struct page_cell *cell)
{
	if (pfn & (pageblock_nr_pages - 1) || cell->migratetype >= MIGRATE_TYPES ||
	    pic->nr_types == MAX_LINE_TYPES)
		return;
	pic->types[pic->nr_types++] = migratetype_style[cell->migratetype].letter;
	pic->types[pic->nr_types] = '\0';
}

/* Fill pic->pixel with the line from frame @first; count its frames' states. */
static int take_line(struct picture *pic, unsigned long first)
{
	unsigned long end = first + line_frames(pic);
	struct page_cell *pixels = &pic->pixel[0][0];

	memset(pic->pixel, 0, sizeof(pic->pixel));	/* PAGE_STATE_HOLE */
	pic->nr_types = 0;
	pic->types[0] = '\0';
	for (unsigned long pfn = first; pfn < end;) {
		unsigned long n = min(min(end - pfn, (unsigned long)SNAPSHOT_CHUNK),
				      pic->ram_end > pfn ? pic->ram_end - pfn : 0);
		int err;

		if (!n) {			/* past the last frame: a hole */
			pic->count[PAGE_STATE_HOLE] += end - pfn;
			return 0;
		}
		err = page_snapshot_take(&pic->snap, pfn, n, pic->cells);
		if (err)
			return err;
		for (unsigned long i = 0; i < n; i++) {
			page_cell_fold(&pixels[(pfn + i - first) >> pic->shift], &pic->cells[i]);
			note_pageblock(pic, pfn + i, &pic->cells[i]);
		}
		for (int s = 0; s < NR_PAGE_STATES; s++)
			pic->count[s] += pic->snap.count[s];
		pfn += n;
	}
	return 0;
}

static bool line_is_hole(const struct picture *pic)
{
	for (unsigned int r = 0; r < pic->rows; r++) {
		for (int col = 0; col < PICTURE_WIDTH; col++) {
			if (pic->pixel[r][col].state != PAGE_STATE_HOLE)
				return false;
		}
	}
	return true;
}

/* The hole lines from pic->hole_from up to frame @to, as one line. */
static void flush_hole(struct picture *pic, unsigned long to)
{
	if (pic->hole_from == NO_HOLE)
		return;
	printk("%8lx ~ a hole up to %#lx: %lu frames, no RAM\n", pic->hole_from, to - 1,
	       to - pic->hole_from);
	pic->hole_from = NO_HOLE;
}

/* A line for each zone starting in [@from, @to), or, on the first line, under way. */
static void print_zone_labels(const struct picture *pic, unsigned long from, unsigned long to)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long start = zone->zone_start_pfn;

		if (start >= to || zone_end_pfn(zone) <= from ||
		    (start < from && from != pic->start))
			continue;
		printk("%8s node %d, zone %s: frames %#lx-%#lx\n", "--", zone->node, zone->name,
		       start, zone_end_pfn(zone) - 1);
	}
}


/* The end of a map line: the types of the pageblocks that start in it. */
static void print_line_types(const struct picture *pic)
{
	pr_cont("%s%s\n", pic->nr_types ? "  " : "", pic->types);
}

static char plain_letter(const struct page_cell *cell)
{
	if (cell->state == PAGE_STATE_FREE)
		return order_digit[cell->order];
	return page_state_style[cell->state].letter;
}

static void print_line_plain(const struct picture *pic, unsigned long first)
{
	char text[PICTURE_WIDTH + 1];

	for (int col = 0; col < PICTURE_WIDTH; col++)
		text[col] = plain_letter(&pic->pixel[0][col]);
	text[PICTURE_WIDTH] = '\0';
	printk("%8lx %s", first, text);
	print_line_types(pic);
}

/* Upper halves in the upper row's colours, lower halves in the next row's. */
static void print_line_color(const struct picture *pic, unsigned long first)
{
	u32 fg = ~0U, bg = ~0U;		/* no colour given yet: never an 0xRRGGBB */

	printk("%8lx ", first);
	for (int col = 0; col < PICTURE_WIDTH; col++) {
		u32 upper = page_cell_rgb(&pic->pixel[0][col]);
		u32 lower = page_cell_rgb(&pic->pixel[1][col]);

		if (upper != fg)
			ansi_fg(upper);
		if (lower != bg)
			ansi_bg(lower);
		fg = upper;
		bg = lower;
		pr_cont(UPPER_HALF_BLOCK);
	}
	ansi_reset();
	print_line_types(pic);
}

static void print_header(const struct picture *pic)
{
	unsigned long frames = 1UL << pic->shift;

	printk("frames %#lx-%#lx (%lu KiB), %d pixels a row, %s; a pixel is %lu frame%s",
	       pic->start, pic->end - 1, (pic->end - pic->start) << (PAGE_SHIFT - 10),
	       PICTURE_WIDTH, pic->color ? "two rows a line (upper and lower half)" : "a row a line",
	       frames, frames == 1 ? "" : "s");
	if (frames > 1)
		pr_cont(", the most in use of them (a free pixel: all free; its smallest order)");
	pr_cont("\n");
}

static void print_swatch(u32 rgb)
{
	ansi_fg(rgb);
	ansi_bg(rgb);
	pr_cont(UPPER_HALF_BLOCK UPPER_HALF_BLOCK);
	ansi_reset();
}

/* Each state's colour or letter, name and frames; two a line. */
static void print_legend(const struct picture *pic)
{
	for (int s = 0; s < NR_PAGE_STATES; s++) {
		const struct page_state_style *style = &page_state_style[s];

		printk(s % 2 ? KERN_CONT "    " : "  ");
		if (pic->color)
			print_swatch(style->rgb);
		else
			pr_cont("%c%c", style->letter, style->letter);
		pr_cont(" %-14s %8lu%s", style->name, pic->count[s], s % 2 ? "\n" : "");
	}
	if (NR_PAGE_STATES % 2)
		pr_cont("\n");
	printk("  free blocks by order:");
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		struct page_cell cell = { .state = PAGE_STATE_FREE, .order = (u8)order };

		pr_cont(" ");
		if (pic->color)
			print_swatch(page_cell_rgb(&cell));
		pr_cont("%c", order_digit[order]);
	}
	pr_cont("\n");
	printk("  pageblocks starting in a line, at its end:");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		pr_cont(" %c %s%s", migratetype_style[mt].letter, migratetype_style[mt].name,
			mt + 1 < MIGRATE_TYPES ? "," : "\n");
}

/* Pick the scale for [@start, @end) and round the range out to whole lines. */
static void picture_setup(struct picture *pic, unsigned long start, unsigned long end, bool color)
{
	pic->color = color;
	pic->rows = color ? 2 : 1;
	pic->shift = 0;
	while (DIV_ROUND_UP(end - round_down(start, line_frames(pic)), line_frames(pic)) >
	       PICTURE_LINES)
		pic->shift++;
	pic->start = round_down(start, line_frames(pic));
	pic->end = round_up(end, line_frames(pic));
	pic->ram_end = page_snapshot_end_pfn();
	pic->hole_from = NO_HOLE;
	memset(pic->count, 0, sizeof(pic->count));
}

static int draw(struct picture *pic)
{
	print_header(pic);
	for (unsigned long line = pic->start; line < pic->end; line += line_frames(pic)) {
		int err = take_line(pic, line);

		if (err)
			return err;
		if (line_is_hole(pic)) {
			if (pic->hole_from == NO_HOLE)
				pic->hole_from = line;
			continue;
		}
		flush_hole(pic, line);
		print_zone_labels(pic, line, line + line_frames(pic));
		if (pic->color)
			print_line_color(pic, line);
		else
			print_line_plain(pic, line);
		if (monitor_interrupted()) {
			printk("memmap: interrupted at frame %#lx\n", line);
			return 0;
		}
	}
	flush_hole(pic, pic->end);
	print_legend(pic);
	return 0;
}

/* The frames of [@addr, @addr + @size) that have RAM or might: [*start, *end). */
static int parse_range(struct monitor_args *args, unsigned long *start, unsigned long *end)
{
	unsigned long ram_end = page_snapshot_end_pfn(), addr, size;

	*start = 0;
	*end = ram_end;
	if (args->next >= args->argc)
		return 0;
	if (monitor_arg_addr(args, "ADDR", &addr))
		return -EINVAL;
	if (addr >> PAGE_SHIFT >= ram_end) {
		printk("%s: ADDR must be below %#lx, where RAM ends (got '%s')\n", args->argv[0],
		       ram_end << PAGE_SHIFT, args->argv[args->next - 1]);
		return -EINVAL;
	}
	if (monitor_arg_size(args, "SIZE", 1, 1UL << MAX_PHYSMEM_BITS, &size))
		return -EINVAL;
	*start = addr >> PAGE_SHIFT;
	*end = min(DIV_ROUND_UP(addr + size, PAGE_SIZE), ram_end);
	return 0;
}

/**
 * memmap_picture - the rest of `memmap picture [plain] [ADDR SIZE]`
 * @args: the cursor, after "picture"
 *
 * Draws the frames of [ADDR, ADDR + SIZE) (all of RAM without them), in
 * colour unless "plain" is given or the command line said "color=off".
 * Context: a monitor command.
 * Return: 0, -EINVAL after a line saying which argument is wrong, or
 * -ENOMEM.
 */
int memmap_picture(struct monitor_args *args)
{
	bool plain = monitor_take_word(args, "plain");
	unsigned long start, end;
	struct picture *pic;
	int err;

	if (parse_range(args, &start, &end) || monitor_args_end(args))
		return -EINVAL;
	pic = kmalloc(sizeof(*pic), GFP_KERNEL);
	if (!pic) {
		printk("%s: no memory for the picture's %zu bytes\n", args->argv[0], sizeof(*pic));
		return -ENOMEM;
	}
	picture_setup(pic, start, end, ansi_color_enabled() && !plain);
	err = draw(pic);
	if (err)
		printk("%s: page_snapshot_take() failed (%d)\n", args->argv[0], err);
	kfree(pic);
	return err;
}
