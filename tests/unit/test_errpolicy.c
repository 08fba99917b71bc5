/*
 * continue_on_error, ignore_error and the rule combining them, against fio
 * 3.33. The fio observations quoted were made with
 *	fio --name=x --ioengine=sync --filename=/dev/full --rw=write --bs=4k \
 *	    --size=64k OPTIONS
 * (every write fails with ENOSPC; "survives" = all 16 writes issued and
 * "errors: total=16", "stops" = err=28 after the first), and
 *	fio --name=r --filename=f --rw=read --size=64k --bs=4k --ioengine=sync \
 *	    --verify=pattern --verify_pattern=0xbb OPTIONS
 * on a file written with 0xaa (every read fails verify with EILSEQ).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "options/errpolicy.h"
#include "tap.h"

/* Every Linux errno name with its <errno.h> value, to hold the table in
 * errpolicy.c to the system's headers. */
static const struct {
	const char *name;
	int num;
} sys_errnos[] = {
	{"EPERM", EPERM},
	{"ENOENT", ENOENT},
	{"ESRCH", ESRCH},
	{"EINTR", EINTR},
	{"EIO", EIO},
	{"ENXIO", ENXIO},
	{"E2BIG", E2BIG},
	{"ENOEXEC", ENOEXEC},
	{"EBADF", EBADF},
	{"ECHILD", ECHILD},
	{"EAGAIN", EAGAIN},
	{"ENOMEM", ENOMEM},
	{"EACCES", EACCES},
	{"EFAULT", EFAULT},
	{"ENOTBLK", ENOTBLK},
	{"EBUSY", EBUSY},
	{"EEXIST", EEXIST},
	{"EXDEV", EXDEV},
	{"ENODEV", ENODEV},
	{"ENOTDIR", ENOTDIR},
	{"EISDIR", EISDIR},
	{"EINVAL", EINVAL},
	{"ENFILE", ENFILE},
	{"EMFILE", EMFILE},
	{"ENOTTY", ENOTTY},
	{"ETXTBSY", ETXTBSY},
	{"EFBIG", EFBIG},
	{"ENOSPC", ENOSPC},
	{"ESPIPE", ESPIPE},
	{"EROFS", EROFS},
	{"EMLINK", EMLINK},
	{"EPIPE", EPIPE},
	{"EDOM", EDOM},
	{"ERANGE", ERANGE},
	{"EDEADLK", EDEADLK},
	{"ENAMETOOLONG", ENAMETOOLONG},
	{"ENOLCK", ENOLCK},
	{"ENOSYS", ENOSYS},
	{"ENOTEMPTY", ENOTEMPTY},
	{"ELOOP", ELOOP},
	{"ENOMSG", ENOMSG},
	{"EIDRM", EIDRM},
	{"ECHRNG", ECHRNG},
	{"EL2NSYNC", EL2NSYNC},
	{"EL3HLT", EL3HLT},
	{"EL3RST", EL3RST},
	{"ELNRNG", ELNRNG},
	{"EUNATCH", EUNATCH},
	{"ENOCSI", ENOCSI},
	{"EL2HLT", EL2HLT},
	{"EBADE", EBADE},
	{"EBADR", EBADR},
	{"EXFULL", EXFULL},
	{"ENOANO", ENOANO},
	{"EBADRQC", EBADRQC},
	{"EBADSLT", EBADSLT},
	{"EBFONT", EBFONT},
	{"ENOSTR", ENOSTR},
	{"ENODATA", ENODATA},
	{"ETIME", ETIME},
	{"ENOSR", ENOSR},
	{"ENONET", ENONET},
	{"ENOPKG", ENOPKG},
	{"EREMOTE", EREMOTE},
	{"ENOLINK", ENOLINK},
	{"EADV", EADV},
	{"ESRMNT", ESRMNT},
	{"ECOMM", ECOMM},
	{"EPROTO", EPROTO},
	{"EMULTIHOP", EMULTIHOP},
	{"EDOTDOT", EDOTDOT},
	{"EBADMSG", EBADMSG},
	{"EOVERFLOW", EOVERFLOW},
	{"ENOTUNIQ", ENOTUNIQ},
	{"EBADFD", EBADFD},
	{"EREMCHG", EREMCHG},
	{"ELIBACC", ELIBACC},
	{"ELIBBAD", ELIBBAD},
	{"ELIBSCN", ELIBSCN},
	{"ELIBMAX", ELIBMAX},
	{"ELIBEXEC", ELIBEXEC},
	{"EILSEQ", EILSEQ},
	{"ERESTART", ERESTART},
	{"ESTRPIPE", ESTRPIPE},
	{"EUSERS", EUSERS},
	{"ENOTSOCK", ENOTSOCK},
	{"EDESTADDRREQ", EDESTADDRREQ},
	{"EMSGSIZE", EMSGSIZE},
	{"EPROTOTYPE", EPROTOTYPE},
	{"ENOPROTOOPT", ENOPROTOOPT},
	{"EPROTONOSUPPORT", EPROTONOSUPPORT},
	{"ESOCKTNOSUPPORT", ESOCKTNOSUPPORT},
	{"EOPNOTSUPP", EOPNOTSUPP},
	{"EPFNOSUPPORT", EPFNOSUPPORT},
	{"EAFNOSUPPORT", EAFNOSUPPORT},
	{"EADDRINUSE", EADDRINUSE},
	{"EADDRNOTAVAIL", EADDRNOTAVAIL},
	{"ENETDOWN", ENETDOWN},
	{"ENETUNREACH", ENETUNREACH},
	{"ENETRESET", ENETRESET},
	{"ECONNABORTED", ECONNABORTED},
	{"ECONNRESET", ECONNRESET},
	{"ENOBUFS", ENOBUFS},
	{"EISCONN", EISCONN},
	{"ENOTCONN", ENOTCONN},
	{"ESHUTDOWN", ESHUTDOWN},
	{"ETOOMANYREFS", ETOOMANYREFS},
	{"ETIMEDOUT", ETIMEDOUT},
	{"ECONNREFUSED", ECONNREFUSED},
	{"EHOSTDOWN", EHOSTDOWN},
	{"EHOSTUNREACH", EHOSTUNREACH},
	{"EALREADY", EALREADY},
	{"EINPROGRESS", EINPROGRESS},
	{"ESTALE", ESTALE},
	{"EUCLEAN", EUCLEAN},
	{"ENOTNAM", ENOTNAM},
	{"ENAVAIL", ENAVAIL},
	{"EISNAM", EISNAM},
	{"EREMOTEIO", EREMOTEIO},
	{"EDQUOT", EDQUOT},
	{"ENOMEDIUM", ENOMEDIUM},
	{"EMEDIUMTYPE", EMEDIUMTYPE},
	{"ECANCELED", ECANCELED},
	{"ENOKEY", ENOKEY},
	{"EKEYEXPIRED", EKEYEXPIRED},
	{"EKEYREVOKED", EKEYREVOKED},
	{"EKEYREJECTED", EKEYREJECTED},
	{"EOWNERDEAD", EOWNERDEAD},
	{"ENOTRECOVERABLE", ENOTRECOVERABLE},
	{"ERFKILL", ERFKILL},
	{"EHWPOISON", EHWPOISON},
	{"EWOULDBLOCK", EWOULDBLOCK},
	{"EDEADLOCK", EDEADLOCK},
	{"ENOTSUP", ENOTSUP},
};

