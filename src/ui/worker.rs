//! The Web Worker's side (runs in `src/bin/worker.rs`): trains and aligns
//! with the engine, exactly as the CLI's `train`, `align` and `baseline`
//! commands string the same functions together, and streams progress.
//!
//! The worker runs one request at a time, synchronously; the page cancels a
//! job by terminating the worker and starting a new one (a busy worker
//! cannot read a "stop" message). After aligning it keeps the model, the
//! lexicon and the word links (the session) to explain node pairs later.

use std::cell::RefCell;
use std::ops::ControlFlow;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::protocol::{LexiconFiles, NamedText, Request, Response, TranslationView};
use crate::align::baseline::{baseline_links, BaselineOptions};
use crate::align::explain::{align_corpus, explain};
use crate::align::greedy::Search;
use crate::align::lexical::LexicalModel;
use crate::align::lexical::{alignment_lexicon_options, lexicon_for_input, prepare, LexiconSource};
use crate::align::model::{self, AlignmentModel, Scorer, TrainOptions};
use crate::corpus::Corpus;
use crate::lexicon::{read_moses_lex, read_word_alignments_for, Lexicon, WordAlignment};
use crate::mt::lm::{read_arpa, NgramLm};
use crate::mt::model::{MtModel, MtSystem, SystemKind, TrainingInfo};
use crate::mt::ms::MS_FEATURE_NAMES;
use crate::mt::phrase::PHRASE_FEATURE_NAMES;
use crate::mt::phrase::{gold_subtree_links, ExtractMethod};
use crate::mt::train::{train_system, word_alignments_and_lexicon, MtProgress, MtTrainSettings};
use crate::tree::Tree;

/// What explaining needs from the last alignment.
struct Session {
    model: AlignmentModel,
    lexicon: Lexicon,
    corpus: Corpus,
    links: Vec<WordAlignment>,
    searches: Vec<Search>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// The translation model the page last trained or loaded, by its id.
    static MT: RefCell<Option<(u32, MtModel)>> = const { RefCell::new(None) };
}

/// Posts responses; progress at most every 100 ms per stage (plus the
/// first and the last report of each stage), so the page is not flooded.
struct Reporter {
    scope: DedicatedWorkerGlobalScope,
    job: u32,
    stage: String,
    last_ms: f64,
}

impl Reporter {
    fn post(&self, response: &Response) {
        if let Ok(text) = serde_json::to_string(response) {
            let _ = self.scope.post_message(&JsValue::from_str(&text));
        }
    }

    fn report(&mut self, stage: &str, done: u64, total: u64) {
        self.report_kkt(stage, done, total, None);
    }

    fn report_kkt(&mut self, stage: &str, done: u64, total: u64, kkt: Option<(f64, f64)>) {
        let now = js_sys::Date::now();
        let new_stage = stage != self.stage;
        if new_stage || now - self.last_ms >= 100.0 || (total > 0 && done >= total) {
            self.stage = stage.to_string();
            self.last_ms = now;
            self.post(&Response::Progress { job: self.job, stage: stage.to_string(), done, total, kkt });
        }
    }
}

/// Starts the worker: answers every message posted to it.
pub fn run() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let mut reporter = Reporter { scope: reply_scope.clone(), job: 0, stage: String::new(), last_ms: 0.0 };
        // A request, or `[request, file]` for a file the worker reads itself.
        let data = event.data();
        let (text, file) = match data.dyn_ref::<js_sys::Array>() {
            Some(parts) => (parts.get(0).as_string(), parts.get(1).dyn_into::<web_sys::File>().ok()),
            None => (data.as_string(), None),
        };
        let Some(text) = text else { return };
        match serde_json::from_str::<Request>(&text) {
            Ok(request) => handle(request, file, &mut reporter),
            Err(e) => reporter.post(&Response::Failed { job: 0, message: format!("unreadable request: {e}") }),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    Reporter { scope, job: 0, stage: String::new(), last_ms: 0.0 }.post(&Response::Ready);
}

/// Reads a posted file's bytes (a worker may read synchronously).
fn read_file(file: Option<web_sys::File>, name: &str) -> Result<Vec<u8>, String> {
    let file = file.ok_or_else(|| format!("{name}: the file did not reach the worker"))?;
    web_sys::FileReaderSync::new()
        .and_then(|r| r.read_as_array_buffer(&file))
        .map(|buffer| js_sys::Uint8Array::new(&buffer).to_vec())
        .map_err(|e| format!("{name}: cannot read the file: {e:?}"))
}

