//! The Web Workers' side: the job worker (`src/bin/worker.rs`, [`run`]) reads
//! each request, runs the pieces of a pooled job (train, align: `ui::pool`,
//! whose [`Executor`] keeps its pairs' alignment to explain node pairs) or
//! calls the `app` workflow the CLI's command calls (translate, train a
//! translation system), and posts its progress and its answer.
//!
//! The worker runs one request at a time, synchronously; the page cancels a
//! job by terminating the worker and starting a new one (a busy worker
//! cannot read a "stop" message).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::load;
use super::pool::Executor;
use super::protocol::{self, JobId, Request, Response, TranslationView};
use crate::app::translation;
use crate::limits::Limits;
use crate::mt::lm::read_arpa;
use crate::mt::model::TranslationModel;
use crate::progress::{Flow, Observer, Progress};
use crate::tree::Tree;

thread_local! {
    /// What this worker keeps of the pooled job it takes part in (`ui::pool`).
    static PIECES: RefCell<Executor> = RefCell::new(Executor::default());
    /// The file worker's texts kept by id (`Request::KeepText`).
    static TEXTS: RefCell<std::collections::BTreeMap<u32, std::rc::Rc<str>>> = RefCell::default();
    /// The translation model the page last trained or loaded, by its id.
    static MT: RefCell<Option<(JobId, TranslationModel)>> = const { RefCell::new(None) };
}

/// Posts responses; progress at most every 100 ms per stage (plus the
/// first and the last report of each stage), so the page is not flooded.
struct Reporter {
    scope: DedicatedWorkerGlobalScope,
    /// The job being run (progress is posted for it).
    job: Option<JobId>,
    stage: String,
    last_ms: f64,
}

/// Posts `response` with `beside` as its second part (`[response, beside]`),
/// which the page relays unread.
fn post_with(scope: &DedicatedWorkerGlobalScope, response: &Response, beside: &JsValue) {
    if let Ok(text) = serde_json::to_string(response) {
        let _ = scope.post_message(&js_sys::Array::of2(&JsValue::from_str(&text), beside));
    }
}

impl Reporter {
    /// Posts `response` to the page.
    fn post(&self, response: &Response) {
        if let Ok(text) = serde_json::to_string(response) {
            let _ = self.scope.post_message(&JsValue::from_str(&text));
        }
    }

    fn report(&mut self, stage: &str, done: u64, total: u64, gap: Option<(f64, f64)>) {
        let now = js_sys::Date::now();
        let new_stage = stage != self.stage;
        if new_stage || now - self.last_ms >= 100.0 || (total > 0 && done >= total) {
            self.stage = stage.to_string();
            self.last_ms = now;
            if let Some(job) = self.job {
                self.post(&Response::Progress { job, stage: stage.to_string(), done, total, gap });
            }
        }
    }
}

/// The engine's long steps report to the page (throttled); the page stops a
/// job by terminating the worker, so a step is never asked to stop here.
impl Observer for Reporter {
    fn progress(&mut self, p: Progress) -> Flow {
        self.report(p.stage, p.done, p.total, p.gap);
        Flow::Continue(())
    }
}

/// Starts the page's worker (`src/bin/worker.rs`) in the role its name
/// gives (`ui::jobs::FILE_WORKER_NAME`: checking files; any other: jobs).
/// One binary for both, so the browser fetches and compiles one.
pub fn run() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if scope.name() == super::jobs::FILE_WORKER_NAME {
        run_files();
    } else {
        serve(handle);
    }
}

