//! The meta-structure translation system: RM pair extraction and the RM
//! transformation probabilities (§3.2), the structure model's smoothing
//! (eq. 13), the decoder (§4) on a tiny model, the model file, determinism,
//! and the command-line contract (`mt-train`, `translate`, `bleu`). Expected
//! values are worked out by hand in the comments.

use std::path::{Path, PathBuf};
use std::process::Command;

use treelink::corpus::{Corpus, Named};
use treelink::mt::decoder::BeamOptions;
use treelink::mt::lm::{read_arpa, write_arpa, NgramLm};
use treelink::mt::meta::{Constraints, Decomposition};
use treelink::mt::model::{MtSystem, TrainingInfo, TranslationModel};
use treelink::mt::ms::extract::{leaf_pairs, rm_pairs, sample_sms, MsIndex};
use treelink::mt::ms::{
    MsDecodeOptions, MsSystem, MsSystemConfig, MsTrainingSummary, RmEntry, RmLexicon, RmLimits, RmTable, TagLexicon,
    F_DIR_PHRASE, F_DISTORTION, F_GLUE, F_PHRASES, F_RMS, F_RM_E_GIVEN_F, F_UNKNOWN, F_WORDS, NUM_MS_FEATURES,
};
use treelink::mt::phrase::{ExtractMethod, PhraseEntry, PhraseTable, SpanPair};
use treelink::rng::SplitMix64;
use treelink::tree::{NodeId, Tree};

