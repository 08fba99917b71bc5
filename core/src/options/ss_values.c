/* steadystate=CRITERION:LIMIT, as fio's str_steadystate_cb reads it. */
#include "fio_values.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/stats.h>

int sb_val_steadystate(const char *s, int kb_base, struct sb_ss_spec *out,
		       char *err, size_t errlen)
{
	static const struct {
		const char *name;
		uint32_t state;
	} kinds[] = {
		{"iops", SB_SS_IOPS},
		{"iops_slope", SB_SS_IOPS | SB_SS_SLOPE},
		{"bw", SB_SS_BW},
		{"bw_slope", SB_SS_BW | SB_SS_SLOPE},
	};
	const char *colon = s ? strchr(s, ':') : NULL;
	size_t n = colon ? (size_t)(colon - s) : (s ? strlen(s) : 0);
	char num[64], *end;
	size_t k;

	*out = (struct sb_ss_spec){0};
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strlen(kinds[k].name) == n && !strncmp(s, kinds[k].name, n))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(err, errlen,
			 "'%.*s' is not a criterion (iops, iops_slope, bw, "
			 "bw_slope)",
			 (int)n, s ? s : "");
		return -EINVAL;
	}
	if (!colon || !colon[1]) {
		snprintf(err, errlen,
			 "a limit must follow the criterion, as in "
			 "%s:0.01%%",
			 kinds[k].name);
		return -EINVAL;
	}
	out->state = kinds[k].state;
	if (strlen(colon + 1) >= sizeof(num)) {
		snprintf(err, errlen, "limit '%s' is too long", colon + 1);
		return -EINVAL;
	}
	snprintf(num, sizeof(num), "%s", colon + 1);
	if (strchr(num, '%') || (out->state & SB_SS_IOPS)) {
		char *pct = strchr(num, '%');

		if (pct) {
			*pct = '\0';
			out->state |= SB_SS_PCT;
		}
		errno = 0;
		out->limit = strtod(num, &end);
		while (end && (*end == ' ' || *end == '\t'))
			end++;
		if (errno || end == num || *end || (pct && pct[1])) {
			snprintf(err, errlen, "limit '%s' is not a number%s",
				 colon + 1, pct ? " and '%'" : "");
			return -EINVAL;
		}
		return 0;
	}
	/* A bandwidth: bytes/s, with fio's size suffixes. */
	{
		uint64_t v;
		int rc = sb_val_size(num, kb_base, &v, err, errlen);

		out->limit = (double)v;
		return rc;
	}
}
