/*
 * tests/kernel/serial_test.c - the 16550 really sends and receives.
 *
 * In loopback mode the UART feeds what it transmits back into its receiver,
 * so a byte written with serial_putc() must come back from
 * serial_getc_nowait().  Nothing may be printed while loopback is on.
 */
#include "kunit/test.h"
#include "arch/x86_64/serial.h"

static int receive_within(int spins)
{
	int c;

	while ((c = serial_getc_nowait()) < 0 && spins--)
		;
	return c;
}

static void serial_round_trip(struct kunit *test)
{
	const char sent[] = "kmem\x01\xff";
	char got[sizeof(sent)] = { 0 };

	while (serial_getc_nowait() >= 0)
		;	/* drop anything already received */
	serial_set_loopback(true);
	for (size_t i = 0; i < sizeof(sent) - 1; i++) {
		serial_putc(sent[i]);
		got[i] = (char)receive_within(1000000);
	}
	serial_set_loopback(false);
	KUNIT_EXPECT_MEMEQ(test, got, sent, sizeof(sent) - 1);
	KUNIT_EXPECT_EQ(test, serial_getc_nowait(), -1);
}

static struct kunit_case serial_cases[] = {
	KUNIT_CASE(serial_round_trip),
	{}
};
static struct kunit_suite serial_suite = {
	.name = "serial",
	.test_cases = serial_cases,
	.strict = true,
};
kunit_test_suite(serial_suite);
