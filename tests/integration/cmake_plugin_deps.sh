#!/usr/bin/env bash
# sb_add_plugin(): a plugin whose pkg-config dependency is missing is skipped
# with a message, never a broken build; one without builds.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 7

mkdir -p "$T/src/sdk/storbench"
cp "$SB_SOURCE_DIR"/core/include/storbench/*.h "$T/src/sdk/storbench/"
cat >"$T/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(deps_probe VERSION 1.2.3 LANGUAGES C)
add_library(storbench_sdk INTERFACE)
add_library(storbench::sdk ALIAS storbench_sdk)
target_include_directories(storbench_sdk INTERFACE \${CMAKE_SOURCE_DIR}/sdk)
include($SB_SOURCE_DIR/core/cmake/SbPlugin.cmake)
sb_add_plugin(needs_nothing SOURCES p.c)
sb_add_plugin(needs_missing SOURCES p.c PKG_DEPS storbench-no-such-lib)
sb_add_plugin(needs_lib SOURCES p.c FIND_LIBS storbench_no_such_lib)
sb_add_plugin(needs_header SOURCES p.c FIND_HEADERS storbench_no_such.h)
CMAKE
cat >"$T/src/p.c" <<'C'
#include <storbench/engine.h>
static int p_queue(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}
static const struct sb_engine_ops p_ops = {
	.size = sizeof(struct sb_engine_ops), .queue = p_queue};
SB_PLUGIN_DEFINE(p, SB_KIND_ENGINE, &p_ops, .license = "MIT",
		 .description = "probe");
C

out=$(cmake -S "$T/src" -B "$T/b" 2>&1)
is "$?" 0 "configuring with a missing dependency succeeds"
like "$out" "storbench: skipping plugin 'needs_missing': storbench-no-such-lib not found" \
	"and says which plugin is skipped and why"
like "$out" "storbench: skipping plugin 'needs_lib': library storbench_no_such_lib not found" \
	"a library without a .pc file is looked for too"
like "$out" "storbench: skipping plugin 'needs_header': header storbench_no_such.h not found" \
	"and so is a header"
ok "the build succeeds" cmake --build "$T/b"
ok "the plugin without dependencies is built, with its project version" \
	bash -c "test -f '$T/b/needs_nothing.so' && strings '$T/b/needs_nothing.so' | grep -qx 1.2.3"
ok "the skipped plugin is not" test ! -e "$T/b/needs_missing.so"

done_testing
