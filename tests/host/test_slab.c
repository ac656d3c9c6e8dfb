/*
 * tests/host/test_slab.c - the slab allocator (mm/slab.c, slab_common.c,
 * slab_debug.c) on the host, over the host build of the buddy allocator,
 * under AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Every test boots a fresh machine of two nodes and four CPUs
 * (slab_check.h), with slab debugging off ("-": the sheaves' paths) or on
 * for every cache (""), and afterwards the slab checker walks every cache
 * and the buddy checker every free list.  The last test is the randomized
 * model-based test: SLAB_OPS operations (default 2 million) from seed
 * SLAB_SEED (printed; set it to replay).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "host_test.h"
#include "mm_host.h"
#include "slab_check.h"
#include "slab_model.h"
#include "mm/percpu.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"

#define MiB	(1UL << 20)
#define GiB	(1UL << 30)

static void after_test(void)
{
	host_set_cpu(0);
	CHECK(slab_check_consistency() == 0);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

/* A test on the default machine with slab_debug=@debug, checked afterwards. */
#define SLAB_TEST(name, debug)						\
	static void name##_body(void);					\
	HOST_TEST(name)							\
	{								\
		buddy_check_failures = 0;				\
		host_printk_quiet = true;				\
		slab_machine_default(debug);				\
		name##_body();						\
		after_test();						\
	}								\
	static void name##_body(void)

static unsigned long ev(enum vm_event_item item)
{
	return global_vm_event(item);
}

/* How many report headers ("BUG ...", "BUG: ...") were printed since @pos */
static unsigned long bugs_since(unsigned long pos)
{
	unsigned long n = 0;

	for (const char *s = host_log_since(pos); (s = strstr(s, "BUG")); s += 3)
		n++;
	return n;
}

static bool log_has(unsigned long pos, const char *what)
{
	return strstr(host_log_since(pos), what) != NULL;
}

static struct kmem_cache *cache_of(const void *p)
{
	struct page *page = virt_to_head_page(p);

	return PageSlab(page) ? page->slab_cache : NULL;
}

static struct slub_percpu_sheaves *pcs_of(struct kmem_cache *s, unsigned int cpu)
{
	return per_cpu_ptr(s->cpu_sheaves, cpu);
}

/* Objects in use in @s's slabs on node @nid (sheaves count as in use) */
static unsigned long node_inuse(struct kmem_cache *s, int nid)
{
	struct kmem_cache_node *n = get_node(s, nid);
	unsigned long inuse = 0;

	for (u32 head = n->partial, k = 0; k < 2; head = n->full, k++) {
		for (struct page *p = pfn_to_slab(head); p; p = pfn_to_slab(p->slab_next))
			inuse += p->inuse;
	}
	return inuse;
}

/* Is @p on the freelist of its slab? */
static bool on_slab_freelist(struct kmem_cache *s, void *p)
{
	struct page *slab = virt_to_head_page(p);
	unsigned int n = 0;

	for (void *f = slab_freelist(s, slab); f && n <= slab->objects; n++) {
		unsigned long *where = slab_freeptr_addr(s, f);

		if (f == p)
			return true;
		f = (void *)(*where ^ s->random ^ __builtin_bswap64((unsigned long)where));
	}
	return false;
}

/* Everything given back, then the free lists must be exactly as in @start. */
static void expect_everything_back(struct buddy_snapshot *start)
{
	struct buddy_snapshot now;

	slab_shrink_all();
	drain_all_pages();
	buddy_snapshot_take(&now);
	CHECK(buddy_snapshot_equal(start, &now));
	buddy_snapshot_free(&now);
	buddy_snapshot_free(start);
}

static void snapshot_start(struct buddy_snapshot *start)
{
	slab_shrink_all();
	drain_all_pages();
	buddy_snapshot_take(start);
}

/* ---------------------------------------------------------------- kmalloc */

static const unsigned int class_sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048,
					    4096, 8192 };

static void check_every_size(void)
{
	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++) {
		unsigned int idx = kmalloc_index_runtime(size);
		struct kmem_cache *s = kmalloc_caches[idx];
		u8 *p = kmalloc(size, GFP_KERNEL), *q = kmalloc(size, GFP_KERNEL);
		unsigned long align = s->object_size & (s->object_size - 1) ? 8 :
				      min(s->object_size, (unsigned int)PAGE_SIZE);

		CHECK(p && q && p != q);
		if (!p || !q)
			return;
		CHECK(idx == kmalloc_index(size));
		for (unsigned int i = 0; i < ARRAY_SIZE(class_sizes); i++)
			CHECK(class_sizes[i] < size || s->object_size <= class_sizes[i]);
		CHECK(s->object_size >= size);
		CHECK(cache_of(p) == s && cache_of(q) == s);
		CHECK(ksize(p) == s->object_size);
		CHECK((unsigned long)p % align == 0 && (unsigned long)q % align == 0);
		memset(p, 0xa5, ksize(p));	/* every byte of it is the caller's */
		memset(q, 0x5a, ksize(q));
		CHECK(p[ksize(p) - 1] == 0xa5 && p[0] == 0xa5);
		kfree(p);
		kfree(q);
	}
	/* the size classes are the ones Linux has */
	for (unsigned int i = 0; i < ARRAY_SIZE(class_sizes); i++)
		CHECK(kmalloc_caches[kmalloc_index_runtime(class_sizes[i])]->object_size ==
		      class_sizes[i]);
}

SLAB_TEST(every_size_class_and_its_alignment, "-")
{
	check_every_size();
}

SLAB_TEST(every_size_class_and_its_alignment_with_redzones, "")
{
	/* the left redzone moves every object; power-of-two classes stay aligned */
	CHECK(kmalloc_caches[6]->red_left_pad >= 8);
	check_every_size();
}

/* A constant size picks the cache when compiled: the same cache as at run time */
#define CONSTANT_SIZE(n)						\
	do {								\
		void *p = kmalloc(n, GFP_KERNEL);			\
									\
		CHECK(p && cache_of(p) == kmalloc_caches[kmalloc_index_runtime(n)]); \
		kfree(p);						\
	} while (0)

SLAB_TEST(constant_sizes_pick_the_same_cache, "-")
{
	CONSTANT_SIZE(1);
	CONSTANT_SIZE(8);
	CONSTANT_SIZE(9);
	CONSTANT_SIZE(64);
	CONSTANT_SIZE(65);
	CONSTANT_SIZE(96);
	CONSTANT_SIZE(97);
	CONSTANT_SIZE(192);
	CONSTANT_SIZE(193);
	CONSTANT_SIZE(4096);
	CONSTANT_SIZE(4097);
	CONSTANT_SIZE(8192);
}

