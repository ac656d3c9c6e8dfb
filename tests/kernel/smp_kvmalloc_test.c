/*
 * tests/kernel/smp_kvmalloc_test.c - kvmalloc() and kvfree() on every CPU
 * at once, and kvfree() from interrupt handlers.
 *
 * Each CPU (the APs from deferred work, CPU 0 from the case, interrupts
 * on) keeps SLOTS buffers of random sizes from 1 B to 4 MiB, each stamped
 * with its CPU and operation number and checked before it is freed (memory
 * handed to two owners, or mapped wrong, shows there).  One free in four
 * is done by another CPU's interrupt handler, through
 * smp_call_function_single(): slab memory is freed there at once, vmalloc
 * memory queued for deferred work.  The stress runs twice: on memory as it
 * is, where the slab and the page allocator serve most sizes, and from
 * kvdemo's hard state (no free block of order >= 3), where everything above
 * 16 KiB comes from vmalloc.  Afterwards every page and the vmalloc space
 * are back (kvmalloc_test.h), once the deferred frees have run.
 */
#include "kvmalloc_test.h"
#include "page_alloc_test.h"
#include "mm/kvdemo.h"
#include "kernel/hardirq.h"
#include "arch/x86_64/timer.h"

#define SLOTS		8
#define MAX_SIZE	(4UL << 20)
/*
 * Operations per round, shared by the CPUs: a second or two under TCG.
 * Fewer in the hard state, where each allocation above 16 KiB costs a
 * failed slab attempt with its reclaim pass, and a vmalloc().
 */
#define TOTAL_OPS	1200
#define TOTAL_OPS_HARD	500
#define STAMP_EVERY	512
/*
 * Each CPU's budget in the hard state must hold a buffer that only vmalloc
 * can serve there (above 16 KiB) beside its small ones (when over budget,
 * a slot gets at most 4 KiB).  With less (26 KiB on 6 MiB with four CPUs)
 * a round gives vmalloc a handful of buffers, and whether an interrupt
 * handler frees one of them is luck.
 */
#define HARD_BUDGET_LEAST	(SLOTS * 4096UL + (16UL << 10))

struct kv_buf {
	u8 *p;
	size_t size;
	u64 tag;
};

struct stress_cpu {
	struct work_struct work;
	struct kv_buf buf[SLOTS];
	unsigned long held, budget;
	unsigned long ops, slab, vmalloc, failures, corrupt;
	unsigned long irq_slab, irq_vmalloc, irq_bad;	/* frees by another CPU's handler */
	unsigned long done;
	u64 seed;
};

static struct stress_cpu stress[NR_CPUS];
static unsigned long go, ops_per_cpu;
static struct kvdemo demo;
static bool demo_up;

static void need_two_cpus(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU: nothing to run at once, no other CPU to interrupt");
}

static void smp_kvmalloc_exit(struct kunit *test)
{
	(void)test;
	if (demo_up)
		kvdemo_teardown(&demo);
	demo_up = false;
}

static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * A word every STAMP_EVERY bytes (fewer than 8 bytes at the end: their
 * share of it), and the last byte when no word covers it.
 */
static void stamp(const struct kv_buf *b)
{
	for (size_t off = 0; off < b->size; off += STAMP_EVERY) {
		u64 v = b->tag ^ off;

		memcpy(b->p + off, &v, min(b->size - off, sizeof(v)));
	}
	if ((b->size - 1) % STAMP_EVERY >= sizeof(u64))
		b->p[b->size - 1] = (u8)~b->tag;
}

static bool stamp_intact(const struct kv_buf *b)
{
	for (size_t off = 0; off < b->size; off += STAMP_EVERY) {
		u64 v = b->tag ^ off;

		if (memcmp(b->p + off, &v, min(b->size - off, sizeof(v))))
			return false;
	}
	return (b->size - 1) % STAMP_EVERY < sizeof(u64) || b->p[b->size - 1] == (u8)~b->tag;
}

/* ---------------------------------------------------------------- frees from interrupts */

struct irq_free {
	struct kv_buf buf;
	bool in_irq, intact;
};

/* The handler: check the stamp and free, in interrupt context. */
static void irq_kvfree(void *info)
{
	struct irq_free *f = info;

	f->in_irq = in_interrupt();
	f->intact = stamp_intact(&f->buf);
	kvfree(f->buf.p);
}

/* Have CPU @target's interrupt handler check and free @b; false if the call failed. */
static bool free_from_irq(int target, const struct kv_buf *b, struct irq_free *f)
{
	*f = (struct irq_free){ .buf = *b };
	return !smp_call_function_single(target, irq_kvfree, f, 1);
}

/* ---------------------------------------------------------------- the stress */

/* Another online CPU than @cpu, at random. */
static int other_cpu(struct stress_cpu *s, unsigned int cpu)
{
	unsigned int n = next_rand(&s->seed) % (num_online_cpus() - 1), c;

	for_each_online_cpu(c) {
		if (c != cpu && !n--)
			return c;
	}
	return -1;
}

