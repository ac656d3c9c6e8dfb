/*
 * tests/host/fuzz_slab.c - a libFuzzer target for the slab allocator.
 *
 * The first byte chooses slab_debug= (off, everything, or some letters on
 * some caches); the rest is a program: each byte chooses an operation and
 * the bytes after it its arguments (missing bytes read as 0):
 *
 *   00-3f  allocate (kmalloc, kzalloc, kmalloc_node, kcalloc, kmemdup,
 *          GFP_DMA, kmem_cache_alloc[_node])   kind byte, 2 size bytes, flags byte
 *   40-7f  free a live object                  2 index bytes, method byte
 *   80-8f  krealloc a live object              2 index bytes, 2 size bytes, flags byte
 *   90-9f  switch CPU                          cpu byte
 *   a0-a7  kmem_cache_shrink (one, or all)     cache byte
 *   a8-af  create or destroy a model cache     slot byte
 *   b0-bf  a misuse (reported once)            kind byte, 2 argument bytes
 *   c0-c7  validate_slab_cache                 cache byte
 *   c8-cf  drain the page allocator's per-CPU lists
 *   d0-df  a burst of allocations of one size  count byte, size byte
 *   e0-ef  a burst of frees                    count byte
 *   f0-ff  run every check (the first 4 times in an input)
 *
 * on a small fresh machine (two nodes of 7 and 4 MiB, four CPUs; no
 * ZONE_NORMAL, so GFP_KERNEL is served from ZONE_DMA32) for every input,
 * with the model of slab_model.c checking each operation; at the end
 * everything is freed, the model's caches destroyed and every cache
 * shrunk, and the page allocator's free lists must be exactly as at the
 * start.  A failed check aborts: a crash for libFuzzer.  `make fuzz-slab`
 * fuzzes; `make test` replays the corpus.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_input.h"
#include "mm_host.h"
#include "slab_check.h"
#include "slab_model.h"

#define MiB	(1UL << 20)
#define MAX_OPS	4096

/* Small and without a hole of 4 GiB: the struct pages are walked on every check */
static const struct host_range fuzz_ram[] = {
	{ 0, 0x9f000, 0 },
	{ 1 * MiB, 7 * MiB, 0 },	/* ZONE_DMA */
	{ 16 * MiB, 4 * MiB, 1 },	/* ZONE_DMA32, node 1 */
};
static const struct host_range fuzz_reserved[] = { { 0, 1 * MiB, 0 } };

static const char *const debug_settings[] = {
	"-", "", "PZ,kmalloc-64,kmalloc-1k,model-24", "FU,kmalloc-32,kmalloc-8k",
};

/* 2 size bytes: mostly the small sizes, the top bit for whole pages */
static size_t size_of(unsigned int w)
{
	return w & 0x8000 ? (w & 0x7fff) * 4 : w & 0x1fff;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0 };
	struct smodel m;
	int checks = 0;

	host_printk_quiet = true;
	buddy_check_failures = 0;
	slab_machine_init(fuzz_ram, ARRAY_SIZE(fuzz_ram), fuzz_reserved,
			  ARRAY_SIZE(fuzz_reserved), 4, debug_settings[byte(&in) % 4]);
	smodel_init(&m);
	for (int ops = 0; in.pos < in.size && ops < MAX_OPS && !buddy_check_failures; ops++) {
		unsigned int op = byte(&in), a, b;

		if (op < 0x40) {
			a = byte(&in);
			b = word(&in);
			smodel_alloc(&m, a, size_of(b), byte(&in));
		} else if (op < 0x80) {
			a = word(&in);
			smodel_free(&m, a, byte(&in));
		} else if (op < 0x90) {
			a = word(&in);
			b = word(&in);
			smodel_realloc(&m, a, size_of(b), byte(&in));
		} else if (op < 0xa0) {
			host_set_cpu(byte(&in) % host_nr_cpus);
		} else if (op < 0xa8) {
			smodel_shrink(&m, byte(&in));
		} else if (op < 0xb0) {
			smodel_cache_op(&m, byte(&in));
		} else if (op < 0xc0) {
			a = byte(&in);
			smodel_misuse(&m, a, word(&in));
		} else if (op < 0xc8) {
			smodel_validate(&m, byte(&in));
		} else if (op < 0xd0) {
			drain_all_pages();
		} else if (op < 0xe0) {
			a = byte(&in);
			b = byte(&in);
			for (unsigned int i = 0; i < a; i++)
				smodel_alloc(&m, op & 1 ? SM_CACHE : SM_KMALLOC, b * 8 + 1,
					     op >> 1);
		} else if (op < 0xf0) {
			a = byte(&in);
			for (unsigned int i = 0; i < a; i++)
				smodel_free(&m, (unsigned long)i * 7919 + op, 0);
		} else if (checks++ < 4) {
			smodel_check(&m);
		}
	}
	host_set_cpu(0);
	smodel_finish(&m);
	if (buddy_check_failures) {
		fprintf(stderr, "fuzz_slab: %lu check(s) failed\n", buddy_check_failures);
		abort();
	}
	return 0;
}
