/*
 * cpus_allowed, cpumask, cpus_allowed_policy and binding, against what fio
 * 3.33 does. The fio runs quoted below were made on a 2-CPU machine with
 *	fio --name=x --ioengine=null --size=1m --time_based --runtime=3 \
 *	    --output=/dev/null OPTIONS &
 * and each job process's Cpus_allowed_list read from /proc/PID/status while
 * it ran; parse errors are fio's own messages.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "machine/cpus.h"
#include "tap.h"

/* "0,1,2" for the set, to compare as a string. */
static const char *fmt(const struct sb_cpus *c, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < c->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? "," : "",
				       c->cpu[i]);
	return buf;
}

struct good {
	const char *in;
	unsigned ncpus;
	const char *want;
};

struct bad {
	const char *in;
	unsigned ncpus;
	const char *err;
};

static void list_vectors(void)
{
	static const struct good good[] = {
		{"0-3,6,8-10", 16, "0,1,2,3,6,8,9,10"},
		/* fio accepts blanks around numbers and separators */
		{" 0 , 1 ", 2, "0,1"},
		{"0 - 1", 2, "0,1"},
		{"\t1\t", 2, "1"},
		/* a trailing comma: fio binds 0-1 */
		{"0,1,", 2, "0,1"},
		{"3,1,2-3,1", 4, "1,2,3"},
		{"5-5", 8, "5"},
		{"007", 8, "7"},
		{"1021-1023", 1024, "1021,1022,1023"},
	};
	static const struct bad bad[] = {
		/* fio: "CPU 5 too large (max=1)" */
		{"5", 2,
		 "cpus_allowed=5: CPU 5 is beyond this machine's 2 configured "
		 "CPUs (0-1)"},
		/* fio: "CPU 2 too large (max=1)" -- the first one in range */
		{"0-5", 2,
		 "cpus_allowed=0-5: CPU 2 is beyond this machine's 2 "
		 "configured CPUs (0-1)"},
		{"0-2000", 2,
		 "cpus_allowed=0-2000: CPU 2 is beyond this machine's 2 "
		 "configured CPUs (0-1)"},
		/* fio: "your OS only supports up to 1024 CPUs" */
		{"2000", 2,
		 "cpus_allowed=2000: CPU 2000 is beyond the 1024 CPUs "
		 "storbench supports"},
		{"1024", 4096,
		 "cpus_allowed=1024: CPU 1024 is beyond the 1024 CPUs "
		 "storbench supports"},
		{"99999999999", 2,
		 "cpus_allowed=99999999999: CPU 99999999999 is beyond the 1024 "
		 "CPUs storbench supports"},
		/* fio accepts these and fails at job start (empty mask) */
		{"5-3", 8, "cpus_allowed=5-3: bad range 5-3"},
		{"1-0", 2, "cpus_allowed=1-0: bad range 1-0"},
		{",1", 2, "cpus_allowed=,1: empty entry"},
		/* fio's atoi() reads these as something; here they are errors
		 */
		{"1-", 2, "cpus_allowed=1-: bad range 1-"},
		{"-1", 2, "cpus_allowed=-1: bad range -1"},
		{"1-2-3", 8, "cpus_allowed=1-2-3: bad range 1-2-3"},
		{"a", 2, "cpus_allowed=a: a is not a CPU number"},
		{"1a", 2, "cpus_allowed=1a: 1a is not a CPU number"},
		{"0x1", 2, "cpus_allowed=0x1: 0x1 is not a CPU number"},
		{"1 0", 16, "cpus_allowed=1 0: 1 0 is not a CPU number"},
		/* fio binds CPU 0 only and drops the rest */
		{"0,,1", 2, "cpus_allowed=0,,1: empty entry"},
		{"", 2, "cpus_allowed=: no CPUs given"},
		{" , ", 2, "cpus_allowed= , : no CPUs given"},
	};
	struct sb_cpus c;
	char err[160], buf[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = sb_cpus_parse_list_n(good[i].in, good[i].ncpus, &c,
					      err, sizeof(err));

		is_int(rc, 0, "cpus_allowed='%s' parses", good[i].in);
		is_string(fmt(&c, buf, sizeof(buf)), good[i].want,
			  "cpus_allowed='%s' is %s", good[i].in, good[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		err[0] = '\0';
		c.n = 99;
		rc = sb_cpus_parse_list_n(bad[i].in, bad[i].ncpus, &c, err,
					  sizeof(err));
		ok(rc == -EINVAL && c.n == 0, "cpus_allowed='%s' fails (%d)",
		   bad[i].in, rc);
		is_string(err, bad[i].err, "  with its message");
	}

	/* The full set of a big machine fits. */
	{
		char spec[16];
		int rc;

		snprintf(spec, sizeof(spec), "0-%d", SB_CPUS_MAX - 1);
		rc = sb_cpus_parse_list_n(spec, SB_CPUS_MAX, &c, err,
					  sizeof(err));
		ok(rc == 0 && c.n == SB_CPUS_MAX && c.cpu[0] == 0 &&
			   c.cpu[SB_CPUS_MAX - 1] == SB_CPUS_MAX - 1,
		   "cpus_allowed=%s gives all %d CPUs", spec, SB_CPUS_MAX);
	}
}

static void list_this_machine(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct sb_cpus c;
	char spec[32], err[160], want[160];
	int rc;

	snprintf(spec, sizeof(spec), "0-%ld", ncpu - 1);
	rc = sb_cpus_parse_list(spec, &c, err, sizeof(err));
	ok(rc == 0 && c.n == (unsigned)ncpu,
	   "cpus_allowed=%s covers this machine's %ld CPUs", spec, ncpu);

	snprintf(spec, sizeof(spec), "%ld", ncpu);
	snprintf(want, sizeof(want),
		 "cpus_allowed=%ld: CPU %ld is beyond this machine's %ld "
		 "configured CPUs (0-%ld)",
		 ncpu, ncpu, ncpu, ncpu - 1);
	rc = sb_cpus_parse_list(spec, &c, err, sizeof(err));
	is_int(rc, -EINVAL, "cpus_allowed=%s: one past the last CPU fails",
	       spec);
	is_string(err, want, "  naming the machine's count");
}

static void mask_vectors(void)
{
	static const struct good good[] = {
		{"3", 2, "0,1"},
		{"2", 2, "1"},
		{"0x2", 2, "1"},
		{"0X3", 2, "0,1"},
		{" 2 ", 2, "1"},
		/* fio: cpumask=010 fails on CPU 3, so it is decimal ten */
		{"010", 16, "1,3"},
		{"34", 8, "1,5"}, /* the HOWTO's example */
		{"0xffffffffffffffff", 64, NULL},
		{"0x8000000000000000", 64, "63"},
	};
	static const struct bad bad[] = {
		/* fio: "CPU 2 too large (max=1)" */
		{"0xff", 2,
		 "cpumask=0xff: CPU 2 is beyond this machine's 2 configured "
		 "CPUs (0-1)"},
		{"4", 2,
		 "cpumask=4: CPU 2 is beyond this machine's 2 configured CPUs "
		 "(0-1)"},
		/* fio: "CPU 3 too large (max=1)" */
		{"010", 2,
		 "cpumask=010: CPU 3 is beyond this machine's 2 configured "
		 "CPUs (0-1)"},
		/* fio: starts, then sched_setaffinity EINVAL */
		{"0", 2, "cpumask=0: no CPUs in the mask"},
		{"0x0", 2, "cpumask=0x0: no CPUs in the mask"},
		{"0x", 2, "cpumask=0x: not a number (decimal or 0x hex)"},
		{"", 2, "cpumask=: not a number (decimal or 0x hex)"},
		{"-1", 2, "cpumask=-1: not a number (decimal or 0x hex)"},
		{"1k", 2, "cpumask=1k: not a number (decimal or 0x hex)"},
		{"0b10", 2, "cpumask=0b10: not a number (decimal or 0x hex)"},
		{"2+0", 2, "cpumask=2+0: not a number (decimal or 0x hex)"},
		{"0x10000000000000000", 64,
		 "cpumask=0x10000000000000000: more than 64 bits; use "
		 "cpus_allowed"},
		{"18446744073709551616", 64,
		 "cpumask=18446744073709551616: more than 64 bits; use "
		 "cpus_allowed"},
	};
	struct sb_cpus c;
	char err[160], buf[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = sb_cpus_parse_mask_n(good[i].in, good[i].ncpus, &c,
					      err, sizeof(err));

		is_int(rc, 0, "cpumask=%s parses", good[i].in);
		if (good[i].want)
			is_string(fmt(&c, buf, sizeof(buf)), good[i].want,
				  "cpumask=%s is %s", good[i].in, good[i].want);
		else
			ok(c.n == 64 && c.cpu[63] == 63,
			   "cpumask=%s is CPUs 0-63", good[i].in);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		err[0] = '\0';
		rc = sb_cpus_parse_mask_n(bad[i].in, bad[i].ncpus, &c, err,
					  sizeof(err));
		ok(rc == -EINVAL && c.n == 0, "cpumask='%s' fails (%d)",
		   bad[i].in, rc);
		is_string(err, bad[i].err, "  with its message");
	}
	is_int(sb_cpus_parse_mask("1", &c, err, sizeof(err)), 0,
	       "cpumask=1 on this machine");
	is_string(fmt(&c, buf, sizeof(buf)), "0", "  is CPU 0");
}

/* Each thread's CPU under split for threads first..first+count-1. */
static const char *clones(const struct sb_cpus *all, unsigned first,
			  unsigned count, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < count && at < len; i++) {
		struct sb_cpus one;

		sb_cpus_for_clone(all, 1, first + i, &one);
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "",
				       one.n == 1 ? "" : "(not one CPU)");
		if (one.n == 1 && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%u",
					       one.cpu[0]);
	}
	return buf;
}

