/*
 * kernel/kcsan.c - KCSAN, the Kernel Concurrency Sanitizer: a data-race
 * detector by soft watchpoints, in small, as Linux's kernel/kcsan/
 * (https://docs.kernel.org/dev-tools/kcsan.html).
 *
 * A data race is two accesses to the same bytes from two CPUs at the same
 * time, at least one a write, at least one plain (not READ_ONCE(),
 * WRITE_ONCE(), an atomic, or under data_race()).  C gives such a program
 * no meaning at all; in practice the compiler tears, fuses or re-reads the
 * plain access, and a value that "cannot" change does.  Locks make accesses
 * not concurrent; marking them says the race is meant.
 *
 * How it finds them.  `make KCSAN=1` compiles every file but this one with
 * the compiler's thread-sanitizer instrumentation (the Makefile): before
 * each load and store it calls __tsan_read8(addr), __tsan_write4(addr) and
 * so on, and every __atomic builtin becomes a __tsan_atomic*() call.  There
 * is no happens-before bookkeeping (user-space TSan's way); instead, as
 * Linux's, most accesses only look, and one in kcsan.skip_watch is watched:
 *
 *   - every access first looks for a watchpoint on its bytes in a small
 *     global array (watchpoints[], a word per slot: address, size, write
 *     flag; set and removed with cmpxchg, no lock).  Found, and one of the
 *     two is a write: this is the racing access.  It claims the watchpoint
 *     (it becomes CONSUMED) and leaves its own description and stack in
 *     other_info[slot] for the watcher.
 *   - otherwise a per-CPU countdown is decremented; at zero (it restarts at
 *     a random value up to kcsan.skip_watch) the access is watched: a
 *     watchpoint is set, the value read, the CPU stalls for kcsan.udelay_task
 *     microseconds (udelay_interrupt in an interrupt handler), the value is
 *     read again and the watchpoint removed.  If another CPU claimed it, the
 *     report names both accesses, with both stacks; if nobody did but the
 *     value changed, someone wrote without being instrumented (a DMA, an
 *     uninstrumented file, a store inside inline asm): "race at unknown
 *     origin".
 *
 * So a race is found only when it happens during a stall: sampling trades
 * certainty for a kernel that still runs at a usable speed, and the suite
 * running for a minute on four CPUs gives thousands of stalls.
 *
 * Which accesses take part (Linux's defaults, 6.6):
 *   - plain reads and writes set watchpoints and find them; a plain aligned
 *     write of at most 8 bytes only finds them (CONFIG_KCSAN_ASSUME_PLAIN_
 *     WRITES_ATOMIC: x86 does not tear it, and a race of two such stores is
 *     reported only if someone also reads);
 *   - marked accesses (volatile, i.e. READ_ONCE()/WRITE_ONCE(), and atomics)
 *     never set a watchpoint, but find one: plain against marked is a race,
 *     printed as "read (marked)";
 *   - data_race() turns this CPU's checks off around its expression;
 *   - ASSERT_EXCLUSIVE_WRITER(var) is a pretend read that sets a watchpoint
 *     any write, marked or not, claims (ASSERT_EXCLUSIVE_ACCESS(): any
 *     access): "BUG: KCSAN: assert: race in ...".
 *
 * Interrupts.  The stall runs with interrupts off (Linux's default,
 * CONFIG_KCSAN_INTERRUPT_WATCHER=n): an interrupt handler on the watching
 * CPU cannot run inside the window, so it is never mistaken for a racer;
 * and an interrupt handler (a cross-CPU call, the tick) on another CPU
 * races like any code.  data_race() counts per CPU and per context (task
 * or interrupt), so a handler that interrupts a data_race() is checked.
 * NMIs are not checked at all, and the runtime never re-enters itself: a
 * per-CPU flag says it is busy, and every access on that CPU (printk's, the
 * stack walk's, udelay()'s) passes straight through.
 *
 * Reports are printed as Linux's, between lines of '=':
 *
 *   BUG: KCSAN: data-race in <f> / <g>              the two functions, sorted
 *
 *   write to 0x<addr> of 8 bytes by interrupt on cpu 1:   the racing access
 *    <its stack>
 *
 *   read to 0x<addr> of 8 bytes by task on cpu 0:   the watched access
 *    <its stack>
 *
 *   value changed: 0x... -> 0x...                   when the watcher saw it
 *
 *   Reported by Kernel Concurrency Sanitizer on:
 *   CPU: 0
 *
 * There are no tasks in this kernel: "by task" is code outside any interrupt
 * handler, as the CPU runs it.  The same pair of accesses is reported once
 * in 3 seconds (Linux's CONFIG_KCSAN_REPORT_ONCE_IN_MS).  A claimed
 * watchpoint is reported even when the value did not change (stricter than
 * Linux's default CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY, as its
 * CONFIG_KCSAN_STRICT): the racer may have stored what was there, but two
 * CPUs met on these bytes with no lock between them.
 *
 * printk() looks for no race while it holds its lock (kernel/printk.c): a
 * report from in there would print under that lock.
 *
 * Not instrumented (the Makefile): this file, KASAN's runtime (KCSAN=1 and
 * KASAN=1 together are refused, as Linux's Kconfig does).  Until
 * kcsan_init() (after smp_init(), once the TSC is calibrated for udelay())
 * every hook returns at once, so boot code that runs before the per-CPU
 * areas exist is safe.
 */
