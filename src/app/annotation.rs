//! The annotation loop (issue 42): a model proposes a pair's links, the
//! annotator removes a wrong one or adds a missed one, the pair is decoded
//! again under the edits so far (kept links fixed, removed links forbidden),
//! so one correction can fix others; the model is updated with the pairs
//! done; the next pair is the one the model is least sure of. The pieces
//! here are the page's loop and `treelink simulate-annotation`'s replay,
//! whose annotator is the gold ([`simulate`]).
//!
//! **A decode under edits** ([`search_under_edits`]): the model's own link
//! search (greedy by default, [`LinkSearch`]) over the pair's candidates
//! above its threshold, with every kept link taken first, and every
//! candidate left out that is forbidden, or breaks a well-formedness
//! criterion against a kept link ([`violation`]: a kept link blocks what
//! conflicts with it, as a link taken first by greedy would). With no edits
//! it is the plain search, so a pair's first proposal is `treelink align`'s.
//!
//! **An update** trains the kept configuration again (its options as dev
//! chose them, the threshold and search kept, no new dev search) on the
//! training pairs plus the pairs annotated so far. It is a full retraining
//! of that configuration: SMO on at most its examples cap for the paper's
//! kernels, dual coordinate descent for the linear one. A warm start from
//! the previous α is not used: the dual coordinate descent starts at α = 0
//! (`svm::linear`), and the new pairs' examples change the example set and
//! its pruning, so the previous α would have to be mapped onto it.
//!
//! The lexicon is the one `treelink align --model … --input POOL` aligns
//! with (the model's in-engine lexicon re-trained with the pool's
//! sentences, [`input_lexicon`]); the updates train on its word links too.

use std::collections::BTreeSet;

use crate::align::greedy::{violation, Scored};
use crate::align::lexical::{input_lexicon, InputLexicon, InputSentences, LexicalSetup};
use crate::align::link_search::LinkSearch;
use crate::align::model::{self, AlignmentModel, Scorer, TrainOptions, WarmStart};
use crate::corpus::{Corpus, TreePair};
use crate::lexicon::{bitext_of, Lexicon, WordAlignment};
use crate::parallel::{map_in_order, Threads};
use crate::progress::{report, Observer, Progress};
use crate::tree::{NodeId, Tree};

use super::alignment::AlignmentError;
use super::Clock;

/// A link between a source and a target node.
pub type NodePair = (NodeId, NodeId);

/// The annotator's edits of one pair so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Edits {
    /// Links the annotator added (or accepted): always in the proposal.
    pub kept: Vec<NodePair>,
    /// Links the annotator removed: never proposed again.
    pub forbidden: Vec<NodePair>,
}

/// The links of the model's `search` over `candidates` (those above its
/// threshold, scored by their posterior) under `edits`: the kept links
/// first, then the search's over the candidates neither forbidden, nor
/// kept, nor breaking a criterion against a kept link.
pub fn search_under_edits(
    src: &Tree,
    trg: &Tree,
    candidates: &[Scored],
    search: LinkSearch,
    edits: &Edits,
) -> Vec<NodePair> {
    let free: Vec<Scored> = candidates
        .iter()
        .filter(|c| {
            let link = (c.source, c.target);
            !edits.forbidden.contains(&link)
                && !edits.kept.contains(&link)
                && edits.kept.iter().all(|&k| violation(src, trg, link, k).is_none())
        })
        .copied()
        .collect();
    let mut links = edits.kept.clone();
    links.extend(search.run(src, trg, &free).links);
    links
}

/// One edit of the annotator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// A proposed link removed (forbidden from then on).
    Remove(NodePair),
    /// A link added (kept from then on).
    Add(NodePair),
}

/// The gold links the annotator judges by: the pair's gold links between
/// phrase nodes, good and fuzzy (what `treelink eval` counts).
pub fn gold_links(pair: &TreePair) -> BTreeSet<NodePair> {
    pair.phrase_links(&pair.gold)
}

