#!/usr/bin/env bash
# The loader refuses every purpose-built bad plugin (tests/plugins) with one
# line naming the file and the reason, as bad input (exit 2), without
# crashing; a broken plugin the job does not use is harmless; plugins load
# by path, and by name along the search path in its documented order.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

# What the host says about each bad plugin (validate.c, loader.c).
declare -A why=(
	[abi_major]="built for plugin ABI $((MAJ + 1)).$MIN, this host has ABI $MAJ.$MIN: the major version differs, rebuild it against this SDK"
	[abi_old]="built for plugin ABI $((MAJ - 1)).$MIN, this host has ABI $MAJ.$MIN: the major version differs, rebuild it against this SDK"
	[abi_minor]="built for plugin ABI $MAJ.$((MIN + 1)), newer than this host's ABI $MAJ.$MIN: upgrade storbench"
	[no_symbol]="has no descriptor symbol 'storbench_plugin' (is it a storbench plugin?)"
	[short_desc]="descriptor is smaller than ABI 2.0's"
	[no_name]="required field 'name' is missing"
	[bad_name]="name 'Bad Name' is invalid (use a-z, 0-9, '_', '-')"
	[no_version]="required field 'version' is missing"
	[no_license]="required field 'license' is missing"
	[no_description]="required field 'description' is missing"
	[bad_kind]="field 'kind' is not engine, generator or reporter"
	[no_ops]="required field 'ops' is missing"
	[bad_option]="option 'bad_depth' lies outside options_size"
	[opt_reserved]="option 'res_depth' sets reserved fields"
	[enum_no_choices]="required field 'choices' of option 'enum_mode' is missing"
	[no_queue]="required hook 'queue' is missing"
	[short_ops]="required hook 'queue' is missing"
	[async_no_getevents]="required hook 'getevents' is missing (the engine says it is asynchronous)"
	[gen_no_next]="required hook 'next' is missing"
	[reporter_no_run_end]="required hook 'run_end' is missing"
)
engines=(abi_major abi_old abi_minor no_symbol short_desc no_name bad_name
	no_version no_license no_description bad_kind no_ops bad_option
	opt_reserved enum_no_choices no_queue short_ops async_no_getevents)
job=(--name=j --size=1m)

# Each bad engine, named as ioengine=external:/path (every other one as a
# bare path: both forms go through the same checks).
form=external:
for n in "${engines[@]}"; do
	refused "$n as ioengine=$form/path" \
		"storbench: error: command line: refused plugin $P/$n.so: ${why[$n]}" \
		"${job[@]}" --ioengine="$form$P/$n.so"
	[[ -n $form ]] && form='' || form=external:
done
refused "generator without next" \
	"storbench: error: command line: refused plugin $P/gen_no_next.so: ${why[gen_no_next]}" \
	"${job[@]}" --ioengine=null --generator="$P/gen_no_next.so"
refused "reporter without run_end" \
	"storbench: error: refused plugin $P/reporter_no_run_end.so: ${why[reporter_no_run_end]}" \
	"${job[@]}" --ioengine=null --output-format="$P/reporter_no_run_end.so"

# From a job file, the line names where the plugin was asked for.
printf '[j]\nsize=1m\nioengine=%s\n' "$P/abi_minor.so" >"$T/minor.fio"
refused "refusal from a job file" \
	"storbench: error: $T/minor.fio:3: refused plugin $P/abi_minor.so: ${why[abi_minor]}" \
	"$T/minor.fio"

# Paths that are not regular files are refused before anything opens
# them: a FIFO would otherwise block the open forever.
mkdir "$T/x.so"
mkfifo "$T/y.so"
refused "a directory named x.so" \
	"storbench: error: command line: refused plugin $T/x.so: not a regular file" \
	"${job[@]}" --ioengine="$T/x.so"
refused "a FIFO named y.so" \
	"storbench: error: command line: refused plugin $T/y.so: not a regular file" \
	"${job[@]}" --ioengine="external:$T/y.so"
refused "a path that does not exist" \
	"storbench: error: command line: cannot load plugin $T/none.so: No such file or directory" \
	"${job[@]}" --ioengine="$T/none.so"

# A file that is not a shared object at all. What follows "cannot be
# loaded:" comes from the dynamic loader; its wording is tested in
# loader_load_errors.sh.
printf 'not an ELF file\n' >"$T/z.so"
sb "${job[@]}" --ioengine="$T/z.so"
is "$RC" 2 "not a shared object: exit status 2 (bad input, no crash)"
like "$ERR" "^storbench: error: command line: refused plugin $(re_quote "$T/z.so"): cannot be loaded: [^"$'\n'"]+$" \
	"not a shared object: one line naming the file"

