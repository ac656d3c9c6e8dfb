; boot/trampoline.asm - where an application processor (AP) starts.
;
; A STARTUP IPI starts the AP in 16-bit real mode at physical address
; vector * 4096, which must be below 1 MiB.  So this code is assembled into
; the kernel image as plain bytes (.rodata: it is never run where it is
; linked) and arch/x86_64/smp_boot.c copies it to TRAMPOLINE_BASE (0x8000)
; before sending STARTUP with vector 0x08.  Every address in it is written
; as TA(label) = TRAMPOLINE_BASE + offset, so it needs no relocation.
;
; The AP climbs the same ladder as the boot CPU did in boot/entry.asm:
;   real mode  -> lgdt (the small GDT below), CR0.PE, far jump
;   32-bit     -> CR4.PAE, CR3 = a temporary PML4, EFER.LME (and NXE, as the
;                 boot CPU has), CR0.PG|WP, far jump to a 64-bit segment
;   64-bit     -> still at 0x8xxx: load the parameters, jump to ap_entry64
;                 in the kernel image, which loads the kernel's CR3 and CR4,
;                 sets the GS base (per-CPU data) and calls start_secondary().
;
; Why a temporary PML4: the kernel's own tables have no identity map (PML4
; entry 0 is gone, so NULL faults), but at the moment paging turns on the
; AP is executing at 0x8xxx and must stay mapped.  The temporary PML4 maps
; the first 2 MiB at virtual 0 (PML4[0]) and shares the kernel's upper half
; (PML4[256..511] copied), so the jump into the kernel image works; after
; ap_entry64 switches CR3 to the kernel's tables the identity map is gone
; again.  The temporary tables are in the kernel's .bss, below 4 GiB, as a
; 32-bit "mov cr3" needs.
;
; The parameters (tr_params) are written by the boot CPU before each start.

TRAMPOLINE_BASE	equ 0x8000
%define TA(x)	(TRAMPOLINE_BASE + (x) - trampoline_start)

MSR_EFER	equ 0xc0000080
MSR_GS_BASE	equ 0xc0000101

extern start_secondary
global trampoline_start
global trampoline_end
global trampoline_params
global ap_entry64

section .rodata
align 16
bits 16
trampoline_start:
	cli
	cld
	xor ax, ax
	mov ds, ax
	lgdt [TA(tr_gdt_ptr)]
	mov eax, cr0
	or eax, 1				; PE
	mov cr0, eax
	jmp dword 0x08:TA(tr_pm32)

bits 32
tr_pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5				; PAE
	mov cr4, eax
	mov eax, [TA(tr_cr3)]
	mov cr3, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, [TA(tr_efer)]			; LME, and NXE if the boot CPU uses it
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)		; PG, WP
	mov cr0, eax
	jmp 0x18:TA(tr_lm64)

bits 64
tr_lm64:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [abs TA(tr_stack)]
	mov r12, [abs TA(tr_cpu)]
	mov r13, [abs TA(tr_kernel_cr3)]
	mov r14, [abs TA(tr_gs_base)]
	mov r15, [abs TA(tr_cr4)]
	mov rax, [abs TA(tr_entry)]
	jmp rax

align 8
tr_gdt:
	dq 0
	dq 0x00cf9a000000ffff			; 0x08: 32-bit code
	dq 0x00cf92000000ffff			; 0x10: data
	dq 0x00af9a000000ffff			; 0x18: 64-bit code
tr_gdt_ptr:
	dw tr_gdt_ptr - tr_gdt - 1
	dd TA(tr_gdt)

; Must match struct trampoline_params in arch/x86_64/smp_boot.c
align 8
trampoline_params:
tr_cr3:		dd 0				; temporary PML4, physical, < 4 GiB
tr_efer:	dd 0				; EFER bits to set
tr_kernel_cr3:	dq 0
tr_cr4:		dq 0
tr_gs_base:	dq 0				; __per_cpu_offset[cpu]
tr_stack:	dq 0				; top of the AP's stack
tr_entry:	dq 0				; ap_entry64
tr_cpu:		dq 0				; logical CPU number
trampoline_end:

; In the kernel image, reached on the temporary tables with r12..r15 loaded.
section .text
ap_entry64:
	mov cr3, r13				; the kernel's tables: identity map gone
	mov cr4, r15
	mov ecx, MSR_GS_BASE
	mov rax, r14
	mov rdx, r14
	shr rdx, 32
	wrmsr
	mov rdi, r12
	xor ebp, ebp				; ends the backtrace
	call start_secondary
.hang:
	cli
	hlt
	jmp .hang

section .note.GNU-stack noalloc noexec nowrite progbits
