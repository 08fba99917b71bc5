/* The library needs_dep.so links; built where the dynamic loader does not
 * look, so loading needs_dep.so fails for want of it. */
#include <storbench/plugin.h>

SB_EXPORT int sb_test_dep_value(void);

int sb_test_dep_value(void)
{
	return 0;
}
