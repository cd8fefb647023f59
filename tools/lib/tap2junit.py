#!/usr/bin/env python3
# tools/lib/tap2junit.py [--name NAME] [--out FILE] [TAP_FILE]
#   Turns TAP (TAP_FILE, or stdin) into JUnit XML (FILE, or stdout) for a CI
#   engine to display (tools/ci-matrix: Jenkins' junit publisher).
#   One <testcase> per "ok" / "not ok" line, as test/lib/tap.sh's
#   tap_classify (the project's one TAP parser, run as a filter) reads it:
#     not ok ...            a <failure> (message: the description), whatever
#                           its directive: a failure is never hidden
#     ok ... # SKIP reason  a <skipped> (a skip is not a pass)
#   "CLASS: rest" descriptions (run-matrix's "CELL: PROGRAM TEST") give the
#   testcase's classname CLASS and name "rest"; others get classname NAME.
#   The "# ..." lines after a failing result are its <failure>'s text.
#   "Bail out!", a missing plan, or a plan that differs from the count of
#   results add a failing testcase "TAP stream", so that a crashed run
#   never looks green.
#   --name NAME   the <testsuite> name (default: "tap")
#   --out FILE    write there instead of stdout
# Exit: 0 when the XML is written (whatever the results), 2 on bad usage
# or an unreadable TAP_FILE.
import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

TAP_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "lib", "tap.sh")
# where a skip's reason starts (tap_classify has said it is a skip)
SKIP_AT = re.compile(r"(?:^|\s)#\s*skip\S*(?:\s+(.*))?$", re.IGNORECASE)
CLASSED = re.compile(r"^(\S+): (.+)$")
# characters XML 1.0 cannot hold (a guest console may print them)
BAD_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(text):
    return BAD_XML.sub("?", text)


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def classify(lines):
    """(kind, plan, desc) per line, by test/lib/tap.sh --classify"""
    text = "".join(line.rstrip("\r\n") + "\n" for line in lines)
    out = subprocess.run(["bash", TAP_SH, "--classify"], input=text.encode("utf-8", "replace"),
                         stdout=subprocess.PIPE, check=True).stdout.decode("utf-8", "replace")
    for row in out.splitlines():
        kind, _num, plan, desc = row.split("\t", 3)
        yield kind, plan, desc


def parse(lines, suite):
    cases = []   # dicts: classname, name, status (pass|fail|skip), msg, out
    plan = None
    bail = None
    for kind, n, desc in classify(lines):
        if kind in ("ok", "notok", "skip"):
            status = {"ok": "pass", "notok": "fail", "skip": "skip"}[kind]
            desc = re.sub(r"^-\s*", "", desc)
            msg = desc
            if kind == "skip":
                d = SKIP_AT.search(desc)
                msg = (d.group(1) or "").strip() or "SKIP"
                desc = desc[:d.start()].strip()
            c = CLASSED.match(desc)
            classname, name = (c.group(1), c.group(2)) if c else (suite, desc or "(unnamed)")
            cases.append({"classname": classname, "name": name, "status": status,
                          "msg": msg, "out": []})
        elif kind == "plan":
            plan = (plan or 0) + int(n)
        elif kind == "bail":
            bail = bail or desc
        elif desc.startswith("#") and cases:
            cases[-1]["out"].append(desc)
    problems = []
    if bail:
        problems.append(bail)
    if plan is None:
        problems.append("no TAP plan (1..N): the run ended early")
    elif plan != len(cases):
        problems.append("%d results for a plan of %d" % (len(cases), plan))
    if problems:
        cases.append({"classname": suite, "name": "TAP stream", "status": "fail",
                      "msg": "; ".join(problems), "out": []})
    return cases


def to_xml(cases, suite):
    count = {s: sum(1 for c in cases if c["status"] == s) for s in ("fail", "skip")}
    root = ET.Element("testsuites")
    ts = ET.SubElement(root, "testsuite", name=clean(suite), tests=str(len(cases)),
                       failures=str(count["fail"]), errors="0", skipped=str(count["skip"]))
    for c in cases:
        tc = ET.SubElement(ts, "testcase", classname=clean(c["classname"]), name=clean(c["name"]))
        out = clean("\n".join(c["out"]))
        if c["status"] == "fail":
            f = ET.SubElement(tc, "failure", message=clean(c["msg"]), type="TAP")
            f.text = out or None
        elif c["status"] == "skip":
            ET.SubElement(tc, "skipped", message=clean(c["msg"]))
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def main(argv):
    ap = Parser(prog="tap2junit.py", add_help=False)
    ap.add_argument("--name", default="tap")
    ap.add_argument("--out")
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("tap", nargs="?")
    try:
        args = ap.parse_args(argv)
        if args.help:
            with open(__file__, encoding="utf-8") as f:
                for line in f.readlines()[1:]:
                    if not line.startswith("#"):
                        break
                    print(re.sub(r"^# ?", "", line), end="")
            return 0
        try:
            if args.tap and args.tap != "-":
                with open(args.tap, encoding="utf-8", errors="replace") as f:
                    lines = f.readlines()
            else:
                lines = sys.stdin.buffer.read().decode("utf-8", "replace").splitlines()
        except OSError as e:
            raise UsageError("cannot read %s: %s" % (args.tap, e.strerror))
    except UsageError as e:
        print("tap2junit: %s (see --help)" % e, file=sys.stderr)
        return 2
    xml = to_xml(parse(lines, args.name), args.name)
    if args.out:
        with open(args.out, "wb") as f:
            f.write(xml)
    else:
        sys.stdout.buffer.write(xml)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
