#include "errpolicy.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../util/str.h"

struct errno_name {
	const char *name;
	int num;
};

/*
 * Linux errno names, generated once from <asm-generic/errno-base.h> and
 * <asm-generic/errno.h> (the numbers every Linux architecture but alpha,
 * mips, parisc and sparc uses), plus glibc's aliases at the end so that the
 * first entry for a number is its canonical name. fio 3.33 itself knows only
 * EPERM..ERANGE (1-34) by name; the rest are a superset, so that e.g. EILSEQ
 * need not be written as 84.
 */
static const struct errno_name errno_names[] = {
	{"EPERM", 1},
	{"ENOENT", 2},
	{"ESRCH", 3},
	{"EINTR", 4},
	{"EIO", 5},
	{"ENXIO", 6},
	{"E2BIG", 7},
	{"ENOEXEC", 8},
	{"EBADF", 9},
	{"ECHILD", 10},
	{"EAGAIN", 11},
	{"ENOMEM", 12},
	{"EACCES", 13},
	{"EFAULT", 14},
	{"ENOTBLK", 15},
	{"EBUSY", 16},
	{"EEXIST", 17},
	{"EXDEV", 18},
	{"ENODEV", 19},
	{"ENOTDIR", 20},
	{"EISDIR", 21},
	{"EINVAL", 22},
	{"ENFILE", 23},
	{"EMFILE", 24},
	{"ENOTTY", 25},
	{"ETXTBSY", 26},
	{"EFBIG", 27},
	{"ENOSPC", 28},
	{"ESPIPE", 29},
	{"EROFS", 30},
	{"EMLINK", 31},
	{"EPIPE", 32},
	{"EDOM", 33},
	{"ERANGE", 34},
	{"EDEADLK", 35},
	{"ENAMETOOLONG", 36},
	{"ENOLCK", 37},
	{"ENOSYS", 38},
	{"ENOTEMPTY", 39},
	{"ELOOP", 40},
	{"ENOMSG", 42},
	{"EIDRM", 43},
	{"ECHRNG", 44},
	{"EL2NSYNC", 45},
	{"EL3HLT", 46},
	{"EL3RST", 47},
	{"ELNRNG", 48},
	{"EUNATCH", 49},
	{"ENOCSI", 50},
	{"EL2HLT", 51},
	{"EBADE", 52},
	{"EBADR", 53},
	{"EXFULL", 54},
	{"ENOANO", 55},
	{"EBADRQC", 56},
	{"EBADSLT", 57},
	{"EBFONT", 59},
	{"ENOSTR", 60},
	{"ENODATA", 61},
	{"ETIME", 62},
	{"ENOSR", 63},
	{"ENONET", 64},
	{"ENOPKG", 65},
	{"EREMOTE", 66},
	{"ENOLINK", 67},
	{"EADV", 68},
	{"ESRMNT", 69},
	{"ECOMM", 70},
	{"EPROTO", 71},
	{"EMULTIHOP", 72},
	{"EDOTDOT", 73},
	{"EBADMSG", 74},
	{"EOVERFLOW", 75},
	{"ENOTUNIQ", 76},
	{"EBADFD", 77},
	{"EREMCHG", 78},
	{"ELIBACC", 79},
	{"ELIBBAD", 80},
	{"ELIBSCN", 81},
	{"ELIBMAX", 82},
	{"ELIBEXEC", 83},
	{"EILSEQ", 84},
	{"ERESTART", 85},
	{"ESTRPIPE", 86},
	{"EUSERS", 87},
	{"ENOTSOCK", 88},
	{"EDESTADDRREQ", 89},
	{"EMSGSIZE", 90},
	{"EPROTOTYPE", 91},
	{"ENOPROTOOPT", 92},
	{"EPROTONOSUPPORT", 93},
	{"ESOCKTNOSUPPORT", 94},
	{"EOPNOTSUPP", 95},
	{"EPFNOSUPPORT", 96},
	{"EAFNOSUPPORT", 97},
	{"EADDRINUSE", 98},
	{"EADDRNOTAVAIL", 99},
	{"ENETDOWN", 100},
	{"ENETUNREACH", 101},
	{"ENETRESET", 102},
	{"ECONNABORTED", 103},
	{"ECONNRESET", 104},
	{"ENOBUFS", 105},
	{"EISCONN", 106},
	{"ENOTCONN", 107},
	{"ESHUTDOWN", 108},
	{"ETOOMANYREFS", 109},
	{"ETIMEDOUT", 110},
	{"ECONNREFUSED", 111},
	{"EHOSTDOWN", 112},
	{"EHOSTUNREACH", 113},
	{"EALREADY", 114},
	{"EINPROGRESS", 115},
	{"ESTALE", 116},
	{"EUCLEAN", 117},
	{"ENOTNAM", 118},
	{"ENAVAIL", 119},
	{"EISNAM", 120},
	{"EREMOTEIO", 121},
	{"EDQUOT", 122},
	{"ENOMEDIUM", 123},
	{"EMEDIUMTYPE", 124},
	{"ECANCELED", 125},
	{"ENOKEY", 126},
	{"EKEYEXPIRED", 127},
	{"EKEYREVOKED", 128},
	{"EKEYREJECTED", 129},
	{"EOWNERDEAD", 130},
	{"ENOTRECOVERABLE", 131},
	{"ERFKILL", 132},
	{"EHWPOISON", 133},
	/* aliases */
	{"EWOULDBLOCK", 11},
	{"EDEADLOCK", 35},
	{"ENOTSUP", 95},
};

