# shellcheck shell=bash
# influxdb: pushing every period must cost the I/O nothing. The null
# engine's 4 KiB random reads at QD1 and QD16 (the cheapest I/O there is,
# so any cost of the push would show), storbench pushing each 1 s period to
# influxd beside fio (which cannot push) and beside storbench without the
# reporter. Sourced by bench/vs-fio-net.sh with the fixture's env.
ia=(--status-interval=1 --output-format=json,influxdb
	"--influxdb.url=$SB_INFLUXDB_URL" "--influxdb.db=$SB_INFLUXDB_DB"
	"--influxdb.user=$SB_INFLUXDB_USER"
	"--influxdb.password=file:$SB_INFLUXDB_PASSWORD_FILE"
	"--influxdb.run_id=bench-$$")
for qd in 1 16; do
	opts=(--name=bench --ioengine=null --rw=randread --bs=4k --size=1g
		--iodepth="$qd" --runtime="$secs" --time_based)
	# shellcheck disable=SC2046 # two words each
	net_print "null 4k randread QD$qd, pushing to influxdb" \
		$(net_run "$SB" "${opts[@]}" "${ia[@]}") $(net_run "$FIO" "${opts[@]}")
	# shellcheck disable=SC2046
	net_print "null 4k randread QD$qd, no reporter" \
		$(net_run "$SB" "${opts[@]}") $(net_run "$FIO" "${opts[@]}")
done
