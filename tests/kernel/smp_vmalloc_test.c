/*
 * tests/kernel/smp_vmalloc_test.c - vmalloc with several CPUs: what the
 * lazy purge must flush, vfree() from interrupt handlers, Linux's
 * test_vmalloc.ko scenarios on every CPU at once, and node placement.
 *
 * The purge is proven on a real stale TLB entry, as smp_tlb_test.c proves
 * the shootdown: CPU 1 reads a vmalloc'd page in a loop; CPU 0 vfree()s it
 * (unmapped, not flushed: the range waits on the lazy list) and CPU 1 goes
 * on reading the old page through its TLB; after vm_unmap_aliases() every
 * read faults.  The stress scenarios run for a bounded time on each CPU
 * (the APs from deferred work, CPU 0 from the test, interrupts on) and
 * check what the APs cannot: no two live areas overlap, every page keeps
 * what its owner wrote, no allocation fails, and memory is back at the end.
 * Cases that need a second CPU (or NUMA node) skip without one.
 */
#include "vmalloc_test.h"
#include "page_alloc_test.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/mmzone.h"
#include "arch/x86_64/timer.h"

#define TAG		0x736d705f766d6121ULL	/* "smp_vma!" */
#define READS		20000UL

static struct {
	struct vmalloc_snapshot before;
	unsigned long log_pos, fails, bad_frees;
} sctx;

static struct reader {
	struct work_struct work;
	const u64 *addr;
	unsigned long hits, faults, stop;
} rd;

static int smp_vmalloc_init(struct kunit *test)
{
	(void)test;
	vmalloc_snapshot_take(&sctx.before);
	sctx.log_pos = printk_log_pos();
	sctx.fails = global_vm_event(VMALLOC_FAIL);
	sctx.bad_frees = global_vm_event(VMALLOC_BAD_FREE);
	return 0;
}

/* A case that ended early (an ASSERT) may have left CPU 1's reader running. */
static void smp_vmalloc_exit(struct kunit *test)
{
	(void)test;
	__atomic_store_n(&rd.stop, 1, __ATOMIC_RELEASE);
	if (rd.work.func)
		flush_work(&rd.work);
}

#define delta(item, since)	(global_vm_event(item) - (since))

static void need_cpus(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs, this machine has 1");
}

/* ---------------------------------------------------------------- the purge flushes every CPU */

static void reader_fn(struct work_struct *work)
{
	(void)work;
	while (!__atomic_load_n(&rd.stop, __ATOMIC_ACQUIRE)) {
		u64 v;

		if (get_kernel_nofault(v, rd.addr))
			__atomic_fetch_add(&rd.faults, 1, __ATOMIC_RELAXED);
		else
			__atomic_fetch_add(&rd.hits, 1, __ATOMIC_RELAXED);
		cpu_relax();	/* see smp_tlb_test.c's reader */
	}
}

struct reads {
	unsigned long hits, faults;
};

static struct reads snap(void)
{
	return (struct reads){ __atomic_load_n(&rd.hits, __ATOMIC_RELAXED),
			       __atomic_load_n(&rd.faults, __ATOMIC_RELAXED) };
}

static unsigned long nr_reads(void)
{
	struct reads r = snap();

	return r.hits + r.faults;
}

/* Wait until the reader has made @n more reads; false after the deadline. */
static bool reads_pass(unsigned long n)
{
	unsigned long want = nr_reads() + n;

	return wait_until(nr_reads() >= want);
}

static void probe_here(void *info)
{
	*(int *)info = vm_probe(rd.addr);
}

