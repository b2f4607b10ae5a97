#!/usr/bin/env bash
# Load test of `errata serve`: wrk on loopback against POST /api/v1/match.
#
# Usage:
#
#     bench/serve.sh DB [SECONDS]
#
# Starts `errata --db DB serve` on a free loopback port, runs wrk (2 threads, 32 connections,
# SECONDS, default 15) with bench/serve/match.lua, which cycles through the texts of
# bench/serve/texts.txt (messages with and without log surroundings, Python, Go, Java and Rust
# stack traces, a JSON log line, an ordinary line that matches nothing), then stops the server
# with SIGTERM. Prints wrk's figures (requests/s, latency percentiles, errors, non-2xx answers)
# and the server's peak RSS (VmHWM) with, at the end, how much of its RSS is its own memory
# (RssAnon) and how much the store's mapped pages (RssFile). The server and wrk share the
# machine's 2 cores.
#
# Environment: ERRATA (default target/release/errata), PORT (default 18080).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
db=${1:?usage: bench/serve.sh DB [SECONDS]}
secs=${2:-15}
errata=${ERRATA:-$repo/target/release/errata}
port=${PORT:-18080}
command -v wrk >/dev/null || { echo "bench/serve.sh: wrk is missing (apt-get install wrk)" >&2; exit 2; }

# Starts a server (the command after LOG), its stderr to LOG, and waits until it says it is
# serving; sets pid and a trap that stops it.
start() {
  local log=$1
  shift
  "$@" 2>"$log" &
  pid=$!
  trap 'kill -TERM $pid 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    grep -q "serving" "$log" 2>/dev/null && break
    sleep 0.1
  done
}

start "$repo/bench/out/serve.log" "$errata" --db "$db" serve --addr "127.0.0.1:$port"
head -1 "$repo/bench/out/serve.log"
echo "errata: $("$errata" --version); wrk: $(wrk -v 2>&1 | head -1)"
cd "$repo"
wrk -t2 -c32 -d"${secs}s" --latency -s bench/serve/match.lua "http://127.0.0.1:$port/api/v1/match" | tee "$repo/bench/out/serve-errata.txt"
echo "server peak RSS: $(grep VmHWM /proc/$pid/status | awk '{print $2/1024 " MiB"}')"
# Of the RSS at the end: the server's own memory, and pages of the store it maps (the page
# cache's, shared and given back under memory pressure).
echo "server RSS now: $(awk '/RssAnon|RssFile/ {printf "%s %.0f MiB  ", $1, $2/1024}' /proc/$pid/status)"
# The average size of errata's answers to the texts, for the fixed body.
bytes=$(python3 - "$port" "${TEXTS:-bench/serve/texts.txt}" <<'PY'
import sys, urllib.request
port, path = sys.argv[1], sys.argv[2]
sizes = []
for line in open(path, encoding="utf-8"):
    body = line.rstrip("\n").replace("\\n", "\n").encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/match", data=body, method="POST")
    with urllib.request.urlopen(req) as r:
        sizes.append(len(r.read()))
print(sum(sizes) // len(sizes))
PY
)
kill -TERM $pid
wait $pid
trap - EXIT
[ "${FIXED:-1}" = 0 ] && exit 0

echo
echo "the HTTP stack alone: a fixed body of $bytes bytes (errata's average answer)"
cargo build --release --locked --quiet --example fixed_body -p errata-api
start "$repo/bench/out/serve-fixed.log" "$repo/target/release/examples/fixed_body" "127.0.0.1:$port" "$bytes"
wrk -t2 -c32 -d"${secs}s" --latency -s bench/serve/match.lua "http://127.0.0.1:$port/api/v1/match" | tee "$repo/bench/out/serve-fixed.txt"
kill -TERM $pid
wait $pid
trap - EXIT
errata_rate=$(awk '/Requests\/sec/ {print $2}' "$repo/bench/out/serve-errata.txt")
fixed_rate=$(awk '/Requests\/sec/ {print $2}' "$repo/bench/out/serve-fixed.txt")
echo "errata / fixed body: $(python3 -c "print(f'{$errata_rate / $fixed_rate:.2f}')") ($errata_rate / $fixed_rate requests/s)"
