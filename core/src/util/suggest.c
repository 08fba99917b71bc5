#include "suggest.h"

#include <string.h>

#define SB_SUGGEST_MAXLEN 64

size_t sb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[SB_SUGGEST_MAXLEN + 1][SB_SUGGEST_MAXLEN + 1];

	/* Option names are short; anything longer is no typo of one. */
	if (la > SB_SUGGEST_MAXLEN || lb > SB_SUGGEST_MAXLEN)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

void sb_suggest_init(struct sb_suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->best_dist = (size_t)-1;
}

void sb_suggest_offer(struct sb_suggest *s, const char *candidate)
{
	size_t len = strlen(s->word), limit = len / 3 < 2 ? 2 : len / 3;
	size_t dist;

	if (!candidate)
		return;
	dist = sb_edit_distance(s->word, candidate);
	if (dist <= limit && dist < s->best_dist) {
		s->best = candidate;
		s->best_dist = dist;
	}
}
