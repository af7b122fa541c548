//! The tree-pair diagram: both trees and the links the state says to draw
//! (gold; predicted vs gold; the student's; a search step), in SVG, with a
//! legend, zoom (never below readable text: a long pair pans), fit, zoom to
//! the selection, and folding a sub-tree to its label and yield. Geometry
//! comes from [`crate::layout`] ([`Drawing`]: the folded trees and their
//! layout) and the link curves and stylesheet from [`crate::svg`], as
//! in the exported file; links are drawn beneath the boxes and the words,
//! which carry a white halo. Labels and words are text nodes (never
//! markup), so `<script>` in a label shows as text.

use std::collections::BTreeSet;
use std::rc::Rc;

use web_sys::Element;
use yew::prelude::*;

use super::folds::Side;
use super::state::{FoldAction, SelectAction};
use super::store::Dispatch;
use crate::corpus::TreePair;
use crate::layout::{clamp_zoom, fit_zoom, union, zoom_to, Drawing, FoldedTree, Style, TreeLayout};
use crate::svg::{edge_line, link_path, tree_edges, DrawnLink, LinkStyle};
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub pair: Rc<TreePair>,
    pub links: Rc<Vec<DrawnLink>>,
    pub selected_source: Option<NodeId>,
    pub selected_target: Option<NodeId>,
    /// Teaching: the source node waiting for its target.
    pub pending: Option<NodeId>,
    /// Clicks on nodes and links, and the pair keys.
    pub select: Dispatch<SelectAction>,
    /// The fold controls.
    pub fold: Dispatch<FoldAction>,
    /// What clicking does, in a sentence.
    pub hint: AttrValue,
    /// The pair's folded nodes (source, target), original ids.
    pub folds: Rc<(BTreeSet<NodeId>, BTreeSet<NodeId>)>,
    /// Drawn at the end of the zoom row (the page's find box), so the
    /// controls above the diagram take one row.
    #[prop_or_default]
    pub children: Html,
}

struct TreeView<'a> {
    /// The original tree (labels, spans, the selection's sub-tree).
    tree: &'a Tree,
    /// The tree as drawn, folded.
    drawn: &'a FoldedTree,
    layout: &'a TreeLayout,
    side: Side,
    selected: Option<NodeId>,
    pending: Option<NodeId>,
    /// Per drawn node: a link ends at it.
    linked: Vec<bool>,
}

fn click(side: Side, n: NodeId) -> SelectAction {
    match side {
        Side::Source => SelectAction::ClickSource(n),
        Side::Target => SelectAction::ClickTarget(n),
    }
}

/// The small −/+ control left of a phrase node's box: folds its sub-tree to
/// its label and yield, or unfolds it.
fn fold_control(side: Side, n: NodeId, label: &str, folded: bool, x: f64, y: f64, fold: Dispatch<FoldAction>) -> Html {
    let toggle = {
        Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            fold.emit(FoldAction::Toggle(side, n))
        })
    };
    let onkeydown = {
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                e.stop_propagation();
                fold.emit(FoldAction::Toggle(side, n));
            }
        })
    };
    let what = format!("{} {label} ({n})", if folded { "Unfold" } else { "Fold" });
    html! {
        <g class={classes!("fold", folded.then_some("is-folded"))} id={format!("{}-fold-{n}", side.name())} role="button" tabindex="0"
            aria-label={what.clone()} aria-expanded={(!folded).to_string()} onclick={toggle} {onkeydown}>
            <title>{what}</title>
            <rect x={(x - 5.0).to_string()} y={(y - 5.0).to_string()} width="10" height="10" rx="2" />
            <text x={x.to_string()} y={(y + 3.5).to_string()} text-anchor="middle">{if folded { "+" } else { "−" }}</text>
        </g>
    }
}

