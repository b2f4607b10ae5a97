#!/usr/bin/env python3
"""The Markdown table and notes of bench/scan.sh, from the timings it collected.

Usage:

    bench/scan/report.py [--dir bench/out/scan] N...

For each N, reads DIR/results/N/ (written by bench/scan.sh):

    TOOL.runs     one timed run per line: "WALL_S<TAB>PEAK_KIB<TAB>JSON" (JSON is what the
                  tool printed, or "-"); TOOL is errata, errata-load, hyperscan, regexset, naive
    TOOL.skipped  why TOOL was not run (instead of TOOL.runs)
    errata.jsonl  errata's output of its last run: {"line": n, "text": …, "matches":
                  [{"id": …, "slug": …, "score": …}, …]} per matched line
    hyperscan-matches.tsv  "LINE<TAB>K,K,…" per line Hyperscan matched (K: pattern index)

and DIR/{meta,truth,ids,patterns}-N.*. Prints the table rows' Markdown (with a header) and the
notes to stdout, and writes DIR/results/N/errata-misses.jsonl: each rendered line errata missed
or matched to another template first, and each noise line it matched, for a look at why.

The figures. Each tool was run RUNS times; the run kept is the one with the median scan time
(for errata: the median wall time) and the peak RSS is the largest of all runs.
  - errata: "load s" is the median wall time of `errata scan` on a log of one noise line
    (start, open the database, build the matcher, exit); "scan s" is the median wall time of the whole
    process on the log (start, load, scan, write the matches), and lines/s divides the log's
    lines by it.
  - Hyperscan: "load s" is the compile time of the database; "scan s" the time of the
    per-line scan loop alone (neither Python's start nor the compile nor reading the log).
  - regexset and naive: the compile_s and scan_s they print; naive scans a sample of lines
    and its lines/s is over that sample.
  - ratio: the tool's lines/s over Hyperscan's.
Accuracy (errata): of the rendered lines (truth-N.tsv), the share whose first match is the
true record or a record with the same messagePattern (and how many of the others have first a
record whose own pattern matches the line too: one rendering can fit two templates); and how
many noise lines errata matched at all. The same figures for Hyperscan (true pattern among those matched; noise lines matched
by any pattern) show what the patterns themselves allow: a noise line that some pattern
matches is not an error of errata's if errata matches it too.
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOLS = ["errata", "hyperscan", "regexset", "naive"]
TARGETS = {10000: 2.0, 50000: 5.0}  # errata's whole-process rate over Hyperscan's scan rate


def read_runs(path):
    runs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t", 2)
        if len(parts) < 2:
            continue
        out = None
        if len(parts) == 3 and parts[2] not in ("", "-"):
            try:
                out = json.loads(parts[2])
            except ValueError:
                out = None
        runs.append({"wall": float(parts[0]), "kib": int(parts[1]), "json": out})
    return runs


def median_run(runs, key):
    ordered = sorted(runs, key=key)
    return ordered[(len(ordered) - 1) // 2]


def fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def rate(x):
    return "n/a" if x is None else f"{x:,.0f}"


def load_truth(d, n):
    ids = (d / f"ids-{n}.txt").read_text(encoding="utf-8").split()
    with open(d / f"patterns-{n}.txt", encoding="utf-8") as f:
        patterns = [json.loads(line) for line in f]
    pattern_of = dict(zip(ids, patterns))
    truth = {}
    with open(d / f"truth-{n}.tsv", encoding="utf-8") as f:
        for line in f:
            no, rid = line.split()
            truth[int(no)] = rid
    return ids, patterns, pattern_of, truth


def errata_accuracy(path, truth, pattern_of, offset=0, misses=None):
    """(rendered lines whose first match is right, rendered lines matched, noise lines matched).
    With `misses` (a path), writes there one JSON object per rendered line that errata got
    wrong or missed, and per noise line it matched."""
    right = matched = noise = 0
    seen = set()
    wrong = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not isinstance(obj, dict) or "line" not in obj or not obj.get("matches"):
                continue
            no = obj["line"] + offset
            if no in truth:
                matched += 1
                first = obj["matches"][0].get("id")
                want = truth[no]
                seen.add(no)
                if first == want or (first in pattern_of and pattern_of[first] == pattern_of[want]):
                    right += 1
                else:
                    wrong.append({"line": no, "kind": "wrong first match", "want": want,
                                  "want_pattern": pattern_of[want], "got": obj["matches"],
                                  "text": obj.get("text")})
            else:
                noise += 1
                wrong.append({"line": no, "kind": "noise matched", "got": obj["matches"],
                              "text": obj.get("text")})
    # A wrong first match whose own pattern matches the line too is an ambiguity of the
    # templates (one rendering fits both), not a mistake of the matcher's.
    ambiguous = 0
    for w in wrong:
        if w["kind"] != "wrong first match":
            continue
        p = pattern_of.get(w["got"][0].get("id"))
        try:
            w["got_pattern_matches_too"] = bool(p is not None and re.search(p, w["text"] or ""))
        except re.error:
            w["got_pattern_matches_too"] = False
        ambiguous += w["got_pattern_matches_too"]
    if misses:
        for no in sorted(set(truth) - seen):
            wrong.append({"line": no, "kind": "not matched", "want": truth[no],
                          "want_pattern": pattern_of[truth[no]]})
        with open(misses, "w", encoding="utf-8") as f:
            for w in sorted(wrong, key=lambda w: w["line"]):
                f.write(json.dumps(w, ensure_ascii=False) + "\n")
    return right, matched, noise, ambiguous


def hyperscan_accuracy(path, truth, ids, patterns):
    index_of = {rid: k for k, rid in enumerate(ids)}
    same = {}  # pattern -> set of indices with that pattern (the patterns are distinct, but be safe)
    for k, p in enumerate(patterns):
        same.setdefault(p, set()).add(k)
    right = matched = noise = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            no, ks = line.rstrip("\n").split("\t")
            no = int(no)
            got = {int(k) for k in ks.split(",") if k}
            if no in truth:
                matched += 1
                if got & same[patterns[index_of[truth[no]]]]:
                    right += 1
            else:
                noise += 1
    return right, matched, noise


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=REPO / "bench" / "out" / "scan")
    ap.add_argument("ns", nargs="+", type=int)
    args = ap.parse_args()
    d = args.dir

    rows, notes, checks = [], [], []
    for n in args.ns:
        res = d / "results" / str(n)
        meta = json.loads((d / f"meta-{n}.json").read_text())
        lines = meta["lines"]
        ids, patterns, pattern_of, truth = load_truth(d, n)
        got = {}
        for tool in TOOLS + ["errata-load"]:
            runs_file, skipped = res / f"{tool}.runs", res / f"{tool}.skipped"
            if skipped.exists():
                got[tool] = {"skipped": skipped.read_text().strip()}
            elif runs_file.exists() and read_runs(runs_file):
                got[tool] = {"runs": read_runs(runs_file)}

        hs_rate = None
        hs = got.get("hyperscan", {})
        if "runs" in hs:
            r = median_run(hs["runs"], lambda r: (r["json"] or {}).get("scan_s", r["wall"]))
            j = r["json"] or {}
            hs_rate = j.get("lines_per_s") or (lines / j["scan_s"] if j.get("scan_s") else None)
            hs_row = (j.get("compile_s"), j.get("scan_s"), hs_rate, max(x["kib"] for x in hs["runs"]))
            notes.append(f"- {n}: Hyperscan's whole process (Python's start, compile, read, scan) "
                         f"took {statistics.median(x['wall'] for x in hs['runs']):.2f} s of wall time")
            if j.get("rejected"):
                notes.append(f"- {n}: Hyperscan rejected {j['rejected']} of the patterns "
                             f"(dropped; it ran with {j.get('patterns')})")

        for tool in TOOLS:
            g = got.get(tool)
            if g is None:
                continue
            if "skipped" in g:
                rows.append(f"| {tool} | {n:,} | {g['skipped']} | | | | |")
                continue
            runs = g["runs"]
            kib = max(x["kib"] for x in runs)
            if tool == "errata":
                r = median_run(runs, lambda r: r["wall"])
                scan_s = r["wall"]
                lps = lines / scan_s if scan_s > 0 else None
                load = got.get("errata-load", {})
                load_s = statistics.median(x["wall"] for x in load["runs"]) if "runs" in load else None
                row = (load_s, scan_s, lps, kib)
            elif tool == "hyperscan":
                row = hs_row
                lps = hs_rate
            else:
                r = median_run(runs, lambda r: (r["json"] or {}).get("scan_s", r["wall"]))
                j = r["json"] or {}
                if j.get("error") or "scan_s" not in j:
                    why = j.get("error") or "printed no scan_s"
                    rows.append(f"| {tool} | {n:,} | failed: {why} | | | {kib / 1024:.0f} | |")
                    continue
                lps = j.get("lines_per_s") or (j.get("lines", lines) / j["scan_s"] if j["scan_s"] else None)
                row = (j.get("compile_s"), j["scan_s"], lps, kib)
                if tool == "naive":
                    notes.append(f"- {n}: naive scanned a sample of {j.get('lines', '?')} lines")
            ratio = fmt(row[2] / hs_rate, 2) if row[2] and hs_rate else "n/a"
            rows.append(f"| {tool} | {n:,} | {fmt(row[0])} | {fmt(row[1])} | {rate(row[2])} | "
                        f"{row[3] / 1024:.0f} | {ratio} |")

            if tool == "errata" and (res / "errata.jsonl").exists():
                right, matched, noise, ambiguous = errata_accuracy(
                    res / "errata.jsonl", truth, pattern_of, misses=res / "errata-misses.jsonl")
                alt = errata_accuracy(res / "errata.jsonl", truth, pattern_of, offset=1)
                if alt[0] > right:
                    notes.append(f"- {n}: errata's line numbers look 0-based (offset by one they "
                                 f"give {alt[0]:,} right first matches, not {right:,})")
                notes.append(f"- {n}: errata accuracy: {right:,} of {len(truth):,} rendered lines "
                             f"({100 * right / len(truth):.2f}%) have the true record (or one with its "
                             f"pattern) first ({ambiguous:,} more have first a template whose pattern matches "
                             f"the line as well); {matched:,} matched at all; {noise:,} noise lines matched "
                             f"(each miss is in {res / 'errata-misses.jsonl'})")
                target = TARGETS.get(n)
                if target and hs_rate and lps:
                    checks.append(f"- {n}: errata {lps / hs_rate:.2f}x Hyperscan's scan rate "
                                  f"(target {target:g}x): {'met' if lps / hs_rate >= target else 'NOT met'}")
                if row[0] is not None:
                    checks.append(f"- {n}: errata load {row[0]:.2f} s (target < 1 s): "
                                  f"{'met' if row[0] < 1 else 'NOT met'}")
                nv = got.get("naive", {})
                if "runs" in nv:
                    j = median_run(nv["runs"], lambda r: (r["json"] or {}).get("scan_s", r["wall"]))["json"] or {}
                    nrate = j.get("lines_per_s") or (j.get("lines") / j["scan_s"] if j.get("scan_s") and j.get("lines") else None)
                    if nrate:
                        checks.append(f"- {n}: errata {lps / nrate:,.0f}x the naive loop (target 100x): "
                                      f"{'met' if lps / nrate >= 100 else 'NOT met'}")
            if tool == "hyperscan" and (res / "hyperscan-matches.tsv").exists():
                right, matched, noise = hyperscan_accuracy(res / "hyperscan-matches.tsv", truth, ids, patterns)
                notes.append(f"- {n}: Hyperscan (the patterns themselves): {right:,} of {len(truth):,} "
                             f"rendered lines matched by their own pattern; {noise:,} noise lines "
                             f"matched by some pattern")

        notes.append(f"- {n}: log of {lines:,} lines, {meta['rendered_lines']:,} rendered from the "
                     f"{n:,} templates ({meta['selected_tier1']:,} from tier 1, the rest from tier 2)")

    print("| tool | templates | load/compile s | scan s | lines/s | peak RSS MiB | ratio vs Hyperscan |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    print()
    print("\n".join(notes))
    if checks:
        print()
        print("Targets:")
        print()
        print("\n".join(checks))


if __name__ == "__main__":
    main()
