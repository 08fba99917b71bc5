"""Runs a Grafana dashboard's InfluxQL queries against InfluxDB 1.x the way
Grafana's InfluxDB data source sends them: template variables from their
own queries, multi-value and All as regex alternations of regex-escaped
values, $timeFilter as "time >= Xms and time <= Yms", $__interval and
$interval as the interval given. Prints one JSON object per variable and
per panel target: the query sent and the series (tags, columns, rows) or
the error.

  grafana_fill.py DASHBOARD URL DB USER PASSWORD_FILE FROM_MS TO_MS INTERVAL
                  VAR=VALUE[|VALUE...]...   (unset variables: All)
"""
import base64
import json
import re
import sys
import urllib.parse
import urllib.request

dash_path, url, db, user, pwfile, t_from, t_to, interval = sys.argv[1:9]
chosen = {}
for a in sys.argv[9:]:
    k, v = a.split("=", 1)
    chosen[k] = v.split("|")
password = open(pwfile).read()
auth = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()


def query(q):
    u = "%s/query?%s" % (url, urllib.parse.urlencode({"db": db, "q": q, "epoch": "ms"}))
    req = urllib.request.Request(u, headers={"Authorization": auth})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def regex_escape(v):
    # Grafana's kbn.regexEscape, which its InfluxDB data source applies to
    # the values of multi-value and include-All variables.
    return re.sub(r"[\\^$*+?.()|\[\]{}/]", lambda m: "\\" + m.group(0), v)


values = {}


def interpolate(q):
    def var_value(name):
        v = values[name]
        esc = [regex_escape(x) for x in v["values"]]
        if not (v["multi"] or v["all"]):
            return v["values"][0]
        return esc[0] if len(esc) == 1 else "(" + "|".join(esc) + ")"

    q = q.replace("$timeFilter", "time >= %sms and time <= %sms" % (t_from, t_to))
    q = q.replace("$__interval_ms", str(int(re.sub(r"\D", "", interval)) * 1000))
    q = q.replace("$__interval", interval).replace("$interval", interval)
    for name in sorted(values, key=len, reverse=True):
        q = q.replace("${%s}" % name, var_value(name)).replace("$" + name, var_value(name))
    return q


def series(answer):
    out = []
    for r in answer.get("results", []):
        if "error" in r:
            return None, r["error"]
        for s in r.get("series", []):
            out.append({"name": s.get("name"), "tags": s.get("tags") or {},
                        "columns": s["columns"], "values": s["values"]})
    return out, None


dash = json.load(open(dash_path))
for v in dash["templating"]["list"]:
    if v["type"] != "query":
        continue
    q = interpolate(v["query"])
    got, err = series(query(q))
    found = sorted({row[-1] for s in (got or []) for row in s["values"]})
    sel = chosen.get(v["name"], found)
    values[v["name"]] = {"values": sel, "multi": v.get("multi"), "all": v.get("includeAll")}
    print(json.dumps({"variable": v["name"], "query": q, "found": found, "error": err}))

for p in dash["panels"]:
    for t in p.get("targets", []):
        q = interpolate(t["query"])
        got, err = series(query(q))
        print(json.dumps({"panel": p["title"], "type": p["type"], "query": q,
                          "series": got, "error": err,
                          "left": re.findall(r"\$\w+", q)}))
