//! The tree-pair diagram: both trees and their gold links in SVG, a pure
//! function of the pair, the selection and [`crate::layout`]. Labels and
//! words are text nodes (never markup), so `<script>` in a label shows as text.

use std::rc::Rc;

use yew::prelude::*;

use super::state::Action;
use crate::corpus::TreePair;
use crate::io::links::LinkKind;
use crate::layout::{layout_pair, Rect, Style, TreeLayout};
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub pair: Rc<TreePair>,
    pub selected_source: Option<NodeId>,
    pub selected_target: Option<NodeId>,
    pub dispatch: Callback<Action>,
}

/// Which tree a node belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Source,
    Target,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Source => "src",
            Side::Target => "trg",
        }
    }
}

fn draw_tree(
    tree: &Tree,
    layout: &TreeLayout,
    side: Side,
    selected: Option<NodeId>,
    linked: &[bool],
    dispatch: &Callback<Action>,
) -> Html {
    let in_selection = |n: NodeId| selected.is_some_and(|s| tree.subtree(s).contains(&n));
    // Edges first so boxes are drawn over them.
    let edges = (0..tree.len()).flat_map(|n| {
        let from = layout.nodes[n];
        let ends: Vec<Rect> = match tree.children(n) {
            [] => vec![layout.words[tree.span(n).start]],
            kids => kids.iter().map(|&c| layout.nodes[c]).collect(),
        };
        let class = if in_selection(n) { "edge in-selection" } else { "edge" };
        ends.into_iter().map(move |to| {
            let (y1, y2) = if from.cy < to.cy { (from.bottom(), to.top()) } else { (from.top(), to.bottom()) };
            html! { <line class={class} x1={from.cx.to_string()} y1={y1.to_string()} x2={to.cx.to_string()} y2={y2.to_string()} /> }
        })
    });
    let nodes = (0..tree.len()).map(|n| {
        let r = layout.nodes[n];
        let onclick = {
            let dispatch = dispatch.clone();
            Callback::from(move |_: MouseEvent| {
                dispatch.emit(match side {
                    Side::Source => Action::ClickSource(n),
                    Side::Target => Action::ClickTarget(n),
                })
            })
        };
        let onkeydown = {
            let onclick = onclick.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    if let Ok(m) = web_sys::MouseEvent::new("click") {
                        onclick.emit(m);
                    }
                }
            })
        };
        let class = classes!(
            "node",
            if tree.is_pos(n) { "pos" } else { "phrase" },
            in_selection(n).then_some("in-selection"),
            (selected == Some(n)).then_some("selected"),
            linked[n].then_some("linked"),
        );
        let span = tree.span(n);
        let title = format!("{} node {n}: {} — words {}–{}", side.name(), tree.label(n), span.start + 1, span.end);
        html! {
            <g class={class} id={format!("{}-node-{n}", side.name())} data-node={n.to_string()} tabindex="0" role="button"
                aria-label={title.clone()} aria-pressed={(selected == Some(n)).to_string()} {onclick} {onkeydown}>
                <title>{title}</title>
                <rect x={r.left().to_string()} y={r.top().to_string()} width={r.width.to_string()} height={r.height.to_string()} rx="4" />
                <text x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{tree.label(n)}</text>
                <text class="node-id" x={(r.right() + 1.0).to_string()} y={(r.top() + 2.0).to_string()}>{n.to_string()}</text>
            </g>
        }
    });
    let words = tree.words().iter().zip(&layout.words).enumerate().map(|(i, (w, r))| {
        let class = classes!("word", selected.is_some_and(|s| tree.span(s).contains(&i)).then_some("in-selection"));
        html! { <text class={class} x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{w}</text> }
    });
    html! { <g class={format!("tree {}", side.name())}>{ for edges }{ for nodes }{ for words }</g> }
}

#[function_component(Diagram)]
pub fn diagram(props: &DiagramProps) -> Html {
    let pair = &props.pair;
    let layout = use_memo(pair.clone(), |pair| layout_pair(&pair.source, &pair.target, &Style::default()));
    let mut src_linked = vec![false; pair.source.len()];
    let mut trg_linked = vec![false; pair.target.len()];
    for l in &pair.gold {
        src_linked[l.source] = true;
        trg_linked[l.target] = true;
    }
    let links = pair.gold.iter().map(|l| {
        let (a, b) = (layout.source.nodes[l.source], layout.target.nodes[l.target]);
        let (x1, y1, x2, y2) = (a.cx, a.bottom(), b.cx, b.top());
        let mid = (y1 + y2) / 2.0;
        let d = format!("M {x1} {y1} C {x1} {mid}, {x2} {mid}, {x2} {y2}");
        let selected = props.selected_source == Some(l.source) && props.selected_target == Some(l.target);
        let class = classes!(
            "link",
            "gold",
            (l.kind == LinkKind::Fuzzy).then_some("fuzzy"),
            selected.then_some("selected")
        );
        html! {
            <path class={class} d={d} data-link={l.to_string()}>
                <title>{format!("gold link {l}: {} ↔ {}", pair.source.label(l.source), pair.target.label(l.target))}</title>
            </path>
        }
    });
    let source =
        draw_tree(&pair.source, &layout.source, Side::Source, props.selected_source, &src_linked, &props.dispatch);
    let target =
        draw_tree(&pair.target, &layout.target, Side::Target, props.selected_target, &trg_linked, &props.dispatch);
    let (w, h) = (layout.width, layout.height);
    html! {
        <figure class="diagram">
            <div class="diagram-scroll">
                <svg id="pair-diagram" xmlns="http://www.w3.org/2000/svg" width={w.to_string()} height={h.to_string()}
                    viewBox={format!("0 0 {w} {h}")} role="img"
                    aria-label={format!("Source tree above, target tree below, {} gold links between them", pair.gold.len())}>
                    <g class="links">{ for links }</g>
                    {source}
                    {target}
                </svg>
            </div>
            <figcaption>
                <span class="legend-item"><span class="swatch gold-good"></span>{"gold link (good)"}</span>
                <span class="legend-item"><span class="swatch gold-fuzzy"></span>{"gold link (fuzzy)"}</span>
                <span class="legend-item"><span class="swatch selection"></span>{"selected sub-trees"}</span>
            </figcaption>
        </figure>
    }
}
