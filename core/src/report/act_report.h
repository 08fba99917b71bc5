/*
 * fio 3.33's act.c table at the end of a --profile=act run (act_report.c);
 * cli/profile_act.h reads the options and adds the jobs.
 */
#ifndef SB_REPORT_ACT_REPORT_H
#define SB_REPORT_ACT_REPORT_H

#include <stdint.h>
#include <stdio.h>

struct sb_run_result;

/* act's options, as fio 3.33 leaves them after parsing. */
struct sb_act_opts {
	const char *device_names; /* NULL: not given */
	uint32_t load;
	uint32_t threads_per_queue;
	uint32_t num_read_blocks;
	uint32_t write_size;	/* "large-block-op-kbytes": bytes in fio */
	uint64_t test_duration; /* fio's value: a bare number, else usec */
	int prep;
};

/* ACT's criteria: latencies above 1, 8 and 64 ms. */
#define SB_ACT_CRIT	3
#define SB_ACT_SAMPLE_S 3600

/* One hour of a run: I/Os, and those over each criterion's limit (each
 * I/O in the highest one it exceeds only, as act.c counts). */
struct sb_act_slice {
	uint64_t over[SB_ACT_CRIT];
	uint64_t total;
};

/* The criterion a latency of ns counts in, or -1 when it is within 1 ms. */
int sb_act_crit_of(uint64_t ns);
/* The number of slices act.c keeps: test-duration over an hour, rounded
 * up (fio's value, in the unit it has). */
uint64_t sb_act_nr_slices(const struct sb_act_opts *o);

/* At the run's end: act's table over every job's latencies (fio's lat,
 * from submission to completion), read from their histograms; none under
 * --prep, as act.c counts none there. 0 when it says PASSED. */
int sb_act_report(FILE *f, const struct sb_act_opts *o,
		  const struct sb_run_result *rr);

#endif
