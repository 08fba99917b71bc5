/*
 * Where a worker's I/O buffers live (fio's mem=/iomem=, hugepage-size) and
 * the memory it pins (lockmem), after fio 3.33's memory.c.
 */
#ifndef SB_IOMEM_H
#define SB_IOMEM_H

#include <stddef.h>
#include <stdint.h>

enum sb_mem_kind {
	SB_MEM_MALLOC,
	SB_MEM_SHM,
	SB_MEM_SHMHUGE,
	SB_MEM_MMAP,
	SB_MEM_MMAPHUGE,
	SB_MEM_MMAPSHARED,
};

/*
 * mem=KIND[:FILE]: the kind, and for the mmap kinds the file after ':' (as
 * fio takes it; NULL when none). *file points into value. 0, or -EINVAL
 * with the reason in err.
 */
int sb_iomem_parse(const char *value, enum sb_mem_kind *kind, const char **file,
		   char *err, size_t errlen);

/* One region of a worker's: the buffers, or the pinned memory. */
struct sb_iomem {
	void *base; /* the first byte the caller may use */
	void *map;  /* what was mapped or allocated */
	size_t len; /* bytes mapped */
	int kind;   /* enum sb_mem_kind */
	int fd;	    /* the mmap file, or -1 */
	int unlink; /* the mmap file was made here: removed at free */
	char *file; /* its name (owned) */
};

/*
 * bytes of buffers of the kind value names (NULL: malloc), the first byte
 * on a 4 KiB boundary, huge kinds rounded up to hugepage bytes. 0, or a
 * negative errno with what failed (and, for huge pages, what to check) in
 * err.
 */
int sb_iomem_alloc(struct sb_iomem *m, const char *value, uint64_t bytes,
		   uint64_t hugepage, char *err, size_t errlen);

/* lockmem: bytes of anonymous memory, locked in RAM, capped as fio caps
 * it at the machine's memory less 128 MiB (*capped set then). */
int sb_iomem_pin(struct sb_iomem *m, uint64_t bytes, int *capped, char *err,
		 size_t errlen);

/* Undo either; a zeroed or freed region is a no-op. */
void sb_iomem_free(struct sb_iomem *m);

#endif
