/*
 * What the host does when a plugin breaks the SDK's contract: a return
 * value, a count or a state that engine.h, generator.h or reporter.h
 * forbid. The check sits where the host receives the value (a compare and
 * a branch the CPU predicts, on the I/O path); the message, built here off
 * the hot path, names the plugin's kind, the plugin and the hook, and the
 * job fails as any failed job does: its figures so far are reported, the
 * run exits 1. Nothing the broken value points to is touched.
 */
#ifndef SB_CONTRACT_H
#define SB_CONTRACT_H

#include <storbench/plugin.h>

struct sb_worker;
struct sb_handle;

/* The worker fails with -EPROTO: "<kind> <plugin>: <what>". */
int sb_wbroke(struct sb_worker *w, const struct sb_handle *h, const char *fmt,
	      ...) SB_PRINTF(3, 4);

/* "engine", "generator": the kind of the worker's handle h. */
const char *sb_wkind(const struct sb_worker *w, const struct sb_handle *h);

/* A generator plugin's next spec, checked against generator.h: 0,
 * SB_GEN_END, SB_STREAM_WAIT, or the worker's error. */
struct sb_io_spec;
int sb_gen_next(struct sb_worker *w, struct sb_io_spec *spec);

#endif
