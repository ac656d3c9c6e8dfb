/*
 * tests/kernel/boot_test.c - what boot must have established before any
 * allocator runs: GRUB's information parsed, the kernel where the linker
 * put it, the firmware tables found and checked, and the boot lines a
 * reader of Linux's boot log looks for.
 */
#include "kunit/test.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "mm/page_alloc.h"
#include "mm/memblock.h"
#include "mm/mmzone.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/multiboot2.h"
#include "arch/x86_64/page.h"
#include "arch/x86_64/pgtable.h"
#include "lib/string.h"
#include "lib/vsprintf.h"
#include "test_log.h"

extern const char _text[], _etext[], _rodata[], _data[], _end[];

static void memory_map_has_ram(struct kunit *test)
{
	const struct boot_mmap_entry *e = boot_info.mmap;
	bool image_in_ram = false;
	u64 usable = 0;

	KUNIT_ASSERT_GT(test, boot_info.nr_mmap, 0);
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		if (e[i].type != MEMORY_AVAILABLE)
			continue;
		usable += e[i].length;
		if (e[i].base <= __pa(_text) && __pa(_end) <= e[i].base + e[i].length)
			image_in_ram = true;
	}
	/*
	 * GRUB put the kernel in RAM the map calls usable, and there is RAM
	 * besides it (a machine of 6 MiB boots: no fixed size is "enough");
	 * memblock got all of it but partial pages.
	 */
	KUNIT_EXPECT_TRUE(test, image_in_ram);
	KUNIT_EXPECT_GT(test, usable, __pa(_end));
	KUNIT_EXPECT_LE(test, memblock_phys_mem_size(), usable);
	KUNIT_EXPECT_GE(test, memblock_phys_mem_size(), usable - boot_info.nr_mmap * 2 * PAGE_SIZE);
}

static void kernel_is_loaded_above_1mib(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, __pa(_text), 0x100000UL);
	KUNIT_EXPECT_EQ(test, (unsigned long)_text & ~PAGE_MASK, 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)_rodata & ~PAGE_MASK, 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)_data & ~PAGE_MASK, 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)_text >> 31, KERNEL_VMA >> 31);
}

static void command_line_reaches_the_kernel(struct kunit *test)
{
	char glob[64];

	KUNIT_EXPECT_TRUE(test, cmdline_has("kunit"));
	KUNIT_EXPECT_TRUE(test, cmdline_get("kunit.filter_glob", glob, sizeof(glob)));
	KUNIT_EXPECT_FALSE(test, cmdline_has("kuni"));
}

static char saved_cmdline[512];

static void restore_cmdline(void *unused)
{
	cmdline_init(saved_cmdline);
}

/*
 * Values are read strictly, as Linux's kstrto*() read them: a switch takes
 * 1/0, y/n, on/off (a bare word is on), a number takes a whole number, and
 * anything else is reported on one line and leaves the default.  The case
 * parses lines of its own, then puts the real one back.
 */
static void command_line_values_are_read_strictly(struct kunit *test)
{
	unsigned long pos;

	strscpy(saved_cmdline, cmdline_raw(), sizeof(saved_cmdline));
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, restore_cmdline, NULL), 0);
	cmdline_init("a=on b=OFF c=1 d=no e f=maybe g=0x10 h=12ab i=");
	KUNIT_EXPECT_TRUE(test, cmdline_get_bool("a", false));
	KUNIT_EXPECT_FALSE(test, cmdline_get_bool("b", true));
	KUNIT_EXPECT_TRUE(test, cmdline_get_bool("c", false));
	KUNIT_EXPECT_FALSE(test, cmdline_get_bool("d", true));
	KUNIT_EXPECT_TRUE(test, cmdline_get_bool("e", false));
	KUNIT_EXPECT_TRUE(test, cmdline_get_bool("absent", true));
	KUNIT_EXPECT_EQ(test, cmdline_get_ulong("g", 7), 16);
	KUNIT_EXPECT_EQ(test, cmdline_get_ulong("i", 7), 7);
	pos = printk_log_pos();
	KUNIT_EXPECT_FALSE(test, cmdline_get_bool("f", false));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos),
		"Command line: f=maybe is neither on nor off (1/0, y/n, on/off); ignored\n"));
	pos = printk_log_pos();
	KUNIT_EXPECT_EQ(test, cmdline_get_ulong("h", 7), 7);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos),
		"Command line: h=12ab is not a number; ignored\n"));
}

