#!/usr/bin/env bash
# The gate action's first step: downloads the skillscope CLI release tarball, checks its SHA-256
# when one is given, and puts the binary on the job's PATH.
set -euo pipefail
: "${SKILLSCOPE_URL:?the release tarball URL}"
dir="${RUNNER_TEMP:-/tmp}/skillscope-bin"
mkdir -p "$dir"
curl --fail --silent --show-error --location --retry 3 --max-time 300 -o "$dir/skillscope.tar.gz" "$SKILLSCOPE_URL"
if [ -n "${SKILLSCOPE_SHA256:-}" ]; then
  echo "$SKILLSCOPE_SHA256  $dir/skillscope.tar.gz" | sha256sum --check --quiet
fi
tar -xzf "$dir/skillscope.tar.gz" -C "$dir"
"$dir/skillscope" --version
echo "$dir" >> "$GITHUB_PATH"
