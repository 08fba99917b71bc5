/*
 * sg: SCSI commands through the Linux SG_IO ioctl, as fio's sg engine
 * sends them: READ and WRITE (10) below 2^32 blocks and (16) above, WRITE
 * AND VERIFY, WRITE SAME, VERIFY, UNMAP for trims and SYNCHRONIZE CACHE
 * for syncs, to a SCSI generic device (/dev/sgN) or a block device whose
 * driver answers SG_IO (sd). The target's block size and capacity come
 * from READ CAPACITY (10, then 16). One command at a time, with SG_IO
 * waiting for it; fio sends to /dev/sgN asynchronously with write(2) and
 * read(2), here each I/O is one SG_IO.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/engine.h>

#define SG_MAX_10B_LBA 0xFFFFFFFFULL
#define SG_TIMEOUT_MS  30000 /* fio's SCSI_TIMEOUT_MS */
#ifndef SGV4_FLAG_HIPRI
#define SGV4_FLAG_HIPRI 0x800
#endif

/* sg_write_mode's choices, in the table's order (fio's names). */
#define SG_W_WRITE     0
#define SG_W_WAV       1 /* write_and_verify */
#define SG_W_VERIFY    2 /* the same, fio's old name */
#define SG_W_SAME      3 /* write_same */
#define SG_W_SAME_OLD  4 /* same */
#define SG_W_SAME_NDOB 5
#define SG_W_BYTCHK_00 6
#define SG_W_BYTCHK_01 7
#define SG_W_BYTCHK_11 8
#define SG_W_STREAM    9

struct sg_opts {
	int32_t hipri;
	int32_t readfua;
	int32_t writefua;
	int32_t write_mode;
	int64_t stream_id;
};

struct sg_state {
	uint32_t bs;
	uint64_t blocks;
};

static const char *const sg_write_modes[] = {"write",
					     "write_and_verify",
					     "verify",
					     "write_same",
					     "same",
					     "write_same_ndob",
					     "verify_bytchk_00",
					     "verify_bytchk_01",
					     "verify_bytchk_11",
					     "write_stream",
					     NULL};

static const struct sb_option sg_options[] = {
	{.name = "hipri",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct sg_opts, hipri),
	 .help = "Use polled IO completions"},
	{.name = "readfua",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct sg_opts, readfua),
	 .def = "0",
	 .help = "Set FUA flag (force unit access) for all Read operations"},
	{.name = "writefua",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct sg_opts, writefua),
	 .def = "0",
	 .help = "Set FUA flag (force unit access) for all Write operations"},
	{.name = "sg_write_mode",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct sg_opts, write_mode),
	 .def = "write",
	 .choices = sg_write_modes,
	 .help = "Specify SCSI WRITE mode"},
	{.name = "stream_id",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct sg_opts, stream_id),
	 .def = "0",
	 .min = 0,
	 .max = 65535,
	 .help = "Stream ID for WRITE STREAM(16) commands"},
	SB_OPTION_END,
};

/* WRITE STREAM needs a stream opened with STREAM CONTROL first (fio
 * 3.33's fio_sgio_stream_control); not carried over. */
static int sg_check(struct sb_env *env, const char **option)
{
	const struct sg_opts *o = env->opts;

	if (o->write_mode == SG_W_STREAM) {
		*option = "sg_write_mode";
		return env->host->error(env->handle, -EOPNOTSUPP,
					"sg_write_mode=write_stream is not "
					"supported");
	}
	return 0;
}

static void sg_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void sg_be32(uint8_t *p, uint32_t v)
{
	sg_be16(p, (uint16_t)(v >> 16));
	sg_be16(p + 2, (uint16_t)v);
}

static void sg_be64(uint8_t *p, uint64_t v)
{
	sg_be32(p, (uint32_t)(v >> 32));
	sg_be32(p + 4, (uint32_t)v);
}

static uint32_t sg_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * One command; 0, -errno for SG_IO itself, or -EIO with the sense key in
 * *why for a command the device answered with CHECK CONDITION (or a host
 * or driver error).
 */
