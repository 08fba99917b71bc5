/*
 * The config file's plugin sections checked against the plugins, before
 * anything runs (config/config.h says what the file holds): each [NAME]
 * must name a plugin the loader finds, each key one of its options (or, for
 * a reporter with its own thread, one the host takes for it), each value
 * one that option accepts. A relative file:PATH secret is made absolute
 * here, against credential_dir or the file's own directory.
 */
#ifndef SB_CLI_CONFIG_CHECK_H
#define SB_CLI_CONFIG_CHECK_H

struct sb_ctx;
struct sb_config;
struct sb_loader;

int sb_config_check(struct sb_ctx *ctx, struct sb_config *cf,
		    struct sb_loader *l);

#endif