fn t(s: &str) -> Tree {
    Tree::parse_one(s, "test").unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

const CAT_SRC: &str = "(S (NP (ART die) (NN Katze)) (VVFIN schläft))";
const CAT_TRG: &str = "(S (NP (DA el) (NC gato)) (VM duerme))";
const BLACK_SRC: &str = "(NP (ADJA schwarze) (NN Katze))";
const BLACK_TRG: &str = "(NP (NC gato) (AQ negro))";

fn cat_corpus() -> Corpus {
    let src = format!("{CAT_SRC}\n{BLACK_SRC}\n");
    let trg = format!("{CAT_TRG}\n{BLACK_TRG}\n");
    Corpus::from_texts(Named { name: "c.src", text: &src }, Named { name: "c.trg", text: &trg }, None).unwrap()
}

fn cat_alignments() -> Vec<Vec<(usize, usize)>> {
    vec![vec![(0, 0), (1, 1), (2, 2)], vec![(0, 1), (1, 0)]]
}

// ------------------------------------------------------------- extraction ----

#[test]
fn tilings_of_a_span_by_hand() {
    // With α = 3, β = 1.5 (heights in phrase levels) S (height 1, 3 words)
    // and NP (height 0) are MS, as are the three POS nodes.
    let tree = t(CAT_SRC);
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let index = MsIndex::new(&d, 7);
    let strings = |v: Vec<Vec<NodeId>>| v.iter().map(|r| index.rm_string(r)).collect::<Vec<_>>();
    // die Katze: the NP, or its two POS nodes.
    assert_eq!(strings(index.tilings(0, 2, 4)), ["NP[ART-NN]", "ART NN"]);
    // The whole sentence: S, NP + VVFIN, or three POS nodes; with max_ms 2 the last is too long.
    assert_eq!(strings(index.tilings(0, 3, 4)), ["S[NP[ART-NN]-VVFIN]", "NP[ART-NN] VVFIN", "ART NN VVFIN"]);
    assert_eq!(strings(index.tilings(0, 3, 2)), ["S[NP[ART-NN]-VVFIN]", "NP[ART-NN] VVFIN"]);
    // Katze schläft: no MS ends inside, only the POS nodes.
    assert_eq!(strings(index.tilings(1, 3, 4)), ["NN VVFIN"]);
    // Every RM starting at "die" of at most 2 MS and 7 words.
    assert_eq!(
        strings(index.rms_from(0, 2, 7)),
        ["S[NP[ART-NN]-VVFIN]", "NP[ART-NN]", "NP[ART-NN] VVFIN", "ART", "ART NN"]
    );
}

/// Pair 1 (die Katze schläft / el gato duerme, monotone one-to-one) has 6
/// consistent span pairs over its leaves: the three words, the two word
/// pairs and the sentence. Their tilings (source × target):
///   [0,1) ART × DA, [1,2) NN × NC, [2,3) VVFIN × VM: 1 × 1, count 1 each;
///   [1,3) "NN VVFIN" × "NC VM": 1 × 1, count 1;
///   [0,2) {NP[ART-NN], ART NN} × {NP[DA-NC], DA NC}: 4 pairs of 1/4;
///   [0,3) {S[..], NP[..] VVFIN, ART NN VVFIN} × the same three on the target: 9 pairs of 1/9.
/// That is 17 distinct RM pairs.
/// Pair 2 (schwarze Katze / gato negro, crossed) has 3: [0,1)-[1,2) ADJA × AQ,
/// [1,2)-[0,1) NN × NC (again), [0,2)-[0,2) {NP[ADJA-NN], ADJA NN} × {NP[NC-AQ], NC AQ}: 4 of 1/4.
/// In all 17 + 1 + 4 = 22 distinct pairs.
#[test]
fn rm_pairs_and_probabilities_by_hand() {
    let (s1, t1) = (t(CAT_SRC), t(CAT_TRG));
    let (d1, e1) = (Decomposition::new(&s1, Constraints::PAPER), Decomposition::new(&t1, Constraints::PAPER));
    let (is, it) = (MsIndex::new(&d1, 7), MsIndex::new(&e1, 7));
    let word = leaf_pairs(&s1, &t1, &[(0, 0), (1, 1), (2, 2)], 7);
    assert_eq!(word.len(), 6);
    let limits = RmLimits::default();
    let pairs = rm_pairs(&is, &it, &word, &[], ExtractMethod::Word, &limits);
    assert_eq!(pairs.len(), 17);
    let count =
        |f: &str, e: &str, p: &[(String, String, f64)]| p.iter().find(|x| x.0 == f && x.1 == e).map_or(0.0, |x| x.2);
    assert!(close(count("ART", "DA", &pairs), 1.0));
    assert!(close(count("NN VVFIN", "NC VM", &pairs), 1.0));
    assert!(close(count("NP[ART-NN]", "DA NC", &pairs), 0.25));
    assert!(close(count("ART NN VVFIN", "S[NP[DA-NC]-VM]", &pairs), 1.0 / 9.0));
    // The total count of pair 1 is one per span pair.
    assert!(close(pairs.iter().map(|p| p.2).sum::<f64>(), 6.0));

    // Sub-tree link NP-NP (nodes 1 and 1): its span pair [0,2)-[0,2) is also
    // word-consistent, so DirC counts it twice (1/2 per RM pair), EWoS once.
    let sub = [SpanPair::new(0..2, 0..2)];
    let dirc = rm_pairs(&is, &it, &word, &sub, ExtractMethod::DirC, &limits);
    let ewos = rm_pairs(&is, &it, &word, &sub, ExtractMethod::EWoS, &limits);
    assert!(close(count("NP[ART-NN]", "NP[DA-NC]", &dirc), 0.5));
    assert!(close(count("NP[ART-NN]", "NP[DA-NC]", &ewos), 0.25));
    assert_eq!(ewos, pairs);

    // The whole system on both pairs: relative frequencies of the expected counts.
    let config = MsSystemConfig { lm_order: 2, rm_top_k: None, ..MsSystemConfig::default() };
    let sys = MsSystem::train(&cat_corpus(), &cat_alignments(), None, &config).unwrap();
    assert_eq!(sys.rm_table.len(), 22);
    let p = |f: &str, e: &str| {
        let x = sys.rm_table.get(f, e).unwrap();
        (x.count, x.p_e_given_f, x.p_f_given_e)
    };
    // NN → NC once in each pair; NN is aligned to nothing else and NC comes only from NN.
    assert_eq!(p("NN", "NC"), (2.0, 1.0, 1.0));
    // NP[ART-NN] goes to NP[DA-NC] and DA NC with 1/4 each: 1/2 each way.
    let (c, ef, fe) = p("NP[ART-NN]", "NP[DA-NC]");
    assert!(close(c, 0.25) && close(ef, 0.5) && close(fe, 0.5));
    // S[NP[ART-NN]-VVFIN] has three targets of 1/9: P(e|f) = 1/3; "DA NC VM" three sources: P(f|e) = 1/3.
    let (c, ef, fe) = p("S[NP[ART-NN]-VVFIN]", "DA NC VM");
    assert!(close(c, 1.0 / 9.0) && close(ef, 1.0 / 3.0) && close(fe, 1.0 / 3.0));
    // Crossed pair: ADJA → AQ.
    assert_eq!(p("ADJA", "AQ"), (1.0, 1.0, 1.0));
    // Pruning to the best target keeps one entry per source RM.
    let pruned =
        MsSystem::train(&cat_corpus(), &cat_alignments(), None, &MsSystemConfig { rm_top_k: Some(1), ..config })
            .unwrap();
    assert_eq!(pruned.rm_table.len(), pruned.rm_table.source_rms());
}

// ------------------------------------------------------- structure model ----

/// Sampling SMS of `(NP (ART die) (NN Katze))`: the NP is kept or deleted
/// with probability 1/2 each, so 16 draws give both SMS (the chance of
/// missing one is 2^-15) — deduplicated, in node order.
///
/// Modified Kneser-Ney of order 2 on the two token sentences
/// `<s> NP[ART-NN] </s>` and `<s> ART NN </s>` (A, B, C below), by hand:
/// unigram continuation counts A 1, B 1, C 1, `</s>` 2 (after A and C), so
/// S = 5; the count-of-counts have no 3, so the fallback discounts
/// D1 = 0.5, D2 = 1 apply; γ(ε) = (0.5·3 + 1·1)/5 = 1/2; the uniform
/// distribution is over 5 words (`<unk>`, `</s>`, A, B, C):
///   p(A) = (1 − 0.5)/5 + 0.5/5 = 0.2, p(`</s>`) = (2 − 1)/5 + 0.1 = 0.3, p(`<unk>`) = 0.1.
/// Bigrams (raw counts, fallback discounts): after `<s>` two bigrams of 1,
/// γ(`<s>`) = 0.5·2/2 = 1/2:
///   p(A | `<s>`) = 0.5/2 + 0.5·0.2 = 0.35; p(C | `<s>`), unseen, = 0.5·0.2 = 0.1;
/// after B (one bigram): p(C | B) = 0.5 + 0.5·0.2 = 0.6, p(`</s>` | B) = 0.5·0.3 = 0.15,
/// an unseen MS p(`<unk>` | B) = 0.5·0.1 = 0.05.
#[test]
fn structure_model_samples_and_smoothing_by_hand() {
    let tree = t("(NP (ART die) (NN Katze))");
    let d = Decomposition::new(&tree, Constraints::PAPER);
    let mut rng = SplitMix64::new(1);
    let sentences = sample_sms(&d, 16, 7, &mut rng);
    assert_eq!(sentences, [vec!["NP[ART-NN]".to_string()], vec!["ART".to_string(), "NN".to_string()]]);
    // An MS longer than max_words is always split.
    assert_eq!(sample_sms(&d, 16, 1, &mut rng), [vec!["ART".to_string(), "NN".to_string()]]);
    let lm = NgramLm::train(&sentences, 2).unwrap();
    let p = |ctx: &str, w: &str| 10f64.powf(lm.log_prob(&[ctx], w));
    let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(near(p("<s>", "NP[ART-NN]"), 0.35));
    assert!(near(p("<s>", "NN"), 0.1));
    assert!(near(p("ART", "NN"), 0.6));
    assert!(near(p("ART", "</s>"), 0.15));
    assert!(near(p("ART", "VP[VM]"), 0.05));
    assert!(near(p("NN", "</s>"), 0.5 + 0.5 * 0.3));
}

// ---------------------------------------------------------------- decoder ----

fn count(f: &str, e: &str, n: f64) -> (String, String, f64) {
    (f.to_string(), e.to_string(), n)
}

/// The RM pair counts of the by-hand smoothing tests.
fn hand_rm_counts() -> Vec<(String, String, f64)> {
    vec![
        count("NP[ART-NN]", "NP[DA-NC]", 1.0),
        count("NP[ART-NN]", "NP[DA-AQ-NC]", 1.0),
        count("NP[ART-ADJA-NN]", "NP[DA-AQ-NC]", 0.5),
        count("PP[APPR-NN]", "SP[PREP-NC]", 1.0),
    ]
}

/// h1/h2 interpolated with the coarse RM pairs (reading `backoff`), by hand.
/// Counts: f1 = NP[ART-NN] → e1 = NP[DA-NC] 1, f1 → e2 = NP[DA-AQ-NC] 1,
/// f2 = NP[ART-ADJA-NN] → e2 0.5, f3 = PP[APPR-NN] → e3 = SP[PREP-NC] 1.
/// Coarse: every NP pair is NP → NP (C = 2.5), PP → SP (C = 1).
/// (f1, e1): P(E|F) · P(e1|E) = 1 · 1/2.5 = 0.4, n(f1) = 2:
/// P(e1|f1) = (1 + 2·0.4) / (2 + 2) = 0.45 (the paper's: 0.5);
/// P(f1|e1) = (1 + 1·(1 · 2/2.5)) / (1 + 1) = 0.9.
/// (f1, e2): P(e2|E) = 1.5/2.5: (1 + 2·0.6) / 4 = 0.55 (paper: 0.5), so the
/// target that is more frequent at the coarse level wins;
/// P(f1|e2) = (1 + 2·0.8) / (1.5 + 2) = 2.6/3.5.
/// (f2, e2): (0.5 + 0.6) / 1.5 and (0.5 + 2·0.2) / 3.5. (f3, e3): 1 and 1.
#[test]
fn rm_backoff_estimates_by_hand() {
    let counts = hand_rm_counts();
    let t = RmTable::estimate_backoff(counts.clone(), None);
    let p = |f: &str, e: &str| {
        let x = t.get(f, e).unwrap();
        (x.p_e_given_f, x.p_f_given_e)
    };
    let expect = [
        ("NP[ART-NN]", "NP[DA-NC]", 0.45, 0.9),
        ("NP[ART-NN]", "NP[DA-AQ-NC]", 0.55, 2.6 / 3.5),
        ("NP[ART-ADJA-NN]", "NP[DA-AQ-NC]", 1.1 / 1.5, 0.9 / 3.5),
        ("PP[APPR-NN]", "SP[PREP-NC]", 1.0, 1.0),
    ];
    for (f, e, ef, fe) in expect {
        let (a, b) = p(f, e);
        assert!(close(a, ef) && close(b, fe), "{f} -> {e}: {a} {b}, expected {ef} {fe}");
    }
    // The best target of f1 changes from a tie (paper) to e2.
    assert_eq!(t.lookup("NP[ART-NN]").0[0].target, "NP[DA-AQ-NC]");
    let paper = RmTable::estimate(counts, None);
    assert!(close(paper.get("NP[ART-NN]", "NP[DA-NC]").unwrap().p_e_given_f, 0.5));
}

/// h1/h2 discounted, modified Kneser-Ney style, the mass to the coarse RM
/// pair (reading `discount`), by hand; the counts of `rm_backoff_estimates_by_hand`.
/// Every ⌈count⌉ is 1, so the count-of-counts give no valid discounts and
/// KenLM's fallback D1 = 0.5 is used: d = 0.5 for every pair.
/// Discounted mass γ: f1 1.0 (of c = 2), f2 0.5 (of 0.5), f3 0.5 (of 1);
/// e1 0.5 (of 1), e2 1.0 (of 1.5), e3 0.5 (of 1).
/// Continuation: N(·,e1) = 1, N(·,e2) = 2 of the 3 NP pairs; N(f1,·) = 2 of 3.
/// P(e1|f1) = (0.5 + 1.0 · 1 · 1/3) / 2 = 5/12, P(e2|f1) = (0.5 + 2/3) / 2 = 7/12;
/// P(e2|f2) = (0 + 0.5 · 2/3) / 0.5 = 2/3 (the rest goes to e1, unseen with f2);
/// P(f1|e1) = (0.5 + 0.5 · 2/3) / 1 = 5/6, P(f1|e2) = (0.5 + 1.0 · 2/3) / 1.5 = 7/9,
/// P(f2|e2) = (0 + 1.0 · 1/3) / 1.5 = 2/9; (f3, e3): 1 and 1.
#[test]
fn rm_discounted_estimates_by_hand() {
    let c = count;
    let counts = hand_rm_counts();
    let t = RmTable::estimate_discounted(counts, None);
    let expect = [
        ("NP[ART-NN]", "NP[DA-NC]", 5.0 / 12.0, 5.0 / 6.0),
        ("NP[ART-NN]", "NP[DA-AQ-NC]", 7.0 / 12.0, 7.0 / 9.0),
        ("NP[ART-ADJA-NN]", "NP[DA-AQ-NC]", 2.0 / 3.0, 2.0 / 9.0),
        ("PP[APPR-NN]", "SP[PREP-NC]", 1.0, 1.0),
    ];
    for (f, e, ef, fe) in expect {
        let x = t.get(f, e).unwrap();
        assert!(
            close(x.p_e_given_f, ef) && close(x.p_f_given_e, fe),
            "{f} -> {e}: {} {}, expected {ef} {fe}",
            x.p_e_given_f,
            x.p_f_given_e
        );
    }
    // Counts 1, 2, 3, 4 of one source RM: count-of-counts [1, 1, 1, 1] give
    // Y = 1/3, D1 = 1/3, D2 = 1, D3+ = 5/3 (Chen & Goodman); γ = 14/3 of 10,
    // shared by continuation (1/4 each, one source per target), so
    // P = (c − D + 7/6) / 10: 11/60, 13/60, 15/60, 21/60, summing to 1.
    let targets = ["NP[DA-NC]", "NP[DA-AQ-NC]", "NP[NC]", "NP[DA-NC-AQ]"];
    let counts: Vec<_> = targets.iter().zip(1..).map(|(e, n)| c("NP[ART-NN]", e, n as f64)).collect();
    let t = RmTable::estimate_discounted(counts, None);
    for (e, want) in targets.iter().zip([11.0, 13.0, 15.0, 21.0]) {
        let got = t.get("NP[ART-NN]", e).unwrap().p_e_given_f;
        assert!(close(got, want / 60.0), "{e}: {got}, expected {want}/60");
    }
    // The paper's reading would give 0.1 to the count-1 target: discounting moves mass to it.
}

/// The RM lexical weights: IBM Model 1 over the MS root labels of RM pairs
/// (reading `rmlex`). Each row of t is a distribution, and an RM pair's
/// score is Π_j (t(E_j|NULL) + Σ_i t(E_j|F_i)) / (|F| + 1) from the table.
#[test]
fn rm_lexical_weights_from_label_tables() {
    let c = |f: &str, e: &str, n: f64| (f.to_string(), e.to_string(), n);
    let lex = RmLexicon::train(&[
        c("NP[ART-NN]", "NP[DA-NC]", 2.0),
        c("VVFIN", "VM", 1.0),
        c("NP[ART-NN] VVFIN", "NP[DA-NC] VM", 1.0),
        c("PP[APPR-NN]", "SP[PREP-NC]", 1.0),
    ]);
    for table in [&lex.e_given_f, &lex.f_given_e] {
        for (given, row) in table {
            assert!(close(row.values().sum::<f64>(), 1.0), "{given}: {row:?}");
        }
    }
    let v = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
    let t = |f: &str, e: &str| lex.e_given_f.get(f).and_then(|r| r.get(e)).copied().unwrap_or(0.0);
    let expected = ((t("NULL", "NP") + t("NP", "NP") + t("VVFIN", "NP")) / 3.0).ln()
        + ((t("NULL", "VM") + t("NP", "VM") + t("VVFIN", "VM")) / 3.0).ln();
    assert!(close(lex.ln_e_given_f(&v("NP VVFIN"), &v("NP VM")), expected));
    // The aligned labels score higher than the crossed ones, both ways.
    assert!(lex.ln_e_given_f(&v("NP"), &v("NP")) > lex.ln_e_given_f(&v("NP"), &v("VM")));
    assert!(lex.ln_f_given_e(&v("VVFIN"), &v("VM")) > lex.ln_f_given_e(&v("NP"), &v("VM")));
    assert!(lex.ln_e_given_f(&v("PP"), &v("SP")) > lex.ln_e_given_f(&v("PP"), &v("NP")));
}

/// Tag agreement (reading `tags`): ln P(t|w) = ln((c(w,t) + P(t)) / (c(w) + 1)),
/// P(t) = (c(t) + 1) / (N + T + 1). Trees: el/DA twice, gato/NC once: N = 3,
/// T = 2, P(DA) = 3/6, P(NC) = 2/6, an unseen tag 1/6.
#[test]
fn tag_agreement_by_hand() {
    let tags = TagLexicon::train([&t("(S (DA el) (NC gato) (DA el))")]);
    assert!(close(tags.ln_p_tag("el", "DA"), (2.5f64 / 3.0).ln()));
    assert!(close(tags.ln_p_tag("gato", "DA"), (0.5f64 / 2.0).ln()));
    assert!(close(tags.ln_p_tag("perro", "NC"), (1.0f64 / 3.0).ln()));
    assert!(close(tags.ln_p_tag("el", "VM"), (1.0f64 / 6.0 / 3.0).ln()));
    assert_eq!(TagLexicon::default().ln_p_tag("el", "DA"), 0.0);
}

fn phrase(s: &str, t: &str, dir: f64) -> PhraseEntry {
    let w = |x: &str| x.split(' ').map(String::from).collect();
    PhraseEntry { source: w(s), target: w(t), scores: [1.0, 1.0, dir, 1.0] }
}

fn rm(f: &str, e: &str, p_ef: f64) -> RmEntry {
    RmEntry { source: f.into(), target: e.into(), count: 1.0, p_e_given_f: p_ef, p_f_given_e: 1.0 }
}

/// A hand-made system: only the weights set in `weights` count.
fn tiny_system(weights: &[(usize, f64)]) -> MsSystem {
    let table = PhraseTable::from_entries(vec![
        phrase("die", "el", 1.0),
        phrase("Katze", "gato", 1.0),
        phrase("die Katze", "el gato", 0.8),
        phrase("schläft", "duerme", 1.0),
        phrase("schläft", "está durmiendo", 0.5),
    ])
    .unwrap();
    let rm_table = RmTable::from_entries(vec![
        rm("NP[ART-NN]", "NP[DA-NC]", 0.9),
        rm("NP[ART-NN]", "DA", 0.1),
        rm("ART", "DA", 0.5),
        rm("NN", "NC", 0.5),
        rm("VVFIN", "VM", 0.4),
        rm("VVFIN", "VA VM", 0.6),
    ])
    .unwrap();
    let lm = NgramLm::train(&[vec!["el", "gato", "duerme"]], 2).unwrap();
    let structure_lm = NgramLm::train(&[vec!["NP[DA-NC]", "VM"]], 2).unwrap();
    let mut w = vec![0.0; NUM_MS_FEATURES];
    for &(i, x) in weights {
        w[i] = x;
    }
    let config = MsSystemConfig {
        decode: MsDecodeOptions {
            beam: BeamOptions { nbest: 10, ..BeamOptions::default() },
            ..MsDecodeOptions::default()
        },
        ..MsSystemConfig::default()
    };
    MsSystem {
        config,
        weights: w,
        table,
        rm_table,
        lm,
        structure_lm,
        tags: TagLexicon::default(),
        summary: MsTrainingSummary::default(),
        vocabulary: Default::default(),
        word_backoff: Default::default(),
        rm_lexicon: Default::default(),
    }
}

/// Weights: ln φ(e|f) 1, ln P(RM_e|RM_f) 1, distortion 1 (everything else 0).
/// "die Katze" as the RM NP[ART-NN] → NP[DA-NC] (ln .9) with "el gato" word
/// by word (ln 1) scores −0.105; the other ways score less: the phrase "die
/// Katze | el gato" (ln .8 + ln .9), ART → DA + NN → NC (2 ln .5), NP → DA
/// (no one-word translation of the scope). "schläft": VVFIN → VM with
/// "duerme" ln .4 = −0.916 beats VVFIN → VA VM with "está durmiendo"
/// ln .6 + ln .5 = −1.204. Monotone (no jumps): ln(.9 · .4) = ln .36.
/// Rewarding words (+1 each) turns the verb around: VM 1 − 0.916 < VA VM
/// 2 − 1.204, and the NP keeps its RM: ln .9 + 2 = 1.895.
#[test]
fn decoder_best_translation_and_target_sms_by_hand() {
    let src = t(CAT_SRC);
    let base = [(F_DIR_PHRASE, 1.0), (F_RM_E_GIVEN_F, 1.0), (F_DISTORTION, 1.0)];
    let sys = tiny_system(&base);
    let tr = sys.translate(&src);
    assert_eq!(tr.words.join(" "), "el gato duerme");
    assert_eq!(tr.target_sms, "NP[DA-NC] VM");
    assert!((tr.score - 0.36f64.ln()).abs() < 1e-9, "{}", tr.score);
    assert_eq!(tr.derivation.len(), 2);
    assert_eq!((tr.derivation[0].source, tr.derivation[0].source_rm.as_str()), ((0, 2), "NP[ART-NN]"));
    assert_eq!(tr.derivation[0].phrases.len(), 2);
    assert_eq!((tr.derivation[1].source, tr.derivation[1].target_rm.as_str()), ((2, 3), "VM"));
    // The RMs' MS roots in the source tree (NP and VVFIN), and the target SMS as a tree.
    assert_eq!(
        (tr.derivation[0].source_roots.as_slice(), tr.derivation[1].source_roots.as_slice()),
        (&[NodeId::new(1)][..], &[NodeId::new(4)][..])
    );
    let sms = treelink::mt::ms::derivation::target_sms_tree(&tr.derivation).unwrap();
    assert_eq!(sms.tree.to_bracketed(), "(SMS (NP (DA el) (NC gato)) (VM duerme))");
    assert_eq!(sms.roots, [vec![NodeId::new(1)], vec![NodeId::new(4)]]);
    // The n-best list is sorted, starts with the best, its scores are λ · h,
    // and its translations are distinct (die Katze → el gato word by word
    // and as one phrase is one entry).
    assert!(tr.nbest.len() > 1);
    let mut distinct: Vec<&Vec<String>> = tr.nbest.iter().map(|e| &e.words).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), tr.nbest.len());
    assert_eq!(tr.nbest[0].words, tr.words);
    for pair in tr.nbest.windows(2) {
        assert!(pair[0].score >= pair[1].score);
    }
    for e in &tr.nbest {
        let s: f64 = e.features.iter().zip(&sys.weights).map(|(f, w)| f * w).sum();
        assert!((s - e.score).abs() < 1e-9);
    }

    let mut w = base.to_vec();
    w.push((F_WORDS, 1.0));
    let sys = tiny_system(&w);
    let tr = sys.translate(&src);
    assert_eq!(tr.words.join(" "), "el gato está durmiendo");
    assert_eq!(tr.target_sms, "NP[DA-NC] VA VM");
    assert!((tr.score - (0.9f64.ln() + 2.0 + 0.6f64.ln() + 0.5f64.ln() + 2.0)).abs() < 1e-9);
    let f = &tr.features;
    assert!((f[F_RM_E_GIVEN_F] - (0.9f64 * 0.6).ln()).abs() < 1e-12);
    assert!((f[F_DIR_PHRASE] - 0.5f64.ln()).abs() < 1e-12);
    assert_eq!((f[F_WORDS], f[F_PHRASES], f[F_RMS], f[F_GLUE], f[F_DISTORTION]), (4.0, 3.0, 2.0, 0.0, 0.0));
}