static void freed_range_is_unmapped_on_every_cpu(struct kunit *test)
{
	struct reads r0, r1;
	unsigned int cpu;
	u64 *p;

	need_cpus(test);
	p = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, p);
	*p = TAG;
	rd = (struct reader){ .addr = p };
	INIT_WORK(&rd.work, reader_fn);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &rd.work));
	KUNIT_ASSERT_TRUE_MSG(test, reads_pass(1000), "CPU1's reader does not run");
	KUNIT_EXPECT_EQ(test, rd.faults, 0);

	/* vfree(): unmapped here, but CPU 1's TLB still has the page */
	vfree(p);
	r0 = snap();
	KUNIT_EXPECT_TRUE(test, reads_pass(READS));
	r1 = snap();
	kunit_info(test, "after vfree(), before the purge: CPU1 read the freed page %lu times "
		   "in %lu reads (its TLB entry is stale)", r1.hits - r0.hits,
		   r1.hits - r0.hits + r1.faults - r0.faults);
	KUNIT_EXPECT_GT_MSG(test, r1.hits - r0.hits, READS / 2,
			    "no stale read: this run proves nothing about the purge");

	/* vm_unmap_aliases(): from its return on, every read on every CPU faults */
	vm_unmap_aliases();
	KUNIT_EXPECT_TRUE(test, reads_pass(2));		/* one read may have been in flight */
	r0 = snap();
	KUNIT_EXPECT_TRUE(test, reads_pass(READS / 4));
	r1 = snap();
	kunit_info(test, "after vm_unmap_aliases(): %lu faults, %lu reads of the page",
		   r1.faults - r0.faults, r1.hits - r0.hits);
	KUNIT_EXPECT_EQ(test, r1.hits - r0.hits, 0);
	KUNIT_EXPECT_GE(test, r1.faults - r0.faults, READS / 4);
	__atomic_store_n(&rd.stop, 1, __ATOMIC_RELEASE);
	flush_work(&rd.work);
	for_each_online_cpu(cpu) {
		int err = 0;

		smp_call_function_single(cpu, probe_here, &err, 1);
		KUNIT_EXPECT_EQ_MSG(test, err, -EFAULT, "CPU%u", cpu);
	}
	expect_vmalloc_back(test, &sctx.before);
}

/* ---------------------------------------------------------------- vfree from interrupts */

#define IRQ_AREAS	8

struct irq_free {
	u8 *areas[IRQ_AREAS];
	bool atomic;			/* vfree_atomic() rather than vfree() */
	bool in_irq;			/* in_interrupt() where they were freed */
	unsigned long still_busy;	/* areas find_vm_area() found right after */
};

static void free_areas(struct irq_free *f)
{
	f->in_irq = in_interrupt();
	for (unsigned int i = 0; i < IRQ_AREAS; i++) {
		if (f->atomic)
			vfree_atomic(f->areas[i]);
		else
			vfree(f->areas[i]);
	}
	for (unsigned int i = 0; i < IRQ_AREAS; i++)
		f->still_busy += find_vm_area(f->areas[i]) != NULL;
}

static void free_in_irq(void *info)
{
	free_areas(info);
}

/* Wait for the deferred frees: is every area gone? */
static bool all_freed(const struct irq_free *f)
{
	flush_scheduled_work();
	for (unsigned int i = 0; i < IRQ_AREAS; i++) {
		if (find_vm_area(f->areas[i]))
			return false;
	}
	return true;
}

/* Areas of different sizes, each stamped (the deferred list links through their first word). */
static bool alloc_areas(struct irq_free *f)
{
	for (unsigned int i = 0; i < IRQ_AREAS; i++) {
		f->areas[i] = vmalloc((i + 1) * PAGE_SIZE);
		if (!f->areas[i])
			return false;
		vm_fill(f->areas[i], (i + 1) * PAGE_SIZE, TAG);
	}
	return true;
}

/*
 * An IPI handler is an interrupt handler: vfree() there (and vfree_atomic()
 * anywhere) only puts the area on the CPU's deferred list, and the CPU's
 * deferred work frees it after the handler returns.
 */
static void vfree_in_an_interrupt_handler_is_deferred(struct kunit *test)
{
	unsigned int cpu;

	need_cpus(test);
	for_each_online_cpu(cpu) {
		if (!cpu)
			continue;		/* a call to this CPU runs here, not in an IPI */
		for (int atomic = 0; atomic < 2; atomic++) {
			struct irq_free f = { .atomic = atomic };

			KUNIT_ASSERT_TRUE(test, alloc_areas(&f));
			KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, free_in_irq, &f, 1), 0);
			KUNIT_EXPECT_TRUE_MSG(test, f.in_irq, "CPU%u", cpu);
			KUNIT_EXPECT_EQ_MSG(test, f.still_busy, IRQ_AREAS, "CPU%u: freed in the "
					    "handler, not deferred (%s)", cpu,
					    atomic ? "vfree_atomic" : "vfree");
			KUNIT_EXPECT_TRUE_MSG(test, all_freed(&f), "CPU%u: never freed", cpu);
		}
	}
	KUNIT_EXPECT_STREQ(test, log_since(sctx.log_pos), "");
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, sctx.bad_frees), 0);
	expect_vmalloc_back(test, &sctx.before);
}

