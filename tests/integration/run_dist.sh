#!/usr/bin/env bash
# random_distribution, checked on the recorded stream of 16384 random reads
# over 16384 blocks: each form lands its I/Os where it says.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 7

# stat DIST: "first10 first4m top10 center" in percent of I/Os: in the
# first tenth of the file, in its first 4 MiB, on the busiest tenth of the
# blocks, and within a tenth of the file around its middle.
stat() {
	"$SB_BIN" --name=z --ioengine=null --size=64m --rw=randread \
		--random_distribution="$1" --write_iolog=z.log >/dev/null 2>&1 ||
		return 1
	python3 - z.log <<'PY'
import collections, sys
c, n, nb = collections.Counter(), 0, 16384
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 4 and f[1] == "read":
        c[int(f[2]) // 4096] += 1
        n += 1
pct = lambda x: round(100 * x / n)
print(pct(sum(v for k, v in c.items() if k < nb // 10)),
      pct(sum(v for k, v in c.items() if k < 1024)),
      pct(sum(sorted(c.values(), reverse=True)[:nb // 10])),
      pct(sum(v for k, v in c.items() if abs(k - nb / 2) < nb / 10)))
PY
}

# With 16384 draws one standard deviation of a 60% share is 0.4%; the
# bounds below allow about 4.
read -r first _ _ _ < <(stat zoned:60/10:30/20:10/70)
ok "zoned:60/10:...: ${first}% of I/Os in the first 10% of the file" \
	test "$first" -ge 58 -a "$first" -le 62
read -r _ first4m _ _ < <(stat zoned_abs:50/4m:50/60m)
ok "zoned_abs:50/4m:...: ${first4m}% in the first 4 MiB" \
	test "$first4m" -ge 48 -a "$first4m" -le 52
read -r _ _ top _ < <(stat zipf:1.2)
ok "zipf:1.2: the busiest tenth of the blocks takes ${top}% (> 80)" \
	test "$top" -gt 80
read -r _ _ top _ < <(stat pareto:0.2)
ok "pareto:0.2: the busiest tenth takes ${top}% (> 60)" test "$top" -gt 60
read -r _ _ _ mid < <(stat normal:10)
ok "normal:10: ${mid}% within one deviation of the middle (68 +- 3)" \
	test "$mid" -ge 65 -a "$mid" -le 71
read -r first _ top _ < <(stat random)
ok "random: uniform (first tenth ${first}%, busiest tenth ${top}%)" \
	test "$first" -eq 10 -a "$top" -eq 10

# percentage_random=30: 70% of the I/Os continue where the last one ended
# (one standard deviation of 16384 draws at 70% is 0.36%).
"$SB_BIN" --name=p --ioengine=null --size=64m --rw=randread \
	--percentage_random=30 --write_iolog=p.log >/dev/null 2>&1
seq=$(awk '$2 == "read" { if ($3 == prev) s++; n++; prev = $3 + $4 }
	END { printf "%d", 100 * s / n + 0.5 }' p.log)
ok "percentage_random=30: ${seq}% of I/Os are sequential (70 +- 2)" \
	test "$seq" -ge 68 -a "$seq" -le 72

done_testing
