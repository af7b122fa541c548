//! The alignment model the page holds (trained here, or an uploaded file)
//! and what it made: the results of aligning the loaded pairs, with the
//! baseline's, scored against the gold links; the explanation of a
//! selected node pair; how the last job ended; the per-pair table's order.

use std::rc::Rc;

use super::{Job, JobKind, Shared, State};
use crate::align::explain::{pr_curve, predicted_links, CurvePoint, Explanation};
use crate::align::greedy::Search;
use crate::align::link_search::LinkSearch;
use crate::app::alignment::{pair_span, HELD_OUT_PERCENT};
use crate::corpus::{Corpus, PairIndex};
use crate::eval::prf::Counts;
use crate::io::links::Link;
use crate::tree::NodeId;
use crate::ui::ids::CorpusGen;
use crate::ui::protocol::Searched;

/// A model the page holds: its file text and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedAlignmentModel {
    pub json: Shared<str>,
    /// Where it came from.
    pub origin: ModelOrigin,
    pub summary: String,
    /// Trained in the page: on which pairs.
    pub trained_on: Option<TrainedOn>,
    /// Trained in the page: the kept configuration's options as JSON, held
    /// unread (*Annotate* updates the model with them, in the worker).
    pub kept: Option<String>,
}

/// The pairs a model trained in the page has seen (as [`MtHeld`] records
/// its trees): the pairs (training pairs and dev) before `first_unseen` of
/// the corpus of generation `gen`, and after an *Annotate* update the
/// pairs accepted it learnt from (`annotated`, ascending). Scores of those
/// pairs carry [`ON_TRAINING_DATA`]; the other held-out pairs do not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainedOn {
    pub gen: CorpusGen,
    pub first_unseen: usize,
    pub annotated: Rc<[usize]>,
}

impl TrainedOn {
    /// Whether the model saw pair `k`: before `first_unseen`, or among `annotated`.
    pub fn saw(&self, k: usize) -> bool {
        k < self.first_unseen || self.annotated.binary_search(&k).is_ok()
    }
}

/// Where an alignment model the page holds came from (only one trained
/// here is kept in the session: an uploaded one is kept as its file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelOrigin {
    TrainedHere,
    /// An uploaded file, by its name.
    Uploaded(String),
}

impl std::fmt::Display for ModelOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelOrigin::TrainedHere => f.write_str("trained in this page"),
            ModelOrigin::Uploaded(name) => write!(f, "uploaded {name}"),
        }
    }
}

/// An alignment of the current corpus by the model, with the baseline's,
/// scored against the corpus's gold links.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    pub corpus_gen: CorpusGen,
    pub model: String,
    /// Trained in the page on these pairs: which of them it saw.
    pub trained_on: Option<TrainedOn>,
    /// The pairs before it trained the model of a held-out test and were
    /// not aligned; every vector below still has one entry per pair loaded
    /// (empty for those), and the scores count the pairs from here.
    pub first_aligned: usize,
    /// For a held-out test: which pairs were held out and what trained the model, in words.
    pub held_out: Option<String>,
    pub lexicon: String,
    pub searches: Vec<Search>,
    pub predicted: Vec<Vec<Link>>,
    pub baseline: Vec<Vec<Link>>,
    pub model_counts: Vec<Counts>,
    pub baseline_counts: Vec<Counts>,
    pub model_total: Counts,
    pub baseline_total: Counts,
    pub curve: Vec<CurvePoint>,
    /// A first model's (`model` its summary), shown while the chosen one
    /// trains: no baseline was run, and the chosen model's results replace these.
    pub preview: bool,
    /// How unsure the model is of each pair aligned (0 for the others).
    pub uncertainty: Vec<f64>,
    /// The model's search, which the annotation loop runs again under the annotator's edits.
    pub link_search: LinkSearch,
}

impl Results {
    /// The model was trained in the page on some of the pairs scored.
    pub fn trained_on_these(&self) -> bool {
        self.trained_on.as_ref().is_some_and(|t| {
            self.first_aligned < t.first_unseen || t.annotated.last().is_some_and(|&k| k >= self.first_aligned)
        })
    }

