# The real corpora of PRODUCT.md, shared by the benchmark scripts: sourced, not run.
#
# The caller sets `out` (bench/out) first. Each prepare_NAME prints the folder of its corpus,
# making it first when it has to (a tree copied or unpacked into bench/out once: built in a
# side folder, then moved in place, so a run killed halfway never leaves a partial corpus):
#
#   prepare_python      CPython's standard library without site-packages, bench/out/cpython-stdlib
#   prepare_javascript  npm with its bundled node_modules ($(npm root -g)/npm)
#   prepare_go          Go's standard library (Debian's golang-go)
#   prepare_java        the JDK 17 sources, unzipped from src.zip into bench/out/jdk-src
#   prepare_rust        the cargo registry sources
#
# It also defines log, die (prefixed with the calling script's path), apt_update and
# apt_install (root only, one `apt-get update` per run).

log() { printf '%s\n' "$*" >&2; }
die() {
  printf '%s: %s\n' "${0#"$repo/"}" "$*" >&2
  exit 2
}

apt_updated=false
apt_update() {
  $apt_updated && return
  [[ $(id -u) == 0 ]] || die "apt-get needs root: install $* first"
  log "apt-get update"
  apt-get update -qq >&2
  apt_updated=true
}
apt_install() {
  [[ $(id -u) == 0 ]] || die "$* is missing and only root can install it (apt-get install $*)"
  apt_update
  log "installing $* (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

prepare_python() {
  local dest=$out/cpython-stdlib stdlib
  if [[ ! -d $dest ]]; then
    stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
    log "copying the standard library of $(python3 --version 2>&1) from $stdlib into $dest"
    rm -rf "$dest.partial"
    mkdir -p "$dest.partial"
    tar -C "$stdlib" --exclude=./site-packages --exclude=__pycache__ -cf - . |
      tar -C "$dest.partial" -xf -
    mv "$dest.partial" "$dest"
  fi
  printf '%s\n' "$dest"
}

prepare_javascript() {
  command -v npm >/dev/null 2>&1 || die "npm is not installed (apt-get install npm)"
  local dir
  dir=$(npm root -g)/npm
  [[ -d $dir/node_modules ]] || die "no npm sources with bundled node_modules at $dir"
  printf '%s\n' "$dir"
}

prepare_go() {
  local d
  for d in /usr/lib/go/src /usr/lib/go-*/src /usr/share/go-*/src; do
    # Debian's /usr/lib/go/src is a chain of symlinks into /usr/share; the real folder is
    # given to the tools, which do not follow a symlink they meet inside the tree.
    if [[ -f $d/errors/errors.go ]]; then
      realpath "$d"
      return
    fi
  done
  apt_install golang-go
  realpath /usr/lib/go/src
}

prepare_java() {
  local dest=$out/jdk-src zip
  if [[ ! -d $dest ]]; then
    # The package's symlink can be there without the package (a dangling link): test the file.
    zip=$(compgen -G "/usr/lib/jvm/java-17-openjdk-*/lib/src.zip" | head -n1 || true)
    if [[ -z $zip || ! -f $zip ]]; then
      apt_install openjdk-17-source
      zip=$(compgen -G "/usr/lib/jvm/java-17-openjdk-*/lib/src.zip" | head -n1)
    fi
    command -v unzip >/dev/null 2>&1 || apt_install unzip
    log "unzipping $zip into $dest"
    rm -rf "$dest.partial"
    unzip -q "$zip" -d "$dest.partial" >&2
    mv "$dest.partial" "$dest"
  fi
  printf '%s\n' "$dest"
}

prepare_rust() {
  local dir=${CARGO_HOME:-$HOME/.cargo}/registry/src
  [[ -d $dir ]] || die "no cargo registry sources at $dir: fetch some crates first (cargo fetch)"
  printf '%s\n' "$dir"
}
