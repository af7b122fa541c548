//! The loader: file pickers and a drop zone. Files are read as text and
//! handed to the reducer, which routes them by extension; each input shows
//! its own status, and a bad file never replaces what was loaded.

use web_sys::{DragEvent, FileList, HtmlInputElement};
use yew::prelude::*;

use super::props::Settled;

use super::file_handles;
use super::state::{is_mt_model, Action, Slot, SlotStatus};
use crate::io::text::decode_utf8;

#[derive(Properties, PartialEq)]
pub struct LoaderProps {
    pub state: Settled,
    pub dispatch: Callback<Action>,
}

/// Bytes of a `.json` file read to tell a translation model from an alignment model.
const SNIFF_BYTES: u64 = crate::app::files::SNIFF_BYTES as u64;

/// Reads every file of a list as text and dispatches one action per file,
/// for `slot` (a picker's) or, dropped, for the slot its name says. A
/// translation model goes to the worker unread (it can be 90 MB): picked
/// for its slot, a `.tlmt` file, or a `.json` file whose head says
/// `treelink-mt`.
fn read_files(files: Option<FileList>, slot: Option<Slot>, dispatch: Callback<Action>) {
    let Some(files) = files else { return };
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    for raw in files {
        let dispatch = dispatch.clone();
        yew::platform::spawn_local(async move {
            let file = gloo::file::File::from(raw.clone());
            let name = file.name();
            let slot_of_name = slot.or_else(|| Slot::of_file(&name));
            let json = matches!(slot_of_name, Some(Slot::Model));
            let is_mt = match slot_of_name {
                Some(Slot::TranslationModel) => true,
                _ if json => {
                    let head = file.slice(0, SNIFF_BYTES.min(file.size()));
                    gloo::file::futures::read_as_text(&head).await.is_ok_and(|h| is_mt_model(&h))
                }
                _ => false,
            };
            if is_mt {
                dispatch.emit(Action::MtFilePicked { name, file: file_handles::hold(raw) });
                return;
            }
            // As bytes, so text that is not UTF-8 gets the place of its first
            // bad byte (as in the CLI) instead of being read with U+FFFD in it.
            let action = match gloo::file::futures::read_as_bytes(&file).await {
                Ok(bytes) => match decode_utf8(&bytes, &name) {
                    Ok(text) => Action::FileRead { name, text: text.to_string(), slot },
                    Err(e) => Action::FileFailed { error: e.to_string(), name, slot },
                },
                Err(e) => Action::FileFailed { error: format!("{name}: cannot read the file: {e}"), name, slot },
            };
            dispatch.emit(action);
        });
    }
}

pub(super) fn slot_row(slot: Slot, status: &SlotStatus, dispatch: &Callback<Action>) -> Html {
    let id = format!("file-{}", slot.id());
    let status_id = format!("status-{}", slot.id());
    let on_change = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            read_files(input.files(), Some(slot), dispatch.clone());
            // Let the same file be chosen again after it is fixed.
            input.set_value("");
        })
    };
    let message = match &status.message {
        None if status.checking => html! { <span class="status" id={status_id.clone()}>{"checking…"}</span> },
        None => html! { <span class="status" id={status_id.clone()}>{"—"}</span> },
        Some(Ok(m)) => html! { <span class="status ok" id={status_id.clone()}>{"✓ "}{m}</span> },
        Some(Err(m)) => html! {
            <span class="status error" role="alert" id={status_id.clone()}>{"✗ "}{m}
                if let Some(kept) = status.still_in_use() {
                    <span class="kept">{" — "}{kept}</span>
                }
            </span>
        },
    };
    // The input itself is hidden behind a button-like label: the browser's
    // "No file chosen" would stand next to a file that is loaded (the input
    // is emptied after each read); the status says what is loaded.
    let chosen = !status.files.is_empty();
    html! {
        <div class="load-row">
            <label for={id.clone()}>{slot.title()}</label>
            <span class="file-pick">
                <input type="file" class="file-input" id={id.clone()} accept={slot.accept()} multiple={slot.takes_many()}
                    aria-describedby={status_id} onchange={on_change} />
                <label for={id} class="file-button" aria-hidden="true">{if chosen { "Replace…" } else { "Choose…" }}</label>
            </span>
            {message}
            if let Some(w) = &status.warning {
                <span class="status warning" id={format!("warning-{}", slot.id())}>{"⚠ "}{w}</span>
            }
        </div>
    }
}

#[function_component(Loader)]
pub fn loader(props: &LoaderProps) -> Html {
    let dragging = use_state(|| false);
    let on_drop = {
        let dispatch = props.dispatch.clone();
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            read_files(e.data_transfer().and_then(|dt| dt.files()), None, dispatch.clone());
        })
    };
    let on_drag_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let on_drag_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_sample = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::LoadSample))
    };
    let on_fresh = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::StartFresh))
    };
    let on_swap = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::SwapSides))
    };
    let rows = |slots: &[Slot]| {
        slots.iter().map(|&slot| slot_row(slot, props.state.slot(slot), &props.dispatch)).collect::<Html>()
    };
    html! {
        <section id="loader" class={classes!("panel", "loader", (*dragging).then_some("dragging"))} aria-labelledby="loader-title"
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <h2 id="loader-title">{"Data"}</h2>
            <p class="hint">{"Pick files or drop any of them here; each input says what it read, or where it stopped and why. A bad file never replaces what was loaded. "}
                <button id="load-sample" onclick={on_sample}>{"Reload the built-in sample"}</button>
                {" "}<button id="start-fresh" onclick={on_fresh}
                    title="Forget the files, models, hand links and settings this page kept from your last visit">
                    {"Start fresh"}</button></p>
            <p class="hint">{"Your files, models, hand links, the pair, the mode and the settings are kept in this browser for your next visit."}</p>
            <p class="summary"><span id="corpus-summary" aria-live="polite">{props.state.corpus_summary()}</span>
                {" "}<button id="swap-sides" onclick={on_swap}
                    title="Read the loaded pairs the other way: target as source, with their links, lexical tables and word links">
                    {"Swap source and target"}</button></p>
            <div class="load-groups">
                <fieldset>
                    <legend>{"Treebank"}</legend>
                    {rows(&[Slot::Source, Slot::Target, Slot::Gold, Slot::Tiger])}
                </fieldset>
                <fieldset>
                    <legend>{"Lexicon and models (optional)"}</legend>
                    {rows(&[Slot::LexS2t, Slot::LexT2s, Slot::WordLinks, Slot::Model, Slot::TranslationModel, Slot::Lm])}
                </fieldset>
            </div>
            if let Some(stray) = &props.state.stray {
                <p class="status error" role="alert" id="status-stray">{"✗ "}{stray}</p>
            }
        </section>
    }
}
