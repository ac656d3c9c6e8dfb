/*
 * arch/x86_64/multiboot2.h - what GRUB told us, copied into one struct.
 *
 * GRUB leaves a list of tags in memory; multiboot2_parse() reads them once
 * and keeps what the kernel needs: the command line, the memory map (from
 * the BIOS e820 tag, or converted from the EFI map when that is all there
 * is), the ACPI RSDP, and where the tags and modules themselves lie so that
 * memblock can reserve them, with each module's string (what follows the file
 * on GRUB's module2 line: the trace replayer finds its traces by it), and the
 * framebuffer GRUB set up, if it set one up.
 */
#ifndef ARCH_X86_64_MULTIBOOT2_H
#define ARCH_X86_64_MULTIBOOT2_H

#include "lib/compiler.h"
#include "arch/x86_64/page.h"

#define MULTIBOOT2_BOOTLOADER_MAGIC	0x36d76289

/* Memory types, as in the e820 map GRUB passes on */
#define MEMORY_AVAILABLE		1
#define MEMORY_RESERVED			2
#define MEMORY_ACPI_RECLAIMABLE		3
#define MEMORY_NVS			4
#define MEMORY_BADRAM			5

#define BOOT_MMAP_MAX			128
#define BOOT_MODULES_MAX		16
#define BOOT_MODULE_NAME_MAX		64

struct boot_mmap_entry {
	phys_addr_t base;
	u64 length;
	u32 type;
};

struct boot_module {
	phys_addr_t start, end;
	char name[BOOT_MODULE_NAME_MAX];	/* GRUB's string: module2's words after the file */
};

/**
 * struct boot_framebuffer - the linear framebuffer GRUB set (tag 8)
 * @addr: its physical address; 0: none, or not one this kernel draws on
 * @pitch: bytes from one line to the next
 * @width: pixels per line
 * @height: lines
 * @bpp: bits per pixel (16, 24 or 32 when @addr is set)
 * @type: the tag's framebuffer_type (1: RGB direct colour; 2: EGA text)
 * @red_pos: bit position of red in a pixel
 * @green_pos: of green
 * @blue_pos: of blue
 * @red_size: bits of red (1 to 8 when @addr is set)
 * @green_size: of green
 * @blue_size: of blue
 */
struct boot_framebuffer {
	phys_addr_t addr;
	u32 pitch, width, height;
	u8 bpp, type;
	u8 red_pos, green_pos, blue_pos;
	u8 red_size, green_size, blue_size;
};

struct boot_info {
	char cmdline[512];
	char bootloader[64];
	struct boot_mmap_entry mmap[BOOT_MMAP_MAX];
	unsigned int nr_mmap;
	bool mmap_from_efi;
	struct boot_module modules[BOOT_MODULES_MAX];
	unsigned int nr_modules;
	phys_addr_t info_start, info_end;	/* the tags themselves */
	u8 rsdp[36];				/* copy of the ACPI RSDP */
	unsigned int rsdp_len;			/* 0: GRUB gave none */
	struct boot_framebuffer fb;		/* fb.addr 0: no framebuffer */
	bool fb_tag;				/* GRUB gave a framebuffer tag (maybe unusable) */
};

extern struct boot_info boot_info;

int multiboot2_parse(u32 magic, phys_addr_t info);
const char *memory_type_name(u32 type);

#endif
