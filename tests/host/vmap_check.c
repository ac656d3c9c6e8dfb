/*
 * tests/host/vmap_check.c - the vmap-area allocator against a reference
 * model (see vmap_check.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm_host.h"
#include "rbtree_check.h"
#include "vmap_check.h"
#include "kernel/printk.h"
#include "lib/errno.h"

typedef unsigned __int128 u128;

unsigned long vmap_check_failures;
bool vmap_check_quiet;

static void __printf(1, 2) fail(const char *fmt, ...)
{
	va_list args;

	if (vmap_check_failures++ < 30 && !vmap_check_quiet) {
		printf("    FAIL: ");
		va_start(args, fmt);
		vprintf(fmt, args);
		va_end(args);
		printf("\n");
		fflush(stdout);
	}
}

/* ---------------------------------------------------------------- nodes */

static struct vmap_area *node_alloc(struct vmodel *m, unsigned long start, unsigned long end)
{
	struct vmap_area *va = calloc(1, sizeof(*va));

	if (!va)
		abort();
	va->va_start = start;
	va->va_end = end;
	RB_CLEAR_NODE(&va->rb_node);
	INIT_LIST_HEAD(&va->list);
	m->nodes++;
	return va;
}

static void node_free(struct vmodel *m, struct vmap_area *va)
{
	free(va);
	m->nodes--;
}

static unsigned long list_length(const struct list_head *head)
{
	unsigned long n = 0;
	const struct list_head *pos;

	list_for_each(pos, head)
		n++;
	return n;
}

/* After a call: keep one spare node, as vmalloc.c will, and free the others. */
static void spare_trim(struct vmodel *m)
{
	m->nr_spare = list_length(&m->spare);
	while (m->nr_spare > 1) {
		struct vmap_area *va = list_first_entry(&m->spare, struct vmap_area, list);

		list_del(&va->list);
		node_free(m, va);
		m->nr_spare--;
	}
}

/* Every node is in the free tree (one a model range), a live area, or spare. */
static void check_accounting(struct vmodel *m, const char *after)
{
	long expect = m->nr_ranges + m->nr_live + m->nr_spare;

	if (m->nodes != expect)
		fail("after %s: %ld nodes allocated, %ld accounted for (%lu free ranges, "
		     "%lu areas, %lu spare)", after, m->nodes, expect, m->nr_ranges, m->nr_live,
		     m->nr_spare);
}

/* The log since @pos is exactly one line, a "vmalloc bug:" report containing @what. */
static void check_report(unsigned long pos, const char *what)
{
	const char *log = host_log_since(pos);
	const char *nl = strchr(log, '\n');

	if (!strstr(log, "vmalloc bug: ") || !strstr(log, what) || !nl || nl[1])
		fail("expected one report with '%s', got '%s'", what, log);
}

static void check_silent(unsigned long pos, const char *after)
{
	const char *log = host_log_since(pos);

	if (*log)
		fail("after %s, unexpected message: %s", after, log);
}

/* ---------------------------------------------------------------- the model */