/// A word whose POS no RM pair knows is glued: copied (no phrase either),
/// target structure its tag (`X` for an unknown word), P = 1e-4 both ways.
#[test]
fn glue_for_unknown_structures() {
    let sys = tiny_system(&[(F_DIR_PHRASE, 1.0), (F_RM_E_GIVEN_F, 1.0), (F_DISTORTION, 1.0)]);
    let tr = sys.translate(&t("(S (NP (ART die) (NN Katze)) (ADV leise))"));
    assert_eq!(tr.words.join(" "), "el gato leise");
    assert_eq!(tr.target_sms, "NP[DA-NC] X");
    let last = tr.derivation.last().unwrap();
    assert!(last.glue);
    assert_eq!(last.source_rm, "ADV");
    assert_eq!(last.source_roots, [NodeId::new(4)], "the glued word's POS node");
    assert_eq!((tr.features[F_GLUE], tr.features[F_UNKNOWN]), (1.0, 1.0));
    assert!((tr.features[F_RM_E_GIVEN_F] - (0.9f64.ln() + 1e-4f64.ln())).abs() < 1e-9);
    // An empty tree is not a tree; a one-word tree of an unknown word is glued.
    let tr = sys.translate(&t("(X zzz)"));
    assert_eq!(tr.words, ["zzz"]);
}

