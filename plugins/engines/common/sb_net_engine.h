/*
 * sb_net_engine.h - fio's net and netsplice engines: I/O over TCP, UDP or
 * UNIX-domain sockets, one connection per job clone. A write sends its
 * block, a read receives one; with listen (or a UDP reader) the job waits
 * for its peer, otherwise it connects to hostname:port. netsplice moves
 * the data through a pipe with vmsplice(2) and splice(2) instead of
 * send(2)/recv(2) on TCP.
 *
 * Both plugins (net, netsplice) are this one engine with another flag:
 * header-only like sb_file_engine.h, every function static inline, so each
 * plugin that includes it gets its own copy and exports nothing new. Each
 * defines its descriptor with SB_NET_OPS(splice) and sb_net_options.
 *
 * What fio 3.33 does (engines/net.c), and so what this does:
 *  - port is the first of numjobs ports: clone i uses port + i;
 *  - a TCP listener (listen) or a UDP reader binds in setup, before any
 *    worker of any later job starts, and accepts (or waits for the
 *    sender's open message) in open_file, before the job's clock runs;
 *  - a writer of more bytes than this block sets MSG_MORE on TCP, unless
 *    pingpong;
 *  - UDP writes carry a sequence number in their last 24 bytes (with
 *    verify off), which the reader checks to count lost datagrams;
 *  - the writer's close sends fio's close message (8 bytes, on TCP too),
 *    which ends the reader: here with SB_Q_END, without an error;
 *  - pingpong: a writer waits for its block to come back, a reader sends
 *    each block back.
 * Every wait polls the socket and the wake fd, so a stop ends it.
 */
#ifndef SB_NET_ENGINE_H
#define SB_NET_ENGINE_H

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <storbench/engine.h>

/* Clones of one listening job: each has its own port, bound in setup. */
#define SB_NET_MAX_CLONES 256

#define SB_NET_TCP    0
#define SB_NET_TCP_V6 1
#define SB_NET_UDP    2
#define SB_NET_UDP_V6 3
#define SB_NET_UNIX   4

/* fio's link messages and its UDP sequence stamp (engines/net.c). */
#define SB_NET_LINK_MAGIC 0x6c696e6bu
#define SB_NET_LINK_CLOSE 0x89u
#define SB_NET_LINK_OPEN  0x98u
#define SB_NET_SEQ_MAGIC  UINT64_C(0x657375716e556563)

struct sb_net_opts {
	char *hostname;
	int64_t port;
	int32_t proto;
	int32_t listen;
	int32_t pingpong;
	int32_t nodelay;
	int64_t ttl;
	int64_t window_size;
	int64_t mss;
	char *interface;
};

static const char *const sb_net_protos[] = {"tcp",   "tcpv6", "udp",
					    "udpv6", "unix",  NULL};

static const struct sb_option sb_net_options[] = {
	{.name = "hostname",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct sb_net_opts, hostname),
	 .help = "Hostname for net IO engine"},
	{.name = "port",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct sb_net_opts, port),
	 .min = 0,
	 .max = 65535,
	 .help = "Port to use for TCP or UDP net connections"},
	{.name = "protocol",
	 .alias = "proto",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct sb_net_opts, proto),
	 .def = "tcp",
	 .choices = sb_net_protos,
	 .help = "Network protocol to use: tcp, tcpv6, udp, udpv6, unix"},
	{.name = "nodelay",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct sb_net_opts, nodelay),
	 .help = "Use TCP_NODELAY on TCP connections"},
	{.name = "listen",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct sb_net_opts, listen),
	 .help = "Listen for incoming TCP connections"},
	{.name = "pingpong",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct sb_net_opts, pingpong),
	 .help = "Ping-pong IO requests"},
	{.name = "interface",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct sb_net_opts, interface),
	 .help = "Network interface to use (UDP multicast)"},
	{.name = "ttl",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct sb_net_opts, ttl),
	 .def = "1",
	 .min = 0,
	 .max = 255,
	 .help = "Time-to-live value for outgoing UDP multicast packets"},
	{.name = "window_size",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct sb_net_opts, window_size),
	 .min = 0,
	 .max = INT32_MAX,
	 .help = "Set socket buffer window size"},
	{.name = "mss",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct sb_net_opts, mss),
	 .min = 0,
	 .max = INT32_MAX,
	 .help = "Set TCP maximum segment size"},
	SB_OPTION_END,
};

