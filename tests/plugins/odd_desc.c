/* A correct engine whose description is not text: bytes that are no UTF-8
 * (a stray 0xFF, an overlong '/', a surrogate, a sequence cut short) and
 * control characters, as a plugin from anywhere may hold. Whatever lists
 * it must still print valid JSON. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(odd_desc, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .description = "ff\xff overlong\xc0\xaf surrogate\xed\xa0\x80"
			      " cut\xe2\x82 tab\t nl\n esc\x1b del\x7f"
			      " quote\" bs\\ caf\xc3\xa9 \xf0\x9f\x92\xbe");
