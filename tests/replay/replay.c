/*
 * tests/replay/replay.c - replay Linux's allocation traces on this kernel's
 * allocators, one CPU at a time (command word "replay"; make replay, make
 * bench, and a stage of make test).
 *
 * GRUB brings each trace as a module whose string is "<T>.kmr" (the runner
 * decompresses it on the host).  For each trace and each CPU count N of
 * replay.cpus= (1,2,4,8 by default, those this machine has), a run:
 *
 *   1. makes the trace's caches ("replay-<name>", its object_size, default
 *      alignment, no flags) and the slot table, before anything is counted;
 *   2. measures an empty timed region: the median of 1001;
 *   3. replays every event, in the trace's order, on CPU (trace cpu mod N).
 *      One CPU works at a time: it runs its events until the next event is
 *      another CPU's, hands the turn to that CPU, sends it an IPI and halts
 *      (hlt, interrupts on) until the turn comes back.  So under QEMU's
 *      -icount, where the TSC counts the instructions of every vCPU, the
 *      instructions between an op's two rdtsc_ordered() reads are its own
 *      CPU's; a free on another CPU than the allocation's stays remote;
 *   4. on the 1-CPU run, samples after each op (outside the timed region)
 *      the free pages (buddy and per-CPU lists, exact) and the live bytes;
 *   5. frees what the trace left live (not timed), reads the slab pages and
 *      the buddy lists' fragmentation, and destroys the caches.
 *
 * The gfp of a trace is Linux's; replay_gfp() keeps what this kernel honours
 * and what is legal here (docs/bench.md, section 8).  At the end, with
 * everything cached given back, the free pages, the slab caches and the busy
 * vmalloc areas must be what they were before the first trace, and the
 * kernel must have printed no report (WARNING, BUG, KASAN...; the reports
 * of an allocation failing are counted apart): then "replay: clean".  The
 * last line is "replay: done"; kmain() then ends QEMU with the exit code of
 * a clean or a failed replay.
 */
#include "replay/replay.h"
#include "kunit/internal.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/internal.h"
#include "mm/page_alloc.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/multiboot2.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define EMPTY_SAMPLES	1001
#define TURN_DONE	(-1)		/* every event ran */
#define TURN_NONE	(-2)		/* the run has not started */
#define FAILED		((void *)1)	/* a slot whose allocation returned NULL */
#define MAX_RUNS	4		/* 1, 2, 4 and 8 CPUs */
#define FRAG_ORDER	3		/* frag_end: blocks of order >= this, of all */

/* ---------------------------------------------------------------- the gfp */

/*
 * The bits kept: the zone and mobility modifiers, the reclaim bits (a trace's
 * GFP_ATOMIC and GFP_NOWAIT stay allocations that never reclaim, which is
 * legal, and faithful, in the replay's process context), __GFP_HIGH (the
 * reserve GFP_ATOMIC may use), __GFP_IO and __GFP_FS, __GFP_ZERO,
 * __GFP_NOWARN, __GFP_NORETRY, __GFP_RETRY_MAYFAIL, __GFP_COMP,
 * __GFP_NOMEMALLOC, __GFP_THISNODE, __GFP_HARDWALL, __GFP_ACCOUNT (ignored)
 * and __GFP_WRITE.  Dropped: __GFP_NOFAIL (a replay must end: a failure is
 * counted instead), __GFP_MEMALLOC (the reserves are for reclaim itself, and
 * the replay is not reclaim), and bits this kernel does not have (Linux's
 * 0x200 and those above __GFP_ACCOUNT).
 */
#define REPLAY_GFP_KEPT	(__GFP_DMA | __GFP_HIGHMEM | __GFP_DMA32 | __GFP_MOVABLE |	\
			 __GFP_RECLAIMABLE | __GFP_HIGH | __GFP_IO | __GFP_FS |		\
			 __GFP_ZERO | __GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM |	\
			 __GFP_WRITE | __GFP_NOWARN | __GFP_RETRY_MAYFAIL |		\
			 __GFP_NORETRY | __GFP_COMP | __GFP_NOMEMALLOC |		\
			 __GFP_HARDWALL | __GFP_THISNODE | __GFP_ACCOUNT)

