//! The pieces a pooled job is cut into ([`Task`]), what each hands back
//! ([`Output`]), and what a job worker keeps between them ([`Executor`]):
//! plain Rust, the same in the wasm worker and in the native tests that run
//! a pool of executors against the `app` steps on one thread.
//!
//! Each task calls the `app` function the CLI calls for the same step (`train_on_pairs`, `aligning_lexicon`, `align_pair` through
//! `stream::align_pairs`, `baseline_lexicon`, the baseline's stream,
//! `translate_all`), so a pair's result is the same whichever worker made
//! it. What a worker made and another needs (the model, a lexicon) moves
//! as text beside the message ([`Artifact`]), relayed by the page without
//! being read there.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::align::baseline::BaselineOptions;
use crate::align::explain::Explanation;
use crate::align::greedy::Search;
use crate::align::lexical::{InputLexicon, InputSentences};
use crate::align::model::{AlignmentModel, TrainOptions, WarmStart};
use crate::app::alignment::{self, PairsTraining};
use crate::app::stream::{align_pairs, aligning_lexicon, baseline_stream, PairAligner};
use crate::app::{annotation, files, translation};
use crate::corpus::{Corpus, PairIndex, TreePair, WordFit};
use crate::lexicon::{bitext_of, Lexicon, WordAlignment};
use crate::mt::model::TranslationModel;
use crate::parallel::Threads;
use crate::progress::{Cancelled, Observer};
use crate::tree::{NodeId, Tree};
pub use crate::ui::protocol::{Artifact, LexicalOf, Output, Searched, Task};
use crate::ui::protocol::{JobId, LexiconFiles};

/// What a job worker keeps of the job it takes part in, and of the last
/// alignment it took part in (to explain its pairs).
#[derive(Default)]
pub struct Executor {
    job: Option<JobId>,
    corpus: Corpus,
    files: LexiconFiles,
    model: Option<(AlignmentModel, String)>,
    input_lexicon: Option<(InputLexicon, String)>,
    baseline_lexicon: Option<(Lexicon, String)>,
    session: Option<Session>,
    /// The last update's linear solution, which the next update starts from
    /// (kept across jobs, as updates come one job each).
    warm: WarmStart,
}

/// The pairs a worker aligned in its last alignment, with the model and
/// lexicon, to explain them.
struct Session {
    job: JobId,
    model: AlignmentModel,
    lexicon: Lexicon,
    /// Pair number (among the pairs loaded) → the pair, its word links and search.
    pairs: BTreeMap<usize, (TreePair, WordAlignment, Search)>,
}

/// Why a task failed, in a sentence for the page.
pub type TaskError = String;

/// Why the pairs' source trees look reversed or foreign to the translation
/// model, by how their words fit it (`fit`, [`translation::fit_of_part`]),
/// in the page's words (`treelink translate` warns the same way).
pub fn fit_note(fit: WordFit) -> Option<String> {
    fit.direction().warning("The loaded pairs' source side", "the translation model").map(|w| format!("Warning: {w}"))
}

fn text<E: std::fmt::Display>(e: E) -> TaskError {
    e.to_string()
}

