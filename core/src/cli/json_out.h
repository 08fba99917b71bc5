#ifndef SB_JSON_OUT_H
#define SB_JSON_OUT_H

#include <stdio.h>

/* Write s as a JSON string literal, quotes included. */
void sb_json_str(FILE *f, const char *s);

#endif
