#!/usr/bin/env bash
# fio's profiles, run by fio 3.33 and by storbench and compared:
# --profile=tiobench (its four jobs on four files, each after the last:
# names, directions, I/O counts, the files and their sizes), a job file's
# profile= (kept and unused, as fio 3.33 keeps it: the job runs as
# written, whatever the name), and a profile fio does not have.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 7

TRACE=
both() { sb_fio_both "$@"; }
# Each job of a JSON report as NAME:ERROR:READS/WRITES.
jobs_of() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    print("%s:%d:%d/%d" % (j["jobname"], j["error"], j["read"]["total_ios"],
        j["write"]["total_ios"]), end=" ")' "$1"
}
files() { (cd "$1" && find . -type f ! -name out ! -name raw ! -name pre ! -name err \
	! -name rc ! -name '*.fio' -printf '%P=%s\n' | sort | tr '\n' ' '); }

both tb "" --profile=tiobench --output-format=json
is "$(cat tb/sb/rc) $(jobs_of tb/sb/out)" "$(cat tb/fio/rc) $(jobs_of tb/fio/out)" \
	"--profile=tiobench: fio's four jobs, their directions and I/O counts"
like "$(jobs_of tb/sb/out)" '^seqwrite:0:0/[1-9][0-9]* randwrite:0:0/[1-9][0-9]* seqread:0:[1-9][0-9]*/0 randread:0:[1-9][0-9]*/0 $' \
	"seqwrite, randwrite, seqread, randread, each with I/O"
is "$(files tb/sb)" "$(files tb/fio)" "the four .fio.tio files, of fio's sizes"
groups() {
	python3 -c 'import json, sys
print(" ".join(str(j["groupid"]) for j in json.load(open(sys.argv[1]))["jobs"]))' "$1"
}
is "$(groups tb/sb/out)" "$(groups tb/fio/out)" "each job in a group of its own (stonewall), as fio's"

printf '[j]\nioengine=null\nsize=1m\nbs=8k\nprofile=%s\n' act >"$T/act.fio"
printf '[j]\nioengine=null\nsize=1m\nbs=8k\nprofile=%s\n' nosuch >"$T/nosuch.fio"
both pa "" "$T/act.fio" --output-format=json
both pn "" "$T/nosuch.fio" --output-format=json
is "$(cat pa/sb/rc) $(jobs_of pa/sb/out)| $(cat pn/sb/rc) $(jobs_of pn/sb/out)" \
	"$(cat pa/fio/rc) $(jobs_of pa/fio/out)| $(cat pn/fio/rc) $(jobs_of pn/fio/out)" \
	"profile= in a job file is kept and unused: the job runs as written, as in fio"
like "$(jobs_of pa/sb/out)" '^j:0:128/0 $' "128 reads of 8 KiB"

both pb "" --profile=nosuch
ok "--profile=nosuch fails in both: fio $(cat pb/fio/rc), storbench $(cat pb/sb/rc) saying so" \
	test "$(cat pb/fio/rc)" -ne 0 -a "$(cat pb/sb/rc)" -ne 0 -a \
	"$(grep -c 'profile not found' pb/sb/err)" -eq 1
