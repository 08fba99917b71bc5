/*
 * Options of sb_core_options that storbench implements only in part: what a
 * job may write for fio but storbench still refuses. docs/fio-compat.md shows
 * each note next to its option, so keep a note in step with the refusals in
 * the parser.
 */
#include "catalogue.h"

#include <stddef.h>

const struct sb_partial_note sb_partial_notes[] = {
	{.name = "rw",
	 .note = "trim, randtrim, trimwrite and randtrimwrite are refused, and "
		 "so is the ':' modifier (randread:8, write:4k)"},
	{.name = "startdelay",
	 .note = "one delay; a range (startdelay=5-10) is refused"},
	{.name = "filename",
	 .note = "one file; a colon list of several is refused"},
	{.name = NULL},
};
