#include "secret.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sb_ctx.h"

int sb_secret_is_reference(const char *value)
{
	return strncmp(value, "env:", 4) == 0 ||
	       strncmp(value, "file:", 5) == 0;
}

static int from_env(struct sb_ctx *ctx, const char *name, const char *var,
		    const char *where, char **out)
{
	const char *v = *var ? getenv(var) : NULL;

	if (!v)
		return sb_err(ctx, -ENOENT,
			      "%s: %s=env:%s: no such environment variable",
			      where, name, var);
	*out = strdup(v);
	return *out ? 0 : sb_err(ctx, -ENOMEM, "out of memory");
}

static int from_file(struct sb_ctx *ctx, const char *name, const char *path,
		     const char *where, char **out)
{
	char *buf = malloc(SB_SECRET_MAX + 1);
	size_t got = 0;
	ssize_t n = 1;
	int fd, err = 0;

	if (!buf)
		return sb_err(ctx, -ENOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		err = errno;
	while (!err && n > 0 && got <= SB_SECRET_MAX) {
		n = read(fd, buf + got, SB_SECRET_MAX + 1 - got);
		if (n < 0 && errno != EINTR)
			err = errno;
		else if (n > 0)
			got += (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	if (!err && got > SB_SECRET_MAX)
		err = EFBIG;
	if (!err && memchr(buf, '\0', got))
		err = EINVAL;
	if (err) {
		explicit_bzero(buf, SB_SECRET_MAX + 1);
		free(buf);
		return sb_err(ctx, -err, "%s: %s=file:%s: %s", where, name,
			      path,
			      err == EFBIG    ? "larger than 64 KiB"
			      : err == EINVAL ? "holds a NUL byte"
					      : strerror(err));
	}
	/* The newline an editor or `echo` leaves is not part of it. */
	if (got && buf[got - 1] == '\n' && --got && buf[got - 1] == '\r')
		got--;
	buf[got] = '\0';
	*out = buf;
	return 0;
}

int sb_secret_resolve(struct sb_ctx *ctx, const char *name, const char *value,
		      const char *where, char **out)
{
	*out = NULL;
	if (strncmp(value, "env:", 4) == 0)
		return from_env(ctx, name, value + 4, where, out);
	if (strncmp(value, "file:", 5) == 0)
		return from_file(ctx, name, value + 5, where, out);
	*out = strdup(value);
	return *out ? 0 : sb_err(ctx, -ENOMEM, "out of memory");
}
