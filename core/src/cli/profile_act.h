/*
 * fio's --profile=act (fio 3.33's profiles/act.c, Aerospike's ACT): its own
 * options from the command line, the jobs it adds, and its latency table.
 */
#ifndef SB_CLI_PROFILE_ACT_H
#define SB_CLI_PROFILE_ACT_H

#include "../report/act_report.h"

struct sb_ctx;
struct sb_jobset;

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

#endif
