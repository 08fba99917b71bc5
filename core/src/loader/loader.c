/*
 * The only file that speaks libltdl. Plugins are opened RTLD_LOCAL-style (no
 * symbol of one plugin can satisfy another's), by full path, on the main
 * thread.
 */
#include "loader.h"
#include "fio_engines.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltdl.h>

#include "../sb_ctx.h"
#include "../util/str.h"

static int add_dir(struct sb_loader *l, const char *dir, size_t len)
{
	char **grown;

	if (!len)
		return 0;
	grown = realloc(l->dirs, (l->ndirs + 1) * sizeof(*l->dirs));
	if (!grown)
		return -ENOMEM;
	l->dirs = grown;
	l->dirs[l->ndirs] = strndup(dir, len);
	if (!l->dirs[l->ndirs])
		return -ENOMEM;
	l->ndirs++;
	return 0;
}

void sb_loader_exe_dir(char *dir, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", dir, size - 1);
	char *slash;

	if (n <= 0) {
		dir[0] = '\0';
		return;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
}

int sb_loader_in_build_tree(const char *exe)
{
	char bin[PATH_MAX];

	if (!*exe || !realpath(SB_BUILD_BIN_DIR, bin))
		return 0;
	return strcmp(exe, bin) == 0;
}

/*
 * The installed plugins are found from the binary's own folder, never from
 * the prefix the build was configured with: `cmake --install --prefix X` or
 * a package unpacked elsewhere must load X's plugins, not another install's
 * of another version.
 */
static int add_installed_dir(struct sb_loader *l, const char *exe)
{
	char dir[PATH_MAX], real[PATH_MAX];
	int n;

	if (SB_PLUGIN_DIR_FROM_BIN[0] == '/')
		return add_dir(l, SB_PLUGIN_DIR_FROM_BIN,
			       strlen(SB_PLUGIN_DIR_FROM_BIN));
	if (!*exe)
		return 0;
	n = snprintf(dir, sizeof(dir), "%s/%s", exe, SB_PLUGIN_DIR_FROM_BIN);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return 0;
	/* Listed and reported without the bin/.. detour when it exists. */
	if (realpath(dir, real))
		return add_dir(l, real, strlen(real));
	return add_dir(l, dir, (size_t)n);
}

int sb_loader_init(struct sb_loader *l, struct sb_ctx *ctx,
		   const char *const *cli_dirs, size_t ncli)
{
	const char *env = getenv("STORBENCH_PLUGIN_PATH");
	char exe[PATH_MAX];
	int rc = 0;

	memset(l, 0, sizeof(*l));
	if (lt_dlinit() != 0)
		return sb_err(ctx, -ENOMEM, "cannot start libltdl: %s",
			      lt_dlerror());
	l->ltdl_up = 1;
	for (size_t i = 0; i < ncli && !rc; i++) {
		struct stat st;

		/* A mistyped --plugin-dir would otherwise be skipped quietly.
		 */
		if (stat(cli_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode))
			return sb_err(ctx, -ENOTDIR,
				      "--plugin-dir=%s: not a directory",
				      cli_dirs[i]);
		rc = add_dir(l, cli_dirs[i], strlen(cli_dirs[i]));
	}
	while (env && *env && !rc) {
		const char *colon = strchr(env, ':');
		size_t len = colon ? (size_t)(colon - env) : strlen(env);

		rc = add_dir(l, env, len);
		env = colon ? colon + 1 : NULL;
	}
	sb_loader_exe_dir(exe, sizeof(exe));
	/* A binary in the build tree is not installed: it loads the plugins
	 * built with it, never an install's of another version. */
	if (!rc && sb_loader_in_build_tree(exe))
		rc = add_dir(l, SB_BUILD_PLUGIN_DIR,
			     strlen(SB_BUILD_PLUGIN_DIR));
	else if (!rc)
		rc = add_installed_dir(l, exe);
	if (rc)
		return sb_err(ctx, rc, "out of memory");
	return 0;
}

void sb_loader_free(struct sb_loader *l)
{
	while (l->plugins) {
		struct sb_plugin *p = l->plugins;

		l->plugins = p->next;
		if (SB_HAS_FIELD(p->desc, unload) && p->desc->unload)
			p->desc->unload(p->state);
		free(p->state);
		lt_dlclose(p->dl);
		free(p->path);
		free(p);
	}
	while (l->refusals) {
		struct sb_refusal *r = l->refusals;

		l->refusals = r->next;
		free(r->path);
		free(r->why);
		free(r);
	}
	for (size_t i = 0; i < l->ndirs; i++)
		free(l->dirs[i]);
	free(l->dirs);
	if (l->ltdl_up)
		lt_dlexit();
	memset(l, 0, sizeof(*l));
}

static struct sb_plugin *by_name(struct sb_loader *l, const char *name)
{
	for (struct sb_plugin *p = l->plugins; p; p = p->next)
		if (strcmp(p->desc->name, name) == 0)
			return p;
	return NULL;
}

static struct sb_plugin *by_path(struct sb_loader *l, const char *path)
{
	for (struct sb_plugin *p = l->plugins; p; p = p->next)
		if (strcmp(p->path, path) == 0)
			return p;
	return NULL;
}

/* Remember why path was refused (for --list-plugins) and say it in ctx. */
static int refuse(struct sb_loader *l, struct sb_ctx *ctx, const char *path,
		  const char *why)
{
	struct sb_refusal *r = calloc(1, sizeof(*r)), **tail;

	if (r) {
		r->path = strdup(path);
		r->why = strdup(why);
		for (tail = &l->refusals; *tail; tail = &(*tail)->next)
			;
		*tail = r;
	}
	return sb_err(ctx, -EINVAL, "refused plugin %s: %s", path, why);
}

static void copy_ops(struct sb_plugin *p)
{
	size_t have = *(const uint32_t *)p->desc->ops, room = sizeof(p->ops);

	switch (p->desc->kind) {
	case SB_KIND_ENGINE:
		room = sizeof(p->ops.engine);
		break;
	case SB_KIND_GENERATOR:
		room = sizeof(p->ops.generator);
		break;
	case SB_KIND_REPORTER:
		room = sizeof(p->ops.reporter);
		break;
	}
	memcpy(&p->ops, p->desc->ops, have < room ? have : room);
}

/* Load one file, validate it, register it. */
/* The plugin's own state (ABI 2.1) and its load() hook. */
static int load_state(struct sb_plugin *p, char *why, size_t len)
{
	const struct sb_plugin_descriptor *d = p->desc;
	int rc;

	if (!SB_HAS_FIELD(d, plugin_state_size))
		return 0;
	if (d->plugin_state_size &&
	    !(p->state = calloc(1, d->plugin_state_size))) {
		snprintf(why, len, "out of memory for its %u bytes of state",
			 (unsigned)d->plugin_state_size);
		return -ENOMEM;
	}
	if (!SB_HAS_FIELD(d, load) || !d->load)
		return 0;
	why[0] = '\0';
	rc = d->load(p->state, why, len);
	if (rc && !why[0])
		snprintf(why, len, "load() failed: %s",
			 strerror(rc < 0 ? -rc : EIO));
	else if (rc) {
		char msg[512];

		snprintf(msg, sizeof(msg), "load() failed: %s", why);
		snprintf(why, len, "%s", msg);
	}
	return rc ? (rc < 0 ? rc : -EIO) : 0;
}

static int load_path(struct sb_loader *l, struct sb_ctx *ctx, const char *file,
		     struct sb_plugin **out)
{
	char path[PATH_MAX], why[512];
	const struct sb_plugin_descriptor *d;
	struct sb_plugin *p, *dup, **tail;
	lt_dladvise advise;
	lt_dlhandle dl;
	struct stat st;
	void *probe;

	if (stat(file, &st) != 0)
		return sb_err(ctx, -errno, "cannot load plugin %s: %s", file,
			      strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse(l, ctx, file, "not a regular file");
	if (!realpath(file, path))
		return sb_err(ctx, -errno, "cannot load plugin %s: %s", file,
			      strerror(errno));
	p = by_path(l, path);
	if (p) {
		*out = p;
		return 0;
	}

	/* Bind every symbol now: a plugin using a symbol nothing defines is
	 * refused here instead of killing the process at its first call, and
	 * dlerror() names the cause, where libltdl says "file not found" for
	 * any file it found but could not load. Holding the probe until
	 * libltdl has the file open makes that open reuse this one. */
	probe = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!probe) {
		const char *e = dlerror();
		size_t plen = strlen(path);

		if (e && strncmp(e, path, plen) == 0 && e[plen] == ':')
			e += plen + 1 + (e[plen + 1] == ' ');
		snprintf(why, sizeof(why), "cannot be loaded: %s",
			 e ? e : "unknown error");
		return refuse(l, ctx, path, why);
	}
	if (lt_dladvise_init(&advise) || lt_dladvise_local(&advise)) {
		dlclose(probe);
		return sb_err(ctx, -ENOMEM, "libltdl: %s", lt_dlerror());
	}
	dl = lt_dlopenadvise(path, advise);
	lt_dladvise_destroy(&advise);
	dlclose(probe);
	if (!dl) {
		snprintf(why, sizeof(why), "cannot be loaded: %s",
			 lt_dlerror());
		return refuse(l, ctx, path, why);
	}
	d = lt_dlsym(dl, SB_PLUGIN_SYMBOL);
	if (!d) {
		lt_dlclose(dl);
		return refuse(l, ctx, path,
			      "has no descriptor symbol '" SB_PLUGIN_SYMBOL
			      "' (is it a storbench plugin?)");
	}
	if (sb_plugin_validate(d, why, sizeof(why))) {
		lt_dlclose(dl);
		return refuse(l, ctx, path, why);
	}
	dup = by_name(l, d->name);
	if (dup) {
		snprintf(why, sizeof(why),
			 "name '%s' is already taken by the plugin at %s",
			 d->name, dup->path);
		lt_dlclose(dl);
		return refuse(l, ctx, path, why);
	}

	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(path))) {
		free(p);
		lt_dlclose(dl);
		return sb_err(ctx, -ENOMEM, "out of memory");
	}
	p->dl = dl;
	p->desc = d;
	if (load_state(p, why, sizeof(why))) {
		free(p->state);
		free(p->path);
		free(p);
		lt_dlclose(dl);
		return refuse(l, ctx, path, why);
	}
	copy_ops(p);
	for (tail = &l->plugins; *tail; tail = &(*tail)->next)
		;
	*tail = p;
	*out = p;
	return 0;
}