/* Where the clones connect or send to, and the sockets setup bound. */
struct sb_net_job {
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
	} addr; /* the peer, or the address bound; port of clone 0 */
	socklen_t addrlen;
	int listening; /* this job binds: listen, or a UDP reader */
	int multicast;
	unsigned nfd;
	int fd[SB_NET_MAX_CLONES];
	int unlink_path; /* setup made the UNIX socket's node */
};

struct sb_net_state {
	int pipes[2]; /* netsplice */
	int splice;
	int pending;   /* connect at the first I/O */
	uint64_t sent; /* bytes written, for MSG_MORE */
	uint64_t udp_send_seq, udp_recv_seq;
	uint64_t udp_lost;
	int seq_off;
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
	} peer; /* this clone's peer */
	socklen_t peerlen;
};

static inline int sb_net_is_udp(const struct sb_net_opts *o)
{
	return o->proto == SB_NET_UDP || o->proto == SB_NET_UDP_V6;
}

static inline int sb_net_is_tcp(const struct sb_net_opts *o)
{
	return o->proto == SB_NET_TCP || o->proto == SB_NET_TCP_V6;
}

static inline int sb_net_is_v6(const struct sb_net_opts *o)
{
	return o->proto == SB_NET_TCP_V6 || o->proto == SB_NET_UDP_V6;
}

/* The host or socket path: hostname=, or filename= as fio's hostname
 * callback makes them one; NULL for none. */
static inline const char *sb_net_host(const struct sb_env *env)
{
	const struct sb_net_opts *o = env->opts;

	return o->hostname ? o->hostname : env->job->filename;
}

static inline int sb_net_multicast(const char *host)
{
	struct in_addr a;

	return host && inet_pton(AF_INET, host, &a) == 1 &&
	       (ntohl(a.s_addr) >> 28) == 0xe;
}

/* fio_netio_init()'s refusals, found at parse time here. */
static inline int sb_net_check(struct sb_env *env, const char **option)
{
	const struct sb_net_opts *o = env->opts;
	const struct sb_host *h = env->host;
	uint32_t rw = env->job->rw;
	const char *host = sb_net_host(env);

	if (rw & SB_JOB_RANDOM) {
		*option = "rw";
		return h->error(env->handle, -EINVAL,
				"network IO can't be random");
	}
	if (rw & SB_JOB_TRIMS) {
		*option = "rw";
		return h->error(env->handle, -EINVAL,
				"network IO can only read or write");
	}
	if (o->proto == SB_NET_UNIX && o->port) {
		*option = "port";
		return h->error(env->handle, -EINVAL,
				"network IO port not valid with unix socket");
	}
	if (o->proto != SB_NET_UNIX && !o->port) {
		*option = "port";
		return h->error(env->handle, -EINVAL,
				"network IO requires port for tcp or udp");
	}
	if (o->proto != SB_NET_UNIX &&
	    o->port + env->job->numjobs - 1 > 65535) {
		*option = "port";
		return h->error(env->handle, -EINVAL,
				"ports %lld to %lld for numjobs=%u run past "
				"65535",
				(long long)o->port,
				(long long)o->port + env->job->numjobs - 1,
				env->job->numjobs);
	}
	if (!sb_net_is_tcp(o)) {
		if (o->listen) {
			*option = "listen";
			return h->error(env->handle, -EINVAL,
					"listen only valid for TCP proto IO");
		}
		if ((rw & SB_JOB_READS) && (rw & SB_JOB_WRITES)) {
			*option = "rw";
			return h->error(env->handle, -EINVAL,
					"datagram network connections must be "
					"read OR write");
		}
		if (o->proto == SB_NET_UNIX && !host) {
			*option = "filename";
			return h->error(env->handle, -EINVAL,
					"UNIX sockets need host/filename");
		}
	}
	if (env->job->numjobs > SB_NET_MAX_CLONES) {
		*option = "numjobs";
		return h->error(env->handle, -EINVAL,
				"at most %u clones of a network job",
				SB_NET_MAX_CLONES);
	}
	return 0;
}

