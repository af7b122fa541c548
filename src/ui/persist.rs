//! What the page keeps beyond the reducer: the session in IndexedDB
//! (restored on start, "start fresh" forgets it), the address
//! (`#pair=12&mode=teach`, one history entry per change, so back/forward
//! and shared links work) and the undo/redo keys. The state decides what the address says
//! ([`super::state::State::location`], `Effect::SetLocation`) and reads
//! it back (`SessionAction::OpenLocation`); this module only talks to the browser.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{SessionAction, State, TeachAction};
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
/// `treelink`, store `kept`): the session as JSON ([`State::session`]) and
/// an uploaded translation model as the file itself. Written a second
/// after the state last changed; read once on start and restored through
/// the reducer (`SessionAction::Restore`), so its files take the normal load path.
mod kept {
    use js_sys::Promise;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{IdbDatabase, IdbRequest, IdbTransactionMode};

    const DB: &str = "treelink";
    const STORE: &str = "kept";
    pub const SESSION: &str = "session";
    pub const MT_FILE: &str = "translation-model-file";

    /// The key of the text of the session's `k`th file: each is kept as a
    /// value of its own, outside the session's JSON, so no task of the
    /// page's serialises a large corpus (issue 25: the page's thread is
    /// never blocked for long while a corpus of 50 MB a side loads).
    pub fn file_key(k: usize) -> String {
        format!("session-file-{k}")
    }

    /// The request's result, once it succeeds.
    async fn done(request: &IdbRequest) -> Result<JsValue, JsValue> {
        let promise = Promise::new(&mut |resolve, reject| {
            let req = request.clone();
            let ok = Closure::once_into_js(move |_: web_sys::Event| {
                let _ = resolve.call1(&JsValue::NULL, &req.result().unwrap_or(JsValue::UNDEFINED));
            });
            let failed = Closure::once_into_js(move |_: web_sys::Event| {
                let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("IndexedDB request failed"));
            });
            request.set_onsuccess(Some(ok.unchecked_ref()));
            request.set_onerror(Some(failed.unchecked_ref()));
        });
        JsFuture::from(promise).await
    }

    async fn open() -> Result<IdbDatabase, JsValue> {
        let factory = web_sys::window()
            .ok_or_else(|| JsValue::from_str("no window"))?
            .indexed_db()?
            .ok_or_else(|| JsValue::from_str("no IndexedDB"))?;
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
        done(&request).await?.dyn_into::<IdbDatabase>()
    }

    pub async fn get(key: &str) -> Result<JsValue, JsValue> {
        let db = open().await?;
        let store = db.transaction_with_str(STORE)?.object_store(STORE)?;
        done(&store.get(&JsValue::from_str(key))?).await
    }

    pub async fn put(key: &str, value: &JsValue) -> Result<(), JsValue> {
        let db = open().await?;
        let store = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?.object_store(STORE)?;
        done(&store.put_with_key(value, &JsValue::from_str(key))?).await.map(drop)
    }

    pub async fn delete(key: &str) -> Result<(), JsValue> {
        let db = open().await?;
        let store = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?.object_store(STORE)?;
        done(&store.delete(&JsValue::from_str(key))?).await.map(drop)
    }

    pub async fn clear() -> Result<(), JsValue> {
        let db = open().await?;
        let store = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?.object_store(STORE)?;
        done(&store.clear()?).await.map(drop)
    }
}

/// Forgets the kept session ("start fresh").
pub fn forget() {
    SAVING.with(|s| s.borrow_mut().forgotten = true);
    yew::platform::spawn_local(async {
        let _ = kept::clear().await;
        SAVING.with(|s| *s.borrow_mut() = Saving::default());
    });
}

use std::cell::RefCell;

/// What was written last, so an unchanged session is not written again.
#[derive(Default)]
struct Saving {
    json: String,
    /// The texts of the session's files, kept apart from its JSON (`kept::file_key`).
    texts: Vec<String>,
    mt_file: Option<super::state::FileHandle>,
    /// Cleared and not yet written again.
    forgotten: bool,
}

