#include "msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SB_MSG_ELLIPSIS	    "..."
#define SB_MSG_ELLIPSIS_LEN 3

static int is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* The longest run of non-blank characters of s[0..n): start and length. */
static size_t longest_word(const char *s, size_t n, size_t *start)
{
	size_t best = 0;

	*start = 0;
	for (size_t i = 0; i < n;) {
		size_t b;

		while (i < n && s[i] == ' ')
			i++;
		b = i;
		while (i < n && s[i] != ' ')
			i++;
		if (i - b > best) {
			best = i - b;
			*start = b;
		}
	}
	return best;
}

void sb_msg_fit(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src), room, drop, word, start, b, e;

	if (!size)
		return;
	if (n < size) {
		memmove(dst, src, n + 1);
		return;
	}
	room = size - 1;
	if (room < SB_MSG_ELLIPSIS_LEN + 2) {
		memmove(dst, src, room);
		dst[room] = '\0';
		return;
	}
	/* Bytes to leave out, with room for the ellipsis. */
	drop = n - room + SB_MSG_ELLIPSIS_LEN;
	word = longest_word(src, n, &start);
	/* One character of the word kept on each side shows where it was
	 * cut; a text with no such word loses its own middle. */
	if (word >= drop + 2)
		b = start + (word - drop) / 2;
	else
		b = (n - drop) / 2;
	e = b + drop;
	/* Never split a UTF-8 sequence: widen the cut to whole characters. */
	while (b > 0 && is_cont(src[b]))
		b--;
	while (e < n && is_cont(src[e]))
		e++;
	memmove(dst, src, b);
	memcpy(dst + b, SB_MSG_ELLIPSIS, SB_MSG_ELLIPSIS_LEN);
	memmove(dst + b + SB_MSG_ELLIPSIS_LEN, src + e, n - e + 1);
}

char *sb_msg_vformat(char *dst, size_t size, const char *fmt, va_list ap)
{
	va_list again;
	char *full;
	int n;

	va_copy(again, ap);
	n = vsnprintf(dst, size, fmt, ap);
	/* Too long: the whole text once more, to cut where it hurts least.
	 * Without memory for it the end-cut text stays. */
	if (n >= 0 && (size_t)n >= size && (full = malloc((size_t)n + 1))) {
		vsnprintf(full, (size_t)n + 1, fmt, again);
		sb_msg_fit(dst, size, full);
		free(full);
	}
	va_end(again);
	return dst;
}

char *sb_msg_format(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_msg_vformat(dst, size, fmt, ap);
	va_end(ap);
	return dst;
}
