#include "zones.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../options/job_options.h"

#define NO_ZONE UINT32_MAX

SB_PRINTF(3, 4)
static int zfail(struct sb_zones *z, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(z->msg, sizeof(z->msg), fmt, ap);
	va_end(ap);
	z->err = code;
	return code;
}

static uint64_t cap_of(const struct sb_zones *z)
{
	return z->dev->cap;
}

/* fio's zbd_offset_to_zone_idx: past the end, the sentinel. */
static uint32_t zone_idx(const struct sb_zones *z, uint64_t off)
{
	uint64_t i = off / z->dev->size;

	return i < z->dev->nr ? (uint32_t)i : z->dev->nr;
}

/* The sentinel has no capacity and, as a zone, ends a zone further on. */
static uint64_t cap_end(const struct sb_zones *z, uint32_t i)
{
	return z->dev->z[i].start + (i < z->dev->nr ? cap_of(z) : 0);
}

static uint64_t zone_end(const struct sb_zones *z, uint32_t i)
{
	return i < z->dev->nr ? z->dev->z[i + 1].start
			      : z->dev->z[i].start + z->c.size;
}

/* fio's is_valid_offset, against the region as it stands. */
static int valid_off(const struct sb_zones *z, uint64_t off)
{
	return off - z->file_off < z->c.io_size;
}

static int zone_full(const struct sb_zones *z, uint32_t i, uint64_t need)
{
	return z->dev->z[i].wp + need > cap_end(z, i);
}

/* fio's zbd_file_reset, at each open of the file: the bytes written
 * counted again, the zones emptied first under verify, the reset
 * frequency's count started over. */
static void zbd_file_reset(struct sb_zones *z);

static void dev_free(struct sb_zbd_dev *v)
{
	if (!v)
		return;
	pthread_mutex_destroy(&v->mu);
	free(v->z);
	free(v->open_zones);
	free(v->path);
	free(v);
}

/* fio's init_zone_info: zones of zonesize over the file as it is before
 * the job lays it out, all empty. */
static int dev_make(struct sb_zones *z, struct sb_zbd_dev **out)
{
	const struct sb_zones_cfg *c = &z->c;
	uint64_t size = c->size, cap = c->capacity ? c->capacity : size;
	struct sb_zbd_dev *v;

	if (!size)
		return zfail(z, -EINVAL,
			     "zonemode=zbd on a file that is not a zoned "
			     "device needs zonesize");
	if (size < 512)
		return zfail(z, -EINVAL,
			     "zonesize must be at least 512 bytes for "
			     "zonemode=zbd");
	if (cap > size)
		return zfail(z, -EINVAL,
			     "zonecapacity %llu is larger than zonesize %llu",
			     (unsigned long long)cap, (unsigned long long)size);
	/* fio makes the zones before it lays the file out: a file that is
	 * not there yet has none. */
	if (c->found < size)
		return zfail(z, -EINVAL,
			     "the file's size %llu is smaller than zonesize "
			     "%llu (fio makes the zones before it lays the "
			     "file out)",
			     (unsigned long long)c->found,
			     (unsigned long long)size);
	v = calloc(1, sizeof(*v));
	if (!v)
		return zfail(z, -ENOMEM, "out of memory for the zones");
	pthread_mutex_init(&v->mu, NULL);
	v->size = size;
	v->cap = cap;
	v->max_open = c->max_open;
	v->nr = (uint32_t)((c->found + size - 1) / size);
	v->z = calloc((size_t)v->nr + 1, sizeof(*v->z));
	v->open_zones = calloc(SB_ZBD_MAX_OPEN, sizeof(*v->open_zones));
	v->path = strdup(c->path ? c->path : "");
	if (!v->z || !v->open_zones || !v->path) {
		dev_free(v);
		return zfail(z, -ENOMEM, "out of memory for the zones");
	}
	for (uint32_t i = 0; i <= v->nr; i++)
		v->z[i].start = v->z[i].wp = (uint64_t)i * size;
	*out = v;
	return 0;
}

