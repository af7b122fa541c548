//! What the page keeps beyond the reducer: the address (`#pair=12&mode=teach`,
//! one history entry per change, so back/forward and shared links work)
//! and the undo/redo keys. The state decides what the address says
//! ([`super::state::State::location`], `Effect::SetLocation`) and reads
//! it back (`Action::OpenLocation`); this module only talks to the browser.

use yew::prelude::*;

use super::state::{Action, State};

/// Adds a history entry with the fragment `hash` (the page does not reload).
pub fn set_location(hash: &str) {
    let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
    let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
}

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Opens the address's pair and mode on start, and again on back/forward
/// (or an address edited by hand).
#[hook]
pub fn use_location(dispatcher: UseReducerDispatcher<State>) {
    use_effect_with((), move |_| {
        let hash = current_hash();
        if !hash.is_empty() {
            dispatcher.dispatch(Action::OpenLocation(hash));
        }
        let listener = web_sys::window().map(|window| {
            gloo::events::EventListener::new(&window, "popstate", move |_| {
                dispatcher.dispatch(Action::OpenLocation(current_hash()))
            })
        });
        move || drop(listener)
    });
}

/// Ctrl+Z undoes the last change to the hand links, Ctrl+Shift+Z (or
/// Ctrl+Y) redoes it, anywhere but in a text field.
#[hook]
pub fn use_undo_keys(dispatcher: UseReducerDispatcher<State>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            gloo::events::EventListener::new(&document, "keydown", move |e| {
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
                    ("z", false) => Action::Undo,
                    ("z", true) | ("y", false) => Action::Redo,
                    _ => return,
                };
                e.prevent_default();
                dispatcher.dispatch(action);
            })
        });
        move || drop(listener)
    });
}
