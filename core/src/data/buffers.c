/*
 * Write-buffer contents after fio 3.33 (io_u.c fill_io_buffer, get_io_u,
 * small_content_scramble; lib/rand.c fill_random_buf_percentage):
 *
 * - What a fill writes, in fio's order of precedence: with
 *   buffer_compress_percentage or dedupe_percentage, chunks of
 *   compress_chunk bytes (0: the whole buffer, as fio's min_not_zero), each
 *   (100-N)% random bytes followed by N% fixed bytes (buffer_pattern from
 *   its start, else zeros); else buffer_pattern repeated from the buffer's
 *   start; else zeros for zero_buffers; else random bytes. Like fio,
 *   dedupe_percentage with no compress percentage writes random data even
 *   with zero_buffers or a pattern. compress_pct >= 100 is all fixed bytes,
 *   as fio turns 100 into zero_buffers.
 * - Before each write: dedupe_percentage first (a share of writes repeat an
 *   earlier write's contents, the rest are new), then refill_buffers (new
 *   contents every write), then scramble_buffers, which fio skips for
 *   compressible or deduped data and for zero_buffers or buffer_pattern.
 *
 * Contents derive from 64-bit seeds drawn from the state's rng, never from
 * the buffer's address, so a seed reproduces its bytes in any buffer: that
 * is how a deduped write repeats an earlier one (fio copies its random
 * state for the same reason), and how runs repeat for a given seed.
 */
#include "buffers.h"

#include <string.h>

#include "../util/rand.h"

#define SECTOR 512 /* fio scrambles every 512 bytes, the smallest sector */

static void fill_random(uint64_t *g, unsigned char *p, size_t len)
{
	size_t i = 0;
	uint64_t v;

	for (; i + 8 <= len; i += 8) {
		v = sb_rand64(g);
		memcpy(p + i, &v, 8);
	}
	if (i < len) {
		v = sb_rand64(g);
		memcpy(p + i, &v, len - i);
	}
}

/* The pattern from its first byte over len bytes, by doubling copies as
 * fio's cpy_pattern does: log2(len / pattern_len) memcpys, not len / 3. */
static void fill_pattern(const unsigned char *pat, size_t plen,
			 unsigned char *p, size_t len)
{
	size_t done = plen < len ? plen : len, n;

	memcpy(p, pat, done);
	while (done < len) {
		n = done < len - done ? done : len - done;
		memcpy(p + done, p, n);
		done += n;
	}
}

static int has_pattern(const struct sb_buf_cfg *c)
{
	return c->pattern && c->pattern_len;
}

/* The compressible part of a chunk: fio's buffer_pattern, else zeros. */
static void fill_fixed(const struct sb_buf_cfg *c, unsigned char *p, size_t len)
{
	if (has_pattern(c))
		fill_pattern(c->pattern, c->pattern_len, p, len);
	else
		memset(p, 0, len);
}

/* fio's __fill_random_buf_percentage, one chunk per call as fill_io_buffer
 * makes them: random first, then fixed, so zlib finds each fixed run. */
static void fill_compressible(const struct sb_buf_cfg *c, uint64_t *g,
			      unsigned char *p, size_t len)
{
	uint64_t pct = c->compress_pct, chunk = c->compress_chunk;
	size_t off, this, rnd;

	if (pct >= 100) {
		fill_fixed(c, p, len);
		return;
	}
	if (chunk == 0 || chunk > len)
		chunk = len;
	for (off = 0; off < len; off += this) {
		this = len - off < chunk ? len - off : (size_t)chunk;
		rnd = (size_t)((uint64_t)this * (100 - pct) / 100);
		fill_random(g, p + off, rnd);
		fill_fixed(c, p + off + rnd, this - rnd);
	}
}

