/*
 * tests/kernel/smp_slab_test.c - the slab with every CPU allocating and
 * freeing at once, objects crossing CPUs, and interrupt handlers that
 * allocate and free.
 *
 * all_cpus_allocate_and_free_at_once: each CPU (the APs from deferred
 * work, CPU 0 from the test, interrupts on) keeps SLOTS objects of mixed
 * kmalloc sizes and of a cache of the test's own.  Each step frees a slot
 * and allocates a new object in its place; one free in four is handed to
 * the next CPU instead, through that CPU's mailbox (an array under a
 * spinlock), and that CPU frees it.  Every object carries a stamp (owner CPU,
 * sequence number) and a pattern derived from it, checked at every free:
 * an object handed to two owners, or written by anyone else, shows.  CPU 0
 * also shrinks and validates the test's cache while the others work, so
 * the sheaves are flushed by IPI under their feet.  At the end the counts
 * are exact (every object allocated was freed once, every object handed
 * over was freed by its receiver), the test's cache is destroyed without a
 * leak report, and with the caches shrunk nr_free_pages() is back.
 *
 * interrupt_handlers_allocate_and_free: while a CPU runs the same kind of
 * loop, CPU 0 sends it cross-CPU calls whose handlers kfree() objects CPU 0
 * allocated, and allocate with GFP_ATOMIC objects that CPU 0 checks and
 * frees.  Nothing is reported; a GFP_KERNEL allocation in a handler is
 * (once, as Linux's might_alloc()), and still succeeds.  With the sheaves
 * (slab_debug=-), some interrupts land inside the loop's own pushes and
 * pops, which turn no interrupts off: the case wants some of them
 * restarted (arch/x86_64/restart.h), and without the restart it fails
 * (tried: objects handed out twice, which the free mark reports as freed
 * twice, and stamps overwritten).
 *
 * interrupted_sequences_start_again: the restart's rule itself, byte by
 * byte, on made-up registers.
 *
 * Both run with and without slab debugging (the matrix's -debug machines
 * boot with slab_debug): the locked, checked path and the per-CPU sheaves.
 * Operations are fewer above 4 CPUs: the matrix runs 8 vCPUs on 2 host
 * cores, where every contended lock hand-over may wait for the host.
 */
#include "slab_test.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/ptrace.h"
#include "arch/x86_64/restart.h"
#include "arch/x86_64/timer.h"

#define SLOTS		24
#define TOTAL_OPS	12000
#define TOTAL_OPS_MANY	4000		/* above 4 CPUs */
#define MAILBOX		64
#define OWN_SIZE	72
#define STAMP_MAGIC	0x51ab0000u
#define DEADLINE_NS	(60ULL * 1000 * 1000 * 1000)

static const unsigned int sizes[] = { 8, 24, 64, 96, 200, 512, 1000, OWN_SIZE };
#define OWN_KIND	(ARRAY_SIZE(sizes) - 1)	/* the last kind is the test's cache */

struct stamp {
	u32 magic_cpu;		/* STAMP_MAGIC | owner */
	u32 seq;
};

struct obj_ref {
	void *p;
	unsigned int kind;	/* index into sizes[] */
};

struct mailbox {
	spinlock_t lock;
	unsigned int nr;
	struct obj_ref refs[MAILBOX];
};

struct slab_stress {
	struct work_struct work;
	struct obj_ref slot[SLOTS];
	struct mailbox mbox;
	u64 seed;
	u32 seq;
	unsigned long allocs, frees, handed, received, corrupt, failures, validate_errors;
	unsigned long started, ops_done, done;
};

/*
 * One per CPU, from kzalloc() in the suite's init (a large kmalloc: the
 * slab lab's handouts have no vmalloc): 100 KiB the image leaves to the
 * 6 MiB machine.
 */
static struct slab_stress *stress;
static struct kmem_cache *own;
static unsigned long go, ops_per_cpu, nr_ops_done;

static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Spin until *@p reaches @want or the deadline passes; true if it did. */
static bool wait_for(unsigned long *p, unsigned long want)
{
	u64 end = ktime_get_ns() + DEADLINE_NS;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < want) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

