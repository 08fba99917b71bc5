/*
 * sb_net_conn.h - the connections of the net engines (sb_net_engine.h,
 * which includes this after its options and state): socket options,
 * addresses, the sockets a listening job binds in setup, accept and
 * connect, fio's link messages, and the wait on a socket beside the wake
 * fd. Header-only, every function static inline.
 */
#ifndef SB_NET_CONN_H
#define SB_NET_CONN_H

#ifndef SB_NET_ENGINE_H
#error "include sb_net_engine.h, which includes this"
#endif

/* Whether this job binds rather than connects: listen, or a UDP or UNIX
 * reader (fio sets listen for a job of those that reads). */
static inline int sb_net_binds(const struct sb_env *env)
{
	const struct sb_net_opts *o = env->opts;

	if (!sb_net_is_tcp(o))
		return (env->job->rw & SB_JOB_READS) != 0;
	return o->listen;
}

static inline int sb_net_nodelay(struct sb_env *env, int fd)
{
	const struct sb_net_opts *o = env->opts;
	int one = 1;

	if (o->nodelay && sb_net_is_tcp(o) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return env->host->error(env->handle, -errno,
					"cannot set TCP_NODELAY option on "
					"socket (%s), disable with "
					"'nodelay=0'",
					strerror(errno));
	return 0;
}

/* What fio sets on a socket before it binds or connects. */
static inline int sb_net_sockopts(struct sb_env *env, int fd, int listening)
{
	const struct sb_net_opts *o = env->opts;
	const struct sb_host *h = env->host;
	int rc = sb_net_nodelay(env, fd);

	if (rc)
		return rc;
	if (o->window_size) {
		int w = (int)o->window_size;
		int rcv = listening || o->pingpong;
		int snd = !listening || o->pingpong;

		if (rcv &&
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)) < 0)
			return h->error(env->handle, -errno,
					"rcvbuf window size %d: %s", w,
					strerror(errno));
		if (snd &&
		    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)) < 0)
			return h->error(env->handle, -errno,
					"sndbuf window size %d: %s", w,
					strerror(errno));
	}
	if (o->mss && sb_net_is_tcp(o)) {
		int m = (int)o->mss;

		if (setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &m, sizeof(m)) < 0)
			return h->error(env->handle, -errno,
					"setsockopt TCP_MAXSEG %d: %s", m,
					strerror(errno));
	}
	return 0;
}

static inline int sb_net_socket(const struct sb_net_opts *o)
{
	int dom = o->proto == SB_NET_UNIX ? AF_UNIX
		  : sb_net_is_v6(o)	  ? AF_INET6
					  : AF_INET;
	int type = sb_net_is_udp(o) ? SOCK_DGRAM : SOCK_STREAM;

	return socket(dom, type | SOCK_CLOEXEC, 0);
}