/// The proposed links between phrase nodes that are not in `gold`
/// (wrong), and the gold links not proposed (missed), each in (source,
/// target) order.
pub fn wrong_and_missed(
    pair: &TreePair,
    gold: &BTreeSet<NodePair>,
    proposal: &[NodePair],
) -> (Vec<NodePair>, Vec<NodePair>) {
    let proposed: BTreeSet<NodePair> =
        proposal.iter().copied().filter(|&(s, t)| pair.source.is_phrase(s) && pair.target.is_phrase(t)).collect();
    (proposed.difference(gold).copied().collect(), gold.difference(&proposed).copied().collect())
}

/// The simulated annotator's next edit of `proposal`: the wrong link the
/// model was most confident of (`confidence`; ties by source, then
/// target), else the first missed gold link in source pre-order (then
/// target); none once the proposal equals gold.
pub fn next_edit(
    pair: &TreePair,
    gold: &BTreeSet<NodePair>,
    proposal: &[NodePair],
    confidence: impl Fn(NodePair) -> f64,
) -> Option<Edit> {
    let (wrong, missed) = wrong_and_missed(pair, gold, proposal);
    // `wrong` is in (source, target) order: the first of the most confident.
    let most_confident = wrong.into_iter().fold(None::<(NodePair, f64)>, |best, l| {
        let c = confidence(l);
        match best {
            Some((_, b)) if b >= c => best,
            _ => Some((l, c)),
        }
    });
    match most_confident {
        Some((l, _)) => Some(Edit::Remove(l)),
        None => missed.first().map(|&l| Edit::Add(l)),
    }
}

/// One pair annotated by the simulated annotator.
#[derive(Debug, Clone, PartialEq)]
pub struct PairAnnotation {
    /// Gold links (between phrase nodes).
    pub gold: usize,
    /// Edits the annotator made.
    pub edits: usize,
    /// Wrong plus missed links of the first proposal (no edits).
    pub first_errors: usize,
    /// The last proposal: gold (between phrase nodes) when propagating.
    pub links: Vec<NodePair>,
}

/// Annotates `pair` with the gold as the annotator: with `propagate`, the
/// loop "propose under the edits; one edit" until the proposal equals gold;
/// without, every wrong link of the first proposal removed and every missed
/// one added, one by one (its wrong plus missed links). Ends: each edit
/// forbids a link not forbidden before or keeps a gold link not kept before.
pub fn annotate_pair(pair: &TreePair, candidates: &[Scored], search: LinkSearch, propagate: bool) -> PairAnnotation {
    let gold = gold_links(pair);
    let (src, trg) = (&pair.source, &pair.target);
    let confidence = |l: NodePair| candidates.iter().find(|c| (c.source, c.target) == l).map_or(0.0, |c| c.score);
    let mut edits = Edits::default();
    let first = search_under_edits(src, trg, candidates, search, &edits);
    let (wrong, missed) = wrong_and_missed(pair, &gold, &first);
    let first_errors = wrong.len() + missed.len();
    if !propagate {
        let mut links: Vec<NodePair> = first.into_iter().filter(|l| !wrong.contains(l)).collect();
        links.extend(missed);
        return PairAnnotation { gold: gold.len(), edits: first_errors, first_errors, links };
    }
    let mut links = first;
    let mut count = 0;
    while let Some(edit) = next_edit(pair, &gold, &links, confidence) {
        match edit {
            Edit::Remove(l) => edits.forbidden.push(l),
            Edit::Add(l) => edits.kept.push(l),
        }
        count += 1;
        links = search_under_edits(src, trg, candidates, search, &edits);
    }
    PairAnnotation { gold: gold.len(), edits: count, first_errors, links }
}

/// Which pair comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The pair the current model is least sure of ([`uncertainty`]; ties: file order).
    #[default]
    Uncertainty,
    /// The file's order.
    File,
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        crate::one_of(s, &[("uncertainty", Order::Uncertainty), ("file", Order::File)])
    }
}

