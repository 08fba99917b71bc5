#!/usr/bin/env python3
"""no_skips.py JUNIT: fail when ctest's JUnit report (ctest --output-junit)
counts a test that did not run: skipped (SKIP_REGULAR_EXPRESSION, a TAP
skip), disabled, or not run for want of its program.

Exit 0 when every test ran, 1 naming each one that did not, 2 when the
report cannot be read.
"""
import sys
import xml.etree.ElementTree as ET


def main(argv):
    if len(argv) != 1:
        print("usage: no_skips.py JUNIT", file=sys.stderr)
        return 2
    try:
        suite = ET.parse(argv[0]).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"no_skips.py: {argv[0]}: {e}", file=sys.stderr)
        return 2
    if suite.tag != "testsuite":
        print(f"no_skips.py: {argv[0]}: not a ctest JUnit report",
              file=sys.stderr)
        return 2
    cases = suite.findall("testcase")
    # A failed test ran: ctest's own exit status reports it.
    idle = [c for c in cases
            if c.get("status") in ("notrun", "disabled")
            or c.find("skipped") is not None]
    for c in idle:
        why = c.find("skipped")
        why = why.get("message", "") if why is not None else c.get("status")
        print(f"{c.get('name')}: did not run ({why})", file=sys.stderr)
    if idle:
        print(f"no_skips.py: {len(idle)} of {len(cases)} tests did not run",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
