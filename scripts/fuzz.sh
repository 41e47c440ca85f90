#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/) and runs each for SECONDS (default 30) from its committed seeds
# (fuzz/seeds/<target>). New inputs libFuzzer finds go to a scratch corpus under target/fuzz, not
# into the repository. A crash stops the run with the target's name; libFuzzer writes the input to
# fuzz/artifacts/<target>/ (keep it as a regression test, see docs/fuzzing.md).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_rust
ensure_cargo_fuzz
seconds="${1:-30}"
shift || true
export CARGO_TARGET_DIR="$ROOT/target/fuzz"
cd fuzz
log "fuzz: building the targets"
timeout -k 10 1800 cargo fuzz build -s none
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
for t in "${targets[@]}"; do
  log "fuzz: $t for ${seconds} s"
  scratch="$CARGO_TARGET_DIR/corpus/$t"
  mkdir -p "$scratch" "seeds/$t"
  out="$CARGO_TARGET_DIR/fuzz-$t.log"
  if ! timeout -k 10 $((seconds + 120)) cargo fuzz run -s none "$t" "$scratch" "seeds/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 >"$out" 2>&1; then
    tail -40 "$out" >&2
    echo "fuzz target $t failed: the input is in fuzz/artifacts/$t" >&2
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|new_units_added)" "$out"
done