/* The peer's (or the bound) address of clone 0 into j->addr. */
static inline int sb_net_resolve(struct sb_env *env, struct sb_net_job *j,
				 const char *host)
{
	const struct sb_net_opts *o = env->opts;
	uint16_t port = (uint16_t)o->port;
	struct addrinfo hints = {0}, *res = NULL;
	int rc;

	if (o->proto == SB_NET_UNIX) {
		j->addr.un.sun_family = AF_UNIX;
		if (strlen(host) >= sizeof(j->addr.un.sun_path))
			return env->host->error(env->handle, -ENAMETOOLONG,
						"UNIX socket path %s is too "
						"long",
						host);
		snprintf(j->addr.un.sun_path, sizeof(j->addr.un.sun_path), "%s",
			 host);
		j->addrlen =
			(socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				    strlen(host) + 1);
		return 0;
	}
	if (sb_net_is_v6(o)) {
		j->addr.in6.sin6_family = AF_INET6;
		j->addr.in6.sin6_port = htons(port);
		j->addrlen = sizeof(j->addr.in6);
		if (!host) {
			j->addr.in6.sin6_addr = in6addr_any;
			return 0;
		}
		if (inet_pton(AF_INET6, host, &j->addr.in6.sin6_addr) == 1)
			return 0;
	} else {
		j->addr.in.sin_family = AF_INET;
		j->addr.in.sin_port = htons(port);
		j->addrlen = sizeof(j->addr.in);
		if (!host) {
			j->addr.in.sin_addr.s_addr = htonl(INADDR_ANY);
			return 0;
		}
		if (inet_pton(AF_INET, host, &j->addr.in.sin_addr) == 1)
			return 0;
	}
	hints.ai_family = sb_net_is_v6(o) ? AF_INET6 : AF_INET;
	hints.ai_socktype = sb_net_is_udp(o) ? SOCK_DGRAM : SOCK_STREAM;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc)
		return env->host->error(
			env->handle, rc == EAI_SYSTEM ? -errno : -EINVAL,
			"getaddrinfo %s: %s", host, gai_strerror(rc));
	if (sb_net_is_v6(o))
		j->addr.in6.sin6_addr =
			((struct sockaddr_in6 *)res->ai_addr)->sin6_addr;
	else
		j->addr.in.sin_addr =
			((struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	return 0;
}

/* addr with clone's port: port + clone, as fio's port + subjob_number. */
static inline void sb_net_clone_addr(const struct sb_env *env,
				     const struct sb_net_job *j, unsigned clone,
				     void *out, socklen_t *len)
{
	const struct sb_net_opts *o = env->opts;

	memcpy(out, &j->addr, sizeof(j->addr));
	*len = j->addrlen;
	if (o->proto == SB_NET_UNIX)
		return;
	if (sb_net_is_v6(o))
		((struct sockaddr_in6 *)out)->sin6_port =
			htons((uint16_t)(o->port + clone));
	else
		((struct sockaddr_in *)out)->sin_port =
			htons((uint16_t)(o->port + clone));
}

static inline int sb_net_bind_one(struct sb_env *env, struct sb_net_job *j,
				  unsigned clone, int *fdp)
{
	const struct sb_net_opts *o = env->opts;
	union {
		struct sockaddr sa;
		struct sockaddr_storage ss;
	} a;
	socklen_t len;
	int one = 1, fd = sb_net_socket(o), rc;

	if (fd < 0)
		return env->host->error(env->handle, -errno, "socket: %s",
					strerror(errno));
	if (o->proto != SB_NET_UNIX &&
	    (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	     setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0)) {
		rc = env->host->error(env->handle, -errno, "setsockopt: %s",
				      strerror(errno));
		close(fd);
		return rc;
	}
	if ((rc = sb_net_sockopts(env, fd, 1))) {
		close(fd);
		return rc;
	}
	sb_net_clone_addr(env, j, clone, &a, &len);
	if (bind(fd, &a.sa, len) < 0 ||
	    (!sb_net_is_udp(o) && listen(fd, 10) < 0)) {
		char where[INET6_ADDRSTRLEN + 16] = "";

		if (o->proto == SB_NET_UNIX)
			snprintf(where, sizeof(where), "%.*s",
				 (int)(sizeof(where) - 1), j->addr.un.sun_path);
		else
			snprintf(where, sizeof(where), "port %lld",
				 (long long)o->port + clone);
		rc = env->host->error(env->handle, -errno, "bind %s: %s", where,
				      strerror(errno));
		close(fd);
		return rc;
	}
	*fdp = fd;
	return 0;
}

static inline int sb_net_join_group(struct sb_env *env, int fd,
				    const char *group)
{
	const struct sb_net_opts *o = env->opts;
	struct ip_mreq mr = {0};

	inet_pton(AF_INET, group, &mr.imr_multiaddr);
	mr.imr_interface.s_addr = htonl(INADDR_ANY);
	if (o->interface &&
	    inet_pton(AF_INET, o->interface, &mr.imr_interface) != 1)
		return env->host->error(env->handle, -EINVAL,
					"interface not valid interface IP: %s",
					o->interface);
	if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0)
		return env->host->error(env->handle, -errno,
					"setsockopt IP_ADD_MEMBERSHIP %s: %s",
					group, strerror(errno));
	return 0;
}

