//! The Translate view's state ([`MtState`]): the translation model the
//! job worker holds (trained here, or an uploaded file the worker reads
//! itself), the training form, the pasted tree, and the last translations
//! (of a pair, of the pasted tree, of every pair) with their BLEU.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::HeldSets;
use super::{DownloadBody, Effect, FileHandle, JobKind, Shared, State};
use crate::app::alignment::{PairSplit, PairsTraining};
use crate::app::translation::Pinned;
use crate::corpus::PairIndex;
use crate::eval::bleu::{sentence_bleu, Bleu, BleuStats};
use crate::lexicon::WordModel;
use crate::mt::model::SystemKind;
use crate::mt::ms::MsReading;
use crate::mt::phrase::ExtractMethod;
use crate::tree::Tree;
use crate::ui::ids::{CorpusGen, JobId, WorkerGen};
use crate::ui::load::HeldRole;
use crate::ui::protocol::{CorpusText, NamedText, Request, Response, TranslationView};

/// Where a translation model file's text is: in the page (trained here, or
/// read as text), or in a file the worker reads itself (an upload: a large
/// model never passes through the page's thread).
#[derive(Debug, Clone, PartialEq)]
pub enum MtSource {
    Text(Shared<str>),
    File(FileHandle),
}

/// An uploaded translation model file on its way to the worker.
#[derive(Debug, Clone, PartialEq)]
pub struct MtUpload {
    pub name: String,
    pub source: MtSource,
}

/// The translation model the worker holds (or held, before a restart).
#[derive(Debug, Clone, PartialEq)]
pub struct MtHeld {
    /// Its id in the worker.
    pub id: JobId,
    /// Its file name and where its text is: to download, and to send again to a restarted worker.
    pub name: String,
    pub source: MtSource,
    /// Where it came from ("trained in this page", "uploaded NAME").
    pub origin: String,
    pub summary: String,
    /// The worker generation that holds it; `None` once a worker failed
    /// (it is sent again with the next request).
    pub worker_gen: Option<WorkerGen>,
    /// Trained in the page on the trees of this generation: on the first
    /// of them, this many (its training and dev pairs).
    pub trained_on: Option<(CorpusGen, usize)>,
}

/// What a translation was asked for: its source tree and, from the corpus, its reference.
#[derive(Debug, Clone, PartialEq)]
pub struct TranslationInput {
    /// "pair 3" or "the pasted tree".
    pub label: String,
    /// The pair of the corpus it is.
    pub pair: Option<PairIndex>,
    pub source: Tree,
    pub reference: Option<Vec<String>>,
}

/// A translation the worker made, with its input and sentence BLEU.
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    pub input: TranslationInput,
    pub view: TranslationView,
    pub bleu: Option<Bleu>,
    /// Where the model came from.
    pub model: String,
    /// The input is a pair the model was trained on (its BLEU is optimistic).
    pub trained_on_these: bool,
}

/// Every loaded pair translated, scored against its target sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusTranslation {
    /// The trees it belongs to.
    pub corpus_gen: CorpusGen,
    /// Where the model came from.
    pub model: String,
    pub hyps: Vec<Vec<String>>,
    /// Corpus BLEU (sacreBLEU's defaults) and each pair's sentence BLEU.
    pub bleu: Bleu,
    pub sentence_bleu: Vec<f64>,
    pub seconds: f64,
    /// The model was trained in the page on these very pairs (BLEU is optimistic).
    pub trained_on_these: bool,
}

/// The Translate view's training form (kept for the next visit): what
/// the user pinned (`None`: chosen on dev, or the default without dev
/// pairs, as `mt-train` does) and whether dev pairs are held out.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MtChoices {
    #[serde(rename = "mt_system")]
    pub system: SystemKind,
    #[serde(rename = "mt_extract", default)]
    pub extract: Option<ExtractMethod>,
    /// The MS reading and the word model (`--ms-reading`, `--word-model`).
    #[serde(rename = "mt_reading", default)]
    pub reading: Option<MsReading>,
    #[serde(rename = "mt_word_model", default)]
    pub word_model: Option<WordModel>,
    /// Hold out the last [`crate::app::alignment::HELD_OUT_PERCENT`]% as dev pairs (a dev set
    /// given as its own file is always dev), as alignment's *Calibrate* does.
    #[serde(rename = "mt_tune", default = "held_out_by_default")]
    pub tune: bool,
}

