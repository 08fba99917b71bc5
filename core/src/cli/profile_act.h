/*
 * fio's --profile=act (fio 3.33's profiles/act.c, Aerospike's ACT): its own
 * options from the command line, the jobs it adds, and its latency table.
 */
#ifndef SB_CLI_PROFILE_ACT_H
#define SB_CLI_PROFILE_ACT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sb_ctx;
struct sb_jobset;

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

void sb_act_defaults(struct sb_act_opts *o);

/* 1 when arg (without its "--") is one of act's options, which fio takes
 * on the command line whatever the profile; 0 otherwise. */
int sb_act_is_option(const char *arg);

/* Read one of act's options into o: 0, or -EINVAL with fio's message
 * ("fio: failed parsing load=abc") in ctx->err. */
int sb_act_option(struct sb_ctx *ctx, struct sb_act_opts *o, const char *arg);

/* Add act's jobs to jobs, as fio adds them after every other job: 0, or a
 * negative errno with the reason in ctx->err. */
int sb_act_load(struct sb_ctx *ctx, const struct sb_act_opts *o,
		struct sb_jobset *jobs);

/* ACT's criteria: latencies above 1, 8 and 64 ms. */
#define SB_ACT_CRIT	3
#define SB_ACT_SAMPLE_S 3600

/* One hour of a run: I/Os, and those over each criterion's limit (each
 * I/O in the highest one it exceeds only, as act.c counts). */
struct sb_act_slice {
	uint64_t over[SB_ACT_CRIT];
	uint64_t total;
};

/* act.c's limits in microseconds. */
uint64_t sb_act_limit_us(int crit);
/* The criterion a latency of ns counts in, or -1 when it is within 1 ms. */
int sb_act_crit_of(uint64_t ns);
/* The number of slices act.c keeps: test-duration over an hour, rounded
 * up (fio's value, in the unit it has). */
uint64_t sb_act_nr_slices(const struct sb_act_opts *o);

/* act.c's table and verdict, for nr slices. 0 when it says PASSED. */
int sb_act_print(FILE *f, const struct sb_act_slice *s, uint64_t nr);

#endif