#include "kernel/config.h"

#if CONFIG_KCSAN
#include "kernel/kcsan.h"
#include "kernel/cmdline.h"
#include "kernel/hardirq.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/stacktrace.h"
#include "arch/x86_64/timer.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define NUM_WATCHPOINTS		64	/* slots, by the page of the address */
#define MAX_ENCODABLE_SIZE	1024	/* a longer access is checked in pieces */
#define STACK_DEPTH		16
#define REPORT_ONCE_NS		3000000000ULL
#define NR_RECENT		32

/* Linux's defaults are 4000 and 80/20 microseconds; under TCG fewer, shorter stalls (docs). */
unsigned long kcsan_skip_watch = 4000;
unsigned long kcsan_udelay_task = 10;
unsigned long kcsan_udelay_interrupt = 5;

/*
 * A watchpoint: bit 63 write, bits 62..52 size, bits 51..0 the address's
 * low bits (kernel addresses differ there).  0 is a free slot; CONSUMED
 * (address 1, size 0: no access encodes so) one another CPU claimed.
 */
#define WP_WRITE		(1UL << 63)
#define WP_SIZE_SHIFT		52
#define WP_SIZE_MASK		0x7ffUL
#define WP_ADDR_MASK		((1UL << WP_SIZE_SHIFT) - 1)
#define WP_CONSUMED		1UL

static unsigned long watchpoints[NUM_WATCHPOINTS];
/* How many slots are in use: while none is (nearly always), an access looks at one word. */
static unsigned int nr_watchpoints;

/* The racing access's description, left for the watcher of the slot. */
struct access_info {
	unsigned long ptr;
	size_t size;
	int type;
	unsigned int cpu;
	bool in_irq;
	unsigned int nr_entries;
	unsigned long stack[STACK_DEPTH];
};

static struct {
	bool ready;		/* the claimer has filled info in */
	unsigned long encoded;	/* for the watchpoint it claimed (a late one is stale) */
	struct access_info info;
} other_info[NUM_WATCHPOINTS];

/* Per CPU and context: data_race() nesting, and the countdown to the next watch. */
struct kcsan_ctx {
	int disable_count;
	long skip;
};

static DEFINE_PER_CPU(struct kcsan_ctx, kcsan_task_ctx);
static DEFINE_PER_CPU(struct kcsan_ctx, kcsan_irq_ctx);
static DEFINE_PER_CPU(bool, kcsan_busy);
/* The slot this CPU's watchpoint is in, + 1 (0: none): what an oops abandons. */
static DEFINE_PER_CPU(int, kcsan_watching);
static DEFINE_PER_CPU(u64, kcsan_rand);

static bool kcsan_enabled;
static unsigned long nr_reports;
static unsigned int report_lock;

static struct {
	unsigned long a, b;
	u64 when;
} recent[NR_RECENT];
static unsigned int recent_next;

static __always_inline struct kcsan_ctx *get_ctx(void)
{
	return in_interrupt() ? this_cpu_ptr(&kcsan_irq_ctx) : this_cpu_ptr(&kcsan_task_ctx);
}

/* ------------------------------------------------------------ watchpoints */

static __always_inline unsigned long encode(unsigned long addr, size_t size, bool write)
{
	return (write ? WP_WRITE : 0) | ((unsigned long)size << WP_SIZE_SHIFT) |
	       (addr & WP_ADDR_MASK);
}

static __always_inline unsigned int slot_of(unsigned long addr)
{
	return (addr >> 12) % NUM_WATCHPOINTS;
}

/*
 * The watchpoint slot that covers [addr, addr+size) and conflicts with an
 * access of this kind (one of the two a write), or -1.  A watcher takes
 * the slot of its page or the next; its bytes may reach into the next page:
 * so the slot before this page's, this page's, and the next.
 */
