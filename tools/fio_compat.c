/*
 * sb_fio_compat: writes docs/fio-compat.md, the page that says what storbench
 * does with each option of fio, from the option catalogue (catalogue.h), so
 * the page always tells what the parser does.
 *
 *   sb_fio_compat             the page on standard output
 *   sb_fio_compat -o FILE     the page into FILE, replaced only once complete
 *   sb_fio_compat --check     only check the catalogue
 *
 * The catalogue is checked before anything is written: each fio option below
 * is in exactly one of sb_core_options and sb_fio_known, sb_fio_known holds
 * nothing else, and each partial note names an option storbench has. A
 * failed check prints every problem and writes no page, so a build that
 * regenerates the page stops at an inconsistent catalogue.
 *
 * Exit status: 0 ok, 1 the catalogue is inconsistent, 2 bad usage or a
 * write error.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/option.h>

#include "options/catalogue.h"
#include "options/options.h"
#include "options/job_options.h"

struct fio_opt {
	const char *name;
	const char *alias;
	enum sb_fio_category category;
};

/*
 * The core options of fio SB_FIO_CATALOGUE_VERSION, as `fio --cmdhelp=all`
 * lists them, with fio's alias and the HOWTO section that documents each.
 * This list is what "every fio option" means for the page and the checks; it
 * also gives the options storbench implements their section. Tracking a newer
 * fio means adding its new options here and to sb_fio_known.
 */
