/*
 * storbench/version.h - versions of the storbench host and of its plugin ABI.
 *
 * Two numbers move independently:
 *  - SB_VERSION_* is the release of the storbench program itself;
 *  - SB_ABI_* is the plugin ABI. A plugin records the ABI it was built
 *    against in its descriptor. The host loads it when the major numbers are
 *    equal and the plugin's minor is not newer than the host's. Minor bumps
 *    only ever append (fields at the end of a structure that begins with its
 *    size, hooks, figures, constants); a major bump is the only way anything
 *    is removed, reordered or retyped. docs/abi.md has the whole rule.
 *
 * No pointers, no threads: this header is constants only.
 */
#ifndef STORBENCH_VERSION_H
#define STORBENCH_VERSION_H

#define SB_VERSION_MAJOR  0
#define SB_VERSION_MINOR  1
#define SB_VERSION_PATCH  0
#define SB_VERSION_STRING "0.1.0"

#define SB_ABI_MAJOR 2
/* SB_ABI_MINOR_OVERRIDE: only for the ABI tests, which build a host of a
 * later minor from this tree to load plugins built for this one. */
#ifdef SB_ABI_MINOR_OVERRIDE
#define SB_ABI_MINOR SB_ABI_MINOR_OVERRIDE
#else
#define SB_ABI_MINOR 6
#endif

#endif
