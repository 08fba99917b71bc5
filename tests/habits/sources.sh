# sources.sh - the tree's C sources and headers, for the habit checks.
#
# habits_sources: print them NUL-separated, relative to $SB_SOURCE_DIR, in
# a stable order. In a git checkout these are the tracked files (what CI
# and review see); in an unpacked tarball, every *.c and *.h outside the
# build trees, which hold generated files nobody formats.
habits_sources() {
	if git -C "$SB_SOURCE_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$SB_SOURCE_DIR" ls-files -z -- '*.c' '*.h'
		return
	fi
	(cd "$SB_SOURCE_DIR" && find . \( -name '.*' -o -name 'build*' \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' \) -printf '%P\0' | sort -z)
}
