#!/usr/bin/env python3
"""Checks of fio-layout JSON documents for the json reporter's tests.

Each subcommand prints what is wrong, one line each, and exits 1 when
something is (0 otherwise), so a TAP `ok` shows the lines on failure.

  strict FILE               parses as strict JSON: no NaN/Infinity, no key
                            twice in an object, one document and nothing else
  tree FIO SB [--no-disks] [--only missing|extra|types]
                            the key trees of two documents: each object of
                            SB has every key its counterpart in FIO has
                            (each element of an array, every key all of
                            FIO's elements have; and any key some have,
                            some element of SB has); SB's extra keys are
                            "storbench" ones; values have FIO's JSON type
                            (integer, float, string...)
  rates FILE                io_kbytes, bw_bytes, bw and iops agree with
                            io_bytes, total_ios and runtime
  pcts FILE                 percentiles rise with the percentile and lie
                            within the histogram's error of min..max
  bins FILE                 json+ bins: clat_ns has bins whenever it has
                            percentiles; each bins object sums to its N;
                            clat bins sum to total_ios
  get FILE EXPR             print a Python expression of the document d
"""
import argparse
import json
import math
import sys

# Objects whose keys are data, not schema: the options a job set, and the
# bins of a histogram. Their presence is compared, their keys are not.
VALUE_MAPS = {"job options", "global options", "bins", "facts"}


def strict_load(path):
    def no_constant(name):
        raise ValueError("non-finite number %s" % name)

    def no_dupes(pairs):
        seen = {}
        for k, v in pairs:
            if k in seen:
                raise ValueError("key %r twice in one object" % k)
            seen[k] = v
        return seen

    with open(path, "rb") as f:
        text = f.read().decode("utf-8")  # JSON text is UTF-8
    return json.loads(text, parse_constant=no_constant,
                      object_pairs_hook=no_dupes)


def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if v is None:
        return "null"
    if isinstance(v, list):
        return "array"
    return "object"


class Shape:
    """The key tree of a value: its JSON kinds, its keys' trees (objects
    that are not value maps) and its elements' tree (arrays)."""

    def __init__(self, kinds, keys=None, item=None):
        self.kinds = kinds
        self.keys = keys
        self.item = item


def shape(v, name, inter):
    """v's tree; an array's elements merge into one tree, by union or,
    with inter, by intersection (the keys every element has)."""
    s = Shape({kind(v)})
    if isinstance(v, dict) and name not in VALUE_MAPS:
        s.keys = {k: shape(x, k, inter) for k, x in v.items()}
    elif isinstance(v, list):
        for x in v:
            t = shape(x, name, inter)
            s.item = t if s.item is None else merge(s.item, t, inter)
    return s


def merge(a, b, inter):
    keys = None
    if a.keys is not None and b.keys is not None:
        names = (a.keys.keys() & b.keys.keys()) if inter else \
            (a.keys.keys() | b.keys.keys())
        keys = {}
        for k in names:
            if k in a.keys and k in b.keys:
                keys[k] = merge(a.keys[k], b.keys[k], inter)
            else:
                keys[k] = a.keys.get(k) or b.keys.get(k)
    elif not inter:
        keys = a.keys if a.keys is not None else b.keys
    item = None
    if a.item is not None and b.item is not None:
        item = merge(a.item, b.item, inter)
    elif not inter:
        item = a.item if a.item is not None else b.item
    return Shape(a.kinds | b.kinds, keys, item)


NOTHING = Shape(set(), {}, None)


def check(req, allow, v, path, out):
    """v against fio's trees: req holds what every such value must have,
    allow everything fio has there at all."""
    if kind(v) not in allow.kinds:
        out.append("type: %s fio=%s storbench=%s" %
                   (path or "/", "/".join(sorted(allow.kinds)), kind(v)))
        return
    if isinstance(v, dict) and allow.keys is not None:
        for k in sorted((req.keys or {}).keys() - v.keys()):
            out.append("missing: %s/%s" % (path, k))
        for k, x in v.items():
            if k not in allow.keys:
                if k != "storbench":
                    out.append("extra: %s/%s" % (path, k))
                continue
            sub = (req.keys or {}).get(k) or NOTHING
            check(sub, allow.keys[k], x, "%s/%s" % (path, k), out)
    elif isinstance(v, list) and allow.item is not None:
        for i, x in enumerate(v):
            check(req.item or NOTHING, allow.item, x,
                  "%s/[%d]" % (path, i), out)


def covers(fio, sb, path, out):
    """Every key fio has somewhere, storbench has somewhere too (a key
    that only some of fio's jobs have)."""
    if fio.keys is not None:
        for k, t in fio.keys.items():
            if sb.keys is None or k not in sb.keys:
                out.append("missing: %s/%s (in any element)" % (path, k))
            else:
                covers(t, sb.keys[k], "%s/%s" % (path, k), out)
    if fio.item is not None and sb.item is not None:
        covers(fio.item, sb.item, path + "/[]", out)


