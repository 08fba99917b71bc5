#include "sb_ctx.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <storbench/text.h>

#include "util/msg.h"

/* A line on stderr at most; a longer message is cut in its middle. */
#define SB_LOG_LINE_MAX 2048

int sb_verr(struct sb_ctx *ctx, int code, const char *fmt, va_list ap)
{
	sb_msg_vformat(ctx->err, sizeof(ctx->err), fmt, ap);
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

	sb_msg_format(msg, sizeof(msg), "%s: %s", prefix, ctx->err);
	memcpy(ctx->err, msg, sizeof(msg));
	return code;
}

void sb_vlog(const struct sb_ctx *ctx, uint32_t level, const char *who,
	     const char *fmt, va_list ap)
{
	static const char *const tags[] = {"error: ", "warning: ", "", ""};
	/* Escaping makes a byte at most four. */
	char msg[SB_LOG_LINE_MAX], esc[SB_LOG_LINE_MAX * 4],
		line[SB_LOG_LINE_MAX];
	size_t n;

	if ((int)level > ctx->log_level)
		return;
	if ((int)level < 0)
		level = SB_LOG_ERROR;
	/* The message echoes job files and command lines: escaped here, on
	 * its way to the terminal, so no control character reaches it. */
	sb_msg_vformat(msg, sizeof(msg), fmt, ap);
	sb_text_escape(esc, sizeof(esc), msg);
	sb_msg_format(line, sizeof(line) - 1, "storbench: %s%s%s%s",
		      tags[level], who ? who : "", who ? ": " : "", esc);
	n = strlen(line);
	line[n++] = '\n';
	/* One write(2) per line keeps concurrent workers' lines whole. */
	if (write(STDERR_FILENO, line, n) < 0)
		return;
}

void sb_log(const struct sb_ctx *ctx, uint32_t level, const char *who,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vlog(ctx, level, who, fmt, ap);
	va_end(ap);
}
