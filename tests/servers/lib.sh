# shellcheck shell=bash
# lib.sh - what every tests/servers/NAME.sh shares: a state directory in
# the build tree, a machine-wide lock per server kind, starting daemons as
# detached children, waiting for them to listen, the env file tests read,
# and stopping by PID. Sourcing it only defines functions.
#
# A server script sets SRV_NAME and defines:
#   srv_check          skip (srv_need_root, srv_need_progs) when the server
#                      cannot run here; before the lock, which may wait
#   srv_prepare        make config files, disks and credentials in $SRV_DIR
#                      (runs on start only; restart keeps what is there)
#   srv_launch         start the daemons with srv_spawn and wait with
#                      srv_wait_port (runs on start and on restart)
#   srv_write_env      print the server's KEY=value lines with srv_kv
#   SRV_DAEMONS        (array) the srv_spawn keys that kill, pause,
#                      resume and restart act on
#   srv_halt KEY PID   (optional) ask a daemon to stop its own way; return
#                      non-zero to have it sent SIGTERM instead
#   srv_reap KEY       (optional) clean up after a daemon is gone
# and ends with: srv_main "$@".
#
# Why a lock: the ports are fixed, and rpcbind and tgtd's control socket
# are one per machine, so two build trees (a plain and a sanitizer build,
# or two worktrees) must take turns: /tmp/storbench-servers/NAME.lock. A
# keeper process holds the lock for as long as the servers are up; a
# second start waits for it (bounded) instead of failing on a busy port.

: "${SB_SOURCE_DIR:=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${SB_BUILD_DIR:=$SB_SOURCE_DIR/build}"
: "${SRV_START_TIMEOUT:=30}"
: "${SRV_STOP_TIMEOUT:=10}"
: "${SRV_LOCK_TIMEOUT:=240}"
SRV_HOST=127.0.0.1

# srv_dir NAME: where server NAME keeps its state in this build tree.
srv_dir() { printf '%s/tests/servers/%s\n' "$SB_BUILD_DIR" "$1"; }

# srv_use NAME: for a TAP test (tap.sh sourced): load NAME's env file, or
# skip the whole test when its fixture said the server cannot run here.
srv_use() {
	local env
	env=$(srv_dir "$1")/env
	if [[ ! -f $env ]]; then
		bail "no $env: the srv_$1 fixture is not up (ctest -R srv_$1 starts it; or tests/servers/$1.sh start)"
	fi
	# shellcheck disable=SC1090 # written by srv_env_write
	source "$env"
	local skip=SB_${1^^}_SKIP
	if [[ -n ${!skip:-} ]]; then
		plan_skip_all "${!skip}"
	fi
}

# srv_ctl NAME CMD: for a test: run tests/servers/NAME.sh CMD (kill,
# pause, resume, restart) on this build tree's server; after a restart,
# srv_use NAME again for the new PIDs.
srv_ctl() { bash "$SB_SOURCE_DIR/tests/servers/$1.sh" "$2"; }

# srv_md5 FILE: its md5 alone ("-" for stdin).
srv_md5() {
	local sum
	sum=$(md5sum -- "$1") || return 1
	printf '%s\n' "${sum%% *}"
}

# srv_random_file FILE: 1 MiB of random bytes in FILE; prints their md5.
srv_random_file() {
	head -c 1M /dev/urandom >"$1" && srv_md5 "$1"
}

srv_say() { printf 'storbench servers: %s: %s\n' "$SRV_NAME" "$*" >&2; }

# srv_die MSG: name the server, stop what this start began (its logs stay
# for reading; the next start clears them), exit 1.
srv_die() {
	srv_say "$*"
	if [[ -n ${SRV_STARTING:-} ]]; then
		SRV_STARTING=
		srv_stop_procs >/dev/null 2>&1
	fi
	exit 1
}

# srv_skip WHY: the server cannot run on this machine. The fixture reports
# a skip (SKIP_REGULAR_EXPRESSION) and the tests that need it skip too,
# with the same reason, by srv_use; in CI nothing may skip.
srv_skip() {
	if [[ -n ${SRV_STARTING:-} ]]; then
		SRV_STARTING=
		srv_stop_all >/dev/null 2>&1
	fi
	mkdir -p "$SRV_DIR"
	printf 'SB_%s_SKIP=%q\n' "${SRV_NAME^^}" "$*" >"$SRV_DIR/env"
	printf '1..0 # SKIP %s: %s\n' "$SRV_NAME" "$*"
	exit 0
}