static struct irq_free work_free;

static void free_in_work(struct work_struct *work)
{
	(void)work;
	free_areas(&work_free);
}

/* vfree_atomic() defers even where vfree() would not: on CPU 1, from deferred work. */
static void vfree_atomic_is_deferred_on_any_cpu(struct kunit *test)
{
	struct work_struct work;

	need_cpus(test);
	work_free = (struct irq_free){ .atomic = true };
	KUNIT_ASSERT_TRUE(test, alloc_areas(&work_free));
	INIT_WORK(&work, free_in_work);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &work));
	flush_work(&work);
	KUNIT_EXPECT_FALSE(test, work_free.in_irq);
	KUNIT_EXPECT_EQ(test, work_free.still_busy, IRQ_AREAS);
	KUNIT_EXPECT_TRUE(test, all_freed(&work_free));
	KUNIT_EXPECT_STREQ(test, log_since(sctx.log_pos), "");
	expect_vmalloc_back(test, &sctx.before);
}

/* ---------------------------------------------------------------- stress, on every CPU at once */

#define STRESS_NS	(150ULL * 1000 * 1000)	/* per scenario: well under a second under TCG */
#define BUSY_AREAS	64			/* at most, each CPU's long busy list or full-fit pairs */
#define BUSY_TOTAL	128			/* ... shared by the CPUs (8 vCPUs on 2 host cores are slow) */
#define VMAP_POOL	16

struct stress_cpu {
	struct work_struct work;
	void (*run)(struct stress_cpu *s);
	unsigned int cpu;
	u64 seed;
	unsigned long ops, fails, corrupt, done;
	u8 *busy[BUSY_AREAS];		/* long busy list; full fit: the kept areas */
	u8 *junk[BUSY_AREAS];		/* full fit: freed to make holes, then the fills */
	struct page *pages[VMAP_POOL];	/* random vmap */
};

static struct stress_cpu stress[NR_CPUS];
static unsigned long go, phase[5];
static u64 stress_end;
static unsigned long overlaps, misfits;
static unsigned int nr_busy;			/* areas each CPU holds */

static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static bool time_left(void)
{
	return ktime_get_ns() < stress_end;
}

/* Everyone reaches @n, or 5 s pass. */
static void rendezvous(unsigned int n)
{
	__atomic_fetch_add(&phase[n], 1, __ATOMIC_ACQ_REL);
	wait_until(__atomic_load_n(&phase[n], __ATOMIC_ACQUIRE) == num_online_cpus());
}

/* vmalloc @size, stamp it, read it back, vfree it: one operation. */
static void one_pair(struct stress_cpu *s, void *p, unsigned long size)
{
	u64 tag = TAG ^ s->cpu;

	s->ops++;
	if (!p) {
		s->fails++;
		return;
	}
	vm_fill(p, size, tag);
	s->corrupt += vm_check(p, size, tag) + vm_check_pages(p, size, tag);
	vfree(p);
}

/* Linux's fix_size_alloc_test: three pages, again and again. */
static void fixed_size(struct stress_cpu *s)
{
	while (time_left())
		one_pair(s, vmalloc(3 * PAGE_SIZE), 3 * PAGE_SIZE);
}

/* random_size_alloc_test: 1 byte to 100 pages. */
static void random_size(struct stress_cpu *s)
{
	while (time_left()) {
		unsigned long size = 1 + next_rand(&s->seed) % (100 * PAGE_SIZE);

		one_pair(s, vmalloc(size), size);
	}
}

/* fix_align_alloc_test's counterpart: vmalloc_huge(), 2 MiB-aligned from 2 MiB up. */
static void aligned_huge(struct stress_cpu *s)
{
	while (time_left()) {
		unsigned long size = (1 + next_rand(&s->seed) % 3) * SZ_1M;
		void *p = vmalloc_huge(size, GFP_KERNEL);

		if (p && size >= PMD_SIZE && !IS_ALIGNED((unsigned long)p, PMD_SIZE))
			s->corrupt++;
		one_pair(s, p, size);
	}
}

