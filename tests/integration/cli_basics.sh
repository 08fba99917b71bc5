#!/usr/bin/env bash
# The command line's contract: --version, --help, bad flags and bad job
# files are bad input (exit 2) with a message that says where, --list-plugins
# shows what was found, --output sends the report to a file, and a job can
# take its I/O from a generator plugin.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 61

ver_h=$SB_SOURCE_DIR/core/include/storbench/version.h
VER=$(sed -n 's/^#define SB_VERSION_STRING "\(.*\)"$/\1/p' "$ver_h")
[[ -n $VER ]] || bail "no SB_VERSION_STRING in $ver_h"

sb --version
is "$RC" 0 "--version: exit status 0"
is "$OUT" "storbench-$VER (plugin ABI $MAJ.$MIN)" \
	"--version: program version and plugin ABI, one line"
is "$ERR" "" "--version: nothing on stderr"

for h in --help -h; do
	sb "$h"
	is "$RC" 0 "$h: exit status 0"
	like "$OUT" $'^usage: storbench .*\n.*--list-plugins .*\nExit status: 0 ok, 1 a job failed, 2 bad input\\.$' \
		"$h: usage on stdout, from the synopsis to the exit statuses"
	is "$ERR" "" "$h: nothing on stderr"
done

refused "an unknown flag" \
	"storbench: error: unknown option '-x' (see storbench --help)" -x

sb
is "$RC" 2 "no jobs: exit status 2"
like "$ERR" '^usage: storbench ' "no jobs: the usage on stderr"
is "$OUT" "" "no jobs: nothing on stdout"

# The in-tree plugins, each with its own version (the project() VERSION of
# its folder) and the ABI it was built for.
sb --list-plugins
is "$RC" 0 "--list-plugins: exit status 0"
like "$OUT" '^NAME +KIND +VERSION +ABI +LICENSE +PATH +DESCRIPTION' \
	"--list-plugins: a header row"
for row in "null engine plugins/engines/null" \
	"psync engine plugins/engines/psync" "normal reporter reporters/normal"; do
	read -r name kind dir <<<"$row"
	pver=$(sed -n 's/^project(.* VERSION \([0-9.]*\).*/\1/p' \
		"$SB_SOURCE_DIR/$dir/CMakeLists.txt")
	is "$(awk -v n="$name" '$1 == n { print $2, $3, $4, $6 }' <<<"$OUT")" \
		"$kind $pver $MAJ.$MIN $INTREE/$name.so" \
		"--list-plugins: $name's kind, version, ABI and path"
done

# Job files: a mistake names the file and line.
cat >"$T/unknown.fio" <<'EOF'
[global]
ioengine=null
size=1m

[j]
bs=4k
bogus_opt=1
EOF
refused "a job file with an unknown option" \
	"storbench: error: $T/unknown.fio:7: unknown option 'bogus_opt'" \
	"$T/unknown.fio"
printf '[j\nsize=1m\n' >"$T/header.fio"
refused "a job file with a malformed section header" \
	"storbench: error: $T/header.fio:1: malformed section header '[j'" \
	"$T/header.fio"
refused "a job file that does not exist" \
	"storbench: error: cannot open job file $T/none.fio: No such file or directory" \
	"$T/none.fio"
refused "an unknown job option on the command line" \
	"storbench: error: command line: unknown option 'bogus'" \
	--name=j --ioengine=null --size=1m --bogus=1
# Only an option's name is bounded on the command line, not its value
# (a filename= list of many devices runs past 255 bytes).
long=$(printf 'x%.0s' {1..300})
runs "a 300-byte value on the command line" \
	--name=j --ioengine=null --size=1m --description="$long"
refused "a 300-byte option name" \
	"storbench: error: option name too long: --${long:0:40}... (see storbench --help)" \
	--name=j --ioengine=null --size=1m --"$long"=1
sed '/^bogus_opt/d' "$T/unknown.fio" >"$T/good.fio"
runs "a correct job file" "$T/good.fio"

# --output: the report goes to the file, stdout stays empty.
sb --name=j --ioengine=null --size=1m --output="$T/report.txt"
is "$RC" 0 "--output=FILE: exit status 0"
is "$OUT" "" "--output=FILE: nothing on stdout"
is "$ERR" "" "--output=FILE: nothing on stderr"
like "$(<"$T/report.txt")" $'^j: \\(groupid=0, jobs=1\\).*\n  read: IOPS=.*\\(1024KiB/' \
	"--output=FILE: the report is in FILE"
refused "--output in a dir that does not exist" \
	"storbench: error: cannot write --output=$T/none/report.txt: No such file or directory" \
	--name=j --ioengine=null --size=1m --output="$T/none/report.txt"

# A generator plugin drives the job: gen_seq only reads, so with rw=write
# the reads in the report are its doing, and seq_ios= (its own option)
# stops it after that many blocks.
gen=(--name=g --ioengine=null --rw=write --bs=4k --size=1m
	--generator="$P/gen_seq.so")
sb "${gen[@]}"
is "$RC" 0 "generator: exit status 0"
like "$OUT" $'\n  read: IOPS=[^\n]*\\(1024KiB/' "generator: read the whole file"
like "$OUT" $'\n   READ: ' "generator: reads in the group summary"
ok "generator: and no writes" test "${OUT/write:/}" = "$OUT"
is "$ERR" "" "generator: nothing on stderr"
sb "${gen[@]}" --seq_ios=10
is "$RC" 0 "generator option: exit status 0"
like "$OUT" $'\n  read: IOPS=[^\n]*\\(40\\.0KiB/' \
	"generator option: seq_ios=10 read 10 blocks of 4 KiB"
refused "a generator option out of range" \
	"storbench: error: command line: seq_ios=-1 is out of range (0..9223372036854775807)" \
	"${gen[@]}" --seq_ios=-1
refused "an option neither the engine nor the generator has" \
	"storbench: error: command line: unknown option 'nope'; did you mean 'nice'?" \
	"${gen[@]}" --nope=1

done_testing
