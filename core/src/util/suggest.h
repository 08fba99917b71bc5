/* "Did you mean ...?": the nearest of a set of names to a misspelt one. */
#ifndef SB_SUGGEST_H
#define SB_SUGGEST_H

#include <stddef.h>

struct sb_suggest {
	const char *word;
	const char *best; /* NULL until a close enough name is offered */
	size_t best_dist;
};

void sb_suggest_init(struct sb_suggest *s, const char *word);
/* Offer a candidate; keeps it if it is the closest so far and close enough
 * to be a plausible typo (a third of the word's length, at least 2). */
void sb_suggest_offer(struct sb_suggest *s, const char *candidate);

/* Edit distance (insert, delete, substitute, swap of neighbours). */
size_t sb_edit_distance(const char *a, const char *b);

#endif
