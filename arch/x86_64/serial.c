/*
 * arch/x86_64/serial.c - a polled 16550 UART driver for COM1.
 *
 * Everything the kernel says goes out here, and the monitor reads its input
 * here, both by polling the line-status register: no interrupts, so it works
 * from the first line of kmain to the last line of an oops.  QEMU connects
 * COM1 to a file, a pipe or the terminal (-serial), which is how the test
 * runner reads KTAP and how `printf 'help\n' | make run` types commands.
 * A mirror (the screen's text panel, mm/memmap_screen.c) may be given
 * every byte sent, after it is sent.
 */
#include "arch/x86_64/serial.h"
#include "arch/x86_64/io.h"

#define COM1		0x3f8
#define UART_DATA	0	/* receive/transmit buffer; divisor low with DLAB */
#define UART_IER	1	/* interrupt enable; divisor high with DLAB */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define LSR_DATA_READY	0x01
#define LSR_THR_EMPTY	0x20
#define LCR_DLAB	0x80
#define LCR_8N1		0x03
#define MCR_DTR_RTS	0x03
#define MCR_LOOP	0x10

static void (*serial_mirror)(char c);

/** serial_init - program COM1 for 115200 baud, 8N1, no interrupts */
void serial_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DATA, 1);		/* 115200 = 115200 / 1 */
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	/*
	 * The FIFO control register is left as the firmware set it: enabling
	 * or clearing FIFOs would throw away what the user already typed.
	 */
	outb(COM1 + UART_MCR, MCR_DTR_RTS);
}

/** serial_putc - send one byte, waiting for room; '\n' becomes "\r\n" */
void serial_putc(char c)
{
	void (*mirror)(char c) = READ_ONCE(serial_mirror);

	if (c == '\n')
		serial_putc('\r');
	while (!(inb(COM1 + UART_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1 + UART_DATA, (u8)c);
	if (mirror)
		mirror(c);
}

/** serial_write - send @len bytes of @s */
void serial_write(const char *s, size_t len)
{
	while (len--)
		serial_putc(*s++);
}

/** serial_getc_nowait - a received byte, or -1 if none is waiting */
int serial_getc_nowait(void)
{
	if (!(inb(COM1 + UART_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1 + UART_DATA);
}

/** serial_getc - wait for and return one received byte */
char serial_getc(void)
{
	int c;

	while ((c = serial_getc_nowait()) < 0)
		__asm__ __volatile__("pause");
	return (char)c;
}

/**
 * serial_set_mirror - hand every byte sent from now on to @fn as well
 *
 * @fn runs wherever serial_putc() does: with printk's lock held, with
 * interrupts off, in an NMI.  Context: once, at boot.
 */
void serial_set_mirror(void (*fn)(char c))
{
	WRITE_ONCE(serial_mirror, fn);
}

/**
 * serial_set_loopback - connect the UART's output to its own input
 * @on: true for loopback, false for the normal line
 *
 * In loopback what is sent comes back as received data and nothing reaches
 * the outside; the serial round-trip test uses it.
 */
void serial_set_loopback(bool on)
{
	outb(COM1 + UART_MCR, MCR_DTR_RTS | (on ? MCR_LOOP : 0));
}
