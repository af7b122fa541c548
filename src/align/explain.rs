//! Explaining a sub-tree alignment: why a node pair was or was not linked,
//! the precision/recall curve over the posterior threshold, and results as
//! CSV. The page shows these; they are engine code so the CLI's numbers and
//! the page's are the same and are tested natively.
//!
//! An explanation follows one node pair `(s, t)` through the model's phases
//! (paper §5, §6.3):
//! 1. *candidate*: the model links phrase nodes only (or all nodes);
//! 2. *pruning*: thresholds on φ1–φ4 and the structural differences, tuned
//!    on the positives ([`PruneCheck`], one per bound);
//! 3. *classification*: the decision value
//!    `D = Σ_c θ_c Σ_i α_i y_i K̂_c(sv_i, x) − ρ`, split by kernel component
//!    `c` (the plain polynomial kernel, then each BTK), and the posterior
//!    `P(a+|S,T)` of `D` (the paper's `1/(1+e^−D)`, or Platt's sigmoid);
//! 4. *greedy search*: the candidates with `D > 0`, by decreasing posterior,
//!    each taken unless an earlier link blocks it under one of the three
//!    well-formedness criteria ([`SearchRole`]).
//!
//! The precision/recall curve ([`pr_curve`]) keeps, for each threshold τ,
//! the links of the model's search whose posterior is at least τ. The search
//! takes candidates in decreasing posterior, so this is exactly the search
//! re-run on the candidates with posterior ≥ τ; the curve ends at the
//! model's own output (every taken link has `D > 0`).
//!
//! Cost: [`explain`] scores the kept candidates of one pair (as aligning that
//! pair does); the curve is a sort of the taken links, O(L log L).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::candidates::{CandidateNodes, Thresholds};
pub use super::features::FEATURE_NAMES;
use super::features::{PlainFeature, PlainFeatures, N_PLAIN};
use super::greedy::{search_links, Criterion, Outcome, Search};
use super::model::{pair_matrices, AlignmentModel, Scorer};
use crate::corpus::{Corpus, TreePair};
use crate::eval::prf::Counts;
use crate::io::links::{Link, LinkKind};
use crate::lexicon::{Lexicon, WordAlignment};
use crate::progress::{report, Cancelled, Observer, Progress};
use crate::tree::NodeId;

/// One pruning bound applied to one feature.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PruneCheck {
    pub feature: PlainFeature,
    pub value: f64,
    pub bound: f64,
    /// `value ≥ bound` (φ1, φ2) rather than `value ≤ bound`.
    pub lower_bound: bool,
}

impl PruneCheck {
    pub fn passes(&self) -> bool {
        if self.lower_bound {
            self.value >= self.bound
        } else {
            self.value <= self.bound
        }
    }
}

/// Every bound of `thresholds` on `features`, in the order of
/// [`Thresholds::keeps`]; a candidate is kept when all pass.
pub fn prune_checks(thresholds: &Thresholds, features: &PlainFeatures) -> Vec<PruneCheck> {
    use PlainFeature::{DepthDifference, DescendantDifference, Phi1, Phi2, Phi3, Phi4, SpanDifference};
    let check = |feature, bound, lower_bound| PruneCheck { feature, value: features.get(feature), bound, lower_bound };
    vec![
        check(Phi1, thresholds.min_inside[0], true),
        check(Phi2, thresholds.min_inside[1], true),
        check(Phi3, thresholds.max_outside[0], false),
        check(Phi4, thresholds.max_outside[1], false),
        check(SpanDifference, thresholds.max_structural[0], false),
        check(DescendantDifference, thresholds.max_structural[1], false),
        check(DepthDifference, thresholds.max_structural[2], false),
    ]
}

/// What the classifier made of a node pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Verdict {
    /// Not a candidate: the model links phrase nodes only and one is a POS node.
    NotCandidate,
    /// Removed by the pruning thresholds before classification.
    Pruned,
    /// Classified: `value = Σ parts − ρ`, `parts` in the kernel's component order.
    Classified { parts: Vec<f64>, value: f64, posterior: f64 },
}