/// What a model makes of one pool pair: its candidates above the threshold
/// (scored) and how unsure it is of the pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposed {
    pub candidates: Vec<Scored>,
    pub uncertainty: f64,
}

/// The candidates and uncertainty of each of `pairs` under `scorer`'s
/// model, on `threads` threads, in order.
pub fn propose(
    model: &AlignmentModel,
    scorer: &Scorer<'_>,
    pairs: &[(&TreePair, &WordAlignment)],
    threads: Threads,
) -> Vec<Proposed> {
    map_in_order(
        pairs,
        threads,
        || scorer.clone(),
        |scorer, _, (pair, links)| {
            let decisions = scorer.decisions(pair, links);
            Proposed {
                candidates: scorer.scored(&decisions, model.threshold),
                uncertainty: scorer.uncertainty(&decisions),
            }
        },
    )
}

/// The options of an update: the kept configuration's (`kept`, as dev
/// chose them), with the threshold and search of the model kept and
/// nothing searched (no dev).
pub fn update_options(kept: &TrainOptions, model: &AlignmentModel) -> TrainOptions {
    crate::align::model::retraining_options(kept, model)
}

/// The first model and what an update needs of its training.
pub struct FirstModel<'a> {
    pub model: &'a AlignmentModel,
    /// The kept configuration's options ([`super::alignment::Kept::options`]).
    pub options: &'a TrainOptions,
    /// The word links of the training pairs ([`LexicalSetup::links`]'s first).
    pub train_links: &'a [WordAlignment],
}

impl<'a> FirstModel<'a> {
    /// From a setup the model was trained with.
    pub fn new(model: &'a AlignmentModel, options: &'a TrainOptions, setup: &'a LexicalSetup) -> Self {
        FirstModel { model, options, train_links: setup.links.first().map_or(&[], Vec::as_slice) }
    }
}

/// How the simulation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimulationOptions {
    /// Pairs per batch: the model is updated after each.
    pub batch: usize,
    pub order: Order,
    /// Update the model after each batch.
    pub update: bool,
    /// Decode again after each edit.
    pub propagate: bool,
    pub threads: Threads,
}

/// Where the simulation stands after a batch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatchReport {
    pub pairs: usize,
    pub gold: usize,
    pub edits: usize,
    /// Seconds the update after this batch took (none: no update).
    pub update_seconds: Option<f64>,
}

/// The simulation's totals: pairs, gold links, edits, and the static cost
/// (wrong plus missed links of the first model's proposals, no
/// propagation, no update: `treelink align`'s errors on the pool).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Simulation {
    pub pairs: usize,
    pub gold: usize,
    pub edits: usize,
    pub static_edits: usize,
    /// Updates of the model made.
    pub updates: usize,
}

impl std::fmt::Display for Simulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pairs {}  gold {}  edits {}  static {}", self.pairs, self.gold, self.edits, self.static_edits)
    }
}

/// The lexicon `treelink align --model … --input POOL` aligns the pool with.
pub fn pool_lexicon(
    model: &AlignmentModel,
    pool: &Corpus,
    observer: &mut dyn Observer,
) -> Result<InputLexicon, AlignmentError> {
    Ok(input_lexicon(&model.lexicon, &bitext_of(pool), InputSentences::Train, "lexical model for aligning", observer)?)
}

