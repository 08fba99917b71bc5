/*
 * storbench/json.h - one JSON string writer for every JSON that storbench
 * and its reporters print.
 *
 * Job names, file names, error messages and plugin descriptions are
 * whatever bytes a job file, a command line, a file system or a plugin
 * gave, and JSON text must be UTF-8: a reader that decodes strictly (Python's
 * json, jq, Go) refuses the whole document for one stray byte. The rule:
 *   - a valid UTF-8 sequence is copied as it is, so valid text reads the
 *     same as before and as in fio's own reports;
 *   - each byte that does not begin a valid sequence (a stray continuation
 *     byte, 0xC0, 0xC1 and 0xF5..0xFF, an overlong form, a surrogate
 *     U+D800..U+DFFF, a value past U+10FFFF, a sequence cut short) becomes
 *     one \ufffd, and the bytes after it are read afresh;
 *   - " and \ are escaped as \" and \\; newline, carriage return and tab as
 *     \n, \r and \t; every other control character (U+0000..U+001F) and
 *     DEL as \u00XX (lower-case hex).
 * Escaping \u00XX for an invalid byte instead would name a different
 * character (U+00XX), not the byte, so the replacement character it is.
 *
 * Header-only, no ABI: the CLI and each reporter compile their own copy.
 * The caller says where the text goes with put, which gets pieces of the
 * literal, the quotes included; nothing is allocated, any thread.
 */
#ifndef STORBENCH_JSON_H
#define STORBENCH_JSON_H

#include <stddef.h>
#include <stdint.h>

/* Receives n bytes of the JSON text (not NUL-terminated). */
typedef void (*sb_json_put_fn)(void *arg, const char *s, size_t n);

/*
 * Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte at
 * s begins none. A NUL fails the continuation test, so this never reads
 * past the end of a string.
 */
static inline size_t sb_json_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp, min;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1fu;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0fu;
		min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07u;
		min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Write s (NULL is "") as a JSON string literal, quotes included. Bytes
 * that need no escape go to put in runs, not one by one. */
static inline void sb_json_string(sb_json_put_fn put, void *arg, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *p = s ? s : "", *run = p;

	put(arg, "\"", 1);
	while (*p) {
		unsigned char c = (unsigned char)*p;
		size_t n = sb_json_utf8_len(p);
		char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
		size_t k = 6;

		if (n > 1 || (n == 1 && c >= 0x20 && c != '"' && c != '\\' &&
			      c != 0x7f)) {
			p += n;
			continue;
		}
		if (run < p)
			put(arg, run, (size_t)(p - run));
		if (n == 0) {
			/* U+FFFD: the document stays valid and shows where
			 * the byte was. */
			put(arg, "\\ufffd", 6);
		} else {
			if (c == '"' || c == '\\' || c == '\n' || c == '\r' ||
			    c == '\t') {
				esc[1] = c == '\n'   ? 'n'
					 : c == '\r' ? 'r'
					 : c == '\t' ? 't'
						     : (char)c;
				k = 2;
			}
			put(arg, esc, k);
		}
		run = ++p;
	}
	if (run < p)
		put(arg, run, (size_t)(p - run));
	put(arg, "\"", 1);
}

#endif
