/*
 * storbench/text.h - text from users made safe for a terminal.
 *
 * Job names, paths and values come from job files and command lines and
 * may hold control characters; printed raw, ESC starts a terminal escape
 * sequence. sb_text_escape writes them as \t, \n, \r and \xHH (ESC is
 * \x1b), and also the C1 controls U+0080..U+009F (UTF-8 C2 80..C2 9F),
 * which some terminals obey too. A backslash stays as it is, so paths and
 * patterns keep their look (a literal "\x1b" and an escaped ESC print
 * alike). Escape where text leaves for a person (stderr, a report meant to
 * be read), not where it is stored: JSON still gets the real bytes and
 * escapes them its own way.
 *
 * Header-only, no ABI: the host uses it for stderr, and a reporter that
 * prints what the host hands it includes it for its own copy. No state, no
 * allocation; any thread.
 */
#ifndef STORBENCH_TEXT_H
#define STORBENCH_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/*
 * Escape src into dst[size] (NUL-terminated; cut between escapes when it
 * does not fit). Returns the length the whole escaped text has, so
 * ret >= size means it was cut. An escape takes at most 4 bytes per byte.
 */
static inline size_t sb_text_escape(char *dst, size_t size, const char *src)
{
	size_t n = 0, w = 0; /* the whole length, and what dst holds */

	for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
		char one[12];
		size_t k;

		if (*p == '\t')
			k = (size_t)snprintf(one, sizeof(one), "\\t");
		else if (*p == '\n')
			k = (size_t)snprintf(one, sizeof(one), "\\n");
		else if (*p == '\r')
			k = (size_t)snprintf(one, sizeof(one), "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			k = (size_t)snprintf(one, sizeof(one), "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			k = (size_t)snprintf(one, sizeof(one), "\\xc2\\x%02x",
					     *++p);
		else
			k = (size_t)snprintf(one, sizeof(one), "%c", *p);
		/* Once something did not fit, nothing after it is written,
		 * so the text is never cut inside an escape. */
		if (w == n && n + k < size) {
			memcpy(dst + n, one, k);
			w += k;
		}
		n += k;
	}
	if (size)
		dst[w] = '\0';
	return n;
}

/* Whether s needs sb_text_escape at all (most text does not). */
static inline int sb_text_needs_escape(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f ||
		    (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return 1;
	return 0;
}

#endif
