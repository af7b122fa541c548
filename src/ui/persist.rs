//! What the page keeps beyond the reducer: the session in IndexedDB
//! (restored on start, "start fresh" forgets it), the address
//! (`#pair=12&mode=teach`, one history entry per change, so back/forward
//! and shared links work) and the undo/redo keys. The state decides what the address says
//! ([`super::state::State::location`], `Effect::SetLocation`) and reads
//! it back (`SessionAction::OpenLocation`); this module only talks to the browser.
//!
//! Nothing is lost: every change to the state is written at once (one
//! transaction, the large part — files, models — only when it changed),
//! writes queue behind the one in flight and are started at once when the
//! page is hidden or closed (`pagehide`, `visibilitychange`); a write that
//! fails is reported to the state (`SessionAction::Kept`), which says so
//! at the top of the page with what to do; and two tabs never overwrite
//! each other's work silently: each write checks, in its transaction, that
//! the kept revision is still the one this tab read or last wrote, and
//! otherwise writes nothing and reports `KeepProblem::OtherTab`.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::state::{
    FileHandle, FilesKey, KeepProblem, MtSource, Session, SessionAction, SessionFiles, State, TeachAction,
};
use super::store::Dispatch;

/// Adds a history entry with the fragment `hash` (the page does not reload).
pub fn set_location(hash: &str) {
    let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
    let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
}

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Opens the address's pair and mode on back/forward (or an address
/// edited by hand; on start, [`use_kept_session`] opens it after the kept session).
#[hook]
pub fn use_location(session: Dispatch<SessionAction>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|window| {
            gloo::events::EventListener::new(&window, "popstate", move |_| {
                session.emit(SessionAction::OpenLocation(current_hash()))
            })
        });
        move || drop(listener)
    });
}

/// Ctrl+Z undoes the last change to the hand links, Ctrl+Shift+Z (or
/// Ctrl+Y) redoes it, anywhere but in a text field.
#[hook]
pub fn use_undo_keys(teach: Dispatch<TeachAction>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            let options = gloo::events::EventListenerOptions::enable_prevent_default();
            gloo::events::EventListener::new_with_options(&document, "keydown", options, move |e| {
                use wasm_bindgen::JsCast;
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                let in_field = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                if in_field || !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
                    return;
                }
                let action = match (e.key().to_lowercase().as_str(), e.shift_key()) {
                    ("z", false) => TeachAction::Undo,
                    ("z", true) | ("y", false) => TeachAction::Redo,
                    _ => return,
                };
                e.prevent_default();
                teach.emit(action);
            })
        });
        move || drop(listener)
    });
}

/// The page's work kept for the next visit, in IndexedDB (database
/// `treelink`, store `kept`): the session without its files
/// ([`State::session_light`]), its files and models' texts
/// ([`State::session_files`]), an uploaded translation model as the file
/// itself, and the revision of what is kept (one more per write).
mod kept {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::Promise;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{IdbDatabase, IdbObjectStore, IdbRequest, IdbTransactionMode};

    use crate::ui::state::{SavedFile, SessionFiles};

    const DB: &str = "treelink";
    const STORE: &str = "kept";
    pub const SESSION: &str = "session";
    /// The files as kept before their texts were kept apart (read, never written).
    pub const FILES: &str = "session-files";
    /// The session's files without their texts (JSON), and the texts, an
    /// array of `Blob`s of their UTF-8 bytes in the files' order: a Blob is
    /// made by copying bytes and stored without converting them, where a
    /// text in JSON or as a JavaScript string held the page's thread for a
    /// second per 100 MB.
    pub const FILES_INDEX: &str = "session-files-index";
    pub const TEXTS: &str = "session-texts";
    pub const MT_FILE: &str = "translation-model-file";
    pub const REVISION: &str = "revision";
    /// The tab that wrote the kept revision (a random number drawn per page).
    pub const WRITER: &str = "writer";