/// What the greedy search did with a node pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum SearchRole {
    /// Never offered to the search (not classified aligned, `D ≤ 0`).
    NotSearched,
    /// Offered at `step` (from 0) and taken as the `link`-th link (from 0).
    Taken { step: usize, link: usize },
    /// Offered at `step` and refused: link `by`, taken earlier, conflicts under `criterion`.
    Blocked { step: usize, by: (NodeId, NodeId), criterion: Criterion },
}

/// Where `(s, t)` is in a search's log.
pub fn search_role(search: &Search, s: NodeId, t: NodeId) -> SearchRole {
    search.steps.iter().enumerate().find(|(_, step)| (step.candidate.source, step.candidate.target) == (s, t)).map_or(
        SearchRole::NotSearched,
        |(step, st)| match st.outcome {
            Outcome::Taken(link) => SearchRole::Taken { step, link },
            Outcome::Blocked { by, criterion } => SearchRole::Blocked { step, by, criterion },
        },
    )
}

/// Why a node pair was (not) linked: see the module doc.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    pub source: NodeId,
    pub target: NodeId,
    /// φ1..φ7 and the structural differences ([`FEATURE_NAMES`]).
    pub features: [f64; N_PLAIN],
    /// The pruning bounds (empty for a pair that is not a candidate).
    pub checks: Vec<PruneCheck>,
    pub verdict: Verdict,
    /// The kernel's components ([`super::composite::KernelSpec::component_names`]) and weights θ.
    pub components: Vec<String>,
    pub thetas: Vec<f64>,
    pub rho: f64,
    /// The model's threshold on `D` (the paper: 0): classified aligned above it.
    pub threshold: f64,
    pub role: SearchRole,
    /// Steps of the pair's search (candidates with `D` above the threshold).
    pub steps: usize,
}

/// Explains `(s, t)` of `pair` under `model` (with the `scorer` made from it
/// and `lexicon`, the pair's word `links` and the pair's `search`, as
/// aligning produced them). `None` when a node id is outside the trees.
#[allow(clippy::too_many_arguments)]
pub fn explain(
    model: &AlignmentModel,
    scorer: &Scorer<'_>,
    lexicon: &Lexicon,
    pair: &TreePair,
    links: &WordAlignment,
    search: &Search,
    s: NodeId,
    t: NodeId,
) -> Option<Explanation> {
    if !pair.source.contains(s) || !pair.target.contains(t) {
        return None;
    }
    let m = pair_matrices(lexicon, pair, links, model.link_weight);
    let features = PlainFeatures::compute(&pair.source, s, &pair.target, t, &m);
    let candidate = match model.candidates {
        CandidateNodes::Phrase => pair.source.is_phrase(s) && pair.target.is_phrase(t),
        CandidateNodes::All => true,
    };
    let checks = if candidate { prune_checks(&model.thresholds, &features) } else { Vec::new() };
    let verdict = if !candidate {
        Verdict::NotCandidate
    } else if !model.thresholds.keeps(&features) {
        Verdict::Pruned
    } else {
        scorer.decisions(pair, links).into_iter().find(|d| (d.candidate.source, d.candidate.target) == (s, t)).map_or(
            Verdict::Pruned,
            |d| Verdict::Classified { posterior: scorer.posterior(d.value), parts: d.parts, value: d.value },
        )
    };
    Some(Explanation {
        source: s,
        target: t,
        features: features.to_vec(),
        checks,
        verdict,
        components: model.spec.component_names(),
        thetas: model.spec.thetas.clone(),
        rho: model.rho,
        threshold: model.threshold,
        role: search_role(search, s, t),
        steps: search.steps.len(),
    })
}