/*
 * Everything printed since boot, if the log still holds it (the boot suite
 * runs first); else the case skips.  The buffer is the case's, freed when it
 * ends, not static: the kernel must still boot on a machine of 6 MiB, where
 * GRUB must find room for all of the .bss.
 */
static const char *boot_log(struct kunit *test)
{
	const size_t size = 60 * 1024;
	char *log;

	if (printk_log_pos() >= size)
		kunit_skip(test, "the boot messages have left the log");
	log = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, log);
	printk_log_read(0, log, size);
	return log;
}

/* kmain confirms each option that took effect on a boot line of its own. */
static void command_line_options_are_confirmed(struct kunit *test)
{
	const char *log = boot_log(test);

	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "\nCommand line: kunit "));
	if (page_poisoning_enabled())
		KUNIT_EXPECT_NOT_NULL(test, strstr(log, "\npage_poison=1: freed pages are filled"));
	else
		KUNIT_EXPECT_NULL(test, strstr(log, "page_poison=1:"));
	KUNIT_EXPECT_EQ(test, cmdline_has("loglevel"), strstr(log, "\nloglevel=") != NULL);
}

/*
 * With several nodes, boot printed each node's fallback order once, as
 * Linux does: the node, then the other nodes of its zonelist.  A node
 * with CPUs only, numbered above every node with memory, becomes known
 * only with its CPUs (set_cpu_numa_node()), after the zonelists: it too.
 */
static void fallback_orders_are_on_boot_lines(struct kunit *test)
{
	const char *log;
	int nid;

	if (nr_node_ids < 2)
		kunit_skip(test, "one node: Linux prints no fallback order");
	log = boot_log(test);
	for_each_node(nid) {
		const struct zoneref *z = NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
		char line[128];
		int len = snprintf(line, sizeof(line), "\nFallback order for Node %d: %d", nid, nid);
		int last = nid;

		for (; z->zone; z++) {
			if (z->zone->node != last && z->zone->node != nid)
				len += snprintf(line + len, sizeof(line) - len, " %d", z->zone->node);
			last = z->zone->node;
		}
		snprintf(line + len, sizeof(line) - len, "\n");
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, line), 1, "%s", line + 1);
	}
}

static void acpi_tables_found(struct kunit *test)
{
	if (!boot_info.rsdp_len)
		kunit_skip(test, "the firmware has no ACPI (QEMU -no-acpi?)");
	KUNIT_EXPECT_EQ(test, boot_info.rsdp_len >= 20, true);
	/* OVMF under acpi=off still gives an RSDP, listing only its own BGRT */
	if (!acpi_find_table("FACP") && !acpi_find_table("APIC"))
		kunit_skip(test, "the firmware's ACPI has no FADT and no MADT "
			   "(QEMU acpi=off under UEFI?)");
	KUNIT_EXPECT_NOT_NULL(test, acpi_find_table("FACP"));
	KUNIT_EXPECT_NOT_NULL(test, acpi_find_table("APIC"));
	KUNIT_EXPECT_NULL(test, acpi_find_table("NONE"));
}

/*
 * QEMU's local APIC timer counts a 1 GHz bus, /16 here: 62.5 MHz of the
 * same virtual clock as its PIT, whatever the host's load.  A measurement
 * far from it means time_init() read the PIT wrong, as it did on
 * -machine microvm, which has no port 0x61: 0.027 MHz, and a tick and
 * udelay() a thousand times too fast.
 */