/* One write's contents, a function of seed and len only. */
static void generate(const struct sb_buf_cfg *c, uint64_t seed,
		     unsigned char *p, size_t len)
{
	uint64_t g = seed;

	if (c->compress_pct || c->dedupe_pct)
		fill_compressible(c, &g, p, len);
	else if (has_pattern(c))
		fill_pattern(c->pattern, c->pattern_len, p, len);
	else if (c->zero)
		memset(p, 0, len);
	else
		fill_random(&g, p, len);
}

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * fio's small_content_scramble: 16 bytes per 512-byte sector instead of a
 * refill, enough that no two writes carry an identical sector. Each sector
 * gets its own offset at the start of one of its 8 cache lines (which one
 * varies per write, as in fio) and the write's number at bytes 48..55,
 * where fio puts its start time. A buffer shorter than a sector is left
 * alone, as in fio.
 */
static void scramble(uint64_t write_no, unsigned char *p, size_t len,
		     uint64_t offset)
{
	size_t line = (size_t)((write_no ^ (offset / SECTOR)) & 7) * 64;

	for (size_t i = 0; i + SECTOR <= len; i += SECTOR) {
		put_le64(p + i + line, offset + i);
		put_le64(p + i + 48, write_no);
	}
}

void sb_buf_init(struct sb_buf_state *s, const struct sb_buf_cfg *c,
		 uint64_t seed, unsigned clone)
{
	s->cfg = c;
	s->rng = seed;
	s->dedupe_seed = sb_rand64(&s->rng);
	s->writes = 0;
	s->clone = clone;
	s->unique = 0;
}

/*
 * Working-set mode after fio's dedupe.c: a clone's unique writes are the
 * pages of its own sequence, page k made from seed page_seed(clone, k), and
 * its working set is the first ws_pages of them, so a deduped write repeats
 * a page the clone writes (or wrote) as a unique one. With dedupe_global
 * the set is made of runs of ws_pages / clones pages from each clone's
 * sequence in turn, starting with its own, as fio rotates its seeds, so
 * clones repeat each other's pages.
 */
static uint64_t page_seed(unsigned clone, uint64_t k)
{
	uint64_t g = 0x9e3779b97f4a7c15ull * ((uint64_t)clone + 1) ^
		     (k * 0xbf58476d1ce4e5b9ull);

	return sb_rand64(&g);
}

static uint64_t ws_seed(const struct sb_buf_state *s, uint64_t i)
{
	const struct sb_buf_cfg *c = s->cfg;
	uint64_t per;

	if (!c->ws_global || c->ws_threads < 2)
		return page_seed(s->clone, i);
	per = c->ws_pages / c->ws_threads ? c->ws_pages / c->ws_threads : 1;
	return page_seed((unsigned)((s->clone + i / per) % c->ws_threads),
			 i % per);
}

void sb_buf_fill(struct sb_buf_state *s, void *buf, size_t len)
{
	if (!buf || !len)
		return;
	generate(s->cfg, sb_rand64(&s->rng), buf, len);
}

void sb_buf_prepare_write(struct sb_buf_state *s, void *buf, size_t len,
			  uint64_t offset)
{
	const struct sb_buf_cfg *c = s->cfg;

	if (!buf || !len)
		return;
	s->writes++;
	if (c->dedupe_pct) {
		/*
		 * fio's dedupe_mode=repeat replays a saved random state, so a
		 * deduped write repeats one other write byte for byte; here
		 * it repeats the latest unique write. Draw every time so the
		 * choices do not depend on earlier ones; the first write has
		 * nothing to repeat, so it is always unique.
		 */
		uint64_t draw = sb_rand64(&s->rng) % 100;

		if (c->ws_pages) {
			uint64_t pick = sb_rand64(&s->rng) % c->ws_pages;

			generate(c,
				 draw < c->dedupe_pct
					 ? ws_seed(s, pick)
					 : page_seed(s->clone, s->unique++),
				 buf, len);
			return;
		}
		if (s->writes == 1 || draw >= c->dedupe_pct)
			s->dedupe_seed = sb_rand64(&s->rng);
		generate(c, s->dedupe_seed, buf, len);
	} else if (c->refill) {
		generate(c, sb_rand64(&s->rng), buf, len);
	} else if (c->scramble == SB_SCRAMBLE_ASKED ||
		   (c->scramble && !c->zero && !has_pattern(c) &&
		    !c->compress_pct)) {
		scramble(s->writes, buf, len, offset);
	}
}
