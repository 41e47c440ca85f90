#!/usr/bin/env bash
# The gate action's second step: runs `skillscope gate`, appends its Markdown summary to the job's
# step summary and records the exit code and the result files as step outputs. It exits 0 so the
# upload steps run; the action's last step fails the job on the recorded code.
set -uo pipefail
out="${SKILLSCOPE_OUT:-skillscope-gate}"
args=(gate "${SKILLSCOPE_TARGET:-.}" --out "$out")
if [ -n "${SKILLSCOPE_POLICY:-}" ]; then args+=(--policy "$SKILLSCOPE_POLICY"); fi
# A workspace of its own unless the job brings one (with recorded evaluations, probes, decisions).
export SKILLSCOPE_HOME="${SKILLSCOPE_HOME:-${RUNNER_TEMP:-/tmp}/skillscope-home}"
skillscope "${args[@]}"
code=$?
if [ -f "$out/gate.md" ]; then cat "$out/gate.md" >> "$GITHUB_STEP_SUMMARY"; fi
{
  echo "exit-code=$code"
  echo "sarif=$out/gate.sarif"
  echo "junit=$out/gate.junit.xml"
  echo "out=$out"
} >> "$GITHUB_OUTPUT"
exit 0
