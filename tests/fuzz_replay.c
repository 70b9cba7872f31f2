// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_replay.c - run a libFuzzer harness over its corpus without libFuzzer: every build
 * links each harness of tests/fuzz with this main() and runs it as an ordinary test
 * (tests/CMakeLists.txt), so the seed inputs and the crashes found and fixed (kept as
 * regression cases) are replayed by every `ctest`, with or without the sanitizers.
 *
 *   fuzz_replay_HARNESS DIR|FILE...
 *
 * Each file of each directory (not recursive, dot files skipped) is passed to
 * LLVMFuzzerTestOneInput() once, in name order. A harness reports a bug by crashing or
 * aborting, so getting to the end is the test passing; an empty or missing corpus fails.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, len = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			uint8_t *p = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!p) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	/* a copy of exactly len bytes, so ASan sees a read past the input as libFuzzer would */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!p)
				abort();
			names = p;
		}
		names[n] = strdup(e->d_name);
		if (!names[n++])
			abort();
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!stat(path, &st) && S_ISREG(st.st_mode)) {
			if (run_file(path))
				rc = -1;
			(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int i, count = 0, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count))
				rc = 1;
		} else if (run_file(argv[i])) {
			rc = 1;
		} else {
			count++;
		}
	}
	if (!count) {
		fprintf(stderr, "%s: no input files\n", argv[0]);
		return 1;
	}
	printf("%s: %d inputs replayed\n", argv[0], count);
	return rc;
}