# srv_need_root / srv_need_progs PROG...: skip when they cannot be had.
srv_need_root() {
	((EUID == 0)) || srv_skip "needs root (scripts/deps.sh; CI runs as root)"
}
srv_need_progs() {
	local p
	for p in "$@"; do
		command -v "$p" >/dev/null 2>&1 ||
			srv_skip "no $p (scripts/deps.sh installs it)"
	done
}

# srv_secret FILE: a random password (16 letters and digits) in FILE,
# mode 0600, also printed.
srv_secret() {
	local s
	s=$(LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c 16)
	(umask 077 && printf '%s' "$s" >"$1")
	printf '%s' "$s"
}

# srv_listening PORT: something listens on TCP PORT on this machine.
srv_listening() { ss -ltnH "sport = :$1" | grep -q .; }

# srv_port_free PORT...: fail naming the holder of a port already taken.
srv_port_free() {
	local p
	for p in "$@"; do
		if srv_listening "$p"; then
			srv_die "port $p is already in use, not by these servers: $(ss -ltnpH "sport = :$p" | head -1)"
		fi
	done
}

# _srv_starttime PID: the process's start time in clock ticks, which tells
# a process from a later one that got the same PID.
_srv_starttime() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	# The fields after the name, which may hold spaces: the state
	# (field 3) first, so starttime (field 22) is the 20th.
	local -a f
	read -ra f <<<"${stat##*) }"
	printf '%s\n' "${f[19]}"
}

# _srv_alive PID START: that very process still runs (a zombie does not).
_srv_alive() {
	local st
	[[ $(_srv_starttime "$1") == "$2" ]] || return 1
	st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	[[ $st != Z* ]]
}

# srv_pid_add KEY PID: remember a daemon this start owns.
srv_pid_add() {
	local start
	start=$(_srv_starttime "$2") || return 0
	printf '%s %s %s\n' "$1" "$2" "$start" >>"$SRV_DIR/pids"
}

# srv_pid KEY: the PID recorded under KEY (empty when none).
srv_pid() {
	[[ -f $SRV_DIR/pids ]] || return 0
	awk -v k="$1" '$1 == k { p = $2 } END { if (p) print p }' "$SRV_DIR/pids"
}

# srv_spawn [--own-session] KEY LOG CMD...: start CMD in its own session
# (so neither ctest nor a daemon that signals its process group can take
# the other down), stdin closed and output in LOG, so the fixture's ctest
# step does not wait on its pipes. --own-session: CMD calls setsid()
# itself and fails when it already leads a session (smbd). SRV_PID is its
# PID.
srv_spawn() {
	local setsid=setsid
	if [[ $1 == --own-session ]]; then
		setsid=
		shift
	fi
	local key=$1 log=$2
	shift 2
	$setsid "$@" </dev/null >>"$log" 2>&1 &
	SRV_PID=$!
	srv_pid_add "$key" "$SRV_PID"
}

# srv_spawn_daemon KEY LOG PIDFILE CMD...: for a daemon that forks into
# the background and writes PIDFILE (nbdkit: in the foreground it stops
# when its parent exits, which here is this script). SRV_PID is the
# daemon's PID.
srv_spawn_daemon() {
	local key=$1 log=$2 pidfile=$3
	shift 3
	rm -f "$pidfile"
	setsid "$@" </dev/null >>"$log" 2>&1 ||
		srv_die "$key: $1 failed to start; its log: $log$(srv_log_tail "$log")"
	srv_wait_until "$SRV_START_TIMEOUT" test -s "$pidfile" ||
		srv_die "$key: $1 wrote no $pidfile in ${SRV_START_TIMEOUT}s; its log: $log$(srv_log_tail "$log")"
	SRV_PID=$(<"$pidfile")
	srv_pid_add "$key" "$SRV_PID"
}

# srv_wait_port PORT PID LOG [WHAT]: wait until PORT listens; fail when
# PID dies first or SRV_START_TIMEOUT passes, naming the log.
srv_wait_port() {
	local port=$1 pid=$2 log=$3 what=${4:-$SRV_NAME} start deadline
	start=$(_srv_starttime "$pid") || srv_die "$what exited at once; its log: $log$(srv_log_tail "$log")"
	deadline=$((SECONDS + SRV_START_TIMEOUT))
	until srv_listening "$port"; do
		_srv_alive "$pid" "$start" ||
			srv_die "$what (PID $pid) exited before listening on port $port; its log: $log$(srv_log_tail "$log")"
		((SECONDS < deadline)) ||
			srv_die "$what (PID $pid) not listening on port $port after ${SRV_START_TIMEOUT}s; its log: $log$(srv_log_tail "$log")"
		sleep 0.05
	done
}

