//! Specifications by example: the paper's own MS and RMs, and hand-drawn
//! trees whose MS, SMS and RMs are worked out in the comments.

use super::*;

fn t(s: &str) -> Tree {
    Tree::parse_one(s, "test").unwrap()
}

fn strings<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> Vec<String> {
    items.into_iter().map(|x| x.to_string()).collect()
}

const EDGES: Constraints = Constraints { height: HeightMeasure::Edges, ..Constraints::PAPER };

/// Every MS the paper prints (Tables 1-2, Figure 4; Table 2's missing ']'
/// restored), with (leaves, height in phrase edges, height in edges).
const PAPER_MS: [(&str, usize, usize, usize); 24] = [
    // Table 1, Chinese side.
    ("AP[AP[AP[a-a]-usde]-m]", 4, 2, 3),
    ("AP[AP[AP[r-a]-usde]-m]", 4, 2, 3),
    ("AP[AP[BMP[m-q]-a]-usde]", 4, 2, 3),
    ("wj", 1, 0, 0),
    // Table 1, English side.
    ("NPB[DT-JJ-NN-PUNC.]", 4, 0, 1),
    ("NPB[PDT-DT-JJ-NN]", 4, 0, 1),
    ("ADVP[RB-RB-PUNC.]", 3, 0, 1),
    ("DT", 1, 0, 0),
    ("CD", 1, 0, 0),
    ("JJ", 1, 0, 0),
    ("NNS", 1, 0, 0),
    ("NN", 1, 0, 0),
    ("PUNC", 1, 0, 0),
    ("PUNC.", 1, 0, 0),
    // Table 2 (English structure model).
    ("IN", 1, 0, 0),
    ("NP-A[NPB[PRP-NN]]", 2, 1, 2),
    ("VBZ", 1, 0, 0),
    ("MD", 1, 0, 0),
    ("VBD", 1, 0, 0),
    // Figure 4.
    ("r", 1, 0, 0),
    ("pron", 1, 0, 0),
    ("VP[vg-BNP[pron-n]]", 3, 1, 2),
    ("WRB", 1, 0, 0),
    ("VP[VB-NPB[DT-NN]]", 3, 1, 2),
];

#[test]
fn the_papers_ms_satisfy_its_constraints_with_heights_in_phrase_levels() {
    for (s, leaves, phrase_edges, edges) in PAPER_MS {
        let rm = RmShape::parse(s).unwrap();
        assert_eq!(rm.ms_count(), 1, "{s}");
        let ms = rm.ms().next().unwrap();
        assert_eq!(ms.leaves(), leaves, "{s}");
        assert_eq!(ms.height(HeightMeasure::PhraseEdges), phrase_edges, "{s}");
        assert_eq!(ms.height(HeightMeasure::Edges), edges, "{s}");
        assert!(ms.satisfies(&Constraints::PAPER), "{s}");
        assert_eq!(rm.to_string(), s);
    }
    // Counting edges down to the pre-terminals, four of them break β = 1.5:
    // 4 leaves / height 3 = 1.33 and 2 / 2 = 1. That is why edges are not the default.
    let broken: Vec<_> =
        PAPER_MS.iter().filter(|(s, ..)| !RmShape::parse(s).unwrap().satisfies(&EDGES)).map(|(s, ..)| *s).collect();
    assert_eq!(
        broken,
        ["AP[AP[AP[a-a]-usde]-m]", "AP[AP[AP[r-a]-usde]-m]", "AP[AP[BMP[m-q]-a]-usde]", "NP-A[NPB[PRP-NN]]"]
    );
}

