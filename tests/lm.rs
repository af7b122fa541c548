//! The h6 language model: Kneser-Ney probabilities computed by hand, the
//! decoder state API, ARPA reading/writing and model files.

use treelink::mt::lm::{read_arpa, write_arpa, LmError, NgramLm, WordId, FALLBACK_DISCOUNTS};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[track_caller]
fn assert_prob<S: AsRef<str>>(lm: &NgramLm, context: &[S], word: &str, p: f64) {
    let lp = lm.log_prob(context, word);
    assert!(close(lp, p.log10()), "log10 p({word} | ..) = {lp}, expected log10 {p} = {}", p.log10());
}

fn corpus(text: &str) -> Vec<Vec<&str>> {
    text.lines().map(|l| l.split_whitespace().collect()).collect()
}

/// A unigram model (top order: raw counts) on one sentence
/// "a a a a b b b c c d d e f g" + </s>, 15 tokens:
///   counts a 4, b 3, c 2, d 2, e f g </s> 1
///   count-of-counts t1..t4 = 4, 2, 1, 1
///   Y = 4 / (4 + 2·2) = 1/2
///   D1 = 1 - 2·(1/2)·2/4 = 1/2,  D2 = 2 - 3·(1/2)·1/2 = 5/4,  D3+ = 3 - 4·(1/2)·1/1 = 1
///   γ(ε) = (D1·4 + D2·2 + D3+·2) / 15 = 6.5/15 = 13/30, shared over the 9 words
///   without <s> (<unk> </s> a b c d e f g): 13/270 each
///   p(a) = (4 - 1)/15 + 13/270 = 67/270     p(b) = (3 - 1)/15 + 13/270 = 49/270
///   p(c) = (2 - 5/4)/15 + 13/270 = 53/540   p(e) = (1 - 1/2)/15 + 13/270 = 22/270
///   p(<unk>) = 13/270        (67 + 49 + 2·26.5 + 4·22 + 13 = 270)
#[test]
fn unigram_discounts_from_count_of_counts() {
    let (lm, d) = NgramLm::train_with_discounts(&corpus("a a a a b b b c c d d e f g"), 1).unwrap();
    assert!(!d[0].fallback);
    assert_eq!(d[0].d, [0.5, 1.25, 1.0]);
    let none: [&str; 0] = [];
    for (w, p) in [
        ("a", 67.0 / 270.0),
        ("b", 49.0 / 270.0),
        ("c", 53.0 / 540.0),
        ("d", 53.0 / 540.0),
        ("e", 22.0 / 270.0),
        ("</s>", 22.0 / 270.0),
        ("<unk>", 13.0 / 270.0),
        ("never-seen", 13.0 / 270.0),
    ] {
        assert_prob(&lm, &none, w, p);
        assert_prob(&lm, &["a"], w, p); // no context at order 1
    }
    assert_eq!(lm.ngram_counts(), [10]); // <unk> <s> </s> a..g
}