static void timer_measured_against_the_pit(struct kunit *test)
{
	KUNIT_EXPECT_GT_MSG(test, lapic_timer_ticks_per_ms, 50000U,
			    "APIC timer measured at %u kHz, not QEMU's 62500", lapic_timer_ticks_per_ms);
	KUNIT_EXPECT_LT_MSG(test, lapic_timer_ticks_per_ms, 75000U,
			    "APIC timer measured at %u kHz, not QEMU's 62500", lapic_timer_ticks_per_ms);
}

/* Does CPUID say this CPU has NX?  (QEMU's -cpu qemu64,-nx says no.) */
static bool cpu_has_nx(void)
{
	u32 a, b, c, d;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	return d & (1U << 20);
}

/* NX is on exactly when the CPU has it; an entry may carry NX exactly then. */
static void long_mode_with_nx(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, read_cr0() & X86_CR0_PG);
	KUNIT_EXPECT_TRUE(test, read_cr0() & X86_CR0_WP);
	KUNIT_EXPECT_TRUE(test, read_cr4() & X86_CR4_PAE);
	KUNIT_EXPECT_EQ(test, !!(rdmsr(MSR_EFER) & EFER_NXE), cpu_has_nx());
	KUNIT_EXPECT_EQ(test, !!(__supported_pte_mask & _PAGE_NX), cpu_has_nx());
}

/*
 * Writable xor executable: in the image's own mapping and in its direct-map
 * alias.  Without NX (a CPU that has none) only the writes are refused.
 */
static void kernel_image_is_w_xor_x(struct kunit *test)
{
	const void *text = (const void *)kernel_image_is_w_xor_x;
	const u64 nx = _PAGE_NX & __supported_pte_mask;
	static int data;
	unsigned int level;
	u64 *pte;

	pte = lookup_kernel_pte((unsigned long)text, &level);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_FALSE(test, *pte & _PAGE_RW);
	KUNIT_EXPECT_FALSE(test, *pte & _PAGE_NX);
	pte = lookup_kernel_pte((unsigned long)__va(__pa(text)), &level);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_FALSE_MSG(test, *pte & _PAGE_RW, "text is writable through the direct map");
	KUNIT_EXPECT_EQ(test, *pte & _PAGE_NX, nx);
	pte = lookup_kernel_pte((unsigned long)__va(__pa(_rodata)), &level);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_FALSE(test, *pte & _PAGE_RW);
	pte = lookup_kernel_pte((unsigned long)&data, &level);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_TRUE(test, *pte & _PAGE_RW);
	KUNIT_EXPECT_EQ(test, *pte & _PAGE_NX, nx);
	pte = lookup_kernel_pte((unsigned long)__va(__pa(&data)), &level);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_TRUE(test, *pte & _PAGE_RW);
	KUNIT_EXPECT_EQ(test, *pte & _PAGE_NX, nx);
}

static struct kunit_case boot_cases[] = {
	KUNIT_CASE(kernel_image_is_w_xor_x),
	KUNIT_CASE(memory_map_has_ram),
	KUNIT_CASE(kernel_is_loaded_above_1mib),
	KUNIT_CASE(command_line_reaches_the_kernel),
	KUNIT_CASE(command_line_values_are_read_strictly),
	KUNIT_CASE(command_line_options_are_confirmed),
	KUNIT_CASE(fallback_orders_are_on_boot_lines),
	KUNIT_CASE(acpi_tables_found),
	KUNIT_CASE(timer_measured_against_the_pit),
	KUNIT_CASE(long_mode_with_nx),
	{}
};
static struct kunit_suite boot_suite = {
	.name = "boot",
	.test_cases = boot_cases,
	.strict = true,
};
kunit_test_suite(boot_suite);
