//! Meta-structures (MS/SMS/RM, paper §2.1 and §3.1) as specifications:
//! hand-drawn trees worked out by hand, properties on random trees checked
//! against a brute-force enumeration, structure-string round trips, and the
//! real German dev/test trees.
#![cfg(not(target_arch = "wasm32"))] // proptest and ../shared/data are native only

use std::collections::HashSet;
use std::time::Instant;

use proptest::prelude::*;
use treelink::mt::meta::{Constraints, Decomposition, HeightMeasure, RmShape, DEFAULT_MAX_SMS};
use treelink::tree::{NodeId, Tree};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data");

fn t(s: &str) -> Tree {
    Tree::parse_one(s, "test").unwrap()
}

fn strings<T: ToString>(items: impl IntoIterator<Item = T>) -> Vec<String> {
    items.into_iter().map(|x| x.to_string()).collect()
}

/// Constraint (1)-(2) of §3.1 recomputed from scratch: the height in nodes by
/// walking down, then the measure, then `leaves ≥ β·height` unless height 0.
fn admissible(tree: &Tree, n: NodeId, c: &Constraints) -> bool {
    let mut node_height = 0;
    let mut stack = vec![(n, 1usize)];
    while let Some((m, h)) = stack.pop() {
        node_height = node_height.max(h);
        stack.extend(tree.children(m).iter().map(|&k| (k, h + 1)));
    }
    let height = match c.height {
        HeightMeasure::PhraseEdges => node_height.saturating_sub(2),
        HeightMeasure::Edges => node_height - 1,
    };
    let leaves = tree.span(n).len();
    height == 0 || (height <= c.alpha && leaves as f64 >= c.beta * height as f64)
}

/// Every sequence of admissible sub-trees with adjacent spans from word
/// `from`, of at most `max` MS, ending anywhere (`whole`: only at the end).
fn runs(tree: &Tree, c: &Constraints, from: usize, max: usize, whole: bool) -> Vec<Vec<NodeId>> {
    let n_words = tree.words().len();
    let mut out = Vec::new();
    let mut stack: Vec<Vec<NodeId>> = vec![Vec::new()];
    while let Some(seq) = stack.pop() {
        let at = seq.last().map_or(from, |&m| tree.span(m).end);
        if !seq.is_empty() && (!whole || at == n_words) {
            out.push(seq.clone());
        }
        if seq.len() < max && at < n_words {
            for m in (0..tree.len())
                .filter(|&m| tree.span(NodeId::new(m)).start == at && admissible(tree, NodeId::new(m), c))
            {
                let mut longer = seq.clone();
                longer.push(NodeId::new(m));
                stack.push(longer);
            }
        }
    }
    out
}

/// The number of admissible nodes above an SMS's MS: how many deletions made it.
fn deletions(d: &Decomposition<'_>, roots: &[NodeId]) -> usize {
    let tree = d.tree();
    (0..tree.len())
        .filter(|&p| d.is_ms(NodeId::new(p)) && roots.iter().any(|&r| tree.is_ancestor(NodeId::new(p), r)))
        .count()
}

