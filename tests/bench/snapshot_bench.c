/*
 * tests/bench/snapshot_bench.c - what one picture of memory costs.
 *
 * The screen map and `memmap picture` take a page snapshot
 * (mm/page_snapshot.c) each time they draw, and the screen redraws a few
 * times a second while a long command runs.  This row counts one snapshot
 * of the first 256 MiB (65,536 frames: the bench machine's RAM and its
 * holes), cells included, so docs/page_alloc.md can say what a redraw
 * costs beside a tick.
 */
#include "bench/bench.h"
#include "mm/page_snapshot.h"
#include "mm/vmalloc.h"

#define SNAPSHOT_FRAMES	65536UL	/* 256 MiB */

static struct page_snapshot snap;

static void run_snapshot(unsigned long iters)
{
	struct page_cell *cells;

	bench_pause();
	cells = vmalloc(SNAPSHOT_FRAMES * sizeof(*cells));
	bench_resume();
	if (!cells)
		return;
	for (unsigned long i = 0; i < iters; i++)
		page_snapshot_take(&snap, 0, SNAPSHOT_FRAMES, cells);
	bench_pause();
	vfree(cells);
	bench_resume();
}
BENCHMARK(page_snapshot_256m, "page snapshot of 256 MiB (65,536 frames)", NULL, 4, run_snapshot);
