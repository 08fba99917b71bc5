/*
 * storbench/mock_host.h on an engine that completes in callbacks
 * (tests/plugins/cb_socket.c): the mock takes completions handed to
 * host->complete() as well as event() ones, hands the engine its wake fd
 * and job state, and cancels an I/O whose server went silent.
 */
#define _GNU_SOURCE
#include "../plugins/cb_socket.c"

#include <storbench/mock_host.h>

#include "tap.h"

int main(void)
{
	struct sb_job job = {.numjobs = 1,
			     .iodepth = 1,
			     .file_bytes = 1 << 20,
			     .bs = {4096, 4096, 4096}};
	struct sb_mock m;
	struct cb_opts *o;
	const struct cb_state *s;
	uint64_t t0;
	int64_t r;

	plan(9);
	ok(sb_mock_init(&m, &storbench_plugin, &job) == 0,
	   "the mock takes cb_socket's descriptor");
	o = m.env.opts;
	o->cbsock_answer = 2; /* then silent */
	ok(sb_mock_start(&m, "cbsock://srv/lun0") == 0,
	   "setup's login reaches init through the job state");
	ok(m.file.real_size == 1 << 20, "open_file sizes the target from it");
	r = sb_mock_rw(&m, SB_DDIR_READ, 0, 4096);
	ok(r == 4096 && m.ndone == 1 && m.done[0] == &m.io,
	   "a read comes back through host->complete()");
	o->cbsock_via = 1;
	r = sb_mock_rw(&m, SB_DDIR_READ, 4096, 4096);
	ok(r == 4096 && m.ndone == 0, "and through getevents()/event()");
	o->cbsock_via = 0;
	t0 = sb_mock_now_ns();
	r = sb_mock_io(&m, SB_DDIR_READ, 8192, 4096, 200000000ULL);
	s = m.env.state;
	ok(r == -ETIMEDOUT, "the silent server's read times out");
	ok(sb_mock_now_ns() - t0 < 2000000000ULL,
	   "within the bound the mock gave getevents()");
	ok(s->cancelled == 1 && s->inflight == 0,
	   "and is cancelled: the engine holds nothing");
	ok(sb_mock_stop(&m) == 0 &&
		   strcmp(sb_mock_fact_of(&m, "cbsock.job_state"),
			  "logged_in") == 0,
	   "report reads the job state setup wrote");
	sb_mock_free(&m);
	return done_testing();
}
