#!/usr/bin/env bash
# Where native AIO is missing or forbidden (a kernel without CONFIG_AIO, a
# container's seccomp profile), the job fails once, before any worker, with
# a message that says why, not with a crash. A small seccomp wrapper makes
# io_setup() fail as such a sandbox would.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T

cat >"$T/deny.c" <<'EOF'
/* deny SYSCALL ERRNO CMD...: run CMD with SYSCALL failing with ERRNO. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long nr;

	if (argc < 4)
		return 64;
	if (!strcmp(argv[1], "io_setup"))
		nr = __NR_io_setup;
	else if (!strcmp(argv[1], "io_uring_setup"))
		nr = __NR_io_uring_setup;
	else
		return 64;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | (atoi(argv[2]) & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 65;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 66;
}
EOF
if [[ $(uname -m) != x86_64 ]] ||
	! "${CC:-cc}" -o "$T/deny" "$T/deny.c" 2>"$T/cc.err"; then
	plan_skip_all "cannot build the seccomp wrapper here (x86_64 and a C compiler needed)"
fi

plan 6

run_denied() {
	"$T/deny" io_setup "$1" "$SB_BIN" --name=j --ioengine=libaio \
		--rw=randread --size=64k --iodepth=4 --numjobs=2 \
		--filename="$T/f" >"$T/out" 2>"$T/err"
}

run_denied 38 # ENOSYS
is "$?" 1 "io_setup failing with ENOSYS: the job fails (exit 1)"
like "$(cat "$T/err")" 'job j: libaio setup: io_setup\(1\): Function not implemented: native AIO is not available here' \
	"the message says native AIO is not available, and why"
is "$(grep -c 'io_setup' "$T/err")" 1 "said once, not once per clone"

run_denied 1 # EPERM
is "$?" 1 "io_setup failing with EPERM: exit 1"
like "$(cat "$T/err")" 'io_setup\(1\): Operation not permitted: native AIO is forbidden here' \
	"the message says native AIO is forbidden"
ok "nothing was laid out or written" test ! -e "$T/f"

done_testing
