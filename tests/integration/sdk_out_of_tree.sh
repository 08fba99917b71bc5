#!/usr/bin/env bash
# The installable SDK, end to end: install the tree into a temporary prefix,
# check what landed there, then build the skeleton engine from a copy outside
# the source tree against that install alone (once with cc and pkg-config, once
# with CMake's find_package) and run jobs on it with the installed binary.
#
# It configures and builds the whole tree a second time, so it takes a while;
# under sanitizers (SB_SANITIZE, set by ctest) that build is sanitized too.
set -euo pipefail
# shellcheck source=../tap/tap.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../tap/tap.sh"

for tool in cmake cc pkg-config; do
	command -v "$tool" >/dev/null || plan_skip_all "$tool is not installed"
done

plan 75

# What --list-plugins must show for the skeleton: its project version and
# the SDK's plugin ABI, read from the sources they come from.
SKV=$(sed -n 's/^project(storbench-engine-skeleton VERSION \([0-9.]*\).*/\1/p' \
	"$SB_SOURCE_DIR/plugins/engines/skeleton/CMakeLists.txt")
ver_h=$SB_SOURCE_DIR/core/include/storbench/version.h
ABI=$(sed -n 's/^#define SB_ABI_MAJOR \([0-9]*\)/\1/p' "$ver_h").$(sed -n \
	's/^#define SB_ABI_MINOR \([0-9]*\)/\1/p' "$ver_h")

# Nothing from the caller's environment may point at another storbench.
unset STORBENCH_PLUGIN_PATH CMAKE_PREFIX_PATH PKG_CONFIG_PATH

sb_tmpdir tmp
# The loader prints resolved paths; compare against resolved ones.
tmp=$(cd -- "$tmp" && pwd -P)
build=$tmp/build
prefix=$tmp/prefix

# Stop at the first failure of a step everything after it needs.
need() {
	if ((!TAP_LAST_OK)); then
		bail "$1"
	fi
}

# like_line TEXT ERE DESC: some line of TEXT matches ERE. On failure TEXT is
# shown, so the diagnostics say what storbench printed.
like_line() {
	ok "$3" grep -Eq -- "$2" <<<"$1"
	if ((!TAP_LAST_OK)); then
		diag "output was:"
		diag "$1"
	fi
}

# run CMD...: run it, leaving its output in $out and exit status in $st.
run() {
	out=$("$@" 2>&1) && st=0 || st=$?
}

## Install

config=(-S "$SB_SOURCE_DIR" -B "$build" -DCMAKE_INSTALL_PREFIX="$prefix"
	-DSTORBENCH_TESTS=OFF)
if [[ -n ${SB_SANITIZE:-} ]]; then
	config+=(-DSTORBENCH_SANITIZE="$SB_SANITIZE")
fi
ok "configure the source tree for $prefix" cmake "${config[@]}"
need "cannot configure the source tree"
ok "build it" cmake --build "$build" -j2
need "cannot build the source tree"
ok "cmake --install" cmake --install "$build"
need "cannot install"

# GNUInstallDirs picks the library directory (plain lib for a prefix like this
# one on Debian, lib/<multiarch> only for /usr; lib64 elsewhere): read the
# choice rather than guess it.
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
like "$libdir" '^[^/]' "the library directory is relative to the prefix"
plugindir=$prefix/$libdir/storbench/plugins

installed=(bin/storbench)
for h in plugin engine generator reporter option stats version \
	sb_file_engine sb_async_engine mock_host; do
	installed+=("include/storbench/$h.h")
done
for t in tap file_engine_tests async_engine_tests; do
	installed+=("share/storbench/tests/$t.sh")
done
installed+=(
	"$libdir/pkgconfig/storbench.pc"
	"$libdir/cmake/storbench/storbench-config.cmake"
	"$libdir/cmake/storbench/storbench-config-version.cmake"
	"$libdir/cmake/storbench/storbench-targets.cmake"
	"$libdir/cmake/storbench/SbPlugin.cmake"
)
for p in null psync normal skeleton; do
	installed+=("$libdir/storbench/plugins/$p.so")
done
for f in "${installed[@]}"; do
	ok "installed $f" test -f "$prefix/$f"
done
ok "installed bin/storbench is executable" test -x "$prefix/bin/storbench"
need "the installed binary is missing"

