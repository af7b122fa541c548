//! The results panel: corpus P/R/F of the model and of the Tinsley et al.
//! (2007) baseline side by side, the precision/recall curve over the
//! posterior threshold, and the per-pair scores, sortable to find the
//! worst pairs.

use yew::prelude::*;

use super::state::{
    Results, SelectAction, Shared, SortKey, ON_TRAINING_DATA, PREVIEW_LABEL, PREVIEW_NEXT, TRAINING_DATA_ADVICE,
};
use super::store::Dispatch;
use crate::align::explain::CurvePoint;
use crate::corpus::{Corpus, PairIndex};
use crate::eval::errors::{bucket_name, share, ErrorTable, GroupCounts, Miss};
use crate::eval::prf::Counts;

#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    /// The results of the trees loaded, if any.
    pub results: Option<Shared<Results>>,
    pub corpus: Shared<Corpus>,
    pub sort: (SortKey, bool),
    pub pair: PairIndex,
    /// The table's column to sort by (again: the other way).
    pub order: Dispatch<SortKey>,
    /// Opening a pair of the table.
    pub select: Dispatch<SelectAction>,
}

fn corpus_row(id: &str, name: &str, c: &Counts) -> Html {
    let cell =
        |k: &str, v: f64| html! { <td id={format!("{id}-{k}")} data-value={v.to_string()}>{format!("{v:.2}")}</td> };
    html! {
        <tr id={id.to_string()}>
            <th scope="row">{name}</th>
            {cell("p", c.precision())}{cell("r", c.recall())}{cell("f", c.f())}{cell("rgood", c.recall_good())}
            <td id={format!("{id}-correct")}>{c.correct}</td>
            <td id={format!("{id}-predicted")}>{c.predicted}</td>
            <td>{c.gold}</td>
        </tr>
    }
}

/// The curve in a small SVG plot: recall across, precision up, both in %.
fn curve_plot(curve: &[CurvePoint], model: &Counts, baseline: &Counts) -> Html {
    let (w, h, left, bottom, top, right) = (420.0, 300.0, 48.0, 40.0, 12.0, 16.0);
    let x = |r: f64| left + r / 100.0 * (w - left - right);
    let y = |p: f64| h - bottom - p / 100.0 * (h - bottom - top);
    // At most about 400 vertices (the last, the model's output, always): enough for 400 px.
    let step = (curve.len() / 400).max(1);
    let points: String = curve
        .iter()
        .enumerate()
        .filter(|(k, _)| k % step == 0 || k + 1 == curve.len())
        .map(|(_, p)| format!("{:.2},{:.2} ", x(p.counts.recall()), y(p.counts.precision())))
        .collect();
    let ticks = (0..=5).map(|k| {
        let v = k as f64 * 20.0;
        html! {
            <g class="tick">
                <line x1={x(v).to_string()} y1={y(0.0).to_string()} x2={x(v).to_string()} y2={y(100.0).to_string()} class="grid" />
                <line x1={x(0.0).to_string()} y1={y(v).to_string()} x2={x(100.0).to_string()} y2={y(v).to_string()} class="grid" />
                <text x={x(v).to_string()} y={(y(0.0) + 16.0).to_string()} text-anchor="middle">{v.to_string()}</text>
                <text x={(x(0.0) - 6.0).to_string()} y={(y(v) + 4.0).to_string()} text-anchor="end">{v.to_string()}</text>
            </g>
        }
    });
    let (mx, my) = (x(model.recall()), y(model.precision()));
    let (bx, by) = (x(baseline.recall()), y(baseline.precision()));
    let diamond = format!("M {bx} {} L {} {by} L {bx} {} L {} {by} Z", by - 7.0, bx + 7.0, by + 7.0, bx - 7.0);
    let label = format!(
        "Precision against recall as the posterior threshold falls from {:.3} to {:.3}; the model's output (its threshold on D) at P {:.1}, R {:.1}; the baseline at P {:.1}, R {:.1}.",
        curve.first().map_or(1.0, |p| p.threshold),
        curve.last().map_or(0.5, |p| p.threshold),
        model.precision(),
        model.recall(),
        baseline.precision(),
        baseline.recall()
    );
    html! {
        <figure class="curve">
            <svg id="pr-curve" class="plot" width={w.to_string()} height={h.to_string()} viewBox={format!("0 0 {w} {h}")}
                role="img" aria-label={label}>
                { for ticks }
                <polyline class="curve-line" points={points} />
                <circle class="model-point" cx={mx.to_string()} cy={my.to_string()} r="6" />
                <path class="baseline-point" d={diamond} />
                <text class="axis" x={x(50.0).to_string()} y={(h - 6.0).to_string()} text-anchor="middle">{"recall (%)"}</text>
                <text class="axis" x="14" y={y(50.0).to_string()} text-anchor="middle" transform={format!("rotate(-90 14 {})", y(50.0))}>{"precision (%)"}</text>
            </svg>
            <figcaption>
                <span class="legend-item"><span class="curve-swatch"></span>{"model, over the posterior threshold"}</span>
                <span class="legend-item"><span class="point-swatch model"></span>{"model's output"}</span>
                <span class="legend-item"><span class="point-swatch baseline"></span>{"baseline"}</span>
            </figcaption>
        </figure>
    }
}

