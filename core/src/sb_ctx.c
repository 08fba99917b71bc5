#include "sb_ctx.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sb_verr(struct sb_ctx *ctx, int code, const char *fmt, va_list ap)
{
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	return code;
}

int sb_err(struct sb_ctx *ctx, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_verr(ctx, code, fmt, ap);
	va_end(ap);
	return code;
}

int sb_err_prefix(struct sb_ctx *ctx, int code, const char *prefix)
{
	char msg[SB_ERRMSG_MAX];

	if (snprintf(msg, sizeof(msg), "%s: %s", prefix, ctx->err) < 0)
		return code;
	memcpy(ctx->err, msg, sizeof(msg));
	return code;
}

void sb_vlog(const struct sb_ctx *ctx, enum sb_log_level level, const char *who,
	     const char *fmt, va_list ap)
{
	static const char *const tags[] = {"error: ", "warning: ", "", ""};
	char line[2048];
	int n;

	if ((int)level > ctx->log_level)
		return;
	if ((int)level < 0)
		level = SB_LOG_ERROR;
	n = snprintf(line, sizeof(line), "storbench: %s%s%s", tags[level],
		     who ? who : "", who ? ": " : "");
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	n = (int)strlen(line);
	if ((size_t)n + 1 >= sizeof(line))
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* One write(2) per line keeps concurrent workers' lines whole. */
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}

void sb_log(const struct sb_ctx *ctx, enum sb_log_level level, const char *who,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vlog(ctx, level, who, fmt, ap);
	va_end(ap);
}
