#include "cpus.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../util/msg.h"
#include "../util/str.h"

/* Beyond 9 digits a CPU number cannot fit any limit and might not fit the
 * accumulator either. */
#define CPU_DIGITS_MAX 9

struct cpubits {
	uint64_t w[SB_CPUS_MAX / 64];
};

static unsigned configured_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	/* sysconf cannot really fail on Linux; if it does, CPU 0 is the only
	 * one we can be sure of. */
	if (n < 1)
		return 1;
	return n > SB_CPUS_MAX ? SB_CPUS_MAX : (unsigned)n;
}

static void bits_to_set(const struct cpubits *bits, struct sb_cpus *out)
{
	out->n = 0;
	for (unsigned c = 0; c < SB_CPUS_MAX; c++)
		if (bits->w[c / 64] & (UINT64_C(1) << (c % 64)))
			out->cpu[out->n++] = (unsigned short)c;
}

/* The error for the first CPU that is not usable, worded after which limit
 * it breaks (fio checks its own maximum first, then the machine's). */
static int beyond(const char *opt, const char *s, unsigned long cpu,
		  unsigned ncpus, char *err, size_t errlen)
{
	if (cpu >= SB_CPUS_MAX)
		sb_msg_format(err, errlen,
			      "%s=%s: CPU %lu is beyond the %d CPUs storbench "
			      "supports",
			      opt, s, cpu, SB_CPUS_MAX);
	else
		snprintf(
			err, errlen,
			"%s=%s: CPU %lu is beyond this machine's %u configured "
			"CPUs (0-%u)",
			opt, s, cpu, ncpus, ncpus - 1);
	return -EINVAL;
}

/*
 * A plain decimal number making up all of [b, e); 0 when it is not one. A
 * number too long to be any CPU comes out as ULONG_MAX, which every limit
 * check refuses.
 */
static int cpu_number(const char *b, const char *e, unsigned long *v)
{
	const char *p;

	*v = 0;
	if (b == e)
		return 0;
	for (p = b; p < e; p++)
		if (*p < '0' || *p > '9')
			return 0;
	/* Leading zeros do not count towards the length ("007"). */
	for (p = b; p < e && *p == '0'; p++)
		;
	if (e - p > CPU_DIGITS_MAX) {
		*v = ULONG_MAX;
		return 1;
	}
	for (; p < e; p++)
		*v = *v * 10 + (unsigned long)(*p - '0');
	return 1;
}

/* One entry [b, e), already trimmed and not empty: "N" or "N-M". */
static int parse_entry(const char *s, const char *b, const char *e,
		       unsigned ncpus, struct cpubits *bits, char *err,
		       size_t errlen)
{
	const char *dash = memchr(b, '-', (size_t)(e - b));
	const char *lb = b, *le = dash ? dash : e;
	int len = (int)(e - b);
	unsigned long lo, hi, limit;

	sb_trim_blanks(&lb, &le);
	if (!dash) {
		if (!cpu_number(lb, le, &lo)) {
			sb_msg_format(
				err, errlen,
				"cpus_allowed=%s: %.*s is not a CPU number", s,
				len, b);
			return -EINVAL;
		}
		hi = lo;
	} else {
		const char *rb = dash + 1, *re = e;

		sb_trim_blanks(&rb, &re);
		if (!cpu_number(lb, le, &lo) || !cpu_number(rb, re, &hi) ||
		    lo > hi) {
			sb_msg_format(err, errlen,
				      "cpus_allowed=%s: bad range %.*s", s, len,
				      b);
			return -EINVAL;
		}
	}
	/* Name the first CPU out of bounds, as fio does walking the range. */
	limit = ncpus < SB_CPUS_MAX ? ncpus : SB_CPUS_MAX;
	if (lo == ULONG_MAX) {
		sb_msg_format(err, errlen,
			      "cpus_allowed=%s: CPU %.*s is beyond the %d CPUs "
			      "storbench supports",
			      s, (int)(le - lb), lb, SB_CPUS_MAX);
		return -EINVAL;
	}
	if (hi >= limit)
		return beyond("cpus_allowed", s, lo > limit ? lo : limit, ncpus,
			      err, errlen);
	for (unsigned long c = lo; c <= hi; c++)
		bits->w[c / 64] |= UINT64_C(1) << (c % 64);
	return 0;
}

static int only_blanks_and_commas(const char *b, const char *e)
{
	for (; b < e; b++)
		if (!sb_is_blank(*b) && *b != ',')
			return 0;
	return 1;
}