impl Executor {
    /// Runs `task` of job `job` (`blob`: the text of an artifact kept by
    /// [`Task::Keep`]); the output, and the text of an artifact made.
    pub fn run(
        &mut self,
        job: JobId,
        task: Task,
        blob: Option<String>,
        mt: Option<&(JobId, TranslationModel)>,
        observer: &mut dyn Observer,
    ) -> Result<(Output, Option<String>), TaskError> {
        if self.job != Some(job) && !matches!(task, Task::Translate { .. }) {
            // A new job: what the last one kept is not this one's (its
            // alignment stays explainable until this one aligns).
            let (session, warm) = (self.session.take(), std::mem::take(&mut self.warm));
            *self = Executor { job: Some(job), session, warm, ..Executor::default() };
        }
        match task {
            Task::Corpus { corpus, lexicon } => {
                self.corpus = corpus.parse()?;
                self.files = lexicon;
                Ok((Output::Done, None))
            }
            Task::Keep(artifact) => {
                let blob = blob.ok_or_else(|| format!("the {artifact:?} did not reach the worker"))?;
                self.keep(artifact, blob)?;
                Ok((Output::Done, None))
            }
            Task::Train { options, how } => self.train(&options, &how, observer),
            Task::Update { model, kept, train, sentences } => self.update(&model, &kept, &train, sentences, observer),
            Task::Preview { options, how } => {
                let (tables, links) = (self.tables()?, self.word_links()?);
                let p =
                    alignment::preview_on_pairs(&self.corpus, &how, tables, links, &options, observer).map_err(text)?;
                Ok((Output::Preview { summary: p.summary, searches: p.searches, first: p.first }, None))
            }
            Task::InputLexicon { of, sentences, aligned } => self.input_lexicon(of, sentences, aligned, observer),
            Task::BaselineLexicon => {
                let tables = self.tables()?;
                let lexicon =
                    alignment::baseline_lexicon(&self.corpus, tables, Vec::new(), Default::default(), observer)
                        .map_err(text)?;
                let json = serde_json::to_string(&lexicon).map_err(text)?;
                self.baseline_lexicon = Some((lexicon, json.clone()));
                Ok((Output::Made { artifact: Artifact::BaselineLexicon, note: None }, Some(json)))
            }
            Task::Search { pairs, aligned_from } => self.search(pairs, aligned_from, observer),
            Task::Baseline { pairs, with } => {
                let lexicon = match with {
                    Artifact::InputLexicon => self.input_lexicon.as_ref().map(|(l, _)| &l.lexicon),
                    _ => self.baseline_lexicon.as_ref().map(|(l, _)| l),
                };
                let lexicon = lexicon.ok_or("the worker holds no baseline lexicon")?;
                let chosen = self.corpus.pairs.get(pairs.clone()).ok_or("no such pairs")?;
                let mut links = Vec::with_capacity(chosen.len());
                let items = chosen.iter().map(Ok::<_, Cancelled>);
                let options = BaselineOptions::default();
                baseline_stream(lexicon, &options, items, chosen.len() as u64, Threads::ONE, observer, |_, l| {
                    links.push(l.into_iter().map(|l| (l.source, l.target)).collect());
                    Ok(())
                })
                .map_err(text)?;
                Ok((Output::Baseline(links), None))
            }
            Task::Translate { model, sources, first } => {
                let Some((_, m)) = mt.filter(|(id, _)| *id == model) else { return Ok((Output::NoMtModel, None)) };
                let trees = sources
                    .iter()
                    .enumerate()
                    .map(|(k, s)| {
                        let name = format!("source tree {}", first + k + 1);
                        translation::read_source(s, &name, &crate::limits::Limits::default()).map_err(|e| e.in_page())
                    })
                    .collect::<Result<Vec<Tree>, _>>()?;
                let fit = translation::fit_of_part(m, &trees, first);
                let hyps = translation::translate_all(m, &trees, observer).map_err(text)?;
                Ok((Output::Translations(hyps, fit), None))
            }
        }
    }

    fn keep(&mut self, artifact: Artifact, blob: String) -> Result<(), TaskError> {
        match artifact {
            Artifact::Model => {
                let model = files::read_alignment_model(&blob, "the alignment model").map_err(text)?;
                self.model = Some((model, blob));
            }
            Artifact::InputLexicon => self.input_lexicon = Some((serde_json::from_str(&blob).map_err(text)?, blob)),
            Artifact::BaselineLexicon => {
                self.baseline_lexicon = Some((serde_json::from_str(&blob).map_err(text)?, blob))
            }
        }
        Ok(())
    }

    /// The uploaded tables, if both were given (with their vocabularies, if given).
    fn tables(&self) -> Result<Option<Lexicon>, TaskError> {
        self.files.tables_lexicon(&self.corpus).map_err(text)
    }

    /// The uploaded word links of the pairs, if given.
    fn word_links(&self) -> Result<Option<Vec<WordAlignment>>, TaskError> {
        let links = self.files.word_links.as_ref();
        links.map(|f| alignment::word_links(f.named(), &self.corpus).map_err(text)).transpose()
    }

    fn train(
        &mut self,
        options: &[TrainOptions],
        how: &PairsTraining,
        observer: &mut dyn Observer,
    ) -> Result<(Output, Option<String>), TaskError> {
        let (tables, links) = (self.tables()?, self.word_links()?);
        let n = self.corpus.len();
        let split = how.split(n).ok_or_else(|| text(alignment::AlignmentError::TooFewToHoldOut(n)))?;
        let links_given = links.is_some();
        let tables_given = tables.is_some() && !how.test;
        let kept = alignment::train_on_pairs(&self.corpus, how, tables, links, options, observer).map_err(text)?;
        let (model, tried) = (kept.model, kept.tried);
        // A new model: the next update starts from 0, not from another model's solution.
        self.warm = WarmStart::default();
        let note = match how.test {
            true => alignment::held_out_note(&model, links_given),
            false => alignment::compare_note(&model, &self.corpus, tables_given, links_given),
        };
        let (json, summary) = (model.to_json(), alignment::trained_summary(&model, &split, &tried));
        self.model = Some((model, json.clone()));
        let kept = serde_json::to_string(&kept.options).map_err(text)?;
        Ok((Output::Trained { model: json.clone(), summary, note, kept: Some(kept) }, Some(json)))
    }

