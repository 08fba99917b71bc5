/*
 * fio's verify state file (state.h), written and read byte by byte so it
 * is the same on any host.
 */
#include "state.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify.h"
#include "verify_impl.h"

int sb_vstate_name(char *out, size_t len, const char *prefix, const char *name,
		   uint64_t index)
{
	int n = snprintf(out, len, "%s-%s-%" PRIu64 "-verify.state", prefix,
			 name, index);
	size_t skip = strlen(prefix) + 1;

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (char *p = out + skip; *p && p < out + skip + strlen(name); p++)
		if (*p == '/')
			*p = '.';
	return 0;
}

/* fio_crc32c(): CRC-32C seeded with ~0 and not inverted at the end. */
static uint64_t list_crc(const unsigned char *p, size_t len)
{
	return (uint64_t)(~sb_crc32c(0, p, len) & 0xffffffffu);
}

static size_t list_size(uint32_t depth, uint32_t nofiles)
{
	return SB_VSTATE_LIST + (size_t)depth * nofiles * 16;
}

int sb_vstate_save(const char *path, const struct sb_vstate *s, char *err,
		   size_t errlen)
{
	size_t lsz = list_size(s->depth, s->nofiles), n = s->no_comps;
	unsigned char *b = calloc(1, SB_VSTATE_HDR + lsz), *l;
	struct stat st;
	int fd, rc;

	if (!b) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	l = b + SB_VSTATE_HDR;
	if (n > (size_t)s->depth * s->nofiles)
		n = (size_t)s->depth * s->nofiles;
	sb_store_le64(l, n);
	sb_store_le32(l + 8, s->depth);
	sb_store_le32(l + 12, s->nofiles);
	sb_store_le64(l + 16, s->numberio);
	sb_store_le64(l + 24, s->index);
	memcpy(l + 88, s->name, strnlen(s->name, SB_VSTATE_NAME - 1));
	for (size_t i = 0; i < n; i++) {
		sb_store_le64(l + SB_VSTATE_LIST + i * 16, s->comps[i].fileno);
		sb_store_le64(l + SB_VSTATE_LIST + i * 16 + 8,
			      s->comps[i].offset);
	}
	sb_store_le64(b, SB_VSTATE_VERSION);
	sb_store_le64(b + 8, lsz);
	sb_store_le64(b + 16, list_crc(l, lsz));
	/* A link is followed, as fio follows it; but no O_TRUNC before the
	 * file is known to be a regular one (the guard checked the name, and
	 * this the file the name leads to now), no block on a FIFO. */
	fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_SYNC | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		rc = -errno;
		free(b);
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		free(b);
		snprintf(err, errlen, "%s is not a regular file: not written",
			 path);
		return -EPERM;
	}
	rc = ftruncate(fd, 0) ? -errno
			      : sb_verify_write_all(fd, b, SB_VSTATE_HDR + lsz);
	if (close(fd) && !rc)
		rc = -errno;
	free(b);
	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(-rc));
	return rc;
}

static int read_all(int fd, unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENODATA;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sb_vstate_load(const char *path, struct sb_vstate *s, char *err,
		   size_t errlen)
{
	unsigned char h[SB_VSTATE_HDR], *l = NULL;
	uint64_t version, size, cap;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	memset(s, 0, sizeof(*s));
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open the state file %s: %s", path,
			 strerror(-rc));
		return rc;
	}
	rc = read_all(fd, h, sizeof(h));
	if (rc) {
		close(fd);
		snprintf(err, errlen,
			 "%s: failed reading verify state header: %s", path,
			 rc == -ENODATA ? "the file is too short"
					: strerror(-rc));
		return rc == -ENODATA ? -EINVAL : rc;
	}
	version = sb_load_le64(h);
	size = sb_load_le64(h + 8);
	if (version != SB_VSTATE_VERSION) {
		close(fd);
		snprintf(err, errlen,
			 "%s: unsupported (%" PRIu64
			 ") version in verify state header",
			 path, version);
		return -EINVAL;
	}
	if (size < SB_VSTATE_LIST || size > (64u << 20) ||
	    !(l = malloc(size)) || (rc = read_all(fd, l, size)) != 0) {
		close(fd);
		free(l);
		snprintf(err, errlen, "%s: failed reading verify state", path);
		return -EINVAL;
	}
	close(fd);
	if (list_crc(l, size) != sb_load_le64(h + 16)) {
		free(l);
		snprintf(err, errlen, "%s: verify state is corrupt", path);
		return -EINVAL;
	}
	s->no_comps = sb_load_le64(l);
	s->depth = sb_load_le32(l + 8);
	s->nofiles = sb_load_le32(l + 12);
	s->numberio = sb_load_le64(l + 16);
	s->index = sb_load_le64(l + 24);
	memcpy(s->name, l + 88, SB_VSTATE_NAME - 1);
	/* Only the completions the file holds are believed. */
	cap = (size - SB_VSTATE_LIST) / 16;
	if (s->no_comps > cap)
		s->no_comps = cap;
	s->comps = calloc(s->no_comps ? s->no_comps : 1, sizeof(*s->comps));
	if (!s->comps) {
		free(l);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < s->no_comps; i++) {
		s->comps[i].fileno = sb_load_le64(l + SB_VSTATE_LIST + i * 16);
		s->comps[i].offset =
			sb_load_le64(l + SB_VSTATE_LIST + i * 16 + 8);
	}
	free(l);
	return 0;
}

int sb_vstate_should_stop(const struct sb_vstate *s, uint64_t reads,
			  uint64_t fileno, uint64_t offset)
{
	/* fio's unsigned arithmetic: past numberio reads the difference wraps
	 * and every read goes again. */
	if ((reads < s->depth || s->numberio - reads > s->depth) &&
	    s->numberio > s->depth)
		return 0;
	for (uint64_t i = 0; i < s->no_comps; i++)
		if (s->comps[i].fileno == fileno &&
		    s->comps[i].offset == offset)
			return 0;
	return 1;
}