static u8 pattern_byte(const struct stamp *st, unsigned int i)
{
	return (u8)(st->seq * 7 + st->magic_cpu + i);
}

/* Stamp @p (of @size bytes) as CPU @cpu's object number @seq. */
static void stamp_object(void *p, unsigned int size, unsigned int cpu, u32 seq)
{
	struct stamp *st = p;
	u8 *b = p;

	st->magic_cpu = STAMP_MAGIC | cpu;
	st->seq = seq;
	for (unsigned int i = sizeof(*st); i < size; i++)
		b[i] = pattern_byte(st, i);
}

/* Is @p (of @size bytes) still as stamp_object() left it?  The owner is in the stamp. */
static bool stamp_intact(const void *p, unsigned int size)
{
	const struct stamp *st = p;
	const u8 *b = p;

	if ((st->magic_cpu & 0xffff0000u) != STAMP_MAGIC || (st->magic_cpu & 0xffff) >= NR_CPUS)
		return false;
	for (unsigned int i = sizeof(*st); i < size; i++) {
		if (b[i] != pattern_byte(st, i))
			return false;
	}
	return true;
}

static void *alloc_kind(unsigned int kind, gfp_t gfp)
{
	return kind == OWN_KIND ? kmem_cache_alloc(own, gfp) : kmalloc(sizes[kind], gfp);
}

static void free_ref(struct obj_ref ref)
{
	if (ref.kind == OWN_KIND)
		kmem_cache_free(own, ref.p);
	else
		kfree(ref.p);
}

/* Check and free @ref, which @s holds (its own or handed over). */
static void check_and_free(struct slab_stress *s, struct obj_ref ref)
{
	if (!stamp_intact(ref.p, sizes[ref.kind]))
		s->corrupt++;
	free_ref(ref);
	s->frees++;
}

/* Give @ref to CPU @to's mailbox; false if it is full. */
static bool hand_over(unsigned int to, struct obj_ref ref)
{
	struct mailbox *mb = &stress[to].mbox;
	bool taken = false;

	spin_lock(&mb->lock);
	if (mb->nr < MAILBOX) {
		mb->refs[mb->nr++] = ref;
		taken = true;
	}
	spin_unlock(&mb->lock);
	return taken;
}

/* Free what the other CPUs handed to @s. */
static void empty_mailbox(struct slab_stress *s)
{
	struct obj_ref refs[MAILBOX];
	unsigned int nr;

	spin_lock(&s->mbox.lock);
	nr = s->mbox.nr;
	memcpy(refs, s->mbox.refs, nr * sizeof(refs[0]));
	s->mbox.nr = 0;
	spin_unlock(&s->mbox.lock);
	for (unsigned int i = 0; i < nr; i++) {
		check_and_free(s, refs[i]);
		s->received++;
	}
}

/* CPU 0's extra work: flush every CPU's sheaves of the test's cache, and check its slabs. */
static void disturb(struct slab_stress *s, unsigned long op)
{
	if (op % 512 == 0)
		kmem_cache_shrink(own);
	if (op % 2048 == 1024)
		s->validate_errors += validate_slab_cache(own);
}

