//! Every sub-structure space against a brute-force enumeration of shared
//! fragments, on small random trees and on every sub-tree pair of them.
#![cfg(not(target_arch = "wasm32"))] // proptest runs natively; tests/wasm_kernels.rs covers wasm

mod common;

use common::{brute_force_kernel, close, random_tree};
use proptest::prelude::*;
use treelink::kernel::{btk, tree_kernel, BtkKind, Space, SubTree, SubTreePair};
use treelink::tree::{NodeId, Tree};

fn tree_strategy() -> impl Strategy<Value = Tree> {
    let leaf = (prop::sample::select(vec!["P", "Q"]), prop::sample::select(vec!["x", "y"]))
        .prop_map(|(t, w)| format!("({t} {w})"));
    let text = leaf.prop_recursive(4, 24, 3, |inner| {
        (prop::sample::select(vec!["A", "B"]), prop::collection::vec(inner, 1..=3))
            .prop_map(|(l, kids)| format!("({l} {})", kids.join(" ")))
    });
    text.prop_map(|s| Tree::parse_one(&s, "prop").unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_space_matches_brute_force_on_whole_trees(a in tree_strategy(), b in tree_strategy(), lambda in 0.1f64..1.0) {
        for space in Space::ALL {
            let fast = tree_kernel(space, lambda, SubTree::whole(&a), SubTree::whole(&b)).unwrap();
            let slow = brute_force_kernel(space, lambda, &a, NodeId::new(0), &b, NodeId::new(0));
            prop_assert!(close(fast, slow), "{space}: fast {fast} vs brute force {slow}\n{a}\n{b}");
        }
    }

    #[test]
    fn every_space_matches_brute_force_on_sub_trees(a in tree_strategy(), b in tree_strategy()) {
        for space in Space::ALL {
            for ra in 0..a.len() {
                for rb in 0..b.len() {
                    let fast = tree_kernel(space, 0.4, SubTree::new(&a, NodeId::new(ra)), SubTree::new(&b, NodeId::new(rb))).unwrap();
                    let slow = brute_force_kernel(space, 0.4, &a, NodeId::new(ra), &b, NodeId::new(rb));
                    prop_assert!(close(fast, slow), "{space} at ({ra},{rb}): {fast} vs {slow}");
                }
            }
        }
    }

    #[test]
    fn kernels_are_symmetric_and_btks_combine(a in tree_strategy(), b in tree_strategy(), c in tree_strategy(), d in tree_strategy()) {
        let x = SubTreePair::whole(&a, &b);
        let y = SubTreePair::whole(&c, &d);
        for space in Space::ALL {
            let ks = brute_force_kernel(space, 0.4, &a, NodeId::new(0), &c, NodeId::new(0));
            let kt = brute_force_kernel(space, 0.4, &b, NodeId::new(0), &d, NodeId::new(0));
            prop_assert!(close(btk(BtkKind::Ibtk, space, 0.4, x, y).unwrap(), ks + kt));
            prop_assert!(close(btk(BtkKind::Dbtk, space, 0.4, x, y).unwrap(), ks * kt));
            prop_assert!(close(btk(BtkKind::Dbtk, space, 0.4, x, y).unwrap(), btk(BtkKind::Dbtk, space, 0.4, y, x).unwrap()));
        }
    }
}

#[test]
fn deterministic_random_trees_match_brute_force() {
    // The same trees the wasm test uses, so both targets check the same values.
    let mut nonzero = 0;
    for seed in 0..40 {
        let (a, b) = (random_tree(seed, 3), random_tree(seed + 1000, 3));
        for space in Space::ALL {
            let fast = tree_kernel(space, 0.4, SubTree::whole(&a), SubTree::whole(&b)).unwrap();
            assert!(
                close(fast, brute_force_kernel(space, 0.4, &a, NodeId::new(0), &b, NodeId::new(0))),
                "seed {seed} {space}"
            );
            nonzero += usize::from(fast > 0.0);
        }
    }
    // The alphabet is tiny so that trees share fragments: most values are non-zero.
    assert!(nonzero > 80, "only {nonzero} of 160 kernels were non-zero");
}