#define N_ERRNO_NAMES (sizeof(errno_names) / sizeof(errno_names[0]))

/* What fio treats as non-fatal for a kind that has no ignore_error list. */
static const int default_nonfatal[] = {EIO, EILSEQ};

static const char *const kind_names[3] = {"read", "write", "verify"};

static int lookup_name(const char *name, size_t len)
{
	for (size_t i = 0; i < N_ERRNO_NAMES; i++)
		if (strlen(errno_names[i].name) == len &&
		    memcmp(errno_names[i].name, name, len) == 0)
			return errno_names[i].num;
	return 0;
}

int sb_errno_from_name(const char *name)
{
	return lookup_name(name, strlen(name));
}

const char *sb_errno_name(int err)
{
	/* Canonical names come before the aliases, so the first hit wins. */
	for (size_t i = 0; i < N_ERRNO_NAMES; i++)
		if (errno_names[i].num == err)
			return errno_names[i].name;
	return NULL;
}

void sb_strerror_named(int err, char *buf, size_t len)
{
	const char *name = sb_errno_name(err);

	if (name)
		snprintf(buf, len, "%s (%s)", strerror(err), name);
	else
		snprintf(buf, len, "%s", strerror(err));
}

int sb_coe_parse(const char *s, int *out, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		int coe;
	} values[] = {
		{"none", SB_COE_NONE},
		{"read", SB_COE_READ},
		{"write", SB_COE_WRITE},
		{"io", SB_COE_IO},
		{"verify", SB_COE_VERIFY},
		{"all", SB_COE_ALL},
		/* fio's aliases, from when the option was a boolean */
		{"0", SB_COE_NONE},
		{"1", SB_COE_ALL},
	};
	const char *b = s, *e = s + strlen(s);
	size_t len;

	sb_trim_blanks(&b, &e);
	len = (size_t)(e - b);
	/* Exact and case-sensitive: fio 3.33 refuses "WRITE" and "wr". */
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		if (strlen(values[i].name) == len &&
		    memcmp(values[i].name, b, len) == 0) {
			*out = values[i].coe;
			return 0;
		}
	}
	snprintf(err, errlen,
		 "continue_on_error=%s: expected none, read, write, io, "
		 "verify, all, 0 or 1",
		 s);
	return -EINVAL;
}

