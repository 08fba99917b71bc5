#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../options/options.h"
#include "../sb_ctx.h"
#include "../util/suggest.h"

/*
 * Debian's inih (r55) reads into a buffer of INI_MAX_LINE (200) bytes and
 * would take the rest of a longer line as a line of its own; this reader
 * hands it whole lines only and refuses a longer one, so nothing is ever
 * cut silently.
 */
struct reader {
	FILE *f;
	const char *path;
	unsigned line; /* of the line last handed to inih */
	char err[512]; /* the first error, said by the reader or handler */
	unsigned err_line;
	char *buf;
	size_t cap;
	struct sb_config *cf;
	struct sb_conf_entry **tail;
	struct sb_ctx *ctx;
};

static void say(struct reader *r, const char *fmt, ...) SB_PRINTF(2, 3);
static void say(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->err_line)
		return;
	r->err_line = r->line;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
}

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	ssize_t n = getline(&r->buf, &r->cap, r->f);
	const char *close;
	size_t skip;

	if (n < 0)
		return NULL;
	r->line++;
	if (memchr(r->buf, '\0', (size_t)n)) {
		say(r, "holds a NUL byte");
		return NULL;
	}
	/* num counts the NUL; the newline must fit too, or inih cuts. */
	if (n >= num - 1 && !(n == num - 1 && r->buf[n - 1] == '\n')) {
		say(r, "line longer than %d characters", num - 2);
		return NULL;
	}
	/* inih would take an indented line for more of the previous value
	 * (its multi-line entries): indentation here is only layout. */
	skip = strspn(r->buf, " \t");
	/* And it would ignore whatever follows a section's ']'. */
	close = r->buf[skip] == '[' ? strchr(r->buf + skip, ']') : NULL;
	if (close) {
		close += 1 + strspn(close + 1, " \t\r\n");
		if (*close && *close != ';' && *close != '#') {
			say(r, "text after the ']' of a section");
			return NULL;
		}
	}
	memcpy(str, r->buf + skip, (size_t)n - skip + 1);
	return str;
}

static const char *const own_keys[] = {"plugin_dir", "credential_dir", NULL};

static int own_key(struct reader *r, const char *key, const char *value)
{
	struct sb_config *cf = r->cf;

	if (!*value) {
		say(r, "%s needs a value", key);
		return 0;
	}
	if (strcmp(key, "plugin_dir") == 0) {
		size_t n = cf->nplugin_dirs;
		char **grown =
			realloc(cf->plugin_dirs, (n + 1) * sizeof(*grown));
		char where[4200];

		if (grown)
			cf->plugin_dirs = grown;
		grown = realloc(cf->plugin_dir_where, (n + 1) * sizeof(*grown));
		if (grown)
			cf->plugin_dir_where = grown;
		if (!grown || !cf->plugin_dirs)
			return 0;
		snprintf(where, sizeof(where), "%s:%u", r->path, r->line);
		cf->plugin_dirs[n] = strdup(value);
		cf->plugin_dir_where[n] = strdup(where);
		cf->nplugin_dirs++;
		return cf->plugin_dirs[n] && cf->plugin_dir_where[n];
	}
	if (strcmp(key, "credential_dir") == 0) {
		free(cf->credential_dir);
		cf->credential_dir = strdup(value);
		return cf->credential_dir != NULL;
	}
	{
		struct sb_suggest s;

		sb_suggest_init(&s, key);
		for (size_t i = 0; own_keys[i]; i++)
			sb_suggest_offer(&s, own_keys[i]);
		if (s.best)
			say(r,
			    "[storbench] has no key '%s'; did you mean '%s'?%s",
			    key, s.best, "");
		else
			say(r,
			    "[storbench] has no key '%s' (it takes %s and %s)",
			    key, own_keys[0], own_keys[1]);
	}
	return 0;
}

static int handler(void *user, const char *section, const char *key,
		   const char *value)
{
	struct reader *r = user;
	struct sb_conf_entry *e;
	char where[4200];

	if (!*section) {
		say(r, "'%s' comes before any [section]", key);
		return 0;
	}
	if (strcmp(section, "storbench") == 0)
		return own_key(r, key, value);
	e = calloc(1, sizeof(*e));
	snprintf(where, sizeof(where), "%s:%u", r->path, r->line);
	if (!e || !(e->section = strdup(section)) || !(e->key = strdup(key)) ||
	    !(e->value = strdup(value)) || !(e->where = strdup(where))) {
		if (e) {
			free(e->section);
			free(e->key);
			free(e->value);
			free(e);
		}
		say(r, "out of memory");
		return 0;
	}
	*r->tail = e;
	r->tail = &e->next;
	return 1;
}