    /// [`Task::Update`]: pairs `train` (their gold the links to learn),
    /// each with its word links as `Search` aligns pairs (given, else the
    /// aligning lexicon's with `sentences`, made here as the `InputLexicon`
    /// piece makes it).
    fn update(
        &mut self,
        model: &str,
        kept_json: &str,
        train: &[usize],
        sentences: InputSentences,
        observer: &mut dyn Observer,
    ) -> Result<(Output, Option<String>), TaskError> {
        let current = AlignmentModel::from_json(model, "the model").map_err(text)?;
        let kept: TrainOptions = serde_json::from_str(kept_json).map_err(|e| format!("the kept options: {e}"))?;
        let kept = &kept;
        let given = self.word_links()?;
        // Every pair's sentences when they join the lexicon (then all pairs are aligned): links by pair number.
        let bitext = || Ok::<_, Cancelled>(bitext_of(&self.corpus));
        let lexicon = aligning_lexicon(&current.lexicon, None, sentences, bitext, observer).map_err(text)?;
        let mut pairs = Corpus::default();
        let mut links = Vec::new();
        for &k in train {
            let pair = self.corpus.pairs.get(k).ok_or("no such pair")?;
            links.push(match given.as_ref().and_then(|g| g.get(k)) {
                Some(l) => l.clone(),
                None => lexicon.links(k, pair.source.words(), pair.target.words()),
            });
            pairs.pairs.push(pair.clone());
        }
        let updated =
            annotation::update_model(&pairs, links, kept, &current, &lexicon.lexicon, &mut self.warm, observer)
                .map_err(text)?;
        let summary = format!("{} (updated on {} pairs: its own and those annotated)", updated.spec, train.len());
        let json = updated.to_json();
        self.model = Some((updated, json.clone()));
        let output =
            Output::Trained { model: json.clone(), summary, note: String::new(), kept: Some(kept_json.to_string()) };
        Ok((output, Some(json)))
    }

    fn input_lexicon(
        &mut self,
        of: LexicalOf,
        sentences: InputSentences,
        aligned: Range<usize>,
        observer: &mut dyn Observer,
    ) -> Result<(Output, Option<String>), TaskError> {
        let (lexical, note) = match &of {
            LexicalOf::Training(how) => {
                let tables = self.tables()?;
                (alignment::lexical_model_on_pairs(&self.corpus, how, tables).map_err(text)?, None)
            }
            LexicalOf::Trained => {
                let (model, _) = self.model.as_ref().ok_or("the worker holds no alignment model")?;
                (model.lexicon.clone(), None)
            }
            LexicalOf::Model => {
                let (model, _) = self.model.as_ref().ok_or("the worker holds no alignment model")?;
                let tables_given = self.tables()?.is_some();
                let note = alignment::compare_note(model, &self.corpus, tables_given, self.word_links()?.is_some());
                (model.lexicon.clone(), Some(note))
            }
        };
        let pairs = Corpus { pairs: self.corpus.pairs.get(aligned).ok_or("no such pairs")?.to_vec() };
        let bitext = || Ok::<_, Cancelled>(bitext_of(&pairs));
        let made = aligning_lexicon(&lexical, None, sentences, bitext, observer).map_err(text)?;
        let json = serde_json::to_string(&made).map_err(text)?;
        self.input_lexicon = Some((made, json.clone()));
        Ok((Output::Made { artifact: Artifact::InputLexicon, note }, Some(json)))
    }

    fn search(
        &mut self,
        pairs: Range<usize>,
        aligned_from: usize,
        observer: &mut dyn Observer,
    ) -> Result<(Output, Option<String>), TaskError> {
        let given = self.word_links()?;
        let (model, _) = self.model.as_ref().ok_or("the worker holds no alignment model")?;
        let (lexicon, _) = self.input_lexicon.as_ref().ok_or("the worker holds no lexicon to align with")?;
        let aligner = PairAligner::new(model, lexicon).map_err(text)?;
        let chosen = self.corpus.pairs.get(pairs.clone()).ok_or("no such pairs")?;
        let given = given.map(|g| g.get(pairs.clone()).map(<[_]>::to_vec).unwrap_or_default());
        let first = pairs.start - aligned_from;
        let aligned = align_pairs(&aligner, chosen, first, given.as_deref(), Threads::ONE, observer).map_err(text)?;
        let job = self.job.unwrap_or(JobId(0));
        if self.session.as_ref().is_none_or(|s| s.job != job) {
            let (model, lexicon) = (model.clone(), lexicon.lexicon.clone());
            self.session = Some(Session { job, model, lexicon, pairs: BTreeMap::new() });
        }
        let mut out = Searched { link_search: model.search, ..Searched::default() };
        for ((k, pair), a) in pairs.zip(chosen).zip(aligned) {
            out.searches.push(a.search.clone());
            out.uncertainty.push(a.uncertainty);
            if let Some(s) = &mut self.session {
                s.pairs.insert(k, (pair.clone(), a.word_links, a.search));
            }
        }
        Ok((Output::Searches(out), None))
    }

    /// Why the model of the last alignment did (not) link `nodes` in pair
    /// `pair`, if this worker aligned that pair.
    pub fn explain(&self, pair: PairIndex, nodes: (NodeId, NodeId)) -> Option<Result<Explanation, String>> {
        let s = self.session.as_ref()?;
        let (p, links, search) = s.pairs.get(&pair.index())?;
        Some(alignment::explain_pair(&s.model, &s.lexicon, pair, (p, links, search), nodes).map_err(text))
    }
}
