#!/usr/bin/env bash
# A plugin's options are checked in the parse phase, not when the job runs:
# by the option table (ranges, choices, and named values of
# an int), and by the plugin's own check hook for what a table cannot say
# (one option against another). --parse-only finds them; a bad value is bad
# input (exit 2) named by file:line, or by the option on a command line;
# nothing runs.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 24

job=(--name=j --rw=read --bs=4k --size=64k --filename="$T/f")

# faulty_errno takes a name or 1..4095 (the kernel's MAX_ERRNO).
for mode in --parse-only run; do
	args=("${job[@]}" --ioengine=faulty --faulty_errno=99999)
	[[ $mode == run ]] || args+=(--parse-only)
	sb "${args[@]}"
	is "$RC" 2 "faulty_errno=99999 ($mode): bad input, exit 2"
	is "$ERR" "storbench: error: command line: faulty_errno=99999 is out of range (1..4095)" \
		"($mode) naming the option and its range"
done
ok "and nothing ran: no file was made" test ! -e "$T/f"

printf '[global]\nioengine=faulty\n[j]\nrw=read\nsize=64k\nfilename=%s\nfaulty_errno=EWHAT\n' \
	"$T/f" >"$T/errno.fio"
sb --parse-only "$T/errno.fio"
is "$RC" 2 "an unknown errno name in a job file: exit 2"
like "$ERR" "^storbench: error: $T/errno\.fio:7: invalid value 'EWHAT' for faulty_errno \(one of: EIO, .*ENOLINK; or a number from 1 to 4095\)$" \
	"named by file:line, with what it may be"
printf '[j]\nioengine=faulty\nsize=64k\nfilename=%s\nfaulty_latency_rate=-1\n' \
	"$T/f" >"$T/rate.fio"
sb --parse-only "$T/rate.fio"
is "$RC:$ERR" "2:storbench: error: $T/rate.fio:5: faulty_latency_rate=-1 is out of range (0..100)" \
	"a float's range is the table's too"
sb "${job[@]}" --ioengine=faulty --faulty_errno=eNoSpC --parse-only
is "$RC" 0 "names match without regard to case"

# A plugin's check hook: check_hi below check_lo is refused at check_hi's
# line, whichever section set it.
printf '[global]\ncheck_hi=3\n[j]\nioengine=%s\nsize=1m\ncheck_lo=5\n' \
	"$P/check_engine.so" >"$T/check.fio"
sb --parse-only "$T/check.fio"
is "$RC" 2 "a cross-option check refuses the job at parse time: exit 2"
is "$ERR" "storbench: error: $T/check.fio:2: job j: check_engine: check_hi=3 is below check_lo=5" \
	"at the line of the option it names, with the plugin's reason"
sb --name=j --size=1m --ioengine="$P/check_engine.so" --check_lo=5 \
	--check_hi=4
is "$RC:$ERR" "2:storbench: error: command line: job j: check_engine: check_hi=4 is below check_lo=5" \
	"the same from the command line, when running too"
sb --name=j --size=1m --ioengine="$P/check_engine.so" --check_lo=5 \
	--check_hi=5 --check_level=HIGH
is "$RC" 0 "options that go together run (and take a named value)"
sb --name=j --size=1m --ioengine="$P/check_engine.so" --check_level=10 \
	--parse-only
is "$RC:$ERR" "2:storbench: error: command line: check_level=10 is out of range (1..9)" \
	"a test plugin's named int refuses a number out of its range"
sb --name=j --size=1m --ioengine="$P/check_engine.so" --check_positive \
	--parse-only
is "$RC" 2 "a check hook that returns 1 (against the contract) still refuses"
like "$ERR" "check_engine: " "naming the plugin"

# Hooks past an ops table's size are never called (tail_* trap them).
sb --name=j --size=1m --ioengine="$P/tail_engine.so" --parse-only
is "$RC:$ERR" "0:" "an engine whose table ends before check is not checked"
sb --name=j --size=1m --ioengine=null --generator="$P/tail_gen.so" \
	--parse-only
is "$RC:$ERR" "0:" "nor a generator's"

# In-tree engines whose runtime refusals became checks.
sb --name=j --size=1m --filename="$T/u" --ioengine=io_uring --hipri \
	--parse-only
is "$RC" 2 "io_uring hipri without direct=1: refused by --parse-only"
like "$ERR" "command line: job j: io_uring: hipri \(IORING_SETUP_IOPOLL\) needs direct=1" \
	"with the engine's reason"
printf '[m]\nioengine=mmap\nsize=64k\nfilename=%s\ndirect=1\n' "$T/m" \
	>"$T/mmap.fio"
sb --parse-only "$T/mmap.fio"
like "$RC:$ERR" "^2:storbench: error: $T/mmap\.fio:5: job m: mmap: direct=1: a mapped file" \
	"mmap with direct=1: at direct's line, the engine's reason"

# The table's new field is checked when the plugin loads.
sb --name=j --size=1m --ioengine="$P/symbols_not_int.so"
is "$RC:$ERR" "2:storbench: error: command line: refused plugin $P/symbols_not_int.so: option 'sym_name' has symbols but is not an int" \
	"names for the values of a string option: the plugin is refused"

# --enghelp lists an option's names.
"$SB_BIN" --enghelp=faulty,faulty_errno >"$T/help" 2>&1
like "$(cat "$T/help")" "names: EIO \(5\)" "--enghelp shows the names an int takes"
like "$(cat "$T/help")" "range: min=1, max=4095" "and its range"
