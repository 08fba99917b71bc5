#!/usr/bin/env python3
"""Report calls of C library functions storbench does not use, in the manner
of curl's checksrc: the compiler accepts them, review keeps missing them.

    banned.py FILE...        one "file:line:col: NAME: why" line per use
                             on stderr; exit 1 if any, 2 on a bad argument

Comments, string and character literals are blanked first (newlines kept, so
line numbers hold), and a name counts only as a whole identifier that is not
a member (x.gets, p->gets), so snprintf, sb_strlcpy and "strcpy" in a message
are all fine.
"""
import re
import sys

# Each entry: why it is out, and what to use instead.
BANNED = {
    # Unbounded writes: the size of the destination is not an argument.
    "gets": "unbounded read into a buffer; use fgets or getline",
    "strcpy": "unbounded copy; use snprintf or a copy that takes the size",
    "strcat": "unbounded append; use snprintf with an offset",
    "sprintf": "unbounded format; use snprintf",
    "vsprintf": "unbounded format; use vsnprintf",
    # Bounded, but the bound is the wrong one: strncpy leaves the
    # destination unterminated when the source is as long as the bound
    # (and pads with NULs); strncat's bound is the space left, not the
    # buffer's size, so it is mostly called with the wrong number.
    "strncpy": "leaves the copy unterminated at the bound; use snprintf",
    "strncat": "its bound is the space left, not the size; use snprintf",
    # Hidden static state: not reentrant, and the core has no mutable
    # globals.
    "strtok": "keeps its place in a hidden static; use strtok_r or strcspn",
    # No way to tell an error from a value: "x" and "0" both give 0, and
    # out of range is undefined behaviour.
    "atoi": "cannot report bad input and overflows undefined; use strtol",
    "atol": "cannot report bad input and overflows undefined; use strtol",
    "atoll": "cannot report bad input and overflows undefined; use strtoll",
    "atof": "cannot report bad input; use strtod",
}

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def blank(text):
    """text with comments and literals turned to spaces, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c == "/" and nxt == "/":
            # A line comment runs on over a backslash-newline.
            end = i
            while True:
                end = text.find("\n", end)
                if end < 0:
                    end = n
                    break
                if text[end - 1] != "\\":
                    break
                end += 1
        elif c in "\"'":
            end = i + 1
            while end < n and text[end] != c and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, n)
        else:
            out.append(c)
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:end]))
        i = end
    return "".join(out)


def check(path, text):
    found = []
    code = blank(text)
    for m in _IDENT.finditer(code):
        name = m.group(0)
        if name not in BANNED:
            continue
        before = code[: m.start()].rstrip()
        if before.endswith(".") or before.endswith("->"):
            continue
        line = code.count("\n", 0, m.start()) + 1
        col = m.start() - (code.rfind("\n", 0, m.start()) + 1) + 1
        found.append(f"{path}:{line}:{col}: {name}: {BANNED[name]}")
    return found


def main(argv):
    if not argv:
        print("usage: banned.py FILE...", file=sys.stderr)
        return 2
    found = []
    for path in argv:
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as e:
            print(f"banned.py: {path}: {e.strerror}", file=sys.stderr)
            return 2
        found += check(path, text)
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
