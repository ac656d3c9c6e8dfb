// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kmem_replay.c - replay "kmem-replay 1" traces through Linux's allocators.
 *
 * make bench-linux's third boot (tools/bench-linux/bench_linux.py) loads this module with
 * traces=/traces/boot.kmr,/traces/tmpfs.kmr,...  Each file is read whole and decoded into an
 * array of events before anything is timed; a malformed file is refused with its line number
 * and nothing of it runs.  The caches it declares are created with kmem_cache_create() under
 * the name "kmr<cid>-<name>" (object_size, no alignment, no flags); then the events run once
 * on 1, 2, 4 and 8 CPUs: an event of trace CPU c runs on CPU c mod N, strictly in the trace's
 * order.  One kthread is bound to each CPU; the one whose CPU owns the next event runs events
 * until the next belongs to another CPU, completes that CPU's completion and goes back to
 * sleep, so only one CPU runs replay work at a time and the others are halted in the idle
 * loop: under -icount the TSC counts the instructions of all CPUs, and a spinning CPU would
 * be counted in another's operation.  Each run starts after 1.5 s of idle, so that the work
 * the previous run left behind (vmalloc's lazy purge, the vmstat and per-CPU list drains) is
 * done before it and not inside its timed operations.
 *
 * Each operation is timed alone between two serialised rdtsc reads; the median cost of an
 * empty timed region (1001 of them, measured at load) is subtracted.  The 1-CPU run also
 * samples, after every operation and outside the timed region, the free pages of the buddy
 * allocator plus those on the per-CPU lists (exact: read from the free lists under the zone
 * lock, not from the lazily folded counters), and the live bytes the trace holds.  The figures
 * and their exact definitions are those of docs/bench.md (issue 34's replay); each is printed
 *
 *	kmem_bench: row trace.<T>.<key> <figure>
 *
 * The traced gfp bits are Linux's (identical in 6.1 and 6.12 up to __GFP_ACCOUNT, 0x400000).
 * They are translated bit by bit into this kernel's flags, keeping the zone and mobility bits,
 * the reclaim, I/O and zeroing bits, __GFP_HIGH, the retry policy and __GFP_COMP, and dropping
 * __GFP_ACCOUNT (no cgroup to charge, and it would move kmalloc() to the kmalloc-cg-* caches,
 * which only exist for accounting), __GFP_NOFAIL (a failure must be counted, not retried
 * forever), __GFP_MEMALLOC (the emergency reserves are for the reclaim path) and every bit
 * above 0x400000 (KASAN, lockdep and object-extension bits, whose values differ by kernel
 * and configuration).  0x200 is __GFP_ATOMIC in 6.1 and unused in 6.12; it is kept where the
 * running kernel has it.  Slab allocations also lose __GFP_HIGHMEM, __GFP_DMA32 and
 * __GFP_COMP, which the slab allocators refuse or set themselves.  Everything runs in process
 * context, so an atomic allocation's flags are simply used as they are.
 */
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#define KMR_CPUS	8		/* the machine's CPUs; runs use 1, 2, 4 and 8 */
#define KMR_CALIBRATE	1001		/* empty timed regions; their median is subtracted */
#define KMR_MAX_SLOTS	(1u << 24)
#define KMR_MAX_CPU	4095
#define KMR_MAX_ORDER	10
#define KMR_SETTLE_MS	1500	/* idle before each run */

static char *traces;
module_param(traces, charp, 0444);
MODULE_PARM_DESC(traces, "comma-separated trace files to replay");

/* One decoded record.  For a free, kind and arg describe the allocation it frees. */
struct kmr_event {
	u8 op;			/* 'a', 'k', 'p', 'v' or 'f' */
	u8 kind;		/* the allocation's letter */
	u16 cpu;		/* the trace's CPU */
	u32 id;			/* the slot */
	u32 arg;		/* a, v: size; k: cache index; p: order */
	gfp_t gfp;		/* already translated and masked */
};

struct kmr_cache {
	u64 cid;
	u32 object_size;
	char *name;		/* "kmr<cid>-<name>" */
	struct kmem_cache *cache;
};

struct kmr_trace {
	const char *path;
	char name[64];		/* the basename without .kmr */
	struct kmr_event *events;
	unsigned long nr_events;
	u32 slots;
	struct kmr_cache *caches;
	unsigned int nr_caches;
	u8 *end_kind;		/* per slot at the end of the trace: 0 or the live kind */
	u32 *end_arg;
	void **ptr;		/* per slot during a run */
};

/* ---------------------------------------------------------------- timing */

/* The same read as kmem's rdtsc_ordered(): nothing before or after it moves across it. */
static inline u64 rdtsc_serialised(void)
{
	u32 lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 calibration[KMR_CALIBRATE];

/* The median cost of an empty timed region, measured the way every operation is timed. */
static u64 empty_region(void)
{
	int i;

	for (i = 0; i < KMR_CALIBRATE; i++) {
		u64 t0 = rdtsc_serialised();

		calibration[i] = rdtsc_serialised() - t0;
	}
	sort(calibration, KMR_CALIBRATE, sizeof(calibration[0]), cmp_u64, NULL);
	return calibration[KMR_CALIBRATE / 2];
}

/* ---------------------------------------------------------------- memory */

/*
 * The free pages of the buddy lists (@buddy), of those in blocks of order 3 and above
 * (@high), and on the per-CPU lists (@pcp), over every populated zone of every node.
 */
static void free_pages_now(unsigned long *buddy, unsigned long *high, unsigned long *pcp)
{
	int nid, cpu;

	*buddy = *high = *pcp = 0;
	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);
		int z;

		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];
			unsigned long flags;
			unsigned int order;

			if (!populated_zone(zone))
				continue;
			spin_lock_irqsave(&zone->lock, flags);
			for (order = 0; order < ARRAY_SIZE(zone->free_area); order++) {
				unsigned long n = zone->free_area[order].nr_free << order;

				*buddy += n;
				if (order >= 3)
					*high += n;
			}
			spin_unlock_irqrestore(&zone->lock, flags);
			for_each_online_cpu(cpu)
				*pcp += READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset, cpu)->count);
		}
	}
}