static int sg_do(int fd, uint8_t *cdb, uint8_t len, int dir, void *buf,
		 uint32_t buflen, uint32_t flags, char *why, size_t whylen)
{
	uint8_t sense[64] = {0};
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.cmdp = cdb,
		.cmd_len = len,
		.sbp = sense,
		.mx_sb_len = sizeof(sense),
		.dxfer_direction = dir,
		.dxferp = buf,
		.dxfer_len = buflen,
		.timeout = SG_TIMEOUT_MS,
		.flags = flags,
	};

	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	if (!(h.info & SG_INFO_CHECK))
		return 0;
	if (why)
		snprintf(why, whylen,
			 "SCSI status 0x%x, host 0x%x, driver 0x%x, sense key "
			 "0x%x, asc 0x%x, ascq 0x%x",
			 h.status, h.host_status, h.driver_status,
			 h.sb_len_wr > 2 ? sense[2] & 0xf : 0,
			 h.sb_len_wr > 12 ? sense[12] : 0,
			 h.sb_len_wr > 13 ? sense[13] : 0);
	return -EIO;
}

/* fio_sgio_read_capacity(): READ CAPACITY (10), and (16) when the last
 * block does not fit 32 bits or (10) is refused. */
static int sg_capacity(int fd, uint32_t *bs, uint64_t *blocks, char *why,
		       size_t whylen)
{
	uint8_t cdb[16] = {0x25}, buf[32] = {0};
	uint64_t last = SG_MAX_10B_LBA;
	int rc = sg_do(fd, cdb, 10, SG_DXFER_FROM_DEV, buf, sizeof(buf), 0, why,
		       whylen);

	if (rc && rc != -EIO)
		return rc;
	if (!rc) {
		last = sg_get32(buf);
		*bs = sg_get32(buf + 4);
	}
	if (last == SG_MAX_10B_LBA) {
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = 0x9e; /* SERVICE ACTION IN (16) */
		cdb[1] = 0x10; /* READ CAPACITY (16) */
		sg_be32(cdb + 10, sizeof(buf));
		if ((rc = sg_do(fd, cdb, 16, SG_DXFER_FROM_DEV, buf,
				sizeof(buf), 0, why, whylen)))
			return rc;
		last = (uint64_t)sg_get32(buf) << 32 | sg_get32(buf + 4);
		*bs = sg_get32(buf + 8);
	}
	if (!*bs)
		return -EIO;
	*blocks = last + 1;
	return 0;
}

/*
 * The target must be a SCSI generic device or a block device that
 * answers SG_IO; anything else is refused here, at run time, naming it,
 * as fio's type check refuses it.
 */
static int sg_open(struct sb_env *env, struct sb_file *f)
{
	struct sg_state *s = env->state;
	const struct sb_host *h = env->host;
	char why[160] = "";
	struct stat st;
	int fd, ver, rc;

	fd = open(f->path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == EACCES || errno == EROFS))
		fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return h->error(env->handle, -errno, "cannot open %s: %s",
				f->path, strerror(errno));
	f->fd = fd;
	if (fstat(fd, &st) < 0)
		return h->error(env->handle, -errno, "fstat %s: %s", f->path,
				strerror(errno));
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return h->error(env->handle, -EINVAL,
				"ioengine sg only works on block or character "
				"devices: %s is neither",
				f->path);
	if (S_ISCHR(st.st_mode) && ioctl(fd, SG_GET_VERSION_NUM, &ver) < 0)
		return h->error(env->handle, -ENOTTY,
				"%s is not a SCSI generic device "
				"(SG_GET_VERSION_NUM: %s)",
				f->path, strerror(errno));
	rc = sg_capacity(fd, &s->bs, &s->blocks, why, sizeof(why));
	if (rc == -EIO)
		return h->error(env->handle, rc,
				"READ CAPACITY on %s failed: %s", f->path, why);
	if (rc)
		return h->error(env->handle, rc,
				"%s does not answer SG_IO (%s): it is not a "
				"SCSI device",
				f->path, strerror(-rc));
	f->real_size = s->blocks * s->bs;
	return 0;
}

static int sg_close(struct sb_env *env, struct sb_file *f)
{
	(void)env;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	return 0;
}

/* LBA and block count at CDB byte 2 and 7 (10) or 2 and 10 (16). */
static void sg_lba(uint8_t *cdb, uint64_t lba, uint64_t n, int big)
{
	if (!big) {
		sg_be32(cdb + 2, (uint32_t)lba);
		sg_be16(cdb + 7, (uint16_t)n);
	} else {
		sg_be64(cdb + 2, lba);
		sg_be32(cdb + 10, (uint32_t)n);
	}
}

/* fio_sgio_prep()'s write commands: opcode (10, 16), byte 1's bits, and
 * how much data goes out. */
