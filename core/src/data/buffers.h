/*
 * What the bytes of a write buffer are: fio's buffer options, so
 * compressing and deduplicating storage sees the data the job asks for.
 * One sb_buf_state per worker; only that worker's thread uses it.
 */
#ifndef SB_BUFFERS_H
#define SB_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The fields hold the options as fio ends up with them; fio's own
 * adjustments are the caller's, since only it knows which options the job
 * set: buffer_compress_percentage 1..99 turns refill_buffers on unless the
 * job set it; buffer_pattern sets refill_buffers only for jobs that read or
 * compress. compress_chunk: fio's default is 512, and an explicit 0 means
 * the whole buffer. Scrambling is skipped here, as fio skips it, with
 * zero_buffers, a pattern, compression or dedupe.
 */
/* struct sb_buf_cfg.scramble */
#define SB_SCRAMBLE_OFF 0
#define SB_SCRAMBLE_DEFAULT                                                    \
	1 /* fio's default: unless zeros, a pattern or                         \
	     compressible data */
#define SB_SCRAMBLE_ASKED                                                      \
	2 /* set by the job, which fio honours even over                       \
	     zero_buffers or a pattern */

struct sb_buf_cfg {
	int zero;     /* zero_buffers: all zeros */
	int refill;   /* refill_buffers: new contents before every write */
	int scramble; /* SB_SCRAMBLE_*: scramble_buffers, change a few
			 bytes of each write so blocks do not dedupe */
	/* buffer_pattern, repeated over the buffer; NULL: none. Owned by the
	 * caller, outlives the state. */
	const unsigned char *pattern;
	size_t pattern_len;
	unsigned compress_pct;	 /* buffer_compress_percentage, 0: off */
	uint64_t compress_chunk; /* buffer_compress_chunk, 0: the block */
	unsigned dedupe_pct;	 /* dedupe_percentage: writes that repeat an
				    earlier buffer's contents */
	/* dedupe_mode=working_set: a deduped write repeats one of ws_pages
	 * pages drawn at random (0: repeat mode, the latest unique write). */
	uint64_t ws_pages;
	int ws_global;	     /* dedupe_global: the pages come from all clones */
	unsigned ws_threads; /* clones in the run, for ws_global */
};

struct sb_buf_state {
	const struct sb_buf_cfg *cfg; /* the caller's; outlives the state */
	uint64_t rng;
	uint64_t dedupe_seed; /* seed of the contents repeated by dedupe */
	uint64_t writes;
	unsigned clone;	 /* fio's thread number less 1, for working sets */
	uint64_t unique; /* unique writes so far, in working-set mode */
};

/* clone: the worker's number among all the run's clones, from 0 (fio's
 * thread number less 1); it names the worker's unique pages, which a
 * dedupe_global working set draws from. */
void sb_buf_init(struct sb_buf_state *s, const struct sb_buf_cfg *c,
		 uint64_t seed, unsigned clone);

/* Contents of a freshly allocated buffer of len bytes. */
void sb_buf_fill(struct sb_buf_state *s, void *buf, size_t len);

/* Before each write of len bytes at offset: refill, scramble or dedupe as
 * the cfg says; does nothing for the plain default beyond scrambling. */
void sb_buf_prepare_write(struct sb_buf_state *s, void *buf, size_t len,
			  uint64_t offset);

#endif
