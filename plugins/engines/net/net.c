/*
 * net: fio's net engine, I/O over TCP, UDP or UNIX-domain sockets with
 * send(2) and recv(2). The engine is ../common/sb_net_engine.h, which
 * netsplice shares.
 */
#define _GNU_SOURCE /* MSG_MORE, accept4, splice */
#include "../common/sb_net_engine.h"

static int net_init(struct sb_env *env)
{
	return sb_net_init(env, 0);
}

static const struct sb_engine_ops net_ops = SB_NET_OPS(net);

SB_PLUGIN_DEFINE(net, SB_KIND_ENGINE, &net_ops, .license = "MIT",
		 .description = "I/O over TCP, UDP or UNIX sockets "
				"(fio's net)",
		 .options = sb_net_options,
		 .options_size = sizeof(struct sb_net_opts));
