/* Option tables: value syntax, defaults, ranges, messages. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options/options.h"
#include "options/job_options.h"
#include "sb_ctx.h"
#include "tap.h"

struct demo {
	int flag;
	int64_t count;
	uint64_t bytes;
	uint64_t wait;
	char *text;
	char *password;
	int mode;
	double ratio;
	int64_t level;
};

static const char *const demo_modes[] = {"fast", "slow", NULL};

static const struct sb_opt_symbol demo_levels[] = {
	{"low", 1},
	{"high", 9},
	{NULL, 0},
};

static const struct sb_option demo_opts[] = {
	{.name = "flag",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct demo, flag)},
	{.name = "count",
	 .alias = "n",
	 .type = SB_OPT_INT,
	 .def = "3",
	 .min = 1,
	 .max = 10,
	 .offset = offsetof(struct demo, count)},
	{.name = "bytes",
	 .type = SB_OPT_SIZE,
	 .def = "8k",
	 .offset = offsetof(struct demo, bytes)},
	{.name = "wait",
	 .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US,
	 .offset = offsetof(struct demo, wait)},
	{.name = "text",
	 .type = SB_OPT_STR,
	 .def = "hello",
	 .offset = offsetof(struct demo, text)},
	{.name = "password",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct demo, password)},
	{.name = "mode",
	 .type = SB_OPT_ENUM,
	 .choices = demo_modes,
	 .def = "slow",
	 .offset = offsetof(struct demo, mode)},
	{.name = "ratio",
	 .type = SB_OPT_FLOAT,
	 .offset = offsetof(struct demo, ratio)},
	{.name = "level",
	 .type = SB_OPT_INT,
	 .symbols = demo_levels,
	 .min = 1,
	 .max = 9,
	 .offset = offsetof(struct demo, level)},
	SB_OPTION_END,
};

int main(void)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_ERROR};
	struct demo d;
	const struct sb_option *o;

	plan(27);

	/* Defaults and parsing through a table. */
	memset(&d, 0, sizeof(d));
	ok(sb_opt_defaults(&ctx, demo_opts, &d) == 0, "defaults apply");
	is_int(d.count, 3, "int default");
	is_int((long long)d.bytes, 8192, "size default");
	is_string(d.text, "hello", "string default");
	is_int(d.mode, 1, "enum default is its index");
	o = sb_opt_find(demo_opts, "n");
	ok(o && strcmp(o->name, "count") == 0, "alias finds the option");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "flag"), &d, NULL,
			"t.fio:1") == 0 &&
		   d.flag == 1,
	   "bare bool key means 1");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "flag"), &d, "0",
			"t.fio:1") == 0 &&
		   d.flag == 0,
	   "bool 0");
	ok(sb_opt_parse(&ctx, o, &d, "11", "t.fio:7") < 0,
	   "int above range refused");
	is_string(ctx.err, "t.fio:7: count=11 is out of range (1..10)",
		  "range message names where and range");
	ok(sb_opt_parse_kb(&ctx, sb_opt_find(demo_opts, "bytes"), &d, "4KiB",
			   "x", 1000) == 0 &&
		   d.bytes == 4096,
	   "kb_base=1000 makes KiB binary");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "bytes"), &d, "(4k*2)",
			"x") == 0 &&
		   d.bytes == 8192,
	   "arithmetic in parentheses");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "bytes"), &d, "4q",
			"t.fio:9") < 0 &&
		   strncmp(ctx.err,
			   "t.fio:9: invalid value '4q' for bytes: ", 39) == 0,
	   "a bad size names where, value and option: %s", ctx.err);
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "mode"), &d, "medium",
			"t.fio:2") < 0,
	   "unknown enum value refused");
	ok(strstr(ctx.err, "one of: fast, slow") != NULL,
	   "enum message lists the choices");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "wait"), &d, "20", "x") ==
			   0 &&
		   d.wait == 20000,
	   "time option uses its unit");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "ratio"), &d, "0.25",
			"x") == 0 &&
		   d.ratio == 0.25,
	   "float");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "count"), &d, NULL,
			"t.fio:3") < 0,
	   "a non-bool bare key is refused");
	ok(sb_opt_parse(&ctx, sb_opt_find(demo_opts, "password"), &d, NULL,
			"t.fio:4") < 0 &&
		   sb_opt_parse(&ctx, sb_opt_find(demo_opts, "text"), &d,
				"second", "x") == 0,
	   "strings replace earlier values");
	is_string(d.text, "second", "last value wins");
	sb_opt_free(demo_opts, &d);
	ok(d.text == NULL && d.password == NULL, "free clears strings");

	/* An int that takes names: the range holds for both. */
	o = sb_opt_find(demo_opts, "level");
	ok(sb_opt_parse(&ctx, o, &d, "HIGH", "t.fio:5") == 0 && d.level == 9,
	   "a name stands for its value, whatever its case");
	ok(sb_opt_parse(&ctx, o, &d, "4", "t.fio:5") == 0 && d.level == 4,
	   "a number in the range is taken too");
	ok(sb_opt_parse(&ctx, o, &d, "10", "t.fio:5") == -ERANGE,
	   "a number out of the range is not");
	sb_opt_parse(&ctx, o, &d, "medium", "t.fio:5");
	is_string(ctx.err,
		  "t.fio:5: invalid value 'medium' for level (one of: low, "
		  "high; or a number from 1 to 9)",
		  "an unknown name lists the names and the range");

	/* The core's own table: fio's defaults. */
	{
		struct sb_job_opts jo;

		memset(&jo, 0, sizeof(jo));
		sb_opt_defaults(&ctx, sb_core_options, &jo);
		ok(strcmp(jo.ioengine, "psync") == 0 &&
			   jo.rw.pattern == SB_RWP_READ &&
			   jo.bs[SB_DDIR_READ] == 4096 &&
			   jo.bs[SB_DDIR_WRITE] == 4096 && jo.numjobs == 1 &&
			   jo.iodepth == 1,
		   "core defaults are fio's (psync, read, 4k, 1 job, QD1)");
		ok(sb_opt_find(sb_core_options, "readwrite") ==
			   sb_opt_find(sb_core_options, "rw"),
		   "readwrite is an alias of rw");
		sb_opt_free(sb_core_options, &jo);
	}
	return done_testing();
}