static unsigned long free_now(void)
{
	unsigned long buddy, high, pcp;

	free_pages_now(&buddy, &high, &pcp);
	return buddy + pcp;
}

/* Slab pages of every node, the per-CPU differences folded in (the counters are in pages). */
static long slab_pages_now(void)
{
	static const enum node_stat_item items[] = {
		NR_SLAB_RECLAIMABLE_B, NR_SLAB_UNRECLAIMABLE_B,
	};
	long pages = 0;
	int nid, cpu, i;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		for (i = 0; i < ARRAY_SIZE(items); i++) {
			pages += atomic_long_read(&pgdat->vm_stat[items[i]]);
			for_each_possible_cpu(cpu)
				pages += per_cpu_ptr(pgdat->per_cpu_nodestats,
						     cpu)->vm_node_stat_diff[items[i]];
		}
	}
	return pages;
}

/* ---------------------------------------------------------------- gfp */

/* The traced bit, by its value in Linux 6.1 and 6.12, and this kernel's flag for it. */
static const struct {
	u32 traced;
	gfp_t flag;
} gfp_bits[] = {
	{ 0x1, __GFP_DMA }, { 0x2, __GFP_HIGHMEM }, { 0x4, __GFP_DMA32 },
	{ 0x8, __GFP_MOVABLE }, { 0x10, __GFP_RECLAIMABLE }, { 0x20, __GFP_HIGH },
	{ 0x40, __GFP_IO }, { 0x80, __GFP_FS }, { 0x100, __GFP_ZERO },
#ifdef ___GFP_ATOMIC
	{ 0x200, __GFP_ATOMIC },
#endif
	{ 0x400, __GFP_DIRECT_RECLAIM }, { 0x800, __GFP_KSWAPD_RECLAIM },
	{ 0x1000, __GFP_WRITE }, { 0x2000, __GFP_NOWARN }, { 0x4000, __GFP_RETRY_MAYFAIL },
	/* 0x8000 __GFP_NOFAIL: dropped */
	{ 0x10000, __GFP_NORETRY },
	/* 0x20000 __GFP_MEMALLOC: dropped */
	{ 0x40000, __GFP_COMP }, { 0x80000, __GFP_NOMEMALLOC }, { 0x100000, __GFP_HARDWALL },
	{ 0x200000, __GFP_THISNODE },
	/* 0x400000 __GFP_ACCOUNT and everything above: dropped */
};

