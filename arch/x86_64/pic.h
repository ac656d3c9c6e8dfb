/* arch/x86_64/pic.h - the legacy 8259 PICs, which we only switch off. */
#ifndef ARCH_X86_64_PIC_H
#define ARCH_X86_64_PIC_H

#define PIC_VECTOR_BASE		0x20	/* their stray interrupts land in 0x20..0x2f */
#define PIC_NR_VECTORS		16

void pic_disable(void);

#endif
