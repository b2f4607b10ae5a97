#!/usr/bin/env python3
"""Makes the inputs of one `errata scan` benchmark: N templates, their database and a log.

Usage:

    bench/scan/make_log.py N [--out DIR] [--lines 1000000] [--rendered 0.10] [--seed 1]

Reads DIR/all.jsonl, DIR/all.db and DIR/corpora.tsv (made by bench/scan/corpus_db.sh; DIR
defaults to bench/out/scan) and writes, in DIR:

    subset-N.db     a copy of all.db keeping only the N selected records (DELETE FROM records
                    of every other id, then VACUUM)
    patterns-N.txt  the N messagePatterns, one JSON string per line (so a pattern holding a
                    newline or a quote is still one line), in the order of
    ids-N.txt       the id of the record each pattern was taken from, one per line
    log-N.log       LINES log lines: a share RENDERED of them renderings of the templates, the
                    rest ordinary noise
    truth-N.tsv     "LINE<TAB>ID" for each rendered line (lines counted from 1)
    meta-N.json     what was selected and made, with the counts of templates passed over

Selection. Records are grouped by messagePattern (one template per distinct pattern; the
record kept for it is the one with the smallest id, taken from the lowest tier that has the
pattern). Templates are passed over when their pattern does not parse back into literal text
and placeholders the way `regex::escape` wrote it, or when their literal text holds a line
break (the log is one message per line). The rest are shuffled with the seed and ordered by
(fewer than 8 literal bytes, tier): templates a matcher can identify come first, and those of
tier 1 (the corpora of bench/index.sh) before those of tier 2 (the pinned extras of
corpus_db.sh). The first N are selected, so with the same seed the 10,000 templates are the
first 10,000 of the 50,000.

Rendering. A rendered line takes the templates in turns of a fresh random permutation, so each
is rendered LINES * RENDERED / N times, give or take one. Each placeholder becomes a random
value: a word, a number, an id, a path, a URL, a quoted name, text with spaces or with regex
metacharacters, and one time in twenty nothing. The message is put in a log line of a random
shape: an ISO timestamp (one day's worth, rising line by line) and level (ERROR or WARN), sometimes a logger name or a [request id],
or a JSON object {"level":"error","msg":...}. A JSON line is used only when the message needs
no JSON escaping, so every rendered line holds its message verbatim and its pattern matches it
(checked with Python's re for the first rendering of each template). Noise lines are INFO and
DEBUG application lines, HTTP access-log lines, syslog lines and JSON info lines, built from a
small vocabulary of benign words.
"""