fn held_out_by_default() -> bool {
    true
}

impl Default for MtChoices {
    fn default() -> Self {
        MtChoices { system: SystemKind::Ms, extract: None, reading: None, word_model: None, tune: true }
    }
}

impl MtChoices {
    /// What the form pins, for `train_on_pairs`.
    pub fn pinned(&self) -> Pinned {
        Pinned { extract: self.extract, reading: self.reading, word_model: self.word_model }
    }

    /// Which of the pairs train and which are dev (the test set given as
    /// its own file is neither); `None` when too few to hold some out.
    pub fn split(&self, n: usize, held: &HeldSets) -> Option<PairSplit> {
        let how = PairsTraining {
            calibrate: self.tune,
            dev_set: held.pairs(HeldRole::Dev),
            test_set: held.pairs(HeldRole::Test),
            ..PairsTraining::default()
        };
        how.split(n)
    }
}

/// The Translate view's state.
#[derive(Debug, Clone, PartialEq)]
pub struct MtState {
    pub held: Option<MtHeld>,
    /// The training form.
    pub choices: MtChoices,
    /// The id of the LoadMt request of an uploaded file, while the worker reads it.
    pub loading: Option<JobId>,
    /// The last uploaded translation model file.
    pub upload: Option<MtUpload>,
    /// How the last training or translation ended.
    pub note: Option<Result<String, String>>,
    /// The id of the Translate request in flight, and what it translates
    /// (`None`: the pasted tree, which the worker reads).
    pub translating: Option<(JobId, Option<TranslationInput>)>,
    pub result: Option<Rc<Translated>>,
    pub corpus: Option<Rc<CorpusTranslation>>,
    /// The pasted source tree as typed, and why it does not read.
    pub input: String,
    pub input_error: Option<String>,
    pub nbest: usize,
}

impl Default for MtState {
    fn default() -> Self {
        MtState {
            held: None,
            choices: MtChoices::default(),
            loading: None,
            upload: None,
            note: None,
            translating: None,
            result: None,
            corpus: None,
            input: String::new(),
            input_error: None,
            nbest: 10,
        }
    }
}

/// The effect that sends a translation model file to the job worker, to
/// keep as model `job`: a file as a file (the worker reads it), a text as text.
fn send_model(job: JobId, name: &str, source: &MtSource) -> Effect {
    match source {
        MtSource::File(handle) => Effect::PostFile(Request::LoadMtFile { job, name: name.to_string() }, *handle),
        MtSource::Text(text) => {
            Effect::Post(Request::LoadMt { job, model: NamedText { name: name.to_string(), text: text.to_string() } })
        }
    }
}

/// Why the Translate view's Train does not start with dev pairs held out.
const TOO_FEW_TO_HOLD_OUT: &str =
    "Too few pairs to hold some out as dev pairs: load more, or untick “Hold out dev pairs”.";

/// What the Translate view asks.
#[derive(Debug, Clone, PartialEq)]
pub enum TranslateAction {
    SetSystem(SystemKind),
    SetExtract(Option<ExtractMethod>),
    SetReading(Option<MsReading>),
    SetWordModel(Option<WordModel>),
    SetTune(bool),
    /// The pasted source tree, as typed.
    SetInput(String),
    /// Train a translation model on the loaded pairs.
    Train {
        now: f64,
    },
    /// Translate pair `k` of the corpus.
    TranslatePair(PairIndex),
    /// Translate the pasted tree.
    TranslatePasted,
    /// Translate every loaded pair.
    TranslateAll {
        now: f64,
    },
    /// Download the translation model held.
    Download,
}

