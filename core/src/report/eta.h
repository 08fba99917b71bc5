/*
 * The progress line, as fio shows it on a terminal while jobs run:
 *   Jobs: 2 (f=2): [r(1),w(1)][45.0%][r=123MiB/s,w=45.6MiB/s][r=31.5k,w=11.7k
 * IOPS][eta 00m:05s] redrawn in place (carriage return) once a second, or one
 * line per update with --eta-newline. Made and used by the host's interval
 * thread only.
 */
#ifndef SB_ETA_H
#define SB_ETA_H

#include <stdio.h>

#include "../stats/results.h"

enum sb_eta_mode {
	SB_ETA_AUTO,   /* only when out is a terminal */
	SB_ETA_ALWAYS, /* also into a file or pipe */
	SB_ETA_NEVER,
};

struct sb_eta {
	FILE *out;	 /* stderr, normally; not owned */
	int enabled;	 /* after the mode and the terminal check */
	int newline;	 /* --eta-newline: a line per update, not one redrawn */
	size_t last_len; /* of the line on screen, to blank what is left */
};

/* is_tty: whether out is a terminal (the caller asks isatty). */
void sb_eta_init(struct sb_eta *e, FILE *out, int mode, int newline,
		 int is_tty);

/* Format one line for iv into buf (no newline); returns its length. Pure,
 * for tests: the rates are of the period, the percent and eta the run's. */
size_t sb_eta_format(const struct sb_interval *iv, char *buf, size_t len);

/* Draw the line for iv, if enabled. */
void sb_eta_update(struct sb_eta *e, const struct sb_interval *iv);

/* The run ended: leave the terminal on a clean line. */
void sb_eta_done(struct sb_eta *e);

/* --eta=auto|always|never: the mode, or -1 for anything else. */
int sb_eta_mode_parse(const char *s);

#endif
