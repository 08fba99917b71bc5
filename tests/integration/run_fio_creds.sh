#!/usr/bin/env bash
# uid= and gid=, each job run by fio 3.33 and by storbench as root and
# compared: the ids the clone runs with (its exec_prerun's shell inherits
# them), who owns the files (the run's user for what fio lays out in its
# main process, create_serialize=1; the job's ids with create_serialize=0),
# a file the job's uid cannot open (the job fails at the open, error 13, no
# I/O), and a job without the options beside one with them (its ids stay
# the run's, though storbench runs both as threads of one process).
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
if ((EUID != 0)); then
	plan_skip_all "switching a job's uid and gid needs root (CI runs as root)"
fi
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
chmod 755 "$T"

plan 11

TRACE=
# The job in a directory every user may write, so uid 65534 may create.
both() { sb_fio_both "$1" "chmod 777 ." "${@:2}"; }
# Each file (not the outputs) as NAME=UID:GID:SIZE.
owners() { (cd "$1" && find . -type f ! -name out ! -name raw ! -name pre ! -name err \
	! -name rc ! -name trace -printf '%P=%U:%G:%s\n' | sort | tr '\n' ' '); }
# Each job of a JSON report as NAME:ERROR:READS/WRITES.
jobs_of() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    print("%s:%d:%d/%d" % (j["jobname"], j["error"], j["read"]["total_ios"],
        j["write"]["total_ios"]), end=" ")' "$1"
}
IDS='echo $(id -u) $(id -g) $(id -G)'

# create_serialize=0: each job sets its files up after switching, so its
# file is its ids'; the job beside it keeps root's.
both cs0 --create_serialize=0 --output-format=json \
	--name=a --filename=fa --rw=write --size=256k --uid=65534 --gid=65534 \
	--exec_prerun="$IDS" \
	--name=b --filename=fb --rw=write --size=256k --exec_prerun="$IDS"
is "$(owners cs0/sb)" "$(owners cs0/fio)" \
	"create_serialize=0: a's files are 65534's, b's root's, as fio's"
like "$(owners cs0/sb)" '^a\.prerun\.txt=65534:65534:[0-9]+ b\.prerun\.txt=0:0:[0-9]+ fa=65534:65534:262144 fb=0:0:262144 $' \
	"the owners are the jobs' ids"
is "$(cat cs0/sb/a.prerun.txt) | $(cat cs0/sb/b.prerun.txt)" \
	"$(cat cs0/fio/a.prerun.txt) | $(cat cs0/fio/b.prerun.txt)" \
	"the ids a clone runs with: gid then uid, the supplementary groups the run's, as in fio"
like "$(cat cs0/sb/rc) $(jobs_of cs0/sb/out)| $(cat cs0/fio/rc) $(jobs_of cs0/fio/out)" \
	'^0 a:0:0/64 b:0:0/64 \| 0 a:0:0/64 b:0:0/64 $' \
	"both jobs run all their 64 writes, in fio as in storbench"

# create_serialize=1 (the default): fio creates the file in its main
# process, as root, mode 0644; the job as 65534 then cannot open it to
# write and fails there, with no I/O.
both cs1 --output-format=json --name=w --filename=fw --rw=write --size=64k \
	--uid=65534 --gid=65534
is "$(owners cs1/sb) $(cat cs1/sb/rc) $(jobs_of cs1/sb/out)" \
	"$(owners cs1/fio) $(cat cs1/fio/rc) $(jobs_of cs1/fio/out)" \
	"a write job: the file is root's, the job fails before any I/O, as in fio"
like "$(owners cs1/sb) $(cat cs1/sb/rc) $(jobs_of cs1/sb/out) $(cat cs1/sb/err)" \
	'^fw=0:0:65536 +1 w:13:0/0 .*cannot open fw: Permission denied' \
	"error 13 at the open, exit 1, and storbench says the open was refused"

# A read job: laid out as root, then read as 65534 (0644 lets it).
both rd --output-format=json --name=r --filename=fr --rw=read --size=64k \
	--uid=65534 --exec_prerun="$IDS"
is "$(owners rd/sb) $(cat rd/sb/rc) $(jobs_of rd/sb/out)" \
	"$(owners rd/fio) $(cat rd/fio/rc) $(jobs_of rd/fio/out)" \
	"a read job: the laid-out file root's, read in full by uid 65534, as in fio"
like "$(jobs_of rd/sb/out) $(cat rd/sb/r.prerun.txt)" '^r:0:16/0 +65534 0 0$' \
	"16 reads, by uid 65534 with gid 0"
is "$(cat rd/sb/r.prerun.txt)" "$(cat rd/fio/r.prerun.txt)" \
	"uid alone: the gid stays root's, as fio's setuid leaves it"

# fio's get_new_job() unsets uid and gid for every job: a [global] one is
# not the job's.
printf '[global]\nuid=65534\ngid=65534\ncreate_serialize=0\n[g]\nrw=write\nsize=64k\nfilename=fg\nexec_prerun=%s\n' \
	"$IDS" >"$T/gl.fio"
both gl "$T/gl.fio"
is "$(owners gl/sb) $(cat gl/sb/g.prerun.txt)" "$(owners gl/fio) $(cat gl/fio/g.prerun.txt)" \
	"uid and gid in [global] are not the job's: it runs and writes as root, as in fio"
like "$(owners gl/sb) $(cat gl/sb/g.prerun.txt)" '^fg=0:0:65536 g\.prerun\.txt=0:0:[0-9]+  ?0 0 0$' \
	"root's file, root's ids"