#include "sb_net_conn.h"

/* fio's close message: 8 bytes, little endian, magic then command. */
static inline int sb_net_is_close(const void *buf, ssize_t n)
{
	uint32_t m[2];

	if (n != (ssize_t)sizeof(m))
		return 0;
	memcpy(m, buf, sizeof(m));
	return le32toh(m[0]) == SB_NET_LINK_MAGIC &&
	       le32toh(m[1]) == SB_NET_LINK_CLOSE;
}

static inline void sb_net_stamp(struct sb_net_state *s, struct sb_io *io)
{
	uint64_t u[3];

	if (io->length < sizeof(u))
		return;
	u[0] = htole64(SB_NET_SEQ_MAGIC);
	u[1] = htole64(s->udp_send_seq++);
	u[2] = htole64(io->length);
	memcpy((char *)io->buf + io->length - sizeof(u), u, sizeof(u));
}

/* fio's verify_udp_seq(): datagrams lost are the gaps in the sequence. */
static inline void sb_net_check_seq(struct sb_net_state *s,
				    const struct sb_io *io, uint64_t n)
{
	uint64_t u[3];

	if (n < sizeof(u) || s->seq_off)
		return;
	memcpy(u, (const char *)io->buf + n - sizeof(u), sizeof(u));
	if (le64toh(u[0]) != SB_NET_SEQ_MAGIC)
		return;
	if (le64toh(u[2]) != n) {
		s->seq_off = 1;
		return;
	}
	if (le64toh(u[1]) > s->udp_recv_seq)
		s->udp_lost += le64toh(u[1]) - s->udp_recv_seq;
	s->udp_recv_seq = le64toh(u[1]) + 1;
}

/* Results of one transfer step: bytes, 0 for the peer's end, SB_NET_STOP
 * when the worker must stop, or -errno. */
#define SB_NET_STOP (-100000)

static inline int sb_net_splice_all(int in, int out, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = splice(in, NULL, out, NULL, len - done, 0);

		if (n <= 0)
			return n < 0 ? -errno : (int)done;
		done += (size_t)n;
	}
	return (int)done;
}

static inline int sb_net_vmsplice_all(int pipefd, void *buf, size_t len)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	size_t done = 0;

	while (iov.iov_len) {
		ssize_t n = vmsplice(pipefd, &iov, 1, 0);

		if (n <= 0)
			return n < 0 ? -errno : (int)done;
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
		done += (size_t)n;
	}
	return (int)done;
}

/*
 * Send len bytes of buf. TCP and UNIX: all of them, waiting for room; UDP:
 * one datagram. netsplice: vmsplice into the pipe, splice to the socket,
 * in pieces the pipe holds.
 */
static inline int64_t sb_net_send(struct sb_env *env, int fd, void *buf,
				  uint64_t len, int more)
{
	const struct sb_net_opts *o = env->opts;
	struct sb_net_state *s = env->state;
	uint64_t done = 0;
	int rc;

	while (done < len) {
		ssize_t n;

		if (s->splice) {
			size_t piece = len - done > 65536 ? 65536 : len - done;

			n = sb_net_vmsplice_all(s->pipes[1], (char *)buf + done,
						piece);
			if (n > 0)
				n = sb_net_splice_all(s->pipes[0], fd,
						      (size_t)n);
			if (n < 0)
				errno = (int)-n, n = -1;
		} else if (sb_net_is_udp(o)) {
			n = sendto(fd, buf, len, 0, &s->peer.sa, s->peerlen);
		} else {
			n = send(fd, (char *)buf + done, len - done,
				 MSG_NOSIGNAL | (more ? MSG_MORE : 0));
		}
		if (n > 0) {
			done += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR &&
		    errno != ENOBUFS)
			return done ? (int64_t)done : -errno;
		if ((rc = sb_net_wait(env, fd, POLLOUT)) <= 0)
			return rc ? rc : SB_NET_STOP;
	}
	return (int64_t)done;
}

/*
 * Receive into buf: TCP and UNIX until len bytes came or the stream ended
 * (0 when it ended before any, or with fio's close message); UDP one
 * datagram (0 for the close message). The sender's blocks and this job's
 * need not match on a stream: a block is filled whatever the segments.
 */