static gfp_t gfp_of(u64 traced, char op)
{
	gfp_t gfp = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(gfp_bits); i++)
		if (traced & gfp_bits[i].traced)
			gfp |= gfp_bits[i].flag;
	if (op != 'p')
		gfp &= ~(__GFP_HIGHMEM | __GFP_DMA32 | __GFP_COMP);
	return gfp;
}

/* ---------------------------------------------------------------- parsing */

/* A decimal (or, with @hex, hexadecimal with an optional 0x) u64; false if bad or too big. */
static bool parse_u64(const char *s, size_t len, bool hex, u64 *out)
{
	u64 v = 0;
	size_t i = 0;

	if (hex && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == len)
		return false;
	for (; i < len; i++) {
		unsigned int d;

		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (hex && s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (hex && s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return false;
		if (v > (U64_MAX - d) / (hex ? 16 : 10))
			return false;
		v = v * (hex ? 16 : 10) + d;
	}
	*out = v;
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

#define KMR_FIELDS 6	/* one more than the longest record, to see too many */

struct kmr_parser {
	struct kmr_trace *t;
	struct xarray cids;	/* cid -> cache index + 1 */
	unsigned long *live;	/* bitmap of the slots */
	bool have_slots;
};

/* Decode one record (not a comment); NULL if it is good, else the reason. */
static const char *parse_record(struct kmr_parser *ps, const char *line, size_t len)
{
	struct kmr_trace *t = ps->t;
	const char *field[KMR_FIELDS];
	size_t flen[KMR_FIELDS];
	u64 n[KMR_FIELDS] = { 0 };
	int nf = 0, want, i;
	size_t start = 0, pos;
	struct kmr_event *ev;
	char op;

	/* Fields are separated by runs of blanks, as Python's str.split() separates them. */
	for (pos = 0; pos <= len; pos++) {
		bool blank = pos == len || is_blank(line[pos]);

		if (!blank && (pos == 0 || is_blank(line[pos - 1])))
			start = pos;
		if (blank && pos > 0 && !is_blank(line[pos - 1])) {
			if (nf < KMR_FIELDS) {
				field[nf] = line + start;
				flen[nf] = pos - start;
			}
			nf++;
		}
	}
	if (nf == 0 || flen[0] != 1 || !strchr("SCakpvf", field[0][0]))
		return "unknown record letter";
	op = field[0][0];
	switch (op) {
	case 'S': want = 2; break;
	case 'v': want = 4; break;
	case 'f': want = 3; break;
	default: want = 5; break;
	}
	if (nf != want)
		return "wrong field count";
	for (i = 1; i < want; i++) {
		/* the gfp of a, k and p is hexadecimal, and a gfp_t: 32 bits */
		bool hex = i == 3 && strchr("akp", op);

		if (op == 'C' && i == 4)
			break;			/* the name */
		if (!parse_u64(field[i], flen[i], hex, &n[i]) || (hex && n[i] > U32_MAX))
			return "a number that does not parse or overflows";
	}

	if (op == 'S') {
		if (ps->have_slots)
			return "S twice";
		if (n[1] == 0 || n[1] > KMR_MAX_SLOTS)
			return "S 0 or larger than 1<<24";
		t->slots = n[1];
		ps->live = bitmap_zalloc(t->slots, GFP_KERNEL);
		t->end_kind = kvcalloc(t->slots, sizeof(*t->end_kind), GFP_KERNEL);
		t->end_arg = kvcalloc(t->slots, sizeof(*t->end_arg), GFP_KERNEL);
		if (!ps->live || !t->end_kind || !t->end_arg)
			return "out of memory for the slots";
		ps->have_slots = true;
		return NULL;
	}
	if (op == 'C') {
		struct kmr_cache *c;

		if (xa_load(&ps->cids, n[1]))
			return "cid declared twice";
		if (n[2] == 0 || n[2] > n[3])
			return "object_size 0 or larger than size";
		if (n[3] > (8 << 20))
			return "size larger than 8 MiB";
		if (flen[4] == 0)
			return "empty name";
		c = krealloc(t->caches, (t->nr_caches + 1) * sizeof(*c), GFP_KERNEL);
		if (!c)
			return "out of memory for the caches";
		t->caches = c;
		c += t->nr_caches;
		c->cid = n[1];
		c->object_size = n[2];
		c->cache = NULL;
		c->name = kasprintf(GFP_KERNEL, "kmr%llu-%.*s", n[1], (int)flen[4], field[4]);
		if (!c->name)
			return "out of memory for the caches";
		t->nr_caches++;
		if (xa_err(xa_store(&ps->cids, n[1], xa_mk_value(t->nr_caches), GFP_KERNEL)))
			return "out of memory for the caches";
		return NULL;
	}

	/* An event: a/k/p/v <id> <...> [<gfp>] <cpu>, f <id> <cpu> */
	/* The checks in the order of tools/trace-linux/kmem_replay.py, cpu last. */
	if (!ps->have_slots)
		return "S missing before the first event";
	if (n[1] >= t->slots)
		return "id not below S";
	if (op == 'f' && !test_bit(n[1], ps->live))
		return "id not live";
	if (op != 'f' && test_bit(n[1], ps->live))
		return "id already live";
	switch (op) {
	case 'a':
		if (n[2] == 0 || n[2] > (4 << 20))
			return "size 0 or larger than 4 MiB";
		break;
	case 'k':
		if (!xa_load(&ps->cids, n[2]))
			return "cid not declared";
		break;
	case 'p':
		if (n[2] > KMR_MAX_ORDER)
			return "order larger than 10";
		break;
	case 'v':
		if (n[2] == 0 || n[2] > (64 << 20))
			return "size 0 or larger than 64 MiB";
		break;
	}
	if (n[want - 1] > KMR_MAX_CPU)
		return "cpu larger than 4095";

	ev = &t->events[t->nr_events];
	ev->op = op;
	ev->cpu = n[want - 1];
	ev->id = n[1];
	ev->gfp = 0;
	if (op == 'f') {
		__clear_bit(ev->id, ps->live);
		ev->kind = t->end_kind[ev->id];
		ev->arg = t->end_arg[ev->id];
		t->end_kind[ev->id] = 0;
		t->nr_events++;
		return NULL;
	}
	if (op == 'k')
		ev->arg = xa_to_value(xa_load(&ps->cids, n[2])) - 1;
	else
		ev->arg = n[2];
	if (op != 'v')
		ev->gfp = gfp_of(n[3], op);
	ev->kind = op;
	__set_bit(ev->id, ps->live);
	t->end_kind[ev->id] = op;
	t->end_arg[ev->id] = ev->arg;
	t->nr_events++;
	return NULL;
}

static void trace_free(struct kmr_trace *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_caches; i++) {
		kmem_cache_destroy(t->caches[i].cache);
		kfree(t->caches[i].name);
	}
	kfree(t->caches);
	kvfree(t->events);
	kvfree(t->end_kind);
	kvfree(t->end_arg);
	kvfree(t->ptr);
	memset(t, 0, sizeof(*t));
}

/*
 * The whole of @path, in a kvmalloc() buffer.  (kernel_read_file_from_path() would do, but
 * it refuses an empty file, which must instead be refused at its line 1.)
 */
static ssize_t read_whole(const char *path, char **out)
{
	struct file *file = filp_open(path, O_RDONLY, 0);
	loff_t size, pos = 0;
	ssize_t err = 0;
	char *buf;

	if (IS_ERR(file))
		return PTR_ERR(file);
	size = i_size_read(file_inode(file));
	buf = size < INT_MAX ? kvmalloc(size + 1, GFP_KERNEL) : NULL;
	if (!buf)
		err = -ENOMEM;
	while (!err && pos < size) {
		ssize_t got = kernel_read(file, buf + pos, size - pos, &pos);

		if (got <= 0)
			err = got ? got : -EIO;
	}
	filp_close(file, NULL);
	if (err) {
		kvfree(buf);
		return err;
	}
	*out = buf;
	return size;
}

/* Read and decode @path into @t; on a refusal say why and return an error. */
static int trace_load(struct kmr_trace *t, const char *path)
{
	struct kmr_parser ps = { .t = t };
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t base_len = strlen(base), size, pos, lines = 1;
	unsigned long line_no = 0;
	const char *why = NULL;
	ssize_t got;
	char *text;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->path = path;
	if (base_len > 4 && !strcmp(base + base_len - 4, ".kmr"))
		base_len -= 4;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)base_len, base);

	got = read_whole(path, &text);
	if (got < 0) {
		pr_err("kmem_bench: replay %s: cannot read (%zd)\n", path, got);
		return got;
	}
	size = got;
	for (pos = 0; pos < size; pos++)
		lines += text[pos] == '\n';
	t->events = kvmalloc_array(lines, sizeof(*t->events), GFP_KERNEL);
	if (!t->events) {
		err = -ENOMEM;
		goto out;
	}
	xa_init(&ps.cids);

	for (pos = 0; pos < size || line_no == 0; ) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', size - pos);
		size_t len = nl ? nl - line : size - pos;

		pos += len + 1;
		line_no++;
		if (line_no == 1) {
			if (len != 14 || memcmp(line, "#kmem-replay 1", 14))
				why = "first line is not \"#kmem-replay 1\"";
		} else if (len && line[0] == '#') {
			continue;
		} else {
			why = parse_record(&ps, line, len);
		}
		if (why)
			break;
	}
	if (why) {
		pr_err("kmem_bench: replay %s: line %lu: %s\n", path, line_no, why);
		err = -EINVAL;
	}
	xa_destroy(&ps.cids);
	bitmap_free(ps.live);