static const struct fio_opt fio_options[] = {
	{"kb_base", NULL, SB_CAT_UNITS},
	{"unit_base", NULL, SB_CAT_UNITS},
	{"description", NULL, SB_CAT_JOB_DESCRIPTION},
	{"name", NULL, SB_CAT_JOB_DESCRIPTION},
	{"loops", NULL, SB_CAT_JOB_DESCRIPTION},
	{"numjobs", NULL, SB_CAT_JOB_DESCRIPTION},
	{"startdelay", NULL, SB_CAT_TIME},
	{"runtime", "timeout", SB_CAT_TIME},
	{"time_based", NULL, SB_CAT_TIME},
	{"ramp_time", NULL, SB_CAT_TIME},
	{"clocksource", NULL, SB_CAT_TIME},
	{"gtod_reduce", NULL, SB_CAT_TIME},
	{"gtod_cpu", NULL, SB_CAT_TIME},
	{"filename", NULL, SB_CAT_TARGET},
	{"lockfile", NULL, SB_CAT_TARGET},
	{"directory", NULL, SB_CAT_TARGET},
	{"filename_format", NULL, SB_CAT_TARGET},
	{"unique_filename", NULL, SB_CAT_TARGET},
	{"opendir", NULL, SB_CAT_TARGET},
	{"nrfiles", "nr_files", SB_CAT_TARGET},
	{"file_service_type", NULL, SB_CAT_TARGET},
	{"openfiles", NULL, SB_CAT_TARGET},
	{"ioscheduler", NULL, SB_CAT_TARGET},
	{"zonemode", NULL, SB_CAT_TARGET},
	{"zonesize", NULL, SB_CAT_TARGET},
	{"zonecapacity", NULL, SB_CAT_TARGET},
	{"zonerange", NULL, SB_CAT_TARGET},
	{"zoneskip", NULL, SB_CAT_TARGET},
	{"read_beyond_wp", NULL, SB_CAT_TARGET},
	{"max_open_zones", NULL, SB_CAT_TARGET},
	{"job_max_open_zones", NULL, SB_CAT_TARGET},
	{"ignore_zone_limits", NULL, SB_CAT_TARGET},
	{"zone_reset_threshold", NULL, SB_CAT_TARGET},
	{"zone_reset_frequency", NULL, SB_CAT_TARGET},
	{"create_serialize", NULL, SB_CAT_TARGET},
	{"create_fsync", NULL, SB_CAT_TARGET},
	{"create_on_open", NULL, SB_CAT_TARGET},
	{"create_only", NULL, SB_CAT_TARGET},
	{"allow_file_create", NULL, SB_CAT_TARGET},
	{"allow_mounted_write", NULL, SB_CAT_TARGET},
	{"pre_read", NULL, SB_CAT_TARGET},
	{"unlink", NULL, SB_CAT_TARGET},
	{"unlink_each_loop", NULL, SB_CAT_TARGET},
	{"rw", "readwrite", SB_CAT_IO_TYPE},
	{"randrepeat", NULL, SB_CAT_IO_TYPE},
	{"randseed", NULL, SB_CAT_IO_TYPE},
	{"norandommap", NULL, SB_CAT_IO_TYPE},
	{"rw_sequencer", NULL, SB_CAT_IO_TYPE},
	{"offset", "fileoffset", SB_CAT_IO_TYPE},
	{"offset_increment", NULL, SB_CAT_IO_TYPE},
	{"offset_align", NULL, SB_CAT_IO_TYPE},
	{"number_ios", NULL, SB_CAT_IO_TYPE},
	{"random_generator", NULL, SB_CAT_IO_TYPE},
	{"random_distribution", NULL, SB_CAT_IO_TYPE},
	{"percentage_random", NULL, SB_CAT_IO_TYPE},
	{"allrandrepeat", NULL, SB_CAT_IO_TYPE},
	{"fallocate", NULL, SB_CAT_IO_TYPE},
	{"fadvise_hint", NULL, SB_CAT_IO_TYPE},
	{"fsync", NULL, SB_CAT_IO_TYPE},
	{"fdatasync", NULL, SB_CAT_IO_TYPE},
	{"write_barrier", NULL, SB_CAT_IO_TYPE},
	{"sync_file_range", NULL, SB_CAT_IO_TYPE},
	{"direct", NULL, SB_CAT_IO_TYPE},
	{"atomic", NULL, SB_CAT_IO_TYPE},
	{"buffered", NULL, SB_CAT_IO_TYPE},
	{"overwrite", NULL, SB_CAT_IO_TYPE},
	{"rwmixread", NULL, SB_CAT_IO_TYPE},
	{"rwmixwrite", NULL, SB_CAT_IO_TYPE},
	{"write_hint", NULL, SB_CAT_IO_TYPE},
	{"end_fsync", NULL, SB_CAT_IO_TYPE},
	{"fsync_on_close", NULL, SB_CAT_IO_TYPE},
	{"unified_rw_reporting", NULL, SB_CAT_IO_TYPE},
	{"bs", "blocksize", SB_CAT_BLOCK_SIZE},
	{"ba", "blockalign", SB_CAT_BLOCK_SIZE},
	{"bsrange", "blocksize_range", SB_CAT_BLOCK_SIZE},
	{"bssplit", NULL, SB_CAT_BLOCK_SIZE},
	{"bs_unaligned", "blocksize_unaligned", SB_CAT_BLOCK_SIZE},
	{"mem", "iomem", SB_CAT_BUFFERS},
	{"lockmem", NULL, SB_CAT_BUFFERS},
	{"invalidate", NULL, SB_CAT_BUFFERS},
	{"sync", NULL, SB_CAT_BUFFERS},
	{"zero_buffers", NULL, SB_CAT_BUFFERS},
	{"refill_buffers", NULL, SB_CAT_BUFFERS},
	{"scramble_buffers", NULL, SB_CAT_BUFFERS},
	{"buffer_pattern", NULL, SB_CAT_BUFFERS},
	{"buffer_compress_percentage", NULL, SB_CAT_BUFFERS},
	{"buffer_compress_chunk", NULL, SB_CAT_BUFFERS},
	{"dedupe_percentage", NULL, SB_CAT_BUFFERS},
	{"dedupe_mode", NULL, SB_CAT_BUFFERS},
	{"dedupe_working_set_percentage", NULL, SB_CAT_BUFFERS},
	{"dedupe_global", NULL, SB_CAT_BUFFERS},
	{"hugepage-size", NULL, SB_CAT_BUFFERS},
	{"size", NULL, SB_CAT_IO_SIZE},
	{"io_size", "io_limit", SB_CAT_IO_SIZE},
	{"fill_device", "fill_fs", SB_CAT_IO_SIZE},
	{"filesize", NULL, SB_CAT_IO_SIZE},
	{"file_append", NULL, SB_CAT_IO_SIZE},
	{"ioengine", NULL, SB_CAT_IO_ENGINE},
	{"iodepth", NULL, SB_CAT_IO_DEPTH},
	{"iodepth_batch", "iodepth_batch_submit", SB_CAT_IO_DEPTH},
	{"iodepth_batch_complete_min", "iodepth_batch_complete",
	 SB_CAT_IO_DEPTH},
	{"iodepth_batch_complete_max", NULL, SB_CAT_IO_DEPTH},
	{"iodepth_low", NULL, SB_CAT_IO_DEPTH},
	{"serialize_overlap", NULL, SB_CAT_IO_DEPTH},
	{"io_submit_mode", NULL, SB_CAT_IO_DEPTH},
	{"thinktime", NULL, SB_CAT_IO_RATE},
	{"thinktime_spin", NULL, SB_CAT_IO_RATE},
	{"thinktime_blocks", NULL, SB_CAT_IO_RATE},
	{"thinktime_blocks_type", NULL, SB_CAT_IO_RATE},
	{"thinktime_iotime", NULL, SB_CAT_IO_RATE},
	{"rate", NULL, SB_CAT_IO_RATE},
	{"rate_min", "ratemin", SB_CAT_IO_RATE},
	{"rate_process", NULL, SB_CAT_IO_RATE},
	{"rate_ignore_thinktime", NULL, SB_CAT_IO_RATE},
	{"rate_iops", NULL, SB_CAT_IO_RATE},
	{"rate_iops_min", NULL, SB_CAT_IO_RATE},
	{"rate_cycle", "ratecycle", SB_CAT_IO_LATENCY},
	{"max_latency", NULL, SB_CAT_IO_LATENCY},
	{"latency_target", NULL, SB_CAT_IO_LATENCY},
	{"latency_window", NULL, SB_CAT_IO_LATENCY},
	{"latency_percentile", NULL, SB_CAT_IO_LATENCY},
	{"latency_run", NULL, SB_CAT_IO_LATENCY},
	{"write_iolog", NULL, SB_CAT_IO_REPLAY},
	{"read_iolog", NULL, SB_CAT_IO_REPLAY},
	{"read_iolog_chunked", NULL, SB_CAT_IO_REPLAY},
	{"replay_no_stall", NULL, SB_CAT_IO_REPLAY},
	{"replay_redirect", NULL, SB_CAT_IO_REPLAY},
	{"replay_scale", NULL, SB_CAT_IO_REPLAY},
	{"replay_align", NULL, SB_CAT_IO_REPLAY},
	{"replay_time_scale", NULL, SB_CAT_IO_REPLAY},
	{"replay_skip", NULL, SB_CAT_IO_REPLAY},
	{"merge_blktrace_file", NULL, SB_CAT_IO_REPLAY},
	{"merge_blktrace_scalars", NULL, SB_CAT_IO_REPLAY},
	{"merge_blktrace_iters", NULL, SB_CAT_IO_REPLAY},
	{"wait_for", NULL, SB_CAT_THREADS},
	{"exec_prerun", NULL, SB_CAT_THREADS},
	{"exec_postrun", NULL, SB_CAT_THREADS},
	{"nice", NULL, SB_CAT_THREADS},
	{"prio", NULL, SB_CAT_THREADS},
	{"prioclass", NULL, SB_CAT_THREADS},
	{"cpumask", NULL, SB_CAT_THREADS},
	{"cpus_allowed", NULL, SB_CAT_THREADS},
	{"cpus_allowed_policy", NULL, SB_CAT_THREADS},
	{"numa_cpu_nodes", NULL, SB_CAT_THREADS},
	{"numa_mem_policy", NULL, SB_CAT_THREADS},
	{"exitall", NULL, SB_CAT_THREADS},
	{"exit_what", NULL, SB_CAT_THREADS},
	{"stonewall", "wait_for_previous", SB_CAT_THREADS},
	{"thread", NULL, SB_CAT_THREADS},
	{"cgroup", NULL, SB_CAT_THREADS},
	{"cgroup_nodelete", NULL, SB_CAT_THREADS},
	{"cgroup_weight", NULL, SB_CAT_THREADS},
	{"uid", NULL, SB_CAT_THREADS},
	{"gid", NULL, SB_CAT_THREADS},
	{"flow_id", NULL, SB_CAT_THREADS},
	{"flow", NULL, SB_CAT_THREADS},
	{"flow_sleep", NULL, SB_CAT_THREADS},
	{"verify_only", NULL, SB_CAT_VERIFY},
	{"verify", NULL, SB_CAT_VERIFY},
	{"do_verify", NULL, SB_CAT_VERIFY},
	{"verify_interval", NULL, SB_CAT_VERIFY},
	{"verify_offset", NULL, SB_CAT_VERIFY},
	{"verify_pattern", NULL, SB_CAT_VERIFY},
	{"verify_fatal", NULL, SB_CAT_VERIFY},
	{"verify_dump", NULL, SB_CAT_VERIFY},
	{"verify_async", NULL, SB_CAT_VERIFY},
	{"verify_backlog", NULL, SB_CAT_VERIFY},
	{"verify_backlog_batch", NULL, SB_CAT_VERIFY},
	{"experimental_verify", NULL, SB_CAT_VERIFY},
	{"verify_state_load", NULL, SB_CAT_VERIFY},
	{"verify_state_save", NULL, SB_CAT_VERIFY},
	{"trim_percentage", NULL, SB_CAT_VERIFY},
	{"trim_verify_zero", NULL, SB_CAT_VERIFY},
	{"trim_backlog", NULL, SB_CAT_VERIFY},
	{"trim_backlog_batch", NULL, SB_CAT_VERIFY},
	{"steadystate", "ss", SB_CAT_STEADY_STATE},
	{"steadystate_duration", "ss_dur", SB_CAT_STEADY_STATE},
	{"steadystate_ramp_time", "ss_ramp", SB_CAT_STEADY_STATE},
	{"new_group", NULL, SB_CAT_REPORTING},
	{"per_job_logs", NULL, SB_CAT_REPORTING},
	{"write_bw_log", NULL, SB_CAT_REPORTING},
	{"bwavgtime", NULL, SB_CAT_REPORTING},
	{"write_lat_log", NULL, SB_CAT_REPORTING},
	{"write_iops_log", NULL, SB_CAT_REPORTING},
	{"iopsavgtime", NULL, SB_CAT_REPORTING},
	{"log_entries", NULL, SB_CAT_REPORTING},
	{"log_avg_msec", NULL, SB_CAT_REPORTING},
	{"log_hist_msec", NULL, SB_CAT_REPORTING},
	{"log_hist_coarseness", NULL, SB_CAT_REPORTING},
	{"write_hist_log", NULL, SB_CAT_REPORTING},
	{"log_max_value", NULL, SB_CAT_REPORTING},
	{"log_offset", NULL, SB_CAT_REPORTING},
	{"log_prio", NULL, SB_CAT_REPORTING},
	{"log_compression", NULL, SB_CAT_REPORTING},
	{"log_compression_cpus", NULL, SB_CAT_REPORTING},
	{"log_store_compressed", NULL, SB_CAT_REPORTING},
	{"log_unix_epoch", NULL, SB_CAT_REPORTING},
	{"log_alternate_epoch", NULL, SB_CAT_REPORTING},
	{"log_alternate_epoch_clock_id", NULL, SB_CAT_REPORTING},
	{"block_error_percentiles", NULL, SB_CAT_REPORTING},
	{"group_reporting", NULL, SB_CAT_REPORTING},
	{"stats", NULL, SB_CAT_REPORTING},
	{"clat_percentiles", NULL, SB_CAT_REPORTING},
	{"lat_percentiles", NULL, SB_CAT_REPORTING},
	{"slat_percentiles", NULL, SB_CAT_REPORTING},
	{"percentile_list", NULL, SB_CAT_REPORTING},
	{"significant_figures", NULL, SB_CAT_REPORTING},
	{"disk_util", NULL, SB_CAT_REPORTING},
	{"disable_lat", NULL, SB_CAT_REPORTING},
	{"disable_clat", NULL, SB_CAT_REPORTING},
	{"disable_slat", NULL, SB_CAT_REPORTING},
	{"disable_bw_measurement", "disable_bw", SB_CAT_REPORTING},
	{"ignore_error", NULL, SB_CAT_ERRORS},
	{"exitall_on_error", NULL, SB_CAT_ERRORS},
	{"continue_on_error", NULL, SB_CAT_ERRORS},
	{"error_dump", NULL, SB_CAT_ERRORS},
	{"profile", NULL, SB_CAT_PROFILES},
};

