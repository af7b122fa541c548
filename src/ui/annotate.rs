//! The annotation panel (*Annotate*): what the model proposed for the pair
//! shown, *Accept*, *Start this pair over*, which pair comes next, and the
//! progress (`ui::state::annotation` holds the loop).

use yew::prelude::*;

use super::panels::TeachView;
use super::state::{AnnotateAction, TrainAction};
use super::store::Dispatch;
use super::train::align_button;
use crate::app::annotation::Order;
use crate::corpus::TreePair;

pub(super) fn annotate(
    view: &TeachView,
    pair: &TreePair,
    annotate: Dispatch<AnnotateAction>,
    train: Dispatch<TrainAction>,
) -> Html {
    let a = &view.annotation;
    let accept =
        Callback::from(move |_: MouseEvent| annotate.emit(AnnotateAction::Accept { now: js_sys::Date::now() }));
    let start_over = Callback::from(move |_: MouseEvent| annotate.emit(AnnotateAction::StartOver));
    let on_order = Callback::from(move |e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        if let Ok(order) = value.parse::<Order>() {
            annotate.emit(AnnotateAction::SetOrder(order));
        }
    });
    let state_line = if a.done {
        format!(
            "Accepted: {} links, yours now (click a link to remove it, a source then a target node to add one).",
            a.links
        )
    } else if a.proposed {
        format!(
            "The model proposes {} links{}. Click a wrong link to remove it, a source then a target node to add a missed one: the pair is decoded again after each edit.",
            a.links,
            if a.edits > 0 { format!(" after your {} {}", a.edits, crate::io::text::counted(a.edits, "edits")) } else { String::new() }
        )
    } else {
        "No proposal for this pair: align the pairs with a model (train one, or load one) and its links are proposed here; links you add are kept.".to_string()
    };
    let pending = a.pending.map(|n| format!("Source {} ({n}) chosen: now click a target node.", pair.source.label(n)));
    html! {
        <>
            <p id="annotate-state">{state_line}</p>
            if !a.proposed && !a.done && view.model_in_hand {
                {align_button("annotate-align", train, !view.can_align)}
            }
            if let Some(p) = pending { <p class="hint">{p}</p> }
            <div class="annotate-actions" role="group" aria-label="This pair">
                <button id="annotate-accept" type="button" class="primary" onclick={accept} disabled={a.done}>{"Accept and go to the next pair (a)"}</button>
                <button id="annotate-start-over" type="button" onclick={start_over} disabled={a.edits == 0 && !a.done}>{"Start this pair over"}</button>
            </div>
            <p id="annotate-feedback" aria-live="polite" class={classes!(matches!(a.message, Some(Err(_))).then_some("error"))}>
                {a.message.clone().map(|m| m.unwrap_or_else(|e| e))}
            </p>
            <label>{"Next pair: "}
                <select id="annotate-order" onchange={on_order}>
                    <option value="uncertainty" selected={a.order == Order::Uncertainty}>{"the one the model is least sure of"}</option>
                    <option value="file" selected={a.order == Order::File}>{"the next in the file"}</option>
                </select>
            </label>
            <p id="annotate-progress">{a.progress.clone()}</p>
            <p id="annotate-learning">{a.learning.clone()}</p>
            <p class="hint">{"Accepted pairs are your hand links: kept in this browser and exported with them (Export: gold links, STA, TigerXML)."}</p>
        </>
    }
}
