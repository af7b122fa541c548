//! The phrase-based baseline: extraction (word, DirC, EWoS), phrase-table
//! scores, the text form, the beam-search decoder and MERT, on hand-made
//! examples whose expected values are worked out in the comments; and an
//! end-to-end run on the SQUOIA German–Spanish treebank (ignored by default).

use std::f64::consts::LN_10;

use treelink::corpus::{Corpus, Named};
use treelink::eval::bleu::BleuStats;
use treelink::mt::decoder::{beam_search, BeamOptions};
use treelink::mt::lm::{read_arpa, NgramLm};
use treelink::mt::phrase::{
    combine, consistent_pairs, extract, read_phrase_table, subtree_pairs, write_phrase_table, AlignedPair,
    ExtractMethod, ExtractOptions, PhraseEntry, PhraseSystem, PhraseSystemConfig, PhraseSystemError, PhraseTable,
    PhraseTableOptions, SpanPair, LEX_FLOOR,
};
use treelink::mt::phrase::{
    decode_phrase, PhraseDecodeOptions, PhraseSearch, F_DIR_PHRASE, F_DISTORTION, F_LM, F_PHRASES, F_UNKNOWN, F_WORDS,
    NUM_PHRASE_FEATURES,
};
use treelink::mt::tune::{line_search, mert, optimize, Candidate, MertOptions, NBestPool};
use treelink::tree::{NodeId, Tree};

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn sp(s: std::ops::Range<usize>, t: std::ops::Range<usize>) -> SpanPair {
    SpanPair::new(s, t)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

// ------------------------------------------------------------ extraction ----

/// "A B C D" / "w x y z" with A-w, B-y, C-x; D and z unaligned.
const ALIGN: [(usize, usize); 3] = [(0, 0), (1, 2), (2, 1)];

/// Every pair consistent with ALIGN, listed by hand (source span | target span):
/// A|w; ABC|wxy and, z being unaligned, ABC|wxyz; the same with the unaligned
/// D: ABCD|wxy, ABCD|wxyz; B|y, B|yz; BC|xy, BC|xyz; BCD|xy, BCD|xyz; C|x,
/// CD|x. Not: AB (its targets w, y enclose x, which is linked to C), D alone
/// (no link), C|xy (y is linked to B).
fn hand_pairs() -> Vec<SpanPair> {
    vec![
        sp(0..1, 0..1),
        sp(0..3, 0..3),
        sp(0..3, 0..4),
        sp(0..4, 0..3),
        sp(0..4, 0..4),
        sp(1..2, 2..3),
        sp(1..2, 2..4),
        sp(1..3, 1..3),
        sp(1..3, 1..4),
        sp(1..4, 1..3),
        sp(1..4, 1..4),
        sp(2..3, 1..2),
        sp(2..4, 1..2),
    ]
}

#[test]
fn extraction_by_hand_with_unaligned_words() {
    assert_eq!(consistent_pairs(4, 4, &ALIGN, 7), hand_pairs());
    // With at most 2 words per side only the short ones remain.
    let short: Vec<SpanPair> = hand_pairs().into_iter().filter(|p| p.src_len() <= 2 && p.trg_len() <= 2).collect();
    assert_eq!(short.len(), 6);
    assert_eq!(consistent_pairs(4, 4, &ALIGN, 2), short);
    // Link order and repeats do not matter.
    assert_eq!(consistent_pairs(4, 4, &[(2, 1), (0, 0), (1, 2), (2, 1)], 7), hand_pairs());
    // No links: nothing.
    assert!(consistent_pairs(3, 3, &[], 7).is_empty());
}

fn example_trees() -> (Tree, Tree) {
    // Pre-order ids: S0 NP1 X2 Y3 VP4 Z5 W6 / S0 NP1 a2 b3 VP4 c5 d6.
    let s = Tree::parse_one("(S (NP (X A) (Y B)) (VP (Z C) (W D)))", "s").unwrap();
    let t = Tree::parse_one("(S (NP (a w) (b x)) (VP (c y) (d z)))", "t").unwrap();
    (s, t)
}

#[test]
fn dirc_and_ewos_by_hand() {
    let (s, t) = example_trees();
    // NP-NP: "A B" | "w x" is not word-consistent (B is linked to y);
    // Z-b: "C" | "x" and S-S: whole | whole are; 99 is not a node (ignored);
    // the second S-S link repeats a span pair (one pair).
    let links = [(1, 1), (5, 3), (0, 0), (99, 0), (0, 0)].map(|(s, t)| (NodeId::new(s), NodeId::new(t)));
    let tp = subtree_pairs(&s, &t, &links, 7);
    assert_eq!(tp, [sp(0..2, 0..2), sp(0..4, 0..4), sp(2..3, 1..2)]);
    // With at most 3 words per side, S-S is left out.
    assert_eq!(subtree_pairs(&s, &t, &links, 3), [sp(0..2, 0..2), sp(2..3, 1..2)]);

    let word = consistent_pairs(4, 4, &ALIGN, 7);
    let count = |v: &[(SpanPair, u32)], p: SpanPair| v.iter().find(|x| x.0 == p).map_or(0, |x| x.1);
    let w = combine(&word, &tp, ExtractMethod::Word);
    assert_eq!(w.len(), 13);
    assert!(w.iter().all(|x| x.1 == 1));
    // DirC: 14 distinct pairs; the two syntactic pairs that are also word-consistent count twice.
    let d = combine(&word, &tp, ExtractMethod::DirC);
    assert_eq!(d.len(), 14);
    assert_eq!(count(&d, sp(0..2, 0..2)), 1);
    assert_eq!(count(&d, sp(2..3, 1..2)), 2);
    assert_eq!(count(&d, sp(0..4, 0..4)), 2);
    assert_eq!(d.iter().map(|x| x.1).sum::<u32>(), 16);
    // EWoS: the same 14 pairs, each once.
    let e = combine(&word, &tp, ExtractMethod::EWoS);
    assert_eq!(e.iter().map(|x| x.0).collect::<Vec<_>>(), d.iter().map(|x| x.0).collect::<Vec<_>>());
    assert!(e.iter().all(|x| x.1 == 1));

    // Through the phrase table (one sentence, no pruning).
    let (src, trg) = (words("A B C D"), words("w x y z"));
    let table = |method| {
        let pair = AlignedPair { source: &src, target: &trg, alignment: &ALIGN, subtree: &tp };
        let opts = PhraseTableOptions { extract: ExtractOptions { method, max_phrase_len: 7 }, top_k: None };
        PhraseTable::train(&[pair], &opts)
    };
    let (tw, td, te) = (table(ExtractMethod::Word), table(ExtractMethod::DirC), table(ExtractMethod::EWoS));
    assert_eq!((tw.len(), td.len(), te.len()), (13, 14, 14));
    // φ(C|x): x is the target of C|x and CD|x: Word and EWoS 1/2; DirC counts C|x twice: 2/3.
    assert!(close(tw.get(&["C"], &["x"]).unwrap().scores[0], 0.5));
    assert!(close(te.get(&["C"], &["x"]).unwrap().scores[0], 0.5));
    assert!(close(td.get(&["C"], &["x"]).unwrap().scores[0], 2.0 / 3.0));
    assert!(close(td.get(&["C", "D"], &["x"]).unwrap().scores[0], 1.0 / 3.0));
    // A B | w x only comes from the sub-tree link.
    assert!(tw.get(&["A", "B"], &["w", "x"]).is_none());
    let ab = te.get(&["A", "B"], &["w", "x"]).unwrap();
    // φ both ways 1. Inside the pair only A-w is linked: lex(e|f) = w(w|A) · w(x|NULL),
    // and x was never unaligned, so the factor is the floor; lex(f|e) = w(A|w) · w(B|NULL),
    // B was never unaligned either.
    assert_eq!(ab.scores, [1.0, LEX_FLOOR, 1.0, LEX_FLOOR]);
    assert_eq!(td.get(&["A", "B"], &["w", "x"]), Some(ab));
    // Word ignores the links; extract() checks the spans it is given.
    let bad = [sp(3..9, 0..1), sp(2..3, 1..2)];
    let pair = AlignedPair { source: &src, target: &trg, alignment: &ALIGN, subtree: &bad };
    let opts = ExtractOptions { method: ExtractMethod::DirC, max_phrase_len: 7 };
    let got = extract(&pair, &opts);
    assert_eq!(got.len(), 13);
    assert_eq!(count(&got, sp(2..3, 1..2)), 2);
}

// ----------------------------------------------------------- phrase table ----

/// Five sentence pairs; the scores below are worked out by hand.
/// (source, target, word alignment).
type Sample = (Vec<String>, Vec<String>, Vec<(usize, usize)>);

fn small_bitext() -> Vec<Sample> {
    vec![
        (words("das Haus"), words("the house"), vec![(0, 0), (1, 1)]),
        (words("das Haus"), words("the home"), vec![(0, 0), (1, 1)]),
        (words("das Buch"), words("the book"), vec![(0, 0), (1, 1)]),
        (words("ein Buch"), words("a nice book"), vec![(0, 0), (1, 2)]),
        (words("Buch"), words("the book"), vec![(0, 1)]),
    ]
}

fn small_table(top_k: Option<usize>) -> PhraseTable {
    let data = small_bitext();
    let pairs: Vec<AlignedPair<'_>> =
        data.iter().map(|(s, t, a)| AlignedPair { source: s, target: t, alignment: a, subtree: &[] }).collect();
    PhraseTable::train(&pairs, &PhraseTableOptions { top_k, ..PhraseTableOptions::default() })
}

#[test]
fn phrase_table_scores_by_hand() {
    // Word links: das-the 3, Haus-house 1, Haus-home 1, Buch-book 3, ein-a 1,
    // NULL-nice 1, NULL-the 1 (S5). Totals: c(das)=3 c(Haus)=2 c(Buch)=3
    // c(ein)=1 c(NULL)=2; c(the)=4 c(house)=1 c(home)=1 c(book)=3 c(a)=1 c(nice)=1.
    // w(e|f): the|das 1, house|Haus 1/2, book|Buch 1, a|ein 1, nice|NULL 1/2, the|NULL 1/2.
    // w(f|e): das|the 3/4, Haus|house 1, Buch|book 1, ein|a 1.
    // Phrase pairs (count): das|the 3, Haus|house 1, Haus|home 1, das Haus|the house 1,
    // das Haus|the home 1, das Buch|the book 1, Buch|book 3, ein|a 1, ein|a nice 1,
    // Buch|nice book 1, ein Buch|a nice book 1, Buch|the book 1 (12 pairs).
    // c(Buch) = 5, c(the book) = 2.
    let t = small_table(None);
    assert_eq!(t.len(), 12);
    assert_eq!(t.source_phrases(), 7);
    assert_eq!(t.max_source_len(), 2);
    let expect: [(&str, &str, [f64; 4]); 9] = [
        // [φ(f|e), lex(f|e), φ(e|f), lex(e|f)]
        ("Buch", "the book", [0.5, 1.0, 0.2, 0.5]), // lex(e|f) = w(the|NULL)·w(book|Buch)
        ("das Buch", "the book", [0.5, 0.75, 1.0, 1.0]), // lex(f|e) = w(das|the)·w(Buch|book)
        ("Buch", "book", [1.0, 1.0, 0.6, 1.0]),
        ("Buch", "nice book", [1.0, 1.0, 0.2, 0.5]),
        ("ein", "a nice", [1.0, 1.0, 0.5, 0.5]),
        ("Haus", "house", [1.0, 1.0, 0.5, 0.5]),
        ("das", "the", [1.0, 0.75, 1.0, 1.0]),
        ("das Haus", "the house", [1.0, 0.75, 0.5, 0.5]),
        ("ein Buch", "a nice book", [1.0, 1.0, 1.0, 0.5]),
    ];
    for (s, e, scores) in expect {
        let entry = t.get(&words(s), &words(e)).unwrap_or_else(|| panic!("{s} ||| {e} missing"));
        for (k, (&got, want)) in entry.scores.iter().zip(scores).enumerate() {
            assert!(close(got, want), "{s} ||| {e}: score {k} is {got} not {want}");
        }
    }
    // Translations of Buch in pruning order: book (0.6·1), then nice book and the book
    // (0.2·0.5 each), tied and broken by φ(f|e): 1 before 1/2.
    let order: Vec<String> = t.lookup(&words("Buch")).iter().map(|e| e.target.join(" ")).collect();
    assert_eq!(order, ["book", "nice book", "the book"]);
    let pruned = small_table(Some(2));
    let order: Vec<String> = pruned.lookup(&words("Buch")).iter().map(|e| e.target.join(" ")).collect();
    assert_eq!(order, ["book", "nice book"]);
    assert_eq!(pruned.len(), 11);
    assert!(pruned.lookup(&words("Auto")).is_empty());
}

#[test]
fn phrase_table_text_round_trip_and_errors() {
    let t = small_table(None);
    let text = write_phrase_table(&t);
    assert!(text.contains("Buch ||| the book ||| 0.5 1 0.2 0.5\n"), "{text}");
    let back = read_phrase_table(&text, "pt.txt").unwrap();
    assert_eq!(back, t);
    assert_eq!(write_phrase_table(&back), text);
    // serde (the model file) too.
    let json = serde_json::to_string(&t).unwrap();
    assert_eq!(serde_json::from_str::<PhraseTable>(&json).unwrap(), t);

    // Moses' extra fields are accepted, blank lines skipped, order restored.
    let moses = "\nb ||| y ||| 1 1 0.5 1 ||| 0-0 ||| 2 2 1\na ||| x ||| 1 1 1 1\n";
    let m = read_phrase_table(moses, "m").unwrap();
    assert_eq!(write_phrase_table(&m), "a ||| x ||| 1 1 1 1\nb ||| y ||| 1 1 0.5 1\n");

    let err = |text: &str| read_phrase_table(text, "t").unwrap_err().to_string();
    assert_eq!(err("a b ||| x\n"), "t:1:10: expected '|||' after the target phrase, found end of line");
    assert_eq!(err("a b x"), "t:1:6: expected '|||' after the source phrase, found end of line");
    assert_eq!(err("||| x ||| 1 1 1 1"), "t:1:1: expected a source phrase, found '|||'");
    assert_eq!(err("a ||| ||| 1 1 1 1"), "t:1:7: expected a target phrase, found '|||'");
    assert_eq!(
        err("a ||| x ||| 0.5 0.5 0.5\n"),
        "t:1:24: expected 4 scores (φ(f|e) lex(f|e) φ(e|f) lex(e|f)), found end of line after 3 score(s)"
    );
    assert_eq!(err("a ||| x ||| 0.5 2 0.5 0.5"), "t:1:17: expected a probability in (0, 1], found '2'");
    assert_eq!(err("a ||| x ||| 0.5 x 0.5 0.5"), "t:1:17: expected a probability in (0, 1], found 'x'");
    assert_eq!(err("a ||| x ||| 1 1 1 1 1"), "t:1:21: expected '|||' or the end of the line after 4 scores, found '1'");
    assert_eq!(
        err("a ||| x ||| 1 1 1 1\n\nb ||| y ||| 1 1 1 1\na ||| x ||| 1 1 1 0.5"),
        "t:4:1: expected each phrase pair once (first on line 1), found 'a ||| x' again"
    );
    // The serde form refuses what the text form refuses.
    assert!(serde_json::from_str::<PhraseTable>(r#"[["a","x",[1,1,1,0]]]"#).is_err());
    assert!(serde_json::from_str::<PhraseTable>(r#"[["a","",[1,1,1,1]]]"#).is_err());
}

// ---------------------------------------------------------------- decoder ----

/// A bigram LM: every unigram log10 p = -1, and the bigrams `<s> Y`, `Y X`,
/// `X </s>` have -0.1; all backoff weights are 0, so an unlisted bigram
/// scores its unigram: "X Y" gets -3 (log10), "Y X" gets -0.3.
fn lm_xy() -> NgramLm {
    let arpa = "\\data\\\nngram 1=5\nngram 2=3\n\n\\1-grams:\n-1\t<unk>\n-99\t<s>\n-1\t</s>\n-1\tX\n-1\tY\n\n\
                \\2-grams:\n-0.1\t<s> Y\n-0.1\tY X\n-0.1\tX </s>\n\n\\end\\\n";
    read_arpa(arpa, "xy.arpa").unwrap()
}

fn entry(s: &str, t: &str, scores: [f64; 4]) -> PhraseEntry {
    PhraseEntry { source: words(s), target: words(t), scores }
}

/// Weights: φ(e|f) 1, LM 1, distortion `wd`, everything else 0.
fn weights(wd: f64) -> Vec<f64> {
    let mut w = vec![0.0; NUM_PHRASE_FEATURES];
    w[F_DIR_PHRASE] = 1.0;
    w[F_LM] = 1.0;
    w[F_DISTORTION] = wd;
    w
}

fn decode_opts(limit: Option<usize>, nbest: usize) -> PhraseDecodeOptions {
    PhraseDecodeOptions {
        beam: BeamOptions { nbest, ..BeamOptions::default() },
        distortion_limit: limit,
        ttable_limit: Some(20),
        distinct_nbest: false,
    }
}

#[test]
fn decoder_reordering_and_distortion_limit_by_hand() {
    let lm = lm_xy();
    let table =
        PhraseTable::from_entries(vec![entry("a", "X", [1.0, 1.0, 0.5, 1.0]), entry("b", "Y", [1.0, 1.0, 0.5, 1.0])])
            .unwrap();
    let src = words("a b");
    let ln_half = 0.5f64.ln();
    // Monotone "X Y": 2 ln 0.5 + (-3) ln 10, no distortion.
    let monotone = 2.0 * ln_half - 3.0 * LN_10;
    // Reordered "Y X": b first (jump |1 - 0| = 1), then a (jump |0 - 2| = 2): distortion -3;
    // LM -0.3 log10.
    let reordered_features = [0.0, 0.0, 2.0 * ln_half, 0.0, -0.3 * LN_10, -3.0, 2.0, 2.0, 0.0];
    // With distortion weight 1: 2 ln 0.5 - 0.3 ln 10 - 3 = -5.077 > -8.294: reordered.
    let t = decode_phrase(&table, &lm, &src, &weights(1.0), &decode_opts(Some(6), 10));
    assert_eq!(t.words, words("Y X"));
    assert!(close(t.score, 2.0 * ln_half - 0.3 * LN_10 - 3.0), "{}", t.score);
    for (k, &f) in reordered_features.iter().enumerate() {
        assert!(close(t.features[k], f), "feature {k}: {} vs {f}", t.features[k]);
    }
    assert_eq!(t.derivation.len(), 2);
    assert_eq!((t.derivation[0].source, t.derivation[1].source), ((1, 2), (0, 1)));
    // The n-best list holds exactly the two derivations, best first.
    assert_eq!(t.nbest.len(), 2);
    assert_eq!(t.nbest[1].words, words("X Y"));
    assert!(close(t.nbest[1].score, monotone));
    assert!(close(t.nbest[1].features[F_DISTORTION], 0.0));
    assert!(close(t.nbest[1].features[F_LM], -3.0 * LN_10));
    // Distortion limit 1: going to b first leaves a gap and ends 2 words after it: refused.
    let t = decode_phrase(&table, &lm, &src, &weights(1.0), &decode_opts(Some(1), 10));
    assert_eq!(t.words, words("X Y"));
    assert!(close(t.score, monotone));
    assert_eq!(t.nbest.len(), 1);
    // Distortion weight 3: -1.386 - 0.691 - 9 = -11.077 < -8.294: monotone wins.
    let t = decode_phrase(&table, &lm, &src, &weights(3.0), &decode_opts(Some(6), 1));
    assert_eq!(t.words, words("X Y"));
    assert!(close(t.score, monotone));
    // The feature vectors agree with the scores.
    for e in &decode_phrase(&table, &lm, &src, &weights(1.0), &decode_opts(None, 10)).nbest {
        let s: f64 = e.features.iter().zip(weights(1.0)).map(|(f, w)| f * w).sum();
        assert!(close(s, e.score));
    }
}

#[test]
fn recombination_keeps_nbest_entries() {
    let lm = lm_xy();
    // "a b" -> "X Y" as one phrase (φ 0.5) or two (φ 0.5 each).
    let table = PhraseTable::from_entries(vec![
        entry("a", "X", [1.0, 1.0, 0.5, 1.0]),
        entry("b", "Y", [1.0, 1.0, 0.5, 1.0]),
        entry("a b", "X Y", [1.0, 1.0, 0.5, 1.0]),
    ])
    .unwrap();
    let src = words("a b");
    let ln_half = 0.5f64.ln();
    // [a b→X Y]: ln 0.5 - 3 ln 10; [a→X][b→Y]: 2 ln 0.5 - 3 ln 10 (same coverage, LM
    // state and last position: recombined into the first); [b→Y][a→X]: 2 ln 0.5 - 0.3 ln 10 - 9.
    let expected = [
        (words("X Y"), ln_half - 3.0 * LN_10, 1.0),
        (words("X Y"), 2.0 * ln_half - 3.0 * LN_10, 2.0),
        (words("Y X"), 2.0 * ln_half - 0.3 * LN_10 - 9.0, 2.0),
    ];
    let mut lists = Vec::new();
    for recombine in [true, false] {
        let opts = PhraseDecodeOptions {
            beam: BeamOptions { nbest: 10, recombine, ..BeamOptions::default() },
            ..decode_opts(Some(6), 10)
        };
        let t = decode_phrase(&table, &lm, &src, &weights(3.0), &opts);
        assert_eq!(t.stats.recombined, usize::from(recombine));
        assert_eq!(t.nbest.len(), 3);
        for (e, (w, s, phrases)) in t.nbest.iter().zip(&expected) {
            assert_eq!(&e.words, w);
            assert!(close(e.score, *s), "{} vs {s}", e.score);
            assert_eq!(e.features[F_PHRASES], *phrases);
        }
        assert_eq!(t.derivation.len(), 1);
        lists.push(t.nbest);
    }
    assert_eq!(lists[0], lists[1]);
}

#[test]
fn stack_limit_and_threshold_pruning() {
    // a -> X1 (φ 0.6) or X2 (φ 0.4), b -> Y; the LM likes "X2 Y" (-0.1) and scores
    // every other bigram by its unigram (-1). Monotone only (distortion limit 0).
    let arpa = "\\data\\\nngram 1=6\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-99\t<s>\n-1\t</s>\n-1\tX1\n-1\tX2\n-1\tY\n\n\
                \\2-grams:\n-0.1\tX2 Y\n\n\\end\\\n";
    let lm = read_arpa(arpa, "x12.arpa").unwrap();
    let table = PhraseTable::from_entries(vec![
        entry("a", "X1", [1.0, 1.0, 0.6, 1.0]),
        entry("a", "X2", [1.0, 1.0, 0.4, 1.0]),
        entry("b", "Y", [1.0, 1.0, 1.0, 1.0]),
    ])
    .unwrap();
    let src = words("a b");
    let x1y = 0.6f64.ln() - 3.0 * LN_10; // -7.419
    let x2y = 0.4f64.ln() - 2.1 * LN_10; // -5.752: the best translation
    let run = |stack_limit: usize, beam_threshold: f64| {
        let opts = PhraseDecodeOptions {
            beam: BeamOptions { stack_limit, beam_threshold, nbest: 1, recombine: true },
            distortion_limit: Some(0),
            ttable_limit: None,
            distinct_nbest: false,
        };
        decode_phrase(&table, &lm, &src, &weights(0.0), &opts)
    };
    let t = run(100, 1e-5);
    assert_eq!(t.words, words("X2 Y"));
    assert!(close(t.score, x2y));
    // Stack 1 keeps only the better partial hypothesis, X1 (ln 0.6 > ln 0.4, same LM and future).
    let t = run(1, 1e-5);
    assert_eq!(t.words, words("X1 Y"));
    assert!(close(t.score, x1y));
    assert!(t.stats.pruned >= 1);
    // X2 ranks ln 1.5 = 0.405 below X1 in stack 1: a beam of 0.3 drops it, 0.5 keeps it.
    assert_eq!(run(100, (-0.3f64).exp()).words, words("X1 Y"));
    assert_eq!(run(100, (-0.5f64).exp()).words, words("X2 Y"));
}

#[test]
fn unknown_words_empty_sentences_and_determinism() {
    let lm = lm_xy();
    let table = PhraseTable::from_entries(vec![entry("a", "X", [1.0, 1.0, 0.5, 1.0])]).unwrap();
    let opts = PhraseDecodeOptions::default();
    let mut w = weights(1.0);
    w[F_UNKNOWN] = -100.0;
    let t = decode_phrase(&table, &lm, &words("a q"), &w, &opts);
    assert_eq!(t.words, words("X q"));
    assert_eq!(t.features[F_UNKNOWN], 1.0);
    assert_eq!(t.features[F_WORDS], 2.0);
    assert!(t.derivation[1].unknown && !t.derivation[0].unknown);
    // "q" is <unk> to the LM: <s> X -1, X <unk> -1, <unk> </s> -1 (log10).
    assert!(close(t.features[F_LM], -3.0 * LN_10));
    assert!(close(t.score, 0.5f64.ln() - 3.0 * LN_10 - 100.0));
    // An empty sentence: only p(</s> | <s>) = -1 (log10).
    let t = decode_phrase(&table, &lm, &[], &w, &opts);
    assert!(t.words.is_empty());
    assert!(close(t.features[F_LM], -LN_10));
    assert!(close(t.score, -LN_10));
    // Same input, same output, bit for bit; missing weights count as 0.
    let a = decode_phrase(&table, &lm, &words("a q a a"), &w, &opts);
    let b = decode_phrase(&table, &lm, &words("a q a a"), &w, &opts);
    assert_eq!(a, b);
    let _ = decode_phrase(&table, &lm, &words("a q"), &[1.0], &opts);
    // Non-finite weights: no translation, no panic.
    let t = decode_phrase(&table, &lm, &words("a q"), &[f64::NAN; 9], &opts);
    assert!(t.words.is_empty() && t.score == f64::NEG_INFINITY);
    // An empty table copies every word.
    let t = decode_phrase(&PhraseTable::default(), &lm, &words("a q"), &w, &opts);
    assert_eq!(t.words, words("a q"));
    assert_eq!(t.features[F_UNKNOWN], 2.0);
    // The generic search directly.
    let model = PhraseSearch::new(&table, &lm, &words("a a"), &opts);
    assert_eq!(model.options().len(), 2);
    let r = beam_search(&model, &w, &BeamOptions::default());
    assert_eq!(r.nbest[0].options, [0, 1]);
}

// ------------------------------------------------------------------- MERT ----

/// Two sentences with references "a b c d" and "e f g h"; sentence 1 has the
/// correct A (features [1, 0]) and a wrong B ([0, 1]); sentence 2 the correct
/// C ([0, 1]) and a wrong D ([1, 0.5]). Both are right iff w1 > w2 and
/// w2 > w1 + w2/2, i.e. w2 < w1 < w2/2 (so w2 < 0): BLEU 100 there; one right
/// gives c = r = 8, matches 4/3/2/1 of 8/6/4/2: every precision 1/2, BLEU 50.
fn synthetic_pool() -> NBestPool {
    let refs = [words("a b c d"), words("e f g h")];
    let mut pool = NBestPool::new(&refs);
    let cand = |s: &str, f: [f64; 2], r: &[String]| Candidate {
        features: f.to_vec(),
        stats: BleuStats::from_tokens(&words(s), &[r]),
    };
    assert!(pool.add(0, cand("a b c d", [1.0, 0.0], &refs[0])));
    assert!(pool.add(0, cand("x y z w", [0.0, 1.0], &refs[0])));
    assert!(pool.add(1, cand("e f g h", [0.0, 1.0], &refs[1])));
    assert!(pool.add(1, cand("p q r s", [1.0, 0.5], &refs[1])));
    assert!(!pool.add(1, cand("p q r s", [1.0, 0.5], &refs[1])));
    pool
}

fn in_optimum(w: &[f64]) -> bool {
    w[1] < w[0] && w[0] < w[1] / 2.0
}

#[test]
fn mert_line_search_by_hand() {
    let pool = synthetic_pool();
    assert!(close(pool.bleu(&[1.0, 0.0]), 50.0));
    assert!(close(pool.bleu(&[-2.0, -3.0]), 100.0));
    // Along (0, 1) from (1, 0): sentence 1 switches to B at γ = 1, sentence 2 to C at
    // γ = 2 (γ > 1 + γ/2): BLEU 50, 0, 50; nothing beats 50: stay.
    let ls = line_search(&pool, &[1.0, 0.0], &[0.0, 1.0], 1e-6);
    assert_eq!(ls.breakpoints, [1.0, 2.0]);
    assert!(close(ls.interval_bleu[0], 50.0) && ls.interval_bleu[1] == 0.0 && close(ls.interval_bleu[2], 50.0));
    assert_eq!(ls.gamma, 0.0);
    // Along (-1, -1): sentence 1 keeps A (1 - γ > -γ), sentence 2 takes C once
    // -γ > 1 - 1.5γ, i.e. γ > 2: BLEU 100 on (2, ∞); γ = 2 + 1.
    let ls = line_search(&pool, &[1.0, 0.0], &[-1.0, -1.0], 1e-6);
    assert_eq!(ls.breakpoints, [2.0]);
    assert_eq!(ls.gamma, 3.0);
    assert!(close(ls.bleu, 100.0));
    assert!(in_optimum(&[1.0 - 3.0, -3.0]));
}

#[test]
fn mert_optimize_finds_the_hand_optimum() {
    let pool = synthetic_pool();
    // Coordinate directions alone cannot leave (1, 0): along (1, 0) it is 50 / 50
    // (switch at γ = -1), along (0, 1) as above.
    let coord = MertOptions { random_directions: 0, random_restarts: 0, ..MertOptions::default() };
    let (w, bleu) = optimize(&pool, &[1.0, 0.0], &coord);
    assert_eq!(w, [1.0, 0.0]);
    assert!(close(bleu, 50.0));
    // With random directions and restarts it reaches the cone w2 < w1 < w2/2.
    let opts = MertOptions::default();
    let (w, bleu) = optimize(&pool, &[1.0, 0.0], &opts);
    assert!(close(bleu, 100.0), "{bleu} at {w:?}");
    assert!(in_optimum(&w), "{w:?}");
    assert!(close(w[0].abs() + w[1].abs(), 1.0));
    // Deterministic with the seed.
    assert_eq!(optimize(&pool, &[1.0, 0.0], &opts).0, w);
    // A fixed weight stays (up to the common positive scaling).
    let fixed = MertOptions { fixed: vec![0], ..MertOptions::default() };
    let (w, _) = optimize(&pool, &[1.0, 0.0], &fixed);
    assert!(w[0] > 0.0);
}

#[test]
fn mert_outer_loop() {
    // A "decoder" over the fixed candidates of the synthetic problem: the
    // whole list, best first under the weights.
    let refs = vec![words("a b c d"), words("e f g h")];
    let cands = [
        vec![(words("a b c d"), vec![1.0, 0.0]), (words("x y z w"), vec![0.0, 1.0])],
        vec![(words("e f g h"), vec![0.0, 1.0]), (words("p q r s"), vec![1.0, 0.5])],
    ];
    let mut calls = 0;
    let report = mert(&refs, &[1.0, 0.0], &MertOptions::default(), |w| {
        calls += 1;
        cands
            .iter()
            .map(|list| {
                let mut l = list.clone();
                let score = |f: &[f64]| w[0] * f[0] + w[1] * f[1];
                l.sort_by(|a, b| score(&b.1).total_cmp(&score(&a.1)));
                l
            })
            .collect()
    });
    // Decode (50), optimise on the full pool, decode again (100, nothing new): stop.
    assert_eq!(calls, 2);
    assert_eq!(report.iterations.len(), 2);
    assert!(close(report.iterations[0].decoded_bleu, 50.0));
    assert!(close(report.bleu, 100.0));
    assert!(in_optimum(&report.weights));
}

// ----------------------------------------------------------------- system ----

fn tiny_corpus() -> Corpus {
    let src = "(S (ART das) (NN Haus))\n(S (ART das) (NN Buch))\n(S (ART ein) (NN Buch))\n(S (NN Buch) (ADJ klein))\n";
    let trg =
        "(S (DT the) (NN house))\n(S (DT the) (NN book))\n(S (DT a) (NN book))\n(S (DT the) (NN book) (JJ small))\n";
    Corpus::from_texts(Named { name: "t.src", text: src }, Named { name: "t.trg", text: trg }, None).unwrap()
}

fn tiny_alignments() -> Vec<Vec<(usize, usize)>> {
    vec![vec![(0, 0), (1, 1)], vec![(0, 0), (1, 1)], vec![(0, 0), (1, 1)], vec![(0, 1), (1, 2)]]
}

#[test]
fn phrase_system_train_translate_save() {
    let corpus = tiny_corpus();
    let config = PhraseSystemConfig { lm_order: 2, ..PhraseSystemConfig::default() };
    let sys = PhraseSystem::train(&corpus, &tiny_alignments(), None, &config).unwrap();
    assert_eq!(sys.translate(&words("das Haus")).words, words("the house"));
    assert_eq!(sys.translate(&words("ein Buch")).words, words("a book"));
    // The model file round-trips and decodes the same.
    let json = sys.to_json();
    let back = PhraseSystem::from_json(&json, "m.json").unwrap();
    assert_eq!(back, sys);
    assert_eq!(back.translate(&words("das Buch klein")), sys.translate(&words("das Buch klein")));
    // Training twice gives the same system.
    assert_eq!(PhraseSystem::train(&corpus, &tiny_alignments(), None, &config).unwrap(), sys);
    // Errors.
    let e = PhraseSystem::train(&corpus, &tiny_alignments()[..2], None, &config).unwrap_err();
    assert_eq!(e.to_string(), "expected 4 word alignments (one per sentence pair), found 2");
    let e = PhraseSystem::from_json("{", "m.json").unwrap_err();
    assert!(matches!(&e, PhraseSystemError::Json(j) if j.line == 1), "{e}");
    assert!(e.to_string().starts_with("m.json:1:"), "{e}");
    let mut bad = sys.clone();
    bad.weights.pop();
    let e = PhraseSystem::from_json(&bad.to_json(), "m.json").unwrap_err().to_string();
    assert!(e.starts_with("m.json:1:"), "{e}");
    assert!(e.contains("at weights: expected 9 finite feature weights, found 8"), "{e}");

    // DirC with a gold-style link: the NN-NN link "Buch" | "book" in pair 4.
    let links = vec![vec![], vec![], vec![], vec![(NodeId::new(1), NodeId::new(2))]];
    let dirc = PhraseSystemConfig {
        table: PhraseTableOptions {
            extract: ExtractOptions { method: ExtractMethod::DirC, max_phrase_len: 7 },
            top_k: None,
        },
        ..config.clone()
    };
    let d = PhraseSystem::train(&corpus, &tiny_alignments(), Some(&links), &dirc).unwrap();
    // Buch|book: 3 from the word alignment + 1 from the link; Buch|the book 1 (pair 4): φ = 4/5.
    assert!(close(d.table.get(&["Buch"], &["book"]).unwrap().scores[2], 0.8));
    assert!(close(sys.table.get(&["Buch"], &["book"]).unwrap().scores[2], 0.75));
    // Tuning on the training sentences themselves: BLEU can only go up from the start.
    let mut tuned = sys.clone();
    let sources: Vec<Vec<String>> = corpus.pairs.iter().map(|p| p.source.words().to_vec()).collect();
    let refs: Vec<Vec<String>> = corpus.pairs.iter().map(|p| p.target.words().to_vec()).collect();
    let opts = MertOptions { iterations: 2, nbest: 10, ..MertOptions::default() };
    let report = tuned.tune(&sources, &refs, &opts).unwrap();
    assert!(report.bleu >= report.iterations[0].decoded_bleu);
    assert_eq!(tuned.weights, report.weights);
}

// ------------------------------------------------------------- real data ----

#[cfg(not(target_arch = "wasm32"))]
mod real_data {
    use super::*;
    use std::time::Instant;
    use treelink::eval::bleu::corpus_bleu_tokens;
    use treelink::lexicon::{bitext_of, train, LexiconOptions};
    use treelink::mt::phrase::gold_subtree_links;

    const DATA: &str = "/work/shared/data/squoia-de-es/bracketed";

    fn decode_all(sys: &PhraseSystem, corpus: &Corpus) -> (f64, f64) {
        let start = Instant::now();
        let hyps: Vec<Vec<String>> = corpus.pairs.iter().map(|p| sys.translate(p.source.words()).words).collect();
        let secs = start.elapsed().as_secs_f64();
        let refs: Vec<Vec<String>> = corpus.pairs.iter().map(|p| p.target.words().to_vec()).collect();
        let bleu = corpus_bleu_tokens(&hyps, &refs).unwrap();
        (bleu.score, corpus.len() as f64 / secs)
    }

    /// Decoding speed on 20-word sentences and the consistency of n-best lists.
    fn speed_and_nbest_checks(sys: &PhraseSystem, dev: &Corpus, test: &Corpus) {
        let twenty: Vec<&[String]> =
            dev.pairs.iter().chain(&test.pairs).map(|p| p.source.words()).filter(|w| w.len() == 20).collect();
        let mut slowest = 0.0f64;
        let t0 = Instant::now();
        for s in &twenty {
            let t1 = Instant::now();
            let _ = sys.translate(s);
            slowest = slowest.max(t1.elapsed().as_secs_f64());
        }
        let each = t0.elapsed().as_secs_f64() / twenty.len().max(1) as f64;
        println!(
            "  {} sentences of 20 words: {:.1} ms each on average, slowest {:.1} ms",
            twenty.len(),
            each * 1e3,
            slowest * 1e3
        );
        assert!(slowest < 1.0);
        // n-best lists: best first, scores = weights · features, the first is the 1-best.
        let mut opts = sys.config.decode.clone();
        opts.beam.nbest = 100;
        for p in dev.pairs.iter().take(20) {
            let t = sys.translate_with(p.source.words(), &sys.weights, &opts);
            assert_eq!(t.nbest[0].words, t.words);
            assert_eq!(t, {
                let mut one = sys.translate(p.source.words());
                one.nbest = t.nbest.clone();
                one.stats = t.stats;
                one
            });
            for w in t.nbest.windows(2) {
                assert!(w[0].score >= w[1].score - 1e-9);
            }
            for e in &t.nbest {
                let s: f64 = e.features.iter().zip(&sys.weights).map(|(f, w)| f * w).sum();
                assert!((s - e.score).abs() < 1e-6 * (1.0 + s.abs()), "{s} vs {}", e.score);
            }
        }
    }

    #[test]
    #[ignore = "slow: trains word alignments and three phrase systems on 2728 pairs, decodes and tunes (run with --release)"]
    fn squoia_end_to_end() {
        let train_c = Corpus::read_prefix(&format!("{DATA}/train"), true).unwrap();
        let dev = Corpus::read_prefix(&format!("{DATA}/dev"), false).unwrap();
        let test = Corpus::read_prefix(&format!("{DATA}/test"), false).unwrap();
        let t0 = Instant::now();
        let training = train(&bitext_of(&train_c), &LexiconOptions::default(), &mut |_| {});
        println!("word alignment: {:.1} s", t0.elapsed().as_secs_f64());
        let links = gold_subtree_links(&train_c, true);
        let sources: Vec<Vec<String>> = dev.pairs.iter().map(|p| p.source.words().to_vec()).collect();
        let refs: Vec<Vec<String>> = dev.pairs.iter().map(|p| p.target.words().to_vec()).collect();
        let mut test_bleu = Vec::new();
        for method in ExtractMethod::ALL {
            let config = PhraseSystemConfig {
                table: PhraseTableOptions {
                    extract: ExtractOptions { method, ..ExtractOptions::default() },
                    ..PhraseTableOptions::default()
                },
                ..PhraseSystemConfig::default()
            };
            let t0 = Instant::now();
            let mut sys = PhraseSystem::train(&train_c, &training.alignments, Some(&links), &config).unwrap();
            let secs = t0.elapsed().as_secs_f64();
            let (bleu, sps) = decode_all(&sys, &dev);
            println!(
                "{method}: {} entries, {} source phrases, trained in {secs:.1} s; dev BLEU {bleu:.2} with default weights, {sps:.1} sentences/s",
                sys.table.len(),
                sys.table.source_phrases()
            );
            if method == ExtractMethod::Word {
                speed_and_nbest_checks(&sys, &dev, &test);
            }
            let (bleu, _) = decode_all(&sys, &test);
            println!("  test BLEU {bleu:.2} with default weights");
            let t0 = Instant::now();
            let opts = MertOptions { iterations: 4, nbest: 100, ..MertOptions::default() };
            let report = sys.tune(&sources, &refs, &opts).unwrap();
            println!("  MERT: {:.1} s", t0.elapsed().as_secs_f64());
            for it in &report.iterations {
                println!(
                    "    decoded dev BLEU {:.2}, pool {} (+{}), optimised on the pool {:?}",
                    it.decoded_bleu, it.pool_candidates, it.new_candidates, it.optimized_bleu
                );
            }
            println!("  tuned weights {:?}", report.weights);
            let (dev_bleu, _) = decode_all(&sys, &dev);
            let (bleu, sps) = decode_all(&sys, &test);
            println!(
                "  {method}: dev BLEU {dev_bleu:.2} (tuned on dev); test BLEU {bleu:.2}, {sps:.1} sentences/s (tuned)"
            );
            if method == ExtractMethod::Word {
                for p in dev.pairs.iter().take(3) {
                    let t = sys.translate(p.source.words());
                    println!(
                        "  src: {}\n  hyp: {}\n  ref: {}",
                        p.source.words().join(" "),
                        t.words.join(" "),
                        p.target.words().join(" ")
                    );
                    let steps: Vec<String> = t
                        .derivation
                        .iter()
                        .map(|s| format!("[{}-{}) {}", s.source.0, s.source.1, s.target.join(" ")))
                        .collect();
                    println!("  derivation: {}", steps.join(" | "));
                }
            }
            test_bleu.push(bleu);
        }
        let bleu = test_bleu[0];
        assert!(bleu > 5.0);
    }
}

// ------------------------------------------------------------- properties ----

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use treelink::mt::decoder::{Coverage, SearchSpace};

    /// The definition, literally: every span pair within the length limit
    /// with a link inside and no link with exactly one end inside.
    fn brute_pairs(n: usize, m: usize, links: &[(usize, usize)], max: usize) -> Vec<SpanPair> {
        let mut out = Vec::new();
        for s0 in 0..n {
            for s1 in s0 + 1..=n.min(s0 + max) {
                for t0 in 0..m {
                    for t1 in t0 + 1..=m.min(t0 + max) {
                        let in_s = |i: usize| (s0..s1).contains(&i);
                        let in_t = |j: usize| (t0..t1).contains(&j);
                        let inside = links.iter().any(|&(i, j)| in_s(i) && in_t(j));
                        let crossing = links.iter().any(|&(i, j)| in_s(i) != in_t(j));
                        if inside && !crossing {
                            out.push(sp(s0..s1, t0..t1));
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Every complete derivation's score, by depth-first search over the model.
    fn all_scores(
        model: &PhraseSearch<'_>,
        w: &[f64],
        state: &<PhraseSearch<'_> as SearchSpace>::State,
        cov: &Coverage,
        score: f64,
        out: &mut Vec<f64>,
    ) {
        for (o, opt) in model.options().iter().enumerate() {
            if !cov.is_free(opt.start, opt.end) || !model.span_allowed(state, cov, opt.start, opt.end) {
                continue;
            }
            let mut d = vec![0.0; NUM_PHRASE_FEATURES];
            let Some(next) = model.extend(state, cov, o, &mut d) else { continue };
            let mut c = cov.clone();
            c.cover(opt.start, opt.end);
            if c.is_complete() {
                model.finish(&next, &mut d);
            }
            let s = score + d.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
            if c.is_complete() {
                out.push(s);
            } else {
                all_scores(model, w, &next, &c, s, out);
            }
        }
    }

    fn word(k: usize, alphabet: &[&str]) -> String {
        alphabet[k % alphabet.len()].to_string()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn extraction_is_the_definition(
            n in 1usize..7,
            m in 1usize..7,
            links in prop::collection::vec((0usize..7, 0usize..7), 0..10),
            max in 1usize..6,
        ) {
            let links: Vec<(usize, usize)> = links.into_iter().filter(|&(i, j)| i < n && j < m).collect();
            prop_assert_eq!(consistent_pairs(n, m, &links, max), brute_pairs(n, m, &links, max));
        }

        /// Without pruning the search is exact (recombination loses nothing),
        /// and the n-best list holds every derivation, with its score.
        #[test]
        fn unpruned_search_and_nbest_are_exhaustive(
            src in prop::collection::vec(0usize..3, 1..6),
            raw in prop::collection::vec(
                (prop::collection::vec(0usize..3, 1..3), prop::collection::vec(0usize..3, 1..3), prop::array::uniform4(0.05f64..1.0)),
                0..10,
            ),
            w in prop::collection::vec(-1.0f64..1.0, NUM_PHRASE_FEATURES),
            limit in prop::option::of(0usize..3),
        ) {
            let (sv, tv) = (["a", "b", "c"], ["X", "Y", "Z"]);
            let mut entries: Vec<PhraseEntry> = Vec::new();
            for (s, t, scores) in raw {
                let e = PhraseEntry {
                    source: s.iter().map(|&k| word(k, &sv)).collect(),
                    target: t.iter().map(|&k| word(k, &tv)).collect(),
                    scores,
                };
                if !entries.iter().any(|x| x.source == e.source && x.target == e.target) {
                    entries.push(e);
                }
            }
            let table = PhraseTable::from_entries(entries).unwrap();
            let lm = NgramLm::train(&[words("X Y"), words("Y Z X"), words("Z"), words("X X Y")], 2).unwrap();
            let source: Vec<String> = src.iter().map(|&k| word(k, &sv)).collect();
            let opts = PhraseDecodeOptions {
                beam: BeamOptions { stack_limit: 0, beam_threshold: 0.0, nbest: 1_000_000, recombine: true },
                distortion_limit: limit,
                ttable_limit: None,
                distinct_nbest: false,
            };
            let model = PhraseSearch::new(&table, &lm, &source, &opts);
            let mut expected = Vec::new();
            all_scores(&model, &w, &model.initial_state(), &Coverage::new(source.len()), 0.0, &mut expected);
            expected.sort_by(|a, b| b.total_cmp(a));
            let result = beam_search(&model, &w, &opts.beam);
            prop_assert_eq!(result.nbest.len(), expected.len());
            for (d, e) in result.nbest.iter().zip(&expected) {
                prop_assert!((d.score - e).abs() < 1e-9, "{} vs {}", d.score, e);
                let s: f64 = d.features.iter().zip(&w).map(|(a, b)| a * b).sum();
                prop_assert!((s - d.score).abs() < 1e-9);
            }
            // Without recombination: the same list.
            let plain = BeamOptions { recombine: false, ..opts.beam.clone() };
            let r2 = beam_search(&model, &w, &plain);
            prop_assert_eq!(r2.nbest.len(), expected.len());
            if let (Some(a), Some(b)) = (result.nbest.first(), r2.nbest.first()) {
                prop_assert!((a.score - b.score).abs() < 1e-9);
            }
        }
    }
}
