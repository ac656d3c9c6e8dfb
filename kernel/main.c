/*
 * kernel/main.c - kmain(): bring the subsystems up, in order, then run.
 *
 * This is one of the two places allowed to know every subsystem (the other
 * is the tests).  The order matters and is the story of the boot: console
 * first so anything can be reported, then the CPU's tables so faults are
 * reported, then what GRUB told us, then the firmware tables.  What the
 * kernel does afterwards is chosen on the command line: "kunit" runs the
 * in-kernel tests, "bench" the benchmarks, "torture" the allocator torture
 * test (make torture), "replay" replays the allocation traces GRUB brought
 * as modules (make replay), and otherwise the monitor starts.
 */
#include "kernel/ansi.h"
#include "kernel/cmdline.h"
#include "kernel/lockdep.h"
#include "kernel/kallsyms.h"
#include "kernel/monitor.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "mm/fault_inject.h"
#include "mm/memblock.h"
#include "mm/memmap_screen.h"
#include "mm/mmzone.h"
#include "mm/page_alloc.h"
#include "mm/slab_internal.h"
#include "mm/kvmalloc.h"
#include "mm/vmalloc.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/kasan.h"
#include "kernel/kcsan.h"
#include "arch/x86_64/multiboot2.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/power.h"
#include "arch/x86_64/serial.h"
#include "arch/x86_64/slit.h"
#include "arch/x86_64/srat.h"
#include "lib/vsprintf.h"
#include "kunit/test.h"
#include "bench/bench.h"
#include "torture/torture.h"
#include "replay/replay.h"

void kmain(u32 magic, u32 info);

/* What smp_init() builds the other CPUs' stacks from. */
static void *alloc_ap_pages(unsigned int order)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);

	return page ? page_address(page) : NULL;
}

static void free_ap_pages(void *addr, unsigned int order)
{
	free_pages((unsigned long)addr, order);
}

static void numa_memory_range(u64 start, u64 end, int nid)
{
	memblock_set_node(start, end - start, nid);
}

/*
 * Each CPU's node, from the SRAT's APIC entries (all node 0 without an
 * SRAT): for every possible CPU before any of them allocates, once the
 * zonelists say which node with memory is nearest to each node.
 */
static void numa_cpus_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		set_cpu_numa_node(cpu, srat_apic_to_node(cpu_apic_id(cpu)));
}

extern const char _end[];

/*
 * Tell memblock what RAM there is (whole pages of the "usable" ranges) and
 * what of it is taken: the first MiB (BIOS data, and where the APs' start-up
 * code goes), the kernel image with its bss, and GRUB's modules.  GRUB's
 * boot information was copied into boot_info and is not needed any more.
 */
static void memblock_setup(void)
{
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		phys_addr_t start = ALIGN(e->base, PAGE_SIZE);
		phys_addr_t end = ALIGN_DOWN(e->base + e->length, PAGE_SIZE);

		if (e->type == MEMORY_AVAILABLE && end > start)
			memblock_add(start, end - start);
	}
	/* Where the firmware's entries overlap, what is not usable wins (as Linux's e820). */
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];

		if (e->type != MEMORY_AVAILABLE)
			memblock_remove(ALIGN_DOWN(e->base, PAGE_SIZE),
					ALIGN(e->base + e->length, PAGE_SIZE) -
					ALIGN_DOWN(e->base, PAGE_SIZE));
	}
	memblock_reserve(0, 0x100000);
	memblock_reserve(LOAD_PHYS, __pa(_end) - LOAD_PHYS);
	for (unsigned int i = 0; i < boot_info.nr_modules; i++)
		memblock_reserve(boot_info.modules[i].start,
				 boot_info.modules[i].end - boot_info.modules[i].start);
}

/*
 * slab_debug= (or Linux's slub_debug=), before the first cache is made.
 * Without it no cache is checked (CONFIG_SLUB_DEBUG_ON); a bare slab_debug
 * checks every cache, as Linux's slub_debug does.
 */
static void slab_debug_setup(void)
{
	char value[96];
	const char *what = "as asked for the caches made from here";

	if (!cmdline_get("slab_debug", value, sizeof(value)) &&
	    !cmdline_get("slub_debug", value, sizeof(value)))
		return;
	slab_debug_parse(value);
	if (!strcmp(value, "-"))
		what = "off for every cache";
	else if (!value[0])
		what = "on for every cache (F, Z, P, U)";
	pr_info("slab_debug=%s: slab debugging %s\n", value, what);
}

/* kvmalloc_policy=noretry|nodirect|naive: how kvmalloc() asks the slab (mm/kvmalloc.h). */
static void kvmalloc_policy_setup(void)
{
	char value[16];
	int policy;

	if (!cmdline_get("kvmalloc_policy", value, sizeof(value)))
		return;
	policy = kvmalloc_policy_parse(value);
	if (policy < 0) {
		pr_err("kvmalloc_policy=%s: unknown (noretry, nodirect or naive); keeping noretry\n",
		       value);
		return;
	}
	kvmalloc_set_policy(policy);
	pr_info("kvmalloc_policy=%s: kvmalloc() asks the slab allocator %s\n", value,
		policy == KVMALLOC_NORETRY ? "with __GFP_NORETRY above a page (the default)" :
		policy == KVMALLOC_NODIRECT ? "without direct reclaim above a page (Linux 6.16)" :
		"with the caller's flags, then vmalloc() on NULL (the naive fallback)");
}