def cmd_strict(a):
    try:
        d = strict_load(a.file)
    except (ValueError, UnicodeDecodeError) as e:
        print("%s: %s" % (a.file, e))
        return 1
    if not isinstance(d, dict):
        print("%s: the document is not an object" % a.file)
        return 1
    return 0


def cmd_tree(a):
    fio = strict_load(a.fio)
    sb = strict_load(a.sb)
    if a.no_disks:
        fio.pop("disk_util", None)
        sb.pop("disk_util", None)
    out = []
    check(shape(fio, "", True), shape(fio, "", False), sb, "", out)
    covers(shape(fio, "", False), shape(sb, "", False), "", out)
    bad = sorted(set(l for l in out
                     if a.only is None or l.startswith(a.only.rstrip("s"))))
    for line in bad:
        print(line)
    return 1 if bad else 0


def dirs(d):
    for j, job in enumerate(d["jobs"]):
        for name in ("read", "write", "trim", "mixed"):
            if name in job:
                yield "jobs[%d].%s" % (j, name), job[name]


def cmd_rates(a):
    d = strict_load(a.file)
    bad = []
    for where, s in dirs(d):
        if s["io_kbytes"] != s["io_bytes"] >> 10:
            bad.append("%s: io_kbytes %d, io_bytes %d" %
                       (where, s["io_kbytes"], s["io_bytes"]))
        if s["bw"] != s["bw_bytes"] // 1024:
            bad.append("%s: bw %d is not bw_bytes/1024 (%d)" %
                       (where, s["bw"], s["bw_bytes"]))
        rt = s["runtime"]
        if s["total_ios"] == 0:
            if s["bw_bytes"] or s["iops"]:
                bad.append("%s: rates without I/O" % where)
            continue
        if rt == 0:
            # Under half a millisecond: printed as 0, as fio would.
            continue
        # runtime is rounded to the millisecond, the rates are not.
        lo, hi = (rt - 0.5) / 1000.0, (rt + 0.5) / 1000.0
        for key, amount in (("bw_bytes", s["io_bytes"]),
                            ("iops", s["total_ios"])):
            if not amount / hi * 0.999 - 1 <= s[key] <= amount / lo * 1.001 + 1:
                bad.append("%s: %s %s is not %d over %d ms" %
                           (where, key, s[key], amount, rt))
    for line in bad:
        print(line)
    return 1 if bad else 0


def lat_objects(d):
    for where, s in dirs(d):
        for lat in ("slat_ns", "clat_ns", "lat_ns"):
            yield "%s.%s" % (where, lat), s, s[lat]


def cmd_pcts(a):
    d = strict_load(a.file)
    bad = []
    seen = 0
    for where, _, l in lat_objects(d):
        if "percentile" not in l:
            continue
        seen += 1
        items = sorted((float(k), v) for k, v in l["percentile"].items())
        prev = -1
        for p, v in items:
            if not isinstance(v, int) or v < prev:
                bad.append("%s: %s%% is %r, below the one before (%r)" %
                           (where, p, v, prev))
            prev = v
            # The histogram reports a bucket's middle: within 1/256 (and
            # a nanosecond of rounding) of a real sample.
            slack = max(l["max"] / 256.0, 1)
            if v < l["min"] - slack or v > l["max"] + slack:
                bad.append("%s: %s%% = %d outside min..max %d..%d" %
                           (where, p, v, l["min"], l["max"]))
    if not seen:
        bad.append("no percentiles at all")
    for line in bad:
        print(line)
    return 1 if bad else 0


def cmd_bins(a):
    d = strict_load(a.file)
    bad = []
    seen = 0
    for where, s, l in lat_objects(d):
        if "percentile" in l and "bins" not in l:
            bad.append("%s: percentiles but no bins" % where)
        if "bins" not in l:
            continue
        seen += 1
        keys = [int(k) for k in l["bins"]]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            bad.append("%s: bins not in ascending order" % where)
        total = sum(l["bins"].values())
        if total != l["N"]:
            bad.append("%s: bins sum to %d, N is %d" % (where, total, l["N"]))
        if where.endswith("clat_ns") and total != s["total_ios"]:
            bad.append("%s: bins sum to %d, total_ios is %d" %
                       (where, total, s["total_ios"]))
    if not seen:
        bad.append("no bins at all")
    for line in bad:
        print(line)
    return 1 if bad else 0


def cmd_get(a):
    d = strict_load(a.file)
    v = eval(a.expr, {"d": d, "math": math})  # test-only helper
    print(v)
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("strict")
    p.add_argument("file")
    p = sub.add_parser("tree")
    p.add_argument("fio")
    p.add_argument("sb")
    p.add_argument("--no-disks", action="store_true")
    p.add_argument("--only", choices=["missing", "extra", "types"])
    for name in ("rates", "pcts", "bins"):
        sub.add_parser(name).add_argument("file")
    p = sub.add_parser("get")
    p.add_argument("file")
    p.add_argument("expr")
    a = ap.parse_args()
    return globals()["cmd_" + a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