/**
 * replay_gfp - the gfp this kernel gets for a trace's Linux gfp
 * @linux_gfp: the trace's, with Linux's bit values (this kernel's are the same)
 *
 * Context: any.
 * Return: @linux_gfp with only the bits of REPLAY_GFP_KEPT.
 */
gfp_t replay_gfp(u32 linux_gfp)
{
	return (gfp_t)linux_gfp & REPLAY_GFP_KEPT;
}

/* ---------------------------------------------------------------- one run */

struct replay_state {
	const struct replay_trace *t;
	struct replay_result *r;
	struct kmem_cache **caches;	/* per cache of the trace */
	void **ptr;			/* per slot: the object, page or area; FAILED; NULL */
	u32 *owner;			/* per slot: the event that filled it */
	unsigned int cpus;
	unsigned long next;		/* the next event; only the CPU whose turn it is moves it */
	int turn;			/* the CPU that runs now, TURN_DONE or TURN_NONE */
	int ready, done;		/* CPUs waiting for their first turn; CPUs finished */
	bool memory;			/* sample held and live (the 1-CPU run) */
	unsigned long free_start, live;
};

static struct replay_state rs;
static struct work_struct replay_work[NR_CPUS];

static unsigned int cpu_of(const struct replay_event *e)
{
	return e->cpu % rs.cpus;
}

static void *alloc_event(const struct replay_event *e, u64 *took)
{
	gfp_t gfp = replay_gfp(e->gfp);
	void *p = NULL;
	u64 t0;

	if (e->op == REPLAY_CACHE && !rs.caches[e->arg]) {
		*took = rs.r->empty;	/* its cache could not be made: a failure, not timed */
		return NULL;
	}
	t0 = rdtsc_ordered();
	switch (e->op) {
	case REPLAY_KMALLOC:
		p = kmalloc(e->arg, gfp);
		break;
	case REPLAY_CACHE:
		p = kmem_cache_alloc(rs.caches[e->arg], gfp);
		break;
	case REPLAY_PAGES:
		p = alloc_pages(gfp, e->arg);	/* the struct page: no page_address() timed */
		break;
	default:
		p = vmalloc(e->arg);
		break;
	}
	*took = rdtsc_ordered() - t0;
	return p;
}

static void free_object(unsigned int kind, u32 arg, void *p)
{
	switch (kind) {
	case REPLAY_KMALLOC:
		kfree(p);
		break;
	case REPLAY_CACHE:
		kmem_cache_free(rs.caches[arg], p);
		break;
	case REPLAY_PAGES:
		__free_pages(p, arg);
		break;
	default:
		vfree(p);
		break;
	}
}

static unsigned long live_bytes(unsigned int kind, u32 arg)
{
	if (kind == REPLAY_CACHE)
		return rs.t->caches[arg].object_size;
	if (kind == REPLAY_PAGES)
		return PAGE_SIZE << arg;
	return arg;
}

static u64 free_event(const struct replay_event *e)
{
	void *p = rs.ptr[e->id];
	u64 t0;

	rs.ptr[e->id] = NULL;
	if (p == FAILED)
		return rs.r->empty;	/* its allocation failed: skipped */
	if (!p) {
		rs.r->id_errors++;
		pr_err("replay: id error: event %lu frees id %u, which holds nothing\n",
		       (unsigned long)(e - rs.t->events), e->id);
		return rs.r->empty;
	}
	t0 = rdtsc_ordered();
	free_object(e->kind, e->arg, p);
	return rdtsc_ordered() - t0;
}

/* After each op of the 1-CPU run, outside the timed region. */
static void sample_memory(void)
{
	long held = (long)rs.free_start - (long)nr_free_pages();

	rs.r->peak_held_pages = max(rs.r->peak_held_pages, held);
	rs.r->peak_live_bytes = max(rs.r->peak_live_bytes, rs.live);
}

