#!/usr/bin/env python3
"""Checks a storbench write_iolog (fio iolog version 2) of one worker against
an Iometer access specification, statistically.

usage: iolog_check.py IOLOG FILESIZE SPEC [SECTOR]

SPEC is access_spec= syntax. Lines are told apart by transfer size, so the
sizes of SPEC must differ. Each check prints "ok NAME" or "not ok NAME: why";
a share, read or random fraction passes within 4 binomial standard
deviations of what the specification says. An I/O is sequential when its
offset is the end of the previous I/O to the file, or 0 where the transfer
would not have fitted there (the wrap to the start); the first I/O to a file
is neither.
"""
import math
import sys


def num(text):
    mul = 1
    t = text.lower().rstrip("b")
    if t and t[-1] in "kmg":
        mul = 1024 ** ("kmg".index(t[-1]) + 1)
        t = t[:-1]
    return int(t) * mul


def parse_spec(text):
    lines = []
    for item in text.split(","):
        f = [num(x) for x in item.split(":")]
        if len(f) == 4:
            f += [0, 1, 0, 0]
        lines.append(dict(size=f[0], share=f[1], read=f[2], random=f[3],
                          delay=f[4], burst=f[5], align=f[6], reply=f[7]))
    return lines


def within(name, hits, n, pct, chance=0.0):
    """hits of n where pct% are due; chance: the odds that a due one is
    missed all the same (a random offset that lands on the previous end)."""
    p = pct / 100.0
    sd = math.sqrt(n * p * (1 - p) + n * p * chance)
    tol = 4 * sd + n * p * chance + 1
    if abs(hits - n * p) <= tol:
        print("ok %s: %d of %d (%.2f%%, spec %d%%)" % (name, hits, n,
                                                      100.0 * hits / n, pct))
        return True
    print("not ok %s: %d of %d (%.2f%%), spec %d%% +- %.1f" %
          (name, hits, n, 100.0 * hits / n if n else 0, pct, tol))
    return False


def main():
    log, fsize, spec = sys.argv[1], int(sys.argv[2]), parse_spec(sys.argv[3])
    sector = int(sys.argv[4]) if len(sys.argv) > 4 else 512
    by_size = {l["size"]: l for l in spec}
    ios = []
    for row in open(log):
        f = row.split()
        if len(f) == 4 and f[1] in ("read", "write"):
            ios.append((f[0], f[1], int(f[2]), int(f[3])))
    good = True
    n = len(ios)
    print("ok ios: %d" % n)
    prev_end = {}
    stats = {l["size"]: dict(n=0, reads=0, seq=0, after=0, badalign=0, off4k=0)
             for l in spec}
    unknown = 0
    for path, ddir, off, ln in ios:
        l = by_size.get(ln)
        end = prev_end.get(path)
        seq = end is not None and (off == end or (off == 0 and
                                                  end + ln > fsize))
        prev_end[path] = off + ln
        if l is None:
            unknown += 1
            continue
        s = stats[ln]
        s["n"] += 1
        s["reads"] += ddir == "read"
        s["seq"] += seq
        s["after"] += end is not None
        s["badalign"] += off % (l["align"] or sector) != 0
        s["off4k"] += off % ln != 0
    if unknown:
        print("not ok sizes: %d I/Os of a size no line has" % unknown)
        good = False
    for l in spec:
        s = stats[l["size"]]
        name = "%dB line" % l["size"]
        good &= within(name + " share", s["n"], n, l["share"])
        if not s["n"]:
            continue
        good &= within(name + " read", s["reads"], s["n"], l["read"])
        slots = (fsize - l["size"]) // (l["align"] or sector) + 1
        good &= within(name + " random", s["after"] - s["seq"], s["after"],
                       l["random"], 1.0 / slots)
        if s["badalign"]:
            print("not ok %s align: %d offsets off %d" %
                  (name, s["badalign"], l["align"] or sector))
            good = False
        else:
            print("ok %s align: every offset on %d (%d not on the size)" %
                  (name, l["align"] or sector, s["off4k"]))
    print("summary:", "pass" if good else "fail")
    sys.exit(0 if good else 1)


main()