impl MtState {
    /// Hands an uploaded model to the job worker (request `id`), which reads and keeps it.
    fn upload(&mut self, id: JobId, upload: MtUpload) -> Effect {
        self.loading = Some(id);
        let effect = send_model(id, &upload.name, &upload.source);
        self.upload = Some(upload);
        effect
    }

    /// The id of the model held, sent first (an effect) to worker `gen` if
    /// that worker does not hold it.
    fn held_model(&mut self, gen: WorkerGen, effects: &mut Vec<Effect>) -> Option<JobId> {
        let held = self.held.as_mut()?;
        if held.worker_gen != Some(gen) {
            effects.push(send_model(held.id, &held.name, &held.source));
            held.worker_gen = Some(gen);
        }
        Some(held.id)
    }

    /// The job worker was restarted (a cancel): a translation asked for is
    /// not coming, nor is an uploaded model being read (what its input says, if so).
    pub(super) fn worker_restarted(&mut self) -> Option<Result<String, String>> {
        self.translating = None;
        self.loading.take().map(|_| Err("not read: the worker was restarted; load the file again".into()))
    }

    /// The job worker failed with `message`: what it was asked of the
    /// translation model is not coming, and the model is sent again next time.
    /// (What the uploaded model's input says, if one was being read.)
    pub(super) fn worker_failed(&mut self, message: &str) -> Option<Result<String, String>> {
        if let Some(h) = &mut self.held {
            h.worker_gen = None;
        }
        if self.translating.take().is_some() {
            self.note = Some(Err(message.to_string()));
        }
        self.loading.take().map(|_| Err(message.to_string()))
    }

    /// Request `job` failed with `message`: a translation (a pasted tree
    /// that does not read is shown with it), or an uploaded model that does
    /// not read (`Ok(Some(message))`: for its input to say). `message` back
    /// as the error if the request was none of these.
    pub(super) fn failed(&mut self, job: JobId, message: String) -> Result<Option<String>, String> {
        if let Some((_, input)) = self.translating.take_if(|(id, _)| *id == job) {
            match input {
                Some(_) => self.note = Some(Err(message)),
                None => self.input_error = Some(message),
            }
        } else if self.loading.take_if(|id| *id == job).is_some() {
            return Ok(Some(message));
        } else {
            return Err(message);
        }
        Ok(None)
    }

    /// The model this page trained (request `model` in worker `gen`) on
    /// the pairs of `split` (of generation `trained_gen`).
    fn trained(
        &mut self,
        model: JobId,
        json: Option<String>,
        summary: String,
        split: PairSplit,
        gen: WorkerGen,
        trained_gen: CorpusGen,
    ) {
        let dev = match split.dev {
            0 => String::new(),
            n => format!(", tuned on the {n} dev pairs after them"),
        };
        self.held = Some(MtHeld {
            id: model,
            name: "treelink-mt-model.json".into(),
            source: MtSource::Text(json.unwrap_or_default().into()),
            origin: format!("trained in this page on {} pairs{dev}", split.train),
            summary,
            worker_gen: Some(gen),
            trained_on: Some((trained_gen, split.train + split.dev)),
        });
    }

    /// The uploaded model the worker read (request `model` in worker
    /// `gen`): what its input says, now in use.
    fn uploaded(&mut self, model: JobId, summary: String, gen: WorkerGen) -> Option<String> {
        self.loading = None;
        let u = self.upload.clone()?;
        let message = format!("{}: {summary}", u.name);
        self.held = Some(MtHeld {
            id: model,
            name: u.name.clone(),
            source: u.source,
            origin: format!("uploaded {}", u.name),
            summary,
            worker_gen: Some(gen),
            trained_on: None,
        });
        Some(message)
    }

