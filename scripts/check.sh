#!/usr/bin/env bash
# Install what is needed, build, and pass the whole test suite: once in a
# plain -Werror build, the parser fuzzers for a bounded time, then the suite
# again under AddressSanitizer and UBSan.
#
# With CI=true a test that skipped fails the run as a failed one does: CI
# has everything scripts/deps.sh installs, so a skip there is a test that
# lost what it needs without anybody seeing it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)

# suite DIR: the whole suite in build tree DIR.
suite() {
	(cd "$1" && ctest -j"$jobs" --output-on-failure --output-junit ctest-junit.xml)
	if [[ ${CI:-} == true ]]; then
		python3 tests/habits/no_skips.py "$1/ctest-junit.xml"
	fi
}

scripts/build.sh build
suite build

tests/fuzz/run.sh "${SB_FUZZ_SECONDS:-60}"

scripts/build.sh build-asan -DSTORBENCH_SANITIZE=address,undefined
suite build-asan