    /// The model was trained in the page on pair `k`.
    pub fn saw(&self, k: usize) -> bool {
        self.trained_on.as_ref().is_some_and(|t| t.saw(k))
    }

    /// What the page says of a pair these results did not align (a training
    /// pair of a held-out test), before what follows for the view.
    pub fn not_aligned_note(&self) -> String {
        format!(
            "This pair trained the model of the held-out test: only the held-out pairs {} were aligned",
            pair_span(self.pairs())
        )
    }

    /// The results of pairs `first_aligned..` of `corpus` (their searches and the baseline's links).
    fn new(
        corpus: &Corpus,
        corpus_gen: CorpusGen,
        model: String,
        lexicon: String,
        first_aligned: usize,
        searched: Searched,
        baseline: Vec<Vec<(NodeId, NodeId)>>,
    ) -> Results {
        let searches: Vec<Search> =
            std::iter::repeat_with(Search::default).take(first_aligned).chain(searched.searches).collect();
        let mut uncertainty = vec![0.0; searches.len()];
        for (u, v) in uncertainty[first_aligned..].iter_mut().zip(searched.uncertainty) {
            *u = v;
        }
        let predicted = searches.iter().map(predicted_links).collect();
        let baseline = std::iter::repeat_n(Vec::new(), first_aligned)
            .chain(baseline.into_iter().map(|l| l.into_iter().map(|(s, t)| Link::good(s, t)).collect()))
            .collect();
        let mut r = Results {
            corpus_gen,
            model,
            trained_on: None,
            first_aligned,
            held_out: None,
            lexicon,
            searches,
            predicted,
            baseline,
            model_counts: Vec::new(),
            baseline_counts: Vec::new(),
            model_total: Counts::default(),
            baseline_total: Counts::default(),
            curve: Vec::new(),
            preview: false,
            uncertainty,
            link_search: searched.link_search,
        };
        r.score(corpus);
        r
    }

    /// (Re)computes every count against the corpus's gold links (the
    /// totals and the curve over the pairs aligned).
    fn score(&mut self, corpus: &Corpus) {
        let per_pair = |links: &[Vec<Link>]| -> Vec<Counts> {
            corpus.pairs.iter().enumerate().map(|(k, p)| Counts::of_pair(p, links.get(k).map_or(&[], |l| l))).collect()
        };
        self.model_counts = per_pair(&self.predicted);
        self.baseline_counts = per_pair(&self.baseline);
        let total = |counts: &[Counts]| counts.iter().skip(self.first_aligned).fold(Counts::default(), |a, &b| a + b);
        self.model_total = total(&self.model_counts);
        self.baseline_total = total(&self.baseline_counts);
        let first = self.first_aligned.min(corpus.len()).min(self.searches.len());
        self.curve = pr_curve(&corpus.pairs[first..], &self.searches[first..]);
    }

    /// Whether pair `k` was aligned (not a training pair of a held-out test).
    pub fn aligned(&self, k: PairIndex) -> bool {
        self.pairs().contains(&k.index())
    }

    /// The pairs aligned, as a range of pair indices.
    pub fn pairs(&self) -> std::ops::Range<usize> {
        self.first_aligned..self.searches.len()
    }

    /// The posterior the search gave `(s, t)` of pair `k`, if it was searched.
    pub fn posterior(&self, k: PairIndex, s: NodeId, t: NodeId) -> Option<f64> {
        self.searches
            .get(k.index())?
            .steps
            .iter()
            .find(|st| (st.candidate.source, st.candidate.target) == (s, t))
            .map(|st| st.candidate.score)
    }
}

/// What a first model's results are called wherever they are shown (issue
/// 38, item 2): the diagram's links and the scores until the chosen model's
/// replace them.
pub const PREVIEW_LABEL: &str = "First model, while the best settings are chosen";

/// What comes after the first model's results, said beside them.
pub const PREVIEW_NEXT: &str =
    "The best model on the dev pairs replaces it when it is done; the baseline runs with it.";

