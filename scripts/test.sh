#!/usr/bin/env bash
# Runs every test: formatting and lints, native unit/property/integration and
# doc tests, each fuzz target briefly, the wasm engine in headless Chromium,
# and end-to-end tests that drive the built page in headless Chromium.
# Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { echo; echo "=== $* ===" >&2; }
# One build per run: incremental caches would only double the disk used (a
# CI machine once ran out of it in this script).
export CARGO_INCREMENTAL=0
disk() { df -h . | awk 'NR == 2 { print "disk: " $4 " free" }' >&2; }
disk

step "format and lints"
cargo fmt --all -- --check
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --target wasm32-unknown-unknown --lib --bins -- -D warnings

step "native tests"
cargo test --all-targets
cargo test --doc

step "every fuzz target briefly (6 s each, from the seeds)"
scripts/fuzz.sh smoke 6

disk
step "wasm engine in headless Chromium"
scripts/native-fixtures.sh
cargo test --target wasm32-unknown-unknown --test wasm_kernels --test wasm_align --test wasm_translate -- --nocapture

step "release build of the page"
trunk build --release
# The page's weight against its budget (docs/speed.md, "The page's weight"):
# what a first visit fetches (the page and the file worker) and all wasm, gzipped.
python3 scripts/page-weight.py dist

step "end-to-end tests in headless Chromium"
cargo build --quiet --bin treelink
node --test --test-reporter=spec tests/e2e/
disk