/* The file's device: the one an earlier job made, or a new one. */
static int dev_get(struct sb_zones *z)
{
	struct sb_zbd_devs *r = z->c.devs;
	struct sb_zbd_dev *v;
	int rc = 0;

	if (!r) {
		z->own_dev = 1;
		return dev_make(z, &z->dev);
	}
	pthread_mutex_lock(&r->mu);
	for (v = r->head; v && strcmp(v->path, z->c.path); v = v->next)
		;
	if (!v) {
		rc = dev_make(z, &v);
		if (!rc) {
			v->next = r->head;
			r->head = v;
		}
	}
	pthread_mutex_unlock(&r->mu);
	z->dev = v;
	return rc;
}

/* fio's zbd_zone_align_file_sizes: a job that writes covers whole zones,
 * its start rounded up and its end down. */
static int align_region(struct sb_zones *z)
{
	const struct sb_zones_cfg *c = &z->c;
	uint64_t size = z->dev->size, new_off, end;
	uint32_t zi = zone_idx(z, z->file_off);

	if (z->file_off >= c->real || !c->io_size)
		return 0;
	if (c->skip % size)
		return zfail(z, -EINVAL,
			     "zoneskip %llu is not a multiple of the zone size "
			     "%llu",
			     (unsigned long long)c->skip,
			     (unsigned long long)size);
	if (z->file_off != z->dev->z[zi].start && !c->reads_only) {
		new_off = zone_end(z, zi);
		if (new_off >= z->file_off + c->io_size)
			return zfail(z, -EINVAL,
				     "io_size must be at least one zone");
		z->c.io_size -= new_off - z->file_off;
		z->file_off = z->c.start = new_off;
	}
	end = z->dev->z[zone_idx(z, z->file_off + z->c.io_size)].start;
	if (!c->reads_only && z->file_off + z->c.io_size != end) {
		if (end <= z->file_off)
			return zfail(z, -EINVAL,
				     "io_size must be at least one zone");
		z->c.io_size = end - z->file_off;
	}
	return 0;
}

static int zbd_init(struct sb_zones *z)
{
	const struct sb_zones_cfg *c = &z->c;
	int rc = dev_get(z);

	if (rc)
		return rc;
	if (c->size != z->dev->size)
		return zfail(z, -EINVAL,
			     "zonesize %llu does not match the zone size %llu "
			     "an earlier job gave the file",
			     (unsigned long long)c->size,
			     (unsigned long long)z->dev->size);
	if (c->max_open && c->max_open != z->dev->max_open)
		return zfail(z, -EINVAL,
			     "max_open_zones=%u differs from the %u of an "
			     "earlier job on the same file, as fio refuses",
			     c->max_open, z->dev->max_open);
	if (c->job_max_open && !z->dev->max_open)
		return zfail(z, -EINVAL,
			     "job_max_open_zones needs max_open_zones, as in "
			     "fio");
	rc = align_region(z);
	if (rc)
		return rc;
	z->min_zone = zone_idx(z, z->file_off);
	z->max_zone = zone_idx(z, z->file_off + z->c.io_size);
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		z->pos[d] = z->file_off;
	pthread_mutex_lock(&z->dev->mu);
	zbd_file_reset(z);
	pthread_mutex_unlock(&z->dev->mu);
	return 0;
}

int sb_zones_init(struct sb_zones *z, const struct sb_zones_cfg *c)
{
	sb_zones_free(z);
	memset(z, 0, sizeof(*z));
	z->c = *c;
	z->zone_bytes = c->zone_bytes ? c->zone_bytes : &z->own_bytes;
	if (z->c.mode == SB_ZONE_STRIDED && !z->c.range)
		z->c.range = z->c.size;
	z->file_off = c->start;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		z->pos[d] = z->file_off;
	if (z->c.mode == SB_ZONE_ZBD)
		return zbd_init(z);
	return 0;
}

void sb_zones_free(struct sb_zones *z)
{
	if (z->own_dev)
		dev_free(z->dev);
	z->dev = NULL;
	z->own_dev = 0;
}

struct sb_zbd_devs *sb_zbd_devs_new(void)
{
	struct sb_zbd_devs *r = calloc(1, sizeof(*r));

