//! The readers on the real treebanks of ../shared/data: every tree reads and
//! writes back byte-identical, every gold file loads against its trees.
#![cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk

use treelink::corpus::Corpus;
use treelink::kernel::{tree_kernel, DeltaTable, Space, SubTree};
use treelink::tree::{NodeId, Tree};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data");

fn prefixes() -> Vec<(String, usize)> {
    vec![
        (format!("{DATA}/squoia-de-es/bracketed/train"), 2728),
        (format!("{DATA}/squoia-de-es/bracketed/dev"), 157),
        (format!("{DATA}/squoia-de-es/bracketed/test"), 802),
        (format!("{DATA}/lingua-align-nl-en-125/bracketed/all"), 125),
    ]
}

#[test]
fn every_tree_round_trips_line_for_line() {
    for (prefix, pairs) in prefixes() {
        for ext in ["src", "trg"] {
            let file = format!("{prefix}.{ext}");
            let text = std::fs::read_to_string(&file).unwrap();
            let trees = Tree::parse_all(&text, &file).unwrap();
            assert_eq!(trees.len(), pairs, "{file}");
            for (line, tree) in text.lines().zip(&trees) {
                assert_eq!(tree.to_string(), line, "{file}");
                // Words are leaves: one POS node per word, in order.
                let pos = (0..tree.len()).filter(|&n| tree.is_pos(NodeId::new(n))).count();
                assert_eq!(pos, tree.words().len());
                assert_eq!(tree.span(NodeId::new(0)), 0..tree.words().len());
            }
        }
    }
}

#[test]
fn gold_files_load_with_the_published_link_counts() {
    // Counts from ../shared/data/README.md.
    let dev = Corpus::read_prefix(&format!("{DATA}/squoia-de-es/bracketed/dev"), true).unwrap();
    assert_eq!((dev.len(), dev.gold_links()), (157, 1218));
    let nl = Corpus::read_prefix(&format!("{DATA}/lingua-align-nl-en-125/bracketed/all"), true).unwrap();
    assert_eq!((nl.len(), nl.gold_links()), (125, 1380));
    let pair = &dev.pairs[0];
    assert!(pair.gold.iter().all(|l| pair.source.is_phrase(l.source) && pair.target.is_phrase(l.target)));
}

#[test]
fn the_fast_kernel_computes_far_fewer_deltas_than_all_node_pairs() {
    let file = format!("{DATA}/squoia-de-es/bracketed/dev.src");
    let trees = Tree::parse_all(&std::fs::read_to_string(&file).unwrap(), &file).unwrap();
    let (mut matched, mut all) = (0, 0);
    for w in trees.windows(2) {
        let table = DeltaTable::new(SubTree::whole(&w[0]), SubTree::whole(&w[1]), 0.4).unwrap();
        matched += table.len();
        all += w[0].len() * w[1].len();
        // And the table agrees with a direct Δ at the roots.
        let rg = tree_kernel(Space::RgSst, 0.4, SubTree::whole(&w[0]), SubTree::whole(&w[1])).unwrap();
        assert_eq!(table.get(NodeId::new(0), NodeId::new(0)), rg);
    }
    assert!(matched * 10 < all, "matched {matched} of {all} node pairs");
}

#[test]
fn layouts_of_real_pairs_never_overlap() {
    use treelink::layout::{layout_pair, Style};
    let dev = Corpus::read_prefix(&format!("{DATA}/squoia-de-es/bracketed/dev"), false).unwrap();
    let mut longest = 0;
    for pair in &dev.pairs {
        let l = layout_pair(&pair.source, &pair.target, &Style::default());
        longest = longest.max(pair.source.words().len()).max(pair.target.words().len());
        for t in [&l.source, &l.target] {
            let boxes: Vec<_> = t.nodes.iter().chain(&t.words).collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    assert!(!a.overlaps(b), "{a:?} overlaps {b:?} in {}", pair.source);
                }
                assert!(a.left() >= 0.0 && a.right() <= l.width && a.top() >= 0.0 && a.bottom() <= l.height);
            }
        }
    }
    assert!(longest >= 40, "the dev set has sentences of 40 words and more ({longest})");
}
