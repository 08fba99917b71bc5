#!/usr/bin/env bash
# Reporter options from the command line (--NAME.key=value) and from
# storbench's configuration file (--config=FILE, else
# $XDG_CONFIG_HOME/storbench/storbench.conf): the file's [NAME] sections,
# [storbench]'s plugin_dir and credential_dir, an engine's section giving
# defaults to its jobs; the command line wins over the file, a list option
# collects its values; a secret never shows; every bad line is named by
# FILE:LINE, a bad --NAME.key by the reporter, with a suggestion.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 45

P="$SB_BUILD_DIR/tests/plugins"
export XDG_CONFIG_HOME=$T/xdg
job=(--name=j --ioengine=null --size=64k)
sb() { out=$("$SB_BIN" "$@" 2>&1); rc=$?; }

# --- the command line -------------------------------------------------------
sb --plugin-dir="$P" "${job[@]}" --output-format=slowpush \
	--slowpush.label=L1 --slowpush.tag=host=a --slowpush.tag=rack=b \
	--slowpush.token=env:TOK --slowpush.expect=s3cret
is "$rc" 2 "a secret's env:NAME that is not set is bad input"
like "$out" "--slowpush.token: token=env:TOK: no such environment variable" \
	"naming the option"
TOK=s3cret sb --plugin-dir="$P" "${job[@]}" --output-format=slowpush \
	--slowpush.label=L1 --slowpush.tag=host=a --slowpush.tag=rack=b \
	--slowpush.token=env:TOK --slowpush.expect=s3cret
is "$rc" 0 "reporter options on the command line"
like "$out" "label=L1 token=matches tags=2 tag\[0\]=host=a tag\[1\]=rack=b" \
	"reach the reporter, a repeated list key as its items in order"
ok "the secret itself is not printed" bash -c "[[ '$out' != *'tok=s3cret'* && \$(grep -c s3cret <<<'$out') == 0 ]]"

# A literal secret: hidden from ps, warned about, never printed.
pw=Hunter2-$RANDOM
"$SB_BIN" --plugin-dir="$P" --name=j --ioengine=null --size=1g --runtime=3 \
	--time_based --output-format=slowpush --slowpush.token=$pw \
	--slowpush.expect=$pw >$T/lit.out 2>$T/lit.err &
pid=$!
sleep 1
cmdline=$(tr '\0' ' ' </proc/$pid/cmdline)
wait $pid
is "$?" 0 "a secret given literally works"
like "$cmdline" "--slowpush.token=\*\*\* " "and is hidden from the process's arguments"
ok "which no longer hold it" bash -c "[[ '$cmdline' != *'token=$pw'* ]]"
like "$(cat $T/lit.err)" "--slowpush.token: a secret given on the command line is readable" \
	"it draws the warning"
like "$(cat $T/lit.out)" "token=matches" "the reporter still got it"
ok "no output carries it" bash -c "! grep -q -- '$pw' $T/lit.out $T/lit.err"

sb --plugin-dir="$P" "${job[@]}" --output-format=slowpush --slowpush.delya=1
is "$rc" 2 "an unknown key is bad input"
is "$out" "storbench: error: --slowpush.delya: reporter slowpush has no option 'delya'; did you mean 'delay'?" \
	"naming the reporter and the key it is closest to"
sb --plugin-dir="$P" "${job[@]}" --output-format=slowpush --slowpush.zzzzzz=1
like "$out" "reporter slowpush has no option 'zzzzzz' \(storbench --enghelp=slowpush lists its options\)" \
	"with no close key, where to look"
sb --plugin-dir="$P" "${job[@]}" --slowpuhs.label=x
is "$out" "storbench: error: --slowpuhs.label: no reporter is named slowpuhs; did you mean slowpush?" \
	"an unknown reporter is named, with the closest one"
sb "${job[@]}" --psync.x=1
is "$out" "storbench: error: --psync.x: psync is an engine, not a reporter: its options are job options (--x=)" \
	"an engine's options are job options, and it says so"
sb --plugin-dir="$P" "${job[@]}" --slowpush.label=x
is "$rc" 2 "a reporter not selected is bad input"
is "$out" "storbench: error: --slowpush.label: reporter slowpush is not in --output-format=normal; add it there to use it" \
	"rather than an option silently unused"
sb --plugin-dir="$P" "${job[@]}" --output-format=slowpush --slowpush.queue=0
like "$out" "--slowpush.queue: queue=0 is out of range \(1\.\.[0-9]+\)" \
	"a bad value is named by its option"
sb "${job[@]}" --output-format=json --json.queue=4
like "$out" "reporter json has no option 'queue'" \
	"the host's queue options belong to own-thread reporters only"
sb --plugin-dir="$P" "${job[@]}" --output-format=slowpush --slowpush.delay=x --parse-only
is "$rc" 2 "--parse-only checks them too"

# --- the configuration file ----------------------------------------------
mkdir -p $T/cred $T/xdg/storbench
printf 'from-a-file\n' >$T/cred/tok
cat >$T/sb.conf <<CONF
; storbench's own settings
[storbench]
plugin_dir = $P
credential_dir = $T/cred

