/*
 * Line protocol as InfluxData's reference writes it, with hostile names:
 * spaces, commas, equals signs, quotes, backslashes, line breaks and
 * non-ASCII, in the measurement, tag keys and values, field keys and
 * string values; integers with "i"; no empty tags; tags sorted; no NaN.
 */
#include <math.h>
#include <string.h>

#include "../influxdb_lp.h"
#include "tap.h"

/* One point of one tag and one field, as text. */
static const char *one(struct sb_linebuf *b, const char *m, const char *tk,
		       const char *tv, const char *fk, const char *sv)
{
	struct influxdb_point pt;

	b->len = 0;
	influxdb_lp_begin(&pt, b, m);
	influxdb_lp_tag(&pt, tk, tv);
	if (sv)
		influxdb_lp_string(&pt, fk, sv);
	else
		influxdb_lp_int(&pt, fk, -42);
	influxdb_lp_end(&pt, 1700000000123456789LL);
	return b->p;
}

int main(void)
{
	struct sb_linebuf b = {0};
	struct influxdb_point pt;

	plan(17);
	is_string(one(&b, "cpu", "host", "a", "v", NULL),
		  "cpu,host=a v=-42i 1700000000123456789\n",
		  "a plain point: integer with i, ns timestamp, newline");
	is_string(one(&b, "my meas,x=y", "k", "v", "f", NULL),
		  "my\\ meas\\,x=y,k=v f=-42i 1700000000123456789\n",
		  "measurement: space and comma escaped, equals sign not");
	is_string(one(&b, "m", "tag key,=", "a b,c=d", "f", NULL),
		  "m,tag\\ key\\,\\==a\\ b\\,c\\=d f=-42i "
		  "1700000000123456789\n",
		  "tag key and value: space, comma, equals escaped");
	is_string(one(&b, "m", "k", "v", "field key,=\"", NULL),
		  "m,k=v field\\ key\\,\\=\"=-42i 1700000000123456789\n",
		  "field key: space, comma, equals escaped; a quote is plain");
	is_string(one(&b, "m", "k", "say \"hi\"", "s", "a \"q\" b\\c"),
		  "m,k=say\\ \"hi\" s=\"a \\\"q\\\" b\\\\c\" "
		  "1700000000123456789\n",
		  "string field value: quote and backslash escaped; a quote "
		  "in a tag is plain");
	is_string(one(&b, "m", "k", "a\\b", "f", NULL),
		  "m,k=a\\b f=-42i 1700000000123456789\n",
		  "a backslash before an ordinary character is written as is");
	is_string(one(&b, "m\\", "k", "end\\", "f", NULL),
		  "m\\\\,k=end\\\\ f=-42i 1700000000123456789\n",
		  "a trailing backslash is doubled: it cannot escape the "
		  "separator");
	is_string(one(&b, "m", "k", "a\\ b\\,c", "f", NULL),
		  "m,k=a\\\\\\ b\\\\\\,c f=-42i 1700000000123456789\n",
		  "a backslash before a special character is doubled and the "
		  "character escaped");
	is_string(one(&b, "m\nx", "k\r", "line1\nline2", "s", "a\nb\tc"),
		  "m\\ x,k\\ =line1\\ line2 s=\"a b c\" 1700000000123456789\n",
		  "line breaks and tabs become spaces (escaped where needed): "
		  "one point stays one line");
	is_string(one(&b, "mesure", "hôte", "Zürich 東京", "é", "naïve ✓"),
		  "mesure,hôte=Zürich\\ 東京 é=\"naïve ✓\" "
		  "1700000000123456789\n",
		  "non-ASCII UTF-8 is written as is");
	is_string(one(&b, "m", "k", "", "f", NULL),
		  "m f=-42i 1700000000123456789\n",
		  "an empty tag value leaves the tag out");
	is_string(one(&b, "m", "", "v", "f", NULL),
		  "m f=-42i 1700000000123456789\n",
		  "an empty tag key leaves the tag out");

	b.len = 0;
	influxdb_lp_begin(&pt, &b, "m");
	influxdb_lp_tag(&pt, "zeta", "1");
	influxdb_lp_tag(&pt, "alpha", "2");
	influxdb_lp_tag(&pt, "Beta", "3");
	influxdb_lp_tag(&pt, "alpha", "4");
	influxdb_lp_uint(&pt, "n", 18446744073709551615ULL);
	influxdb_lp_float(&pt, "nan", NAN);
	influxdb_lp_float(&pt, "inf", INFINITY);
	influxdb_lp_float(&pt, "x", 0.1);
	influxdb_lp_float(&pt, "big", 1e300);
	influxdb_lp_end(&pt, 5);
	is_string(b.p,
		  "m,Beta=3,alpha=4,zeta=1 n=9223372036854775807i,"
		  "x=0.10000000000000001,big=1.0000000000000001e+300 5\n",
		  "tags sorted bytewise, a repeated key keeps its last value; "
		  "NaN and infinity left out; floats exact; uint capped");

	b.len = 0;
	influxdb_lp_begin(&pt, &b, "m");
	influxdb_lp_tag(&pt, "k", "v");
	influxdb_lp_float(&pt, "nan", NAN);
	is_int(influxdb_lp_end(&pt, 5), 0,
	       "a point with no field is not "
	       "written");
	is_int((long long)b.len, 0, "and leaves nothing in the buffer");

	b.len = 0;
	one(&b, "a", "k", "v", "f", NULL);
	{
		size_t first = b.len;

		influxdb_lp_begin(&pt, &b, "b");
		influxdb_lp_int(&pt, "g", 7);
		influxdb_lp_end(&pt, 9);
		is_string(b.p + first, "b g=7i 9\n",
			  "a second point follows the first in the same "
			  "buffer");
	}
	ok(!b.oom, "no allocation failed");
	sb_linebuf_free(&b);
	return done_testing();
}