/// A trigram model on
///   a b
///   a b
///   c b
/// i.e. "<s> a b </s>" twice and "<s> c b </s>". Vocabulary without <s>:
/// <unk> </s> a b c (5 words, uniform 1/5).
///
/// Trigrams (top order, raw counts): <s>·a·b 2, a·b·</s> 2, <s>·c·b 1, c·b·</s> 1.
/// Bigrams: those starting with <s> keep raw counts (<s>·a 2, <s>·c 1); the
/// others get continuation counts, the number of distinct words before them:
///   a·b: {<s>} → 1 (raw 2)   c·b: {<s>} → 1   b·</s>: {a, c} → 2 (raw 3)
/// Unigrams (continuation counts over bigram types): a {<s>} 1, b {a, c} 2,
/// c {<s>} 1, </s> {b} 1, <unk> 0.
///
/// Count-of-counts: unigrams t = 3, 1, 0, 0; bigrams 3, 2, 0, 0; trigrams 2, 2, 0, 0:
/// t3 = 0 everywhere, so every order uses the fallback D1 = 1/2, D2 = 1, D3+ = 3/2.
///
/// Unigrams: S = 1 + 2 + 1 + 1 = 5, γ(ε) = (1/2·3 + 1·1)/5 = 1/2, uniform share 1/10:
///   p(a) = (1 - 1/2)/5 + 1/10 = 1/5   p(b) = (2 - 1)/5 + 1/10 = 3/10
///   p(c) = p(</s>) = 1/5              p(<unk>) = 1/10
/// Bigrams:
///   <s>: a 2, c 1; S = 3, γ = (1/2 + 1)/3 = 1/2
///     p(a | <s>) = (2 - 1)/3 + 1/2·1/5 = 13/30    p(c | <s>) = (1/2)/3 + 1/10 = 4/15
///     unseen: p(b | <s>) = 1/2·3/10 = 3/20, p(</s> | <s>) = 1/10, p(<unk> | <s>) = 1/20
///   a: b 1; S = 1, γ = 1/2:  p(b | a) = 1/2 + 1/2·3/10 = 13/20;  same for c: p(b | c) = 13/20
///   b: </s> 2; S = 2, γ = 1/2 (one count-2 word, D2 = 1): p(</s> | b) = (2 - 1)/2 + 1/2·1/5 = 3/5
/// Trigrams:
///   <s> a: b 2; γ = 1/2: p(b | <s> a) = (2 - 1)/2 + 1/2·13/20 = 33/40
///   a b: </s> 2;         p(</s> | a b) = 1/2 + 1/2·3/5 = 4/5
///   <s> c: b 1; γ = 1/2: p(b | <s> c) = 1/2 + 1/2·13/20 = 33/40
///   c b: </s> 1;         p(</s> | c b) = 1/2 + 1/2·3/5 = 4/5
///   unseen: p(a | <s> a) = γ(<s> a)·p(a | a) = 1/2·γ(a)·p(a) = 1/2·1/2·1/5 = 1/20
fn trigram_example() -> NgramLm {
    let (lm, d) = NgramLm::train_with_discounts(&corpus("a b\na b\nc b\n"), 3).unwrap();
    assert!(d.iter().all(|d| d.fallback && d.d == FALLBACK_DISCOUNTS));
    lm
}

#[test]
fn trigram_kneser_ney_by_hand() {
    let lm = trigram_example();
    let none: [&str; 0] = [];
    for (w, p) in [("a", 0.2), ("b", 0.3), ("c", 0.2), ("</s>", 0.2), ("<unk>", 0.1)] {
        assert_prob(&lm, &none, w, p);
    }
    for (w, p) in [("a", 13.0 / 30.0), ("c", 4.0 / 15.0), ("b", 0.15), ("</s>", 0.1), ("<unk>", 0.05), ("zzz", 0.05)] {
        assert_prob(&lm, &["<s>"], w, p);
    }
    assert_prob(&lm, &["a"], "b", 0.65);
    assert_prob(&lm, &["c"], "b", 0.65);
    assert_prob(&lm, &["b"], "</s>", 0.6);
    assert_prob(&lm, &["<s>", "a"], "b", 33.0 / 40.0);
    assert_prob(&lm, &["a", "b"], "</s>", 0.8);
    assert_prob(&lm, &["<s>", "c"], "b", 33.0 / 40.0);
    assert_prob(&lm, &["c", "b"], "</s>", 0.8);
    assert_prob(&lm, &["<s>", "a"], "a", 0.05);
    // Only the last two words of a longer context count.
    assert_prob(&lm, &["c", "c", "<s>", "a"], "b", 33.0 / 40.0);
    // Backoff weights in the ARPA file are log10 γ = log10 1/2 for every context.
    let arpa = write_arpa(&lm);
    let line = arpa.lines().find(|l| l.ends_with("\t<s> a") || l.contains("\t<s> a\t")).unwrap();
    let fields: Vec<f64> = line.split('\t').filter_map(|f| f.parse().ok()).collect();
    assert!(close(fields[0], (13.0f64 / 30.0).log10()) && close(fields[1], 0.5f64.log10()), "{line}");
    assert!(arpa.contains("-99\t<s>\t"));
    assert!(arpa.starts_with("\\data\\\nngram 1=6\nngram 2=5\nngram 3=4\n"), "{arpa}");
    // log10 P(<s> a b </s>) = log10(13/30 · 33/40 · 4/5)
    assert!(close(lm.score_sentence(&["a", "b"]), (13.0f64 / 30.0 * 33.0 / 40.0 * 0.8).log10()));
}

