/*
 * fio's I/O engines by name: every engine fio 3.33 has (each of its engines/
 * files, ioengine_ops' .name, whatever its build needs), the three directory
 * engines of later fio, and the external fio plugins job files name most
 * (SPDK's, Ceph's). For the message that refuses an engine storbench
 * lacks, and for --enghelp's table of which fio engine has a storbench
 * engine (found by loading a plugin of that name, so the table cannot
 * claim one that is not built).
 */
#ifndef SB_FIO_ENGINES_H
#define SB_FIO_ENGINES_H

/* struct sb_fio_engine.origin */
#define SB_FIO_ENG_333	    0 /* in fio 3.33's tree */
#define SB_FIO_ENG_LATER    1 /* in fio's tree after 3.33 */
#define SB_FIO_ENG_EXTERNAL 2 /* a plugin fio loads with ioengine=external */

struct sb_fio_engine {
	const char *name;
	const char *what; /* what it is for: "fio's engine for <what>" */
	int origin;	  /* SB_FIO_ENG_* */
};

/* Ended by a NULL name: fio's own in alphabetical order, then the
 * external ones. */
extern const struct sb_fio_engine sb_fio_engines[];

/* The entry for name, or NULL. */
const struct sb_fio_engine *sb_fio_engine_find(const char *name);

#endif
