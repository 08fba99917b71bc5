#!/usr/bin/env bash
# Whatever bytes a plugin description, a plugin file name or a job name
# holds, every JSON storbench prints is valid UTF-8 JSON: a byte that is not
# UTF-8 becomes U+FFFD, a control character its escape, and valid text
# (multibyte included) stays as it was.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 12

# strict FILE EXPR: FILE decoded strictly as UTF-8 and parsed as JSON (d),
# then the repr of EXPR; fails, with the reason, when either step does.
strict() {
	python3 -B -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
print(ascii(eval(sys.argv[2])))' "$@"
}

mkdir "$T/dir"
cp "$P/odd_desc.so" "$T/dir/"
# A file name that is no UTF-8, and no plugin either: it is refused, and the
# refusal names it.
printf 'not an ELF file\n' >"$T/dir/"$'bad\xff.so'

sb --list-plugins --output-format=json --plugin-dir="$T/dir"
is "$RC" 0 "--list-plugins json: exit status 0"
ok "--list-plugins json: strict UTF-8 JSON" strict "$T/out" 'd["plugins"]'
is "$(strict "$T/out" '[p["description"] for p in d["plugins"] if p["name"] == "odd_desc"]')" \
	"['ff\\ufffd overlong\\ufffd\\ufffd surrogate\\ufffd\\ufffd\\ufffd cut\\ufffd\\ufffd tab\\t nl\\n esc\\x1b del\\x7f quote\" bs\\\\ caf\\xe9 \\U0001f4be']" \
	"--list-plugins json: each invalid byte is U+FFFD, controls and valid text kept"
like "$OUT" '"description": "ff\\ufffd overlong\\ufffd\\ufffd surrogate\\ufffd\\ufffd\\ufffd cut\\ufffd\\ufffd tab\\t nl\\n esc\\u001b del\\u007f quote\\" bs\\\\ caf'$'\xc3\xa9 \xf0\x9f\x92\xbe"}' \
	"--list-plugins json: the escapes, and UTF-8 written as it is"
is "$(strict "$T/out" '[r["path"] for r in d["refused"]]')" \
	"['$T/dir/bad\\ufffd.so']" \
	"--list-plugins json: a refused file's name that is no UTF-8"

name=$'j\xffk\x01\xc3\xa9\xe2\x82'
for fmt in json jsonl; do
	sb --name="$name" --ioengine=null --size=64k --output-format=$fmt
	is "$RC" 0 "$fmt: a job named with invalid UTF-8 runs, exit 0"
	printf '%s\n' "$OUT" >"$T/$fmt"
	if [[ $fmt == json ]]; then
		expr='d["jobs"][0]["jobname"]'
	else
		# One object per line; the job's is the one of type "job".
		python3 -B -c '
import json, sys
for l in open(sys.argv[1], "rb").read().decode("utf-8").splitlines():
    if json.loads(l)["type"] == "job":
        sys.stdout.write(l + "\n")' "$T/$fmt" >"$T/$fmt.job" ||
			diag "jsonl: a line is not strict UTF-8 JSON"
		mv "$T/$fmt.job" "$T/$fmt"
		expr='d["name"]'
	fi
	ok "$fmt: strict UTF-8 JSON" strict "$T/$fmt" "$expr"
	is "$(strict "$T/$fmt" "$expr")" "'j\\ufffdk\\x01\\xe9\\ufffd\\ufffd'" \
		"$fmt: the job name with U+FFFD for each invalid byte"
done

# An error message that quotes a file name which is no UTF-8.
sb --name=e --ioengine=psync --size=64k --rw=read \
	--filename="$T/"$'no\xfe/such' --output-format=json
is "$(strict "$T/out" '"no\ufffd/such" in d["jobs"][0]["storbench"]["error_message"]')" \
	True "json: a failed job's message quotes the file name with U+FFFD"

done_testing
