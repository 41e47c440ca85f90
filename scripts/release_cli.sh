#!/usr/bin/env bash
# Packs the `skillscope` CLI for Linux x86_64 as the release tarball the GitHub Actions gate
# installs: target/<profile>/skillscope-<version>-x86_64-linux-gnu.tar.gz (the binary alone) and
# its .sha256. Prints the tarball's path.
#   scripts/release_cli.sh [--debug]
source "$(dirname "$0")/lib.sh"
profile=release
case "${1:-}" in
  --debug) profile=debug ;;
  "") ;;
  *) echo "usage: scripts/release_cli.sh [--debug]" >&2; exit 2 ;;
esac
ensure_rust
cd "$ROOT"
flags=(--quiet -p skillscope-cli --bin skillscope)
[ "$profile" = release ] && flags+=(--release)
timeout -k 10 2400 cargo build "${flags[@]}"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
tarball="target/$profile/skillscope-$version-x86_64-linux-gnu.tar.gz"
tar -czf "$tarball" -C "target/$profile" skillscope
(cd "target/$profile" && sha256sum "$(basename "$tarball")" > "$(basename "$tarball").sha256")
echo "$ROOT/$tarball"
