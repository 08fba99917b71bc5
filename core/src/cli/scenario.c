/*
 * The scenario library (scenario.h). A scenario is NAME.fio in the
 * library's folder; its first comment line says what it models, and a
 * "; defaults: KEY=VALUE ..." comment gives the values its ${KEY}s take
 * when the environment has none: fio itself refuses an option whose
 * variable is unset, so the file stays a plain fio job file and the
 * defaults are storbench's to apply.
 */
#include "scenario.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../jobfile/jobfile.h"
#include "../loader/loader.h"
#include "../sb_ctx.h"
#include "../util/str.h"

int sb_scenario_dir(char *dir, size_t size)
{
	char exe[PATH_MAX], real[PATH_MAX];
	int n;

	sb_loader_exe_dir(exe, sizeof(exe));
	if (sb_loader_in_build_tree(exe))
		n = snprintf(dir, size, "%s", SB_SOURCE_JOBS_DIR);
	else if (SB_JOBS_DIR_FROM_BIN[0] == '/')
		n = snprintf(dir, size, "%s", SB_JOBS_DIR_FROM_BIN);
	else
		n = snprintf(dir, size, "%s/%s", exe, SB_JOBS_DIR_FROM_BIN);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	/* Said without the bin/.. detour when it exists. */
	if (realpath(dir, real) && strlen(real) < size)
		memcpy(dir, real, strlen(real) + 1);
	return 0;
}

static int is_scenario(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 4 &&
	       strcmp(e->d_name + n - 4, ".fio") == 0;
}

/* The library's files, sorted by name; the count, or -errno with the reason
 * in ctx. */
static int scan(struct sb_ctx *ctx, char *dir, size_t size,
		struct dirent ***names)
{
	int n;

	if (sb_scenario_dir(dir, size))
		return sb_err(ctx, -ENAMETOOLONG,
			      "the scenario library's path is too long");
	n = scandir(dir, names, is_scenario, alphasort);
	if (n < 0)
		return sb_err(ctx, -errno, "no scenario library in %s: %s", dir,
			      strerror(errno));
	return n;
}

static void free_names(struct dirent **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The first comment line of a job file, without its "; ", into line. */
static void first_comment(const char *path, char *line, size_t size)
{
	FILE *f = fopen(path, "r");
	char buf[1024];

	line[0] = '\0';
	while (f && fgets(buf, sizeof(buf), f)) {
		const char *s = buf;

		if (*s != ';' && *s != '#')
			continue;
		s += strspn(s, ";# \t");
		snprintf(line, size, "%.*s", (int)strcspn(s, "\r\n"), s);
		break;
	}
	if (f)
		fclose(f);
}

int sb_scenario_list(struct sb_ctx *ctx, FILE *f)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], line[1024];
	struct dirent **names;
	int n = scan(ctx, dir, sizeof(dir), &names);

	if (n < 0) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		return SB_EXIT_BAD_INPUT;
	}
	for (int i = 0; i < n; i++) {
		const char *e = names[i]->d_name;

		if (!sb_join_path(path, sizeof(path), dir, e, ""))
			continue;
		first_comment(path, line, sizeof(line));
		fprintf(f, "%-22.*s %s\n", (int)(strlen(e) - 4), e, line);
	}
	free_names(names, n);
	return SB_EXIT_OK;
}

/* The names there are, "a, b, c", into out. */
static void name_list(struct dirent **names, int n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n && len < size; i++) {
		int w = snprintf(out + len, size - len, "%s%.*s", i ? ", " : "",
				 (int)(strlen(names[i]->d_name) - 4),
				 names[i]->d_name);

		if (w < 0)
			break;
		len += (size_t)w;
	}
}