static void run_event(const struct replay_event *e)
{
	unsigned int call = e->op == REPLAY_FREE ? 4 + e->kind : e->op;
	u64 took;

	if (e->op == REPLAY_FREE) {
		bool counted = rs.ptr[e->id] && rs.ptr[e->id] != FAILED;

		took = free_event(e);
		if (counted)
			rs.live -= live_bytes(e->kind, e->arg);
	} else {
		void *p = alloc_event(e, &took);

		if (rs.ptr[e->id]) {
			rs.r->id_errors++;
			pr_err("replay: id error: event %lu allocates id %u, which is taken\n",
			       (unsigned long)(e - rs.t->events), e->id);
		}
		rs.ptr[e->id] = p ? p : FAILED;
		rs.owner[e->id] = e - rs.t->events;
		if (p)
			rs.live += live_bytes(e->op, e->arg);
		else
			rs.r->alloc_failures++;
	}
	rs.r->cycles += took;
	rs.r->by_call[call] += took;
	rs.r->calls[call]++;
	rs.r->ops++;
	if (rs.memory)
		sample_memory();
}

/*
 * Halt until it is @me's turn or the run is over.  As cpu_idle(): "sti; hlt"
 * loses no wake-up, since sti takes effect after the next instruction.
 */
static int wait_turn(unsigned int me)
{
	int turn;

	for (;;) {
		local_irq_disable();
		turn = __atomic_load_n(&rs.turn, __ATOMIC_ACQUIRE);
		if (turn == (int)me || turn == TURN_DONE)
			break;
		__asm__ __volatile__("sti; hlt" : : : "memory");
	}
	local_irq_enable();
	return turn;
}

static void pass_turn(unsigned int me, int to)
{
	__atomic_store_n(&rs.turn, to, __ATOMIC_RELEASE);
	if (to != TURN_DONE) {
		smp_send_reschedule(to);
		return;
	}
	for (unsigned int cpu = 0; cpu < rs.cpus; cpu++) {
		if (cpu != me)
			smp_send_reschedule(cpu);
	}
}

/* What CPU @me does during a run: its events, whenever its turn comes. */
static void replay_cpu(unsigned int me)
{
	const struct replay_trace *t = rs.t;

	while (wait_turn(me) != TURN_DONE) {
		unsigned long i = rs.next;

		while (i < t->nr_events && cpu_of(&t->events[i]) == me)
			run_event(&t->events[i++]);
		rs.next = i;
		pass_turn(me, i < t->nr_events ? (int)cpu_of(&t->events[i]) : TURN_DONE);
	}
}

/* An application processor's part, run from its idle loop's deferred work. */
static void replay_ap_work(struct work_struct *work)
{
	unsigned int me = work - replay_work;

	__atomic_add_fetch(&rs.ready, 1, __ATOMIC_RELEASE);
	replay_cpu(me);
	__atomic_add_fetch(&rs.done, 1, __ATOMIC_RELEASE);
}