sb=$prefix/bin/storbench
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
# read drops the blank pkg-config leaves at the end.
read -r cflags < <(pkg-config --cflags storbench)
is "$cflags" "-I$prefix/include" \
	"pkg-config --cflags names the installed headers only"
is "$(pkg-config --variable=plugindir storbench)" "$plugindir" \
	"pkg-config's plugindir is where the installed plugins are"
is "$(pkg-config --variable=abi storbench)" \
	"$("$sb" --version | sed -n 's/.*plugin ABI \([0-9.]*\)).*/\1/p')" \
	"pkg-config's abi is the installed binary's plugin ABI"

## The installed binary finds the installed plugins, and nothing else

run "$sb" --list-plugins
is "$st" 0 "installed storbench --list-plugins exits 0"
for p in null psync normal skeleton; do
	like_line "$out" "^$p +[a-z]+ +[0-9.]+ +[0-9.]+ +[^ ]+ +$plugindir/$p\.so " \
		"installed --list-plugins finds $p in $plugindir"
done
paths=$(awk 'NR > 1 && $6 ~ /^\// { print $6 }' <<<"$out")
is "$(grep -v -- "^$plugindir/" <<<"$paths" || true)" "" \
	"installed --list-plugins loads nothing from outside the prefix"
like_line "$out" "^skeleton +engine +${SKV//./\\.} +${ABI//./\\.} " \
	"installed skeleton is listed with version $SKV and ABI $ABI"

## Out of tree: a copy of the skeleton, built against the install

