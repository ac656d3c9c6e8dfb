/*
 * tests/host/fuzz_replay.c - run a libFuzzer target over files, without
 * libFuzzer: `make test` uses it to replay the committed corpora
 * (tests/host/corpus/NAME/) with the host compiler and the sanitizers.
 * Linked with tests/host/fuzz_NAME.c, it is fuzz_NAME_replay:
 *
 *	fuzz_NAME_replay [FILE|DIR]...	(default: tests/host/corpus/NAME)
 *
 * The whole replay is one case for tests/host/run.sh ("1 passed"); a
 * crash (sanitizer, failed check) ends the program, which run.sh counts
 * as a failure.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int passed;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long size;

	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size ? size : 1);
	if (!buf || fread(buf, 1, size, f) != (size_t)size) {
		perror(path);
		exit(1);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	passed++;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
	struct stat st;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		exit(1);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
		sprintf(names[n++], "%s/%s", path, e->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		run_file(names[i]);
		free(names[i]);
	}
	free(names);
}

/* fuzz_NAME_replay's own corpus: tests/host/corpus/NAME */
static void run_own_corpus(const char *argv0)
{
	const char *name = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	size_t len = strlen(name);
	char dir[256];

	if (strncmp(name, "fuzz_", 5) || len <= 12 || strcmp(name + len - 7, "_replay")) {
		fprintf(stderr, "%s: not named fuzz_NAME_replay: give the corpus\n", argv0);
		exit(1);
	}
	snprintf(dir, sizeof(dir), "tests/host/corpus/%.*s", (int)(len - 12), name + 5);
	run_path(dir);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		run_own_corpus(argv[0]);
	for (int i = 1; i < argc; i++)
		run_path(argv[i]);
	printf("ok 1 %d inputs replayed\n", passed);
	printf("%s: 1 passed, 0 failed\n", argv[0]);
	return 0;
}
