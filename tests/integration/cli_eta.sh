#!/usr/bin/env bash
# The progress line on stderr, as fio's on a terminal: by default (--eta=auto)
# only when stderr is a terminal, where it is redrawn in place about once a
# second and left on its own line when the report follows; --eta=always also
# into a file, --eta-newline a line per update, --eta=never none.
#
# The terminal is a pseudo-terminal this script makes: a detached tmux
# session (what the pane shows is then tmux's own rendering), or else
# script(1) (the screen is then rendered from the bytes here). tmux comes
# from scripts/deps.sh. SB_ETA_PTY=tmux or script picks one (to test both).
set -u
source "$(dirname "$0")/../tap/tap.sh"

[[ -x $SB_BIN ]] || bail "no storbench at $SB_BIN (build first)"
if [[ ${SB_ETA_PTY:-} == @(tmux|script) ]]; then
	PTY=$SB_ETA_PTY
elif command -v tmux >/dev/null 2>&1; then
	PTY=tmux
elif command -v script >/dev/null 2>&1; then
	PTY=script
else
	plan_skip_all "neither tmux nor script(1) to make a terminal with"
fi
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 27

# A 3-s job: with updates about once a second, two or three lines.
JOB=(--name=x --ioengine=null --size=1g --rw=randrw --runtime=3 --time_based)

# One line as sb_eta_format makes it for that job: fio's fields, the rates
# with fio's units, the percent and eta known or fio's "-.-%" and "--".
RATE='[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi)?B/s'
IOPS='[0-9]+(\.[0-9]+)?[kMGTP]?'
LINE="Jobs: 1 \(f=1\): \[m\(1\)\]\[([0-9]{1,3}\.[0-9]|-\.-)%\]"
LINE+="(\[r=$RATE,w=$RATE\]\[r=$IOPS,w=$IOPS IOPS\])?"
LINE+='\[eta (([0-9]{2,}d:)?([0-9]{2}h:)?[0-9]{2}m:[0-9]{2}s|--)\]'

# render: what a terminal shows of the bytes on stdin. Each '\r' returns to
# the start of the line and the next text overwrites what it covers.
render() {
	awk '{
		n = split($0, seg, "\r")
		line = ""
		for (i = 1; i <= n; i++) {
			s = seg[i]
			if (length(s) >= length(line))
				line = s
			else
				line = s substr(line, length(s) + 1)
		}
		sub(/[ ]+$/, "", line)
		print line
	}'
}

# pty_run NAME ARGS...: storbench ARGS with stdin, stdout and stderr on a
# terminal of 250 columns (the line must not wrap); sets PRC to its exit
# status and writes $T/NAME.raw (the bytes it wrote) and $T/NAME.screen
# (what the terminal shows at the end, trailing blanks removed).
pty_run() {
	local name=$1 cmd deadline

	shift
	printf -v cmd '%q ' timeout -k 5 60 "$SB_BIN" "$@"
	rm -f "$T/go" "$T/rc"
	if [[ $PTY == script ]]; then
		COLUMNS=250 script -qfec "stty cols 250 rows 50; $cmd" \
			/dev/null </dev/null >"$T/$name.raw" 2>&1 &&
			PRC=0 || PRC=$?
		render <"$T/$name.raw" >"$T/$name.screen"
		return
	fi
	# The pane's command waits for "go" so that pipe-pane is in place
	# before storbench writes its first byte, and stays after it so the
	# pane can be read.
	tmux -L "$SOCK" -f /dev/null new-session -d -x 250 -y 50 -s "$name" \
		"while [ ! -e '$T/go' ]; do sleep 0.05; done; $cmd
		echo \$? >'$T/rc.tmp'; mv '$T/rc.tmp' '$T/rc'; exec sleep 300" ||
		bail "tmux cannot start a session"
	tmux -L "$SOCK" pipe-pane -o -t "$name" "cat >'$T/$name.raw'" ||
		bail "tmux cannot pipe the pane"
	touch "$T/go"
	deadline=$((SECONDS + 90))
	while [[ ! -e $T/rc ]] && ((SECONDS < deadline)); do
		sleep 0.2
	done
	[[ -e $T/rc ]] || bail "storbench on the terminal did not end"
	# Let tmux take in the last of the output before reading the pane.
	sleep 0.5
	tmux -L "$SOCK" capture-pane -p -J -S - -t "$name" |
		sed 's/[ ]*$//' >"$T/$name.screen"
	tmux -L "$SOCK" kill-session -t "$name"
	PRC=$(<"$T/rc")
}

if [[ $PTY == tmux ]]; then
	SOCK=sb_eta_$$
	# A server of its own, whatever tmux the user runs; gone at exit.
	tmux_gone() {
		tmux -L "$SOCK" kill-server >/dev/null 2>&1
	}
	sb_at_exit tmux_gone
fi
diag "terminal from: $PTY"