static void split_policy(void)
{
	struct sb_cpus all, one, out;
	char err[160], buf[256];

	sb_cpus_parse_list_n("0-1", 2, &all, err, sizeof(err));
	/* fio ... --cpus_allowed=0-1 --cpus_allowed_policy=split
	 * --numjobs=3: the clones ran on 0, 1, 0. */
	is_string(clones(&all, 0, 3, buf, sizeof(buf)), "0 1 0",
		  "split 0-1 over 3 clones wraps round robin, as fio");
	/* ... --cpus_allowed=0-1 --cpus_allowed_policy=split: 0. */
	is_string(clones(&all, 0, 1, buf, sizeof(buf)), "0",
		  "split 0-1 over 1 clone: the first CPU, as fio");
	/* --name=y --name=x --cpus_allowed=0-1 --cpus_allowed_policy=split
	 * --numjobs=3: y on 0-1, x's clones on 1, 0, 1 -- fio's index is
	 * thread_number - 1, counting y. */
	is_string(clones(&all, 1, 3, buf, sizeof(buf)), "1 0 1",
		  "split indexes by thread number across jobs, as fio");
	/* --cpumask=3 --cpus_allowed_policy=split --numjobs=3: 0, 1, 0. */
	sb_cpus_parse_mask_n("3", 2, &all, err, sizeof(err));
	is_string(clones(&all, 0, 3, buf, sizeof(buf)), "0 1 0",
		  "split works on cpumask the same way");
	/* --cpus_allowed=1 --cpus_allowed_policy=split --numjobs=3: 1, 1, 1 */
	sb_cpus_parse_list_n("1", 2, &all, err, sizeof(err));
	is_string(clones(&all, 0, 3, buf, sizeof(buf)), "1 1 1",
		  "split of one CPU: every clone on it, as fio");
	/* Beyond this machine: fio_cpus_split() picks the (idx % n)th set
	 * CPU in ascending order. */
	sb_cpus_parse_list_n("7,2,5", 8, &all, err, sizeof(err));
	is_string(clones(&all, 0, 7, buf, sizeof(buf)), "2 5 7 2 5 7 2",
		  "split 2,5,7 over 7 clones: ascending, wrapping");

	/* shared: every clone gets the whole set
	 * (--cpus_allowed=0-1 --numjobs=2: both on 0-1). */
	sb_cpus_parse_list_n("0-1", 2, &all, err, sizeof(err));
	sb_cpus_for_clone(&all, 0, 1, &one);
	is_string(fmt(&one, buf, sizeof(buf)), "0,1",
		  "shared: a clone gets the whole set");

	/* In place, and from an empty set. */
	out = all;
	sb_cpus_for_clone(&out, 1, 3, &out);
	is_string(fmt(&out, buf, sizeof(buf)), "1", "split in place");
	all.n = 0;
	sb_cpus_for_clone(&all, 1, 0, &one);
	is_int(one.n, 0, "split of an empty set is empty");
}