int sb_cpus_parse_list_n(const char *s, unsigned ncpus, struct sb_cpus *out,
			 char *err, size_t errlen)
{
	struct cpubits bits = {{0}};
	const char *p = s, *end = s + strlen(s);

	/* Every machine has CPU 0; this keeps "0-%u" in messages sane. */
	if (!ncpus)
		ncpus = 1;
	out->n = 0;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *b = p, *e = comma ? comma : end;
		int rc;

		sb_trim_blanks(&b, &e);
		if (b == e) {
			/* fio ends the list at an empty entry and ignores the
			 * rest ("0,,1" is CPU 0 only); refuse instead, unless
			 * nothing follows (a trailing comma). */
			if (comma && !only_blanks_and_commas(comma + 1, end)) {
				sb_msg_format(err, errlen,
					      "cpus_allowed=%s: empty entry",
					      s);
				return -EINVAL;
			}
			break;
		}
		rc = parse_entry(s, b, e, ncpus, &bits, err, errlen);
		if (rc)
			return rc;
		if (!comma)
			break;
		p = comma + 1;
	}
	bits_to_set(&bits, out);
	if (!out->n) {
		sb_msg_format(err, errlen, "cpus_allowed=%s: no CPUs given", s);
		return -EINVAL;
	}
	return 0;
}

int sb_cpus_parse_list(const char *s, struct sb_cpus *out, char *err,
		       size_t errlen)
{
	return sb_cpus_parse_list_n(s, configured_cpus(), out, err, errlen);
}

/* The value of digit c in base 16 or 10, -1 if it is not one. */
static int digit(char c, int hex)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (hex && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (hex && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int sb_cpus_parse_mask_n(const char *s, unsigned ncpus, struct sb_cpus *out,
			 char *err, size_t errlen)
{
	const char *b = s, *e = s + strlen(s), *p;
	struct cpubits bits = {{0}};
	uint64_t v = 0, base;
	int hex;

	if (!ncpus)
		ncpus = 1;
	out->n = 0;
	sb_trim_blanks(&b, &e);
	hex = e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X');
	p = hex ? b + 2 : b;
	base = hex ? 16 : 10;
	if (p == e)
		goto not_a_number;
	for (; p < e; p++) {
		int d = digit(*p, hex);

		if (d < 0)
			goto not_a_number;
		if (v > (UINT64_MAX - (uint64_t)d) / base) {
			sb_msg_format(err, errlen,
				      "cpumask=%s: more than 64 bits; use "
				      "cpus_allowed",
				      s);
			return -EINVAL;
		}
		v = v * base + (uint64_t)d;
	}
	if (!v) {
		sb_msg_format(err, errlen, "cpumask=%s: no CPUs in the mask",
			      s);
		return -EINVAL;
	}
	/* Lowest offending bit first, as fio reports it. */
	for (unsigned c = 0; c < 64; c++) {
		if (!(v & (UINT64_C(1) << c)))
			continue;
		if (c >= ncpus)
			return beyond("cpumask", s, c, ncpus, err, errlen);
		bits.w[0] |= UINT64_C(1) << c;
	}
	bits_to_set(&bits, out);
	return 0;

not_a_number:
	sb_msg_format(err, errlen,
		      "cpumask=%s: not a number (decimal or 0x hex)", s);
	return -EINVAL;
}

int sb_cpus_parse_mask(const char *s, struct sb_cpus *out, char *err,
		       size_t errlen)
{
	return sb_cpus_parse_mask_n(s, configured_cpus(), out, err, errlen);
}

void sb_cpus_for_clone(const struct sb_cpus *all, int split, unsigned idx,
		       struct sb_cpus *out)
{
	if (!split || !all->n) {
		if (out != all) {
			out->n = all->n;
			memcpy(out->cpu, all->cpu,
			       all->n * sizeof(all->cpu[0]));
		}
		return;
	}
	/* Read before writing: out may be all. */
	out->cpu[0] = all->cpu[idx % all->n];
	out->n = 1;
}

int sb_cpus_bind_self(const struct sb_cpus *set)
{
	cpu_set_t cs;

	if (!set->n)
		return -EINVAL;
	CPU_ZERO(&cs);
	for (unsigned i = 0; i < set->n; i++) {
		if (set->cpu[i] >= CPU_SETSIZE)
			return -EINVAL;
		CPU_SET(set->cpu[i], &cs);
	}
	/* Returns the error number rather than setting errno. */
	return -pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
}
