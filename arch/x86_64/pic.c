/*
 * arch/x86_64/pic.c - silence the legacy 8259 interrupt controllers.
 *
 * The firmware leaves the two PICs delivering the timer on vector 8, which
 * in long mode is the double-fault vector.  We never use them (interrupts
 * come through the local APIC), so we move them to vectors 0x20..0x2f,
 * where a stray interrupt is recognisable, and mask every line.
 */
#include "arch/x86_64/pic.h"
#include "arch/x86_64/io.h"

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1

/** pic_disable - remap both PICs to vectors 0x20..0x2f and mask all lines */
void pic_disable(void)
{
	outb(PIC1_CMD, 0x11);		/* ICW1: initialise, expect ICW4 */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, 0x20);		/* ICW2: vector base */
	outb(PIC2_DATA, 0x28);
	outb(PIC1_DATA, 0x04);		/* ICW3: slave on line 2 */
	outb(PIC2_DATA, 0x02);
	outb(PIC1_DATA, 0x01);		/* ICW4: 8086 mode */
	outb(PIC2_DATA, 0x01);
	outb(PIC1_DATA, 0xff);		/* mask everything */
	outb(PIC2_DATA, 0xff);
}