struct bind_result {
	unsigned cpu;
	int rc, on, count, isset;
};

static void *bind_thread(void *arg)
{
	struct bind_result *r = arg;
	struct sb_cpus set = {.n = 1};
	cpu_set_t cs;

	set.cpu[0] = (unsigned short)r->cpu;
	r->rc = sb_cpus_bind_self(&set);
	/* The kernel moves the calling thread before the call returns. */
	r->on = sched_getcpu();
	CPU_ZERO(&cs);
	if (pthread_getaffinity_np(pthread_self(), sizeof(cs), &cs) == 0) {
		r->count = CPU_COUNT(&cs);
		r->isset = CPU_ISSET(r->cpu, &cs);
	}
	return NULL;
}

static int bind_in_thread(struct bind_result *r)
{
	pthread_t t;

	if (pthread_create(&t, NULL, bind_thread, r))
		return -1;
	return pthread_join(t, NULL);
}

static void binding(void)
{
	struct bind_result r = {.cpu = 0, .count = -1};
	struct sb_cpus set = {.n = 0};
	cpu_set_t mine;

	if (bind_in_thread(&r))
		bail("pthread_create failed");
	is_int(r.rc, 0, "bind to CPU 0 in a new thread");
	is_int(r.on, 0, "  sched_getcpu() is 0");
	ok(r.count == 1 && r.isset,
	   "  pthread_getaffinity_np shows only CPU 0 (%d CPUs)", r.count);

	CPU_ZERO(&mine);
	sched_getaffinity(0, sizeof(mine), &mine);
	if (CPU_ISSET(1, &mine)) {
		r = (struct bind_result){.cpu = 1, .count = -1};
		if (bind_in_thread(&r))
			bail("pthread_create failed");
		ok(r.rc == 0 && r.on == 1 && r.count == 1 && r.isset,
		   "bind to CPU 1: running there, only there");
	} else {
		skip(1, "CPU 1 is not in this process's affinity");
	}

	is_int(sb_cpus_bind_self(&set), -EINVAL, "binding to no CPU: -EINVAL");
	/* A CPU the machine does not have: the kernel's EINVAL comes back. */
	set.n = 1;
	set.cpu[0] = SB_CPUS_MAX - 1;
	if (!CPU_ISSET(SB_CPUS_MAX - 1, &mine))
		is_int(sb_cpus_bind_self(&set), -EINVAL,
		       "binding to absent CPU %d: -EINVAL", SB_CPUS_MAX - 1);
	else
		skip(1, "CPU %d exists here", SB_CPUS_MAX - 1);
}

int main(void)
{
	list_vectors();
	list_this_machine();
	mask_vectors();
	split_policy();
	binding();
	return done_testing();
}
