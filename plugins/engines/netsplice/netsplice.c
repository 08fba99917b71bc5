/*
 * netsplice: fio's netsplice engine, the net engine with TCP's data moved
 * through a pipe: vmsplice(2) of the block into the pipe and splice(2) to
 * the socket, splice(2) from the socket and vmsplice(2) into the block.
 * UDP and UNIX sockets go through send(2)/recv(2), as in fio.
 */
#define _GNU_SOURCE /* MSG_MORE, accept4, splice */
#include "../common/sb_net_engine.h"

static int netsplice_init(struct sb_env *env)
{
	return sb_net_init(env, 1);
}

static const struct sb_engine_ops netsplice_ops = SB_NET_OPS(netsplice);

SB_PLUGIN_DEFINE(netsplice, SB_KIND_ENGINE, &netsplice_ops, .license = "MIT",
		 .description = "I/O over TCP through vmsplice/splice and a "
				"pipe (fio's netsplice)",
		 .options = sb_net_options,
		 .options_size = sizeof(struct sb_net_opts));