import argparse
import calendar
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# regex_syntax::is_meta_character: what `regex::escape` puts a backslash before.
META = set("\\.+*?()|[]{}^$#&-~")
# Characters that end a line for some reader (str.splitlines's set).
LINE_BREAKS = set("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
MIN_LITERAL = 8


def escape(text):
    return "".join("\\" + c if c in META else c for c in text)


def parse(pattern):
    """The segments of a messagePattern: str for literal text, None for a placeholder; or None
    when the pattern is not one errata's Template::pattern writes."""
    segments, literal, i, n = [], [], 0, len(pattern)
    while i < n:
        if pattern.startswith("(.*?)", i) or pattern.startswith("(.*)", i):
            if literal:
                segments.append("".join(literal))
                literal = []
            segments.append(None)
            i += 5 if pattern[i + 3] == "?" else 4
        elif pattern[i] == "\\":
            if i + 1 == n or pattern[i + 1] not in META:
                return None
            literal.append(pattern[i + 1])
            i += 2
        elif pattern[i] in META:
            return None
        else:
            literal.append(pattern[i])
            i += 1
    if literal:
        segments.append("".join(literal))
    # Round trip: the segments must give back the very pattern.
    rebuilt = []
    for k, s in enumerate(segments):
        if s is None:
            rebuilt.append("(.*)" if k == len(segments) - 1 else "(.*?)")
        else:
            rebuilt.append(escape(s))
    return segments if "".join(rebuilt) == pattern else None


# ---------------------------------------------------------------------------------------------
# Random values and lines

WORDS = (
    "alpha beta gamma delta config user session token account order invoice cart item "
    "widget cluster node pod replica shard index table column schema record payload buffer "
    "stream socket channel queue topic partition offset region zone bucket object blob "
    "manifest package module plugin driver adapter handler worker thread task job batch"
).split()
NAMES = "alice bob carol dave erin frank grace heidi ivan judy mallory oscar peggy trent".split()
EXTS = "json yaml txt log db csv conf py go java js".split()
META_VALUES = [
    "a.b", "x*y", "(1+2)", "[0-9]+", "$HOME", "^start", "{k: v}", "a|b", "50%", "c++",
    "what?", "~/tmp", "#42", "a&b", "-x", "\\d+", "foo(bar)", "[]", "{}", "*.tmp",
]


def value(rng):
    r = rng.random()
    if r < 0.05:
        return ""
    if r < 0.20:
        return rng.choice(WORDS)
    if r < 0.33:
        return str(rng.choice([rng.randrange(10), rng.randrange(1000), rng.randrange(10**9), -rng.randrange(100)]))
    if r < 0.40:
        return f"{rng.random() * 1000:.{rng.randrange(1, 4)}f}"
    if r < 0.48:
        return f"{rng.getrandbits(64):016x}"
    if r < 0.58:
        parts = [rng.choice(WORDS) for _ in range(rng.randrange(1, 5))]
        return "/" + "/".join(parts) + f"/{rng.choice(WORDS)}-{rng.randrange(100)}.{rng.choice(EXTS)}"
    if r < 0.62:
        return f"https://{rng.choice(WORDS)}.example.com/api/v{rng.randrange(1, 4)}/{rng.choice(WORDS)}?id={rng.randrange(10**6)}&page={rng.randrange(9)}"
    if r < 0.70:
        q = rng.choice("'\"`")
        return f"{q}{rng.choice(WORDS)}_{rng.choice(NAMES)}{q}"
    if r < 0.80:
        return " ".join(rng.choice(WORDS + NAMES) for _ in range(rng.randrange(2, 5)))
    if r < 0.90:
        return rng.choice(META_VALUES)
    if r < 0.95:
        return f"{rng.choice(WORDS).capitalize()}{rng.choice(WORDS).capitalize()}Exception"
    return f"{rng.choice(NAMES)}@{rng.choice(WORDS)}.org"


def render(segments, rng):
    return "".join(value(rng) if s is None else s for s in segments)


LOGGERS = (
    "com.example.orders.OrderService app.worker.sync pkg/storage/engine api.handlers.users "
    "org.acme.billing.InvoiceJob main net.http.server db.pool scheduler"
).split()
COMPONENTS = "http db cache scheduler worker auth metrics grpc queue sync".split()


def timestamp(rng, base):
    t = base + rng.random() * 0.1
    ms = int((t % 1) * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{ms:03d}Z", t


def error_line(msg, rng, base):
    ts, t = timestamp(rng, base)
    level = "ERROR" if rng.random() < 0.7 else "WARN"
    r = rng.random()
    if r < 0.2 and json.dumps(msg, ensure_ascii=False) == f'"{msg}"':
        return json.dumps({"ts": ts, "level": level.lower(), "msg": msg}, ensure_ascii=False)
    if r < 0.45:
        return f"{ts} {level} {rng.choice(LOGGERS)} - {msg}"
    if r < 0.6:
        return f"{ts} {level} [req-{rng.getrandbits(32):08x}] {msg}"
    if r < 0.7:
        ts2 = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + f",{int((t % 1) * 1000):03d}"
        return f"{ts2} {level:<5} [{rng.choice(COMPONENTS)}-{rng.randrange(16)}] {rng.choice(LOGGERS)}: {msg}"
    return f"{ts} {level} {msg}"


HTTP_PATHS = "/ /index.html /api/v1/items /api/v1/users /healthz /static/app.js /static/site.css /metrics /login /api/v2/orders".split()
AGENTS = ["Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0", "Go-http-client/1.1", "kube-probe/1.30", "python-requests/2.32.3"]
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def noise_line(rng, base):
    ts, t = timestamp(rng, base)
    r = rng.random()
    n = rng.randrange(1000)
    w = rng.choice(WORDS)
    if r < 0.25:
        method = rng.choice(["GET", "GET", "GET", "POST", "PUT", "HEAD"])
        path = rng.choice(HTTP_PATHS)
        if path.startswith("/api"):
            path += f"/{rng.randrange(10**5)}"
        status = rng.choice([200, 200, 200, 201, 204, 301, 304])
        g = time.gmtime(t)
        when = f"{g.tm_mday:02d}/{MONTHS[g.tm_mon - 1]}/{g.tm_year}:{g.tm_hour:02d}:{g.tm_min:02d}:{g.tm_sec:02d} +0000"
        return (f'10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)} - - [{when}] '
                f'"{method} {path} HTTP/1.1" {status} {rng.randrange(50, 60000)} "-" "{rng.choice(AGENTS)}"')
    if r < 0.40:
        return json.dumps({"ts": ts, "level": rng.choice(["info", "debug"]), "msg": rng.choice(
            ["request completed", "cache refreshed", "job finished", "connection opened", "heartbeat"]),
            "component": rng.choice(COMPONENTS), "duration_ms": rng.randrange(1, 900), "n": n})
    if r < 0.50:
        g = time.gmtime(t)
        return (f"{MONTHS[g.tm_mon - 1]} {g.tm_mday:2d} {g.tm_hour:02d}:{g.tm_min:02d}:{g.tm_sec:02d} "
                f"host{rng.randrange(8)} {rng.choice(['systemd[1]', 'cron[812]', 'sshd[2211]', 'kernel'])}: "
                f"{rng.choice(['Started', 'Finished', 'Reloaded'])} {w} {rng.choice(['service', 'timer', 'unit'])} {n}")
    level = "INFO" if rng.random() < 0.7 else "DEBUG"
    comp = rng.choice(COMPONENTS)
    text = rng.choice([
        f"started {comp} worker {n % 16} in {rng.randrange(1, 500)} ms",
        f"processed {n} {w} items in {rng.randrange(1, 5000)} ms",
        f"cache hit ratio {rng.random():.2f} for {w}",
        f"connected to {comp}.internal:{rng.randrange(1024, 65535)} after {rng.randrange(1, 9)} attempts",
        f"user {rng.choice(NAMES)} logged in from 192.168.{rng.randrange(256)}.{rng.randrange(256)}",
        f"scheduled {w} sync every {rng.randrange(1, 60)}s",
        f"metrics cpu={rng.random() * 100:.1f}% mem={rng.randrange(64, 4096)}MiB goroutines={n}",
        f"flushed {n} {w} records to segment {rng.getrandbits(32):08x}",
        f"config reloaded, {n % 40} keys changed",
        f"checkpoint {n} complete, lag {rng.randrange(0, 300)} ms",
    ])
    if rng.random() < 0.5:
        return f"{ts} {level} [{comp}] {text}"
    return f"{ts} {level} {rng.choice(LOGGERS)} - {text}"


# ---------------------------------------------------------------------------------------------
# The run


def load_templates(out_dir):
    tiers = {}
    with open(out_dir / "corpora.tsv", encoding="utf-8") as f:
        for line in f:
            repo, tier, _ = line.rstrip("\n").split("\t", 2)
            tiers[repo] = int(tier)
    best = {}  # pattern -> (tier, id)
    with open(out_dir / "all.jsonl", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)["record"]
            key = (tiers.get(rec["repo"], 9), rec["id"])
            p = rec["messagePattern"]
            if p not in best or key < best[p]:
                best[p] = key
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="how many templates")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "scan")
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--rendered", type=float, default=0.10, help="share of rendered lines")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    out, n = args.out, args.n
    t0 = time.monotonic()

    best = load_templates(out)
    unparsable = multiline = 0
    candidates = []  # (short, tier, pattern, id, segments)
    for p, (tier, rid) in sorted(best.items()):
        segments = parse(p)
        if segments is None:
            unparsable += 1
            continue
        literal = "".join(s for s in segments if s is not None)
        if any(c in LINE_BREAKS for c in literal):
            multiline += 1
            continue
        candidates.append((len(literal.encode()) < MIN_LITERAL, tier, p, rid, segments))
    rng = random.Random(args.seed)
    rng.shuffle(candidates)
    candidates.sort(key=lambda c: (c[0], c[1]))  # stable: shuffled within each group
    if len(candidates) < n:
        sys.exit(f"make_log.py: only {len(candidates)} usable templates in {out / 'all.jsonl'}, "
                 f"fewer than {n}; index more corpora (bench/scan/corpus_db.sh)")
    selected = candidates[:n]
    print(f"{len(best)} distinct patterns, {len(candidates)} usable "
          f"({unparsable} unparsable, {multiline} with a line break); selected {n}: "
          f"{sum(1 for c in selected if c[1] == 1)} from tier 1, "
          f"{sum(1 for c in selected if c[0])} with fewer than {MIN_LITERAL} literal bytes",
          file=sys.stderr)

    # patterns and ids
    with open(out / f"patterns-{n}.txt.partial", "w", encoding="utf-8") as fp, \
            open(out / f"ids-{n}.txt.partial", "w", encoding="utf-8") as fi:
        for _, _, p, rid, _ in selected:
            fp.write(json.dumps(p, ensure_ascii=False) + "\n")
            fi.write(rid + "\n")

    # the subset database
    sub = out / f"subset-{n}.db.partial"
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(sub) + suffix).unlink(missing_ok=True)
    shutil.copyfile(out / "all.db", sub)
    con = sqlite3.connect(sub)
    con.execute("CREATE TEMP TABLE keep (id TEXT PRIMARY KEY)")
    con.executemany("INSERT INTO keep VALUES (?)", ((c[3],) for c in selected))
    con.execute("DELETE FROM records WHERE id NOT IN (SELECT id FROM keep)")
    con.commit()
    kept = con.execute("SELECT count(*) FROM records").fetchone()[0]
    con.execute("VACUUM")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    if kept != n:
        sys.exit(f"make_log.py: the subset database kept {kept} records, not {n}")

    # the log
    # One day of log: the timestamps rise with the line number (plus up to 0.1 s).
    base = calendar.timegm((2026, 11, 30, 0, 0, 0))
    step = 86400 / args.lines
    rendered_total = round(args.lines * args.rendered)
    rendered_at = set(rng.sample(range(args.lines), rendered_total))
    order = []
    checked = set()
    bad = 0
    with open(out / f"log-{n}.log.partial", "w", encoding="utf-8") as fl, \
            open(out / f"truth-{n}.tsv.partial", "w", encoding="utf-8") as ft:
        for i in range(args.lines):
            if i in rendered_at:
                if not order:
                    order = list(range(n))
                    rng.shuffle(order)
                k = order.pop()
                _, _, p, rid, segments = selected[k]
                msg = render(segments, rng)
                if k not in checked:
                    checked.add(k)
                    if not re.search(p, msg):
                        bad += 1
                fl.write(error_line(msg, rng, base + i * step) + "\n")
                ft.write(f"{i + 1}\t{rid}\n")
            else:
                fl.write(noise_line(rng, base + i * step) + "\n")
    if bad:
        print(f"warning: {bad} templates' renderings do not match their own pattern (Python re)", file=sys.stderr)

    meta = {
        "templates": n, "seed": args.seed, "lines": args.lines, "rendered_lines": rendered_total,
        "distinct_patterns": len(best), "usable": len(candidates), "unparsable": unparsable,
        "with_line_break": multiline,
        "selected_tier1": sum(1 for c in selected if c[1] == 1),
        "selected_short_literal": sum(1 for c in selected if c[0]),
        "rendering_mismatches": bad,
    }
    (out / f"meta-{n}.json.partial").write_text(json.dumps(meta, indent=1) + "\n")
    for name in (f"patterns-{n}.txt", f"ids-{n}.txt", f"subset-{n}.db", f"log-{n}.log",
                 f"truth-{n}.tsv", f"meta-{n}.json"):
        os.replace(out / f"{name}.partial", out / name)
    print(f"wrote {out}/{{subset,patterns,ids,log,truth,meta}}-{n}.* in {time.monotonic() - t0:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