/* The index of the first free range that ends above @addr. */
static unsigned long range_index(const struct vmodel *m, unsigned long addr)
{
	unsigned long lo = 0, hi = m->nr_ranges;

	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;

		if (m->ranges[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void ranges_insert_at(struct vmodel *m, unsigned long i, unsigned long start,
			     unsigned long end)
{
	if (m->nr_ranges == m->cap_ranges) {
		m->cap_ranges = m->cap_ranges ? 2 * m->cap_ranges : 64;
		m->ranges = realloc(m->ranges, m->cap_ranges * sizeof(*m->ranges));
		if (!m->ranges)
			abort();
	}
	memmove(&m->ranges[i + 1], &m->ranges[i], (m->nr_ranges - i) * sizeof(*m->ranges));
	m->ranges[i] = (struct vrange){ start, end };
	m->nr_ranges++;
}

static void ranges_delete_at(struct vmodel *m, unsigned long i)
{
	memmove(&m->ranges[i], &m->ranges[i + 1], (m->nr_ranges - i - 1) * sizeof(*m->ranges));
	m->nr_ranges--;
}

/* [start, end) is being allocated: cut it out of the free range holding it. */
static void model_take(struct vmodel *m, unsigned long start, unsigned long end)
{
	unsigned long i = range_index(m, start);
	struct vrange r;

	if (i == m->nr_ranges || m->ranges[i].start > start || m->ranges[i].end < end) {
		fail("model: 0x%lx-0x%lx is not free", start, end);
		return;
	}
	r = m->ranges[i];
	ranges_delete_at(m, i);
	if (end < r.end)
		ranges_insert_at(m, i, end, r.end);
	if (r.start < start)
		ranges_insert_at(m, i, r.start, start);
}

/* [start, end) is free again: add it, merged with the ranges it touches. */
static void model_give(struct vmodel *m, unsigned long start, unsigned long end)
{
	unsigned long i = range_index(m, start);

	if (i < m->nr_ranges && m->ranges[i].start == end) {
		end = m->ranges[i].end;
		ranges_delete_at(m, i);
	}
	if (i > 0 && m->ranges[i - 1].end == start) {
		start = m->ranges[i - 1].start;
		ranges_delete_at(m, --i);
	}
	ranges_insert_at(m, i, start, end);
}

/* The brute force: the first free range, in address order, that holds the area. */
static bool model_lowest_fit(const struct vmodel *m, unsigned long size, unsigned long align,
			     unsigned long vstart, unsigned long vend, unsigned long *addr,
			     const struct vrange **in)
{
	for (unsigned long i = 0; i < m->nr_ranges && m->ranges[i].start < vend; i++) {
		u128 low = max(m->ranges[i].start, vstart);
		u128 start = (low + align - 1) / align * align;

		if (start + size <= m->ranges[i].end && start + size <= vend) {
			*addr = start;
			*in = &m->ranges[i];
			return true;
		}
	}
	return false;
}

static void live_add(struct vmodel *m, struct vmap_area *va)
{
	if (m->nr_live == m->cap_live) {
		m->cap_live = m->cap_live ? 2 * m->cap_live : 64;
		m->live = realloc(m->live, m->cap_live * sizeof(*m->live));
		if (!m->live)
			abort();
	}
	m->live[m->nr_live++] = (struct varea){ va, va->va_start, va->va_end, false };
}

static void live_del(struct vmodel *m, unsigned long i)
{
	if (m->live[i].lazy)
		m->nr_lazy--;
	m->live[i] = m->live[--m->nr_live];
}

/* ---------------------------------------------------------------- operations */

void vmodel_init(struct vmodel *m, unsigned long start, unsigned long end)
{
	*m = (struct vmodel){ .start = start, .end = end };
	rb_list_init(&m->free);
	rb_list_init(&m->busy);
	rb_list_init(&m->lazy);
	INIT_LIST_HEAD(&m->spare);
	/* as vmalloc.c at boot: one node for the whole space, into the empty free tree */
	if (!merge_or_add_vmap_area_augment(node_alloc(m, start, end), &m->free, &m->spare))
		fail("init: the whole space 0x%lx-0x%lx did not go in", start, end);
	ranges_insert_at(m, 0, start, end);
	spare_trim(m);
	check_accounting(m, "init");
}

void vmodel_alloc(struct vmodel *m, unsigned long size, unsigned long align,
		  unsigned long vstart, unsigned long vend, bool no_spare)
{
	bool bad = !size || !align || (align & (align - 1)) || vstart >= vend;
	unsigned long expect = vend, addr, pos = printk_log_pos();
	const struct vrange *in = NULL;
	bool fits = !bad && model_lowest_fit(m, size, align, vstart, vend, &expect, &in);
	bool middle = fits && expect > in->start && (u128)expect + size < in->end;
	struct vmap_area *va;
	LIST_HEAD(hidden);

	if (no_spare) {
		/* hide the spare nodes: the allocator sees an empty list */
		while (!list_empty(&m->spare))
			list_move(m->spare.next, &hidden);
	} else if (list_empty(&m->spare)) {
		list_add(&node_alloc(m, 0, 0)->list, &m->spare);
	}
	addr = __alloc_vmap_area(&m->free, size, align, vstart, vend, &m->spare);
	while (!list_empty(&hidden))
		list_move(hidden.next, &m->spare);
	spare_trim(m);
	if (bad || (no_spare && middle)) {
		if (addr != vend)
			fail("alloc(0x%lx, align 0x%lx, 0x%lx-0x%lx%s) = 0x%lx, should fail", size,
			     align, vstart, vend, no_spare ? ", no spare" : "", addr);
		check_report(pos, bad ? "bad request" : "no spare node");
		m->misuses++;
		check_accounting(m, "a refused allocation");
		return;
	}
	check_silent(pos, "an allocation");
	if (addr != expect) {
		fail("alloc(0x%lx, align 0x%lx, 0x%lx-0x%lx) = 0x%lx, lowest fit 0x%lx%s", size,
		     align, vstart, vend, addr, expect, fits ? "" : " (none)");
		return;
	}
	if (!fits) {
		m->fails++;
		check_accounting(m, "a failed allocation");
		return;
	}
	if (addr & (align - 1) || addr < vstart || (u128)addr + size > vend)
		fail("alloc: 0x%lx not aligned to 0x%lx or outside 0x%lx-0x%lx", addr, align,
		     vstart, vend);
	model_take(m, addr, addr + size);
	va = node_alloc(m, addr, addr + size);
	if (insert_vmap_area(va, &m->busy))
		fail("alloc: 0x%lx-0x%lx did not go in the busy tree", addr, addr + size);
	live_add(m, va);
	m->allocs++;
	m->most_live = max(m->most_live, m->nr_live);
	check_accounting(m, "an allocation");
}

/* Put a freed area's range back in the free tree, and check the merge. */
static void give_back(struct vmodel *m, struct vmap_area *va)
{
	unsigned long start = va->va_start, end = va->va_end, pos = printk_log_pos();
	struct vmap_area *ret = merge_or_add_vmap_area_augment(va, &m->free, &m->spare);
	const struct vrange *r;

	model_give(m, start, end);
	m->most_ranges = max(m->most_ranges, m->nr_ranges);
	r = &m->ranges[range_index(m, start)];
	if (!ret || ret->va_start != r->start || ret->va_end != r->end)
		fail("free of 0x%lx-0x%lx: merged into %lx-%lx, the model has 0x%lx-0x%lx", start,
		     end, ret ? ret->va_start : 0, ret ? ret->va_end : 0, r->start, r->end);
	check_silent(pos, "a free");
	spare_trim(m);
}

void vmodel_free(struct vmodel *m, unsigned long idx, unsigned long offset, bool lazy)
{
	unsigned long i, probe;
	struct vmap_area *va;
	struct varea *a;

	if (m->nr_live == m->nr_lazy)
		return;
	for (i = idx % m->nr_live; m->live[i].lazy; i = (i + 1) % m->nr_live)
		;
	a = &m->live[i];
	/* vfree's lookup: the address finds the area; it is the start of it */
	probe = a->start + offset % (a->end - a->start);
	va = __find_vmap_area(probe, &m->busy);
	if (va != a->va || __find_vmap_area(a->start, &m->busy) != a->va) {
		fail("lookup of 0x%lx in 0x%lx-0x%lx found %p, not %p", probe, a->start, a->end,
		     (void *)va, (void *)a->va);
		return;
	}
	unlink_va(va, &m->busy);
	m->frees++;
	if (lazy) {
		if (insert_vmap_area(va, &m->lazy))
			fail("0x%lx-0x%lx did not go in the lazy tree", a->start, a->end);
		a->lazy = true;
		m->nr_lazy++;
	} else {
		live_del(m, i);
		give_back(m, va);
	}
	check_accounting(m, "a free");
}

void vmodel_purge(struct vmodel *m)
{
	for (unsigned long i = 0; i < m->nr_live; ) {
		struct vmap_area *va = m->live[i].va;

		if (!m->live[i].lazy) {
			i++;
			continue;
		}
		unlink_va(va, &m->lazy);
		live_del(m, i);
		give_back(m, va);
	}
	if (!RB_EMPTY_ROOT(&m->lazy.root) || !list_empty(&m->lazy.head))
		fail("purge: the lazy tree is not empty");
	m->purges++;
	check_accounting(m, "a purge");
}

void vmodel_misuse(struct vmodel *m, unsigned int kind, unsigned long arg)
{
	unsigned long pos = printk_log_pos(), off = arg >> 8;
	struct vmap_area *va;
	struct varea *a;
	struct vrange r;

	switch (kind % 6) {
	case 0:		/* a double free: part of a free range given back again */
		if (!m->nr_ranges)
			return;
		r = m->ranges[arg % m->nr_ranges];
		va = node_alloc(m, r.start + off % (r.end - r.start), r.end);
		if (merge_or_add_vmap_area_augment(va, &m->free, &m->spare) ||
		    m->spare.next != &va->list)
			fail("a double free of 0x%lx-0x%lx was taken", va->va_start, va->va_end);
		check_report(pos, "overlaps");
		spare_trim(m);
		break;
	case 1:		/* an area overlapping a live one, into the same tree */
		if (!m->nr_live)
			return;
		a = &m->live[arg % m->nr_live];
		off = a->start + off % (a->end - a->start);
		va = node_alloc(m, off, arg & 1 ? a->end : off + 1);
		if (insert_vmap_area(va, a->lazy ? &m->lazy : &m->busy) != -EINVAL)
			fail("an area overlapping 0x%lx-0x%lx was inserted", a->start, a->end);
		check_report(pos, "overlaps");
		node_free(m, va);
		break;
	case 2:		/* an empty area, into the busy tree and the free tree */
		off = m->start + off % (m->end - m->start);
		va = node_alloc(m, off, off - (arg & 1));
		if (insert_vmap_area(va, &m->busy) != -EINVAL)
			fail("an empty area was inserted");
		check_report(pos, "empty area");
		pos = printk_log_pos();
		if (merge_or_add_vmap_area_augment(va, &m->free, &m->spare))
			fail("an empty area was given to the free tree");
		check_report(pos, "empty area");
		spare_trim(m);
		break;
	case 3:		/* unlink of a node in no tree */
		va = node_alloc(m, m->start, m->start + 1);
		unlink_va(va, arg & 1 ? &m->busy : &m->lazy);
		check_report(pos, "in no tree");
		node_free(m, va);
		break;
	case 4:		/* a bad request */
		vmodel_alloc(m, arg & 1 ? 0 : off, arg & 2 ? 3 << (arg & 8) : 0, m->start,
			     arg & 4 ? m->start : m->end, false);
		return;
	case 5:		/* vfree's lookup of a free address, or just outside an area */
		if (m->nr_ranges) {
			r = m->ranges[arg % m->nr_ranges];
			off = r.start + off % (r.end - r.start);
			if (__find_vmap_area(off, &m->busy) || __find_vmap_area(off, &m->lazy))
				fail("free address 0x%lx found an area", off);
		}
		if (m->nr_live) {
			a = &m->live[arg % m->nr_live];
			va = __find_vmap_area(a->end, a->lazy ? &m->lazy : &m->busy);
			if (va == a->va || (va && va->va_start != a->end))
				fail("0x%lx, just after 0x%lx-0x%lx, found %p", a->end, a->start,
				     a->end, (void *)va);
		}
		check_silent(pos, "a lookup");
		break;
	}
	m->misuses++;
	check_accounting(m, "a misuse");
}

/* ---------------------------------------------------------------- whole checks */

#define to_va(node)	rb_entry(node, struct vmap_area, rb_node)

static bool free_in_order(const struct rb_node *prev, const struct rb_node *node)
{
	return to_va(prev)->va_end < to_va(node)->va_start;	/* apart: merged */
}

static bool area_in_order(const struct rb_node *prev, const struct rb_node *node)
{
	return to_va(prev)->va_end <= to_va(node)->va_start;
}

static bool subtree_max_ok(const struct rb_node *node)
{
	unsigned long max = va_size(to_va(node));

	if (node->rb_left)
		max = max(max, to_va(node->rb_left)->subtree_max_size);
	if (node->rb_right)
		max = max(max, to_va(node->rb_right)->subtree_max_size);
	return to_va(node)->subtree_max_size == max;
}

/* Tree invariants, node count, and the list equal to the tree in order. */
static unsigned long check_tree(const char *name, struct rb_list *tree, rbtree_order_fn order,
				rbtree_augmented_fn augmented, unsigned long expect)
{
	unsigned long count, problems = 0;
	const char *why = rbtree_check(&tree->root, order, augmented, &count);
	struct rb_node *node = rb_first(&tree->root);
	struct vmap_area *va;

	if (why) {
		fail("%s tree: %s", name, why);
		return 1;
	}
	if (count != expect) {
		fail("%s tree: %lu nodes, %lu expected", name, count, expect);
		problems++;
	}
	list_for_each_entry(va, &tree->head, list) {
		if (&va->rb_node != node) {
			fail("%s list: 0x%lx-0x%lx out of step with the tree", name, va->va_start,
			     va->va_end);
			return problems + 1;
		}
		node = rb_next(node);
	}
	if (node) {
		fail("%s list: shorter than the tree", name);
		problems++;
	}
	return problems;
}

unsigned long vmodel_check(struct vmodel *m)
{
	unsigned long before = vmap_check_failures, i = 0;
	struct vmap_area *va;

	check_tree("free", &m->free, free_in_order, subtree_max_ok, m->nr_ranges);
	check_tree("busy", &m->busy, area_in_order, NULL, m->nr_live - m->nr_lazy);
	check_tree("lazy", &m->lazy, area_in_order, NULL, m->nr_lazy);
	list_for_each_entry(va, &m->free.head, list) {
		if (i >= m->nr_ranges || va->va_start != m->ranges[i].start ||
		    va->va_end != m->ranges[i].end) {
			fail("free range %lu is 0x%lx-0x%lx, the model's 0x%lx-0x%lx", i,
			     va->va_start, va->va_end, i < m->nr_ranges ? m->ranges[i].start : 0,
			     i < m->nr_ranges ? m->ranges[i].end : 0);
			break;
		}
		if (va->va_start < m->start || va->va_end > m->end)
			fail("free range 0x%lx-0x%lx outside the space", va->va_start, va->va_end);
		i++;
	}
	for (i = 0; i < m->nr_live; i++) {
		struct varea *a = &m->live[i];
		struct rb_list *tree = a->lazy ? &m->lazy : &m->busy;

		if (a->va->va_start != a->start || a->va->va_end != a->end ||
		    __find_vmap_area(a->start, tree) != a->va ||
		    __find_vmap_area(a->end - 1, tree) != a->va)
			fail("area 0x%lx-0x%lx: node %lx-%lx, or not found", a->start, a->end,
			     a->va->va_start, a->va->va_end);
	}
	check_accounting(m, "a check");
	return vmap_check_failures - before;
}

void vmodel_finish(struct vmodel *m)
{
	struct vmap_area *va, *n;

	while (m->nr_live > m->nr_lazy && !vmap_check_failures)
		vmodel_free(m, 0, 0, false);
	vmodel_purge(m);
	vmodel_check(m);
	if (m->nr_ranges != 1 || m->ranges[0].start != m->start || m->ranges[0].end != m->end ||
	    !m->free.root.rb_node || to_va(m->free.root.rb_node)->va_start != m->start ||
	    to_va(m->free.root.rb_node)->va_end != m->end)
		fail("at the end, the free space is not one range 0x%lx-0x%lx", m->start, m->end);
	/* the trees are dropped whole: free what is left */
	list_for_each_entry_safe(va, n, &m->free.head, list)
		node_free(m, va);
	for (unsigned long i = 0; i < m->nr_live; i++)
		node_free(m, m->live[i].va);
	list_for_each_entry_safe(va, n, &m->spare, list)
		node_free(m, va);
	if (m->nodes)
		fail("%ld nodes lost", m->nodes);
	free(m->ranges);
	free(m->live);
}