/* Stamp and hold the areas in @areas, one page each; false if one failed. */
static bool hold_pages(struct stress_cpu *s, u8 **areas)
{
	for (unsigned int i = 0; i < nr_busy; i++) {
		areas[i] = vmalloc(PAGE_SIZE);
		if (!areas[i]) {
			s->fails++;
			return false;
		}
		vm_fill(areas[i], PAGE_SIZE, TAG ^ s->cpu);
	}
	return true;
}

/* Check and free what hold_pages() held. */
static void free_held(struct stress_cpu *s, u8 **areas)
{
	for (unsigned int i = 0; i < nr_busy; i++) {
		if (!areas[i])
			continue;
		s->corrupt += vm_check(areas[i], PAGE_SIZE, TAG ^ s->cpu);
		vfree(areas[i]);
		areas[i] = NULL;
	}
}

static void sort_addrs(unsigned long *a, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		unsigned long x = a[i];
		unsigned int j = i;

		for (; j && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Every CPU's @which areas, sorted by address, in @a; how many. */
static unsigned int gather(unsigned long *a, bool junk)
{
	unsigned int n = 0, cpu;

	for_each_online_cpu(cpu) {
		for (unsigned int i = 0; i < nr_busy; i++) {
			u8 *p = junk ? stress[cpu].junk[i] : stress[cpu].busy[i];

			if (p)
				a[n++] = (unsigned long)p;
		}
	}
	sort_addrs(a, n);
	return n;
}

static unsigned long addrs[NR_CPUS * BUSY_AREAS], other[NR_CPUS * BUSY_AREAS];

/*
 * long_busy_list_alloc_test: every CPU holds nr_busy areas while they
 * all go on allocating and freeing; CPU 0 checks that no two of the held
 * areas (with their guard pages) overlap.
 */
static void long_busy_list(struct stress_cpu *s)
{
	bool held = hold_pages(s, s->busy);

	rendezvous(0);
	if (s->cpu == 0) {
		unsigned int n = gather(addrs, false);

		for (unsigned int i = 1; i < n; i++)
			overlaps += addrs[i - 1] + 2 * PAGE_SIZE > addrs[i];
	}
	while (held && (time_left() || !s->ops))
		one_pair(s, vmalloc(3 * PAGE_SIZE), 3 * PAGE_SIZE);
	rendezvous(1);				/* CPU 0 has looked: free them */
	free_held(s, s->busy);
}

/*
 * full_fit_alloc_test: pairs of one-page areas side by side, the second of
 * each freed and purged, leaving holes of exactly one area (with its
 * guard); as many new areas then fill exactly those holes.
 */
static void full_fit(struct stress_cpu *s)
{
	bool ok = true;

	for (unsigned int i = 0; i < nr_busy && ok; i++) {
		s->busy[i] = vmalloc(PAGE_SIZE);
		s->junk[i] = vmalloc(PAGE_SIZE);
		ok = s->busy[i] && s->junk[i];
	}
	s->fails += !ok;
	rendezvous(0);
	for (unsigned int i = 0; i < nr_busy; i++)
		vfree(s->junk[i]);			/* lazily: the holes wait for the purge */
	rendezvous(1);
	if (s->cpu == 0) {
		gather(addrs, true);
		vm_unmap_aliases();
	}
	rendezvous(2);
	for (unsigned int i = 0; i < nr_busy && ok; i++) {
		s->junk[i] = vmalloc(PAGE_SIZE);	/* the fills, in the junk's place */
		s->fails += !s->junk[i];
		if (s->junk[i])
			vm_fill(s->junk[i], PAGE_SIZE, TAG ^ s->cpu);
	}
	rendezvous(3);
	if (s->cpu == 0) {
		unsigned int n = gather(other, true);

		for (unsigned int i = 0; i < n; i++)
			misfits += other[i] != addrs[i];
	}
	rendezvous(4);				/* CPU 0 has looked: free them */
	free_held(s, s->junk);
	for (unsigned int i = 0; i < nr_busy; i++) {
		vfree(s->busy[i]);
		s->busy[i] = NULL;
	}
}

/* vm_map_ram_test's counterpart: vmap() a random choice of the CPU's pages, in random order. */
static void random_vmap(struct stress_cpu *s)
{
	struct page *pick[VMAP_POOL];
	unsigned int i;

	for (i = 0; i < VMAP_POOL; i++) {
		s->pages[i] = alloc_page(GFP_KERNEL);
		if (!s->pages[i]) {
			s->fails++;
			goto out;
		}
	}
	while (time_left()) {
		unsigned int n = 1 + next_rand(&s->seed) % VMAP_POOL;
		u8 *v;

		memcpy(pick, s->pages, sizeof(pick));
		for (i = VMAP_POOL - 1; i; i--) {
			unsigned int j = next_rand(&s->seed) % (i + 1);
			struct page *t = pick[i];

			pick[i] = pick[j];
			pick[j] = t;
		}
		v = vmap(pick, n, VM_MAP, PAGE_KERNEL);
		s->ops++;
		if (!v) {
			s->fails++;
			continue;
		}
		vm_fill(v, n * PAGE_SIZE, TAG ^ s->cpu);
		for (i = 0; i < n; i++) {
			s->corrupt += vmalloc_to_page(v + i * PAGE_SIZE) != pick[i];
			s->corrupt += *(u64 *)page_address(pick[i]) !=
				      vm_stamp(v, i, TAG ^ s->cpu);
		}
		vunmap(v);
	}
out:
	for (i = 0; i < VMAP_POOL; i++) {
		if (s->pages[i])
			__free_page(s->pages[i]);
		s->pages[i] = NULL;
	}
}

static void stress_cpu_run(struct stress_cpu *s)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		cpu_relax();
	s->run(s);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

static void stress_work(struct work_struct *work)
{
	stress_cpu_run(container_of(work, struct stress_cpu, work));
}

static void run_everywhere(struct kunit *test, void (*run)(struct stress_cpu *s))
{
	unsigned long ops = 0, purges = global_vm_event(VMALLOC_LAZY_PURGE);
	unsigned int cpu;
	u64 t0;

	need_cpus(test);
	go = overlaps = misfits = 0;
	nr_busy = min(max(BUSY_TOTAL / num_online_cpus(), 8U), (unsigned int)BUSY_AREAS);
	memset(phase, 0, sizeof(phase));
	for_each_online_cpu(cpu) {
		stress[cpu] = (struct stress_cpu){ .run = run, .cpu = cpu,
						   .seed = 0x9e3779b97f4a7c15ULL * (cpu + 1) };
		INIT_WORK(&stress[cpu].work, stress_work);
		if (cpu)
			KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &stress[cpu].work));
	}
	t0 = ktime_get_ns();
	stress_end = t0 + STRESS_NS;
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	stress_cpu_run(&stress[0]);
	for_each_online_cpu(cpu) {
		struct stress_cpu *s = &stress[cpu];

		if (cpu)
			flush_work(&s->work);
		KUNIT_EXPECT_EQ_MSG(test, s->done, 1, "CPU%u did not finish", cpu);
		KUNIT_EXPECT_EQ_MSG(test, s->fails, 0, "CPU%u: allocations failed", cpu);
		KUNIT_EXPECT_EQ_MSG(test, s->corrupt, 0, "CPU%u found pages changed under it, "
				    "or mapped wrong", cpu);
		ops += s->ops;
	}
	kunit_info(test, "%u CPUs: %lu operations in %llu ms, %lu purges", num_online_cpus(), ops,
		   (unsigned long long)(ktime_get_ns() - t0) / 1000000,
		   delta(VMALLOC_LAZY_PURGE, purges));
	KUNIT_EXPECT_EQ(test, overlaps, 0);
	KUNIT_EXPECT_EQ(test, misfits, 0);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, sctx.fails), 0);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, sctx.bad_frees), 0);
	expect_vmalloc_back(test, &sctx.before);
}

