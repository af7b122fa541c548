//! BLEU against values computed by hand and against sacreBLEU's own output
//! (tests/data/bleu, see its README).

use treelink::eval::bleu::{
    corpus_bleu, corpus_bleu_multi, corpus_bleu_tokens, sentence_bleu, sentence_bleu_multi, Bleu, BleuStats, Smoothing,
};
use treelink::eval::significance::{paired_bootstrap, RunScores};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn assert_precisions(b: &Bleu, expected: [f64; 4]) {
    for (p, e) in b.precisions.iter().zip(expected) {
        assert!(close(*p, e), "precisions {:?}, expected {expected:?}", b.precisions);
    }
}

/// hyp "the cat sat on a mat", ref "the cat sat on the mat" (c = r = 6):
///   1-grams: the cat sat on a mat             → 5 of 6 match (a does not)
///   2-grams: the·cat cat·sat sat·on on·a a·mat → 3 of 5 (the cat, cat sat, sat on)
///   3-grams: the·cat·sat cat·sat·on sat·on·a on·a·mat → 2 of 4
///   4-grams: the·cat·sat·on cat·sat·on·a sat·on·a·mat → 1 of 3
/// BLEU = 100 · (5/6 · 3/5 · 2/4 · 1/3)^(1/4) = 100 · (1/12)^(1/4) = 53.7285
#[test]
fn one_substitution() {
    let b = corpus_bleu(&["the cat sat on a mat"], &["the cat sat on the mat"]).unwrap();
    assert_eq!((b.counts, b.totals), ([5, 3, 2, 1], [6, 5, 4, 3]));
    assert_precisions(&b, [500.0 / 6.0, 60.0, 50.0, 100.0 / 3.0]);
    assert!(close(b.score, 100.0 * (1.0f64 / 12.0).powf(0.25)));
    assert_eq!(b.to_string(), "BLEU = 53.73 83.3/60.0/50.0/33.3 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)");
    // One sentence with all orders present: sentence BLEU is the same.
    assert_eq!(sentence_bleu("the cat sat on a mat", "the cat sat on the mat"), b);
}

/// hyp "the cat sat on the mat", ref "the cat sat under the mat":
///   1-grams 5/6 (on), 2-grams 3/5 (the cat, cat sat, the mat),
///   3-grams 1/4 (the cat sat), 4-grams 0/3.
/// No 4-gram matches: smoothing `exp` makes p4 = 1 / (2 · 3) = 16.67 %.
/// BLEU = 100 · (5/6 · 3/5 · 1/4 · 1/6)^(1/4) = 100 · (1/48)^(1/4) = 37.9918
#[test]
fn zero_four_gram_matches_are_smoothed() {
    let b = corpus_bleu(&["the cat sat on the mat"], &["the cat sat under the mat"]).unwrap();
    assert_eq!((b.counts, b.totals), ([5, 3, 1, 0], [6, 5, 4, 3]));
    assert_precisions(&b, [500.0 / 6.0, 60.0, 25.0, 100.0 / 6.0]);
    assert!(close(b.score, 100.0 * (1.0f64 / 48.0).powf(0.25)));
    assert_eq!(b.to_string(), "BLEU = 37.99 83.3/60.0/25.0/16.7 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)");
    // Without smoothing the zero precision gives 0.
    let s = BleuStats::from_text("the cat sat on the mat", &["the cat sat under the mat"]);
    assert_eq!(Bleu::from_stats(&s, Smoothing::None, false).score, 0.0);
}

