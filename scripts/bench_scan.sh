#!/usr/bin/env bash
# `skillscope scan` end to end on a folder of real skills: the corpus's benign skills copied
# COPIES times (default 40: 480 skills) under target/bench, scanned by the release CLI in a
# scratch workspace. Uses farm-bench when present (median of 5 runs), else bash's `time`.
#   scripts/bench_scan.sh [COPIES]
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
copies="${1:-40}"
corpus="${SKILLSCOPE_CORPUS:-$ROOT/../shared/corpus}/skills-benign"
[ -d "$corpus" ] || { echo "no corpus at $corpus (set SKILLSCOPE_CORPUS)" >&2; exit 1; }
dir="$ROOT/target/bench/scan-$copies"
if [ ! -d "$dir" ]; then
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  for i in $(seq 1 "$copies"); do
    for s in "$corpus"/*/; do cp -r "$s" "$dir.tmp/$(basename "$s")-$i"; done
  done
  mv "$dir.tmp" "$dir"
fi
n=$(find "$dir" -name SKILL.md | wc -l)
log "bench: building the release CLI"
timeout -k 10 1800 cargo build --release --quiet -p skillscope-cli
bin="$ROOT/target/release/skillscope"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
log "bench: skillscope scan on $n skills ($(du -sh "$dir" | cut -f1))"
if command -v farm-bench >/dev/null; then
  farm-bench -n 5 --timeout 300 -- "$bin" --home "$home" scan "$dir" --format json
else
  for _ in 1 2 3 4 5; do
    ( time "$bin" --home "$home" scan "$dir" --format json >/dev/null ) 2>&1 | grep real
  done
fi