SLAB_TEST(kmalloc_zero_null_and_zero_size_ptr, "-")
{
	unsigned long pos = printk_log_pos();
	void *p;

	CHECK(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	CHECK(kzalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	kmem_cache_free(kmalloc_caches[6], NULL);
	CHECK(ksize(NULL) == 0 && ksize(ZERO_SIZE_PTR) == 0);
	p = krealloc(ZERO_SIZE_PTR, 40, GFP_KERNEL);
	CHECK(p && ksize(p) == 64);
	CHECK(krealloc(p, 0, GFP_KERNEL) == ZERO_SIZE_PTR);	/* frees p */
	CHECK(bugs_since(pos) == 0);
	CHECK(slab_cache_allocated(kmalloc_caches[6]) == 0);
}

SLAB_TEST(large_kmalloc_is_whole_pages, "-")
{
	static const size_t sizes[] = { 8193, 12288, 65536, 100000, KMALLOC_MAX_SIZE };
	struct buddy_snapshot start;
	unsigned long pos, free0;

	snapshot_start(&start);
	free0 = nr_free_pages();
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned int order = get_order(sizes[i]);
		u8 *p = kmalloc(sizes[i], GFP_KERNEL);
		struct page *page;

		CHECK(p != NULL);
		if (!p)
			continue;
		page = virt_to_page(p);
		CHECK((unsigned long)p % PAGE_SIZE == 0);
		CHECK(page_test(page, PG_large_kmalloc) && !PageSlab(page));
		CHECK(ksize(p) == PAGE_SIZE << order);
		CHECK(nr_free_pages() == free0 - (1UL << order));
		memset(p, 0x11, ksize(p));
		/* kfree() takes the block's start only */
		pos = printk_log_pos();
		kfree(p + ksize(p) - 1);
		CHECK(bugs_since(pos) == 1 && log_has(pos, "inside a large kmalloc block"));
		CHECK(nr_free_pages() == free0 - (1UL << order));
		kfree(p);
		CHECK(nr_free_pages() == free0);
	}
	/* more than KMALLOC_MAX_SIZE: NULL, with a warning unless __GFP_NOWARN */
	pos = printk_log_pos();
	CHECK(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL) == NULL);
	CHECK(log_has(pos, "more than KMALLOC_MAX_SIZE"));
	pos = printk_log_pos();
	CHECK(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN) == NULL);
	CHECK(printk_log_pos() == pos);
	CHECK(ev(KMALLOC_LARGE) == ARRAY_SIZE(sizes));
	expect_everything_back(&start);
}

SLAB_TEST(gfp_dma_gives_dma_zone_memory, "-")
{
	void *p[4];

	for (int i = 0; i < 4; i++) {
		p[i] = kmalloc(i ? 100 * i : 8, GFP_KERNEL | GFP_DMA);
		CHECK(p[i] && page_zonenum(virt_to_page(p[i])) == ZONE_DMA);
	}
	p[0] = krealloc(p[0], 16, GFP_KERNEL);	/* fits where it is */
	CHECK(p[0] && page_zonenum(virt_to_page(p[0])) == ZONE_DMA);
	for (int i = 0; i < 4; i++) {
		CHECK(ksize(p[i]) == PAGE_SIZE);
		kfree(p[i]);
	}
}

SLAB_TEST(krealloc_keeps_contents_and_stays_in_place_when_it_fits, "-")
{
	unsigned long pos = printk_log_pos();
	u8 *p = krealloc(NULL, 10, GFP_KERNEL), *q;

	CHECK(p && ksize(p) == 16);
	for (int i = 0; i < 10; i++)
		p[i] = (u8)i;
	CHECK(krealloc(p, 16, GFP_KERNEL) == p);	/* within ksize(): in place */
	CHECK(krealloc(p, 3, GFP_KERNEL) == p);		/* smaller: in place */
	/* through every class and into whole pages and back: the contents move along */
	for (size_t size = 17, old = 10; size <= 3 * KMALLOC_MAX_CACHE_SIZE;
	     old = size, size *= 3) {
		q = krealloc(p, size, GFP_KERNEL);
		CHECK(q != NULL);
		if (!q)
			return;
		CHECK(ksize(q) >= size);
		for (size_t i = 0; i < old; i++) {
			if (q[i] != (u8)i) {
				CHECK(q[i] == (u8)i);
				break;
			}
		}
		for (size_t i = old; i < size; i++)
			q[i] = (u8)i;
		p = q;
	}
	q = krealloc(p, 5000, GFP_KERNEL);	/* large -> smaller: stays, it fits */
	CHECK(q == p);
	/* a failed krealloc() leaves the old memory alone */
	q = krealloc(p, KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN);
	CHECK(q == NULL && p[1000] == (u8)1000);
	kfree(p);
	CHECK(bugs_since(pos) == 0);
}

SLAB_TEST(kzalloc_kcalloc_array_overflow_and_dups, "-")
{
	unsigned long pos;
	u8 *p;
	char *s;

	/* dirty an object, free it, take it back zeroed */
	p = kmalloc(200, GFP_KERNEL);
	memset(p, 0xff, 200);
	kfree(p);
	p = kzalloc(200, GFP_KERNEL);
	for (int i = 0; i < 200; i++)
		CHECK(p[i] == 0);
	kfree(p);
	p = kcalloc(30, 7, GFP_KERNEL);
	CHECK(p && ksize(p) == 256);
	for (int i = 0; i < 210; i++)
		CHECK(p[i] == 0);
	kfree(p);
	/* n * size overflows: NULL, and one line each (none with __GFP_NOWARN) */
	pos = printk_log_pos();
	CHECK(kmalloc_array(SIZE_MAX / 2, 3, GFP_KERNEL) == NULL);
	CHECK(kcalloc(1UL << 40, 1UL << 40, GFP_KERNEL) == NULL);
	CHECK(strstr(host_log_since(pos), "kmalloc_array: 9223372036854775807 * 3 bytes overflows"));
	CHECK(strstr(host_log_since(pos), "kmalloc_array: 1099511627776 * 1099511627776 bytes"));
	pos = printk_log_pos();
	CHECK(kcalloc(1UL << 40, 1UL << 40, GFP_KERNEL | __GFP_NOWARN) == NULL);
	CHECK(printk_log_pos() == pos);
	p = kmemdup("abcdefgh", 9, GFP_KERNEL);
	CHECK(p && !memcmp(p, "abcdefgh", 9) && ksize(p) == 16);
	kfree(p);
	s = kstrdup("slab", GFP_KERNEL);
	CHECK(s && !strcmp(s, "slab") && ksize(s) == 8);
	kfree(s);
	CHECK(kstrdup(NULL, GFP_KERNEL) == NULL);
	/*
	 * kfree_sensitive(): zeroed before it goes back (it waits in the sheaf:
	 * look); then kfree() wrote the free mark, the address and the secret.
	 */
	p = kmalloc(64, GFP_KERNEL);
	memset(p, 0x77, 64);
	kfree_sensitive(p);
	{
		unsigned int mark = kmalloc_caches[6]->free_mark;
		unsigned long word, sevens;

		for (unsigned int i = 0; i < 64; i++) {
			if (i - mark >= sizeof(long))
				CHECK(p[i] == 0);
		}
		/* the mark is random: any one byte of it may be 0x77, not all eight */
		memset(&sevens, 0x77, sizeof(sevens));
		memcpy(&word, p + mark, sizeof(word));
		CHECK(word != sevens);
	}
}

/* ---------------------------------------------------------------- caches */

struct thing {
	u64 magic;
	u64 constructed;
	u64 data[5];
};

static unsigned long thing_ctor_calls;
static void *constructed[4096];		/* every object the ctor made, in order */