/// A few points of the curve as a table (the text alternative; the CSV export has all).
fn curve_table(curve: &[CurvePoint]) -> Html {
    let n = curve.len();
    let picks: Vec<usize> = if n <= 12 { (0..n).collect() } else { (0..12).map(|k| k * (n - 1) / 11).collect() };
    let rows = picks.into_iter().map(|k| {
        let p = &curve[k];
        html! {
            <tr><td>{format!("{:.4}", p.threshold)}</td><td>{p.counts.predicted}</td>
                <td>{format!("{:.2}", p.counts.precision())}</td><td>{format!("{:.2}", p.counts.recall())}</td><td>{format!("{:.2}", p.counts.f())}</td></tr>
        }
    });
    html! {
        <details>
            <summary>{format!("The curve as a table ({n} thresholds; a sample of 12 shown, all in the CSV export)")}</summary>
            <table id="curve-table">
                <thead><tr><th scope="col">{"posterior ≥"}</th><th scope="col">{"links"}</th><th scope="col">{"P"}</th><th scope="col">{"R"}</th><th scope="col">{"F"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </details>
    }
}

fn sort_value(r: &Results, corpus: &Corpus, key: SortKey, k: usize) -> f64 {
    let m = &r.model_counts[k];
    match key {
        SortKey::Pair => k as f64,
        SortKey::Words => corpus.pairs[k].source.words().len() as f64,
        SortKey::Gold => m.gold as f64,
        SortKey::Predicted => m.predicted as f64,
        SortKey::Correct => m.correct as f64,
        SortKey::P => m.precision(),
        SortKey::R => m.recall(),
        SortKey::F => m.f(),
        SortKey::BaselineF => r.baseline_counts[k].f(),
    }
}

#[derive(Properties, PartialEq)]
struct PairTableProps {
    results: Shared<Results>,
    corpus: Shared<Corpus>,
    sort: (SortKey, bool),
    pair: PairIndex,
    order: Dispatch<SortKey>,
    select: Dispatch<SelectAction>,
}

/// The per-pair table: a component of its own, so that it is rebuilt only
/// when the results, the sort or the pair change (it can have thousands of rows).
#[function_component(PairTable)]
fn pair_table(props: &PairTableProps) -> Html {
    let (r, corpus) = (&*props.results, &*props.corpus);
    let (key, ascending) = props.sort;
    let (sort, select) = (props.order, props.select);
    // The pairs aligned (all, or the held-out test's).
    let mut order: Vec<usize> = r.pairs().filter(|&k| k < r.model_counts.len().min(corpus.len())).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (sort_value(r, corpus, key, a), sort_value(r, corpus, key, b));
        let o = va.total_cmp(&vb).then(a.cmp(&b));
        if ascending {
            o
        } else {
            o.reverse()
        }
    });
    let header = |k: SortKey, label: &str, id: &str| {
        let onclick = Callback::from(move |_: MouseEvent| sort.emit(k));
        let (aria_sort, arrow) = match (key == k, ascending) {
            (false, _) => ("none", ""),
            (true, true) => ("ascending", " ▲"),
            (true, false) => ("descending", " ▼"),
        };
        html! {
            <th scope="col" aria-sort={aria_sort}>
                <button type="button" id={format!("sort-{id}")} class="sort" {onclick}>{format!("{label}{arrow}")}</button>
            </th>
        }
    };
    let show_all = use_state(|| false);
    let shown = if *show_all { order.len() } else { order.len().min(ROWS) };
    let rows = order[..shown].iter().map(|&k| {
        let (m, b) = (&r.model_counts[k], &r.baseline_counts[k]);
        let onclick = Callback::from(move |_: MouseEvent| {
            select.emit(SelectAction::SelectPair(PairIndex::new(k)));
            if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("workbench")) {
                el.scroll_into_view();
            }
        });
        let current = k == props.pair.index();
        html! {
            <tr key={k} class={classes!(current.then_some("current"))} aria-current={current.then_some("true")} data-pair={(k + 1).to_string()}>
                <td><button type="button" class="link-button" {onclick} aria-label={format!("Show pair {}", k + 1)}>{k + 1}</button></td>
                <td>{format!("{}/{}", corpus.pairs[k].source.words().len(), corpus.pairs[k].target.words().len())}</td>
                <td>{m.gold}</td><td class="predicted">{m.predicted}</td><td class="correct">{m.correct}</td>
                <td>{format!("{:.1}", m.precision())}</td><td>{format!("{:.1}", m.recall())}</td><td class="f">{format!("{:.1}", m.f())}</td>
                <td>{format!("{:.1}", b.f())}</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll tall" tabindex="0" role="region" aria-label="The per-pair scores">
            <table id="pair-table" class="pairs">
                <caption>{"Per pair (click a number to show the pair; click a heading to sort, again to reverse)"}</caption>
                <thead><tr>
                    {header(SortKey::Pair, "pair", "pair")}{header(SortKey::Words, "words", "words")}
                    {header(SortKey::Gold, "gold", "gold")}{header(SortKey::Predicted, "predicted", "predicted")}
                    {header(SortKey::Correct, "correct", "correct")}{header(SortKey::P, "P", "p")}{header(SortKey::R, "R", "r")}
                    {header(SortKey::F, "F", "f")}{header(SortKey::BaselineF, "baseline F", "baseline-f")}
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if shown < order.len() {
                <button type="button" id="show-all-pairs" onclick={Callback::from(move |_: MouseEvent| show_all.set(true))}>
                    {format!("Show all {} pairs (the first {shown} in this order are shown)", order.len())}
                </button>
            }
        </div>
    }
}