static void free_slot(struct stress_cpu *s, unsigned int cpu, struct kv_buf *b)
{
	bool vmalloced = is_vmalloc_addr(b->p);

	if (next_rand(&s->seed) % 4 == 0) {
		struct irq_free f;

		if (!free_from_irq(other_cpu(s, cpu), b, &f) || !f.in_irq) {
			s->irq_bad++;
		} else {
			s->corrupt += !f.intact;
			if (vmalloced)
				s->irq_vmalloc++;
			else
				s->irq_slab++;
		}
	} else {
		s->corrupt += !stamp_intact(b);
		kvfree(b->p);
	}
	s->held -= b->size;
	b->p = NULL;
}

/* 1 B to 4 MiB, about as many of each power of two; small when over the budget. */
static size_t random_size(struct stress_cpu *s)
{
	unsigned int shift = next_rand(&s->seed) % 23;
	size_t size = 1 + next_rand(&s->seed) % (1UL << shift);

	if (s->held + size > s->budget)
		size = 1 + next_rand(&s->seed) % 4096;
	return size;
}

static void stress_run(struct stress_cpu *s, unsigned int cpu)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		cpu_relax();
	for (unsigned long op = 0; op < ops_per_cpu; op++) {
		struct kv_buf *b = &s->buf[next_rand(&s->seed) % SLOTS];

		/*
		 * As a long work item should (workqueue.c): the vfree()s the
		 * other CPUs' interrupt handlers deferred to this CPU run now,
		 * not after the round.  Otherwise they pile up, and on a small
		 * machine (32 MiB, two CPUs) the pile is what runs out.
		 */
		if (deferred_work_pending())
			run_deferred_work();
		if (b->p)
			free_slot(s, cpu, b);
		b->size = random_size(s);
		b->tag = (u64)cpu << 56 | (u64)op << 24;
		b->p = kvmalloc(b->size, GFP_KERNEL);
		if (!b->p) {
			s->failures++;
			continue;
		}
		s->held += b->size;
		if (is_vmalloc_addr(b->p))
			s->vmalloc++;
		else
			s->slab++;
		stamp(b);
		s->ops++;
	}
	for (unsigned int i = 0; i < SLOTS; i++) {
		if (s->buf[i].p)
			free_slot(s, cpu, &s->buf[i]);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

static void stress_work(struct work_struct *work)
{
	struct stress_cpu *s = container_of(work, struct stress_cpu, work);

	stress_run(s, smp_processor_id());
}

/* What each CPU may hold in a round: a quarter of the free memory, divided among the CPUs. */
static unsigned long round_budget(void)
{
	return nr_free_pages() * PAGE_SIZE / 4 / num_online_cpus();
}

/* One round of @total_ops on every CPU; what they did, summed into @sum. */
static void stress_round(struct kunit *test, unsigned long total_ops, struct stress_cpu *sum,
			 const char *what)
{
	unsigned long budget = round_budget();
	unsigned int cpu;
	u64 t0;

	ops_per_cpu = total_ops / num_online_cpus();
	go = 0;
	for_each_online_cpu(cpu) {
		stress[cpu] = (struct stress_cpu){
			.seed = 0x9e3779b97f4a7c15ULL * (cpu + 1), .budget = budget,
		};
		INIT_WORK(&stress[cpu].work, stress_work);
		if (cpu)
			KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &stress[cpu].work));
	}
	t0 = ktime_get_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	stress_run(&stress[0], 0);
	for_each_online_cpu(cpu) {
		struct stress_cpu *s = &stress[cpu];

		if (cpu)
			flush_work(&s->work);
		KUNIT_EXPECT_EQ(test, s->done, 1);
		KUNIT_EXPECT_EQ_MSG(test, s->corrupt, 0, "%s: CPU%u found buffers changed under "
				    "it (given out twice, or mapped wrong?)", what, cpu);
		KUNIT_EXPECT_EQ_MSG(test, s->failures, 0, "%s: CPU%u", what, cpu);
		KUNIT_EXPECT_EQ_MSG(test, s->irq_bad, 0, "%s: CPU%u: a cross-CPU free did not run "
				    "in an interrupt handler", what, cpu);
		KUNIT_EXPECT_EQ(test, s->ops, ops_per_cpu);
		sum->slab += s->slab;
		sum->vmalloc += s->vmalloc;
		sum->irq_slab += s->irq_slab;
		sum->irq_vmalloc += s->irq_vmalloc;
	}
	kunit_info(test, "%s: %u CPUs, %lu KiB each, %lu kvmalloc+kvfree pairs in %llu ms: %lu slab, %lu "
		   "vmalloc; freed by interrupt handlers: %lu slab, %lu vmalloc\n", what,
		   num_online_cpus(), budget >> 10, ops_per_cpu * num_online_cpus(),
		   (unsigned long long)(ktime_get_ns() - t0) / 1000000, sum->slab, sum->vmalloc,
		   sum->irq_slab, sum->irq_vmalloc);
}

