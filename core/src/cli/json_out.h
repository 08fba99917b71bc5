#ifndef SB_JSON_OUT_H
#define SB_JSON_OUT_H

#include <stdio.h>

/* Write s as a JSON string literal, quotes included, by storbench/json.h's
 * rule (invalid UTF-8 as U+FFFD), the one every reporter follows too. */
void sb_json_str(FILE *f, const char *s);

#endif