/* Whether name is one of the library's; else the error, with the names. */
static int find(struct sb_ctx *ctx, const char *name, char *path, size_t size)
{
	char dir[PATH_MAX], all[4096];
	struct dirent **names;
	int n = scan(ctx, dir, sizeof(dir), &names), found = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n && !found; i++) {
		const char *e = names[i]->d_name;

		found = strlen(e) == strlen(name) + 4 &&
			strncmp(e, name, strlen(name)) == 0;
	}
	if (found && !sb_join_path(path, size, dir, name, ".fio"))
		found = 0;
	name_list(names, n, all, sizeof(all));
	free_names(names, n);
	if (!found)
		return sb_err(ctx, -ENOENT,
			      "--scenario=%s: no such scenario; the scenarios "
			      "are: %s (storbench --list-scenarios says what "
			      "each models)",
			      name, all);
	return 0;
}

/* The "; defaults:" line's KEY=VALUEs into the environment, where unset:
 * the job file reader takes its ${KEY}s from there. */
static int apply_defaults(struct sb_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[1024];

	if (!f)
		return sb_err(ctx, -errno, "%s: %s", path, strerror(errno));
	while (fgets(buf, sizeof(buf), f)) {
		char *s = buf + strspn(buf, ";# \t"), *tok, *save;

		if (buf[0] != ';' && buf[0] != '#')
			break; /* the comment at the top holds it */
		if (strncmp(s, "defaults:", 9) != 0)
			continue;
		for (tok = strtok_r(s + 9, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			char *eq = strchr(tok, '=');

			if (!eq || eq == tok)
				continue;
			*eq = '\0';
			if (setenv(tok, eq + 1, 0)) {
				fclose(f);
				return sb_err(ctx, -errno, "setenv %s: %s", tok,
					      strerror(errno));
			}
		}
	}
	fclose(f);
	return 0;
}

/* TARGET unset: a file of a fresh folder that nothing else uses. */
static int temp_target(struct sb_ctx *ctx, const char *name, char *tmpdir,
		       size_t tmpsize)
{
	const char *tmp = getenv("TMPDIR");
	char file[PATH_MAX + 256];
	int n;

	n = snprintf(tmpdir, tmpsize, "%s/storbench-XXXXXX",
		     tmp && *tmp ? tmp : "/tmp");
	if (n < 0 || (size_t)n >= tmpsize || !mkdtemp(tmpdir)) {
		int e = n < 0 || (size_t)n >= tmpsize ? ENAMETOOLONG : errno;

		tmpdir[0] = '\0';
		return sb_err(ctx, -e,
			      "cannot make a temporary directory in %s: %s",
			      tmp && *tmp ? tmp : "/tmp", strerror(e));
	}
	if (!sb_join_path(file, sizeof(file), tmpdir, name, ".dat"))
		return sb_err(ctx, -ENAMETOOLONG, "%s: path too long", tmpdir);
	if (setenv("TARGET", file, 1))
		return sb_err(ctx, -errno, "setenv TARGET: %s",
			      strerror(errno));
	return 0;
}

int sb_scenario_read(struct sb_ctx *ctx, const char *name, const char *target,
		     struct sb_jobset *jobs, char *tmpdir, size_t tmpsize)
{
	const char *t = getenv("TARGET");
	char path[PATH_MAX + 256];
	int rc;

	tmpdir[0] = '\0';
	rc = find(ctx, name, path, sizeof(path));
	if (!rc && target && setenv("TARGET", target, 1))
		rc = sb_err(ctx, -errno, "setenv TARGET: %s", strerror(errno));
	else if (!rc && !target && (!t || !*t))
		rc = temp_target(ctx, name, tmpdir, tmpsize);
	if (!rc)
		rc = apply_defaults(ctx, path);
	if (!rc) {
		sb_log(ctx, SB_LOG_INFO, NULL, "scenario %s (%s) on %s", name,
		       path, getenv("TARGET"));
		rc = sb_jobfile_read(ctx, path, jobs);
	}
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		return SB_EXIT_BAD_INPUT;
	}
	return SB_EXIT_OK;
}
