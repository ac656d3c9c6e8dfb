/*
 * tests/replay/replay_parse.c - read a "kmem-replay 1" trace into events.
 *
 * The whole text is read before anything is replayed, so that a malformed
 * file is refused, with its line number, and never half-replayed (issue 34:
 * both replayers and the Python checker refuse exactly the same files).  A
 * first pass counts the lines, which bounds the events and the caches; the
 * arrays are vmalloc()ed at that size, then one pass over the lines fills
 * them.  Each line is split at single spaces into at most six fields; the
 * first says what the line is:
 *
 *   #kmem-replay 1                      the first line, exactly
 *   # ...                               a comment
 *   S slots                             once, before the first event
 *   C cid object_size size name         a cache, before its first use
 *   a id size gfp cpu                   kmalloc
 *   k id cid gfp cpu                    kmem_cache_alloc
 *   p id order gfp cpu                  alloc_pages
 *   v id size cpu                       vmalloc
 *   f id cpu                            free what id holds
 *
 * Numbers are decimal, except gfp, hexadecimal with or without "0x".  While
 * parsing, each slot remembers which event filled it (a table of S words,
 * freed at the end): a free is checked against it and records the kind and
 * the argument of what it frees, so the engine needs no table of its own
 * to know how to free, and a k line names its cache by index, not by cid
 * (an open-addressing hash of the cids finds it).
 */
#include "replay/replay.h"
#include "kernel/printk.h"
#include "mm/vmalloc.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define MAX_FIELDS	6
#define SHOWN		24	/* characters of a bad field quoted in a refusal */
#define NO_EVENT	0	/* a free slot, in the parser's table (events are 1-based there) */

struct field {
	const char *s;
	size_t len;
};

struct parser {
	struct replay_trace *t;
	unsigned long line;
	struct field f[MAX_FIELDS];
	unsigned int nr_fields;
	u32 *slot;			/* per slot: 1 + the event that holds it, or NO_EVENT */
	u32 *hash;			/* cid hash: 1 + the cache index, or 0 */
	unsigned int hash_mask;
};

/* ---------------------------------------------------------------- refusing */

static int __printf(2, 3) refuse(struct parser *ps, const char *fmt, ...)
{
	struct replay_error *e = &ps->t->error;
	va_list args;

	va_start(args, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, args);
	va_end(args);
	e->line = ps->line;
	pr_err("replay: line %lu: %s\n", e->line, e->reason);
	return -EINVAL;
}

/* ---------------------------------------------------------------- fields and numbers */

/* Split [@s, @s + @len) at single spaces; more than MAX_FIELDS counts as MAX_FIELDS + 1. */
static void split(struct parser *ps, const char *s, size_t len)
{
	const char *end = s + len;

	ps->nr_fields = 0;
	for (;;) {
		const char *sp = memchr(s, ' ', end - s);

		if (ps->nr_fields == MAX_FIELDS) {
			ps->nr_fields++;
			return;
		}
		ps->f[ps->nr_fields++] = (struct field){ s, (sp ? sp : end) - s };
		if (!sp)
			return;
		s = sp + 1;
	}
}

static int digit(char c, unsigned int base)
{
	int d = c >= '0' && c <= '9' ? c - '0' :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;

	return d < (int)base ? d : -1;
}

