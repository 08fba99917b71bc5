#ifndef SB_HELP_H
#define SB_HELP_H

struct sb_ctx;
struct sb_loader;

/* --cmdhelp[=option|all]: the job options, or one in detail. */
int sb_cmdhelp(struct sb_ctx *ctx, const char *option);

/* --enghelp[=engine[,option]]: the engines, one engine's options, or one
 * option of an engine in detail. */
int sb_enghelp(struct sb_ctx *ctx, struct sb_loader *loader, const char *arg);

#endif