    thread_local! {
        /// This page's writer id (see [`WRITER`]).
        pub static TAB: f64 = js_sys::Math::random();
    }

    thread_local! {
        /// The open database, once opened.
        static OPEN: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
    }

    /// An error of the browser as a sentence (a `DOMException`'s name and message).
    pub fn said(e: &JsValue) -> String {
        if let Some(d) = e.dyn_ref::<web_sys::DomException>() {
            return format!("{} ({})", d.message(), d.name());
        }
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }

    /// The request's result, once it succeeds.
    async fn done(request: &IdbRequest) -> Result<JsValue, JsValue> {
        let promise = Promise::new(&mut |resolve, reject| {
            let req = request.clone();
            let ok = Closure::once_into_js(move |_: web_sys::Event| {
                let _ = resolve.call1(&JsValue::NULL, &req.result().unwrap_or(JsValue::UNDEFINED));
            });
            let req = request.clone();
            let failed = Closure::once_into_js(move |_: web_sys::Event| {
                let error =
                    req.error().ok().flatten().map_or(JsValue::from_str("IndexedDB request failed"), JsValue::from);
                let _ = reject.call1(&JsValue::NULL, &error);
            });
            request.set_onsuccess(Some(ok.unchecked_ref()));
            request.set_onerror(Some(failed.unchecked_ref()));
        });
        JsFuture::from(promise).await
    }

    pub async fn open() -> Result<IdbDatabase, JsValue> {
        if let Some(db) = OPEN.with(|o| o.borrow().clone()) {
            return Ok(db);
        }
        let factory = web_sys::window()
            .ok_or_else(|| JsValue::from_str("no window"))?
            .indexed_db()?
            .ok_or_else(|| JsValue::from_str("this browser offers no IndexedDB"))?;
        let request = factory.open_with_u32(DB, 1)?;
        let upgrade = Closure::once_into_js({
            let request = request.clone();
            move |_: web_sys::Event| {
                if let Ok(db) = request.result().and_then(|r| r.dyn_into::<IdbDatabase>()) {
                    let _ = db.create_object_store(STORE);
                }
            }
        });
        request.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
        let db = done(&request).await?.dyn_into::<IdbDatabase>()?;
        OPEN.with(|o| *o.borrow_mut() = Some(db.clone()));
        Ok(db)
    }

    /// What is kept, as [`read`] finds it.
    #[derive(Default)]
    pub struct Read {
        pub session: Option<String>,
        pub files: Option<SessionFiles>,
        pub mt_file: Option<JsValue>,
        /// 0 when nothing was kept.
        pub revision: u64,
        /// The tab that wrote it.
        pub writer: Option<f64>,
    }

    /// What is kept, read in one transaction.
    pub async fn read() -> Result<Read, JsValue> {
        let db = open().await?;
        let store = db.transaction_with_str(STORE)?.object_store(STORE)?;
        // Every request is made before the first is awaited, so the transaction holds them all.
        let requests =
            [SESSION, FILES, MT_FILE, REVISION, WRITER, FILES_INDEX, TEXTS].map(|k| store.get(&JsValue::from_str(k)));
        let [a, b, c, d, e, f, g] = requests;
        let (a, b, c, d, e, f, g) = (a?, b?, c?, d?, e?, f?, g?);
        let session = done(&a).await?.as_string();
        let old_files = done(&b).await?.as_string();
        let mt_file = Some(done(&c).await?);
        let revision = done(&d).await?.as_f64().unwrap_or(0.0) as u64;
        let writer = done(&e).await?.as_f64();
        let (index, texts) = (done(&f).await?.as_string(), done(&g).await?);
        let files = match index {
            Some(index) => Some(files_of(&index, texts).await?),
            // A session kept by an earlier version: its texts inside the JSON.
            None => old_files.and_then(|j| serde_json::from_str::<SessionFiles>(&j).ok()),
        };
        Ok(Read { session, files, mt_file, revision, writer })
    }

