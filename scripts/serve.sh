#!/usr/bin/env bash
# Builds the page and serves it at http://127.0.0.1:8080/ with the built-in
# sample loaded. Installs what is missing first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
echo "serve: building; then open http://127.0.0.1:${TREELINK_PORT:-8080}/" >&2
exec trunk serve --release --port "${TREELINK_PORT:-8080}" "$@"