static void stress_fixed_size(struct kunit *test)
{
	run_everywhere(test, fixed_size);
}

static void stress_random_size(struct kunit *test)
{
	run_everywhere(test, random_size);
}

static void stress_aligned_huge(struct kunit *test)
{
	need_cpus(test);
	need_free_pages(test, num_online_cpus() * 3 * SZ_1M / PAGE_SIZE);	/* 3 MiB each */
	run_everywhere(test, aligned_huge);
}

static void stress_long_busy_list(struct kunit *test)
{
	run_everywhere(test, long_busy_list);
}

static void stress_full_fit(struct kunit *test)
{
	run_everywhere(test, full_fit);
}

static void stress_random_vmap(struct kunit *test)
{
	run_everywhere(test, random_vmap);
}

/* ---------------------------------------------------------------- nodes */

static unsigned long node_free_pages(int nid)
{
	unsigned long free = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		free += zone_free_pages(&NODE_DATA(nid)->node_zones[z]);
	return free;
}

/* How many pages of [@p, @p + @size) are not on node @nid. */
static unsigned long pages_off_node(const u8 *p, unsigned long size, int nid)
{
	unsigned long n = 0;

	for (unsigned long off = 0; off < size; off += PAGE_SIZE)
		n += page_to_nid(vmalloc_to_page(p + off)) != nid;
	return n;
}

