"""Line protocol read back as InfluxData's reference defines it, strictly:
each line measurement[,tag=value]* field=value[,field=value]* timestamp.
Used by the tests to check what the reporter sent; exits 1 naming the first
line that breaks the grammar."""
import json
import re
import sys


def split_unescaped(s, seps):
    """Split s at the first unescaped char of seps; (head, sep, rest)."""
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            i += 2
            continue
        if c in seps:
            return s[:i], c, s[i + 1:]
        i += 1
    return s, "", ""


def unescape(s, special):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and (s[i + 1] in special or s[i + 1] == "\\"):
            out.append(s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


INT = re.compile(r"^-?[0-9]+i$")
FLOAT = re.compile(r"^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$")


def parse(line):
    if "\n" in line or "\r" in line:
        raise ValueError("a line break inside a line")
    key, sep, rest = split_unescaped(line, " ")
    if sep != " ":
        raise ValueError("no fields")
    meas, sep, tagpart = split_unescaped(key, ",")
    if not meas:
        raise ValueError("no measurement")
    tags = {}
    while sep == ",":
        tag, sep, tagpart = split_unescaped(tagpart, ",")
        k, eq, v = split_unescaped(tag, "=")
        if eq != "=" or not k or not v:
            raise ValueError("tag without key or value: %r" % tag)
        tags[unescape(k, ",= ")] = unescape(v, ",= ")
    keys = list(tags)
    if keys != sorted(keys):
        raise ValueError("tags not sorted: %r" % keys)
    fields = {}
    while True:
        k, eq, rest = split_unescaped(rest, "=")
        if eq != "=" or not k:
            raise ValueError("field without key")
        if rest.startswith('"'):
            i, val = 1, []
            while i < len(rest) and rest[i] != '"':
                if rest[i] == "\\" and i + 1 < len(rest) and rest[i + 1] in '"\\':
                    i += 1
                val.append(rest[i])
                i += 1
            if i >= len(rest):
                raise ValueError("unterminated string")
            v = "".join(val)
            rest = rest[i + 1:]
        else:
            m = re.match(r"^[^ ,]+", rest)
            raw = m.group(0) if m else ""
            rest = rest[len(raw):]
            if INT.match(raw):
                v = int(raw[:-1])
            elif FLOAT.match(raw):
                v = float(raw)
            else:
                raise ValueError("bad field value %r" % raw)
        fields[unescape(k, ",= ")] = v
        if rest.startswith(","):
            rest = rest[1:]
            continue
        break
    if not re.match(r"^ -?[0-9]+$", rest):
        raise ValueError("bad timestamp %r" % rest)
    return {"measurement": unescape(meas, ", "), "tags": tags,
            "fields": fields, "time": int(rest[1:])}


def main():
    data = open(sys.argv[1], "rb").read().decode("utf-8")
    if data and not data.endswith("\n"):
        print("the body does not end with a newline")
        return 1
    for n, line in enumerate(data.split("\n")[:-1], 1):
        try:
            print(json.dumps(parse(line), sort_keys=True))
        except ValueError as e:
            print("line %d: %s: %r" % (n, e, line), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