/// Examples per kind in the error table (as `treelink eval --errors`'s default).
const ERROR_EXAMPLES: usize = 3;
/// Label pairs in the error table (as `treelink eval --errors`'s default).
const ERROR_LABEL_ROWS: usize = 15;

#[derive(Properties, PartialEq)]
struct ErrorsProps {
    results: Shared<Results>,
    corpus: Shared<Corpus>,
    select: Dispatch<SelectAction>,
}

/// The model's wrong and missed links by kind, by label pair and by span
/// length, as `treelink eval --errors` prints them for the pairs aligned;
/// an example opens its pair with the link selected.
#[function_component(ErrorsTable)]
fn errors_table(props: &ErrorsProps) -> Html {
    let table = use_memo((props.results.clone(), props.corpus.clone()), |(r, corpus)| {
        let range = r.pairs();
        let pairs = corpus.pairs.get(range.clone()).unwrap_or(&[]);
        let predicted = r.predicted.get(range.clone()).unwrap_or(&[]);
        ErrorTable::of_pairs_from(range.start, pairs.iter().zip(predicted.iter().map(Vec::as_slice)), ERROR_EXAMPLES)
    });
    let kind_rows = [Miss::Wrong, Miss::Missed].into_iter().flat_map(|miss| {
        let total = table.total(miss);
        let select = props.select;
        table.kinds.iter().filter(move |r| r.miss == miss).map(move |row| {
            let examples = row.examples.iter().map(|e| {
                let (pair, s, t) = (e.pair, e.source, e.target);
                let onclick = Callback::from(move |_: MouseEvent| {
                    select.emit(SelectAction::SelectPair(pair));
                    select.emit(SelectAction::SelectLink(s, t));
                    if let Some(el) =
                        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("workbench"))
                    {
                        el.scroll_into_view();
                    }
                });
                html! {
                    <li><button type="button" class="link-button error-example" {onclick}
                        data-pair={pair.number().to_string()} data-link={format!("{s}-{t}")}>{e.to_string()}</button></li>
                }
            });
            html! {
                <tr data-miss={miss.name()}>
                    <th scope="row">{format!("{} — {}", miss.name(), row.kind.describe(miss))}</th>
                    <td class="count">{row.count}</td>
                    <td>{format!("{:.1}%", share(row.count, total))}</td>
                    <td><ul class="examples">{ for examples }</ul></td>
                </tr>
            }
        })
    });
    let label_rows = table.label_pairs.iter().take(ERROR_LABEL_ROWS).map(|((s, t), g)| (format!("{s} / {t}"), *g));
    let span_rows = table.span_lengths.iter().enumerate().map(|(k, g)| (bucket_name(k), *g));
    let label_caption = format!(
        "By label pair (source / target), most errors first; the first {ERROR_LABEL_ROWS} of {}",
        table.label_pairs.len()
    );
    html! {
        <details class="errors" id="errors">
            <summary>{format!(
                "The model's errors: {} wrong and {} missed links, by kind (as `treelink eval --errors`)",
                table.total(Miss::Wrong),
                table.total(Miss::Missed)
            )}</summary>
            <div class="table-scroll" tabindex="0" role="region" aria-label="The errors by kind">
                <table id="errors-kinds" class="scores">
                    <caption>{"Wrong (predicted, not gold) and missed (gold, not predicted) links between phrase nodes, by kind; an example opens its pair with the link selected"}</caption>
                    <thead><tr><th scope="col">{"kind"}</th><th scope="col">{"links"}</th><th scope="col">{"share"}</th><th scope="col">{"examples"}</th></tr></thead>
                    <tbody>{ for kind_rows }</tbody>
                </table>
            </div>
            {group_table("errors-labels", "The errors by label pair", &label_caption, "labels", label_rows)}
            {group_table("errors-spans", "The errors by span length", "By span length (words, the longer side)", "words", span_rows)}
        </details>
    }
}

