//! The tree-pair diagram: both trees and the links the state says to draw
//! (gold; predicted vs gold; the student's; a search step), in SVG, with a
//! legend, zoom ([`super::zoom`]: fitted to the box, enlarged up to a
//! readable cap, never below readable text: a long pair pans), zoom to the
//! selection, a selected link brought wholly into view, folding a sub-tree
//! to its label and yield, and presentation mode (the diagram alone, full
//! screen, larger, with keys to step pairs and links; a long pair there is
//! laid out side by side when that shows it larger). Geometry comes from
//! [`crate::layout`] ([`Drawing`]: the folded trees and their layout) and
//! the link curves and stylesheet from [`crate::svg`], as in the
//! exported file; links are drawn beneath the boxes and the words, which
//! carry a white halo. Labels and words are text nodes (never markup), so
//! `<script>` in a label shows as text.
//!
//! By keyboard: one node and one link are in the Tab order (a roving
//! tabindex); the arrow keys move between nodes as they are drawn, within
//! a tree and across to the other ([`super::navigate`]), or between links;
//! Enter or Space clicks, x folds a phrase.

use std::collections::BTreeSet;
use std::rc::Rc;

use yew::prelude::*;

use super::folds::Side;
use super::navigate::{neighbour, Direction};
use super::state::{FoldAction, SelectAction};
use super::store::Dispatch;
use super::zoom::{use_zoom, FIT_MAX_TEXT_PX, PRESENT_MAX_TEXT_PX};
use crate::corpus::TreePair;
use crate::layout::{best_orientation, union, Drawing, FoldedTree, Orientation, Rect, Style, TreeLayout, TARGET_UNITS};
use crate::svg::{link_path, tree_edges, DrawnLink, LinkStyle};
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
    /// What clicking does, in a sentence, or what the last tap did.
    pub hint: AttrValue,
    /// `hint` says what the last tap did (drawn as feedback, not as help).
    #[prop_or_default]
    pub tapped: bool,
    /// The pair shown, for presentation mode's title ("Pair 3 of 157").
    pub title: AttrValue,
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
    /// How the pair is laid out (the edges follow it).
    orientation: Orientation,
    side: Side,
    selected: Option<NodeId>,
    pending: Option<NodeId>,
    /// Per drawn node: a link ends at it.
    linked: Vec<bool>,
    /// The node in the Tab order (original id), if on this side.
    tab_stop: Option<NodeId>,
}

/// What the diagram's nodes do when clicked, keyed, focused.
#[derive(Clone)]
struct NodeHandlers {
    select: Dispatch<SelectAction>,
    fold: Dispatch<FoldAction>,
    /// An arrow key on a node: the node to move to (side, original id).
    arrow: Callback<(Side, NodeId, Direction)>,
    /// A node took the focus (clicked or tabbed to): it is the Tab stop now.
    focused: Callback<(Side, NodeId)>,
}

fn click(side: Side, n: NodeId) -> SelectAction {
    match side {
        Side::Source => SelectAction::ClickSource(n),
        Side::Target => SelectAction::ClickTarget(n),
    }
}

/// The small −/+ control left of a phrase node's box: folds its sub-tree to
/// its label and yield, or unfolds it. Out of the Tab order (x on the
/// focused node does the same), so Tab does not walk every phrase twice.
fn fold_control(side: Side, n: NodeId, label: &str, folded: bool, x: f64, y: f64, fold: Dispatch<FoldAction>) -> Html {
    let toggle = Callback::from(move |e: MouseEvent| {
        e.stop_propagation();
        fold.emit(FoldAction::Toggle(side, n))
    });
    let what = format!("{} {label} ({n})", if folded { "Unfold" } else { "Fold" });
    html! {
        <g class={classes!("fold", folded.then_some("is-folded"))} id={format!("{}-fold-{n}", side.name())} role="button" tabindex="-1"
            aria-label={what.clone()} onclick={toggle}>
            <title>{what}</title>
            <rect x={(x - 5.0).to_string()} y={(y - 5.0).to_string()} width="10" height="10" rx="2" />
            <text x={x.to_string()} y={(y + 3.5).to_string()} text-anchor="middle">{if folded { "+" } else { "−" }}</text>
        </g>
    }
}

