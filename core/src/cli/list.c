#include "list.h"

#include <stdio.h>
#include <string.h>

#include "../loader/loader.h"
#include "../sb_ctx.h"
#include "json_out.h"

static void print_table(const struct sb_loader *l)
{
	printf("%-12s %-10s %-9s %-4s %-14s %-44s %s\n", "NAME", "KIND",
	       "VERSION", "ABI", "LICENSE", "PATH", "DESCRIPTION");
	for (const struct sb_plugin *p = l->plugins; p; p = p->next) {
		const struct sb_plugin_descriptor *d = p->desc;
		char abi[32];

		snprintf(abi, sizeof(abi), "%u.%u", d->abi_major, d->abi_minor);
		printf("%-12s %-10s %-9s %-4s %-14s %-44s %s\n", d->name,
		       sb_kind_name(d->kind), d->version, abi, d->license,
		       p->path, d->description);
	}
}

static void print_json(const struct sb_loader *l)
{
	const char *sep = "";

	printf("{\n  \"storbench_version\": \"%s\",\n", SB_VERSION_STRING);
	printf("  \"abi\": \"%d.%d\",\n  \"plugins\": [", SB_ABI_MAJOR,
	       SB_ABI_MINOR);
	for (const struct sb_plugin *p = l->plugins; p; p = p->next) {
		const struct sb_plugin_descriptor *d = p->desc;

		printf("%s\n    {\"name\": ", sep);
		sb_json_str(stdout, d->name);
		printf(", \"kind\": \"%s\", \"version\": ",
		       sb_kind_name(d->kind));
		sb_json_str(stdout, d->version);
		printf(", \"abi\": \"%u.%u\", \"license\": ", d->abi_major,
		       d->abi_minor);
		sb_json_str(stdout, d->license);
		printf(", \"path\": ");
		sb_json_str(stdout, p->path);
		printf(", \"description\": ");
		sb_json_str(stdout, d->description);
		printf("}");
		sep = ",";
	}
	printf("\n  ],\n  \"refused\": [");
	sep = "";
	for (const struct sb_refusal *r = l->refusals; r; r = r->next) {
		printf("%s\n    {\"path\": ", sep);
		sb_json_str(stdout, r->path);
		printf(", \"reason\": ");
		sb_json_str(stdout, r->why);
		printf("}");
		sep = ",";
	}
	printf("\n  ]\n}\n");
}

int sb_list_plugins(struct sb_ctx *ctx, struct sb_loader *loader, int json)
{
	sb_loader_load_all(loader, ctx);
	if (json)
		print_json(loader);
	else
		print_table(loader);
	for (const struct sb_refusal *r = loader->refusals; r; r = r->next)
		sb_log(ctx, SB_LOG_WARN, NULL, "refused plugin %s: %s", r->path,
		       r->why);
	return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_JOB_ERROR;
}
