//! Teaching mode. *Align by hand*: the student links a source node to a
//! target node (click again, or click the link, to remove it); a link that
//! breaks a well-formedness criterion is refused with the reason (the same
//! check as the greedy search, [`crate::align::greedy::first_conflict`]);
//! the links are scored against gold and against the model. *Step through
//! the search*: the model's greedy search for the pair, one candidate at a
//! time, with what happened to it and why.

use yew::prelude::*;

use super::exercise_panel::prf_cells;
use super::panels::TeachView;
use super::state::{AnnotateAction, Mode, TeachAction, TrainAction};
use super::store::Dispatch;
use crate::align::greedy::Outcome;
use crate::corpus::TreePair;
use crate::eval::prf::Counts;
use crate::io::links::Link;
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct TeachProps {
    pub view: TeachView,
    pub teach: Dispatch<TeachAction>,
    pub annotate: Dispatch<AnnotateAction>,
    /// *Align with the model*, offered by the stepper when the model in hand has not aligned the pairs.
    pub train: Dispatch<TrainAction>,
}

fn node(tree: &Tree, n: NodeId) -> String {
    format!("{} ({n})", tree.label(n))
}

fn score_row(id: &str, name: &str, c: Option<Counts>) -> Html {
    match c {
        Some(c) => html! { <tr id={id.to_string()}><th scope="row">{name}</th>{prf_cells(&c)}</tr> },
        None => html! {
            <tr id={id.to_string()}><th scope="row">{name}</th><td colspan="6" class="text">{"no model alignment yet: train or align first"}</td></tr>
        },
    }
}

fn by_hand(props: &TeachProps, pair: &TreePair) -> Html {
    let state = &props.view;
    let teach = props.teach;
    let student: Vec<Link> = state.links.iter().map(|&(s, t)| Link::good(s, t)).collect();
    let against_gold = Counts::of_pair(pair, &student);
    // An exercise whose key is hidden: no gold to show or score against (its Check does that).
    let key_hidden = state.key_hidden;
    let against_model =
        state.results.as_ref().filter(|r| r.aligned(state.pair)).and_then(|r| r.predicted.get(state.pair.index())).map(
            |model| {
                let as_gold = TreePair { gold: model.clone(), ..pair.clone() };
                Counts::of_pair(&as_gold, &student)
            },
        );
    let clear = Callback::from(move |_: MouseEvent| teach.emit(TeachAction::Clear));
    let undo = Callback::from(move |_: MouseEvent| teach.emit(TeachAction::Undo));
    let redo = Callback::from(move |_: MouseEvent| teach.emit(TeachAction::Redo));
    let reveal = Callback::from(move |e: Event| {
        teach.emit(TeachAction::RevealGold(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()))
    });
    let message = match &state.message {
        Some(Ok(m)) => html! { <p id="teach-message" class="ok" role="status">{m}</p> },
        Some(Err(m)) => html! { <p id="teach-message" class="error refused" role="alert">{m}</p> },
        None => {
            let hint = state.pending.map_or("Click a source node, then a target node, to link them.".into(), |s| {
                format!("Source node {} chosen: now click a target node.", node(&pair.source, s))
            });
            html! { <p id="teach-message" role="status">{hint}</p> }
        }
    };
    let links = state.links.iter().map(|&(s, t)| {
        html! { <li>{format!("{s}-{t}: {} ↔ {}", node(&pair.source, s), node(&pair.target, t))}</li> }
    });
    html! {
        <>
            <p class="hint">{"Link the sub-trees that translate each other. Each link must keep the trees' structure: (i) a node is linked at most once; (ii) what is below a linked node links below its partner; (iii) what is above links above. A link that breaks one is refused, with the reason."}</p>
            // The verdict and the score together: what is brought into view after a click.
            <div id="teach-feedback">
                {message}
                <table id="teach-score" class="scores">
                    <caption>{"Your links scored (phrase links only, as the evaluation)"}</caption>
                    <thead><tr><th scope="col">{"against"}</th><th scope="col">{"agree"}</th><th scope="col">{"yours"}</th><th scope="col">{"theirs"}</th>
                        <th scope="col">{"P"}</th><th scope="col">{"R"}</th><th scope="col">{"F"}</th></tr></thead>
                    <tbody>
                        if !key_hidden {
                            {score_row("teach-vs-gold", "gold", Some(against_gold))}
                        }
                        // In an exercise the links are the student's, checked against its key alone.
                        if !state.exercise_open {
                            {score_row("teach-vs-model", "the model", against_model)}
                        }
                    </tbody>
                </table>
            </div>
            <div>
                <h3>{format!("Your links ({})", student.len())}</h3>
                <ul id="student-links" class="student-links" data-pair={state.pair.to_string()}>{ for links }</ul>
                <button id="teach-clear" type="button" onclick={clear}>{"Clear my links"}</button>
                <button id="teach-undo" type="button" onclick={undo} disabled={!state.can_undo}
                    title="Undo your last change to the links (Ctrl+Z)">{"Undo"}</button>
                <button id="teach-redo" type="button" onclick={redo} disabled={!state.can_redo}
                    title="Redo what you undid (Ctrl+Shift+Z)">{"Redo"}</button>
                if !key_hidden {
                    <label class="check"><input id="teach-reveal" type="checkbox" checked={state.reveal_gold} onchange={reveal} />{" show the gold links"}</label>
                }
            </div>
        </>
    }
}

