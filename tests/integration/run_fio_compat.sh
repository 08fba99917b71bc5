#!/usr/bin/env bash
# Jobs where storbench once did otherwise than fio 3.33, each run through
# fio (/usr/bin/fio) and storbench and compared:
#  - name= in a job's section names the job (JSON jobname, wait_for), and
#    its files keep the section's name ($jobname in filename_format is the
#    section's in fio); a [global] name= names no job, and clones after
#    the first keep the section's name, as fio's do.
#  - bssplit with random writes: fio draws the offset over the whole file,
#    takes the next free block when that one is done, and cuts the block
#    at the first done one; the I/O count matches fio's within the
#    realworld tool's tolerance (10 %), every byte written once.
#  - nrfiles x filesize is the size without size=; a job with no size to
#    use (size=0, io_size set, null engine) runs and fails with error 22.
#  - write_*_log in a missing directory: a warning, the job runs (exit 0);
#    write_iolog there fails the job in both.
#  - verify on a read-only job checks what it reads; on the null engine the
#    read-back runs and counts as verified; on a trim job nothing is
#    checked.
#  - per_job_logs=0/1 is 0, iodepth=4/8 is 4 (the leading number);
#    bs_is_seq_rand; cpus_allowed beyond the machine: parse accepts, a run
#    exits 1 before any job.
set -u
source "$(dirname "$0")/../tap/tap.sh"
FIO=${SB_FIO:-/usr/bin/fio}
[[ -x $FIO ]] || plan_skip_all "fio 3.33 is not installed at $FIO"
command -v python3 >/dev/null || plan_skip_all "python3 is needed to read JSON"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 28

# counts FILE.json: "jobname group reads rbytes writes wbytes error" per job
counts() {
	python3 - "$1" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index('{'):])
for j in d['jobs']:
    r, w = j['read'], j['write']
    print(j.get('jobname'), j['groupid'], r['total_ios'], r['io_bytes'],
          w['total_ios'], w['io_bytes'], j['error'])
EOF
}

# both NAME.fio: runs it in fresh dirs f/ and s/ through each tool; the
# counts are in f.out and s.out, the exit status in frc and src.
both() {
	rm -rf f s
	mkdir f s
	(cd f && "$FIO" --output-format=json "../$1.fio" >o.json 2>e.txt)
	frc=$?
	(cd s && "$SB_BIN" --output-format=json "../$1.fio" >o.json 2>e.txt)
	src=$?
	counts f/o.json >f.out 2>/dev/null
	counts s/o.json >s.out 2>/dev/null
}

# --- name= -------------------------------------------------------------------
cat >name.fio <<'EOF'
[global]
ioengine=psync
size=64k
bs=4k
name=fromglobal
[sect1]
name=renamed
rw=write
[sect2]
name=second
wait_for=renamed
rw=read
filename_format=$jobname.f
[plain]
rw=read
EOF
both name
is "$(cut -d' ' -f1,2 s.out | tr '\n' ' ')" "$(cut -d' ' -f1,2 f.out | tr '\n' ' ')" \
	"name=: the jobnames and groups are fio's"
is "$(cut -d' ' -f1 s.out | tr '\n' ' ')" "renamed second plain " \
	"name= names the job, a [global] name= none"
is "$(cd s && ls -1 | grep -v '^o.json$\|^e.txt$' | tr '\n' ' ')" \
	"$(cd f && ls -1 | grep -v '^o.json$\|^e.txt$' | tr '\n' ' ')" \
	"the files keep the section names, as fio's (\$jobname is the section's)"
is "$src:$frc" "0:0" "wait_for= finds the job by its name= in both"
printf '[global]\nioengine=null\nsize=64k\nnumjobs=3\n[job]\nname=seq_read\n' >clones.fio
both clones
is "$(cut -d' ' -f1 s.out | tr '\n' ' ')" "$(cut -d' ' -f1 f.out | tr '\n' ' ')" \
	"numjobs=3: the first clone has the name=, the others the section's, as in fio"
printf '[a]\nioengine=null\nsize=64k\nname=x\n[b]\nioengine=null\nsize=64k\nwait_for=a\n' >wf.fio
"$FIO" --parse-only wf.fio >/dev/null 2>&1
"$SB_BIN" --output-format=json wf.fio >/dev/null 2>wf.err
like "$?:$(cat wf.err)" "^2:.*wf\\.fio:8: wait_for=a: no job of that name above" \
	"wait_for= of a section renamed by name= is unknown, as in fio"

# --- bssplit with random writes ----------------------------------------------
cat >bssplit.fio <<'EOF'
[test1]
ioengine=null
rw=randwrite
bssplit=4k/10:16k/10:64k/40:256k/40
size=64m
write_iolog=io.log
EOF
both bssplit
read -r _ _ _ _ fw fwb _ <f.out
read -r _ _ _ _ sw swb _ <s.out
diag "bssplit randwrite, 64 MiB: fio $fw writes, storbench $sw"
is "$swb" "$fwb" "bssplit randwrite: the bytes are fio's ($fwb)"
ok "and the writes within 10 % of fio's ($sw against $fw; 1857 before)" \
	test $((10 * (sw > fw ? sw - fw : fw - sw))) -le "$fw"
is "$(awk '$2 == "write" { n += $4 } END { print n }' s/io.log)" 67108864 \
	"the iolog adds up to the file"
is "$(awk '$2 == "write" { for (b = $3; b < $3 + $4; b += 4096) print b }' s/io.log |
	sort -n | uniq -d | wc -l)" 0 "no 4 KiB block is written twice"

