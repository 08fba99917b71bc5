/*
 * verify_dump's files, named as fio 3.33 names them (verify.c dump_buf():
 * the target's basename, the block's offset and what the bytes are, in the
 * current directory or --aux-path's). The name comes
 * from a failing offset at run time, so the guard is here, on the file
 * opened: a regular file only, reached without following a link.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify.h"
#include "verify_impl.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

int sb_verify_write_all(int fd, const unsigned char *p, uint64_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (uint64_t)n;
	}
	return 0;
}

int sb_verify_dump(const char *dir, const char *target, uint64_t offset,
		   const char *type, const void *buf, uint64_t len, char *name,
		   size_t namelen, char *err, size_t errlen)
{
	struct stat st, tst;
	int fd, rc;

	if ((size_t)snprintf(name, namelen, "%s%s%s.%" PRIu64 ".%s",
			     dir ? dir : "", dir ? "/" : "", base_name(target),
			     offset, type) >= namelen) {
		snprintf(err, errlen, "the dump file's name is too long");
		return -ENAMETOOLONG;
	}
	/* No O_TRUNC before the file is known to be a regular one; no block
	 * on a FIFO without a reader. */
	fd = open(name,
		  O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", name,
			 errno == ELOOP ? "it is a symbolic link"
					: strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file: not written",
			 name);
		close(fd);
		return -EPERM;
	}
	if (!stat(target, &tst) && tst.st_dev == st.st_dev &&
	    tst.st_ino == st.st_ino) {
		snprintf(err, errlen, "%s is the job's own file: not written",
			 name);
		close(fd);
		return -EPERM;
	}
	rc = ftruncate(fd, 0) ? -errno : sb_verify_write_all(fd, buf, len);
	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", name,
			 strerror(-rc));
	if (close(fd) && !rc) {
		rc = -errno;
		snprintf(err, errlen, "cannot write %s: %s", name,
			 strerror(-rc));
	}
	return rc;
}