#[test]
fn decoder_states() {
    let lm = trigram_example();
    let (a, b, c) = (lm.word_id("a"), lm.word_id("b"), lm.word_id("c"));
    assert_eq!(lm.word_id("nope"), WordId::UNK);
    assert_eq!(lm.word(b), Some("b"));
    let s0 = lm.begin_state();
    let (p1, s1) = lm.score_word(s0, a);
    let (p2, s2) = lm.score_word(s1, b);
    let p3 = lm.score_end(s2);
    assert!(close(p1 + p2 + p3, lm.score_sentence(&["a", "b"])));
    // "<s> c a b": the context "c a" was never seen, so after "a" the state is
    // that of "a"; after "b" it is "a b", the same as after "<s> a b".
    let (_, t1) = lm.score_word(s0, c);
    let (q, t2) = lm.score_word(t1, a);
    assert!(close(q, (0.5f64 * 0.5 * 0.2).log10()), "p(a | <s> c) = γ(<s> c)·γ(c)·p(a)"); // 1/2·1/2·1/5
    let (_, t3) = lm.score_word(t2, b);
    assert_eq!(t3, s2);
    // "<s> c b" ends in the stored context "c b", a different state from "a b".
    let (_, u2) = lm.score_word(t1, b);
    assert_ne!(u2, s2);
    // An unknown word resets the context; a foreign state is the empty context.
    let (pu, su) = lm.score_word(s1, WordId::UNK);
    assert_eq!(su, lm.null_state());
    assert!(close(pu, (0.5f64 * 0.5 * 0.1).log10())); // γ(<s> a)·γ(a)·p(<unk>)
    let bogus = lm.score_word(s1, WordId(9999));
    assert_eq!(bogus.0, pu);
    // States are small, copyable, hashable.
    let mut set = std::collections::HashSet::new();
    set.extend([s0, s1, s2, t1, t2, t3]);
    assert_eq!(set.len(), 5);
    assert!(std::mem::size_of_val(&s0) <= 8);
}

/// A hand-written trigram ARPA file and ARPA backoff arithmetic.
const HAND_ARPA: &str = "written by hand; anything before \\data\\ is ignored

\\data\\
ngram 1=5
ngram 2=3
ngram 3=1

\\1-grams:
-1.0\t<unk>
-99\t<s>\t-0.5
-0.5\t</s>
-0.7\ta\t-0.3
-0.6\tb\t-0.2

\\2-grams:
-0.2\t<s> a\t-0.1
-0.4\ta b\t-0.15
-0.3\tb </s>

\\3-grams:
-0.05\t<s> a b

\\end\\
";

#[test]
fn hand_written_arpa_backoff() {
    let lm = read_arpa(HAND_ARPA, "hand.arpa").unwrap();
    assert_eq!((lm.order(), lm.ngram_counts()), (3, vec![5, 3, 1]));
    let c = |lp: f64, expected: f64| assert!((lp - expected).abs() < 1e-12, "{lp} vs {expected}");
    // Stored trigram.
    c(lm.log_prob(&["<s>", "a"], "b"), -0.05);
    // "<s> a a" absent: bo(<s> a) + p(a | a); "a a" absent: bo(a) + p(a) = -0.1 - 0.3 - 0.7.
    c(lm.log_prob(&["<s>", "a"], "a"), -1.1);
    // "a b </s>" absent: bo(a b) + p(</s> | b) = -0.15 - 0.3.
    c(lm.log_prob(&["a", "b"], "</s>"), -0.45);
    // Context "b a" is not stored: its backoff is 0, so p(b | b a) = p(b | a) = -0.4.
    c(lm.log_prob(&["b", "a"], "b"), -0.4);
    // Unknown word: p(<unk> | a) = bo(a) + p(<unk>) = -0.3 - 1.0.
    c(lm.log_prob(&["a"], "xyz"), -1.3);
    // p(b | <s>) = bo(<s>) + p(b) = -0.5 - 0.6.
    c(lm.log_prob(&["<s>"], "b"), -1.1);
    // P(<s> a b </s>) = -0.2 - 0.05 - 0.45; P(<s> b </s>) = -1.1 - 0.3.
    c(lm.score_sentence(&["a", "b"]), -0.7);
    c(lm.score_sentence(&["b"]), -1.4);
    // Written back: same numbers in the shortest form.
    let written = write_arpa(&lm);
    assert!(written.contains("-1\t<unk>\n-99\t<s>\t-0.5\n-0.5\t</s>\n-0.7\ta\t-0.3\n"), "{written}");
    assert_eq!(read_arpa(&written, "w").unwrap(), lm);
}

