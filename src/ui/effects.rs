//! What the reducer's effects do in the browser, carried out in one place
//! ([`carry_out`], the runner the root gives the store): post to the two
//! workers (and put together their answers that come in parts), read a
//! file the user gave, fetch the exercise the address names, offer a
//! download (PNG through a canvas, the derivation as the browser
//! serialises it), change the address, forget the kept session. Nothing
//! here decides anything: the reducer did.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement};
use yew::Callback;

use super::ids::JobId;
use super::pool::{self, Artifact, Blob, Command, Output, Pool};
use super::state::{is_mt_model, Action, DownloadBody, Effect, FileHandle, LoadAction, ProgressAction, Slot};
use super::store::Dispatch;
use super::{file_handles, jobs, persist, protocol};
use crate::align::greedy::Search;
use crate::app::files::SNIFF_BYTES;
use crate::app::interchange;
use crate::corpus::{Corpus, TreePair};
use crate::io::text::decode_text;
use crate::svg::DIAGRAM_CSS;
use crate::tiger::PairIds;
use crate::tree::NodeId;

/// Carries out one effect of the reducer.
pub fn carry_out(effect: Effect, workers: &Workers, load: Dispatch<LoadAction>) {
    match effect {
        Effect::Load(job, request) if request.sample => load_sample(job, load),
        Effect::Load(job, request) => workers.files.load(job, request),
        Effect::Post(request) => workers.jobs.request(request, None),
        Effect::PostFile(request, handle) => {
            if let Some(file) = file_handles::get(handle) {
                workers.jobs.request(request, Some(file))
            }
        }
        Effect::RestartJobWorker => workers.jobs.restart(),
        Effect::Download { name, body } => download(name, body),
        Effect::ReadFile { file, name, slot, sniff_mt } => read_file(file, name, slot, sniff_mt, load),
        Effect::FetchExercise(url) => fetch_exercise(url, load),
        Effect::SetLocation(hash) => persist::set_location(&hash),
        Effect::ForgetSession => persist::forget(),
        Effect::Reload => {
            if let Some(window) = web_sys::window() {
                let _ = window.location().reload();
            }
        }
    }
}

fn download(name: String, body: DownloadBody) {
    match body {
        DownloadBody::Text { text, mime } => download_text(&name, &text, mime),
        DownloadBody::File(handle) => {
            if let Some(file) = file_handles::get(handle) {
                offer(gloo::file::Blob::from(web_sys::Blob::from(file)), &name)
            }
        }
        DownloadBody::Png { svg, width, height, scale } => download_png(name, &svg, width, height, scale),
        DownloadBody::Element { id, css } => {
            if let Some(svg) = element_svg(id, css) {
                download_text(&name, &svg, "image/svg+xml");
            }
        }
    }
}

/// The SVG element `id` as a standalone SVG file: the DOM's own
/// serialisation (so labels stay escaped text), with its namespace, the
/// diagram's stylesheet and `css`.
fn element_svg(id: &str, css: &str) -> Option<String> {
    let svg = web_sys::window()?.document()?.get_element_by_id(id)?.outer_html();
    let rest = svg.strip_prefix("<svg")?;
    let open_end = rest.find('>')?;
    Some(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"{}><style>{DIAGRAM_CSS}{css}</style><rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>{}",
        &rest[..open_end],
        &rest[open_end + 1..]
    ))
}

