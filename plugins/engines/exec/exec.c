/*
 * exec: runs a program beside the other jobs, as fio's exec engine does
 * (a monitor such as turbostat while cpuio or a disk job runs). The job's
 * first I/O starts the program; each later one waits 100 ms (fio's 50 ms
 * usleep in queue and its 50 ms thinktime), counted with no bytes
 * (SB_ENGINE_NO_IO), until runtime= ends the job; then the program gets
 * SIGTERM, grace_time seconds to exit, and SIGKILL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <storbench/engine.h>

extern char **environ;

/* A size no job reaches: the job ends at runtime=. */
#define EXEC_SIZE (UINT64_C(1) << 62)
/* The wait of each I/O after the first: fio's usleep(thinktime) in queue
 * plus the thinktime it sets, 50 ms each. */
#define EXEC_POLL_NS 100000000ULL

struct exec_opts {
	char *program;
	char *arguments;
	int64_t grace_time;
	int32_t std_redirect;
};

struct exec_state {
	pid_t pid; /* 0: not started; -1: it could not be */
};

static const struct sb_option exec_options[] = {
	{.name = "program",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct exec_opts, program),
	 .help = "Program to execute"},
	{.name = "arguments",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct exec_opts, arguments),
	 .help = "Arguments to pass (%r: the runtime in seconds, %n: the job's "
		 "name)"},
	{.name = "grace_time",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct exec_opts, grace_time),
	 .def = "1",
	 .min = 0,
	 .max = 86400,
	 .help = "Grace time before sending a SIGKILL"},
	{.name = "std_redirect",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct exec_opts, std_redirect),
	 .def = "1",
	 .help = "Redirect stdout & stderr to files"},
	SB_OPTION_END,
};

static int exec_check(struct sb_env *env, const char **option)
{
	const struct exec_opts *o = env->opts;

	if (!o->program || !*o->program) {
		*option = "program";
		return env->host->error(env->handle, -EINVAL,
					"no program is defined, it is "
					"mandatory to define one");
	}
	return 0;
}

static int exec_init(struct sb_env *env)
{
	const struct exec_opts *o = env->opts;

	env->host->log(env->handle, SB_LOG_INFO,
		       "%s : program=%s, arguments=%s", env->job->name,
		       o->program, o->arguments ? o->arguments : "(null)");
	return 0;
}

static int exec_open(struct sb_env *env, struct sb_file *f)
{
	(void)env;
	f->real_size = EXEC_SIZE;
	return 0;
}

/* Append s[0..n) to the line at *at, within cap; 0 or -ENAMETOOLONG. */
static int exec_put(char *line, size_t cap, size_t *at, const char *s, size_t n)
{
	if (*at + n >= cap)
		return -ENAMETOOLONG;
	memcpy(line + *at, s, n);
	*at += n;
	line[*at] = '\0';
	return 0;
}

/*
 * "program arguments" with fio's variables expanded: %r the runtime in
 * seconds (the time left to the deadline as the first I/O starts; 0
 * without runtime=, as fio's), %n the job's name.
 */
static int exec_line(const struct sb_env *env, char *line, size_t cap)
{
	const struct exec_opts *o = env->opts;
	uint64_t dl = env->host->deadline_ns(env->handle);
	uint64_t now = env->host->now_ns();
	char secs[24];
	size_t at = 0;
	int rc;

	snprintf(secs, sizeof(secs), "%llu",
		 dl == UINT64_MAX || dl <= now
			 ? 0ULL
			 : (unsigned long long)((dl - now + 500000000ULL) /
						1000000000ULL));
	line[0] = '\0';
	if ((rc = exec_put(line, cap, &at, o->program, strlen(o->program))))
		return rc;
	if (!o->arguments)
		return 0;
	if ((rc = exec_put(line, cap, &at, " ", 1)))
		return rc;
	for (const char *p = o->arguments; *p; p++) {
		if (p[0] == '%' && p[1] == 'r')
			rc = exec_put(line, cap, &at, secs, strlen(secs)), p++;
		else if (p[0] == '%' && p[1] == 'n')
			rc = exec_put(line, cap, &at, env->job->name,
				      strlen(env->job->name)),
			p++;
		else
			rc = exec_put(line, cap, &at, p, 1);
		if (rc)
			return rc;
	}
	return 0;
}

/* Split line in place at spaces, as fio does (no quoting); argv holds at
 * most max - 1 words and the NULL. */
