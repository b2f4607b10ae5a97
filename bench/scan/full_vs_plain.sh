#!/usr/bin/env bash
# `errata scan` on a full store against the same store without its weak templates.
#
# Usage:
#
#     bench/scan/full_vs_plain.sh [N] [RUNS]
#
# The full store is bench/out/scan/all.db (bench/scan/corpus_db.sh: every record of the
# corpora, test code and all). The plain store is a copy of it without the records whose
# pattern is no plain template in the sense of make_log.py (not literal text and holes, a line
# break in its literal text, or fewer than 8 literal bytes). Both scan the same log,
# log-N.log of make_log.py (N templates rendered into 1,000,000 lines, default 20000), in
# alternating runs (RUNS each, default 5); prints each run, the medians and the speed of the
# full store as a share of the plain one's. Then the matcher alone on one thread
# (crates/matcher/examples/lines.rs) over the distinct patterns of each store.
#
# Environment: ERRATA (default target/release/errata).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$repo/bench/out/scan
n=${1:-20000}
runs=${2:-5}
errata=${ERRATA:-$repo/target/release/errata}
[[ -x $errata ]] || { echo "full_vs_plain.sh: build errata first (cargo build --release --locked)" >&2; exit 2; }
ERRATA=$errata EXTRA=${EXTRA:-0} "$repo/bench/scan/corpus_db.sh" >/dev/null
[[ -s $dir/log-$n.log ]] || python3 "$repo/bench/scan/make_log.py" "$n" --out "$dir"

if [[ ! -s $dir/plain.db || $dir/plain.db -ot $dir/all.db ]]; then
  python3 - "$dir" "$repo/bench/scan" <<'PY'
import shutil, sqlite3, sys
out, here = sys.argv[1], sys.argv[2]
sys.path.insert(0, here)
import make_log as ml
shutil.copyfile(f"{out}/all.db", f"{out}/plain.db.partial")
con = sqlite3.connect(f"{out}/plain.db.partial")
drop = []
for rid, p in con.execute("SELECT id, pattern FROM records"):
    seg = ml.parse(p or "")
    lit = "" if seg is None else "".join(s for s in seg if s is not None)
    if seg is None or any(c in ml.LINE_BREAKS for c in lit) or len(lit.encode()) < ml.MIN_LITERAL:
        drop.append((rid,))
con.execute("CREATE TEMP TABLE d (id TEXT PRIMARY KEY)")
con.executemany("INSERT INTO d VALUES (?)", drop)
con.execute("DELETE FROM records WHERE id IN (SELECT id FROM d)")
con.commit()
con.execute("VACUUM")
con.close()
shutil.move(f"{out}/plain.db.partial", f"{out}/plain.db")
print(f"plain.db: {len(drop)} records that are no plain template left out", file=sys.stderr)
PY
fi

declare -A times
for ((i = 1; i <= runs; i++)); do
  for db in plain all; do
    /usr/bin/time -f '%e' -o "$dir/time.txt" "$errata" --db "$dir/$db.db" scan --json "$dir/log-$n.log" >/dev/null 2>&1 || true
    t=$(tail -n1 "$dir/time.txt")
    times[$db]+="$t "
    echo "$db run $i: $t s"
  done
done
python3 - "${times[plain]}" "${times[all]}" <<'PY'
import statistics, sys
plain, full = (sorted(map(float, a.split())) for a in sys.argv[1:3])
mp, mf = statistics.median(plain), statistics.median(full)
print(f"median: plain {mp:.2f} s, full {mf:.2f} s; the full store scans at {mp / mf:.2f} of the plain one's speed")
PY

cargo build --release --locked --quiet --example lines -p errata-matcher
for db in plain all; do
  python3 -c "
import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
for (p,) in con.execute('SELECT DISTINCT pattern FROM records'):
    print(json.dumps(p))
" "$dir/$db.db" >"$dir/patterns-$db.txt"
  echo "$db (matcher alone, one thread): $("$repo/target/release/examples/lines" "$dir/patterns-$db.txt" "$dir/log-$n.log" 3)"
done