/// Reads a file the user gave as text and hands it to the reducer, for
/// `slot` (a picker's) or, dropped, for the slot its name says; with
/// `sniff_mt`, a `.json` file whose head says `treelink-mt` goes to the
/// job worker unread instead (it can be 90 MB).
fn read_file(handle: FileHandle, name: String, slot: Option<Slot>, sniff_mt: bool, load: Dispatch<LoadAction>) {
    let Some(raw) = file_handles::get(handle) else { return };
    yew::platform::spawn_local(async move {
        let file = gloo::file::File::from(raw);
        if sniff_mt {
            let head = file.slice(0, (SNIFF_BYTES as u64).min(file.size()));
            if gloo::file::futures::read_as_text(&head).await.is_ok_and(|h| is_mt_model(&h)) {
                load.emit(LoadAction::MtFilePicked { name, file: handle });
                return;
            }
        }
        // Read: the page keeps its text, not the file.
        file_handles::release(handle);
        // Decoded by the browser off this thread; only text with U+FFFD in
        // it (which may stand for bytes that are not UTF-8, or a gzipped
        // file) is read again as bytes, as the CLI reads them
        // (`decode_text`): gzip inflated, an XML declaration's encoding
        // honoured, and text that is not UTF-8 given the place of its first
        // bad byte; control bytes (a binary file) are refused either way.
        // The browser looks for U+FFFD in its own string, and the text
        // comes into the page's memory in a task of its own: with a 50 MB
        // file each step is a tenth of a second.
        let decoded = match wasm_bindgen_futures::JsFuture::from(AsRef::<web_sys::Blob>::as_ref(&file).text()).await {
            Ok(text) => match text.dyn_into::<js_sys::JsString>() {
                Ok(text) if !text.includes("\u{FFFD}", 0) => {
                    gloo::timers::future::TimeoutFuture::new(0).await;
                    text.as_string()
                }
                _ => None,
            },
            Err(_) => None,
        };
        if decoded.is_some() {
            gloo::timers::future::TimeoutFuture::new(0).await;
        }
        let action = match decoded {
            // The browser's text is kept unless the file says it is in another encoding.
            Some(text) => match decode_text(text.as_bytes(), &name).map(|t| match t {
                Cow::Borrowed(_) => None,
                Cow::Owned(other) => Some(other),
            }) {
                Ok(other) => {
                    // Into the state's shared text, in a task of its own (a copy of it).
                    gloo::timers::future::TimeoutFuture::new(0).await;
                    LoadAction::FileRead { name, text: other.unwrap_or(text).into(), slot }
                }
                Err(e) => LoadAction::FileFailed { error: e.to_string(), name, slot },
            },
            None => match gloo::file::futures::read_as_bytes(&file).await {
                Ok(bytes) => {
                    // A Dublin file cannot say its encoding: UTF-8, else Latin-1 (`decode_dublin`).
                    let text = match slot.or_else(|| Slot::of_file(&name)) == Some(Slot::Dublin) {
                        true => interchange::decode_dublin(&bytes, &name).map(|(text, _)| text),
                        false => decode_text(&bytes, &name),
                    };
                    match text {
                        Ok(text) => LoadAction::FileRead { name, text: text.as_ref().into(), slot },
                        Err(e) => LoadAction::FileFailed { error: e.to_string(), name, slot },
                    }
                }
                Err(e) => LoadAction::FileFailed { error: format!("{name}: cannot read the file: {e}"), name, slot },
            },
        };
        // The reducer takes it in a task of its own: reading a large file
        // and checking it is one task, keeping it and sending it on another.
        gloo::timers::future::TimeoutFuture::new(0).await;
        load.emit(action);
    });
}

/// The built-in sample, read on the page's thread in a task of its own
/// (the file worker starts with the first file given).
fn load_sample(job: JobId, load: Dispatch<LoadAction>) {
    yew::platform::spawn_local(async move {
        gloo::timers::future::TimeoutFuture::new(0).await;
        let checked = crate::ui::load::sample_checked();
        load.emit(LoadAction::Loaded { job, answer: Box::new(checked.answer), corpus: checked.corpus });
    });
}

/// Fetches the exercise the page's address names (a path on the same
/// site) and hands it to the reducer as a file read for the exercise
/// input; a failure shows next to that input.
fn fetch_exercise(url: String, load: Dispatch<LoadAction>) {
    let Some(window) = web_sys::window() else { return };
    yew::platform::spawn_local(async move {
        let slot = Some(Slot::Exercise);
        let action = match fetch_text(&window, &url).await {
            Ok(text) => LoadAction::FileRead { name: url.clone(), text: text.into(), slot },
            Err(e) => LoadAction::FileFailed {
                name: url.clone(),
                error: format!("{url}: cannot open the exercise: {e}"),
                slot,
            },
        };
        load.emit(action);
    });
}

