#!/usr/bin/env python3
"""Draws a random sample of records for a judged review of their explanations.

Usage:

    bench/judge_sample.py SEED N OUT_DIR EXPORT:ROOT [EXPORT:ROOT ...]

Each EXPORT is the JSON Lines export (`errata export`) of one corpus, and ROOT the folder its
record paths are relative to. N records are drawn with `random.Random(SEED)`, evenly across
the exports (the rest from the largest), and written to OUT_DIR as `sample.jsonl`: one line per
record with the corpus root, the absolute path of its file, and the record's message, class,
type, location and explanation fields, which is what a reviewer reads against the source.
The sample is split into OUT_DIR/part-K.jsonl files of 10 for reviewers working in parallel.
"""

import json
import random
import sys
from pathlib import Path

FIELDS = [
    "id", "errorMessage", "errorClass", "errorType", "errorCode", "httpStatus", "filePath",
    "lineNumber", "documentation", "triggerScenarios", "commonSituations", "solutions",
    "exampleFix", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips",
    "handlingStrategy", "backgroundTag",
]


def main() -> None:
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    corpora = []
    for arg in sys.argv[4:]:
        export, root = arg.split(":", 1)
        records = [json.loads(l)["record"] for l in open(export, encoding="utf-8")]
        records.sort(key=lambda r: r["id"])
        corpora.append((root, records))
    rng = random.Random(seed)
    share = n // len(corpora)
    picked = []
    for root, records in corpora:
        for r in rng.sample(records, min(share, len(records))):
            picked.append((root, r))
    largest = max(corpora, key=lambda c: len(c[1]))
    rest = [r for r in largest[1] if all(r is not p for _, p in picked)]
    for r in rng.sample(rest, n - len(picked)):
        picked.append((largest[0], r))
    rng.shuffle(picked)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for root, r in picked:
        row = {"root": root, "absolutePath": str(Path(root) / r["filePath"])}
        row.update({k: r.get(k) for k in FIELDS})
        lines.append(json.dumps(row, ensure_ascii=False))
    (out / "sample.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for k in range(0, len(lines), 10):
        (out / f"part-{k // 10 + 1}.jsonl").write_text(
            "\n".join(lines[k:k + 10]) + "\n", encoding="utf-8")
    print(f"{len(lines)} records in {out}")


if __name__ == "__main__":
    main()
