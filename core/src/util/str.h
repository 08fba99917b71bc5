/* Bounded string helpers: every copy states its destination size. */
#ifndef SB_STR_H
#define SB_STR_H

#include <stddef.h>

/* Copy/append src into dst of size bytes, always NUL-terminated; return
 * the length the result would have had (>= size means it was cut). */
/* A blank between list items: space or tab. */
static inline int sb_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Narrow [*b, *e) to leave out leading and trailing blanks. */
static inline void sb_trim_blanks(const char **b, const char **e)
{
	while (*b < *e && sb_is_blank(**b))
		(*b)++;
	while (*e > *b && sb_is_blank((*e)[-1]))
		(*e)--;
}

size_t sb_strlcpy(char *dst, const char *src, size_t size);
size_t sb_strlcat(char *dst, const char *src, size_t size);

/* dst = dir "/" name suffix; NULL when it does not fit. */
char *sb_join_path(char *dst, size_t size, const char *dir, const char *name,
		   const char *suffix);

/*
 * Hide, in place, the secrets a URL may carry: the password of its user
 * information (iscsi://user%password@host/..., smb://user:password@host)
 * and the value of a ...password=... query parameter (libiscsi's
 * ?target_password=), each replaced by "***". Every URL in s counts (a
 * filename= list). Returns how many were hidden.
 */
unsigned sb_url_hide_secrets(char *s);

#endif