async fn fetch_text(window: &web_sys::Window, url: &str) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let shown = |e: JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(shown)?;
    let response: web_sys::Response = response.dyn_into().map_err(shown)?;
    if !response.ok() {
        return Err(format!("the site answered HTTP {} {}", response.status(), response.status_text()));
    }
    let text = JsFuture::from(response.text().map_err(shown)?).await.map_err(shown)?;
    text.as_string().ok_or_else(|| "the answer is not text".to_string())
}

/// The page's workers: its job workers as a pool (training, aligning,
/// translating; restarted to cancel), and one that reads the user's files,
/// so a file is checked while a job runs.
#[derive(Clone, PartialEq)]
pub struct Workers {
    jobs: PoolRunner,
    files: FileRunner,
}

impl Workers {
    /// Starts the file worker, and the job workers with the first job;
    /// the file worker's answers go to `load`, the job workers' to
    /// `dispatch` and their progress reports to `report`.
    pub fn start(load: Dispatch<LoadAction>, dispatch: Callback<Action>, report: Callback<ProgressAction>) -> Workers {
        let files = FileRunner::start(file_worker_answers(load));
        // Started by the first job: the page checks files without the training code.
        let jobs = PoolRunner::new(pool::size_for(hardware_concurrency()), job_worker_answers(dispatch, report));
        Workers { jobs, files }
    }
}

/// The file worker, and the texts it keeps (`protocol::Request::KeepText`):
/// a file's text crosses to it once, then each check of its group names
/// it, so no task of the page's converts or copies a large file twice.
#[derive(Clone)]
struct FileRunner(Rc<FileInner>);

struct FileInner {
    worker: jobs::Jobs,
    /// The texts the worker keeps: each as the page's state shares it, and its id.
    kept: RefCell<Vec<(std::rc::Weak<str>, u32)>>,
    next: std::cell::Cell<u32>,
}

impl PartialEq for FileRunner {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl FileRunner {
    fn start(answers: Callback<protocol::Response>) -> FileRunner {
        let runner = Rc::new_cyclic(|weak: &std::rc::Weak<FileInner>| {
            let weak = weak.clone();
            let respond = Callback::from(move |(response, _): jobs::Answer| {
                // A worker that died kept nothing; the next one is sent every text.
                if let (protocol::Response::Stopped { .. }, Some(inner)) = (&response, weak.upgrade()) {
                    inner.kept.borrow_mut().clear();
                }
                answers.emit(response)
            });
            FileInner {
                // Started by the first file given: a first visit fetches no worker.
                worker: jobs::Jobs::on_demand(jobs::FILE_WORKER_NAME, jobs::JOB_WORKER, respond),
                kept: RefCell::default(),
                next: std::cell::Cell::new(0),
            }
        });
        FileRunner(runner)
    }

    /// Sends a check: each text the worker does not keep yet beside a
    /// `KeepText` of its own, the others by their ids.
    fn load(&self, job: protocol::JobId, mut request: crate::ui::load::LoadRequest) {
        let mut kept = self.0.kept.borrow_mut();
        let mut now_kept = Vec::new();
        let files = request.files.iter_mut().chain(request.retry.iter_mut()).flat_map(|(_, f)| f.iter_mut());
        for f in files {
            let known = kept.iter().find(|(w, _)| std::ptr::eq(w.as_ptr(), Rc::as_ptr(&f.text))).map(|&(_, id)| id);
            let id = known.unwrap_or_else(|| {
                let id = self.0.next.get();
                self.0.next.set(id.wrapping_add(1));
                let request = protocol::Request::KeepText { id };
                self.0.worker.send_with(&request, &JsValue::from_str(&f.text));
                id
            });
            now_kept.push((Rc::downgrade(&f.text), id));
            f.text = protocol::kept_text(id).into();
        }
        // The worker keeps the texts of this check alone.
        *kept = now_kept;
        self.0.worker.send(&protocol::Request::Load { job, request });
    }
}

/// The browser's `navigator.hardwareConcurrency` (1 if it does not say).
fn hardware_concurrency() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    if cores.is_finite() && cores >= 1.0 {
        cores as usize
    } else {
        1
    }
}

