#!/usr/bin/env bash
# --enghelp's engines and its table of fio's engines, against the plugins
# this build made and fio 3.33's engine list; the refusal of an engine
# storbench lacks (named, what fio's engine of that name is for, file:line,
# exit 2).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 9

# fio 3.33's engines: the .name of each ioengine_ops in its engines/
# sources, whatever its build needs.
FIO333="cpuio dev-dax dfs e4defrag exec falloc filecreate filedelete filestat
ftruncate gfapi gfapi_async http ime_aio ime_psync ime_psyncv io_uring
io_uring_cmd libaio libcufile libhdfs libiscsi libpmem librpma_apm_client
librpma_apm_server librpma_gpspm_client librpma_gpspm_server libzbc mmap mtd
nbd net netsplice nfs null pmemblk posixaio psync pvsync pvsync2 rados rbd
rdma sg solarisaio splice sync vsync windowsaio xnvme"

"$SB_BIN" --enghelp >"$T/help" 2>"$T/err"
is "$?" 0 "--enghelp exits 0"
built=$("$SB_BIN" --list-plugins 2>/dev/null | awk '$2 == "engine" {print $1}' |
	sort -u)
listed=$(sed -n '/^Available IO engines:/,/^$/s/^\t//p' "$T/help" | sort -u)
is "$listed" "$built" "the engines listed are the engine plugins built"
table=$(sed -n '/^fio engine /,$p' "$T/help" | tail -n +2)
rows=$(awk '{print $1}' <<<"$table" | sort)
missing=$(comm -23 <(tr ' \n' '\n\n' <<<"$FIO333" | grep . | sort) \
	<(echo "$rows"))
is "$missing" "" "the table has a row for each of fio 3.33's engines"
if command -v fio >/dev/null; then
	missing=$(comm -23 <(fio --enghelp | sed -n 's/^\t//p' | sort) \
		<(echo "$rows"))
	is "$missing" "" "and for each engine the installed fio lists"
else
	skip 1 "fio is not installed"
fi
bad=$(while read -r name have _; do
	want=none
	grep -qx -- "$name" <<<"$built" && want=$name
	[[ $have == "$want" ]] || echo "$name:$have!=$want"
done <<<"$table")
is "$bad" "" "each row's storbench engine is the plugin of that name, or none"

bad=$(while read -r name have what; do
	[[ $have == none ]] || continue
	what=${what% (external)}
	what=${what% (after fio 3.33)}
	err=$("$SB_BIN" --parse-only --name=x --ioengine="$name" --size=1m \
		2>&1 >/dev/null)
	st=$?
	[[ $st == 2 && $err == *"storbench has no engine named '$name': $name is "*" engine for $what (searched "* ]] ||
		echo "$name: $st $err"
done <<<"$table")
is "$bad" "" "every fio engine without a storbench one is refused, exit 2, saying what fio's is for"

printf '[global]\nsize=1m\n[j]\nrw=read\nioengine=rbd\n' >"$T/rbd.fio"
err=$("$SB_BIN" --parse-only "$T/rbd.fio" 2>&1 >/dev/null)
is "$?" 2 "a job file naming rbd: exit 2"
like "$err" "rbd\.fio:5: storbench has no engine named 'rbd': rbd is fio's engine for Ceph RBD images through librbd" \
	"with its file:line and what rbd is"
err=$("$SB_BIN" --parse-only --name=x --ioengine=nosuch --size=1m 2>&1)
like "$err" "storbench has no engine named 'nosuch' \\(searched " \
	"a name fio does not know either: only that storbench has none"
done_testing