# A plugin of the wrong kind for where it is named.
sb "${job[@]}" --ioengine=null --generator="$P/extnull.so"
is "$RC" 2 "an engine named as generator: exit status 2"
like "$ERR" "^storbench: error: command line: plugin 'extnull' \\($(re_quote "$P/extnull.so")\\) is an? engine, not a generator\$" \
	"an engine named as generator: one line naming the file and both kinds"

# Duplicate names. A job loading dup_null by path after another job loaded
# the in-tree null: the second "null" is refused, naming both files.
refused "duplicate name, loaded by path" \
	"storbench: error: command line: refused plugin $P/dup_null.so: name 'null' is already taken by the plugin at $INTREE/null.so" \
	--name=a --ioengine=null --size=1m \
	--name=b --ioengine="$P/dup_null.so" --size=1m

# The descriptor's name decides, not the file: a copy of extnull under
# another file name clashes with the original...
cp "$P/extnull.so" "$T/extnull_copy.so"
refused "duplicate name, same plugin copied" \
	"storbench: error: command line: refused plugin $T/extnull_copy.so: name 'extnull' is already taken by the plugin at $P/extnull.so" \
	--name=a --ioengine="$P/extnull.so" --size=1m \
	--name=b --ioengine="$T/extnull_copy.so" --size=1m
# ...while a symlink is the same file, loaded once, and no duplicate.
ln -s "$P/extnull.so" "$T/extnull_link.so"
sb --name=a --ioengine="$P/extnull.so" --size=1m \
	--name=b --ioengine="$T/extnull_link.so" --size=1m
is "$RC" 0 "the same plugin through a symlink: exit status 0"
like "$OUT" $'^a: .*\nb: ' "the same plugin through a symlink: both jobs ran"

# --list-plugins scans the search path in order, first dir first, and
# within a dir in file name order: dup_null.so in a --plugin-dir comes
# before the build tree's null.so, so that one is refused and listed null
# is dup_null.
mkdir "$T/dup"
cp "$P/dup_null.so" "$T/dup/"
sb --list-plugins --plugin-dir="$T/dup"
is "$RC" 0 "--list-plugins with a duplicate: exit status 0"
is "$(grep -F "$INTREE/null.so" <<<"$ERR")" \
	"storbench: warning: refused plugin $INTREE/null.so: name 'null' is already taken by the plugin at $T/dup/dup_null.so" \
	"--list-plugins with a duplicate: the later null.so is refused"
is "$(awk '$1 == "null" { print $6 }' <<<"$OUT")" "$T/dup/dup_null.so" \
	"--list-plugins with a duplicate: the listed null is the first found"
# STORBENCH_PLUGIN_PATH also comes before the build tree.
STORBENCH_PLUGIN_PATH=$T/dup sb --list-plugins
is "$(awk '$1 == "null" { print $6 }' <<<"$OUT")" "$T/dup/dup_null.so" \
	"STORBENCH_PLUGIN_PATH comes before the build tree's plugins"

# A dir of nothing but broken plugins on the search path.
bad=$T/bad
mkdir "$bad" "$bad/x.so"
mkfifo "$bad/y.so"
printf 'not an ELF file\n' >"$bad/z.so"
for n in "${!why[@]}"; do
	cp "$P/$n.so" "$bad/"
done
why[x]="not a regular file"
why[y]="not a regular file"
# What the refusals must say, in the loader's order (file names sorted
# bytewise), as one regex per line.
want=()
while IFS= read -r f; do
	n=${f%.so}
	if [[ $n == z ]]; then
		want+=("$(re_quote "$bad/$f"): cannot be loaded: .+")
	else
		want+=("$(re_quote "$bad/$f: ${why[$n]}")")
	fi
done < <(cd "$bad" && printf '%s\n' *.so | LC_ALL=C sort)

sb --list-plugins --plugin-dir="$bad"
is "$RC" 0 "--list-plugins over broken plugins: exit status 0"
for n in null psync normal; do
	like "$OUT" $'\n'"$n +(engine|reporter) +[^ ]+ +$MAJ\\.$MIN " \
		"--list-plugins over broken plugins: lists $n"
done
is "$(grep -cF "$bad/" <<<"$OUT")" 0 \
	"--list-plugins over broken plugins: lists none of them"