static void sort_u64(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		u64 x = v[i];
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The median of EMPTY_SAMPLES empty timed regions, or -ENOMEM. */
static int measure_empty(u64 *empty)
{
	u64 *v = vmalloc(EMPTY_SAMPLES * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (unsigned int i = 0; i < EMPTY_SAMPLES; i++) {
		u64 t0 = rdtsc_ordered();

		v[i] = rdtsc_ordered() - t0;
	}
	sort_u64(v, EMPTY_SAMPLES);
	*empty = v[EMPTY_SAMPLES / 2];
	vfree(v);
	return 0;
}

static int make_caches(void)
{
	const struct replay_trace *t = rs.t;

	rs.caches = vzalloc(max(t->nr_caches, 1U) * sizeof(*rs.caches));
	if (!rs.caches)
		return -ENOMEM;
	for (unsigned int i = 0; i < t->nr_caches; i++) {
		/* Above KMALLOC_MAX_SIZE no cache can be made: its allocations fail. */
		if (t->caches[i].object_size <= KMALLOC_MAX_SIZE)
			rs.caches[i] = kmem_cache_create(t->caches[i].name,
							 t->caches[i].object_size, 0, 0, NULL);
	}
	return 0;
}

static void destroy_caches(void)
{
	for (unsigned int i = 0; i < rs.t->nr_caches; i++) {
		if (rs.caches[i])
			kmem_cache_destroy(rs.caches[i]);
	}
	vfree(rs.caches);
	rs.caches = NULL;
}

/* The run itself: every CPU's part, CPU 0's here; returns when all are done. */
static void run_events(void)
{
	const struct replay_trace *t = rs.t;

	rs.next = 0;
	rs.ready = rs.done = 0;
	__atomic_store_n(&rs.turn, TURN_NONE, __ATOMIC_RELEASE);
	for (unsigned int cpu = 1; cpu < rs.cpus; cpu++) {
		INIT_WORK(&replay_work[cpu], replay_ap_work);
		schedule_work_on(cpu, &replay_work[cpu]);
	}
	while (__atomic_load_n(&rs.ready, __ATOMIC_ACQUIRE) != (int)rs.cpus - 1)
		cpu_relax();
	if (rs.memory)
		rs.free_start = nr_free_pages();
	pass_turn(0, t->nr_events ? (int)cpu_of(&t->events[0]) : TURN_DONE);
	replay_cpu(0);
	while (__atomic_load_n(&rs.done, __ATOMIC_ACQUIRE) != (int)rs.cpus - 1)
		cpu_relax();
}

/* What the trace left live, freed on this CPU; not timed. */
static void free_live(void)
{
	for (unsigned long id = 0; id < rs.t->slots; id++) {
		const struct replay_event *e = &rs.t->events[rs.owner[id]];

		if (rs.ptr[id] && rs.ptr[id] != FAILED)
			free_object(e->op, e->arg, rs.ptr[id]);
		rs.ptr[id] = NULL;
	}
	rs.live = 0;
}

/**
 * replay_run - replay @t's events on CPUs 0 .. @cpus - 1, then free what is left
 * @t: a trace replay_parse() accepted
 * @cpus: how many CPUs (every one of 0 .. @cpus - 1 must be online)
 * @r: the run's figures; the memory ones only when @cpus is 1
 *
 * Trace CPU c's events run on CPU c mod @cpus, in the trace's order, one
 * CPU at a time; the others halt until their turn.
 * Context: process context on CPU 0, interrupts on; no other CPU may be
 * running deferred work of its own that waits for CPU 0.
 * Return: 0, -EINVAL if the CPUs are not online, -ENOMEM if the run's
 * tables could not be had (then nothing was replayed).
 */
int replay_run(const struct replay_trace *t, unsigned int cpus, struct replay_result *r)
{
	long slab_before;
	int err;

	*r = (struct replay_result){ .cpus = cpus };
	if (!cpus || cpus > num_online_cpus() || smp_processor_id() != 0)
		return -EINVAL;
	rs = (struct replay_state){ .t = t, .r = r, .cpus = cpus, .memory = cpus == 1 };
	rs.ptr = vzalloc(t->slots * sizeof(*rs.ptr));
	rs.owner = vzalloc(t->slots * sizeof(*rs.owner));
	err = (!rs.ptr || !rs.owner) ? -ENOMEM : make_caches() ?: measure_empty(&r->empty);
	if (err)
		goto out;
	slab_before = nr_slab_pages();
	run_events();
	free_live();
	r->slab_pages_end = (long)nr_slab_pages() - slab_before;
	r->frag_high = nr_free_buddy_pages(FRAG_ORDER);
	r->frag_all = nr_free_buddy_pages(0);
out:
	if (rs.caches)
		destroy_caches();
	vfree(rs.ptr);
	vfree(rs.owner);
	rs = (struct replay_state){ 0 };
	return err;
}

/**
 * replay_instr_tenths - a run's instructions (TSC cycles) per op, in tenths
 * @r: the run's figures
 *
 * The sum of the ops' timed regions, minus an empty region's cost per op,
 * divided by the ops (issue 34's instr_per_op).
 * Context: any.
 * Return: the figure times 10; 0 for no ops.
 */
u64 replay_instr_tenths(const struct replay_result *r)
{
	u64 empty = (u64)r->ops * r->empty;

	if (!r->ops || r->cycles <= empty)
		return 0;
	return (r->cycles - empty) * 10 / r->ops;
}

/* ---------------------------------------------------------------- reports */

static long reports, alloc_reports;
static char first_report[128];
static bool probe_line_start = true, probe_oops;

/* An allocation failing says so; that is a figure (alloc_failures), not a bug. */
static const char *const alloc_failure_reports[] = {
	"page allocation failure:", "SLUB: Unable to allocate memory", "vmalloc error:",
	"invoked oom-killer:", "percpu: allocation failed",
};

static bool contains(const char *text, size_t len, const char *what)
{
	size_t n = strlen(what);

	for (size_t i = 0; i + n <= len; i++) {
		if (!memcmp(text + i, what, n))
			return true;
	}
	return false;
}

static void count_report(const char *text, size_t n)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(alloc_failure_reports); i++) {
		if (contains(text, n, alloc_failure_reports[i])) {
			alloc_reports++;
			return;
		}
	}
	if (++reports == 1) {
		n = min(n, sizeof(first_report) - 1);
		memcpy(first_report, text, n);
		first_report[n] = '\0';
	}
}