/// Reads a translation model, JSON or binary, and keeps it as model `job`.
fn load_mt(job: u32, name: &str, bytes: Result<Vec<u8>, String>, reporter: &mut Reporter) {
    let result = bytes.and_then(|bytes| MtModel::from_bytes(&bytes, name).map_err(|e| e.to_string()));
    match result {
        Ok(m) => {
            let summary = describe_mt(&m);
            MT.with(|held| *held.borrow_mut() = Some((job, m)));
            reporter.post(&Response::MtReady { job, model: job, summary, json: None });
        }
        Err(message) => reporter.post(&Response::Failed { job, message }),
    }
}

fn handle(request: Request, file: Option<web_sys::File>, reporter: &mut Reporter) {
    match request {
        Request::Train { job, corpus, options, lexicon } => {
            reporter.job = job;
            let result = corpus.parse().and_then(|corpus| {
                let model = train(reporter, &corpus, &options, &lexicon)?;
                let text = serde_json::to_string(&model).map_err(|e| e.to_string())?;
                reporter.post(&Response::Trained { job, model: text, summary: model.describe() });
                align(reporter, corpus, model, &lexicon)
            });
            if let Err(message) = result {
                reporter.post(&Response::Failed { job, message });
            }
        }
        Request::Align { job, corpus, model, lexicon } => {
            reporter.job = job;
            let result = corpus.parse().and_then(|corpus| {
                let model = AlignmentModel::from_json(&model, "the alignment model").map_err(|e| e.to_string())?;
                align(reporter, corpus, model, &lexicon)
            });
            if let Err(message) = result {
                reporter.post(&Response::Failed { job, message });
            }
        }
        Request::Explain { pair, source, target } => {
            let result = SESSION.with(|session| {
                let session = session.borrow();
                let s = session.as_ref().ok_or_else(|| {
                    "the worker holds no alignment (it was restarted when a job was cancelled): align again to explain links"
                        .to_string()
                })?;
                let (Some(p), Some(links), Some(search)) =
                    (s.corpus.pairs.get(pair), s.links.get(pair), s.searches.get(pair))
                else {
                    return Err(format!("pair {} is not in the last alignment", pair + 1));
                };
                let scorer = Scorer::new(&s.model, &s.lexicon).map_err(|e| e.to_string())?;
                explain(&s.model, &scorer, &s.lexicon, p, links, search, source, target)
                    .ok_or_else(|| format!("node pair {source}-{target} is outside the trees of pair {}", pair + 1))
            });
            reporter.post(&Response::Explained { pair, source, target, result });
        }
        Request::TrainMt { job, corpus, system, extract, lm } => {
            reporter.job = job;
            let result = corpus.parse().and_then(|corpus| {
                let lm = lm.map(|f| read_arpa(&f.text, &f.name).map_err(|e| e.to_string())).transpose()?;
                let model = train_mt(reporter, &corpus, system, extract, lm)?;
                let summary = describe_mt(&model);
                let json = model.to_json();
                MT.with(|m| *m.borrow_mut() = Some((job, model)));
                reporter.post(&Response::MtReady { job, model: job, summary, json: Some(json) });
                Ok(())
            });
            if let Err(message) = result {
                reporter.post(&Response::Failed { job, message });
            }
        }
        Request::LoadMt { job, model } => load_mt(job, &model.name, Ok(model.text.into_bytes()), reporter),
        Request::LoadMtFile { job, name } => load_mt(job, &name, read_file(file, &name), reporter),
        Request::TranslateAll { job, model, sources } => {
            reporter.job = job;
            let started = js_sys::Date::now();
            let result = MT.with(|held| {
                let held = held.borrow();
                let Some((_, m)) = held.as_ref().filter(|(id, _)| *id == model) else {
                    return Ok(None);
                };
                let n = sources.len() as u64;
                sources
                    .iter()
                    .enumerate()
                    .map(|(k, s)| {
                        reporter.report("translating", k as u64, n);
                        let tree = Tree::parse_one(s, &format!("source tree {}", k + 1)).map_err(|e| e.to_string())?;
                        Ok(m.system.translate(&tree).words)
                    })
                    .collect::<Result<Vec<_>, String>>()
                    .map(Some)
            });
            match result {
                Ok(Some(hyps)) => {
                    let seconds = (js_sys::Date::now() - started) / 1000.0;
                    reporter.post(&Response::TranslatedAll { job, hyps, seconds });
                }
                Ok(None) => reporter.post(&Response::MtMissing { job }),
                Err(message) => reporter.post(&Response::Failed { job, message }),
            }
        }
        Request::Translate { job, model, source, nbest } => {
            let result = MT.with(|held| match held.borrow().as_ref() {
                Some((id, m)) if *id == model => Some(translate(m, &source, nbest)),
                _ => None,
            });
            match result {
                Some(Ok(view)) => reporter.post(&Response::Translated { job, result: Box::new(view) }),
                Some(Err(message)) => reporter.post(&Response::Failed { job, message }),
                None => reporter.post(&Response::MtMissing { job }),
            }
        }
    }
}