	if (r)
		pthread_mutex_init(&r->mu, NULL);
	return r;
}

void sb_zbd_devs_free(struct sb_zbd_devs *r)
{
	if (!r)
		return;
	while (r->head) {
		struct sb_zbd_dev *v = r->head;

		r->head = v->next;
		dev_free(v);
	}
	pthread_mutex_destroy(&r->mu);
	free(r);
}

uint64_t sb_zones_draw_span(const struct sb_zones *z)
{
	return z->c.mode == SB_ZONE_STRIDED ? z->c.range : z->c.io_size;
}

/* --- the open zones (fio's zbd_open_zone, zbd_close_zone) ------------- */

static int open_zone(struct sb_zones *z, uint32_t i)
{
	if (z->c.verify && zone_full(z, i, z->c.min_bs[SB_DDIR_WRITE]))
		return 0;
	if (!z->dev->max_open)
		return 1;
	if (z->dev->z[i].open)
		return z->dev->z[i].wp < cap_end(z, i);
	if (z->c.job_max_open && z->job_nopen >= z->c.job_max_open)
		return 0;
	if (z->dev->nopen >= z->dev->max_open)
		return 0;
	z->dev->open_zones[z->dev->nopen++] = i;
	z->dev->z[i].open = 1;
	z->job_nopen++;
	return 1;
}

static void close_zone(struct sb_zones *z, uint32_t i)
{
	uint32_t k;

	if (!z->dev->z[i].open)
		return;
	for (k = 0; k < z->dev->nopen && z->dev->open_zones[k] != i; k++)
		;
	if (k == z->dev->nopen)
		return;
	/* As fio's memmove: the last slot keeps its value. */
	memmove(z->dev->open_zones + k, z->dev->open_zones + k + 1,
		(SB_ZBD_MAX_OPEN - (k + 1)) * sizeof(*z->dev->open_zones));
	z->dev->nopen--;
	z->dev->z[i].open = 0;
	/* As fio's td->num_open_zones: the job that closes it counts it. */
	if (z->job_nopen)
		z->job_nopen--;
}

/* An emulated zone is reset by moving its write pointer alone: fio sends
 * nothing to a target that is not a zoned device. */
static void reset_zone(struct sb_zones *z, uint32_t i)
{
	uint64_t data = z->dev->z[i].wp - z->dev->z[i].start;

	if (!data)
		return;
	z->dev->data -= data;
	z->dev->z[i].wp = z->dev->z[i].start;
	if (z->c.resets)
		(*z->c.resets)++;
}

static void reset_write_cnt(struct sb_zones *z)
{
	double f = z->c.reset_frequency;

	z->dev->write_cnt =
		f > 0 ? (1.0 / f < (double)UINT_MAX ? (uint32_t)(1.0 / f)
						    : UINT_MAX)
		      : UINT_MAX;
}

static void zbd_file_reset(struct sb_zones *z)
{
	if (!z->c.writes)
		return;
	z->dev->data = 0;
	for (uint32_t i = z->min_zone; i < z->max_zone; i++)
		z->dev->data += z->dev->z[i].wp - z->dev->z[i].start;
	if (z->c.verify)
		for (uint32_t i = z->min_zone; i < z->max_zone; i++) {
			close_zone(z, i);
			reset_zone(z, i);
		}
	reset_write_cnt(z);
}

void sb_zones_loop(struct sb_zones *z)
{
	z->file_off = z->c.start;
	*z->zone_bytes = 0;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		z->pos[d] = z->file_off;
	if (z->c.mode == SB_ZONE_ZBD) {
		pthread_mutex_lock(&z->dev->mu);
		zbd_file_reset(z);
		pthread_mutex_unlock(&z->dev->mu);
	}
}

/* --- moving through the zones ------------------------------------------ */

/* The next zone of the region, from its start again past the file's end. */
static void next_zone(struct sb_zones *z, uint64_t step, uint32_t d)
{
	*z->zone_bytes = 0;
	z->file_off += step;
	if (z->file_off >= z->c.real)
		z->file_off = z->c.start;
	z->pos[d] = z->file_off;
}

