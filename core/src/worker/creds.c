#include "creds.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "worker.h"

int sb_creds_switch(const struct sb_runjob *rj)
{
	return rj->cfg.uid_set || rj->cfg.gid_set;
}

int sb_creds_in_layout(const struct sb_runjob *rj)
{
	return sb_creds_switch(rj) && !rj->opts.create_serialize;
}

int sb_creds_apply(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	long gid = (long)rj->opts.gid, uid = (long)rj->opts.uid;

	if (!sb_creds_switch(rj))
		return 0;
	if (syscall(SYS_gettid) == getpid())
		return sb_wfail(w, -EDEADLK,
				"uid/gid: the clone runs on the main thread, "
				"whose ids are the whole run's");
	/* A new gid needs the privilege the new uid gives up. */
	if (rj->cfg.gid_set && syscall(SYS_setresgid, gid, gid, gid) != 0)
		return sb_wfail(w, -errno, "setgid(%ld): %s", gid,
				strerror(errno));
	if (rj->cfg.uid_set && syscall(SYS_setresuid, uid, uid, uid) != 0)
		return sb_wfail(w, -errno, "setuid(%ld): %s", uid,
				strerror(errno));
	return 0;
}