static inline int64_t sb_net_recv(struct sb_env *env, int fd, void *buf,
				  uint64_t len)
{
	const struct sb_net_opts *o = env->opts;
	struct sb_net_state *s = env->state;
	uint64_t got = 0;
	int rc;

	while (got < len) {
		ssize_t n;

		if (s->splice) {
			n = sb_net_splice_all(fd, s->pipes[1],
					      len - got > 65536 ? 65536
								: len - got);
			if (n > 0)
				n = sb_net_vmsplice_all(s->pipes[0],
							(char *)buf + got,
							(size_t)n);
			if (n < 0)
				errno = (int)-n, n = -1;
			else if (n == 0 && got == 0) {
				/* splice says 0 with nothing queued
				 * yet on a non-blocking socket too. */
				char c;
				ssize_t p = recv(fd, &c, 1, MSG_PEEK);

				if (p < 0 && errno == EAGAIN)
					n = -1;
			}
		} else if (sb_net_is_udp(o)) {
			n = recv(fd, buf, len, 0);
			if (n >= 0)
				return sb_net_is_close(buf, n) ? 0 : n;
		} else {
			n = recv(fd, (char *)buf + got, len - got, 0);
		}
		if (n > 0) {
			got += (uint64_t)n;
			if (got == sizeof(uint32_t[2]) &&
			    sb_net_is_close(buf, (ssize_t)got))
				return 0;
			continue;
		}
		if (n == 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return got ? (int64_t)got : -errno;
		if ((rc = sb_net_wait(env, fd, POLLIN)) <= 0)
			return rc ? rc : SB_NET_STOP;
	}
	return (int64_t)got;
}

static inline int64_t sb_net_xfer(struct sb_env *env, struct sb_io *io,
				  uint32_t ddir)
{
	struct sb_net_state *s = env->state;
	int fd = io->file->fd;

	if (ddir == SB_DDIR_WRITE) {
		const struct sb_net_opts *o = env->opts;
		uint64_t total = env->job->io_bytes;
		int more =
			!o->pingpong && total && s->sent + io->length < total;
		int64_t n;

		if (sb_net_is_udp(o))
			sb_net_stamp(s, io);
		n = sb_net_send(env, fd, io->buf, io->length, more);
		if (n > 0)
			s->sent += (uint64_t)n;
		return n;
	}
	return sb_net_recv(env, fd, io->buf, io->length);
}

static inline int sb_net_queue(struct sb_env *env, struct sb_io *io)
{
	const struct sb_net_opts *o = env->opts;
	struct sb_net_state *s = env->state;
	int64_t n;

	if (s->pending) {
		int rc = sb_net_connect(env, io->file);

		s->pending = 0;
		if (rc)
			return rc;
	}
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE) {
		/* A sync of a socket has nothing to flush (fio: "must be a
		 * SYNC", done). */
		io->result = 0;
		return SB_Q_COMPLETED;
	}
	n = sb_net_xfer(env, io, io->ddir);
	if (n > 0 && (uint64_t)n == io->length && o->pingpong)
		n = sb_net_xfer(env, io,
				io->ddir == SB_DDIR_READ ? SB_DDIR_WRITE
							 : SB_DDIR_READ);
	if (n == 0 || n == SB_NET_STOP)
		return SB_Q_END;
	if (n > 0 && io->ddir == SB_DDIR_READ && sb_net_is_udp(o))
		sb_net_check_seq(s, io, (uint64_t)n);
	io->result = n;
	return SB_Q_COMPLETED;
}

#define SB_NET_OPS(prefix)                                                     \
	{                                                                      \
		.size = sizeof(struct sb_engine_ops),                          \
		.flags = SB_ENGINE_NO_FILES | SB_ENGINE_REMOTE,                \
		.state_size = sizeof(struct sb_net_state),                     \
		.job_state_size = sizeof(struct sb_net_job),                   \
		.setup = sb_net_setup, .teardown = sb_net_teardown,            \
		.init = prefix##_init, .cleanup = sb_net_cleanup,              \
		.open_file = sb_net_open, .close_file = sb_net_close,          \
		.queue = sb_net_queue, .check = sb_net_check,                  \
	}

#endif