/// Aligns every pair of `corpus` (with its word `links`) and keeps each
/// pair's search log, reporting each pair done (stage "aligning").
pub fn align_corpus(
    scorer: &Scorer<'_>,
    corpus: &Corpus,
    links: &[WordAlignment],
    progress: &mut dyn Observer,
) -> Result<Vec<Search>, Cancelled> {
    let empty = WordAlignment::default();
    let mut searches = Vec::with_capacity(corpus.len());
    for (k, pair) in corpus.pairs.iter().enumerate() {
        let (search, _) = scorer.align_pair(pair, links.get(k).unwrap_or(&empty));
        searches.push(search);
        report(progress, Progress::new("aligning", k as u64 + 1, corpus.len() as u64))?;
    }
    Ok(searches)
}

/// The links of a search as the `align` command writes them: good links, sorted.
pub fn predicted_links(search: &Search) -> Vec<Link> {
    let mut links = search_links(search);
    links.sort();
    links
}

/// The posterior (the candidate's score, §5 phase 2) of each of
/// [`predicted_links`], in its order: what `align --posteriors` writes and
/// STA's `prob` holds. A link no step of the log took has none (NaN).
pub fn predicted_posteriors(search: &Search) -> Vec<f64> {
    predicted_links(search)
        .iter()
        .map(|l| {
            let taken = |st: &&crate::align::greedy::Step| {
                matches!(st.outcome, crate::align::greedy::Outcome::Taken(_))
                    && (st.candidate.source, st.candidate.target) == (l.source, l.target)
            };
            search.steps.iter().find(taken).map_or(f64::NAN, |st| st.candidate.score)
        })
        .collect()
}

/// One point of the precision/recall curve: the counts of the links whose
/// posterior is at least `threshold`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub threshold: f64,
    pub counts: Counts,
}

/// Precision/recall over the posterior threshold, from the highest
/// threshold down to the model's output; one point per distinct posterior of
/// a taken link. Counts follow [`Counts::of_pair`] (phrase links only).
pub fn pr_curve(pairs: &[TreePair], searches: &[Search]) -> Vec<CurvePoint> {
    struct Taken {
        score: f64,
        counted: bool,
        correct: bool,
        good: bool,
    }
    let mut taken = Vec::new();
    let mut base = Counts::default();
    for (pair, search) in pairs.iter().zip(searches) {
        base = base + Counts::of_pair(pair, &[]);
        let phrase = |s: NodeId, t: NodeId| pair.source.is_phrase(s) && pair.target.is_phrase(t);
        let gold: BTreeSet<(NodeId, NodeId, bool)> =
            pair.gold.iter().map(|l| (l.source, l.target, l.kind == LinkKind::Good)).collect();
        for step in &search.steps {
            if let Outcome::Taken(_) = step.outcome {
                let (s, t) = (step.candidate.source, step.candidate.target);
                let counted = phrase(s, t);
                taken.push(Taken {
                    score: step.candidate.score,
                    counted,
                    correct: counted && (gold.contains(&(s, t, true)) || gold.contains(&(s, t, false))),
                    good: counted && gold.contains(&(s, t, true)),
                });
            }
        }
    }
    taken.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut points: Vec<CurvePoint> = Vec::new();
    let mut counts = base;
    for (k, link) in taken.iter().enumerate() {
        counts.predicted += usize::from(link.counted);
        counts.correct += usize::from(link.correct);
        counts.correct_good += usize::from(link.good);
        // One point per distinct score: after the last link of a tie.
        if taken.get(k + 1).is_none_or(|next| next.score != link.score) {
            points.push(CurvePoint { threshold: link.score, counts });
        }
    }
    points
}

fn percent_row(out: &mut String, c: &Counts) {
    let _ = write!(out, ",{},{},{:.2},{:.2},{:.2}", c.predicted, c.correct, c.precision(), c.recall(), c.f());
}

