#!/usr/bin/env python3
"""Prints the release page's wasm sizes (bytes, gzip -9) against its budget.

Usage: scripts/page-weight.py DIST   (a `trunk build --release` output)

The budget (docs/speed.md, "The page's weight"): what a first visit fetches
before its first screen, the page's own wasm (it reads the built-in sample
itself; the workers start when first needed), at most 800 KB gzipped; all
wasm at most 1.4 MB gzipped. Prints; never fails the run (a figure, not a test).
"""
import gzip
import pathlib
import sys

FIRST_VISIT_BUDGET = 800_000
ALL_BUDGET = 1_400_000

dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")
sizes = {}
for f in sorted(dist.glob("*.wasm")):
    raw = f.read_bytes()
    # The page's own wasm has a content hash in its name (app-<hash>_bg.wasm).
    name = f.name.split("-")[0].removesuffix("_bg.wasm")
    sizes[name] = (len(raw), len(gzip.compress(raw, 9)))
for name, (raw, gz) in sizes.items():
    print(f"page weight: {name:12} {raw:>10,} B  gzip -9 {gz:>9,} B")
first = sum(gz for name, (_, gz) in sizes.items() if name == "app")
every = sum(gz for _, gz in sizes.values())
for what, size, budget in [("first visit", first, FIRST_VISIT_BUDGET), ("all wasm", every, ALL_BUDGET)]:
    verdict = "within" if size <= budget else "OVER"
    print(f"page weight: {what:12} {size:>10,} B gzipped, {verdict} the budget of {budget:,} B")
