/*
 * gen_sdk: a generator that leans on every part of the generator SDK and
 * checks what the host promises, failing the job (next() returns an error
 * with a message) when a promise is broken:
 *   - the worker's files: its I/Os go round every file, within each one's
 *     size as init saw it;
 *   - the seed: offsets drawn from it, so one seed gives one stream;
 *   - completion feedback: each I/O comes back once, with its tag, done
 *     after it was issued and not before its at_ns;
 *   - closed loop (users=N): never more than N of its I/Os in flight,
 *     SB_GEN_WAIT while all N wait;
 *   - bursts (burst=N): every Nth I/O drains what is in flight first;
 *   - timed arrivals (gap=): I/O i not before the first one plus i gaps;
 *   - syncs (sync_every=N): a sync of the file after each N data I/Os;
 *   - limits (misalign=1): an offset off by 1 byte, which direct=1 refuses.
 * It ends once ios= data I/Os are done and every one has come back.
 */
#include <errno.h>

#include "sb_test_plugin.h"

struct gen_sdk_opts {
	int64_t ios;
	int64_t users;
	int64_t burst;
	int64_t sync_every;
	uint64_t gap_ns;
	int write;
	int misalign;
};

struct gen_sdk_state {
	const struct sb_gen_worker *wk;
	uint64_t rng;
	uint64_t issued, data, done, in_flight, max_in_flight;
	uint64_t tag_sum_issued, tag_sum_done;
	uint64_t since_sync, first_at;
	uint64_t last_done_ns;
	/* The draining I/O in flight (0: none): every I/O before it must be
	 * back before it was issued; how many are, and the last one when. */
	uint64_t drain_tag, done_before, last_before_ns, drains;
	int sync_owed;
	char bad[160]; /* the first broken promise */
};

static const struct sb_option gen_sdk_options[] = {
	{.name = "ios",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct gen_sdk_opts, ios),
	 .min = 1,
	 .max = INT64_MAX,
	 .help = "data I/Os in all"},
	{.name = "users",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct gen_sdk_opts, users),
	 .min = 0,
	 .max = 1024,
	 .help = "closed loop: at most this many I/Os in flight (0: iodepth)"},
	{.name = "burst",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct gen_sdk_opts, burst),
	 .min = 0,
	 .max = INT64_MAX,
	 .help = "every this many I/Os, wait for all in flight (0: never)"},
	{.name = "sync_every",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct gen_sdk_opts, sync_every),
	 .min = 0,
	 .max = INT64_MAX,
	 .help = "a sync of the file after this many data I/Os (0: none)"},
	{.name = "gap",
	 .type = SB_OPT_TIME,
	 .offset = offsetof(struct gen_sdk_opts, gap_ns),
	 .unit = 1000,
	 .help = "I/O i issues at the first one's time plus i gaps (us)"},
	{.name = "write",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct gen_sdk_opts, write),
	 .help = "write instead of read"},
	{.name = "misalign",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct gen_sdk_opts, misalign),
	 .help = "put the third I/O 1 byte off its block"},
	SB_OPTION_END,
};

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int gen_sdk_init(struct sb_env *env, const struct sb_gen_worker *wk)
{
	struct gen_sdk_state *s = env->state;

	if (wk->size < sizeof(*wk) || wk->nfiles < 1 || !wk->max_bs ||
	    !wk->align || wk->file_stride < sizeof(struct sb_gen_file))
		return env->host->error(env->handle, -EINVAL,
					"a worker description without files "
					"or limits");
	for (uint32_t i = 0; i < wk->nfiles; i++)
		if (sb_gen_file_at(wk, i)->size < wk->max_bs)
			return env->host->error(
				env->handle, -EINVAL,
				"file %u (%s) is %llu bytes, "
				"smaller than a block",
				i, sb_gen_file_at(wk, i)->path,
				(unsigned long long)sb_gen_file_at(wk, i)
					->size);
	s->wk = wk;
	s->rng = wk->seed ^ ((uint64_t)env->clone << 32);
	return 0;
}

static int broken(struct sb_env *env)
{
	struct gen_sdk_state *s = env->state;

	return env->host->error(env->handle, -EPROTO, "%s", s->bad);
}