/// Per-pair and corpus P/R/F of the model's and the baseline's links, as
/// CSV (percentages with two decimals, as the `eval` command prints them),
/// the pairs numbered from `first + 1` (the page's held-out test: the pairs
/// from the `first` on). A missing line of links counts as no links.
///
/// The last column, `model_on_training_data`, is `yes` for a pair the model
/// was trained on (`trained_on` of its index from 0) and `no` otherwise; the corpus row says
/// `yes` when any pair scored is one. A score on training pairs is
/// optimistic, as the page warns next to it.
pub fn results_csv(
    pairs: &[TreePair],
    first: usize,
    model: &[Vec<Link>],
    baseline: &[Vec<Link>],
    trained_on: &dyn Fn(usize) -> bool,
) -> String {
    let mut out = String::from(
        "pair,source_words,target_words,gold,model_predicted,model_correct,model_P,model_R,model_F,\
         baseline_predicted,baseline_correct,baseline_P,baseline_R,baseline_F,model_on_training_data\n",
    );
    let yes_no = |seen: bool| if seen { ",yes" } else { ",no" };
    let (mut total_model, mut total_baseline) = (Counts::default(), Counts::default());
    for (k, pair) in pairs.iter().enumerate() {
        let m = Counts::of_pair(pair, model.get(k).map_or(&[], Vec::as_slice));
        let b = Counts::of_pair(pair, baseline.get(k).map_or(&[], Vec::as_slice));
        total_model = total_model + m;
        total_baseline = total_baseline + b;
        let _ = write!(out, "{},{},{},{}", first + k + 1, pair.source.words().len(), pair.target.words().len(), m.gold);
        percent_row(&mut out, &m);
        percent_row(&mut out, &b);
        out.push_str(yes_no(trained_on(first + k)));
        out.push('\n');
    }
    let words = |f: fn(&TreePair) -> usize| pairs.iter().map(f).sum::<usize>();
    let _ = write!(
        out,
        "corpus,{},{},{}",
        words(|p| p.source.words().len()),
        words(|p| p.target.words().len()),
        total_model.gold
    );
    percent_row(&mut out, &total_model);
    percent_row(&mut out, &total_baseline);
    out.push_str(yes_no((first..first + pairs.len()).any(trained_on)));
    out.push('\n');
    out
}