# srv_wait_until SECONDS CMD...: poll CMD until it succeeds (1) or not (0).
srv_wait_until() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		((SECONDS < deadline)) || return 1
		sleep 0.05
	done
}

srv_log_tail() {
	[[ -s $1 ]] || return 0
	printf '\n--- last lines of %s ---\n' "$1"
	tail -n 15 "$1"
}

# _srv_kill_one KEY PID START: srv_halt, or SIGTERM, bounded; then
# SIGKILL; then srv_reap, also for a daemon that was dead already.
_srv_kill_one() {
	local key=$1 pid=$2 start=$3
	if _srv_alive "$pid" "$start"; then
		if ! declare -F srv_halt >/dev/null || ! srv_halt "$key" "$pid" ||
			! srv_wait_until "$SRV_STOP_TIMEOUT" _srv_dead "$pid" "$start"; then
			kill -TERM "$pid" 2>/dev/null
			# A stopped process would not see the TERM.
			kill -CONT "$pid" 2>/dev/null
			if ! srv_wait_until "$SRV_STOP_TIMEOUT" _srv_dead "$pid" "$start"; then
				srv_say "$key (PID $pid) still up ${SRV_STOP_TIMEOUT}s after SIGTERM: SIGKILL"
				kill -KILL "$pid" 2>/dev/null
				srv_wait_until 5 _srv_dead "$pid" "$start"
			fi
		fi
	fi
	if declare -F srv_reap >/dev/null; then
		srv_reap "$key"
	fi
	return 0
}

# srv_kill_pidfile FILE: stop the process FILE names (SIGTERM, bounded,
# then SIGKILL), for helpers a daemon starts on its own.
srv_kill_pidfile() {
	local pid start
	[[ -s $1 ]] || return 0
	pid=$(<"$1")
	rm -f "$1"
	start=$(_srv_starttime "$pid") || return 0
	kill -TERM "$pid" 2>/dev/null
	srv_wait_until "$SRV_STOP_TIMEOUT" _srv_dead "$pid" "$start" && return 0
	kill -KILL "$pid" 2>/dev/null
	srv_wait_until 5 _srv_dead "$pid" "$start"
}
_srv_dead() { ! _srv_alive "$@"; }

