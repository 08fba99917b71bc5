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