# --- sizes -------------------------------------------------------------------
printf '[nf]\nioengine=null\nnrfiles=4\nfilesize=256k\nrw=write\nbs=4k\n' >nrfiles.fio
both nrfiles
is "$(cat s.out)" "$(cat f.out)" "nrfiles=4 filesize=256k, no size=: fio's 256 writes"
like "$(cat s.out)" "^nf 0 0 0 256 1048576 0$" "that is nrfiles x filesize"
printf '[z]\nioengine=null\nsize=0\nio_size=1m\nrw=write\n' >size0.fio
both size0
is "$src:$(cat s.out)" "$frc:$(cat f.out)" \
	"size=0 with io_size: the job runs and fails with error 22, exit 1, as fio"

# --- log files in a missing directory ----------------------------------------
printf '[l]\nioengine=null\nsize=1m\nwrite_bw_log=nodir/x\nwrite_lat_log=nodir/y\n' >logs.fio
both logs
is "$src:$(cat s.out)" "$frc:$(cat f.out)" \
	"write_bw_log/write_lat_log in a missing directory: the job runs, exit 0"
like "$(cat s/e.txt)" "warning: \\.\\./logs\\.fio:4: job l: write_bw_log=nodir/x: directory nodir does not exist" \
	"with a warning naming file:line"
printf '[l]\nioengine=null\nsize=1m\nwrite_iolog=nodir/io\n' >iolog.fio
both iolog
is "$src:$frc" "1:1" "write_iolog in a missing directory fails in both"

# --- verify ------------------------------------------------------------------
printf '[w]\nfilename=F\nsize=256k\nrw=write\nverify=md5\ndo_verify=0\n' >vw.fio
printf '[r]\nfilename=F\nsize=256k\nrw=read\nverify=md5\n' >vr.fio
"$SB_BIN" vw.fio >/dev/null 2>&1
"$SB_BIN" --output-format=json vr.fio >vr.json 2>vr.err
is "$?:$(counts vr.json)" "0:r 0 64 262144 0 0 0" \
	"verify on a read job: the blocks a verifying job wrote pass"
printf 'x' | dd of=F bs=1 seek=41500 conv=notrunc status=none
"$SB_BIN" --output-format=json vr.fio >vr.json 2>vr.err
like "$?:$(cat vr.err)" "^1:.*verify failed on F: offset 40960: corrupt" \
	"a damaged block is found at its offset (fio fails there too)"
rm -f F
"$FIO" --output-format=json vr.fio >/dev/null 2>fvr.err
frc=$?
"$SB_BIN" --output-format=json vr.fio >/dev/null 2>vr.err
is "$?:$frc" "1:1" "a file no verifying job wrote fails in both"
printf '[n]\nioengine=null\nsize=1m\nrw=write\nverify=md5\n' >vnull.fio
both vnull
is "$src:$(cat s.out)" "$frc:$(cat f.out)" \
	"verify on the null engine: fio's read-back of every block, no error"
printf '[t]\nioengine=null\nsize=1m\nrw=randtrim\nverify=md5\n' >vtrim.fio
both vtrim
is "$src:$(cat s.out)" "$frc:$(cat f.out)" "verify on a trim job: runs, checks nothing"

# --- values fio reads by their leading number --------------------------------
printf '[p]\nioengine=null\nsize=64k\nper_job_logs=0/1\niodepth=4/8\n' >lead.fio
"$FIO" --parse-only lead.fio >/dev/null 2>&1
frc=$?
"$SB_BIN" --parse-only lead.fio 2>lead.err
is "$?:$frc" "0:0" "per_job_logs=0/1 and iodepth=4/8 are accepted, as fio"
like "$(cat lead.err)" "lead\\.fio:4: per_job_logs=0/1 is read as 0, as fio reads it" \
	"with a warning that says what was read"
like "$("$SB_BIN" --parse-only --name=x --ioengine=null --size=64k --per_job_logs=2 2>&1)" \
	"invalid value '2' for per_job_logs" "per_job_logs=2 is refused, as fio"

# --- bs_is_seq_rand ----------------------------------------------------------
printf '[s]\nioengine=null\nsize=1m\nrw=read\nbs=4k,16k\nbs_is_seq_rand=1\n' >seqrand.fio
both seqrand
is "$(cat s.out)" "$(cat f.out)" "bs_is_seq_rand, rw=read: the read sizes (256 reads)"
printf '[s]\nioengine=null\nsize=1m\nrw=rw\nbs=4k,16k\nbs_is_seq_rand=1\n' >seqrand2.fio
both seqrand2
read -r _ _ _ frb _ fwb _ <f.out
read -r _ _ sr srb sw swb _ <s.out
is "$((srb + swb)):$(((srb + swb) / (sr + sw)))" "$((frb + fwb)):4096" \
	"rw=rw: reads and writes all 4 KiB, 1 MiB in all, as fio's"

# --- CPUs the machine lacks --------------------------------------------------
n=$(getconf _NPROCESSORS_CONF)
printf '[a]\nioengine=null\nsize=64k\n[c]\nioengine=null\nsize=64k\ncpus_allowed=%s\n' "$n" >cpus.fio
"$FIO" --parse-only cpus.fio >/dev/null 2>&1
frc=$?
"$SB_BIN" --parse-only cpus.fio 2>/dev/null
is "$?:$frc" "0:0" "cpus_allowed=$n (no such CPU): parse accepts, as fio"
"$FIO" --output-format=json cpus.fio >/dev/null 2>&1
frc=$?
out=$("$SB_BIN" --output-format=json cpus.fio 2>&1)
like "$?:$frc:$out" "^1:1:storbench: error: cpus\\.fio:7: cpus_allowed: cpus_allowed=$n: CPU $n is beyond" \
	"a run exits 1 before any job, as fio, naming the line"

done_testing
