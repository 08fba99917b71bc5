#!/usr/bin/env bash
# Install what is needed, build, and pass the whole test suite: once in a
# plain -Werror build, the parser fuzzers for a bounded time, then the suite
# again under AddressSanitizer and UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)

scripts/build.sh build
(cd build && ctest -j"$jobs" --output-on-failure)

tests/fuzz/run.sh "${SB_FUZZ_SECONDS:-60}"

scripts/build.sh build-asan -DSTORBENCH_SANITIZE=address,undefined
(cd build-asan && ctest -j"$jobs" --output-on-failure)
