#!/usr/bin/env bash
# Installs whatever is missing, builds, and opens Skillscope on the default workspace
# ($SKILLSCOPE_HOME, else ~/.local/share/skillscope; the sample skills are imported on first start).
source "$(dirname "$0")/lib.sh"
ensure_apt "${APP_PACKAGES[@]}"
ensure_rust
ensure_node
ensure_ui_deps
build_ui
log "building the app"
(cd "$ROOT" && cargo build --quiet -p skillscope-app -p skillscope-cli)
log "opening Skillscope"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "No display found: starting a virtual one (Xvfb). Use a desktop session to see the window." >&2
  ensure_apt xvfb xauth
  exec xvfb-run -a -s "-screen 0 1280x800x24" "$ROOT/target/debug/skillscope-app"
fi
exec "$ROOT/target/debug/skillscope-app"
