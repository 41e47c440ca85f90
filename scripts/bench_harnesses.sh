#!/usr/bin/env bash
# What one paired evaluation costs per harness, end to end through the CLI: `skillscope eval` of a
# sample skill on one Harbor-format copy task (built on the Debian image), one pair = two trials,
# for the built-in agent, Claude Code, Codex, OpenCode and Gemini CLI, each against the scripted model server
# (the model's own time is near zero: the figures are Skillscope's and the harness's).
# Uses farm-bench (median of RUNS runs after a warm-up).
#   scripts/bench_harnesses.sh [RUNS]
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
in_own_keyring "$0" "$@"
runs="${1:-3}"
command -v farm-bench >/dev/null || { echo "farm-bench is needed" >&2; exit 1; }
log "bench: building the release CLI and model server"
timeout -k 10 1800 cargo build --release --quiet -p skillscope-cli -p skillscope-modelserver
bin="$ROOT/target/release/skillscope"
# Shared installs when the caller names them.
export SKILLSCOPE_HARNESS_DIR="${SKILLSCOPE_HARNESS_DIR:-$ROOT/target/harnesses}"
home=$(mktemp -d)
task="$ROOT/target/bench/harness-task/copy-answer"
rm -rf "$task" && mkdir -p "$(dirname "$task")"
cp -r fixtures/tasks/harbor-local/copy-answer "$task"
sed -i 's|^FROM .*|FROM skillscope/debian-python:12|' "$task/environment/Dockerfile"
# The fixture's 256 MB holds busybox tools, not OpenCode (Bun); every harness gets the same 1 GB.
sed -i 's|^memory_mb = .*|memory_mb = 1024|' "$task/task.toml"

script="$home/script.json"
echo '{"default": [{"tool": "bash", "args": {"command": "cat task.txt > answer.txt"}}, {"text": "done"}]}' >"$script"
port=18765
"$ROOT/target/release/skillscope-model-server" --port "$port" --script "$script" >"$home/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; [ -n "${KEEP_HOME:-}" ] || rm -rf "$home"' EXIT
sleep 1
url="http://127.0.0.1:$port"
s() { timeout -k 10 600 "$bin" --home "$home" "$@" >/dev/null; }
s image bootstrap
for api in openai_chat openai_responses anthropic gemini; do
  s provider add "$api" --api "$api" --base-url "$url"
  echo "sk-bench-$api" | timeout -k 10 60 "$bin" --home "$home" credential set "$api" >/dev/null
done
s agent add builtin --provider openai_chat --model m
for h in claude-code:anthropic codex:openai_responses opencode:openai_chat gemini:gemini; do
  s harness install "${h%%:*}"
  s agent add "${h%%:*}" --provider "${h#*:}" --model m --harness "${h%%:*}"
done
s import fixtures/skills/csv-insights
for config in builtin claude-code codex opencode gemini; do
  log "bench: skillscope eval, one pair, $config"
  # Once first, checked: a pair that did not score would time nothing worth timing.
  "$bin" --home "$home" eval --skill csv-insights --tasks "$task" --config "$config" --json | grep -q '"pairs_scored": 1' \
    || { echo "the $config pair did not score (see: $bin --home $home queue status)" >&2; exit 1; }
  farm-bench -n "$runs" --timeout 900 -- "$bin" --home "$home" eval --skill csv-insights --tasks "$task" --config "$config" --json
done
