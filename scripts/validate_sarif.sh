#!/usr/bin/env bash
# Validates SARIF files with Microsoft's SARIF Multitool, the SARIF and GitHub code-scanning rule
# sets; fails when any file draws an error or a warning. The tool itself exits 0 on findings, so
# its own output log is counted.
source "$(dirname "$0")/lib.sh"
ensure_sarif_multitool
# The tool is a self-contained .NET program; invariant globalisation spares it libicu.
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
status=0
for file in "$@"; do
  out="$(mktemp --suffix=.sarif)"
  timeout -k 10 300 "$SARIF_MULTITOOL" validate "$file" -o "$out" --log ForceOverwrite \
    --level "Error;Warning" --rule-kind "Sarif;Gh" --quiet
  if ! python3 - "$file" "$out" <<'PY'; then status=1; fi
import json, sys
results = json.load(open(sys.argv[2]))["runs"][0].get("results") or []
for r in results:
    print(f"{sys.argv[1]}: {r.get('level')} {r['ruleId']}: {r['message'].get('arguments')}", file=sys.stderr)
print(f"{sys.argv[1]}: {len(results)} error(s) or warning(s)")
sys.exit(1 if results else 0)
PY
  rm -f "$out"
done
exit $status
