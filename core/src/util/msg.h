/*
 * Messages that keep their reason and cannot drive a terminal.
 *
 * A message is built in layers ("job x: laying out: psync open: cannot open
 * PATH: No such file or directory"), each into a fixed buffer. Cut at the
 * end, a long PATH pushes the reason out of every layer. sb_msg_format
 * instead shortens the longest word (in practice the path) in its middle,
 * "/tmp/aaaa...aaaa/f", so the start, the end and the reason survive
 * however many layers wrap it.
 *
 * Control characters are escaped where text leaves for stderr (sb_vlog),
 * with <storbench/text.h>.
 */
#ifndef SB_MSG_H
#define SB_MSG_H

#include <stdarg.h>
#include <stddef.h>

#include <storbench/plugin.h>

/* Copy src into dst[size], shortened in the middle of its longest word
 * (or of the whole text) when it does not fit. */
void sb_msg_fit(char *dst, size_t size, const char *src);

/* printf into dst[size], shortened as sb_msg_fit does; returns dst. */
char *sb_msg_vformat(char *dst, size_t size, const char *fmt, va_list ap);
char *sb_msg_format(char *dst, size_t size, const char *fmt, ...)
	SB_PRINTF(3, 4);

#endif
