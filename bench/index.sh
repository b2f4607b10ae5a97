#!/usr/bin/env bash
# Times `errata index` against ast-grep on real source trees, whole commands side by side in one
# run (the way ripgrep's benchsuite compares tools), and prints a Markdown table.
#
# Usage:
#
#     bench/index.sh [CORPUS...]
#
# CORPUS is any of python, javascript, go, java, rust (default: all five, in that order):
#
#   python      CPython's standard library (the running python3's, without site-packages),
#               copied once into bench/out/cpython-stdlib so the tree does not change as
#               packages are installed
#   javascript  npm with its bundled node_modules ($(npm root -g)/npm)
#   go          Go's standard library (/usr/lib/go/src, or /usr/lib/go-*/src)
#   java        the JDK 17 sources, unzipped once from src.zip into bench/out/jdk-src
#   rust        the cargo registry sources (~/.cargo/registry/src)
#
# For each corpus two commands are timed, each RUNS times (default 3):
#
#   errata    $ERRATA index --all --db FRESH_DB DIR     (ERRATA defaults to target/release/errata)
#   ast-grep  ast-grep run --pattern P --lang L --no-ignore ... DIR --json=stream > /dev/null
#
# `--all` makes errata skip only binary and unreadable files, and the --no-ignore flags turn off
# ast-grep's .gitignore, .ignore and hidden-file filters, so both read the same files. The
# patterns are the nearest ast-grep has to "an error site" in each language: `raise $E($$$)`,
# `throw new $E($$$)`, `errors.New($$$)`, `throw new $E($$$)` and `panic!($$$)`. For Go the
# pattern is written in a function-body context with `--selector call_expression`, because a
# bare `errors.New($$$)` parses as a type conversion and matches nothing.
#
# Each command runs under `/usr/bin/time -f '%e %M'`; the table keeps the median wall time and
# the largest peak RSS. Before the timed runs one untimed ast-grep run warms the page cache and
# counts its matches, as a check that the pattern works. MB is the size of the corpus's files
# of that language (10^6 bytes); MB/s divides it by the median wall time; the ratio is errata's
# wall time over ast-grep's (below 1: errata is faster).
#
# Environment:
#   ERRATA     the errata binary (default: target/release/errata under the repository)
#   AST_GREP   the ast-grep binary (default: found on PATH or in python3's scripts folder;
#              installed with `pip install ast-grep-cli` when missing)
#   RUNS       timed runs per command (default: 3)
#
# The table goes to stdout and to bench/out/index.md; progress and command logs go to stderr
# and bench/out/logs/. Everything the script writes stays under bench/out/.
#
# The ast-grep patterns below are in single quotes on purpose: $E and $$$ are ast-grep's.
# shellcheck disable=SC2016
set -euo pipefail

caller_pwd=$PWD
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$repo/bench/out
runs=${RUNS:-3}
# shellcheck source=bench/corpora.sh
source "$repo/bench/corpora.sh"

usage() {
  sed -n '2,/^# and bench\/out\/logs/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# Which corpora

all_corpora=(python javascript go java rust)
corpora=()
for arg in "$@"; do
  case $arg in
    -h | --help) usage ;;
    python | py) corpora+=(python) ;;
    javascript | js | npm) corpora+=(javascript) ;;
    go) corpora+=(go) ;;
    java | jdk) corpora+=(java) ;;
    rust | rs | cargo) corpora+=(rust) ;;
    *) die "unknown corpus '$arg': choose from ${all_corpora[*]}" ;;
  esac