/* fio's setup_strided_zone_mode. */
static int strided_setup(struct sb_zones *z, uint32_t d)
{
	if (*z->zone_bytes >= z->c.size)
		next_zone(z, z->c.range + z->c.skip, d);
	/* zonesize above zonerange: the same range again. */
	if (z->pos[d] >= z->file_off + z->c.range)
		z->pos[d] = z->file_off;
	if (*z->zone_bytes % z->c.range)
		return 0;
	for (int k = 0; k < SB_DDIR_COUNT; k++)
		z->pos[k] = z->file_off;
	return 1;
}

/* fio's zbd_adjust_ddir and setup_zbd_zone_mode. */
static void zbd_setup(struct sb_zones *z, uint32_t *d)
{
	uint32_t i;

	/* A mixed job's first I/O is a write when nothing is written yet:
	 * an empty zone has nothing to read. */
	if (*d == SB_DDIR_READ && z->c.mixed && !z->dev->data &&
	    !z->c.read_beyond_wp)
		*d = SB_DDIR_WRITE;
	i = zone_idx(z, z->pos[*d]);
	if (cap_of(z) < z->c.size && !z->c.random && *d == SB_DDIR_WRITE &&
	    i < z->dev->nr && z->pos[*d] >= cap_end(z, i))
		z->pos[*d] = zone_end(z, i);
	if (z->c.random || !z->c.skip)
		return;
	if (*z->zone_bytes >= z->c.size || z->pos[*d] >= zone_end(z, i) ||
	    (*d == SB_DDIR_READ && !z->c.read_beyond_wp &&
	     z->pos[*d] >= z->dev->z[i].wp))
		next_zone(z, z->c.size + z->c.skip, *d);
}

int sb_zones_setup(struct sb_zones *z, uint32_t *d)
{
	if (z->c.mode == SB_ZONE_STRIDED)
		return strided_setup(z, *d);
	pthread_mutex_lock(&z->dev->mu);
	zbd_setup(z, d);
	pthread_mutex_unlock(&z->dev->mu);
	return 0;
}

uint64_t sb_zones_seq(const struct sb_zones *z, uint32_t d, int64_t seq_add)
{
	uint64_t rel;

	if (z->pos[d] >= z->c.real)
		return UINT64_MAX;
	rel = z->pos[d] - z->file_off;
	if (rel && seq_add) {
		int64_t r = (int64_t)rel + seq_add;

		/* fio's get_next_seq_offset wraps a hole past the end. */
		if (r < 0 || (uint64_t)r >= z->c.real)
			r = seq_add > 0 ? (int64_t)z->file_off : 0;
		rel = (uint64_t)r;
	}
	return rel;
}

/* --- zbd: where an I/O goes (fio's zbd_adjust_block) -------------------- */

/* fio's zbd_find_zone: the next zone with min_bytes written, and for a
 * random job the nearest one either side. */
static uint32_t find_zone(const struct sb_zones *z, uint64_t min_bytes,
			  uint32_t zb)
{
	int64_t z1 = (int64_t)zb + 1, z2 = (int64_t)zb - 1;
	int64_t zl = z->max_zone, zf = z->min_zone;

	for (; z1 < zl || z2 >= zf; z1++, z2--) {
		if (z1 < zl) {
			if (z->dev->z[z1].start + min_bytes <= z->dev->z[z1].wp)
				return (uint32_t)z1;
		} else if (!z->c.random) {
			break;
		}
		if (z->c.random && z2 >= zf &&
		    z->dev->z[z2].start + min_bytes <= z->dev->z[z2].wp)
			return (uint32_t)z2;
	}
	return NO_ZONE;
}

/* fio's pick_random_zone_idx. */
static uint32_t pick_open(const struct sb_zones *z, uint64_t off)
{
	return (uint32_t)((off - z->file_off) * z->dev->nopen / z->c.io_size);
}

/* fio's zbd_convert_to_open_zone: a zone this write can go to, among the
 * open ones or the next that opens. */