out:
	kvfree(text);
	if (err)
		trace_free(t);
	return err;
}

/* The caches and the slot table, before anything is timed. */
static int trace_prepare(struct kmr_trace *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_caches; i++) {
		struct kmr_cache *c = &t->caches[i];

		c->cache = kmem_cache_create(c->name, c->object_size, 0, 0, NULL);
		if (!c->cache) {
			pr_err("kmem_bench: replay %s: cannot create cache %s\n", t->path,
			       c->name);
			return -ENOMEM;
		}
	}
	t->ptr = kvcalloc(max(t->slots, 1u), sizeof(*t->ptr), GFP_KERNEL);
	return t->ptr ? 0 : -ENOMEM;
}

/* ---------------------------------------------------------------- the run */

static struct {
	struct kmr_trace *t;
	unsigned long next;		/* the next event */
	unsigned int ncpus;
	bool sample;			/* the 1-CPU run: memory after every operation */
	bool stop;
	struct completion done;
	/* results */
	u64 cycles;
	unsigned long timed, failures;
	unsigned long free_start;
	long peak_held;
	u64 live, peak_live;
	u64 by_op[6];			/* a k p v, f of a k|p v: for verbose */
	u64 worst[4];			/* the costliest operations, for verbose */
	unsigned long worst_at[4];
} run;

