#!/usr/bin/env python3
"""Reads an Iometer results file the way Iometer's own result readers do
and prints what it found as NUL-separated key, value pairs for the shell
tests.

Iometer's readers (its own "Results" loader and the scripts that post-
process results.csv) go line by line: a line starting with a quote is a
marker naming what the next lines hold ('Test Type,Test Description,
'Version, 'Time Stamp, 'Access specifications ... 'End access
specifications, 'Results, 'End Test); the line right after 'Results is
the header of the results block, split on commas with no quoting, and
every line up to the next marker is a row whose first field is its
target type (ALL, MANAGER, PROCESSOR, WORKER, DISK, NETWORK).

Keys printed:
  error              what is wrong with the layout ("" when nothing)
  version            the line after 'Version
  description        the second field of the line after 'Test Type
  stamps             how many 'Time Stamp markers
  specs              access specification names, space separated
  ended              1 when the last line is 'End Test
  header             the results header as written
  types              the rows' target types, space separated
  TYPE.N.COLUMN      a cell: the N-th row (from 0) of that type
"""
import sys

# A PROCESSOR row stops after the network fields: no latency bins.
BINS = 21


def parse(path):
    out = {"error": "", "stamps": 0, "specs": [], "ended": 0}
    rows, header = [], None
    with open(path, newline="") as f:
        lines = [ln.rstrip("\r\n") for ln in f]
    i = 0
    section = None
    while i < len(lines):
        ln = lines[i]
        i += 1
        if ln.startswith("'"):
            section = ln
            if ln == "'Test Type,Test Description":
                out["description"] = lines[i].split(",", 1)[1]
                i += 1
            elif ln == "'Version":
                out["version"] = lines[i]
                i += 1
            elif ln == "'Time Stamp":
                out["stamps"] += 1
                i += 1
            elif ln == "'Access specification name,default assignment":
                out["specs"].append(lines[i].split(",")[0])
                i += 1
            elif ln == "'Results":
                header = lines[i]
                i += 1
            continue
        if section == "'Results" and header is not None:
            rows.append(ln.split(","))
    out["ended"] = int(bool(lines) and lines[-1] == "'End Test")
    if header is None:
        out["error"] = "no 'Results block"
        return out, rows, []
    cols = header.split(",")
    out["header"] = header
    for r in rows:
        want = len(cols) - (BINS if r[0] == "PROCESSOR" else 0)
        if len(r) != want:
            out["error"] = "a %s row has %d fields, not %d: %s" % (
                r[0], len(r), want, ",".join(r))
    return out, rows, cols


def main():
    out, rows, cols = parse(sys.argv[1])
    kv = []
    seen = {}
    for r in rows:
        n = seen.get(r[0], 0)
        seen[r[0]] = n + 1
        for c, v in zip(cols, r):
            kv += ["%s.%d.%s" % (r[0], n, c.strip()), v]
    out["types"] = " ".join(r[0] for r in rows)
    out["specs"] = " ".join(out["specs"])
    for k, v in out.items():
        kv += [k, str(v)]
    sys.stdout.write("".join(x + "\0" for x in kv))


if __name__ == "__main__":
    main()