/// `treelink mt-train --train CORPUS --system S --extract M` with no dev set
/// (untuned default weights); DirC / EWoS use the corpus's gold sub-tree links.
fn train_mt(
    reporter: &mut Reporter,
    corpus: &Corpus,
    system: SystemKind,
    extract: ExtractMethod,
    lm: Option<NgramLm>,
) -> Result<MtModel, String> {
    let started = js_sys::Date::now();
    let subtree = (extract != ExtractMethod::Word).then(|| gold_subtree_links(corpus, true));
    if subtree.as_ref().is_some_and(|s| s.iter().all(Vec::is_empty)) {
        return Err(format!("{extract} extraction needs sub-tree links: the loaded pairs have no gold links"));
    }
    let mut progress = |p: MtProgress<'_>| {
        if let MtProgress::Stage { stage, done, total } = p {
            reporter.report(stage, done, total);
        }
    };
    let (mut alignments, lexicon) = word_alignments_and_lexicon(&[corpus], &mut progress);
    let alignments = alignments.swap_remove(0);
    let settings = MtTrainSettings { tune_iterations: 0, lm, lexicon: Some(lexicon), ..MtTrainSettings::default() };
    let (system_trained, _) =
        train_system(system, extract, corpus, &alignments, subtree.as_deref(), None, &settings, &mut progress)
            .map_err(|e| format!("training failed: {e}"))?;
    Ok(MtModel {
        training: TrainingInfo {
            train: "the pairs loaded in the page".into(),
            dev: None,
            extract: Some(extract),
            subtree_align: subtree.is_some().then(|| "gold".to_string()),
            pairs: corpus.len(),
            dev_bleu: None,
            seconds: (js_sys::Date::now() - started) / 1000.0,
        },
        system: system_trained,
    })
}

/// A one-line description of a translation model.
fn describe_mt(model: &MtModel) -> String {
    let t = &model.training;
    let extract = t.extract.map_or(String::new(), |e| format!(", {e} extraction"));
    let tables = match &model.system {
        MtSystem::Phrase(p) => format!("{} phrase pairs", p.table.len()),
        MtSystem::Ms(m) => format!(
            "{} phrase pairs, {} RM pairs ({} source RMs)",
            m.table.len(),
            m.rm_table.len(),
            m.rm_table.source_rms()
        ),
    };
    let weights =
        t.dev_bleu.map_or("untuned default weights".to_string(), |b| format!("weights tuned to dev BLEU {b:.2}"));
    format!("{} system{extract}: {tables}; trained on {} pairs; {weights}", model.system.kind().name(), t.pairs)
}

/// `treelink translate` of one tree, with the n-best list and the derivation.
fn translate(model: &MtModel, source: &str, nbest: usize) -> Result<TranslationView, String> {
    let tree = Tree::parse_one(source, "source tree").map_err(|e| e.to_string())?;
    let started = js_sys::Date::now();
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let view = match &model.system {
        MtSystem::Phrase(p) => {
            let mut options = p.config.decode.clone();
            options.beam.nbest = nbest.max(1);
            options.distinct_nbest = true;
            let t = p.translate_with(tree.words(), &p.weights, &options);
            TranslationView {
                system: SystemKind::Phrase,
                words: t.words,
                score: t.score,
                features: t.features,
                feature_names: names(&PHRASE_FEATURE_NAMES),
                weights: p.weights.clone(),
                steps: Vec::new(),
                phrases: t.derivation,
                nbest: t.nbest,
                seconds: 0.0,
            }
        }
        MtSystem::Ms(m) => {
            let mut options = m.config.decode.clone();
            options.beam.nbest = nbest.max(1);
            let t = m.translate_with(&tree, &m.weights, &options);
            TranslationView {
                system: SystemKind::Ms,
                words: t.words,
                score: t.score,
                features: t.features,
                feature_names: names(&MS_FEATURE_NAMES),
                weights: m.weights.clone(),
                steps: t.derivation,
                phrases: Vec::new(),
                nbest: t.nbest,
                seconds: 0.0,
            }
        }
    };
    Ok(TranslationView { seconds: (js_sys::Date::now() - started) / 1000.0, ..view })
}