#[test]
fn ms_of_a_tree_root_frontier_internal_height_leaves() {
    //            S                  phrase nodes: S NP VP ADVP
    //       /         \             pre-terminals: DT NN VBZ RB
    //      NP          VP
    //    /    \      /    \
    //   DT    NN   VBZ    ADVP
    //   the   dog  barks   |
    //                      RB loudly
    let tree = t("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))");
    let s = MetaStructure::new(&tree, NodeId::new(0)).unwrap();
    assert_eq!(s.frontier().collect::<Vec<_>>(), [NodeId::new(2), NodeId::new(3), NodeId::new(5), NodeId::new(7)]);
    assert_eq!(s.internal().collect::<Vec<_>>(), [NodeId::new(0), NodeId::new(1), NodeId::new(4), NodeId::new(6)]);
    assert_eq!(s.nodes().collect::<Vec<_>>(), (0..8).map(NodeId::new).collect::<Vec<_>>());
    assert_eq!((s.leaves(), s.height(HeightMeasure::PhraseEdges), s.height(HeightMeasure::Edges)), (4, 2, 3));
    assert!(s.satisfies(&Constraints::PAPER)); // 2 ≤ 3 and 4 ≥ 1.5·2
    assert!(!s.satisfies(&EDGES)); // 3 ≤ 3 but 4 < 1.5·3
    let vp = MetaStructure::new(&tree, NodeId::new(4)).unwrap();
    assert_eq!(vp.to_string(), "VP[VBZ-ADVP[RB]]");
    assert_eq!(vp.words(), ["barks", "loudly"]);
    assert_eq!((vp.leaves(), vp.height(HeightMeasure::PhraseEdges)), (2, 1));
    let dt = MetaStructure::new(&tree, NodeId::new(2)).unwrap();
    assert_eq!((dt.leaves(), dt.height(HeightMeasure::Edges), dt.internal().count()), (1, 0, 0));
    assert!(dt.satisfies(&Constraints { alpha: 0, beta: 1e9, height: HeightMeasure::Edges }));
    assert!(MetaStructure::new(&tree, NodeId::new(8)).is_none());
}