[slowpush]
label = fromconf   ; an inline comment
tag = site=x
tag = row=y
token = file:tok
expect = from-a-file

[secret_engine]
secret_password = right-from-conf
CONF
sb --config=$T/sb.conf "${job[@]}" --output-format=slowpush
is "$rc" 0 "a config file: plugin_dir finds the test plugins"
like "$out" "label=fromconf token=matches tags=2 tag\[0\]=site=x tag\[1\]=row=y" \
	"its [slowpush] section sets the reporter's options, a relative file: secret from credential_dir"
sb --config=$T/sb.conf "${job[@]}" --output-format=slowpush \
	--slowpush.label=cli --slowpush.tag=only=this
like "$out" "label=cli token=matches tags=1 tag\[0\]=only=this" \
	"the command line wins, and its list replaces the file's"
sb --config=$T/sb.conf --name=j --ioengine=secret_engine --size=64k
is "$rc" 0 "an engine's section gives its options to every job using it"
sb --config=$T/sb.conf --name=j --ioengine=secret_engine --size=64k \
	--secret_password=wrong
like "$out" "login refused" "and the job's own value overrides it"
ok "the file's secret is never printed" bash -c "[[ '$out' != *right-from-conf* ]]"

cp $T/sb.conf $T/xdg/storbench/storbench.conf
sb "${job[@]}" --output-format=slowpush
like "$out" "label=fromconf" "without --config, \$XDG_CONFIG_HOME/storbench/storbench.conf is read"
sed -i '/credential_dir/d' $T/xdg/storbench/storbench.conf
cp $T/cred/tok $T/xdg/storbench/tok
sb "${job[@]}" --output-format=slowpush
like "$out" "token=matches" "without credential_dir, a relative file: is beside the config file"
sb --config=$T/none.conf "${job[@]}"
is "$out" "storbench: error: --config=$T/none.conf: No such file or directory" \
	"a --config file that does not exist is bad input"

# bad FILE LINE...: the config file made of LINEs is refused naming FILE:N.
bad() {
	local want=$1
	shift
	printf '%s\n' "[storbench]" "plugin_dir = $P" "$@" >$T/bad.conf
	sb --config=$T/bad.conf "${job[@]}" --parse-only
	is "$rc:$out" "2:storbench: error: $T/bad.conf:$want" "bad line: $want"
}
bad "4: reporter slowpush has no option 'lable'; did you mean 'label'?" \
	"[slowpush]" "lable = x"
bad "4: invalid value 'fast' for delay: time \"fast\": number expected at column 1" \
	"[slowpush]" "delay = fast"
bad "5: not a [section] or a 'key = value' line" "[slowpush]" "label = x" "tag"
bad "4: [slowpuhs] names no plugin; did you mean [slowpush]?" "[slowpuhs]" "x = 1"
bad "3: not a [section] or a 'key = value' line" "[slowpush" "label = x"
bad "4: line longer than 198 characters" "[slowpush]" "label = $(printf '%0250d' 0)"
bad "3: [storbench] has no key 'plugin_dri'; did you mean 'plugin_dir'?" "plugin_dri = x"
bad "4: engine secret_engine has no option 'secret_pasword'; did you mean 'secret_password'?" \
	"[secret_engine]" "secret_pasword = x"
printf 'label = x\n[slowpush]\n' >$T/bad.conf
sb --config=$T/bad.conf "${job[@]}"
is "$rc:$out" "2:storbench: error: $T/bad.conf:1: 'label' comes before any [section]" \
	"a key before any section"
printf '[storbench]\nplugin_dir = %s\n[slowpush]\nqueue = 0\n' "$P" >$T/bad.conf
sb --config=$T/bad.conf "${job[@]}"
is "$rc:$out" "2:storbench: error: $T/bad.conf:4: queue=0 is out of range (1..1048576)" \
	"the host's options of a reporter are checked in the file too"
bad "3: plugin_dir = $T/nodir: not a directory" "plugin_dir = $T/nodir"
bad "3: text after the ']' of a section" "[slowpush] label = x"

# Indentation is layout: an indented key is a key, not more of the value
# above it (inih's multi-line entries).
printf '[storbench]\n  plugin_dir = %s\n[slowpush]\n  label = first\n\tqueue = 3\n    tag = a=1\n' \
	"$P" >$T/indent.conf
sb --config=$T/indent.conf "${job[@]}" --output-format=slowpush
like "$out" "label=first token=unset tags=1 tag\[0\]=a=1" \
	"indented lines are keys of their own"

# The README's example, with a plugin_dir that exists here, is accepted.
awk '/^### Configuration file/ {f = 1} f && /^- `\[storbench\]`/ {exit}
	f && /^    / {sub(/^    /, ""); print}' "$SB_SOURCE_DIR/README.md" |
	sed "s|^plugin_dir = .*|plugin_dir = $P|" >$T/readme.conf
ok "the README's example has every kind of section" \
	grep -q '^\[io_uring\]' $T/readme.conf
sb --config=$T/readme.conf "${job[@]}" --parse-only
is "$rc:$out" "0:" "the README's example config is accepted"