static struct {
	struct work_struct work;
	unsigned long off_node;
	int nid;
} local;

static void vmalloc_here(struct work_struct *work)
{
	u8 *p = vmalloc(SZ_1M);

	(void)work;
	local.nid = numa_mem_id();
	local.off_node = p ? pages_off_node(p, SZ_1M, local.nid) : ~0UL;
	vfree(p);
}

/*
 * vmalloc_node(size, N) and vzalloc_node() take every page from node N
 * (while it has them; from the nearest node with memory if N has none);
 * plain vmalloc() takes the calling CPU's memory node (numa_mem_id()).
 */
static void vmalloc_node_places_every_page(struct kunit *test)
{
	unsigned int cpu;
	int nid;

	if (nr_node_ids < 2)
		kunit_skip(test, "needs 2 NUMA nodes, this machine has 1");
	for_each_node(nid) {
		int mem = local_memory_node(nid);
		u8 *p, *z;

		if (node_free_pages(mem) < 4 * SZ_1M / PAGE_SIZE) {
			kunit_info(test, "node %d: %lu free pages, too few to try", mem,
				   node_free_pages(mem));
			continue;
		}
		p = vmalloc_node(SZ_1M, nid);
		z = vzalloc_node(SZ_1M, nid);
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_ASSERT_NOT_NULL(test, z);
		KUNIT_EXPECT_EQ(test, find_vm_area(p)->node, nid);
		KUNIT_EXPECT_EQ_MSG(test, pages_off_node(p, SZ_1M, mem), 0, "node %d", nid);
		KUNIT_EXPECT_EQ_MSG(test, pages_off_node(z, SZ_1M, mem), 0, "node %d", nid);
		vm_fill(p, SZ_1M, TAG);
		KUNIT_EXPECT_EQ(test, vm_check(p, SZ_1M, TAG), 0);
		vfree(p);
		vfree(z);
	}
	for_each_online_cpu(cpu) {
		if (!cpu)
			continue;
		local.off_node = ~0UL;
		INIT_WORK(&local.work, vmalloc_here);
		KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &local.work));
		flush_work(&local.work);
		KUNIT_EXPECT_EQ(test, local.nid, cpu_to_mem(cpu));
		KUNIT_EXPECT_EQ_MSG(test, local.off_node, 0, "CPU%u, node %d", cpu, local.nid);
	}
	expect_vmalloc_back(test, &sctx.before);
}

static struct kunit_case smp_vmalloc_cases[] = {
	KUNIT_CASE(freed_range_is_unmapped_on_every_cpu),
	KUNIT_CASE(vfree_in_an_interrupt_handler_is_deferred),
	KUNIT_CASE(vfree_atomic_is_deferred_on_any_cpu),
	KUNIT_CASE(stress_fixed_size),
	KUNIT_CASE(stress_random_size),
	KUNIT_CASE(stress_aligned_huge),
	KUNIT_CASE(stress_long_busy_list),
	KUNIT_CASE(stress_full_fit),
	KUNIT_CASE(stress_random_vmap),
	KUNIT_CASE(vmalloc_node_places_every_page),
	{}
};

static struct kunit_suite smp_vmalloc_suite = {
	.name = "smp_vmalloc",
	.init = smp_vmalloc_init,
	.exit = smp_vmalloc_exit,
	.test_cases = smp_vmalloc_cases,
	.strict = true,
};
kunit_test_suite(smp_vmalloc_suite);