# count_lines FILE: lines of FILE that are a whole progress line.
count_lines() {
	grep -cE "^$LINE\$" "$1"
}

# show NAME: the screen of pty_run NAME, after a failed test (or always
# with SB_ETA_DEBUG set).
show() {
	if ((TAP_LAST_OK == 0)) || [[ -n ${SB_ETA_DEBUG:-} ]]; then
		diag "the terminal showed:"
		diag "$(<"$T/$1.screen")"
	fi
}

# On a terminal, by default: one line, redrawn in place.
pty_run auto "${JOB[@]}"
is "$PRC" 0 "on a terminal: exit status 0"
n=$(count_lines "$T/auto.screen")
is "$n" 1 "on a terminal: one progress line on the screen (redrawn in place)"
show auto
like "$(grep -a '^Jobs: ' "$T/auto.screen" | tail -n 1)" "^$LINE\$" \
	"on a terminal: the line has fio's fields"
n=$(grep -ao 'Jobs: 1 (f=1)' "$T/auto.raw" | wc -l)
ok "on a terminal: $n updates in 3 s (at least 2)" test "$n" -ge 2
like "$(<"$T/auto.raw")" $'\\] *\rJobs: 1 \\(f=1\\)' \
	"on a terminal: the next update comes after a carriage return"
like "$(<"$T/auto.screen")" $'\\[eta [^]]*\\]\n(.*\n)*.*read: IOPS=' \
	"on a terminal: the report follows on lines of its own"
show auto

# --eta=always on a terminal is the same.
pty_run always --eta=always "${JOB[@]}"
n=$(count_lines "$T/always.screen")
is "$PRC/$n" 0/1 "--eta=always on a terminal: one line, redrawn"
show always

# --eta-newline: a line per update.
pty_run newline --eta-newline "${JOB[@]}"
is "$PRC" 0 "--eta-newline on a terminal: exit status 0"
n=$(count_lines "$T/newline.screen")
ok "--eta-newline on a terminal: $n progress lines (at least 2)" \
	test "$n" -ge 2
show newline

# --eta=never: none on a terminal either.
pty_run never --eta=never "${JOB[@]}"
is "$PRC" 0 "--eta=never on a terminal: exit status 0"
ok "--eta=never on a terminal: no progress line" \
	! grep -aqE 'Jobs: |\[eta ' "$T/never.raw"
ok "--eta=never on a terminal: the report is there" \
	grep -aq 'read: IOPS=' "$T/never.screen"
show never

# Off a terminal, by default and with --eta=auto: nothing of it.
for mode in default --eta=auto; do
	args=("${JOB[@]}")
	[[ $mode == default ]] || args=("$mode" "${JOB[@]}")
	timeout -k 5 60 "$SB_BIN" "${args[@]}" >out 2>err </dev/null &&
		RC=0 || RC=$?
	is "$RC" 0 "$mode into files: exit status 0"
	ok "$mode into files: no progress on stderr" \
		! grep -aqE 'Jobs: |\[eta ' err
	ok "$mode into files: the report on stdout" grep -aq 'read: IOPS=' out
done
timeout -k 5 60 "$SB_BIN" "${JOB[@]}" 2>&1 </dev/null | cat >piped
ok "default into a pipe: no progress line" ! grep -aqE 'Jobs: |\[eta ' piped

# --eta=always: into the redirected stderr, as on a terminal.
timeout -k 5 60 "$SB_BIN" --eta=always "${JOB[@]}" >out 2>err </dev/null &&
	RC=0 || RC=$?
is "$RC" 0 "--eta=always into files: exit status 0"
n=$(grep -ao 'Jobs: 1 (f=1)' err | wc -l)
ok "--eta=always into files: $n updates on stderr (at least 2)" \
	test "$n" -ge 2
like "$(tr '\r' '\n' <err | grep -a '^Jobs: ' | tail -n 1 | sed 's/ *$//')" \
	"^$LINE\$" "--eta=always into files: the line has fio's fields"
is "$(tail -c 2 err | od -An -c | tr -d ' ')" '\r\n' \
	"--eta=always into files: the last line ended by a newline"
ok "--eta=always into files: none of it on stdout" \
	! grep -aqE 'Jobs: |\[eta ' out

# --eta=always --eta-newline: whole lines, no carriage returns.
timeout -k 5 60 "$SB_BIN" --eta=always --eta-newline "${JOB[@]}" \
	>out 2>err </dev/null && RC=0 || RC=$?
n=$(count_lines err)
ok "--eta=always --eta-newline: $n lines on stderr (at least 2)" \
	test "$RC" = 0 -a "$n" -ge 2
ok "--eta=always --eta-newline: no carriage return" ! grep -aq $'\r' err

# Only fio's three words.
timeout -k 5 60 "$SB_BIN" --eta=sometimes "${JOB[@]}" >out 2>err </dev/null &&
	RC=0 || RC=$?
is "$RC" 2 "--eta=sometimes: bad input (exit status 2)"