static void thing_ctor(void *p)
{
	struct thing *t = p;

	t->magic = 0x7415;
	t->constructed = 1;
	if (thing_ctor_calls < ARRAY_SIZE(constructed))
		constructed[thing_ctor_calls] = p;
	thing_ctor_calls++;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

static void check_ctor_once(void)
{
	struct kmem_cache *s = kmem_cache_create("test_thing", sizeof(struct thing), 0, 0,
						 thing_ctor);
	struct thing *objs[400];
	unsigned long made;

	CHECK(s != NULL);
	if (!s)
		return;
	thing_ctor_calls = 0;
	for (int i = 0; i < 400; i++) {
		host_set_cpu(i % 4);
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
		CHECK(objs[i] && objs[i]->magic == 0x7415 && objs[i]->constructed == 1);
		objs[i]->data[0] = i;	/* the user's part; magic stays as the ctor left it */
	}
	made = thing_ctor_calls;
	/* whole slabs are constructed when they are made: once per object */
	CHECK(made == (get_node(s, 0)->total_objects + get_node(s, 1)->total_objects));
	/* freed and taken again, on other CPUs: never constructed again */
	for (int round = 0; round < 3; round++) {
		for (int i = round; i < 400; i += 2) {
			host_set_cpu((i + round) % 4);
			kmem_cache_free(s, objs[i]);
		}
		for (int i = round; i < 400; i += 2) {
			host_set_cpu((i + round + 1) % 4);
			objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
			CHECK(objs[i] && objs[i]->magic == 0x7415 && objs[i]->constructed == 1);
		}
	}
	/* new slabs may have been made (the frees went to other CPUs' sheaves): whole */
	made = thing_ctor_calls;
	CHECK(made == get_node(s, 0)->total_objects + get_node(s, 1)->total_objects);
	/* and as no slab emptied, no object was made twice */
	CHECK(made <= ARRAY_SIZE(constructed));
	qsort(constructed, min(made, ARRAY_SIZE(constructed)), sizeof(void *), cmp_ptr);
	for (unsigned long i = 1; i < made && i < ARRAY_SIZE(constructed); i++)
		CHECK(constructed[i] != constructed[i - 1]);
	for (int i = 0; i < 400; i++)
		kmem_cache_free(s, objs[i]);
	host_set_cpu(0);
	kmem_cache_destroy(s);
	CHECK(slab_find_cache("test_thing") == NULL);
}

SLAB_TEST(ctor_runs_once_per_object, "-")
{
	check_ctor_once();
}

SLAB_TEST(ctor_runs_once_per_object_with_debugging, "")
{
	check_ctor_once();
}

SLAB_TEST(cache_create_honours_size_align_and_flags, "-")
{
	static const unsigned int aligns[] = { 0, 8, 16, 32, 64, 128, 256, 1024, 4096 };
	struct buddy_snapshot start;

	snapshot_start(&start);
	for (unsigned int a = 0; a < ARRAY_SIZE(aligns); a++) {
		for (unsigned int size = 1; size <= 5000; size = size * 3 + 1) {
			struct kmem_cache *s = kmem_cache_create("test_align", size, aligns[a], 0,
								 NULL);
			void *p[10];

			CHECK(s && kmem_cache_size(s) == size);
			if (!s)
				continue;
			for (int i = 0; i < 10; i++) {
				p[i] = kmem_cache_zalloc(s, GFP_KERNEL);
				CHECK(p[i] && (unsigned long)p[i] % max(aligns[a], 8u) == 0);
				CHECK(p[i] && ((u8 *)p[i])[size - 1] == 0);
			}
			for (int i = 0; i < 10; i++)
				kmem_cache_free(s, p[i]);
			kmem_cache_destroy(s);
		}
	}
	/* SLAB_HWCACHE_ALIGN: a cache line, or a fraction of one for small objects */
	for (unsigned int size = 8; size <= 256; size *= 2) {
		struct kmem_cache *s = kmem_cache_create("test_hw", size - 4, 0,
							 SLAB_HWCACHE_ALIGN, NULL);
		void *p = kmem_cache_alloc(s, GFP_KERNEL);

		CHECK(p && (unsigned long)p % min(size, 64u) == 0);
		kmem_cache_free(s, p);
		kmem_cache_destroy(s);
	}
	expect_everything_back(&start);
}

SLAB_TEST(cache_create_refuses_bad_arguments, "-")
{
	unsigned long pos = printk_log_pos();
	size_t pcpu_free = percpu_dynamic_free();
	pid_t child;
	int status;

	CHECK(kmem_cache_create("test_bad", 0, 0, 0, NULL) == NULL);
	CHECK(kmem_cache_create("test_bad", 64, 3, 0, NULL) == NULL);
	CHECK(kmem_cache_create("test_bad", 64, 2 * PAGE_SIZE, 0, NULL) == NULL);
	CHECK(kmem_cache_create("test_bad", KMALLOC_MAX_SIZE + 1, 0, 0, NULL) == NULL);
	CHECK(kmem_cache_create(NULL, 64, 0, 0, NULL) == NULL);
	CHECK(log_has(pos, "kmem_cache_create(test_bad): bad size 0 or align 0"));
	CHECK(log_has(pos, "kmem_cache_create((null)): bad size 64"));
	CHECK(percpu_dynamic_free() == pcpu_free);
	kmem_cache_destroy(NULL);
	/* SLAB_PANIC: a cache that cannot be made stops the machine (in a child process) */
	fflush(stdout);
	child = fork();
	if (child == 0) {
		kmem_cache_create("test_panic", 0, 0, SLAB_PANIC, NULL);
		_exit(0);
	}
	CHECK(child > 0 && waitpid(child, &status, 0) == child);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

SLAB_TEST(destroy_gives_everything_back_and_reports_leaks, "U")
{
	struct buddy_snapshot start;
	size_t pcpu_free;
	struct kmem_cache *s;
	unsigned long pos;
	void *p[3];

	snapshot_start(&start);
	pcpu_free = percpu_dynamic_free();
	s = kmem_cache_create("test_leaky", 100, 0, 0, NULL);
	CHECK(s && (s->flags & SLAB_STORE_USER));
	if (!s)
		return;
	for (int i = 0; i < 3; i++)
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
	/* destroyed with objects in it: a leak report naming the callers; the cache stays */
	pos = printk_log_pos();
	kmem_cache_destroy(s);
	CHECK(bugs_since(pos) == 1);
	CHECK(log_has(pos, "BUG test_leaky (Not tainted): Objects remaining"));
	CHECK(log_has(pos, "test_leaky: 3 objects still allocated, allocated by:"));
	CHECK(log_has(pos, "allocated in"));
	CHECK(log_has(pos, "kmem_cache_destroy test_leaky: Slab cache still has objects"));
	CHECK(slab_find_cache("test_leaky") == s);
	/* it still works */
	kmem_cache_free(s, p[1]);
	p[1] = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(p[1] != NULL);
	for (int i = 0; i < 3; i++)
		kmem_cache_free(s, p[i]);
	pos = printk_log_pos();
	kmem_cache_destroy(s);
	CHECK(bugs_since(pos) == 0 && slab_find_cache("test_leaky") == NULL);
	CHECK(percpu_dynamic_free() == pcpu_free);
	expect_everything_back(&start);
}

/* ---------------------------------------------------------------- sheaves and barns */

/*
 * The rules of mm/slab.c's essay, step by step on one node (CPUs 0 and 1):
 * a sheaf that runs dry is swapped with the spare, or traded at the barn
 * for a full one, or refilled from the slabs; a full one is swapped with
 * an empty spare, traded at the barn for an empty one, or flushed.
 */
SLAB_TEST(sheaves_refill_and_flush_through_the_barn, "-")
{
	struct kmem_cache *s = kmem_cache_create("test_sheaves", 64, 0, 0, NULL);
	struct node_barn *barn = &get_node(s, 0)->barn;
	struct slub_percpu_sheaves *pcs0 = pcs_of(s, 0), *pcs1 = pcs_of(s, 1);
	unsigned int cap = s->sheaf_capacity, nr = 0, found = 0;
	void **held = calloc(8 * cap, sizeof(void *)), **freed1 = calloc(cap, sizeof(void *)), *p;

#define TAKE(n)	do { for (unsigned int i_ = 0, n_ = (n); i_ < n_; i_++)		\
			     held[nr++] = kmem_cache_alloc(s, GFP_KERNEL); } while (0)
#define GIVE(n)	do { for (unsigned int i_ = 0, n_ = (n); i_ < n_; i_++)		\
			     kmem_cache_free(s, held[--nr]); } while (0)
	CHECK(cap >= 4);
	/* CPU 0 takes 3 sheaves' worth from the slabs; one empty sheaf left at the barn */
	TAKE(3 * cap);
	CHECK(node_inuse(s, 0) == 3 * cap && node_inuse(s, 1) == 0);
	CHECK(main_size(pcs0) == 0 && pcs0->spare && pcs0->spare->size == 0);
	CHECK(barn->nr_empty == 1 && barn->nr_full == 0);
	/* CPU 1 frees one sheaf's worth: into the empty sheaf it took from the barn */
	host_set_cpu(1);
	memcpy(freed1, held + 2 * cap, cap * sizeof(void *));
	GIVE(cap);
	CHECK(main_size(pcs1) == cap && !pcs1->spare && barn->nr_empty == 0);
	/* CPU 0 refills from the slabs again: its empty main goes to the barn */
	host_set_cpu(0);
	TAKE(1);
	CHECK(node_inuse(s, 0) == 4 * cap && barn->nr_empty == 1 && main_size(pcs0) == cap - 1);
	/* CPU 1's main is full: traded at the barn for the empty one, no slab touched */
	host_set_cpu(1);
	GIVE(1);
	CHECK(barn->nr_full == 1 && barn->nr_empty == 0 && main_size(pcs1) == 1);
	CHECK(node_inuse(s, 0) == 4 * cap);
	/* CPU 0 runs dry: the full sheaf from the barn, CPU 1's objects, no slab touched */
	host_set_cpu(0);
	TAKE(cap - 1);
	CHECK(main_size(pcs0) == 0);
	p = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(barn->nr_full == 0 && barn->nr_empty == 1 && main_size(pcs0) == cap - 1);
	CHECK(node_inuse(s, 0) == 4 * cap);
	for (unsigned int i = 0; i < cap; i++)
		found += freed1[i] == p;
	CHECK(found == 1);
	held[nr++] = p;
	/* main fills up, the spare is empty: they swap */
	GIVE(2);
	CHECK(main_size(pcs0) == 1 && pcs0->spare->size == cap);
	/* main runs dry, the spare is full: they swap back */
	TAKE(2);
	CHECK(main_size(pcs0) == cap - 1 && pcs0->spare->size == 0);
	CHECK(node_inuse(s, 0) == 4 * cap);
	/* main and spare full: main is traded at the barn while it has an empty sheaf... */
	GIVE(1 + 1 + (cap - 1) + 1);
	CHECK(main_size(pcs0) == 1 && pcs0->spare->size == cap);
	CHECK(barn->nr_full == 1 && barn->nr_empty == 0);
	CHECK(node_inuse(s, 0) == 4 * cap);
	/* ... and flushed into the slabs when it has none */
	GIVE(cap);
	CHECK(main_size(pcs0) == 1 && node_inuse(s, 0) == 3 * cap);
	GIVE(nr);
	CHECK(slab_cache_allocated(s) == 0);
	/* shrinking empties every sheaf and barn, then frees every slab */
	kmem_cache_shrink(s);
	CHECK(cache_sheaf_objects(s) == 0 && main_size(pcs0) == 0 && !pcs0->spare);
	CHECK(barn->nr_full == 0 && barn->nr_empty == 0);
	CHECK(get_node(s, 0)->nr_slabs == 0);
#undef TAKE
#undef GIVE
	free(held);
	free(freed1);
	kmem_cache_destroy(s);
}