static void stress_run(struct slab_stress *s, unsigned int cpu)
{
	unsigned int next_cpu = cpu;

	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		cpu_relax();
	do {	/* the next online CPU, for hand-overs */
		next_cpu = (next_cpu + 1) % NR_CPUS;
	} while (!cpu_online(next_cpu));
	for (unsigned long op = 0; op < ops_per_cpu; op++) {
		unsigned int slot = next_rand(&s->seed) % SLOTS;
		unsigned int kind = next_rand(&s->seed) % ARRAY_SIZE(sizes);
		struct obj_ref *ref = &s->slot[slot];

		if (ref->p) {
			if (next_cpu != cpu && next_rand(&s->seed) % 4 == 0 &&
			    hand_over(next_cpu, *ref)) {
				s->handed++;
			} else {
				check_and_free(s, *ref);
			}
			ref->p = NULL;
		}
		ref->p = alloc_kind(kind, GFP_KERNEL);
		if (!ref->p) {
			s->failures++;
			continue;
		}
		ref->kind = kind;
		stamp_object(ref->p, sizes[kind], cpu, s->seq++);
		s->allocs++;
		if (op % 16 == 0)
			empty_mailbox(s);
		if (cpu == 0)
			disturb(s, op);
	}
	/* Nobody hands anything over once every CPU is past its loop: empty out. */
	__atomic_fetch_add(&nr_ops_done, 1, __ATOMIC_ACQ_REL);
	s->ops_done = 1;
	if (wait_for(&nr_ops_done, num_online_cpus()))
		empty_mailbox(s);
	for (unsigned int slot = 0; slot < SLOTS; slot++) {
		if (s->slot[slot].p)
			check_and_free(s, s->slot[slot]);
		s->slot[slot].p = NULL;
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

static void stress_work(struct work_struct *work)
{
	struct slab_stress *s = container_of(work, struct slab_stress, work);

	stress_run(s, smp_processor_id());
}

static struct {
	unsigned long free_before, pos, inuse[KMALLOC_SHIFT_HIGH + 1];
} sctx;

static int smp_slab_init(struct kunit *test)
{
	(void)test;
	stress = kzalloc(NR_CPUS * sizeof(*stress), GFP_KERNEL);
	own = kmem_cache_create("smp_slab_test", OWN_SIZE, 0, 0, NULL);
	if (!stress || !own) {
		kmem_cache_destroy(own);
		kfree(stress);
		own = NULL;
		return -1;
	}
	for (unsigned int i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		if (kmalloc_caches[i])
			sctx.inuse[i] = cache_objects_in_use(kmalloc_caches[i]);
	}
	shrink_everything();
	sctx.free_before = nr_free_pages();
	sctx.pos = printk_log_pos();
	return 0;
}

/* Everything is back: no object in use, no report, no page missing. */
static void background_work(struct work_struct *work);

static void smp_slab_exit(struct kunit *test)
{
	unsigned int cpu;

	if (!own)
		return;
	/* a case that ended early may have left a CPU in background_work() */
	for_each_online_cpu(cpu) {
		if (stress[cpu].work.func == background_work) {
			__atomic_store_n(&stress[cpu].done, 1, __ATOMIC_RELEASE);
			flush_work(&stress[cpu].work);
		}
	}
	KUNIT_EXPECT_EQ(test, cache_objects_in_use(own), 0);
	for (unsigned int i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		if (kmalloc_caches[i])
			KUNIT_EXPECT_EQ_MSG(test, cache_objects_in_use(kmalloc_caches[i]),
					    sctx.inuse[i], "%s", kmalloc_caches[i]->name);
	}
	shrink_everything();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), sctx.free_before);
	kmem_cache_destroy(own);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(sctx.pos), "BUG"), 0);
	own = NULL;
	kfree(stress);
}