static void errno_table(void)
{
	size_t n = sizeof(sys_errnos) / sizeof(sys_errnos[0]);
	int wrong = 0, trips = 0, bad_trips = 0;

	for (size_t i = 0; i < n; i++) {
		if (sb_errno_from_name(sys_errnos[i].name) !=
		    sys_errnos[i].num) {
			diag("%s: table %d, errno.h %d", sys_errnos[i].name,
			     sb_errno_from_name(sys_errnos[i].name),
			     sys_errnos[i].num);
			wrong++;
		}
	}
	is_int(wrong, 0, "all %zu errno.h names have errno.h's values", n);

	/* number -> name -> number for every number that has a name */
	for (int e = 1; e < 200; e++) {
		const char *name = sb_errno_name(e);

		if (!name)
			continue;
		trips++;
		bad_trips += sb_errno_from_name(name) != e;
	}
	ok(trips == 131 && bad_trips == 0,
	   "131 numbers round-trip through their names (%d, %d bad)", trips,
	   bad_trips);

	is_int(sb_errno_from_name("EIO"), 5, "EIO is 5");
	is_int(sb_errno_from_name("ENOSPC"), 28, "ENOSPC is 28");
	is_int(sb_errno_from_name("EILSEQ"), 84, "EILSEQ is 84");
	is_int(sb_errno_from_name("EDQUOT"), 122, "EDQUOT is 122");
	is_int(sb_errno_from_name("EHWPOISON"), 133, "EHWPOISON is 133");
	is_int(sb_errno_from_name("EWOULDBLOCK"), 11, "alias EWOULDBLOCK");
	is_string(sb_errno_name(5), "EIO", "5 is EIO");
	is_string(sb_errno_name(11), "EAGAIN", "11 is EAGAIN, not its alias");
	is_string(sb_errno_name(95), "EOPNOTSUPP",
		  "95 is EOPNOTSUPP, not ENOTSUP");
	is_string(sb_errno_name(35), "EDEADLK", "35 is EDEADLK");
	is_int(sb_errno_from_name("EFOO"), 0, "EFOO is unknown");
	is_int(sb_errno_from_name("eio"), 0, "names are case-sensitive");
	is_int(sb_errno_from_name("EI"), 0, "no prefix matches");
	ok(!sb_errno_name(0) && !sb_errno_name(41) && !sb_errno_name(134) &&
		   !sb_errno_name(-5),
	   "0, 41 (unused), 134 and -5 have no name");
}