fn word_links(files: &LexiconFiles, corpus: &Corpus) -> Result<Option<Vec<WordAlignment>>, String> {
    let lengths: Vec<(usize, usize)> =
        corpus.pairs.iter().map(|p| (p.source.words().len(), p.target.words().len())).collect();
    files
        .word_links
        .as_ref()
        .map(|f| read_word_alignments_for(&f.text, &f.name, &lengths).map_err(|e| e.to_string()))
        .transpose()
}

/// The uploaded Moses tables as a lexicon, if both were given.
fn tables(files: &LexiconFiles) -> Result<Option<Lexicon>, String> {
    let read = |f: &NamedText| read_moses_lex(&f.text, &f.name).map_err(|e| e.to_string());
    match (&files.s2t, &files.t2s) {
        (Some(s2t), Some(t2s)) => Ok(Some(Lexicon::new(read(s2t)?, read(t2s)?))),
        _ => Ok(None),
    }
}

/// `treelink train --train CORPUS` with the page's options (no dev set).
fn train(
    reporter: &mut Reporter,
    corpus: &Corpus,
    options: &TrainOptions,
    files: &LexiconFiles,
) -> Result<AlignmentModel, String> {
    let links = word_links(files, corpus)?;
    // As the CLI: word links are used with given tables; otherwise the
    // in-engine lexicon is trained on the corpus's sentences.
    let source = match tables(files)? {
        Some(lexicon) => LexiconSource::Given { lexicon, links },
        None => LexiconSource::Train { extra: Vec::new(), options: alignment_lexicon_options() },
    };
    let setup = prepare(&[corpus], source, &mut |done, total| reporter.report("lexical model", done, total));
    model::train(corpus, None, &setup, options, &mut |p| {
        reporter.report_kkt(p.stage.name(), p.done, p.total, p.kkt);
        ControlFlow::Continue(())
    })
    .map_err(|e| format!("training failed: {e}"))
}

/// `treelink align --model MODEL --input CORPUS`, then
/// `treelink baseline --input CORPUS` (with the uploaded tables, if any).
fn align(reporter: &mut Reporter, corpus: Corpus, model: AlignmentModel, files: &LexiconFiles) -> Result<(), String> {
    let given = word_links(files, &corpus)?;
    let given_note = if given.is_some() { " with the uploaded word alignment" } else { "" };
    let (lexicon, links) = lexicon_for_input(&model.lexicon, &corpus, given, &mut |done, total| {
        reporter.report("lexical model for aligning", done, total)
    });
    let searches = {
        let scorer = Scorer::new(&model, &lexicon).map_err(|e| e.to_string())?;
        align_corpus(&scorer, &corpus, &links, &mut |done, total| {
            reporter.report("aligning", done as u64, total as u64)
        })
    };
    let (baseline_lexicon, baseline_note) = match tables(files)? {
        Some(lexicon) => (lexicon, "the uploaded Moses tables".to_string()),
        None => {
            let source = LexiconSource::Train { extra: Vec::new(), options: alignment_lexicon_options() };
            let setup = prepare(&[&corpus], source, &mut |done, total| {
                reporter.report("lexical model for the baseline", done, total)
            });
            (setup.lexicon, format!("the engine's lexicon trained on the {} pairs", corpus.len()))
        }
    };
    let n = corpus.len() as u64;
    let baseline = corpus
        .pairs
        .iter()
        .enumerate()
        .map(|(k, pair)| {
            reporter.report("baseline (Tinsley et al.)", k as u64 + 1, n);
            baseline_links(&baseline_lexicon, pair, &BaselineOptions::default())
                .into_iter()
                .map(|l| (l.source, l.target))
                .collect()
        })
        .collect();
    let model_note = match &model.lexicon {
        LexicalModel::Tables(_) => "the model's Moses tables".to_string(),
        LexicalModel::InEngine { bitext, .. } => format!(
            "the model's in-engine lexicon re-trained on its {} sentence pairs and the {} pairs aligned",
            bitext.len(),
            corpus.len()
        ),
    };
    let lexicon_note = format!("Lexicon of the model: {model_note}{given_note}; of the baseline: {baseline_note}.");
    reporter.post(&Response::Aligned {
        job: reporter.job,
        searches: searches.clone(),
        baseline,
        lexicon: lexicon_note,
    });
    SESSION.with(|s| *s.borrow_mut() = Some(Session { model, lexicon, corpus, links, searches }));
    Ok(())
}
