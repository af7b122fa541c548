#!/usr/bin/env bash
# Writes target/fixtures/native-kernels.txt: every BTK (kind x space x raw/normalised)
# of the built-in sample, pair i against pair i+1, computed by the native CLI.
# tests/wasm_kernels.rs compares the wasm engine against it bit for bit.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/fixtures
mkdir -p "$out"
cargo build --quiet --bin treelink
bin=target/debug/treelink
# Pair i+1 (wrapping round) for every i.
for ext in src trg; do
  { tail -n +2 "www/sample/dev.$ext"; head -n 1 "www/sample/dev.$ext"; } > "$out/rotated.$ext"
done
{
  for kind in ibtk dbtk; do
    for space in sst rdsst rgsst root; do
      for norm in raw norm; do
        echo "# $kind $space $norm"
        flag=(); [ "$norm" = norm ] && flag=(--normalize)
        "$bin" btk --kind "$kind" --space "$space" --lambda 0.4 "${flag[@]}" \
          www/sample/dev.src www/sample/dev.trg "$out/rotated.src" "$out/rotated.trg"
      done
    done
  done
} > "$out/native-kernels.txt"
echo "native-kernels: wrote $out/native-kernels.txt ($(wc -l < "$out/native-kernels.txt") lines)" >&2