#define FIO_NOPTS (sizeof(fio_options) / sizeof(fio_options[0]))

static const struct fio_opt *fio_find(const char *name)
{
	for (size_t i = 0; i < FIO_NOPTS; i++)
		if (strcmp(fio_options[i].name, name) == 0)
			return &fio_options[i];
	return NULL;
}

/* The option of storbench's that answers to f's name or alias. */
static const struct sb_option *core_find(const struct fio_opt *f)
{
	const struct sb_option *o = sb_opt_find(sb_core_options, f->name);

	if (!o && f->alias)
		o = sb_opt_find(sb_core_options, f->alias);
	return o;
}

static const struct sb_partial_note *partial_find(const char *name)
{
	for (const struct sb_partial_note *p = sb_partial_notes; p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

static int empty(const char *s)
{
	return !s || !*s;
}

/* One line on stderr per problem, counted in *n. */
__attribute__((format(printf, 2, 3))) static void problem(unsigned *n,
							  const char *fmt, ...)
{
	va_list ap;

	fputs("sb_fio_compat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	(*n)++;
}

static unsigned check_fio_list(void)
{
	unsigned n = 0;

	for (size_t i = 0; i < FIO_NOPTS; i++) {
		const struct fio_opt *f = &fio_options[i];

		if (fio_find(f->name) != f)
			problem(&n, "fio option '%s' is listed twice", f->name);
		if (!core_find(f) && !sb_fio_known_find(f->name))
			problem(&n,
				"fio option '%s' is in neither sb_core_options "
				"nor sb_fio_known: add it to "
				"core/src/options/fio_known.c",
				f->name);
	}
	return n;
}

static unsigned check_known(void)
{
	unsigned n = 0;

	for (const struct sb_known_opt *k = sb_fio_known; k->name; k++) {
		const struct fio_opt *f = fio_find(k->name);

		if (sb_opt_find(sb_core_options, k->name) ||
		    (k->alias && sb_opt_find(sb_core_options, k->alias)))
			problem(&n,
				"'%s' is in sb_core_options now: remove it "
				"from sb_fio_known "
				"(core/src/options/fio_known.c)",
				k->name);
		if (!f)
			problem(&n,
				"sb_fio_known has '%s', which fio %s does not "
				"list",
				k->name, SB_FIO_CATALOGUE_VERSION);
		else if (f->category != k->category)
			problem(&n,
				"sb_fio_known: '%s' is in section \"%s\", "
				"fio's "
				"list has it in \"%s\"",
				k->name, sb_fio_category_name(k->category),
				sb_fio_category_name(f->category));
		if (sb_fio_known_find(k->name) != k ||
		    (k->alias && sb_fio_known_find(k->alias) != k))
			problem(&n, "sb_fio_known: '%s' is there twice",
				k->name);
		if (k->support != SB_SUPPORT_NO &&
		    k->support != SB_SUPPORT_IGNORED)
			problem(&n,
				"sb_fio_known: '%s' must be SB_SUPPORT_NO or "
				"SB_SUPPORT_IGNORED",
				k->name);
		if (empty(k->type) || empty(k->help) || empty(k->note))
			problem(&n,
				"sb_fio_known: '%s' needs a type, a help line "
				"and a note",
				k->name);
	}
	return n;
}

static unsigned check_partial(void)
{
	unsigned n = 0;

	for (const struct sb_partial_note *p = sb_partial_notes; p->name; p++) {
		const struct sb_option *o =
			sb_opt_find(sb_core_options, p->name);

		if (!o || strcmp(o->name, p->name) != 0)
			problem(&n,
				"sb_partial_notes names '%s', which is not "
				"the name of an option in sb_core_options",
				p->name);
		if (partial_find(p->name) != p)
			problem(&n, "sb_partial_notes: '%s' is there twice",
				p->name);
		if (empty(p->note))
			problem(&n, "sb_partial_notes: '%s' needs a note",
				p->name);
	}
	return n;
}

/* One line of the page's table, for one fio option. */
struct row {
	const struct fio_opt *fio;
	const struct sb_option *core;	  /* when storbench implements it */
	const struct sb_known_opt *known; /* otherwise */
	enum sb_support support;
	const char *partial; /* what is missing, or NULL */
	int alias_missing;   /* storbench refuses fio's alias */
};

/* Only after the checks passed: an option that storbench does not implement
 * is then in sb_fio_known. */
static struct row make_row(const struct fio_opt *f)
{
	struct row r = {.fio = f, .core = core_find(f)};

	if (!r.core) {
		r.known = sb_fio_known_find(f->name);
		r.support = r.known->support;
		return r;
	}
	r.support = SB_SUPPORT_YES;
	if (partial_find(r.core->name)) {
		r.partial = partial_find(r.core->name)->note;
		r.support = SB_SUPPORT_PARTIAL;
	}
	if (f->alias && sb_opt_find(sb_core_options, f->alias) != r.core) {
		r.alias_missing = 1;
		r.support = SB_SUPPORT_PARTIAL;
	}
	return r;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->fio->category != y->fio->category)
		return x->fio->category < y->fio->category ? -1 : 1;
	return strcmp(x->fio->name, y->fio->name);
}

static const char *support_word(enum sb_support s)
{
	switch (s) {
	case SB_SUPPORT_YES:
		return "supported";
	case SB_SUPPORT_PARTIAL:
		return "partial";
	case SB_SUPPORT_NO:
		return "not supported";
	case SB_SUPPORT_IGNORED:
		return "ignored";
	}
	return "?";
}

/* Text in a table cell: '|' would end the cell and '<' start HTML. */
static void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else
			fputc(*s, f);
	}
}

