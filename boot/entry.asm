; boot/entry.asm - from GRUB's 32-bit protected mode to kmain() in 64-bit C.
;
; GRUB jumps here with paging off, EAX = multiboot2 magic, EBX = physical
; address of the boot information.  We cannot run C yet: the kernel is linked
; at 0xffffffff80000000 but sits at 1 MiB.  So this file, linked at its
; physical address, does the minimum by hand:
;   1. check the CPU can do long mode (and say so on COM1 if it cannot);
;   2. build temporary page tables that map the same RAM three times:
;        identity      0 .. 4 GiB        (so the next instruction still runs)
;        PAGE_OFFSET   0 .. 4 GiB        (the direct map C uses to read GRUB's tables)
;        KERNEL_VMA    0 .. 16 MiB       (the kernel image, 4 KiB pages)
;      leaving the page below the boot stack unmapped as a guard;
;   3. turn on PAE, EFER.LME (and EFER.NXE if the CPU has NX) and paging;
;   4. far-jump into a 64-bit code segment, then jump to the high half.
; mm/ later replaces these tables with the kernel's own and drops the
; identity map.

KERNEL_VMA	equ 0xffffffff80000000
COM1		equ 0x3f8
PTE_PW		equ 0x003		; present | writable
PTE_PS		equ 0x080		; 2 MiB page
EFER_MSR	equ 0xc0000080
EFER_LME	equ 1 << 8
EFER_NXE	equ 1 << 11

extern kmain
global _start32
global boot_stack_guard
global boot_stack_top

section .boot.text
bits 32
_start32:
	cli
	cld
	mov esp, boot_stack32_top
	mov [boot_magic], eax
	mov [boot_info], ebx

	call check_long_mode
	call build_page_tables

	mov eax, cr4
	or eax, 1 << 5				; PAE
	mov cr4, eax
	mov eax, pml4
	mov cr3, eax

	mov ecx, EFER_MSR
	rdmsr
	or eax, EFER_LME
	cmp byte [boot_has_nx], 0
	je .no_nx
	or eax, EFER_NXE
.no_nx:
	wrmsr

	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)		; PG, and WP so the kernel honours read-only pages
	mov cr0, eax

	lgdt [gdt64_ptr]
	jmp 0x08:long_mode_entry

; Is there CPUID, extended CPUID and the long-mode bit?  If not, say why and stop.
check_long_mode:
	pushfd
	pop eax
	mov ecx, eax
	xor eax, 1 << 21			; try to flip EFLAGS.ID
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	cmp eax, ecx
	je .fail
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .fail
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29			; LM
	jz .fail
	test edx, 1 << 20			; NX
	setnz byte [boot_has_nx]
	ret
.fail:
	mov esi, no_long_mode_msg
.next:
	lodsb
	test al, al
	jz .halt
	mov ah, al
	mov dx, COM1 + 5
.wait:
	in al, dx
	test al, 0x20				; transmitter empty?
	jz .wait
	mov dx, COM1
	mov al, ah
	out dx, al
	jmp .next
.halt:
	cli
	hlt
	jmp .halt

build_page_tables:
	; PML4[0] (identity) and PML4[273] (PAGE_OFFSET) share one PDPT
	mov eax, pdpt_low + PTE_PW
	mov [pml4 + 0 * 8], eax
	mov [pml4 + 273 * 8], eax
	mov eax, pdpt_kernel + PTE_PW
	mov [pml4 + 511 * 8], eax

	; PDPT_low[0..3] -> the four page directories covering 0..4 GiB
	xor ecx, ecx
.pdpt:
	mov eax, ecx
	shl eax, 12
	add eax, pd_low + PTE_PW
	mov [pdpt_low + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .pdpt

	; 2048 2 MiB pages; the upper half of each 64-bit entry stays zero
	xor ecx, ecx
.pd:
	mov eax, ecx
	shl eax, 21
	or eax, PTE_PW | PTE_PS
	mov [pd_low + ecx * 8], eax
	inc ecx
	cmp ecx, 2048
	jb .pd

	; KERNEL_VMA is PML4[511], PDPT[510]; its PD points at 8 page tables
	mov eax, pd_kernel + PTE_PW
	mov [pdpt_kernel + 510 * 8], eax
	xor ecx, ecx
.pdk:
	mov eax, ecx
	shl eax, 12
	add eax, pt_kernel + PTE_PW
	mov [pd_kernel + ecx * 8], eax
	inc ecx
	cmp ecx, 8
	jb .pdk

	; 4096 4 KiB pages for 0..16 MiB, except the stack guard
	xor ecx, ecx
.pt:
	mov eax, ecx
	shl eax, 12
	cmp eax, boot_stack_guard - KERNEL_VMA
	je .skip
	or eax, PTE_PW
	mov [pt_kernel + ecx * 8], eax
.skip:
	inc ecx
	cmp ecx, 4096
	jb .pt
	ret

bits 64
long_mode_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov rax, high_entry
	jmp rax

section .boot.data
align 8
gdt64:
	dq 0
	dq 0x00af9a000000ffff			; 0x08: 64-bit code
	dq 0x00cf92000000ffff			; 0x10: data
gdt64_ptr:
	dw gdt64_ptr - gdt64 - 1
	dq gdt64
boot_magic:	dd 0
boot_info:	dd 0
boot_has_nx:	db 0
no_long_mode_msg:
	db "boot: this CPU cannot run 64-bit code (no long mode); try qemu-system-x86_64 -cpu qemu64", 13, 10, 0

section .boot.bss nobits
align 4096
pml4:		resb 4096
pdpt_low:	resb 4096
pd_low:		resb 4 * 4096
pdpt_kernel:	resb 4096
pd_kernel:	resb 4096
pt_kernel:	resb 8 * 4096
		resb 4096
boot_stack32_top:

; The boot CPU's stack, with an unmapped page below it: an overflow faults
; (a double fault, on its own IST stack) instead of silently eating .bss.
section .bss
align 4096
boot_stack_guard:	resb 4096
			resb 16384
boot_stack_top:

section .text
bits 64
high_entry:
	mov rsp, boot_stack_top
	xor ebp, ebp				; ends the backtrace
	mov edi, [boot_magic]
	mov esi, [boot_info]
	call kmain
.hang:
	cli
	hlt
	jmp .hang

section .note.GNU-stack noalloc noexec nowrite progbits
