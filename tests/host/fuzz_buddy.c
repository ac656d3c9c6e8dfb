/*
 * tests/host/fuzz_buddy.c - a libFuzzer target for the buddy allocator.
 *
 * The input is a program: each byte chooses an operation and the bytes
 * after it its arguments (missing bytes read as 0):
 *
 *   00-5f  alloc_pages(gfp, order)    order byte, flags byte (see gfp_of())
 *   60-af  free a live block           2 index bytes, 1 method byte
 *   b0-bb  alloc_pages_exact(size)     2 size bytes, flags byte
 *   bc-c7  give a live block to the test shrinker's cache or the OOM victim
 *   c8-d7  a misuse (bad free)         kind byte, 2 argument bytes
 *   d8-dd  switch CPU                  cpu byte
 *   de-df  balloon: take movable pages count byte (1..64 pages)
 *   e0-e1  balloon: give back every other page, or count byte's newest
 *   e2-e3  compact a zone whole          zone byte (then the checker)
 *   e4-ef  drain_all_pages() or drain_local_pages()
 *   f0-f7  poisoning on/off
 *   f8-ff  run the consistency checker (the first 4 times in an input)
 *
 * on a small fresh machine (about 15 MiB in three zones and two nodes, two
 * CPUs) for
 * every input, with the checks of the reference model (buddy_check.c)
 * after every operation; the balloon's movable pages (mm/balloon.c) are
 * what compaction may move, and every balloon page must keep its pattern
 * wherever it moved; at the end everything is freed and the free lists
 * must be exactly as at the start.  A failed check aborts: a crash for
 * libFuzzer.  `make fuzz-buddy` fuzzes; `make test` replays the corpus.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_input.h"
#include "mm_host.h"
#include "buddy_check.h"
#include "mm/vmstat.h"
#include "mm/balloon.h"
#include "mm/compaction.h"

#define MiB	(1UL << 20)
#define GiB	(1UL << 30)
#define MAX_OPS	4096

static const struct host_range fuzz_ram[] = {
	{ 0, 0x9f000, 0 },
	{ 1 * MiB, 8 * MiB, 0 },			/* ZONE_DMA, one order-10 block */
	{ 15 * MiB + 0x3000, 3 * MiB - 0x5000, 0 },	/* across 16 MiB: DMA and DMA32 */
	{ 4 * GiB - 2 * MiB, 3 * MiB, 0 },		/* across 4 GiB: DMA32 and NORMAL */
	{ 4 * GiB + 1 * MiB, 1 * MiB + 0x1000, 1 },	/* node 1, 1 MiB-aligned only */
};
static const struct host_range fuzz_reserved[] = {
	{ 0, 1 * MiB, 0 },
	{ 5 * MiB, 0x1000, 0 },
	{ 4 * GiB + 0x800, 0x1000, 0 },
};

static gfp_t gfp_of(unsigned int b)
{
	static const gfp_t base[] = {
		GFP_KERNEL, GFP_ATOMIC, GFP_NOWAIT, GFP_KERNEL | __GFP_NORETRY,
		GFP_KERNEL | __GFP_RETRY_MAYFAIL, GFP_NOWAIT | __GFP_MEMALLOC,
		GFP_ATOMIC | __GFP_MEMALLOC, GFP_KERNEL | __GFP_MEMALLOC,
	};
	static const gfp_t zone[] = { 0, __GFP_DMA, __GFP_DMA32, __GFP_MOVABLE };
	gfp_t gfp = base[b & 7] | zone[(b >> 3) & 3];

	if (b & 0x20)
		gfp |= __GFP_ZERO;
	if (b & 0x80)
		gfp |= __GFP_COMP;
	if (!(b & 0x40))
		gfp |= __GFP_NOWARN;
	return gfp;
}

static unsigned int order_of(unsigned int b)
{
	return b < 0xc0 ? b % 4 : b % (MAX_PAGE_ORDER + 1);
}

/* Compact the @n-th populated zone (modulo their number) whole, then check everything. */
static void compact_nth_zone(unsigned int n)
{
	unsigned int nr = 0, i = 0;
	struct zone *zone;

	for_each_populated_zone(zone)
		nr++;
	for_each_populated_zone(zone) {
		if (i++ == n % nr) {
			compact_zone_fully(zone, NULL);
			buddy_check_consistency();
			return;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0 };
	struct bmodel m;
	int checks = 0;

	host_printk_quiet = true;
	buddy_check_failures = 0;
	host_machine_init(fuzz_ram, ARRAY_SIZE(fuzz_ram), fuzz_reserved,
			  ARRAY_SIZE(fuzz_reserved), 2);
	buddy_set_pcp_batch(4);
	model_init(&m);
	for (int ops = 0; in.pos < in.size && ops < MAX_OPS && !buddy_check_failures; ops++) {
		unsigned int op = byte(&in);

		if (op < 0x60) {
			unsigned int order = order_of(byte(&in));

			model_alloc(&m, gfp_of(byte(&in)), order);
		} else if (op < 0xb0) {
			unsigned int idx = word(&in);

			model_free(&m, idx, byte(&in));
		} else if (op < 0xbc) {
			unsigned int sz = word(&in);

			model_alloc_exact(&m, sz * 64 + 1, gfp_of(byte(&in)));
		} else if (op < 0xc8) {
			model_donate(&m, word(&in), op & 1 ? OWNER_CACHE : OWNER_VICTIM);
		} else if (op < 0xd8) {
			unsigned int kind = byte(&in);

			model_bad_free(&m, kind, word(&in) << 8 | kind);
		} else if (op < 0xde) {
			host_set_cpu(byte(&in) % host_nr_cpus);
		} else if (op < 0xe0) {
			balloon_inflate(1 + byte(&in) % 64);
		} else if (op < 0xe2) {
			if (op & 1)
				balloon_deflate(1 + byte(&in) % 64);
			else
				balloon_deflate_alternate();
		} else if (op < 0xe4) {
			compact_nth_zone(byte(&in));
		} else if (op < 0xf0) {
			if (op & 1)
				drain_local_pages(NULL);
			else
				drain_all_pages();
		} else if (op < 0xf8) {
			set_page_poisoning(op & 1);
		} else if (checks++ < 4) {
			buddy_check_consistency();
		}
	}
	set_page_poisoning(false);
	host_set_cpu(0);
	if (balloon_check())
		buddy_check_failures++;		/* a page that moved lost its contents */
	balloon_deflate(~0UL);
	model_finish(&m);
	if (buddy_check_failures) {
		fprintf(stderr, "fuzz_buddy: %lu check(s) failed\n", buddy_check_failures);
		abort();
	}
	return 0;
}