done
((${#corpora[@]})) || corpora=("${all_corpora[@]}")
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive whole number, not '$runs'"

# ---------------------------------------------------------------------------------------------
# The tools

# errata: a path is taken relative to the folder the script was started from; a bare name is
# looked up on PATH.
errata=${ERRATA:-$repo/target/release/errata}
if [[ $errata != */* ]]; then
  errata=$(command -v "$errata" || true)
  [[ -n $errata ]] || die "ERRATA=${ERRATA} is not on PATH"
elif [[ $errata != /* ]]; then
  errata=$caller_pwd/$errata
fi
if [[ ! -f $errata || ! -x $errata ]]; then
  die "no errata binary at $errata: build it first (cargo build --release --locked) or set ERRATA to one"
fi

# /usr/bin/time (Debian's `time` package), for the wall time and peak RSS of each command.
[[ -x /usr/bin/time ]] || apt_install time

# ast-grep: the real binary, not a version manager's shim (pyenv's adds tens of milliseconds
# to every run). `sg` is not looked for: on Debian that name is shadow's `sg` (newgrp).
is_ast_grep() { [[ -x $1 && ! -d $1 ]] && "$1" --version 2>/dev/null | grep -q '^ast-grep '; }
find_ast_grep() {
  local c candidates=()
  [[ -n ${AST_GREP:-} ]] && candidates+=("$AST_GREP")
  if command -v python3 >/dev/null 2>&1; then
    candidates+=("$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)/ast-grep")
    candidates+=("$(python3 -m site --user-base 2>/dev/null)/bin/ast-grep")
  fi
  command -v pyenv >/dev/null 2>&1 && candidates+=("$(pyenv which ast-grep 2>/dev/null || true)")
  candidates+=("$(command -v ast-grep || true)")
  for c in "${candidates[@]}"; do
    if [[ -n $c ]] && is_ast_grep "$c"; then
      printf '%s\n' "$c"
      return 0
    fi
  done
  return 1
}
if [[ -n ${AST_GREP:-} ]] && ! is_ast_grep "$AST_GREP"; then
  die "AST_GREP=$AST_GREP is not an ast-grep binary"
fi
if ! ast_grep=$(find_ast_grep); then
  log "installing ast-grep (pip install ast-grep-cli)"
  python3 -m pip install --quiet --disable-pip-version-check ast-grep-cli >&2 ||
    die "pip install ast-grep-cli failed"
  ast_grep=$(find_ast_grep) || die "ast-grep was installed but cannot be found"
fi

# The ignore filters this ast-grep can turn off: every value of --no-ignore its help lists.
no_ignore=()
ag_help=$("$ast_grep" run --help)
for kind in hidden dot exclude global parent vcs; do
  if grep -Eq "^[[:space:]]+- ${kind}:" <<<"$ag_help"; then
    no_ignore+=(--no-ignore "$kind")
  fi
done
((${#no_ignore[@]})) || log "warning: this ast-grep has no --no-ignore; it may read fewer files than errata"

# ---------------------------------------------------------------------------------------------
# The corpora: where each is, ast-grep's language and pattern, and the file extensions (errata's)

mkdir -p "$out/logs" "$out/tmp"

# Each corpus's folder comes from prepare_NAME (bench/corpora.sh).
# ast-grep's --lang, pattern and any further flags, per corpus.
ag_lang() {
  case $1 in
    python) echo python ;; javascript) echo javascript ;; go) echo go ;;
    java) echo java ;; rust) echo rust ;;
  esac
}
ag_args() {
  case $1 in
    python) printf '%s\n' --pattern 'raise $E($$$)' ;;
    javascript) printf '%s\n' --pattern 'throw new $E($$$)' ;;
    go) printf '%s\n' --pattern 'func t() { errors.New($$$) }' --selector call_expression ;;
    java) printf '%s\n' --pattern 'throw new $E($$$)' ;;
    rust) printf '%s\n' --pattern 'panic!($$$)' ;;
  esac
}
# The pattern as shown in the table's notes.
ag_shown() {
  case $1 in
    python) echo 'raise $E($$$)' ;;
    javascript | java) echo 'throw new $E($$$)' ;;
    go) echo 'errors.New($$$) (context: func t() { … }, selector: call_expression)' ;;
    rust) echo 'panic!($$$)' ;;
  esac
}

# The extensions errata reads as each language (crates/lang), and all of them together.
exts_of() {
  case $1 in
    python) echo py pyi ;; javascript) echo js jsx mjs cjs ;; go) echo go ;;
    java) echo java ;; rust) echo rs ;;
    any) echo ts tsx mts cts js jsx mjs cjs py pyi go rs java ;;
  esac
}

# "FILES BYTES" of the regular files under $1 with one of the extensions $2..., without
# following symlinks (as neither tool does).
measure() {
  local dir=$1 e
  shift
  local expr=()
  for e in "$@"; do
    ((${#expr[@]})) && expr+=(-o)
    expr+=(-iname "*.$e")
  done
  find "$dir" -type f \( "${expr[@]}" \) -printf '%s\n' |
    awk '{ n++; b += $1 } END { printf "%d %d\n", n, b }'
}

# ---------------------------------------------------------------------------------------------
# Timing

# Runs a command under /usr/bin/time; prints "WALL_SECONDS PEAK_KIB". Its stdout goes to the
# file $1 (appended to), its stderr to the log file $2. Exit status 1 counts as success: both
# tools use it for "nothing found".
timed() {
  local stdout=$1 logfile=$2 tf rc=0
  shift 2
  tf=$(mktemp "$out/tmp/time.XXXXXX")
  /usr/bin/time -f '%e %M' -o "$tf" "$@" >>"$stdout" 2>>"$logfile" || rc=$?
  if ((rc > 1)); then
    log "command failed (exit $rc): $*"
    log "last lines of $logfile:"
    tail -n 20 "$logfile" >&2
    rm -f "$tf"
    return 1
  fi
  # time(1) prints "Command exited with non-zero status N" first when the command fails.
  tail -n 1 "$tf"
  rm -f "$tf"
}

# Reads "WALL KIB" lines; prints "MEDIAN_WALL MAX_KIB".
summarise() {
  sort -n -k1,1 | awk '{ w[NR] = $1; if ($2 > m) m = $2 } END { printf "%s %d\n", w[int((NR + 1) / 2)], m }'
}

run_errata() {
  local dir=$1 logfile=$2 db
  db=$(mktemp -u "$out/tmp/errata.XXXXXX.db")
  timed "$logfile" "$logfile" "$errata" index --all --db "$db" "$dir" || {
    rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
    return 1
  }
  rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
}

run_ast_grep() {
  local corpus=$1 dir=$2 logfile=$3 args
  mapfile -t args < <(ag_args "$corpus")
  # The matches are written, as JSON, to /dev/null; only stderr goes to the log.
  timed /dev/null "$logfile" "$ast_grep" run "${args[@]}" --lang "$(ag_lang "$corpus")" \
    "${no_ignore[@]}" "$dir" --json=stream
}

# ---------------------------------------------------------------------------------------------
# The run

errata_version=$("$errata" --version 2>/dev/null | head -n1 || true)
[[ -n $errata_version ]] || errata_version="unknown ($errata printed no version)"
ag_version=$("$ast_grep" --version | head -n1)
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)
[[ -n $cpu ]] || cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n1)

rows=()
notes=()
for corpus in "${corpora[@]}"; do
  dir=$("prepare_$corpus")
  read -ra lang_exts <<<"$(exts_of "$corpus")"
  read -ra all_exts <<<"$(exts_of any)"
  read -r files bytes <<<"$(measure "$dir" "${lang_exts[@]}")"
  read -r _ any_bytes <<<"$(measure "$dir" "${all_exts[@]}")"
  log "== $corpus: $dir ($files files, $bytes bytes)"
  stamp=$(date +%Y%m%d-%H%M%S)

  # Warm-up: one untimed ast-grep run reads the files into the page cache for both tools, and
  # its match count shows the pattern works.
  matches_file=$out/tmp/ast-grep-$corpus.jsonl
  mapfile -t args < <(ag_args "$corpus")
  "$ast_grep" run "${args[@]}" --lang "$(ag_lang "$corpus")" "${no_ignore[@]}" "$dir" \
    --json=stream >"$matches_file" 2>>"$out/logs/$corpus-warmup-$stamp.log" || true
  matches=$(wc -l <"$matches_file")
  rm -f "$matches_file"
  log "   warm-up: ast-grep found $matches matches"

  e_runs=() a_runs=() failed=""
  for ((i = 1; i <= runs; i++)); do
    if r=$(run_errata "$dir" "$out/logs/$corpus-errata-$stamp.log"); then
      e_runs+=("$r")
      log "   errata   run $i: $r (s KiB)"
    else
      failed+=" errata"
      break
    fi
  done
  for ((i = 1; i <= runs; i++)); do
    if r=$(run_ast_grep "$corpus" "$dir" "$out/logs/$corpus-ast-grep-$stamp.log"); then
      a_runs+=("$r")
      log "   ast-grep run $i: $r (s KiB)"
    else
      failed+=" ast-grep"
      break
    fi
  done

  row=$(
    {
      if [[ $failed == *errata* ]]; then echo "E failed"; else printf '%s\n' "${e_runs[@]}" | summarise | sed 's/^/E /'; fi
      if [[ $failed == *ast-grep* ]]; then echo "A failed"; else printf '%s\n' "${a_runs[@]}" | summarise | sed 's/^/A /'; fi
    } | awk -v corpus="$corpus" -v files="$files" -v bytes="$bytes" '
      $1 == "E" { ew = $2; ek = $3 }
      $1 == "A" { aw = $2; ak = $3 }
      function rate(w) { return (w == "failed") ? "failed" : (w > 0 ? sprintf("%.1f", mb / w) : "n/a") }
      function mib(k) { return (k == "") ? "failed" : sprintf("%.0f", k / 1024) }
      function secs(w) { return (w == "failed") ? "failed" : sprintf("%.2f", w) }
      END {
        mb = bytes / 1e6
        ratio = (ew == "failed" || aw == "failed") ? "failed" : (aw > 0 ? sprintf("%.2f", ew / aw) : "n/a")
        printf "| %s | %d | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", corpus, files, mb,
          secs(ew), rate(ew), mib(ek), secs(aw), rate(aw), mib(ak), ratio
      }'
  )
  rows+=("$row")
  notes+=("- $corpus: \`$dir\`; ast-grep pattern \`$(ag_shown "$corpus")\` matched $matches times")
  if ((any_bytes > bytes)); then
    notes+=("  (errata also reads $(awk -v b=$((any_bytes - bytes)) 'BEGIN { printf "%.1f", b / 1e6 }') MB of other languages' files here)")
  fi
done

{
  echo "# errata index vs ast-grep"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(nproc) cores, $cpu, Linux $(uname -r)"
  echo "- errata: $errata_version (\`$errata index --all --db FRESH_DB DIR\`)"
  echo "- ast-grep: $ag_version (\`ast-grep run --pattern P --lang L ${no_ignore[*]} DIR --json=stream > /dev/null\`)"
  echo "- each command run $runs times after one untimed warm-up; median wall time, largest peak RSS"
  echo
  echo "| corpus | files | MB | errata s | errata MB/s | errata peak MiB | ast-grep s | ast-grep MB/s | ast-grep peak MiB | errata/ast-grep |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf '%s\n' "${rows[@]}"
  echo
  printf '%s\n' "${notes[@]}"
} | tee "$out/index.md"