static __always_inline int find_watchpoint(unsigned long addr, size_t size, bool write,
					   unsigned long *encoded)
{
	unsigned long a = addr & WP_ADDR_MASK;
	unsigned int s = slot_of(addr);

	for (unsigned int i = 0; i < 3; i++) {
		unsigned int slot = (s + NUM_WATCHPOINTS - 1 + i) % NUM_WATCHPOINTS;
		unsigned long wp = __atomic_load_n(&watchpoints[slot], __ATOMIC_RELAXED);
		unsigned long wa, ws;

		if (wp == 0 || wp == WP_CONSUMED)
			continue;
		if (!write && !(wp & WP_WRITE))
			continue;
		wa = wp & WP_ADDR_MASK;
		ws = (wp >> WP_SIZE_SHIFT) & WP_SIZE_MASK;
		if (wa < a + size && a < wa + ws) {
			*encoded = wp;
			return slot;
		}
	}
	return -1;
}

static int insert_watchpoint(unsigned long addr, size_t size, bool write, unsigned long *encoded)
{
	unsigned int s = slot_of(addr);

	__atomic_fetch_add(&nr_watchpoints, 1, __ATOMIC_SEQ_CST);	/* before the slot */
	*encoded = encode(addr, size, write);
	for (unsigned int i = 0; i < 2; i++) {
		unsigned int slot = (s + i) % NUM_WATCHPOINTS;
		unsigned long expected = 0;

		if (__atomic_compare_exchange_n(&watchpoints[slot], &expected, *encoded, false,
						__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			return slot;
	}
	__atomic_fetch_sub(&nr_watchpoints, 1, __ATOMIC_RELAXED);
	return -1;
}

/* ------------------------------------------------------------ reports */

static void report_lock_acquire(void)
{
	while (__atomic_exchange_n(&report_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void report_lock_release(void)
{
	__atomic_store_n(&report_lock, 0, __ATOMIC_RELEASE);
}

/* The stack from the instrumented function on: the runtime's own frames left out. */
static void save_stack(struct access_info *ai, unsigned long ip)
{
	unsigned long entries[STACK_DEPTH + 8];
	unsigned int n = stack_trace_save(entries, ARRAY_SIZE(entries), 0), from = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (entries[i] == ip) {
			from = i;
			break;
		}
	}
	ai->nr_entries = 0;
	if (from == 0 && (n == 0 || entries[0] != ip))
		ai->stack[ai->nr_entries++] = ip;	/* the walk missed it: name it anyway */
	for (unsigned int i = from; i < n && ai->nr_entries < STACK_DEPTH; i++)
		ai->stack[ai->nr_entries++] = entries[i];
}

static void fill_info(struct access_info *ai, unsigned long ptr, size_t size, int type,
		      unsigned long ip)
{
	ai->ptr = ptr;
	ai->size = size;
	ai->type = type;
	ai->cpu = smp_processor_id();
	ai->in_irq = in_interrupt();
	save_stack(ai, ip);
}

/* Linux's words for an access. */
static const char *access_type(int type)
{
	if (type & KCSAN_ACCESS_ASSERT)
		return type & KCSAN_ACCESS_WRITE ? "assert no accesses" : "assert no writes";
	switch (type & (KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND | KCSAN_ACCESS_ATOMIC)) {
	case 0:
		return "read";
	case KCSAN_ACCESS_ATOMIC:
		return "read (marked)";
	case KCSAN_ACCESS_WRITE:
		return "write";
	case KCSAN_ACCESS_WRITE | KCSAN_ACCESS_ATOMIC:
		return "write (marked)";
	case KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND:
		return "read-write";
	default:
		return "read-write (marked)";
	}
}

static void print_access(const struct access_info *ai, bool unknown_origin)
{
	pr_err("%s%s to 0x%016lx of %zu bytes by %s on cpu %u:\n",
	       unknown_origin ? "race at unknown origin, with " : "", access_type(ai->type),
	       ai->ptr, ai->size, ai->in_irq ? "interrupt" : "task", ai->cpu);
	for (unsigned int i = 0; i < ai->nr_entries; i++)
		pr_err(" %pS\n", (void *)ai->stack[i]);
	pr_err("\n");
}

/* Seen this pair within REPORT_ONCE_NS? Then stay quiet; else remember it. */
static bool seen_recently(unsigned long a, unsigned long b)
{
	u64 now = ktime_get_ns();

	if (a > b) {
		unsigned long t = a;

		a = b;
		b = t;
	}
	for (unsigned int i = 0; i < NR_RECENT; i++)
		if (recent[i].a == a && recent[i].b == b && recent[i].when &&
		    now - recent[i].when < REPORT_ONCE_NS)
			return true;
	recent[recent_next].a = a;
	recent[recent_next].b = b;
	recent[recent_next].when = now ? now : 1;
	recent_next = (recent_next + 1) % NR_RECENT;
	return false;
}

/*
 * Print one report: @other is the racing access (NULL: unknown origin),
 * @self the watched one.  Context: the watcher, interrupts off, busy set.
 */
static void print_report(const struct access_info *self, const struct access_info *other,
			 bool changed, u64 old, u64 new)
{
	bool assert = (self->type | (other ? other->type : 0)) & KCSAN_ACCESS_ASSERT;
	char a[64], b[64];

	report_lock_acquire();
	if (seen_recently(self->stack[0], other ? other->stack[0] : 0))
		goto out;
	nr_reports++;
	pr_err("==================================================================\n");
	if (other) {
		snprintf(a, sizeof(a), "%ps", (void *)self->stack[0]);
		snprintf(b, sizeof(b), "%ps", (void *)other->stack[0]);
		if (strcmp(a, b) > 0)
			pr_err("BUG: KCSAN: %s in %s / %s\n\n", assert ? "assert: race" : "data-race",
			       b, a);
		else
			pr_err("BUG: KCSAN: %s in %s / %s\n\n", assert ? "assert: race" : "data-race",
			       a, b);
		print_access(other, false);
	} else {
		pr_err("BUG: KCSAN: %s in %pS\n\n", assert ? "assert: race" : "data-race",
		       (void *)self->stack[0]);
	}
	print_access(self, !other);
	if (changed)
		pr_err("value changed: 0x%0*llx -> 0x%0*llx\n\n", (int)self->size * 2,
		       (unsigned long long)old, (int)self->size * 2, (unsigned long long)new);
	pr_err("Reported by Kernel Concurrency Sanitizer on:\n");
	pr_err("CPU: %u\n", self->cpu);
	pr_err("==================================================================\n");
out:
	report_lock_release();
}

/* ------------------------------------------------------------ the two paths */

static __always_inline u64 read_value(unsigned long ptr, size_t size)
{
	switch (size) {
	case 1:
		return *(const volatile u8 *)ptr;
	case 2:
		return *(const volatile u16 *)ptr;
	case 4:
		return *(const volatile u32 *)ptr;
	case 8:
		return *(const volatile u64 *)ptr;
	default:
		return 0;	/* longer: only a claimer can show the race */
	}
}

/* Another CPU watches these bytes: claim the watchpoint, describe this access. */
static __noinline void found_watchpoint(unsigned long ptr, size_t size, int type,
					unsigned long ip, int slot, unsigned long encoded)
{
	unsigned long flags;

	if (in_nmi() || this_cpu_read(kcsan_busy))
		return;
	if (!__atomic_compare_exchange_n(&watchpoints[slot], &encoded, WP_CONSUMED, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return;		/* someone else claimed it, or it is gone */
	local_irq_save(flags);
	this_cpu_write(kcsan_busy, true);
	fill_info(&other_info[slot].info, ptr, size, type, ip);
	other_info[slot].encoded = encoded;
	__atomic_store_n(&other_info[slot].ready, true, __ATOMIC_RELEASE);
	this_cpu_write(kcsan_busy, false);
	local_irq_restore(flags);
}

static bool claimer_done(int slot, unsigned long encoded)
{
	return __atomic_load_n(&other_info[slot].ready, __ATOMIC_ACQUIRE) &&
	       other_info[slot].encoded == encoded;
}

/* A sampled access: watch its bytes for a moment. */
static __noinline void setup_watchpoint(unsigned long ptr, size_t size, int type,
					unsigned long ip, struct kcsan_ctx *ctx)
{
	bool watch_write = type & KCSAN_ACCESS_WRITE;
	struct access_info self;
	unsigned long flags, encoded, expected;
	u64 *rnd, old, new;
	int slot;

	/* The next sample: 1..skip_watch accesses from now (Linux's randomised skip). */
	rnd = this_cpu_ptr(&kcsan_rand);
	*rnd ^= *rnd << 13;
	*rnd ^= *rnd >> 7;
	*rnd ^= *rnd << 17;
	ctx->skip = 1 + (long)(*rnd % kcsan_skip_watch);

	if (in_nmi() || this_cpu_read(kcsan_busy))
		return;
	local_irq_save(flags);
	this_cpu_write(kcsan_busy, true);
	slot = insert_watchpoint(ptr, size, watch_write, &encoded);
	if (slot < 0)
		goto out;
	this_cpu_write(kcsan_watching, slot + 1);	/* the read may fault: kcsan_oops_reset() */
	old = read_value(ptr, size);
	udelay(in_interrupt() ? kcsan_udelay_interrupt : kcsan_udelay_task);
	new = read_value(ptr, size);

	expected = encoded;
	if (__atomic_compare_exchange_n(&watchpoints[slot], &expected, 0, false,
					__ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
		__atomic_fetch_sub(&nr_watchpoints, 1, __ATOMIC_RELAXED);
		/* Nobody claimed it: a change is a write we could not see. */
		if (old != new) {
			fill_info(&self, ptr, size, type, ip);
			print_report(&self, NULL, true, old, new);
		}
		goto out;
	}
	/* Claimed: wait (briefly) for the claimer's description, then report. */
	for (unsigned int i = 0; i < 10000 && !claimer_done(slot, encoded); i++)
		udelay(1);
	fill_info(&self, ptr, size, type, ip);
	if (claimer_done(slot, encoded)) {
		struct access_info other = other_info[slot].info;

		__atomic_store_n(&other_info[slot].ready, false, __ATOMIC_RELAXED);
		print_report(&self, &other, old != new, old, new);
	} else {
		print_report(&self, NULL, old != new, old, new);
	}
	__atomic_store_n(&watchpoints[slot], 0, __ATOMIC_RELEASE);
	__atomic_fetch_sub(&nr_watchpoints, 1, __ATOMIC_RELAXED);
out:
	this_cpu_write(kcsan_watching, 0);
	this_cpu_write(kcsan_busy, false);
	local_irq_restore(flags);
}

/**
 * kcsan_oops_reset - this CPU's oops was caught: forget what it abandoned
 *
 * A sampled access that faults on purpose (the oops tests) faults inside
 * setup_watchpoint(), its slot taken and this CPU busy; an oops inside a
 * data_race() leaves its nesting count up.  The catcher resumes far from
 * there, so none of it would ever be undone: KCSAN would stay off on this
 * CPU for the rest of the boot, and the slot lost.
 * Context: oops_end(), on the CPU that oopsed, before its catcher resumes.
 */
void kcsan_oops_reset(void)
{
	int slot = this_cpu_read(kcsan_watching) - 1;

	if (slot >= 0) {
		__atomic_store_n(&watchpoints[slot], 0, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&nr_watchpoints, 1, __ATOMIC_RELAXED);
	}
	this_cpu_write(kcsan_watching, 0);
	this_cpu_write(kcsan_busy, false);
	this_cpu_ptr(&kcsan_task_ctx)->disable_count = 0;
	this_cpu_ptr(&kcsan_irq_ctx)->disable_count = 0;
}

/*
 * Every instrumented access comes here.  @type: KCSAN_ACCESS_*; @ip: the
 * address inside the call in the instrumented function (as stacks show it).
 */
static __always_inline void check_access(const volatile void *p, size_t size, int type,
					 unsigned long ip)
{
	unsigned long ptr = (unsigned long)p, encoded;
	struct kcsan_ctx *ctx;
	int slot;

	if (!__atomic_load_n(&kcsan_enabled, __ATOMIC_RELAXED) || !size)
		return;
	ctx = get_ctx();
	if (ctx->disable_count)
		return;
	slot = -1;
	if (__atomic_load_n(&nr_watchpoints, __ATOMIC_RELAXED))
		slot = find_watchpoint(ptr, size, type & KCSAN_ACCESS_WRITE, &encoded);
	if (unlikely(slot >= 0)) {
		found_watchpoint(ptr, size, type, ip, slot, encoded);
		return;
	}
	/* Marked accesses, and aligned plain writes of a word or less, never watch. */
	if (type & KCSAN_ACCESS_ATOMIC)
		return;
	if ((type & (KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND | KCSAN_ACCESS_ASSERT)) ==
	    KCSAN_ACCESS_WRITE && size <= 8 && IS_ALIGNED(ptr, size))
		return;
	if (--ctx->skip > 0)
		return;
	setup_watchpoint(ptr, size, type, ip, ctx);
}

#define IP()	((unsigned long)__builtin_return_address(0) - 1)

/* ------------------------------------------------------------ the compiler's hooks */

/* A volatile access of a naturally aligned word or less is a marked one (Linux's rule). */
static __always_inline int volatile_type(const volatile void *ptr, size_t size)
{
	return size <= 8 && IS_ALIGNED((unsigned long)ptr, size) ? KCSAN_ACCESS_ATOMIC : 0;
}

#define DEFINE_TSAN_ACCESS(size)						\
void __tsan_read##size(void *ptr);						\
void __tsan_read##size(void *ptr)						\
{										\
	check_access(ptr, size, 0, IP());					\
}										\
void __tsan_write##size(void *ptr);						\
void __tsan_write##size(void *ptr)						\
{										\
	check_access(ptr, size, KCSAN_ACCESS_WRITE, IP());			\
}										\
void __tsan_read_write##size(void *ptr);					\
void __tsan_read_write##size(void *ptr)						\
{										\
	check_access(ptr, size, KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND, IP()); \
}										\
void __tsan_unaligned_read##size(void *ptr);					\
void __tsan_unaligned_read##size(void *ptr)					\
{										\
	check_access(ptr, size, 0, IP());					\
}										\
void __tsan_unaligned_write##size(void *ptr);					\
void __tsan_unaligned_write##size(void *ptr)					\
{										\
	check_access(ptr, size, KCSAN_ACCESS_WRITE, IP());			\
}										\
void __tsan_unaligned_read_write##size(void *ptr);				\
void __tsan_unaligned_read_write##size(void *ptr)				\
{										\
	check_access(ptr, size, KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND, IP()); \
}										\
void __tsan_volatile_read##size(void *ptr);					\
void __tsan_volatile_read##size(void *ptr)					\
{										\
	check_access(ptr, size, volatile_type(ptr, size), IP());		\
}										\
void __tsan_volatile_write##size(void *ptr);					\
void __tsan_volatile_write##size(void *ptr)					\
{										\
	check_access(ptr, size, KCSAN_ACCESS_WRITE | volatile_type(ptr, size), IP()); \
}										\
void __tsan_unaligned_volatile_read##size(void *ptr);				\
void __tsan_unaligned_volatile_read##size(void *ptr)				\
{										\
	check_access(ptr, size, volatile_type(ptr, size), IP());		\
}										\
void __tsan_unaligned_volatile_write##size(void *ptr);				\
void __tsan_unaligned_volatile_write##size(void *ptr)				\
{										\
	check_access(ptr, size, KCSAN_ACCESS_WRITE | volatile_type(ptr, size), IP()); \
}

DEFINE_TSAN_ACCESS(1)
DEFINE_TSAN_ACCESS(2)
DEFINE_TSAN_ACCESS(4)
DEFINE_TSAN_ACCESS(8)
DEFINE_TSAN_ACCESS(16)

/* A range (a struct copy) is checked in pieces a watchpoint can encode. */
static __noinline void check_range(unsigned long ptr, unsigned long size, int type,
				   unsigned long ip)
{
	while (size) {
		size_t n = min(size, (unsigned long)MAX_ENCODABLE_SIZE);

		check_access((const volatile void *)ptr, n, type, ip);
		ptr += n;
		size -= n;
	}
}

void __tsan_read_range(void *ptr, unsigned long size);
void __tsan_read_range(void *ptr, unsigned long size)
{
	check_range((unsigned long)ptr, size, 0, IP());
}

void __tsan_write_range(void *ptr, unsigned long size);
void __tsan_write_range(void *ptr, unsigned long size)
{
	check_range((unsigned long)ptr, size, KCSAN_ACCESS_WRITE, IP());
}

/* Off by the Makefile's tsan-instrument-func-entry-exit=0; kept for a compiler that ignores it. */
void __tsan_func_entry(void *call_pc);
void __tsan_func_entry(void *call_pc)
{
	(void)call_pc;
}

void __tsan_func_exit(void);
void __tsan_func_exit(void)
{
}

/* Every instrumented file's constructor calls it; there is nothing to set up per file. */
void __tsan_init(void);
void __tsan_init(void)
{
}

/*
 * The __atomic builtins, which the instrumentation turns into calls: each
 * is a marked access (it finds a plain watcher's watchpoint) and then the
 * operation itself, done here by the builtin (this file is not
 * instrumented, so it is the instruction).  Memory orders: sequentially
 * consistent whatever was asked, stronger and always allowed.
 */
#define ATOMIC_CHECK(ptr, size, write)						\
	check_access(ptr, size, KCSAN_ACCESS_ATOMIC | ((write) ? KCSAN_ACCESS_WRITE : 0), IP())

#define DEFINE_TSAN_ATOMIC_RMW(op, builtin, bits)				\
u##bits __tsan_atomic##bits##_##op(volatile u##bits *ptr, u##bits v, int mo);	\
u##bits __tsan_atomic##bits##_##op(volatile u##bits *ptr, u##bits v, int mo)	\
{										\
	(void)mo;								\
	ATOMIC_CHECK(ptr, bits / 8, true);					\
	return builtin(ptr, v, __ATOMIC_SEQ_CST);				\
}

#define DEFINE_TSAN_ATOMIC(bits)						\
u##bits __tsan_atomic##bits##_load(const volatile u##bits *ptr, int mo);	\
u##bits __tsan_atomic##bits##_load(const volatile u##bits *ptr, int mo)	\
{										\
	(void)mo;								\
	ATOMIC_CHECK(ptr, bits / 8, false);					\
	return __atomic_load_n(ptr, __ATOMIC_SEQ_CST);				\
}										\
void __tsan_atomic##bits##_store(volatile u##bits *ptr, u##bits v, int mo);	\
void __tsan_atomic##bits##_store(volatile u##bits *ptr, u##bits v, int mo)	\
{										\
	(void)mo;								\
	ATOMIC_CHECK(ptr, bits / 8, true);					\
	__atomic_store_n(ptr, v, __ATOMIC_SEQ_CST);				\
}										\
DEFINE_TSAN_ATOMIC_RMW(exchange, __atomic_exchange_n, bits)						\
DEFINE_TSAN_ATOMIC_RMW(fetch_add, __atomic_fetch_add, bits)						\
DEFINE_TSAN_ATOMIC_RMW(fetch_sub, __atomic_fetch_sub, bits)						\
DEFINE_TSAN_ATOMIC_RMW(fetch_and, __atomic_fetch_and, bits)						\
DEFINE_TSAN_ATOMIC_RMW(fetch_or, __atomic_fetch_or, bits)						\
DEFINE_TSAN_ATOMIC_RMW(fetch_xor, __atomic_fetch_xor, bits)						\
DEFINE_TSAN_ATOMIC_RMW(fetch_nand, __atomic_fetch_nand, bits)					\
int __tsan_atomic##bits##_compare_exchange_strong(volatile u##bits *ptr, u##bits *exp, \
						 u##bits v, int mo, int fail_mo); \
int __tsan_atomic##bits##_compare_exchange_strong(volatile u##bits *ptr, u##bits *exp, \
						 u##bits v, int mo, int fail_mo) \
{										\
	(void)mo;								\
	(void)fail_mo;								\
	ATOMIC_CHECK(ptr, bits / 8, true);					\
	return __atomic_compare_exchange_n(ptr, exp, v, false, __ATOMIC_SEQ_CST, \
					   __ATOMIC_SEQ_CST);			\
}										\
int __tsan_atomic##bits##_compare_exchange_weak(volatile u##bits *ptr, u##bits *exp, \
					       u##bits v, int mo, int fail_mo);	\
int __tsan_atomic##bits##_compare_exchange_weak(volatile u##bits *ptr, u##bits *exp, \
					       u##bits v, int mo, int fail_mo)	\
{										\
	(void)mo;								\
	(void)fail_mo;								\
	ATOMIC_CHECK(ptr, bits / 8, true);					\
	return __atomic_compare_exchange_n(ptr, exp, v, true, __ATOMIC_SEQ_CST,	\
					   __ATOMIC_SEQ_CST);			\
}										\
u##bits __tsan_atomic##bits##_compare_exchange_val(volatile u##bits *ptr, u##bits exp, \
						  u##bits v, int mo, int fail_mo); \
u##bits __tsan_atomic##bits##_compare_exchange_val(volatile u##bits *ptr, u##bits exp, \
						  u##bits v, int mo, int fail_mo) \
{										\
	(void)mo;								\
	(void)fail_mo;								\
	ATOMIC_CHECK(ptr, bits / 8, true);					\
	__atomic_compare_exchange_n(ptr, &exp, v, false, __ATOMIC_SEQ_CST,	\
				    __ATOMIC_SEQ_CST);				\
	return exp;								\
}

DEFINE_TSAN_ATOMIC(8)
DEFINE_TSAN_ATOMIC(16)
DEFINE_TSAN_ATOMIC(32)
DEFINE_TSAN_ATOMIC(64)

/*
 * 128 bits: the compilers emit these only for -mcx16 code, which this
 * kernel is not, but they are there for completeness: cmpxchg16b, with
 * every other operation a loop around it.
 */
typedef unsigned __int128 u128;

static __always_inline bool cmpxchg16b(volatile u128 *ptr, u128 *exp, u128 v)
{
	u64 lo = (u64)*exp, hi = (u64)(*exp >> 64);
	bool ok;

	__asm__ __volatile__("lock cmpxchg16b %1\n\tsete %0"
			     : "=q"(ok), "+m"(*ptr), "+a"(lo), "+d"(hi)
			     : "b"((u64)v), "c"((u64)(v >> 64))
			     : "memory", "cc");
	*exp = ((u128)hi << 64) | lo;
	return ok;
}

#define DEFINE_TSAN_ATOMIC128_RMW(op, expr)					\
u128 __tsan_atomic128_##op(volatile u128 *ptr, u128 v, int mo);			\
u128 __tsan_atomic128_##op(volatile u128 *ptr, u128 v, int mo)			\
{										\
	u128 old = 0;								\
										\
	(void)mo;								\
	ATOMIC_CHECK(ptr, 16, true);						\
	while (!cmpxchg16b(ptr, &old, (expr)))					\
		;								\
	return old;								\
}

u128 __tsan_atomic128_load(const volatile u128 *ptr, int mo);
u128 __tsan_atomic128_load(const volatile u128 *ptr, int mo)
{
	u128 old = 0;

	(void)mo;
	ATOMIC_CHECK(ptr, 16, false);
	cmpxchg16b((volatile u128 *)ptr, &old, 0);	/* stores 0 only over a 0 */
	return old;
}

void __tsan_atomic128_store(volatile u128 *ptr, u128 v, int mo);
void __tsan_atomic128_store(volatile u128 *ptr, u128 v, int mo)
{
	u128 old = 0;

	(void)mo;
	ATOMIC_CHECK(ptr, 16, true);
	while (!cmpxchg16b(ptr, &old, v))
		;
}

DEFINE_TSAN_ATOMIC128_RMW(exchange, v)
DEFINE_TSAN_ATOMIC128_RMW(fetch_add, old + v)
DEFINE_TSAN_ATOMIC128_RMW(fetch_sub, old - v)
DEFINE_TSAN_ATOMIC128_RMW(fetch_and, old & v)
DEFINE_TSAN_ATOMIC128_RMW(fetch_or, old | v)
DEFINE_TSAN_ATOMIC128_RMW(fetch_xor, old ^ v)
DEFINE_TSAN_ATOMIC128_RMW(fetch_nand, ~(old & v))

int __tsan_atomic128_compare_exchange_strong(volatile u128 *ptr, u128 *exp, u128 v, int mo,
					     int fail_mo);
int __tsan_atomic128_compare_exchange_strong(volatile u128 *ptr, u128 *exp, u128 v, int mo,
					     int fail_mo)
{
	(void)mo;
	(void)fail_mo;
	ATOMIC_CHECK(ptr, 16, true);
	return cmpxchg16b(ptr, exp, v);
}

int __tsan_atomic128_compare_exchange_weak(volatile u128 *ptr, u128 *exp, u128 v, int mo,
					   int fail_mo);
int __tsan_atomic128_compare_exchange_weak(volatile u128 *ptr, u128 *exp, u128 v, int mo,
					   int fail_mo)
{
	(void)mo;
	(void)fail_mo;
	ATOMIC_CHECK(ptr, 16, true);
	return cmpxchg16b(ptr, exp, v);
}

u128 __tsan_atomic128_compare_exchange_val(volatile u128 *ptr, u128 exp, u128 v, int mo,
					   int fail_mo);
u128 __tsan_atomic128_compare_exchange_val(volatile u128 *ptr, u128 exp, u128 v, int mo,
					   int fail_mo)
{
	(void)mo;
	(void)fail_mo;
	ATOMIC_CHECK(ptr, 16, true);
	cmpxchg16b(ptr, &exp, v);
	return exp;
}

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------ the rest */

/**
 * kcsan_disable_current - this CPU's accesses, in this context, are not checked
 *
 * Nests; data_race() (lib/compiler.h) wraps its expression in it and
 * kcsan_enable_current().  Context: any.
 */
void kcsan_disable_current(void)
{
	get_ctx()->disable_count++;
}

/** kcsan_enable_current - undo one kcsan_disable_current(). Context: any. */
void kcsan_enable_current(void)
{
	get_ctx()->disable_count--;
}

/**
 * __kcsan_check_access - check an access the compiler did not see
 * @ptr: where
 * @size: how many bytes
 * @type: KCSAN_ACCESS_* (ASSERT_EXCLUSIVE_*() pass KCSAN_ACCESS_ASSERT)
 *
 * Context: any.
 */
void __kcsan_check_access(const volatile void *ptr, size_t size, int type)
{
	check_access(ptr, size, type, IP());
}

/** kcsan_reports - the reports printed since boot. Context: any. */
unsigned long kcsan_reports(void)
{
	return __atomic_load_n(&nr_reports, __ATOMIC_RELAXED);
}

/**
 * kcsan_init - start watching
 *
 * Reads kcsan.skip_watch=, kcsan.udelay_task= and kcsan.udelay_interrupt=
 * from the command line (Linux's parameter names).  Context: boot CPU,
 * once, after smp_init() (udelay() needs the calibrated TSC).
 */
void kcsan_init(void)
{
	kcsan_skip_watch = cmdline_get_ulong("kcsan.skip_watch", kcsan_skip_watch) ?: 1;
	kcsan_udelay_task = cmdline_get_ulong("kcsan.udelay_task", kcsan_udelay_task);
	kcsan_udelay_interrupt = cmdline_get_ulong("kcsan.udelay_interrupt",
						   kcsan_udelay_interrupt);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		u64 seed = rdtsc_ordered() ^ (0x9e3779b97f4a7c15ULL * (cpu + 1));

		if (!per_cpu_offset(cpu) && cpu)
			continue;
		per_cpu(kcsan_rand, cpu) = seed ?: 1;
		per_cpu(kcsan_task_ctx, cpu).skip = 1 + (long)(seed % kcsan_skip_watch);
		per_cpu(kcsan_irq_ctx, cpu).skip = 1 + (long)((seed >> 20) % kcsan_skip_watch);
	}
	__atomic_store_n(&kcsan_enabled, true, __ATOMIC_RELEASE);
	pr_info("kcsan: enabled (skip_watch=%lu, udelay_task=%luus, "
		"udelay_interrupt=%luus)\n", kcsan_skip_watch, kcsan_udelay_task,
		kcsan_udelay_interrupt);
}
#endif /* CONFIG_KCSAN */