/* A code span in a table cell: only '|' needs escaping there. */
static void md_code(FILE *f, const char *s)
{
	fputc('`', f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('`', f);
}

static const char *unit_name(uint64_t unit)
{
	switch (unit) {
	case 0:
	case SB_UNIT_S:
		return "s";
	case SB_UNIT_MS:
		return "ms";
	case SB_UNIT_US:
		return "us";
	case SB_UNIT_NS:
		return "ns";
	}
	return "?";
}

/* "size per direction, default `4k`", with choices, range and unit. */
static void core_cell(FILE *f, const struct sb_option *o)
{
	md_text(f, sb_opt_type_name(o->type));
	if (o->type == SB_OPT_ENUM && o->choices) {
		fputs(": ", f);
		for (int i = 0; o->choices[i]; i++) {
			if (i)
				fputs(", ", f);
			md_text(f, o->choices[i]);
		}
	}
	if (!empty(o->def)) {
		fputs(", default ", f);
		md_code(f, o->def);
	}
	if (o->min < o->max) {
		if (o->max == INT64_MAX)
			fprintf(f, ", at least %lld", (long long)o->min);
		else
			fprintf(f, ", %lld to %lld", (long long)o->min,
				(long long)o->max);
	}
	if (o->type == SB_OPT_TIME)
		fprintf(f, ", bare number in %s", unit_name(o->unit));
}

static void notes_cell(FILE *f, const struct row *r)
{
	if (r->known) {
		md_text(f, r->known->note);
		return;
	}
	if (r->partial)
		md_text(f, r->partial);
	if (r->alias_missing) {
		fputs(r->partial ? "; " : "", f);
		fputs("fio's alias ", f);
		md_code(f, r->fio->alias);
		fputs(" is not accepted", f);
	}
}

static void write_header(FILE *f, const unsigned count[4], size_t total)
{
	fprintf(f,
		"# fio compatibility\n"
		"\n"
		"<!-- Generated by sb_fio_compat (tools/fio_compat.c); do not "
		"edit. -->\n"
		"\n"
		"This page is generated from storbench's option catalogue "
		"(`core/src/options/job_options.c`,\n"
		"`core/src/options/fio_known.c`, "
		"`core/src/options/partial.c`); do not edit it by hand.\n"
		"After changing the catalogue, regenerate it with\n"
		"`cmake --build build --target fio-compat-doc`; a test fails "
		"while it is stale.\n"
		"\n"
		"It lists each of the %zu job options of fio %s (those of "
		"`fio --cmdhelp=all`) and what\n"
		"storbench does when a job file or the command line sets it:\n"
		"\n"
		"- **supported**: storbench runs it as fio does.\n"
		"- **partial**: storbench runs it, but refuses some of its "
		"values or forms (the notes say which).\n"
		"- **not supported**: a job that sets it is refused with "
		"\"not supported yet\", because running\n"
		"  without it would change what is measured or do something "
		"else than the job asks.\n"
		"- **ignored**: accepted with a warning; it changes no "
		"measured figure (output cosmetics, log\n"
		"  files, host settings that storbench already matches).\n"
		"\n"
		"Options of fio's I/O engines (`fio --enghelp=ENGINE`) are not "
		"listed: each storbench engine has\n"
		"its own (`storbench --enghelp=ENGINE`).\n"
		"\n"
		"| status | options |\n"
		"|---|---:|\n",
		total, SB_FIO_CATALOGUE_VERSION);
	for (int s = SB_SUPPORT_YES; s <= SB_SUPPORT_IGNORED; s++)
		fprintf(f, "| %s | %u |\n", support_word(s), count[s]);
	fprintf(f, "| total | %zu |\n", total);
}

static void write_options(FILE *f, const struct row *rows, size_t n)
{
	fputs("\n## Options\n"
	      "\n"
	      "By section of fio's HOWTO, in its order, then by name. "
	      "\"storbench\" gives the value type,\n"
	      "default and range of the options storbench implements.\n"
	      "\n"
	      "| section | option | alias | status | storbench | notes |\n"
	      "|---|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		fputs("| ", f);
		md_text(f, sb_fio_category_name(r->fio->category));
		fputs(" | ", f);
		md_code(f, r->fio->name);
		fputs(" | ", f);
		if (r->fio->alias)
			md_code(f, r->fio->alias);
		fprintf(f, " | %s | ", support_word(r->support));
		if (r->core)
			core_cell(f, r->core);
		fputs(" | ", f);
		notes_cell(f, r);
		fputs(" |\n", f);
	}
}

/* storbench's own options: those no fio option names. */
static void write_additions(FILE *f)
{
	fputs("\n## storbench additions\n"
	      "\n"
	      "Job options that storbench has and fio does not.\n"
	      "\n"
	      "| option | alias | storbench | description |\n"
	      "|---|---|---|---|\n",
	      f);
	for (const struct sb_option *o = sb_core_options; o->name; o++) {
		if (fio_find(o->name) || (o->alias && fio_find(o->alias)) ||
		    (o->flags & SB_OPTF_HIDDEN))
			continue;
		fputs("| ", f);
		md_code(f, o->name);
		fputs(" | ", f);
		if (o->alias)
			md_code(f, o->alias);
		fputs(" | ", f);
		core_cell(f, o);
		fputs(" | ", f);
		md_text(f, o->help);
		fputs(" |\n", f);
	}
}

static void write_page(FILE *f)
{
	struct row rows[FIO_NOPTS];
	unsigned count[4] = {0};

	for (size_t i = 0; i < FIO_NOPTS; i++) {
		rows[i] = make_row(&fio_options[i]);
		count[rows[i].support]++;
	}
	qsort(rows, FIO_NOPTS, sizeof(rows[0]), row_cmp);
	write_header(f, count, FIO_NOPTS);
	write_options(f, rows, FIO_NOPTS);
	write_additions(f);
}

/* Write to FILE.tmp and rename it over FILE, so a failed run leaves the
 * committed page as it was. */
static int write_file(const char *path)
{
	char tmp[4096];
	FILE *f;
	int bad;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		fprintf(stderr, "sb_fio_compat: path too long: %s\n", path);
		return 2;
	}
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		return 2;
	}
	write_page(f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		perror(tmp);
		remove(tmp);
		return 2;
	}
	if (rename(tmp, path) != 0) {
		perror(path);
		remove(tmp);
		return 2;
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: sb_fio_compat [-o FILE | --check]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned problems;

	if (argc > 3 || (argc == 2 && strcmp(argv[1], "--check") != 0) ||
	    (argc == 3 && strcmp(argv[1], "-o") != 0))
		return usage();
	problems = check_fio_list() + check_known() + check_partial();
	if (problems) {
		fprintf(stderr,
			"sb_fio_compat: %u problem%s in the option catalogue "
			"(see core/src/options/catalogue.h)\n",
			problems, problems == 1 ? "" : "s");
		return 1;
	}
	if (argc == 2)
		return 0;
	if (argc == 3)
		return write_file(argv[2]);
	write_page(stdout);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("sb_fio_compat: stdout");
		return 2;
	}
	return 0;
}