static void all_cpus_allocate_and_free_at_once(struct kunit *test)
{
	unsigned long allocs = 0, frees = 0, handed = 0, received = 0;
	unsigned int cpu, n = num_online_cpus();
	u64 t0;

	ops_per_cpu = (n > 4 ? TOTAL_OPS_MANY : TOTAL_OPS) / n;
	go = 0;
	nr_ops_done = 0;
	for_each_online_cpu(cpu) {
		stress[cpu] = (struct slab_stress){ .seed = 0x9e3779b97f4a7c15ULL * (cpu + 1) };
		spin_lock_init(&stress[cpu].mbox.lock);
		INIT_WORK(&stress[cpu].work, stress_work);
		if (cpu)
			KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &stress[cpu].work));
	}
	t0 = ktime_get_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	stress_run(&stress[0], 0);
	for_each_online_cpu(cpu) {
		struct slab_stress *s = &stress[cpu];

		if (cpu)
			flush_work(&s->work);
		KUNIT_EXPECT_EQ_MSG(test, s->done, 1, "CPU%u did not finish", cpu);
		KUNIT_EXPECT_EQ_MSG(test, s->corrupt, 0, "CPU%u found objects changed under it "
				    "(handed out twice?)", cpu);
		KUNIT_EXPECT_EQ(test, s->failures, 0);
		KUNIT_EXPECT_EQ(test, s->validate_errors, 0);
		KUNIT_EXPECT_EQ(test, s->mbox.nr, 0);
		allocs += s->allocs;
		frees += s->frees;
		handed += s->handed;
		received += s->received;
	}
	kunit_info(test, "%u CPUs: %lu objects allocated and freed in %llu ms, %lu of them by "
		   "another CPU (%s)", n, allocs,
		   (unsigned long long)(ktime_get_ns() - t0) / 1000000, handed,
		   cache_has_sheaves(own) ? "sheaves" : "checked, no sheaves");
	KUNIT_EXPECT_EQ(test, allocs, ops_per_cpu * n);
	KUNIT_EXPECT_EQ(test, frees, allocs);
	KUNIT_EXPECT_EQ(test, received, handed);
	if (n > 1)
		KUNIT_EXPECT_GT(test, handed, 0);
}

/* ---------------------------------------------------------------- interrupt handlers */

#define IRQ_ROUNDS	300
#define IRQ_ROUNDS_MANY	80

struct irq_call {
	struct obj_ref ref;	/* to free, or what was allocated */
	u32 seq;
	bool ok;
};

/* In the handler: check the object CPU 0 stamped, and free it. */
static void irq_check_and_free(void *info)
{
	struct irq_call *c = info;

	c->ok = in_interrupt() && stamp_intact(c->ref.p, sizes[c->ref.kind]);
	free_ref(c->ref);
}

/* In the handler: allocate with GFP_ATOMIC and stamp it for CPU 0 to check. */
static void irq_alloc_atomic(void *info)
{
	struct irq_call *c = info;

	c->ok = in_interrupt();
	c->ref.p = alloc_kind(c->ref.kind, GFP_ATOMIC);
	if (c->ref.p)
		stamp_object(c->ref.p, sizes[c->ref.kind], smp_processor_id(), c->seq);
}

/* In the handler: GFP_KERNEL, which a handler must not use: reported, and served anyway. */
static void irq_alloc_kernel(void *info)
{
	struct irq_call *c = info;

	c->ref.p = kmalloc(64, GFP_KERNEL);
}

/* The two kinds the handlers use: kmalloc-64 and the test's cache. */
static unsigned int irq_kind(unsigned int r)
{
	return r % 2 ? 2 : OWN_KIND;
}

/*
 * The loop the target CPU runs while its handlers allocate and free: the
 * handlers' two kinds only, little else, so that the interrupts often land
 * in the middle of an allocation or a free of the same cache.
 */
static void background_work(struct work_struct *work)
{
	struct slab_stress *s = container_of(work, struct slab_stress, work);
	unsigned int cpu = smp_processor_id();

	__atomic_store_n(&s->started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		unsigned int slot = next_rand(&s->seed) % SLOTS;
		unsigned int kind = irq_kind(slot);
		struct obj_ref *ref = &s->slot[slot];

		if (ref->p)
			check_and_free(s, *ref);
		ref->p = alloc_kind(kind, GFP_KERNEL);
		ref->kind = kind;
		if (!ref->p) {
			s->failures++;
			continue;
		}
		stamp_object(ref->p, sizes[kind], cpu, s->seq++);
		s->allocs++;
	}
	for (unsigned int slot = 0; slot < SLOTS; slot++) {
		if (s->slot[slot].p)
			check_and_free(s, s->slot[slot]);
		s->slot[slot].p = NULL;
	}
	__atomic_store_n(&s->ops_done, 1, __ATOMIC_RELEASE);
}