    /// The translation of `input` (or, `None`, of the pasted tree, as the
    /// worker read it: `source`); its BLEU against the input's reference.
    fn translated(
        &mut self,
        input: Option<TranslationInput>,
        result: TranslationView,
        source: Option<crate::ui::load::WireTree>,
        gen: CorpusGen,
    ) {
        // The pasted tree, as the worker read it.
        let input = match (input, source.map(Tree::try_from)) {
            (Some(input), _) => input,
            (None, Some(Ok(source))) => {
                TranslationInput { label: "the pasted tree".into(), pair: None, source, reference: None }
            }
            (None, Some(Err(e))) => {
                self.note = Some(Err(format!("the worker sent a broken tree: {e}")));
                return;
            }
            (None, None) => {
                self.note = Some(Err("the worker sent no tree for the pasted one".into()));
                return;
            }
        };
        let bleu = input.reference.as_ref().map(|r| sentence_bleu(&result.words.join(" "), &r.join(" ")));
        self.note = Some(Ok(format!(
            "Translated {} ({} words) in {:.2} s.",
            input.label,
            input.source.words().len(),
            result.seconds
        )));
        let model = self.held.as_ref().map_or(String::new(), |h| h.origin.clone());
        // A pair of the loaded corpus that the model was trained or tuned on.
        let trained_on = self.held.as_ref().and_then(|h| h.trained_on).filter(|(g, _)| *g == gen);
        let trained_on_these = input.pair.zip(trained_on).is_some_and(|(k, (_, seen))| k.index() < seen);
        self.result = Some(Rc::new(Translated { input, view: result, bleu, model, trained_on_these }));
    }

    /// Every pair of `corpus` (of generation `gen`) translated, scored
    /// against its target sentence; `fit`: why its sources look reversed or
    /// foreign to the model, said after the count.
    fn translated_all(
        &mut self,
        hyps: Vec<Vec<String>>,
        seconds: f64,
        fit: Option<String>,
        corpus: &crate::corpus::Corpus,
        gen: CorpusGen,
    ) {
        let mut stats = BleuStats::default();
        let mut sentence = Vec::with_capacity(hyps.len());
        for (h, p) in hyps.iter().zip(&corpus.pairs) {
            let s = BleuStats::from_tokens(h, &[p.target.words()]);
            sentence.push(Bleu::sentence(&s).score);
            stats += s;
        }
        let bleu = Bleu::corpus(&stats);
        let fit = fit.map_or(String::new(), |f| format!(" {f}"));
        self.note = Some(Ok(format!("Translated {} pairs in {seconds:.1} s.{fit}", hyps.len())));
        let model = self.held.as_ref().map_or(String::new(), |h| h.origin.clone());
        let trained_on_these = self.held.as_ref().and_then(|h| h.trained_on).is_some_and(|(g, _)| g == gen);
        self.corpus = Some(Rc::new(CorpusTranslation {
            corpus_gen: gen,
            trained_on_these,
            model,
            hyps,
            bleu,
            sentence_bleu: sentence,
            seconds,
        }));
    }
}

impl State {
    /// Hands an uploaded translation model to the job worker, which reads and keeps it.
    pub(super) fn upload_mt(&mut self, upload: MtUpload) -> Effect {
        let id = self.jobs.next_id();
        self.mt.upload(id, upload)
    }

