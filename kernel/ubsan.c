/*
 * kernel/ubsan.c - the Undefined Behaviour Sanitizer's reports (Linux's
 * lib/ubsan.c; here in kernel/ because it prints).
 *
 * Built with -fsanitize=shift, bounds, ... (make UBSAN=1, the Makefile
 * lists them), gcc and clang put a check before every operation whose
 * result C leaves undefined - a shift by 64, an index past an array, a
 * signed addition that overflows, a bool that is neither 0 nor 1 - and
 * call __ubsan_handle_<kind>(data, operands) when it fails.  The data is a
 * static record the compiler emits: where (file, line, column) and the
 * types of the operands.  Each handler prints a report in Linux's format
 * and returns, so the kernel goes on as the C would have (the hardware's
 * result of the shift, the wrapped sum):
 *
 *	------------[ cut here ]------------
 *	UBSAN: shift-out-of-bounds in mm/foo.c:12:34
 *	shift exponent 64 is too large for 64-bit type 'unsigned long'
 *	Call Trace:
 *	 ...
 *	---[ end trace ]---
 *
 * As in Linux, each place is reported once (the first report sets a bit in
 * its record, which the compilers put in writable data), and a report that
 * happens while this CPU prints one is dropped rather than recursing.
 * This file itself is built without the sanitizer.
 */
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/vsprintf.h"

/* The compilers' records (the same layout for gcc and clang). */
struct source_location {
	const char *file_name;
	u32 line;
	u32 column;
};

#define REPORTED	(1U << 31)	/* in ->column: this place was reported */

struct type_descriptor {
	u16 type_kind;			/* 0: an integer, 1: a float, 0xffff: other */
	u16 type_info;			/* integer: bit 0 signed, then log2 of its width in bits */
	char type_name[];		/* quoted: 'unsigned long' */
};

#define TYPE_KIND_INTEGER	0

struct overflow_data {
	struct source_location location;
	const struct type_descriptor *type;
};

struct shift_out_of_bounds_data {
	struct source_location location;
	const struct type_descriptor *lhs_type;
	const struct type_descriptor *rhs_type;
};

struct out_of_bounds_data {
	struct source_location location;
	const struct type_descriptor *array_type;
	const struct type_descriptor *index_type;
};

struct unreachable_data {
	struct source_location location;
};

struct invalid_value_data {
	struct source_location location;
	const struct type_descriptor *type;
};

static bool in_ubsan[NR_CPUS];

static bool type_is_int(const struct type_descriptor *type)
{
	return type->type_kind == TYPE_KIND_INTEGER;
}

static bool type_is_signed(const struct type_descriptor *type)
{
	return type_is_int(type) && (type->type_info & 1);
}

static unsigned int type_bit_width(const struct type_descriptor *type)
{
	return 1U << (type->type_info >> 1);
}

/*
 * An operand: up to 64 bits it travels in the pointer itself, wider ones
 * (__int128) by address; those are shown by their low 64 bits.
 */
static u64 raw_value(const struct type_descriptor *type, void *val)
{
	if (type_bit_width(type) > 64)
		return *(u64 *)val;
	return (u64)(unsigned long)val;
}

static s64 signed_value(const struct type_descriptor *type, void *val)
{
	unsigned int shift = 64 - min(type_bit_width(type), 64U);

	return (s64)(raw_value(type, val) << shift) >> shift;
}

static bool value_is_negative(const struct type_descriptor *type, void *val)
{
	return type_is_signed(type) && signed_value(type, val) < 0;
}

static void format_value(char *buf, size_t size, const struct type_descriptor *type, void *val)
{
	if (!type_is_int(type))
		snprintf(buf, size, "(a value of type %s)", type->type_name);
	else if (type_is_signed(type))
		snprintf(buf, size, "%lld", (long long)signed_value(type, val));
	else
		snprintf(buf, size, "%llu", (unsigned long long)raw_value(type, val));
}

/* Begin a report, unless this place was reported or this CPU is printing one. */
static bool ubsan_prologue(struct source_location *loc, const char *reason)
{
	unsigned int cpu = smp_processor_id();

	if (in_ubsan[cpu] || (__atomic_fetch_or(&loc->column, REPORTED, __ATOMIC_RELAXED) &
			      REPORTED))
		return false;
	in_ubsan[cpu] = true;
	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_ERR "UBSAN: %s in %s:%u:%u\n", reason, loc->file_name, loc->line,
	       loc->column & ~REPORTED);
	return true;
}

static void ubsan_epilogue(void)
{
	dump_stack();
	printk(KERN_WARNING "---[ end trace ]---\n");
	in_ubsan[smp_processor_id()] = false;
}

static void handle_overflow(struct overflow_data *data, void *lhs, void *rhs, char op)
{
	char l[32], r[32];

	if (!ubsan_prologue(&data->location, type_is_signed(data->type) ?
			    "signed-integer-overflow" : "unsigned-integer-overflow"))
		return;
	format_value(l, sizeof(l), data->type, lhs);
	format_value(r, sizeof(r), data->type, rhs);
	printk(KERN_ERR "%s %c %s cannot be represented in type %s\n", l, op, r,
	       data->type->type_name);
	ubsan_epilogue();
}

