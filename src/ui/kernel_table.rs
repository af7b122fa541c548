//! The kernel table: all four spaces × iBTK/dBTK, raw and normalised, for
//! the selected sub-tree pair against the pair chosen for comparison.

use yew::prelude::*;

use super::panels::KernelView;
use super::state::{Compare, SelectAction};
use super::store::Dispatch;
use crate::kernel::{all_btk_values, BtkKind, DeltaTable, Space, SubTree, SubTreePair};
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct KernelTableProps {
    pub view: KernelView,
    /// What the selection is compared with; clearing it.
    pub select: Dispatch<SelectAction>,
    /// λ as typed.
    pub lambda: Dispatch<String>,
}

/// Short display of a value; the exact one is in `data-value`.
fn show(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e5 || v.abs() < 1e-4 {
        format!("{v:.4e}")
    } else {
        format!("{v:.6}")
    }
}

/// The decay factor of the kernel view (not the training form's).
fn lambda_field(state: &KernelView, lambda: Dispatch<String>) -> Html {
    let on_lambda = Callback::from(move |e: Event| {
        lambda.emit(e.target_unchecked_into::<web_sys::HtmlInputElement>().value());
    });
    html! {
        <p class="lambda">
            <label>{"λ of the kernel view (decay, §2.1) "}
                <input id="lambda" type="number" step="0.05" min="0.01" value={state.lambda.text.clone()} onchange={on_lambda} />
            </label>
            if let Some(err) = &state.lambda.error {
                {" "}<span class="error" role="alert">{err}</span>
            }
        </p>
    }
}