/// The job workers as a pool (`ui::pool`): its logic, the workers it
/// posts to (started on demand), and the text of what one worker made for
/// the others (a model, a lexicon), relayed as it came, never read here.
#[derive(Clone)]
struct PoolRunner(Rc<PoolInner>);

struct PoolInner {
    pool: RefCell<Pool>,
    workers: RefCell<Vec<jobs::Jobs>>,
    blobs: RefCell<BTreeMap<(protocol::JobId, Artifact), JsValue>>,
    /// The job the running pieces are of (the artifacts kept are its).
    job: RefCell<Option<protocol::JobId>>,
    /// A worker died since the page's last request: the others' deaths
    /// (stopped with it, or dying of the same job) are not told again.
    dead: std::cell::Cell<bool>,
    answers: Callback<protocol::Response>,
}

impl PartialEq for PoolRunner {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl PoolRunner {
    fn new(size: usize, answers: Callback<protocol::Response>) -> PoolRunner {
        let runner = PoolRunner(Rc::new(PoolInner {
            pool: RefCell::new(Pool::new(size)),
            workers: RefCell::new(Vec::new()),
            blobs: RefCell::default(),
            job: RefCell::new(None),
            dead: std::cell::Cell::new(false),
            answers,
        }));
        let weak = Rc::downgrade(&runner.0);
        let workers = (0..size.max(1))
            .map(|w| {
                let weak = weak.clone();
                let respond = Callback::from(move |(response, beside): jobs::Answer| {
                    if let Some(inner) = weak.upgrade() {
                        PoolRunner(inner).answer(w, response, beside);
                    }
                });
                let name = if w == 0 { "jobs" } else { "jobs (helper)" };
                jobs::Jobs::on_demand(name, jobs::JOB_WORKER, respond)
            })
            .collect();
        *runner.0.workers.borrow_mut() = workers;
        runner
    }

    /// A request of the reducer (with the file it came with).
    fn request(&self, request: protocol::Request, file: Option<web_sys::File>) {
        self.0.dead.set(false);
        if let Some(job) = request_job(&request) {
            let mut current = self.0.job.borrow_mut();
            if *current != Some(job) {
                // A new pooled job: the last one's artifacts go.
                self.0.blobs.borrow_mut().clear();
                *current = Some(job);
            }
        }
        let commands = self.0.pool.borrow_mut().request(request, js_sys::Date::now());
        self.carry_out(commands, file.as_ref());
    }

    /// A job worker's answer (with what came beside it).
    fn answer(&self, worker: usize, response: protocol::Response, beside: Option<JsValue>) {
        use protocol::Response;
        if let (Response::PieceDone { job, result: Ok(output), .. }, Some(text)) = (&response, beside) {
            let made = match output {
                Output::Trained { .. } => Some(Artifact::Model),
                Output::Made { artifact, .. } => Some(*artifact),
                _ => None,
            };
            if let Some(a) = made {
                self.0.blobs.borrow_mut().insert((*job, a), text);
            }
        }
        if let Response::Stopped { .. } = response {
            // A worker died: its pieces are lost, so every worker starts afresh
            // when the page asks; the page hears of it once per death of the pool.
            if self.0.dead.replace(true) {
                return;
            }
            for w in self.0.workers.borrow().iter() {
                w.stop();
            }
            self.0.pool.borrow_mut().restarted();
            self.0.blobs.borrow_mut().clear();
            return self.0.answers.emit(response);
        }
        let commands = self.0.pool.borrow_mut().answer(worker, response, js_sys::Date::now());
        self.carry_out(commands, None);
    }

