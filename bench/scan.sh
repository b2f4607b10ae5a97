#!/usr/bin/env bash
# Times `errata scan` against Hyperscan, Rust's regex::RegexSet and a naive loop over all the
# patterns, side by side in one run on the same generated log, and prints a Markdown table.
#
# Usage:
#
#     bench/scan.sh [N...]
#
# N is a number of templates (default: 10000 50000). For each N the inputs are made once and
# kept under bench/out/scan/ (see the scripts in bench/scan/ for how):
#
#   all.db, all.jsonl   bench/scan/corpus_db.sh: an errata database of real corpora, CPython's
#                       stdlib, npm, Go's stdlib and the JDK (tier 1), plus pinned PyPI and
#                       Debian packages (tier 2), because tier 1 has only ~20,000 distinct
#                       message patterns
#   subset-N.db         bench/scan/make_log.py: all.db less every record but N templates with
#                       distinct messagePatterns (tier 1 first, 8+ literal bytes each)
#   patterns-N.txt, ids-N.txt   their patterns (one JSON string a line) and record ids
#   log-N.log           1,000,000 lines: 10% renderings of the templates in realistic log lines
#                       (ERROR/WARN, logger names, request ids, JSON), 90% noise (INFO/DEBUG,
#                       HTTP access, syslog, JSON info lines)
#   truth-N.tsv         line number and record id of each rendered line
#
# Then each tool runs RUNS times (default 3) under `/usr/bin/time -f '%e %M'`:
#
#   errata     $ERRATA --db subset-N.db scan --json log-N.log > results/N/errata.jsonl
#              and, for its load time, the same on a log of one noise line (so that a matcher
#              built lazily is built too). Skipped, with a note, while the binary has no `scan`
#              command.
#   hyperscan  python3 bench/scan/hyperscan_scan.py patterns-N.txt log-N.log: one block-mode
#              database of all the patterns, one db.scan() per line; it prints its compile and
#              scan times (`pip install hyperscan` first when it is missing)
#   regexset   $EXAMPLES/regexset patterns-N.txt log-N.log (regex::RegexSet, where it compiles)
#   naive      $EXAMPLES/naive patterns-N.txt log-N.log $NAIVE_SAMPLE (every pattern tried on
#              each line of a sample)
#              Both print one JSON line like hyperscan_scan.py's; each is skipped while its
#              binary is not built (cargo build --release --examples).
#
# The comparison is errata's WHOLE process (start, load the database, scan, write the
# matches), as a user runs it, against Hyperscan's scan loop ALONE (not Python's start, the
# compile nor reading the log). Targets: errata >= 2x Hyperscan's lines/s at 10,000 templates
# and >= 5x at 50,000, load < 1 s, >= 100x the naive loop. errata's accuracy is checked with
# truth-N.tsv: the share of rendered lines whose first match is the true record (or one with
# the same messagePattern), and the number of noise lines it matched. bench/scan/report.py
# makes the table and says exactly what each column is.
#
# Environment:
#   ERRATA        the errata binary (default: target/release/errata under the repository)
#   EXAMPLES      the folder of the regexset and naive binaries (default: target/release/examples)
#   RUNS          timed runs per command (default: 3)
#   NAIVE_SAMPLE  lines the naive loop scans (default: 10000)
#
# The table goes to stdout and to bench/out/scan.md; progress goes to stderr, command logs to
# bench/out/logs/. Everything the script writes stays under bench/out/.
set -euo pipefail

caller_pwd=$PWD
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$repo/bench/out
dir=$out/scan
runs=${RUNS:-3}
sample=${NAIVE_SAMPLE:-10000}

log() { printf '%s\n' "$*" >&2; }
die() {
  printf 'bench/scan.sh: %s\n' "$*" >&2
  exit 2
}