/// Replays the annotation of `pool` with its gold as the annotator
/// (module documentation): the first model `first` (trained on `train`)
/// proposes; batches of `options.batch` pairs in `options.order`; after
/// each batch (but the last) the model is updated, timed by `clock`, and
/// `on_batch` told where the run stands. Deterministic.
pub fn simulate(
    train: &Corpus,
    pool: &Corpus,
    first: FirstModel<'_>,
    options: SimulationOptions,
    clock: &dyn Clock,
    observer: &mut dyn Observer,
    mut on_batch: impl FnMut(&BatchReport),
) -> Result<Simulation, AlignmentError> {
    let batch = options.batch.max(1);
    let lexicon = pool_lexicon(first.model, pool, observer)?;
    let links: Vec<WordAlignment> =
        pool.pairs.iter().enumerate().map(|(k, p)| lexicon.links(k, p.source.words(), p.target.words())).collect();
    let model_error = AlignmentError::model;
    let mut model = first.model.clone();
    let all: Vec<usize> = (0..pool.len()).collect();
    let inputs = |ids: &[usize]| ids.iter().map(|&k| (&pool.pairs[k], &links[k])).collect::<Vec<_>>();
    // The first model's proposals for every pair: the static cost, and the first batch's.
    let mut proposed: Vec<Option<Proposed>> = {
        let scorer = Scorer::new(&model, &lexicon.lexicon).map_err(model_error)?;
        propose(&model, &scorer, &inputs(&all), options.threads).into_iter().map(Some).collect()
    };
    let static_edits = pool
        .pairs
        .iter()
        .zip(&proposed)
        .map(|(p, c)| annotate_pair(p, c.as_ref().map_or(&[], |c| &c.candidates), model.search, false).edits)
        .sum();
    let mut remaining = all;
    let mut done: Vec<usize> = Vec::new();
    // Each update's linear solver starts from the last one's solution (the first from 0).
    let mut warm = WarmStart::default();
    let (mut gold, mut edits, mut updates) = (0, 0, 0);
    while !remaining.is_empty() {
        if options.order == Order::Uncertainty {
            // Stable: equals keep the file's order.
            remaining.sort_by(|&a, &b| {
                let u = |k: usize| proposed[k].as_ref().map_or(0.0, |p| p.uncertainty);
                u(b).total_cmp(&u(a))
            });
        }
        let take: Vec<usize> = remaining.drain(..batch.min(remaining.len())).collect();
        for &k in &take {
            let candidates = proposed[k].as_ref().map_or(&[][..], |p| &p.candidates);
            let a = annotate_pair(&pool.pairs[k], candidates, model.search, options.propagate);
            gold += a.gold;
            edits += a.edits;
            done.push(k);
            report(observer, Progress::new("annotating", done.len() as u64, pool.len() as u64))?;
        }
        let update_seconds = if options.update && !remaining.is_empty() {
            let started = clock.seconds();
            model = update(train, pool, &done, &links, &first, &model, &lexicon, &mut warm, observer)?;
            updates += 1;
            let scorer = Scorer::new(&model, &lexicon.lexicon).map_err(model_error)?;
            // The pairs the next batch may take: every one left (by uncertainty), else the next batch.
            let next: Vec<usize> = match options.order {
                Order::Uncertainty => remaining.clone(),
                Order::File => remaining[..batch.min(remaining.len())].to_vec(),
            };
            for (k, p) in next.iter().zip(propose(&model, &scorer, &inputs(&next), options.threads)) {
                proposed[*k] = Some(p);
            }
            Some(clock.seconds() - started)
        } else {
            None
        };
        on_batch(&BatchReport { pairs: done.len(), gold, edits, update_seconds });
    }
    Ok(Simulation { pairs: done.len(), gold, edits, static_edits, updates })
}

/// The model trained again ([`update_options`]) on the training pairs and
/// the pool pairs `done`, each with its word links, through the pool's lexicon.
#[allow(clippy::too_many_arguments)]
fn update(
    train: &Corpus,
    pool: &Corpus,
    done: &[usize],
    pool_links: &[WordAlignment],
    first: &FirstModel<'_>,
    current: &AlignmentModel,
    lexicon: &InputLexicon,
    warm: &mut WarmStart,
    observer: &mut dyn Observer,
) -> Result<AlignmentModel, AlignmentError> {
    let mut pairs = train.pairs.clone();
    pairs.extend(done.iter().map(|&k| pool.pairs[k].clone()));
    let mut links = first.train_links.to_vec();
    links.extend(done.iter().map(|&k| pool_links[k].clone()));
    update_model(&Corpus { pairs }, links, first.options, current, &lexicon.lexicon, warm, observer)
}

