//! The tree-pair diagram: both trees and the links the state says to draw
//! (gold; predicted vs gold; the student's; a search step), in SVG, with a
//! legend, zoom, pan and fit-to-width. Geometry comes from
//! [`crate::layout`] and the link curves and stylesheet from
//! [`crate::io::svg`], as in the exported file. Labels and words are text
//! nodes (never markup), so `<script>` in a label shows as text.

use std::rc::Rc;

use web_sys::Element;
use yew::prelude::*;

use super::state::Action;
use crate::corpus::TreePair;
use crate::io::svg::{edge_line, link_path, tree_edges, DrawnLink, LinkStyle};
use crate::layout::{layout_pair, Style, TreeLayout};
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub pair: Rc<TreePair>,
    pub links: Rc<Vec<DrawnLink>>,
    pub selected_source: Option<NodeId>,
    pub selected_target: Option<NodeId>,
    /// Teaching: the source node waiting for its target.
    pub pending: Option<NodeId>,
    pub dispatch: Callback<Action>,
    /// What clicking does, in a sentence.
    pub hint: AttrValue,
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

struct TreeView<'a> {
    tree: &'a Tree,
    layout: &'a TreeLayout,
    side: Side,
    selected: Option<NodeId>,
    pending: Option<NodeId>,
    linked: Vec<bool>,
}