/// Two consecutive zero precisions: the k-th gets 1 / (2^k · total).
/// hyp "the the the the", ref "the cat": 1-grams the×4 clipped to 1 → 1/4;
/// 2-grams the·the ×3 → 0/3 → 1/(2·3); 3-grams 0/2 → 1/(4·2); 4-grams 0/1 → 1/(8·1).
/// c = 4 > r = 2, BP = 1. BLEU = 100 · (1/4 · 1/6 · 1/8 · 1/8)^(1/4) = 100 · 1536^(-1/4) = 15.9719
#[test]
fn clipping_and_repeated_smoothing() {
    let b = corpus_bleu(&["the the the the"], &["the cat"]).unwrap();
    assert_eq!((b.counts, b.totals), ([1, 0, 0, 0], [4, 3, 2, 1]));
    assert_precisions(&b, [25.0, 100.0 / 6.0, 12.5, 12.5]);
    assert!(close(b.score, 100.0 * 1536f64.powf(-0.25)));
    assert_eq!(b.to_string(), "BLEU = 15.97 25.0/16.7/12.5/12.5 (BP = 1.000 ratio = 2.000 hyp_len = 4 ref_len = 2)");
}

/// Hypothesis longer than the reference: no brevity penalty.
/// hyp "a b c d e f g" (c = 7), ref "a b c" (r = 3):
///   1-grams 3/7, 2-grams 2/6 (a b, b c), 3-grams 1/5 (a b c), 4-grams 0/4 → 1/(2·4).
/// BLEU = 100 · (3/7 · 2/6 · 1/5 · 1/8)^(1/4) = 100 · 280^(-1/4) = 24.4460
#[test]
fn longer_hypothesis() {
    let b = corpus_bleu(&["a b c d e f g"], &["a b c"]).unwrap();
    assert_eq!(b.bp, 1.0);
    assert!(close(b.score, 100.0 * 280f64.powf(-0.25)));
    assert_eq!(b.to_string(), "BLEU = 24.45 42.9/33.3/20.0/12.5 (BP = 1.000 ratio = 2.333 hyp_len = 7 ref_len = 3)");
}

/// Shorter hypothesis: hyp "the cat" (c = 2), ref "the cat sat on the mat" (r = 6).
/// 1-grams 2/2, 2-grams 1/1, no 3- or 4-grams in the hypothesis. BP = e^(1 - 6/2) = e^-2.
/// Corpus BLEU: an order without any hypothesis n-gram ends the precisions
/// and counts as ln 0, so BLEU = 0. Sentence BLEU (effective order 2):
/// e^-2 · (100 · 100)^(1/2) = 13.5335.
#[test]
fn brevity_penalty_and_effective_order() {
    let c = corpus_bleu(&["the cat"], &["the cat sat on the mat"]).unwrap();
    assert_eq!(c.score, 0.0);
    assert_eq!(c.to_string(), "BLEU = 0.00 100.0/100.0/0.0/0.0 (BP = 0.135 ratio = 0.333 hyp_len = 2 ref_len = 6)");
    let s = sentence_bleu("the cat", "the cat sat on the mat");
    assert!(close(s.bp, (-2.0f64).exp()));
    assert!(close(s.score, 100.0 * (-2.0f64).exp()));
    assert_eq!(s.to_string(), "BLEU = 13.53 100.0/100.0/0.0/0.0 (BP = 0.135 ratio = 0.333 hyp_len = 2 ref_len = 6)");
}

/// Corpus BLEU sums the statistics of the segments before taking precisions:
/// the two sentences above give counts [5+5, 3+3, 2+1, 1+0] of [6+6, 5+5, 4+4, 3+3],
/// BLEU = 100 · (10/12 · 6/10 · 3/8 · 1/6)^(1/4) = 100 · 32^(-1/4) = 42.0448,
/// not the mean of 53.73 and 37.99.
#[test]
fn corpus_statistics_are_summed() {
    let hyps = ["the cat sat on a mat", "the cat sat on the mat"];
    let refs = ["the cat sat on the mat", "the cat sat under the mat"];
    let b = corpus_bleu(&hyps, &refs).unwrap();
    assert_eq!((b.counts, b.totals, b.sys_len, b.ref_len), ([10, 6, 3, 1], [12, 10, 8, 6], 12, 12));
    assert!(close(b.score, 100.0 * 32f64.powf(-0.25)));
    assert_eq!(b.to_string(), "BLEU = 42.04 83.3/60.0/37.5/16.7 (BP = 1.000 ratio = 1.000 hyp_len = 12 ref_len = 12)");
    // Pre-tokenised input gives the same.
    let tok = |s: &&str| s.split(' ').map(String::from).collect::<Vec<_>>();
    let (th, tr): (Vec<_>, Vec<_>) = (hyps.iter().map(tok).collect(), refs.iter().map(tok).collect());
    assert_eq!(corpus_bleu_tokens(&th, &tr).unwrap(), b);
}