thread_local! {
    static SAVING: RefCell<Saving> = RefCell::new(Saving::default());
}

fn mt_file(state: &State) -> Option<super::state::FileHandle> {
    match state.mt.held.as_ref().map(|h| &h.source) {
        Some(super::state::MtSource::File(handle)) => Some(*handle),
        _ => None,
    }
}

/// Restores the kept session on start (then opens the address), and keeps
/// the session a second after each change.
#[hook]
pub fn use_kept_session(state: &Rc<State>, restore: Dispatch<SessionAction>) {
    {
        use_effect_with((), move |_| {
            yew::platform::spawn_local(async move {
                let json = kept::get(kept::SESSION).await.ok().and_then(|v| v.as_string());
                let session = json.as_deref().and_then(|j| serde_json::from_str::<super::state::Session>(j).ok());
                if let Some(mut session) = session {
                    // Files' texts kept apart (an older session has them in its JSON).
                    let mut texts = Vec::new();
                    for (k, f) in session.files.iter_mut().enumerate() {
                        if f.text.is_empty() {
                            let kept = kept::get(&kept::file_key(k)).await.ok().and_then(|v| v.as_string());
                            f.text = kept.unwrap_or_default();
                        }
                        texts.push(f.text.clone());
                    }
                    let file = kept::get(kept::MT_FILE).await.ok().and_then(|v| v.dyn_into::<web_sys::File>().ok());
                    let wanted = session.translation_model.as_ref().is_some_and(|(_, text)| text.is_none());
                    let mt_file = file.filter(|_| wanted).map(super::file_handles::hold);
                    SAVING.with(|s| {
                        let mut s = s.borrow_mut();
                        (s.json, s.texts) = (json.unwrap_or_default(), texts);
                    });
                    restore.emit(SessionAction::Restore { session: Box::new(session), mt_file });
                }
                let hash = current_hash();
                if !hash.is_empty() {
                    restore.emit(SessionAction::OpenLocation(hash));
                }
                // An exercise named by the address (`?exercise=FILE.json`) after
                // the kept session, so its files reach the file worker last and win.
                let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
                restore.emit(SessionAction::OpenQuery(query));
            });
            || ()
        });
    }
    let state = state.clone();
    use_effect(move || {
        // Not while files load or a session is restored: the session is complete only after.
        let settled = state.restoring.is_none() && Slot::ALL.iter().all(|&s| !state.slots.slot(s).checking);
        let timer = settled.then(|| {
            gloo::timers::callback::Timeout::new(1000, move || {
                let mut session = state.session();
                let texts: Vec<String> = session.files.iter_mut().map(|f| std::mem::take(&mut f.text)).collect();
                let json = serde_json::to_string(&session).unwrap_or_default();
                let file = mt_file(&state);
                let (same, same_texts, same_file) = SAVING.with(|s| {
                    let s = s.borrow();
                    (
                        s.json == json && !s.forgotten,
                        s.texts == texts && !s.forgotten,
                        s.mt_file == file && !s.forgotten,
                    )
                });
                if same && same_texts && same_file {
                    return;
                }
                let saving = Saving { json: json.clone(), texts: texts.clone(), mt_file: file, forgotten: false };
                SAVING.with(|s| *s.borrow_mut() = saving);
                yew::platform::spawn_local(async move {
                    if !same_texts {
                        // Each file's text in a task of its own.
                        for (k, text) in texts.iter().enumerate() {
                            gloo::timers::future::TimeoutFuture::new(0).await;
                            let _ = kept::put(&kept::file_key(k), &JsValue::from_str(text)).await;
                        }
                    }
                    if !same || !same_texts {
                        let _ = kept::put(kept::SESSION, &JsValue::from_str(&json)).await;
                    }
                    if !same_file {
                        let _ = match file.and_then(super::file_handles::get) {
                            Some(f) => kept::put(kept::MT_FILE, &f).await,
                            None => kept::delete(kept::MT_FILE).await,
                        };
                    }
                });
            })
        });
        move || drop(timer)
    });
}

use super::state::Slot;
use wasm_bindgen::{JsCast, JsValue};