static void interrupt_handlers_allocate_and_free(struct kunit *test)
{
	unsigned int rounds = num_online_cpus() > 4 ? IRQ_ROUNDS_MANY : IRQ_ROUNDS, targets = 0;
	unsigned long irq_frees = 0, irq_allocs = 0, bad = 0, restarts = 0;
	bool want_restarts = cache_has_sheaves(kmalloc_caches[kmalloc_index(64)]);
	unsigned int cpu;
	struct irq_call c;
	const char *log;

	kunit_expect_report(test, "BUG: sleeping allocation from invalid context");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	for_each_online_cpu(cpu) {
		struct slab_stress *s = &stress[cpu];

		if (!cpu)
			continue;
		if (targets++ == 3)	/* three targets are plenty */
			break;
		*s = (struct slab_stress){ .seed = 0x2545f4914f6cdd1dULL * (cpu + 1) };
		INIT_WORK(&s->work, background_work);
		KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &s->work));
		KUNIT_ASSERT_TRUE(test, wait_for(&s->started, 1));
		unsigned long first = cpu_vm_event(cpu, SLAB_SHEAF_RESTART);

		/*
		 * With sheaves, on until an interrupt has landed inside a push or
		 * pop of the loop (a few in 600 calls under KASAN, whose
		 * quarantine takes the frees away from the sheaves; dozens without)
		 */
		for (unsigned int r = 0; r < rounds || (want_restarts && r < 20 * rounds &&
				cpu_vm_event(cpu, SLAB_SHEAF_RESTART) == first); r++) {
			c = (struct irq_call){ .ref = { alloc_kind(irq_kind(r), GFP_KERNEL),
							irq_kind(r) } };
			KUNIT_ASSERT_NOT_NULL(test, c.ref.p);
			stamp_object(c.ref.p, sizes[c.ref.kind], 0, r);
			KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, irq_check_and_free, &c,
								       1), 0);
			bad += !c.ok;
			irq_frees++;

			c = (struct irq_call){ .ref = { NULL, irq_kind(r + 1) }, .seq = r };
			KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, irq_alloc_atomic, &c,
								       1), 0);
			KUNIT_ASSERT_NOT_NULL(test, c.ref.p);
			bad += !c.ok || !stamp_intact(c.ref.p, sizes[c.ref.kind]) ||
			       ((struct stamp *)c.ref.p)->magic_cpu != (STAMP_MAGIC | cpu);
			free_ref(c.ref);	/* allocated there, freed here */
			irq_allocs++;
		}
		__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
		flush_work(&s->work);
		restarts += cpu_vm_event(cpu, SLAB_SHEAF_RESTART) - first;
		KUNIT_EXPECT_EQ(test, s->ops_done, 1);
		KUNIT_EXPECT_EQ_MSG(test, s->corrupt, 0, "CPU%u's own objects changed", cpu);
		KUNIT_EXPECT_EQ(test, s->failures, 0);
		KUNIT_EXPECT_EQ(test, s->frees, s->allocs);
		KUNIT_EXPECT_GT(test, s->allocs, 0);
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(sctx.pos), "BUG"), 0);
	/* the sheaves' pushes and pops were interrupted, and restarted (restart.h) */
	if (want_restarts)
		KUNIT_EXPECT_GT(test, restarts, 0);
	kunit_info(test, "%lu frees and %lu GFP_ATOMIC allocations in interrupt handlers; "
		   "%lu sheaf pushes or pops restarted", irq_frees, irq_allocs, restarts);

	/* GFP_KERNEL in a handler: one report per caller, and the object anyway */
	for (int i = 0; i < 2; i++) {
		c = (struct irq_call){ .ref = { NULL, 0 } };
		KUNIT_ASSERT_EQ(test, smp_call_function_single(1, irq_alloc_kernel, &c, 1), 0);
		KUNIT_EXPECT_TRUE(test, is_object_of(kmalloc_caches[kmalloc_index(64)], c.ref.p));
		kfree(c.ref.p);
	}
	log = log_since(sctx.pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG: sleeping allocation from invalid context "
					   "by irq_alloc_kernel"), 1);
	sctx.pos = printk_log_pos();
}

/* ---------------------------------------------------------------- counting under flushes */

#define COUNT_NS	(1000ULL * 1000 * 1000)	/* how long CPU 0 flushes */

