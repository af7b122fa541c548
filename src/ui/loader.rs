//! The loader: file pickers and a drop zone. Files are handed to the
//! reducer unread, which routes them by name and has them read (an
//! effect); each input shows its own status, and a bad file never replaces
//! what was loaded.

use web_sys::{DragEvent, FileList, HtmlInputElement};
use yew::prelude::*;

use super::file_handles;
use super::into_view::{self, Place};
use super::load::HeldRole;
use super::panels::{DroppedView, LoaderView};
use super::state::{LoadAction, SessionAction, Slot, SlotStatus};
use super::store::Dispatch;
use crate::io::text::counted;
use crate::tiger::ImportOptions;

#[derive(Properties, PartialEq)]
pub struct LoaderProps {
    pub view: LoaderView,
    pub load: Dispatch<LoadAction>,
    /// *Start fresh*.
    pub session: Dispatch<SessionAction>,
}

/// Hands the files of a list to the reducer, held unread, for `slot` (a
/// picker's) or, dropped, for the slot its name says: it has each read as
/// text, or a translation model sent to the worker unread (an effect).
fn give_files(files: Option<FileList>, slot: Option<Slot>, load: Dispatch<LoadAction>) {
    let Some(files) = files else { return };
    let files = (0..files.length()).filter_map(|i| files.get(i)).map(|f| (f.name(), file_handles::hold(f))).collect();
    load.emit(LoadAction::FilesGiven { files, slot });
}

