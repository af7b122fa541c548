#!/usr/bin/env bash
# Installs what building and testing treelink needs, skipping whatever is
# already there at the right version. Only the package registries are used
# (rustup components, crates.io, Debian, npm); nothing is downloaded from
# anywhere else, so trunk runs offline.
#
#   scripts/setup.sh            what building and serving the page needs
#   scripts/setup.sh --tests    also Chromium and ChromeDriver for the browser tests
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14   # 0.22 needs a newer rustc than this machine's 1.95
want_tests=false
[ "${1:-}" = "--tests" ] && want_tests=true
say() { echo "setup: $*" >&2; }
export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -qx "trunk $TRUNK_VERSION"; then
  say "building trunk $TRUNK_VERSION from crates.io (about 11 minutes on 2 cores)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen version in Cargo.lock.
# Without --locked: its own lockfile pins a crate version the registry lacks.
wbg=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [ -z "$wbg" ]; then say "cannot find wasm-bindgen in Cargo.lock"; exit 1; fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wbg" \
   || ! command -v wasm-bindgen-test-runner >/dev/null; then
  say "building wasm-bindgen-cli $wbg from crates.io (about 5 minutes)"
  cargo install wasm-bindgen-cli --version "$wbg"
fi

# wasm-opt (binaryen), playwright-core and axe-core (the e2e accessibility
# checks) come from npm, pinned in package-lock.json.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen for wasm-opt, playwright-core, axe-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi

if $want_tests; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian's chromium and chromium-driver"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi

# trunk's offline mode makes cargo offline too: fetch the crates first.
cargo fetch --quiet
say "ready"
