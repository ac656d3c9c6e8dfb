/*
 * arch/x86_64/multiboot2.c - read GRUB's multiboot2 tags.
 *
 * The boot information is a u32 total size, a u32 reserved, then tags, each
 * starting with {u32 type, u32 size} and padded to 8 bytes, ending with a
 * tag of type 0.  Layouts are from the Multiboot2 specification, section
 * 3.6 ("Boot information format").  We copy what we need into boot_info
 * so nothing later depends on GRUB's memory staying intact.
 */
#include "arch/x86_64/multiboot2.h"
#include "kernel/printk.h"
#include "kernel/monitor.h"
#include "mm/memmap_picture.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TAG_END			0
#define TAG_CMDLINE		1
#define TAG_BOOTLOADER		2
#define TAG_MODULE		3
#define TAG_MMAP		6
#define TAG_FRAMEBUFFER		8
#define TAG_ACPI_OLD		14
#define TAG_ACPI_NEW		15
#define TAG_EFI_MMAP		17

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_mmap_entry {
	u64 base;
	u64 length;
	u32 type;
	u32 reserved;
};

struct efi_memory_descriptor {
	u32 type;
	u32 pad;
	u64 phys_start;
	u64 virt_start;
	u64 num_pages;
	u64 attribute;
};

/* UEFI spec, EFI_MEMORY_TYPE */
enum {
	EFI_LOADER_CODE = 1, EFI_LOADER_DATA = 2,
	EFI_BOOT_SERVICES_CODE = 3, EFI_BOOT_SERVICES_DATA = 4,
	EFI_CONVENTIONAL_MEMORY = 7, EFI_UNUSABLE_MEMORY = 8,
	EFI_ACPI_RECLAIM_MEMORY = 9, EFI_ACPI_MEMORY_NVS = 10,
};

struct boot_info boot_info;

static void add_range(phys_addr_t base, u64 length, u32 type)
{
	unsigned int n = boot_info.nr_mmap;

	/* The EFI map comes in many small adjacent pieces: merge them. */
	if (n && boot_info.mmap[n - 1].type == type &&
	    boot_info.mmap[n - 1].base + boot_info.mmap[n - 1].length == base) {
		boot_info.mmap[n - 1].length += length;
		return;
	}
	if (boot_info.nr_mmap == BOOT_MMAP_MAX) {
		pr_warn("multiboot2: more than %d memory ranges, ignoring %#llx+%#llx\n",
			BOOT_MMAP_MAX, (unsigned long long)base, (unsigned long long)length);
		return;
	}
	boot_info.mmap[boot_info.nr_mmap++] = (struct boot_mmap_entry){ base, length, type };
}

static void parse_mmap(const struct mb2_tag *tag)
{
	const u8 *p = (const u8 *)tag + 16;
	u32 entry_size = ((const u32 *)tag)[2];

	for (; p + entry_size <= (const u8 *)tag + tag->size; p += entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;

		add_range(e->base, e->length, e->type);
	}
}

static u32 efi_type_to_e820(u32 efi_type)
{
	switch (efi_type) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL_MEMORY:
		return MEMORY_AVAILABLE;	/* boot services have exited */
	case EFI_ACPI_RECLAIM_MEMORY:
		return MEMORY_ACPI_RECLAIMABLE;
	case EFI_ACPI_MEMORY_NVS:
		return MEMORY_NVS;
	case EFI_UNUSABLE_MEMORY:
		return MEMORY_BADRAM;
	default:
		return MEMORY_RESERVED;
	}
}

static void parse_efi_mmap(const struct mb2_tag *tag)
{
	u32 desc_size = ((const u32 *)tag)[2];
	const u8 *p = (const u8 *)tag + 16;

	boot_info.mmap_from_efi = true;
	for (; p + desc_size <= (const u8 *)tag + tag->size; p += desc_size) {
		const struct efi_memory_descriptor *d = (const void *)p;

		add_range(d->phys_start, d->num_pages * 4096, efi_type_to_e820(d->type));
	}
}

static void copy_string(char *dst, size_t size, const struct mb2_tag *tag, size_t skip)
{
	size_t len = tag->size - sizeof(*tag) - skip;

	if (len >= size)
		len = size - 1;
	memcpy(dst, (const char *)tag + sizeof(*tag) + skip, len);
	dst[len] = '\0';
}

/* A module: u32 start, u32 end, then its string (module2's arguments), NUL-terminated. */
static void parse_module(const struct mb2_tag *tag)
{
	const u32 *words = (const u32 *)tag;
	struct boot_module *m;

	if (boot_info.nr_modules == BOOT_MODULES_MAX) {
		pr_warn("multiboot2: more than %d modules, ignoring the one at %#x\n",
			BOOT_MODULES_MAX, words[2]);
		return;
	}
	m = &boot_info.modules[boot_info.nr_modules++];
	m->start = words[2];
	m->end = words[3];
	if (tag->size > 16)
		copy_string(m->name, sizeof(m->name), tag, 8);
	else
		m->name[0] = '\0';
}

/*
 * The framebuffer info tag: u64 address, u32 pitch, width, height, u8 bpp,
 * u8 type, u16 reserved, then for type 1 (RGB) the position and size of
 * red, green and blue, a u8 each.  Direct colour of 16, 24 or 32 bits a
 * pixel is kept (QEMU's standard VGA gives 32, -vga cirrus 16 or 24); EGA
 * text and indexed palettes are recorded as no framebuffer.
 */
