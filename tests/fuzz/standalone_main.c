/*
 * Replays inputs through a fuzz target without libFuzzer, so a plain gcc
 * build checks each target's seed corpus (and any reproducer) on every test
 * run. Each argument is a file or a directory of files; each input is one
 * TAP test, read under its own path so a job file's includes resolve beside
 * it. A crash, a broken promise or a sanitizer report ends the stream
 * early, which fails the test.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

struct inputs {
	char **path;
	size_t n;
	size_t cap;
};

static int add(struct inputs *in, const char *path)
{
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 64;
		char **p = realloc(in->path, cap * sizeof(*p));

		if (!p)
			return -1;
		in->path = p;
		in->cap = cap;
	}
	in->path[in->n] = strdup(path);
	if (!in->path[in->n])
		return -1;
	in->n++;
	return 0;
}

/* A directory's regular files, by name; dot files are not inputs. */
static int collect(struct inputs *in, const char *arg)
{
	struct dirent **ents;
	struct stat st;
	int n, rc = 0;

	if (stat(arg, &st) != 0) {
		fprintf(stderr, "fuzz replay: cannot stat %s\n", arg);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return add(in, arg);
	n = scandir(arg, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (!rc && ents[i]->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", arg,
			     ents[i]->d_name) < (int)sizeof(path) &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode))
			rc = add(in, path);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

static int slurp(const char *path, unsigned char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	unsigned char *buf = malloc(cap);

	while (f && buf) {
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			unsigned char *p = realloc(buf, cap *= 2);

			if (!p)
				break;
			buf = p;
		}
	}
	if (!f || !buf || ferror(f)) {
		if (f)
			fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

int main(int argc, char **argv)
{
	struct inputs in = {0};
	int failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (collect(&in, argv[i]) != 0)
			return 2;
	printf("TAP version 13\n1..%zu\n", in.n);
	for (size_t i = 0; i < in.n; i++) {
		unsigned char *data;
		size_t len;

		fflush(stdout);
		if (slurp(in.path[i], &data, &len) != 0) {
			printf("not ok %zu - %s: cannot read it\n", i + 1,
			       in.path[i]);
			failed = 1;
		} else {
			int rc = sb_fuzz_one(in.path[i], data, len);

			printf("ok %zu - %s%s\n", i + 1, in.path[i],
			       rc ? " # SKIP the target does not run it" : "");
			free(data);
		}
		free(in.path[i]);
	}
	free(in.path);
	return failed;
}