/// The file worker: checks the user's files ([`Request::Load`]) and
/// answers nothing else, so a file is checked while a job runs.
fn run_files() {
    serve(|request, beside, reporter| match request {
        Request::KeepText { id } => {
            let text: Option<std::rc::Rc<str>> = beside.and_then(|b| b.as_string()).map(Into::into);
            if let Some(text) = text {
                TEXTS.with(|t| t.borrow_mut().insert(id, text));
            }
        }
        Request::Load { job, mut request } => {
            // Texts kept from earlier messages: those of this check stay kept, the others go.
            let kept = TEXTS.with(|t| {
                let mut texts = t.borrow_mut();
                let mut used = std::collections::BTreeMap::new();
                let files = request.files.iter_mut().chain(request.retry.iter_mut()).flat_map(|(_, f)| f.iter_mut());
                for f in files {
                    if let Some(id) = protocol::kept_text_id(&f.text) {
                        let text = texts
                            .get(&id)
                            .cloned()
                            .ok_or_else(|| format!("{}: the page's text of it was lost", f.name))?;
                        f.text = text.clone();
                        used.insert(id, text);
                    }
                }
                *texts = used;
                Ok::<_, String>(())
            });
            match kept {
                Ok(()) => check_files(job, &request, reporter),
                Err(message) => reporter.post(&Response::Failed { job: Some(job), message }),
            }
        }
        _ => reporter.post(&Response::Failed { job: None, message: "the file worker only checks files".into() }),
    });
}

