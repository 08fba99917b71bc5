#!/usr/bin/env python3
"""The figures of storbench's normal report of a one-job run, in fixed units,
as key=value lines for the shell tests to compare with another format:

  read.iops read.bw_kib read.io_kib read.runtime_ms read.ios
  read.clat.min_us read.clat.max_us read.clat.avg_us (and slat, lat)

and the same for write and trim. The normal report rounds (IOPS=17.8k,
BW=69.5MiB/s, latencies in one unit per job), so a test compares with a
tolerance; read.ios comes from "issued rwts" and is exact.
"""
import re
import sys

SI = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
BIN = {"B": 1.0 / 1024, "KiB": 1.0, "MiB": 1024.0, "GiB": 1024.0**2,
       "TiB": 1024.0**3}
LAT = {"nsec": 1e-3, "usec": 1.0, "msec": 1e3}
UNIT = r"(B|KiB|MiB|GiB|TiB)"

DIR_RE = re.compile(
    r"^  (read|write|trim): IOPS=([\d.]+)([kMGT]?), BW=([\d.]+)" + UNIT +
    r"/s .*\(([\d.]+)" + UNIT + r"/(\d+)msec\)")
LAT_RE = re.compile(
    r"^\s+(slat|clat|lat) \((nsec|usec|msec)\): min=([\d.]+), "
    r"max=([\d.]+), avg=([\d.]+)")
ISSUED_RE = re.compile(r"issued rwts: total=(\d+),(\d+),(\d+)")


def main(path):
    out = {}
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("Run status"):
                break
            m = DIR_RE.match(line)
            if m:
                cur = m.group(1)
                out[cur + ".iops"] = float(m.group(2)) * SI[m.group(3)]
                out[cur + ".bw_kib"] = float(m.group(4)) * BIN[m.group(5)]
                out[cur + ".io_kib"] = float(m.group(6)) * BIN[m.group(7)]
                out[cur + ".runtime_ms"] = int(m.group(8))
                continue
            m = LAT_RE.match(line)
            if m and cur:
                k = cur + "." + m.group(1)
                div = LAT[m.group(2)]
                out[k + ".min_us"] = float(m.group(3)) * div
                out[k + ".max_us"] = float(m.group(4)) * div
                out[k + ".avg_us"] = float(m.group(5)) * div
                continue
            m = ISSUED_RE.search(line)
            if m:
                for i, d in enumerate(("read", "write", "trim")):
                    out[d + ".ios"] = int(m.group(i + 1))
    for k, v in out.items():
        print("%s=%s" % (k, v))


if __name__ == "__main__":
    main(sys.argv[1])
