/*
 * The skeleton engine on storbench/mock_host.h, without storbench: what an
 * engine's own unit test looks like out of the tree. It includes the
 * engine's source, so its static hooks run through the mock's host table;
 * the output is TAP.
 *
 *	cc -std=c17 $(pkg-config --cflags storbench) -I. tests/mock.c -o mock
 */
#define _GNU_SOURCE
#include "../skeleton.c"

#include <storbench/mock_host.h>

static int n_test;
static int n_fail;

static void check(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n_test, what);
	n_fail += !cond;
}

int main(void)
{
	struct sb_job job = {.numjobs = 1,
			     .iodepth = 1,
			     .file_bytes = 64 * 1024,
			     .bs = {4096, 4096, 4096}};
	struct sb_mock m;
	struct skeleton_opts *o;
	unsigned char *buf;
	const char *fact;

	printf("1..8\n");
	check(sb_mock_init(&m, &storbench_plugin, &job) == 0,
	      "the mock takes the skeleton's descriptor");
	o = m.env.opts;
	o->fill = 7;
	check(sb_mock_start(&m, "mem") == 0, "setup, init and open_file run");
	check(m.file.real_size == 64 * 1024,
	      "open_file reports the target's size");
	buf = m.buf;
	check(sb_mock_rw(&m, SB_DDIR_READ, 0, 4096) == 4096 && buf[0] == 7 &&
		      buf[4095] == 7,
	      "a read returns the fill byte");
	memset(buf, 0xab, 4096);
	check(sb_mock_rw(&m, SB_DDIR_WRITE, 8192, 4096) == 4096,
	      "a write completes with its length");
	memset(buf, 0, 4096);
	check(sb_mock_rw(&m, SB_DDIR_READ, 8192, 4096) == 4096 &&
		      buf[0] == 0xab && buf[4095] == 0xab,
	      "the read back returns what was written");
	check(sb_mock_stop(&m) == 0, "close_file, cleanup, report, teardown");
	fact = sb_mock_fact_of(&m, "skeleton.target_bytes");
	check(fact && strcmp(fact, "65536") == 0,
	      "report publishes skeleton.target_bytes");
	sb_mock_free(&m);
	return n_fail != 0;
}
