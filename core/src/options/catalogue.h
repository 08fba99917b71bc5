/*
 * The fio option catalogue: what storbench does with each core option of fio.
 *
 * Three tables make it up, each owned by one file:
 *   sb_core_options  (options/job_options.c)   options storbench implements;
 *   sb_partial_notes (options/partial.c)       what is still missing from
 *                                              those implemented only in part;
 *   sb_fio_known     (options/fio_known.c)     every other option of fio,
 *                                              with what storbench does when
 *                                              a job sets it.
 * An option is in sb_core_options or in sb_fio_known, never both; the first
 * wins when a job is read, and tools/fio_compat.c refuses a catalogue where
 * the two overlap. That program also writes docs/fio-compat.md from these
 * tables, so the page cannot drift from what the parser does.
 *
 * Why fio's options are listed at all: a job file written for fio must get a
 * precise answer. An option that storbench merely does not know would be a
 * typo; one fio has is either refused with "not supported yet" or accepted
 * with a warning, by the rule under enum sb_support.
 *
 * sb_fio_known covers the core options of fio SB_FIO_CATALOGUE_VERSION, the
 * ones `fio --cmdhelp=all` lists. Engine options (`fio --enghelp=ENGINE`)
 * belong to storbench's engine plugins and their own option tables.
 */
#ifndef SB_CATALOGUE_H
#define SB_CATALOGUE_H

/* The fio release whose options sb_fio_known lists. */
#define SB_FIO_CATALOGUE_VERSION "3.33"

/*
 * What storbench does with an option. YES and PARTIAL describe entries of
 * sb_core_options (PARTIAL when sb_partial_notes names it); sb_fio_known
 * holds only NO and IGNORED.
 *
 * IGNORED is for an option whose absence cannot change a measured figure nor
 * silently do something other than what the job asked: output cosmetics, log
 * files storbench does not write, host settings storbench already matches.
 * Anything else is NO, so a job is refused rather than run differently from
 * what its author meant.
 */
enum sb_support {
	SB_SUPPORT_YES,
	SB_SUPPORT_PARTIAL,
	SB_SUPPORT_NO,
	SB_SUPPORT_IGNORED,
};

/* The sections of fio's HOWTO that describe job options, in its order. */
enum sb_fio_category {
	SB_CAT_UNITS,
	SB_CAT_JOB_DESCRIPTION,
	SB_CAT_TIME,
	SB_CAT_TARGET,
	SB_CAT_IO_TYPE,
	SB_CAT_BLOCK_SIZE,
	SB_CAT_BUFFERS,
	SB_CAT_IO_SIZE,
	SB_CAT_IO_ENGINE,
	SB_CAT_IO_DEPTH,
	SB_CAT_IO_RATE,
	SB_CAT_IO_LATENCY,
	SB_CAT_IO_REPLAY,
	SB_CAT_THREADS,
	SB_CAT_VERIFY,
	SB_CAT_STEADY_STATE,
	SB_CAT_REPORTING,
	SB_CAT_ERRORS,
	SB_CAT_PROFILES,
	SB_CAT_COUNT
};

/* An option of fio that storbench does not implement. */
struct sb_known_opt {
	const char *name;
	const char *alias; /* fio's second name, or NULL */
	/* fio's value type in a word: "int", "size", "time", "bool",
	 * "string", "choice", "float", "float list", "range", "split". */
	const char *type;
	const char *def;   /* fio's default as fio prints it, or NULL */
	const char *range; /* "min=1, max=100", choices "a|b|c", or NULL */
	const char *help;  /* one line: what the option does in fio */
	enum sb_support support; /* SB_SUPPORT_NO or SB_SUPPORT_IGNORED */
	/* Why it is ignored, or what supporting it needs; short enough to
	 * follow the option's name in one message line. */
	const char *note;
	enum sb_fio_category category;
};

/* An option of sb_core_options that storbench implements only in part. */
struct sb_partial_note {
	const char *name;
	const char *note; /* what is missing */
};

/* Both tables end with an entry whose name is NULL. */
extern const struct sb_known_opt sb_fio_known[];
extern const struct sb_partial_note sb_partial_notes[];

/* The entry of sb_fio_known whose name or alias is name, or NULL. */
const struct sb_known_opt *sb_fio_known_find(const char *name);

/* The HOWTO section's title, e.g. "I/O type"; "?" for a bad value. */
const char *sb_fio_category_name(enum sb_fio_category category);

#endif