static void coe(void)
{
	static const struct {
		const char *in;
		int want;
	} good[] = {
		{"none", SB_COE_NONE},	   {"read", SB_COE_READ},
		{"write", SB_COE_WRITE},   {"io", SB_COE_IO},
		{"verify", SB_COE_VERIFY}, {"all", SB_COE_ALL},
		{"0", SB_COE_NONE},	   {"1", SB_COE_ALL},
		{" write ", SB_COE_WRITE},
	};
	/* fio 3.33: "failed parsing continue_on_error=WRITE" etc. */
	static const char *const bad[] = {
		"WRITE", "Write", "wr", "writex", "2", "", "read,write"};
	char err[160];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int v = -1, rc = sb_coe_parse(good[i].in, &v, err, sizeof(err));

		ok(rc == 0 && v == good[i].want, "continue_on_error='%s' is %d",
		   good[i].in, good[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[160];
		int v = -1, rc = sb_coe_parse(bad[i], &v, err, sizeof(err));

		snprintf(want, sizeof(want),
			 "continue_on_error=%s: expected none, read, write, "
			 "io, verify, all, 0 or 1",
			 bad[i]);
		ok(rc == -EINVAL && v == -1 && strcmp(err, want) == 0,
		   "continue_on_error='%s' is refused: %s", bad[i], err);
	}
}

/* "r=5 w=28,122 v=" for comparing parse results as strings. */
static const char *fmt(const struct sb_ignerr *ig, char *buf, size_t len)
{
	static const char *const k[3] = {"r=", " w=", " v="};
	size_t at = 0;

	buf[0] = '\0';
	for (int t = 0; t < 3 && at < len; t++) {
		at += (size_t)snprintf(buf + at, len - at, "%s", k[t]);
		for (unsigned i = 0; i < ig->n[t] && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, "%s%d",
					       i ? "," : "", ig->err[t][i]);
	}
	return buf;
}

static void ignerr(void)
{
	static const struct {
		const char *in, *want;
	} good[] = {
		/* one list is the read list only: fio with ignore_error=ENOSPC
		 * still stops on the write ENOSPC */
		{"EIO", "r=5 w= v="},
		/* the HOWTO's example */
		{"EAGAIN,ENOSPC:122", "r=11 w=28,122 v="},
		{",ENOSPC:122", "r= w=28,122 v="},
		{",,84", "r= w= v=84"},
		{"EIO,ENOSPC:EILSEQ", "r=5 w=28,84 v="},
		{"EIO:ENOSPC,EIO,EILSEQ:EIO", "r=5,28 w=5 v=84,5"},
		/* fio drops the sign */
		{"-84", "r=84 w= v="},
		{"EIO:", "r=5 w= v="},
		{"EIO,", "r=5 w= v="},
		{"EIO,,", "r=5 w= v="},
		{"", "r= w= v="},
		{" EIO : ENOSPC ", "r=5,28 w= v="},
		{"EWOULDBLOCK,EHWPOISON", "r=11 w=133 v="},
	};
	static const struct {
		const char *in, *err;
	} bad[] = {
		/* fio: "Unknown error EFOO, please use number value" */
		{"EFOO", "ignore_error=EFOO: unknown error name EFOO (use its "
			 "number)"},
		{"EIO,ENOSPC:EBOGUS",
		 "ignore_error=EIO,ENOSPC:EBOGUS: unknown error name EBOGUS "
		 "(use its number)"},
		{"eio", "ignore_error=eio: eio is neither an error name (E...) "
			"nor a number"},
		/* fio: "Unknown error 0" and "Unknown error 0x5" */
		{"0", "ignore_error=0: 0 is not an error number"},
		{"0x5", "ignore_error=0x5: 0x5 is neither an error name (E...) "
			"nor a number"},
		/* fio reads 5 */
		{"5x", "ignore_error=5x: 5x is neither an error name (E...) "
		       "nor a number"},
		{"-", "ignore_error=-: - is neither an error name (E...) nor a "
		      "number"},
		{"99999999999", "ignore_error=99999999999: error number "
				"99999999999 is too large"},
		/* fio: "Illegal error type", even for an empty fourth list */
		{"EIO,ENOSPC,EIO,EIO", "ignore_error=EIO,ENOSPC,EIO,EIO: more "
				       "than three lists (read,write,verify)"},
		{"EIO,ENOSPC,EIO,", "ignore_error=EIO,ENOSPC,EIO,: more than "
				    "three lists (read,write,verify)"},
		/* fio silently ignores what follows an empty entry */
		{"EIO::ENOSPC",
		 "ignore_error=EIO::ENOSPC: empty entry in the read list"},
		{",:EIO", "ignore_error=,:EIO: empty entry in the write list"},
	};
	struct sb_ignerr ig;
	char err[200], buf[200];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = sb_ignerr_parse(good[i].in, &ig, err, sizeof(err));

		is_int(rc, 0, "ignore_error='%s' parses", good[i].in);
		is_string(fmt(&ig, buf, sizeof(buf)), good[i].want, "  as %s",
			  good[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		err[0] = '\0';
		rc = sb_ignerr_parse(bad[i].in, &ig, err, sizeof(err));
		ok(rc == -EINVAL && !ig.n[0] && !ig.n[1] && !ig.n[2],
		   "ignore_error='%s' fails, leaving no lists", bad[i].in);
		is_string(err, bad[i].err, "  with its message");
	}

	/* SB_IGNERR_MAX entries fit in a list; one more does not. */
	{
		char list[SB_IGNERR_MAX * 4 + 8];
		size_t at = 1;

		list[0] = ',';
		for (int i = 0; i < SB_IGNERR_MAX; i++)
			at += (size_t)snprintf(list + at, sizeof(list) - at,
					       "%s%d", i ? ":" : "", i + 1);
		is_int(sb_ignerr_parse(list, &ig, err, sizeof(err)), 0,
		       "%d errors in the write list", SB_IGNERR_MAX);
		ok(ig.n[1] == SB_IGNERR_MAX &&
			   ig.err[1][SB_IGNERR_MAX - 1] == SB_IGNERR_MAX,
		   "  all kept");
		snprintf(list + at, sizeof(list) - at, ":99");
		is_int(sb_ignerr_parse(list, &ig, err, sizeof(err)), -EINVAL,
		       "%d errors are too many", SB_IGNERR_MAX + 1);
		ok(strstr(err, "more than 32 errors in the write list") != NULL,
		   "  saying so: %s", err);
	}
}

enum { R = SB_ERRKIND_READ, W = SB_ERRKIND_WRITE, V = SB_ERRKIND_VERIFY };

struct decision {
	const char *coe, *ig; /* ig NULL: no ignore_error */
	int kind, err, want;
	const char *why;
};

static void nonfatal(void)
{
	static const struct decision d[] = {
		/* none: everything is fatal */
		{"none", NULL, R, EIO, 0, ""},
		{"none", NULL, W, EIO, 0, ""},
		{"none", NULL, V, EILSEQ, 0, ""},
		/* read */
		{"read", NULL, R, EIO, 1, "the default list has EIO"},
		{"read", NULL, W, EIO, 0, ""},
		{"read", NULL, V, EIO, 0, ""},
		{"read", NULL, R, ENOSPC, 0, "not in the default list"},
		/* fio: continue_on_error=read stops on the verify EILSEQ */
		{"read", NULL, R, EILSEQ, 0, "EILSEQ is a verify error"},
		/* write: fio stops on ENOSPC */
		{"write", NULL, W, EIO, 1, ""},
		{"write", NULL, W, ENOSPC, 0, "fio stops on /dev/full"},
		{"write", NULL, R, EIO, 0, ""},
		/* io: fio stops on the verify EILSEQ */
		{"io", NULL, R, EIO, 1, ""},
		{"io", NULL, W, EIO, 1, ""},
		{"io", NULL, R, EILSEQ, 0, "fio stops on verify EILSEQ"},
		{"io", NULL, V, EIO, 0, ""},
		/* verify: fio survives the verify EILSEQ */
		{"verify", NULL, R, EILSEQ, 1, "fio survives"},
		{"verify", NULL, V, EIO, 1, ""},
		{"verify", NULL, R, EIO, 0, ""},
		{"verify", NULL, W, EIO, 0, ""},
		/* all (and 1): fio still stops on ENOSPC */
		{"all", NULL, R, EIO, 1, ""},
		{"all", NULL, W, EIO, 1, ""},
		{"all", NULL, V, EIO, 1, ""},
		{"all", NULL, W, EILSEQ, 1, ""},
		{"all", NULL, W, ENOSPC, 0, "fio stops on /dev/full"},
		{"1", NULL, W, ENOSPC, 0, "fio stops on /dev/full"},
		{"all", NULL, R, EAGAIN, 0, ""},
		/* ignore_error turns its kind on and replaces the list */
		{"none", ",ENOSPC", W, ENOSPC, 1, "fio survives /dev/full"},
		{"none", ",28", W, ENOSPC, 1, "fio survives /dev/full"},
		{"none", ",EIO:ENOSPC", W, ENOSPC, 1, "fio survives"},
		{"none", ",ENOSPC", W, EIO, 0, "the list replaced the default"},
		{"none", ",ENOSPC", R, EIO, 0, "read is not on"},
		{"none", "ENOSPC", W, ENOSPC, 0, "fio stops: a read list"},
		{"none", "ENOSPC", R, ENOSPC, 1, ""},
		{"none", ",,ENOSPC", W, ENOSPC, 0, "fio stops: a verify list"},
		{"write", ",EIO", W, ENOSPC, 0, "fio stops on /dev/full"},
		{"write", ",EIO", W, EIO, 1, ""},
		{"none", ",,84", R, EILSEQ, 1, "fio survives verify EILSEQ"},
		{"none", "84", R, EILSEQ, 0, "fio stops: EILSEQ is verify"},
		{"all", ",EIO:ENOSPC", W, ENOSPC, 1, ""},
		{"all", ",EIO:ENOSPC", R, EIO, 1, "read keeps the default"},
		{"all", ",EIO:ENOSPC", R, ENOSPC, 0, ""},
		{"all", ",EIO:ENOSPC", V, EILSEQ, 1,
		 "verify keeps the default"},
		/* a kind that does not exist */
		{"all", NULL, 3, EIO, 0, "kind 3"},
		{"all", NULL, -1, EIO, 0, "kind -1"},
	};
	char err[160];

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		static const char *const kn[3] = {"read", "write", "verify"};
		struct sb_ignerr ig;
		int c = -1, got;

		if (sb_coe_parse(d[i].coe, &c, err, sizeof(err)) ||
		    (d[i].ig &&
		     sb_ignerr_parse(d[i].ig, &ig, err, sizeof(err))))
			bail("vector %zu does not parse: %s", i, err);
		got = sb_err_is_nonfatal(c, d[i].ig ? &ig : NULL, d[i].kind,
					 d[i].err);
		is_int(got, d[i].want, "coe=%s ig=%s %s %s: %s %s", d[i].coe,
		       d[i].ig ? d[i].ig : "-",
		       d[i].kind >= 0 && d[i].kind < 3 ? kn[d[i].kind] : "?",
		       sb_errno_name(d[i].err), d[i].want ? "goes on" : "stops",
		       d[i].why);
	}
}

int main(void)
{
	errno_table();
	coe();
	ignerr();
	nonfatal();
	return done_testing();
}