/// An update (module documentation): `current`'s configuration, with the
/// options `kept` as dev chose them ([`update_options`]), trained again on
/// `pairs` (the training pairs and those annotated, their links as gold),
/// each with its word links `links` under `lexicon` (the pool's: what the
/// pairs are aligned with), the linear solver started from the last
/// update's solution (`warm`, which keeps this one's for the next); the
/// posterior and lexical model stay `current`'s (a Platt sigmoid needs
/// dev, which an update has not). The page's *Annotate* and
/// `simulate-annotation` both update so.
pub fn update_model(
    pairs: &Corpus,
    links: Vec<WordAlignment>,
    kept: &TrainOptions,
    current: &AlignmentModel,
    lexicon: &Lexicon,
    warm: &mut WarmStart,
    observer: &mut dyn Observer,
) -> Result<AlignmentModel, AlignmentError> {
    let setup = LexicalSetup {
        lexicon: lexicon.clone(),
        model: current.lexicon.clone(),
        links: vec![links],
        folds: None,
        link_weight: current.link_weight,
    };
    let options = update_options(kept, current);
    let (mut model, _) =
        model::train_keeping(pairs, None, &setup, &options, Some(warm), observer).map_err(AlignmentError::training)?;
    model.posterior = current.posterior;
    model.lexicon = current.lexicon.clone();
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::links::Link;

    fn n(k: usize) -> NodeId {
        NodeId::new(k)
    }

    /// S0 -> NP1 (DT2 NN3) VP4 (V5 NP6 (NN7)), on both sides.
    fn pair(gold: &[(usize, usize)]) -> TreePair {
        let t = "(S (NP (DT a) (NN b)) (VP (V c) (NP (NN d))))";
        TreePair {
            source: Tree::parse_one(t, "s").unwrap(),
            target: Tree::parse_one(t, "t").unwrap(),
            gold: gold.iter().map(|&(s, t)| Link::good(n(s), n(t))).collect(),
        }
    }

    fn sc(s: usize, t: usize, score: f64) -> Scored {
        Scored::new(n(s), n(t), score)
    }

    fn ids(links: &[NodePair]) -> Vec<(usize, usize)> {
        links.iter().map(|(s, t)| (s.index(), t.index())).collect()
    }

    #[test]
    fn with_no_edits_the_decode_is_the_plain_search() {
        let p = pair(&[]);
        let c = [sc(4, 4, 0.9), sc(6, 1, 0.8), sc(6, 6, 0.7), sc(1, 1, 0.7), sc(0, 0, 0.6)];
        for search in LinkSearch::ALL {
            assert_eq!(
                search_under_edits(&p.source, &p.target, &c, search, &Edits::default()),
                search.run(&p.source, &p.target, &c).links,
                "{search}"
            );
        }
    }

    #[test]
    fn a_kept_link_is_in_the_result_and_blocks_what_conflicts_with_it_and_a_forbidden_one_never_is() {
        let p = pair(&[]);
        let c = [sc(4, 4, 0.9), sc(6, 1, 0.8), sc(6, 6, 0.7), sc(1, 1, 0.7), sc(0, 0, 0.6)];
        // Plain greedy: (4,4), (1,1), (6,6), (0,0).
        let plain = search_under_edits(&p.source, &p.target, &c, LinkSearch::Greedy, &Edits::default());
        assert_eq!(ids(&plain), [(4, 4), (1, 1), (6, 6), (0, 0)]);
        // (6,1) kept, not a candidate's winner: it blocks (4,4) (6 below 4 in the source, 1 not
        // below 4 in the target), (1,1) and (6,6) (linked once); (0,0) fits.
        let kept = Edits { kept: vec![(n(6), n(1))], forbidden: Vec::new() };
        for search in LinkSearch::ALL {
            let links = search_under_edits(&p.source, &p.target, &c, search, &kept);
            assert_eq!(ids(&links), [(6, 1), (0, 0)], "{search}");
        }
        // A kept link that is no candidate at all is in the result too.
        let kept = Edits { kept: vec![(n(5), n(5))], forbidden: Vec::new() };
        let links = search_under_edits(&p.source, &p.target, &c, LinkSearch::Greedy, &kept);
        assert_eq!(ids(&links), [(5, 5), (4, 4), (1, 1), (6, 6), (0, 0)]);
        // Forbidden (4,4): never proposed; (6,1) then takes its place.
        let forbidden = Edits { kept: Vec::new(), forbidden: vec![(n(4), n(4))] };
        for search in LinkSearch::ALL {
            let links = search_under_edits(&p.source, &p.target, &c, search, &forbidden);
            assert!(!links.contains(&(n(4), n(4))), "{search}");
        }
        let links = search_under_edits(&p.source, &p.target, &c, LinkSearch::Greedy, &forbidden);
        assert_eq!(ids(&links), [(6, 1), (0, 0)]);
    }

    #[test]
    fn the_annotator_removes_the_most_confident_wrong_link_else_adds_the_first_missed() {
        let p = pair(&[(1, 1), (4, 4), (6, 6)]);
        let gold = gold_links(&p);
        let score = |l: NodePair| if l == (n(6), n(1)) { 0.8 } else { 0.5 };
        // (0,0) and (6,1) are wrong, (6,1) the more confident.
        let proposal = [(n(6), n(1)), (n(0), n(0))];
        assert_eq!(next_edit(&p, &gold, &proposal, score), Some(Edit::Remove((n(6), n(1)))));
        assert_eq!(next_edit(&p, &gold, &proposal, |_| 0.5), Some(Edit::Remove((n(0), n(0)))), "ties: source order");
        assert_eq!(next_edit(&p, &gold, &[(n(4), n(4))], score), Some(Edit::Add((n(1), n(1)))));
        assert_eq!(next_edit(&p, &gold, &[(n(6), n(6)), (n(4), n(4)), (n(1), n(1))], score), None);
        // Links between a phrase node and a leaf are not judged (eval does not count them).
        assert_eq!(next_edit(&p, &gold, &[(n(1), n(1)), (n(4), n(4)), (n(6), n(6)), (n(2), n(3))], score), None);
    }

    #[test]
    fn the_loop_ends_at_gold_and_a_perfect_model_needs_no_edit() {
        let p = pair(&[(0, 0), (1, 1), (4, 4), (6, 6)]);
        let gold = gold_links(&p);
        let perfect = [sc(0, 0, 0.9), sc(1, 1, 0.9), sc(4, 4, 0.9), sc(6, 6, 0.9), sc(1, 4, 0.2)];
        for propagate in [true, false] {
            let a = annotate_pair(&p, &perfect, LinkSearch::Greedy, propagate);
            assert_eq!((a.edits, a.first_errors, a.gold), (0, 0, 4));
        }
        // A wrong model: (6,1) first blocks (1,1), (4,4) and (6,6); removing it lets the search
        // find all three, so one edit plus adding (0,0), which is no candidate.
        let wrong = [sc(6, 1, 0.9), sc(4, 4, 0.8), sc(1, 1, 0.7), sc(6, 6, 0.6)];
        let a = annotate_pair(&p, &wrong, LinkSearch::Greedy, true);
        assert_eq!(a.links.iter().copied().collect::<BTreeSet<_>>(), gold);
        assert_eq!((a.edits, a.first_errors), (2, 5), "first: (6,1) wrong; (0,0), (1,1), (4,4), (6,6) missed");
        let a = annotate_pair(&p, &wrong, LinkSearch::Greedy, false);
        assert_eq!(a.links.iter().copied().collect::<BTreeSet<_>>(), gold);
        assert_eq!(a.edits, 5);
        // Every search, with no candidate at all: each gold link added.
        for search in LinkSearch::ALL {
            let a = annotate_pair(&p, &[], search, true);
            assert_eq!(a.edits, 4);
            assert_eq!(a.links.iter().copied().collect::<BTreeSet<_>>(), gold);
        }
    }

    #[test]
    fn uncertainty_is_the_share_near_the_threshold() {
        use crate::align::model::uncertainty;
        assert_eq!(uncertainty(&[0.5, 0.9, 0.1, 0.6], 0.5), 0.5);
        assert_eq!(uncertainty(&[], 0.5), 0.0);
        assert_eq!("file".parse::<Order>(), Ok(Order::File));
        assert!("random".parse::<Order>().is_err());
    }

    /// An update's linear solver started from the last update's solution
    /// ends at the same optimum as from 0 (the decision values agree within
    /// the solver's tolerance's reach) in fewer epochs; with nothing kept,
    /// an update is the one from 0.
    #[test]
    fn a_warm_update_reaches_the_cold_one_s_solution_in_fewer_epochs() {
        use super::super::alignment::{train_on_pairs, PairsTraining};
        use crate::align::primal::Solver;
        let corpus = crate::corpus::sample(..);
        let quiet = &mut crate::progress::Quiet;
        let options = TrainOptions {
            spec: "plain+dbtk-root".parse().unwrap(),
            solver: Solver::Linear,
            ..TrainOptions::default()
        };
        let first = Corpus { pairs: corpus.pairs[..40].to_vec() };
        let kept = train_on_pairs(&first, &PairsTraining::default(), None, None, &[options], quiet).unwrap();
        let lexicon = pool_lexicon(&kept.model, &corpus, quiet).unwrap();
        let on = |n: usize| {
            let pairs = Corpus { pairs: corpus.pairs[..n].to_vec() };
            let links =
                (0..n).map(|k| lexicon.links(k, corpus.pairs[k].source.words(), corpus.pairs[k].target.words()));
            (pairs, links.collect::<Vec<_>>())
        };
        let update = |n: usize, warm: &mut WarmStart| {
            let (pairs, links) = on(n);
            update_model(&pairs, links, &kept.options, &kept.model, &lexicon.lexicon, warm, &mut crate::progress::Quiet)
                .unwrap()
        };
        let mut warm = WarmStart::default();
        let once = update(41, &mut warm);
        assert!(!warm.is_empty(), "the solution is kept");
        assert_eq!(once.to_json(), update(41, &mut WarmStart::default()).to_json(), "the first update starts from 0");
        let warmed = update(42, &mut warm);
        let cold = update(42, &mut WarmStart::default());
        assert!(
            warmed.summary.svm_iterations < cold.summary.svm_iterations,
            "epochs: warm {} against cold {}",
            warmed.summary.svm_iterations,
            cold.summary.svm_iterations
        );
        // The same decisions on a pair neither trained on.
        let (a, b) = (Scorer::new(&warmed, &lexicon.lexicon).unwrap(), Scorer::new(&cold, &lexicon.lexicon).unwrap());
        let pair = &corpus.pairs[100];
        let links = lexicon.links(100, pair.source.words(), pair.target.words());
        let (da, db) = (a.decisions(pair, &links), b.decisions(pair, &links));
        let worst = da.iter().zip(&db).map(|(x, y)| (x.value - y.value).abs()).fold(0.0, f64::max);
        assert!(worst < 0.1, "decision values differ by {worst}");
        let same =
            da.iter().zip(&db).filter(|(x, y)| (x.value > warmed.threshold) == (y.value > cold.threshold)).count();
        assert!(same as f64 >= 0.98 * da.len() as f64, "{same} of {} classified alike", da.len());
    }
}
