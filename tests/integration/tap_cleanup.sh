#!/usr/bin/env bash
# tap.sh's cleanup runs however a script ends, also when nobody reads its
# output any more (ctest -V | head): the EXIT trap's own summary then meets
# the closed pipe too, and must not die of SIGPIPE before the sb_at_exit
# commands (losetup -d, umount) and the temporary directories are done.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 3

cat >"$T/inner.sh" <<END
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
sb_tmpdir D
echo "\$D" >"$T/tmpdir"
sb_at_exit touch "$T/cleaned"
plan 3
ok "one" true
sleep 0.3 # head has gone by now: the next line meets a closed pipe
ok "two" true
ok "three" true
END
bash "$T/inner.sh" 2>/dev/null | head -c1 >/dev/null
is "${PIPESTATUS[0]}" 141 "the script itself ends by SIGPIPE"
ok "its sb_at_exit commands still ran" test -e "$T/cleaned"
ok "and its temporary directory is removed" test ! -e "$(<"$T/tmpdir")"

done_testing