/*
 * fail_page_alloc=, failslab=, fail_vmalloc=: allocations that fail on
 * purpose (mm/fault_inject.c).  Armed last, once the kernel is up: the boot
 * itself is not something a test of error paths wants to fail.
 */
static void fault_inject_setup(void)
{
	struct fault_attr *const attrs[] = { &fail_page_alloc, &failslab, &fail_vmalloc };
	char value[256];

	for (unsigned int i = 0; i < ARRAY_SIZE(attrs); i++) {
		if (!cmdline_get(attrs[i]->name, value, sizeof(value)) ||
		    setup_fault_attr(attrs[i], value))
			continue;	/* absent, or refused in one line */
		pr_info("%s=%s: fault injection armed: interval %lu, probability %lu%%, "
			"space %ld, times %ld\n", attrs[i]->name, value, attrs[i]->interval,
			attrs[i]->probability, attrs[i]->space, attrs[i]->times);
	}
}

static void run_tests(void)
{
	char glob[128] = "*";

	cmdline_get("kunit.filter_glob", glob, sizeof(glob));
	kunit_run_all_tests(glob);
	if (CONFIG_LOCKDEP && cmdline_has("lockdep.dump"))
		lockdep_print_graph();	/* the lock order the suites showed (docs/smp.md) */
	qemu_exit(QEMU_EXIT_TESTS_DONE);
	machine_power_off();
}

static void run_benchmarks(void)
{
	char glob[128] = "*";

	cmdline_get("bench.filter_glob", glob, sizeof(glob));
	bench_run_all(glob);
	qemu_exit(QEMU_EXIT_BENCH_DONE);
	machine_power_off();
}

static void run_replay(void)
{
	bool clean = replay_main();

	qemu_exit(clean ? QEMU_EXIT_REPLAY_CLEAN : QEMU_EXIT_REPLAY_FAILED);
	machine_power_off();
}

static void run_torture(void)
{
	bool clean = torture_run();

	qemu_exit(clean ? QEMU_EXIT_TORTURE_CLEAN : QEMU_EXIT_TORTURE_FAILED);
	machine_power_off();
}

/**
 * kmain - the first C function, called by boot/entry.asm in long mode
 * @magic: multiboot2 magic from EAX
 * @info: physical address of GRUB's boot information, from EBX
 */
__no_sanitize_address void kmain(u32 magic, u32 info)
{
	unsigned long loglevel;

	x86_configure_nx();	/* before any page-table entry is made */
	kasan_early_init();	/* a KASAN kernel's early shadow, before any stack redzone */
	percpu_init_boot_cpu();
	serial_init();
	vsprintf_set_symbol_formatter(sprint_symbol);
	gdt_init_cpu(0, NULL);
	idt_init();
	idt_load();
	pic_disable();

	pr_info("kmem: a kernel about memory allocation, booting on x86-64\n");
	if (multiboot2_parse(magic, info))
		panic("not started by a multiboot2 boot loader");
	zap_boot_identity_map();
	cmdline_init(boot_info.cmdline);
	pr_info("Command line: %s\n", boot_info.cmdline);
	/* Each option that takes effect says so on a line of its own, still at full volume. */
	loglevel = cmdline_get_ulong("loglevel", 6);
	if (cmdline_has("kunit") && loglevel < 4) {
		/* The results are plain printk()s, level 4: the runner must see them. */
		pr_warn("loglevel=%lu: 4 while the tests run (their results are printed at "
			"level 4 for the runner to read)\n", loglevel);
		loglevel = 4;
	}
	if (cmdline_has("loglevel"))
		pr_info("loglevel=%lu: the console shows levels 0..%lu from here on; "
			"dmesg keeps all\n", loglevel, loglevel);
	console_set_level(loglevel);
	ansi_color_init(cmdline_get_bool("color", true));
	if (!ansi_color_enabled())
		pr_info("color=off: the monitor prints no colour; its pictures are plain text\n");
	memblock_setup();
	acpi_init();
	srat_parse(numa_memory_range);
	slit_parse(numa_set_distance);
	prefill_possible_map();
	mm_init();
	lockdep_init();		/* "lockdep": validate every lock from here on */
	numa_cpus_init();
	set_page_poisoning(cmdline_get_bool("page_poison", false));
	if (page_poisoning_enabled())
		pr_info("page_poison=1: freed pages are filled with 0xaa and checked "
			"when reused\n");
	slab_debug_setup();
	kmem_cache_init();
	vmalloc_init();
	kvmalloc_policy_setup();
	smp_set_page_allocator(alloc_ap_pages, free_ap_pages);
	smp_init();
	kcsan_init();	/* a KCSAN kernel watches from here (udelay() needs smp_init()'s TSC) */
	update_cpu_node_states();	/* N_CPU: the nodes of the CPUs that came online */
	fault_inject_setup();

	if (cmdline_has("kunit"))
		run_tests();
	if (cmdline_has("bench"))
		run_benchmarks();
	if (cmdline_has("torture"))
		run_torture();
	if (cmdline_has("replay"))
		run_replay();
	memmap_screen_init();
	monitor_run();
}
