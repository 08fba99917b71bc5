/*
 * mem=/iomem= and lockmem after fio 3.33's memory.c: malloc (aligned heap
 * memory), shm and shmhuge (a System V segment, SHM_HUGETLB for huge),
 * mmap, mmaphuge and mmapshared (anonymous, MAP_HUGETLB for huge, or the
 * file after ':', private for mmap and shared for the others).
 *
 * Two places differ from fio, where fio leaves something behind or
 * crashes: a segment is marked for removal as soon as it is attached, so
 * no segment outlives the process however it ends (fio removes it at the
 * end of the job only); and a shared map of a file shorter than the
 * buffers is grown to their size first (fio maps it as it is, and the
 * first I/O past its end dies of SIGBUS).
 */
#include "iomem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MIB (1024u * 1024u)

static const char *const kind_names[] = {
	[SB_MEM_MALLOC] = "malloc",	[SB_MEM_SHM] = "shm",
	[SB_MEM_SHMHUGE] = "shmhuge",	[SB_MEM_MMAP] = "mmap",
	[SB_MEM_MMAPHUGE] = "mmaphuge", [SB_MEM_MMAPSHARED] = "mmapshared",
};

static int is_mmap(enum sb_mem_kind k)
{
	return k == SB_MEM_MMAP || k == SB_MEM_MMAPHUGE ||
	       k == SB_MEM_MMAPSHARED;
}

int sb_iomem_parse(const char *value, enum sb_mem_kind *kind, const char **file,
		   char *err, size_t errlen)
{
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);

	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]);
	     i++) {
		if (strlen(kind_names[i]) != len ||
		    strncmp(value, kind_names[i], len))
			continue;
		*kind = (enum sb_mem_kind)i;
		/* fio takes a file only for the mmap kinds and ignores what
		 * follows ':' for the others. */
		*file = colon && colon[1] && is_mmap(*kind) ? colon + 1 : NULL;
		return 0;
	}
	snprintf(err, errlen,
		 "expected malloc, shm, shmhuge, mmap, mmaphuge or "
		 "mmapshared (the mmap kinds may name a file after ':')");
	return -EINVAL;
}

/* fio's hints, after the error, for a huge-page request that failed. */
static const char *huge_hint(int huge, int e)
{
	if (!huge)
		return "";
	if (e == ENOMEM)
		return "; no huge pages are free: reserve some in "
		       "/proc/sys/vm/nr_hugepages";
	if (e == EINVAL)
		return "; check that huge pages are free and that "
		       "hugepage-size is the system's";
	if (e == ENOSYS || e == EOPNOTSUPP)
		return "; this system has no huge pages";
	return "";
}

static int with_shm(struct sb_iomem *m, int huge, char *err, size_t errlen)
{
	int id = shmget(IPC_PRIVATE, m->len,
			IPC_CREAT | S_IRUSR | S_IWUSR |
				(huge ? SHM_HUGETLB : 0));
	void *p;
	int e;

	if (id < 0) {
		e = errno;
		snprintf(err, errlen, "shmget of %zu bytes: %s%s", m->len,
			 strerror(e), huge_hint(huge, e));
		return -e;
	}
	p = shmat(id, NULL, 0);
	e = errno;
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1) {
		snprintf(err, errlen, "shmat of %zu bytes: %s", m->len,
			 strerror(e));
		return -e;
	}
	m->map = m->base = p;
	return 0;
}

static int open_file(struct sb_iomem *m, const char *file, char *err,
		     size_t errlen)
{
	struct stat st;
	int e;

	m->file = strdup(file);
	if (!m->file) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	m->unlink = access(file, F_OK) != 0;
	m->fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (m->fd < 0) {
		e = errno;
		m->unlink = 0;
		snprintf(err, errlen, "cannot open %s for its buffers: %s",
			 file, strerror(e));
		return -e;
	}
	if (fstat(m->fd, &st) == 0 && (uint64_t)st.st_size >= m->len)
		return 0;
	if (ftruncate(m->fd, (off_t)m->len) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot size %s to %zu bytes: %s", file,
			 m->len, strerror(e));
		return -e;
	}
	return 0;
}

