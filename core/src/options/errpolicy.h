/*
 * Which I/O errors a job survives: fio's continue_on_error and ignore_error,
 * with fio 3.33's rule for combining them (td_error.c, options.c):
 *
 *  - An error counts as verify when it is EILSEQ (whatever the direction),
 *    else as read or write by direction.
 *  - It is non-fatal when its kind is enabled -- by continue_on_error, or by
 *    ignore_error giving that kind a list -- AND the error is in that kind's
 *    list, which is the ignore_error list when one was given and {EIO,
 *    EILSEQ} otherwise. So continue_on_error=all alone does not survive
 *    ENOSPC, and ignore_error=,ENOSPC alone does (for writes).
 *
 * fio folds ignore_error into continue_on_error while parsing, so in fio a
 * continue_on_error written after ignore_error overwrites the kinds that
 * ignore_error turned on. These parsers are independent of order; a caller
 * that wants that quirk drops ig's lists for the kinds the later
 * continue_on_error does not cover.
 *
 * Pure functions: no globals. Errors are -EINVAL with one line in err.
 */
#ifndef SB_ERRPOLICY_H
#define SB_ERRPOLICY_H

#include <stddef.h>

/* bit flags: read 1, write 2, verify 4 */
enum sb_coe {
	SB_COE_NONE = 0,
	SB_COE_READ = 1,
	SB_COE_WRITE = 2,
	SB_COE_IO = 3,
	SB_COE_VERIFY = 4,
	SB_COE_ALL = 7,
};

/* Error kinds, the index into sb_ignerr and the bit (1 << kind) in coe. */
enum sb_errkind {
	SB_ERRKIND_READ = 0,
	SB_ERRKIND_WRITE = 1,
	SB_ERRKIND_VERIFY = 2,
};

/*
 * continue_on_error=none|read|write|io|verify|all|0|1, case-sensitive as in
 * fio; 0 is none and 1 is all. Blanks around the value are ignored.
 */
int sb_coe_parse(const char *s, int *out, char *err, size_t errlen);

#define SB_IGNERR_MAX 32
/* [0] read, [1] write, [2] verify; positive errno values. n[k] == 0: no list
 * for kind k (the default {EIO, EILSEQ} applies when coe enables k). */
struct sb_ignerr {
	unsigned n[3];
	int err[3][SB_IGNERR_MAX];
};

/*
 * ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST as fio reads it: the lists
 * are separated by ',' in that order (a fourth, even empty, is an error, as
 * in fio), the errors within a list by ':'. So "EIO" alone is a read list
 * only and ",ENOSPC:122" a write list. An error is a name from the Linux
 * errno table (case-sensitive, starting with 'E') or a decimal number (a
 * leading '-' is dropped, as fio does; 0 is refused). Empty lists are
 * allowed; a trailing ':' too.
 *
 * Stricter than fio, which silently drops the rest of a list after an empty
 * entry ("EIO::ENOSPC", ":EIO") and reads "5x" as 5: those are errors here.
 * Looser: blanks around entries are ignored (fio rejects " EIO"), and names
 * beyond fio's 34 (EPERM..ERANGE) are known. At most SB_IGNERR_MAX per list.
 */
int sb_ignerr_parse(const char *s, struct sb_ignerr *out, char *err,
		    size_t errlen);

/*
 * 1 when error err (positive errno) in direction kind (SB_ERRKIND_*) lets
 * the job go on under coe and ig (NULL: no ignore_error), by the rule at the
 * top of this file; 0 when it ends the job.
 */
int sb_err_is_nonfatal(int coe, const struct sb_ignerr *ig, int kind, int err);

/* The errno table: positive value for a name ("EIO" -> 5), 0 if unknown. */
int sb_errno_from_name(const char *name);
/* Canonical name for a value (11 -> "EAGAIN"), NULL if none. */
const char *sb_errno_name(int err);

/* "No space left on device (ENOSPC)" into buf: the text and the name, so a
 * message says which errno it was in the words scripts match on. */
void sb_strerror_named(int err, char *buf, size_t len);

#endif
