/*
 * A generator's import hook (struct sb_generator_ops.import, ABI 2.5): a job
 * whose generator= has one and which sets its import option (iometer_icf=)
 * is replaced by the jobs the hook makes of the file the option names.
 *
 * Each job made is: the job's inherited [global] pairs, then the pairs the
 * hook set, then the section's own lines, the import option and what the
 * hook dropped left out of both. Jobs come in the order the hook starts
 * them, where the section stood. It runs after the job files and the
 * command line are read and before sweeps are expanded, so a hook may set
 * sweep=.
 */
#ifndef SB_IMPORT_H
#define SB_IMPORT_H

struct sb_ctx;
struct sb_jobset;
struct sb_loader;

/* 0, or a negative errno with the message in ctx (each refused line of
 * the file already logged as an error). */
int sb_jobset_import(struct sb_ctx *ctx, struct sb_loader *l,
		     struct sb_jobset *set);

#endif
