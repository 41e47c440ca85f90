#!/usr/bin/env bash
# What generating tasks set in a repository costs, end to end through the CLI: `skillscope
# generate --kind requirements --count 3 --repo R` over `fixtures/repos/stats-lib` (put under Git
# with a file naming this run, so its environment is new), the writer the scripted model server
# (`fixtures/models/stats-requirements-writer.json`: the model's own time is near zero). The first
# run builds the environment and runs the 12 verifier checks (3 drafts x untouched and reference x
# 2); the runs after it find the image, the set and its checks stored (farm-bench, median of RUNS).
#   scripts/bench_generate.sh [RUNS]        BIN=target/debug/skillscope to time a debug build
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
in_own_keyring "$0" "$@"
runs="${1:-5}"
command -v farm-bench >/dev/null || { echo "farm-bench is needed" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
  log "bench: building the release CLI and model server"
  timeout -k 10 1800 cargo build --release --quiet -p skillscope-cli -p skillscope-modelserver
  BIN="$ROOT/target/release/skillscope"
fi
server_bin="$(dirname "$BIN")/skillscope-model-server"
home=$(mktemp -d)
port=18766
"$server_bin" --port "$port" --script fixtures/models/stats-requirements-writer.json >"$home/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$home"' EXIT
sleep 1
s() { timeout -k 10 600 "$BIN" --home "$home" "$@" >/dev/null; }
s image bootstrap
s provider add writer --api openai_chat --base-url "http://127.0.0.1:$port"
echo "sk-bench-writer" | timeout -k 10 60 "$BIN" --home "$home" credential set writer >/dev/null
s agent add writer --provider writer --model m
s import fixtures/skills/csv-insights
repo="$home/stats-lib"
cp -r fixtures/repos/stats-lib "$repo"
date +%s%N >"$repo/RUN"
git -C "$repo" init -q && git -C "$repo" add . && git -C "$repo" -c user.name=b -c user.email=b@e commit -qm bench
cmd=("$BIN" --home "$home" generate csv-insights --kind requirements --count 3 --repo "$repo" --config writer --json)
log "bench: first generation (environment built, 12 verifier checks run)"
start=$(date +%s%N)
timeout -k 10 900 "${cmd[@]}" >"$home/first.json"
wall=$(( ($(date +%s%N) - start) / 1000000 ))
python3 - "$home/first.json" "$wall" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["environment"]
print(f"first run: {sys.argv[2]} ms wall; environment {e['seconds']:.2f} s, reused {e['reused']}")
PY
log "bench: the same generation again (image, set and checks found)"
farm-bench -n "$runs" --timeout 300 -- "${cmd[@]}"