/* Field @i as a number of @base (16 takes an optional 0x), at most @max. */
static int number(struct parser *ps, unsigned int i, unsigned int base, u64 max, u64 *v)
{
	const char *s = ps->f[i].s;
	size_t len = ps->f[i].len, k = 0;
	int shown = (int)min(len, (size_t)SHOWN);

	if (base == 16 && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		k = 2;
	if (k == len)
		return refuse(ps, "'%.*s' is not a number", shown, s);
	for (*v = 0; k < len; k++) {
		int d = digit(s[k], base);

		if (d < 0)
			return refuse(ps, "'%.*s' is not a number", shown, s);
		if (*v > (max - d) / base)
			return refuse(ps, "'%.*s' overflows", shown, s);
		*v = *v * base + d;
	}
	return 0;
}

static int fields(struct parser *ps, unsigned int want)
{
	if (ps->nr_fields == want)
		return 0;
	if (ps->nr_fields > MAX_FIELDS)
		return refuse(ps, "wrong field count (more than %u, expected %u)", MAX_FIELDS, want);
	return refuse(ps, "wrong field count (%u, expected %u)", ps->nr_fields, want);
}

/* ---------------------------------------------------------------- caches */

static u32 *hash_slot(struct parser *ps, u64 cid)
{
	unsigned int h = (unsigned int)((cid * 0x9e3779b97f4a7c15ULL) >> 40) & ps->hash_mask;

	while (ps->hash[h] && ps->t->caches[ps->hash[h] - 1].cid != cid)
		h = (h + 1) & ps->hash_mask;
	return &ps->hash[h];
}

static int parse_cache(struct parser *ps)
{
	struct replay_trace *t = ps->t;
	struct replay_cache *c;
	u64 cid, object_size, size;
	u32 *h;
	int err;

	err = fields(ps, 5) ?: number(ps, 1, 10, ~0ULL, &cid) ?:
	      number(ps, 2, 10, ~0ULL, &object_size) ?: number(ps, 3, 10, ~0ULL, &size);
	if (err)
		return err;
	h = hash_slot(ps, cid);
	if (*h)
		return refuse(ps, "cache %llu declared twice", (unsigned long long)cid);
	if (!object_size)
		return refuse(ps, "cache %llu: object_size 0", (unsigned long long)cid);
	if (object_size > size)
		return refuse(ps, "cache %llu: object_size %llu > size %llu",
			      (unsigned long long)cid, (unsigned long long)object_size,
			      (unsigned long long)size);
	if (size > REPLAY_MAX_CACHE_SIZE)
		return refuse(ps, "cache %llu: size %llu > 8 MiB", (unsigned long long)cid,
			      (unsigned long long)size);
	if (!ps->f[4].len)
		return refuse(ps, "cache %llu: empty name", (unsigned long long)cid);
	c = &t->caches[t->nr_caches];
	*c = (struct replay_cache){ .cid = cid, .object_size = object_size, .size = size };
	snprintf(c->name, sizeof(c->name), "replay-%.*s", (int)ps->f[4].len, ps->f[4].s);
	*h = ++t->nr_caches;
	return 0;
}

/* ---------------------------------------------------------------- events */

static int parse_slots(struct parser *ps)
{
	u64 slots;
	int err;

	err = fields(ps, 2) ?: number(ps, 1, 10, ~0ULL, &slots);
	if (err)
		return err;
	if (ps->slot)
		return refuse(ps, "S given twice");
	if (!slots)
		return refuse(ps, "S 0");
	if (slots > REPLAY_MAX_SLOTS)
		return refuse(ps, "S %llu larger than %lu", (unsigned long long)slots,
			      REPLAY_MAX_SLOTS);
	ps->slot = vzalloc(slots * sizeof(*ps->slot));
	if (!ps->slot)
		return refuse(ps, "no memory for %llu slots", (unsigned long long)slots);
	ps->t->slots = slots;
	return 0;
}

/* The field count of an event line (@n) and its id (field 1); S must have come. */
static int id_and_cpu(struct parser *ps, unsigned int n, u64 *id)
{
	int err = fields(ps, n) ?: number(ps, 1, 10, ~0ULL, id);

	if (err)
		return err;
	if (!ps->slot)
		return refuse(ps, "S missing before the first event");
	return 0;
}

static int check_cpu(struct parser *ps, unsigned int i, u64 *cpu)
{
	int err = number(ps, i, 10, ~0ULL, cpu);

	if (err)
		return err;
	if (*cpu > REPLAY_MAX_CPU)
		return refuse(ps, "cpu %llu > %u", (unsigned long long)*cpu, REPLAY_MAX_CPU);
	return 0;
}

/* The argument of an allocation (field 2), checked for its kind. */
static int alloc_arg(struct parser *ps, enum replay_op op, u64 *arg)
{
	u32 *h;
	int err = number(ps, 2, 10, ~0ULL, arg);

	if (err)
		return err;
	switch (op) {
	case REPLAY_KMALLOC:
		if (!*arg || *arg > REPLAY_MAX_KMALLOC)
			return refuse(ps, "kmalloc size %llu (1 to 4 MiB)", (unsigned long long)*arg);
		return 0;
	case REPLAY_CACHE:
		h = ps->hash ? hash_slot(ps, *arg) : NULL;
		if (!h || !*h)
			return refuse(ps, "cache %llu not declared", (unsigned long long)*arg);
		*arg = *h - 1;
		return 0;
	case REPLAY_PAGES:
		if (*arg > REPLAY_MAX_ORDER)
			return refuse(ps, "order %llu > %u", (unsigned long long)*arg,
				      REPLAY_MAX_ORDER);
		return 0;
	default:
		if (!*arg || *arg > REPLAY_MAX_VMALLOC)
			return refuse(ps, "vmalloc size %llu (1 to 64 MiB)", (unsigned long long)*arg);
		return 0;
	}
}

static int parse_alloc(struct parser *ps, enum replay_op op)
{
	struct replay_trace *t = ps->t;
	unsigned int n = op == REPLAY_VMALLOC ? 4 : 5;
	u64 id, cpu, arg, gfp = 0;
	int err;

	err = id_and_cpu(ps, n, &id);
	if (err)
		return err;
	err = alloc_arg(ps, op, &arg) ?:
	      (op != REPLAY_VMALLOC ? number(ps, 3, 16, 0xffffffffULL, &gfp) : 0) ?:
	      check_cpu(ps, n - 1, &cpu);
	if (err)
		return err;
	if (id >= t->slots)
		return refuse(ps, "id %llu >= S %lu", (unsigned long long)id, t->slots);
	if (ps->slot[id] != NO_EVENT)
		return refuse(ps, "id %llu already live", (unsigned long long)id);
	t->events[t->nr_events] = (struct replay_event){ .op = op, .kind = op, .cpu = cpu,
		.id = id, .arg = arg, .gfp = gfp };
	ps->slot[id] = ++t->nr_events;
	return 0;
}

static int parse_free(struct parser *ps)
{
	struct replay_trace *t = ps->t;
	const struct replay_event *a;
	u64 id, cpu;
	int err;

	err = id_and_cpu(ps, 3, &id) ?: check_cpu(ps, 2, &cpu);
	if (err)
		return err;
	if (id >= t->slots)
		return refuse(ps, "id %llu >= S %lu", (unsigned long long)id, t->slots);
	if (ps->slot[id] == NO_EVENT)
		return refuse(ps, "id %llu not live", (unsigned long long)id);
	a = &t->events[ps->slot[id] - 1];
	t->events[t->nr_events++] = (struct replay_event){ .op = REPLAY_FREE, .kind = a->op,
		.cpu = cpu, .id = id, .arg = a->arg, .gfp = 0 };
	ps->slot[id] = NO_EVENT;
	return 0;
}

static int parse_line(struct parser *ps, const char *s, size_t len)
{
	if (ps->line == 1) {
		if (len != 14 || memcmp(s, "#kmem-replay 1", 14))
			return refuse(ps, "first line is not \"#kmem-replay 1\"");
		return 0;
	}
	if (len && s[0] == '#')
		return 0;
	split(ps, s, len);
	if (ps->f[0].len != 1)
		return refuse(ps, "unknown record '%.*s'", (int)min(ps->f[0].len, (size_t)SHOWN),
			      ps->f[0].s);
	switch (s[0]) {
	case 'S': return parse_slots(ps);
	case 'C': return parse_cache(ps);
	case 'a': return parse_alloc(ps, REPLAY_KMALLOC);
	case 'k': return parse_alloc(ps, REPLAY_CACHE);
	case 'p': return parse_alloc(ps, REPLAY_PAGES);
	case 'v': return parse_alloc(ps, REPLAY_VMALLOC);
	case 'f': return parse_free(ps);
	}
	return refuse(ps, "unknown record '%c'", s[0]);
}

/* ---------------------------------------------------------------- the whole text */

/* Lines, and lines that may declare a cache, for the arrays' sizes. */
static void count_lines(const char *text, size_t len, unsigned long *lines,
			unsigned long *cache_lines)
{
	*lines = *cache_lines = 0;
	for (size_t i = 0; i < len; i++) {
		if (i == 0 || text[i - 1] == '\n') {
			(*lines)++;
			*cache_lines += text[i] == 'C';
		}
	}
}

static int alloc_tables(struct parser *ps, unsigned long lines, unsigned long cache_lines)
{
	struct replay_trace *t = ps->t;
	unsigned int hash_size = 16;

	t->events = vmalloc(max(lines, 1UL) * sizeof(*t->events));
	if (cache_lines) {
		while (hash_size < 2 * cache_lines)
			hash_size <<= 1;
		t->caches = vmalloc(cache_lines * sizeof(*t->caches));
		ps->hash = vzalloc(hash_size * sizeof(*ps->hash));
		ps->hash_mask = hash_size - 1;
	}
	if (!t->events || (cache_lines && (!t->caches || !ps->hash)))
		return refuse(ps, "no memory for %lu lines", lines);
	return 0;
}

static int parse_all(struct parser *ps, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	unsigned long lines, cache_lines;
	int err;

	count_lines(text, len, &lines, &cache_lines);
	err = alloc_tables(ps, lines, cache_lines);
	if (err)
		return err;
	if (!len) {
		ps->line = 1;
		return refuse(ps, "first line is not \"#kmem-replay 1\"");
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;

		ps->line++;
		err = parse_line(ps, p, eol - p);
		if (err)
			return err;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/**
 * replay_parse - read a whole "kmem-replay 1" trace into @t
 * @text: the trace (not NUL-terminated; a last newline or none)
 * @len: its length in bytes
 * @t: filled: the events, the caches, S
 *
 * Every refusal of issue 34's format is one pr_err() line "replay: line N:
 * <reason>", also kept in @t->error; then nothing is kept.
 * Context: process context, may sleep (vmalloc()).
 * Return: 0, or -EINVAL when the trace is refused (or memory for it is
 * short, refused the same way); @t then holds no memory.
 */
int replay_parse(const char *text, size_t len, struct replay_trace *t)
{
	struct parser ps = { .t = t, .line = 0 };
	int err;

	*t = (struct replay_trace){ 0 };
	err = parse_all(&ps, text, len);
	vfree(ps.slot);
	vfree(ps.hash);
	if (err) {
		struct replay_error e = t->error;

		replay_free_trace(t);
		t->error = e;
	}
	return err;
}

/**
 * replay_free_trace - free what replay_parse() allocated for @t
 * @t: a parsed trace, or one replay_parse() refused (then there is nothing)
 *
 * Context: process context.
 */
void replay_free_trace(struct replay_trace *t)
{
	vfree(t->events);
	vfree(t->caches);
	*t = (struct replay_trace){ 0 };
}