static void sg_write_cdb(const struct sg_opts *o, uint8_t *cdb, int big,
			 uint32_t bs, uint32_t *len)
{
	switch (o->write_mode) {
	case SG_W_WAV:
	case SG_W_VERIFY:
		cdb[0] = big ? 0x8e : 0x2e;
		break;
	case SG_W_SAME:
	case SG_W_SAME_OLD:
		cdb[0] = big ? 0x93 : 0x41;
		*len = bs;
		break;
	case SG_W_SAME_NDOB:
		cdb[0] = 0x93;
		cdb[1] |= 0x01;
		*len = 0;
		break;
	case SG_W_BYTCHK_00:
	case SG_W_BYTCHK_01:
	case SG_W_BYTCHK_11:
		cdb[0] = big ? 0x8f : 0x2f;
		cdb[1] |= o->write_mode == SG_W_BYTCHK_01   ? 0x02
			  : o->write_mode == SG_W_BYTCHK_11 ? 0x06
							    : 0;
		*len = o->write_mode == SG_W_BYTCHK_00	 ? 0
		       : o->write_mode == SG_W_BYTCHK_11 ? bs
							 : *len;
		break;
	default:
		cdb[0] = big ? 0x8a : 0x2a;
		if (o->writefua)
			cdb[1] |= 0x08;
	}
}

static int sg_queue(struct sb_env *env, struct sb_io *io)
{
	const struct sg_opts *o = env->opts;
	const struct sg_state *s = env->state;
	uint8_t cdb[16] = {0}, unmap[24] = {0};
	uint64_t lba = io->offset / s->bs, n = io->length / s->bs;
	int big = lba >= SG_MAX_10B_LBA, dir = SG_DXFER_NONE, rc;
	uint32_t len = 0, flags = 0;
	void *buf = NULL;

	if (io->offset % s->bs || io->length % s->bs) {
		io->result = -EINVAL; /* fio: not sector aligned */
		return SB_Q_COMPLETED;
	}
	switch (io->ddir) {
	case SB_DDIR_READ:
		cdb[0] = big ? 0x88 : 0x28;
		if (o->readfua)
			cdb[1] |= 0x08;
		dir = SG_DXFER_FROM_DEV, buf = io->buf;
		len = (uint32_t)io->length;
		flags = o->hipri ? SGV4_FLAG_HIPRI : 0;
		sg_lba(cdb, lba, n, big);
		break;
	case SB_DDIR_WRITE:
		dir = SG_DXFER_TO_DEV, buf = io->buf;
		len = (uint32_t)io->length;
		sg_write_cdb(o, cdb, big, s->bs, &len);
		flags = o->hipri && o->write_mode == SG_W_WRITE
				? SGV4_FLAG_HIPRI
				: 0;
		sg_lba(cdb, lba, n, big || o->write_mode == SG_W_SAME_NDOB);
		if (!len)
			dir = SG_DXFER_NONE, buf = NULL;
		break;
	case SB_DDIR_TRIM:
		/* UNMAP with one block descriptor (fio gathers up to
		 * iodepth of them in one command). */
		cdb[0] = 0x42;
		sg_be16(cdb + 7, sizeof(unmap));
		sg_be16(unmap, sizeof(unmap) - 2);
		sg_be16(unmap + 2, 16);
		sg_be64(unmap + 8, lba);
		sg_be32(unmap + 16, (uint32_t)n);
		dir = SG_DXFER_TO_DEV, buf = unmap, len = sizeof(unmap);
		big = 0;
		break;
	default:
		/* SYNCHRONIZE CACHE of the whole device. */
		cdb[0] = big ? 0x91 : 0x35;
	}
	rc = sg_do(io->file->fd, cdb,
		   cdb[0] == 0x42 ? 10 : (big || cdb[0] == 0x93 ? 16 : 10), dir,
		   buf, len, flags, NULL, 0);
	io->result = rc				 ? rc
		     : io->ddir >= SB_DDIR_COUNT ? 0
						 : (int64_t)io->length;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops sg_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_DIRECT | SB_ENGINE_TRIM,
	.state_size = sizeof(struct sg_state),
	.open_file = sg_open,
	.close_file = sg_close,
	.queue = sg_queue,
	.check = sg_check,
};

SB_PLUGIN_DEFINE(sg, SB_KIND_ENGINE, &sg_ops, .license = "MIT",
		 .description = "SCSI READ/WRITE through SG_IO on /dev/sgN and "
				"SCSI block devices",
		 .options = sg_options, .options_size = sizeof(struct sg_opts));
