//! Finding a pair by its number, a node label or a word: the search is the
//! engine's ([`crate::corpus::Corpus::find`], through the reducer); this
//! view only renders the query and the pairs found, each opening its pair
//! or going into the exercise form's pairs (one, or all found at once).

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::into_view::{self, Place};
use super::state::{FindAction, FindPair, SelectAction};
use super::store::Dispatch;
use crate::corpus::Found;

#[derive(Properties, PartialEq)]
pub struct FindProps {
    pub view: FindPair,
    pub find: Dispatch<FindAction>,
    /// Opening a pair found.
    pub select: Dispatch<SelectAction>,
}

/// What a search found in a pair, as text (labels and words are never markup).
fn describe(found: &Found) -> String {
    let side = |source: bool| if source { "source" } else { "target" };
    match found {
        Found::Number => "its number".into(),
        Found::Word { source, word } => format!("{} word “{word}”", side(*source)),
        Found::Label { source, label, count } => format!("{count} × {} label {label}", side(*source)),
    }
}

#[function_component(FindPairView)]
pub fn find_pair(props: &FindProps) -> Html {
    // Whether the results float over the diagram: opened by typing or
    // focusing the box, closed by opening a pair, Escape or leaving the box.
    let open = use_state(|| false);
    let root = use_node_ref();
    let (find, select) = (props.find, props.select);
    let on_input = {
        let open = open.clone();
        Callback::from(move |e: InputEvent| {
            open.set(true);
            find.emit(FindAction::Query(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()));
        })
    };
    let on_focus = {
        let open = open.clone();
        Callback::from(move |_: FocusEvent| open.set(true))
    };
    let on_focus_out = {
        let (open, root) = (open.clone(), root.clone());
        Callback::from(move |e: FocusEvent| {
            let to: Option<web_sys::Node> = e.related_target().and_then(|t| t.dyn_into().ok());
            let inside = match (root.cast::<web_sys::Node>(), to) {
                (Some(root), Some(to)) => root.contains(Some(&to)),
                _ => false,
            };
            if !inside {
                open.set(false);
            }
        })
    };
    let on_key = {
        let open = open.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                open.set(false);
            }
        })
    };
    let f = &props.view;
    let items = f.found.iter().map(|&(k, ref found)| {
        let onclick = {
            let open = open.clone();
            Callback::from(move |_: MouseEvent| {
                open.set(false);
                select.emit(SelectAction::SelectPair(k));
                // The pair opened is the feedback: on a phone, where the page
                // scrolls, its number and diagram come to the top of the screen.
                into_view::bring_selected(".pair-column", Place::TopOnOneColumn);
            })
        };
        let add = Callback::from(move |_: MouseEvent| find.emit(FindAction::AddToExercise(Some(k))));
        html! {
            <li><button type="button" class="link-button" {onclick}>{format!("Pair {k}")}</button>
                {" — "}{describe(found)}{" "}
                <button type="button" class="find-add" onclick={add}
                    title={format!("Add pair {k} to the exercise's pairs")}>{"+ exercise"}</button></li>
        }
    });
    let add_all = Callback::from(move |_: MouseEvent| find.emit(FindAction::AddToExercise(None)));
    let summary = f.summary();
    let shown = *open && (!summary.is_empty() || f.added.is_some());
    html! {
        <div class="find-pair" role="search" ref={root} onfocusout={on_focus_out} onkeydown={on_key}>
            <label for="find-pair">{"Find a pair"}</label>
            <input id="find-pair" type="search" placeholder="number, label (NP) or word" value={f.query.clone()}
                oninput={on_input} onfocus={on_focus} aria-describedby="find-summary" />
            if shown {
                <div id="find-popup" class="find-popup" tabindex="0" role="region" aria-label="Pairs found">
                    <p id="find-summary" class="hint" aria-live="polite">{summary}</p>
                    if !f.found.is_empty() {
                        <button type="button" id="find-add-exercise" onclick={add_all}>
                            {format!("Add {} to the exercise", if f.found.len() == 1 { "this pair".to_string() } else { format!("these {} pairs", f.found.len()) })}</button>
                        <ul id="find-results" class="find-results">{ for items }</ul>
                    }
                    if let Some(note) = &f.added {
                        <p id="find-added" class="status ok" role="status">{note.clone()}</p>
                    }
                </div>
            }
        </div>
    }
}
