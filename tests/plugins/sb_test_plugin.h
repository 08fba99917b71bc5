/*
 * sb_test_plugin.h - what the purpose-built test plugins share.
 *
 * Every plugin here is a correct plugin except for the one thing it breaks,
 * so when the loader refuses it, the refusal can only be for that thing.
 * SB_TEST_PLUGIN() defines the exported descriptor of a correct plugin; its
 * arguments are designated initializers placed after the defaults, so they
 * add fields (.kind, .name, .ops) or replace a default (.version = NULL
 * makes a plugin without a version).
 */
#ifndef SB_TEST_PLUGIN_H
#define SB_TEST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/reporter.h>

/* Replacing a default is how SB_TEST_PLUGIN() breaks a field on purpose. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define SB_TEST_PLUGIN(...)                                                    \
	SB_PLUGIN_DESCRIPTOR = {                                               \
		.abi_major = SB_ABI_MAJOR,                                     \
		.abi_minor = SB_ABI_MINOR,                                     \
		.size = sizeof(struct sb_plugin_descriptor),                   \
		.version = "1.0.0",                                            \
		.license = "MIT",                                              \
		.description = "purpose-built plugin for storbench's tests",   \
		__VA_ARGS__}

/* Bytes of a table that ends with field f: what an ops table built against
 * an older ABI minor, before later hooks were appended, declares. */
#define SB_TEST_SIZE_TO(type, f) (offsetof(type, f) + sizeof(((type *)0)->f))

static inline int sb_test_queue_now(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}

/* Ops of a correct synchronous engine that needs no files and no data and
 * does its I/O with queue_fn. */
#define SB_TEST_ENGINE_OPS(queue_fn)                                           \
	{                                                                      \
		.size = sizeof(struct sb_engine_ops),                          \
		.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,               \
		.queue = queue_fn,                                             \
	}

static const struct sb_engine_ops sb_test_engine_ops =
	SB_TEST_ENGINE_OPS(sb_test_queue_now);

/*
 * Sits in a hook the host must never call (one its ops size does not
 * cover). Aborting turns a silent read past the table into a failed test
 * that names the hook, in any build, not only under a sanitizer.
 */
_Noreturn static inline void sb_test_trap(const char *hook)
{
	fprintf(stderr,
		"storbench test plugin: the host called '%s', which lies "
		"beyond the ops table's size\n",
		hook);
	abort();
}

#endif