    /// A [`TranslateAction`]: a job (training, translating every pair) starts
    /// only when none runs; the model held goes first to a worker that no
    /// longer holds it.
    pub(super) fn translation(&mut self, action: TranslateAction) -> Vec<Effect> {
        let mut effects = Vec::new();
        match action {
            TranslateAction::SetSystem(system) => self.mt.choices.system = system,
            TranslateAction::SetExtract(extract) => self.mt.choices.extract = extract,
            TranslateAction::SetReading(reading) => self.mt.choices.reading = reading,
            TranslateAction::SetWordModel(model) => self.mt.choices.word_model = model,
            TranslateAction::SetTune(tune) => self.mt.choices.tune = tune,
            TranslateAction::SetInput(text) => {
                self.mt.input = text;
                self.mt.input_error = None;
            }
            TranslateAction::Train { now } => {
                let needs_gold = self.mt.choices.extract.is_some_and(|m| m != ExtractMethod::Word);
                let split = self.mt.choices.split(self.loaded.corpus.len(), &self.loaded.held);
                match split {
                    None => self.mt.note = Some(Err(TOO_FEW_TO_HOLD_OUT.into())),
                    Some(split)
                        if self.jobs.running.is_none() && (!needs_gold || self.loaded.corpus.gold_links() > 0) =>
                    {
                        let id = self.jobs.next_id();
                        self.start_job(id, JobKind::TrainMt, now);
                        if let Some(j) = &mut self.jobs.running {
                            j.split = Some(split);
                        }
                        let seen = &self.loaded.corpus.pairs[..split.train + split.dev];
                        effects.push(Effect::Post(Request::TrainMt {
                            job: id,
                            corpus: CorpusText::of_pairs(seen),
                            dev: split.dev,
                            system: self.mt.choices.system,
                            pinned: self.mt.choices.pinned(),
                            lm: self.slots.lm_file(),
                        }));
                    }
                    Some(_) => {}
                }
            }
            TranslateAction::TranslatePair(k) => {
                if let Some(input) = self.pair_input(k) {
                    self.translate(Some(input), &mut effects);
                }
            }
            TranslateAction::TranslatePasted => self.translate(None, &mut effects),
            TranslateAction::TranslateAll { now } => {
                // The pasted tree's error belongs to it, not beside the corpus's result.
                self.mt.input_error = None;
                if self.jobs.running.is_none() {
                    if let Some(model) = self.mt.held_model(self.jobs.worker_gen, &mut effects) {
                        let id = self.jobs.next_id();
                        self.start_job(id, JobKind::TranslateAll, now);
                        let sources = self.loaded.corpus.pairs.iter().map(|p| p.source.to_bracketed()).collect();
                        effects.push(Effect::Post(Request::TranslateAll { job: id, model, sources }));
                    }
                }
            }
            TranslateAction::Download => {
                if let Some(h) = &self.mt.held {
                    let body = match &h.source {
                        MtSource::Text(text) => DownloadBody::Text { text: text.clone(), mime: "application/json" },
                        MtSource::File(handle) => DownloadBody::File(*handle),
                    };
                    effects.push(Effect::Download { name: h.name.clone(), body });
                }
            }
        }
        effects
    }

    /// Asks the job worker to translate `input`, or (`None`) the pasted
    /// tree, which the worker reads (its errors come back as the input's).
    fn translate(&mut self, input: Option<TranslationInput>, effects: &mut Vec<Effect>) {
        let Some(model) = self.mt.held_model(self.jobs.worker_gen, effects) else { return };
        let id = self.jobs.next_id();
        let (source, pasted) = match &input {
            Some(input) => (input.source.to_bracketed(), false),
            None => (self.mt.input.clone(), true),
        };
        effects.push(Effect::Post(Request::Translate { job: id, model, source, nbest: self.mt.nbest, pasted }));
        self.mt.translating = Some((id, input));
        self.mt.input_error = None;
    }

    /// The input of translating pair `k` of the corpus.
    fn pair_input(&self, k: PairIndex) -> Option<TranslationInput> {
        let pair = self.loaded.corpus.pair(k)?;
        Some(TranslationInput {
            label: format!("pair {k}"),
            pair: Some(k),
            source: pair.source.clone(),
            reference: Some(pair.target.words().to_vec()),
        })
    }