/// With `phrase_fallback`, a phrase pair is an option even where no RM pair
/// covers its words: "die Katze | el gato" (φ .8) over the POS RM `ART NN`,
/// target RM of the words' tags, the unseen-RM probability both ways and
/// one glue step (monotone: distortion weight 1). With an empty RM table the two words are otherwise glued
/// one by one (el, gato: two glue steps). With weights on φ(e|f) and glue
/// (−1 per step) the phrase wins: ln .8 − 1 > 2 · (ln 1 − 1).
#[test]
fn phrase_fallback_makes_every_phrase_pair_an_option() {
    let mut sys = tiny_system(&[(F_DIR_PHRASE, 1.0), (F_GLUE, -1.0), (F_DISTORTION, 1.0)]);
    sys.rm_table = RmTable::default();
    let src = t("(S (NP (ART die) (NN Katze)) (VVFIN schläft))");
    let plain = sys.translate(&src);
    assert_eq!(plain.derivation.len(), 3);
    assert!(plain.derivation.iter().all(|s| s.glue && s.source.1 - s.source.0 == 1));
    sys.config.decode.phrase_fallback = true;
    let tr = sys.translate(&src);
    let first = &tr.derivation[0];
    assert_eq!((first.source, first.target.join(" "), first.glue), ((0, 2), "el gato".to_string(), true));
    assert_eq!(first.source_rm, "ART NN");
    assert_eq!(first.source_roots, [NodeId::new(2), NodeId::new(3)], "the POS nodes of its words");
    assert_eq!(tr.features[F_GLUE], 2.0);
    assert!(tr.score > plain.score);
}

// ------------------------------------------------------- file, determinism ----

/// Every reading trains and decodes, and the new features of the best
/// translation are what its derivation says: the RM lexical weights summed
/// over its RM pairs, the tag agreement over its words and the leaves of its
/// target SMS; the paper's reading leaves them 0. An unknown compound
/// ("Buchhaus") is split into known parts and reported.
#[test]
fn readings_features_follow_the_derivation() {
    use treelink::mt::ms::{MsReading, RmEstimate, StructureTokens, F_RM_LEX_E_GIVEN_F, F_RM_LEX_F_GIVEN_E, F_TAGS};
    use treelink::mt::phrase::unknown::Treatment;
    let corpus = small_corpus();
    let src = t("(S (NP (ART das) (ADJA kleine) (NN Buchhaus)) (VAFIN ist) (ADJD gut))");
    let full = MsReading {
        rm_estimate: RmEstimate::Backoff,
        structure_tokens: StructureTokens::Roots,
        rm_lexical: true,
        tag_agreement: true,
    };
    for reading in [MsReading::PAPER, full] {
        let config = MsSystemConfig { lm_order: 2, reading, ..MsSystemConfig::default() };
        let mut sys = MsSystem::train(&corpus, &small_alignments(), None, &config).unwrap();
        let unused = if reading == MsReading::PAPER { [0.0; 3] } else { [0.1, 0.1, 0.2] };
        assert_eq!(sys.weights[F_RM_LEX_E_GIVEN_F..=F_TAGS], unused, "a feature the reading leaves 0 has weight 0");
        sys.weights[F_RM_LEX_E_GIVEN_F] = 0.3;
        sys.weights[F_TAGS] = 0.3;
        let tr = sys.translate(&src);
        assert_eq!(
            tr.source_notes.iter().map(|n| (n.word, n.treatment.clone())).collect::<Vec<_>>(),
            [(2, Treatment::Split { parts: vec!["Buch".into(), "Haus".into()] })]
        );
        // The words translating the split compound point to its note.
        let marks = tr.provenance();
        assert_eq!(marks.len(), tr.words.len());
        assert!(marks.contains(&Some(0)), "{:?} {marks:?}", tr.words);
        assert!(tr.words.len() >= 6, "{:?}", tr.words);
        // The split word keeps its place in the tree: the step over word 2 is an RM over
        // source nodes whose MS hold its POS node NN, and it says the parts' translations.
        let step = tr.derivation.iter().find(|s| s.source.0 <= 2 && 2 < s.source.1).unwrap();
        assert!(step.source_rm.contains("NN"), "{}", step.source_rm);
        assert!(step.source_roots.iter().any(|&n| src.span(n).contains(&2)));
        let said = step.phrases.iter().find(|p| p.source == (2, 3)).unwrap();
        assert!(said.target.contains(&"libro".to_string()) && said.target.contains(&"casa".to_string()));
        assert!(!said.unknown);
        if reading == MsReading::PAPER {
            assert_eq!(tr.features[F_RM_LEX_E_GIVEN_F..=F_TAGS], [0.0; 3]);
            assert!(sys.rm_lexicon.is_empty());
            // The paper's reading ignores the weights of the readings' features.
            sys.weights[F_RM_LEX_E_GIVEN_F..=F_TAGS].copy_from_slice(&[0.0; 3]);
            assert_eq!(sys.translate(&src), tr);
            continue;
        }
        let sms: treelink::mt::meta::RmShape = tr.target_sms.parse().unwrap();
        let tags: f64 = tr.words.iter().zip(sms.leaves()).map(|(w, l)| sys.tags.ln_p_tag(w, l)).sum();
        assert!(close(tr.features[F_TAGS], tags), "{} {tags}", tr.features[F_TAGS]);
        let roots = |s: &str| treelink::mt::ms::extract::rm_roots(s);
        let (mut ef, mut fe) = (0.0, 0.0);
        for step in &tr.derivation {
            let f: Vec<String> = step.source_roots.iter().map(|&n| src.label(n).to_string()).collect();
            let e = if step.glue {
                step.target.iter().map(|w| sys.tags.tag(w).to_string()).collect()
            } else {
                roots(&step.target_rm)
            };
            ef += sys.rm_lexicon.ln_e_given_f(&f, &e);
            fe += sys.rm_lexicon.ln_f_given_e(&f, &e);
        }
        assert!(close(tr.features[F_RM_LEX_E_GIVEN_F], ef) && close(tr.features[F_RM_LEX_F_GIVEN_E], fe));
        assert!(tr.features[F_TAGS] < 0.0 && ef < 0.0);
    }
}

fn small_corpus() -> Corpus {
    let src = "(S (NP (ART das) (NN Haus)) (VAFIN ist) (ADJD klein))\n(S (NP (ART das) (NN Buch)) (VAFIN ist) (ADJD gut))\n(S (NP (ART ein) (NN Buch)) (VAFIN ist) (ADJD klein))\n(NP (ART das) (ADJA kleine) (NN Haus))\n";
    let trg = "(S (NP (DA la) (NC casa)) (VS es) (AQ pequeña))\n(S (NP (DA el) (NC libro)) (VS es) (AQ bueno))\n(S (NP (DI un) (NC libro)) (VS es) (AQ pequeño))\n(NP (DA la) (NC casa) (AQ pequeña))\n";
    Corpus::from_texts(Named { name: "s.src", text: src }, Named { name: "s.trg", text: trg }, None).unwrap()
}

fn small_alignments() -> Vec<Vec<(usize, usize)>> {
    vec![
        vec![(0, 0), (1, 1), (2, 2), (3, 3)],
        vec![(0, 0), (1, 1), (2, 2), (3, 3)],
        vec![(0, 0), (1, 1), (2, 2), (3, 3)],
        vec![(0, 0), (1, 2), (2, 1)],
    ]
}

