#!/usr/bin/env bash
# A secret option's value never shows: not in --showcmd (whichever way its
# engine is named, even when the engine cannot be loaded), not in a message
# about a bad line, not in a failed login's error, not in the report, not
# in ps. It may be given as env:NAME or file:PATH; given literally on the
# command line it is hidden from the process's arguments and draws a
# warning.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 39

P="$SB_BUILD_DIR/tests/plugins"
pw=Hunter2-$RANDOM
# secret_engine takes any password that begins with "right".
good=right-$RANDOM$RANDOM

printf '[j]\nioengine=secret_engine\nsize=64k\nsecret_user=bob\nsecret_password=%s\n' \
	"$pw" >"$T/j.fio"
out=$("$SB_BIN" --plugin-dir="$P" --showcmd "$T/j.fio" 2>&1)
like "$out" '--secret_password=<secret>' "--showcmd masks the secret"
ok "and never prints it" bash -c "[[ '$out' != *'$pw'* ]]"

printf 'secret_password=%s\n[j]\n' "$pw" >"$T/early.fio"
out=$("$SB_BIN" --plugin-dir="$P" --parse-only "$T/early.fio" 2>&1)
is "$out" "storbench: error: $T/early.fio:1:1: 'secret_password' comes before any [section]" \
	"a misplaced line is named by its key only"

out=$(PW=$pw "$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
	--size=64k --secret_user=bob '--secret_password=${PW}x' 2>&1)
like "$out" 'login refused for user bob' "a failed login is reported"
ok "without the password" bash -c "[[ '$out' != *'$pw'* ]]"

out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
	--size=64k --secret_password=right 2>&1)
ok "a good run's report does not carry it either" \
	bash -c "[[ '$out' == *'IOPS='* && '$out' != *'right'* ]]"

# Every reporter, the json one listing the job's options included.
for fmt in json terse csv jsonl iometer; do
	out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
		--size=64k --secret_password=hush42 --status-interval=1 \
		--output-format=$fmt 2>&1)
	[[ $out == *hush42* ]] && break
done
ok "no report format carries it (json, terse, csv, jsonl, iometer)" \
	bash -c "[[ '$out' != *hush42* ]]"
out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
	--size=64k --secret_password=hush42 --output-format=json 2>/dev/null)
like "$out" '"secret_password" : "<secret>"' \
	"json's job options show that it was set, not what it is"

# --- --showcmd, whichever way the engine is named -------------------------
# show FILE: --showcmd of FILE, without --plugin-dir: the engine is found only
# through the way the job names it.
show() { out=$("$SB_BIN" --showcmd "$1" 2>&1); }
for spec in "external:$P/secret_engine.so" "$P/secret_engine.so" \
	secret_engine /nonexistent/secret_engine.so; do
	printf '[j]\nioengine=%s\nsize=64k\nsecret_password=%s\nbs=4k\n' \
		"$spec" "$pw" >"$T/by.fio"
	show "$T/by.fio"
	like "$out" '--secret_password=<secret> ' "--showcmd masks it with ioengine=$spec"
	ok "ioengine=$spec: never prints it" bash -c "[[ '$out' != *'$pw'* ]]"
done
like "$out" '--bs=4k ' "an unloadable engine masks only options the core does not know"

# --- env: and file: ------------------------------------------------------
ran() { # ARGS...: a run of secret_engine; sets rc and out (stdout+stderr)
	: >"$T/r.json"
	out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
		--size=64k --output-format="normal,json=$T/r.json" "$@" 2>&1)
	rc=$?
	out+=$(<"$T/r.json")
}
SBSECRET=$good ran --secret_password=env:SBSECRET
is "$rc" 0 "env:NAME gives the secret (the login succeeds)"
ok "env:NAME: the value never shows, nor a warning" \
	bash -c "[[ '$out' != *'$good'* && '$out' != *warning* ]]"