static inline void sb_net_teardown(struct sb_env *env);

/* [main] Bind what this job listens on, one socket per clone (one for a
 * UNIX socket, which the clones share), before later jobs start. */
static inline int sb_net_setup(struct sb_env *env)
{
	const struct sb_net_opts *o = env->opts;
	struct sb_net_job *j = env->job_state;
	const char *host = sb_net_host(env);
	unsigned n = env->job->numjobs ? env->job->numjobs : 1;
	int rc;

	j->listening = sb_net_binds(env);
	if (!j->listening) {
		if (!host)
			return env->host->error(
				env->handle, -EINVAL,
				"connect with no host to connect to (no "
				"hostname= set)%s",
				env->job->rw & SB_JOB_READS
					? "; did you forget to set 'listen'?"
					: "");
		return sb_net_resolve(env, j, host);
	}
	if (o->proto != SB_NET_UNIX && host) {
		if (!sb_net_is_udp(o) || !sb_net_multicast(host))
			return env->host->error(
				env->handle, -EINVAL,
				"hostname not valid for non-multicast "
				"inbound network IO: %s",
				host);
		if (sb_net_is_v6(o))
			return env->host->error(env->handle, -EINVAL,
						"IPv6 not supported for "
						"multicast network IO");
		j->multicast = 1;
	}
	if ((rc = sb_net_resolve(env, j,
				 o->proto == SB_NET_UNIX ? host : NULL)))
		return rc;
	if (o->proto == SB_NET_UNIX) {
		n = 1;
		unlink(j->addr.un.sun_path);
	}
	/* The node setup made is removed at teardown, even after a bind
	 * that failed halfway. */
	j->unlink_path = o->proto == SB_NET_UNIX;
	for (j->nfd = 0; j->nfd < n; j->nfd++) {
		int fd = -1;

		rc = sb_net_bind_one(env, j, j->nfd, &fd);
		if (!rc && j->multicast &&
		    (rc = sb_net_join_group(env, fd, host)))
			close(fd);
		if (rc) {
			sb_net_teardown(env);
			return rc;
		}
		j->fd[j->nfd] = fd;
	}
	return 0;
}

static inline void sb_net_teardown(struct sb_env *env)
{
	struct sb_net_job *j = env->job_state;

	for (unsigned i = 0; i < j->nfd; i++)
		close(j->fd[i]);
	j->nfd = 0;
	if (j->unlink_path)
		unlink(j->addr.un.sun_path);
	j->unlink_path = 0;
}

static inline int sb_net_init(struct sb_env *env, int splice)
{
	struct sb_net_state *s = env->state;
	const struct sb_net_opts *o = env->opts;

	s->pipes[0] = s->pipes[1] = -1;
	s->splice = splice && !sb_net_is_udp(o) && o->proto != SB_NET_UNIX;
	if (s->splice && pipe2(s->pipes, O_CLOEXEC) < 0)
		return env->host->error(env->handle, -errno,
					"cannot make the splice pipe: %s",
					strerror(errno));
	return 0;
}

static inline void sb_net_cleanup(struct sb_env *env)
{
	struct sb_net_state *s = env->state;

	for (int i = 0; i < 2; i++)
		if (s->pipes[i] >= 0)
			close(s->pipes[i]);
	s->pipes[0] = s->pipes[1] = -1;
}

/*
 * Wait until fd is ready for events or the worker must stop: 1 ready, 0
 * stop (the wake fd, the deadline), or -errno. The deadline bounds the
 * wait; before the job's I/O began it has none, and only a stop ends it.
 */
