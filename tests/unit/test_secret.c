/* A secret option's value: literal, env:NAME or file:PATH (secret.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options/secret.h"
#include "sb_ctx.h"
#include "util/str.h"
#include "tap.h"

/* The secret file's contents, written to path. */
static void put(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		abort();
}

/* sb_url_hide_secrets() of url: the text left, and how many it hid. */
static void hides(const char *url, const char *want, unsigned n,
		  const char *why)
{
	char buf[256];
	unsigned got_n;

	snprintf(buf, sizeof(buf), "%s", url);
	got_n = sb_url_hide_secrets(buf);
	is_string(buf, want, "%s", why);
	ok(got_n == n, "%s: %u hidden (%u)", why, n, got_n);
}

/* sb_secret_resolve() of value, "" on failure (ctx->err says why). */
static char got[SB_SECRET_MAX + 2];
static int resolve(struct sb_ctx *ctx, const char *value)
{
	char *out = NULL;
	int rc = sb_secret_resolve(ctx, "pw", value, "t.fio:3", &out);

	snprintf(got, sizeof(got), "%s", out ? out : "");
	free(out);
	return rc;
}

int main(void)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_ERROR};
	char dir[] = "/tmp/sb-secret-XXXXXX", path[64], arg[80];
	char *big;

	plan(35);
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/pw", dir);
	snprintf(arg, sizeof(arg), "file:%s", path);

	ok(resolve(&ctx, "s3cr3t") == 0, "a literal value");
	is_string(got, "s3cr3t", "is the secret as written");
	ok(sb_secret_is_reference("env:X") &&
		   sb_secret_is_reference("file:x") &&
		   !sb_secret_is_reference("envy") &&
		   !sb_secret_is_reference("s3cr3t"),
	   "env: and file: are references, anything else is not");

	setenv("SB_TEST_SECRET", "from env", 1);
	ok(resolve(&ctx, "env:SB_TEST_SECRET") == 0, "env:NAME");
	is_string(got, "from env", "is the variable's value");
	ok(resolve(&ctx, "env:SB_TEST_NO_SUCH") < 0,
	   "env: of an unset variable");
	is_string(ctx.err,
		  "t.fio:3: pw=env:SB_TEST_NO_SUCH: no such environment "
		  "variable",
		  "is refused, naming the variable");
	ok(resolve(&ctx, "env:") < 0, "env: with no name is refused");

	put(path, "line\n", 5);
	ok(resolve(&ctx, arg) == 0, "file:PATH");
	is_string(got, "line", "is the file without its final newline");
	put(path, "dos\r\n", 5);
	resolve(&ctx, arg);
	is_string(got, "dos", "or its final CRLF");
	put(path, "two\n\n", 5);
	resolve(&ctx, arg);
	is_string(got, "two\n", "and only one newline");
	put(path, "a\nb", 3);
	resolve(&ctx, arg);
	is_string(got, "a\nb", "inner newlines stay");
	put(path, "", 0);
	ok(resolve(&ctx, arg) == 0 && !*got,
	   "an empty file is an empty secret");
	put(path, "a\0b", 3);
	ok(resolve(&ctx, arg) < 0, "a NUL byte is refused");
	big = malloc(SB_SECRET_MAX + 1);
	memset(big, 'x', SB_SECRET_MAX + 1);
	put(path, big, SB_SECRET_MAX);
	ok(resolve(&ctx, arg) == 0 && strlen(got) == SB_SECRET_MAX,
	   "a file of SB_SECRET_MAX bytes is read whole");
	put(path, big, SB_SECRET_MAX + 1);
	ok(resolve(&ctx, arg) < 0, "a larger one is refused");
	free(big);
	unlink(path);
	ok(resolve(&ctx, arg) < 0, "a missing file is refused");
	snprintf(arg, sizeof(arg),
		 "t.fio:3: pw=file:%s: No such file or directory", path);
	is_string(ctx.err, arg, "naming the file and the reason");
	rmdir(dir);

	hides("iscsi://u%pw12@h:3260/iqn.x:y/1",
	      "iscsi://u%***@h:3260/iqn.x:y/1", 1, "libiscsi's user%password");
	hides("smb://u:secret@h/share/f", "smb://u:***@h/share/f", 1,
	      "user:password");
	hides("iscsi://u%p@ss@h/iqn.x:y/1", "iscsi://u%***@h/iqn.x:y/1", 1,
	      "the last '@' ends the password");
	hides("iscsi://h:3260/iqn.x:y/1?target_user=t&target_password=tt9&x=1",
	      "iscsi://h:3260/iqn.x:y/1?target_user=t&target_password=***&x=1",
	      1, "a target_password= query parameter");
	hides("iscsi://h:3260/iqn.x:y/1", "iscsi://h:3260/iqn.x:y/1", 0,
	      "no credentials: unchanged");
	hides("iscsi://user@h/iqn.x:y/1", "iscsi://user@h/iqn.x:y/1", 0,
	      "a user alone is no secret");
	hides("a%b@c:/d", "a%b@c:/d", 0, "no URL: unchanged");
	hides("iscsi://a%x1z@h/i/1:iscsi://b%y2z@h/i/2",
	      "iscsi://a%***@h/i/1:iscsi://b%***@h/i/2", 2,
	      "every URL of a list");
	return done_testing();
}