/// The precision/recall curve as CSV, one row per threshold.
pub fn curve_csv(points: &[CurvePoint]) -> String {
    let mut out = String::from("threshold,predicted,correct,P,R,F\n");
    for p in points {
        let c = &p.counts;
        let _ = writeln!(
            out,
            "{},{},{},{:.2},{:.2},{:.2}",
            p.threshold,
            c.predicted,
            c.correct,
            c.precision(),
            c.recall(),
            c.f()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::baseline::{baseline_links, BaselineOptions};
    use crate::align::greedy::{greedy_align, Scored};
    use crate::align::lexical::{alignment_lexicon_options, lexicon_for_input, prepare, LexiconSource};
    use crate::align::model::{train, TrainOptions};
    use crate::progress::{Flow, Quiet};
    use crate::tree::Tree;

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    /// A small model trained on the first 60 pairs of the built-in sample,
    /// and everything aligning the whole sample with it needs.
    struct Fixture {
        corpus: Corpus,
        model: AlignmentModel,
        lexicon: Lexicon,
        links: Vec<WordAlignment>,
    }

    fn fixture() -> Fixture {
        let corpus = crate::corpus::sample(..);
        let train_corpus = Corpus { pairs: corpus.pairs[..60].to_vec() };
        let source = LexiconSource::Train {
            extra: Vec::new(),
            options: alignment_lexicon_options(),
            held_out: false,
            links: Vec::new(),
        };
        let setup = prepare(&[&train_corpus], source, "lexical model", &mut Quiet).unwrap();
        let options = TrainOptions { max_examples: 300, ..TrainOptions::default() };
        let model = train(&train_corpus, None, &setup, &options, &mut Quiet).unwrap();
        let (lexicon, links) =
            lexicon_for_input(&model.lexicon, &corpus, None, Default::default(), "lexical model", &mut Quiet).unwrap();
        Fixture { corpus, model, lexicon, links }
    }

    #[test]
    fn explanations_agree_with_the_search_and_the_curve_ends_at_the_output() {
        let f = fixture();
        let scorer = Scorer::new(&f.model, &f.lexicon).unwrap();
        let mut calls = 0;
        let searches = align_corpus(&scorer, &f.corpus, &f.links, &mut |_: Progress| {
            calls += 1;
            Flow::Continue(())
        })
        .unwrap();
        assert_eq!(calls, f.corpus.len());
        let predicted: Vec<Vec<Link>> = searches.iter().map(predicted_links).collect();

        // The curve: predictions grow as the threshold falls, and the last
        // point is the model's output as `eval` counts it.
        let curve = pr_curve(&f.corpus.pairs, &searches);
        let output = Counts::of_corpus(f.corpus.pairs.iter().zip(predicted.iter().map(Vec::as_slice)));
        assert!(output.predicted > 100 && output.correct > 50, "{output}");
        assert_eq!(curve.last().unwrap().counts, output);
        assert!(curve.windows(2).all(|w| w[0].threshold > w[1].threshold
            && w[0].counts.predicted <= w[1].counts.predicted
            && w[0].counts.gold == w[1].counts.gold));
        assert!(curve.iter().all(|p| p.threshold > 0.5), "every taken link has D > 0");

        // Every step of the first pairs' searches: the explanation gives the
        // step, the posterior the search used, and D = Σ parts − ρ > 0.
        let (mut taken, mut blocked) = (0, 0);
        for (k, search) in searches.iter().enumerate().take(20) {
            let pair = &f.corpus.pairs[k];
            for (n, step) in search.steps.iter().enumerate() {
                let (s, t) = (step.candidate.source, step.candidate.target);
                let e = explain(&f.model, &scorer, &f.lexicon, pair, &f.links[k], search, s, t).unwrap();
                let Verdict::Classified { parts, value, posterior } = &e.verdict else { panic!("{e:?}") };
                assert_eq!(*posterior, step.candidate.score);
                assert!(*value > 0.0);
                assert!((parts.iter().sum::<f64>() - f.model.rho - value).abs() < 1e-9);
                assert_eq!(parts.len(), 3, "plain, dbtk-root, ibtk-rgsst");
                assert!(e.checks.iter().all(PruneCheck::passes));
                match (e.role, step.outcome) {
                    (SearchRole::Taken { step: at, link }, Outcome::Taken(l)) => {
                        assert_eq!((at, link), (n, l));
                        taken += 1;
                    }
                    (SearchRole::Blocked { step: at, by, criterion }, Outcome::Blocked { by: b, criterion: c }) => {
                        assert_eq!((at, by, criterion), (n, b, c));
                        blocked += 1;
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
        assert!(taken > 20 && blocked > 20, "{taken} taken, {blocked} blocked");

        // A POS node is no candidate; a pruned pair names the bound it fails.
        let pair = &f.corpus.pairs[0];
        let why = |s, t| explain(&f.model, &scorer, &f.lexicon, pair, &f.links[0], &searches[0], n(s), n(t));
        let pos = (0..pair.source.len()).find(|&k| pair.source.is_pos(n(k))).unwrap();
        let e = why(pos, 0).unwrap();
        assert_eq!((e.verdict, e.role, e.checks.len()), (Verdict::NotCandidate, SearchRole::NotSearched, 0));
        let pruned = (0..pair.source.len())
            .flat_map(|s| (0..pair.target.len()).map(move |t| (s, t)))
            .filter_map(|(s, t)| why(s, t))
            .find(|e| e.verdict == Verdict::Pruned)
            .unwrap();
        assert!(pruned.checks.iter().any(|c| !c.passes()));
        assert!(why(999, 0).is_none());

        // CSV: the corpus row carries the same counts.
        let options = BaselineOptions::default();
        let baseline: Vec<Vec<Link>> = f.corpus.pairs.iter().map(|p| baseline_links(&f.lexicon, p, &options)).collect();
        let csv = results_csv(&f.corpus.pairs, 0, &predicted, &baseline, &|_| false);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), f.corpus.len() + 2);
        let b = Counts::of_corpus(f.corpus.pairs.iter().zip(baseline.iter().map(Vec::as_slice)));
        let corpus_row = lines.last().unwrap();
        assert!(corpus_row.starts_with("corpus,"));
        let cells =
            |c: &Counts| format!("{},{},{:.2},{:.2},{:.2}", c.predicted, c.correct, c.precision(), c.recall(), c.f());
        assert!(corpus_row.ends_with(&format!(",{},{},{},no", output.gold, cells(&output), cells(&b))));
        assert!(lines[1..].iter().all(|l| l.ends_with(",no")), "no pair was trained on");
        // A model trained on the first two pairs: those rows and the corpus row say so.
        let csv = results_csv(&f.corpus.pairs, 0, &predicted, &baseline, &|k| k < 2);
        let last: Vec<&str> = csv.lines().map(|l| l.rsplit(',').next().unwrap()).collect();
        assert_eq!(last[0], "model_on_training_data");
        assert_eq!(&last[1..3], ["yes", "yes"]);
        assert!(last[3..last.len() - 1].iter().all(|&v| v == "no"));
        assert_eq!(last.last(), Some(&"yes"));
        // Scored from pair 3 on (a held-out test): no row is a training pair.
        let csv = results_csv(&f.corpus.pairs[2..], 2, &predicted[2..], &baseline[2..], &|k| k < 2);
        assert!(csv.lines().skip(1).all(|l| l.ends_with(",no")), "{csv}");
        assert_eq!(curve_csv(&curve).lines().count(), curve.len() + 1);
    }

    #[test]
    fn curve_by_hand() {
        // Gold: 0-0 (good) and 1-1 (fuzzy). The search takes all four candidates:
        // 0-0 at 0.9, 1-1 at 0.8, then 2-2 and 4-4 tied at 0.6 (4-4 is wrong).
        let s = Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c) (NP (NN d))))", "s").unwrap();
        let pair = TreePair {
            target: s.clone(),
            source: s,
            gold: vec![Link::good(n(0), n(0)), Link { source: n(1), target: n(1), kind: LinkKind::Fuzzy }],
        };
        let scored = [(0, 0.9), (1, 0.8), (4, 0.6), (2, 0.6)].map(|(k, p)| Scored::new(n(k), n(k), p));
        let search = greedy_align(&pair.source, &pair.target, &scored);
        let corpus = Corpus { pairs: vec![pair] };
        let curve = pr_curve(&corpus.pairs, &[search]);
        let summary: Vec<(f64, usize, usize, usize)> =
            curve.iter().map(|p| (p.threshold, p.counts.predicted, p.counts.correct, p.counts.correct_good)).collect();
        // 2-2 is a POS link: taken but not counted, as in `eval`.
        assert_eq!(summary, [(0.9, 1, 1, 1), (0.8, 2, 2, 1), (0.6, 3, 2, 1)]);
        assert_eq!(curve[0].counts.gold, 2);
    }

    #[test]
    fn prune_checks_mirror_keeps() {
        let t = Thresholds { min_inside: [0.1, 0.2], max_outside: [0.5, 0.6], max_structural: [0.3, 0.3, 0.3] };
        let f = PlainFeatures { lexical: [0.15, 0.1, 0.4, 0.7, 0.0, 0.0, 0.0], structural: [0.1, 0.3, 0.31] };
        let failed: Vec<usize> =
            prune_checks(&t, &f).iter().filter(|c| !c.passes()).map(|c| c.feature.index()).collect();
        assert_eq!(failed, [1, 3, 9]);
        assert!(!t.keeps(&f));
        let ok = PlainFeatures { lexical: [0.1, 0.2, 0.5, 0.6, 0.0, 0.0, 0.0], structural: [0.3; 3] };
        assert!(t.keeps(&ok) && prune_checks(&t, &ok).iter().all(PruneCheck::passes));
    }
}
