#!/usr/bin/env bash
# Runs every test: format, lint and module-circle gates, Rust unit and integration tests, SARIF
# through Microsoft's validator, 30 s of fuzzing per input parser, a type check of the keyring and engine crates for Windows and macOS,
# the TypeScript checks and unit tests, the
# check that generated front-end types match the Rust types, the end-to-end test of the real
# app window under Xvfb, and the .deb package built, installed with dpkg and started. Installs and
# starts what the tests need first.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
# A clean build gains nothing from incremental caches, which would double the target folder
# (a CI machine once ran out of disk in the first build).
export CARGO_INCREMENTAL=0
had_registry=$(dpkg-query -W -f='${Status}' docker-registry 2>/dev/null | grep -c "ok installed" || true)
ensure_apt "${APP_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
# Installing Debian's docker-registry starts a registry on port 5000 where systemd runs; the tests
# start their own on loopback, so a service this script brought is stopped and disabled.
if [ "$had_registry" = 0 ] && [ -d /run/systemd/system ]; then
  as_root systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi
ensure_rust
ensure_rust_tools
ensure_node
ensure_dockerd || echo "warning: no Docker engine; tests that need one will fail" >&2
ensure_ui_deps
build_ui

log "gates: Rust format, module circles, UI lint and format"
timeout -k 10 300 cargo fmt --all --check
python3 scripts/module_cycles.py
(cd ui && timeout -k 10 300 npm run --silent lint)

log "cargo build and clippy"
timeout -k 10 2400 cargo build --workspace --all-targets --quiet
timeout -k 10 1800 cargo clippy --workspace --all-targets --quiet -- -D warnings

log "cross-platform: the keyring and engine crates type-check for Windows and macOS"
ensure_cross_targets
RUSTFLAGS="-D warnings" timeout -k 10 1200 cargo check --quiet -p skillscope-credentials -p skillscope-sandbox \
  $(printf -- '--target %s ' "${CROSS_TARGETS[@]}")

log "Claude Code, Codex, OpenCode and Gemini CLI for the harness tests (npm, once)"
# One install shared by every test workspace, kept with the build outputs.
export SKILLSCOPE_HARNESS_DIR="$ROOT/target/harnesses"
for h in claude-code codex opencode gemini; do
  timeout -k 10 600 target/debug/skillscope harness install "$h"
done

log "cargo test (unit and integration)"
# The tests write the generated TypeScript (types and the command list) to a scratch folder, so
# the committed ui/src/bindings stays as committed and the drift check below can fail.
fresh="$(mktemp -d)"
TS_RS_EXPORT_DIR="$fresh" timeout -k 10 1200 cargo test --workspace --exclude e2e --quiet

log "committed ui/src/bindings match the Rust types and command list"
if ! diff -r ui/src/bindings "$fresh"; then
  echo "ui/src/bindings is stale: run 'cargo test --workspace --exclude e2e export_bindings' and commit ui/src/bindings" >&2
  exit 1
fi

log "SARIF: the official validator on a scan of the fixtures and on a gate's output; a broken file must fail"
sarif="$(mktemp -d)"
target/debug/skillscope --home "$sarif/ws" scan fixtures/scan --format sarif > "$sarif/scan.sarif"
# The gate fails on the risky fixtures (exit 1) and still writes its SARIF.
target/debug/skillscope --home "$sarif/ws" gate fixtures/scan --out "$sarif/gate" > /dev/null 2>&1 || [ $? -eq 1 ]
# The same scan with its first result's location removed: proof the validator step can fail.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["runs"][0]["results"][0]["locations"]=[]; json.dump(d,open(sys.argv[2],"w"))' \
  "$sarif/scan.sarif" "$sarif/broken.sarif"
scripts/validate_sarif.sh "$sarif/scan.sarif" "$sarif/gate/gate.sarif"
if scripts/validate_sarif.sh "$sarif/broken.sarif" 2>/dev/null; then
  echo "the SARIF validator passed a file without locations" >&2
  exit 1
fi

log "fuzz: every input parser for 30 s from its seeds"
timeout -k 10 2400 scripts/fuzz.sh 30

log "front end: typecheck and unit tests"
(cd ui && timeout -k 10 300 npm run --silent typecheck && timeout -k 10 300 npm test --silent)

log "end-to-end: the real app under Xvfb through tauri-driver"
ensure_tauri_driver
timeout -k 10 300 target/debug/skillscope image bootstrap --busybox-only
mkdir -p .artifacts
status=0
timeout -k 15 900 xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test -p e2e --quiet -- --nocapture --test-threads=1 || status=$?
# A killed run can orphan drivers or app windows; never leave them behind.
stop_app() { for p in tauri-driver WebKitWebDriver skillscope-app; do pkill -KILL -x "$p" 2>/dev/null || true; done; }
stop_app
[ $status -eq 0 ] || exit $status

log "package: the .deb built (debug profile: it reuses the test build), installed and started"
timeout -k 10 1200 scripts/package.sh --debug --bundles deb
deb=(target/debug/bundle/deb/*.deb)
as_root timeout -k 10 300 dpkg -i "${deb[@]}"
dpkg-query -W -f='${Package} ${Version} ${Status}\n' skillscope
APP_BIN=/usr/bin/skillscope-app timeout -k 15 300 xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test -p e2e --quiet -- --nocapture --test-threads=1 a_newcomer_explores_the_demo_on_first_start || status=$?
stop_app
exit $status