fn draw_tree(v: &TreeView<'_>, on: &NodeHandlers) -> Html {
    let (tree, drawn) = (v.tree, &v.drawn.tree);
    let (select, fold) = (on.select, on.fold);
    let in_selection = |orig: NodeId| v.selected.is_some_and(|s| tree.contains(s) && tree.subtree(s).contains(&orig));
    // Edges first so boxes are drawn over them.
    let edges = tree_edges(drawn, v.layout).into_iter().map(|(d, from, to)| {
        let (x1, y1, x2, y2) = v.orientation.edge(&from, &to);
        let class = if in_selection(v.drawn.original[d.index()]) { "edge in-selection" } else { "edge" };
        html! { <line class={class} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    });
    let nodes = (0..drawn.len()).map(|d| {
        let n = v.drawn.original[d];
        let folded = v.drawn.folded[d];
        let r = v.layout.nodes[d];
        let side = v.side;
        let onclick = Callback::from(move |_: MouseEvent| select.emit(click(side, n)));
        let onkeydown = {
            let arrow = on.arrow.clone();
            let phrase = tree.is_phrase(n);
            Callback::from(move |e: KeyboardEvent| {
                if let Some(direction) = Direction::of_key(&e.key()) {
                    e.prevent_default();
                    e.stop_propagation();
                    arrow.emit((side, n, direction));
                } else if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    select.emit(click(side, n));
                } else if e.key() == "x" && phrase {
                    e.prevent_default();
                    fold.emit(FoldAction::Toggle(side, n));
                }
            })
        };
        let onfocus = {
            let focused = on.focused.clone();
            Callback::from(move |_: FocusEvent| focused.emit((side, n)))
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
        let label = tree.label(n);
        // The name starts with what is drawn (the label, then the node's number).
        let name = format!(
            "{label} {n}: {} node, words {}–{}{}",
            side.name_long(),
            span.start + 1,
            span.end,
            if folded { format!(" (folded: {})", tree.yield_of(n).join(" ")) } else { String::new() }
        );
        let pressed = v.selected == Some(n) || v.pending == Some(n);
        let tabindex = if v.tab_stop == Some(n) { "0" } else { "-1" };
        let control = tree.is_phrase(n).then(|| fold_control(side, n, label, folded, r.left() - 6.0, r.cy, on.fold));
        html! {
            <>
            <g class={class} id={format!("{}-node-{n}", side.name())} data-node={n.to_string()} tabindex={tabindex} role="button"
                aria-label={name.clone()} aria-pressed={pressed.to_string()} {onclick} {onkeydown} {onfocus}>
                // No <title>: its text would count as the button's visible text, not in its name (axe).
                if r.width < TARGET_UNITS || r.height < TARGET_UNITS {
                    <rect class="node-hit" x={(r.cx - r.width.max(TARGET_UNITS) / 2.0).to_string()}
                        y={(r.cy - r.height.max(TARGET_UNITS) / 2.0).to_string()}
                        width={r.width.max(TARGET_UNITS).to_string()} height={r.height.max(TARGET_UNITS).to_string()} />
                }
                <rect x={r.left().to_string()} y={r.top().to_string()} width={r.width.to_string()} height={r.height.to_string()} rx="4" />
                <text x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{label}</text>
                // The leading space (not drawn) makes the node's visible text "NP 3", as its name starts.
                <text class="node-id" x={(r.right() + 1.0).to_string()} y={(r.top() + 2.0).to_string()}>{format!(" {n}")}</text>
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

/// Focuses the page's element `id` (a node or a link of the diagram).
fn focus(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = web_sys::window().and_then(|w| w.document()?.get_element_by_id(id)) {
        if let Ok(el) = el.dyn_into::<web_sys::SvgElement>() {
            let _ = el.focus();
        }
    }
}

/// The box around both ends of a link (drawing units), if both are drawn.
fn link_box(drawing: &Drawing, s: NodeId, t: NodeId) -> Option<Rect> {
    let (ds, dt) = drawing.link_ends(s, t)?;
    union([*drawing.layout.source.nodes.get(ds.index())?, *drawing.layout.target.nodes.get(dt.index())?])
}

#[function_component(Diagram)]
pub fn diagram(props: &DiagramProps) -> Html {
    let (pair, select) = (&props.pair, props.select);
    let hover = use_state(|| None::<String>);
    let presenting = use_state(|| false);
    // The pair stacked, and, in presentation mode only, side by side too.
    let drawings = use_memo((pair.clone(), props.folds.clone(), *presenting), |(pair, folds, presenting)| {
        let draw = |o| Rc::new(Drawing::oriented(&pair.source, &pair.target, &folds.0, &folds.1, &Style::default(), o));
        (draw(Orientation::Stacked), presenting.then(|| draw(Orientation::SideBySide)))
    });
    // Presenting, the layout that shows the pair larger on this screen (chosen once the box is measured).
    let chosen = use_state(|| Orientation::Stacked);
    let (orientation, drawing) = match (&drawings.1, *chosen) {
        (Some(side), Orientation::SideBySide) => (Orientation::SideBySide, side.clone()),
        _ => (Orientation::Stacked, drawings.0.clone()),
    };
    let cap = if *presenting { PRESENT_MAX_TEXT_PX } else { FIT_MAX_TEXT_PX };
    let (w, h) = (drawing.layout.width, drawing.layout.height);
    // A new pair opens with its roots in view (a wide pair on a phone: not its left edge).
    let roots = link_box(&drawing, NodeId::ROOT, NodeId::ROOT).map_or(0.0, |r| r.cx);
    // Another layout of the pair is another drawing: fitted again.
    let zoom = use_zoom((w, h), (pair.clone(), orientation), cap, roots);
    {
        // After each render in presentation mode: the layout that fits the box at the larger zoom.
        let (chosen, drawings, scroller) = (chosen.clone(), drawings.clone(), zoom.scroller.clone());
        use_effect(move || {
            if let (Some(side), Some(el)) = (&drawings.1, scroller.cast::<web_sys::Element>()) {
                // The box's outer size less its border and the fit's margin: the same with or without scroll bars.
                let r = el.get_bounding_client_rect();
                let (bw, bh) = (r.width() - 6.0, r.height() - 6.0);
                let best = best_orientation(&drawings.0.layout, &side.layout, bw, bh, PRESENT_MAX_TEXT_PX);
                if best != *chosen {
                    chosen.set(best);
                }
            }
        });
    }
    // The node and the link in the Tab order (original ids; the link by its place among those drawn).
    let tab_node = use_state(|| (Side::Source, NodeId::ROOT));
    let tab_link = use_state(|| 0usize);
    {
        // A new pair: what was hovered is gone; Tab starts again at the source root and the first link.
        let (hover, tab_node, tab_link) = (hover.clone(), tab_node.clone(), tab_link.clone());
        use_effect_with(pair.clone(), move |_| {
            hover.set(None);
            tab_node.set((Side::Source, NodeId::ROOT));
            tab_link.set(0);
        });
    }
    {
        // A selected link (clicked, or stepped to by key), else the search
        // step's candidate, is brought wholly into view.
        let (zoom, drawing) = (zoom.clone(), drawing.clone());
        let candidate = props.links.iter().find(|l| l.style == LinkStyle::Current).map(|l| (l.source, l.target));
        let focus = props.selected_source.zip(props.selected_target).or(candidate);
        use_effect_with((pair.clone(), focus), move |(_, focus)| {
            if let Some(region) = focus.and_then(|(s, t)| link_box(&drawing, s, t)) {
                zoom.show(&region);
            }
        });
    }

    let mut src_linked = vec![false; drawing.source.tree.len()];
    let mut trg_linked = vec![false; drawing.target.tree.len()];
    for l in props.links.iter() {
        if let Some((s, t)) = drawing.link_ends(l.source, l.target) {
            src_linked[s.index()] = true;
            trg_linked[t.index()] = true;
        }
    }
    let drawn_links: Vec<(usize, &DrawnLink, String)> = props
        .links
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let d = drawing.link_ends(l.source, l.target).and_then(|(s, t)| link_path(&drawing.layout, s, t))?;
            Some((i, l, d))
        })
        .collect();
    let tab_link_index = (*tab_link).min(drawn_links.len().saturating_sub(1));
    // Links in key order: ←/↑ the previous, →/↓ the next.
    let link_ids: Rc<Vec<(String, NodeId, NodeId)>> =
        Rc::new(drawn_links.iter().map(|(i, l, _)| (format!("link-{i}"), l.source, l.target)).collect());
    let links = drawn_links.iter().enumerate().map(|(k, (i, l, d))| {
        let selected = props.selected_source == Some(l.source) && props.selected_target == Some(l.target);
        let class = classes!(l.style.class().split(' ').collect::<Vec<_>>(), selected.then_some("selected"));
        let (s, t) = (l.source, l.target);
        let onclick = Callback::from(move |_: MouseEvent| select.emit(SelectAction::ClickLink(s, t)));
        let onkeydown = {
            let (tab_link, ids) = (tab_link.clone(), link_ids.clone());
            Callback::from(move |e: KeyboardEvent| {
                let step = match e.key().as_str() {
                    "ArrowRight" | "ArrowDown" => 1,
                    "ArrowLeft" | "ArrowUp" => -1,
                    "Enter" | " " => {
                        e.prevent_default();
                        select.emit(SelectAction::ClickLink(s, t));
                        return;
                    }
                    _ => return,
                };
                e.prevent_default();
                e.stop_propagation();
                let next = (k as isize + step).clamp(0, ids.len() as isize - 1) as usize;
                tab_link.set(next);
                focus(&ids[next].0);
            })
        };
        let onfocus = {
            let tab_link = tab_link.clone();
            Callback::from(move |_: FocusEvent| tab_link.set(k))
        };
        let onmouseenter = {
            let (hover, title) = (hover.clone(), l.title.clone());
            Callback::from(move |_: MouseEvent| hover.set(Some(title.clone())))
        };
        let onmouseleave = {
            let hover = hover.clone();
            Callback::from(move |_: MouseEvent| hover.set(None))
        };
        let tabindex = if k == tab_link_index { "0" } else { "-1" };
        html! {
            <g class="link-group" id={format!("link-{i}")} role="button" tabindex={tabindex} aria-label={l.title.clone()}
                aria-pressed={selected.to_string()} data-link={format!("{s}-{t}")} {onclick} {onkeydown} {onfocus} {onmouseenter} {onmouseleave}>
                <path class={class} d={d.clone()} data-link={format!("{s}-{t}")} data-status={l.style.status()}>
                    <title>{&l.title}</title>
                </path>
                // A wide transparent twin makes the thin curve easy to hover and click.
                <path class="link-hit" d={d.clone()} data-link={format!("{s}-{t}")} />
            </g>
        }
    });
    let handlers = {
        let (moved_to, drawing) = (tab_node.clone(), drawing.clone());
        let arrow = Callback::from(move |(side, n, direction): (Side, NodeId, Direction)| {
            let f = if side == Side::Source { &drawing.source } else { &drawing.target };
            let Some(&d) = f.drawn.get(n.index()) else { return };
            if let Some((to_side, to)) = neighbour(&drawing, side, d, direction) {
                let g = if to_side == Side::Source { &drawing.source } else { &drawing.target };
                let original = g.original[to.index()];
                moved_to.set((to_side, original));
                focus(&format!("{}-node-{original}", to_side.name()));
            }
        });
        let focused = {
            let tab_node = tab_node.clone();
            Callback::from(move |node: (Side, NodeId)| tab_node.set(node))
        };
        NodeHandlers { select, fold: props.fold, arrow, focused }
    };
    // The Tab stop: the node last focused, if still drawn (a fold may hide it), else the source root.
    let tab_stop = {
        let (side, n) = *tab_node;
        let f = if side == Side::Source { &drawing.source } else { &drawing.target };
        match f.drawn.get(n.index()) {
            Some(&d) if f.original[d.index()] == n => (side, n),
            _ => (Side::Source, NodeId::ROOT),
        }
    };
    let source = TreeView {
        tree: &pair.source,
        drawn: &drawing.source,
        layout: &drawing.layout.source,
        orientation: drawing.layout.orientation,
        side: Side::Source,
        selected: props.selected_source,
        pending: props.pending,
        linked: src_linked,
        tab_stop: (tab_stop.0 == Side::Source).then_some(tab_stop.1),
    };
    let target = TreeView {
        tree: &pair.target,
        drawn: &drawing.target,
        layout: &drawing.layout.target,
        orientation: drawing.layout.orientation,
        side: Side::Target,
        selected: props.selected_target,
        pending: None,
        linked: trg_linked,
        tab_stop: (tab_stop.0 == Side::Target).then_some(tab_stop.1),
    };
    let z = zoom.zoom;

    let selection = {
        let (s, t) = (props.selected_source, props.selected_target);
        let boxes = [s.and_then(|s| drawing.subtree_box(false, s)), t.and_then(|t| drawing.subtree_box(true, t))];
        union(boxes.into_iter().flatten())
    };
    let zoom_selection = {
        let zoom = zoom.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(region) = selection {
                zoom.to_region(&region)
            }
        })
    };
    let fold = props.fold;
    let unfold_all = Callback::from(move |_: MouseEvent| fold.emit(FoldAction::UnfoldAll));
    let toggle_presenting = {
        let presenting = presenting.clone();
        Callback::from(move |_: MouseEvent| presenting.set(!*presenting))
    };
    // Keys in the diagram's box (and anywhere in presentation mode): pairs, zoom, links.
    let step_link = {
        let ids = link_ids.clone();
        let (s, t) = (props.selected_source, props.selected_target);
        move |step: isize| {
            if ids.is_empty() {
                return;
            }
            let at = ids.iter().position(|(_, a, b)| Some(*a) == s && Some(*b) == t);
            let next = match at {
                Some(k) => (k as isize + step).rem_euclid(ids.len() as isize) as usize,
                None if step > 0 => 0,
                None => ids.len() - 1,
            };
            select.emit(SelectAction::SelectLink(ids[next].1, ids[next].2));
        }
    };
    let onkeydown = {
        let (zoom, presenting) = (zoom.clone(), presenting.clone());
        Callback::from(move |e: KeyboardEvent| {
            let step_pair = |step| select.emit(SelectAction::StepPair(step));
            match e.key().as_str() {
                "PageDown" => step_pair(1),
                "PageUp" => step_pair(-1),
                "s" => {
                    if let Some(region) = selection {
                        zoom.to_region(&region);
                    }
                }
                "Escape" if *presenting => presenting.set(false),
                // In presentation mode the arrows step pairs (← →) and links (↑ ↓).
                "ArrowRight" if *presenting => step_pair(1),
                "ArrowLeft" if *presenting => step_pair(-1),
                "ArrowDown" if *presenting => step_link(1),
                "ArrowUp" if *presenting => step_link(-1),
                // The zoom's own keys; any other key is left to the page.
                k if zoom.key(k) => {}
                _ => return,
            }
            e.prevent_default();
        })
    };
    let (onmousedown, onmousemove, onmouseup) = zoom.pan_handlers(".node, .link-group, .fold");
    {
        // Entering or leaving presentation mode (not the first render): the keys go to the diagram's box.
        let (scroller, first) = (zoom.scroller.clone(), use_mut_ref(|| true));
        use_effect_with(*presenting, move |_| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                if let Some(el) = scroller.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }

    let mut styles: Vec<LinkStyle> = props.links.iter().map(|l| l.style).collect();
    styles.sort();
    styles.dedup();
    let any_folded = !props.folds.0.is_empty() || !props.folds.1.is_empty();
    let described = format!(
        "The pair's trees: {}, {} {} between them (the table of links below the diagram lists them). Arrow keys move between nodes, Enter clicks.",
        match drawing.layout.orientation {
            Orientation::Stacked => "source tree above, target tree below",
            Orientation::SideBySide => "source tree on the left, target tree on the right",
        },
        props.links.len(),
        crate::io::text::counted(props.links.len(), "links")
    );
    let selected_title =
        props.links.iter().find(|l| Some(l.source) == props.selected_source && Some(l.target) == props.selected_target);
    let caption = match (&*hover, selected_title) {
        (Some(h), _) => h.clone(),
        (None, Some(l)) if *presenting => l.title.clone(),
        _ if *presenting => "← → pairs · ↑ ↓ links · + − zoom · f fit · drag to pan · Esc leaves".to_string(),
        _ => props.hint.to_string(),
    };
    html! {
        <figure class={classes!("diagram", presenting.then_some("presenting"))} id="diagram-figure"
            onkeydown={presenting.then(|| onkeydown.clone())}>
            // Presenting, the title shares the tools' row: the drawing gets the height.
            <div class="diagram-tools">
              if *presenting {
                  <p class="present-title" id="present-title">{props.title.clone()}</p>
              }
              <div class="zoom-tools" role="toolbar" aria-label="Zoom and folding">
                {zoom.buttons("", "Fit the pair to the box: enlarged up to a readable size, never below readable text (f)")}
                <button id="zoom-selection" type="button" title="Zoom to the selected sub-trees (s)" aria-label="Zoom to the selection (s)"
                    disabled={selection.is_none()} onclick={zoom_selection}>{"Selection"}</button>
                if any_folded {
                    <button id="unfold-all" type="button" onclick={unfold_all}>{"Unfold all"}</button>
                }
                <button id="present" type="button" aria-pressed={presenting.to_string()} onclick={toggle_presenting}
                    title={if *presenting { "Leave presentation mode (Esc)" } else { "The diagram alone, on the whole screen, larger: ← → pairs, ↑ ↓ links" }}>
                    {if *presenting { "Leave presentation" } else { "Present" }}</button>
              </div>
              if !*presenting {
                  {props.children.clone()}
              }
            </div>
            <div class="diagram-scroll" ref={zoom.scroller.clone()} tabindex="0" role="region"
                onkeydown={(!*presenting).then_some(onkeydown)} {onmousedown} {onmousemove} {onmouseup}
                aria-label="Tree-pair diagram: drag to pan; PageUp/PageDown change the pair; + and − zoom; f fits; s zooms to the selection">
                <svg id="pair-diagram" class="tl-diagram" xmlns="http://www.w3.org/2000/svg"
                    width={(w * z).to_string()} height={(h * z).to_string()} data-zoom={z.to_string()}
                    viewBox={format!("0 0 {w} {h}")} role="group" aria-label={described}>
                    <g class="links">{ for links }</g>
                    {draw_tree(&source, &handlers)}
                    {draw_tree(&target, &handlers)}
                </svg>
            </div>
            // What clicking does, until a link is hovered: then its posterior and status.
            <p id="hover-info" class={classes!("hover-info", (hover.is_some() || (*presenting && selected_title.is_some()) || props.tapped).then_some("hovered"))} aria-live={if props.tapped { "off" } else { "polite" }}>
                {caption}
            </p>
            <figcaption id="legend">
                { for styles.into_iter().map(swatch) }
                <span class="legend-item"><span class="box-swatch selection"></span>{"selected sub-trees"}</span>
            </figcaption>
        </figure>
    }
}
