//! "Why this link?": the explanation of the selected node pair, as the
//! worker computed it from the model ([`crate::align::explain`]): the plain
//! features and the pruning bounds, each kernel component's share of the
//! decision value, the posterior, and what the greedy search did with it.

use yew::prelude::*;

use super::panels::ExplainView;
use super::state::{Mode, SelectAction, TeachAction};
use super::store::Dispatch;
use crate::align::explain::{Explanation, SearchRole, Verdict, FEATURE_NAMES};
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub view: ExplainView,
    /// A link's search step opens in *Search steps*.
    pub select: Dispatch<SelectAction>,
    pub teach: Dispatch<TeachAction>,
}

pub fn num(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e4 || v.abs() < 1e-3 {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

fn node(tree: &Tree, n: NodeId) -> String {
    if tree.contains(n) {
        format!("{} ({n})", tree.label(n))
    } else {
        format!("({n})")
    }
}

fn body(e: &Explanation, src: &Tree, trg: &Tree, select: Dispatch<SelectAction>, teach: Dispatch<TeachAction>) -> Html {
    let candidate = match &e.verdict {
        Verdict::NotCandidate => html! {
            <p id="explain-verdict">{"Not a candidate: the model links phrase nodes only, so it never considered this pair."}</p>
        },
        Verdict::Pruned => html! {
            <p id="explain-verdict">{"Pruned before classification: it fails the bound(s) marked ✗ below (tuned to keep 98% of the gold links)."}</p>
        },
        Verdict::Classified { value, posterior, .. } => html! {
            <p id="explain-verdict">
                {format!("Classified {}: D = {} and posterior P(a+|S,T) = ", if *value > e.threshold { "aligned" } else { "not aligned" }, num(*value))}
                <strong id="explain-posterior" data-value={posterior.to_string()}>{format!("{posterior:.4}")}</strong>
            </p>
        },
    };
    let checks = e.checks.iter().map(|c| {
        let pass = c.passes();
        html! {
            <tr class={classes!((!pass).then_some("fails"))}>
                <th scope="row">{c.feature.name()}</th>
                <td>{num(c.value)}</td>
                <td>{format!("{} {}", if c.lower_bound { "≥" } else { "≤" }, num(c.bound))}</td>
                <td>{if pass { "✓" } else { "✗" }}</td>
            </tr>
        }
    });
    let features = e.features.iter().enumerate().map(|(k, v)| {
        html! { <tr><th scope="row">{FEATURE_NAMES[k]}</th><td data-value={v.to_string()}>{num(*v)}</td></tr> }
    });
    let decision = match &e.verdict {
        Verdict::Classified { parts, value, .. } => {
            let rows = e.components.iter().zip(&e.thetas).zip(parts).enumerate().map(|(k, ((name, theta), part))| {
                html! {
                    <tr><th scope="row">{name}</th><td>{num(*theta)}</td>
                        <td id={format!("explain-part-{k}")} data-value={part.to_string()}>{num(*part)}</td></tr>
                }
            });
            html! {
                <table id="explain-parts">
                    <caption>{"The decision value D = Σ_c θ_c Σ_i α_i y_i K̂_c(sv_i, x) − ρ, by kernel component"}</caption>
                    <thead><tr><th scope="col">{"component c"}</th><th scope="col">{"θ_c"}</th><th scope="col">{"share of D"}</th></tr></thead>
                    <tbody>
                        { for rows }
                        <tr><th scope="row">{"− ρ (bias)"}</th><td></td><td data-value={(-e.rho).to_string()}>{num(-e.rho)}</td></tr>
                    </tbody>
                    <tfoot><tr><th scope="row">{"D"}</th><td></td><td id="explain-value" data-value={value.to_string()}>{num(*value)}</td></tr></tfoot>
                </table>
            }
        }
        _ => html! {},
    };
    // A button that shows the search at `step`.
    let show_step = |step: usize| {
        Callback::from(move |_: MouseEvent| {
            select.emit(SelectAction::SetMode(Mode::Steps));
            teach.emit(TeachAction::SetStep(step));
        })
    };
    let search = match e.role {
        SearchRole::Taken { step, link } => {
            let go = show_step(step);
            html! {
                <p id="explain-search">{format!("Greedy search: offered at step {} of {}, and taken as link {} of the pair. ", step + 1, e.steps, link + 1)}
                    <button type="button" onclick={go}>{"Show this step"}</button></p>
            }
        }
        SearchRole::Blocked { step, by, criterion } => {
            let go = show_step(step);
            html! {
                <p id="explain-search">
                    {format!("Greedy search: offered at step {} of {}, but blocked by the earlier link {} ↔ {}, under criterion {criterion}. ",
                        step + 1, e.steps, node(src, by.0), node(trg, by.1))}
                    <button type="button" onclick={go}>{"Show this step"}</button>
                </p>
            }
        }
        SearchRole::NotSearched => html! {
            <p id="explain-search">{format!("Greedy search: never offered (only candidates classified aligned, D > {}, are).", num(e.threshold))}</p>
        },
    };
    html! {
        <>
            {candidate}
            {search}
            {decision}
            <div class="explain-tables">
                <table id="explain-features">
                    <caption>{"Plain features (paper §4)"}</caption>
                    <tbody>{ for features }</tbody>
                </table>
                if !e.checks.is_empty() {
                    <table id="explain-checks">
                        <caption>{"Pruning bounds (§6.3)"}</caption>
                        <thead><tr><th scope="col">{"feature"}</th><th scope="col">{"value"}</th><th scope="col">{"bound"}</th><th scope="col">{"passes"}</th></tr></thead>
                        <tbody>{ for checks }</tbody>
                    </table>
                }
            </div>
        </>
    }
}

#[function_component(ExplainPanel)]
pub fn explain_panel(props: &ExplainProps) -> Html {
    let view = &props.view;
    let k = view.selection.pair;
    let Some(pair) = view.selection.tree_pair() else { return html! {} };
    let (Some(s), Some(t)) = (view.selection.source, view.selection.target) else {
        return html! {
            <section class="panel explain" id="explain-panel" aria-labelledby="explain-title">
                <h2 id="explain-title">{"Why this link?"}</h2>
                <p class="hint">{"Click a link, or a source node and then a target node, to see why the model did or did not link them."}</p>
            </section>
        };
    };
    let gold = pair.gold.iter().find(|l| (l.source, l.target) == (s, t));
    // A training pair of a held-out test was not aligned: as without results.
    let held_back = view.results.as_deref().filter(|r| !r.aligned(k)).map(|r| r.not_aligned_note());
    let results = view.results.as_deref().filter(|r| r.aligned(k));
    let predicted = results
        .and_then(|r| r.predicted.get(k.index()))
        .is_some_and(|p| p.iter().any(|l| (l.source, l.target) == (s, t)));
    let status = match (gold, results.is_some(), predicted) {
        (Some(g), true, true) => format!("a correct prediction (gold link {g})"),
        (Some(g), true, false) => format!("a missed gold link ({g})"),
        (None, true, true) => "a wrong prediction (not a gold link)".to_string(),
        (None, true, false) => "neither predicted nor gold".to_string(),
        (Some(g), false, _) => format!("a gold link ({g})"),
        (None, false, _) => "not a gold link".to_string(),
    };
    let content = match &view.explained {
        _ if held_back.is_some() => {
            html! { <p class="hint">{format!("{}.", held_back.as_deref().unwrap_or_default())}</p> }
        }
        _ if results.is_none() => html! {
            <p class="hint">{"Train a model or load one and align, to see the model's reasons; the kernel view below works without a model."}</p>
        },
        Some(e) if (e.pair, e.source, e.target) == (k, s, t) => match &e.result {
            None => html! { <p class="hint" id="explain-waiting">{"Asking the worker…"}</p> },
            Some(Err(m)) => html! { <p class="error" role="alert">{m}</p> },
            Some(Ok(e)) => body(e, &pair.source, &pair.target, props.select, props.teach),
        },
        _ => html! { <p class="hint">{"…"}</p> },
    };
    html! {
        <section class="panel explain" id="explain-panel" aria-labelledby="explain-title" aria-live="polite">
            <h2 id="explain-title">{format!("Why {} ↔ {}?", node(&pair.source, s), node(&pair.target, t))}</h2>
            <p id="explain-status">{format!("This node pair is {status}.")}</p>
            {content}
        </section>
    }
}