    /// The kept files: their list, each text read back from its Blob.
    async fn files_of(index: &str, texts: JsValue) -> Result<SessionFiles, JsValue> {
        let broken = || JsValue::from_str("the kept files are incomplete");
        let mut files: SessionFiles = serde_json::from_str(index).map_err(|_| broken())?;
        let texts = texts.dyn_into::<js_sys::Array>().map_err(|_| broken())?;
        if texts.length() as usize != files.files.len() {
            return Err(broken());
        }
        for (file, blob) in files.files.iter_mut().zip(texts.iter()) {
            let blob = blob.dyn_into::<web_sys::Blob>().map_err(|_| broken())?;
            let bytes = js_sys::Uint8Array::new(&JsFuture::from(blob.array_buffer()).await?).to_vec();
            file.text = String::from_utf8(bytes).map_err(|_| broken())?.into();
        }
        Ok(files)
    }

    /// Bytes of a text copied into a Blob at a time: about 20 ms of the
    /// page's thread (a 50 MB text copied at once held it for 0.3 s).
    const BLOB_PART: usize = 4 << 20;

    /// A session's files as a write puts them ([`FILES_INDEX`], [`TEXTS`]).
    pub struct KeptFiles {
        index: JsValue,
        texts: js_sys::Array,
    }

    impl KeptFiles {
        /// `files`, each text copied a part at a time in tasks of their own.
        pub async fn of(files: SessionFiles) -> Result<KeptFiles, JsValue> {
            let texts = js_sys::Array::new();
            for file in &files.files {
                let parts = js_sys::Array::new();
                for part in file.text.as_bytes().chunks(BLOB_PART) {
                    gloo::timers::future::TimeoutFuture::new(0).await;
                    parts.push(&blob_part(part)?);
                }
                texts.push(&web_sys::Blob::new_with_blob_sequence(&parts)?.into());
            }
            KeptFiles::with_texts(files, texts)
        }

        /// `files` at once (the page is being closed: there is no later task).
        pub fn now(files: SessionFiles) -> Result<KeptFiles, JsValue> {
            let texts = js_sys::Array::new();
            for file in &files.files {
                let parts: js_sys::Array =
                    file.text.as_bytes().chunks(BLOB_PART).map(blob_part).collect::<Result<_, _>>()?;
                texts.push(&web_sys::Blob::new_with_blob_sequence(&parts)?.into());
            }
            KeptFiles::with_texts(files, texts)
        }

        fn with_texts(files: SessionFiles, texts: js_sys::Array) -> Result<KeptFiles, JsValue> {
            let index = SessionFiles {
                files: files.files.into_iter().map(|f| SavedFile { text: "".into(), ..f }).collect(),
                ..files
            };
            let index = serde_json::to_string(&index).map_err(|e| JsValue::from_str(&e.to_string()))?;
            Ok(KeptFiles { index: JsValue::from_str(&index), texts })
        }
    }