    /// The job worker's answers about translation.
    pub(super) fn translation_answer(&mut self, response: Response, now: f64) {
        let gen = self.jobs.worker_gen;
        match response {
            Response::MtReady { job, model, summary, json } => {
                if let Some(j) = self.jobs.end(job, Some(&[JobKind::TrainMt])) {
                    let elapsed = (now - j.started) / 1000.0;
                    self.mt.note = Some(Ok(format!("Trained a translation model in {elapsed:.1} s.")));
                    let all = PairSplit { train: self.loaded.corpus.len(), dev: 0, test: 0 };
                    self.mt.trained(model, json, summary, j.split.unwrap_or(all), gen, j.corpus_gen);
                } else if self.mt.loading == Some(job) {
                    if let Some(said) = self.mt.uploaded(model, summary, gen) {
                        self.slots.model_read(Ok(said));
                    }
                }
            }
            Response::TranslatedAll { job, hyps, seconds, note } => {
                let Some(j) = self.jobs.end(job, Some(&[JobKind::TranslateAll])) else { return };
                if j.corpus_gen != self.loaded.gen || hyps.len() != self.loaded.corpus.len() {
                    self.mt.note = Some(Err("The pairs changed while translating: translate them again.".into()));
                    return;
                }
                self.mt.translated_all(hyps, seconds, note, &self.loaded.corpus, self.loaded.gen);
            }
            Response::Translated { job, result, source } => {
                let Some((_, input)) = self.mt.translating.take_if(|(id, _)| *id == job) else { return };
                self.mt.translated(input, *result, source, self.loaded.gen);
            }
            Response::MtMissing { job } => {
                if let Some(h) = &mut self.mt.held {
                    h.worker_gen = None;
                }
                let ours = self.mt.translating.take_if(|(id, _)| *id == job).is_some()
                    || self.jobs.end(job, Some(&[JobKind::TranslateAll])).is_some();
                if ours {
                    self.mt.note = Some(Err(
                        "The worker had been restarted and no longer held the translation model: translate again (the model is sent along)."
                            .into(),
                    ));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::ui::load;

    /// The sample, with a translation model the page's worker trained on it.
    fn trained_in_page() -> State {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Translate(TranslateAction::Train { now: 0.0 }));
        let [Effect::Post(Request::TrainMt { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let ready = Response::MtReady { job: *job, model: *job, summary: "MS".into(), json: Some("{}".into()) };
        answer(&mut s, ready, 1.0);
        s
    }

    #[test]
    fn bleu_of_a_pair_the_model_was_trained_on_carries_the_training_data_warning() {
        let mut s = trained_in_page();
        let translate = |s: &mut State, action: Action| {
            let effects = s.apply(action);
            let Some(Effect::Post(Request::Translate { job, source, pasted, .. })) = effects.last() else {
                panic!("{effects:?}")
            };
            // As the worker answers: a pasted tree comes back read.
            let source = pasted.then(|| load::WireTree::from(&Tree::parse_one(source, "pasted tree").unwrap()));
            answer(s, Response::Translated { job: *job, result: Box::new(view("x", -1.0)), source }, 2.0);
            s.mt.result.as_ref().map(|r| (r.bleu.is_some(), r.trained_on_these))
        };
        let pair = |k| Action::Translate(TranslateAction::TranslatePair(PairIndex::new(k)));
        assert_eq!(translate(&mut s, pair(2)), Some((true, true)));
        s.apply(Action::Translate(TranslateAction::SetInput("(S (A a))".into())));
        let pasted = Action::Translate(TranslateAction::TranslatePasted);
        assert_eq!(translate(&mut s, pasted), Some((false, false)), "no reference, no score");
        // Other pairs loaded: the model was not trained on them.
        read_pairs(&mut s, &["(S (A a))\n", "(S (B b))\n"]);
        assert_eq!(translate(&mut s, pair(0)), Some((true, false)));
    }

    /// *Translate all* says what the worker found of the sources' fit to
    /// the model (`fit_note`) after the count, and the table follows.
    #[test]
    fn translating_every_pair_says_when_the_sources_look_reversed_for_the_model() {
        let mut s = trained_in_page();
        for note in [None, Some("Warning: they look reversed.".to_string())] {
            let effects = s.apply(Action::Translate(TranslateAction::TranslateAll { now: 2.0 }));
            let Some(Effect::Post(Request::TranslateAll { job, sources, .. })) = effects.last() else {
                panic!("{effects:?}")
            };
            let hyps = vec![vec!["x".to_string()]; sources.len()];
            answer(&mut s, Response::TranslatedAll { job: *job, hyps, seconds: 1.0, note: note.clone() }, 3.0);
            let said = s.mt.note.clone().unwrap().unwrap();
            let expected = format!("Translated {} pairs in 1.0 s.", s.loaded.corpus.len());
            match &note {
                None => assert_eq!(said, expected),
                Some(n) => assert_eq!(said, format!("{expected} {n}")),
            }
            assert_eq!(s.mt.corpus.as_ref().map(|c| c.hyps.len()), Some(s.loaded.corpus.len()));
        }
    }

    #[test]
    fn an_uploaded_translation_model_goes_to_the_worker_as_a_file_and_is_sent_again_after_a_restart() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Load(LoadAction::MtFilePicked { name: "big.tlmt".into(), file: FileHandle(7) }));
        let [Effect::PostFile(Request::LoadMtFile { job, name }, FileHandle(7))] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!((s.mt.loading, name.as_str()), (Some(*job), "big.tlmt"));
        answer(&mut s, Response::MtReady { job: *job, model: *job, summary: "MS".into(), json: None }, 1.0);
        let model = *job;
        let effects = s.apply(Action::Translate(TranslateAction::TranslatePair(PairIndex::new(0))));
        let [Effect::Post(Request::Translate { model: m, nbest: 10, .. })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(*m, model);
        // A restarted worker holds no model: it is sent again, first.
        s.apply(Action::Job(JobAction::Cancel(None)));
        let effects = s.apply(Action::Translate(TranslateAction::TranslatePair(PairIndex::new(1))));
        assert!(
            matches!(&effects[..], [Effect::PostFile(Request::LoadMtFile { job, .. }, FileHandle(7)), Effect::Post(Request::Translate { model: m, .. })] if *job == model && *m == model),
            "{effects:?}"
        );
        assert!(
            matches!(&s.apply(Action::Translate(TranslateAction::Download))[..], [Effect::Download { body: DownloadBody::File(FileHandle(7)), name }] if name == "big.tlmt")
        );
        // A pasted tree goes to the worker as typed, which reads it there
        // (the page parses nothing): one that does not read is shown with it.
        s.apply(Action::Translate(TranslateAction::SetInput("(S (A a)".into())));
        let effects = s.apply(Action::Translate(TranslateAction::TranslatePasted));
        let [Effect::Post(Request::Translate { job, source, pasted: true, .. })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(source, "(S (A a)");
        let message = Tree::parse_one(source, "pasted tree").unwrap_err().to_string(); // the worker's answer
        answer(&mut s, Response::Failed { job: Some(*job), message }, 2.0);
        assert!(s.mt.input_error.as_deref().is_some_and(|e| e.starts_with("pasted tree:")), "{:?}", s.mt.input_error);
        assert!(s.mt.note.as_ref().is_none_or(|n| n.is_ok()), "{:?}", s.mt.note);
        // One that reads comes back with the tree the worker read, drawn with its translation.
        s.apply(Action::Translate(TranslateAction::SetInput("(S (A a))".into())));
        let effects = s.apply(Action::Translate(TranslateAction::TranslatePasted));
        let [Effect::Post(Request::Translate { job, source, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let tree = Tree::parse_one(source, "pasted tree").unwrap();
        let source = Some(load::WireTree::from(&tree));
        answer(&mut s, Response::Translated { job: *job, result: Box::new(view("a", 0.0)), source }, 3.0);
        let result = s.mt.result.as_ref().expect("a translation");
        assert_eq!((result.input.label.as_str(), &result.input.source), ("the pasted tree", &tree));
        assert_eq!(s.mt.input_error, None);
    }
}
