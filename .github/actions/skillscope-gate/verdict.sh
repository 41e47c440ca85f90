#!/usr/bin/env bash
# The gate action's last step: fails the job when the gate did (1: the policy failed, 2: the gate
# could not run; its stderr above says why).
set -euo pipefail
case "${GATE_EXIT:?}" in
  0) echo "skillscope gate passed" ;;
  1) echo "::error title=skillscope gate::the policy failed; see the step summary and the JUnit results"; exit 1 ;;
  *) echo "::error title=skillscope gate::the gate could not run (exit $GATE_EXIT); see the gate step's output"; exit "$GATE_EXIT" ;;
esac
