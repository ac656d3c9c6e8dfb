; arch/x86_64/isr.asm - the 256 interrupt entry points.
;
; The CPU pushes ss, rsp, rflags, cs, rip (and for some exceptions an error
; code) and jumps to the IDT's entry.  Each stub below makes the frame the
; same shape whatever the vector (pushing a 0 error code where the CPU did
; not), pushes its vector number, and jumps to one common path that saves
; the general registers as a struct pt_regs and calls do_interrupt(regs).
; When that returns, the registers (possibly changed: an exception fixup or a
; restarted sequence, arch/x86_64/restart.h, moves rip) are restored and iretq
; resumes.

extern do_interrupt
global isr_stub_table

section .text
bits 64

%macro STUB 1
isr_stub_%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
	; the CPU pushed an error code
%else
	push 0
%endif
	push %1
	jmp isr_common
%endmacro

%assign i 0
%rep 256
	STUB i
%assign i i + 1
%endrep

isr_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp		; struct pt_regs *
	call do_interrupt
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16		; vector and error code
	iretq

section .rodata
align 8
isr_stub_table:
%assign i 0
%rep 256
	dq isr_stub_ %+ i
%assign i i + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
