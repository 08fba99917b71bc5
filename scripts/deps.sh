#!/usr/bin/env bash
# Install what building and testing storbench needs, from Debian 12's
# packages. Idempotent: apt runs only when something is missing.
set -euo pipefail

# fio is the reference the compatibility tests compare against; clang and
# its runtime build the job-file fuzzer; mount (losetup, mount),
# e2fsprogs, xfsprogs, util-linux (mkswap, wipefs), fdisk (sfdisk) and
# cryptsetup-bin (a LUKS header) make the loop devices the block-device
# tests write to; libblkid-dev is the device guard's signature prober;
# libinih-dev reads storbench's configuration file; tmux is the terminal the
# progress-line test watches; numpy, pandas and gnuplot run fio's own log
# tools (fiologparser_hist.py, fio_generate_plots) on storbench's logs;
# clang-format (14, the release the tree is formatted with) is the test
# that keeps it formatted.
pkgs=(build-essential cmake pkg-config libltdl-dev libaio-dev liburing-dev
	libblkid-dev libinih-dev
	python3 valgrind procps strace time
	fio clang libclang-rt-14-dev clang-format
	mount e2fsprogs xfsprogs util-linux fdisk cryptsetup-bin tmux
	python3-numpy python3-pandas gnuplot-nox)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if ((${#missing[@]})); then
	if ((EUID != 0)); then
		echo "storbench: need root to install: ${missing[*]}" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