static const char *article(uint32_t kind)
{
	return kind == SB_KIND_ENGINE ? "an" : "a";
}

static int kind_matches(struct sb_ctx *ctx, const struct sb_plugin *p,
			uint32_t kind)
{
	if (p->desc->kind == kind)
		return 0;
	return sb_err(ctx, -EINVAL, "plugin '%s' (%s) is %s %s, not %s %s",
		      p->desc->name, p->path, article(p->desc->kind),
		      sb_kind_name(p->desc->kind), article(kind),
		      sb_kind_name(kind));
}

/* An engine storbench lacks, and what fio's engine of that name is for. */
static int no_engine(struct sb_ctx *ctx, const char *name, const char *dirs)
{
	const struct sb_fio_engine *e = sb_fio_engine_find(name);

	if (!e)
		return sb_err(ctx, -ENOENT,
			      "storbench has no engine named '%s' (searched "
			      "%s)",
			      name, dirs);
	return sb_err(ctx, -ENOENT,
		      "storbench has no engine named '%s': %s is %s engine "
		      "for %s (searched %s)",
		      name, name,
		      e->origin == SB_FIO_ENG_EXTERNAL ? "an external fio"
						       : "fio's",
		      e->what, dirs);
}

int sb_loader_find(struct sb_loader *l, struct sb_ctx *ctx, const char *spec,
		   uint32_t kind, const struct sb_plugin **out)
{
	struct sb_plugin *p = NULL;
	char file[PATH_MAX];
	int rc;

	if (strncmp(spec, "external:", 9) == 0 || strchr(spec, '/')) {
		if (strncmp(spec, "external:", 9) == 0)
			spec += 9;
		rc = load_path(l, ctx, spec, &p);
		if (rc)
			return rc;
		*out = p;
		return kind_matches(ctx, p, kind);
	}
	p = by_name(l, spec);
	for (size_t i = 0; !p && i < l->ndirs; i++) {
		if (!sb_join_path(file, sizeof(file), l->dirs[i], spec,
				  ".so") ||
		    access(file, F_OK) != 0)
			continue;
		rc = load_path(l, ctx, file, &p);
		if (rc)
			return rc;
	}
	if (!p) {
		char dirs[1024] = "";

		for (size_t i = 0; i < l->ndirs; i++) {
			if (i)
				sb_strlcat(dirs, ":", sizeof(dirs));
			sb_strlcat(dirs, l->dirs[i], sizeof(dirs));
		}
		if (kind == SB_KIND_ENGINE)
			return no_engine(ctx, spec, dirs);
		return sb_err(ctx, -ENOENT,
			      "no %s plugin named '%s' (searched %s)",
			      sb_kind_name(kind), spec, dirs);
	}
	*out = p;
	return kind_matches(ctx, p, kind);
}

static int is_so(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && strcmp(name + n - 3, ".so") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sb_loader_load_all(struct sb_loader *l, struct sb_ctx *ctx)
{
	for (size_t i = 0; i < l->ndirs; i++) {
		DIR *dir = opendir(l->dirs[i]);
		char *names[512];
		size_t n = 0;
		struct dirent *e;

		if (!dir)
			continue;
		while ((e = readdir(dir)) && n < 512)
			if (is_so(e->d_name) && (names[n] = strdup(e->d_name)))
				n++;
		closedir(dir);
		/* Sorted, so which of two same-named plugins wins is stable. */
		qsort(names, n, sizeof(*names), cmp_str);
		for (size_t j = 0; j < n; j++) {
			char file[PATH_MAX];
			struct sb_plugin *p;

			if (sb_join_path(file, sizeof(file), l->dirs[i],
					 names[j], ""))
				load_path(l, ctx, file, &p);
			free(names[j]);
		}
	}
}