    /// Bytes as a Blob (a Blob made of Blobs copies nothing).
    fn blob_part(bytes: &[u8]) -> Result<JsValue, JsValue> {
        Ok(web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&js_sys::Uint8Array::from(bytes)))?.into())
    }

    /// What a write puts; `None` leaves the record as it is.
    #[derive(Default)]
    pub struct Put {
        /// Clear everything kept first (*start fresh*).
        pub clear: bool,
        pub session: Option<String>,
        pub files: Option<KeptFiles>,
        /// The translation model file: to keep, or (`Some(None)`) to forget.
        pub mt_file: Option<Option<web_sys::File>>,
    }

    /// How a write ended.
    pub enum Outcome {
        /// Kept, as this revision.
        Written(u64),
        /// Another tab wrote since revision `expected`: nothing was written.
        OtherTab,
        Failed(String),
    }

    /// The revision a write expects to find kept.
    #[derive(Clone, Copy)]
    pub struct Expected {
        pub revision: u64,
        /// Or the next one if this tab wrote it (a write still in flight
        /// when the page was hidden: never one another tab wrote).
        pub or_own_next: bool,
        /// Written whatever is kept (*Keep this tab's work*).
        pub force: bool,
    }

    impl Expected {
        /// Whether the kept revision `stored` (written by this tab, or not:
        /// `by_this_tab`) is the one expected.
        pub fn finds(&self, stored: u64, by_this_tab: bool) -> bool {
            stored == self.revision || (self.or_own_next && by_this_tab && stored == self.revision + 1)
        }

        /// The revision the write makes when it finds what it expects
        /// (past this tab's write in flight, which may still be made).
        pub fn next(&self) -> u64 {
            self.revision + 1 + u64::from(self.or_own_next)
        }
    }

    /// Writes `put` in one transaction, unless the kept revision is not
    /// the one `expected`; then `finished`.
    pub fn write(db: &IdbDatabase, put: Put, expected: Expected, finished: impl FnOnce(Outcome) + 'static) {
        type Once = Rc<RefCell<Option<Box<dyn FnOnce(Outcome)>>>>;
        let finished: Once = Rc::new(RefCell::new(Some(Box::new(finished))));
        let finish = {
            let finished = finished.clone();
            move |outcome: Outcome| {
                if let Some(f) = finished.borrow_mut().take() {
                    f(outcome)
                }
            }
        };
        let tx = match db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite) {
            Ok(tx) => tx,
            Err(e) => return finish(Outcome::Failed(said(&e))),
        };
        let store = match tx.object_store(STORE) {
            Ok(s) => s,
            Err(e) => return finish(Outcome::Failed(said(&e))),
        };
        // What the transaction decided before it ended (the revision written, or why not).
        let decided: Rc<RefCell<Option<Outcome>>> = Rc::default();
        let ended = {
            let (decided, finish, tx) = (decided.clone(), finish.clone(), tx.clone());
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
                let outcome = decided.borrow_mut().take().unwrap_or_else(|| {
                    Outcome::Failed(tx.error().map_or("the write was abandoned".into(), |e| said(&e.into())))
                });
                finish(outcome)
            })
        };
        tx.set_oncomplete(Some(ended.as_ref().unchecked_ref()));
        tx.set_onabort(Some(ended.as_ref().unchecked_ref()));
        ended.forget();
        // Both asked before either answers; requests in a transaction answer in order.
        let (get, writer) = match (store.get(&JsValue::from_str(REVISION)), store.get(&JsValue::from_str(WRITER))) {
            (Ok(get), Ok(writer)) => (get, writer),
            (Err(e), _) | (_, Err(e)) => return finish(Outcome::Failed(said(&e))),
        };
        let on_revision = {
            let (get, got_writer, tx) = (get.clone(), writer.clone(), tx.clone());
            Closure::once_into_js(move |_: web_sys::Event| {
                let stored = get.result().ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as u64;
                let mine = got_writer.result().ok().and_then(|v| v.as_f64()) == Some(TAB.with(|t| *t));
                if !expected.force && !put.clear && !expected.finds(stored, mine) {
                    *decided.borrow_mut() = Some(Outcome::OtherTab);
                    let _ = tx.abort();
                    return;
                }
                let revision = if put.clear { 1 } else { stored + 1 };
                match puts(&store, put, revision) {
                    Ok(()) => *decided.borrow_mut() = Some(Outcome::Written(revision)),
                    Err(e) => {
                        *decided.borrow_mut() = Some(Outcome::Failed(said(&e)));
                        let _ = tx.abort();
                    }
                }
            })
        };
        writer.set_onsuccess(Some(on_revision.unchecked_ref()));
    }

    /// The database, if this page has opened it.
    pub fn opened() -> Option<IdbDatabase> {
        OPEN.with(|o| o.borrow().clone())
    }

    /// Where the last write of any tab leaves its revision and writer,
    /// readable at once (IndexedDB answers only in a callback).
    const MIRROR: &str = "treelink-kept-revision";

    fn local_storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok().flatten()
    }

    /// Leaves `revision`, written by this tab, in the mirror.
    pub fn mirror(revision: u64) {
        if let Some(storage) = local_storage() {
            let _ = storage.set_item(MIRROR, &format!("{revision} {}", TAB.with(|t| *t)));
        }
    }

    /// The revision and writer the last write left in the mirror.
    pub fn mirrored() -> Option<(u64, f64)> {
        let text = local_storage()?.get_item(MIRROR).ok()??;
        let (revision, writer) = text.split_once(' ')?;
        Some((revision.parse().ok()?, writer.parse().ok()?))
    }

    /// Where a page being closed leaves its session (without its files)
    /// when its last write may not be made: a closing page's IndexedDB
    /// transaction waits behind the one in flight and dies with the page;
    /// `localStorage` is written at once. Read on the next start
    /// ([`pending`]) if nothing was kept since; dropped once a write that
    /// holds it is made.
    const PENDING: &str = "treelink-kept-pending";

    /// What [`PENDING`] holds: the session, the revision its write
    /// expected and the tab that left it.
    pub struct Pending {
        pub light: String,
        expected: Expected,
        writer: f64,
    }

    impl Pending {
        /// Whether it is newer than what is kept (`revision` by `writer`):
        /// its write would have found that revision (nothing was kept since
        /// it was left, but its own tab's write in flight).
        pub fn newer_than(&self, revision: u64, writer: Option<f64>) -> bool {
            self.expected.finds(revision, writer == Some(self.writer))
        }
    }

    /// Leaves the session `light`, whose write expects `expected`, in [`PENDING`].
    pub fn leave_pending(light: &str, expected: Expected) {
        if let Some(storage) = local_storage() {
            let (base, past_own, writer) = (expected.revision, u8::from(expected.or_own_next), TAB.with(|t| *t));
            let _ = storage.set_item(PENDING, &format!("{base} {past_own} {writer}\n{light}"));
        }
    }

    /// The session a page being closed left, if any.
    pub fn pending() -> Option<Pending> {
        let text = local_storage()?.get_item(PENDING).ok()??;
        let (head, light) = text.split_once('\n')?;
        let mut fields = head.split(' ');
        let revision = fields.next()?.parse().ok()?;
        let or_own_next = fields.next()? == "1";
        let writer = fields.next()?.parse().ok()?;
        let expected = Expected { revision, or_own_next, force: false };
        Some(Pending { light: light.to_string(), expected, writer })
    }

    /// Drops [`PENDING`] once `revision` is kept, a write at least as new
    /// as the one it stands for (any revision: `None`, for *start fresh*,
    /// which numbers revisions from 1 again).
    pub fn drop_pending(revision: Option<u64>) {
        if pending().is_some_and(|p| revision.is_none_or(|r| r >= p.expected.next())) {
            if let Some(storage) = local_storage() {
                let _ = storage.remove_item(PENDING);
            }
        }
    }

    /// Writes `put` as `revision` in one transaction whose requests are
    /// all made before this returns; `finished` if the page still runs.
    pub fn write_now(db: &IdbDatabase, put: Put, revision: u64, finished: impl FnOnce(Outcome) + 'static) {
        let tx = match db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite) {
            Ok(tx) => tx,
            Err(e) => return finished(Outcome::Failed(said(&e))),
        };
        let written = tx.object_store(STORE).and_then(|store| puts(&store, put, revision));
        if let Err(e) = written {
            let _ = tx.abort();
            return finished(Outcome::Failed(said(&e)));
        }
        let finished = Rc::new(RefCell::new(Some(finished)));
        let ended = {
            let tx = tx.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                let Some(f) = finished.borrow_mut().take() else { return };
                if e.type_() == "complete" {
                    f(Outcome::Written(revision))
                } else {
                    f(Outcome::Failed(tx.error().map_or("the write was abandoned".into(), |e| said(&e.into()))))
                }
            })
        };
        tx.set_oncomplete(Some(ended.as_ref().unchecked_ref()));
        tx.set_onabort(Some(ended.as_ref().unchecked_ref()));
        ended.forget();
    }

    fn puts(store: &IdbObjectStore, put: Put, revision: u64) -> Result<(), JsValue> {
        let key = JsValue::from_str;
        if put.clear {
            store.clear()?;
        }
        if let Some(session) = put.session {
            store.put_with_key(&JsValue::from_str(&session), &key(SESSION))?;
        }
        if let Some(files) = put.files {
            store.put_with_key(&files.texts, &key(TEXTS))?;
            store.put_with_key(&files.index, &key(FILES_INDEX))?;
            store.delete(&key(FILES))?;
        }
        match put.mt_file {
            Some(Some(file)) => drop(store.put_with_key(&file, &key(MT_FILE))?),
            Some(None) => drop(store.delete(&key(MT_FILE))?),
            None => {}
        }
        store.put_with_key(&JsValue::from_f64(revision as f64), &key(REVISION))?;
        store.put_with_key(&JsValue::from_f64(TAB.with(|t| *t)), &key(WRITER))?;
        Ok(())
    }
}

