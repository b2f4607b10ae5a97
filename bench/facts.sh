#!/usr/bin/env bash
# What grounded explanations cost: for each corpus, `errata index --all --json` into a fresh
# database, RUNS times (default 3), and a Markdown table of
#
#   records       records indexed
#   index s       median wall time of the whole command
#   explain cpu s facts, references and explanation fields, summed over the worker threads
#                 (errata's own `explainCpuSeconds`; wall time is less, the workers run in parallel)
#   µs/record     explain cpu s / records
#   link s        callers and handlers across the repository, after the walk (`linkSeconds`)
#   baseline s    median wall time of BASELINE, an errata built without facts (optional), and
#   ratio         index s / baseline s
#
# Usage:
#
#     bench/facts.sh [CORPUS...]      # python javascript go java rust (default: all five)
#
# Environment: ERRATA (default target/release/errata), BASELINE (an errata binary to compare
# with, e.g. one built from the commit before facts), RUNS.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/bench/out
mkdir -p "$out"
# shellcheck source=bench/corpora.sh
source "$repo/bench/corpora.sh"

errata=${ERRATA:-$repo/target/release/errata}
baseline=${BASELINE:-}
runs=${RUNS:-3}
[[ -x $errata ]] || die "no errata binary at $errata (cargo build --release)"
corpora=("$@")
[[ ${#corpora[@]} -gt 0 ]] || corpora=(python javascript go java rust)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# One timed index into a fresh database; prints the JSON summary.
index_once() {
  local bin=$1 dir=$2 db=$out/tmp/facts.db
  mkdir -p "$out/tmp"
  rm -f "$db" "$db-wal" "$db-shm"
  "$bin" --json index --all --db "$db" "$dir" 2>/dev/null
}

printf '| corpus | records | index s | explain cpu s | µs/record | link s | baseline s | ratio |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for c in "${corpora[@]}"; do
  dir=$(prepare_"$c")
  walls=() cpus=() links=() base=()
  records=0
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s.%N)
    json=$(index_once "$errata" "$dir")
    end=$(date +%s.%N)
    walls+=("$(echo "$end - $start" | bc)")
    cpus+=("$(jq -r .explainCpuSeconds <<<"$json")")
    links+=("$(jq -r .linkSeconds <<<"$json")")
    records=$(jq -r .records <<<"$json")
    if [[ -n $baseline ]]; then
      start=$(date +%s.%N)
      index_once "$baseline" "$dir" >/dev/null
      end=$(date +%s.%N)
      base+=("$(echo "$end - $start" | bc)")
    fi
  done
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
  link=$(printf '%s\n' "${links[@]}" | median)
  per=$(echo "scale=1; $cpu * 1000000 / $records" | bc)
  if [[ -n $baseline ]]; then
    b=$(printf '%s\n' "${base[@]}" | median)
    ratio=$(echo "scale=2; $wall / $b" | bc)
    b=$(printf '%.2f' "$b")
  else
    b=- ratio=-
  fi
  printf '| %s | %s | %.2f | %.2f | %s | %.2f | %s | %s |\n' \
    "$c" "$records" "$wall" "$cpu" "$per" "$link" "$b" "$ratio"
done
