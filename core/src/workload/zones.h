/*
 * zonemode=strided and zonemode=zbd, as fio 3.33 runs them (io_u.c's
 * setup_strided_zone_mode, zbd.c). The pattern draws a direction, a random
 * offset or a length; this file moves the region through the zones and, for
 * zbd, keeps each zone's write pointer and the open zones, so that writes go
 * to write pointers, reads stay below them and full zones are reset.
 *
 * zbd here is fio's emulation for a target that is not a zoned device (a
 * regular file, a device whose queue/zoned is "none"): zones of zonesize
 * over the whole file, all empty when the run starts, shared by the jobs
 * that name the file.
 *
 * The zones move when an I/O is generated: a write's zone takes its new
 * write pointer then, and a write that fills its zone closes it then. fio
 * moves the write pointer at queue() and closes the zone at completion, and
 * holds the zone's lock in between; with a synchronous engine the two are
 * the same, with iodepth above 1 on an asynchronous one a zone may close a
 * few I/Os earlier than in fio. A truly zoned device (host-managed or
 * host-aware) is refused: its own write pointers need zone reports and
 * resets (BLKREPORTZONE, BLKRESETZONE) that storbench does not send.
 *
 * Offsets are absolute (from the file's first byte), as fio's are.
 */
#ifndef SB_ZONES_H
#define SB_ZONES_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../options/fio_values.h"

/* A host-only spec flag of the fio workload: the I/O is done without the
 * engine (a zonemode=zbd trim of an emulated zone resets it, and fio sends
 * nothing). */
#define SB_SPEC_NO_IO 0x80000000u

/* fio's ZBD_MAX_OPEN_ZONES. */
#define SB_ZBD_MAX_OPEN 4096

struct sb_zones_cfg {
	int mode;	       /* enum sb_zonemode, not SB_ZONE_NONE */
	uint64_t size;	       /* zonesize */
	uint64_t range;	       /* strided: zonerange (zonesize if 0) */
	uint64_t skip;	       /* zoneskip */
	uint64_t capacity;     /* zbd: zonecapacity (zonesize if 0) */
	uint64_t real;	       /* the file's size */
	uint64_t found;	       /* zbd: its size before the job laid it out */
	uint64_t start;	       /* the region's first byte */
	uint64_t io_size;      /* the region's bytes */
	int random;	       /* the offsets are drawn */
	int mixed;	       /* reads and writes (fio's td_rw) */
	int writes;	       /* the job writes (td_write) */
	int reads_only;	       /* the job only reads (TD_DDIR_READ) */
	int verify;	       /* verify is set */
	int read_beyond_wp;    /* zbd */
	uint32_t max_open;     /* zbd: max_open_zones (0: no limit) */
	uint32_t job_max_open; /* zbd: job_max_open_zones */
	double reset_threshold, reset_frequency;
	uint64_t min_bs[SB_DDIR_COUNT];
	uint64_t *zone_bytes; /* the job's count; NULL: the file's own */
	uint64_t *resets;     /* the worker's count of zone resets, or NULL */
	const char *path;     /* zbd: the file, which names its device */
	struct sb_zbd_devs *devs; /* zbd: the run's devices */
};

struct sb_zbd_zone {
	uint64_t start, wp;
	int open;
};

/*
 * An emulated zoned device: one file's zones, shared by every job of the
 * run that names the file, as fio shares a file's zone information. Its
 * fields are under mu; a job's own place in it is struct sb_zones.
 */
struct sb_zbd_dev {
	char *path;
	pthread_mutex_t mu;
	uint64_t size;	       /* zonesize */
	uint64_t cap;	       /* the zones' capacity */
	struct sb_zbd_zone *z; /* [nr + 1]: the zones, then a sentinel */
	uint32_t nr;
	/* The open zones in the order they opened, as fio's array (which
	 * keeps what a close shifted past the count). */
	uint32_t *open_zones;
	uint32_t nopen;
	uint32_t max_open;  /* the first job's max_open_zones */
	uint64_t data;	    /* bytes below the write pointers */
	uint32_t write_cnt; /* writes until zone_reset_frequency resets */
	struct sb_zbd_dev *next;
};

/* The run's emulated devices; created and freed on the main thread. */
struct sb_zbd_devs {
	pthread_mutex_t mu;
	struct sb_zbd_dev *head;
};

struct sb_zbd_devs *sb_zbd_devs_new(void);
void sb_zbd_devs_free(struct sb_zbd_devs *r);

struct sb_zones {
	struct sb_zones_cfg c;
	uint64_t file_off;	     /* fio's f->file_offset: moves by zone */
	uint64_t pos[SB_DDIR_COUNT]; /* fio's f->last_pos */
	/* Bytes done in this zone: the job's count (fio's td->zone_bytes),
	 * which its files share, or own_bytes. */
	uint64_t *zone_bytes, own_bytes;
	/* zbd: the device, and the job's zones in it. */
	struct sb_zbd_dev *dev;
	int own_dev; /* dev is this job's alone (no run to share it) */
	uint32_t min_zone, max_zone;
	uint32_t job_nopen; /* fio's td->num_open_zones */
	int err;	    /* a failure that ended the I/O; 0: none */
	char msg[200];
};

/* What sb_zones_place says of an I/O. */
enum {
	SB_ZONES_OK = 0,
	SB_ZONES_EOF = 1, /* no I/O: the loop ends (fio's io_u_eof) */
};

/* For a pattern's phase; 0, or -EINVAL / -ENOMEM with msg[] filled. The
 * zbd region is aligned to zones as fio aligns it. */
int sb_zones_init(struct sb_zones *z, const struct sb_zones_cfg *c);
void sb_zones_free(struct sb_zones *z);

/* The region a random offset is drawn in (relative to file_off). */
uint64_t sb_zones_draw_span(const struct sb_zones *z);

/* A new loop of the pattern: the region's start again (fio's
 * clear_io_state, then fio_file_reset). */
void sb_zones_loop(struct sb_zones *z);

/* Before the offset of an I/O in direction *d (which zbd may turn from a
 * read into a write): moves to the next zone when this one is done.
 * Returns 1 when the random map must start over (a new zone range). */
int sb_zones_setup(struct sb_zones *z, uint32_t *d);

/* The next sequential offset of direction d, relative to file_off. */
uint64_t sb_zones_seq(const struct sb_zones *z, uint32_t d, int64_t seq_add);

/* rel (from file_off) and *len as drawn; *off and *len as issued. For zbd
 * the I/O moves to a write pointer or below one, and the zone's write
 * pointer moves past a write. SB_ZONES_OK, or SB_ZONES_EOF (err set when
 * it is a failure). */
int sb_zones_place(struct sb_zones *z, uint32_t d, uint64_t rel, uint64_t *off,
		   uint64_t *len);

#endif
