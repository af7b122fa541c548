#!/usr/bin/env bash
# Fuzzing every reader with cargo-fuzz (libFuzzer) on the stable toolchain.
# See docs/reliability.md for what each target checks and the figures.
#
#   scripts/fuzz.sh smoke [SECONDS]   every target SECONDS (default 6) from the seeds alone, libFuzzer seed 1
#                                     (CI: the same mutations on every run, so a failure is a regression, not luck)
#   scripts/fuzz.sh run TARGET [ARGS] one target, libFuzzer ARGS (e.g. -runs=10000000 -max_total_time=3600)
#   scripts/fuzz.sh seeds             (re)build the seed corpora fuzz/seeds/<target>/ from ../shared/data
#   scripts/fuzz.sh list              the targets
#
# `run` keeps what it finds in fuzz/corpus/<target>/ and reads the seeds
# too; a crash is written to fuzz/artifacts/<target>/ (none of these three
# directories is committed: a crash becomes a test in tests/fuzz_regressions.rs).
#
# cargo-fuzz is installed from crates.io when missing. libFuzzer needs
# nightly flags (-Z, sancov); RUSTC_BOOTSTRAP=1 lets this stable toolchain
# accept them. No sanitizer (-s none): the engine has no unsafe code, and
# what the targets look for (panics, hangs, memory blow-ups) needs none;
# without ASan a target runs about twice as fast. Debug assertions and
# overflow checks are on (-a), so an arithmetic overflow is a finding too.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH" RUSTC_BOOTSTRAP=1
CARGO_FUZZ_VERSION=0.13.2
DATA=${TREELINK_DATA:-../shared/data}
say() { echo "fuzz: $*" >&2; }

if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION from crates.io (about 3 minutes)"
  cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

targets() { (cd fuzz && cargo fuzz list); }

seeds() {
  cargo build --quiet --bin treelink
  rm -rf fuzz/seeds
  python3 fuzz/seeds.py "$DATA" target/debug/treelink fuzz/seeds
}

# Each input gets at most 10 s and 2 GB: a slower or bigger one is a finding.
LIMITS=(-timeout=10 -rss_limit_mb=2048)

case "${1:-}" in
  list) targets ;;
  seeds) seeds ;;
  run)
    target=${2:?"which target? (scripts/fuzz.sh list)"}
    shift 2
    [ -d "fuzz/seeds/$target" ] || seeds
    mkdir -p "fuzz/corpus/$target"
    (cd fuzz && cargo fuzz run -s none -a "$target" "corpus/$target" "seeds/$target" -- "${LIMITS[@]}" -print_final_stats=1 "$@")
    ;;
  smoke)
    seconds=${2:-6}
    seeds
    (cd fuzz && cargo fuzz build -s none -a)
    log=$(mktemp)
    scratch=$(mktemp -d)
    trap 'rm -rf "$log" "$scratch"' EXIT
    for target in $(targets); do
      mkdir -p "$scratch/$target"
      if ! (cd fuzz && cargo fuzz run -s none -a "$target" "$scratch/$target" "seeds/$target" -- "${LIMITS[@]}" \
        -seed=1 -max_total_time="$seconds" -print_final_stats=1) >"$log" 2>&1; then
        tail -40 "$log" >&2
        say "$target FAILED: the input is in fuzz/artifacts/$target/"
        exit 1
      fi
      say "$target: $(grep -o 'number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*') inputs in $seconds s"
    done
    ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac
