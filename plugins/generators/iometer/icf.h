/* iometer_icf=: an Iometer 1.1.0 configuration file made into jobs. */
#ifndef IOM_ICF_H
#define IOM_ICF_H

#include <storbench/generator.h>

/* The import hook's work: the jobs of the .icf at path, through im.
 * spec_name (access_spec_name=, or NULL): run that specification of the
 * file on every worker instead of their assignments. 0, or a negative
 * errno with each refused line said through im->refuse. */
int iom_icf_import(struct sb_env *env, const char *path,
		   struct sb_gen_import *im, const char *spec_name);

#endif
