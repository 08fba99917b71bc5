#!/usr/bin/env bash
# The influxdb reporter is valgrind-clean: pushing to a listener that
# takes the points, through a refusal, against a port nothing listens on
# (retries and the last push), with a URL that does not parse. No invalid
# access, no uninitialised memory, no leak. (Registered only in builds
# without sanitizers, which valgrind cannot run beside.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
sb_tmpdir T
command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"
command -v python3 >/dev/null || plan_skip_all "python3 is not installed"

plan 4

# shellcheck source=../../common/vg.sh
source "$HERE/../../common/vg.sh"

source "$HERE/influx_lib.bash"
listen() { influx_listen "$T/rec$1" "$1"; }
JOB=(--name=v --ioengine=null --rw=randrw --size=256k --time_based
	--runtime=2 --rate_iops=100 --numjobs=2 --status-interval=1)

listen 503,204
vg "v1 writes, one retried, gzip, user tags" --output-format=influxdb \
	--influxdb.url="http://u:p@127.0.0.1:$PORT" --influxdb.gzip=1 \
	--influxdb.tag=a=b --influxdb.tag=c=d "${JOB[@]}"
kill "$LPID"
listen 400
vg "v2 writes refused" --output-format=influxdb \
	--influxdb.url="http://127.0.0.1:$PORT" --influxdb.org=o \
	--influxdb.bucket=b --influxdb.token=t "${JOB[@]}"
kill "$LPID"
vg "nothing listening, timeout=1" --output-format=influxdb \
	--influxdb.url=http://127.0.0.1:1 --influxdb.timeout=1 "${JOB[@]}"
vg "a URL that does not parse" --output-format=influxdb \
	--influxdb.url='http://[::1' "${JOB[@]}"

done_testing
