#!/usr/bin/env bash
# Runs each of errata's fuzz targets for SECONDS (default 60) on seeds made from the test
# fixtures and the real corpora on this machine, and prints per target: executions, time,
# crashes, the slowest input. An input over 1 s, or over 2 GB of memory, counts as a crash.
#   bash fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || mapfile -t targets < <(cargo +nightly fuzz list)
fixtures=../crates/cli/tests/fixtures
work=${FUZZ_WORK:-../target/fuzz-work}
mkdir -p "$work"

# Seeds: the fixtures of each language, a few real files of the corpora, real pastes.
seed() {
  local target=$1 dir="$work/corpus/$1"
  mkdir -p "$dir"
  case $target in
    extract_*)
      local ext
      case ${target#extract_} in
        python) ext=py ;; javascript) ext=js ;; typescript) ext=ts ;; go) ext=go ;;
        java) ext=java ;; rust) ext=rs ;;
      esac
      find "$fixtures" -name "*.$ext" -size -64k | head -n 200 | while read -r f; do
        cp "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"
      done ;;
    log_input | matcher)
      if [ -f ../tests/real/pastes.jsonl ]; then
        python3 - "$dir" "$target" <<'PY'
import json, sys, hashlib, pathlib
out, target = pathlib.Path(sys.argv[1]), sys.argv[2]
for line in open("../tests/real/pastes.jsonl"):
    case = json.loads(line)
    text = case.get("paste") or case.get("text") or ""
    if target == "matcher":
        text = "invalid literal for int() with base {base}: {value}\tinvalid literal for int\\(\\) with base (.*?): (.*)\n---\n" + text
    name = hashlib.sha1(text.encode()).hexdigest()[:16]
    (out / name).write_text(text)
PY
      fi ;;
    template) printf 'no such lease: \0name\0 in \0pool\0' > "$dir/seed1" ;;
    http)
      printf 'GET /healthz\n' > "$dir/get-health"
      printf 'POST /api/v1/match\n{"text": "no such lease: abc"}' > "$dir/post-match"
      printf 'GET /api/v1/errors?q=lease&page=2&per_page=5\n' > "$dir/get-errors" ;;
  esac
}

printf '%-20s %12s %8s %8s %s\n' target executions seconds crashes slowest
status=0
for t in "${targets[@]}"; do
  seed "$t"
  mkdir -p "$work/artifacts/$t"
  log="$work/$t.log"
  set +e
  cargo +nightly fuzz run -O "$t" "$work/corpus/$t" -- \
    -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 -max_len=65536 \
    -report_slow_units=0 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$t/" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n1 || true)
  took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -n1 || true)
  slow=$(grep -o 'Slowest unit: [0-9]* s' "$log" | grep -o '[0-9]* s' | sort -n | tail -n1 || true)
  crashes=$(find "$work/artifacts/$t" -type f | wc -l)
  printf '%-20s %12s %8s %8s %s\n' "$t" "${runs:-?}" "${took:-?}" "$crashes" "${slow:-0 s}"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    status=1
    echo "  $t failed (exit $rc); its log: $log" >&2
    grep -m5 -E 'panicked|ERROR: libFuzzer|SUMMARY' "$log" >&2 || true
  fi
done
exit $status
