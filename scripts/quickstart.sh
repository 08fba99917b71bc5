#!/usr/bin/env bash
# Install what is needed, build, and run the default benchmark: 4 KiB random
# reads with psync on a 64 MiB file in a temporary directory, 5 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build
exec build/bin/storbench --default