#[test]
fn small_tree_has_seven_sms_with_the_paper_constraints_and_two_counting_edges() {
    // The tree of the module example. Phrase levels (default):
    //   S    h 2, 4 leaves: MS      C(S)    = 1 + C(NP)·C(VP) = 7
    //   NP   h 0:           MS      C(NP)   = 1 + 1·1         = 2
    //   VP   h 1, 2 leaves: MS      C(VP)   = 1 + C(VBZ)·C(ADVP) = 3
    //   ADVP h 0:           MS      C(ADVP) = 1 + 1           = 2
    let tree = t("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert_eq!(d.count_sms(), 7);
    assert_eq!(d.meta_structures().count(), 8);
    let all = d.all_sms(100);
    assert_eq!(all.len(), 7);
    assert_eq!(&all[0], d.initial_sms());
    assert_eq!(d.replacement(NodeId::new(0)), [NodeId::new(1), NodeId::new(4)]);
    assert_eq!(d.replacement(NodeId::new(2)), [] as [NodeId; 0]);
    // Edges: S 4 < 4.5 no; NP h 1, 2 ≥ 1.5 yes; VP h 2, 2 < 3 no; ADVP h 1, 1 < 1.5 no.
    // Initial SMS NP VBZ RB; NP can still be deleted: 2 SMS.
    let d = Decomposition::new(&tree, EDGES);
    assert_eq!(d.initial_sms().to_string(), "NP[DT-NN] VBZ RB");
    assert_eq!(strings(d.sms_iter()), ["NP[DT-NN] VBZ RB", "DT NN VBZ RB"]);
    assert_eq!(d.count_sms(), 2);
    assert!(
        !d.is_ms(NodeId::new(0))
            && !d.is_ms(NodeId::new(4))
            && !d.is_ms(NodeId::new(6))
            && d.is_ms(NodeId::new(1))
            && !d.is_ms(NodeId::new(99))
    );
}

#[test]
fn deleting_a_node_of_an_ms() {
    let tree = t("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let s0 = d.initial_sms();
    let s1 = d.delete(s0, 0).unwrap();
    assert_eq!(s1.to_string(), "NP[DT-NN] VP[VBZ-ADVP[RB]]");
    let s2 = d.delete(&s1, 1).unwrap();
    assert_eq!(s2.to_string(), "NP[DT-NN] VBZ ADVP[RB]");
    assert_eq!(s2.roots(), [NodeId::new(1), NodeId::new(5), NodeId::new(6)]);
    let s3 = d.delete(&s2, 0).unwrap();
    assert_eq!(s3.to_string(), "DT NN VBZ ADVP[RB]");
    // A pre-terminal cannot be deleted (its son is a word); nor can what is not there.
    assert!(d.delete(&s3, 0).is_none());
    assert!(d.delete(&s3, 4).is_none());
    // The order of deletions does not matter: the same SMS either way.
    let other = d.delete(&d.delete(&s1, 0).unwrap(), 2).unwrap();
    assert_eq!(other, s3);
    // An SMS of another tree is refused.
    let tree2 = tree.clone();
    let d2 = Decomposition::new(&tree2, Constraints::PAPER);
    assert!(d2.delete(&s1, 0).is_none());
}

#[test]
fn a_failing_node_is_skipped_by_its_parents_deletion() {
    //        S            S: h 2, 4 leaves: MS
    //   /  /  \  \        A[B[C]]: h 1, 1 leaf: not an MS (1 < 1.5)
    //  A   D   E  F       B[C]: h 0: MS
    //  |                  deleting S gives B D E F, not A D E F
    //  B
    //  |
    //  C
    let tree = t("(S (A (B (C x))) (D y) (E z) (F w))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert!(!d.is_ms(NodeId::new(1)) && d.is_ms(NodeId::new(2)));
    assert_eq!(d.replacement(NodeId::new(0)), [NodeId::new(2), NodeId::new(4), NodeId::new(5), NodeId::new(6)]);
    assert_eq!(strings(d.sms_iter()), ["S[A[B[C]]-D-E-F]", "B[C] D E F", "C D E F"]);
    assert_eq!(d.count_sms(), 3);
    // The root may fail too: then the initial SMS starts below it.
    let tree = t("(S (NP (NN Editorial)))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert_eq!(strings(d.sms_iter()), ["NP[NN]", "NN"]);
    let d = Decomposition::new(&tree, EDGES);
    assert_eq!(strings(d.sms_iter()), ["NN"]);
}

#[test]
fn figure_4_the_decoders_rms_are_an_sms_of_the_chinese_tree() {
    // Figure 4 covers 如何 你 得到 这些 信息 with [r], [pron], VP[vg-BNP[pron-n]].
    // The paper does not print the tree above them; a minimal one (root label invented):
    //   dj: h 2, 5 leaves: MS.  C(BNP) = 2, C(VP) = 1 + 2 = 3, C(dj) = 1 + 3 = 4.
    let tree = t("(dj (r 如何) (pron 你) (VP (vg 得到) (BNP (pron 这些) (n 信息))))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let all = strings(d.sms_iter());
    assert_eq!(
        all,
        ["dj[r-pron-VP[vg-BNP[pron-n]]]", "r pron VP[vg-BNP[pron-n]]", "r pron vg BNP[pron-n]", "r pron vg pron n"]
    );
    let sms = d.sms_iter().nth(1).unwrap();
    let rms = sms.rms(1);
    assert_eq!(strings(&rms), ["r", "pron", "VP[vg-BNP[pron-n]]"]);
    let scopes: Vec<_> = rms.iter().map(|rm| rm.words().join(" ")).collect();
    assert_eq!(scopes, ["如何", "你", "得到 这些 信息"]);
    // The target side of the third RM pair is a structure of its own.
    let target: RmShape = "VP[VB-NPB[DT-NN]]".parse().unwrap();
    assert!(target.satisfies(&Constraints::PAPER));
    assert_eq!(target.word_count(), 3);
}

#[test]
fn table_1_rm_of_two_ms_from_a_chinese_tree() {
    // Table 1's RM "AP[AP[BMP[m-q]-a]-usde] wj" (words and root label invented):
    //   dj: h 3 ≤ 3, 5 leaves ≥ 4.5: MS; deleting it gives AP wj, which is the RM.
    let tree = t("(dj (AP (AP (BMP (m 三) (q 个)) (a 大)) (usde 的)) (wj 。))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let s1 = d.delete(d.initial_sms(), 0).unwrap();
    let rm = s1.rm(0..2).unwrap();
    assert_eq!(rm.to_string(), "AP[AP[BMP[m-q]-a]-usde] wj");
    assert_eq!(rm.shape(), "AP[AP[BMP[m-q]-a]-usde] wj".parse().unwrap());
    assert!(d.candidate_rms(2).iter().any(|r| r == &rm));
    // Counting edges, this RM cannot arise: AP is 3 high with 4 leaves.
    let d = Decomposition::new(&tree, EDGES);
    assert_eq!(d.initial_sms().to_string(), "AP[BMP[m-q]-a] usde wj");
    assert!(d.candidate_rms(3).iter().all(|r| r.to_string() != "AP[AP[BMP[m-q]-a]-usde] wj"));
}

#[test]
fn rm_scope_words_leaves_and_ms_spans() {
    let tree = t("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))) (PUNC. .))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    // S: h 2, 5 leaves: MS. Delete it: NP VP PUNC.
    let sms = d.delete(d.initial_sms(), 0).unwrap();
    assert_eq!(sms.to_string(), "NP[DT-NN] VP[VBZ-ADVP[RB]] PUNC.");
    let rm = sms.rm(1..3).unwrap();
    let scope = rm.scope();
    assert_eq!(scope.span, 2..5);
    assert_eq!(scope.words, ["barks", "loudly", "."]);
    assert_eq!(scope.leaves, [NodeId::new(5), NodeId::new(7), NodeId::new(8)]); // S0 NP1 DT2 NN3 VP4 VBZ5 ADVP6 RB7 PUNC.8
    assert_eq!(scope.ms_spans, [2..4, 4..5]);
    assert!(sms.rm(1..1).is_none() && sms.rm(2..4).is_none());
    // All runs of at most two MS: NP, NP VP, VP, VP PUNC., PUNC.
    assert_eq!(
        strings(sms.rms(2)),
        ["NP[DT-NN]", "NP[DT-NN] VP[VBZ-ADVP[RB]]", "VP[VBZ-ADVP[RB]]", "VP[VBZ-ADVP[RB]] PUNC.", "PUNC."]
    );
    assert_eq!(sms.rms(3).len(), 6);
    assert_eq!(sms.rms(usize::MAX).len(), 6);
}

#[test]
fn candidate_rms_worked_by_hand() {
    // MS (paper constraints): S NP DT NN VP VBZ ADVP RB. Starting at word
    // 0: S NP DT; 1: NN; 2: VP VBZ; 3: ADVP RB. Runs of at most 2 with adjacent spans:
    let tree = t("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let rms = strings(d.candidate_rms(2));
    let expected = [
        "S[NP[DT-NN]-VP[VBZ-ADVP[RB]]]",
        "NP[DT-NN]",
        "NP[DT-NN] VP[VBZ-ADVP[RB]]",
        "NP[DT-NN] VBZ",
        "DT",
        "DT NN",
        "NN",
        "NN VP[VBZ-ADVP[RB]]",
        "NN VBZ",
        "VP[VBZ-ADVP[RB]]",
        "VBZ",
        "VBZ ADVP[RB]",
        "VBZ RB",
        "ADVP[RB]",
        "RB",
    ];
    assert_eq!(rms, expected);
    assert!(d.candidate_rms(0).is_empty());
    // Each is a contiguous run of some SMS.
    let all = d.all_sms(100);
    for rm in d.candidate_rms(4) {
        assert!(all.iter().any(|s| s.roots().windows(rm.len()).any(|w| w == rm.roots())), "{rm}");
    }
    assert_eq!(d.recombination(&[NodeId::new(3), NodeId::new(4)]).unwrap().to_string(), "NN VP[VBZ-ADVP[RB]]");
    assert!(d.recombination(&[NodeId::new(3), NodeId::new(6)]).is_none()); // not adjacent
    assert!(d.recombination(&[]).is_none());
    assert_eq!(
        d.sms_from_roots(&[NodeId::new(2), NodeId::new(3), NodeId::new(4)]).unwrap().to_string(),
        "DT NN VP[VBZ-ADVP[RB]]"
    );
    assert!(d.sms_from_roots(&[NodeId::new(2), NodeId::new(3)]).is_none()); // does not cover the sentence
}

#[test]
fn structure_strings_round_trip_and_escape_hyphens_inside_brackets() {
    for s in [
        "AP[AP[BMP[m-q]-a]-usde] wj",
        "DT CD JJ NNS PUNC",
        "NP-A[NPB[PRP-NN]]",
        "$-LRB- S[NP\\-A[NN]-$\\-LRB\\-]",
        "X\\[1\\][a\\\\b-c]",
        "-",
        "A[\\-]",
    ] {
        let rm = RmShape::parse(s).unwrap();
        assert_eq!(rm.to_string(), s);
    }
    let rm = RmShape::parse("$-LRB- S[NP\\-A[NN]-$\\-LRB\\-]").unwrap();
    let labels: Vec<_> = rm.nodes().iter().map(|n| n.label.as_str()).collect();
    assert_eq!(labels, ["$-LRB-", "S", "NP-A", "NN", "$-LRB-"]);
    // Lenient spacing (the paper prints "NPB [DT-JJ-NN-PUNC.]"); canonical on writing.
    for (loose, canonical) in [
        ("NPB [DT-JJ-NN-PUNC.]", "NPB[DT-JJ-NN-PUNC.]"),
        ("  VP[ vg - BNP [pron - n ] ]   r ", "VP[vg-BNP[pron-n]] r"),
        ("a\tb", "a b"),
        ("\\a", "a"),
    ] {
        assert_eq!(RmShape::parse(loose).unwrap().to_string(), canonical);
    }
    // From a tree with such labels, and back.
    let tree = t("(S (NP-A (NN a)) ($-LRB- -) (X[1] b))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let shape = d.initial_sms().shape();
    assert_eq!(shape.to_string(), "S[NP\\-A[NN]-$\\-LRB\\--X\\[1\\]]");
    assert_eq!(RmShape::parse(&shape.to_string()).unwrap(), shape);
}

#[test]
fn structure_string_errors_are_located() {
    let err = |s: &str| RmShape::parse(s).unwrap_err().to_string();
    assert_eq!(err(""), "column 1: expected a meta-structure, found the end of the string");
    assert_eq!(err("   "), "column 4: expected a meta-structure, found the end of the string");
    assert_eq!(err("[A]"), "column 1: expected a meta-structure, found '['");
    assert_eq!(
        err("NP-A[NPB[PRP-NN]"),
        "column 17: expected ']' to close 'NP-A[' opened at column 5, found the end of the string"
    );
    assert_eq!(err("A[B]]"), "column 5: unexpected ']': no bracket is open here");
    assert_eq!(err("A]"), "column 2: unexpected ']': no bracket is open here");
    assert_eq!(err("A[]"), "column 3: expected a child inside 'A[', found ']'");
    assert_eq!(err("A[B-]"), "column 5: expected a label, found ']'");
    assert_eq!(err("A[-B]"), "column 3: expected a label, found '-'");
    assert_eq!(err("A[B--C]"), "column 5: expected a label, found '-'");
    assert_eq!(err("A[B C]"), "column 5: expected '-', '[' or ']' after the child 'B', found 'C'");
    assert_eq!(err("A[B[C]D]"), "column 7: expected '-', '[' or ']' after the child 'B', found 'D'");
    assert_eq!(err("A[B]C"), "column 5: expected a space between meta-structures after ']', found 'C'");
    assert_eq!(err("A[B] [C]"), "column 6: expected a label, found '['");
    assert_eq!(err("A[B\\"), "column 5: expected a character after '\\', found the end of the string");
    assert_eq!(err("A[B-"), "column 5: expected ']' to close 'A[' opened at column 2, found the end of the string");
    assert_eq!(err("A["), "column 3: expected ']' to close 'A[' opened at column 2, found the end of the string");
    assert_eq!(err("Straße[ü ö]"), "column 10: expected '-', '[' or ']' after the child 'ü', found 'ö'");
}

#[test]
fn rm_shapes_serialise_as_structure_strings() {
    let rm: RmShape = "AP[AP[BMP[m-q]-a]-usde] wj".parse().unwrap();
    let json = serde_json::to_string(&rm).unwrap();
    assert_eq!(json, "\"AP[AP[BMP[m-q]-a]-usde] wj\"");
    assert_eq!(serde_json::from_str::<RmShape>(&json).unwrap(), rm);
    let e = serde_json::from_str::<RmShape>("\"A[B\"").unwrap_err().to_string();
    assert!(e.contains("column 4: expected ']' to close 'A['"), "{e}");
    assert!(serde_json::from_str::<RmShape>("3").is_err());
    let c: Constraints = serde_json::from_str(r#"{"alpha":3,"beta":1.5}"#).unwrap();
    assert_eq!(c, Constraints::PAPER);
    let c: Constraints = serde_json::from_str(r#"{"alpha":2,"beta":1,"height":"edges"}"#).unwrap();
    assert_eq!(c.height, HeightMeasure::Edges);
}

#[test]
fn shapes_split_into_ms_and_concatenate() {
    let a: RmShape = "IN".parse().unwrap();
    let b: RmShape = "NP-A[NPB[PRP-NN]]".parse().unwrap();
    let ab = RmShape::concat([&a, &b]).unwrap();
    assert_eq!(ab.to_string(), "IN NP-A[NPB[PRP-NN]]");
    assert_eq!(strings(ab.ms()), ["IN", "NP-A[NPB[PRP-NN]]"]);
    assert_eq!(ab.ms().map(|m| m.root_label()).collect::<Vec<_>>(), ["IN", "NP-A"]);
    assert_eq!(ab.word_count(), 3);
    assert!(RmShape::concat([]).is_none());
    let tree = t("(S (A a))");
    assert!(RmShape::from_tree(&tree, &[]).is_none());
    assert!(RmShape::from_tree(&tree, &[NodeId::new(2)]).is_none());
    assert_eq!(RmShape::from_tree(&tree, &[NodeId::new(1), NodeId::new(0)]).unwrap().to_string(), "A S[A]");
}

#[test]
fn deep_and_wide_inputs_do_not_overflow_or_blow_up() {
    // 100 000 nested brackets: a shape, written and read back without recursion.
    let depth = 100_000;
    let s = format!("{}x{}", "A[".repeat(depth), "]".repeat(depth));
    let rm = RmShape::parse(&s).unwrap();
    assert_eq!(rm.to_string(), s);
    assert_eq!(rm.ms().next().unwrap().height(HeightMeasure::Edges), depth);
    assert!(RmShape::parse(&"A[".repeat(depth)).is_err());
    // A deep unary tree: only the lowest levels are MS.
    let tree = t(&format!("{}(B b){}", "(A ".repeat(10_000), ")".repeat(10_000)));
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert_eq!(d.count_sms(), 2); // A[B] and B
    assert_eq!(strings(d.sms_iter()), ["A[B]", "B"]);
    // A flat 1000-word sentence: one MS of height 0 over 1000 pre-terminals.
    let words: String = (0..1000).map(|i| format!(" (W w{i})")).collect();
    let tree = t(&format!("(S{words})"));
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert_eq!(d.count_sms(), 2);
    // Sixty binary levels of phrases over pairs: the count saturates, listing stays capped.
    let mut s = String::from("(P (X a) (X b))");
    for _ in 0..60 {
        s = format!("(P {s} {s})");
        if s.len() > 1 << 16 {
            break;
        }
    }
    let tree = t(&s);
    let d = Decomposition::new(&tree, Constraints::PAPER);
    assert!(d.count_sms() > 1_000_000);
    assert_eq!(d.all_sms(DEFAULT_MAX_SMS).len(), DEFAULT_MAX_SMS);
}
