/*
 * probe.h - what setup learns from the LUN in its one login, for the whole
 * job: the URL taken apart (credentials kept apart from the name messages
 * use), INQUIRY's vendor, product and revision, READ CAPACITY(16)'s block
 * size and count, and whether UNMAP may be sent (LBPME in READ
 * CAPACITY(16), LBPU in the Logical Block Provisioning VPD page, the
 * UNMAP limits in the Block Limits page).
 */
#ifndef LIBISCSI_PROBE_H
#define LIBISCSI_PROBE_H

#include "session.h"

/* One SCSI command during setup: sent, waited for, unmarshalled. Returns
 * the unmarshalled data (owned by *task, which the caller frees), or NULL
 * with *task NULL and a message. */
static void *libiscsi_probe_cmd(struct sb_env *env,
				const struct libiscsi_job *js,
				struct iscsi_context *ctx,
				struct scsi_task *sent, struct libiscsi_wait *w,
				uint64_t end, const char *what,
				struct scsi_task **task)
{
	int rc = sent ? libiscsi_run(env, ctx, w, end) : -ENOMEM;
	void *data = NULL;

	*task = w->task;
	if (!rc && w->status == SCSI_STATUS_GOOD && *task)
		data = scsi_datain_unmarshall(*task);
	if (!data) {
		if (!rc)
			rc = -EIO;
		env->host->error(env->handle, rc, "%s: %s failed: %s", js->name,
				 what, libiscsi_run_why(rc, ctx, w));
		if (*task)
			scsi_free_scsi_task(*task);
		*task = NULL;
	}
	return data;
}

