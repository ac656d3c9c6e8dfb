/*
 * tests/kernel/kcsan_test.c - KCSAN finds a data race it is shown, and
 * keeps quiet about the same accesses marked (kernel/kcsan.c).
 *
 * Each case races two CPUs on one variable: this CPU reads it in a loop,
 * another writes it in a loop (a cross-CPU call, so "by interrupt" in the
 * report), until a report comes or the time is up.  Plain against plain is
 * a data race and must be reported within RACE_NS, naming both functions,
 * both accesses and both stacks; data_race() on both sides, or READ_ONCE()
 * against WRITE_ONCE(), must not be, for as long; ASSERT_EXCLUSIVE_WRITER()
 * against a WRITE_ONCE() (marked, but a writer all the same) must be.  An
 * uninstrumented store (inline asm) is "race at unknown origin".
 *
 * The accesses are each in a function of their own, so that the report's
 * names are these.  Skipped unless the kernel is built with KCSAN=1, and on
 * one CPU.
 */
#include "kunit/test.h"
#include "test_log.h"
#include "kernel/kcsan.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"

#define RACE_NS		(10ULL * 1000 * 1000 * 1000)	/* the bound on finding a race */
#define QUIET_NS	(1ULL * 1000 * 1000 * 1000)	/* how long a marked race must stay quiet */

enum race_kind { PLAIN, DATA_RACE, ONCE, ASSERT_WRITER, UNKNOWN_ORIGIN };

static long racy_var;		/* what the two CPUs race on */
static volatile long racy_sink;	/* what the reader read (volatile: kept, and not a race) */
static enum race_kind kind;
static unsigned long writer_stop, writer_running, writer_done;

static __noinline void test_kernel_write(long v)
{
	racy_var = v;
}

static __noinline void test_kernel_read(void)
{
	racy_sink = racy_var;
}

static __noinline void test_kernel_data_race_write(long v)
{
	data_race(racy_var = v);	/* the race is the test */
}

static __noinline void test_kernel_data_race_read(void)
{
	racy_sink = data_race(racy_var);	/* the race is the test */
}

static __noinline void test_kernel_write_once(long v)
{
	WRITE_ONCE(racy_var, v);
}

static __noinline void test_kernel_read_once(void)
{
	racy_sink = READ_ONCE(racy_var);
}

static __noinline void test_kernel_assert_writer(void)
{
	ASSERT_EXCLUSIVE_WRITER(racy_var);
}

/* A store the compiler cannot see: only the value's change gives it away. */
static __noinline void test_kernel_write_uninstrumented(long v)
{
	__asm__ __volatile__("movq %1, %0" : "=m"(racy_var) : "r"(v));
}

/* The other CPU, in a cross-CPU call: write until told to stop, or for RACE_NS at most. */
static void writer(void *unused)
{
	u64 end = ktime_get_ns() + RACE_NS + QUIET_NS;
	long v = 0;

	__atomic_store_n(&writer_running, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&writer_stop, __ATOMIC_ACQUIRE) && ktime_get_ns() < end) {
		v++;
		switch (kind) {
		case PLAIN:
			test_kernel_write(v);
			break;
		case DATA_RACE:
			test_kernel_data_race_write(v);
			break;
		case ONCE:
		case ASSERT_WRITER:
			test_kernel_write_once(v);
			break;
		case UNKNOWN_ORIGIN:
			test_kernel_write_uninstrumented(v);
			break;
		}
	}
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
}

static __noinline void reader_once(void)
{
	switch (kind) {
	case PLAIN:
	case UNKNOWN_ORIGIN:
		test_kernel_read();
		break;
	case DATA_RACE:
		test_kernel_data_race_read();
		break;
	case ONCE:
		test_kernel_read_once();
		break;
	case ASSERT_WRITER:
		test_kernel_assert_writer();
		break;
	}
}

/*
 * Race @k for up to @ns (until a report, when @want_report); returns the
 * reports that came and, in @cpu_out, the writer's CPU.
 */
