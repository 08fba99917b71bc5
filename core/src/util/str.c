#include "str.h"

#include <stdio.h>
#include <string.h>

size_t sb_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (size) {
		size_t c = n < size - 1 ? n : size - 1;

		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return n;
}

size_t sb_strlcat(char *dst, const char *src, size_t size)
{
	size_t d = strnlen(dst, size);

	if (d == size)
		return d + strlen(src);
	return d + sb_strlcpy(dst + d, src, size - d);
}

char *sb_join_path(char *dst, size_t size, const char *dir, const char *name,
		   const char *suffix)
{
	int n = snprintf(dst, size, "%s/%s%s", dir, name, suffix);

	return (n < 0 || (size_t)n >= size) ? NULL : dst;
}

/* Replace s[from, to) with "***", in place (the result is never longer
 * than a hidden secret of three bytes or more, and an empty one stays). */
static void hide_span(char *s, size_t from, size_t to)
{
	size_t n = to - from, keep = n < 3 ? n : 3;

	memset(s + from, '*', keep);
	memmove(s + from + keep, s + to, strlen(s + to) + 1);
}

unsigned sb_url_hide_secrets(char *s)
{
	unsigned hidden = 0;
	char *p = s;

	while (s && (p = strstr(p, "://"))) {
		char *auth = p + 3, *end = auth + strcspn(auth, "/?#"), *at;
		char *sep = auth + strcspn(auth, ":%@/?#");

		p = auth;
		/* The last '@' of the authority ends the user information. */
		at = NULL;
		for (char *c = auth; c < end; c++)
			if (*c == '@')
				at = c;
		if (at && sep < at && *sep != '@' && at - sep > 1) {
			hide_span(s, (size_t)(sep + 1 - s), (size_t)(at - s));
			hidden++;
		}
	}
	/* ?target_password=...&... as libiscsi takes it. */
	for (p = s; s && (p = strstr(p, "password=")); p += 9) {
		char *val = p + 9;
		size_t n = strcspn(val, "&:");

		if (p == s || !strchr("?&_", p[-1]) || !n)
			continue;
		hide_span(s, (size_t)(val - s), (size_t)(val + n - s));
		hidden++;
	}
	return hidden;
}
