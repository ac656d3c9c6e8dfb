/*
 * tests/replay/replay.h - replaying Linux's allocation traces ("kmem-replay 1").
 *
 * A trace is a text file captured from Linux (docs/bench.md, sections 7 and
 * 8): the caches it declared, then every kmalloc(), kmem_cache_alloc(),
 * alloc_pages(), vmalloc() and free, with the CPU that made it.  The parser
 * (replay_parse.c) reads the whole text once into an array of pre-decoded
 * events, or refuses it with "replay: line N: <reason>" and keeps nothing;
 * the engine (replay.c) replays that array on 1, 2, 4 or 8 CPUs, one CPU at
 * a time, timing each operation alone, and prints the figures make bench
 * sets beside Linux's.
 *
 *	struct replay_trace t;
 *
 *	if (replay_parse(text, len, &t))	// refused: its line and reason in t.error
 *		return;
 *	replay_run(&t, "sample", 4, &result);	// 4 CPUs
 *	replay_free_trace(&t);
 */
#ifndef REPLAY_REPLAY_H
#define REPLAY_REPLAY_H

#include "lib/compiler.h"
#include "mm/gfp.h"

#define REPLAY_MAX_SLOTS	(1UL << 24)	/* S at most */
#define REPLAY_MAX_CPU		4095		/* a trace's CPU numbers */
#define REPLAY_MAX_ORDER	10		/* p: order at most */
#define REPLAY_MAX_CACHE_SIZE	(8UL << 20)	/* C: size at most */
#define REPLAY_MAX_KMALLOC	(4UL << 20)	/* a: size at most */
#define REPLAY_MAX_VMALLOC	(64UL << 20)	/* v: size at most */
#define REPLAY_NAME_MAX		40		/* of a cache, "replay-" included */

/* What an event does; a free records what it frees (kind) and that allocation's arg. */
enum replay_op {
	REPLAY_KMALLOC,		/* a: kmalloc(arg, gfp) */
	REPLAY_CACHE,		/* k: kmem_cache_alloc(caches[arg].s, gfp) */
	REPLAY_PAGES,		/* p: alloc_pages(gfp, arg) */
	REPLAY_VMALLOC,		/* v: vmalloc(arg) */
	REPLAY_FREE,		/* f: kfree, kmem_cache_free, __free_pages or vfree, by kind */
};

/* One event, decoded: 16 bytes. */
struct replay_event {
	u8 op;			/* enum replay_op */
	u8 kind;		/* REPLAY_FREE: the op of the allocation freed; else op */
	u16 cpu;		/* the trace's CPU (0 .. REPLAY_MAX_CPU) */
	u32 id;			/* the slot */
	u32 arg;		/* size (a, v), cache index (k), order (p); a free: its allocation's */
	u32 gfp;		/* Linux's bits, as in the trace (a, k, p) */
};

/* A cache the trace declared (C), made before each run and destroyed after it. */
struct replay_cache {
	u64 cid;
	u32 object_size;
	u32 size;		/* Linux's slot size, for information */
	char name[REPLAY_NAME_MAX];	/* "replay-<name>", cut to fit */
	struct kmem_cache *s;	/* while a run lasts */
};

/* Why a trace was refused: the line (from 1) and the reason, as printed. */
struct replay_error {
	unsigned long line;
	char reason[96];
};

struct replay_trace {
	struct replay_event *events;	/* vmalloc()ed */
	unsigned long nr_events;
	struct replay_cache *caches;	/* vmalloc()ed, or NULL */
	unsigned int nr_caches;
	unsigned long slots;		/* S */
	struct replay_error error;	/* line 0: accepted */
};

/* The figures of one run (docs/bench.md, section 8). */
struct replay_result {
	unsigned int cpus;		/* the run's */
	unsigned long ops;
	unsigned long alloc_failures;	/* allocations that returned NULL */
	unsigned long id_errors;	/* a slot not as the parser left it: a bug here */
	u64 cycles;			/* over all ops, each between two rdtsc_ordered() */
	/* the same by call: [0..3] the allocations (a k p v), [4..7] their frees */
	u64 by_call[8];
	unsigned long calls[8];
	u64 empty;			/* an empty timed region: the median of 1001 */
	long peak_held_pages;		/* free(start) - free(t), at most */
	unsigned long peak_live_bytes;
	long slab_pages_end;		/* slab pages after the end's frees, minus before */
	unsigned long frag_high, frag_all;	/* free buddy pages in order >= 3, in all */
};

int replay_parse(const char *text, size_t len, struct replay_trace *t);
void replay_free_trace(struct replay_trace *t);
int replay_run(const struct replay_trace *t, unsigned int cpus, struct replay_result *r);
u64 replay_instr_tenths(const struct replay_result *r);
gfp_t replay_gfp(u32 linux_gfp);
bool replay_main(void);

#endif