#[test]
fn empty_inputs() {
    let b = corpus_bleu(&[""], &["the cat"]).unwrap();
    assert_eq!(b.to_string(), "BLEU = 0.00 0.0/0.0/0.0/0.0 (BP = 0.000 ratio = 0.000 hyp_len = 0 ref_len = 2)");
    assert_eq!(sentence_bleu("", "the cat").score, 0.0);
    let none: [&str; 0] = [];
    let b = corpus_bleu(&none, &none).unwrap();
    assert_eq!(b.to_string(), "BLEU = 0.00 0.0/0.0/0.0/0.0 (BP = 1.000 ratio = 0.000 hyp_len = 0 ref_len = 0)");
    // Empty reference: nothing can match.
    assert_eq!(corpus_bleu(&["the cat"], &[""]).unwrap().score, 0.0);
    // Nothing matches at all: 0 even with smoothing, precisions reported as 0.
    let b = sentence_bleu("x y z", "a b c");
    assert_eq!((b.score, b.precisions), (0.0, [0.0; 4]));
}

#[test]
fn identical_multi_reference() {
    let refs = [vec!["the cat sat on the mat"], vec!["a cat was on the mat"]];
    let b = corpus_bleu_multi(&["a cat was on the mat"], &refs).unwrap();
    assert!(close(b.score, 100.0));
    let s = sentence_bleu_multi("a cat was on the mat", &["the cat sat on the mat", "a cat was on the mat"]);
    assert!(close(s.score, 100.0));
}

#[test]
fn errors_on_mismatched_inputs() {
    let e = corpus_bleu(&["a", "b"], &["a"]).unwrap_err();
    assert_eq!(e.to_string(), "expected as many references as hypotheses (2), found 1 in reference set 1");
    let refs = [vec!["a", "b"], vec!["a"]];
    assert!(corpus_bleu_multi(&["a", "b"], &refs).is_err());
}

/// Cases generated by sacreBLEU itself (tests/data/bleu/README.md).
#[test]
fn agrees_with_sacrebleu() {
    let data: serde_json::Value = serde_json::from_str(include_str!("data/bleu/sacrebleu_cases.json")).unwrap();
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
    };
    let cases = data["cases"].as_array().unwrap();
    assert!(cases.len() > 50);
    for (i, case) in cases.iter().enumerate() {
        let hyps = strs(&case["hyps"]);
        let ref_sets: Vec<Vec<String>> = case["refs"].as_array().unwrap().iter().map(strs).collect();
        let b = match case["kind"].as_str().unwrap() {
            "corpus" => corpus_bleu_multi(&hyps, &ref_sets).unwrap(),
            _ => sentence_bleu_multi(&hyps[0], &ref_sets.iter().map(|r| r[0].as_str()).collect::<Vec<_>>()),
        };
        let expected = case["score"].as_f64().unwrap();
        assert!(close(b.score, expected), "case {i}: {} vs {expected}", b.score);
        assert_eq!(b.to_string(), case["formatted"].as_str().unwrap(), "case {i}");
        assert_eq!(b.sys_len, case["sys_len"].as_u64().unwrap(), "case {i}");
        assert_eq!(b.ref_len, case["ref_len"].as_u64().unwrap(), "case {i}");
        for n in 0..4 {
            assert_eq!(b.counts[n], case["counts"][n].as_u64().unwrap(), "case {i}");
            assert_eq!(b.totals[n], case["totals"][n].as_u64().unwrap(), "case {i}");
            assert!(close(b.precisions[n], case["precisions"][n].as_f64().unwrap()), "case {i}");
        }
        assert!(close(b.bp, case["bp"].as_f64().unwrap()), "case {i}");
    }
}