static int gen_sdk_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const struct gen_sdk_opts *o = env->opts;
	struct gen_sdk_state *s = env->state;
	const struct sb_gen_worker *wk = s->wk;
	uint64_t users = o->users > 0 ? (uint64_t)o->users : wk->depth;
	const struct sb_gen_file *f;
	uint64_t blocks;

	if (s->bad[0])
		return broken(env);
	if (s->sync_owed && s->in_flight < users) {
		s->sync_owed = 0;
		spec->tag = ++s->issued;
		s->tag_sum_issued += spec->tag;
		spec->ddir = SB_DDIR_SYNC;
		spec->file = (uint32_t)((s->data - 1) % wk->nfiles);
		if (++s->in_flight > s->max_in_flight)
			s->max_in_flight = s->in_flight;
		return 0;
	}
	if (s->data == (uint64_t)o->ios) {
		if (s->in_flight)
			return SB_GEN_WAIT;
		if (s->tag_sum_done != s->tag_sum_issued ||
		    s->done != s->issued)
			return env->host->error(
				env->handle, -EPROTO,
				"%llu of %llu I/Os came back, tags sum %llu "
				"of %llu",
				(unsigned long long)s->done,
				(unsigned long long)s->issued,
				(unsigned long long)s->tag_sum_done,
				(unsigned long long)s->tag_sum_issued);
		env->host->log(
			env->handle, SB_LOG_INFO,
			"%llu I/Os, at most %llu in flight, %llu drained",
			(unsigned long long)s->issued,
			(unsigned long long)s->max_in_flight,
			(unsigned long long)s->drains);
		return SB_GEN_END;
	}
	if (s->in_flight >= users)
		return SB_GEN_WAIT;
	spec->file = (uint32_t)(s->data % wk->nfiles);
	spec->tag = ++s->issued;
	s->tag_sum_issued += spec->tag;
	f = sb_gen_file_at(wk, spec->file);
	blocks = f->size / wk->max_bs;
	spec->ddir = o->write ? SB_DDIR_WRITE : SB_DDIR_READ;
	spec->length = wk->max_bs;
	spec->offset = splitmix(&s->rng) % blocks * wk->max_bs;
	if (o->misalign && s->data == 2)
		spec->offset += 1;
	if (o->burst > 0 && s->data && s->data % (uint64_t)o->burst == 0 &&
	    !s->drain_tag) {
		spec->flags |= SB_SPEC_DRAIN;
		s->drain_tag = spec->tag;
		s->done_before = s->done;
		s->last_before_ns = s->last_done_ns;
	}
	if (o->gap_ns) {
		if (!s->first_at)
			s->first_at = env->host->now_ns();
		spec->at_ns = s->first_at + s->data * o->gap_ns;
	}
	s->data++;
	if (o->sync_every > 0 && ++s->since_sync == (uint64_t)o->sync_every) {
		s->since_sync = 0;
		s->sync_owed = 1;
	}
	if (++s->in_flight > s->max_in_flight)
		s->max_in_flight = s->in_flight;
	return 0;
}

static void gen_sdk_complete(struct sb_env *env, const struct sb_gen_done *d)
{
	struct gen_sdk_state *s = env->state;
	const struct sb_io_spec *spec = d->spec;
	uint64_t want = spec->ddir >= SB_DDIR_COUNT ? 0 : spec->length;

	if (s->bad[0])
		return;
	if (!spec->tag || spec->tag > s->issued || !s->in_flight)
		snprintf(s->bad, sizeof(s->bad),
			 "complete() for tag %llu, never issued or back twice",
			 (unsigned long long)spec->tag);
	else if (d->result != (int64_t)want)
		snprintf(s->bad, sizeof(s->bad),
			 "tag %llu came back with result %lld",
			 (unsigned long long)spec->tag, (long long)d->result);
	else if (d->done_ns < d->issue_ns || d->issue_ns < spec->at_ns)
		snprintf(s->bad, sizeof(s->bad),
			 "tag %llu: due %llu, issued %llu, done %llu",
			 (unsigned long long)spec->tag,
			 (unsigned long long)spec->at_ns,
			 (unsigned long long)d->issue_ns,
			 (unsigned long long)d->done_ns);
	else if (spec->tag == s->drain_tag &&
		 (s->done_before != spec->tag - 1 ||
		  s->last_before_ns > d->issue_ns))
		snprintf(s->bad, sizeof(s->bad),
			 "tag %llu drains, yet was issued before every "
			 "earlier I/O was back",
			 (unsigned long long)spec->tag);
	if (spec->tag == s->drain_tag) {
		s->drain_tag = 0;
		s->drains++;
	} else if (s->drain_tag && spec->tag < s->drain_tag) {
		s->done_before++;
		if (d->done_ns > s->last_before_ns)
			s->last_before_ns = d->done_ns;
	}
	if (d->done_ns > s->last_done_ns)
		s->last_done_ns = d->done_ns;
	s->in_flight--;
	s->done++;
	s->tag_sum_done += spec->tag;
}

static const struct sb_generator_ops gen_sdk_ops = {
	.size = sizeof(struct sb_generator_ops),
	.state_size = sizeof(struct gen_sdk_state),
	.init = gen_sdk_init,
	.next = gen_sdk_next,
	.complete = gen_sdk_complete,
};

SB_TEST_PLUGIN(gen_sdk, SB_KIND_GENERATOR, &gen_sdk_ops,
	       .description = "checks the generator SDK's promises as it runs",
	       .options = gen_sdk_options,
	       .options_size = sizeof(struct gen_sdk_opts));
