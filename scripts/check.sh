#!/usr/bin/env bash
# Install what is needed, build, and pass the whole test suite: once in a
# plain -Werror build, once under AddressSanitizer and UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)

scripts/build.sh build
(cd build && ctest -j"$jobs" --output-on-failure)

scripts/build.sh build-asan -DSTORBENCH_SANITIZE=address,undefined
(cd build-asan && ctest -j"$jobs" --output-on-failure)
