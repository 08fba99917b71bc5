/*
 * Options of sb_core_options that storbench implements only in part: what a
 * job may write for fio but storbench still refuses. docs/fio-compat.md shows
 * each note next to its option, so keep a note in step with the refusals in
 * the parser.
 */
#include "catalogue.h"

#include <stddef.h>

const struct sb_partial_note sb_partial_notes[] = {
	{.name = NULL},
};