/// An ARPA file without <unk> and with a trigram whose prefix "<s> a" is missing.
#[test]
fn missing_unk_and_missing_prefix() {
    let text = "\\data\\\nngram 1=3\nngram 2=1\nngram 3=1\n\n\\1-grams:\n-99 <s> -0.5\n-0.5 </s>\n-0.4 a -0.25\n\n\\2-grams:\n-0.3 <s> </s>\n\n\\3-grams:\n-0.1 <s> a a\n\\end\\\n";
    let lm = read_arpa(text, "p.arpa").unwrap();
    let c = |lp: f64, expected: f64| assert!((lp - expected).abs() < 1e-12, "{lp} vs {expected}");
    c(lm.log_prob(&["a"], "zzz"), -0.25 - 100.0); // <unk> added at -100
    c(lm.log_prob(&["<s>"], "a"), -0.9); // bo(<s>) + p(a)
    c(lm.log_prob(&["<s>", "a"], "a"), -0.1);
    c(lm.log_prob(&["<s>", "a"], "</s>"), -0.75); // bo(<s> a) = 0, bo(a) + p(</s>)
    c(lm.score_sentence(&["a", "a"]), -0.9 - 0.1 - 0.75);
    // The blank "<s> a" is not written; <unk> is.
    let written = write_arpa(&lm);
    assert!(written.contains("ngram 1=4\nngram 2=1\nngram 3=1\n") && written.contains("-100\t<unk>\n"), "{written}");
    let again = read_arpa(&written, "w").unwrap();
    assert_eq!(again, lm);
    c(again.log_prob(&["<s>"], "a"), -0.9);
}