/* Called by instrumented code: a + b, a - b, a * b overflowed. */
void __ubsan_handle_add_overflow(void *data, void *lhs, void *rhs);
void __ubsan_handle_add_overflow(void *data, void *lhs, void *rhs)
{
	handle_overflow(data, lhs, rhs, '+');
}

void __ubsan_handle_sub_overflow(void *data, void *lhs, void *rhs);
void __ubsan_handle_sub_overflow(void *data, void *lhs, void *rhs)
{
	handle_overflow(data, lhs, rhs, '-');
}

void __ubsan_handle_mul_overflow(void *data, void *lhs, void *rhs);
void __ubsan_handle_mul_overflow(void *data, void *lhs, void *rhs)
{
	handle_overflow(data, lhs, rhs, '*');
}

/* -a overflowed (a was the most negative value of its type). */
void __ubsan_handle_negate_overflow(void *_data, void *old);
void __ubsan_handle_negate_overflow(void *_data, void *old)
{
	struct overflow_data *data = _data;
	char v[32];

	if (!ubsan_prologue(&data->location, "negation-overflow"))
		return;
	format_value(v, sizeof(v), data->type, old);
	printk(KERN_ERR "negation of %s cannot be represented in type %s\n", v,
	       data->type->type_name);
	ubsan_epilogue();
}

/* a / b or a % b with b == 0, or the most negative value divided by -1. */
void __ubsan_handle_divrem_overflow(void *_data, void *lhs, void *rhs);
void __ubsan_handle_divrem_overflow(void *_data, void *lhs, void *rhs)
{
	struct overflow_data *data = _data;
	char v[32];

	if (!ubsan_prologue(&data->location, "division-overflow"))
		return;
	format_value(v, sizeof(v), data->type, lhs);
	if (type_is_signed(data->type) && signed_value(data->type, rhs) == -1)
		printk(KERN_ERR "division of %s by -1 cannot be represented in type %s\n", v,
		       data->type->type_name);
	else
		printk(KERN_ERR "division by zero\n");
	ubsan_epilogue();
}

/* array[index] with index outside the array's declared bounds. */
void __ubsan_handle_out_of_bounds(void *_data, void *index);
void __ubsan_handle_out_of_bounds(void *_data, void *index)
{
	struct out_of_bounds_data *data = _data;
	char v[32];

	if (!ubsan_prologue(&data->location, "array-index-out-of-bounds"))
		return;
	format_value(v, sizeof(v), data->index_type, index);
	printk(KERN_ERR "index %s is out of range for type %s\n", v, data->array_type->type_name);
	ubsan_epilogue();
}

/* lhs << rhs or lhs >> rhs: a shift by a negative or too large amount, or bits lost. */
void __ubsan_handle_shift_out_of_bounds(void *_data, void *lhs, void *rhs);
void __ubsan_handle_shift_out_of_bounds(void *_data, void *lhs, void *rhs)
{
	struct shift_out_of_bounds_data *data = _data;
	const struct type_descriptor *lt = data->lhs_type, *rt = data->rhs_type;
	char l[32], r[32];

	if (!ubsan_prologue(&data->location, "shift-out-of-bounds"))
		return;
	format_value(l, sizeof(l), lt, lhs);
	format_value(r, sizeof(r), rt, rhs);
	if (value_is_negative(rt, rhs))
		printk(KERN_ERR "shift exponent %s is negative\n", r);
	else if (raw_value(rt, rhs) >= type_bit_width(lt))
		printk(KERN_ERR "shift exponent %s is too large for %u-bit type %s\n", r,
		       type_bit_width(lt), lt->type_name);
	else if (value_is_negative(lt, lhs))
		printk(KERN_ERR "left shift of negative value %s\n", l);
	else
		printk(KERN_ERR "left shift of %s by %s places cannot be represented in type %s\n",
		       l, r, lt->type_name);
	ubsan_epilogue();
}

/* Control reached __builtin_unreachable(): nothing sensible can follow. */
void __ubsan_handle_builtin_unreachable(void *_data);
void __ubsan_handle_builtin_unreachable(void *_data)
{
	struct unreachable_data *data = _data;

	if (ubsan_prologue(&data->location, "unreachable")) {
		printk(KERN_ERR "calling __builtin_unreachable()\n");
		ubsan_epilogue();
	}
	panic("can't return from __builtin_unreachable()");
}

/* A bool that is neither 0 nor 1, an enum outside its values. */
void __ubsan_handle_load_invalid_value(void *_data, void *val);
void __ubsan_handle_load_invalid_value(void *_data, void *val)
{
	struct invalid_value_data *data = _data;
	char v[32];

	if (!ubsan_prologue(&data->location, "invalid-load"))
		return;
	format_value(v, sizeof(v), data->type, val);
	printk(KERN_ERR "load of value %s is not a valid value for type %s\n", v,
	       data->type->type_name);
	ubsan_epilogue();
}
