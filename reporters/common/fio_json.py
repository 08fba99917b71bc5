"""fio's JSON output as documents: one, or with --status-interval one at each
interval and the final one last, each written whole right after the one
before (fio's and storbench's json reporter alike).

    import fio_json
    docs = fio_json.documents(open(path).read())
    final = fio_json.last(path)
"""
import json
import sys


def documents(text):
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        doc, i = dec.raw_decode(text, i)
        out.append(doc)


def last(path):
    with open(path) as f:
        docs = documents(f.read())
    if not docs:
        raise ValueError("%s holds no JSON document" % path)
    return docs[-1]


if __name__ == "__main__":
    # fio_json.py FILE: the last document, as one line.
    print(json.dumps(last(sys.argv[1])))