static bool verbose;
module_param(verbose, bool, 0444);
MODULE_PARM_DESC(verbose, "say where each run's instructions went (kmem_bench: debug lines)");

static void account(const struct kmr_event *ev, u64 cycles)
{
	static const char ops[] = "akpvf";
	int i = strchr(ops, ev->op) - ops;

	run.cycles += cycles;
	run.timed++;
	if (!verbose)
		return;
	if (ev->op == 'f' && ev->kind != 'a' && ev->kind != 'k')
		i = 5;
	run.by_op[i] += cycles;
	for (i = 0; i < ARRAY_SIZE(run.worst); i++) {
		if (cycles > run.worst[i]) {
			memmove(&run.worst[i + 1], &run.worst[i],
				(ARRAY_SIZE(run.worst) - i - 1) * sizeof(run.worst[0]));
			memmove(&run.worst_at[i + 1], &run.worst_at[i],
				(ARRAY_SIZE(run.worst) - i - 1) * sizeof(run.worst_at[0]));
			run.worst[i] = cycles;
			run.worst_at[i] = run.next;
			break;
		}
	}
}

static struct kmr_worker {
	struct task_struct *task;
	struct completion go;
	unsigned int cpu;
} workers[KMR_CPUS];

static u64 bytes_of(const struct kmr_trace *t, u8 kind, u32 arg)
{
	switch (kind) {
	case 'k':
		return t->caches[arg].object_size;
	case 'p':
		return 4096ull << arg;
	default:
		return arg;
	}
}

