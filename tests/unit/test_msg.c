/* Messages: a long one keeps its reason, escapes keep the terminal safe. */
#include <stdarg.h>
#include <string.h>

#include <storbench/text.h>

#include "sb_ctx.h"
#include "tap.h"
#include "util/msg.h"

#define PATHLEN 4000

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

int main(void)
{
	static char path[PATHLEN + 1], big[3 * PATHLEN];
	struct sb_ctx ctx = {.log_level = SB_LOG_INFO};
	char buf[64], small[16];
	size_t n;

	plan(17);

	memset(path, 'a', PATHLEN);
	path[0] = '/';
	memcpy(path + PATHLEN - 2, "/f", 2);
	sb_err(&ctx, -2, "cannot open %s: No such file or directory", path);
	is_int((long long)strlen(ctx.err), SB_ERRMSG_MAX - 1,
	       "a message over the buffer fills it");
	ok(ends_with(ctx.err, "aaa/f: No such file or directory"),
	   "and keeps the path's end and the reason");
	ok(strncmp(ctx.err, "cannot open /aaa", 16) == 0, "and its start");
	ok(strstr(ctx.err, "a...a") != NULL, "cut in the middle of the path");
	sb_err_prefix(&ctx, -2, "job x: laying out: psync open");
	ok(strncmp(ctx.err, "job x: laying out: psync open: cannot open /a",
		   45) == 0 &&
		   ends_with(ctx.err, "/f: No such file or directory"),
	   "a prefix on a full message cuts the path again, not the reason");

	sb_msg_format(buf, sizeof(buf), "short %s", "text");
	is_string(buf, "short text", "text that fits is unchanged");
	/* No word long enough: the text loses its own middle. */
	sb_msg_format(buf, sizeof(buf), "%s",
		      "one two three four five six seven eight nine ten "
		      "eleven twelve thirteen fourteen");
	is_int((long long)strlen(buf), sizeof(buf) - 1, "many short words fit");
	ok(strncmp(buf, "one two", 7) == 0 && ends_with(buf, "fourteen"),
	   "with both ends kept");
	/* A UTF-8 character is never split: "é" is two bytes. */
	memset(big, 0, sizeof(big));
	big[0] = 'x'; /* so the middle falls inside a character */
	for (size_t i = 0; i < 200; i++)
		memcpy(big + 1 + 2 * i, "\xc3\xa9", 2);
	sb_msg_fit(buf, sizeof(buf), big);
	n = strlen(buf);
	ok(n < sizeof(buf) && strstr(buf, "...") &&
		   (unsigned char)buf[n - 1] == 0xa9 &&
		   (unsigned char)*(strstr(buf, "...") - 1) == 0xa9 &&
		   (unsigned char)strstr(buf, "...")[3] == 0xc3,
	   "a cut never splits a UTF-8 character");
	sb_msg_fit(small, sizeof(small), "0123456789abcdefghij");
	is_string(small, "012345...efghij",
		  "a tiny buffer still gets both ends");

	n = sb_text_escape(buf, sizeof(buf), "a\x1b[31mb\tc\nd\re\x7f");
	is_string(buf, "a\\x1b[31mb\\tc\\nd\\re\\x7f",
		  "ESC, tab, newline, CR and DEL are escaped");
	is_int((long long)n, (long long)strlen(buf), "returning the length");
	sb_text_escape(buf, sizeof(buf),
		       "x\xc2\x9b"
		       "1m \xc3\xa9");
	is_string(buf, "x\\xc2\\x9b1m \xc3\xa9",
		  "a C1 control (CSI) is escaped, other UTF-8 is kept");
	n = sb_text_escape(small, 8, "ab\x1b\x1b");
	is_string(small, "ab\\x1b", "a cut falls between escapes");
	is_int((long long)n, 10, "and the whole length is returned");
	ok(!sb_text_needs_escape("plain /path \xc3\xa9") &&
		   sb_text_needs_escape("\x1b"),
	   "needs_escape tells the two apart");
	sb_text_escape(buf, sizeof(buf), "with \\ kept");
	is_string(buf, "with \\ kept",
		  "a backslash is not a control character");
	return done_testing();
}