/// What one write is to keep: the state's session as it is now.
#[derive(Clone, PartialEq)]
struct Plan {
    light: String,
    files: FilesKey,
    mt_file: Option<FileHandle>,
    /// `SessionAction::KeepAgain` asks for a new attempt.
    attempt: u32,
}

/// The queue of writes: one at a time, in order; the latest state waiting.
#[derive(Default)]
struct Saver {
    /// The kept session was read (until then nothing is written over it).
    read: bool,
    /// The revision this tab read, or last wrote.
    revision: u64,
    /// What was last written, and last attempted (a write that failed is
    /// not attempted again until the state changes or *Try again*).
    written: Option<Plan>,
    attempted: Option<Plan>,
    /// What was read (session, files), until the restored state is found to be the same.
    baseline: Option<(String, SessionFiles)>,
    in_flight: bool,
    /// The page was hidden with a write in flight: the next write also
    /// accepts the revision that one makes (this tab's, never another's).
    or_own_next: bool,
    /// Forget what is kept before the next write (*start fresh*).
    clear: bool,
    /// The latest state to keep once the write in flight ends.
    waiting: Option<Rc<State>>,
    /// A problem was reported (so the next success is reported too).
    problem: bool,
    report: Option<Dispatch<SessionAction>>,
}

thread_local! {
    static SAVER: RefCell<Saver> = RefCell::new(Saver::default());
}

