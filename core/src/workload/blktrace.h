/*
 * blktrace binary files, read as fio 3.33 reads them (blktrace.c): replayed
 * by read_iolog, and merged into one by merge_blktrace_file.
 *
 * A blktrace file is a run of 48-byte records, struct blk_io_trace of the
 * kernel's blktrace_api.h, each followed by pdu_len bytes of payload, in
 * the byte order of the machine that recorded it:
 *
 *   off size field
 *     0    4 magic     0x65617400 | version (7)
 *     4    4 sequence
 *     8    8 time      ns since the trace began
 *    16    8 sector    in 512-byte units
 *    24    4 bytes
 *    28    4 action    low 16 bits: __BLK_TA_*; high 16: BLK_TC_* mask
 *    32    4 pid
 *    36    4 device    major << 20 | minor
 *    40    4 cpu
 *    44    2 error
 *    46    2 pdu_len
 *
 * Only queue events are replayed (the others are the block layer's own
 * doings): reads and writes, discards as trims, flushes as syncs; the other
 * events give only the queue depth fio takes as iodepth when none is set.
 */
#ifndef SB_BLKTRACE_H
#define SB_BLKTRACE_H

#include <stddef.h>
#include <stdio.h>

#include "../options/fio_values.h"
#include "replay.h"

/* Whether f begins with a blktrace record's magic, in either byte order
 * (*swap: the other one than this machine's). f is rewound. */
int sb_blktrace_is(FILE *f, int *swap);

/* f's I/Os appended to r, as one more log: its devices become r's files
 * (each the /dev node of its major:minor, or o->redirect). 0, or a
 * negative errno and "path: ..." in err. Main thread. */
int sb_blktrace_read(FILE *f, const char *path, int swap,
		     const struct sb_replay_opts *o, struct sb_replay *r,
		     char *err, size_t errlen);

/* fio's merge_blktrace_iologs: the traces of paths[0..n) as one, their
 * queue events in order of time, each trace's times scaled by scalars
 * (percent; none: 100) and repeated iters times (none: 1), one value per
 * file. The merged file's bytes, in this machine's byte order, in *buf
 * (the caller frees it). 0, or a negative errno and the reason in err. */
int sb_blktrace_merge(const char *const *paths, unsigned n,
		      const struct sb_floats *scalars,
		      const struct sb_floats *iters, char **buf, size_t *len,
		      char *err, size_t errlen);

#endif