static inline int sb_net_wait(const struct sb_env *env, int fd, short events)
{
	const struct sb_host *h = env->host;

	for (;;) {
		struct pollfd p[2] = {{.fd = fd, .events = events},
				      {.fd = env->wake_fd, .events = POLLIN}};
		uint64_t dl = h->deadline_ns(env->handle), now = h->now_ns();
		int ms = -1, n;

		if (h->stopping(env->handle))
			return 0;
		if (dl != UINT64_MAX)
			ms = dl > now ? (int)((dl - now + 999999) / 1000000)
				      : 0;
		n = poll(p, env->wake_fd >= 0 ? 2 : 1, ms);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0 && (p[0].revents & (events | POLLERR | POLLHUP)))
			return 1;
		if (n > 0 && p[1].revents)
			return 0;
	}
}

static inline void sb_net_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* fio's link messages: the open in network order, the close in little
 * endian (its cpu_to_le32). UDP to the peer, a stream on its socket. */
static inline int sb_net_link_msg(struct sb_env *env, int fd, uint32_t cmd)
{
	struct sb_net_state *s = env->state;
	int net = cmd == SB_NET_LINK_OPEN;
	uint32_t msg[2] = {net ? htonl(SB_NET_LINK_MAGIC)
			       : htole32(SB_NET_LINK_MAGIC),
			   net ? htonl(cmd) : htole32(cmd)};
	ssize_t n;

	if (sb_net_is_udp(env->opts))
		n = sendto(fd, msg, sizeof(msg), 0, &s->peer.sa, s->peerlen);
	else
		n = send(fd, msg, sizeof(msg), MSG_NOSIGNAL);
	if (n < 0)
		return env->host->error(
			env->handle, -errno, "sendto udp link %s: %s",
			net ? "open" : "close", strerror(errno));
	return 0;
}

/* [worker] A UDP reader waits for the writer's open message, and learns
 * where it came from. */
static inline int sb_net_udp_wait_open(struct sb_env *env, int fd)
{
	struct sb_net_state *s = env->state;
	uint32_t msg[2];
	int rc;

	for (;;) {
		ssize_t n;

		s->peerlen = sizeof(s->peer);
		n = recvfrom(fd, msg, sizeof(msg), 0, &s->peer.sa, &s->peerlen);
		if (n == (ssize_t)sizeof(msg))
			break;
		if (n >= 0)
			continue;
		if (errno != EAGAIN && errno != EINTR)
			return env->host->error(env->handle, -errno,
						"recvfrom udp link open: %s",
						strerror(errno));
		if ((rc = sb_net_wait(env, fd, POLLIN)) <= 0)
			return rc ? rc
				  : env->host->error(env->handle, -EINTR,
						     "stopped waiting for "
						     "the udp link open");
	}
	if (ntohl(msg[0]) != SB_NET_LINK_MAGIC ||
	    ntohl(msg[1]) != SB_NET_LINK_OPEN)
		return env->host->error(
			env->handle, -EPROTO, "bad udp open magic %x/%x",
			(unsigned)ntohl(msg[0]), (unsigned)ntohl(msg[1]));
	return 0;
}

static inline int sb_net_accept(struct sb_env *env, struct sb_file *f)
{
	const struct sb_net_opts *o = env->opts;
	const struct sb_net_job *j = env->job_state;
	int lfd = j->fd[o->proto == SB_NET_UNIX ? 0 : env->clone], rc, fd;

	if (sb_net_is_udp(o)) {
		fd = fcntl(lfd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return env->host->error(env->handle, -errno, "dup: %s",
						strerror(errno));
		sb_net_nonblock(fd);
		f->fd = fd;
		return sb_net_udp_wait_open(env, fd);
	}
	sb_net_nonblock(lfd);
	env->host->log(env->handle, SB_LOG_INFO, "waiting for connection");
	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return env->host->error(env->handle, -errno,
						"accept: %s", strerror(errno));
		if ((rc = sb_net_wait(env, lfd, POLLIN)) <= 0)
			return rc ? rc
				  : env->host->error(env->handle, -EINTR,
						     "stopped waiting for a "
						     "connection");
	}
	f->fd = fd;
	return sb_net_nodelay(env, fd);
}