/* The default files, in the order they are looked for. */
static int default_path(char *buf, size_t len, int which)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (which == 0 && xdg && *xdg)
		return snprintf(buf, len, "%s/storbench/storbench.conf", xdg) <
		       (int)len;
	if (which == 0 && home && *home)
		return snprintf(buf, len, "%s/.config/storbench/storbench.conf",
				home) < (int)len;
	if (which == 1)
		return snprintf(buf, len, "/etc/storbench/storbench.conf") <
		       (int)len;
	return 0;
}

static int parse_file(struct sb_ctx *ctx, struct sb_config *cf, FILE *f,
		      const char *path)
{
	struct reader r = {.f = f, .path = path, .cf = cf, .ctx = ctx};
	int line;

	r.tail = &cf->entries;
	line = ini_parse_stream(read_line, &r, handler, &r);
	free(r.buf);
	if (line < 0)
		return sb_err(ctx, -ENOMEM, "%s: out of memory", path);
	if (!line && r.err_line)
		line = (int)r.err_line;
	if (!line && ferror(f))
		return sb_err(ctx, -EIO, "%s: cannot read it", path);
	if (!line)
		return 0;
	/* inih reports the first bad line; a handler's complaint is about a
	 * line after it or that one. */
	if (r.err_line == (unsigned)line)
		return sb_err(ctx, -EINVAL, "%s:%d: %s", path, line, r.err);
	return sb_err(ctx, -EINVAL,
		      "%s:%d: not a [section] or a 'key = value' line", path,
		      line);
}

int sb_config_read(struct sb_ctx *ctx, struct sb_config *cf, const char *path)
{
	char buf[4096];
	FILE *f = NULL;
	int rc;

	memset(cf, 0, sizeof(*cf));
	if (path) {
		f = fopen(path, "r");
		if (!f)
			return sb_err(ctx, -errno, "--config=%s: %s", path,
				      strerror(errno));
	}
	for (int which = 0; !f && which < 2; which++) {
		if (!default_path(buf, sizeof(buf), which))
			continue;
		f = fopen(buf, "r");
		if (!f && errno != ENOENT && errno != ENOTDIR)
			return sb_err(ctx, -errno, "%s: %s", buf,
				      strerror(errno));
		path = buf;
	}
	if (!f)
		return 0;
	cf->path = strdup(path);
	rc = cf->path ? parse_file(ctx, cf, f, cf->path)
		      : sb_err(ctx, -ENOMEM, "out of memory");
	fclose(f);
	return rc;
}

int sb_opt_replace(struct sb_ctx *ctx, struct sb_opt_source *src,
		   const struct sb_option *o, void *base, const char *value,
		   const char *where)
{
	size_t i = 0;

	while (i < src->n && src->lists[i] != o)
		i++;
	if (o->type == SB_OPT_LIST && i == src->n) {
		if (src->n == sizeof(src->lists) / sizeof(src->lists[0]))
			return sb_err(ctx, -E2BIG, "%s: too many list options",
				      where);
		src->lists[src->n++] = o;
		sb_opt_list_clear(o, base);
	}
	return sb_opt_parse(ctx, o, base, value, where);
}

int sb_config_apply(struct sb_ctx *ctx, const struct sb_config *cf,
		    const char *section, const struct sb_option *table,
		    void *base)
{
	struct sb_opt_source src = {.n = 0};

	for (const struct sb_conf_entry *e = cf ? cf->entries : NULL; e;
	     e = e->next) {
		const struct sb_option *o;
		int rc;

		if (strcmp(e->section, section) != 0)
			continue;
		o = sb_opt_find(table, e->key);
		if (!o)
			continue;
		rc = sb_opt_replace(ctx, &src, o, base, e->value, e->where);
		if (rc)
			return rc;
	}
	return 0;
}

void sb_config_free(struct sb_config *cf)
{
	struct sb_conf_entry *e = cf->entries, *next;

	for (; e; e = next) {
		next = e->next;
		if (e->value)
			explicit_bzero(e->value, strlen(e->value));
		free(e->section);
		free(e->key);
		free(e->value);
		free(e->where);
		free(e);
	}
	for (size_t i = 0; i < cf->nplugin_dirs; i++) {
		free(cf->plugin_dirs[i]);
		free(cf->plugin_dir_where[i]);
	}
	free(cf->plugin_dirs);
	free(cf->plugin_dir_where);
	free(cf->credential_dir);
	free(cf->path);
	memset(cf, 0, sizeof(*cf));
}
