/*
 * sb_iscsi_rw - copy a file onto an iSCSI LUN from LBA 0, or bytes from
 * LBA 0 into a file, with libiscsi: the iSCSI smoke test's client, since
 * Debian's libiscsi-bin has no dd of its own.
 *
 *   sb_iscsi_rw put URL FILE        FILE to the LUN, the tail padded with
 *                                   zeros to a whole block, then SYNCHRONIZE
 * CACHE sb_iscsi_rw get URL FILE BYTES  BYTES from the LUN into FILE
 *
 * URL is libiscsi's: iscsi://[user%password@]host[:port]/iqn/lun, with
 * ?target_user=&target_password= for mutual CHAP (or the
 * LIBISCSI_CHAP_USERNAME and LIBISCSI_CHAP_PASSWORD environment).
 * Exits 0, or 1 with a message naming the URL and what failed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

enum { CHUNK = 256 * 1024, MAX_BYTES = 64 * 1024 * 1024 };

struct lun {
	struct iscsi_context *iscsi;
	struct iscsi_url *url;
	uint32_t block;
	uint64_t blocks;
};

static int fail(const char *url, const char *what, const char *why)
{
	fprintf(stderr, "sb_iscsi_rw: %s: %s: %s\n", url, what, why);
	return 1;
}

/* Logs in and reads the block size; on failure says why and returns 1. */
static int lun_open(struct lun *l, const char *url)
{
	struct scsi_task *task;
	struct scsi_readcapacity16 *rc16;

	l->iscsi =
		iscsi_create_context("iqn.2024-01.org.storbench:sb-iscsi-rw");
	if (!l->iscsi)
		return fail(url, "iscsi_create_context", strerror(ENOMEM));
	l->url = iscsi_parse_full_url(l->iscsi, url);
	if (!l->url)
		return fail(url, "URL", iscsi_get_error(l->iscsi));
	iscsi_set_session_type(l->iscsi, ISCSI_SESSION_NORMAL);
	iscsi_set_header_digest(l->iscsi, ISCSI_HEADER_DIGEST_NONE_CRC32C);
	if (iscsi_full_connect_sync(l->iscsi, l->url->portal, l->url->lun))
		return fail(url, "login", iscsi_get_error(l->iscsi));
	task = iscsi_readcapacity16_sync(l->iscsi, l->url->lun);
	if (!task || task->status != SCSI_STATUS_GOOD) {
		if (task)
			scsi_free_scsi_task(task);
		return fail(url, "READ CAPACITY(16)",
			    iscsi_get_error(l->iscsi));
	}
	rc16 = scsi_datain_unmarshall(task);
	if (!rc16 || rc16->block_length == 0) {
		scsi_free_scsi_task(task);
		return fail(url, "READ CAPACITY(16)", "no block length");
	}
	l->block = rc16->block_length;
	l->blocks = rc16->returned_lba + 1;
	scsi_free_scsi_task(task);
	return 0;
}

static void lun_close(struct lun *l)
{
	if (l->iscsi) {
		iscsi_logout_sync(l->iscsi);
		if (l->url)
			iscsi_destroy_url(l->url);
		iscsi_destroy_context(l->iscsi);
	}
}

/* One SCSI command's result: 0, or 1 after saying what failed. */
static int task_done(struct lun *l, const char *url, const char *what,
		     struct scsi_task *task, unsigned char *out, size_t len)
{
	int bad = !task || task->status != SCSI_STATUS_GOOD;

	if (!bad && out) {
		if ((size_t)task->datain.size < len)
			bad = 1;
		else
			memcpy(out, task->datain.data, len);
	}
	if (task)
		scsi_free_scsi_task(task);
	return bad ? fail(url, what, iscsi_get_error(l->iscsi)) : 0;
}

static int put(struct lun *l, const char *url, const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	size_t len, padded, off;
	int rc = 0;

	if (!f)
		return fail(url, path, strerror(errno));
	buf = calloc(1, MAX_BYTES);
	if (!buf) {
		fclose(f);
		return fail(url, path, strerror(ENOMEM));
	}
	len = fread(buf, 1, MAX_BYTES, f);
	if (ferror(f) || !feof(f))
		rc = fail(url, path,
			  ferror(f) ? "read error" : "larger than 64 MiB");
	fclose(f);
	padded = (len + l->block - 1) / l->block * l->block;
	if (!rc && padded / l->block > l->blocks)
		rc = fail(url, path, "larger than the LUN");
	for (off = 0; !rc && off < padded; off += CHUNK) {
		size_t n = padded - off < CHUNK ? padded - off : CHUNK;

		rc = task_done(l, url, "WRITE(16)",
			       iscsi_write16_sync(l->iscsi, l->url->lun,
						  off / l->block, buf + off,
						  (uint32_t)n, (int)l->block, 0,
						  0, 0, 0, 0),
			       NULL, 0);
	}
	if (!rc)
		rc = task_done(l, url, "SYNCHRONIZE CACHE(10)",
			       iscsi_synchronizecache10_sync(
				       l->iscsi, l->url->lun, 0, 0, 0, 0),
			       NULL, 0);
	free(buf);
	return rc;
}

static int get(struct lun *l, const char *url, const char *path, size_t len)
{
	size_t padded = (len + l->block - 1) / l->block * l->block, off;
	unsigned char *buf;
	FILE *f;
	int rc = 0;

	if (padded / l->block > l->blocks)
		return fail(url, "BYTES", "more than the LUN holds");
	buf = malloc(padded ? padded : 1);
	if (!buf)
		return fail(url, path, strerror(ENOMEM));
	for (off = 0; !rc && off < padded; off += CHUNK) {
		size_t n = padded - off < CHUNK ? padded - off : CHUNK;

		rc = task_done(l, url, "READ(16)",
			       iscsi_read16_sync(l->iscsi, l->url->lun,
						 off / l->block, (uint32_t)n,
						 (int)l->block, 0, 0, 0, 0, 0),
			       buf + off, n);
	}
	if (!rc) {
		f = fopen(path, "wb");
		if (!f) {
			rc = fail(url, path, strerror(errno));
		} else {
			int short_write = fwrite(buf, 1, len, f) != len;

			if (fclose(f) != 0 || short_write)
				rc = fail(url, path, "write error");
		}
	}
	free(buf);
	return rc;
}

int main(int argc, char **argv)
{
	struct lun l = {0};
	unsigned long long bytes = 0;
	char *end;
	int rc;

	if (argc == 5 && strcmp(argv[1], "get") == 0) {
		errno = 0;
		bytes = strtoull(argv[4], &end, 10);
		if (errno || *end || end == argv[4] || bytes > MAX_BYTES) {
			fprintf(stderr,
				"sb_iscsi_rw: BYTES '%s': need 0 to %d\n",
				argv[4], MAX_BYTES);
			return 2;
		}
	} else if (argc != 4 || strcmp(argv[1], "put") != 0) {
		fprintf(stderr, "usage: sb_iscsi_rw put URL FILE | get URL "
				"FILE BYTES\n");
		return 2;
	}
	rc = lun_open(&l, argv[2]);
	if (!rc)
		rc = argv[1][0] == 'p'
			     ? put(&l, argv[2], argv[3])
			     : get(&l, argv[2], argv[3], (size_t)bytes);
	lun_close(&l);
	return rc;
}