SLAB_TEST(cpus_of_another_node_use_their_own_nodes_slabs, "-")
{
	struct kmem_cache *s = kmem_cache_create("test_nodes", 128, 0, 0, NULL);
	void *p, *q;

	host_set_cpu(2);	/* node 1 */
	p = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(p && page_to_nid(virt_to_head_page(p)) == 1);
	CHECK(node_inuse(s, 1) == s->sheaf_capacity && node_inuse(s, 0) == 0);
	host_set_cpu(3);	/* node 1 too: its own sheaf, from node 1 */
	q = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(q && page_to_nid(virt_to_head_page(q)) == 1);
	kmem_cache_free(s, p);
	kmem_cache_free(s, q);
	host_set_cpu(0);
	kmem_cache_destroy(s);
}

/*
 * An object freed on a CPU of another node goes to the freeing CPU's sheaf,
 * and from there back to its own node's slab.
 */
SLAB_TEST(cross_node_frees_go_back_to_their_own_nodes_slabs, "-")
{
	struct kmem_cache *s = kmem_cache_create("test_remote", 64, 0, 0, NULL);
	unsigned int n = 6 * s->sheaf_capacity;
	void **a = calloc(2 * n, sizeof(void *));
	struct slub_percpu_sheaves *pcs2 = pcs_of(s, 2);

	/* CPU 0 (node 0) allocates n objects on node 0 and n on node 1 */
	for (unsigned int i = 0; i < n; i++) {
		a[i] = kmem_cache_alloc(s, GFP_KERNEL);
		a[n + i] = kmem_cache_alloc_node(s, GFP_KERNEL, 1);
		CHECK(page_to_nid(virt_to_head_page(a[i])) == 0);
		CHECK(page_to_nid(virt_to_head_page(a[n + i])) == 1);
	}
	CHECK(node_inuse(s, 1) == n);
	/*
	 * CPU 2 (node 1) frees node 0's objects: straight back to their slabs,
	 * never into CPU 2's sheaves (as Linux 6.18: a sheaf holds local objects)
	 */
	host_set_cpu(2);
	for (unsigned int i = 0; i < n; i++) {
		kmem_cache_free(s, a[i]);
		CHECK(main_size(pcs2) == 0 && !pcs2->spare);
	}
	CHECK(node_inuse(s, 0) == 0);
	/* ... and CPU 1 (node 0) frees node 1's */
	host_set_cpu(1);
	for (unsigned int i = n; i < 2 * n; i++)
		kmem_cache_free(s, a[i]);
	CHECK(node_inuse(s, 1) == 0 && cache_sheaf_objects(s) == 0);
	/* every object went to its own node's slab: flushing the sheaves changes nothing */
	kmem_cache_flush_cpus(s);
	CHECK(node_inuse(s, 0) == 0 && node_inuse(s, 1) == 0);
	CHECK(get_node(s, 0)->nr_slabs > 0 && get_node(s, 1)->nr_slabs > 0);
	/* (a node keeps at most two empty slabs; the others went back to the page allocator) */
	for (unsigned int i = 0; i < 2 * n; i++) {
		if (cache_of(a[i]) == s && !on_slab_freelist(s, a[i])) {
			CHECK(on_slab_freelist(s, a[i]));
			break;
		}
	}
	host_set_cpu(0);
	free(a);
	kmem_cache_destroy(s);
}