fn mt_file(state: &State) -> Option<FileHandle> {
    match state.mt.held.as_ref().map(|h| &h.source) {
        Some(MtSource::File(handle)) => Some(*handle),
        _ => None,
    }
}

/// Whether the state holds all of its session (no files being read, no session being restored).
fn settled(state: &State) -> bool {
    state.keeping.restoring.is_none() && !state.slots.reading()
}

/// Keeps `state` at once, or once the write in flight ends.
fn keep(state: Rc<State>) {
    let ready = SAVER.with(|s| {
        let mut s = s.borrow_mut();
        if !s.read || !settled(&state) {
            return false;
        }
        if s.in_flight {
            s.waiting = Some(state.clone());
            return false;
        }
        true
    });
    if !ready {
        return;
    }
    let Some((plan, mut put, files, expected)) = prepare(&state) else { return };
    yew::platform::spawn_local(async move {
        if let Some(files) = files {
            match kept::KeptFiles::of(files).await {
                Ok(files) => put.files = Some(files),
                Err(e) => return written(kept::Outcome::Failed(kept::said(&e)), plan),
            }
        }
        let db = match kept::open().await {
            Ok(db) => db,
            Err(e) => return written(kept::Outcome::Failed(kept::said(&e)), plan),
        };
        kept::write(&db, put, expected, move |outcome| written(outcome, plan));
    });
}

