/*
 * tests/host/fuzz_vmap_area.c - a libFuzzer target for the vmap-area
 * allocator (mm/vmap_area.c).
 *
 * The input is a program.  Its first byte chooses the space: where
 * (bits 0-1: low, at VMALLOC_START, at the very top of the address space
 * (ending at ~0UL), or at an address that is not page-aligned) and how many
 * pages (bits 2-7: 8 to 512).  Then each byte chooses an operation and the
 * bytes after it its arguments (missing bytes read as 0):
 *
 *   00-7f  allocate            size byte, align byte, window byte (and two
 *                              more if it is not 0), with no spare node if
 *                              the operation byte is odd and above 0x70
 *   80-cf  free a live area    index byte, offset byte; to the lazy tree if odd
 *   d0-df  purge the lazy tree
 *   e0-f7  a misuse            kind byte, 2 argument bytes
 *   f8-ff  (nothing: the checks run after every operation anyway)
 *
 * Every call is checked against the reference model (vmap_check.c), and the
 * trees are checked whole after every operation; at the end everything is
 * freed and the free space must be one range again.  A failed check aborts:
 * a crash for libFuzzer.  `make fuzz-vmap-area` fuzzes; `make test` replays
 * the corpus (tests/host/corpus/vmap_area/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_input.h"
#include "mm_host.h"
#include "vmap_check.h"

#define MAX_OPS	2048

static unsigned long size_of(unsigned int b)
{
	if (b < 0xe0)
		return (1 + b % 32) * PAGE_SIZE;		/* 1 to 31 pages and the guard */
	return 1 + (b & 0x1f) * 129;			/* any number of bytes */
}

static unsigned long align_of(unsigned int b)
{
	if (b < 0xc0)
		return PAGE_SIZE;
	if (b == 0xff)
		return 1UL << 63;
	if (b == 0xfe)
		return 3 * PAGE_SIZE;				/* not a power of 2 */
	return (b & 0x80 ? PAGE_SIZE : 1) << (b % 16);
}

static void alloc_op(struct vmodel *m, struct input *in, unsigned int op)
{
	unsigned long size = size_of(byte(in)), align = align_of(byte(in));
	unsigned long vstart = m->start, vend = m->end, pages = (m->end - m->start) / PAGE_SIZE;
	unsigned int window = byte(in);

	if (window) {
		vstart += (byte(in) % pages) * PAGE_SIZE + (window & 1 ? 0x123 : 0);
		vend = vstart + (byte(in) % pages + 1) * PAGE_SIZE;
		if (vend < vstart || vend > m->end)	/* past the space, or past 2^64 */
			vend = m->end;
	}
	vmodel_alloc(m, size, align, vstart, vend, op > 0x70 && (op & 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned long bases[] = {
		0x10000, 0xffffc90000000000UL, 0, 0xffffc90000000123UL,
	};
	struct input in = { data, size, 0 };
	unsigned int first = byte(&in);
	unsigned long pages = 8 * (1 + (first >> 2)), start = bases[first & 3];
	unsigned long end = start + pages * PAGE_SIZE;
	struct vmodel m;

	host_printk_quiet = true;
	vmap_check_failures = 0;
	if (!start) {
		/* the top: the space ends at ~0UL, so its last byte is never used */
		start = 0UL - pages * PAGE_SIZE;
		end = ~0UL;
	}
	vmodel_init(&m, start, end);
	for (int ops = 0; in.pos < in.size && ops < MAX_OPS && !vmap_check_failures; ops++) {
		unsigned int op = byte(&in);

		if (op < 0x80) {
			alloc_op(&m, &in, op);
		} else if (op < 0xd0) {
			unsigned int idx = byte(&in);

			vmodel_free(&m, idx, byte(&in) * 0x101, op & 1);
		} else if (op < 0xe0) {
			vmodel_purge(&m);
		} else if (op < 0xf8) {
			unsigned int kind = byte(&in);
			unsigned long arg = byte(&in);

			vmodel_misuse(&m, kind, arg | byte(&in) << 8 | (unsigned long)op << 16);
		}
		vmodel_check(&m);
	}
	vmodel_finish(&m);
	if (vmap_check_failures) {
		fprintf(stderr, "fuzz_vmap_area: %lu check(s) failed\n", vmap_check_failures);
		abort();
	}
	return 0;
}