static struct {
	struct work_struct work;
	unsigned long started, done, reads, too_many, max_seen, bound;
	void *objs[3 * MAX_SHEAF_CAPACITY + 1];
} counter;
static void *objs0[3 * MAX_SHEAF_CAPACITY + 1];

/*
 * Fill this CPU's sheaves of the test's cache: allocating more than two
 * sheaves' worth and freeing them leaves a main and a spare.
 */
static unsigned int fill_sheaves(void **objs)
{
	unsigned int n = 3 * own->sheaf_capacity + 1, got = 0;

	while (got < n && (objs[got] = kmem_cache_alloc(own, GFP_KERNEL)))
		got++;
	for (unsigned int i = 0; i < got; i++)
		kmem_cache_free(own, objs[i]);
	return got;
}

/*
 * On CPU 1: what slabinfo and the slab shrinker's count ask,
 * cache_sheaf_objects(), over and over, while CPU 0 flushes every CPU's
 * sheaves (its own, and this one's by IPI, in the middle of the loop).
 */
static void count_sheaf_objects(struct work_struct *work)
{
	(void)work;
	__atomic_store_n(&counter.started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&counter.done, __ATOMIC_ACQUIRE)) {
		unsigned long n;

		if (counter.reads % 64 == 0)
			fill_sheaves(counter.objs);
		n = cache_sheaf_objects(own);
		counter.too_many += n > counter.bound;
		counter.max_seen = max(counter.max_seen, n);
		counter.reads++;
	}
}

/*
 * Counting another CPU's sheaves while a flush frees them: CPU 1 counts
 * the cached objects of a cache (the path of slabinfo and of the slab
 * shrinker's count) while CPU 0 allocates, frees and shrinks it, so that
 * every CPU's main and spare sheaves are freed by flush_cpu_sheaves() under
 * the count.  The count must never follow a pointer to a sheaf the flush
 * has freed (once it loaded the spare twice: a NULL dereference within a
 * second), and never exceed what the sheaves and barns can hold.
 */
static void sheaves_counted_while_flushed(struct kunit *test)
{
	unsigned int cpus = num_online_cpus(), cap = own->sheaf_capacity;
	unsigned long rounds = 0;
	u64 end;

	if (cpus < 2)
		kunit_skip(test, "needs 2 CPUs");
	if (!cache_has_sheaves(own))
		kunit_skip(test, "no sheaves (slab debugging): boot with slab_debug=-");
	counter = (typeof(counter)){ .bound = (2 * cpus + MAX_FULL_SHEAVES) * cap };
	INIT_WORK(&counter.work, count_sheaf_objects);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &counter.work));
	KUNIT_ASSERT_TRUE(test, wait_for(&counter.started, 1));
	end = ktime_get_ns() + COUNT_NS;
	while (ktime_get_ns() < end) {
		KUNIT_ASSERT_EQ(test, fill_sheaves(objs0),
				3 * cap + 1);
		kmem_cache_shrink(own);
		rounds++;
	}
	__atomic_store_n(&counter.done, 1, __ATOMIC_RELEASE);
	flush_work(&counter.work);
	kunit_info(test, "%lu counts on CPU 1 during %lu shrinks on CPU 0: at most %lu objects",
		   counter.reads, rounds, counter.max_seen);
	KUNIT_EXPECT_GT(test, counter.reads, 0);
	KUNIT_EXPECT_EQ_MSG(test, counter.too_many, 0, "counts above %lu", counter.bound);
}

/* ---------------------------------------------------------------- a barn at its limits */

#define BARN_TRIALS	300

static struct {
	struct work_struct work;
	struct node_barn *barn;
	unsigned long gen, polling, over, finished, bumps, stop;
} filler;

/*
 * On CPU 1, for each trial CPU 0 arms: the moment CPU 0 takes an empty
 * sheaf from a barn whose count of empty ones was at its limit, put it
 * back at the limit, as other CPUs returning empty sheaves would.  (The
 * count stands for their sheaves: no machine of the matrix has the CPUs
 * to fill a barn with ten full and ten empty sheaves at once.)
 */
