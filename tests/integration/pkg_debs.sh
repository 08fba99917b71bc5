#!/usr/bin/env bash
# Each component ships and versions on its own: `cpack -G DEB` over the
# build tree makes a package per plugin (its project's name and version,
# depending on the storbench ABI major and on its libraries), one for
# storbench and storbench-dev. Installed with dpkg into an empty root,
# storbench and one engine run a job with that engine alone, and upgrading
# one plugin's package leaves the others as they were.
# Also: `cmake --install --prefix X` gives a storbench.pc naming X and a
# binary that loads X's plugins.
set -euo pipefail
# shellcheck source=../tap/tap.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../tap/tap.sh"

for tool in cpack dpkg dpkg-deb dpkg-shlibdeps; do
	command -v "$tool" >/dev/null || plan_skip_all "$tool is not installed"
done

# dpkg installs into a root of its own only as root.
((EUID == 0)) || plan_skip_all "dpkg --root needs root"

unset STORBENCH_PLUGIN_PATH
sb_tmpdir tmp
tmp=$(cd -- "$tmp" && pwd -P)
build=$SB_BUILD_DIR

ver_h=$SB_SOURCE_DIR/core/include/storbench/version.h
MAJOR=$(sed -n 's/^#define SB_ABI_MAJOR \([0-9]*\)/\1/p' "$ver_h")
ABI=$MAJOR.$(sed -n 's/^#define SB_ABI_MINOR \([0-9][0-9]*\)$/\1/p' "$ver_h")
RELEASE=$(sed -n 's/^#define SB_VERSION_STRING "\([0-9.]*\)".*/\1/p' "$ver_h")

need() {
	if ((!TAP_LAST_OK)); then
		bail "$1"
	fi
}

# field DEB NAME: one control field of a package file.
field() {
	dpkg-deb -f "$1" "$2"
}

# deb_of PACKAGE: the one .deb cpack wrote for PACKAGE.
deb_of() {
	local f
	for f in "$tmp/pk/$1"_*.deb; do
		if [[ -e $f && $(field "$f" Package) == "$1" ]]; then
			printf '%s\n' "$f"
		fi
	done
}

# engines ROOT: the engine names ROOT's storbench lists, one per line.
engines() {
	"$1/usr/bin/storbench" --list-plugins | awk '$2 == "engine" { print $1 }'
}

## The packages

ok "cpack -G DEB over the build tree" \
	cpack -G DEB -B "$tmp/pk" --config "$build/CPackConfig.cmake"
need "cpack failed"

# Every plugin the build made has its package, named and versioned by its
# folder's project(); the plugins the build skipped have none to check.
nplugins=0
for list in "$SB_SOURCE_DIR"/plugins/*/*/CMakeLists.txt \
	"$SB_SOURCE_DIR"/reporters/*/CMakeLists.txt; do
	read -r pkg ver < <(sed -n \
		's/^project(\([^ ]*\) VERSION \([0-9.]*\).*/\1 \2/p' "$list")
	name=$(sed -n 's/^sb_add_plugin(\([^ ]*\) .*/\1/p' "$list")
	[[ -f $build/lib/storbench/plugins/$name.so ]] || continue
	nplugins=$((nplugins + 1))
	deb=$(deb_of "$pkg")
	ok "$pkg: a package" test -n "$deb"
	[[ -n $deb ]] || continue
	is "$(field "$deb" Version)" "$ver" "$pkg: version $ver, its project's"
	like "$(field "$deb" Depends)" "(^|, )storbench-abi-$MAJOR \\(>= $ABI\\)" \
		"$pkg: depends on storbench-abi-$MAJOR (>= $ABI)"
	# Links to it (a second name the loader finds it by) aside.
	is "$(dpkg-deb -c "$deb" | awk '$1 !~ /^[dl]/ { print $6 }')" \
		"./usr/lib/storbench/plugins/$name.so" "$pkg: ships $name.so alone"
	case $name in
	libiscsi) like "$(dpkg-deb -c "$deb" | awk '$1 ~ /^l/ { print $6, $7, $8 }')" \
		'^\./usr/lib/storbench/plugins/iscsi\.so -> libiscsi\.so$' \
		"$pkg: and iscsi.so, a link to it"
		like "$(field "$deb" Depends)" '(^|, )libiscsi7 ' \
			"$pkg: depends on its library, libiscsi7" ;;
	libaio) like "$(field "$deb" Depends)" '(^|, )libaio1 ' \
		"$pkg: depends on its library, libaio1" ;;
	io_uring) like "$(field "$deb" Depends)" '(^|, )liburing2 ' \
		"$pkg: depends on its library, liburing2" ;;
	esac
done
ok "the build made plugins to package" test "$nplugins" -gt 0

sbdeb=$(deb_of storbench)
ok "storbench: a package" test -n "$sbdeb"
need "no storbench package"
is "$(field "$sbdeb" Version)" "$RELEASE" "storbench: version $RELEASE"
is "$(field "$sbdeb" Provides)" "storbench-abi-$MAJOR (= $ABI)" \
	"storbench: provides storbench-abi-$MAJOR (= $ABI)"
like "$(field "$sbdeb" Depends)" '(^|, )libltdl7 ' \
	"storbench: depends on libltdl7"

devdeb=$(deb_of storbench-dev)
ok "storbench-dev: a package" test -n "$devdeb"
need "no storbench-dev package"
devfiles=$(dpkg-deb -c "$devdeb" | awk '{ print $6 }')
ok "storbench-dev: ships the SDK headers" \
	grep -qx './usr/include/storbench/plugin.h' <<<"$devfiles"