static uint32_t convert_to_open(struct sb_zones *z, uint64_t off)
{
	uint64_t min_bs = z->c.min_bs[SB_DDIR_WRITE];
	int limited = z->dev->max_open || z->c.job_max_open;
	uint32_t zi, k;

	zi = limited ? z->dev->open_zones[pick_open(z, off)] : zone_idx(z, off);
	if (zi < z->min_zone)
		zi = z->min_zone;
	else if (zi >= z->max_zone)
		zi = z->max_zone - 1;
	if (limited) {
		if (!z->dev->nopen)
			goto open_other;
		for (;;) {
			uint32_t pick = pick_open(z, off), t = pick, found;

			for (k = 0; k < z->dev->nopen; k++, t++) {
				if (t >= z->dev->nopen)
					t = 0;
				if (z->dev->open_zones[t] >= z->min_zone &&
				    z->dev->open_zones[t] < z->max_zone)
					break;
			}
			if (k == z->dev->nopen)
				return NO_ZONE;
			found = z->dev->open_zones[t];
			if (found == zi)
				break;
			zi = found;
		}
	}
	if (z->dev->z[zi].wp + min_bs <= cap_end(z, zi))
		return zi;
open_other:
	for (uint64_t n = z->c.io_size / z->c.size; n > 0; n--) {
		zi++;
		if (!valid_off(z, z->dev->z[zi].start))
			zi = z->min_zone;
		if (z->dev->z[zi].open)
			continue;
		if (open_zone(z, zi))
			return zi;
	}
	for (k = 0; k < z->dev->nopen; k++) {
		zi = z->dev->open_zones[k];
		if (zi < z->min_zone || zi >= z->max_zone)
			continue;
		if (z->dev->z[zi].wp + min_bs <= cap_end(z, zi))
			return zi;
	}
	return NO_ZONE;
}

static int adjust_read(struct sb_zones *z, uint64_t *off, uint64_t *len)
{
	uint64_t min_bs = z->c.min_bs[SB_DDIR_READ], range, n;
	uint32_t zb = zone_idx(z, *off), orig = zb;

	if (z->c.read_beyond_wp)
		return SB_ZONES_OK;
	range = z->dev->z[zb].wp - z->dev->z[zb].start;
	if (range < min_bs ||
	    (!z->c.random && *off + min_bs > z->dev->z[zb].wp)) {
		zb = find_zone(z, min_bs, zb);
		if (zb == NO_ZONE)
			return SB_ZONES_EOF;
		range = z->dev->z[zb].wp - z->dev->z[zb].start;
		if (!z->c.random)
			*off = z->dev->z[zb].start;
	}
	/* Within the zone's data, as long as it can be, still random. */
	if (range <= *len)
		*off = z->dev->z[zb].start;
	else if (z->c.random)
		*off = z->dev->z[zb].start +
		       ((*off - z->dev->z[orig].start) % (range - *len)) /
			       min_bs * min_bs;
	n = z->dev->z[zb].wp - *off < *len ? z->dev->z[zb].wp - *off : *len;
	n = n / min_bs * min_bs;
	if (n < *len)
		*len = n;
	return SB_ZONES_OK;
}

