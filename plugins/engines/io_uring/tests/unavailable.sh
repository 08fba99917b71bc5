#!/usr/bin/env bash
# Where io_uring is missing or forbidden (a kernel without CONFIG_IO_URING,
# kernel.io_uring_disabled, a container's seccomp profile), the job fails
# once, before any worker, with a message that says why, not with a crash.
# A small seccomp wrapper makes io_uring_setup() fail as such a sandbox
# would (common/async_engine_tests.sh).
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

ae_deny_plan "$AE_DENIED_TESTS"

ae_denied io_uring io_uring_setup \
	'job j: io_uring setup: io_uring_setup\(4 entries\): Function not implemented: io_uring is not available' \
	io_uring \
	'io_uring_setup\(4 entries\): Operation not permitted: io_uring is disabled for this process \(sysctl kernel.io_uring_disabled=' \
	"the message says io_uring is disabled and where to look"

done_testing
