"""Facts of a --status-interval output of --output-format=json,terse (fio's
or storbench's), one NAME=VALUE a line, for status.sh to compare.

    status_check.py FILE [JSONPLUS]

The output is read as fio writes it: terse lines and whole JSON documents
one after another; any other line (fio's "name: (g=0): ..." header) is
skipped.
"""
import json
import sys

path = sys.argv[1]
text = open(path).read()
dec = json.JSONDecoder()
items, i = [], 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    if text[i] == "{":
        doc, i = dec.raw_decode(text, i)
        items.append(("J", doc))
        continue
    end = text.find("\n", i)
    end = len(text) if end < 0 else end
    line, i = text[i:end], end + 1
    if line[:2] in ("2;", "3;", "4;", "5;"):
        items.append(("T", line.split(";")))

docs = [d for k, d in items if k == "J"]
skip = {"storbench", "global options"}
leaves = {"job options", "bins"}


def keys(o, p=""):
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            if k in skip:
                continue
            out.add(p + "/" + k)
            if k not in leaves:
                out |= keys(v, p + "/" + k)
    elif isinstance(o, list):
        for v in o:
            out |= keys(v, p + "[]")
    return out


def fact(name, value):
    print("%s=%s" % (name, value))


fact("docs", len(docs))
fact("pattern", "".join(k for k, _ in items))
fact("jobs", ",".join(sorted({",".join(j["jobname"] for j in d["jobs"])
                              for d in docs})))
# Cumulative: each job's amounts and runtime never go down (not
# job_runtime: fio counts a job waiting behind a stonewall from the start
# of the run, then from its own start).
mono, down = True, []
for n, (a, b) in enumerate(zip(docs, docs[1:])):
    for ja, jb in zip(a["jobs"], b["jobs"]):
        for k in ("io_bytes", "total_ios", "runtime"):
            if jb["read"][k] < ja["read"][k]:
                mono = False
                down.append("%s.%s@%d" % (ja["jobname"], k, n + 1))
fact("cumulative", int(mono))
fact("went_down", ",".join(down))
final = docs[-1] if docs else {"jobs": []}
for j in final["jobs"]:
    fact("final.%s.total_ios" % j["jobname"], j["read"]["total_ios"])
    fact("final.%s.io_bytes_per_io" % j["jobname"],
         j["read"]["io_bytes"] // max(j["read"]["total_ios"], 1))
if docs:
    first = docs[0]["jobs"]
    fact("first.a.runtime", first[0]["read"]["runtime"])
    fact("first.a.total_ios", first[0]["read"]["total_ios"])
    fact("first.b.total_ios", first[1]["read"]["total_ios"] if len(first) > 1
         else "none")
# Each report's terse lines carry the amounts of the JSON document after
# them: field 6 (read KiB) against io_kbytes.
agree, pending = True, []
for k, v in items:
    if k == "T":
        pending.append(v)
        continue
    got = [int(t[5]) for t in pending]
    want = [j["read"]["io_kbytes"] for j in v["jobs"]]
    agree &= got == want
    pending = []
fact("terse_json_agree", int(agree and not pending))
ts = [d["timestamp_ms"] for d in docs]
fact("timestamps_rise", int(all(b >= a for a, b in zip(ts, ts[1:]))))
gaps = [b - a for a, b in zip(ts[:-2], ts[1:-1])]
fact("interval_gaps_ok", int(all(800 <= g <= 1200 for g in gaps)))
ks = [keys(d) for d in docs]
fact("keys_same_each", int(all(k == ks[-1] for k in ks)))
print("keys=" + json.dumps(sorted(ks[-1]) if ks else []))
if len(sys.argv) > 2:
    # json+: every latency with percentiles has bins that add up to its N.
    bins_ok = True
    for d in docs:
        for j in d["jobs"]:
            c = j["read"]["clat_ns"]
            if c["N"]:
                bins_ok &= sum(c.get("bins", {}).values()) == c["N"]
    fact("bins_sum_to_n", int(bins_ok))
