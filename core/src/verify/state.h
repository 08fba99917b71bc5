/*
 * verify_state_save / verify_state_load: the file fio 3.33 writes as a job
 * that writes with verify= ends (verify.c, verify-state.h), so that a later
 * verify_only run checks only the writes that had completed when the job
 * stopped. Same name, same bytes, so either program loads the other's.
 *
 * The file: a header of three little-endian u64 (version 3, the size of
 * what follows, the CRC-32C of it as fio_crc32c() computes it: seeded with
 * ~0, not inverted at the end), then fio's struct thread_io_list:
 *
 *	  0   8  no_comps  completions listed below
 *	  8   4  depth     the job's iodepth
 *	 12   4  nofiles   its files
 *	 16   8  numberio  writes issued (fio's io_issues[DDIR_WRITE])
 *	 24   8  index     fio's thread number - 1
 *	 32  56  rand      use64, then the offset generator's state
 *	 88  64  name      the job's name, NUL-padded (63 bytes at most)
 *	152  16 * depth * nofiles: {fileno, offset} of the latest completed
 *	         writes, each file's newest first; no_comps of them are used
 *
 * The rand state is fio's tausworthe generator's, which storbench does not
 * use: it writes zeros there (what fio writes for a sequential job), and
 * neither program reads it back. Pure functions but the two file calls.
 */
#ifndef SB_VERIFY_STATE_H
#define SB_VERIFY_STATE_H

#include <stddef.h>
#include <stdint.h>

#define SB_VSTATE_VERSION 3
#define SB_VSTATE_HDR	  24
#define SB_VSTATE_LIST	  152
#define SB_VSTATE_NAME	  64

struct sb_vstate_comp {
	uint64_t fileno, offset;
};

struct sb_vstate {
	uint64_t no_comps;
	uint32_t depth, nofiles;
	uint64_t numberio, index;
	char name[SB_VSTATE_NAME];
	/* [depth * nofiles], owned by whoever filled the struct. */
	struct sb_vstate_comp *comps;
};

/* fio's verify_state_gen_name(): "PREFIX-NAME-INDEX-verify.state", each
 * '/' of name a '.'. 0, or -ENAMETOOLONG when it does not fit out. */
int sb_vstate_name(char *out, size_t len, const char *prefix, const char *name,
		   uint64_t index);

/* Write s to path (created 0644, synchronously, as fio's O_SYNC): only a
 * regular file, whatever a link leads to. 0, or a negative errno with err
 * saying what failed. */
int sb_vstate_save(const char *path, const struct sb_vstate *s, char *err,
		   size_t errlen);

/* Read path into s (s->comps allocated: free() it). 0, or a negative errno
 * with err in fio's words where fio has them. */
int sb_vstate_load(const char *path, struct sb_vstate *s, char *err,
		   size_t errlen);

/*
 * fio's verify_state_should_stop(): whether a verify read of offset in
 * file fileno must not be issued, reads being the reads completed so far
 * (fio's io_blocks[DDIR_READ]). Outside the last depth writes every read
 * goes; inside them only those the state lists as completed.
 */
int sb_vstate_should_stop(const struct sb_vstate *s, uint64_t reads,
			  uint64_t fileno, uint64_t offset);

#endif
