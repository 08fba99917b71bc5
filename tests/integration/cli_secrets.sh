#!/usr/bin/env bash
# A secret option's value never shows: not in --showcmd, not in a message
# about a bad line, not in a failed login's error, not in the report.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 8

P="$SB_BUILD_DIR/tests/plugins"
pw=Hunter2-$RANDOM

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
for fmt in json terse csv jsonl; do
	out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
		--size=64k --secret_password=hush42 --status-interval=1 \
		--output-format=$fmt 2>&1)
	[[ $out == *hush42* ]] && break
done
ok "no report format carries it (json, terse, csv, jsonl)" \
	bash -c "[[ '$out' != *hush42* ]]"
out=$("$SB_BIN" --plugin-dir="$P" --name=j --ioengine=secret_engine \
	--size=64k --secret_password=hush42 --output-format=json 2>/dev/null)
like "$out" '"secret_password" : "<secret>"' \
	"json's job options show that it was set, not what it is"

done_testing