SLAB_TEST(alloc_node_honours_the_node_and_thisnode, "-")
{
	struct kmem_cache *s = kmem_cache_create("test_alloc_node", 256, 0, 0, NULL);
	struct page *page;
	struct buddy_snapshot start;
	unsigned long held = 0;
	struct page **pages = calloc(16 * MiB / PAGE_SIZE, sizeof(*pages));
	void *p;
	int nid;

	snapshot_start(&start);
	for_each_node(nid) {
		for (unsigned int cpu = 0; cpu < 4; cpu++) {
			host_set_cpu(cpu);
			p = kmalloc_node(100, GFP_KERNEL | __GFP_THISNODE, nid);
			CHECK(p && page_to_nid(virt_to_head_page(p)) == nid);
			kfree(p);
			p = kmem_cache_alloc_node(s, GFP_KERNEL, nid);
			CHECK(p && page_to_nid(virt_to_head_page(p)) == nid);
			kmem_cache_free(s, p);
			p = kzalloc_node(10000, GFP_KERNEL | __GFP_THISNODE, nid);	/* pages */
			CHECK(p && page_to_nid(virt_to_head_page(p)) == nid);
			kfree(p);
		}
	}
	/*
	 * NUMA_NO_NODE, and a node that does not exist: the CPU's node (with
	 * sheaves filled on this CPU; one may also hold other nodes' objects
	 * that this CPU freed)
	 */
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		struct kmem_cache *fresh = kmem_cache_create("test_fresh", 256, 0, 0, NULL);

		host_set_cpu(cpu);
		p = kmem_cache_alloc_node(fresh, GFP_KERNEL, cpu < 2 ? NUMA_NO_NODE : 9);
		CHECK(p && page_to_nid(virt_to_head_page(p)) == (cpu < 2 ? 0 : 1));
		kmem_cache_free(fresh, p);
		kmem_cache_destroy(fresh);
	}
	/* node 1 full: __GFP_THISNODE fails, without it node 0 serves */
	host_set_cpu(0);
	kmem_cache_shrink(s);
	kmem_cache_shrink(kmalloc_caches[kmalloc_index(100)]);
	while ((page = alloc_pages_node(1, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_THISNODE |
					   __GFP_NOWARN, 0)))
		pages[held++] = page;
	CHECK(held > 0);
	CHECK(kmalloc_node(100, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 1) == NULL);
	CHECK(kmem_cache_alloc_node(s, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 1) == NULL);
	p = kmalloc_node(100, GFP_KERNEL | __GFP_NOWARN, 1);
	CHECK(p && page_to_nid(virt_to_head_page(p)) == 0);
	kfree(p);
	while (held)
		__free_pages(pages[--held], 0);
	free(pages);
	kmem_cache_destroy(s);
	expect_everything_back(&start);
}

/* ---------------------------------------------------------------- giving pages back */

SLAB_TEST(shrink_gives_every_page_back, "-")
{
	struct buddy_snapshot start;
	unsigned int n = 20000;
	void **a = calloc(n, sizeof(void *));
	struct kmem_cache *s;

	snapshot_start(&start);
	s = kmem_cache_create("test_shrink", 700, 0, 0, NULL);
	for (unsigned int i = 0; i < n; i++) {
		host_set_cpu(i % 4);
		if (i % 3)
			a[i] = kmalloc(8 << (i % 11), GFP_KERNEL);
		else
			a[i] = kmem_cache_alloc(s, GFP_KERNEL);
		CHECK(a[i] != NULL);
	}
	for (unsigned int i = 0; i < n; i++) {
		host_set_cpu((i * 7) % 4);	/* mostly another CPU, often another node */
		if (i % 3)
			kfree(a[i]);
		else
			kmem_cache_free(s, a[i]);
	}
	host_set_cpu(0);
	CHECK(slab_cache_allocated(s) == 0);
	kmem_cache_destroy(s);
	free(a);
	expect_everything_back(&start);
}

/* Under memory pressure reclaim's shrinker takes the sheaves' objects and the empty slabs. */
SLAB_TEST(the_shrinker_gives_free_slabs_back_under_pressure, "-")
{
	unsigned int n = 30000;
	void **a = calloc(n, sizeof(void *));
	struct page **pages = calloc(64 * MiB / PAGE_SIZE, sizeof(*pages));
	unsigned long held = 0, empty = 0;
	struct kmem_cache *s = kmalloc_caches[6];
	struct page *page;
	int nid;

	for (unsigned int i = 0; i < n; i++) {
		host_set_cpu(i % 4);
		a[i] = kmalloc(64, GFP_KERNEL);
	}
	for (unsigned int i = 0; i < n; i++) {
		host_set_cpu((i + 1) % 4);
		kfree(a[i]);
	}
	host_set_cpu(0);
	for_each_node(nid)
		empty += get_node(s, nid)->nr_empty;
	CHECK(cache_sheaf_objects(s) > 0 && empty > 0);
	/* take every page there is: reclaim runs the slab's shrinker first */
	while ((page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
		pages[held++] = page;
	CHECK(ev(SLAB_SHRINK_PAGES) > 0);
	CHECK(cache_sheaf_objects(s) == 0);
	for_each_node(nid)
		CHECK(get_node(s, nid)->nr_empty == 0);
	while (held)
		__free_pages(pages[--held], 0);
	free(pages);
	free(a);
}

/* ---------------------------------------------------------------- misuse and debugging */

/*
 * Each report below is printed once, and the cache works afterwards; and
 * validates, unless a slab was taken out of use ("Marking all objects
 * used": its free objects are then checked as allocated ones).
 */
static void works_afterwards(struct kmem_cache *s, bool validates)
{
	void *p[3];

	for (int i = 0; i < 3; i++)
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(p[0] && p[1] && p[2] && p[0] != p[1] && p[1] != p[2] && p[0] != p[2]);
	for (int i = 0; i < 3; i++)
		kmem_cache_free(s, p[i]);
	if (validates)
		CHECK(validate_slab_cache(s) == 0);
}

SLAB_TEST(double_free_is_reported_once_with_debugging, "")
{
	void *p = kmalloc(64, GFP_KERNEL);
	unsigned long pos, errors = ev(SLAB_ERRORS);

	kfree(p);
	pos = printk_log_pos();
	kfree(p);
	CHECK(bugs_since(pos) == 1 && ev(SLAB_ERRORS) == errors + 1);
	CHECK(log_has(pos, "BUG kmalloc-64 (Not tainted): Object already free"));
	CHECK(log_has(pos, "FIX kmalloc-64: Object not freed"));
	CHECK(log_has(pos, "Freed in"));	/* SLAB_STORE_USER: who freed it first */
	works_afterwards(kmalloc_caches[6], true);
}

SLAB_TEST(double_free_is_caught_without_debugging, "-")
{
	void *p = kmalloc(64, GFP_KERNEL), *b = kmalloc(64, GFP_KERNEL), *q, *r, *t;
	unsigned long pos;

	kfree(p);
	pos = printk_log_pos();
	kfree(p);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "freed twice"));
	/* it was not pushed twice: two allocations get two objects */
	q = kmalloc(64, GFP_KERNEL);
	r = kmalloc(64, GFP_KERNEL);
	CHECK(q == p && r != p);
	/* with another free between (kfree(a); kfree(b); kfree(a)) */
	kfree(q);
	kfree(b);
	pos = printk_log_pos();
	kfree(q);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "freed twice"));
	b = kmalloc(64, GFP_KERNEL);
	q = kmalloc(64, GFP_KERNEL);
	t = kmalloc(64, GFP_KERNEL);
	CHECK(q == p && t != p && b != p);
	kfree(t);
	kfree(q);
	kfree(r);
	kfree(b);
	works_afterwards(kmalloc_caches[6], true);
}