    fn carry_out(&self, commands: Vec<Command>, file: Option<&web_sys::File>) {
        let job = *self.0.job.borrow();
        for command in commands {
            match command {
                Command::Post { worker, request, blob } => {
                    let workers = self.0.workers.borrow();
                    let Some(w) = workers.get(worker) else { continue };
                    match blob {
                        Blob::None => w.send(&request),
                        Blob::File => {
                            if let Some(file) = file {
                                w.send_with(&request, file)
                            }
                        }
                        Blob::Artifact(a) => {
                            let blobs = self.0.blobs.borrow();
                            if let Some(text) = job.and_then(|j| blobs.get(&(j, a))) {
                                w.send_with(&request, text)
                            }
                        }
                    }
                }
                Command::Store { artifact, text } => {
                    if let Some(j) = job {
                        self.0.blobs.borrow_mut().insert((j, artifact), JsValue::from_str(&text));
                    }
                }
                Command::Answer(response) => self.0.answers.emit(response),
            }
        }
    }

    /// Stops every job worker and starts the main one afresh (a cancel).
    fn restart(&self) {
        self.0.dead.set(false);
        let workers = self.0.workers.borrow();
        for (k, w) in workers.iter().enumerate() {
            if k == 0 {
                w.restart();
            } else {
                w.stop();
            }
        }
        self.0.pool.borrow_mut().restarted();
        self.0.blobs.borrow_mut().clear();
    }
}

/// The job a request is of, if it is a pooled job.
fn request_job(request: &protocol::Request) -> Option<protocol::JobId> {
    use protocol::Request;
    match request {
        Request::Train { job, .. } | Request::Align { job, .. } | Request::TranslateAll { job, .. } => Some(*job),
        _ => None,
    }
}

/// The pairs received of a load's corpus, or why one did not decode.
struct Received {
    job: Option<protocol::JobId>,
    pairs: Result<Vec<(TreePair, Option<PairIds>)>, String>,
}

impl Default for Received {
    fn default() -> Self {
        Received { job: None, pairs: Ok(Vec::new()) }
    }
}

/// The file worker's answers: a corpus arrives in parts (each decoded as
/// it comes, a short task) and is handed to the reducer whole, with the answer.
fn file_worker_answers(load: Dispatch<LoadAction>) -> Callback<protocol::Response> {
    use protocol::Response;
    let parts: Rc<RefCell<Received>> = Rc::default();
    Callback::from(move |response| match response {
        Response::CorpusPart { job, pairs } => {
            let mut parts = parts.borrow_mut();
            if parts.job != Some(job) {
                *parts = Received { job: Some(job), ..Received::default() };
            }
            let decoded: Result<Vec<_>, String> = pairs.into_iter().map(|p| p.decode()).collect();
            match (&mut parts.pairs, decoded) {
                (Ok(received), Ok(decoded)) => received.extend(decoded),
                (Ok(_), Err(e)) => parts.pairs = Err(e),
                (Err(_), _) => {}
            }
        }
        Response::Loaded { job, answer } => {
            let received = std::mem::take(&mut *parts.borrow_mut());
            let received = if received.job == Some(job) { received.pairs } else { Ok(Vec::new()) };
            match received {
                Ok(received) if answer.corpus.as_ref().is_none_or(|(_, n)| *n == received.len()) => {
                    let corpus = answer.corpus.is_some().then(|| {
                        let (pairs, ids): (Vec<TreePair>, Vec<Option<PairIds>>) = received.into_iter().unzip();
                        (Corpus { pairs }, ids.into_iter().collect::<Option<Vec<_>>>())
                    });
                    load.emit(LoadAction::Loaded { job, answer: Box::new(answer), corpus });
                }
                Ok(received) => load.emit(LoadAction::LoadFailed(format!(
                    "the file worker sent {} of {} pairs",
                    received.len(),
                    answer.corpus.map_or(0, |(_, n)| n)
                ))),
                Err(e) => load.emit(LoadAction::LoadFailed(format!("the file worker sent a broken pair: {e}"))),
            }
        }
        Response::Failed { message, .. } | Response::Stopped { message } => load.emit(LoadAction::LoadFailed(message)),
        _ => {}
    })
}

/// The job worker's answers, to the reducer, and its progress reports to
/// the progress bars alone (`report`); an alignment's searches arrive in
/// parts (each read as it comes, a short task) and go to the reducer
/// whole, with [`protocol::Response::Aligned`].
fn job_worker_answers(dispatch: Callback<Action>, report: Callback<ProgressAction>) -> Callback<protocol::Response> {
    use protocol::Response;
    type Parts = (Option<protocol::JobId>, Vec<Search>, Vec<Vec<(NodeId, NodeId)>>, Vec<f64>);
    let parts: Rc<RefCell<Parts>> = Rc::default();
    Callback::from(move |response| {
        let response = match response {
            Response::Progress { job, stage, done, total, gap } => {
                let now = js_sys::Date::now();
                return report.emit(ProgressAction::Report { job, stage, done, total, gap, now });
            }
            Response::AlignedPart { job, searches, baseline, uncertainty } => {
                let mut parts = parts.borrow_mut();
                if parts.0 != Some(job) {
                    *parts = (Some(job), Vec::new(), Vec::new(), Vec::new());
                }
                parts.1.extend(searches);
                parts.2.extend(baseline);
                parts.3.extend(uncertainty);
                return;
            }
            Response::Aligned { job, lexicon, first, link_search, .. } => {
                let (from, searches, baseline, uncertainty) = std::mem::take(&mut *parts.borrow_mut());
                // Parts of another job are none of this one's (the reducer refuses a count that does not fit).
                let (searches, baseline, uncertainty) =
                    if from == Some(job) { (searches, baseline, uncertainty) } else { Default::default() };
                Response::Aligned { job, searches, baseline, lexicon, first, uncertainty, link_search }
            }
            other => other,
        };
        dispatch.emit(Action::Worker { response, now: js_sys::Date::now() })
    })
}

thread_local! {
    /// Object URLs of recent downloads, kept alive until the browser has read them.
    static RECENT: RefCell<Vec<gloo::file::ObjectUrl>> = const { RefCell::new(Vec::new()) };
}

fn click_download(href: &str, name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = document.create_element("a").map(|e| e.unchecked_into::<HtmlAnchorElement>()) else { return };
    a.set_href(href);
    a.set_download(name);
    a.click();
}

/// Offers `text` as a file called `name`.
fn download_text(name: &str, text: &str, mime: &str) {
    offer(gloo::file::Blob::new_with_options(text, Some(mime)), name);
}

/// Offers `blob` (a text made here, or a file the user gave, e.g. a model, unread) as `name`.
fn offer(blob: gloo::file::Blob, name: &str) {
    let url = gloo::file::ObjectUrl::from(blob);
    click_download(&url, name);
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        r.push(url);
        let excess = r.len().saturating_sub(8);
        r.drain(..excess);
    });
}

/// Renders a standalone SVG document to PNG at `scale` and offers it as `name`.
fn download_png(name: String, svg: &str, width: f64, height: f64, scale: f64) {
    let Ok(img) = HtmlImageElement::new() else { return };
    let src = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(svg));
    let loaded = img.clone();
    let on_load = Closure::once_into_js(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        let Ok(canvas) = document.create_element("canvas").map(|e| e.unchecked_into::<HtmlCanvasElement>()) else {
            return;
        };
        canvas.set_width((width * scale).ceil() as u32);
        canvas.set_height((height * scale).ceil() as u32);
        let Some(ctx) =
            canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.scale(scale, scale);
        let _ = ctx.draw_image_with_html_image_element(&loaded, 0.0, 0.0);
        if let Ok(url) = canvas.to_data_url_with_type("image/png") {
            click_download(&url, &name);
        }
    });
    img.set_onload(Some(on_load.unchecked_ref()));
    img.set_src(&src);
}