static void free_object(const struct kmr_trace *t, u8 kind, u32 arg, void *p)
{
	switch (kind) {
	case 'a':
		kfree(p);
		break;
	case 'k':
		kmem_cache_free(t->caches[arg].cache, p);
		break;
	case 'p':
		__free_pages(p, arg);
		break;
	case 'v':
		vfree(p);
		break;
	}
}

/* One event, timed alone. */
static void step(const struct kmr_trace *t, const struct kmr_event *ev)
{
	void **slot = &t->ptr[ev->id];
	void *p = NULL;
	u64 t0, t1;

	switch (ev->op) {
	case 'a':
		t0 = rdtsc_serialised();
		p = kmalloc(ev->arg, ev->gfp);
		t1 = rdtsc_serialised();
		break;
	case 'k':
		t0 = rdtsc_serialised();
		p = kmem_cache_alloc(t->caches[ev->arg].cache, ev->gfp);
		t1 = rdtsc_serialised();
		break;
	case 'p':
		t0 = rdtsc_serialised();
		p = alloc_pages(ev->gfp, ev->arg);
		t1 = rdtsc_serialised();
		break;
	case 'v':
		t0 = rdtsc_serialised();
		p = vmalloc(ev->arg);
		t1 = rdtsc_serialised();
		break;
	default:	/* 'f' */
		if (!*slot)
			return;		/* its allocation failed */
		switch (ev->kind) {
		case 'a':
			t0 = rdtsc_serialised();
			kfree(*slot);
			t1 = rdtsc_serialised();
			break;
		case 'k':
			t0 = rdtsc_serialised();
			kmem_cache_free(t->caches[ev->arg].cache, *slot);
			t1 = rdtsc_serialised();
			break;
		case 'p':
			t0 = rdtsc_serialised();
			__free_pages(*slot, ev->arg);
			t1 = rdtsc_serialised();
			break;
		default:
			t0 = rdtsc_serialised();
			vfree(*slot);
			t1 = rdtsc_serialised();
			break;
		}
		*slot = NULL;
		run.live -= bytes_of(t, ev->kind, ev->arg);
		account(ev, t1 - t0);
		return;
	}
	account(ev, t1 - t0);
	if (!p) {
		run.failures++;
		return;
	}
	*slot = p;
	run.live += bytes_of(t, ev->kind, ev->arg);
}

