/*
 * tests/host/fuzz_input.h - reading a fuzz target's input as a program:
 * byte() and word() take the next one or two bytes (little-endian), and
 * read as 0 past the end, so that every input is a whole program.
 */
#ifndef TESTS_HOST_FUZZ_INPUT_H
#define TESTS_HOST_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct input {
	const uint8_t *data;
	size_t size, pos;
};

static inline unsigned int byte(struct input *in)
{
	return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline unsigned int word(struct input *in)
{
	unsigned int lo = byte(in);

	return lo | byte(in) << 8;
}

#endif
