#!/usr/bin/env bash
# Builds, once, the errata database of real corpora that bench/scan.sh draws its templates
# from, and its JSON Lines export.
#
# Usage:
#
#     bench/scan/corpus_db.sh [--force]
#
# Writes bench/out/scan/all.db, bench/out/scan/all.jsonl (one {"record": …, "datasetVersion": …}
# per line) and bench/out/scan/corpora.tsv (repo, tier, folder of each corpus), and prints the
# path of all.jsonl on stdout. When they exist nothing is done unless --force is given.
#
# Tier 1, the corpora of bench/index.sh (the same folders, so the two scripts share them):
#
#   python/cpython   CPython's standard library, bench/out/cpython-stdlib (copied there once
#                    from the running python3's stdlib, without site-packages)
#   npm/cli          npm with its bundled node_modules ($(npm root -g)/npm)
#   golang/go        Go's standard library (/usr/lib/go/src, /usr/lib/go-*/src, /usr/share/go-*/src)
#   openjdk/jdk17u   the JDK 17 sources, bench/out/jdk-src (unzipped there once from src.zip)
#
# These hold about 20,700 distinct message patterns: enough for the 10,000-template run, not
# for the 50,000 one. Tier 2 (skipped with EXTRA=0) adds real code fetched once, at pinned
# versions, with the ordinary clients of two registries this machine reaches, into
# bench/out/scan/extra/:
#
#   pypi/NAME        the wheels of PYPI_PACKAGES (`pip download --no-deps --only-binary=:all:`,
#                    for CPython 3.12 on manylinux x86_64; a wheel is a zip of the package's
#                    source, plus compiled modules that errata skips as binary)
#   debian/NAME      the Go sources of DEB_PACKAGES (`apt-get download`, unpacked with dpkg-deb;
#                    nothing is installed)
#
# Each corpus is indexed with `$ERRATA --db all.db index --all --repo OWNER/NAME DIR`, so the
# records cover everything errata reads, test files included, as a large real-world database
# would. make_log.py takes templates from tier 1 first and from tier 2 only for what tier 1
# lacks. The database is built under a temporary name and moved in place when complete, so a
# run that is killed never leaves a partial all.db behind.
#
# Environment:
#   ERRATA  the errata binary (default: target/release/errata under the repository)
#   EXTRA   0 to index tier 1 only (default: 1)
#   JOBS    index worker threads (default: errata's, one per core)
set -euo pipefail

caller_pwd=$PWD
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$repo/bench/out
dest=$out/scan
# shellcheck source=bench/corpora.sh
source "$repo/bench/corpora.sh"
extra=${EXTRA:-1}

# Tier 2, pinned. The counts are the distinct patterns of 8 or more literal bytes each adds
# to tier 1 and the packages before it, as measured when the list was made.
PYPI_PACKAGES=(
  transformers==5.23.0 # 3786
  scipy==1.18.1        # 3443
  sympy==1.14.0        # 2885
  astropy==8.0.2       # 2405
  pandas==3.1.1        # 2247
  moto==5.2.5          # 1844
  scikit-learn==1.9.1  # 1702
  django==6.1.3        # 1612
  statsmodels==0.15.0  # 1453
  ansible-core==2.21.5 # 1313
  twisted==26.10.0     # 1168
  matplotlib==3.11.2   # 1021
  xarray==2026.9.0     #  972
  sqlalchemy==2.1.9    #  941
  dask==2026.8.0       #  869
  networkx==3.7        #  772
  numpy==2.5.5         #  755
)
DEB_PACKAGES=(
  golang-github-docker-docker-dev         # 2118
  golang-github-containerd-containerd-dev # 1600
  golang-etcd-server-dev                  # 1396
  golang-golang-x-tools-dev               #  821
  golang-github-syncthing-syncthing-dev   #  691
  golang-google-grpc-dev                  #  650
)

force=false
for arg in "$@"; do
  case $arg in
    --force) force=true ;;
    -h | --help)
      sed -n '2,/^#   JOBS/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
      exit 2
      ;;
    *) die "unknown argument '$arg'" ;;
  esac
done
[[ $extra == 0 || $extra == 1 ]] || die "EXTRA must be 0 or 1, not '$extra'"