src=$tmp/src/skeleton
mkdir -p "$tmp/src"
cp -R "$SB_SOURCE_DIR/plugins/engines/skeleton" "$src"
case $(realpath "$src")/ in
"$(realpath "$SB_SOURCE_DIR")"/*) bail "the copy $src is inside the source tree" ;;
esac

mkdir -p "$tmp/cc"
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
ok "cc builds skeleton.c with pkg-config --cflags storbench" \
	cc -std=c17 -Wall -Wextra -Werror -shared -fPIC \
	$(pkg-config --cflags storbench) "$src/skeleton.c" -o "$tmp/cc/skeleton.so"

ok "cmake configures the copy with find_package(storbench)" \
	cmake -S "$src" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_FLAGS="-Wall -Wextra -Werror" \
	-DCMAKE_INSTALL_PREFIX="$tmp/plugin-prefix"
is "$(sed -n 's/^storbench_DIR:[A-Z]*=//p' "$tmp/b/CMakeCache.txt")" \
	"$prefix/$libdir/cmake/storbench" \
	"find_package used the installed package"
ok "cmake builds the copy" cmake --build "$tmp/b" -j2
ok "the CMake build made skeleton.so" test -f "$tmp/b/skeleton.so"
ok "cmake --install puts it in <libdir>/storbench/plugins" \
	cmake --install "$tmp/b"
ok "installed out-of-tree plugin is where the host looks under its prefix" \
	test -f "$tmp/plugin-prefix/$libdir/storbench/plugins/skeleton.so"

job=(--name=t --size=1m --rw=randrw)
read_re='^  read: IOPS=[0-9.]+[kMG]?, '
write_re='^  write: IOPS=[0-9.]+[kMG]?, '
fact_re='^  skeleton\.target_bytes: 1048576$'

for how in cc cmake; do
	so=$tmp/cc/skeleton.so
	[[ $how == cmake ]] && so=$tmp/b/skeleton.so
	run "$sb" "${job[@]}" --ioengine="external:$so"
	is "$st" 0 "$how build: ioengine=external:/abs/skeleton.so exits 0"
	like_line "$out" "$read_re" "$how build: read IOPS line"
	like_line "$out" "$write_re" "$how build: write IOPS line"
	like_line "$out" "$fact_re" "$how build: target_bytes fact"
done

so=$tmp/cc/skeleton.so
run "$sb" "${job[@]}" --ioengine="$so"
is "$st" 0 "ioengine=/abs/skeleton.so (a bare path) exits 0"
like_line "$out" "$read_re" "bare path: read IOPS line"
like_line "$out" "$fact_re" "bare path: target_bytes fact"

run "$sb" "${job[@]}" --ioengine="external:$so" --skeleton_fill=7
is "$st" 0 "--skeleton_fill=7 exits 0"
like_line "$out" '^  skeleton\.fill: 7$' "the option reached the plugin"
like_line "$out" "$write_re" "--skeleton_fill=7: write IOPS line"

run "$sb" "${job[@]}" --ioengine="external:$so" --skeleton_fill=256
is "$st" 2 "--skeleton_fill=256 is bad input (exit 2)"
like "$out" 'skeleton_fill=256 is out of range \(0\.\.255\)' \
	"the message names the option and its range"

run "$sb" "${job[@]}" --ioengine=skeleton --numjobs=2
is "$st" 0 "installed binary runs ioengine=skeleton by name"
like_line "$out" '^  skeleton\.target_bytes: 2097152$' \
	"the targets of two clones span twice the memory"

## Out of tree: an engine's unit test on the installed mock host

is "$(pkg-config --variable=testdir storbench)" \
	"$prefix/share/storbench/tests" \
	"pkg-config's testdir is where the conformance scripts are"
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
ok "cc builds the skeleton's mock-host test with pkg-config alone" \
	cc -std=c17 -Wall -Wextra -Werror $(pkg-config --cflags storbench) \
	"$src/tests/mock.c" -o "$tmp/cc/mock"
run "$tmp/cc/mock"
is "$st" 0 "the mock-host test passes"
like_line "$out" '^ok 8 - report publishes skeleton.target_bytes$' \
	"the mock host ran the skeleton's hooks to its report"
is "$(grep -c '^not ok' <<<"$out" || true)" 0 "no mock-host test failed"

## Out of tree: a file engine on the installed helpers and conformance tests

# psync's source as a third party would start from it: the helpers come
# from the installed SDK, its name is its own.
mkdir -p "$tmp/oot"
sed -e 's|#include "../common/sb_file_engine.h"|#include <storbench/sb_file_engine.h>|' \
	-e 's|\.name = "psync"|.name = "oot_psync"|' \
	"$SB_SOURCE_DIR/plugins/engines/psync/psync.c" >"$tmp/oot/oot_psync.c"
ok "the copy includes the installed sb_file_engine.h" \
	grep -q '^#include <storbench/sb_file_engine.h>$' "$tmp/oot/oot_psync.c"
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
ok "cc builds the file engine against the installed helpers" \
	cc -std=c17 -Wall -Wextra -Werror -shared -fPIC \
	-DSB_PLUGIN_VERSION='"1.0.0"' \
	$(pkg-config --cflags storbench) "$tmp/oot/oot_psync.c" \
	-o "$tmp/oot/oot_psync.so"
testdir=$(pkg-config --variable=testdir storbench)
cat >"$tmp/oot/roundtrip.sh" <<EOS
#!/usr/bin/env bash
set -u
source "$testdir/tap.sh"
source "$testdir/file_engine_tests.sh"
sb_tmpdir T
plan "\$FE_ROUNDTRIP_TESTS"
fe_roundtrip "external:$tmp/oot/oot_psync.so" "\$T/f" "out of tree"
done_testing
EOS
run env SB_BIN="$sb" SB_SOURCE_DIR="$tmp/oot" SB_BUILD_DIR="$tmp/oot" \
	bash "$tmp/oot/roundtrip.sh"
is "$st" 0 "the installed conformance script passes on the out-of-tree engine"
like_line "$out" '^ok [0-9]+ - external:.* out of tree: the file holds what psync writes$' \
	"the installed fe_roundtrip compared its file with psync's"
is "$(grep -c '^not ok' <<<"$out" || true)" 0 \
	"no installed conformance test failed"
if ((!TAP_LAST_OK)); then
	diag "$out"
fi

## The build tree's binary lists the in-tree skeleton

run "$build/bin/storbench" --list-plugins
like_line "$out" "^skeleton +engine +${SKV//./\\.} +${ABI//./\\.} +[^ ]+ +$build/lib/storbench/plugins/skeleton\.so " \
	"build-tree --list-plugins shows skeleton $SKV, ABI $ABI, from the build tree"
if [[ -x $SB_BIN ]]; then
	run "$SB_BIN" --list-plugins
	like_line "$out" "^skeleton +engine +${SKV//./\\.} +${ABI//./\\.} " \
		"$SB_BIN --list-plugins shows skeleton $SKV, ABI $ABI"
else
	skip 1 "$SB_BIN is not built"
fi

done_testing