#[test]
fn malformed_arpa_files_are_located() {
    let err = |text: &str| read_arpa(text, "bad.arpa").unwrap_err().to_string();
    // Seven lines: \data\, two counts, a blank line, \1-grams:, two entries.
    let head = "\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-1 <unk>\n-99 <s> -0.1\n";
    assert_eq!(err("no data here\n"), "bad.arpa:2:1: expected '\\data\\', found end of file");
    assert_eq!(err("\\data\\\nngram 1=x\n"), "bad.arpa:2:7: expected 'ngram 1=COUNT', found '1=x'");
    assert_eq!(err("\\data\\\nngram 2=3\n"), "bad.arpa:2:7: expected 'ngram 1=COUNT', found '2=3'");
    assert_eq!(err("\\data\\\n\\1-grams:\n"), "bad.arpa:2:1: expected 'ngram 1=COUNT', found '\\1-grams:'");
    assert_eq!(err("\\data\\\nngram 1=3\n\\2-grams:\n"), "bad.arpa:3:1: expected '\\1-grams:', found '\\2-grams:'");
    assert_eq!(
        err(&format!("{head}abc </s>\n")),
        "bad.arpa:8:1: expected a log10 probability (a number <= 0), found 'abc'"
    );
    assert_eq!(
        err(&format!("{head}0.5 </s>\n")),
        "bad.arpa:8:1: expected a log10 probability (a number <= 0), found '0.5'"
    );
    assert_eq!(
        err(&format!("{head}-1\n")),
        "bad.arpa:8:3: expected 1 word(s) after the probability, found end of line"
    );
    assert_eq!(err(&format!("{head}-1 </s> nan\n")), "bad.arpa:8:9: expected a log10 backoff weight, found 'nan'");
    assert_eq!(err(&format!("{head}-1 </s> -1 x\n")), "bad.arpa:8:12: expected end of line, found 'x'");
    assert_eq!(err(&format!("{head}-1 <s>\n")), "bad.arpa:8:4: expected each 1-gram once, found '<s>' again");
    assert_eq!(err(&format!("{head}-1 </s>\n\\end\\\n")), "bad.arpa:9:1: expected '\\2-grams:', found '\\end\\'");
    assert_eq!(err(&format!("{head}\n\\end\\\n")), "bad.arpa:9:1: expected 3 1-grams as declared in \\data\\, found 2");
    assert_eq!(
        err("\\data\\\nngram 1=3\n\n\\1-grams:\n-1 <unk>\n-99 <s>\n-1 </s>\n"),
        "bad.arpa:8:1: expected '\\end\\', found end of file"
    );
    assert_eq!(
        err("\\data\\\nngram 1=2\n\n\\1-grams:\n-1 <unk>\n-1 </s>\n\\end\\\n"),
        "bad.arpa:7:1: expected '<s>' among the 1-grams, found '\\end\\'"
    );
    let two = "\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-99 <s> -0.1\n-1 </s>\n-1 a\n\n\\2-grams:\n";
    assert_eq!(
        err(&format!("{two}-1 <s> b\n\\end\\\n")),
        "bad.arpa:11:8: expected a word listed in the \\1-grams: section, found 'b'"
    );
    assert_eq!(
        err(&format!("{two}-1 <s> a -0.5\n\\end\\\n")),
        "bad.arpa:11:10: expected end of line (the highest order has no backoff weights), found '-0.5'"
    );
    assert_eq!(
        err(&format!("{two}-1 <s> a\n-2 <s> a\n\\end\\\n")),
        "bad.arpa:12:4: expected each 2-gram once, found '<s> a' again"
    );
    assert_eq!(err(""), "bad.arpa:1:1: expected '\\data\\', found end of file");
}

#[test]
fn arpa_and_json_round_trips_are_exact() {
    let text = "the cat sat on the mat\nthe dog sat on the log\na cat and a dog\n\nthe mat\nthe cat ran\n";
    for order in 1..=4 {
        let lm = NgramLm::train_text(text, order).unwrap();
        let arpa = write_arpa(&lm);
        let back = read_arpa(&arpa, "lm.arpa").unwrap();
        assert_eq!(back, lm);
        assert_eq!(write_arpa(&back), arpa);
        let json = serde_json::to_string(&lm).unwrap();
        let from_json: NgramLm = serde_json::from_str(&json).unwrap();
        assert_eq!(from_json, lm);
        let words: Vec<&str> = text.split_whitespace().chain(["<s>", "</s>", "<unk>", "zebra"]).collect();
        for (i, w) in words.iter().enumerate() {
            for k in 0..order.min(3) {
                let ctx = &words[i.saturating_sub(k)..i];
                let p = lm.log_prob(ctx, w);
                assert_eq!(p.to_bits(), back.log_prob(ctx, w).to_bits(), "{ctx:?} {w}");
                assert_eq!(p.to_bits(), from_json.log_prob(ctx, w).to_bits(), "{ctx:?} {w}");
            }
        }
        assert_eq!(lm.score_sentence(&["the", "cat", "sat"]), back.score_sentence(&["the", "cat", "sat"]));
    }
}

#[test]
fn bad_model_files_are_errors() {
    let lm = trigram_example();
    let json = serde_json::to_string(&lm).unwrap();
    for (from, to) in [("\"order\":3", "\"order\":0"), ("\"order\":3", "\"order\":2"), ("\"<s>\"", "\"<x>\"")] {
        let bad = json.replacen(from, to, 1);
        assert!(serde_json::from_str::<NgramLm>(&bad).is_err(), "{bad}");
    }
    // A word id out of range.
    let bad = json.replacen("[[1,3],", "[[1,99],", 1);
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<NgramLm>(&bad).is_err());
    assert_eq!(NgramLm::train_text("", 0).unwrap_err(), LmError::Order(0));
}

