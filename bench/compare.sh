#!/usr/bin/env bash
# Times two errata binaries in alternating runs of `index --all` on the same source trees, so
# that a change is measured against the commit before it in the same minutes of a shared,
# noisy machine. Prints one line per run: tree, which binary, wall seconds, peak RSS KiB,
# records, bytes parsed, files parsed (the last three from `errata --json index`).
#
# Usage:
#
#     bench/compare.sh OLD_ERRATA NEW_ERRATA DIR...
#
# ROUNDS (default "1 2 3") names the rounds; each round runs OLD, then NEW, on a fresh database
# under bench/out/tmp/.
set -euo pipefail

[[ $# -ge 3 ]] || {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
old=$1 new=$2
shift 2
for bin in "$old" "$new"; do
  [[ -x $bin ]] || { echo "compare.sh: $bin is not an executable errata binary" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "compare.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
tmp=$repo/bench/out/tmp
mkdir -p "$tmp"
db=$tmp/compare.db
for dir in "$@"; do
  for round in ${ROUNDS:-1 2 3}; do
    for which in old new; do
      bin=${!which}
      rm -f "$db" "$db-wal" "$db-shm"
      /usr/bin/time -f '%e %M' -o "$tmp/compare.time" "$bin" --json index --all --db "$db" "$dir" \
        >"$tmp/compare.json" 2>/dev/null
      python3 - "$dir" "$which" "$round" "$tmp" <<'PY'
import json, sys
d, which, rnd, tmp = sys.argv[1:]
s = json.load(open(f"{tmp}/compare.json"))
wall, kib = open(f"{tmp}/compare.time").read().split()[-2:]
print(d, which, f"round {rnd}", wall, kib, s["records"], s["bytesParsed"], s["filesParsed"])
PY
    done
  done
done
rm -f "$db" "$db-wal" "$db-shm"