static void all_cpus_kvmalloc_and_kvfree_at_once(struct kunit *test)
{
	unsigned long kills = global_vm_event(OOM_KILL);
	struct stress_cpu plain = { 0 }, hard = { 0 };
	struct kv_snapshot before;
	unsigned long budget;

	need_two_cpus(test);
	need_free_pages(test, KVDEMO_LEAST_PAGES);	/* the second round's hard state */
	kv_snapshot_take(&before);
	stress_round(test, TOTAL_OPS, &plain, "memory as it is");
	KUNIT_ASSERT_EQ(test, kvdemo_setup(&demo), 0);
	demo_up = true;
	KUNIT_ASSERT_TRUE(test, kvdemo_fragmented());
	budget = round_budget();
	if (budget < HARD_BUDGET_LEAST) {
		kvdemo_teardown(&demo);
		demo_up = false;
		kunit_skip(test, "the hard state leaves each CPU %lu KiB to hold, at least %lu "
			   "needed for buffers that only vmalloc can serve", budget >> 10,
			   HARD_BUDGET_LEAST >> 10);
	}
	stress_round(test, TOTAL_OPS_HARD, &hard, "no free block of order 3");
	KUNIT_EXPECT_TRUE(test, demo.victim_registered);	/* nobody was killed */
	kvdemo_teardown(&demo);
	demo_up = false;
	KUNIT_EXPECT_EQ(test, global_vm_event(OOM_KILL) - kills, 0);

	/* Both kinds were allocated, and freed from interrupt handlers. */
	KUNIT_EXPECT_GT(test, plain.slab + hard.slab, 0);
	KUNIT_EXPECT_GT(test, plain.vmalloc + hard.vmalloc, 0);
	KUNIT_EXPECT_GT(test, plain.irq_slab + hard.irq_slab, 0);
	KUNIT_EXPECT_GT(test, plain.irq_vmalloc + hard.irq_vmalloc, 0);
	kv_expect_back(test, &before);
}

/*
 * The simple case: CPU 1's interrupt handler frees a slab object and a
 * vmalloc area (above KMALLOC_MAX_SIZE).  Nothing is reported, the area is
 * gone once the deferred work has run, and every page is back.
 */
static void kvfree_in_an_interrupt_handler_frees_both_kinds(struct kunit *test)
{
	struct kv_buf b[2] = {
		{ .size = 100, .tag = 0x51ab }, { .size = 2 * MAX_SIZE, .tag = 0x7a11 },
	};
	unsigned long bad = global_vm_event(VMALLOC_BAD_FREE) + global_vm_event(SLAB_BAD_FREE);
	unsigned long pos = printk_log_pos();
	struct kv_snapshot before;
	struct irq_free f[2];

	need_two_cpus(test);
	need_free_pages(test, 2 * MAX_SIZE / PAGE_SIZE);
	kv_snapshot_take(&before);
	for (unsigned int i = 0; i < 2; i++) {
		b[i].p = kvmalloc(b[i].size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, b[i].p);
		stamp(&b[i]);
	}
	KUNIT_ASSERT_FALSE(test, is_vmalloc_addr(b[0].p));
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(b[1].p));
	for (unsigned int i = 0; i < 2; i++) {
		KUNIT_ASSERT_TRUE(test, free_from_irq(1, &b[i], &f[i]));
		KUNIT_EXPECT_TRUE(test, f[i].in_irq);
		KUNIT_EXPECT_TRUE(test, f[i].intact);
	}
	flush_scheduled_work();
	KUNIT_EXPECT_NULL(test, find_vm_area(b[1].p));
	KUNIT_EXPECT_EQ(test, global_vm_event(VMALLOC_BAD_FREE) + global_vm_event(SLAB_BAD_FREE),
			bad);
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	kv_expect_back(test, &before);
}

static struct kunit_case smp_kvmalloc_cases[] = {
	KUNIT_CASE(kvfree_in_an_interrupt_handler_frees_both_kinds),
	KUNIT_CASE(all_cpus_kvmalloc_and_kvfree_at_once),
	{}
};

static enum kvmalloc_policy boot_policy;

/*
 * The cases expect the default rule (noretry), whatever kvmalloc_policy=
 * chose at boot (under naive, a GFP_KERNEL kvmalloc() of 8 MiB is a
 * kmalloc() that warns, and one that reclaims may OOM-kill); it is put
 * back after.
 */
static int smp_kvmalloc_suite_init(struct kunit_suite *suite)
{
	(void)suite;
	boot_policy = kvmalloc_policy;
	kvmalloc_set_policy(KVMALLOC_NORETRY);
	return 0;
}

static void smp_kvmalloc_suite_exit(struct kunit_suite *suite)
{
	(void)suite;
	kvmalloc_set_policy(boot_policy);
}

static struct kunit_suite smp_kvmalloc_suite = {
	.name = "smp_kvmalloc",
	.suite_init = smp_kvmalloc_suite_init,
	.suite_exit = smp_kvmalloc_suite_exit,
	.exit = smp_kvmalloc_exit,
	.test_cases = smp_kvmalloc_cases,
	.strict = true,
};
kunit_test_suite(smp_kvmalloc_suite);
