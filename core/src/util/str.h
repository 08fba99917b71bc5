/* Bounded string helpers: every copy states its destination size. */
#ifndef SB_STR_H
#define SB_STR_H

#include <stddef.h>

/* Copy/append src into dst of size bytes, always NUL-terminated; return
 * the length the result would have had (>= size means it was cut). */
size_t sb_strlcpy(char *dst, const char *src, size_t size);
size_t sb_strlcat(char *dst, const char *src, size_t size);

/* dst = dir "/" name suffix; NULL when it does not fit. */
char *sb_join_path(char *dst, size_t size, const char *dir, const char *name,
		   const char *suffix);

#endif