static inline int sb_net_connect(struct sb_env *env, struct sb_file *f)
{
	const struct sb_net_opts *o = env->opts;
	const struct sb_net_job *j = env->job_state;
	struct sb_net_state *s = env->state;
	const char *host = sb_net_host(env);
	int fd = sb_net_socket(o), rc;

	if (fd < 0)
		return env->host->error(env->handle, -errno, "socket: %s",
					strerror(errno));
	f->fd = fd;
	if ((rc = sb_net_sockopts(env, fd, 0)))
		return rc;
	sb_net_clone_addr(env, j, env->clone, &s->peer, &s->peerlen);
	if (sb_net_is_udp(o)) {
		unsigned char ttl = (unsigned char)o->ttl;
		struct in_addr ifa;

		sb_net_nonblock(fd);
		if (!sb_net_multicast(host))
			return sb_net_link_msg(env, fd, SB_NET_LINK_OPEN);
		if (o->interface &&
		    (inet_pton(AF_INET, o->interface, &ifa) != 1 ||
		     setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa,
				sizeof(ifa)) < 0))
			return env->host->error(env->handle, -EINVAL,
						"interface not valid "
						"interface IP: %s",
						o->interface);
		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl,
			       sizeof(ttl)) < 0)
			return env->host->error(env->handle, -errno,
						"setsockopt IP_MULTICAST_TTL: "
						"%s",
						strerror(errno));
		return sb_net_link_msg(env, fd, SB_NET_LINK_OPEN);
	}
	if (connect(fd, &s->peer.sa, s->peerlen) < 0) {
		char where[128];

		if (o->proto == SB_NET_UNIX)
			snprintf(where, sizeof(where), "%.100s", host);
		else
			snprintf(where, sizeof(where), "%.100s port %lld", host,
				 (long long)o->port + env->clone);
		return env->host->error(env->handle, -errno,
					"connect to %s: %s", where,
					strerror(errno));
	}
	sb_net_nonblock(fd);
	return 0;
}

static inline int sb_net_open(struct sb_env *env, struct sb_file *f)
{
	const struct sb_net_job *j = env->job_state;
	struct sb_net_state *s = env->state;
	int rc;

	f->fd = -1;
	/* The stream has no size: the job's size= (or runtime=, or the
	 * peer's close) ends it. */
	f->real_size = f->want_bytes ? f->want_bytes : UINT64_C(1) << 62;
	s->sent = 0;
	s->udp_send_seq = s->udp_recv_seq = s->udp_lost = 0;
	s->seq_off = 0;
	/* The host opens a job's first file before its startdelay, fio
	 * after it: a writer connects at its first I/O, so that a listener
	 * started beside it (fio's examples/netio.fio) accepts once the
	 * writer's delay is over, and its clock starts then, as in fio. */
	s->pending = !j->listening;
	rc = j->listening ? sb_net_accept(env, f) : 0;
	if (rc && f->fd >= 0) {
		close(f->fd);
		f->fd = -1;
	}
	return rc;
}

/* The writer's close tells the reader the link is closing, as fio does
 * (for TCP too: its reader ends on the message or the end of the stream).
 * A UDP reader that found datagrams missing says how many, as the fact
 * net.udp_lost.CLONE (fio's drop_ios). */
static inline int sb_net_close(struct sb_env *env, struct sb_file *f)
{
	const struct sb_net_job *j = env->job_state;
	struct sb_net_state *s = env->state;

	if (f->fd < 0)
		return 0;
	if (!j->listening)
		(void)sb_net_link_msg(env, f->fd, SB_NET_LINK_CLOSE);
	else if (sb_net_is_udp(env->opts) && s->udp_lost) {
		char key[32], v[24];

		snprintf(key, sizeof(key), "net.udp_lost.%u", env->clone);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)s->udp_lost);
		env->host->fact(env->handle, key, v);
	}
	close(f->fd);
	f->fd = -1;
	return 0;
}

#endif