#[function_component(KernelTable)]
pub fn kernel_table(props: &KernelTableProps) -> Html {
    let state = &props.view;
    let Some(pair) = state.selection.tree_pair() else { return html! {} };
    let (Some(s), Some(t)) = (state.selection.source, state.selection.target) else {
        let next = if state.selection.source.is_none() { "a source node" } else { "a target node" };
        return html! {
            <section class="panel kernels" id="kernel-panel">
                <p class="hint">{format!("Select {next} to see the kernel values.")}</p>
                {lambda_field(state, props.lambda)}
            </section>
        };
    };
    let Some((ys, yt)) = state.comparison else { return html! {} };
    let x = SubTreePair::new(SubTree::new(&pair.source, s), SubTree::new(&pair.target, t));
    let y = SubTreePair::new(SubTree::new(&pair.source, ys), SubTree::new(&pair.target, yt));
    // A pathological pair is refused with the engine's limit error, shown in place of the values.
    let (values, refused) = match all_btk_values(state.lambda.value, x, y) {
        Ok(values) => (values, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let cell = |kind: BtkKind, space: Space, normalized: bool| {
        let v = values.iter().find(|v| v.kind == kind && v.space == space).map_or(0.0, |v| {
            if normalized {
                v.normalized
            } else {
                v.raw
            }
        });
        let id = format!("k-{kind}-{space}-{}", if normalized { "norm" } else { "raw" });
        html! { <td id={id} data-value={v.to_string()}>{show(v)}</td> }
    };
    let rows = Space::ALL.iter().map(|&space| {
        html! {
            <tr>
                <th scope="row">{space.paper_name()}</th>
                {cell(BtkKind::Ibtk, space, false)}{cell(BtkKind::Ibtk, space, true)}
                {cell(BtkKind::Dbtk, space, false)}{cell(BtkKind::Dbtk, space, true)}
            </tr>
        }
    });
    let select = props.select;
    let on_compare = {
        let gold = pair.gold.clone();
        Callback::from(move |e: Event| {
            let c = match e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().as_str() {
                "auto" => Compare::Auto,
                "itself" => Compare::Itself,
                v => v.parse::<usize>().ok().and_then(|i| gold.get(i)).map_or(Compare::Auto, |l| Compare::Gold(*l)),
            };
            select.emit(SelectAction::SetCompare(c));
        })
    };
    let selected_value = match state.compare {
        Compare::Auto => "auto".to_string(),
        Compare::Itself => "itself".to_string(),
        Compare::Gold(l) => pair.gold.iter().position(|g| *g == l).map_or("auto".into(), |i| i.to_string()),
    };
    let describe = |tree: &crate::tree::Tree, n| format!("{} ({n})", tree.label(n));
    let options = pair.gold.iter().enumerate().map(|(i, l)| {
        html! {
            <option value={i.to_string()} selected={selected_value == i.to_string()}>
                {format!("gold link {l}: {} ↔ {}", describe(&pair.source, l.source), describe(&pair.target, l.target))}
            </option>
        }
    });
    let clear = Callback::from(move |_: MouseEvent| select.emit(SelectAction::Clear));
    html! {
        <section class="panel kernels" id="kernel-panel" aria-label="Kernel values">
            <h2>{"Bilingual tree kernels"}</h2>
            {lambda_field(state, props.lambda)}
            <dl class="selection">
                <dt>{"Selected pair x"}</dt>
                <dd><code id="x-source">{pair.source.subtree_bracketed(s)}</code><br/><code id="x-target">{pair.target.subtree_bracketed(t)}</code></dd>
                <dt><label for="compare">{"Compared with y"}</label></dt>
                <dd>
                    <select id="compare" onchange={on_compare}>
                        <option value="auto" selected={selected_value == "auto"}>{"the nearest other gold link (at the selected nodes, else below, else above them)"}</option>
                        <option value="itself" selected={selected_value == "itself"}>{"itself"}</option>
                        { for options }
                    </select><br/>
                    // A large y (a link near the roots) scrolls in a few lines, so the table stays in view.
                    <code id="y-source" class="bracketed" tabindex="0" role="region" aria-label="y's source sub-tree, bracketed">{pair.source.subtree_bracketed(ys)}</code>
                    <code id="y-target" class="bracketed" tabindex="0" role="region" aria-label="y's target sub-tree, bracketed">{pair.target.subtree_bracketed(yt)}</code>
                    if (ys, yt) == (s, t) {
                        <p class="hint" id="compare-note">{if state.compare == Compare::Itself {
                            "y is x itself: every normalised value is 1 by definition."
                        } else {
                            "y is x itself: every normalised value is 1 by definition (the pair has no other gold link to compare x with)."
                        }}</p>
                    }
                </dd>
            </dl>
            <table id="kernel-table">
                <caption>{format!("K(x, y) with λ = {}; normalised: K(x,y)/√(K(x,x)·K(y,y))", state.lambda.value)}</caption>
                <thead>
                    <tr><th scope="col">{"space"}</th><th scope="col">{"iBTK"}</th><th scope="col">{"iBTK normalised"}</th>
                        <th scope="col">{"dBTK"}</th><th scope="col">{"dBTK normalised"}</th></tr>
                </thead>
                <tbody>{ for rows }</tbody>
            </table>
            if let Some(e) = refused {
                <p class="error" id="kernel-error" role="alert">{e}</p>
            }
            <button id="clear-selection" onclick={clear}>{"Clear selection"}</button>
            <h3>{"What the kernels are made of: Δ over matching productions"}</h3>
            <p class="hint">{"Δ(n, n′) counts the sub-set-tree fragments rooted at both nodes: 0 unless their productions match; λ for two POS nodes; else λ ∏ (1 + Δ(children)). K_SST sums Δ over all node pairs; K_RgSST is Δ of the two roots; K_RdSST is K_SST when the root labels match; iBTK adds the source and target kernels, dBTK multiplies them."}</p>
            <div class="delta-tables">
                {delta_table("delta-src", "Source sub-trees", &pair.source, s, ys, state.lambda.value)}
                {delta_table("delta-trg", "Target sub-trees", &pair.target, t, yt, state.lambda.value)}
            </div>
        </section>
    }
}

/// Rows shown per Δ table at most (the sums cover every pair).
const DELTA_ROWS: usize = 60;

/// The Δ recursion between sub-tree `a` (of x) and `b` (of y) of one tree:
/// every node pair with matching productions, its production and Δ.
fn delta_table(id: &'static str, title: &'static str, tree: &Tree, a: NodeId, b: NodeId, lambda: f64) -> Html {
    let (x, y) = (SubTree::new(tree, a), SubTree::new(tree, b));
    let table = match DeltaTable::new(x, y, lambda) {
        Ok(table) => table,
        Err(e) => return html! { <p id={id} class="error delta">{format!("{title}: {e}")}</p> },
    };
    let sst = table.sum_over(x, y);
    let root = table.get(a, b);
    let node = |n: NodeId| format!("{} ({n})", tree.label(n));
    let rows = table.iter().take(DELTA_ROWS).map(|((u, v), delta)| {
        let is_root = (u, v) == (a, b);
        html! {
            <tr class={classes!(is_root.then_some("root-pair"))}>
                <td class="text">{node(u)}</td><td class="text">{node(v)}</td>
                <td class="text"><code>{tree.production(u).to_string()}</code></td>
                <td data-value={delta.to_string()}>{show(delta)}</td>
            </tr>
        }
    });
    html! {
        <table id={id} class="delta">
            <caption>{format!("{title}: {} matching node pairs; Σ Δ = K_SST = {}; Δ(roots) = K_RgSST = {}", table.len(), show(sst), show(root))}</caption>
            <thead><tr><th scope="col">{"node of x"}</th><th scope="col">{"node of y"}</th><th scope="col">{"production"}</th><th scope="col">{"Δ"}</th></tr></thead>
            <tbody>
                { for rows }
                if table.len() > DELTA_ROWS {
                    <tr><td colspan="4" class="text">{format!("… and {} more pairs (included in the sum)", table.len() - DELTA_ROWS)}</td></tr>
                }
            </tbody>
            <tfoot><tr><th scope="row" colspan="3">{"K_SST = Σ Δ"}</th><td id={format!("{id}-sum")} data-value={sst.to_string()}>{show(sst)}</td></tr></tfoot>
        </table>
    }
}