/// What every score on training data says, wherever it is shown (P/R/F of
/// an alignment, corpus and sentence BLEU of a translation).
pub const ON_TRAINING_DATA: &str =
    "Scored on pairs the model was trained on: optimistic, it says little about unseen pairs.";

/// What to do about it, after [`ON_TRAINING_DATA`] (in the pair's one-line
/// summary, its title).
pub const TRAINING_DATA_ADVICE: &str =
    "To measure, hold out part of the pairs when training, or load a model trained on other data.";

/// The explanation of the selected node pair, once the worker answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    pub pair: PairIndex,
    pub source: NodeId,
    pub target: NodeId,
    pub result: Option<Result<Explanation, String>>,
}

/// Columns of the per-pair table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Pair,
    Words,
    Gold,
    Predicted,
    Correct,
    P,
    R,
    F,
    BaselineF,
}

/// The alignment model in hand and what it made.
#[derive(Debug, Clone, PartialEq)]
pub struct Alignment {
    pub model: Option<LoadedAlignmentModel>,
    /// The last alignment (of these trees, or of trees loaded before: see [`State::results`]).
    pub results: Option<Shared<Results>>,
    /// The running Train job's first model's alignment, shown in place of
    /// `results` until the job ends: replaced by the chosen model's, or, if
    /// the job is cancelled or fails, gone (the results before it are shown again).
    pub preview: Option<Shared<Results>>,
    pub explained: Option<Explained>,
    /// How the last alignment job ended.
    pub note: Option<Result<String, String>>,
    /// The note gives scores of pairs the model was trained on (it carries [`ON_TRAINING_DATA`]).
    pub note_on_training_data: bool,
    /// The per-pair table's column, ascending or not.
    pub sort: (SortKey, bool),
}

impl Default for Alignment {
    fn default() -> Self {
        Alignment {
            model: None,
            results: None,
            preview: None,
            explained: None,
            note: None,
            note_on_training_data: false,
            sort: (SortKey::Pair, true),
        }
    }
}

impl Alignment {
    /// Sorts the per-pair table by `key`; by the same key again, the other way.
    pub fn sort_by(&mut self, key: SortKey) {
        self.sort = if self.sort.0 == key { (key, !self.sort.1) } else { (key, true) };
    }

    /// `job` trained a model (its file, `json`) on its pairs of the
    /// `pairs` loaded (less a held-out test).
    pub(super) fn trained(&mut self, job: &Job, json: String, summary: String, kept: Option<String>, pairs: usize) {
        // An update trained on the same pairs as before, and the pairs annotated.
        let before = self.model.as_ref().filter(|_| job.kind == JobKind::Update).and_then(|m| m.trained_on.clone());
        let first_unseen = job.split.map_or(pairs, |split| split.seen().end);
        let trained_on = match before {
            Some(b) => TrainedOn { annotated: job.annotated.clone(), ..b },
            None => TrainedOn { gen: job.corpus_gen, first_unseen, annotated: Rc::default() },
        };
        self.model = Some(LoadedAlignmentModel {
            json: json.into(),
            origin: ModelOrigin::TrainedHere,
            summary,
            trained_on: Some(trained_on),
            kept,
        });
    }

    /// `job`'s first model (`summary`) aligned the pairs of `corpus` (of
    /// generation `gen`) from `first` on: shown as a preview until the job
    /// ends (refused if the pairs changed meanwhile).
    pub(super) fn previewed(
        &mut self,
        job: &Job,
        corpus: &Corpus,
        gen: CorpusGen,
        summary: String,
        searches: Vec<Search>,
        first: usize,
    ) {
        if job.kind != JobKind::Train
            || job.corpus_gen != gen
            || first.checked_add(searches.len()) != Some(corpus.len())
        {
            return;
        }
        let baseline = vec![Vec::new(); searches.len()];
        let searched = Searched { searches, ..Searched::default() };
        let mut r = Results::new(corpus, gen, summary, String::new(), first, searched, baseline);
        let first_unseen = job.split.map_or(corpus.len(), |split| split.seen().end);
        r.trained_on = Some(TrainedOn { gen, first_unseen, annotated: Rc::default() });
        r.preview = true;
        self.preview = Some(Shared(Rc::new(r)));
    }

