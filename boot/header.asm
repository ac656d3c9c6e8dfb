; boot/header.asm - the multiboot2 header GRUB looks for.
;
; GRUB scans the first 32 KiB of the image for this header.  Besides the magic
; and checksum we ask for little: GRUB always hands over the memory map, the
; ACPI RSDP and the command line as tags, and we want the plain 32-bit
; protected-mode entry on both BIOS and UEFI (no EFI boot services).  We ask
; for a 1920x1080 32-bit linear framebuffer, for the map of memory drawn on
; the screen (mm/memmap_screen.c); the request is optional, so a machine
; without a display (-machine microvm, -vga none) boots all the same and the
; kernel finds no framebuffer tag.  Multiboot2 specification, section 3.1.10.

MB2_MAGIC	equ 0xe85250d6
MB2_ARCH_I386	equ 0

section .multiboot2
align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	; information request tag: we rely on these being present
	align 8
	dw 1, 0
	dd 24
	dd 6			; memory map
	dd 1			; command line
	dd 14			; ACPI old RSDP (GRUB gives 15, the new one, when it has it)
	dd 0			; padding to 8 bytes
	; framebuffer tag: width, height, depth; flags bit 0: optional
	align 8
	dw 5, 1
	dd 20
	dd 1920
	dd 1080
	dd 32
	; end tag
	align 8
	dw 0, 0
	dd 8
mb2_header_end:

section .note.GNU-stack noalloc noexec nowrite progbits