/// Correct, wrong and missed links per group (a label pair, a span length), as a table.
fn group_table(
    id: &'static str,
    region: &'static str,
    caption: &str,
    group: &'static str,
    rows: impl Iterator<Item = (String, GroupCounts)>,
) -> Html {
    let rows = rows.map(|(name, g)| {
        html! { <tr><th scope="row">{name}</th><td>{g.correct}</td><td>{g.wrong}</td><td>{g.missed}</td></tr> }
    });
    html! {
        <div class="table-scroll" tabindex="0" role="region" aria-label={region}>
            <table {id} class="scores">
                <caption>{caption.to_string()}</caption>
                <thead><tr><th scope="col">{group}</th><th scope="col">{"correct"}</th><th scope="col">{"wrong"}</th><th scope="col">{"missed"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// Rows of the per-pair table shown until asked for all (sort to find the worst pairs).
const ROWS: usize = 200;

#[function_component(ResultsPanel)]
pub fn results_panel(props: &ResultsProps) -> Html {
    let Some(shared) = props.results.clone() else {
        return html! {
            <section class="panel results" id="results-panel" aria-labelledby="results-title">
                <h2 id="results-title">{"Results"}</h2>
                <p class="hint">{"Train a model (or load one) and align to see precision, recall and F of the model and of the Tinsley et al. (2007) baseline."}</p>
            </section>
        };
    };
    let r = &*shared;
    // A first model's: its scores alone (no baseline ran), until the chosen model's replace them.
    if r.preview {
        let summary = &r.model;
        return html! {
            <section class="panel results" id="results-panel" aria-labelledby="results-title">
                <h2 id="results-title">{"Results"}</h2>
                <p class="preview-note" id="results-preview" role="status">
                    <strong>{PREVIEW_LABEL}</strong>{format!(": {summary}. {PREVIEW_NEXT}")}
                </p>
                <table id="results-table" class="scores">
                    <caption>{format!("The {} pairs aligned by the first model, scored against the gold links (%)", r.pairs().len())}</caption>
                    <thead><tr><th scope="col">{"aligner"}</th><th scope="col">{"P"}</th><th scope="col">{"R"}</th><th scope="col">{"F"}</th>
                        <th scope="col">{"R (good)"}</th><th scope="col">{"correct"}</th><th scope="col">{"predicted"}</th><th scope="col">{"gold"}</th></tr></thead>
                    <tbody>{corpus_row("results-model", "the first model (SVM + greedy search)", &r.model_total)}</tbody>
                </table>
            </section>
        };
    }
    html! {
        <section class="panel results" id="results-panel" aria-labelledby="results-title">
            <h2 id="results-title">{"Results"}</h2>
            <p class="hint" id="results-note">{format!("Model: {}. {}", r.model, r.lexicon)}</p>
            if let Some(note) = &r.held_out {
                <p class="held-out-note" id="held-out-note" role="note">{note}</p>
            }
            if r.trained_on_these() {
                {training_data_warning("results-caution")}
            }
            <div class="results-grid">
                <div>
                    <table id="results-table" class="scores">
                        <caption>{match r.held_out {
                            Some(_) => format!("The {} held-out pairs {}–{}: links between phrase nodes, scored against the gold links (%)", r.pairs().len(), r.first_aligned + 1, r.pairs().end),
                            None => format!("All {} pairs: links between phrase nodes, scored against the gold links (%)", props.corpus.len()),
                        }}</caption>
                        <thead><tr><th scope="col">{"aligner"}</th><th scope="col">{"P"}</th><th scope="col">{"R"}</th><th scope="col">{"F"}</th>
                            <th scope="col">{"R (good)"}</th><th scope="col">{"correct"}</th><th scope="col">{"predicted"}</th><th scope="col">{"gold"}</th></tr></thead>
                        <tbody>
                            {corpus_row("results-model", "the model (SVM + greedy search)", &r.model_total)}
                            {corpus_row("results-baseline", "baseline (Tinsley et al. 2007, s1 + skip2 + span1)", &r.baseline_total)}
                        </tbody>
                    </table>
                    {curve_table(&r.curve)}
                </div>
                {curve_plot(&r.curve, &r.model_total, &r.baseline_total)}
            </div>
            <ErrorsTable results={shared.clone()} corpus={props.corpus.clone()} select={props.select} />
            <PairTable results={shared.clone()} corpus={props.corpus.clone()} sort={props.sort} pair={props.pair}
                order={props.order} select={props.select} />
        </section>
    }
}

/// The one warning on scores of training data ([`ON_TRAINING_DATA`]), the same in every view.
pub fn training_data_warning(id: &'static str) -> Html {
    html! { <p class="caution training-data" role="note" {id}>{"⚠ "}{ON_TRAINING_DATA}{" "}{TRAINING_DATA_ADVICE}</p> }
}

/// The same warning beside a line of scores (the pair's summary, which
/// leaves its height to the diagram): what to do is its title.
pub fn training_data_warning_inline(id: &'static str) -> Html {
    html! { <span class="caution training-data" role="note" {id} title={TRAINING_DATA_ADVICE}>{"⚠ "}{ON_TRAINING_DATA}</span> }
}