/* After an operation of the 1-CPU run: held and live, and their peaks. */
static void sample(void)
{
	long held = (long)run.free_start - (long)free_now();

	if (held > run.peak_held)
		run.peak_held = held;
	if (run.live > run.peak_live)
		run.peak_live = run.live;
}

/* Run events while they belong to this worker's CPU; then hand over and sleep. */
static void replay_from(struct kmr_worker *w)
{
	const struct kmr_trace *t = run.t;

	while (run.next < t->nr_events) {
		const struct kmr_event *ev = &t->events[run.next];
		unsigned int cpu = ev->cpu % run.ncpus;

		if (cpu != w->cpu) {
			complete(&workers[cpu].go);
			return;
		}
		step(t, ev);
		if (run.sample)
			sample();
		run.next++;
	}
	complete(&run.done);
}

static int worker_thread(void *data)
{
	struct kmr_worker *w = data;

	for (;;) {
		wait_for_completion(&w->go);
		if (READ_ONCE(run.stop))
			return 0;
		replay_from(w);
	}
}

static int workers_start(void)
{
	unsigned int i;

	for (i = 0; i < KMR_CPUS; i++) {
		struct kmr_worker *w = &workers[i];
		struct task_struct *task;

		w->cpu = i;
		init_completion(&w->go);
		task = kthread_create(worker_thread, w, "kmem_replay/%u", i);
		if (IS_ERR(task))
			return PTR_ERR(task);
		kthread_bind(task, i);
		get_task_struct(task);	/* it may exit before kthread_stop() looks at it */
		w->task = task;
		wake_up_process(task);
	}
	return 0;
}

static void workers_stop(void)
{
	unsigned int i;

	WRITE_ONCE(run.stop, true);
	for (i = 0; i < KMR_CPUS; i++) {
		if (!workers[i].task)
			continue;
		complete(&workers[i].go);
		kthread_stop(workers[i].task);
		put_task_struct(workers[i].task);
	}
}

/* Free what the trace left live (not timed). */
static void free_leftovers(struct kmr_trace *t)
{
	u32 id;

	for (id = 0; id < t->slots; id++) {
		if (!t->ptr[id])
			continue;
		free_object(t, t->end_kind[id], t->end_arg[id], t->ptr[id]);
		t->ptr[id] = NULL;
	}
}

static void print_tenths(const char *trace, const char *key, u64 num, u64 den, unsigned int mul)
{
	u64 v = den ? div64_u64(num * mul, den) : 0;

	if (mul == 10)
		pr_info("kmem_bench: row trace.%s.%s %llu.%llu\n", trace, key, v / 10, v % 10);
	else
		pr_info("kmem_bench: row trace.%s.%s %llu.%03llu\n", trace, key, v / 1000,
			v % 1000);
}