fn draw_tree(v: &TreeView<'_>, select: Dispatch<SelectAction>, fold: Dispatch<FoldAction>) -> Html {
    let (tree, drawn) = (v.tree, &v.drawn.tree);
    let in_selection = |orig: NodeId| v.selected.is_some_and(|s| tree.contains(s) && tree.subtree(s).contains(&orig));
    // Edges first so boxes are drawn over them.
    let edges = tree_edges(drawn, v.layout).into_iter().map(|(d, from, to)| {
        let (x1, y1, x2, y2) = edge_line(&from, &to);
        let class = if in_selection(v.drawn.original[d.index()]) { "edge in-selection" } else { "edge" };
        html! { <line class={class} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    });
    let nodes = (0..drawn.len()).map(|d| {
        let n = v.drawn.original[d];
        let folded = v.drawn.folded[d];
        let r = v.layout.nodes[d];
        let side = v.side;
        let onclick = {
            Callback::from(move |_: MouseEvent| select.emit(click(side, n)))
        };
        let onkeydown = {
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    select.emit(click(side, n));
                }
            })
        };
        let class = classes!(
            "node",
            if tree.is_pos(n) { "pos" } else { "phrase" },
            folded.then_some("folded"),
            in_selection(n).then_some("in-selection"),
            (v.selected == Some(n)).then_some("selected"),
            (v.pending == Some(n)).then_some("pending"),
            v.linked[d].then_some("linked"),
        );
        let span = tree.span(n);
        let title = format!(
            "{} node {n}: {} — words {}–{}{}",
            side.name(),
            tree.label(n),
            span.start + 1,
            span.end,
            if folded { format!(" (folded: {})", tree.yield_of(n).join(" ")) } else { String::new() }
        );
        let pressed = v.selected == Some(n) || v.pending == Some(n);
        let control = tree.is_phrase(n).then(|| fold_control(side, n, tree.label(n), folded, r.left() - 6.0, r.cy, fold));
        html! {
            <>
            <g class={class} id={format!("{}-node-{n}", side.name())} data-node={n.to_string()} tabindex="0" role="button"
                aria-label={title.clone()} aria-pressed={pressed.to_string()} {onclick} {onkeydown}>
                <title>{title}</title>
                <rect x={r.left().to_string()} y={r.top().to_string()} width={r.width.to_string()} height={r.height.to_string()} rx="4" />
                <text x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{tree.label(n)}</text>
                <text class="node-id" x={(r.right() + 1.0).to_string()} y={(r.top() + 2.0).to_string()}>{n.to_string()}</text>
            </g>
            {for control}
            </>
        }
    });
    // Each drawn word's original node (its POS node, or the folded node whose yield it is).
    let word_node: Vec<NodeId> = {
        let mut w = vec![NodeId::ROOT; drawn.words().len()];
        for d in drawn.node_ids().filter(|&d| drawn.is_pos(d)) {
            if let Some(slot) = w.get_mut(drawn.span(d).start) {
                *slot = v.drawn.original[d.index()];
            }
        }
        w
    };
    let words = drawn.words().iter().zip(&v.layout.words).zip(word_node).map(|((w, r), n)| {
        let folded = tree.is_phrase(n);
        let class = classes!("word", folded.then_some("folded"), in_selection(n).then_some("in-selection"));
        html! { <text class={class} x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{w}</text> }
    });
    html! { <g class={format!("tree {}", v.side.name())}>{ for edges }{ for nodes }{ for words }</g> }
}

/// A legend swatch: a short stretch of the link style itself.
fn swatch(style: LinkStyle) -> Html {
    html! {
        <span class="legend-item">
            <svg class="tl-diagram swatch" width="44" height="12" aria-hidden="true">
                <path class={style.class()} d="M 3 6 L 41 6" />
            </svg>
            {style.legend()}
        </span>
    }
}

/// The scroll box's inner size (px).
fn box_size(scroller: &NodeRef) -> Option<(f64, f64)> {
    scroller.cast::<Element>().map(|el| (el.client_width() as f64, el.client_height() as f64))
}