/*
 * The free mark is in the object: a free onto an empty main sheaf, or onto
 * the bootstrap sheaf (after a flush, through free_to_pcs_irqoff()), is an ordinary
 * free; the same free again is the double free.  A double free after the
 * object went back to its slab is caught too, and in a one-word object,
 * whose mark the free pointer replaces there, it is not.
 */
SLAB_TEST(the_free_mark_follows_the_object, "-")
{
	struct kmem_cache *s = kmem_cache_create("test_empty_main", 64, 0, 0, NULL);
	struct kmem_cache *w = kmem_cache_create("test_one_word", 8, 0, 0, NULL);
	struct slub_percpu_sheaves *pcs = pcs_of(s, 0);
	unsigned long pos = printk_log_pos();
	void *held[MAX_SHEAF_CAPACITY], *p = kmem_cache_alloc(s, GFP_KERNEL), *q, *keep;
	unsigned int nr = 0;

	CHECK(pcs->main->capacity);	/* the first allocation installed a real sheaf */
	while (main_size(pcs))		/* empty it */
		held[nr++] = kmem_cache_alloc(s, GFP_KERNEL);
	kmem_cache_free(s, p);
	CHECK(bugs_since(pos) == 0 && main_size(pcs) == 1);
	kmem_cache_free(s, p);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "freed twice") && main_size(pcs) == 1);
	q = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(q == p && main_size(pcs) == 0);
	kmem_cache_free(s, q);
	while (nr)
		kmem_cache_free(s, held[--nr]);
	CHECK(bugs_since(pos) == 1);
	/* main is the bootstrap sheaf again */
	p = kmem_cache_alloc(s, GFP_KERNEL);
	keep = kmem_cache_alloc(s, GFP_KERNEL);		/* keeps p's slab */
	kmem_cache_flush_cpus(s);
	CHECK(pcs->main->capacity == 0);
	kmem_cache_free(s, p);
	CHECK(bugs_since(pos) == 1 && main_size(pcs) == 1);
	kmem_cache_free(s, p);
	CHECK(bugs_since(pos) == 2 && main_size(pcs) == 1);
	/* on its slab's freelist */
	kmem_cache_flush_cpus(s);
	if (virt_to_head_page(p) == virt_to_head_page(keep)) {
		kmem_cache_free(s, p);
		CHECK(bugs_since(pos) == 3 && log_has(pos, "freed twice"));
	}
	kmem_cache_free(s, keep);
	kmem_cache_destroy(s);
	/* one word: the mark is the free pointer's word, and caught while in a sheaf */
	CHECK(w->free_mark == w->offset);
	pos = printk_log_pos();
	p = kmem_cache_alloc(w, GFP_KERNEL);
	kmem_cache_free(w, p);
	kmem_cache_free(w, p);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "freed twice"));
	kmem_cache_destroy(w);
}

static void check_invalid_pointers(void)
{
	struct kmem_cache *s = kmem_cache_create("test_bad_free", 48, 0, 0, NULL);
	u8 *p = kmalloc(64, GFP_KERNEL), *o = kmem_cache_alloc(s, GFP_KERNEL);
	u8 *big = kmalloc(20000, GFP_KERNEL);
	struct page *page = alloc_pages(GFP_KERNEL, 1);
	unsigned long pos, bad = ev(SLAB_BAD_FREE);
	int local;

	/* not at an object's start */
	pos = printk_log_pos();
	kfree(p + 8);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "Invalid object pointer"));
	pos = printk_log_pos();
	kmem_cache_free(s, o + 1);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "BUG test_bad_free") &&
	      log_has(pos, "not the start of an object"));
	/* no cache owns it */
	pos = printk_log_pos();
	kfree(&local);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "not an address in the direct map"));
	pos = printk_log_pos();
	kfree(page_address(page) + PAGE_SIZE);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "not memory kmalloc() handed out"));
	__free_pages(page, 1);
	pos = printk_log_pos();
	kfree(page_address(page));
	CHECK(bugs_since(pos) == 1 && log_has(pos, "the memory is free"));
	pos = printk_log_pos();
	CHECK(ksize(&local) == 0);
	CHECK(bugs_since(pos) == 1);
	/* into the wrong cache */
	pos = printk_log_pos();
	kmem_cache_free(s, p);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "BUG test_bad_free: kmem_cache_free: Wrong "
					      "slab cache. test_bad_free but object") &&
	      log_has(pos, "is from kmalloc-64"));
	pos = printk_log_pos();
	kmem_cache_free(s, big);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "kmalloc large pages"));
	pos = printk_log_pos();
	kmem_cache_free(kmalloc_caches[6], o);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "is from test_bad_free"));
	pos = printk_log_pos();
	kmem_cache_free(s, &local);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "not an address in the direct map"));
	/* krealloc() of what kmalloc() did not hand out: NULL, reported once */
	pos = printk_log_pos();
	CHECK(krealloc(&local, 100, GFP_KERNEL) == NULL);
	CHECK(bugs_since(pos) == 1);
	CHECK(ev(SLAB_BAD_FREE) == bad + 11);
	/* all of them still allocated, none freed */
	CHECK(slab_check_consistency() == 0);
	CHECK(slab_check_live((void *[]){ p, o, big }, 3) == 0);
	kfree(p);
	kfree(big);
	kmem_cache_free(s, o);
	works_afterwards(s, true);
	kmem_cache_destroy(s);
}

SLAB_TEST(bad_pointers_are_reported_once_and_ignored, "-")
{
	check_invalid_pointers();
}

SLAB_TEST(bad_pointers_are_reported_once_and_ignored_with_debugging, "")
{
	check_invalid_pointers();
}

/*
 * object_in_slab() and object_in_own_page() (a multiply and a rotate,
 * mm/slab_internal.h) against the plain definition, at every byte of a
 * slab, for every slot size from 8 B to 8 KiB in steps of 8 (odd multiples of every power of two) and with
 * the left redzone and tracks of slab debugging; and that the mask of
 * slab_free()'s one test (mm/slab.c, fast_free_mask()) lets nothing else
 * through.
 */
static void check_object_starts(const char *debug)
{
	slab_machine_default(debug);
	/* the mask is sound only if blocks are aligned in the direct map too */
	CHECK(host_phys_base % (PAGE_SIZE << MAX_PAGE_ORDER) == 0);
	for (unsigned int size = 8; size <= 8192; size += 8) {
		struct kmem_cache *s = kmem_cache_create("test_starts", size, 0, 0, NULL);
		struct page *slab;
		void *obj;
		unsigned long bytes, wrong = 0;

		CHECK(s != NULL);
		if (!s)
			continue;
		obj = kmem_cache_alloc(s, GFP_KERNEL);
		slab = compound_head(virt_to_slab_checked(obj));
		bytes = PAGE_SIZE << slab_order(s, slab);
		for (unsigned long off = 0; off < bytes; off++) {
			unsigned long in = off - s->red_left_pad;
			bool start = off >= s->red_left_pad && in % s->size == 0 &&
				     in / s->size < slab->objects;
			char *p = (char *)slab_address(slab) + off;

			wrong += object_in_slab(s, slab, p) != start;
			/* and as kfree() asks, of the page the address is in */
			wrong += object_in_own_page(s, virt_to_slab_checked(p), p) != start;
			/* slab_free()'s one test never passes what is not a start */
			wrong += !((unsigned long)p & s->fast_free_mask) && !start;
		}
		CHECK(wrong == 0);
		/* and it is the whole check where it can be: power-of-two slots, no debugging */
		if (!strcmp(debug, "-") && !(size & (size - 1)))
			CHECK(s->fast_free_mask == size - 1);
		kmem_cache_free(s, obj);
		kmem_cache_destroy(s);
	}
}