# Lines about other dirs (an installed storbench's plugins) are not ours.
ok "--list-plugins over broken plugins: one refusal line per file, in order" \
	lines_match "$(grep -F "$bad/" <<<"$ERR")" \
	"storbench: warning: refused plugin " "${want[@]}"

sb --list-plugins --output-format=json --plugin-dir="$bad"
is "$RC" 0 "--list-plugins JSON over broken plugins: exit status 0"
printf '%s\n' "$OUT" >"$T/list.json"
ok "--list-plugins JSON is valid JSON" python3 -m json.tool "$T/list.json"
json_lines() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["refused"]:
    print(r["path"] + ": " + r["reason"])
for p in d["plugins"]:
    print("plugin " + p["name"] + " " + p["kind"] + " " + p["abi"])' "$1"
}
json=$(json_lines "$T/list.json")
ok "--list-plugins JSON: the refusals, under \"refused\"" \
	lines_match "$(grep -F "$bad/" <<<"$json")" "" "${want[@]}"
for n in "null engine" "psync engine" "normal reporter"; do
	like "$json" $'(^|\n)'"plugin $n $MAJ\\.$MIN"$'(\n|$)' \
		"--list-plugins JSON lists ${n% *}"
done
ok "--list-plugins JSON: the refusals are also on stderr" \
	lines_match "$(grep -F "$bad/" <<<"$ERR")" \
	"storbench: warning: refused plugin " "${want[@]}"

# Broken plugins that a job does not use do not stop it.
runs "null job with broken plugins in --plugin-dir" \
	"${job[@]}" --ioengine=null --plugin-dir="$bad"
STORBENCH_PLUGIN_PATH=$bad runs \
	"psync job with broken plugins in STORBENCH_PLUGIN_PATH" \
	"${job[@]}" --ioengine=psync --filename="$T/psync.dat"

# A good plugin from anywhere, by path, in both spellings and relative.
runs "ioengine=external:/abs/extnull.so" \
	"${job[@]}" --ioengine="external:$P/extnull.so"
runs "ioengine=/abs/extnull.so" "${job[@]}" --ioengine="$P/extnull.so"
cd "$P" || bail "cannot cd to $P"
runs "ioengine=./extnull.so, relative" "${job[@]}" --ioengine=./extnull.so
cd "$OLDPWD" || bail "cannot cd back"

# By name, the first dir of the search path holding <name>.so wins, even
# when its plugin is refused: the search does not go on to a later dir.
# myeng.so is extnull in good/ and an ABI-major mismatch in broken/.
mkdir "$T/good" "$T/broken"
cp "$P/extnull.so" "$T/good/myeng.so"
cp "$P/abi_major.so" "$T/broken/myeng.so"
cp "$P/abi_major.so" "$T/broken/null.so"
refused_myeng="storbench: error: command line: refused plugin $T/broken/myeng.so: ${why[abi_major]}"
eng=("${job[@]}" --ioengine=myeng)

STORBENCH_PLUGIN_PATH=$T/broken runs "--plugin-dir before STORBENCH_PLUGIN_PATH" \
	"${eng[@]}" --plugin-dir="$T/good"
STORBENCH_PLUGIN_PATH=$T/good refused "--plugin-dir before STORBENCH_PLUGIN_PATH (broken first)" \
	"$refused_myeng" "${eng[@]}" --plugin-dir="$T/broken"
runs "the first --plugin-dir first" \
	"${eng[@]}" --plugin-dir="$T/good" --plugin-dir="$T/broken"
refused "the first --plugin-dir first (broken first)" "$refused_myeng" \
	"${eng[@]}" --plugin-dir="$T/broken" --plugin-dir="$T/good"
STORBENCH_PLUGIN_PATH=$T/good:$T/broken runs \
	"STORBENCH_PLUGIN_PATH in its order" "${eng[@]}"
STORBENCH_PLUGIN_PATH=$T/broken:$T/good refused \
	"STORBENCH_PLUGIN_PATH in its order (broken first)" \
	"$refused_myeng" "${eng[@]}"
STORBENCH_PLUGIN_PATH=$T/broken refused \
	"STORBENCH_PLUGIN_PATH before the build tree's plugins" \
	"storbench: error: command line: refused plugin $T/broken/null.so: ${why[abi_major]}" \
	"${job[@]}" --ioengine=null
sb "${job[@]}" --ioengine=extnull --plugin-dir="$T/good"
is "$RC" 2 "a bare name is a file name on the search path, not a descriptor name"
like "$ERR" "storbench has no engine named 'extnull' \\(searched $(re_quote "$T/good"):" \
	"a bare name not found: the message lists the search path"

done_testing
