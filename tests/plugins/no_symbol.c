/* A valid shared object that exports something, just not the descriptor:
 * a library that is not a storbench plugin at all. */
#include <storbench/plugin.h>

SB_EXPORT int storbench_not_a_plugin(void);

int storbench_not_a_plugin(void)
{
	return 0;
}