static int exec_split(char *line, char **argv, size_t max)
{
	size_t n = 0;

	for (char *p = line; *p;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		if (n + 1 >= max)
			return -E2BIG;
		argv[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	argv[n] = NULL;
	return n ? 0 : -EINVAL;
}

static int exec_start(struct sb_env *env)
{
	const struct exec_opts *o = env->opts;
	struct exec_state *s = env->state;
	const struct sb_host *h = env->host;
	size_t cap = strlen(o->program) + 2 +
		     (o->arguments ? 4 * strlen(o->arguments) + 256 : 0) +
		     4 * strlen(env->job->name);
	char *line = h->alloc(env->handle, cap);
	char **argv = h->alloc(env->handle, (cap / 2 + 2) * sizeof(char *));
	char out[4096], err[4096], *shown;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	if (!line || !argv)
		return h->error(env->handle, -ENOMEM,
				"no memory for the command line");
	if ((rc = exec_line(env, line, cap)))
		return h->error(env->handle, rc,
				"the command line of %s is "
				"too long",
				o->program);
	shown = line + strlen(o->program) + (o->arguments ? 1 : 0);
	snprintf(out, sizeof(out), "%s.stdout", env->job->name);
	snprintf(err, sizeof(err), "%s.stderr", env->job->name);
	if (o->std_redirect)
		h->log(env->handle, SB_LOG_INFO,
		       "%s : Saving output of %s %s : stdout=%s stderr=%s",
		       env->job->name, o->program, shown, out, err);
	else
		h->log(env->handle, SB_LOG_INFO, "%s : Running %s %s",
		       env->job->name, o->program, shown);
	/* The output files, as finally resolved, are never a block device:
	 * the program's output would land on somebody's data. */
	if (o->std_redirect) {
		struct stat st;

		if ((!stat(out, &st) && S_ISBLK(st.st_mode)) ||
		    (!stat(err, &st) && S_ISBLK(st.st_mode)))
			return h->error(env->handle, -EINVAL,
					"refusing to write %s or %s: a block "
					"device",
					out, err);
	}
	if ((rc = exec_split(line, argv, cap / 2 + 2)))
		return h->error(env->handle, rc, "no program to run in \"%s\"",
				o->program);
	if ((rc = posix_spawn_file_actions_init(&fa)))
		return h->error(env->handle, -rc, "posix_spawn: %s",
				strerror(rc));
	if (o->std_redirect &&
	    ((rc = posix_spawn_file_actions_addopen(
		      &fa, 1, out, O_CREAT | O_WRONLY | O_TRUNC, 0644)) ||
	     (rc = posix_spawn_file_actions_addopen(
		      &fa, 2, err, O_CREAT | O_WRONLY | O_TRUNC, 0644)))) {
		posix_spawn_file_actions_destroy(&fa);
		return h->error(env->handle, -rc, "posix_spawn: %s",
				strerror(rc));
	}
	/* posix_spawn, not fork: the process has threads, and the child
	 * runs nothing of ours before exec. */
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		s->pid = -1;
		return h->error(env->handle, -rc, "cannot run %s: %s", argv[0],
				strerror(rc));
	}
	s->pid = pid;
	return 0;
}

/* Sleep ns on the wake fd: a stop or the deadline ends it at once. */
static void exec_sleep(const struct sb_env *env, uint64_t ns)
{
	uint64_t dl = env->host->deadline_ns(env->handle);
	uint64_t now = env->host->now_ns();
	struct pollfd p = {.fd = env->wake_fd, .events = POLLIN};

	if (dl != UINT64_MAX && (dl <= now || dl - now < ns))
		ns = dl > now ? dl - now : 0;
	if (!env->host->stopping(env->handle))
		(void)poll(&p, 1, (int)((ns + 999999) / 1000000));
}

static int exec_queue(struct sb_env *env, struct sb_io *io)
{
	struct exec_state *s = env->state;
	int rc;

	if (!s->pid && (rc = exec_start(env)))
		return rc;
	else if (s->pid > 0)
		exec_sleep(env, EXEC_POLL_NS);
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}

/* Whether pid ended within ns, reaped if so. */
static int exec_reaped(pid_t pid, uint64_t ns)
{
	struct timespec ts = {.tv_nsec = 10000000};

	for (uint64_t waited = 0;; waited += 10000000ULL) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD))
			return 1;
		if (waited >= ns)
			return 0;
		nanosleep(&ts, NULL);
	}
}

/* The end of the job: SIGTERM, grace_time seconds, then SIGKILL, as fio
 * does; here the program is also reaped. */
static void exec_cleanup(struct sb_env *env)
{
	const struct exec_opts *o = env->opts;
	struct exec_state *s = env->state;

	if (s->pid <= 0)
		return;
	if (!exec_reaped(s->pid, 0)) {
		kill(s->pid, SIGTERM);
		if (!exec_reaped(s->pid,
				 (uint64_t)o->grace_time * 1000000000ULL)) {
			kill(s->pid, SIGKILL);
			(void)waitpid(s->pid, NULL, 0);
		}
	}
	s->pid = 0;
}

static const struct sb_engine_ops exec_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_REMOTE | SB_ENGINE_NO_DATA |
		 SB_ENGINE_NO_IO,
	.state_size = sizeof(struct exec_state),
	.init = exec_init,
	.cleanup = exec_cleanup,
	.open_file = exec_open,
	.queue = exec_queue,
	.check = exec_check,
};

SB_PLUGIN_DEFINE(exec, SB_KIND_ENGINE, &exec_ops, .license = "MIT",
		 .description = "run a program for the job's runtime, no I/O",
		 .options = exec_options,
		 .options_size = sizeof(struct exec_opts));