#[test]
fn hand_drawn_pp_attachment_tree_counts_and_lists_its_sms() {
    //                 S                        phrase levels, α = 3, β = 1.5:
    //        /        |         \              S   h 3, 7 leaves ≥ 4.5   MS
    //      NP         VP         PUNC          NP  h 0                   MS
    //     /  \     /  |   \                    VP  h 2, 4 leaves ≥ 3     MS
    //   PRP  NN  VBD  NP    PP                 NP  h 0                   MS
    //    my  cat  saw |    /  \                PP  h 1, 2 leaves ≥ 1.5   MS
    //                NN  IN    NP              NP  h 0 (unary over NN)   MS
    //               mice with  NN
    //                         eyes
    // C(NP) = 2 for each NP (keep it, or its pre-terminals); C(NN-only NP) = 2;
    // C(PP) = 1 + C(IN)·C(NP) = 3; C(VP) = 1 + C(VBD)·C(NP)·C(PP) = 1 + 2·3 = 7;
    // C(S) = 1 + C(NP)·C(VP)·C(PUNC) = 1 + 2·7 = 15.
    let tree = t("(S (NP (PRP my) (NN cat)) (VP (VBD saw) (NP (NN mice)) (PP (IN with) (NP (NN eyes)))) (PUNC .))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert_eq!(d.count_sms(), 15);
    let all = strings(d.sms_iter());
    assert_eq!(all.len(), 15);
    assert_eq!(all[0], "S[NP[PRP-NN]-VP[VBD-NP[NN]-PP[IN-NP[NN]]]-PUNC]");
    assert_eq!(all[1], "NP[PRP-NN] VP[VBD-NP[NN]-PP[IN-NP[NN]]] PUNC");
    assert_eq!(all[14], "PRP NN VBD NN IN NN PUNC");
    // After two deletions (S, then NP or VP): the two level-2 SMS.
    assert_eq!(all[2..4], ["PRP NN VP[VBD-NP[NN]-PP[IN-NP[NN]]] PUNC", "NP[PRP-NN] VBD NP[NN] PP[IN-NP[NN]] PUNC"]);
    assert_eq!(HashSet::<&String>::from_iter(&all).len(), 15);
    // Counting edges instead: S h 4 > 3; VP h 3, 4 < 4.5; PP h 2, 2 < 3;
    // NP[NN] h 1, 1 < 1.5; NP[PRP-NN] h 1, 2 ≥ 1.5: initial SMS NP VBD NN IN NN PUNC.
    let d = Decomposition::new(&tree, Constraints { height: HeightMeasure::Edges, ..Constraints::PAPER });
    assert_eq!(strings(d.sms_iter()), ["NP[PRP-NN] VBD NN IN NN PUNC", "PRP NN VBD NN IN NN PUNC"]);
    // α = 1, β = 1.5 (phrase levels): only flat phrases and unary-over-flat
    // with 2+ leaves; VP (h 2) and S (h 3) go. NP PP: C(PP) = 3.
    let d = Decomposition::new(&tree, Constraints { alpha: 1, ..Constraints::PAPER });
    assert_eq!(d.initial_sms().to_string(), "NP[PRP-NN] VBD NP[NN] PP[IN-NP[NN]] PUNC");
    assert_eq!(d.count_sms(), 2 * 2 * 3);
}

#[test]
fn every_sms_of_a_tree_is_listed_once_breadth_first() {
    let tree = t("(S (NP (PRP my) (NN cat)) (VP (VBD saw) (NP (NN mice)) (PP (IN with) (NP (NN eyes)))) (PUNC .))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let listed: Vec<Vec<NodeId>> = d.sms_iter().map(|s| s.roots().to_vec()).collect();
    let mut brute = runs(&tree, d.constraints(), 0, usize::MAX, true);
    let mut sorted = listed.clone();
    sorted.sort();
    brute.sort();
    assert_eq!(sorted, brute);
    let levels: Vec<usize> = listed.iter().map(|r| deletions(&d, r)).collect();
    assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
    assert_eq!(levels[0], 0);
}

#[test]
fn structure_strings_of_the_paper_round_trip() {
    for s in [
        "AP[AP[AP[a-a]-usde]-m]",
        "AP[AP[AP[r-a]-usde]-m]",
        "AP[AP[BMP[m-q]-a]-usde] wj",
        "NPB[DT-JJ-NN-PUNC.]",
        "NPB[PDT-DT-JJ-NN]",
        "ADVP[RB-RB-PUNC.]",
        "DT CD JJ NNS PUNC",
        "DT JJ NN NNS PUNC.",
        "NP-A[NPB[PRP-NN]]",
        "VP[vg-BNP[pron-n]]",
        "VP[VB-NPB[DT-NN]]",
        "WRB VBD",
    ] {
        let shape: RmShape = s.parse().unwrap();
        assert_eq!(shape.to_string(), s);
        let json = serde_json::to_string(&shape).unwrap();
        assert_eq!(serde_json::from_str::<RmShape>(&json).unwrap(), shape);
    }
    // As the paper typesets them.
    assert_eq!(RmShape::parse("NPB [DT-JJ-NN-PUNC.]").unwrap().to_string(), "NPB[DT-JJ-NN-PUNC.]");
    assert_eq!(RmShape::parse("VP[vg - BNP[pron - n]]").unwrap().to_string(), "VP[vg-BNP[pron-n]]");
    let e = RmShape::parse("NP-A[NPB[PRP-NN]").unwrap_err();
    assert_eq!(e.column, 17);
}

const LABELS: [&str; 9] = ["NP", "VP", "S", "NP-A", "$-LRB-", "X[1]", "a\\b", "PUNC.", "-"];

/// Random bracketed trees with awkward labels, up to 6 levels and ~40 nodes.
fn tree_text() -> impl Strategy<Value = String> {
    let label = prop::sample::select(&LABELS[..]);
    let leaf = label.clone().prop_map(|l| format!("({l} w)"));
    leaf.prop_recursive(6, 48, 4, move |inner| {
        (label.clone(), prop::collection::vec(inner, 1..5)).prop_map(|(l, cs)| format!("({l} {})", cs.join(" ")))
    })
}

fn constraints() -> impl Strategy<Value = Constraints> {
    (0usize..5, 0.0f64..3.0, any::<bool>()).prop_map(|(alpha, beta, edges)| Constraints {
        alpha,
        beta,
        height: if edges { HeightMeasure::Edges } else { HeightMeasure::PhraseEdges },
    })
}

const CAP: usize = 3000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Every SMS covers the sentence exactly once, left to right, with MS
    /// that satisfy α/β; none repeats; breadth-first; all of them when uncapped.
    #[test]
    fn every_sms_covers_the_sentence_once_with_admissible_ms(text in tree_text(), c in constraints()) {
        let tree = t(&text);
        let d = Decomposition::new(&tree, c);
        let n_words = tree.words().len();
        let listed: Vec<_> = d.sms_iter().take(CAP).collect();
        prop_assert_eq!(&listed[0], d.initial_sms());
        let mut seen = HashSet::new();
        let mut last_level = 0;
        for sms in &listed {
            let mut at = 0;
            for ms in sms.iter() {
                prop_assert_eq!(ms.span().start, at);
                at = ms.span().end;
                prop_assert!(ms.satisfies(&c) && admissible(&tree, ms.root(), &c));
                prop_assert_eq!(ms.leaves(), ms.frontier().count());
            }
            prop_assert_eq!(at, n_words);
            prop_assert!(seen.insert(sms.roots().to_vec()));
            let level = deletions(&d, sms.roots());
            prop_assert!(level >= last_level);
            last_level = level;
            // Deleting any MS's root gives another SMS of the tree.
            for i in 0..sms.len() {
                if let Some(next) = d.delete(sms, i) {
                    prop_assert_eq!(deletions(&d, next.roots()), level + 1);
                    prop_assert!(d.sms_from_roots(next.roots()).is_some());
                }
            }
        }
        // The initial SMS is the highest admissible sub-trees.
        for &r in d.initial_sms().roots() {
            prop_assert!(tree.ancestors(r).all(|a| !admissible(&tree, a, &c)));
        }
        let count = d.count_sms();
        if count <= CAP as u128 {
            prop_assert_eq!(listed.len() as u128, count);
            let mut brute = runs(&tree, &c, 0, usize::MAX, true);
            brute.sort();
            let mut got: Vec<_> = seen.into_iter().collect();
            got.sort();
            prop_assert_eq!(got, brute);
        } else {
            prop_assert_eq!(listed.len(), CAP);
        }
    }

    /// Every RM is a contiguous run of admissible MS, its scope is the words
    /// of its span, its shape round-trips; the candidates are exactly the runs.
    #[test]
    fn every_rm_is_contiguous_and_its_shape_round_trips(text in tree_text(), c in constraints()) {
        let tree = t(&text);
        let d = Decomposition::new(&tree, c);
        let candidates = d.candidate_rms(3);
        let keys: HashSet<Vec<NodeId>> = candidates.iter().map(|r| r.roots().to_vec()).collect();
        prop_assert_eq!(keys.len(), candidates.len());
        let mut brute: Vec<Vec<NodeId>> =
            (0..tree.words().len()).flat_map(|i| runs(&tree, &c, i, 3, false)).collect();
        brute.sort();
        let mut got: Vec<_> = keys.iter().cloned().collect();
        got.sort();
        prop_assert_eq!(got, brute);
        for rm in &candidates {
            let scope = rm.scope();
            let mut at = scope.span.start;
            for (ms, span) in rm.iter().zip(&scope.ms_spans) {
                prop_assert_eq!(ms.span(), span.clone());
                prop_assert_eq!(span.start, at);
                at = span.end;
            }
            prop_assert_eq!(at, scope.span.end);
            prop_assert_eq!(scope.words, &tree.words()[scope.span.clone()]);
            prop_assert_eq!(scope.leaves.len(), scope.words.len());
            prop_assert!(scope.leaves.iter().all(|&l| tree.is_pos(l)));
            let shape = rm.shape();
            let text = rm.to_string();
            prop_assert_eq!(&shape.to_string(), &text);
            prop_assert_eq!(&RmShape::parse(&text).unwrap(), &shape);
            prop_assert_eq!(shape.word_count(), scope.words.len());
            prop_assert_eq!(shape.ms_count(), rm.len());
            prop_assert!(shape.satisfies(&c));
            let json = serde_json::to_string(&shape).unwrap();
            prop_assert_eq!(serde_json::from_str::<RmShape>(&json).unwrap(), shape);
        }
        for sms in d.sms_iter().take(50) {
            for rm in sms.rms(3) {
                prop_assert!(keys.contains(rm.roots()));
            }
        }
    }

    /// Reading any string is an error or a shape that writes back to a
    /// string reading as the same shape; never a panic.
    #[test]
    fn any_string_reads_as_a_shape_or_a_located_error(s in "[ab\\-\\[\\] \\\\]{0,24}") {
        match RmShape::parse(&s) {
            Ok(shape) => {
                let canonical = shape.to_string();
                prop_assert_eq!(&RmShape::parse(&canonical).unwrap(), &shape);
                prop_assert_eq!(RmShape::parse(&canonical).unwrap().to_string(), canonical);
            }
            Err(e) => prop_assert!(e.column >= 1 && e.column <= s.chars().count() + 1, "{e} in {s:?}"),
        }
    }
}

fn read(split: &str) -> Vec<Tree> {
    let file = format!("{DATA}/squoia-de-es/bracketed/{split}.src");
    Tree::parse_all(&std::fs::read_to_string(&file).unwrap(), &file).unwrap()
}

#[test]
fn real_german_trees_decompose_within_the_cap() {
    for split in ["dev", "test"] {
        for tree in read(split) {
            let d = Decomposition::new(&tree, Constraints::PAPER);
            let count = d.count_sms();
            let listed = d.all_sms(DEFAULT_MAX_SMS);
            assert_eq!(listed.len() as u128, count.min(DEFAULT_MAX_SMS as u128));
            for sms in &listed {
                let spans: Vec<_> = sms.iter().map(|m| m.span()).collect();
                assert_eq!(spans.first().unwrap().start, 0);
                assert_eq!(spans.last().unwrap().end, tree.words().len());
                assert!(spans.windows(2).all(|w| w[0].end == w[1].start));
                assert!(sms.iter().all(|m| m.satisfies(&Constraints::PAPER)));
                assert_eq!(RmShape::parse(&sms.to_string()).unwrap(), sms.shape());
            }
        }
    }
}

/// `cargo test --release --test meta -- --ignored --nocapture`: SMS counts and
/// times per tree on the German dev trees, for the final report.
#[test]
#[ignore = "a measurement, not a check: prints SMS counts and times per dev tree (run with --release --nocapture)"]
fn measure_sms_on_the_dev_trees() {
    for c in [Constraints::PAPER, Constraints { height: HeightMeasure::Edges, ..Constraints::PAPER }] {
        let trees = read("dev");
        let mut counts: Vec<(u128, usize)> = Vec::new();
        let mut initial = 0usize;
        let (mut t_new, mut t_list, mut t_rms, mut rms) = (0.0, 0.0, 0.0, 0usize);
        let mut worst = 0.0f64;
        for tree in &trees {
            let start = Instant::now();
            let d = Decomposition::new(tree, c);
            let count = d.count_sms();
            t_new += start.elapsed().as_secs_f64();
            initial += d.initial_sms().len();
            let start = Instant::now();
            let n = d.all_sms(DEFAULT_MAX_SMS).len();
            let dt = start.elapsed().as_secs_f64();
            t_list += dt;
            worst = worst.max(dt);
            let start = Instant::now();
            rms += d.candidate_rms(3).len();
            t_rms += start.elapsed().as_secs_f64();
            assert!(n <= DEFAULT_MAX_SMS);
            counts.push((count, tree.words().len()));
        }
        let k = trees.len() as f64;
        let max = counts.iter().max().unwrap();
        let mean = counts.iter().map(|&(c, _)| c as f64).sum::<f64>() / k;
        let mut sorted: Vec<u128> = counts.iter().map(|&(c, _)| c).collect();
        sorted.sort();
        let within = sorted.iter().filter(|&&c| c <= DEFAULT_MAX_SMS as u128).count();
        let long: Vec<_> = counts.iter().filter(|&&(_, w)| (35..=45).contains(&w)).collect();
        println!(
            "{c:?}: {} trees, mean words {:.1}; SMS per tree: max {} ({} words), mean {:.3e}, median {}, \
             ≤{DEFAULT_MAX_SMS}: {within}; 35-45-word trees: {:?}; initial SMS mean length {:.1}; \
             new+count {:.3} ms/tree; listing ≤{DEFAULT_MAX_SMS}: mean {:.3} ms/tree, worst {:.3} ms; \
             candidate RMs (≤3 MS): mean {:.0}/tree, {:.3} ms/tree",
            trees.len(),
            counts.iter().map(|&(_, w)| w as f64).sum::<f64>() / k,
            max.0,
            max.1,
            mean,
            sorted[sorted.len() / 2],
            long,
            initial as f64 / k,
            t_new * 1e3 / k,
            t_list * 1e3 / k,
            worst * 1e3,
            rms as f64 / k,
            t_rms * 1e3 / k,
        );
    }
}