# srv_stop_keys KEY...: stop the recorded daemons under those keys (all
# when none are given), newest first, and forget them.
srv_stop_keys() {
	local -a lines keep=()
	local i key pid start k match
	[[ -f $SRV_DIR/pids ]] || return 0
	mapfile -t lines <"$SRV_DIR/pids"
	for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
		read -r key pid start <<<"${lines[i]}"
		match=$(($# == 0))
		for k in "$@"; do [[ $k == "$key" ]] && match=1; done
		if ((match)); then
			_srv_kill_one "$key" "$pid" "$start"
		else
			keep=("${lines[i]}" "${keep[@]}")
		fi
	done
	if ((${#keep[@]})); then
		printf '%s\n' "${keep[@]}" >"$SRV_DIR/pids"
	else
		: >"$SRV_DIR/pids"
	fi
}

# srv_stop_procs: every daemon, then the lock keeper.
srv_stop_procs() {
	[[ -d $SRV_DIR ]] || return 0
	srv_stop_keys
	if [[ -f $SRV_DIR/keeper ]]; then
		local pid start
		read -r pid start <"$SRV_DIR/keeper"
		_srv_alive "$pid" "$start" && kill -KILL "$pid" 2>/dev/null
		rm -f "$SRV_DIR/keeper"
	fi
	return 0
}

# srv_stop_all: the processes, then the state dir.
srv_stop_all() {
	srv_stop_procs
	rm -rf -- "$SRV_DIR"
}

# _srv_lock: take the machine-wide lock of this server kind, held from now
# on by a keeper process that srv_stop_all kills. The lock directory is
# world-writable but not sticky, so build trees of different users share
# the locks (in a sticky /tmp, fs.protected_regular would refuse one user
# opening another's file).
_srv_lock() {
	# /tmp, not $TMPDIR: the ports are the whole machine's.
	local dir=/tmp/storbench-servers lock fd
	lock=$dir/$SRV_NAME.lock
	[[ -d $dir ]] || mkdir -m 0777 "$dir" 2>/dev/null
	[[ -e $lock ]] || (umask 0 && : >>"$lock") 2>/dev/null
	# flock takes a lock on a descriptor opened for reading too.
	exec {fd}<"$lock" || srv_die "cannot open the lock $lock"
	if ! flock -n "$fd"; then
		srv_say "another build tree runs its $SRV_NAME server ($(cat "$lock.owner" 2>/dev/null)); waiting up to ${SRV_LOCK_TIMEOUT}s"
		flock -w "$SRV_LOCK_TIMEOUT" "$fd" ||
			srv_die "the lock $lock is still held after ${SRV_LOCK_TIMEOUT}s by $(cat "$lock.owner" 2>/dev/null); stop those servers (tests/servers/$SRV_NAME.sh stop with that SB_BUILD_DIR)"
	fi
	setsid sleep infinity </dev/null >/dev/null 2>&1 &
	printf '%s %s\n' "$!" "$(_srv_starttime "$!")" >"$SRV_DIR/keeper"
	exec {fd}<&-
	(umask 0 && printf '%s (keeper PID %s)\n' "$SRV_DIR" "$(cut -d' ' -f1 "$SRV_DIR/keeper")" >"$lock.owner") 2>/dev/null
}

# srv_kv KEY VALUE: one env file line, quoted for bash.
srv_kv() { printf '%s=%q\n' "$1" "$2"; }

srv_env_write() {
	local key
	{
		printf '# %s server of %s; written by tests/servers/%s.sh\n' "$SRV_NAME" "$SB_BUILD_DIR" "$SRV_NAME"
		srv_kv "SB_${SRV_NAME^^}_HOST" "$SRV_HOST"
		srv_kv "SB_${SRV_NAME^^}_STATE" "$SRV_DIR"
		srv_write_env
		for key in "${SRV_DAEMONS[@]}"; do
			srv_kv "SB_${SRV_NAME^^}_${key^^}_PID" "$(srv_pid "$key")"
		done
	} >"$SRV_DIR/env.new"
	mv -f "$SRV_DIR/env.new" "$SRV_DIR/env"
}

srv_start() {
	# A start in this tree that never got its stop (an interrupted ctest)
	# left servers behind: they are this tree's, so stop them.
	if [[ -s $SRV_DIR/pids || -f $SRV_DIR/keeper ]]; then
		srv_say "stopping the servers an earlier run left in $SRV_DIR"
		srv_stop_procs
	fi
	rm -rf -- "$SRV_DIR"
	mkdir -p "$SRV_DIR"
	: >"$SRV_DIR/pids"
	SRV_STARTING=1
	srv_check
	_srv_lock
	srv_prepare
	srv_launch
	srv_env_write
	SRV_STARTING=
	printf 'ok - %s up; env: %s\n' "$SRV_NAME" "$SRV_DIR/env"
}

# srv_signal SIG: send SIG to the daemons (kill, pause, resume).
# Only to the very processes started: not to a later one with a reused PID.
srv_signal() {
	local key pid start
	while read -r key pid start; do
		[[ " ${SRV_DAEMONS[*]} " == *" $key "* ]] || continue
		if _srv_alive "$pid" "$start"; then
			kill "-$1" "$pid"
		fi
	done <"$SRV_DIR/pids"
}

srv_running() {
	[[ -f $SRV_DIR/env && -f $SRV_DIR/pids ]] ||
		srv_die "not running in this build tree (no $SRV_DIR/env)"
}

srv_usage() {
	cat >&2 <<-END
		usage: $0 start|stop|env|kill|pause|resume|restart
		  start    start the $SRV_NAME server; state and env file in $SRV_DIR
		  stop     stop it (SIGTERM, then SIGKILL after ${SRV_STOP_TIMEOUT}s) and remove $SRV_DIR
		  env      print the env file tests source
		  kill     SIGKILL the daemons (${SRV_DAEMONS[*]}); restart brings them back
		  pause    SIGSTOP them; resume sends SIGCONT
		  restart  stop the daemons (bounded) and start them on the same ports and data
	END
	exit 2
}

srv_main() {
	SRV_DIR=$(srv_dir "$SRV_NAME")
	case ${1:-} in
	start) srv_start ;;
	stop)
		srv_stop_all
		printf 'ok - %s stopped\n' "$SRV_NAME"
		;;
	env)
		[[ -f $SRV_DIR/env ]] || srv_die "not running (no $SRV_DIR/env)"
		cat "$SRV_DIR/env"
		;;
	kill)
		srv_running
		srv_signal KILL
		;;
	pause)
		srv_running
		srv_signal STOP
		;;
	resume)
		srv_running
		srv_signal CONT
		;;
	restart)
		srv_running
		srv_stop_keys "${SRV_DAEMONS[@]}"
		srv_launch
		srv_env_write
		;;
	*) srv_usage ;;
	esac
}