#[function_component(Diagram)]
pub fn diagram(props: &DiagramProps) -> Html {
    let pair = &props.pair;
    let drawing = use_memo((pair.clone(), props.folds.clone()), |(pair, folds)| {
        Drawing::new(&pair.source, &pair.target, &folds.0, &folds.1, &Style::default())
    });
    let zoom = use_state(|| 1.0f64);
    let hover = use_state(|| None::<String>);
    let scroller = use_node_ref();
    // Where to scroll once the zoomed drawing is rendered (left, top).
    let scroll_to = use_mut_ref(|| None::<(f64, f64)>);
    {
        // A new pair: what was hovered is gone, and the pair is fitted to the box
        // (shrunk at most to readable text; a long pair pans instead).
        let (hover, zoom, scroller, scroll_to) = (hover.clone(), zoom.clone(), scroller.clone(), scroll_to.clone());
        let (w, h) = (drawing.layout.width, drawing.layout.height);
        use_effect_with(pair.clone(), move |_| {
            hover.set(None);
            if let Some((bw, bh)) = box_size(&scroller) {
                zoom.set(fit_zoom(w, h, bw - 4.0, bh - 4.0));
            }
            *scroll_to.borrow_mut() = Some((0.0, 0.0));
        });
    }
    {
        let (scroller, scroll_to) = (scroller.clone(), scroll_to.clone());
        use_effect(move || {
            if let (Some((left, top)), Some(el)) = (scroll_to.borrow_mut().take(), scroller.cast::<Element>()) {
                el.set_scroll_left(left.round() as i32);
                el.set_scroll_top(top.round() as i32);
            }
        });
    }
    // Panning: where the drag started (pointer x, y, scroll left, top).
    let drag = use_mut_ref(|| None::<(i32, i32, i32, i32)>);

    let mut src_linked = vec![false; drawing.source.tree.len()];
    let mut trg_linked = vec![false; drawing.target.tree.len()];
    for l in props.links.iter() {
        if let Some((s, t)) = drawing.link_ends(l.source, l.target) {
            src_linked[s.index()] = true;
            trg_linked[t.index()] = true;
        }
    }
    let links = props.links.iter().filter_map(|l| {
        let d = drawing.link_ends(l.source, l.target).and_then(|(s, t)| link_path(&drawing.layout, s, t))?;
        let selected = props.selected_source == Some(l.source) && props.selected_target == Some(l.target);
        let class = classes!(l.style.class().split(' ').collect::<Vec<_>>(), selected.then_some("selected"));
        let (s, t) = (l.source, l.target);
        let onclick = {
            let select = props.select;
            Callback::from(move |_: MouseEvent| select.emit(SelectAction::ClickLink(s, t)))
        };
        let onmouseenter = {
            let (hover, title) = (hover.clone(), l.title.clone());
            Callback::from(move |_: MouseEvent| hover.set(Some(title.clone())))
        };
        let onmouseleave = {
            let hover = hover.clone();
            Callback::from(move |_: MouseEvent| hover.set(None))
        };
        Some(html! {
            <g class="link-group">
                <path class={class} d={d.clone()} data-link={format!("{s}-{t}")} data-status={l.style.status()}>
                    <title>{&l.title}</title>
                </path>
                // A wide transparent twin makes the thin curve easy to hover and click.
                <path class="link-hit" d={d} data-link={format!("{s}-{t}")} {onclick} {onmouseenter} {onmouseleave}>
                    <title>{&l.title}</title>
                </path>
            </g>
        })
    });
    let source = TreeView {
        tree: &pair.source,
        drawn: &drawing.source,
        layout: &drawing.layout.source,
        side: Side::Source,
        selected: props.selected_source,
        pending: props.pending,
        linked: src_linked,
    };
    let target = TreeView {
        tree: &pair.target,
        drawn: &drawing.target,
        layout: &drawing.layout.target,
        side: Side::Target,
        selected: props.selected_target,
        pending: None,
        linked: trg_linked,
    };
    let (w, h) = (drawing.layout.width, drawing.layout.height);
    let z = *zoom;

    let set_zoom = {
        let zoom = zoom.clone();
        move |f: f64| zoom.set(clamp_zoom(f))
    };
    let fit = {
        let (scroller, set_zoom) = (scroller.clone(), set_zoom.clone());
        move || {
            if let Some((bw, bh)) = box_size(&scroller) {
                set_zoom(fit_zoom(w, h, bw - 4.0, bh - 4.0));
            }
        }
    };
    let selection = {
        let (s, t) = (props.selected_source, props.selected_target);
        let boxes = [s.and_then(|s| drawing.subtree_box(false, s)), t.and_then(|t| drawing.subtree_box(true, t))];
        union(boxes.into_iter().flatten())
    };
    let to_selection = {
        let (scroller, zoom, scroll_to) = (scroller.clone(), zoom.clone(), scroll_to.clone());
        move || {
            if let (Some(region), Some((bw, bh))) = (selection, box_size(&scroller)) {
                let (z, left, top) = zoom_to(&region, bw, bh);
                zoom.set(z);
                *scroll_to.borrow_mut() = Some((left, top));
            }
        }
    };
    let button = |id: &'static str, label: &'static str, title: &'static str, f: Callback<MouseEvent>| {
        html! { <button id={id} type="button" title={title} aria-label={title} onclick={f}>{label}</button> }
    };
    let zoom_in = {
        let set_zoom = set_zoom.clone();
        Callback::from(move |_| set_zoom(z * 1.25))
    };
    let zoom_out = {
        let set_zoom = set_zoom.clone();
        Callback::from(move |_| set_zoom(z / 1.25))
    };
    let zoom_reset = {
        let set_zoom = set_zoom.clone();
        Callback::from(move |_| set_zoom(1.0))
    };
    let zoom_fit = {
        let fit = fit.clone();
        Callback::from(move |_| fit())
    };
    let zoom_selection = {
        let to_selection = to_selection.clone();
        Callback::from(move |_: MouseEvent| to_selection())
    };
    let unfold_all = {
        let fold = props.fold;
        Callback::from(move |_: MouseEvent| fold.emit(FoldAction::UnfoldAll))
    };
    let onkeydown = {
        let (select, set_zoom, fit) = (props.select, set_zoom.clone(), fit.clone());
        Callback::from(move |e: KeyboardEvent| {
            let handled = match e.key().as_str() {
                "PageDown" => {
                    select.emit(SelectAction::StepPair(1));
                    true
                }
                "PageUp" => {
                    select.emit(SelectAction::StepPair(-1));
                    true
                }
                "+" | "=" => {
                    set_zoom(z * 1.25);
                    true
                }
                "-" => {
                    set_zoom(z / 1.25);
                    true
                }
                "0" => {
                    set_zoom(1.0);
                    true
                }
                "f" => {
                    fit();
                    true
                }
                "s" => {
                    to_selection();
                    true
                }
                _ => false,
            };
            if handled {
                e.prevent_default();
            }
        })
    };
    let onmousedown = {
        let (drag, scroller) = (drag.clone(), scroller.clone());
        Callback::from(move |e: MouseEvent| {
            let on_item = e
                .target_dyn_into::<Element>()
                .and_then(|t| t.closest(".node, .link-hit, .fold").ok().flatten())
                .is_some();
            if let (false, Some(el)) = (on_item, scroller.cast::<web_sys::HtmlElement>()) {
                *drag.borrow_mut() = Some((e.client_x(), e.client_y(), el.scroll_left(), el.scroll_top()));
                // No text selection while dragging; keys go to the diagram.
                e.prevent_default();
                let _ = el.focus();
            }
        })
    };
    let onmousemove = {
        let (drag, scroller) = (drag.clone(), scroller.clone());
        Callback::from(move |e: MouseEvent| {
            let start = *drag.borrow();
            if let (Some((x, y, left, top)), Some(el)) = (start, scroller.cast::<Element>()) {
                if e.buttons() & 1 == 0 {
                    *drag.borrow_mut() = None;
                    return;
                }
                el.set_scroll_left(left - (e.client_x() - x));
                el.set_scroll_top(top - (e.client_y() - y));
            }
        })
    };
    let onmouseup = {
        let drag = drag.clone();
        Callback::from(move |_: MouseEvent| *drag.borrow_mut() = None)
    };

    let mut styles: Vec<LinkStyle> = props.links.iter().map(|l| l.style).collect();
    styles.sort();
    styles.dedup();
    let any_folded = !props.folds.0.is_empty() || !props.folds.1.is_empty();
    let described = format!(
        "Source tree above, target tree below, {} links between them; the table of links below the diagram lists them.",
        props.links.len()
    );
    html! {
        <figure class="diagram">
            <div class="diagram-tools">
              <div class="zoom-tools" role="toolbar" aria-label="Zoom and folding">
                {button("zoom-out", "−", "Zoom out (-)", zoom_out)}
                <span id="zoom-level" class="zoom-level" title="Zoom level">{format!("{:.0}%", z * 100.0)}</span>
                {button("zoom-in", "+", "Zoom in (+)", zoom_in)}
                {button("zoom-reset", "Actual size", "Actual size (0)", zoom_reset)}
                {button("zoom-fit", "Fit", "Fit the pair in the box, never below readable text (f)", zoom_fit)}
                <button id="zoom-selection" type="button" title="Zoom to the selected sub-trees (s)" disabled={selection.is_none()}
                    onclick={zoom_selection}>{"Zoom to selection"}</button>
                if any_folded {
                    <button id="unfold-all" type="button" onclick={unfold_all}>{"Unfold all"}</button>
                }
              </div>
              {props.children.clone()}
            </div>
            <div class="diagram-scroll" ref={scroller} tabindex="0" {onkeydown} {onmousedown} {onmousemove} {onmouseup}
                aria-label="Tree-pair diagram: drag to pan; PageUp/PageDown change the pair; + and − zoom; f fits; s zooms to the selection">
                <svg id="pair-diagram" class="tl-diagram" xmlns="http://www.w3.org/2000/svg"
                    width={(w * z).to_string()} height={(h * z).to_string()} data-zoom={z.to_string()}
                    viewBox={format!("0 0 {w} {h}")} role="img" aria-label={described}>
                    <g class="links">{ for links }</g>
                    {draw_tree(&source, props.select, props.fold)}
                    {draw_tree(&target, props.select, props.fold)}
                </svg>
            </div>
            // What clicking does, until a link is hovered: then its posterior and status.
            <p id="hover-info" class={classes!("hover-info", hover.is_some().then_some("hovered"))} aria-live="polite">
                {(*hover).clone().unwrap_or_else(|| props.hint.to_string())}
            </p>
            <figcaption id="legend">
                { for styles.into_iter().map(swatch) }
                <span class="legend-item"><span class="box-swatch selection"></span>{"selected sub-trees"}</span>
            </figcaption>
        </figure>
    }
}