static void fill_barn_meanwhile(struct work_struct *work)
{
	unsigned long gen = 0;

	(void)work;
	while (!__atomic_load_n(&filler.stop, __ATOMIC_ACQUIRE)) {
		struct node_barn *barn = filler.barn;
		unsigned long flags;

		if (__atomic_load_n(&filler.gen, __ATOMIC_ACQUIRE) == gen) {
			cpu_relax();
			continue;
		}
		gen++;
		__atomic_store_n(&filler.polling, gen, __ATOMIC_RELEASE);
		while (READ_ONCE(barn->nr_empty) == MAX_EMPTY_SHEAVES &&
		       __atomic_load_n(&filler.over, __ATOMIC_ACQUIRE) != gen)
			cpu_relax();
		if (READ_ONCE(barn->nr_empty) < MAX_EMPTY_SHEAVES) {
			spin_lock_irqsave(&barn->lock, flags);
			barn->nr_empty = MAX_EMPTY_SHEAVES;
			spin_unlock_irqrestore(&barn->lock, flags);
			filler.bumps++;
		}
		__atomic_store_n(&filler.finished, gen, __ATOMIC_RELEASE);
	}
}

/* The sheaves on @list of @barn (its lock held). */
static unsigned int barn_list_length(struct list_head *list)
{
	unsigned int n = 0;
	struct slab_sheaf *sheaf;

	list_for_each_entry(sheaf, list, barn_list)
		n++;
	return n;
}

/*
 * One trial on CPU 0: main and spare full, one empty sheaf at the barn,
 * whose counts say it is full of both kinds; one more free must trade or
 * flush main.  Returns the empty sheaves left on the barn's list (1: the
 * one it had; 0: lost).
 */
static unsigned int barn_trial(struct kunit *test, void **objs, unsigned int cap)
{
	struct node_barn *barn = filler.barn;
	unsigned int left, full_left;
	unsigned long flags;

	kmem_cache_shrink(own);
	for (unsigned int i = 0; i < 3 * cap; i++) {
		objs[i] = kmem_cache_alloc(own, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
	}
	for (unsigned int i = 0; i < 2 * cap; i++)	/* main and spare full */
		kmem_cache_free(own, objs[i]);
	spin_lock_irqsave(&barn->lock, flags);
	KUNIT_ASSERT_EQ(test, barn_list_length(&barn->sheaves_empty), 1);
	KUNIT_ASSERT_EQ(test, barn_list_length(&barn->sheaves_full), 0);
	barn->nr_full = MAX_FULL_SHEAVES;
	barn->nr_empty = MAX_EMPTY_SHEAVES;
	spin_unlock_irqrestore(&barn->lock, flags);

	__atomic_fetch_add(&filler.gen, 1, __ATOMIC_ACQ_REL);
	KUNIT_ASSERT_TRUE(test, wait_for(&filler.polling, filler.gen));
	kmem_cache_free(own, objs[2 * cap]);	/* main is full, and so is the spare */
	__atomic_store_n(&filler.over, filler.gen, __ATOMIC_RELEASE);
	KUNIT_ASSERT_TRUE(test, wait_for(&filler.finished, filler.gen));

	spin_lock_irqsave(&barn->lock, flags);
	left = barn_list_length(&barn->sheaves_empty);
	full_left = barn_list_length(&barn->sheaves_full);
	barn->nr_empty = left;		/* the counts are the lists' again */
	barn->nr_full = full_left;
	spin_unlock_irqrestore(&barn->lock, flags);
	KUNIT_EXPECT_EQ(test, full_left, 0);
	for (unsigned int i = 2 * cap + 1; i < 3 * cap; i++)
		kmem_cache_free(own, objs[i]);
	return left;
}

/*
 * __pcs_replace_full_main() with main and spare full, and a barn that takes no
 * more full sheaves: it must flush main and keep the barn's empty sheaf.
 * It once took the empty sheaf, failed to leave main, and then put the
 * empty one back with barn_put() without looking at the answer: another
 * CPU that returned an empty sheaf in between (filling the barn's list)
 * made the put fail, and the sheaf was lost, neither in the barn nor
 * freed.  Now the trade is one step under the barn's lock
 * (barn_replace_full_sheaf(), as Linux's), and takes nothing when it
 * cannot leave main.
 */
static void full_barn_loses_no_sheaf(struct kunit *test)
{
	unsigned int cap = own->sheaf_capacity, trials = 0, lost = 0;
	static void *objs[3 * MAX_SHEAF_CAPACITY];

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	if (!cache_has_sheaves(own))
		kunit_skip(test, "no sheaves (slab debugging): boot with slab_debug=-");
	if (CONFIG_KASAN)
		kunit_skip(test, "KASAN's quarantine keeps the frees from the sheaves");
	filler = (typeof(filler)){ .barn = &get_node(own, numa_mem_id())->barn };
	INIT_WORK(&filler.work, fill_barn_meanwhile);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &filler.work));
	while (trials < BARN_TRIALS && !lost) {
		lost += barn_trial(test, objs, cap) == 0;
		trials++;
	}
	__atomic_store_n(&filler.stop, 1, __ATOMIC_RELEASE);
	flush_work(&filler.work);
	kunit_info(test, "%u trials, the barn refilled between the steps in %lu", trials,
		   filler.bumps);
	KUNIT_EXPECT_EQ_MSG(test, lost, 0, "trial %u lost an empty sheaf", trials);
}

