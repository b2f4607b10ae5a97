#!/usr/bin/env python3
"""Check the background tags and handling strategies of today's exports against every verdict
on record in docs/judged/.

    python3 bench/judged_tags.py save BASE.json EXPORT.jsonl...
    python3 bench/judged_tags.py compare BASE.json EXPORT.jsonl...

`save` finds each judged record of docs/judged/*-sample.jsonl in the exports (by the last two
parts of its path and its line) and keeps, with its tag and strategy now, the false statements
its reviewer wrote about its tag or strategy. `compare`, after a change and new exports, lists
the judged records whose tag or strategy moved: FLAGGED ones (a reviewer called the old one
false; read the reviewer's words to see whether it moved the right way) and UNFLAGGED ones
(no reviewer objected: each may be a new error).
"""
import collections
import glob
import json
import os
import re
import sys

JUDGED = os.path.join(os.path.dirname(__file__), "..", "docs", "judged")
ABOUT_TAGS = re.compile(r"backgroundTag|handlingStrategy")


def exports(paths):
    by_place = collections.defaultdict(list)
    for path in paths:
        for line in open(path):
            r = json.loads(line)
            r = r.get("record", r)
            by_place[("/".join(r["filePath"].split("/")[-2:]), r["lineNumber"])].append(r)
    return by_place


def find(by_place, file, line, message):
    found = by_place.get(("/".join(file.split("/")[-2:]), line), [])
    same = [r for r in found if r["errorMessage"] == message]
    return (same or found or [None])[0]


def save(out, paths):
    by_place = exports(paths)
    kept, seen = [], set()
    for verdicts in sorted(glob.glob(os.path.join(JUDGED, "*verdicts*.jsonl"))):
        sample = re.sub(r"verdicts(-second-reviewer)?", "sample", verdicts)
        if not os.path.exists(sample):
            continue
        records = {}
        for line in open(sample):
            s = json.loads(line)
            s = s.get("record", s)
            records[s.get("id")] = s
        for line in open(verdicts):
            v = json.loads(line)
            s = records.get(v.get("id"))
            if not s or (s["filePath"], s["lineNumber"]) in seen:
                continue
            seen.add((s["filePath"], s["lineNumber"]))
            r = find(by_place, s["filePath"], s["lineNumber"], s["errorMessage"])
            if r is None:
                continue
            flags = [f for f in v.get("false_statements") or [] if ABOUT_TAGS.search(f)]
            kept.append(
                dict(
                    file=s["filePath"],
                    line=s["lineNumber"],
                    message=s["errorMessage"],
                    tag=r["backgroundTag"],
                    strategy=r["handlingStrategy"],
                    flags=flags,
                )
            )
    json.dump(kept, open(out, "w"))
    flagged = sum(1 for k in kept if k["flags"])
    print(f"{len(kept)} judged records found in the exports, {flagged} with a tag or strategy called false")


def compare(base, paths):
    by_place = exports(paths)
    moved = collections.Counter()
    for k in json.load(open(base)):
        r = find(by_place, k["file"], k["line"], k["message"])
        if r is None or (r["backgroundTag"], r["handlingStrategy"]) == (k["tag"], k["strategy"]):
            continue
        kind = "FLAGGED" if k["flags"] else "UNFLAGGED"
        moved[kind] += 1
        print(f"{kind} {k['file']}:{k['line']} {k['message'][:60]!r}")
        print(f"    {k['tag']} {k['strategy']} -> {r['backgroundTag']} {r['handlingStrategy']}")
        for f in k["flags"]:
            print(f"    reviewer: {f[:300]}")
    print(f"moved: {moved['FLAGGED']} flagged, {moved['UNFLAGGED']} unflagged")


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("save", "compare"):
        sys.exit(__doc__)
    (save if sys.argv[1] == "save" else compare)(sys.argv[2], sys.argv[3:])
