/*
 * CPU affinity as fio 3.33 sets it: cpus_allowed (a list), cpumask (a
 * number), cpus_allowed_policy (shared or split), and binding a thread.
 *
 * Like fio, a CPU at or past the machine's configured count
 * (sysconf(_SC_NPROCESSORS_CONF), fio's cpus_configured()) is a parse error,
 * and so is one past SB_CPUS_MAX (fio: CPU_SETSIZE, "your OS only supports up
 * to 1024 CPUs"). Unlike fio, which only finds out when the job starts
 * (sched_setaffinity EINVAL), a set that comes out empty is a parse error
 * too ("5-3", "cpumask=0").
 */
#ifndef SB_CPUS_H
#define SB_CPUS_H

#include <stddef.h>

#define SB_CPUS_MAX 1024

/* cpu[0..n) sorted, unique. */
struct sb_cpus {
	unsigned n;
	unsigned short cpu[SB_CPUS_MAX];
};

/*
 * cpus_allowed: entries separated by ',', each a CPU "6" or an inclusive
 * range "8-10", decimal; blanks around numbers and separators are ignored
 * (fio: "0 - 1" and " 0 , 1 " work). A trailing ',' is fine, as in fio.
 * 0, or -EINVAL with err ("cpus_allowed=0-2000: CPU 2 is beyond this
 * machine's 2 configured CPUs (0-1)", "cpus_allowed=5-3: bad range 5-3").
 *
 * Stricter than fio, which reads each number with atoi(): "a", "1a", "0x1",
 * "-1", "1-" and "1-2-3" (fio: CPU 0, 1, 0, 0, 1 and 1-3) are errors, and so
 * is an empty entry before another ("0,,1": fio silently drops the rest).
 */
int sb_cpus_parse_list(const char *s, struct sb_cpus *out, char *err,
		       size_t errlen);
/*
 * cpumask: a decimal number (a leading 0 is still decimal, as in fio:
 * cpumask=010 is ten) or 0x hex, up to 64 bits; bit i is CPU i. fio only
 * looks at 32 bits (and maps any bit 31-63 to CPU 31); on machines with at
 * most 32 CPUs the results agree, because higher bits are errors in both.
 */
int sb_cpus_parse_mask(const char *s, struct sb_cpus *out, char *err,
		       size_t errlen);
/* The same against ncpus configured CPUs instead of this machine's. */
int sb_cpus_parse_list_n(const char *s, unsigned ncpus, struct sb_cpus *out,
			 char *err, size_t errlen);
int sb_cpus_parse_mask_n(const char *s, unsigned ncpus, struct sb_cpus *out,
			 char *err, size_t errlen);

/*
 * The set thread idx runs on. shared (split == 0): all of it. split: the one
 * CPU all->cpu[idx % all->n] (fio's fio_cpus_split(): round robin over the
 * set when threads outnumber CPUs). Note that fio's idx is thread_number - 1,
 * which counts the threads of every job before this one in the run, not the
 * clone's index within its job: with job y (numjobs=1) then job x
 * (numjobs=3, cpus_allowed=0-1, split), x's clones get 1, 0, 1. An empty all
 * gives an empty out.
 */
void sb_cpus_for_clone(const struct sb_cpus *all, int split, unsigned idx,
		       struct sb_cpus *out);

/* Bind the calling thread to set: 0, or negative errno (-EINVAL for an
 * empty set or none of its CPUs usable). */
int sb_cpus_bind_self(const struct sb_cpus *set);

#endif