fn steps(props: &TeachProps, pair: &TreePair) -> Html {
    let state = &props.view;
    let teach = props.teach;
    if let Some(r) = state.results.as_ref().filter(|r| !r.aligned(state.pair)) {
        return html! { <p class="hint" id="step-text">{format!("{}, so their searches can be stepped through.", r.not_aligned_note())}</p> };
    }
    let Some(search) = state.results.as_ref().and_then(|r| r.searches.get(state.pair.index())) else {
        // A model in hand (kept from the last visit, or uploaded) that has not aligned these pairs: align in place.
        if state.model_in_hand {
            return html! {
                <div id="step-text">
                    <p>{"The alignment model in hand has not aligned these pairs yet (results are not kept across visits): align them, then step through this pair's search here."}</p>
                    <p>{super::train::align_button("step-align", props.train, !state.can_align)}</p>
                </div>
            };
        }
        return html! { <p class="hint" id="step-text">{"Train a model (Train and align) or load one in the Data panel: its greedy search for this pair can then be stepped through here."}</p> };
    };
    if search.steps.is_empty() {
        return html! { <p id="step-text">{"The model classified no candidate of this pair as aligned: the search has no step."}</p> };
    }
    let n = search.steps.len();
    let k = state.step.min(n - 1);
    let go = |to: usize| Callback::from(move |_: MouseEvent| teach.emit(TeachAction::SetStep(to)));
    let step = &search.steps[k];
    let (s, t) = (step.candidate.source, step.candidate.target);
    let taken_before = search.steps[..k].iter().filter(|st| matches!(st.outcome, Outcome::Taken(_))).count();
    let what = match step.outcome {
        Outcome::Taken(link) => format!(
            "taken as link {} of the pair: it conflicts with none of the {taken_before} links taken before.",
            link + 1
        ),
        Outcome::Blocked { by, criterion } => format!(
            "refused: the earlier link {} ↔ {} blocks it under criterion {criterion}.",
            node(&pair.source, by.0),
            node(&pair.target, by.1)
        ),
    };
    let rows = search.steps.iter().enumerate().map(|(i, st)| {
        let onclick = go(i);
        let outcome = match st.outcome {
            Outcome::Taken(l) => format!("taken (link {})", l + 1),
            Outcome::Blocked { by, criterion } => format!("blocked by {}-{} {}", by.0, by.1, criterion_short(criterion)),
        };
        html! {
            <tr class={classes!((i == k).then_some("current"))} aria-current={(i == k).then_some("step")}>
                <td><button type="button" class="link-button" {onclick}>{i + 1}</button></td>
                <td class="text">{format!("{} ↔ {}", node(&pair.source, st.candidate.source), node(&pair.target, st.candidate.target))}</td>
                <td>{format!("{:.4}", st.candidate.score)}</td>
                <td class="text">{outcome}</td>
            </tr>
        }
    });
    html! {
        <>
            <p class="hint">{"The search takes the candidates classified aligned (D > 0) by decreasing posterior, and keeps each one unless an earlier link blocks it under one of the three criteria."}</p>
            <div class="stepper" role="group" aria-label="Search steps">
                <button id="step-first" type="button" onclick={go(0)} disabled={k == 0}>{"« First"}</button>
                <button id="step-prev" type="button" onclick={go(k.saturating_sub(1))} disabled={k == 0}>{"◀ Previous step"}</button>
                <span id="step-counter">{format!("Step {} of {n}", k + 1)}</span>
                <button id="step-next" type="button" onclick={go((k + 1).min(n - 1))} disabled={k + 1 >= n}>{"Next step ▶"}</button>
                <button id="step-last" type="button" onclick={go(n - 1)} disabled={k + 1 >= n}>{"Last »"}</button>
            </div>
            <p id="step-text" aria-live="polite">
                <strong>{format!("Step {}: ", k + 1)}</strong>
                {format!("candidate {} ↔ {} with posterior {:.4} is {what}", node(&pair.source, s), node(&pair.target, t), step.candidate.score)}
            </p>
            <div class="table-scroll" tabindex="0" role="region" aria-label="The search's steps">
                <table id="step-table" class="steps">
                    <caption>{format!("All {n} steps of this pair's search")}</caption>
                    <thead><tr><th scope="col">{"step"}</th><th scope="col">{"candidate"}</th><th scope="col">{"posterior"}</th><th scope="col">{"outcome"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </>
    }
}

fn criterion_short(c: crate::align::greedy::Criterion) -> &'static str {
    use crate::align::greedy::Criterion;
    match c {
        Criterion::LinkedOnce => "(i)",
        Criterion::Descendants => "(ii)",
        Criterion::Ancestors => "(iii)",
    }
}

#[function_component(TeachPanel)]
pub fn teach_panel(props: &TeachProps) -> Html {
    let state = &props.view;
    let Some(pair) = state.corpus.pair(state.pair) else { return html! {} };
    let (title, content) = match state.mode {
        Mode::Teach => ("Align by hand", by_hand(props, pair)),
        Mode::Steps => ("Step through the model's search", steps(props, pair)),
        Mode::Annotate => ("Annotate", super::annotate::annotate(state, pair, props.annotate, props.train)),
        Mode::Inspect => return html! {},
    };
    html! {
        <section class="panel teach" id="teach-panel" aria-labelledby="teach-title">
            <h2 id="teach-title">{title}</h2>
            {content}
        </section>
    }
}