/* One run at @ncpus CPUs; the 1-CPU run also prints the memory figures. */
static void replay_run(struct kmr_trace *t, unsigned int ncpus, u64 empty)
{
	static const char *const keys[] = {
		"instr_per_op", "instr_per_op_2cpu", "instr_per_op_4cpu", "instr_per_op_8cpu",
	};
	long slab_start = 0, slab_end;
	unsigned long buddy, high, pcp;
	u64 net;

	run.cycles = run.timed = run.failures = 0;
	run.peak_held = 0;
	run.live = run.peak_live = 0;
	memset(run.by_op, 0, sizeof(run.by_op));
	memset(run.worst, 0, sizeof(run.worst));
	run.t = t;
	run.next = 0;
	run.ncpus = ncpus;
	run.sample = ncpus == 1;
	init_completion(&run.done);
	/*
	 * A second of idle first: the work the previous run left behind (vmalloc's lazy purge,
	 * the vmstat and per-CPU list drains, which run within a second) then does not land in
	 * this run's timed operations.  Under -icount with sleep=off an idle second is cheap.
	 */
	msleep(KMR_SETTLE_MS);
	if (run.sample) {
		slab_start = slab_pages_now();
		run.free_start = free_now();
	}
	if (t->nr_events) {
		complete(&workers[t->events[0].cpu % ncpus].go);
		wait_for_completion(&run.done);
	}
	net = run.cycles - min(run.cycles, run.timed * empty);
	print_tenths(t->name, keys[ilog2(ncpus)], net, t->nr_events, 10);
	if (verbose) {
		pr_info("kmem_bench: debug %s %ucpu a=%llu k=%llu p=%llu v=%llu fslab=%llu fother=%llu\n",
			t->name, ncpus, run.by_op[0], run.by_op[1], run.by_op[2], run.by_op[3],
			run.by_op[4], run.by_op[5]);
		pr_info("kmem_bench: debug %s %ucpu worst %llu@%lu%c %llu@%lu%c %llu@%lu%c %llu@%lu%c\n",
			t->name, ncpus,
			run.worst[0], run.worst_at[0], t->events[run.worst_at[0]].op,
			run.worst[1], run.worst_at[1], t->events[run.worst_at[1]].op,
			run.worst[2], run.worst_at[2], t->events[run.worst_at[2]].op,
			run.worst[3], run.worst_at[3], t->events[run.worst_at[3]].op);
	}
	if (!run.sample) {
		free_leftovers(t);
		return;
	}
	pr_info("kmem_bench: info trace.%s.alloc_failures %lu\n", t->name, run.failures);
	free_leftovers(t);
	slab_end = slab_pages_now();
	free_pages_now(&buddy, &high, &pcp);
	pr_info("kmem_bench: row trace.%s.peak_held_kib %ld\n", t->name,
		run.peak_held * (long)(PAGE_SIZE / 1024));
	pr_info("kmem_bench: row trace.%s.peak_live_kib %llu\n", t->name, run.peak_live / 1024);
	print_tenths(t->name, "held_per_live", (u64)run.peak_held * PAGE_SIZE, run.peak_live,
		     1000);
	pr_info("kmem_bench: row trace.%s.slab_pages_end %ld\n", t->name, slab_end - slab_start);
	print_tenths(t->name, "frag_end", high, buddy, 1000);
}

static void replay_trace(const char *path, u64 empty)
{
	static struct kmr_trace t;
	unsigned int ncpus;

	if (trace_load(&t, path))
		return;
	if (trace_prepare(&t)) {
		trace_free(&t);
		return;
	}
	pr_info("kmem_bench: info trace.%s.ops %lu\n", t.name, t.nr_events);
	pr_info("kmem_bench: info trace.%s.caches %u\n", t.name, t.nr_caches);
	for (ncpus = 1; ncpus <= KMR_CPUS; ncpus *= 2)
		replay_run(&t, ncpus, empty);
	trace_free(&t);
}

static int __init kmem_replay_init(void)
{
	char *list, *cursor, *path;
	u64 empty;
	int err;

	pr_info("kmem_bench: start replay, %u CPUs\n", num_online_cpus());
	if (!traces || num_online_cpus() < KMR_CPUS) {
		pr_err("kmem_bench: replay needs traces= and %d CPUs online\n", KMR_CPUS);
		return -EINVAL;
	}
	err = workers_start();
	if (err) {
		pr_err("kmem_bench: cannot start the replay threads (%d)\n", err);
		workers_stop();
		return err;
	}
	empty = empty_region();
	pr_info("kmem_bench: info replay.empty_region %llu\n", empty);
	list = kstrdup(traces, GFP_KERNEL);
	cursor = list;
	while ((path = strsep(&cursor, ",")) != NULL)
		if (*path)
			replay_trace(path, empty);
	kfree(list);
	workers_stop();
	pr_info("kmem_bench: done\n");
	return 0;
}

static void __exit kmem_replay_exit(void)
{
}

module_init(kmem_replay_init);
module_exit(kmem_replay_exit);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("kmem-replay 1 traces, replayed through Linux's allocators");
