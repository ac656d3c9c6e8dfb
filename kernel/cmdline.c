/*
 * kernel/cmdline.c - find options in the command line.
 *
 * The line is kept as GRUB gave it and searched word by word on demand;
 * there are few options and they are read once, at boot.
 */
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

static char cmdline[512];

/** cmdline_init - keep a copy of the command line */
void cmdline_init(const char *line)
{
	strscpy(cmdline, line, sizeof(cmdline));
}

/** cmdline_raw - the whole command line */
const char *cmdline_raw(void)
{
	return cmdline;
}

/*
 * Find the word that is @key exactly or starts with "@key=".
 * Return its value (after '='), "" for a bare word, or NULL if absent.
 */
static const char *find_word(const char *key, size_t *value_len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while (*p) {
		const char *end;

		while (*p == ' ')
			p++;
		end = p;
		while (*end && *end != ' ')
			end++;
		if (!strncmp(p, key, klen) && (p[klen] == '=' || p + klen == end)) {
			const char *v = p[klen] == '=' ? p + klen + 1 : p + klen;

			*value_len = end - v;
			return v;
		}
		p = end;
	}
	return NULL;
}

/**
 * cmdline_get - the value of "key=value"
 * @key: the option's name
 * @value: where to copy the value (always NUL-terminated)
 * @size: size of @value
 *
 * Return: true if @key was present (a bare "key" gives an empty value).
 */
bool cmdline_get(const char *key, char *value, size_t size)
{
	size_t len;
	const char *v = find_word(key, &len);

	if (!v || !size)
		return false;
	if (len >= size)
		len = size - 1;
	memcpy(value, v, len);
	value[len] = '\0';
	return true;
}

/** cmdline_has - is the word @flag (or "@flag=...") present? */
bool cmdline_has(const char *flag)
{
	size_t len;

	return find_word(flag, &len) != NULL;
}

/**
 * cmdline_get_ulong - the numeric value of "@key=N", or @fallback
 *
 * N is read by kstrtoul() with base 0 (decimal, 0x hex, 0 octal), as
 * Linux's options are.  A value that is not a number is reported and
 * ignored, never half-read: "page_poison=yes" is not 0.
 * Return: N, or @fallback if @key is absent, empty or not a number.
 */
unsigned long cmdline_get_ulong(const char *key, unsigned long fallback)
{
	char buf[32];
	unsigned long value;

	if (!cmdline_get(key, buf, sizeof(buf)) || !buf[0])
		return fallback;
	if (kstrtoul(buf, 0, &value)) {
		pr_warn("Command line: %s=%s is not a number; ignored\n", key, buf);
		return fallback;
	}
	return value;
}

/**
 * cmdline_get_bool - the yes or no of "@key=V", or of a bare "@key" (yes)
 *
 * V is read by kstrtobool(): 1/0, y/n, yes/no, on/off, true/false, as
 * Linux's switches are.  Anything else is reported and ignored.
 * Return: the value, or @fallback if @key is absent or V is neither.
 */
bool cmdline_get_bool(const char *key, bool fallback)
{
	char buf[32];
	bool value;

	if (!cmdline_get(key, buf, sizeof(buf)))
		return fallback;
	if (!buf[0])
		return true;
	if (kstrtobool(buf, &value)) {
		pr_warn("Command line: %s=%s is neither on nor off (1/0, y/n, on/off); ignored\n",
			key, buf);
		return fallback;
	}
	return value;
}
