#!/usr/bin/env bash
# Install what building and testing storbench needs, from Debian 12's
# packages. Idempotent: apt runs only when something is missing.
set -euo pipefail

# fio is the reference the compatibility tests compare against; clang and
# its runtime build the job-file fuzzer; mount (losetup, mount),
# e2fsprogs, xfsprogs, util-linux (mkswap, wipefs), fdisk (sfdisk) and
# cryptsetup-bin (a LUKS header) make the loop devices the block-device
# tests write to; libblkid-dev is the device guard's signature prober;
# libinih-dev reads storbench's configuration file; libnuma-dev places
# clones on NUMA nodes; tmux is the terminal the
# progress-line test watches; numpy, pandas and gnuplot run fio's own log
# tools (fiologparser_hist.py, fio_generate_plots) on storbench's logs;
# clang-format (14, the release the tree is formatted with) is the test
# that keeps it formatted; jq reads the JSON reports in the tests.
#
# The network engines and the InfluxDB reporter are tested against real
# servers on loopback (tests/servers): nfs-ganesha with its VFS backend and
# rpcbind (which NFSv3 needs) serve NFS, samba serves SMB, tgt serves
# iSCSI, nbdkit serves NBD and influxdb is the InfluxDB 1.x the reporter
# writes to. Each engine's client library comes with its headers (libnfs,
# libsmbclient, libiscsi, libnbd), and the smoke tests drive the servers
# with those libraries' own tools: libnfs-utils (nfs-cp), smbclient,
# libiscsi-bin (iscsi-inq), libnbd-bin (nbdcopy) and curl. iproute2's ss
# tells when a server listens. The InfluxDB reporter posts with libcurl
# (libcurl4-openssl-dev) and gzips with zlib (zlib1g-dev).
# verify='s digests come from nettle (nettle-dev: md5, sha1, sha2, sha3),
# libxxhash (libxxhash-dev) and ISA-L (libisal-dev: crc32c, crc32, crc64).
# jq reads the JSON reports the engines' tests check.
# blktrace's blkparse prints the text traces the replay generator's tests
# replay, from binary traces the tests make.
pkgs=(build-essential cmake pkg-config libltdl-dev libaio-dev liburing-dev
	libblkid-dev libinih-dev libnuma-dev
	python3 valgrind procps strace time jq
	fio clang libclang-rt-14-dev clang-format
	mount e2fsprogs xfsprogs util-linux fdisk cryptsetup-bin tmux
	python3-numpy python3-pandas gnuplot-nox
	nfs-ganesha nfs-ganesha-vfs rpcbind libnfs-dev libnfs-utils
	samba smbclient libsmbclient-dev tgt libiscsi-dev libiscsi-bin
	nbdkit libnbd-dev libnbd-bin influxdb curl iproute2
	libcurl4-openssl-dev zlib1g-dev nettle-dev libxxhash-dev libisal-dev
	blktrace)

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
