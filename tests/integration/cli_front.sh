#!/usr/bin/env bash
# The fio-style front: --cmdhelp, --enghelp, --section, --parse-only,
# --showcmd, option status from the catalogue, groups, exit codes.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 30

B=$SB_BIN

out=$("$B" --cmdhelp 2>&1)
is "$?" 0 "--cmdhelp exits 0"
like "$out" $'\nbs +: block size' "--cmdhelp lists supported options"
like "$out" $'\nclocksource +: [^\n]*\\(accepted, no effect\\)' \
	"and the options it accepts to no effect, marked"
out=$("$B" --cmdhelp=blocksize)
like "$out" 'alias: blocksize' "--cmdhelp=ALIAS describes the option"
like "$out" 'default: 4k' "with its default"
err=$("$B" --cmdhelp=blocksze 2>&1)
is "$?" 2 "--cmdhelp of an unknown option exits 2"
like "$err" "did you mean 'blocksize'\\?" "and suggests the nearest name"

out=$("$B" --enghelp)
like "$out" $'\tnull\n(.*\n)?\tpsync\n' "--enghelp lists the engines"
out=$("$B" --enghelp=skeleton)
like "$out" '^skeleton_fill +: ' "--enghelp=ENGINE lists its options"
out=$("$B" --enghelp=skeleton,skeleton_fill)
like "$out" 'range: min=0, max=255' "--enghelp=ENGINE,OPTION describes one"
"$B" --enghelp=nosuch >/dev/null 2>&1
is "$?" 2 "--enghelp of an unknown engine exits 2"

cat >two.fio <<'FIO'
[global]
ioengine=null
size=64k
clocksource=clock_gettime
[first]
rw=read
[second]
rw=write
clocksource=clock_gettime
FIO
out=$("$B" --section=second two.fio 2>"$T/err")
is "$?" 0 "--section runs"
ok "only the named section" bash -c "[[ '$out' == *'second: ('* && '$out' != *'first: ('* ]]"
"$B" --section=third two.fio >/dev/null 2>&1
is "$?" 2 "--section of a missing job exits 2"
is "$(grep -c "option 'clocksource' is accepted but has no effect" "$T/err")" 1 \
	"an ignored option warns once per run, not per job"

"$B" --parse-only --output="$T/report.txt" --name=p --ioengine=psync \
	--rw=randread --size=1m --filename="$T/data.bin"
is "$?" 0 "--parse-only accepts a valid job"
ok "and writes nothing: no data file, no report" \
	bash -c "test ! -e '$T/data.bin' -a ! -e '$T/report.txt'"
err=$("$B" --parse-only --name=p --ioengine=rbd --size=1m --rw=randread 2>&1)
is "$?" 2 "a fio engine storbench has none of is refused, not run on another"
like "$err" "^storbench: error: command line: storbench has no engine named 'rbd': rbd is fio's engine for Ceph RBD images through librbd \\(searched " \
	"saying which engine, what it is, and where storbench looked"

out=$("$B" --showcmd two.fio)
is "$out" "fio --ioengine=null --size=64k --clocksource=clock_gettime --name=first --rw=read --name=second --rw=write --clocksource=clock_gettime " \
	"--showcmd prints the job file as fio's command line"

# Groups: the second job file is a new group, and so is new_group.
printf '[g2]\nioengine=null\nsize=64k\n' >second.fio
out=$("$B" two.fio second.fio 2>/dev/null)
like "$out" 'g2: \(groupid=1, jobs=1\)' "a second job file is a new group"
like "$out" $'Run status group 1 \\(all jobs\\):\n +READ' \
	"with its own group summary"
out=$("$B" --name=a --ioengine=null --size=64k --name=b --ioengine=null \
	--size=64k --new_group 2>/dev/null)
like "$out" 'b: \(groupid=1' "new_group starts a new group"

# wait_for: b starts only after a has ended, so the two one-second jobs
# take two seconds, not one.
start=$(date +%s%N)
"$B" --name=a --ioengine=null --size=64k --runtime=1 --time_based \
	--name=b --ioengine=null --size=64k --runtime=1 --time_based \
	--wait_for=a >/dev/null 2>&1
is "$?" 0 "wait_for runs"
ms=$((($(date +%s%N) - start) / 1000000))
ok "b waited for a (${ms} ms for two 1 s jobs)" test "$ms" -ge 1900
start=$(date +%s%N)
"$B" --name=a --ioengine=null --size=64k --runtime=1 --time_based \
	--name=b --ioengine=null --size=64k --runtime=1 --time_based \
	>/dev/null 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
ok "without it they run at once (${ms} ms)" test "$ms" -lt 1900

# c waits for the short b only, not for the long a beside it: about 2 s.
start=$(date +%s%N)
"$B" --name=a --ioengine=null --size=64k --runtime=2 --time_based \
	--name=b --ioengine=null --size=64k \
	--name=c --ioengine=null --size=64k --runtime=1 --time_based \
	--wait_for=b >/dev/null 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
ok "wait_for waits for its job only (${ms} ms, not 3 s)" test "$ms" -lt 2800

# Values as fio reads them.
out=$("$B" --name=k --ioengine=null --kb_base=1000 --size=4KiB --bs=512)
like "$out" '\(4096B/' "kb_base=1000: KiB is 1024"
out=$("$B" --name=k --ioengine=null --size=4KiB --bs=8)
like "$out" '\(4000B/' "kb_base=1024 (fio's default): KiB is 1000"
out=$("$B" --name=x --ioengine=null --size='(4k*2)')
like "$out" '\(8192B/' "arithmetic in parentheses"

done_testing