/// The paired bootstrap test against sacreBLEU's `--paired-bs` (tests/data/bleu/README.md):
/// two real systems' dev translations, 30 seeds each side. The two generators
/// differ, so the draws differ; the observed scores are equal and the means
/// over the seeds of μ, the CI half-width and the p-value agree within
/// three standard errors of their difference.
#[test]
fn paired_bootstrap_agrees_with_sacrebleu() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bleu/paired");
    let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).unwrap();
    let refs: Vec<String> = read("ref.txt").lines().map(str::to_string).collect();
    let system = |f: &str| {
        let stats = read(f).lines().zip(&refs).map(|(h, r)| BleuStats::from_text(h, &[r])).collect();
        RunScores::single(stats)
    };
    let systems = [system("phrase.hyp"), system("ms.hyp")];
    let data: serde_json::Value = serde_json::from_str(&read("sacrebleu_paired_bs.json")).unwrap();
    let runs = data["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 30);
    // [μ base, ci base, μ ms, ci ms, p ms] per seed.
    let mut ours: Vec<[f64; 5]> = Vec::new();
    let mut theirs: Vec<[f64; 5]> = Vec::new();
    for run in runs {
        let seed = run["seed"].as_u64().unwrap();
        let t = paired_bootstrap(&systems, 1000, seed).unwrap();
        let s = &run["systems"];
        for k in 0..2 {
            assert!(close(t[k].score, s[k]["score"].as_f64().unwrap()), "{} {}", t[k].score, s[k]["score"]);
        }
        assert!(t[0].p_value.is_none() && s[0]["p_value"].is_null());
        ours.push([t[0].mean, t[0].ci, t[1].mean, t[1].ci, t[1].p_value.unwrap()]);
        let f = |k: usize, key: &str| s[k][key].as_f64().unwrap();
        theirs.push([f(0, "mean"), f(0, "ci"), f(1, "mean"), f(1, "ci"), f(1, "p_value")]);
    }
    let mean_var = |v: &[[f64; 5]], i: usize| {
        let n = v.len() as f64;
        let m = v.iter().map(|x| x[i]).sum::<f64>() / n;
        (m, v.iter().map(|x| (x[i] - m).powi(2)).sum::<f64>() / (n - 1.0))
    };
    for (i, what) in
        ["μ of the baseline", "CI of the baseline", "μ of the system", "CI of the system", "p"].iter().enumerate()
    {
        let ((a, va), (b, vb)) = (mean_var(&ours, i), mean_var(&theirs, i));
        let se = ((va + vb) / ours.len() as f64).sqrt();
        assert!((a - b).abs() <= 3.0 * se, "{what}: ours {a:.4}, sacreBLEU {b:.4}, standard error {se:.4}");
        // And not trivially: the quantity varies with the seed on both sides.
        assert!(va > 0.0 && vb > 0.0, "{what}");
    }
}

#[cfg(not(target_arch = "wasm32"))] // proptest runs natively
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn sentence() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "d"]), 0..12).prop_map(|w| w.join(" "))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn score_is_a_percentage_and_corpus_is_summed(pairs in prop::collection::vec((sentence(), sentence()), 1..6)) {
            let (hyps, refs): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
            let b = corpus_bleu(&hyps, &refs).unwrap();
            prop_assert!((0.0..=100.0 + 1e-9).contains(&b.score));
            let stats: BleuStats = hyps.iter().zip(&refs).map(|(h, r)| BleuStats::from_text(h, &[r])).sum();
            prop_assert_eq!(Bleu::corpus(&stats), b);
            for h in &hyps {
                let s = sentence_bleu(h, h);
                prop_assert!(h.is_empty() || close(s.score, 100.0), "{} {}", h, s);
            }
        }
    }
}