static void parse_framebuffer(const struct mb2_tag *tag)
{
	const u8 *b = (const u8 *)tag;
	struct boot_framebuffer *fb = &boot_info.fb;
	u64 addr;

	boot_info.fb_tag = true;
	if (tag->size < 32)
		return;
	memcpy(&addr, b + 8, sizeof(addr));
	memcpy(&fb->pitch, b + 16, sizeof(u32));
	memcpy(&fb->width, b + 20, sizeof(u32));
	memcpy(&fb->height, b + 24, sizeof(u32));
	fb->bpp = b[28];
	fb->type = b[29];
	if (fb->type != 1 || (fb->bpp != 16 && fb->bpp != 24 && fb->bpp != 32) ||
	    tag->size < 38)
		return;
	fb->red_pos = b[32];
	fb->red_size = b[33];
	fb->green_pos = b[34];
	fb->green_size = b[35];
	fb->blue_pos = b[36];
	fb->blue_size = b[37];
	if (b[33] && b[33] <= 8 && b[35] && b[35] <= 8 && b[37] && b[37] <= 8)
		fb->addr = addr;
}

static void parse_tag(const struct mb2_tag *tag, const struct mb2_tag **efi_mmap)
{
	const u32 *words = (const u32 *)tag;

	switch (tag->type) {
	case TAG_CMDLINE:
		copy_string(boot_info.cmdline, sizeof(boot_info.cmdline), tag, 0);
		break;
	case TAG_BOOTLOADER:
		copy_string(boot_info.bootloader, sizeof(boot_info.bootloader), tag, 0);
		break;
	case TAG_MODULE:
		parse_module(tag);
		break;
	case TAG_MMAP:
		parse_mmap(tag);
		break;
	case TAG_EFI_MMAP:
		*efi_mmap = tag;
		break;
	case TAG_FRAMEBUFFER:
		parse_framebuffer(tag);
		break;
	case TAG_ACPI_OLD:
	case TAG_ACPI_NEW:
		/* Prefer the ACPI 2.0 RSDP (it has the XSDT) when both are given. */
		if (tag->type == TAG_ACPI_NEW || !boot_info.rsdp_len) {
			boot_info.rsdp_len = min(tag->size - 8, (u32)sizeof(boot_info.rsdp));
			memcpy(boot_info.rsdp, words + 2, boot_info.rsdp_len);
		}
		break;
	}
}

/**
 * multiboot2_parse - check the magic and copy GRUB's tags into boot_info
 * @magic: EAX at entry; must be MULTIBOOT2_BOOTLOADER_MAGIC
 * @info: physical address of the boot information (EBX at entry)
 *
 * Context: early boot; @info must be reachable through the direct map.
 * Return: 0, or -1 if @magic is wrong (the info cannot be trusted).
 */
int multiboot2_parse(u32 magic, phys_addr_t info)
{
	const struct mb2_tag *efi_mmap = NULL;
	const u8 *start = __va(info);
	u32 total = *(const u32 *)start;

	if (magic != MULTIBOOT2_BOOTLOADER_MAGIC) {
		pr_emerg("multiboot2: bad magic %#x (expected %#x): not booted by a multiboot2 loader?\n",
			 magic, MULTIBOOT2_BOOTLOADER_MAGIC);
		return -1;
	}
	boot_info.info_start = info;
	boot_info.info_end = info + total;
	for (const u8 *p = start + 8; p + sizeof(struct mb2_tag) <= start + total;) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == TAG_END || tag->size < sizeof(*tag))
			break;
		parse_tag(tag, &efi_mmap);
		p += ALIGN(tag->size, 8);
	}
	/* The e820-style map is the simpler one; use EFI's only without it. */
	if (!boot_info.nr_mmap && efi_mmap)
		parse_efi_mmap(efi_mmap);
	if (!boot_info.nr_mmap)
		pr_emerg("multiboot2: GRUB gave no memory map\n");
	return 0;
}

/** memory_type_name - a memory-map type as text */
const char *memory_type_name(u32 type)
{
	switch (type) {
	case MEMORY_AVAILABLE: return "usable";
	case MEMORY_RESERVED: return "reserved";
	case MEMORY_ACPI_RECLAIMABLE: return "ACPI data";
	case MEMORY_NVS: return "ACPI NVS";
	case MEMORY_BADRAM: return "unusable";
	default: return "unknown";
	}
}

static void show_memmap(void)
{
	u64 total[6] = { 0 };

	printk("memory map from %s (%s):\n", boot_info.bootloader[0] ? boot_info.bootloader : "GRUB",
	       boot_info.mmap_from_efi ? "EFI memory map" : "multiboot2 memory map");
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];

		printk("  [mem %#018llx-%#018llx] %s\n", (unsigned long long)e->base,
		       (unsigned long long)(e->base + e->length - 1), memory_type_name(e->type));
		total[e->type < 6 ? e->type : 0] += e->length;
	}
	printk("summed by type:\n");
	for (u32 t = 1; t < 6; t++) {
		if (total[t])
			printk("  %-10s %8llu KiB\n", memory_type_name(t),
			       (unsigned long long)(total[t] >> 10));
	}
}

static int cmd_memmap(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);

	if (monitor_take_word(&args, "picture"))
		return memmap_picture(&args);
	if (monitor_args_end(&args))
		return -EINVAL;
	show_memmap();
	return 0;
}
MONITOR_COMMAND(memmap, "[picture [plain] [ADDR SIZE]]",
		"the memory map GRUB gave, by range and type; picture: every page frame, drawn",
		cmd_memmap);