errata=${ERRATA:-$repo/target/release/errata}
if [[ $errata != */* ]]; then
  errata=$(command -v "$errata" || true)
  [[ -n $errata ]] || die "ERRATA=${ERRATA} is not on PATH"
elif [[ $errata != /* ]]; then
  errata=$caller_pwd/$errata
fi
[[ -x $errata ]] || die "no errata binary at $errata: build it first (cargo build --release --locked) or set ERRATA"

mkdir -p "$dest" "$out/logs"
if ! $force && [[ -s $dest/all.db && -s $dest/all.jsonl && -s $dest/corpora.tsv ]]; then
  printf '%s\n' "$dest/all.jsonl"
  exit 0
fi

# Tier 1 is prepared by bench/corpora.sh, as for bench/index.sh.

# ---------------------------------------------------------------------------------------------
# Tier 2: fetched once into bench/out/scan/extra/{pypi,deb} and unpacked into extra/src/

# Unpacks the wheel of each PyPI package into extra/src/pypi-NAME; prints "NAME DIR" lines.
prepare_pypi() {
  local dl=$dest/extra/pypi src=$dest/extra/src spec name whl
  mkdir -p "$dl" "$src"
  for spec in "${PYPI_PACKAGES[@]}"; do
    name=${spec%%==*}
    # A wheel's file name spells the project with underscores, in lower case.
    whl=$(compgen -G "$dl/$(tr 'A-Z-' 'a-z_' <<<"$name")-${spec#*==}-*.whl" | head -n1 || true)
    if [[ -z $whl ]]; then
      log "pip download $spec"
      python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --python-version 3.12 --implementation cp --abi cp312 --platform manylinux_2_28_x86_64 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform any \
        -d "$dl" "$spec" >&2 || die "pip download $spec failed"
      whl=$(compgen -G "$dl/$(tr 'A-Z-' 'a-z_' <<<"$name")-${spec#*==}-*.whl" | head -n1) ||
        die "pip download $spec left no wheel in $dl"
    fi
    if [[ ! -d $src/pypi-$name ]]; then
      rm -rf "$src/pypi-$name.partial"
      unzip -q "$whl" -d "$src/pypi-$name.partial" >&2
      mv "$src/pypi-$name.partial" "$src/pypi-$name"
    fi
    printf '%s %s\n' "$name" "$src/pypi-$name"
  done
}

# Unpacks each Debian package into extra/src/deb-NAME; prints "NAME DIR" lines.
prepare_deb() {
  local dl=$dest/extra/deb src=$dest/extra/src name deb
  mkdir -p "$dl" "$src"
  for name in "${DEB_PACKAGES[@]}"; do
    deb=$(compgen -G "$dl/${name}_*.deb" | head -n1 || true)
    if [[ -z $deb ]]; then
      log "apt-get download $name"
      # apt-get download writes into the current folder; _apt cannot write to bench/out, so
      # apt warns and downloads as root, which is harmless here.
      if ! (cd "$dl" && apt-get download -qq "$name" >/dev/null 2>&1); then
        apt_update
        (cd "$dl" && apt-get download -qq "$name" >/dev/null 2>&1) || die "apt-get download $name failed"
      fi
      deb=$(compgen -G "$dl/${name}_*.deb" | head -n1) || die "apt-get download $name left no .deb"
    fi
    if [[ ! -d $src/deb-$name ]]; then
      rm -rf "$src/deb-$name.partial"
      dpkg-deb -x "$deb" "$src/deb-$name.partial"
      mv "$src/deb-$name.partial" "$src/deb-$name"
    fi
    printf '%s %s\n' "$name" "$src/deb-$name"
  done
}

# ---------------------------------------------------------------------------------------------
# The index

corpora=() # "REPO TIER DIR"
corpora+=("python/cpython 1 $(prepare_python)")
corpora+=("npm/cli 1 $(prepare_javascript)")
corpora+=("golang/go 1 $(prepare_go)")
corpora+=("openjdk/jdk17u 1 $(prepare_java)")
if ((extra)); then
  command -v unzip >/dev/null 2>&1 || apt_install unzip
  while read -r name dir; do corpora+=("pypi/$name 2 $dir"); done < <(prepare_pypi)
  while read -r name dir; do corpora+=("debian/$name 2 $dir"); done < <(prepare_deb)
fi

tmp_db=$dest/all.db.partial
rm -f "$tmp_db" "$tmp_db-wal" "$tmp_db-shm" "$tmp_db-journal"
jobs_args=()
[[ -n ${JOBS:-} ]] && jobs_args=(--jobs "$JOBS")
logfile=$out/logs/scan-corpus-$(date +%Y%m%d-%H%M%S).log
: >"$dest/corpora.tsv.partial"
for c in "${corpora[@]}"; do
  read -r name tier dir <<<"$c"
  start=$(date +%s.%N)
  "$errata" --db "$tmp_db" index --all "${jobs_args[@]}" --repo "$name" "$dir" >>"$logfile" 2>&1 ||
    die "errata index failed on $dir; see $logfile"
  log "indexed $name (tier $tier) in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s: $dir"
  printf '%s\t%s\t%s\n' "$name" "$tier" "$dir" >>"$dest/corpora.tsv.partial"
done
# Fold any write-ahead log into the file before it is moved (the last connection to close does
# this anyway; this makes sure of it).
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.close()' "$tmp_db"
rm -f "$dest/all.db-wal" "$dest/all.db-shm"
mv "$tmp_db" "$dest/all.db"

log "exporting $dest/all.jsonl"
"$errata" --db "$dest/all.db" export -o "$dest/all.jsonl.partial" >>"$logfile" 2>&1 ||
  die "errata export failed; see $logfile"
mv "$dest/all.jsonl.partial" "$dest/all.jsonl"
mv "$dest/corpora.tsv.partial" "$dest/corpora.tsv"
log "$(wc -l <"$dest/all.jsonl") records in $dest/all.db"
printf '%s\n' "$dest/all.jsonl"