/// Answers every message posted to the worker with `handle`, given what
/// came beside the request (a file, or an artifact's text).
fn serve(handle: fn(Request, Option<JsValue>, &mut Reporter)) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let mut reporter = Reporter { scope: reply_scope.clone(), job: None, stage: String::new(), last_ms: 0.0 };
        // A request, or `[request, beside]`: a file the worker reads itself,
        // or the text of what another job worker made (`ui::pool`).
        let data = event.data();
        let (text, beside) = match data.dyn_ref::<js_sys::Array>() {
            Some(parts) => (parts.get(0).as_string(), Some(parts.get(1))),
            None => (data.as_string(), None),
        };
        let Some(text) = text else { return };
        match serde_json::from_str::<Request>(&text) {
            Ok(request) => handle(request, beside, &mut reporter),
            Err(e) => reporter.post(&Response::Failed { job: None, message: format!("unreadable request: {e}") }),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    Reporter { scope, job: None, stage: String::new(), last_ms: 0.0 }.post(&Response::Ready);
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
fn load_mt(job: JobId, name: &str, bytes: Result<Vec<u8>, String>, reporter: &mut Reporter) {
    let result = bytes.and_then(|bytes| TranslationModel::from_bytes(&bytes, name).map_err(|e| e.to_string()));
    match result {
        Ok(m) => {
            let summary = m.describe();
            MT.with(|held| *held.borrow_mut() = Some((job, m)));
            reporter.post(&Response::MtReady { job, model: job, summary, json: None });
        }
        Err(message) => reporter.post(&Response::Failed { job: Some(job), message }),
    }
}

/// Checks the user's files and answers with the corpus they make in parts,
/// each a short task on the page, then what was found.
fn check_files(job: JobId, request: &load::LoadRequest, reporter: &mut Reporter) {
    let checked = load::check(request);
    for pairs in checked.parts() {
        reporter.post(&Response::CorpusPart { job, pairs });
    }
    reporter.post(&Response::Loaded { job, answer: checked.answer });
}

fn handle(request: Request, beside: Option<JsValue>, reporter: &mut Reporter) {
    let file = || beside.clone().and_then(|b| b.dyn_into::<web_sys::File>().ok());
    match request {
        Request::Piece { job, piece, task } => {
            if piece.is_some() {
                reporter.job = Some(job);
            }
            let text = beside.and_then(|b| b.as_string());
            let result = MT.with(|mt| {
                let mt = mt.borrow();
                PIECES.with(|p| p.borrow_mut().run(job, task, text, mt.as_ref(), reporter))
            });
            match result {
                Ok((output, Some(made))) => {
                    let response = Response::PieceDone { job, piece, result: Ok(output) };
                    post_with(&reporter.scope, &response, &JsValue::from_str(&made));
                }
                Ok((output, None)) => reporter.post(&Response::PieceDone { job, piece, result: Ok(output) }),
                Err(message) => reporter.post(&Response::PieceDone { job, piece, result: Err(message) }),
            }
        }
        Request::Explain { pair, source, target } => {
            let result = PIECES.with(|p| p.borrow().explain(pair, (source, target))).unwrap_or_else(|| {
                Err("the worker holds no alignment (it was restarted when a job was cancelled): align again to explain links"
                    .to_string())
            });
            reporter.post(&Response::Explained { pair, source, target, result });
        }
        Request::TrainMt { job, corpus, dev, system, pinned, lm } => {
            reporter.job = Some(job);
            let result = corpus.parse().and_then(|corpus| {
                let lm = lm.map(|f| read_arpa(&f.text, &f.name).map_err(|e| e.to_string())).transpose()?;
                let started = js_sys::Date::now();
                let clock = move || (js_sys::Date::now() - started) / 1000.0;
                let mut model = translation::train_on_pairs(&corpus, dev, system, pinned, lm, &clock, reporter)
                    .map_err(|e| e.to_string())?;
                model.training.seconds = (js_sys::Date::now() - started) / 1000.0;
                let summary = model.describe();
                let json = model.to_json();
                MT.with(|m| *m.borrow_mut() = Some((job, model)));
                reporter.post(&Response::MtReady { job, model: job, summary, json: Some(json) });
                Ok(())
            });
            if let Err(message) = result {
                reporter.post(&Response::Failed { job: Some(job), message });
            }
        }
        // The file worker's (`run_files`).
        Request::KeepText { .. } => {}
        Request::Load { job, .. } => {
            reporter.post(&Response::Failed { job: Some(job), message: "the job worker does not check files".into() })
        }
        // The pool's (`Pool::request` cuts them into pieces).
        Request::Train { job, .. } | Request::Align { job, .. } | Request::Update { job, .. } => {
            reporter.post(&Response::Failed { job: Some(job), message: "the pool cuts this job into pieces".into() })
        }
        Request::LoadMt { job, model } => load_mt(job, &model.name, Ok(model.text.into_bytes()), reporter),
        Request::LoadMtFile { job, name } => load_mt(job, &name, read_file(file(), &name), reporter),
        Request::TranslateAll { job, model, sources } => {
            reporter.job = Some(job);
            let started = js_sys::Date::now();
            let trees: Result<Vec<Tree>, String> =
                sources.iter().enumerate().map(|(k, s)| read_source(s, &format!("source tree {}", k + 1))).collect();
            let result = MT.with(|held| {
                let held = held.borrow();
                let Some((_, m)) = held.as_ref().filter(|(id, _)| *id == model) else { return Ok(None) };
                let trees = trees?;
                let note = crate::ui::pool::task::fit_note(translation::fit_of_part(m, &trees, 0));
                let hyps = translation::translate_all(m, &trees, reporter).map_err(|e| e.to_string())?;
                Ok(Some((hyps, note)))
            });
            match result {
                Ok(Some((hyps, note))) => {
                    let seconds = (js_sys::Date::now() - started) / 1000.0;
                    reporter.post(&Response::TranslatedAll { job, hyps, seconds, note });
                }
                Ok(None) => reporter.post(&Response::MtMissing { job }),
                Err(message) => reporter.post(&Response::Failed { job: Some(job), message }),
            }
        }
        Request::Translate { job, model, source, nbest, pasted } => {
            let name = if pasted { "pasted tree" } else { "source tree" };
            let result = MT.with(|held| match held.borrow().as_ref() {
                Some((id, m)) if *id == model => Some(translate(m, &source, name, nbest)),
                _ => None,
            });
            match result {
                Some(Ok((view, tree))) => {
                    let source = pasted.then(|| load::WireTree::from(&tree));
                    reporter.post(&Response::Translated { job, result: Box::new(view), source })
                }
                Some(Err(message)) => reporter.post(&Response::Failed { job: Some(job), message }),
                None => reporter.post(&Response::MtMissing { job }),
            }
        }
    }
}

/// `treelink translate` of one tree, with the n-best list and the derivation.
/// The bracketed tree `source` (named `name` in its errors) read and translated.
fn translate(
    model: &TranslationModel,
    source: &str,
    name: &str,
    nbest: usize,
) -> Result<(TranslationView, Tree), String> {
    let tree = read_source(source, name)?;
    let started = js_sys::Date::now();
    let view = translation::translate(model, &tree, nbest);
    Ok((TranslationView { seconds: (js_sys::Date::now() - started) / 1000.0, ..view }, tree))
}

/// The one tree of `text` within the default limits, as `treelink
/// translate` reads its input, in the page's words.
fn read_source(text: &str, name: &str) -> Result<Tree, String> {
    translation::read_source(text, name, &Limits::default()).map_err(|e| e.in_page())
}
