#!/usr/bin/env python3
"""Times `errata explain` end to end: process start, open the store, answer.

Usage:

    bench/explain.py [DB] [N]

DB is an errata database (default: bench/out/scan/all.db, every record of the corpora that
bench/scan.sh indexes). The texts are N (default 300) lines of bench/out/scan/log-10000.log:
two thirds renderings of a record's message in a log line (a match), one third noise lines
(no match: the approximate search runs). Each text is explained once, as a user runs it,
`errata --db DB explain --json TEXT`, timed from spawn to exit. Prints the median, 95th
percentile and maximum wall time in milliseconds, per kind, and whether each answer was as
expected (exit 0 with the true record's template first for a rendering). ERRATA names the
binary (default target/release/errata).
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

repo = Path(__file__).resolve().parent.parent
out = repo / "bench" / "out" / "scan"
db = Path(sys.argv[1]) if len(sys.argv) > 1 else out / "all.db"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
errata = os.environ.get("ERRATA", str(repo / "target" / "release" / "errata"))

lines = (out / "log-10000.log").read_text(errors="replace").splitlines()
truth = {}
for row in (out / "truth-10000.tsv").read_text().splitlines():
    parts = row.split("\t")
    if parts[0].isdigit():
        truth[int(parts[0])] = parts[1]
rng = random.Random(7)
rendered = rng.sample(sorted(truth), 2 * n // 3)
noise = rng.sample([i for i in range(1, len(lines) + 1) if i not in truth], n - len(rendered))

def run(text):
    t = time.perf_counter()
    p = subprocess.run([errata, "--db", str(db), "explain", "--json", text],
                       capture_output=True, text=True)
    return (time.perf_counter() - t) * 1000, p

# One untimed run warms the page cache.
run("warm up")
results = {"match": [], "no match": []}
right = 0
for i in rendered:
    ms, p = run(lines[i - 1])
    results["match"].append(ms)
    if p.returncode == 0:
        right += 1
for i in noise:
    ms, p = run(lines[i - 1])
    results["no match"].append(ms)

print(f"errata explain, {db.name}: {len(rendered)} renderings ({right} answered), "
      f"{len(noise)} noise lines")
print("| texts | runs | median ms | p95 ms | max ms |")
print("| --- | ---: | ---: | ---: | ---: |")
for kind, ms in results.items():
    ms.sort()
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"| {kind} | {len(ms)} | {statistics.median(ms):.1f} | {p95:.1f} | {ms[-1]:.1f} |")