/* The console probe: called with printk's lock held, one message at a time. */
static void report_probe(void *data, const char *text, size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		size_t n = (nl ? nl : end) - text;

		if (probe_line_start && kunit_line_is_report(text, n, &probe_oops))
			count_report(text, n);
		probe_line_start = nl;
		text = nl ? nl + 1 : end;
	}
}

/* ---------------------------------------------------------------- the command */

struct trace_figures {
	char name[32];
	struct replay_result run[MAX_RUNS];	/* by CPU count: 1, 2, 4, 8 */
	bool ran[MAX_RUNS];
};

static void print_line(const char *t, const char *key, const char *figure, const char *words)
{
	printk("bench: linux trace.%s.%s %s replay %s: %s\n", t, key, figure, t, words);
}

static void print_decimal(const char *t, const char *key, unsigned long long value,
			  unsigned int decimals,
			  const char *words)
{
	char buf[32];

	if (decimals == 1)
		snprintf(buf, sizeof(buf), "%llu.%llu", value / 10, value % 10);
	else
		snprintf(buf, sizeof(buf), "%llu.%03llu", value / 1000, value % 1000);
	print_line(t, key, buf, words);
}

static void print_integer(const char *t, const char *key, long value, const char *words)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%ld", value);
	print_line(t, key, buf, words);
}

static u64 held_per_live_milli(const struct replay_result *r)
{
	if (!r->peak_live_bytes || r->peak_held_pages <= 0)
		return 0;
	return (u64)r->peak_held_pages * PAGE_SIZE * 1000 / r->peak_live_bytes;
}

static u64 frag_milli(const struct replay_result *r)
{
	return r->frag_all ? (u64)r->frag_high * 1000 / r->frag_all : 0;
}