HOST_TEST(object_starts_are_found_by_multiplying)
{
	host_printk_quiet = true;
	check_object_starts("-");
	check_object_starts("");
	after_test();
}

SLAB_TEST(redzone_overwrites_are_reported_once_and_restored, "")
{
	struct kmem_cache *s = kmalloc_caches[7];	/* kmalloc-128 */
	u8 *p = kmalloc(128, GFP_KERNEL);
	unsigned long pos;

	p[128] = 0;		/* one byte past the end */
	pos = printk_log_pos();
	kfree(p);
	CHECK(bugs_since(pos) == 1);
	CHECK(log_has(pos, "BUG kmalloc-128 (Not tainted): Right Redzone overwritten"));
	CHECK(log_has(pos, "First byte 0x0 instead of 0xcc"));
	CHECK(log_has(pos, "FIX kmalloc-128: Restoring redzone"));
	CHECK(log_has(pos, "Allocated in"));
	p = kmalloc(128, GFP_KERNEL);
	p[-1] = 0x41;		/* one byte before the start */
	pos = printk_log_pos();
	kfree(p);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "Left Redzone overwritten"));
	pos = printk_log_pos();
	CHECK(validate_slab_cache(s) == 0 && bugs_since(pos) == 0);
	works_afterwards(s, true);
}

SLAB_TEST(write_after_free_is_found_at_the_next_allocation, "")
{
	struct kmem_cache *s = kmem_cache_create("test_waf", 64, 0, 0, NULL);
	u8 *p = kmem_cache_alloc(s, GFP_KERNEL), *q;
	unsigned long pos;

	kmem_cache_free(s, p);
	CHECK(p[10] == 0x6b && p[63] == 0xa5);	/* poisoned while free */
	p[10] = 0;
	pos = printk_log_pos();
	q = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(q && q != p);			/* never handed out again */
	CHECK(bugs_since(pos) == 1);
	CHECK(log_has(pos, "BUG test_waf (Not tainted): Poison overwritten"));
	CHECK(log_has(pos, "First byte 0x0 instead of 0x6b"));
	CHECK(log_has(pos, "Freed in"));
	kmem_cache_free(s, q);
	works_afterwards(s, false);
	/* the slab with the damaged object is kept, all its objects counted in use */
}

SLAB_TEST(write_after_free_is_found_by_validate, "")
{
	struct kmem_cache *s = kmem_cache_create("test_waf", 200, 0, 0, NULL);
	u8 *p = kmem_cache_alloc(s, GFP_KERNEL), *keep = kmem_cache_alloc(s, GFP_KERNEL);
	unsigned long pos;

	kmem_cache_free(s, p);
	p[199] = 0;
	pos = printk_log_pos();
	CHECK(validate_slab_cache(s) == 1);
	CHECK(bugs_since(pos) == 1 && log_has(pos, "Poison overwritten"));
	CHECK(log_has(pos, "FIX test_waf: Restoring poison"));
	/* put right: found no more, and the object is handed out again */
	pos = printk_log_pos();
	CHECK(validate_slab_cache(s) == 0 && bugs_since(pos) == 0);
	CHECK(kmem_cache_alloc(s, GFP_KERNEL) == p);
	kmem_cache_free(s, p);
	kmem_cache_free(s, keep);
	works_afterwards(s, true);
	kmem_cache_destroy(s);
}

/* A free object on a slab's freelist, in a cache of 64-byte objects */
static u8 *free_object_on_a_slab(struct kmem_cache *s, void **held)
{
	struct page *slab;

	/* the sheaf takes a batch, the slab keeps the rest */
	*held = kmem_cache_alloc(s, GFP_KERNEL);
	slab = virt_to_head_page(*held);
	return slab_freelist(s, slab);
}

static void check_freelist_corruption(void)
{
	struct kmem_cache *s = kmem_cache_create("test_fp", 64, 0, 0, NULL);
	void *held, **a = calloc(256, sizeof(void *));
	u8 *f = free_object_on_a_slab(s, &held);
	unsigned long pos, target = (unsigned long)kmalloc(64, GFP_KERNEL);
	unsigned int n = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	/* a stray write puts a plain address where the next free pointer is */
	*slab_freeptr_addr(s, f) = target;
	pos = printk_log_pos();
	while (n < 256 && !bugs_since(pos))
		a[n++] = kmem_cache_alloc(s, GFP_KERNEL);
	CHECK(bugs_since(pos) == 1);
	CHECK(log_has(pos, "BUG test_fp (Not tainted): Freelist pointer corrupted"));
	CHECK(log_has(pos, "FIX test_fp: Marking all objects used"));
	/* the address written was never handed out */
	for (unsigned int i = 0; i < 256 && a[i]; i++)
		CHECK((unsigned long)a[i] != target);
	for (unsigned int i = 0; i < 2 * s->sheaf_capacity + 200; i++) {
		void *p = kmem_cache_alloc(s, GFP_KERNEL);

		CHECK((unsigned long)p != target);
		kmem_cache_free(s, p);
	}
	CHECK(bugs_since(pos) == 1);
	while (n)
		kmem_cache_free(s, a[--n]);
	kmem_cache_free(s, held);
	kfree((void *)target);
	works_afterwards(s, false);
	free(a);
	/* the slab that lost its freelist stays (its objects counted in use) */
}

SLAB_TEST(a_corrupted_freelist_pointer_is_reported_once, "-")
{
	check_freelist_corruption();
}

SLAB_TEST(a_corrupted_freelist_pointer_is_reported_once_with_debugging, "FZPU")
{
	check_freelist_corruption();
}