#[test]
fn training_tokens_are_cleaned() {
    // Sentence markers inside a sentence are dropped; tokens are split at whitespace.
    let a = NgramLm::train(&[vec!["<s>", "x y", "</s>"]], 2).unwrap();
    let b = NgramLm::train(&[vec!["x", "y"]], 2).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.vocab(), ["<unk>", "<s>", "</s>", "x", "y"]);
}

#[test]
fn perplexity_of_a_uniform_model() {
    // No training data: every word gets 1/|V without <s>| = 1/2 (<unk>, </s>).
    let lm = NgramLm::train_text("", 2).unwrap();
    assert!((lm.perplexity(&[vec!["q", "r"]]) - 2.0).abs() < 1e-12);
}

#[cfg(not(target_arch = "wasm32"))] // proptest runs natively
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn corpus_strategy() -> impl Strategy<Value = Vec<Vec<String>>> {
        let word = prop::sample::select(vec!["a", "b", "c", "d", "e", "<unk>"]).prop_map(String::from);
        prop::collection::vec(prop::collection::vec(word, 0..8), 0..12)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// Σ_w p(w | h) = 1 over the vocabulary without <s>, for every context:
        /// seen, unseen, shorter than the order, starting with <s>.
        #[test]
        fn every_context_sums_to_one(sentences in corpus_strategy(), order in 1usize..=4,
                                     contexts in prop::collection::vec(prop::collection::vec(0usize..8, 0..4), 1..6)) {
            let lm = NgramLm::train(&sentences, order).unwrap();
            let vocab: Vec<String> = lm.vocab().iter().filter(|w| *w != "<s>").cloned().collect();
            let names = ["<s>", "a", "b", "c", "d", "e", "<unk>", "zz"];
            let mut all: Vec<Vec<&str>> = contexts.iter().map(|c| c.iter().map(|&i| names[i]).collect()).collect();
            for s in &sentences {
                let padded: Vec<&str> = std::iter::once("<s>").chain(s.iter().map(String::as_str)).collect();
                for i in 0..padded.len() {
                    all.push(padded[i.saturating_sub(order - 1)..=i].to_vec());
                }
            }
            for ctx in &all {
                let total: f64 = vocab.iter().map(|w| 10f64.powf(lm.log_prob(ctx, w))).sum();
                prop_assert!((total - 1.0).abs() < 1e-9, "context {:?}: Σ = {}", ctx, total);
            }
        }

        /// State-based scoring equals log_prob with the explicit context, and
        /// the ARPA round trip keeps every number.
        #[test]
        fn states_and_round_trip(sentences in corpus_strategy(), order in 1usize..=4, probe in prop::collection::vec(0usize..7, 0..10)) {
            let lm = NgramLm::train(&sentences, order).unwrap();
            let back = read_arpa(&write_arpa(&lm), "p.arpa").unwrap();
            prop_assert!(back == lm);
            let names = ["a", "b", "c", "d", "e", "<unk>", "zz"];
            let words: Vec<&str> = probe.iter().map(|&i| names[i]).collect();
            let mut state = lm.begin_state();
            let mut total = 0.0;
            let mut history = vec!["<s>"];
            for w in &words {
                let (lp, next) = lm.score_word(state, lm.word_id(w));
                prop_assert_eq!(lp.to_bits(), lm.log_prob(&history, w).to_bits());
                let (lp2, _) = back.score_word(back.begin_state(), back.word_id(w));
                prop_assert_eq!(lp2.to_bits(), lm.score_word(lm.begin_state(), lm.word_id(w)).0.to_bits());
                total += lp;
                state = next;
                history.push(w);
            }
            total += lm.score_end(state);
            prop_assert!((total - lm.score_sentence(&words)).abs() < 1e-12);
            prop_assert!((total - back.score_sentence(&words)).abs() < 1e-12);
        }
    }
}
