//! The engine compiled to wasm32, run in headless Chromium: it must give the
//! same kernel values as the native engine, bit for bit, and the same values
//! as a brute-force enumeration of fragments.
//!
//! `target/fixtures/native-kernels.txt` is written by the native `treelink`
//! CLI (`scripts/native-fixtures.sh`, run by `scripts/test.sh` before this
//! test): every BTK over the built-in sample, pair i against pair i+1.
#![cfg(target_arch = "wasm32")]

mod common;

use treelink::kernel::stream::KernelStream;
use treelink::kernel::{btk, btk_normalized, tree_kernel, BtkKind, Space, SubTree, SubTreePair};
use treelink::tree::{NodeId, Tree};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const NATIVE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/target/fixtures/native-kernels.txt"));
const SRC: &str = include_str!("../www/sample/dev.src");
const TRG: &str = include_str!("../www/sample/dev.trg");

#[wasm_bindgen_test]
fn wasm_btk_values_equal_the_native_cli_bit_for_bit() {
    let src = Tree::parse_all(SRC, "dev.src").unwrap();
    let trg = Tree::parse_all(TRG, "dev.trg").unwrap();
    let n = src.len();
    let mut checked = 0;
    let mut blocks = NATIVE.split("# ").filter(|b| !b.trim().is_empty());
    for kind in BtkKind::ALL {
        for space in Space::ALL {
            for normalize in [false, true] {
                let block = blocks.next().expect("a block per kind, space and normalisation");
                // The CLI's own path (streamed, indexed) must agree too.
                let mut stream = KernelStream::new(space, 0.4, u64::MAX);
                let mut lines = block.lines();
                assert_eq!(lines.next().unwrap(), format!("{kind} {space} {}", if normalize { "norm" } else { "raw" }));
                for (i, line) in lines.enumerate() {
                    let native: f64 = line.parse().unwrap();
                    let x = SubTreePair::whole(&src[i], &trg[i]);
                    let y = SubTreePair::whole(&src[(i + 1) % n], &trg[(i + 1) % n]);
                    let wasm = if normalize {
                        btk_normalized(kind, space, 0.4, x, y).unwrap()
                    } else {
                        btk(kind, space, 0.4, x, y).unwrap()
                    };
                    assert_eq!(
                        wasm.to_bits(),
                        native.to_bits(),
                        "{kind} {space} pair {i}: wasm {wasm} native {native}"
                    );
                    let streamed = stream.btk(kind, x, y, normalize).unwrap();
                    assert_eq!(streamed.to_bits(), native.to_bits(), "{kind} {space} pair {i}: streamed {streamed}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 16 * n);
}

#[wasm_bindgen_test]
fn wasm_kernels_match_brute_force() {
    for seed in 0..20 {
        let (a, b) = (common::random_tree(seed, 3), common::random_tree(seed + 1000, 3));
        for space in Space::ALL {
            let fast = tree_kernel(space, 0.4, SubTree::whole(&a), SubTree::whole(&b)).unwrap();
            let slow = common::brute_force_kernel(space, 0.4, &a, NodeId::ROOT, &b, NodeId::ROOT);
            assert!(common::close(fast, slow), "seed {seed} {space}: {fast} vs {slow}");
        }
    }
}