    /// `job` ended with its alignment of the pairs of `corpus` (of
    /// generation `gen`) from `first_aligned` on, at `now`: the results,
    /// scored, and the note; refused if the pairs changed meanwhile.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn aligned(
        &mut self,
        job: Job,
        corpus: &Corpus,
        gen: CorpusGen,
        searched: Searched,
        baseline: Vec<Vec<(NodeId, NodeId)>>,
        lexicon: String,
        first_aligned: usize,
        now: f64,
    ) {
        let elapsed = (now - job.started) / 1000.0;
        if job.corpus_gen != gen || first_aligned.checked_add(searched.searches.len()) != Some(corpus.len()) {
            self.note = Some(Err("The data changed while aligning: align again.".into()));
            self.note_on_training_data = false;
            return;
        }
        let model = self.model.as_ref().map_or(String::new(), |m| format!("{} ({})", m.summary, m.origin));
        let mut r = Results::new(corpus, gen, model, lexicon, first_aligned, searched, baseline);
        // Scores of pairs the model saw in training carry the warning, wherever they are shown.
        r.trained_on = self.model.as_ref().and_then(|m| m.trained_on.clone()).filter(|t| t.gen == gen);
        let test = job.split.filter(|split| split.test > 0 && split.test_pairs().start == first_aligned);
        r.held_out = test.map(|split| {
            let which = match &job.test_set {
                Some(name) => format!("the test set given as files ({name})"),
                None => format!("the last {HELD_OUT_PERCENT}% of the {} pairs loaded", corpus.len()),
            };
            format!(
                "Held out: pairs {}, {which}; the model was {} (as `treelink train`), and no model saw the held-out pairs: neither the SVM, nor the dev choices, nor the in-engine lexicon, which aligns them without training on their sentences (`treelink align --held-out`).",
                pair_span(first_aligned..corpus.len()),
                split.describe()
            )
        });
        let scores =
            format!("P {:.2}, R {:.2}, F {:.2}.", r.model_total.precision(), r.model_total.recall(), r.model_total.f());
        let note = match (job.kind, test) {
            (JobKind::Train, Some(split)) => format!(
                "Trained on pairs {} and aligned the {} held-out pairs {} in {elapsed:.1} s: {scores}",
                pair_span(split.seen()),
                split.test,
                pair_span(first_aligned..corpus.len())
            ),
            (JobKind::Train, None) => format!("Trained and aligned {} pairs in {elapsed:.1} s: {scores}", corpus.len()),
            _ => format!("Aligned {} pairs in {elapsed:.1} s: {scores}", corpus.len() - first_aligned),
        };
        self.note = Some(Ok(note));
        self.note_on_training_data = r.trained_on_these();
        self.results = Some(Shared(Rc::new(r)));
        self.explained = None;
    }

    /// The worker's explanation of node pair (`source`, `target`) of pair
    /// `pair`, if it is the one asked for last.
    pub(super) fn explanation(
        &mut self,
        pair: PairIndex,
        source: NodeId,
        target: NodeId,
        result: Result<Explanation, String>,
    ) {
        if let Some(e) = self.explained.as_mut().filter(|e| (e.pair, e.source, e.target) == (pair, source, target)) {
            e.result = Some(result);
        }
    }

    /// The same trees of generation `gen` with other gold links (`corpus`): results are scored again.
    pub(super) fn rescore(&mut self, corpus: &Corpus, gen: CorpusGen) {
        if let Some(r) = self.results.as_mut().filter(|r| r.corpus_gen == gen) {
            // A new Rc, so views that compare results by pointer see the change.
            let mut rescored = (**r).clone();
            rescored.score(corpus);
            *r = Shared(Rc::new(rescored));
        }
        self.explained = None;
    }
}

