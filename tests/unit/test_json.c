/* storbench/json.h: every string becomes a JSON literal that is valid
 * UTF-8, and valid text is copied unchanged. */
#include <stdlib.h>
#include <string.h>

#include <storbench/json.h>

#include "tap.h"

struct sink {
	char buf[512];
	size_t len;
	int puts;
};

static void put(void *arg, const char *s, size_t n)
{
	struct sink *k = arg;

	if (k->len + n < sizeof(k->buf)) {
		memcpy(k->buf + k->len, s, n);
		k->len += n;
	}
	k->buf[k->len] = '\0';
	k->puts++;
}

static const char *json(struct sink *k, const char *s)
{
	memset(k, 0, sizeof(*k));
	sb_json_string(put, k, s);
	return k->buf;
}

#define R "\\ufffd"

static const struct {
	const char *in, *out, *what;
} cases[] = {
	{"plain", "\"plain\"", "ASCII as it is"},
	{"", "\"\"", "the empty string"},
	{"a\"b\\c/", "\"a\\\"b\\\\c/\"",
	 "quote and backslash escaped, '/' not"},
	{"\n\r\t", "\"\\n\\r\\t\"", "newline, return, tab: short forms"},
	{"\x01\x08\x0c\x1b\x1f\x7f",
	 "\"\\u0001\\u0008\\u000c\\u001b\\u001f\\u007f\"",
	 "other controls and DEL as \\u00XX"},
	{"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe",
	 "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe\"",
	 "valid 2-, 3- and 4-byte sequences kept"},
	{"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80"
	 "\xf4\x8f\xbf\xbf",
	 "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80"
	 "\x80"
	 "\xf4\x8f\xbf\xbf\"",
	 "the edges of each valid range kept (U+80, U+7FF, U+800, U+D7FF, "
	 "U+E000, U+10000, U+10FFFF)"},
	{"a\xff"
	 "b\xfe",
	 "\"a" R "b" R "\"", "0xFF and 0xFE"},
	{"\x80\xbf", "\"" R R "\"", "stray continuation bytes"},
	{"\xc0\xaf\xc1\xbf", "\"" R R R R "\"",
	 "overlong 2-byte forms (C0, C1)"},
	{"\xe0\x80\xaf", "\"" R R R "\"", "overlong 3-byte form"},
	{"\xf0\x80\x80\xaf", "\"" R R R R "\"", "overlong 4-byte form"},
	{"\xed\xa0\x80\xed\xbf\xbf", "\"" R R R R R R "\"",
	 "surrogates U+D800 and U+DFFF"},
	{"\xf4\x90\x80\x80\xf5\x80\x80\x80", "\"" R R R R R R R R "\"",
	 "past U+10FFFF"},
	{"\xe2\x82", "\"" R R "\"", "a 3-byte sequence cut by the end"},
	{"\xf0\x9f\x92", "\"" R R R "\"", "a 4-byte sequence cut by the end"},
	{"\xe2\x82"
	 "A\xc3\"",
	 "\"" R R "A" R "\\\"\"",
	 "cut sequences: the next byte is read afresh"},
	{"\xc3\xc3\xa9", "\"" R "\xc3\xa9\"",
	 "a lead byte cut by another lead"},
};

int main(void)
{
	struct sink k;

	plan((int)(sizeof(cases) / sizeof(cases[0])) + 7);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_string(json(&k, cases[i].in), cases[i].out, "%s",
			  cases[i].what);
	is_string(json(&k, NULL), "\"\"", "NULL is the empty string");
	json(&k, "a long plain run of text");
	is_int(k.puts, 3, "plain text: quote, one run, quote");

	is_int((long long)sb_json_utf8_len("a"), 1, "utf8_len: ASCII is 1");
	is_int((long long)sb_json_utf8_len("\xf0\x9f\x92\xbe"), 4,
	       "utf8_len: a 4-byte sequence");
	is_int((long long)sb_json_utf8_len("\xe2\x82"), 0,
	       "utf8_len: stops at the NUL of a cut sequence");
	is_int((long long)sb_json_utf8_len("\xed\xa0\x80"), 0,
	       "utf8_len: a surrogate is none");
	is_int((long long)sb_json_utf8_len(""), 1,
	       "utf8_len: the NUL itself is one byte (callers stop before)");
	return done_testing();
}