HOST_TEST(slab_debug_selects_letters_and_caches)
{
	unsigned long pos;

	buddy_check_failures = 0;
	host_printk_quiet = true;
	pos = printk_log_pos();
	slab_machine_default("PZ,kmalloc-64,kmalloc-1k");
	CHECK((kmalloc_caches[6]->flags & SLAB_DEBUG_FLAGS) == (SLAB_POISON | SLAB_RED_ZONE));
	CHECK((kmalloc_caches[10]->flags & SLAB_DEBUG_FLAGS) == (SLAB_POISON | SLAB_RED_ZONE));
	CHECK((kmalloc_caches[7]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK(pcs_of(kmalloc_caches[6], 0)->main->capacity == 0);	/* no sheaves */
	kfree(kmalloc(64, GFP_KERNEL));
	kfree(kmalloc(128, GFP_KERNEL));
	CHECK(pcs_of(kmalloc_caches[6], 0)->main->capacity == 0);
	CHECK(pcs_of(kmalloc_caches[7], 0)->main->capacity != 0);
	CHECK(bugs_since(pos) == 0);
	slab_machine_default("UXA");
	CHECK(log_has(pos, "slab_debug: unknown option 'X' in 'UXA' ignored"));
	CHECK(log_has(pos, "slab_debug: 'A' ignored: failslab=...,cache=NAME chooses"));
	CHECK((kmalloc_caches[3]->flags & SLAB_DEBUG_FLAGS) == SLAB_STORE_USER);
	after_test();
	slab_machine_default("-");
	CHECK((kmalloc_caches[3]->flags & SLAB_DEBUG_FLAGS) == 0);
	after_test();
}

/* Linux's fuller syntax: blocks, a name ending in '*', no letters, T and O. */
HOST_TEST(slab_debug_blocks_globs_trace_and_o)
{
	const slab_flags_t all = SLAB_DEBUG_DEFAULT_FLAGS;
	unsigned long pos;
	void *p;

	buddy_check_failures = 0;
	host_printk_quiet = true;
	pos = printk_log_pos();
	/* everything but kmalloc-64 and the kmalloc-1...: FZ; kmalloc-8: U */
	slab_machine_default("fz;-,kmalloc-64,kmalloc-1*;U,kmalloc-8");
	CHECK((kmalloc_caches[kmalloc_index(32)]->flags & SLAB_DEBUG_FLAGS) ==
	      (SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE));
	CHECK((kmalloc_caches[kmalloc_index(64)]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK((kmalloc_caches[kmalloc_index(16)]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK((kmalloc_caches[kmalloc_index(128)]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK((kmalloc_caches[kmalloc_index(1024)]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK((kmalloc_caches[kmalloc_index(2048)]->flags & SLAB_DEBUG_FLAGS) ==
	      (SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE));
	CHECK((kmalloc_caches[kmalloc_index(8)]->flags & SLAB_DEBUG_FLAGS) == SLAB_STORE_USER);
	CHECK(bugs_since(pos) == 0 && !log_has(pos, "unknown option"));
	after_test();
	/* no letters: F, Z, P, U, for the caches named only */
	slab_machine_default(",kmalloc-96");
	CHECK((kmalloc_caches[kmalloc_index(96)]->flags & SLAB_DEBUG_FLAGS) == all);
	CHECK((kmalloc_caches[kmalloc_index(64)]->flags & SLAB_DEBUG_FLAGS) == 0);
	after_test();
	/* T: a line for each alloc and free, and nothing else checked */
	slab_machine_default("T,kmalloc-32");
	CHECK((kmalloc_caches[kmalloc_index(32)]->flags & SLAB_DEBUG_FLAGS) == SLAB_TRACE);
	pos = printk_log_pos();
	p = kmalloc(32, GFP_KERNEL);
	kfree(p);
	CHECK(log_has(pos, "TRACE kmalloc-32 alloc 0x"));
	CHECK(log_has(pos, "TRACE kmalloc-32 free 0x"));
	CHECK(bugs_since(pos) == 0);
	after_test();
	/* O: no debugging where its metadata would raise the order of a slot */
	slab_machine_default("FZPUO");
	CHECK((kmalloc_caches[kmalloc_index(64)]->flags & SLAB_DEBUG_FLAGS) == all);
	CHECK((kmalloc_caches[kmalloc_index(256)]->flags & SLAB_DEBUG_FLAGS) == all);
	/* 2 KiB-aligned: a left redzone of 2 KiB makes a slot of 6 KiB, order 1 */
	CHECK((kmalloc_caches[kmalloc_index(2048)]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK((kmalloc_caches[kmalloc_index(4096)]->flags & SLAB_DEBUG_FLAGS) == 0);
	CHECK((kmalloc_caches[kmalloc_index(8192)]->flags & SLAB_DEBUG_FLAGS) == 0);
	after_test();
}

/* ---------------------------------------------------------------- the model */

/* Mostly small, as in a kernel; sometimes up to the largest class; rarely whole pages. */
static size_t random_size(u64 r)
{
	unsigned int p = r % 100;

	r >>= 8;
	if (p < 70)
		return 1 + r % 256;
	if (p < 95)
		return 257 + r % (4096 - 256);
	if (p < 99)
		return 4097 + r % 4096;
	return 8193 + r % (56 * 1024);
}

/* Two nodes of 20 and 12 MiB, four CPUs: memory runs out now and then. */
static const struct host_range model_ram[] = {
	{ 0, 0x9f000, 0 },
	{ 1 * MiB, 19 * MiB, 0 },
	{ 4 * GiB, 12 * MiB, 1 },
};
static const struct host_range model_reserved[] = { { 0, 1 * MiB, 0 } };

HOST_TEST(random_model_based_test)
{
	const char *env_seed = getenv("SLAB_SEED"), *env_ops = getenv("SLAB_OPS");
	u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eed51abULL;
	unsigned long ops = env_ops ? strtoul(env_ops, NULL, 0) : 2000000;
	static const char *const debug[] = { "-", "", "FZPU,kmalloc-64,kmalloc-192,model-24" };
	struct smodel m;
	clock_t t0 = clock();
	unsigned long i = 0;

	printf("    random model test: seed %#llx (SLAB_SEED), %lu operations (SLAB_OPS)\n",
	       (unsigned long long)seed, ops);
	buddy_check_failures = 0;
	host_rng_state = seed;
	host_printk_quiet = true;
	/* a third of the run with each slab_debug= setting, each on a fresh machine */
	for (unsigned int part = 0; part < 3 && !buddy_check_failures; part++) {
		slab_machine_init(model_ram, ARRAY_SIZE(model_ram), model_reserved,
				  ARRAY_SIZE(model_reserved), 4, debug[part]);
		smodel_init(&m);
		for (; i < ops * (part + 1) / 3 && !buddy_check_failures; i++) {
			/* phases of growth and shrinkage, so that memory runs out now and then */
			bool growing = (i / 50000) % 2 == 0;
			u64 r = host_rng();
			unsigned int what = r % 1000;

			r >>= 10;
			if (what < (growing ? 560u : 420u))
				smodel_alloc(&m, r % 8 < 5 ? SM_KMALLOC : (unsigned int)(r >> 3),
					     random_size(r >> 8), (unsigned int)(r >> 40));
			else if (what < 940)
				smodel_free(&m, r, (unsigned int)(r >> 40));
			else if (what < 975)
				smodel_realloc(&m, r, random_size(r >> 8),
					       (unsigned int)(r >> 40));
			else if (what < 992)
				host_set_cpu(r % host_nr_cpus);
			else if (what < 995)
				smodel_misuse(&m, (unsigned int)r, r >> 8);
			else if (what < 997)
				smodel_shrink(&m, (unsigned int)r);
			else if (what < 998)
				smodel_validate(&m, (unsigned int)r);
			else
				smodel_cache_op(&m, (unsigned int)r);
			if (i % 50000 == 0 && smodel_check(&m))
				break;
		}
		host_set_cpu(0);
		printf("    slab_debug=%s: %lu allocs (%lu failed), %lu frees, %lu kreallocs, "
		       "%lu misuses, %lu shrinks, %lu cache creations/destructions; %lu live "
		       "at the end; %lu of %lu allocations for any node had another node's "
		       "object\n",
		       debug[part], m.allocs, m.fails, m.frees, m.reallocs, m.misuses, m.shrinks,
		       m.cache_ops, m.nr_live, m.remote, m.local);
		smodel_finish(&m);
	}
	host_printk_quiet = false;
	printf("    %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	CHECK(i == ops);
	CHECK(buddy_check_failures == 0);
	if (buddy_check_failures)
		printf("    replay with SLAB_SEED=%#llx\n", (unsigned long long)seed);
}