/// What a write of `state` puts and the revision it expects, unless it
/// would write what was written or attempted last; the write is then in flight.
fn prepare(state: &State) -> Option<(Plan, kept::Put, Option<SessionFiles>, kept::Expected)> {
    let plan = Plan {
        light: serde_json::to_string(&state.session_light()).unwrap_or_default(),
        files: state.files_key(),
        mt_file: mt_file(state),
        attempt: state.keeping.attempt,
    };
    SAVER.with(|s| {
        let mut s = s.borrow_mut();
        // The restored state's files, the same as those read: they are kept
        // (and so is the rest, if `light` is the same: nothing to write).
        if let Some((light, files)) = s.baseline.take() {
            if state.session_files() == files {
                let kept = Plan { light, ..plan.clone() };
                (s.written, s.attempted) = (Some(kept.clone()), Some(kept));
            }
        }
        if s.attempted.as_ref() == Some(&plan) && !s.clear {
            return None;
        }
        let written = s.written.clone();
        let files_changed = written.as_ref().is_none_or(|w| w.files != plan.files) || s.clear;
        let mt_changed = written.as_ref().is_none_or(|w| w.mt_file != plan.mt_file) || s.clear;
        let put = kept::Put {
            clear: std::mem::take(&mut s.clear),
            session: Some(plan.light.clone()),
            files: None,
            mt_file: mt_changed.then(|| plan.mt_file.and_then(super::file_handles::get)),
        };
        let files = files_changed.then(|| state.session_files());
        s.attempted = Some(plan.clone());
        s.in_flight = true;
        let or_own_next = std::mem::take(&mut s.or_own_next);
        Some((plan, put, files, kept::Expected { revision: s.revision, or_own_next, force: state.keeping.overwrite }))
    })
}

/// A write ended: the state is told if it failed (or succeeded after a
/// failure), and the state waiting is kept next.
fn written(outcome: kept::Outcome, plan: Plan) {
    let (report, waiting) = SAVER.with(|s| {
        let mut s = s.borrow_mut();
        s.in_flight = false;
        let report = match outcome {
            kept::Outcome::Written(revision) => {
                kept::mirror(revision);
                kept::drop_pending(Some(revision));
                s.revision = revision;
                s.written = Some(plan);
                std::mem::take(&mut s.problem).then_some(Ok(()))
            }
            kept::Outcome::OtherTab => {
                s.problem = true;
                Some(Err(KeepProblem::OtherTab))
            }
            kept::Outcome::Failed(why) => {
                s.problem = true;
                Some(Err(KeepProblem::Failed(why)))
            }
        };
        (report.and_then(|r| s.report.map(|d| (d, r))), s.waiting.take())
    });
    if let Some((dispatch, result)) = report {
        dispatch.emit(SessionAction::Kept(result));
    }
    if let Some(state) = waiting {
        keep(state);
    }
}

/// The page is being hidden or closed: the state as the last action left
/// it (its render, and so [`keep`], may not have come yet), unless it is
/// what was last written, is written now, every request of it made before
/// this returns (a closing page may never run the callback in which a
/// write in flight makes its requests). The revision is checked against
/// the one the last write of any tab left in `localStorage`: it expects
/// the revision this tab read or wrote last, or the one the write in
/// flight makes (this tab's), so never over another tab's work.
fn flush() {
    let Some(state) = SAVER.with(|s| s.borrow().report.map(|d| d.state())) else { return };
    let pending = SAVER.with(|s| {
        let mut s = s.borrow_mut();
        if !s.read || !settled(&state) {
            return false;
        }
        if s.in_flight {
            (s.in_flight, s.or_own_next) = (false, true);
        }
        // What is not written yet is written again, at once.
        (s.attempted, s.waiting) = (s.written.clone(), None);
        true
    });
    if !pending {
        return;
    }
    let Some(db) = kept::opened() else { return keep(state) };
    let Some((plan, mut put, files, expected)) = prepare(&state) else { return };
    if let Some(files) = files {
        match kept::KeptFiles::now(files) {
            Ok(files) => put.files = Some(files),
            Err(e) => return written(kept::Outcome::Failed(kept::said(&e)), plan),
        }
    }
    let mine = kept::TAB.with(|t| *t);
    let free = expected.force
        || put.clear
        || kept::mirrored().is_none_or(|(revision, writer)| expected.finds(revision, writer == mine));
    if !free {
        return written(kept::Outcome::OtherTab, plan);
    }
    let revision = if put.clear { 1 } else { expected.next() };
    // The session without its files is left for the next visit only when
    // the files kept are its own: beside files not kept yet (a large
    // corpus being written as the page closes), the next visit would join
    // it to the files kept before (links and pairs of other trees); it
    // then restores what was kept last, whole.
    if !put.clear && put.files.is_none() {
        kept::leave_pending(&plan.light, expected);
    }
    kept::write_now(&db, put, revision, move |outcome| written(outcome, plan));
}