static int adjust_write(struct sb_zones *z, uint64_t *off, uint64_t *len)
{
	uint64_t min_bs = z->c.min_bs[SB_DDIR_WRITE], n;
	uint32_t zb = zone_idx(z, *off);
	int reset = 0;

	if (*len > z->c.size) {
		zfail(z, -EINVAL,
		      "a write of %llu bytes is larger than zonesize %llu",
		      (unsigned long long)*len, (unsigned long long)z->c.size);
		return SB_ZONES_EOF;
	}
	if (!open_zone(z, zb)) {
		zb = convert_to_open(z, *off);
		if (zb == NO_ZONE)
			return SB_ZONES_EOF;
	}
	if (z->c.reset_frequency > 0 &&
	    (double)z->dev->data >=
		    (double)z->c.io_size * z->c.reset_threshold) {
		if (z->dev->write_cnt)
			z->dev->write_cnt--;
		if (!z->dev->write_cnt) {
			reset_write_cnt(z);
			reset = 1;
		}
	}
	if (reset || zone_full(z, zb, min_bs)) {
		reset_zone(z, zb);
		if (cap_of(z) < min_bs) {
			zfail(z, -EINVAL,
			      "zonecapacity %llu is smaller than the block "
			      "size %llu",
			      (unsigned long long)cap_of(z),
			      (unsigned long long)min_bs);
			return SB_ZONES_EOF;
		}
	}
	*off = z->dev->z[zb].wp;
	if (!valid_off(z, *off))
		return SB_ZONES_EOF;
	n = cap_end(z, zb) - *off < *len ? cap_end(z, zb) - *off : *len;
	n = n / min_bs * min_bs;
	if (n == *len)
		return SB_ZONES_OK;
	if (n >= min_bs) {
		*len = n;
		return SB_ZONES_OK;
	}
	zfail(z, -EIO,
	      "zone remainder %llu is smaller than the block size %llu",
	      (unsigned long long)(cap_end(z, zb) - *off),
	      (unsigned long long)min_bs);
	return SB_ZONES_EOF;
}

static int adjust_trim(struct sb_zones *z, uint64_t *off)
{
	uint32_t zb = zone_idx(z, *off);

	if (!z->c.random || z->dev->z[zb].wp > z->dev->z[zb].start)
		return SB_ZONES_OK;
	zb = find_zone(z, 1, zb);
	if (zb == NO_ZONE)
		return SB_ZONES_EOF;
	*off = z->dev->z[zb].start;
	return SB_ZONES_OK;
}

/* fio's zbd_queue_io once the write is issued, and zbd_end_zone_io: a
 * write that fills its zone closes it. */
static void zbd_issued(struct sb_zones *z, uint32_t d, uint64_t off,
		       uint64_t len)
{
	uint32_t i = zone_idx(z, off);
	uint64_t end = cap_end(z, i);

	if (d != SB_DDIR_WRITE)
		return;
	if (off + len < end)
		end = off + len;
	if (z->dev->z[i].wp <= end)
		z->dev->data += end - z->dev->z[i].wp;
	z->dev->z[i].wp = end;
	if (off + len >= cap_end(z, i))
		close_zone(z, i);
}

/* The zbd part of sb_zones_place, under the device's lock. */
static int zbd_place(struct sb_zones *z, uint32_t d, uint64_t *off,
		     uint64_t *len)
{
	int rc;

	if (d == SB_DDIR_READ)
		rc = adjust_read(z, off, len);
	else if (d == SB_DDIR_WRITE)
		rc = adjust_write(z, off, len);
	else
		rc = adjust_trim(z, off);
	if (rc || *off + *len > z->c.real)
		return SB_ZONES_EOF;
	/* fio's zbd_do_io_u_trim: a trim resets its zone, and only that. */
	if (d == SB_DDIR_TRIM) {
		uint32_t i = zone_idx(z, *off);

		if (*off != z->dev->z[i].start) {
			zfail(z, -EINVAL,
			      "a trim at %llu is not at the start "
			      "of its zone",
			      (unsigned long long)*off);
			return SB_ZONES_EOF;
		}
		reset_zone(z, i);
	}
	*z->zone_bytes += *len;
	z->pos[d] = *off + *len;
	zbd_issued(z, d, *off, *len);
	return SB_ZONES_OK;
}

int sb_zones_place(struct sb_zones *z, uint32_t d, uint64_t rel, uint64_t *off,
		   uint64_t *len)
{
	int rc;

	if (rel >= z->c.io_size)
		return SB_ZONES_EOF;
	*off = z->file_off + rel;
	if (*off >= z->c.real)
		return SB_ZONES_EOF;
	if (z->c.mode == SB_ZONE_ZBD) {
		pthread_mutex_lock(&z->dev->mu);
		rc = zbd_place(z, d, off, len);
		pthread_mutex_unlock(&z->dev->mu);
		return rc;
	}
	if (*off + *len > z->c.real)
		return SB_ZONES_EOF;
	*z->zone_bytes += *len;
	z->pos[d] = *off + *len;
	return SB_ZONES_OK;
}
