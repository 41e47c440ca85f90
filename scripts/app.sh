#!/usr/bin/env bash
# Installs whatever is missing, builds, makes sure a container engine answers (installing and
# starting Docker when none does) with the busybox base image built, and opens Skillscope on the
# default workspace ($SKILLSCOPE_HOME, else ~/.local/share/skillscope; the sample skills are
# imported on first start).
source "$(dirname "$0")/lib.sh"
ensure_apt "${APP_PACKAGES[@]}" busybox-static
ensure_rust
ensure_node
ensure_ui_deps
build_ui
log "building the app"
(cd "$ROOT" && cargo build --quiet -p skillscope-app -p skillscope-cli)
cli="$ROOT/target/debug/skillscope"

# The engine the app will find (the docker CLI's choice, rootless Docker, Podman); Docker when none.
group=""
if ! timeout -k 5 60 "$cli" engine >/dev/null 2>&1; then
  ensure_dockerd
  if [ "$(id -u)" != 0 ] && ! timeout -k 5 60 "$cli" engine >/dev/null 2>&1; then
    log "adding $(id -un) to the docker group (this session joins it with sg; log in again for the rest)"
    as_root usermod -aG docker "$(id -un)"
    group=docker
  fi
fi
# Runs a command with the engine's group when this session had to join it.
with_engine() { if [ -n "$group" ]; then sg "$group" -c "$(printf '%q ' "$@")"; else "$@"; fi; }
with_engine timeout -k 5 60 "$cli" engine
log "building the busybox base image (skipped when unchanged)"
with_engine timeout -k 10 600 "$cli" image bootstrap --busybox-only

log "opening Skillscope"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "No display found: starting a virtual one (Xvfb). Use a desktop session to see the window." >&2
  ensure_apt xvfb xauth
  with_engine xvfb-run -a -s "-screen 0 1280x800x24" "$ROOT/target/debug/skillscope-app"
  exit
fi
with_engine "$ROOT/target/debug/skillscope-app"