extern const struct restart_sequence __start_restart_table[], __stop_restart_table[];
extern const char _text[], _etext[];

/*
 * The rule of restart_interrupted_sequence(), on made-up registers, at
 * every byte around every sequence of the kernel: an interrupt after a
 * sequence's first instruction and before its end (the address after the
 * commit) starts it again; at the first instruction or from the end on, it
 * changes nothing.  On every machine, one CPU or many.
 */
static void interrupted_sequences_start_again(struct kunit *test)
{
	unsigned long moved = 0, counted, flags;
	unsigned int cpu;

	KUNIT_ASSERT_GT(test, __stop_restart_table - __start_restart_table, 0);
	local_irq_save(flags);	/* this CPU's counter counts only what this case does */
	cpu = smp_processor_id();
	counted = cpu_vm_event(cpu, SLAB_SHEAF_RESTART);
	for (const struct restart_sequence *r = __start_restart_table; r < __stop_restart_table;
	     r++) {
		KUNIT_EXPECT_TRUE(test, r->start >= (unsigned long)_text && r->end <= (unsigned long)_etext);
		KUNIT_EXPECT_LT(test, r->start, r->end);
		for (unsigned long ip = r->start - 1; ip <= r->end; ip++) {
			struct pt_regs regs = { .rip = ip };
			bool inside = ip > r->start && ip < r->end;

			KUNIT_EXPECT_EQ_MSG(test, restart_interrupted_sequence(&regs), inside,
					    "rip %pS in [%pS, %pS)", (void *)ip, (void *)r->start,
					    (void *)r->end);
			KUNIT_EXPECT_EQ(test, regs.rip, inside ? r->start : ip);
			moved += inside;
		}
	}
	counted = cpu_vm_event(cpu, SLAB_SHEAF_RESTART) - counted;
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, counted, moved);
	kunit_info(test, "%ld sequences, %lu places inside them",
		   (long)(__stop_restart_table - __start_restart_table), moved);
}

static struct kunit_case smp_slab_cases[] = {
	KUNIT_CASE(all_cpus_allocate_and_free_at_once),
	KUNIT_CASE(interrupt_handlers_allocate_and_free),
	KUNIT_CASE(interrupted_sequences_start_again),
	KUNIT_CASE(sheaves_counted_while_flushed),
	KUNIT_CASE(full_barn_loses_no_sheaf),
	{}
};

static struct kunit_suite smp_slab_suite = {
	.name = "smp_slab",
	.init = smp_slab_init,
	.exit = smp_slab_exit,
	.test_cases = smp_slab_cases,
	.strict = true,
};
kunit_test_suite(smp_slab_suite);
