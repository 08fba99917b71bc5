#!/usr/bin/env bash
# Files the system loader cannot load, or could load only to fail later:
# the refusal names the real cause (the file exists, so "file not found" is
# never it), and a plugin with an unresolved symbol is refused when loaded
# instead of killing storbench at its first call.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 15

prefix="storbench: error: command line: refused plugin"

# cannot_load DESC FILE REGEX: a job naming FILE is refused with a reason
# matching REGEX after "cannot be loaded: " (REGEX "" only checks that some
# reason other than "file not found" is given).
cannot_load() {
	local desc=$1 file=$2 re=$3

	sb --name=j --size=1m --ioengine="$file"
	is "$RC" 2 "$desc: exit status 2 (bad input, no crash)"
	like "$ERR" "^$(re_quote "$prefix $file: cannot be loaded: ")[^"$'\n'"]*${re}[^"$'\n'"]*\$" \
		"$desc: one line naming the file"
	ok "$desc: the reason is not \"file not found\"" \
		test "$ERR" = "${ERR%: cannot be loaded: file not found}"
}

printf 'not an ELF file\n' >"$T/text.so"
cannot_load "a text file" "$T/text.so" ""
: >"$T/empty.so"
cannot_load "an empty file" "$T/empty.so" ""
cannot_load "a plugin whose library is missing" "$P/needs_dep.so" \
	"libsb_test_dep\\.so"

sb --name=j --size=1m --ioengine="$P/undef_sym.so"
is "$RC" 2 "a plugin with an unresolved symbol: exit status 2, not a crash"
like "$ERR" "^$(re_quote "$prefix $P/undef_sym.so: ")[^"$'\n'"]*sb_test_no_such_function[^"$'\n'"]*\$" \
	"a plugin with an unresolved symbol: one line naming the file and the symbol"
is "$OUT" "" "a plugin with an unresolved symbol: no report"

# Scanned with the rest for --list-plugins, they are refused, not fatal.
mkdir "$T/dir"
cp "$P/needs_dep.so" "$P/undef_sym.so" "$T/dir/"
sb --list-plugins --plugin-dir="$T/dir"
is "$RC" 0 "--list-plugins over unloadable plugins: exit status 0"
is "$(grep -c "refused plugin $T/dir/" <<<"$ERR")" 2 \
	"--list-plugins over unloadable plugins: both refused"
like "$OUT" $'\nnull ' "--list-plugins over unloadable plugins: lists the rest"

done_testing
