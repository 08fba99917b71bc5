#!/usr/bin/env python3
"""Report include cycles between the folders of a source tree: a folder that
includes another which, directly or through others, includes it back.

    include_cycles.py DIR    for each set of folders tied by includes, one
                             "cycle: a -> b -> a (folders in it: a, b)" line
                             on stderr, each step then followed by an include
                             that makes it ("  DIR/a/x.c:3: a -> b (../b/y.h)");
                             exit 1 if any, 2 on a bad argument

A folder is a file's first path component under DIR (files right in DIR
make the folder "."). Only quoted includes that name a file in DIR count;
<...> includes are the system's or the SDK's. Folders that include each
other cannot be read, built or replaced one at a time, which is what
folders are for.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(rel):
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else "."


def edges(top):
    """{(from, to): first (file, line, name)} for includes across folders."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, top)
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = os.path.normpath(
                        os.path.join(dirpath, m.group(1)))
                    trel = os.path.relpath(target, top)
                    if trel.startswith(os.pardir) or not os.path.isfile(
                            target):
                        continue
                    a, b = folder_of(rel), folder_of(trel)
                    if a != b:
                        out.setdefault((a, b), (path, n, m.group(1)))
    return out


def cycles(graph):
    """The strongly connected components of more than one folder (Tarjan),
    each with the shortest loop from its first folder back to it."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    loops = []
    for comp in sorted(comps):
        start, members = comp[0], set(comp)
        # Breadth-first from start back to start, inside the component.
        prev, queue, found = {}, [start], None
        while queue and found is None:
            nxt = []
            for v in queue:
                for w in sorted(graph.get(v, ())):
                    if w not in members:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            queue = nxt
        path = [start]
        v = found
        while v != start:
            path.insert(1, v)
            v = prev[v]
        loops.append((comp, path + [start]))
    return loops


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: include_cycles.py DIR", file=sys.stderr)
        return 2
    found = edges(argv[1])
    graph = {}
    for a, b in found:
        graph.setdefault(a, set()).add(b)
    loops = cycles(graph)
    for comp, loop in loops:
        print("cycle: " + " -> ".join(loop) + " (folders in it: " +
              ", ".join(comp) + ")",
              file=sys.stderr)
        for a, b in zip(loop, loop[1:]):
            path, n, name = found[(a, b)]
            print(f"  {path}:{n}: {a} -> {b} ({name})", file=sys.stderr)
    return 1 if loops else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
