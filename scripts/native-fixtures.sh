#!/usr/bin/env bash
# Writes what the native CLI computes on the built-in sample, for the wasm tests
# to compare against bit for bit:
#   target/fixtures/native-kernels.txt  every BTK (kind x space x raw/normalised),
#                                       pair i against pair i+1 (tests/wasm_kernels.rs)
#   target/fixtures/native-align.txt    links from `treelink train` + `treelink align`
#                                       on the sample (tests/wasm_align.rs)
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
echo "native-fixtures: wrote $out/native-kernels.txt ($(wc -l < "$out/native-kernels.txt") lines)" >&2
"$bin" train --train www/sample/dev --kernel plain+dbtk-root+ibtk-rgsst --max-examples 3000 -o "$out/sample-model.json" 2>/dev/null
"$bin" align --model "$out/sample-model.json" --input www/sample/dev > "$out/native-align.txt" 2>/dev/null
echo "native-fixtures: wrote $out/native-align.txt" >&2
# The meta-structure system trained on the sample, and its translations of the
# sample's source trees (tests/wasm_translate.rs).
"$bin" mt-train --train www/sample/dev --system ms --tune-iterations 0 -o "$out/sample-mt.json" 2>/dev/null
"$bin" translate --model "$out/sample-mt.json" --input www/sample/dev.src > "$out/native-mt.txt" 2>/dev/null
echo "native-fixtures: wrote $out/native-mt.txt" >&2