usage() {
  sed -n '2,/^# bench\/out\/logs/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

ns=()
for arg in "$@"; do
  case $arg in
    -h | --help) usage ;;
    *)
      [[ $arg =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number, not '$arg'"
      ns+=("$arg")
      ;;
  esac
done
((${#ns[@]})) || ns=(10000 50000)
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive whole number, not '$runs'"
[[ $sample =~ ^[1-9][0-9]*$ ]] || die "NAIVE_SAMPLE must be a positive whole number, not '$sample'"

# ---------------------------------------------------------------------------------------------
# The tools

abs() {
  if [[ $1 != */* ]]; then command -v "$1" || true
  elif [[ $1 != /* ]]; then printf '%s\n' "$caller_pwd/$1"
  else printf '%s\n' "$1"; fi
}
errata=$(abs "${ERRATA:-$repo/target/release/errata}")
[[ -n $errata && -f $errata && -x $errata ]] ||
  die "no errata binary at ${ERRATA:-$repo/target/release/errata}: build it first (cargo build --release --locked) or set ERRATA"
examples=$(abs "${EXAMPLES:-$repo/target/release/examples}")

if [[ ! -x /usr/bin/time ]]; then
  [[ $(id -u) == 0 ]] || die "/usr/bin/time is missing (apt-get install time)"
  log "installing time (apt)"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
python3 "$repo/bench/scan/hyperscan_scan.py" --check || die "cannot import or install hyperscan"

mkdir -p "$out/logs" "$out/tmp" "$dir"
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
stamp=$(date +%Y%m%d-%H%M%S)
cmdlog=$out/logs/scan-$stamp.log

# Runs a command under /usr/bin/time; prints "WALL_SECONDS PEAK_KIB". Its stdout goes to the
# file $2, its stderr to $cmdlog. Exit statuses up to $1 count as success (errata uses 1 for
# "nothing found"); on another, the last line of stderr is left in $out/tmp/last-error.
timed() {
  local max_ok=$1 stdout=$2 tf errf rc=0
  shift 2
  tf=$(mktemp "$out/tmp/time.XXXXXX")
  errf=$(mktemp "$out/tmp/err.XXXXXX")
  /usr/bin/time -f '%e %M' -o "$tf" "$@" >"$stdout" 2>"$errf" || rc=$?
  cat "$errf" >>"$cmdlog"
  if ((rc > max_ok)); then
    { printf 'exit %d: ' "$rc"; grep -v '^Command exited with' "$errf" | tail -n 1; } >"$out/tmp/last-error"
    log "   command failed (exit $rc): $*"
    tail -n 5 "$errf" >&2
    rm -f "$tf" "$errf"
    return 1
  fi
  tail -n 1 "$tf"
  rm -f "$tf" "$errf"
}

# Runs a JSON-printing tool RUNS times; appends "WALL<TAB>KIB<TAB>JSON" per run to $2.runs, or
# writes why it failed to $2.skipped.
run_json_tool() {
  local name=$1 base=$2 i r so
  shift 2
  so=$out/tmp/$name.stdout
  for ((i = 1; i <= runs; i++)); do
    if r=$(timed 0 "$so" "$@"); then
      printf '%s\t%s\n' "${r// /$'\t'}" "$(grep '^{' "$so" | tail -n 1 || echo -)" >>"$base.runs"
      log "   $name run $i: $r (s KiB) $(grep '^{' "$so" | tail -n 1 || true)"
    else
      rm -f "$base.runs"
      printf 'failed (%s)\n' "$(tr '|' '/' <"$out/tmp/last-error")" >"$base.skipped"
      break
    fi
  done
  rm -f "$so"
}

# ---------------------------------------------------------------------------------------------
# The run

ERRATA=$errata "$repo/bench/scan/corpus_db.sh" >/dev/null

for n in "${ns[@]}"; do
  log "== $n templates"
  need=false
  for f in "subset-$n.db" "patterns-$n.txt" "ids-$n.txt" "log-$n.log" "truth-$n.tsv" "meta-$n.json"; do
    [[ -s $dir/$f && $dir/$f -nt $dir/all.jsonl ]] || need=true
  done
  if $need; then
    python3 "$repo/bench/scan/make_log.py" "$n" --out "$dir" || die "make_log.py $n failed"
  fi
  res=$dir/results/$n
  rm -rf "$res"
  mkdir -p "$res"
  patterns=$dir/patterns-$n.txt
  logf=$dir/log-$n.log
  db=$dir/subset-$n.db
  cat "$logf" "$db" >/dev/null # into the page cache, for every tool alike
  head -n 1 "$logf" >"$dir/one-$n.log" # a noise line: errata's load time, matcher built and used

  # errata
  if "$errata" scan --help >/dev/null 2>&1; then
    for ((i = 1; i <= runs; i++)); do
      if r=$(timed 1 /dev/null "$errata" --db "$db" scan --json "$dir/one-$n.log"); then
        printf '%s\t-\n' "${r// /$'\t'}" >>"$res/errata-load.runs"
        log "   errata load run $i: $r (s KiB)"
      else
        rm -f "$res/errata-load.runs"
        break
      fi
    done
    for ((i = 1; i <= runs; i++)); do
      if r=$(timed 1 "$res/errata.jsonl" "$errata" --db "$db" scan --json "$logf"); then
        printf '%s\t-\n' "${r// /$'\t'}" >>"$res/errata.runs"
        log "   errata run $i: $r (s KiB)"
      else
        rm -f "$res/errata.runs"
        printf 'failed (%s)\n' "$(tr '|' '/' <"$out/tmp/last-error")" >"$res/errata.skipped"
        break
      fi
    done
  else
    log "   errata: $errata has no \`scan\` command yet; skipping it"
    echo "not run: this errata has no \`scan\` command" >"$res/errata.skipped"
  fi

  # Hyperscan
  run_json_tool hyperscan "$res/hyperscan" \
    python3 "$repo/bench/scan/hyperscan_scan.py" "$patterns" "$logf" --matches "$res/hyperscan-matches.tsv"

  # regex::RegexSet and the naive loop, once the other engineer's examples are built
  for tool in regexset naive; do
    bin=$examples/$tool
    if [[ ! -x $bin ]]; then
      log "   $tool: no binary at $bin; skipping it (cargo build --release --examples)"
      echo "not run: $bin is not built" >"$res/$tool.skipped"
      continue
    fi
    if [[ $tool == naive ]]; then
      run_json_tool naive "$res/naive" "$bin" "$patterns" "$logf" "$sample"
    else
      run_json_tool regexset "$res/regexset" "$bin" "$patterns" "$logf"
    fi
  done
done

errata_version=$("$errata" --version 2>/dev/null | head -n1 || true)
hs_version=$(python3 -c 'import hyperscan; print(getattr(hyperscan, "__version__", "?"))')
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)
{
  echo "# errata scan vs Hyperscan, regex::RegexSet and a naive loop"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(nproc) cores, ${cpu:-unknown CPU}, Linux $(uname -r); load average $load_at_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  echo "- errata: ${errata_version:-unknown}, binary of $(date -u -r "$errata" '+%Y-%m-%d %H:%M UTC'), tree at $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$repo" diff --quiet HEAD -- crates 2>/dev/null || echo ' with uncommitted changes in crates/') (\`$errata --db subset-N.db scan --json log-N.log\`)"
  echo "- Hyperscan: python-hyperscan $hs_version on $(python3 --version 2>&1) (bench/scan/hyperscan_scan.py)"
  echo "- each command run $runs times; median, largest peak RSS; errata's scan s is its whole process, Hyperscan's its scan loop alone"
  echo
  python3 "$repo/bench/scan/report.py" --dir "$dir" "${ns[@]}"
} | tee "$out/scan.md"
