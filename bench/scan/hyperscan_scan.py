#!/usr/bin/env python3
"""Hyperscan's side of the `errata scan` benchmark: one block-mode database of all the
patterns, scanned one log line at a time.

Usage:

    bench/scan/hyperscan_scan.py PATTERNS LOG [--matches FILE]
    bench/scan/hyperscan_scan.py --check

PATTERNS has one messagePattern per line as a JSON string (bench/scan/make_log.py's
patterns-N.txt); pattern k (from 0) gets Hyperscan id k. `--check` installs the Python
binding (`pip install hyperscan`, which ships the library in its wheel) when it cannot be
imported, and exits; bench/scan.sh runs it before the timed runs so that no install is timed.

Method. The patterns are compiled into ONE database (HS_MODE_BLOCK) with the flags
HS_FLAG_SINGLEMATCH (each pattern reported at most once per line: a line either matches a
template or not) and HS_FLAG_ALLOWEMPTY (a pattern may match the empty string). HS_FLAG_UTF8 is
not set: the patterns are escaped literals joined by `.*`, for which byte-wise matching finds
exactly the lines that code-point matching does, and the bytes scanned are the same. When the
compile fails, each pattern is compiled alone to find those Hyperscan rejects; they are dropped
and counted, and the rest compiled again (only that last compile is in compile_s). The log is
read into memory and split on "\\n" (read_s), then every line is passed to its own
`db.scan(line)` call whose match callback records (line, pattern id) (scan_s). The loop's own
Python cost is measured too, as the same loop calling a no-op function (loop_overhead_s): it
bounds from above the line rate any per-line Python binding can reach.

Prints one JSON object on stdout:

    {"tool": "hyperscan", "patterns": n, "rejected": k, "compile_s": …, "read_s": …,
     "scan_s": …, "loop_overhead_s": …, "lines": …, "lines_per_s": …, "matched_lines": …}

With --matches FILE, also writes "LINE<TAB>ID,ID,…" for each matched line (lines from 1, ids
as above), after the timing, for bench/scan/accuracy.py. Peak RSS is measured by the caller.
"""

import argparse
import json
import subprocess
import sys
import time


def import_hyperscan(install):
    try:
        import hyperscan
        return hyperscan
    except ImportError:
        if not install:
            sys.exit("hyperscan_scan.py: the hyperscan module is missing; run "
                     "`bench/scan/hyperscan_scan.py --check` (pip install hyperscan)")
    print("installing hyperscan (pip install hyperscan)", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "hyperscan"], check=True, stdout=sys.stderr)
    import hyperscan
    return hyperscan


def compile_db(hs, patterns, flags):
    ids = list(range(len(patterns)))
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=patterns, ids=ids, elements=len(patterns), flags=[flags] * len(patterns))
    return db


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("patterns", nargs="?")
    ap.add_argument("log", nargs="?")
    ap.add_argument("--matches", help="write the matched lines and ids here")
    ap.add_argument("--check", action="store_true", help="install hyperscan if missing, then exit")
    args = ap.parse_args()
    hs = import_hyperscan(install=args.check)
    if args.check:
        print(f"hyperscan {getattr(hs, '__version__', '?')} at {hs.__file__}", file=sys.stderr)
        return
    if not args.patterns or not args.log:
        ap.error("PATTERNS and LOG are required")

    with open(args.patterns, encoding="utf-8") as f:
        patterns = [json.loads(line).encode("utf-8") for line in f]
    flags = hs.HS_FLAG_SINGLEMATCH | hs.HS_FLAG_ALLOWEMPTY

    # Compile; on failure find the patterns Hyperscan rejects, drop them, compile the rest.
    ids = list(range(len(patterns)))
    rejected = []
    t = time.perf_counter()
    try:
        db = compile_db(hs, patterns, flags)
    except hs.error:
        for k, p in enumerate(patterns):
            one = hs.Database(mode=hs.HS_MODE_BLOCK)
            try:
                one.compile(expressions=[p], ids=[k], elements=1, flags=[flags])
            except hs.error as e:
                rejected.append((k, str(e)))
        bad = {k for k, _ in rejected}
        ids = [k for k in range(len(patterns)) if k not in bad]
        kept = [patterns[k] for k in ids]
        reasons = {}
        for _, why in rejected:
            reasons[why] = reasons.get(why, 0) + 1
        print(f"hyperscan rejected {len(rejected)} patterns: {reasons}", file=sys.stderr)
        t = time.perf_counter()
        db = hs.Database(mode=hs.HS_MODE_BLOCK)
        db.compile(expressions=kept, ids=ids, elements=len(kept), flags=[flags] * len(kept))
    compile_s = time.perf_counter() - t

    t = time.perf_counter()
    with open(args.log, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    read_s = time.perf_counter() - t

    hits = []
    add = hits.append

    def on_match(pid, start, end, flags, line_no):
        add((line_no, pid))

    scan = db.scan
    t = time.perf_counter()
    for i, line in enumerate(lines, 1):
        scan(line, match_event_handler=on_match, context=i)
    scan_s = time.perf_counter() - t

    def noop(line, match_event_handler=None, context=None):
        return None

    t = time.perf_counter()
    for i, line in enumerate(lines, 1):
        noop(line, match_event_handler=on_match, context=i)
    overhead_s = time.perf_counter() - t

    by_line = {}
    for line_no, pid in hits:
        by_line.setdefault(line_no, []).append(pid)
    if args.matches:
        with open(args.matches, "w", encoding="utf-8") as f:
            for line_no in sorted(by_line):
                f.write(f"{line_no}\t{','.join(map(str, sorted(by_line[line_no])))}\n")

    print(json.dumps({
        "tool": "hyperscan",
        "patterns": len(ids),
        "rejected": len(rejected),
        "compile_s": round(compile_s, 4),
        "read_s": round(read_s, 4),
        "scan_s": round(scan_s, 4),
        "loop_overhead_s": round(overhead_s, 4),
        "lines": len(lines),
        "lines_per_s": round(len(lines) / scan_s) if scan_s > 0 else None,
        "matched_lines": len(by_line),
    }))


if __name__ == "__main__":
    main()
