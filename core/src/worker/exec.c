/*
 * exec_prerun and exec_postrun: a shell command a clone runs before and
 * after its I/O. fio's exec_string() runs system("CMD > JOB.MODE.txt
 * 2>&1"), so the redirection binds to CMD's last simple command (in
 * "a; b" only b's output reaches the file, a's goes to fio's standard
 * output), and a CMD ending in a comment redirects nothing. The same string
 * is run here, with the file's name passed as $1 rather than spliced into
 * it, so no job name needs quoting; the output guard checked that name
 * before the run (guard_outputs.c). posix_spawn rather than system():
 * system() changes the signal dispositions of the whole process while it
 * waits, and the clones are threads of one process. The child gets the
 * default signal mask and dispositions: the workers block the stop signals
 * (cli/signals.h), which a command must not inherit.
 */
#include "worker.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void sb_exec_path(const struct sb_runjob *rj, const char *mode, char *buf,
		  size_t len)
{
	snprintf(buf, len, "%s.%s.txt", rj->def->name, mode);
}

int sb_worker_exec(struct sb_worker *w, const char *cmd, const char *mode)
{
	static const char redirect[] = " > \"$1\" 2>&1";
	const char *name = w->rj->def->name;
	const char *then = strcmp(mode, "prerun") == 0
				   ? "; the clone does no I/O, as in fio"
				   : "";
	size_t n = strlen(cmd);
	char path[PATH_MAX], *script = malloc(n + sizeof(redirect));
	char *argv[] = {"sh", "-c", script, "sh", path, NULL};
	posix_spawnattr_t at;
	sigset_t none, all;
	int rc, status = 0;
	pid_t pid;

	if (!script)
		return sb_wfail(w, -ENOMEM, "exec_%s: out of memory", mode);
	memcpy(script, cmd, n);
	memcpy(script + n, redirect, sizeof(redirect));
	sb_exec_path(w->rj, mode, path, sizeof(path));
	sb_log(w->rj->ctx, SB_LOG_INFO, NULL, "%s : Saving output of %s in %s",
	       name, mode, path);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, "/bin/sh", NULL, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	free(script);
	if (rc)
		return sb_wfail(w, -rc, "exec_%s: cannot run /bin/sh: %s", mode,
				strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return sb_wfail(w, -errno, "exec_%s: waitpid: %s", mode,
					strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: exec_%s exited with status %d%s", name, mode,
		       WEXITSTATUS(status), then);
	else
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: exec_%s was killed by signal %d%s", name, mode,
		       WTERMSIG(status), then);
	return 1;
}
