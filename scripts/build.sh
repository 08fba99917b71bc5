#!/usr/bin/env bash
# Configure and build into DIR (default: build) with extra CMake arguments.
#   scripts/build.sh [DIR] [cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -DSTORBENCH_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
