#!/usr/bin/env bash
# Where native AIO is missing or forbidden (a kernel without CONFIG_AIO, a
# container's seccomp profile), the job fails once, before any worker, with
# a message that says why, not with a crash. A small seccomp wrapper makes
# io_setup() fail as such a sandbox would (common/async_engine_tests.sh).
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

ae_deny_plan "$AE_DENIED_TESTS"

ae_denied libaio io_setup \
	'job j: libaio setup: io_setup\(1\): Function not implemented: native AIO is not available here' \
	"native AIO" \
	'io_setup\(1\): Operation not permitted: native AIO is forbidden here' \
	"the message says native AIO is forbidden"

done_testing
