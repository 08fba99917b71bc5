#ifndef SB_LIST_H
#define SB_LIST_H

struct sb_ctx;
struct sb_loader;

/* --list-plugins: every plugin on the search path, as a table or JSON, on
 * stdout; refused files on stderr. Returns an exit code. */
int sb_list_plugins(struct sb_ctx *ctx, struct sb_loader *loader, int json);

#endif