/* make bench's lines for trace @f: the memory figures from 1 CPU, instr_per_op from each. */
static void print_figures(const struct trace_figures *f)
{
	static const char *const keys[MAX_RUNS] = {
		"instr_per_op", "instr_per_op_2cpu", "instr_per_op_4cpu", "instr_per_op_8cpu",
	};
	static const char *const words[MAX_RUNS] = {
		"instructions per op, 1 CPU", "instructions per op, 2 CPUs",
		"instructions per op, 4 CPUs", "instructions per op, 8 CPUs",
	};
	const struct replay_result *r = &f->run[0];
	const char *t = f->name;

	for (int i = 0; i < MAX_RUNS; i++) {
		if (f->ran[i])
			print_decimal(t, keys[i], replay_instr_tenths(&f->run[i]), 1, words[i]);
	}
	if (!f->ran[0])
		return;
	print_decimal(t, "held_per_live", held_per_live_milli(r), 3, "peak held / peak live");
	print_integer(t, "peak_held_kib", max(r->peak_held_pages, 0L) * (long)(PAGE_SIZE / 1024),
		      "peak pages held, KiB");
	print_integer(t, "peak_live_kib", r->peak_live_bytes / 1024, "peak live bytes, KiB");
	print_integer(t, "slab_pages_end", r->slab_pages_end, "slab pages after the frees");
	print_decimal(t, "frag_end", frag_milli(r), 3, "free pages in blocks >= order 3");
	print_integer(t, "ops", r->ops, "ops (info)");
	print_integer(t, "alloc_failures", r->alloc_failures, "allocations failed (info)");
}

/*
 * Where the 1-CPU run's instructions went, by call: how many, and the
 * instructions each (its empty region taken off), as Linux's module says
 * with verbose=1.
 */
static void print_calls(const char *t, const struct replay_result *r)
{
	static const char *const names[8] = { "kmalloc", "kmem_cache_alloc", "alloc_pages",
		"vmalloc", "kfree", "kmem_cache_free", "__free_pages", "vfree" };

	printk("replay: %s by call:", t);
	for (unsigned int i = 0; i < 8; i++) {
		u64 each;

		if (!r->calls[i])
			continue;
		each = (r->by_call[i] - min(r->by_call[i], r->calls[i] * r->empty)) * 10 /
		       r->calls[i];
		printk(KERN_CONT " %s %lu x %llu.%llu;", names[i], r->calls[i],
		       (unsigned long long)(each / 10), (unsigned long long)(each % 10));
	}
	printk(KERN_CONT "\n");
}

static void print_summary(const char *t, const struct replay_result *r)
{
	unsigned long long instr = replay_instr_tenths(r), hl = held_per_live_milli(r);
	unsigned long long frag = frag_milli(r);

	printk("replay: %s on %u CPU%s: %lu ops, %llu.%llu TSC ticks/op (empty region %llu), "
	       "%lu allocation failures, %lu id errors\n", t, r->cpus, r->cpus == 1 ? "" : "s",
	       r->ops, instr / 10, instr % 10, (unsigned long long)r->empty, r->alloc_failures, r->id_errors);
	if (r->cpus != 1)
		return;
	print_calls(t, r);
	printk("replay: %s memory: peak held %ld KiB, peak live %lu KiB, held/live %llu.%03llu, "
	       "slab pages at the end %+ld, frag_end %llu.%03llu\n", t,
	       max(r->peak_held_pages, 0L) * (long)(PAGE_SIZE / 1024), r->peak_live_bytes / 1024,
	       hl / 1000, hl % 1000, r->slab_pages_end, frag / 1000, frag % 1000);
}

/* replay.cpus=1,4: a bit per run (1, 2, 4, 8); by default all four. */
static unsigned int parse_cpus(void)
{
	char buf[32], *p = buf, *item;
	unsigned int runs = 0, n;

	if (!cmdline_get("replay.cpus", buf, sizeof(buf)))
		return (1U << MAX_RUNS) - 1;
	while ((item = p)) {
		p = strchr(item, ',');
		if (p)
			*p++ = '\0';
		if (kstrtouint(item, 10, &n) || !n || n > 8 || (n & (n - 1))) {
			pr_err("replay: replay.cpus: '%s' is not 1, 2, 4 or 8\n", item);
			continue;
		}
		runs |= 1U << __builtin_ctz(n);
	}
	return runs;
}

