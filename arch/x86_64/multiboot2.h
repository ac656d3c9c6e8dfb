/*
 * arch/x86_64/multiboot2.h - what GRUB told us, copied into one struct.
 *
 * GRUB leaves a list of tags in memory; multiboot2_parse() reads them once
 * and keeps what the kernel needs: the command line, the memory map (from
 * the BIOS e820 tag, or converted from the EFI map when that is all there
 * is), the ACPI RSDP, and where the tags and modules themselves lie so that
 * memblock can reserve them, with each module's string (what follows the file
 * on GRUB's module2 line: the trace replayer finds its traces by it).
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
};

extern struct boot_info boot_info;

int multiboot2_parse(u32 magic, phys_addr_t info);
const char *memory_type_name(u32 type);

#endif