/* One entry of a list, [b, e) trimmed and not empty: a name or a number. */
static int parse_error_value(const char *s, const char *b, const char *e,
			     int *value, char *err, size_t errlen)
{
	int len = (int)(e - b);
	const char *p = b;
	long v = 0;

	if (*b == 'E') {
		/* fio decides name-or-number by the first letter too */
		*value = lookup_name(b, (size_t)len);
		if (*value)
			return 0;
		snprintf(err, errlen,
			 "ignore_error=%s: unknown error name %.*s (use its "
			 "number)",
			 s, len, b);
		return -EINVAL;
	}
	/* fio takes atoi() and drops the sign; accept that, minus the
	 * trailing junk atoi() would ignore. */
	if (*p == '-')
		p++;
	if (p == e) {
		snprintf(
			err, errlen,
			"ignore_error=%s: %.*s is neither an error name (E...) "
			"nor a number",
			s, len, b);
		return -EINVAL;
	}
	for (; p < e; p++) {
		if (*p < '0' || *p > '9') {
			snprintf(err, errlen,
				 "ignore_error=%s: %.*s is neither an error "
				 "name (E...) nor a number",
				 s, len, b);
			return -EINVAL;
		}
		v = v * 10 + (*p - '0');
		if (v > INT_MAX) {
			snprintf(err, errlen,
				 "ignore_error=%s: error number %.*s is too "
				 "large",
				 s, len, b);
			return -EINVAL;
		}
	}
	if (v == 0) {
		snprintf(err, errlen,
			 "ignore_error=%s: %.*s is not an error number", s, len,
			 b);
		return -EINVAL;
	}
	*value = (int)v;
	return 0;
}

static int only_blanks_and_colons(const char *b, const char *e)
{
	for (; b < e; b++)
		if (!sb_is_blank(*b) && *b != ':')
			return 0;
	return 1;
}

/* The ':'-separated list [b, e) for kind. */
static int parse_list(const char *s, const char *b, const char *e, int kind,
		      struct sb_ignerr *out, char *err, size_t errlen)
{
	const char *p = b;

	for (;;) {
		const char *colon = memchr(p, ':', (size_t)(e - p));
		const char *tb = p, *te = colon ? colon : e;
		int value, rc;

		sb_trim_blanks(&tb, &te);
		if (tb == te) {
			/* fio stops the list at an empty entry and drops what
			 * follows without a word; refuse rather than ignore
			 * errors the user listed. */
			if (colon && !only_blanks_and_colons(colon + 1, e)) {
				snprintf(err, errlen,
					 "ignore_error=%s: empty entry in the "
					 "%s list",
					 s, kind_names[kind]);
				return -EINVAL;
			}
			return 0;
		}
		rc = parse_error_value(s, tb, te, &value, err, errlen);
		if (rc)
			return rc;
		if (out->n[kind] == SB_IGNERR_MAX) {
			snprintf(err, errlen,
				 "ignore_error=%s: more than %d errors in the "
				 "%s list",
				 s, SB_IGNERR_MAX, kind_names[kind]);
			return -EINVAL;
		}
		out->err[kind][out->n[kind]++] = value;
		if (!colon)
			return 0;
		p = colon + 1;
	}
}

int sb_ignerr_parse(const char *s, struct sb_ignerr *out, char *err,
		    size_t errlen)
{
	const char *p = s, *end = s + strlen(s);
	int kind = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *lend = comma ? comma : end;
		int rc;

		/* fio refuses a fourth list even when it is empty
		 * ("EIO,ENOSPC,EIO,"): "Illegal error type". */
		if (kind == 3) {
			snprintf(err, errlen,
				 "ignore_error=%s: more than three lists "
				 "(read,write,verify)",
				 s);
			memset(out, 0, sizeof(*out));
			return -EINVAL;
		}
		rc = parse_list(s, p, lend, kind, out, err, errlen);
		if (rc) {
			memset(out, 0, sizeof(*out));
			return rc;
		}
		if (!comma)
			return 0;
		p = comma + 1;
		kind++;
	}
}

int sb_err_is_nonfatal(int coe, const struct sb_ignerr *ig, int kind, int err)
{
	const int *list = default_nonfatal;
	unsigned n = sizeof(default_nonfatal) / sizeof(default_nonfatal[0]);

	/* fio's td_error_type(): a mismatch found by verify is reported as
	 * EILSEQ from a read, and counts against verify, not read. */
	if (err == EILSEQ)
		kind = SB_ERRKIND_VERIFY;
	if (kind < SB_ERRKIND_READ || kind > SB_ERRKIND_VERIFY)
		return 0;
	if (ig && ig->n[kind]) {
		/* fio's ignore_error_type() sets the kind's continue_on_error
		 * bit along with replacing the default list. */
		coe |= 1 << kind;
		list = ig->err[kind];
		n = ig->n[kind];
	}
	if (!(coe & (1 << kind)))
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (list[i] == err)
			return 1;
	return 0;
}