/// Forgets the kept session ("start fresh"): cleared by the next write, at once.
pub fn forget() {
    SAVER.with(|s| {
        let mut s = s.borrow_mut();
        s.clear = true;
        (s.written, s.attempted, s.baseline) = (None, None, None);
    });
    kept::drop_pending(None);
}

/// Restores the kept session on start (then opens the address), and keeps
/// the session at every change.
#[hook]
pub fn use_kept_session(state: &Rc<State>, session: Dispatch<SessionAction>) {
    use_effect_with((), move |_| {
        SAVER.with(|s| s.borrow_mut().report = Some(session));
        yew::platform::spawn_local(async move {
            let read = kept::read().await;
            let kept::Read { session: json, files, mt_file: file, revision, writer } = read.unwrap_or_else(|e| {
                session.emit(SessionAction::Kept(Err(KeepProblem::Failed(kept::said(&e)))));
                kept::Read::default()
            });
            // What a page closed before its last write was made left instead
            // (written to IndexedDB once restored: it differs from what was read).
            let pending = kept::pending().filter(|p| p.newer_than(revision, writer)).map(|p| p.light);
            let light = (pending.as_deref().or(json.as_deref())).and_then(|j| serde_json::from_str::<Session>(j).ok());
            // A session kept before its files were kept apart has them inside.
            let session_read = light.map(|l| match files.clone() {
                Some(files) => l.join(files),
                None => l,
            });
            SAVER.with(|s| {
                let mut s = s.borrow_mut();
                (s.read, s.revision) = (true, revision);
                s.baseline = json.clone().zip(files);
            });
            if let Some(kept) = session_read {
                let file = file.and_then(|v| v.dyn_into::<web_sys::File>().ok());
                let wanted = kept.texts.translation_model.as_ref().is_some_and(|(_, text)| text.is_none());
                let mt_file = file.filter(|_| wanted).map(super::file_handles::hold);
                session.emit(SessionAction::Restore { session: Box::new(kept), mt_file });
            } else {
                session.emit(SessionAction::NothingKept);
            }
            let hash = current_hash();
            if !hash.is_empty() {
                session.emit(SessionAction::OpenLocation(hash));
            }
            // An exercise named by the address (`?exercise=FILE.json`) after
            // the kept session, so its files reach the file worker last and win.
            let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
            session.emit(SessionAction::OpenQuery(query));
        });
        // Closing or hiding the page starts what waits at once.
        let listeners = web_sys::window().map(|window| {
            let hide = gloo::events::EventListener::new(&window, "pagehide", |_| flush());
            let document = window.document();
            let hidden = document.map(|document| {
                let doc = document.clone();
                gloo::events::EventListener::new(&document, "visibilitychange", move |_| {
                    if doc.visibility_state() == web_sys::VisibilityState::Hidden {
                        flush();
                    }
                })
            });
            (hide, hidden)
        });
        move || drop(listeners)
    });
    let state = state.clone();
    use_effect(move || keep(state));
}

use wasm_bindgen::JsCast;