impl State {
    /// The results, if they belong to the trees now loaded: a running
    /// Train job's first model's while there is one ([`Alignment::preview`]).
    pub fn results(&self) -> Option<&Shared<Results>> {
        let shown = self.alignment.preview.as_ref().or(self.alignment.results.as_ref());
        shown.filter(|r| r.corpus_gen == self.loaded.gen)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::corpus::TreePair;
    use crate::io::links::write_links;
    use crate::ui::protocol::{Request, Response};

    /// The pairs before the first the results' model did not see (0: not trained here).
    fn first_unseen(r: &Results) -> usize {
        r.trained_on.as_ref().map_or(0, |t| t.first_unseen)
    }

    /// Searches that link each of `pairs` as its gold links say.
    fn gold_searches(pairs: &[TreePair]) -> Vec<Search> {
        let links = |p: &TreePair| p.gold.iter().map(|l| (l.source, l.target)).collect();
        pairs.iter().map(|p| Search { links: links(p), steps: Vec::new() }).collect()
    }

    /// Issue 14, item 7: a held-out test aligns and scores the last 20%
    /// alone, without the training-data warning; the pairs before it are
    /// marked as the model's training pairs (not aligned, not explained),
    /// and their scores carry the warning once the model aligns them.
    #[test]
    fn a_held_out_test_scores_the_held_out_pairs_and_marks_the_training_pairs() {
        let mut s = State::with_sample();
        s.apply(Action::Train(TrainAction::Form(FormAction::SetCalibrate(false))));
        s.apply(Action::Train(TrainAction::Form(FormAction::SetHoldOutTest(true))));
        let id = train_a_model(&mut s, 0.0);
        let trained_on = |s: &State| s.alignment.model.as_ref().and_then(|m| m.trained_on.clone());
        let expected = |s: &State| Some(TrainedOn { gen: s.loaded.gen, first_unseen: 126, annotated: Rc::default() });
        assert_eq!(trained_on(&s), expected(&s));
        // Kept for the next visit, with the choices.
        let r = restored(s.session());
        assert_eq!(trained_on(&r), expected(&r));
        assert_eq!((r.form.test, r.form.calibrate), (true, false));
        assert_eq!(r.form.pairs_training(&r.loaded.held), s.form.pairs_training(&s.loaded.held));
        let (n, first) = (s.loaded.corpus.len(), 126);
        // An answer whose pairs do not end with the corpus's (all n after the first 126) is refused.
        answer(&mut s, empty_alignment(id, first + n, "held out", first), 2.0);
        assert!(s.results().is_none() && matches!(&s.alignment.note, Some(Err(_))), "{:?}", s.alignment.note);

        let id = train_a_model(&mut s, 3000.0);
        // The worker's searches of the held-out pairs: each takes its gold links.
        let searches = gold_searches(&s.loaded.corpus.pairs[first..]);
        let mut aligned = empty_alignment(id, n, "held out", first);
        let Response::Aligned { searches: all, uncertainty, .. } = &mut aligned else { unreachable!() };
        (*all, *uncertainty) = (searches, Vec::new());
        answer(&mut s, aligned, 5000.0);
        let r = s.results().expect("results");
        assert_eq!((r.first_aligned, first_unseen(r), r.trained_on_these(), r.pairs()), (126, 126, false, 126..157));
        let aligned = [0, 125, 126, 156, 157].map(|k| r.aligned(PairIndex::new(k)));
        assert_eq!(aligned, [false, false, true, true, false]);
        let held_out = r.held_out.as_deref().unwrap_or_default();
        assert!(held_out.starts_with("Held out: pairs 127–157, the last 20% of the 157 pairs loaded"), "{held_out}");
        assert!(held_out.contains("trained on pairs 1–126, pairs 127–157 held out as the test"), "{held_out}");
        // The scores count the held-out pairs alone.
        let as_gold = |p: &TreePair| p.gold.iter().map(|l| Link::good(l.source, l.target)).collect::<Vec<_>>();
        let held: Counts =
            s.loaded.corpus.pairs[first..].iter().fold(Counts::default(), |c, p| c + Counts::of_pair(p, &as_gold(p)));
        assert!(held.correct > 100, "{held}");
        assert_eq!(r.model_total, held);
        assert_eq!(r.model_counts[0], Counts::of_pair(&s.loaded.corpus.pairs[0], &[]), "a training pair: no links");
        let note = s.alignment.note.clone().unwrap().unwrap();
        let scores = format!("P {:.2}, R {:.2}, F {:.2}.", held.precision(), held.recall(), held.f());
        assert_eq!(
            note,
            format!("Trained on pairs 1–126 and aligned the 31 held-out pairs 127–157 in 2.0 s: {scores}")
        );
        let warned = (s.alignment.note_on_training_data, s.panels().train.note_on_training_data);
        assert_eq!(warned, (false, false), "no training-data warning");
        // The exports hold the pairs aligned: 31 lines of links, the CSV numbered from 127.
        let r = s.results().unwrap().clone();
        assert_eq!(exported(&mut s, ExportFile::PredictedLinks).1, write_links(&r.predicted[126..]));
        let tiger = exported(&mut s, ExportFile::SourceTiger).1;
        assert_eq!(tiger.matches("<s ").count(), 31, "the TigerXML holds the 31 pairs aligned");
        let csv = exported(&mut s, ExportFile::ResultsCsv).1;
        assert_eq!(csv.lines().nth(1).and_then(|l| l.split(',').next()), Some("127"));
        assert_eq!(csv.lines().count(), 1 + 31 + 1);
        assert!(csv.lines().skip(1).all(|l| l.ends_with(",no")), "held out: no training pairs scored");
        // A training pair is not explained; a held-out pair is.
        select_pair(&mut s, 3);
        assert!(click(&mut s, 1, 2).is_empty());
        select_pair(&mut s, 130);
        let (pair, source, target) = (PairIndex::new(130), NodeId::new(1), NodeId::new(2));
        assert_eq!(click(&mut s, 1, 2), vec![Effect::Post(Request::Explain { pair, source, target })]);

        // The same model aligning all the pairs: their scores include the
        // training pairs', and carry the warning.
        // Align with the model held, every pair answered.
        let align_all = |s: &mut State, now: f64| {
            let id = started(&s.apply(Action::Train(TrainAction::Align { now })));
            answer(s, empty_alignment(id, n, "all", 0), now + 1.0);
        };
        align_all(&mut s, 6.0);
        let r = s.results().unwrap();
        assert_eq!(
            (r.first_aligned, first_unseen(r), r.trained_on_these(), r.held_out.is_none()),
            (0, 126, true, true)
        );
        assert!(s.alignment.note_on_training_data && s.panels().train.note_on_training_data);
        // The CSV marks the training pairs' rows, and the corpus row, as the page warns.
        let csv = exported(&mut s, ExportFile::ResultsCsv).1;
        let rows: Vec<&str> = csv.lines().collect();
        assert!(rows[0].ends_with(",model_on_training_data"));
        assert!(rows[1].starts_with("1,") && rows[1].ends_with(",yes") && rows[126].ends_with(",yes"));
        assert!(rows[127].starts_with("127,") && rows[127].ends_with(",no") && rows[157].ends_with(",no"));
        assert!(rows[158].starts_with("corpus,") && rows[158].ends_with(",yes"));
        // An uploaded model trained no pair here: no warning.
        s.alignment.model.as_mut().unwrap().trained_on = None;
        align_all(&mut s, 8.0);
        assert_eq!(s.results().map(|r| (first_unseen(r), r.trained_on_these())), Some((0, false)));
        assert!(!s.alignment.note_on_training_data);
    }

    /// Issue 38, item 2: the default Train asks for a first model; its
    /// links are shown, labelled, scored without a baseline and not
    /// explained, until the chosen model's results replace them; a cancel
    /// takes them away and the results before the job are shown again.
    #[test]
    fn a_first_models_links_are_shown_until_the_job_ends() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train(TrainAction::Train { now: 0.0 }));
        let [Effect::Post(Request::Train { job, options, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let preview = crate::app::alignment::preview_options(options, s.loaded.corpus.len());
        let preview = preview.expect("the default Train chooses on dev: a first model");
        assert_eq!(options.len(), 5, "the configurations tried are the plan's, the first model apart");
        assert!(preview.tune_c.is_empty() && preview.tune_search.is_empty() && preview.tune_word_model.is_empty());
        let (job, n) = (*job, s.loaded.corpus.len());
        // The first model links each pair as its gold links say.
        let gold = gold_searches(&s.loaded.corpus.pairs);
        let first = |job, searches| Response::Preview { job, summary: "a first model".into(), searches, first: 0 };
        // Another job's, or one that does not cover the pairs, is not shown.
        answer(&mut s, first(JobId(job.0 + 1), gold.clone()), 1000.0);
        answer(&mut s, first(job, gold[1..].to_vec()), 1000.0);
        assert!(s.results().is_none());
        answer(&mut s, first(job, gold.clone()), 1000.0);
        let r = s.results().expect("the first model's results");
        assert_eq!((r.preview, r.model.as_str()), (true, "a first model"));
        assert_eq!((r.model_total.correct, r.model_total.f()), (s.loaded.corpus.gold_links(), 100.0));
        assert_eq!((r.baseline_total.predicted, r.baseline_total.gold), (0, r.model_total.gold), "no baseline ran");
        assert!(s.jobs.running.is_some() && s.alignment.results.is_none());
        assert!(click(&mut s, 1, 2).is_empty(), "a first model's link is not explained");
        // The chosen model's results replace them.
        answer(&mut s, empty_alignment(job, n, "chosen", 0), 2000.0);
        let r = s.results().expect("the chosen model's results");
        assert_eq!((r.preview, r.lexicon.as_str(), r.model_total.correct), (false, "chosen", 0));
        assert!(s.alignment.preview.is_none());
        // Trained again, cancelled after the first model: the chosen model's results are back.
        let again = started(&s.apply(Action::Train(TrainAction::Train { now: 3000.0 })));
        answer(&mut s, first(again, gold), 4000.0);
        assert!(s.results().is_some_and(|r| r.preview));
        s.apply(Action::Job(JobAction::Cancel(None)));
        let r = s.results().expect("the results before the job");
        assert_eq!((r.preview, r.lexicon.as_str()), (false, "chosen"));
    }

    #[test]
    fn a_trained_model_downloads_aligns_and_explains_the_selected_pair() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let model = "{\"format\":\"treelink-alignment-model\"}".to_string();
        answer(&mut s, Response::Trained { job: id, model: model.clone(), summary: "a model".into(), kept: None }, 1.0);
        assert_eq!(s.alignment.model.as_ref().map(|m| m.origin.to_string()).as_deref(), Some("trained in this page"));
        let kept = Some(("a model".to_string(), model.clone()));
        assert_eq!(s.session().texts.alignment_model, kept, "kept for the next visit");
        let download = s.apply(Action::Train(TrainAction::DownloadModel));
        let [Effect::Download { name, body: DownloadBody::Text { text, mime } }] = &download[..] else {
            panic!("{download:?}")
        };
        assert_eq!((name.as_str(), &**text, *mime), ("treelink-model.json", model.as_str(), "application/json"));
        let aligned = empty_alignment(id, s.loaded.corpus.len(), "trained", 0);
        assert!(answer(&mut s, aligned, 2.0).is_empty());
        assert!(s.results().is_some());
        // Selecting a node pair with results in hand asks the worker why, once.
        assert!(s.apply(Action::Select(SelectAction::ClickSource(NodeId::new(1)))).is_empty());
        let explain = s.apply(Action::Select(SelectAction::ClickTarget(NodeId::new(2))));
        let (pair, source, target) = (PairIndex::FIRST, NodeId::new(1), NodeId::new(2));
        assert_eq!(explain, vec![Effect::Post(Request::Explain { pair, source, target })]);
        let explained = s.alignment.explained.as_ref().map(|e| (e.pair, e.source, e.target, e.result.is_none()));
        assert_eq!(explained, Some((pair, source, target, true)));
        assert!(s.apply(Action::SetLambda("0.3".into())).is_empty());
        // Aligning again posts the model the page holds.
        let effects = s.apply(Action::Train(TrainAction::Align { now: 3.0 }));
        assert!(matches!(&effects[..], [Effect::Post(Request::Align { model: m, .. })] if *m == model), "{effects:?}");
    }
}