static int with_mmap(struct sb_iomem *m, const char *file, char *err,
		     size_t errlen)
{
	int huge = m->kind == SB_MEM_MMAPHUGE;
	int flags = m->kind == SB_MEM_MMAP ? MAP_PRIVATE : MAP_SHARED;
	void *p;
	int rc, e;

	if (file) {
		rc = open_file(m, file, err, errlen);
		if (rc)
			return rc;
	} else {
		/* Anonymous memory is private for every kind, as fio's. */
		flags = MAP_PRIVATE | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0);
	}
	p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, flags, m->fd, 0);
	if (p == MAP_FAILED) {
		e = errno;
		snprintf(err, errlen, "mmap of %zu bytes%s%s: %s%s", m->len,
			 file ? " of " : "", file ? file : "", strerror(e),
			 huge_hint(huge && !file, e));
		return -e;
	}
	m->map = m->base = p;
	return 0;
}

int sb_iomem_alloc(struct sb_iomem *m, const char *value, uint64_t bytes,
		   uint64_t hugepage, char *err, size_t errlen)
{
	enum sb_mem_kind kind = SB_MEM_MALLOC;
	const char *file = NULL;
	int rc;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	if (value && sb_iomem_parse(value, &kind, &file, err, errlen))
		return -EINVAL;
	m->kind = (int)kind;
	m->len = (size_t)bytes;
	if (kind == SB_MEM_SHMHUGE || kind == SB_MEM_MMAPHUGE) {
		if (!hugepage) {
			snprintf(err, errlen, "hugepage-size is 0");
			return -EINVAL;
		}
		m->len = (size_t)((bytes + hugepage - 1) / hugepage * hugepage);
	}
	if (kind == SB_MEM_MALLOC) {
		if (posix_memalign(&m->map, 4096, m->len ? m->len : 1)) {
			snprintf(err, errlen, "out of memory for %zu bytes",
				 m->len);
			return -ENOMEM;
		}
		m->base = m->map;
		return 0;
	}
	rc = kind == SB_MEM_SHM || kind == SB_MEM_SHMHUGE
		     ? with_shm(m, kind == SB_MEM_SHMHUGE, err, errlen)
		     : with_mmap(m, file, err, errlen);
	if (rc)
		sb_iomem_free(m);
	return rc;
}

/* The machine's memory in bytes, 0 when unknown. */
static uint64_t phys_mem(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

int sb_iomem_pin(struct sb_iomem *m, uint64_t bytes, int *capped, char *err,
		 size_t errlen)
{
	uint64_t phys = phys_mem();
	int e;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	*capped = 0;
	if (phys > 128ull * MIB && bytes + 128ull * MIB > phys) {
		bytes = phys - 128ull * MIB;
		*capped = 1;
	}
	m->len = (size_t)bytes;
	m->kind = SB_MEM_MMAP;
	m->map = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->map == MAP_FAILED) {
		e = errno;
		m->map = NULL;
		snprintf(err, errlen, "lockmem: mmap of %zu bytes: %s", m->len,
			 strerror(e));
		return -e;
	}
	/* The system call itself: the sanitizers' mlock() locks nothing, and
	 * the memory a job locks is a figure its tests check. */
	if (syscall(SYS_mlock, m->map, m->len) < 0) {
		e = errno;
		sb_iomem_free(m);
		snprintf(err, errlen, "lockmem: mlock of %zu bytes: %s%s",
			 (size_t)bytes, strerror(e),
			 e == ENOMEM || e == EPERM
				 ? " (RLIMIT_MEMLOCK, or not root)"
				 : "");
		return -e;
	}
	m->base = m->map;
	return 0;
}

void sb_iomem_free(struct sb_iomem *m)
{
	if (m->map) {
		if (m->kind == SB_MEM_MALLOC)
			free(m->map);
		else if (m->kind == SB_MEM_SHM || m->kind == SB_MEM_SHMHUGE)
			shmdt(m->map);
		else
			munmap(m->map, m->len);
	}
	/* A region never allocated is all zeros: fd 0 there is not ours. */
	if (m->file && m->fd >= 0)
		close(m->fd);
	if (m->unlink && m->file)
		unlink(m->file);
	free(m->file);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}
