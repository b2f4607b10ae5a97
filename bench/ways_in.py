#!/usr/bin/env python3
"""How many records of a store name a way in to their site: the share a user is told how they
reach the error from outside the project.

Usage:

    bench/ways_in.py STORE.db [STORE.db ...]

For each store, records are counted as
  own      the site's function is itself what the project offers (Python without a leading
           underscore or a dunder, an exported Go name, a public Java method, a `pub` Rust fn),
           outside the folders a language keeps to the project (`internal`, the JDK's `sun`)
  exposed  the site's function is offered though its head does not say so (a Rust trait
           method, a Java interface method, a JavaScript export), as the extractor marked it
  entry    a way in up the calls, or a command, was found (`facts.entry`)
  none     none of these; nofn: the site is in no function

`own` restates errata's rule (crates/cli/src/entry.rs `is_way_in`) by the signature alone, so
it is an approximation; `entry` and `exposed` are read from the store as written.
"""

import json
import sqlite3
import sys


def own(lang: str, path: str, fn: dict) -> bool:
    name, sig = fn["name"], fn.get("signature", "").strip()
    dirs, _, file_name = path.rpartition("/")
    dirs = dirs.split("/")
    if lang == "python":
        stem = file_name[:-3]
        dunder = len(name) > 4 and name.startswith("__") and name.endswith("__")
        return ((not name.startswith("_")) or dunder) \
            and not any(d.startswith("_") for d in dirs) \
            and (not stem.startswith("_") or stem == "__init__")
    if lang == "go":
        receiver = True
        if sig.startswith("func ("):
            words = sig[6:].split(")")[0].split()
            receiver = bool(words) and words[-1].lstrip("*").split("[")[0][:1].isupper()
        return name[:1].isupper() and receiver and not any(d in ("internal", "cmd") for d in dirs)
    if lang == "java":
        modifiers = sig.split("(")[0].split()
        return ("public" in modifiers or "protected" in modifiers) \
            and not any(d in ("internal", "sun", "impl") for d in dirs)
    if lang == "rust":
        return any(sig.startswith(p) for p in ("pub fn", "pub async fn", "pub const fn", "pub unsafe fn"))
    return False


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for store in sys.argv[1:]:
        db = sqlite3.connect(store)
        exposed = set()
        for path, refs in db.execute("SELECT path, refs FROM file_refs"):
            for line in refs.split("\n"):
                parts = line.split("\t")
                if parts[0] == "exposed" and len(parts) > 2:
                    exposed.add((path, int(parts[2])))
        counts = dict.fromkeys(["own", "exposed", "entry", "none", "nofn"], 0)
        for facts, path, lang in db.execute("SELECT facts, file_path, lang FROM records"):
            facts = json.loads(facts or "{}")
            fn = facts.get("function")
            if facts.get("entry"):
                counts["entry"] += 1
            elif not fn:
                counts["nofn"] += 1
            elif own(lang, path, fn):
                counts["own"] += 1
            elif (path, fn["line"]) in exposed:
                counts["exposed"] += 1
            else:
                counts["none"] += 1
        total = sum(counts.values())
        shown = ", ".join(f"{k} {v} ({100 * v / max(total, 1):.0f}%)" for k, v in counts.items())
        print(f"{store}: {total} records; {shown}")


if __name__ == "__main__":
    main()
