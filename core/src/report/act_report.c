/*
 * fio 3.33's act.c table at the end of a --profile=act run: ACT's latency
 * criteria over every job's I/Os, its percentages and its verdict.
 */
#include "act_report.h"

#include "../stats/hist.h"
#include "../stats/results.h"

static const uint32_t act_max_usec[SB_ACT_CRIT] = {1000, 8000, 64000};
/* Per mille of a slice's I/Os at which a criterion fails. */
static const uint32_t act_max_perm[SB_ACT_CRIT] = {50, 10, 1};

int sb_act_crit_of(uint64_t ns)
{
	uint64_t us = ns / 1000;

	for (int i = SB_ACT_CRIT - 1; i >= 0; i--)
		if (us > act_max_usec[i])
			return i;
	return -1;
}

uint64_t sb_act_nr_slices(const struct sb_act_opts *o)
{
	return (o->test_duration + SB_ACT_SAMPLE_S - 1) / SB_ACT_SAMPLE_S;
}

static double perc_of(const struct sb_act_slice *s, int i)
{
	return s->total ? 100.0 * (double)s->over[i] / (double)s->total : 0.0;
}

static int sb_act_print_head(FILE *f)
{
	fputs("        trans                   device\n"
	      "        %>(ms)                  %>(ms)\n"
	      " slice",
	      f);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < SB_ACT_CRIT; i++)
			fprintf(f, "\t %2u", act_max_usec[i] / 1000);
	fputs("\n -----  -----   -----  ------   -----   -----  ------\n", f);
	return 0;
}

/* One slice's line: the number of criteria it fails. act.c prints the
 * same figures under trans and under device. */
static int sb_act_print_slice(FILE *f, const struct sb_act_slice *s, uint64_t k)
{
	int fails = 0;

	fprintf(f, "   %2u", (unsigned)(k + 1));
	for (int i = 0; i < SB_ACT_CRIT; i++) {
		if (perc_of(s, i) * 10.0 >= act_max_perm[i])
			fails++;
		fprintf(f, "\t%2.2f", perc_of(s, i));
	}
	for (int i = 0; i < SB_ACT_CRIT; i++)
		fprintf(f, "\t%2.2f", perc_of(s, i));
	fputc('\n', f);
	return fails;
}

static int sb_act_print_end(FILE *f, int fails)
{
	fprintf(f, "\nact: test complete, device(s): %s\n",
		fails ? "FAILED" : "PASSED");
	return fails ? 1 : 0;
}

/* A bucket counts by its reported value: act's limits fall inside
 * buckets 4 us wide at 1 ms, 32 us at 8 ms, 256 us at 64 ms. */
static void count_hist(struct sb_act_slice *s, const struct sb_hist *h)
{
	uint64_t lo, hi, n;
	size_t cur = 0, idx;

	while (sb_hist_next(h, &cur, &lo, &hi, &n)) {
		int c;

		idx = cur - 1;
		c = sb_act_crit_of(sb_hist_bucket_value(idx));
		s->total += n;
		if (c >= 0)
			s->over[c] += n;
	}
}

int sb_act_report(FILE *f, const struct sb_act_opts *o,
		  const struct sb_run_result *rr)
{
	/* Slices past the first print as act.c prints an hour without
	 * I/O: the whole run's latencies are in the first. */
	static const struct sb_act_slice none;
	struct sb_act_slice first = {0};
	uint64_t nr = sb_act_nr_slices(o);
	int fails;

	for (unsigned j = 0; !o->prep && j < rr->njobs; j++)
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			const struct sb_dir_stats *ds = &rr->jobs[j]->dir[d];
			const struct sb_hist *h =
				ds->lat.hist ? ds->lat.hist : ds->clat.hist;

			if (h)
				count_hist(&first, h);
		}
	fails = sb_act_print_head(f);
	for (uint64_t k = 0; k < nr; k++)
		fails += sb_act_print_slice(f, k ? &none : &first, k);
	return sb_act_print_end(f, fails);
}