/* One trace: parse, run at each CPU count, print; false if refused or an id went wrong. */
static bool replay_module(const struct boot_module *m, unsigned int runs, bool figures,
			  struct trace_figures *f)
{
	size_t len = strlen(m->name);
	struct replay_trace t;
	bool ok = true;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%.*s", (int)(len - 4), m->name);
	if (replay_parse(__va(m->start), m->end - m->start, &t)) {
		pr_err("replay: %s: refused (nothing replayed)\n", f->name);
		return false;
	}
	pr_info("replay: %s: %lu events, %u caches, %lu slots\n", f->name, t.nr_events,
		t.nr_caches, t.slots);
	for (int i = 0; i < MAX_RUNS; i++) {
		unsigned int cpus = 1U << i;

		if (!(runs & (1U << i)))
			continue;
		if (cpus > num_online_cpus()) {
			pr_info("replay: %s on %u CPUs: left out (%u online)\n", f->name, cpus,
				num_online_cpus());
			continue;
		}
		if (replay_run(&t, cpus, &f->run[i])) {
			pr_err("replay: %s on %u CPUs: no memory for the run's tables\n", f->name,
			       cpus);
			ok = false;
			continue;
		}
		f->ran[i] = true;
		ok &= !f->run[i].id_errors;
		print_summary(f->name, &f->run[i]);
	}
	if (figures)
		print_figures(f);
	replay_free_trace(&t);
	return ok;
}

static bool is_trace(const struct boot_module *m)
{
	size_t len = strlen(m->name);

	return len > 4 && !strcmp(m->name + len - 4, ".kmr");
}

static bool verdict(bool ok, unsigned long before, unsigned long after, bool back)
{
	pr_info("replay: reports seen: %ld%s%s; allocation failure reports: %ld\n", reports,
		reports ? "; the first: " : "", reports ? first_report : "", alloc_reports);
	pr_info("replay: free pages after: %lu, before: %lu\n", after, before);
	if (ok && !reports && after == before && back) {
		pr_info("replay: clean\n");
		return true;
	}
	pr_err("replay: FAILED: %s%ld reports, %ld pages %s%s\n",
	       ok ? "" : "a trace refused or an id error, ", reports,
	       (long)(before > after ? before - after : after - before),
	       before >= after ? "lost" : "too many",
	       back ? "" : ", caches or vmalloc areas not as before");
	return false;
}

/**
 * replay_main - replay every trace GRUB brought ("<T>.kmr" modules), print the figures
 *
 * Options: replay.cpus=1,2,4,8 (the runs), replay.figures=1 (make bench's
 * "bench: linux trace.<T>.<key>" lines).  Ends with "replay: clean" or
 * "replay: FAILED: ...", then "replay: done".
 * Context: boot CPU, instead of the monitor (command line "replay").
 * Return: true if every trace was accepted and replayed clean.
 */
bool replay_main(void)
{
	unsigned long before, after, caches, areas, caches_after, areas_after;
	bool figures = cmdline_get_bool("replay.figures", false), ok = true, back;
	unsigned int runs = parse_cpus(), traces = 0;
	struct trace_figures *f = vmalloc(sizeof(*f));

	if (!f || register_trace_console(report_probe, NULL)) {
		pr_err("replay: no memory or no console probe to start\n");
		vfree(f);
		pr_info("replay: done\n");
		return false;
	}
	before = settled_free_pages();
	count_caches_and_areas(&caches, &areas);
	for (unsigned int i = 0; i < boot_info.nr_modules; i++) {
		if (!is_trace(&boot_info.modules[i]))
			continue;
		traces++;
		ok &= replay_module(&boot_info.modules[i], runs, figures, f);
	}
	if (!traces)
		pr_info("replay: no trace (GRUB modules named <T>.kmr)\n");
	after = settled_free_pages();
	count_caches_and_areas(&caches_after, &areas_after);
	vfree(f);
	back = caches_after == caches && areas_after == areas;
	if (!back)
		pr_err("replay: %lu slab caches (before: %lu), %lu vmalloc areas (before: %lu)\n",
		       caches_after, caches, areas_after, areas);
	unregister_trace_console(report_probe, NULL);
	ok = verdict(ok, before, after, back);
	pr_info("replay: done\n");
	return ok;
}