pub(super) fn slot_row(slot: Slot, status: &SlotStatus, load: Dispatch<LoadAction>) -> Html {
    let id = format!("file-{}", slot.id());
    let status_id = format!("status-{}", slot.id());
    let on_change = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        give_files(input.files(), Some(slot), load);
        // Let the same file be chosen again after it is fixed.
        input.set_value("");
    });
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
    // Keyed by slot: a row is patched, never rebuilt, when the panel around
    // it changes (a file input rebuilt while a file is picked loses the pick).
    html! {
        <div class="load-row" key={slot.id()}>
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

/// A dev or test set's input, with *Remove* once its pairs are shown.
fn held_row(role: HeldRole, view: &LoaderView, load: Dispatch<LoadAction>) -> Html {
    let slot = role.slot();
    let remove = view.held.get(role).map(|set| {
        let onclick = Callback::from(move |_: MouseEvent| load.emit(LoadAction::RemoveHeld(role)));
        let label = format!("Remove the {} pairs", role.name());
        let title = format!("Take the {} pairs of {} out of the pairs shown", set.pairs, set.name);
        html! {
            <button type="button" id={format!("remove-{}", slot.id())} class="remove-set" {onclick} {title}>{label}</button>
        }
    });
    html! {
        <>
            {slot_row(slot, view.slot(slot), load)}
            {for remove}
        </>
    }
}

/// What became of the files last dropped on the panel, said where they
/// were dropped: for each, the input it went to, what that input says of
/// it (or why it fits none, or why it waits) and a link to what it made.
fn drop_report(dropped: &[DroppedView]) -> Html {
    if dropped.is_empty() {
        return html! {};
    }
    let items = dropped.iter().map(|d| {
        let (class, status) = match &d.status {
            None => ("status", "reading and checking it…".to_string()),
            Some(Ok(m)) => ("status ok", format!("✓ {m}")),
            Some(Err(m)) => ("status error", format!("✗ {m}")),
        };
        html! {
            <li>
                <strong>{d.name.clone()}</strong>
                if let Some(input) = d.input {
                    {" → "}{input}
                }
                {": "}<span class={class}>{status}</span>
                if let Some((href, what)) = d.built {
                    {" "}<a href={href} class="built">{format!("See {what}")}</a>
                }
            </li>
        }
    });
    let n = dropped.len();
    html! {
        <div id="drop-report" class="drop-report" role="status" aria-live="polite">
            <p class="summary">{format!("Dropped here: {n} {}", counted(n, "files"))}</p>
            <ul>{ for items }</ul>
        </div>
    }
}

#[function_component(Loader)]
pub fn loader(props: &LoaderProps) -> Html {
    // A drop's report is brought into view where the drop happened (the panel may be taller than the screen).
    use_effect_with(props.view.dropped.clone(), |dropped| {
        if !dropped.is_empty() {
            into_view::bring_selected("#drop-report", Place::Nearest);
        }
    });
    let dragging = use_state(|| false);
    let (load, session) = (props.load, props.session);
    let on_drop = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            give_files(e.data_transfer().and_then(|dt| dt.files()), None, load);
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
    let on_sample = Callback::from(move |_: MouseEvent| load.emit(LoadAction::LoadSample));
    let on_fresh = Callback::from(move |_: MouseEvent| session.emit(SessionAction::StartFresh));
    let on_swap = Callback::from(move |_: MouseEvent| load.emit(LoadAction::SwapSides));
    let on_bracketed = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let options = if input.checked() { ImportOptions::BRACKETED_DATA } else { ImportOptions::default() };
        load.emit(LoadAction::SetTigerOptions(options));
    });
    let rows = |slots: &[Slot]| slots.iter().map(|&slot| slot_row(slot, props.view.slot(slot), load)).collect::<Html>();
    // Every change the TigerXML import made, one line each, out of the way
    // until asked for; always in its place (its box empty without an import),
    // so the inputs before it are never rebuilt when it comes or goes.
    let changes = props.view.tiger_import.as_ref().map(|t| {
        let lines = t.report.len().saturating_sub(3);
        html! {
            <details id="tiger-changes" class="import-changes">
                <summary>{format!("What the TigerXML import changed ({lines} lines)")}</summary>
                <pre id="tiger-changes-list">{t.report.join("\n")}</pre>
            </details>
        }
    });
    html! {
        <section id="loader" class={classes!("panel", "loader", (*dragging).then_some("dragging"))} aria-labelledby="loader-title"
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <h2 id="loader-title">{"Data"}</h2>
            <p class="hint">{"Pick files or drop any of them here; each input says what it read, or where it stopped and why. A bad file never replaces what was loaded. "}
                <button id="load-sample" onclick={on_sample}>{"Reload the built-in sample"}</button>
                {" "}<button id="start-fresh" onclick={on_fresh}
                    title="Forget the files, models, hand links and settings this page kept from your last visit">
                    {"Start fresh"}</button></p>
            <p class="hint">{"Your files, models, hand links, the pair, the mode and the settings are kept in this browser as you go, for your next visit."}</p>
            {drop_report(&props.view.dropped)}
            <p class="summary"><span id="corpus-summary" aria-live="polite">{props.view.summary.clone()}</span>
                {" "}<button id="swap-sides" onclick={on_swap} disabled={props.view.exercise_open}
                    title={if props.view.exercise_open {
                        "An exercise's pairs are read as the instructor made them: leave the exercise to swap the pairs loaded before it"
                    } else {
                        "Read the loaded pairs the other way: target as source, with their links, lexical tables and word links"
                    }}>
                    {"Swap source and target"}</button></p>
            <div class="load-groups">
                <fieldset>
                    <legend>{"Treebank"}</legend>
                    {rows(&[Slot::Source, Slot::Target, Slot::Gold, Slot::Tiger, Slot::Dublin])}
                    <label class="option" title="Phrase links only; links of nodes whose yield changed and nonterminals unreachable from the root dropped: the recipe of ../shared/data's bracketed files. Otherwise every link the trees can hold is kept, so the gold links export back to the alignment's.">
                        <input type="checkbox" id="tiger-bracketed" checked={props.view.tiger_bracketed} onchange={on_bracketed} />
                        {" Import TigerXML as the shared data's bracketed files"}
                    </label>
                    <div class="import-changes-box">{changes}</div>
                </fieldset>
                <fieldset id="held-sets">
                    <legend>{"Dev and test pairs from their own files (optional)"}</legend>
                    <p class="hint">{"Each set is three files, PREFIX.src, .trg and .gold, as treelink train --dev PREFIX reads them. Its pairs follow the pairs loaded, and Train takes them as its dev pairs or its held-out test."}</p>
                    {held_row(HeldRole::Dev, &props.view, props.load)}
                    {held_row(HeldRole::Test, &props.view, props.load)}
                </fieldset>
                <fieldset>
                    <legend>{"Lexicon and models (optional)"}</legend>
                    {rows(&[Slot::LexS2t, Slot::LexT2s, Slot::Vcb, Slot::WordLinks, Slot::Model, Slot::TranslationModel, Slot::Lm])}
                </fieldset>
            </div>
            if let Some(stray) = &props.view.stray {
                <p class="status error" role="alert" id="status-stray">{"✗ "}{stray}</p>
            }
        </section>
    }
}
