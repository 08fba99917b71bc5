/*
 * fio's data pattern syntax, shared by buffer_pattern and verify_pattern:
 * a sequence of hex numbers (0xdeadbeef, written as bytes in the order the
 * digits appear), decimal numbers (as the smallest little-endian integer
 * that holds them, as fio does), strings in double quotes ("abc"), and
 * files in single quotes ('name': the file's bytes, as fio reads them),
 * concatenated: "ab"0x00'file'. verify_pattern also takes %o, the offset of
 * the block (8 bytes, little-endian), which is reported through *has_offset.
 */
#ifndef SB_DATA_PATTERN_H
#define SB_DATA_PATTERN_H

#include <stddef.h>

#define SB_DATA_PATTERN_MAX	512 /* fio's MAX_PATTERN_SIZE */
#define SB_DATA_PATTERN_OFFSETS 8   /* fio's verify_fmt[8]: %o at most */

/* 0 with out[0..*len) filled, or -EINVAL with err naming what is wrong.
 * allow_offset: accept %o (verify_pattern). */
int sb_data_pattern_parse(const char *s, unsigned char *out, size_t cap,
			  size_t *len, int allow_offset, int *has_offset,
			  char *err, size_t errlen);

/* The same with %o allowed, and where each %o's 8 bytes start in out:
 * offs[0..*noffs), offs holding SB_DATA_PATTERN_OFFSETS. */
int sb_data_pattern_parse_offsets(const char *s, unsigned char *out, size_t cap,
				  size_t *len, size_t *offs, unsigned *noffs,
				  char *err, size_t errlen);

#endif