static unsigned long race(struct kunit *test, enum race_kind k, u64 ns, bool want_report,
			  unsigned int *cpu_out)
{
	unsigned long before = kcsan_reports();
	unsigned int cpu, other = NR_CPUS;
	u64 start, end;

	if (!CONFIG_KCSAN)
		kunit_skip(test, "not a KCSAN kernel (make KCSAN=1)");
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id() && other == NR_CPUS)
			other = cpu;
	if (other == NR_CPUS)
		kunit_skip(test, "needs a second CPU");
	kind = k;
	writer_stop = writer_running = writer_done = 0;
	KUNIT_ASSERT_EQ(test, smp_call_function_single(other, writer, NULL, 0), 0);
	start = ktime_get_ns();
	while (!__atomic_load_n(&writer_running, __ATOMIC_ACQUIRE) &&
	       ktime_get_ns() - start < RACE_NS)
		cpu_relax();
	KUNIT_EXPECT_TRUE_MSG(test, writer_running, "CPU%u did not start writing", other);
	start = ktime_get_ns();
	end = start + ns;
	while (ktime_get_ns() < end && !(want_report && kcsan_reports() != before))
		reader_once();
	__atomic_store_n(&writer_stop, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE))
		cpu_relax();
	kunit_info(test, "%s after %llu ms\n",
		   kcsan_reports() != before ? "reported" : "no report",
		   (unsigned long long)((ktime_get_ns() - start) / 1000000));
	*cpu_out = other;
	return kcsan_reports() - before;
}

/* The function names in a report's stack, in order: @first's line before @second's. */
static void expect_lines(struct kunit *test, const char *log, const char *first,
			 const char *second)
{
	const char *a = strstr(log, first), *b = a ? strstr(a, second) : NULL;

	KUNIT_EXPECT_NOT_NULL_MSG(test, a, "want '%s'", first);
	KUNIT_EXPECT_NOT_NULL_MSG(test, b, "want '%s' after '%s'", second, first);
}

static void plain_race_is_reported(struct kunit *test)
{
	unsigned long pos = printk_log_pos();
	char write[96], read[96];
	const char *log;
	unsigned int cpu;

	kunit_expect_report(test, "BUG: KCSAN: data-race in test_kernel_read / test_kernel_write");
	KUNIT_EXPECT_GE(test, race(test, PLAIN, RACE_NS, true, &cpu), 1);
	log = log_since(pos);
	snprintf(write, sizeof(write), "write to 0x%016lx of 8 bytes by interrupt on cpu %u:\n"
		 " test_kernel_write+", (unsigned long)&racy_var, cpu);
	snprintf(read, sizeof(read), "read to 0x%016lx of 8 bytes by task on cpu %u:\n"
		 " test_kernel_read+", (unsigned long)&racy_var, smp_processor_id());
	expect_lines(test, log, "BUG: KCSAN: data-race in test_kernel_read / test_kernel_write",
		     write);
	expect_lines(test, log, write, read);
	expect_lines(test, log, read, "Reported by Kernel Concurrency Sanitizer on:");
	expect_lines(test, log, " test_kernel_write+", " writer+");
	expect_lines(test, log, " test_kernel_read+", " reader_once+");
}

static void data_race_is_not_reported(struct kunit *test)
{
	unsigned int cpu;

	KUNIT_EXPECT_EQ(test, race(test, DATA_RACE, QUIET_NS, false, &cpu), 0);
}

static void read_once_write_once_is_not_reported(struct kunit *test)
{
	unsigned int cpu;

	KUNIT_EXPECT_EQ(test, race(test, ONCE, QUIET_NS, false, &cpu), 0);
}

static void assert_exclusive_writer_catches_a_writer(struct kunit *test)
{
	unsigned long pos = printk_log_pos();
	unsigned int cpu;
	const char *log;

	kunit_expect_report(test, "BUG: KCSAN: assert: race in test_kernel_assert_writer / "
			    "test_kernel_write_once");
	KUNIT_EXPECT_GE(test, race(test, ASSERT_WRITER, RACE_NS, true, &cpu), 1);
	log = log_since(pos);
	expect_lines(test, log, "write (marked) to ", " test_kernel_write_once+");
	expect_lines(test, log, "assert no writes to ", " test_kernel_assert_writer+");
}

static void uninstrumented_write_is_unknown_origin(struct kunit *test)
{
	unsigned long pos = printk_log_pos();
	unsigned int cpu;
	const char *log;

	kunit_expect_report(test, "BUG: KCSAN: data-race in test_kernel_read+");
	KUNIT_EXPECT_GE(test, race(test, UNKNOWN_ORIGIN, RACE_NS, true, &cpu), 1);
	log = log_since(pos);
	expect_lines(test, log, "race at unknown origin, with read to ", " test_kernel_read+");
	expect_lines(test, log, " test_kernel_read+", "value changed: 0x");
}

static struct kunit_case kcsan_cases[] = {
	KUNIT_CASE(plain_race_is_reported),
	KUNIT_CASE(data_race_is_not_reported),
	KUNIT_CASE(read_once_write_once_is_not_reported),
	KUNIT_CASE(assert_exclusive_writer_catches_a_writer),
	KUNIT_CASE(uninstrumented_write_is_unknown_origin),
	{}
};

static struct kunit_suite kcsan_suite = {
	.name = "kcsan",
	.test_cases = kcsan_cases,
	.strict = true,
};
kunit_test_suite(kcsan_suite);
