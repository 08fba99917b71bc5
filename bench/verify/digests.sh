#!/usr/bin/env bash
# MB/s of storbench's hand-written verify digests against nettle, libxxhash
# and ISA-L, on 4 KiB and 1 MiB buffers. Run by hand:
#	bench/verify/digests.sh
# The hand-written md5, sha256, xxh32 and crc32c were replaced by the
# libraries where these figures showed the library faster; they are taken
# from the last commit that had them, so the comparison can be run again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

old=core/src/verify/md5.c
if [[ -e $top/$old ]]; then
	rev=HEAD
else
	rev=$(git -C "$top" log -1 --format=%H -- "$old")^
fi
for f in md5.c sha256.c xxhash.c crc32c.c verify.h verify_impl.h; do
	git -C "$top" show "$rev:core/src/verify/$f" >"$tmp/$f"
done
cp "$top/core/src/verify/crc_small.c" "$tmp/crc_small.c"
cc -O2 -std=c17 -I"$tmp" -o "$tmp/digests" "$here/digests.c" \
	"$tmp"/{md5,sha256,xxhash,crc32c,crc_small}.c \
	$(pkg-config --cflags --libs nettle libxxhash libisal)
"$tmp/digests"