/* Trailing blanks off an INQUIRY string (they are space-padded). */
static void libiscsi_trim(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

static int libiscsi_probe_inquiry(struct sb_env *env, struct libiscsi_job *js,
				  struct iscsi_context *ctx, uint64_t end)
{
	struct libiscsi_wait w = {0};
	struct scsi_inquiry_standard *inq;
	struct scsi_task *t;

	inq = libiscsi_probe_cmd(env, js, ctx,
				 iscsi_inquiry_task(ctx, js->lun, 0, 0, 255,
						    libiscsi_wait_cb, &w),
				 &w, end, "INQUIRY", &t);
	if (!inq)
		return -EIO;
	if (inq->device_type !=
	    SCSI_INQUIRY_PERIPHERAL_DEVICE_TYPE_DIRECT_ACCESS) {
		scsi_free_scsi_task(t);
		return env->host->error(env->handle, -ENODEV,
					"%s: LUN %d is not a disk", js->name,
					js->lun);
	}
	libiscsi_field(js->vendor, sizeof(js->vendor),
		       inq->vendor_identification);
	libiscsi_field(js->product, sizeof(js->product),
		       inq->product_identification);
	libiscsi_field(js->revision, sizeof(js->revision),
		       inq->product_revision_level);
	libiscsi_trim(js->vendor);
	libiscsi_trim(js->product);
	libiscsi_trim(js->revision);
	scsi_free_scsi_task(t);
	return 0;
}

static int libiscsi_probe_capacity(struct sb_env *env, struct libiscsi_job *js,
				   struct iscsi_context *ctx, uint64_t end)
{
	struct libiscsi_wait w = {0};
	struct scsi_readcapacity16 *rc16;
	struct scsi_task *t;
	int lbpme;

	rc16 = libiscsi_probe_cmd(
		env, js, ctx,
		iscsi_readcapacity16_task(ctx, js->lun, libiscsi_wait_cb, &w),
		&w, end, "READ CAPACITY(16)", &t);
	if (!rc16)
		return -EIO;
	js->block_size = rc16->block_length;
	js->blocks = rc16->returned_lba + 1;
	lbpme = rc16->lbpme;
	scsi_free_scsi_task(t);
	if (!js->block_size || js->block_size % 512)
		return env->host->error(env->handle, -EIO,
					"%s: READ CAPACITY(16) gave a block "
					"size of %" PRIu32 " bytes",
					js->name, js->block_size);
	if (!lbpme)
		libiscsi_field(js->unmap_why, sizeof(js->unmap_why),
			       "the LUN is not thin-provisioned (READ "
			       "CAPACITY(16) LBPME=0)");
	return lbpme;
}

/* With LBPME set: whether the LUN takes UNMAP (LBPU) and its limits.
 * The VPD pages are optional for a target; a missing one is no error. */
static void libiscsi_probe_unmap(struct sb_env *env, struct libiscsi_job *js,
				 struct iscsi_context *ctx, uint64_t end)
{
	struct scsi_inquiry_logical_block_provisioning *lbp;
	struct scsi_inquiry_block_limits *bl;
	struct libiscsi_wait w = {0};
	struct scsi_task *sent, *t = NULL;

	sent = iscsi_inquiry_task(
		ctx, js->lun, 1,
		SCSI_INQUIRY_PAGECODE_LOGICAL_BLOCK_PROVISIONING, 255,
		libiscsi_wait_cb, &w);
	if (sent && !libiscsi_run(env, ctx, &w, end) &&
	    w.status == SCSI_STATUS_GOOD && w.task &&
	    (lbp = scsi_datain_unmarshall(w.task)))
		js->unmap = lbp->lbpu != 0;
	if (w.task)
		scsi_free_scsi_task(w.task);
	if (!js->unmap) {
		libiscsi_field(js->unmap_why, sizeof(js->unmap_why),
			       "the LUN does not take UNMAP (Logical Block "
			       "Provisioning VPD page: LBPU=0 or missing)");
		return;
	}
	memset(&w, 0, sizeof(w));
	sent = iscsi_inquiry_task(ctx, js->lun, 1,
				  SCSI_INQUIRY_PAGECODE_BLOCK_LIMITS, 255,
				  libiscsi_wait_cb, &w);
	if (sent && !libiscsi_run(env, ctx, &w, end) &&
	    w.status == SCSI_STATUS_GOOD && (t = w.task) &&
	    (bl = scsi_datain_unmarshall(t)) && bl->max_unmap != 0xffffffffu)
		js->max_unmap = bl->max_unmap;
	if (w.task)
		scsi_free_scsi_task(w.task);
}

/* The URL into js: the name without credentials, the portal, target and
 * LUN, and the URL's own credentials where the options give none. */
static int libiscsi_parse(struct sb_env *env, struct libiscsi_job *js,
			  const char *spec)
{
	const struct libiscsi_opts *o = env->opts;
	struct iscsi_context *ctx = iscsi_create_context(o->initiator);
	struct iscsi_url *u;
	int rc = 0;

	if (!ctx)
		return env->host->error(env->handle, -EINVAL,
					"libiscsi refuses the initiator name "
					"'%s'",
					o->initiator);
	u = iscsi_parse_full_url(ctx, spec);
	if (!u) {
		/* libiscsi's message quotes the URL, credentials and all. */
		const char *at = strrchr(spec, '@');

		rc = env->host->error(env->handle, -EINVAL,
				      "filename=%s%s: not an iSCSI URL "
				      "(iscsi://host[:port]/target-iqn/lun)",
				      at ? "iscsi://...@" : "",
				      at ? at + 1 : spec);
		iscsi_destroy_context(ctx);
		return rc;
	}
	snprintf(js->name, sizeof(js->name), "iscsi://%s/%s/%d", u->portal,
		 u->target, u->lun);
	js->lun = u->lun;
	if (libiscsi_field(js->portal, sizeof(js->portal), u->portal) ||
	    libiscsi_field(js->target, sizeof(js->target), u->target) ||
	    libiscsi_field(js->user, sizeof(js->user),
			   o->user ? o->user : u->user) ||
	    libiscsi_field(js->passwd, sizeof(js->passwd),
			   o->password ? o->password : u->passwd) ||
	    libiscsi_field(js->target_user, sizeof(js->target_user),
			   o->target_user ? o->target_user : u->target_user) ||
	    libiscsi_field(js->target_passwd, sizeof(js->target_passwd),
			   o->target_password ? o->target_password
					      : u->target_passwd))
		rc = env->host->error(env->handle, -ENAMETOOLONG,
				      "%s: a name or secret is longer than "
				      "libiscsi's %d bytes",
				      js->name, LIBISCSI_STR - 1);
	if (!rc && js->passwd[0] && !js->user[0])
		rc = env->host->error(env->handle, -EINVAL,
				      "%s: a CHAP secret without a user "
				      "(iscsi_user=)",
				      js->name);
	if (!rc && js->target_user[0] && !js->user[0])
		rc = env->host->error(env->handle, -EINVAL,
				      "%s: mutual CHAP (iscsi_target_user=) "
				      "needs one-way CHAP too (iscsi_user=)",
				      js->name);
	iscsi_destroy_url(u);
	iscsi_destroy_context(ctx);
	return rc;
}

#endif
