#!/usr/bin/env bash
# Builds the Linux packages with Tauri's bundler: target/release/bundle/deb/*.deb and
# target/release/bundle/appimage/*.AppImage (target/debug/... with --debug).
#   scripts/package.sh [--debug] [--bundles deb|appimage|deb,appimage]
# The bundler expects tauri.conf.json next to the app's Cargo.toml, while this project keeps it at
# the workspace root (where build.rs and generate_context! read it). So a copy with its paths made
# relative to src-tauri/ is written there for the bundler's run and removed afterwards; the root
# file stays the only one anybody edits. The AppImage step downloads linuxdeploy from GitHub; where
# GitHub cannot be reached it fails and says so, and the .deb is still built.
source "$(dirname "$0")/lib.sh"
profile=release
bundles=deb,appimage
while [ $# -gt 0 ]; do
  case "$1" in
    --debug) profile=debug ;;
    --bundles) bundles="$2"; shift ;;
    *) echo "usage: scripts/package.sh [--debug] [--bundles deb|appimage|deb,appimage]" >&2; exit 2 ;;
  esac
  shift
done
ensure_apt "${APP_PACKAGES[@]}"
ensure_rust
ensure_node
ensure_ui_deps
build_ui

conf="$ROOT/src-tauri/tauri.conf.json"
trap 'rm -f "$conf"' EXIT
node -e '
  const fs = require("fs");
  const [from, to] = process.argv.slice(1);
  const c = JSON.parse(fs.readFileSync(from, "utf8"));
  const up = (p) => "../" + p;
  c.build.frontendDist = up(c.build.frontendDist);
  c.bundle.icon = c.bundle.icon.map(up);
  fs.writeFileSync(to, JSON.stringify(c, null, 2));
' "$ROOT/tauri.conf.json" "$conf"

flags=(--bundles "$bundles" --ci)
[ "$profile" = debug ] && flags+=(--debug)
log "tauri build ${flags[*]}"
status=0
(cd "$ROOT/ui" && TAURI_APP_PATH="$ROOT/src-tauri" TAURI_FRONTEND_PATH="$ROOT/ui" \
  timeout -k 10 3600 npx tauri build "${flags[@]}") || status=$?
ls -1 "$ROOT/target/$profile/bundle"/*/ 2>/dev/null || true
exit $status
