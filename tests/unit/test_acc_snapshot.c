/*
 * What the host reads of a worker it gave up on (sb_dir_snapshot): the
 * amounts exactly, and latency figures from the histogram within its bound,
 * so a stuck clone's report says what it really did.
 */
#include <math.h>
#include <string.h>

#include "stats/acc.h"
#include "tap.h"

/* The histogram's bound (hist.h): half a bucket, 1/256 of the value. */
#define BOUND (1.0 / 256)

static int near(double got, double want)
{
	return fabs(got - want) <= want * BOUND + 1;
}

int main(void)
{
	static struct sb_dir_acc live, snap;
	struct sb_lat exact, seen;
	uint64_t v = 1000;

	plan(9);
	memset(&live, 0, sizeof(live));
	for (int i = 0; i < 10000; i++) {
		/* From 1 us to about 1 ms, spread over many buckets. */
		v = 1000 + (v * 7919 + 13) % 999000;
		sb_lat_add(&live.clat, v);
		live.ios++;
		live.bytes += 4096;
	}
	live.errors = 3;
	sb_dir_snapshot(&snap, &live);
	is_int((int)snap.ios, 10000, "ios as published");
	ok(snap.bytes == 10000ULL * 4096, "bytes as published");
	is_int((int)snap.errors, 3, "errors");
	sb_lat_view(&live.clat, &exact);
	sb_lat_view(&snap.clat, &seen);
	ok(seen.n == exact.n, "n: every sample in the histogram");
	ok(near((double)seen.min_ns, (double)exact.min_ns),
	   "min within the histogram's bound (%llu, exact %llu)",
	   (unsigned long long)seen.min_ns, (unsigned long long)exact.min_ns);
	ok(near((double)seen.max_ns, (double)exact.max_ns),
	   "max within it (%llu, exact %llu)", (unsigned long long)seen.max_ns,
	   (unsigned long long)exact.max_ns);
	ok(near(seen.mean_ns, exact.mean_ns),
	   "mean within it (%.1f, exact %.1f)", seen.mean_ns, exact.mean_ns);
	/* Each sample moves by at most its bucket's error, so the deviation
	 * moves by no more than the largest one. */
	ok(fabs(seen.stddev_ns - exact.stddev_ns) <=
		   (double)exact.max_ns * BOUND,
	   "deviation within it (%.1f, exact %.1f)", seen.stddev_ns,
	   exact.stddev_ns);
	sb_lat_view(&snap.slat, &seen);
	ok(seen.n == 0 && seen.hist == NULL, "an empty one stays empty");
	return done_testing();
}