printf '%s\n' "$good" >"$T/pw"
chmod 600 "$T/pw"
ran --secret_password="file:$T/pw"
is "$rc" 0 "file:PATH gives the secret, without its final newline"
ok "file:PATH: the value never shows, nor a warning" \
	bash -c "[[ '$out' != *'$good'* && '$out' != *warning* ]]"
printf '[j]\nioengine=secret_engine\nsize=64k\nsecret_password=env:SBSECRET\n' \
	>"$T/env.fio"
out=$(SBSECRET=$good "$SB_BIN" --plugin-dir="$P" "$T/env.fio" 2>&1)
like "$out" 'IOPS=' "env:NAME works in a job file too"
unset SBSECRET
ran --secret_password=env:SBSECRET
is "$rc" 2 "env: of a variable that is not set is bad input"
is "$out" "storbench: error: command line: secret_password=env:SBSECRET: no such environment variable" \
	"and names the variable"
ran --secret_password="file:$T/none"
is "$out" "storbench: error: command line: secret_password=file:$T/none: No such file or directory" \
	"file: of a missing file names the file"
SBSECRET=$pw ran --secret_password=env:SBSECRET
like "$out" 'login refused' "a wrong secret from env: fails the login"
ok "without showing it" bash -c "[[ '$out' != *'$pw'* ]]"

# --- a secret given as --KEY VALUE, not --KEY=VALUE -----------------------
# The value is read as a job file name; the message must not echo it.
out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
	--size=64k --secret_password "$pw" 2>&1)
is "$?" 2 "--secret_password VALUE, without '=': bad input"
is "$out" "storbench: error: the argument after --secret_password names no file, so it is not a job file; a job option takes its value as --secret_password=VALUE (see storbench --help)" \
	"the message says how to give a value"
ok "without echoing the value" bash -c "[[ '$out' != *'$pw'* ]]"
out=$("$SB_BIN" --name=j --ioengine=null --size=64k "$T/nonesuch.fio" 2>&1)
like "$out" "cannot open job file $T/nonesuch.fio: No such file or directory" \
	"a missing job file after --KEY=VALUE is still named"

# --- a literal secret on the command line --------------------------------
ran --secret_password="$good"
is "$(grep -c '^storbench: warning: --secret_password: a secret given on the command line is readable by every local user (ps) until storbench hides it at start; give it as env:NAME or file:PATH instead$' <<<"$out")" \
	1 "a literal secret draws one warning recommending env: and file:"

# A job whose engine cannot be loaded may hold a secret of any name, so its
# options are all hidden; storbench's own options are not job options and
# keep their values (--output-format=json still asks for JSON).
out=$("$SB_BIN" --list-plugins --output-format=json --name=j \
	--ioengine=/nonexistent/secret_engine.so --secret_password="$good" 2>/dev/null)
like "$out" '^\{' "an unloadable engine's job: --output-format=json is not hidden as a secret"

# A run of about 1.5 s; its arguments are read while it runs.
"$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine --size=64k \
	--secret_password="$good" --secret_user=bob --time_based --runtime=1500ms \
	>"$T/run.out" 2>"$T/run.err" &
pid=$!
sleep 0.5
cmdline=$(tr '\0' ' ' </proc/$pid/cmdline 2>/dev/null)
psline=$(ps -o args= -p $pid 2>/dev/null)
wait $pid
like "$cmdline" '--secret_password=\*\*\* ' "/proc/PID/cmdline shows it masked"
like "$cmdline" '--secret_user=bob ' "and the other arguments as given"
ok "/proc/PID/cmdline never shows it" bash -c "[[ '$cmdline' != *'$good'* ]]"
like "$psline" '--secret_password=\*\*\*' "ps shows it masked"
ok "ps never shows it" bash -c "[[ -n '$psline' && '$psline' != *'$good'* ]]"
like "$(<"$T/run.out")" 'IOPS=' "the run still used the secret it was given"

done_testing