ok "storbench-dev: ships the CMake package" \
	grep -q '/cmake/storbench/storbench-config.cmake$' <<<"$devfiles"
pc=$(dpkg-deb --fsys-tarfile "$devdeb" | tar -xOf - --wildcards \
	'*/pkgconfig/storbench.pc')
like "$pc" $'(^|\n)prefix=/usr\n' "storbench-dev: storbench.pc names /usr"

# A file in two packages would be rewritten by the other's upgrade.
is "$(for d in "$tmp"/pk/*.deb; do
	dpkg-deb -c "$d" | awk '$1 !~ /^d/ { print $6 }'
done | sort | uniq -d)" "" "no file is shipped by two packages"

## An empty root: storbench, what it depends on of ours, one engine

root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
ours=()
IFS=, read -ra deps <<<"$(field "$sbdeb" Depends)"
for d in "${deps[@]}"; do
	d=${d# }
	d=${d%% *}
	f=$(deb_of "$d")
	if [[ -n $f ]]; then
		ours+=("$f")
	fi
done
# The root's database knows none of the system's libraries: one stub
# package provides each library ours depend on, at the version this
# machine has, so dpkg checks every dependency for real.
provides=$(for d in "$tmp"/pk/*.deb; do
	field "$d" Depends | tr ',' '\n' | awk '{ print $1 }'
done | grep -v -e '^storbench' -e '^$' | sort -u | while read -r lib; do
	printf '%s (= %s), ' "$lib" "$(dpkg-query -W -f='${Version}' "$lib")"
done)
mkdir -p "$tmp/stub/DEBIAN"
cat >"$tmp/stub/DEBIAN/control" <<EOF
Package: sb-test-system
Version: 1
Architecture: all
Maintainer: storbench tests <root@localhost>
Description: the libraries of the machine running the test
Provides: ${provides%, }
EOF
ok "a stub package for the system's libraries" \
	dpkg-deb -b "$tmp/stub" "$tmp/stub.deb"
ok "dpkg -i storbench, what it depends on and storbench-engine-psync" \
	dpkg --root="$root" -i "$tmp/stub.deb" "$sbdeb" "${ours[@]}" \
	"$(deb_of storbench-engine-psync)"
need "the packages do not install"
is "$(engines "$root" | paste -sd' ')" "psync" \
	"--list-plugins there lists psync and no other engine"
is "$("$root/usr/bin/storbench" --list-plugins |
	awk 'NR > 1 && index($6, "'"$root"'/") != 1')" "" \
	"and loads nothing from outside the root"

cd "$tmp"
out=$("$root/usr/bin/storbench" --name=j --ioengine=psync \
	--filename="$tmp/data" --size=1m --bs=4k --rw=write 2>&1) && st=0 || st=$?
is "$st" 0 "a psync job runs from the root"
like "$out" $'\n  write: IOPS=[1-9][0-9.]*[kMG]?, [^\n]*\\(1024KiB/' \
	"it reports IOPS > 0 and 1024KiB written"
is "$(stat -c %s "$tmp/data")" 1048576 "and wrote the 1 MiB file"

## Upgrading one plugin's package

nulldeb=$(deb_of storbench-engine-null)
ok "dpkg -i storbench-engine-null beside it" \
	dpkg --root="$root" -i "$nulldeb"
status() {
	dpkg-query --admindir="$root/var/lib/dpkg" -W \
		-f='${Package} ${Version} ${Status}\n' | sort
}
sums() {
	find "$root/usr" -type f ! -name psync.so -exec md5sum {} + | sort
}
before=$(status)
before_sums=$(sums)
psync_ver=$(field "$(deb_of storbench-engine-psync)" Version)
new_ver=$psync_ver.1
ok "cpack makes storbench-engine-psync $new_ver alone" \
	cpack -G DEB -B "$tmp/up" --config "$build/CPackConfig.cmake" \
	-D CPACK_COMPONENTS_ALL=plugin_psync \
	-D CPACK_SB_VERSION_PLUGIN_PSYNC="$new_ver"
debs=("$tmp"/up/*.deb)
updeb=${debs[0]}
is "${#debs[@]} ${updeb##*/}" "1 storbench-engine-psync_${new_ver}_$(field \
	"$updeb" Architecture).deb" "it is the one package written"
ok "dpkg -i upgrades psync" dpkg --root="$root" -i "$updeb"
after=$(status)
is "$(grep '^storbench-engine-psync ' <<<"$after" | cut -d' ' -f2)" \
	"$new_ver" "psync is now $new_ver"
is "$(grep -v '^storbench-engine-psync ' <<<"$after")" \
	"$(grep -v '^storbench-engine-psync ' <<<"$before")" \
	"every other package keeps its version and state"
is "$(sums)" "$before_sums" "and every other file is unchanged"
is "$(engines "$root" | paste -sd' ')" "null psync" \
	"both engines are listed after the upgrade"

## A relocated install

prefix=$tmp/x
ok "cmake --install --prefix $prefix" \
	cmake --install "$build" --prefix "$prefix"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
pcfile=$prefix/$libdir/pkgconfig/storbench.pc
like "$(cat "$pcfile")" $'(^|\n)prefix='"$prefix"$'\n' \
	"storbench.pc's prefix is $prefix"
is "$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig \
	pkg-config --variable=plugindir storbench)" \
	"$prefix/$libdir/storbench/plugins" "its plugindir is under $prefix"
paths=$("$prefix/bin/storbench" --list-plugins | awk 'NR > 1 { print $6 }')
ok "$prefix/bin/storbench finds plugins" test -n "$paths"
is "$(grep -v "^$prefix/$libdir/storbench/plugins/" <<<"$paths" ||
	true)" "" "all of them from $prefix"

done_testing
