#!/usr/bin/env python3
"""Scores `errata explain` on the real pastes of tests/real/pastes.jsonl.

usage: bench/pastes.py ERRATA CORPUS=STORE.db [CORPUS=STORE.db ...] [--misses]

Each paste is given to `errata explain -` against the store of its corpus (built with the
arguments of crates/cli/tests/it/corpora.rs); the answer is right when a record's file ends
with the case's file and its line is the case's raising line (or the line its message starts
on, or one of the sites the paste cannot tell apart). Prints rank-1, top-3 and no-match per
corpus and in all; with --misses, each miss and what came first instead.
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def sites(case):
    """Each accepted file with the lines from its raise to its message's line, either way
    round (a helper's raise comes after the call that gives it the message)."""
    for s in [case] + case.get("also", []):
        lines = {s["line"], s.get("message_line", s["line"])}
        yield s["file"], range(min(lines), max(lines) + 1)


def is_site(case, record):
    path = record["filePath"]
    return any(
        (path == f or path.endswith("/" + f)) and record["lineNumber"] in lines
        for f, lines in sites(case)
    )


def explain(errata, db, paste):
    out = subprocess.run(
        [errata, "--db", db, "--json", "explain", "-", "-n", "3"],
        input=paste.encode(),
        capture_output=True,
    )
    if not out.stdout.strip():
        return []
    return json.loads(out.stdout)["matches"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    misses = "--misses" in sys.argv
    errata, stores = args[0], dict(a.split("=", 1) for a in args[1:])
    cases = [json.loads(l) for p in sorted((ROOT / "tests/real").glob("pastes*.jsonl")) for l in open(p) if l.strip()]
    totals = {}
    for n, case in enumerate(cases, 1):
        db = stores.get(case["corpus"])
        if not db:
            continue
        matches = explain(errata, db, case["paste"])
        rank = next(
            (i for i, m in enumerate(matches) if is_site(case, m["record"])), None
        )
        approximate = bool(matches) and all(m["approximate"] for m in matches)
        key = (case["corpus"], bool(case.get("reworded")))
        t = totals.setdefault(key, {"cases": 0, "rank1": 0, "top3": 0, "none": 0})
        t["cases"] += 1
        t["rank1"] += rank == 0
        t["top3"] += rank is not None
        t["none"] += not matches or approximate
        if misses and rank != 0:
            first = matches[0]["record"] if matches else None
            got = f'{first["filePath"]}:{first["lineNumber"]} {first["errorMessage"][:70]!r}' if first else "nothing"
            head = case["paste"].strip().splitlines()
            print(f"miss #{n} [{case['corpus']}/{case['kind']}] want {case['file']}:{case['line']}"
                  f"{' (rank %d)' % (rank + 1) if rank is not None else ''}{' approx' if approximate else ''}")
            print(f"   paste: {head[0][:100]!r}{' …%d lines' % len(head) if len(head) > 1 else ''}")
            print(f"   got:   {got}")
    print(f"{'corpus':<10} {'reworded':<9} {'cases':>5} {'rank-1':>8} {'top-3':>8} {'no match':>8}")
    for reworded in (False, True):
        rows = [(k[0], v) for k, v in sorted(totals.items()) if k[1] == reworded]
        if not rows:
            continue
        for corpus, v in rows + [("all", {f: sum(r[f] for _, r in rows) for f in rows[0][1]})]:
            c = v["cases"]
            print(f"{corpus:<10} {str(reworded):<9} {c:>5} {v['rank1']:>4} {v['rank1']/c:>4.0%}"
                  f" {v['top3']:>4} {v['top3']/c:>3.0%} {v['none']:>4} {v['none']/c:>3.0%}")


if __name__ == "__main__":
    main()
