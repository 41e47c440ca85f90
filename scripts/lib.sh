# Shared by app.sh and test.sh: install what is missing (and only that), start services, bound
# anything that can hang. Sourced, not run.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"

APP_PACKAGES=(libwebkit2gtk-4.1-dev libsoup-3.0-dev libjavascriptcoregtk-4.1-dev librsvg2-dev
  libayatana-appindicator3-dev build-essential pkg-config libssl-dev file git curl ca-certificates)
TEST_PACKAGES=(xvfb xauth webkit2gtk-driver docker.io busybox-static debootstrap imagemagick fonts-dejavu-core chromium
  xdotool python3-gi gir1.2-gtk-3.0 docker-registry)

log() { printf '\n== %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# ensure_apt PKG...: installs the packages that are not installed yet; no-op otherwise.
ensure_apt() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt: installing ${missing[*]}"
  as_root timeout -k 10 600 apt-get update -qq
  as_root timeout -k 10 1200 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Rust at least as new as the workspace's rust-version (Cargo.toml), installed or updated with rustup.
ensure_rust() {
  local need have
  need="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml")"
  if ! command -v cargo >/dev/null; then
    log "installing Rust with rustup"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    return 0
  fi
  have="$(rustc --version | cut -d' ' -f2)"
  [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" = "$need" ] && return 0
  command -v rustup >/dev/null || { echo "Rust $have is older than the $need this project needs, and rustup is not there to update it" >&2; return 1; }
  log "rustup: updating Rust $have to stable (at least $need is needed)"
  timeout -k 10 900 rustup update stable
}

# rustfmt and clippy, which a minimal Rust profile leaves out.
ensure_rust_tools() {
  cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1 && return 0
  log "rustup: adding rustfmt and clippy"
  timeout -k 10 600 rustup component add rustfmt clippy
}

# The standard libraries of the other desktop platforms, for the cross-platform type check.
CROSS_TARGETS=(x86_64-pc-windows-gnu x86_64-apple-darwin)
ensure_cross_targets() {
  local installed
  installed="$(rustup target list --installed)"
  for t in "${CROSS_TARGETS[@]}"; do
    grep -qx "$t" <<<"$installed" || { log "rustup: adding target $t"; timeout -k 10 600 rustup target add "$t"; }
  done
}

# cargo-fuzz, pinned, for the fuzz targets (they build on stable Rust without a sanitizer).
ensure_cargo_fuzz() {
  cargo fuzz --version 2>/dev/null | grep -q "0.13.2" && return 0
  log "installing cargo-fuzz"
  timeout -k 10 900 cargo install cargo-fuzz --version 0.13.2 --locked --quiet
}

ensure_node() {
  command -v npm >/dev/null && return 0
  ensure_apt nodejs npm
}

# Front-end dependencies, reinstalled only when the lock file changed.
ensure_ui_deps() {
  local stamp="$ROOT/ui/node_modules/.lock-stamp"
  if [ -f "$stamp" ] && cmp -s "$stamp" "$ROOT/ui/package-lock.json"; then return 0; fi
  log "npm ci (ui/)"
  (cd "$ROOT/ui" && timeout -k 10 600 npm ci --no-audit --no-fund --loglevel=error)
  cp "$ROOT/ui/package-lock.json" "$stamp"
}

build_ui() {
  log "building the front end (ui/dist)"
  (cd "$ROOT/ui" && timeout -k 10 600 npm run --silent build)
}

# Microsoft's SARIF Multitool (the official validator), pinned, from npm into target/tools.
SARIF_MULTITOOL="$ROOT/target/tools/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
ensure_sarif_multitool() {
  [ -x "$SARIF_MULTITOOL" ] && return 0
  log "npm install @microsoft/sarif-multitool (the SARIF validator)"
  mkdir -p "$ROOT/target/tools/sarif"
  timeout -k 10 600 npm install --prefix "$ROOT/target/tools/sarif" --no-audit --no-fund --loglevel=error \
    @microsoft/sarif-multitool@5.7.0
  # npm may skip the package's postinstall chmod.
  chmod u+x "$SARIF_MULTITOOL"
}

ensure_tauri_driver() {
  command -v tauri-driver >/dev/null && return 0
  log "cargo install tauri-driver"
  timeout -k 10 900 cargo install tauri-driver --version 2.1.0 --locked --quiet
}

# Starts dockerd from Debian's docker.io when no engine answers: through systemd where it runs,
# else in the background; waits up to 60 s for it.
ensure_dockerd() {
  if as_root timeout 10 docker info >/dev/null 2>&1; then return 0; fi
  ensure_apt docker.io
  if [ -d /run/systemd/system ] && as_root systemctl enable --now docker.service >/dev/null 2>&1; then
    for _ in $(seq 60); do
      as_root timeout 5 docker info >/dev/null 2>&1 && return 0
      sleep 1
    done
  fi
  log "starting dockerd"
  # A daemon killed without cleanup leaves a pid file that blocks the next start.
  if [ -f /var/run/docker.pid ] && ! as_root kill -0 "$(cat /var/run/docker.pid)" 2>/dev/null; then
    as_root rm -f /var/run/docker.pid
  fi
  (as_root setsid dockerd >/tmp/skillscope-dockerd.log 2>&1 &)
  for _ in $(seq 60); do
    as_root timeout 5 docker info >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "dockerd did not come up within 60 s; see /tmp/skillscope-dockerd.log" >&2
  tail -5 /tmp/skillscope-dockerd.log >&2 || true
  return 1
}

# Re-runs the calling script ("$0" "$@") in a session keyring of its own, so the CLI's kernel-keyring
# store (SKILLSCOPE_KEYRING=keyutils) is shared by its processes and gone with it; call it first.
in_own_keyring() {
  if [ -z "${SKILLSCOPE_OWN_KEYRING:-}" ]; then
    ensure_apt keyutils
    SKILLSCOPE_OWN_KEYRING=1 exec keyctl session - "$@"
  fi
  export SKILLSCOPE_KEYRING=keyutils
}
