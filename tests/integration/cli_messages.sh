#!/usr/bin/env bash
# Messages that echo user input keep their reason and cannot drive the
# terminal: a 4000-byte path is shortened in its middle, never cut before
# its reason; control characters from job files and command lines reach
# stderr and the normal report escaped (\x1b, \t), while JSON keeps the
# real bytes (as JSON escapes).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 17

# A path of 4000 bytes: directories of 200 bytes under $T, and one that
# makes up the rest.
d=$T
while ((${#d} < 3700)); do
	d=$d/$(printf 'd%.0s' {1..200})
done
d=$d/$(printf 'd%.0s' $(seq $((4000 - ${#d} - 1 - 8))))
mkdir -p "$d"
long=$d/missing
diag "path of ${#long} bytes"

"$SB_BIN" --name=l --rw=read --bs=4k --size=64k --allow_file_create=0 \
	--filename="$long" >out 2>err
st=$?
line=$(head -1 err)
is "$st" 1 "a long path on the command line is taken (exit 1: no such file)"
like "$line" 'cannot open /.*d\.\.\.d.*/missing: it does not exist and allow_file_create=0$' \
	"the message keeps the reason, the path cut in its middle"
ok "and fits one line of stderr (${#line} bytes)" test "${#line}" -le 2048
like "$(grep '^  error:' out)" '/missing: it does not exist and allow_file_create=0$' \
	"so does the report's error line"

"$SB_BIN" --name=f --rw=write --bs=4k --size=64k --ioengine=faulty \
	--faulty_error_rate=100 --faulty_errno=ENOSPC --filename="$d/f" \
	>out 2>err
like "$(head -1 err)" "write error on $T/[d/]+\.\.\.[d/]+/f at offset 0, length 4096: No space left on device \(ENOSPC\)$" \
	"an I/O error on the long path keeps offset, length and errno"
rm -f "$d/f"

# A long bad value: the parser's reason quotes the value, and still ends
# with what the units are.
printf '[v]\nbs=4k%s\n' "$(printf 'x%.0s' {1..3000})" >long.fio
"$SB_BIN" --parse-only long.fio 2>err
like "$?:$(cat err)" '^2:storbench: error: long\.fio:2: invalid value .*: unknown unit "kx+\.\.\.x+" \(b, k, kb, kib, m \.\.\. p\)$' \
	"a 3000-byte value keeps the parser's reason"

printf '[i]\ninclude %s\n' "$long" >inc.fio
"$SB_BIN" --parse-only inc.fio 2>err
like "$?:$(cat err)" "^2:storbench: error: inc\.fio:2:9: cannot open include file '/.*\.\.\..*/missing': No such file or directory$" \
	"so does a job file's message (an include of the long path)"

# A job file with ESC and a tab in a job name and a value.
esc=$'\e'
printf '[a%s[31mred]\nfilename=z%sq\nsize=64k\nrw=read\nbs=4k\nallow_file_create=0\n' \
	"$esc" $'\t' >esc.fio
"$SB_BIN" esc.fio >out 2>err
st=$?
is "$st" 1 "a job named with ESC runs (and fails on its missing file)"
ok "no ESC or tab reaches stderr" bash -c "! grep -q '[[:cntrl:]]' err"
like "$(head -1 err)" '^storbench: error: job a\\x1b\[31mred: .*cannot open z\\tq: ' \
	"the name and the path are shown escaped"
ok "no ESC in the normal report" bash -c "! grep -q $'\e' out"
like "$(head -1 out)" '^a\\x1b\[31mred: \(groupid=0' "whose job line is escaped too"

"$SB_BIN" esc.fio --output-format=json >j.json 2>/dev/null
like "$(grep '"jobname"' j.json)" '"jobname" : "a\\u001b\[31mred"' \
	"JSON keeps the real name, escaped its own way"

printf '[j]\nrw=read\nbs=4k\nsize=64k\nverify=%s]0;owned\a\n' "$esc" >bad.fio
"$SB_BIN" --parse-only bad.fio 2>err
st=$?
is "$st" 2 "a bad value with ESC and BEL is bad input"
ok "its message carries no control character" bash -c "! grep -q '[[:cntrl:]]' err"

# --showcmd writes such values in bash's $'...' form: safe to print, and
# the same bytes once pasted.
"$SB_BIN" --showcmd esc.fio >cmd
ok "--showcmd prints no control character" bash -c "! grep -q '[[:cntrl:]]' cmd"
cmd=$(<cmd)
eval "set -- ${cmd#fio }"
is "$1|$2" "--name=a${esc}[31mred|--filename=z"$'\t'"q" \
	"and pasted into bash it gives the job file's bytes back"