#[test]
fn model_file_round_trip_and_determinism() {
    let corpus = small_corpus();
    let config = MsSystemConfig { lm_order: 2, ..MsSystemConfig::default() };
    let sys = MsSystem::train(&corpus, &small_alignments(), None, &config).unwrap();
    let again = MsSystem::train(&corpus, &small_alignments(), None, &config).unwrap();
    assert_eq!(sys, again);
    let src = t("(S (NP (ART das) (ADJA kleine) (NN Buch)) (VAFIN ist) (ADJD gut))");
    let tr = sys.translate(&src);
    assert_eq!(tr, again.translate(&src));
    assert_eq!(tr.words.len(), tr.derivation.iter().map(|s| s.target.len()).sum::<usize>());
    // The target SMS has one leaf per word.
    let sms: treelink::mt::meta::RmShape = tr.target_sms.parse().unwrap();
    assert_eq!(sms.word_count(), tr.words.len());

    let model = TranslationModel {
        training: TrainingInfo { train: "s".into(), pairs: 4, ..TrainingInfo::default() },
        system: MtSystem::Ms(Box::new(sys.clone())),
    };
    let json = model.to_json();
    assert!(json.starts_with(r#"{"format":"treelink-mt","version":2,"system":"ms""#), "{}", &json[..80]);
    let back = TranslationModel::from_json(&json, "m.json").unwrap();
    assert_eq!(back, model);
    let MtSystem::Ms(b) = &back.system else { panic!("not ms") };
    assert_eq!(b.translate(&src), tr);

    let bad = json.replacen("\"version\":2", "\"version\":7", 1);
    assert_eq!(
        TranslationModel::from_json(&bad, "m.json").unwrap_err().to_string(),
        "m.json:1:1: expected format \"treelink-mt\" version 1 to 2, found format \"treelink-mt\" version 7"
    );
    // A version-1 file (no vocabulary, back-off, unknown-word settings, reading, RM
    // lexicon or tag counts; 14 weights) reads as it was written: unknown words copied,
    // the paper's reading, the three new weights 0, the same translation.
    let mut v1: serde_json::Value = serde_json::from_str(&json.replacen("\"version\":2", "\"version\":1", 1)).unwrap();
    let m = v1["model"].as_object_mut().unwrap();
    for key in ["vocabulary", "word_backoff", "rm_lexicon"] {
        assert!(m.remove(key).is_some(), "{key}");
    }
    m["weights"].as_array_mut().unwrap().truncate(14);
    for key in ["unknown", "reading"] {
        assert!(m["config"].as_object_mut().unwrap().remove(key).is_some(), "{key}");
    }
    let old = TranslationModel::from_json(&v1.to_string(), "v1.json").unwrap();
    let MtSystem::Ms(o) = &old.system else { panic!("not ms") };
    assert!(o.vocabulary.is_empty() && !sys.vocabulary.is_empty());
    assert_eq!(o.config.unknown, treelink::mt::phrase::unknown::UnknownWordOptions::copy_only());
    assert_eq!(o.config.reading, treelink::mt::ms::MsReading::PAPER);
    assert_eq!(o.weights.len(), NUM_MS_FEATURES);
    assert_eq!(o.weights[..14], sys.weights[..14]);
    assert_eq!(o.weights[14..], [0.0; 3]);
    assert_eq!(o.translate(&src).words, tr.words);
    // Another version is named as such, whatever its body holds.
    let later = "{\"format\": \"treelink-mt\", \"version\": 3, \"system\": {\"kind\": \"ms2\"}, \"model\": []}";
    assert_eq!(
        TranslationModel::from_json(later, "m.json").unwrap_err().to_string(),
        "m.json:1:1: expected format \"treelink-mt\" version 1 to 2, found format \"treelink-mt\" version 3"
    );
    let e = TranslationModel::from_json(
        "{\"format\": \"treelink-mt\",\n \"version\": 1, \"system\": \"ms\", \"model\": {]}",
        "m.json",
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("m.json:2:"), "{e}");
    let mut weights = (**b).clone();
    weights.weights.pop();
    let m = TranslationModel { training: TrainingInfo::default(), system: MtSystem::Ms(Box::new(weights)) };
    assert!(TranslationModel::from_json(&m.to_json(), "m.json")
        .unwrap_err()
        .to_string()
        .contains("expected 17 (or, version 1, 14) finite"));
}

/// The binary form reads back to the same model (its JSON byte for byte)
/// and the same translations; pruning what the decoder cannot reach keeps
/// every translation; a damaged file, or one of another layout version, is
/// refused naming the file and what is wrong.
#[test]
fn binary_model_round_trip_pruning_and_damage() {
    use treelink::mt::model::{MT_BINARY_MAGIC, MT_BINARY_VERSION};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    let mut corpus = Corpus::read_prefix(root, false).unwrap();
    corpus.pairs.truncate(60);
    let alignments =
        treelink::mt::train::word_alignments(&[&corpus], &mut treelink::progress::Quiet).unwrap().swap_remove(0);
    let mut config = MsSystemConfig::default();
    // Fewer RM targets tried than kept, so pruning has something to drop.
    config.decode.rm_limit = 2;
    let sys = MsSystem::train(&corpus, &alignments, None, &config).unwrap();
    let model = TranslationModel {
        training: TrainingInfo { train: "sample".into(), pairs: corpus.pairs.len(), ..TrainingInfo::default() },
        system: MtSystem::Ms(Box::new(sys)),
    };
    let translations = |m: &TranslationModel| -> Vec<Vec<String>> {
        let MtSystem::Ms(s) = &m.system else { panic!("not ms") };
        corpus.pairs.iter().take(12).map(|p| s.translate(&p.source).words).collect()
    };
    let expected = translations(&model);
    let json = model.to_json();
    let bytes = model.to_binary();
    assert!(bytes.starts_with(MT_BINARY_MAGIC));
    assert_eq!(bytes[8..12], MT_BINARY_VERSION.to_le_bytes());
    assert!(bytes.len() * 4 < json.len(), "{} bytes binary, {} JSON", bytes.len(), json.len());
    assert_eq!(model.to_binary(), bytes, "deterministic");
    let back = TranslationModel::from_bytes(&bytes, "m.tlmt").unwrap();
    assert!(back == model);
    assert!(back.to_json() == json, "the JSON of the model read back differs");
    assert_eq!(translations(&back), expected);
    // from_bytes reads JSON too, told apart by the first bytes.
    assert_eq!(TranslationModel::from_bytes(json.as_bytes(), "m.json").unwrap().to_json(), json);

    let mut pruned = back.clone();
    let MtSystem::Ms(s) = &model.system else { unreachable!() };
    let (before, sources) = (s.rm_table.len(), s.rm_table.source_rms());
    let dropped = pruned.prune_unreachable();
    let MtSystem::Ms(p) = &pruned.system else { unreachable!() };
    assert!(dropped > 0);
    assert_eq!(p.rm_table.len() + dropped, before);
    assert_eq!(p.rm_table.source_rms(), sources, "every source RM keeps its best targets");
    for e in s.rm_table.entries() {
        let (entries, _) = s.rm_table.lookup(&e.source);
        let rank = entries.iter().position(|x| x.target == e.target).unwrap();
        assert_eq!(p.rm_table.get(&e.source, &e.target).is_some(), rank < 2, "{} -> {}", e.source, e.target);
    }
    assert_eq!(translations(&pruned), expected);

    let err = |b: &[u8]| TranslationModel::from_bytes(b, "m.tlmt").unwrap_err().to_string();
    let damaged = "m.tlmt: expected a treelink binary translation model, but ";
    assert_eq!(err(&bytes[..10]), format!("{damaged}it ends inside its header"));
    let e = err(&bytes[..bytes.len() / 2]);
    assert!(e.starts_with(&format!("{damaged}its compressed data is damaged")), "{e}");
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x55;
    assert!(err(&flipped).starts_with(damaged), "{}", err(&flipped));
    let mut other = bytes.clone();
    other[8..12].copy_from_slice(&(MT_BINARY_VERSION + 1).to_le_bytes());
    assert_eq!(
        err(&other),
        format!(
            "m.tlmt: a binary translation model of layout version {}; this build reads version {MT_BINARY_VERSION}: \
             convert the JSON model again (treelink mt-convert MODEL.json MODEL.tlmt)",
            MT_BINARY_VERSION + 1
        )
    );
    // Valid compressed data holding something else than a model.
    let mut junk = MT_BINARY_MAGIC.to_vec();
    junk.extend_from_slice(&MT_BINARY_VERSION.to_le_bytes());
    junk.extend(miniz_oxide::deflate::compress_to_vec(&[3, b'a', b'b', b'c', 9, 9], 6));
    assert!(err(&junk).starts_with(&format!("{damaged}its header does not decode")), "{}", err(&junk));
    // Neither form: read as JSON, with its position.
    assert!(err(b"\x00\x01garbage").starts_with("m.tlmt:1:1: expected"), "{}", err(b"\x00\x01garbage"));
}

// ------------------------------------------------------------- the CLI ----

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_treelink")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("treelink-mt-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_corpus(dir: &Path, prefix: &str) {
    let c = small_corpus();
    let src: String = c.pairs.iter().map(|p| p.source.to_bracketed() + "\n").collect();
    let trg: String = c.pairs.iter().map(|p| p.target.to_bracketed() + "\n").collect();
    std::fs::write(dir.join(format!("{prefix}.src")), src).unwrap();
    std::fs::write(dir.join(format!("{prefix}.trg")), trg).unwrap();
    // Gold links: the NPs and the roots of the first three pairs.
    std::fs::write(dir.join(format!("{prefix}.gold")), "0-0 1-1\n0-0 1-1\n0-0 1-1\n0-0\n").unwrap();
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(bin()).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn cli_mt_train_translate_bleu() {
    let dir = temp_dir("cli");
    write_corpus(&dir, "train");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    for (system, extract) in [("ms", "word"), ("phrase", "ewos"), ("ms", "dirc")] {
        let model = p(&format!("{system}-{extract}.json"));
        let (ok, _, err) = run(&[
            "mt-train",
            "--train",
            &p("train"),
            "--dev",
            &p("train"),
            "--system",
            system,
            "--extract",
            extract,
            "--subtree-align",
            "gold",
            "--ms-reading",
            "paper",
            "--word-model",
            "fast-align",
            "--tune-iterations",
            "1",
            "--nbest",
            "10",
            "-o",
            &model,
        ]);
        assert!(ok, "{err}");
        let (ok, out, err) = run(&["translate", "--model", &model, "--input", &p("train.src")]);
        assert!(ok, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines.iter().all(|l| !l.is_empty() && !l.starts_with('(')));
        // --nbest 3: per sentence up to 3 `K ||| words ||| h ||| score` lines, best first, the
        // first the translation above; the features as many as the system has.
        let (ok, nbest, err) = run(&["translate", "--model", &model, "--input", &p("train.src"), "--nbest", "3"]);
        assert!(ok, "{err}");
        let n_features =
            if system == "ms" { NUM_MS_FEATURES } else { treelink::mt::phrase::PHRASE_FEATURE_NAMES.len() };
        let mut firsts = Vec::new();
        let mut last: Option<(usize, f64)> = None;
        for line in nbest.lines() {
            let cells: Vec<&str> = line.split(" ||| ").collect();
            assert_eq!(cells.len(), 4, "{line}");
            let (k, score): (usize, f64) = (cells[0].parse().unwrap(), cells[3].parse().unwrap());
            assert_eq!(cells[2].split(' ').count(), n_features, "{line}");
            match last {
                Some((j, s)) if j == k => assert!(s >= score, "best first: {nbest}"),
                _ => firsts.push(cells[1].to_string()),
            }
            last = Some((k, score));
        }
        assert_eq!(firsts, lines, "the first of each list is the translation");
        std::fs::write(p("hyp"), &out).unwrap();
    }
    // bleu: references as sentences, or as the target trees (their leaves).
    let refs: String = small_corpus().pairs.iter().map(|p| p.target.words().join(" ") + "\n").collect();
    std::fs::write(p("ref"), &refs).unwrap();
    let (ok, out, err) = run(&["bleu", "--ref", &p("ref"), "--hyp", &p("ref")]);
    assert!(ok, "{err}");
    assert_eq!(
        out.trim(),
        "BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 15 ref_len = 15)"
    );
    let (ok, out2, _) = run(&["bleu", "--ref", &p("train.trg"), "--hyp", &p("ref")]);
    assert!(ok);
    assert_eq!(out2, out);
    let (ok, out, _) = run(&["bleu", "--ref", &p("ref"), "--hyp", &p("hyp")]);
    assert!(ok && out.starts_with("BLEU = "), "{out}");
    // Several systems: each one's BLEU line, then the paired bootstrap table against the first.
    let (ok, cmp, err) = run(&["bleu", "--ref", &p("ref"), "--hyp", &p("hyp"), "--hyp", &p("ref"), "--samples", "50"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = cmp.lines().collect();
    assert_eq!(lines.len(), 6, "{cmp}");
    assert_eq!(lines[0], format!("{}  {}", p("hyp"), out.trim()));
    assert!(lines[1].starts_with(&format!("{}  BLEU = 100.00 ", p("ref"))), "{cmp}");
    assert!(lines[2].starts_with("paired bootstrap resampling (Koehn 2004): 50 resamples of 4 sentences, seed 12345"));
    let cells = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(cells(lines[3]), ["system", "BLEU", "μ", "±", "95%", "CI", "p"]);
    let (base, other) = (cells(lines[4]), cells(lines[5]));
    assert_eq!(base[0], p("hyp"));
    assert_eq!(base.last().unwrap(), "-");
    assert_eq!(other[1], "100.00");
    // p = (c + 1) / 51 for a count c of resamples.
    let pv: f64 = other.last().unwrap().trim_end_matches('*').parse().unwrap();
    assert!((1..=51).any(|c| (f64::from(c) / 51.0 - pv).abs() < 5e-5), "{cmp}");
    // --runs 2: two systems of two runs each, scored by the mean over their runs.
    let hyp_bleu: f64 = out.split_whitespace().nth(2).unwrap().parse().unwrap();
    let four = ["--hyp", &p("hyp"), "--hyp", &p("ref"), "--hyp", &p("ref"), "--hyp", &p("ref")];
    let (ok, cmp, err) = run(&[&["bleu", "--ref", &p("ref"), "--runs", "2", "--samples", "50"][..], &four].concat());
    assert!(ok, "{err}");
    let lines: Vec<&str> = cmp.lines().collect();
    assert_eq!(lines.len(), 8, "{cmp}");
    assert!(lines[4].contains("mean BLEU over 2 runs per system"), "{cmp}");
    let (a, b) = (cells(lines[6]), cells(lines[7]));
    assert_eq!(a[..3], [p("hyp"), "(+1".to_string(), "runs)".to_string()]);
    assert_eq!(a[3], format!("{:.2}", (hyp_bleu + 100.0) / 2.0), "{cmp}");
    assert_eq!(b[3], "100.00");
    let (ok, _, err) = run(&[&["bleu", "--ref", &p("ref"), "--runs", "3"][..], &four].concat());
    assert!(!ok);
    assert!(err.contains("--runs 3: expected a multiple of 3 --hyp files"), "{err}");

    // Located errors and non-zero exits.
    std::fs::write(p("bad.src"), "(S (NN Haus)\n").unwrap();
    let (ok, _, err) = run(&["translate", "--model", &p("ms-word.json"), "--input", &p("bad.src")]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!("treelink: {}:2:1: expected ')' to close '(S' opened at 1:1, found end of input", p("bad.src"))
    );
    std::fs::write(p("short"), "la casa\n").unwrap();
    let (ok, _, err) = run(&["bleu", "--ref", &p("ref"), "--hyp", &p("short")]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!("treelink: {}:2:1: expected 4 lines (as many as {}), found 1", p("short"), p("ref"))
    );
    std::fs::write(p("notamodel.json"), "{\"format\": \"x\"}").unwrap();
    let (ok, _, err) = run(&["translate", "--model", &p("notamodel.json"), "--input", &p("train.src")]);
    assert!(!ok);
    assert!(err.starts_with(&format!("treelink: {}:1:1: expected format", p("notamodel.json"))), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lines `range` of the built-in sample's `.src`, `.trg` and `.gold` files as `dir/name.*`.
fn sample_split(dir: &Path, name: &str, range: std::ops::Range<usize>) -> String {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    for ext in ["src", "trg", "gold"] {
        let text = std::fs::read_to_string(format!("{sample}.{ext}")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        std::fs::write(dir.join(format!("{name}.{ext}")), lines[range.clone()].join("\n") + "\n").unwrap();
    }
    dir.join(name).to_string_lossy().into_owned()
}

/// A model file without its `"seconds":` value (the wall-clock time of training).
fn without_seconds(json: &str) -> String {
    let key = "\"seconds\":";
    let Some(at) = json.find(key) else { return json.to_string() };
    let rest = &json[at + key.len()..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    format!("{}{}", &json[..at + key.len()], &rest[end..])
}

/// No test data in any model (issue 10): `mt-experiment` with the same
/// train and dev sets and other test references (and then other test
/// sources too) trains and tunes byte-identical models (word alignment,
/// phrase and RM tables, LMs, MERT), and only the test scores change.
/// (DirC / EWoS add sub-tree links of the training pairs, gold or aligned
/// with a model trained on train and dev, to the same word alignment.)
#[test]
fn mt_experiment_models_do_not_depend_on_the_test_set() {
    let dir = temp_dir("no-test-in-models");
    let train = sample_split(&dir, "train", 0..60);
    let dev = sample_split(&dir, "dev", 60..75);
    let test = sample_split(&dir, "test", 75..95);
    // Same sources, other references; then other sources too.
    let other_refs = dir.join("test-refs").to_string_lossy().into_owned();
    std::fs::copy(format!("{test}.src"), format!("{other_refs}.src")).unwrap();
    sample_split(&dir, "other", 100..120);
    std::fs::copy(dir.join("other.trg"), format!("{other_refs}.trg")).unwrap();
    let other_all = dir.join("other").to_string_lossy().into_owned();
    let experiment = |test: &str, out: &str| {
        let out = dir.join(out).to_string_lossy().into_owned();
        let (ok, stdout, err) = run(&[
            "mt-experiment",
            "--train",
            &train,
            "--dev",
            &dev,
            "--test",
            test,
            "--extract",
            "word",
            "--tune-iterations",
            "1",
            "--nbest",
            "10",
            "--output-dir",
            &out,
        ]);
        assert!(ok, "{err}");
        (out, stdout)
    };
    let (a, table_a) = experiment(&test, "a");
    let (b, table_b) = experiment(&other_refs, "b");
    let (c, _) = experiment(&other_all, "c");
    assert_ne!(table_a, table_b, "the test references are read and scored");
    // The table: mean, sd over runs, p against the first row; and the tuned weights.
    assert!(table_a.contains("p: paired bootstrap against the first row"), "{table_a}");
    let row = |name: &str| table_a.lines().find(|l| l.starts_with(name)).unwrap().split_whitespace().count();
    assert_eq!(row("phrase  word"), 16, "{table_a}");
    assert_eq!(row("ms      word"), 16, "{table_a}");
    assert!(table_a.contains("ms word: tm_inv_phrase "), "{table_a}");
    for name in ["phrase-word-1", "ms-word-1"] {
        let model = |d: &str| std::fs::read_to_string(format!("{d}/{name}.json")).unwrap();
        let (ma, mb, mc) = (model(&a), model(&b), model(&c));
        assert!(ma.contains("\"rm_table\"") == name.starts_with("ms"), "{name}");
        assert!(without_seconds(&ma) == without_seconds(&mb), "{name}: the test references changed the model");
        assert!(without_seconds(&ma) == without_seconds(&mc), "{name}: the test set changed the model");
        // Same model, same sources: the same translations.
        let hyps = |d: &str| std::fs::read_to_string(format!("{d}/{name}.hyp")).unwrap();
        assert_eq!(hyps(&a), hyps(&b), "{name}");
        assert_eq!(hyps(&a).lines().count(), 20);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `treelink lm` writes the LM the systems train (ARPA), and `mt-train --lm`
/// puts a given one in the model: the model's LM is the file's, not the
/// training pairs'.
#[test]
fn cli_lm_and_mt_train_with_a_given_lm() {
    let dir = temp_dir("lm");
    write_corpus(&dir, "train");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    // The LM of the target trees' leaves, trained and written by the engine.
    let (ok, out, err) = run(&["lm", "--train", &p("train.trg"), "--order", "2", "-o", &p("trg.arpa")]);
    assert!(ok, "{err}");
    let sentences: Vec<Vec<String>> = small_corpus().pairs.iter().map(|p| p.target.words().to_vec()).collect();
    let expected = NgramLm::train(&sentences, 2).unwrap();
    let arpa = std::fs::read_to_string(p("trg.arpa")).unwrap();
    assert_eq!(arpa, write_arpa(&expected));
    let counts = expected.ngram_counts();
    assert!(out.contains(&format!("4 sentences, order 2, {} 1-grams, {} 2-grams", counts[0], counts[1])), "{out}");
    // Another LM (of other sentences) given to mt-train ends up in the model.
    std::fs::write(
        p("other.txt"),
        "la casa es grande
el perro ladra
",
    )
    .unwrap();
    let (ok, _, err) = run(&["lm", "--train", &p("other.txt"), "-o", &p("other.arpa")]);
    assert!(ok, "{err}");
    let other = read_arpa(&std::fs::read_to_string(p("other.arpa")).unwrap(), "other.arpa").unwrap();
    for system in ["ms", "phrase"] {
        let model = p(&format!("{system}-lm.json"));
        let args = ["mt-train", "--train", &p("train"), "--system", system, "--lm", &p("other.arpa"), "-o", &model];
        let (ok, _, err) = run(&args);
        assert!(ok, "{err}");
        let m = TranslationModel::from_json(&std::fs::read_to_string(&model).unwrap(), &model).unwrap();
        let lm = match &m.system {
            MtSystem::Ms(s) => &s.lm,
            MtSystem::Phrase(s) => &s.lm,
        };
        assert_eq!(lm, &other, "{system}");
    }
    // A bad ARPA file: a located error, no model.
    std::fs::write(p("bad.arpa"), "\\data\\\nngram 1=1\n\n\\1-grams:\nx y\n").unwrap();
    let (ok, _, err) =
        run(&["mt-train", "--train", &p("train"), "--system", "ms", "--lm", &p("bad.arpa"), "-o", &p("bad.json")]);
    assert!(!ok);
    assert!(err.starts_with(&format!("treelink: {}:5:1: expected", p("bad.arpa"))), "{err}");
    assert!(!Path::new(&p("bad.json")).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `mt-train -o MODEL.tlmt` writes the binary form, `translate` reads
/// either form with the same output, and `mt-convert` goes both ways
/// (back to the very JSON `mt-train` wrote). A committed binary model must
/// still read as its committed JSON: when the model's types change, that
/// fails until `MT_BINARY_VERSION` is raised and the pair written again.
#[test]
fn cli_binary_models() {
    let dir = temp_dir("binary");
    write_corpus(&dir, "train");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    for system in ["ms", "phrase"] {
        let train = |out: &str| {
            let (ok, _, err) = run(&["mt-train", "--train", &p("train"), "--system", system, "-o", &p(out)]);
            assert!(ok, "{err}");
        };
        let (json, bin) = (format!("{system}.json"), format!("{system}.tlmt"));
        train(&json);
        train(&bin);
        let bytes = std::fs::read(p(&bin)).unwrap();
        assert!(TranslationModel::is_binary(&bytes));
        let expected = TranslationModel::from_json(&std::fs::read_to_string(p(&json)).unwrap(), &json).unwrap();
        let mut trained = TranslationModel::from_bytes(&bytes, &bin).unwrap();
        // Two trainings differ in their time taken only.
        trained.training.seconds = expected.training.seconds;
        assert!(trained == expected, "{system}: the binary model differs from the JSON one");
        let translate = |model: &str| {
            let (ok, out, err) = run(&["translate", "--model", &p(model), "--input", &p("train.src")]);
            assert!(ok, "{err}");
            out
        };
        let out = translate(&json);
        assert_eq!(out.lines().count(), 4);
        assert_eq!(translate(&bin), out, "{system}");
        let (converted, back) = (format!("{system}-converted.tlmt"), format!("{system}-back.json"));
        let (ok, _, err) = run(&["mt-convert", &p(&json), &p(&converted)]);
        assert!(ok && err.contains(&format!("wrote {}", p(&converted))), "{err}");
        assert!(TranslationModel::is_binary(&std::fs::read(p(&converted)).unwrap()));
        let (ok, _, err) = run(&["mt-convert", &p(&converted), &p(&back)]);
        assert!(ok, "{err}");
        assert!(std::fs::read(p(&back)).unwrap() == std::fs::read(p(&json)).unwrap(), "{system}: JSON changed");
        let (ok, _, err) = run(&["mt-convert", &p(&json), &p("again.tlmt"), "--prune"]);
        assert!(ok && err.contains("unreachable RM entries dropped"), "{err}");
        assert_eq!(translate("again.tlmt"), out, "{system}");
    }
    // A damaged binary model: the file and what is wrong, exit status 1.
    let bytes = std::fs::read(p("ms.tlmt")).unwrap();
    std::fs::write(p("cut.tlmt"), &bytes[..bytes.len() - 9]).unwrap();
    let (ok, _, err) = run(&["translate", "--model", &p("cut.tlmt"), "--input", &p("train.src")]);
    assert!(!ok);
    assert!(
        err.starts_with(&format!("treelink: {}: expected a treelink binary translation model, but", p("cut.tlmt"))),
        "{err}"
    );

    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mt-ms-small");
    let json = std::fs::read_to_string(format!("{data}.json")).unwrap();
    let bytes = std::fs::read(format!("{data}.tlmt")).unwrap();
    let from_bin = TranslationModel::from_bytes(&bytes, "mt-ms-small.tlmt").unwrap();
    // The JSON file is of the layout before the record of how a model was made: it reads with that record empty.
    assert_eq!(from_bin, TranslationModel::from_json(&json, "mt-ms-small.json").unwrap());
    assert_eq!(from_bin.training.made_by, "");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the page draws holds for real derivations: on the built-in sample
/// (trained on it, so RM pairs apply), every step's source roots are
/// adjacent sub-trees tiling exactly its source span, the steps' spans tile
/// the sentence, and the target SMS tree has the translation as its words
/// and one MS root list per step.
#[test]
fn derivations_on_the_sample_draw_as_trees() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    let corpus = Corpus::read_prefix(root, false).unwrap();
    let alignments =
        treelink::mt::train::word_alignments(&[&corpus], &mut treelink::progress::Quiet).unwrap().swap_remove(0);
    let sys = MsSystem::train(&corpus, &alignments, None, &MsSystemConfig::default()).unwrap();
    let mut multi_ms = 0;
    for pair in corpus.pairs.iter().take(25) {
        let src = &pair.source;
        let tr = sys.translate(src);
        let mut covered = vec![0; src.words().len()];
        for step in &tr.derivation {
            assert!(!step.source_roots.is_empty());
            let mut at = step.source.0;
            for &r in &step.source_roots {
                assert_eq!(src.span(r).start, at, "roots of {} are adjacent, left to right", step.source_rm);
                at = src.span(r).end;
            }
            assert_eq!(at, step.source.1, "the roots of {} tile its span", step.source_rm);
            for c in &mut covered[step.source.0..step.source.1] {
                *c += 1;
            }
            multi_ms += usize::from(step.source_roots.len() > 1);
        }
        assert!(covered.iter().all(|&c| c == 1), "the steps tile the sentence once: {covered:?}");
        let sms = treelink::mt::ms::derivation::target_sms_tree(&tr.derivation).unwrap();
        assert_eq!(sms.tree.words(), tr.words.as_slice());
        assert_eq!(sms.roots.len(), tr.derivation.len());
        let shape: treelink::mt::meta::RmShape = tr.target_sms.parse().unwrap();
        assert_eq!(shape.ms_count(), sms.roots.iter().map(Vec::len).sum::<usize>());
    }
    assert!(multi_ms > 0, "some RMs hold several MS");
}

// ------------------------------------------------------- real data (slow) ----

#[test]
#[ignore = "slow: trains word alignments and the MS system on 2728 SQUOIA pairs and decodes dev (run with --release)"]
fn squoia_ms_end_to_end() {
    use std::time::Instant;
    use treelink::eval::bleu::{Bleu, BleuStats};
    use treelink::lexicon::{bitext_of, train_lexicon, LexiconOptions};
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/squoia-de-es/bracketed");
    let train = Corpus::read_prefix(&format!("{data}/train"), false).unwrap();
    let dev = Corpus::read_prefix(&format!("{data}/dev"), false).unwrap();
    let t0 = Instant::now();
    let (_, links) = train_lexicon(&bitext_of(&train), &LexiconOptions::default(), &mut |_| {});
    let sys = MsSystem::train(&train, &links, None, &MsSystemConfig::default()).unwrap();
    println!(
        "trained in {:.1} s: {} RM pairs, {} source RMs",
        t0.elapsed().as_secs_f64(),
        sys.rm_table.len(),
        sys.rm_table.source_rms()
    );
    let t0 = Instant::now();
    let mut stats = BleuStats::default();
    let mut glue = 0;
    let mut rms = 0;
    for p in &dev.pairs {
        let t = sys.translate(&p.source);
        let sms: treelink::mt::meta::RmShape = t.target_sms.parse().unwrap();
        assert_eq!(sms.word_count(), t.words.len());
        glue += t.derivation.iter().filter(|s| s.glue).count();
        rms += t.derivation.len();
        stats += BleuStats::from_tokens(&t.words, &[p.target.words()]);
    }
    let secs = t0.elapsed().as_secs_f64();
    let bleu = Bleu::corpus(&stats);
    println!("dev (untuned): {bleu}; {:.1} sentences/s; {rms} RMs, {glue} glue", dev.len() as f64 / secs);
    assert!(bleu.score > 8.0, "{bleu}");
}

/// `--word-model hmm` (mt-train, mt-experiment): the tables are extracted
/// from the HMM's symmetrised links, exactly the lexicon training's with that
/// model, which differ from fast_align's on real sentences; a name it does
/// not know is refused with the list.
#[test]
fn the_hmm_word_model_gives_the_tables_its_links() {
    use treelink::lexicon::{bitext_of, train_lexicon, LexiconOptions, WordModel};
    use treelink::mt::train::word_alignments_with;
    use treelink::progress::Quiet;
    let sample = Corpus::read_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev"), false).unwrap();
    let corpus = Corpus { pairs: sample.pairs[..60].to_vec() };
    let (hmm, lexicon) = word_alignments_with(&[&corpus], WordModel::Hmm, &mut Quiet).unwrap();
    let options = LexiconOptions::default().with_word_model(WordModel::Hmm);
    let (expected_lexicon, expected) = train_lexicon(&bitext_of(&corpus), &options, &mut |_| {});
    assert_eq!((&hmm[0], &lexicon), (&expected, &expected_lexicon));
    let (fast, _) = word_alignments_with(&[&corpus], WordModel::FastAlign, &mut Quiet).unwrap();
    let differ = hmm[0].iter().zip(&fast[0]).filter(|(a, b)| a != b).count();
    assert!(differ > 10, "{differ} of 60 pairs");
    let dir = temp_dir("word-model");
    write_corpus(&dir, "train");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (ok, _, err) =
        run(&["mt-train", "--train", &p("train"), "--system", "phrase", "--word-model", "ibm4", "-o", &p("m.json")]);
    assert!(!ok && err.contains("fast-align, hmm"), "{err}");
    let (ok, _, err) =
        run(&["mt-train", "--train", &p("train"), "--system", "phrase", "--word-model", "hmm", "-o", &p("m.json")]);
    assert!(ok, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The phrase pairs `--trace` lists for sentence 1 (`words A-B source -> target`
/// or `word A source -> target`, words from 1, `(copied)` last for a copy), in
/// the order printed, as spans `[A-1, B)` from 0.
fn traced_phrases(trace: &str) -> Vec<((usize, usize), String, String, bool)> {
    trace
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let (span, rest) = match l.strip_prefix("words ") {
                Some(l) => l.split_once(' ')?,
                None => l.strip_prefix("word ")?.split_once(' ')?,
            };
            let (a, b) = span.split_once('-').unwrap_or((span, span));
            let (s, e) = (a.parse::<usize>().ok()?.checked_sub(1)?.to_string(), b.to_string());
            let (source, target) = rest.split_once(" -> ")?;
            // An RM pair's line holds " : " and structure strings; a phrase pair's does not.
            if target.contains(" : ") {
                return None;
            }
            let (target, copied) = match target.strip_suffix(" (copied)") {
                Some(t) => (t, true),
                None => (target, false),
            };
            Some(((s.parse().ok()?, e.parse().ok()?), source.to_string(), target.to_string(), copied))
        })
        .collect()
}

/// Issue 27.4: a source word is "unknown" only if no rule of the derivation
/// covers it with a translation. With a model trained on the built-in
/// sample, pair 3's *immer* has no one-word phrase pair but is translated
/// inside a longer one (its translation is the reference): `--trace` says
/// so and names the phrase pair (and, for MS, the RM pair), and lists the
/// phrase pairs that cover every source word once, their targets making the
/// translation. A word no rule knows is unknown and copied, and the trace says that.
#[test]
fn the_trace_says_which_rule_translated_each_word_and_unknown_only_when_copied() {
    let dir = temp_dir("trace");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    let pair3 = std::fs::read_to_string(format!("{sample}.src")).unwrap().lines().nth(2).unwrap().to_string();
    std::fs::write(p("pair3.src"), format!("{pair3}\n")).unwrap();
    std::fs::write(p("unk.src"), "(S (NP (NN Xyzzyquatsch)) (VAFIN sind) (ADV immer) ($. .))\n").unwrap();
    for system in ["ms", "phrase"] {
        let model = p(&format!("{system}.json"));
        let (ok, _, err) = run(&["mt-train", "--train", sample, "--system", system, "-o", &model]);
        assert!(ok, "{err}");
        let (ok, hyp, trace) = run(&["translate", "--model", &model, "--input", &p("pair3.src"), "--trace"]);
        assert!(ok, "{trace}");
        let words: Vec<&str> = pair3.split([' ', ')']).filter(|w| !w.is_empty() && !w.starts_with('(')).collect();
        assert_eq!(words[4], "immer");
        // Every source word is covered by exactly one phrase pair, and the targets are the translation.
        let phrases = traced_phrases(&trace);
        let mut covered = vec![0; words.len()];
        for ((s, e), source, _, _) in &phrases {
            assert_eq!(source, &words[*s..*e].join(" "), "{system}: {trace}");
            covered[*s..*e].iter_mut().for_each(|c| *c += 1);
        }
        assert!(covered.iter().all(|&c| c == 1), "{system}: {covered:?}\n{trace}");
        let targets: Vec<&str> = phrases.iter().map(|(.., t, _)| t.as_str()).collect();
        assert_eq!(targets.join(" "), hyp.trim(), "{system}");
        // immer: not unknown; the phrase pair over it is named, and it is one the derivation lists, not a copy.
        let line = trace.lines().find(|l| l.starts_with("sentence 1: word 5 'immer': ")).expect("immer has a note");
        assert!(!line.contains("unknown"), "{system}: {line}");
        let over = phrases.iter().find(|((s, e), ..)| (*s..*e).contains(&4)).unwrap();
        assert!(!over.3 && over.0 .1 - over.0 .0 > 1, "{system}: {over:?}");
        let named = format!("no one-word translation, translated inside the phrase pair '{}' → '{}'", over.1, over.2);
        assert!(line.contains(&named), "{system}: {line}\nexpected {named}");
        assert_eq!(line.contains(" in RM pair "), system == "ms", "{line}");
        assert!(!trace.contains("(copied)"), "{system}: nothing is copied in pair 3\n{trace}");
        assert!(trace.contains("; copied in the translations 0.0%"), "{trace}");
        // A word nobody knows: unknown, copied, and its rule is the copy.
        let (ok, hyp, trace) = run(&["translate", "--model", &model, "--input", &p("unk.src"), "--trace"]);
        assert!(ok, "{trace}");
        assert!(hyp.starts_with("Xyzzyquatsch "), "{hyp}");
        assert!(
            trace.contains("sentence 1: word 1 'Xyzzyquatsch': unknown, copied; translated as Xyzzyquatsch\n"),
            "{trace}"
        );
        let phrases = traced_phrases(&trace);
        assert!(phrases.contains(&((0, 1), "Xyzzyquatsch".into(), "Xyzzyquatsch".into(), true)), "{phrases:?}");
        assert!(phrases.iter().filter(|p| p.3).count() == 1, "{phrases:?}");
        assert!(trace.contains("; copied in the translations 25.0%"), "{trace}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27.1: `mt-train --dev` (by default, as with `--choose`) trains
/// and tunes each configuration on dev, prints each with its dev BLEU and
/// keeps the best (the model file's dev BLEU is the kept row's); what the
/// user gives is the only value of its kind; a spent budget tries the
/// paper's only; `--preset paper` gives the paper's reading whatever
/// `--ms-reading` says.
#[test]
fn mt_train_chooses_on_dev_within_its_budget_and_the_preset_is_the_papers() {
    let dir = temp_dir("choose");
    write_corpus(&dir, "train");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (train, model) = (p("train"), p("chosen.json"));
    let common = ["mt-train", "--train", &train, "--dev", &train, "--system", "ms", "--tune-iterations", "1"];
    let rows_of = |out: &str| -> Vec<(String, f64, bool)> {
        out.lines()
            .filter_map(|l| {
                let (choice, rest) = l.trim().split_once(": dev BLEU ")?;
                let bleu: f64 = rest.split(',').next()?.parse().ok()?;
                Some((choice.to_string(), bleu, rest.ends_with("<- kept")))
            })
            .collect()
    };
    let without_time = |file: &str| {
        let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        json["training"]["seconds"] = serde_json::Value::Null;
        json
    };
    let (ok, out, err) = run(&[&common[..], &["--nbest", "5", "-o", &model]].concat());
    assert!(ok, "{err}");
    let rows = rows_of(&out);
    // --choose says what the default does.
    let explicit = p("explicit.json");
    let (ok, out_choose, err) = run(&[&common[..], &["--nbest", "5", "--choose", "-o", &explicit]].concat());
    assert!(ok, "{err}");
    assert_eq!(rows_of(&out_choose), rows);
    assert!(without_time(&explicit) == without_time(&model), "--choose trained another model than the default");
    // A word model and an extraction given: the readings alone are chosen; all three given: nothing is.
    let hmm_word = ["--nbest", "5", "--word-model", "hmm", "--extract", "word", "-o", &explicit];
    let (ok, out, err) = run(&[&common[..], &hmm_word].concat());
    assert!(ok, "{err}");
    let names: Vec<String> = rows_of(&out).into_iter().map(|r| r.0).collect();
    assert_eq!(
        names,
        ["reading paper, word model hmm, word extraction", "reading discount, word model hmm, word extraction"],
        "{out}"
    );
    let pinned =
        ["--nbest", "5", "--word-model", "hmm", "--ms-reading", "discount", "--extract", "word", "-o", &explicit];
    let (ok, out, err) = run(&[&common[..], &pinned].concat());
    assert!(ok, "{err}");
    assert!(rows_of(&out).is_empty() && !out.contains("configurations tried"), "{out}");
    let alone = without_time(&explicit)["training"]["dev_bleu"].as_f64().unwrap();
    let row = rows.iter().find(|r| r.0 == "reading discount, word model hmm, word extraction").unwrap();
    assert_eq!(format!("{alone:.2}"), format!("{:.2}", row.1));
    // The training pairs have gold sub-tree links: every extraction is tried, word first.
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let mut expected = Vec::new();
    for extract in ["word", "dirc", "ewos"] {
        for (model, reading) in
            [("fast-align", "paper"), ("fast-align", "discount"), ("hmm", "paper"), ("hmm", "discount")]
        {
            expected.push(format!("reading {reading}, word model {model}, {extract} extraction"));
        }
    }
    assert_eq!(names, expected, "{out}");
    let kept: Vec<_> = rows.iter().filter(|r| r.2).collect();
    assert_eq!(kept.len(), 1, "{out}");
    let best = rows.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(kept[0].1, best);
    let m = TranslationModel::from_json(&std::fs::read_to_string(&model).unwrap(), "m.json").unwrap();
    assert_eq!(m.training.dev_bleu.map(|b| format!("{b:.2}")), Some(format!("{best:.2}")));
    // No budget: the paper's configuration, the others untried.
    let (ok, out, err) =
        run(&[&common[..], &["--nbest", "5", "--choose", "--budget-minutes", "0", "-o", &model]].concat());
    assert!(ok, "{err}");
    assert_eq!(out.lines().filter(|l| l.ends_with(": not tried (budget spent)")).count(), 11, "{out}");
    assert!(out.contains("  reading paper, word model fast-align, word extraction: dev BLEU "), "{out}");
    // --choose needs --dev; the preset overrides the reading.
    let (ok, _, err) = run(&["mt-train", "--train", &train, "--system", "ms", "--choose", "-o", &model]);
    assert!(!ok && err.contains("--dev"), "{err}");
    let (ok, _, err) = run(&[
        "mt-train",
        "--train",
        &train,
        "--system",
        "ms",
        "--ms-reading",
        "discount",
        "--preset",
        "paper",
        "-o",
        &model,
    ]);
    assert!(ok, "{err}");
    let MtSystem::Ms(ms) =
        TranslationModel::from_json(&std::fs::read_to_string(&model).unwrap(), "m.json").unwrap().system
    else {
        panic!("an MS model")
    };
    assert_eq!(ms.config.reading, treelink::mt::ms::MsReading::PAPER);
    let _ = std::fs::remove_dir_all(&dir);
}