fn draw_tree(v: &TreeView<'_>, dispatch: &Callback<Action>) -> Html {
    let tree = v.tree;
    let in_selection = |n: NodeId| v.selected.is_some_and(|s| tree.subtree(s).contains(&n));
    // Edges first so boxes are drawn over them.
    let edges = tree_edges(tree, v.layout).into_iter().map(|(n, from, to)| {
        let (x1, y1, x2, y2) = edge_line(&from, &to);
        let class = if in_selection(n) { "edge in-selection" } else { "edge" };
        html! { <line class={class} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    });
    let nodes = (0..tree.len()).map(|n| {
        let r = v.layout.nodes[n];
        let side = v.side;
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
            let dispatch = dispatch.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    dispatch.emit(match side {
                        Side::Source => Action::ClickSource(n),
                        Side::Target => Action::ClickTarget(n),
                    });
                }
            })
        };
        let class = classes!(
            "node",
            if tree.is_pos(n) { "pos" } else { "phrase" },
            in_selection(n).then_some("in-selection"),
            (v.selected == Some(n)).then_some("selected"),
            (v.pending == Some(n)).then_some("pending"),
            v.linked[n].then_some("linked"),
        );
        let span = tree.span(n);
        let title = format!("{} node {n}: {} — words {}–{}", side.name(), tree.label(n), span.start + 1, span.end);
        let pressed = v.selected == Some(n) || v.pending == Some(n);
        html! {
            <g class={class} id={format!("{}-node-{n}", side.name())} data-node={n.to_string()} tabindex="0" role="button"
                aria-label={title.clone()} aria-pressed={pressed.to_string()} {onclick} {onkeydown}>
                <title>{title}</title>
                <rect x={r.left().to_string()} y={r.top().to_string()} width={r.width.to_string()} height={r.height.to_string()} rx="4" />
                <text x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{tree.label(n)}</text>
                <text class="node-id" x={(r.right() + 1.0).to_string()} y={(r.top() + 2.0).to_string()}>{n.to_string()}</text>
            </g>
        }
    });
    let words = tree.words().iter().zip(&v.layout.words).enumerate().map(|(i, (w, r))| {
        let class = classes!("word", v.selected.is_some_and(|s| tree.span(s).contains(&i)).then_some("in-selection"));
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

const ZOOM_MIN: f64 = 0.2;
const ZOOM_MAX: f64 = 4.0;

#[function_component(Diagram)]
pub fn diagram(props: &DiagramProps) -> Html {
    let pair = &props.pair;
    let layout = use_memo(pair.clone(), |pair| layout_pair(&pair.source, &pair.target, &Style::default()));
    let zoom = use_state(|| 1.0f64);
    let hover = use_state(|| None::<String>);
    let scroller = use_node_ref();
    {
        // A new pair: what was hovered is gone.
        let hover = hover.clone();
        use_effect_with(pair.clone(), move |_| hover.set(None));
    }
    // Panning: where the drag started (pointer x, y, scroll left, top).
    let drag = use_mut_ref(|| None::<(i32, i32, i32, i32)>);

    let mut src_linked = vec![false; pair.source.len()];
    let mut trg_linked = vec![false; pair.target.len()];
    for l in props.links.iter() {
        if l.source < src_linked.len() && l.target < trg_linked.len() {
            src_linked[l.source] = true;
            trg_linked[l.target] = true;
        }
    }
    let links = props.links.iter().filter_map(|l| {
        let d = link_path(&layout, l.source, l.target)?;
        let selected = props.selected_source == Some(l.source) && props.selected_target == Some(l.target);
        let class = classes!(l.style.class().split(' ').collect::<Vec<_>>(), selected.then_some("selected"));
        let (s, t) = (l.source, l.target);
        let onclick = {
            let dispatch = props.dispatch.clone();
            Callback::from(move |_: MouseEvent| dispatch.emit(Action::ClickLink(s, t)))
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
        layout: &layout.source,
        side: Side::Source,
        selected: props.selected_source,
        pending: props.pending,
        linked: src_linked,
    };
    let target = TreeView {
        tree: &pair.target,
        layout: &layout.target,
        side: Side::Target,
        selected: props.selected_target,
        pending: None,
        linked: trg_linked,
    };
    let (w, h) = (layout.width, layout.height);
    let z = *zoom;

    let set_zoom = {
        let zoom = zoom.clone();
        move |f: f64| zoom.set(f.clamp(ZOOM_MIN, ZOOM_MAX))
    };
    let fit = {
        let (scroller, set_zoom) = (scroller.clone(), set_zoom.clone());
        move || {
            if let Some(el) = scroller.cast::<Element>() {
                set_zoom((el.client_width() as f64 - 4.0) / w);
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
    let onkeydown = {
        let (dispatch, set_zoom, fit) = (props.dispatch.clone(), set_zoom.clone(), fit.clone());
        Callback::from(move |e: KeyboardEvent| {
            let handled = match e.key().as_str() {
                "PageDown" => {
                    dispatch.emit(Action::StepPair(1));
                    true
                }
                "PageUp" => {
                    dispatch.emit(Action::StepPair(-1));
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
            let on_item =
                e.target_dyn_into::<Element>().and_then(|t| t.closest(".node, .link-hit").ok().flatten()).is_some();
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
    let described = format!(
        "Source tree above, target tree below, {} links between them; the table of links below the diagram lists them.",
        props.links.len()
    );
    html! {
        <figure class="diagram">
            <div class="diagram-tools" role="toolbar" aria-label="Zoom">
                {button("zoom-out", "−", "Zoom out (-)", zoom_out)}
                <span id="zoom-level" class="zoom-level">{format!("{:.0}%", z * 100.0)}</span>
                {button("zoom-in", "+", "Zoom in (+)", zoom_in)}
                {button("zoom-reset", "100%", "Actual size (0)", zoom_reset)}
                {button("zoom-fit", "Fit width", "Fit to width (f)", zoom_fit)}
                <span class="hint">{&props.hint}</span>
            </div>
            <div class="diagram-scroll" ref={scroller} tabindex="0" {onkeydown} {onmousedown} {onmousemove} {onmouseup}
                aria-label="Tree-pair diagram: drag to pan; PageUp/PageDown change the pair; + and − zoom; f fits the width">
                <svg id="pair-diagram" class="tl-diagram" xmlns="http://www.w3.org/2000/svg"
                    width={(w * z).to_string()} height={(h * z).to_string()}
                    viewBox={format!("0 0 {w} {h}")} role="img" aria-label={described}>
                    <g class="links">{ for links }</g>
                    {draw_tree(&source, &props.dispatch)}
                    {draw_tree(&target, &props.dispatch)}
                </svg>
            </div>
            <p id="hover-info" class="hover-info" aria-live="polite">
                {(*hover).clone().unwrap_or_else(|| "Hover over a link to see its posterior and status.".into())}
            </p>
            <figcaption id="legend">
                { for styles.into_iter().map(swatch) }
                <span class="legend-item"><span class="box-swatch selection"></span>{"selected sub-trees"}</span>
            </figcaption>
        </figure>
    }
}
