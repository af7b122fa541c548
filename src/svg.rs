//! The tree-pair diagram as a standalone SVG file (the page's "Download
//! SVG", and the picture behind its PNG), and the pieces the page's live
//! diagram shares with it: one stylesheet ([`DIAGRAM_CSS`]), the link curve
//! ([`link_path`]) and the tree edges ([`tree_edges`]), all over the
//! geometry of [`crate::layout`].
//!
//! Labels and words are text, never markup: every one is XML-escaped, so a
//! label `<script>` is the text `&lt;script&gt;` in the file. The file needs
//! no external resource (its style is inline), so it opens anywhere.
//!
//! Colours are the Okabe–Ito palette and every link kind also has its own
//! line pattern (solid, dashed, dotted), so the kinds stay distinguishable
//! with colour-vision deficiencies and in greyscale print.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use quick_xml::escape::escape;

use crate::corpus::TreePair;
use crate::io::links::{Link, LinkKind};
use crate::layout::{Drawing, FoldedTree, Orientation, PairLayout, Rect, Style, TreeLayout};
use crate::tree::{NodeId, Tree};

/// The translation derivation's own rules (the page's Translate view), on top
/// of [`DIAGRAM_CSS`]: in the page and in the downloaded SVG alike.
pub const DERIVATION_CSS: &str = r#"
.tl-diagram .rm-outline rect { fill-opacity: 0.09; stroke-width: 2; }
.tl-diagram .rm-number { font-size: 11px; font-weight: 700; }
.tl-diagram .rm-link { fill: none; stroke-width: 2.6; opacity: 0.85; }
"#;

/// The diagram's stylesheet, for an `<svg class="tl-diagram">`: embedded in
/// exported files and in the page's live diagram alike.
pub const DIAGRAM_CSS: &str = r#"
.tl-diagram { background: #ffffff; }
.tl-diagram text { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; fill: #1b1f24; }
.tl-diagram .edge { stroke: #8c959f; stroke-width: 1.2; }
.tl-diagram .edge.in-selection { stroke: #b07500; stroke-width: 2.2; }
.tl-diagram .node rect { fill: #ffffff; stroke: #57606a; stroke-width: 1.2; }
.tl-diagram .node.pos rect { fill: #f3f4f6; }
.tl-diagram .node.linked rect { stroke: #0072b2; stroke-width: 2; }
.tl-diagram .node.in-selection rect { fill: #fff1cc; stroke: #b07500; }
.tl-diagram .node.selected rect { stroke-width: 3.5; }
.tl-diagram .node.pending rect { fill: #f5dcea; stroke: #cc79a7; stroke-width: 3.5; }
.tl-diagram .node-id { font-size: 9px; fill: #57606a; }
.tl-diagram .word.in-selection { fill: #8a5a00; font-weight: 700; }
.tl-diagram .link { fill: none; stroke-width: 2; stroke-linecap: round; }
.tl-diagram .link.gold { stroke: #0072b2; opacity: 0.8; }
.tl-diagram .link.fuzzy { stroke: #0072b2; stroke-dasharray: 7 4; }
.tl-diagram .link.correct { stroke: #009e73; stroke-width: 2.8; opacity: 1; }
.tl-diagram .link.wrong { stroke: #d55e00; stroke-width: 2.8; stroke-dasharray: 10 5; opacity: 1; }
.tl-diagram .link.missed { stroke: #0072b2; stroke-width: 2.4; stroke-dasharray: 1 5; opacity: 1; }
.tl-diagram .link.predicted { stroke: #009e73; stroke-width: 2.6; opacity: 1; }
.tl-diagram .link.student { stroke: #cc79a7; stroke-width: 3.2; opacity: 1; }
.tl-diagram .link.taken { stroke: #009e73; stroke-width: 2.6; opacity: 1; }
.tl-diagram .link.current { stroke: #1b1f24; stroke-width: 4; stroke-dasharray: 6 3; opacity: 1; }
.tl-diagram .link.blocker { stroke: #d55e00; stroke-width: 4; opacity: 1; }
.tl-diagram .link.selected { stroke-width: 5; }
.tl-diagram .link.refused { stroke: #b3261e; stroke-width: 3.2; stroke-dasharray: 3 4; opacity: 1; }
.tl-diagram .node.folded rect { fill: #eef1f4; stroke-dasharray: 4 2; }
.tl-diagram .word.folded { font-style: italic; fill: #57606a; }
.tl-diagram .word, .tl-diagram .node text { paint-order: stroke; stroke: #ffffff; stroke-width: 4px; stroke-linejoin: round; }
.tl-diagram .legend-text { font-family: system-ui, sans-serif; font-size: 12px; fill: #57606a; }
"#;

/// The kinds of link a diagram draws; each is a CSS class of [`DIAGRAM_CSS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkStyle {
    /// A gold link, when nothing is predicted.
    Gold,
    /// A fuzzy gold link, when nothing is predicted.
    Fuzzy,
    /// Predicted and gold.
    Correct,
    /// Predicted, not gold.
    Wrong,
    /// Gold, not predicted.
    Missed,
    /// Predicted, with no gold to mark it against.
    Predicted,
    /// Drawn by a student in teaching mode.
    Student,
    /// Taken so far by the greedy search being stepped through.
    Taken,
    /// The candidate of the current search step.
    Current,
    /// The earlier link that blocks the current candidate.
    Blocker,
    /// A student's link refused by a well-formedness criterion.
    Refused,
}

impl LinkStyle {
    /// The CSS classes of the link's path.
    pub fn class(self) -> &'static str {
        match self {
            LinkStyle::Gold => "link gold",
            LinkStyle::Fuzzy => "link gold fuzzy",
            LinkStyle::Correct => "link correct",
            LinkStyle::Wrong => "link wrong",
            LinkStyle::Missed => "link missed",
            LinkStyle::Predicted => "link predicted",
            LinkStyle::Student => "link student",
            LinkStyle::Taken => "link taken",
            LinkStyle::Current => "link current",
            LinkStyle::Blocker => "link blocker",
            LinkStyle::Refused => "link refused",
        }
    }

    /// One word for the link's status (`data-status` in the page).
    pub fn status(self) -> &'static str {
        match self {
            LinkStyle::Gold => "gold",
            LinkStyle::Fuzzy => "fuzzy",
            LinkStyle::Correct => "correct",
            LinkStyle::Wrong => "wrong",
            LinkStyle::Missed => "missed",
            LinkStyle::Predicted => "predicted",
            LinkStyle::Student => "student",
            LinkStyle::Taken => "taken",
            LinkStyle::Current => "current",
            LinkStyle::Blocker => "blocker",
            LinkStyle::Refused => "refused",
        }
    }

    /// What the legend says about it.
    pub fn legend(self) -> &'static str {
        match self {
            LinkStyle::Gold => "gold link (solid)",
            LinkStyle::Fuzzy => "fuzzy gold link (dashed)",
            LinkStyle::Correct => "correct: predicted and gold (solid)",
            LinkStyle::Wrong => "wrong: predicted, not gold (long dashes)",
            LinkStyle::Missed => "missed: gold, not predicted (dotted)",
            LinkStyle::Predicted => "predicted link, no gold (solid)",
            LinkStyle::Student => "your link (solid)",
            LinkStyle::Taken => "taken by the search so far (solid)",
            LinkStyle::Current => "candidate of this step (dashed)",
            LinkStyle::Blocker => "the earlier link that blocks it (solid)",
            LinkStyle::Refused => "your link refused by a criterion (red, dotted)",
        }
    }
}

/// A link to draw, with its tooltip text.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnLink {
    pub source: NodeId,
    pub target: NodeId,
    pub style: LinkStyle,
    pub title: String,
}

/// `s-t: A ↔ B`: a link's node numbers and labels, for its tooltip.
pub fn link_name(pair: &TreePair, s: NodeId, t: NodeId) -> String {
    let label = |tree: &Tree, n: NodeId| if tree.contains(n) { tree.label(n).to_string() } else { "?".into() };
    format!("{s}-{t}: {} ↔ {}", label(&pair.source, s), label(&pair.target, t))
}

/// The pair's gold links as drawn when nothing is predicted: good ones
/// solid, fuzzy ones dashed.
pub fn gold_links(pair: &TreePair) -> Vec<DrawnLink> {
    pair.gold
        .iter()
        .map(|l| {
            let fuzzy = l.kind == LinkKind::Fuzzy;
            DrawnLink {
                source: l.source,
                target: l.target,
                style: if fuzzy { LinkStyle::Fuzzy } else { LinkStyle::Gold },
                title: format!(
                    "{} {}",
                    if fuzzy { "fuzzy gold link" } else { "gold link" },
                    link_name(pair, l.source, l.target)
                ),
            }
        })
        .collect()
}

/// `predicted` links marked against the pair's gold: missed gold links
/// first, then wrong, then correct on top (so a correct link stays visible
/// where it crosses a wrong one). `posterior` gives a link's posterior for
/// its tooltip, where known. The page's Inspect mode and `treelink draw`
/// draw these.
pub fn marked_links(
    pair: &TreePair,
    predicted: &[Link],
    posterior: impl Fn(NodeId, NodeId) -> Option<f64>,
) -> Vec<DrawnLink> {
    let is_gold = |s, t| pair.gold.iter().any(|g| (g.source, g.target) == (s, t));
    let is_predicted = |s, t| predicted.iter().any(|p| (p.source, p.target) == (s, t));
    let missed = pair.gold.iter().filter(|g| !is_predicted(g.source, g.target)).map(|g| DrawnLink {
        source: g.source,
        target: g.target,
        style: LinkStyle::Missed,
        title: format!(
            "missed {}gold link {} (not predicted{})",
            if g.kind == LinkKind::Fuzzy { "fuzzy " } else { "" },
            link_name(pair, g.source, g.target),
            posterior(g.source, g.target)
                .map_or(String::new(), |p| format!("; posterior {p:.3}, blocked in the search"))
        ),
    });
    let mut found: Vec<DrawnLink> = predicted
        .iter()
        .map(|p| {
            let correct = is_gold(p.source, p.target);
            DrawnLink {
                source: p.source,
                target: p.target,
                style: if correct { LinkStyle::Correct } else { LinkStyle::Wrong },
                title: format!(
                    "{} predicted link {}{}",
                    if correct { "correct" } else { "wrong" },
                    link_name(pair, p.source, p.target),
                    posterior(p.source, p.target).map_or(String::new(), |p| format!(", posterior {p:.3}"))
                ),
            }
        })
        .collect();
    found.sort_by_key(|l| l.style != LinkStyle::Wrong);
    missed.chain(found).collect()
}

/// The curve of a link from source node `s` to target node `t`, as an SVG
/// path: from the bottom of one to the top of the other when the trees are
/// stacked, from side to side when they are side by side
/// ([`crate::layout::Orientation::link`]). `None` if a node is outside the layout.
pub fn link_path(layout: &PairLayout, s: NodeId, t: NodeId) -> Option<String> {
    let (a, b) = (layout.source.nodes.get(s.index())?, layout.target.nodes.get(t.index())?);
    let [(x1, y1), (c1x, c1y), (c2x, c2y), (x2, y2)] = layout.orientation.link(a, b);
    Some(format!("M {x1} {y1} C {c1x} {c1y}, {c2x} {c2y}, {x2} {y2}"))
}

/// Every edge of a drawn tree as (parent node, its box, the child's or
/// word's box), parents in pre-order; a POS node's edge goes to its word.
pub fn tree_edges(tree: &Tree, layout: &TreeLayout) -> Vec<(NodeId, Rect, Rect)> {
    tree.node_ids()
        .flat_map(|n| {
            let from = layout.nodes[n.index()];
            let ends: Vec<Rect> = match tree.children(n) {
                [] => vec![layout.words[tree.span(n).start]],
                kids => kids.iter().map(|&c| layout.nodes[c.index()]).collect(),
            };
            ends.into_iter().map(move |to| (n, from, to))
        })
        .collect()
}

fn draw_tree(out: &mut String, f: &FoldedTree, layout: &TreeLayout, orientation: Orientation, side: &str) {
    let tree = &f.tree;
    let _ = write!(out, "<g class=\"tree {side}\">");
    for (_, from, to) in tree_edges(tree, layout) {
        let (x1, y1, x2, y2) = orientation.edge(&from, &to);
        let _ = write!(out, "<line class=\"edge\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\"/>");
    }
    for (n, r) in tree.node_ids().zip(&layout.nodes) {
        let kind = match (f.folded[n.index()], tree.is_pos(n)) {
            (true, _) => "phrase folded",
            (false, true) => "pos",
            (false, false) => "phrase",
        };
        let _ = write!(
            out,
            "<g class=\"node {kind}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
             <text class=\"node-id\" x=\"{}\" y=\"{}\">{}</text></g>",
            r.left(),
            r.top(),
            r.width,
            r.height,
            r.cx,
            r.cy + 4.0,
            escape(tree.label(n)),
            r.right() + 1.0,
            r.top() + 2.0,
            f.original[n.index()]
        );
    }
    for (i, (w, r)) in tree.words().iter().zip(&layout.words).enumerate() {
        // Whether word i is a folded sub-tree's yield: pre-order, the POS-like
        // node of word i is the drawn leaf whose span starts at i.
        let folded = f.tree.node_ids().any(|n| f.folded[n.index()] && f.tree.span(n).start == i);
        let _ = write!(
            out,
            "<text class=\"word{}\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            if folded { " folded" } else { "" },
            r.cx,
            r.cy + 4.0,
            escape(w.as_str())
        );
    }
    out.push_str("</g>");
}

/// Height of one legend row under the drawing.
const LEGEND_ROW: f64 = 20.0;

/// A standalone SVG document of `pair` with `links` (drawn in order, so
/// later ones are on top), a `title`, and a legend of the link kinds used.
pub fn pair_svg(pair: &TreePair, links: &[DrawnLink], title: &str) -> String {
    let none = BTreeSet::new();
    drawing_svg(&Drawing::new(&pair.source, &pair.target, &none, &none, &Style::default()), links, title)
}

/// [`pair_svg`] of a pair as drawn with folded sub-trees: a link to a hidden
/// node runs to the folded node that hides it, as on the page.
pub fn drawing_svg(drawing: &Drawing, links: &[DrawnLink], title: &str) -> String {
    let layout = &drawing.layout;
    let mut kinds: Vec<LinkStyle> = links.iter().map(|l| l.style).collect();
    kinds.sort();
    kinds.dedup();
    let (w, h) = (layout.width.max(360.0), layout.height);
    let total = h + LEGEND_ROW * kinds.len() as f64 + if kinds.is_empty() { 0.0 } else { 8.0 };
    let mut out = String::new();
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tl-diagram\" \
         width=\"{w}\" height=\"{total}\" viewBox=\"0 0 {w} {total}\" role=\"img\">\n<title>{}</title>\n<style>{}</style>\n\
         <rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{total}\" fill=\"#ffffff\"/>\n<g class=\"links\">",
        escape(title),
        DIAGRAM_CSS
    );
    for l in links {
        if let Some(d) = drawing.link_ends(l.source, l.target).and_then(|(s, t)| link_path(layout, s, t)) {
            let _ = write!(
                out,
                "<path class=\"{}\" data-link=\"{}-{}\" d=\"{d}\"><title>{}</title></path>",
                l.style.class(),
                l.source,
                l.target,
                escape(l.title.as_str())
            );
        }
    }
    out.push_str("</g>\n");
    draw_tree(&mut out, &drawing.source, &layout.source, layout.orientation, "src");
    out.push('\n');
    draw_tree(&mut out, &drawing.target, &layout.target, layout.orientation, "trg");
    out.push('\n');
    for (k, kind) in kinds.iter().enumerate() {
        let y = h + 4.0 + LEGEND_ROW * (k as f64 + 0.5);
        let _ = writeln!(
            out,
            "<g class=\"legend\"><path class=\"{}\" d=\"M 16 {y} L 56 {y}\"/>\
             <text class=\"legend-text\" x=\"64\" y=\"{}\">{}</text></g>",
            kind.class(),
            y + 4.0,
            escape(kind.legend())
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::layout_pair;

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    fn link(s: usize, t: usize, style: LinkStyle, title: &str) -> DrawnLink {
        DrawnLink { source: n(s), target: n(t), style, title: title.into() }
    }

    fn pair(src: &str) -> TreePair {
        TreePair {
            source: Tree::parse_one(src, "s").unwrap(),
            target: Tree::parse_one("(S (NP (NN b)) (X a))", "t").unwrap(),
            gold: vec![Link::good(n(0), n(0))],
        }
    }

    #[test]
    fn labels_and_words_are_escaped_text() {
        let p = pair("(S (<script>alert-LRB-1-RRB-</script> a&b) (NP (NN \"q\")))");
        let links = [
            link(0, 0, LinkStyle::Correct, "0-0 <b>"),
            link(2, 1, LinkStyle::Wrong, "2-1"),
            link(9, 0, LinkStyle::Missed, "outside: not drawn"),
        ];
        let svg = pair_svg(&p, &links, "pair 1 & 2");
        assert!(!svg.contains("<script"), "{svg}");
        assert!(svg.contains(">&lt;script&gt;alert-LRB-1-RRB-&lt;/script&gt;<"));
        assert!(svg.contains(">a&amp;b<") && svg.contains(">&quot;q&quot;<"));
        assert!(svg.contains("<title>pair 1 &amp; 2</title>") && svg.contains("<title>0-0 &lt;b&gt;</title>"));
        // Two links drawn, three legend rows (the missed kind is still listed).
        assert_eq!(svg.matches("<path class=\"link").count(), 2 + 3);
        assert_eq!(svg.matches("data-link=").count(), 2);
        // Every element closes: as many opening tags as closing ones, self-closing aside.
        let opens = svg.matches('<').count() - svg.matches("</").count() - svg.matches("/>").count() - 1;
        assert_eq!(opens, svg.matches("</").count(), "balanced tags");
    }

    #[test]
    fn links_run_from_source_bottom_to_target_top() {
        let p = pair("(S (A a) (NP (NN b)))");
        let layout = layout_pair(&p.source, &p.target, &Style::default());
        let d = link_path(&layout, n(2), n(1)).unwrap();
        let (a, b) = (layout.source.nodes[2], layout.target.nodes[1]);
        assert!(d.starts_with(&format!("M {} {} C", a.cx, a.bottom())));
        assert!(d.ends_with(&format!("{} {}", b.cx, b.top())));
        assert!(link_path(&layout, n(5), n(0)).is_none());
        // Edges: one per child plus one per POS node to its word.
        assert_eq!(tree_edges(&p.source, &layout.source).len(), 3 + 2);
        // Side by side: from the source box's right side to the target box's left side, and
        // edges from a parent's side facing its child.
        let side = crate::layout::layout_pair_side(&p.source, &p.target, &Style::default());
        let d = link_path(&side, n(2), n(1)).unwrap();
        let (a, b) = (side.source.nodes[2], side.target.nodes[1]);
        let mid = (a.right() + b.left()) / 2.0;
        assert_eq!(d, format!("M {} {} C {mid} {}, {mid} {}, {} {}", a.right(), a.cy, a.cy, b.cy, b.left(), b.cy));
        let (_, s0, np) = tree_edges(&p.source, &side.source)[1];
        assert_eq!(side.orientation.edge(&s0, &np), (s0.right(), s0.cy, np.left(), np.cy));
        let (_, t0, t_np) = tree_edges(&p.target, &side.target)[0];
        assert_eq!(side.orientation.edge(&t0, &t_np), (t0.left(), t0.cy, t_np.right(), t_np.cy), "mirrored");
    }

    #[test]
    fn a_folded_pair_exports_its_folded_boxes_with_original_ids_and_links_to_them() {
        let p = pair("(S (A a) (NP (NN b) (NN <c>)))");
        // Source ids: S0 A1 NP2 NN3 NN4; fold NP (2): NN 3 and 4 are hidden.
        let links = [link(4, 1, LinkStyle::Gold, "4-1"), link(1, 2, LinkStyle::Refused, "refused")];
        let folded = Drawing::new(&p.source, &p.target, &BTreeSet::from([n(2)]), &BTreeSet::new(), &Style::default());
        let svg = drawing_svg(&folded, &links, "folded");
        assert_eq!(svg.matches("class=\"node ").count(), 3 + 4, "S, A, folded NP; and the target's four");
        assert_eq!(svg.matches("class=\"node phrase folded\"").count(), 1);
        assert!(svg.contains("<text class=\"word folded\""));
        assert!(svg.contains(">b &lt;c&gt;</text>"), "the folded yield, escaped");
        // Node-id texts are the original ids: 0, 1, 2 (no 3 or 4 on the source side).
        let ids: Vec<&str> = svg
            .match_indices("class=\"node-id\"")
            .map(|(i, _)| &svg[i..])
            .map(|t| {
                let start = t.find('>').unwrap() + 1;
                &t[start..start + t[start..].find('<').unwrap()]
            })
            .collect();
        assert_eq!(ids, ["0", "1", "2", "0", "1", "2", "3"]);
        // The link from hidden NN (4) starts at the folded NP's box.
        let np = folded.layout.source.nodes[2];
        assert!(svg.contains(&format!("data-link=\"4-1\" d=\"M {} {} C", np.cx, np.bottom())));
        assert!(svg.contains("class=\"link refused\" data-link=\"1-2\""));
        let opens = svg.matches('<').count() - svg.matches("</").count() - svg.matches("/>").count() - 1;
        assert_eq!(opens, svg.matches("</").count(), "balanced tags");
        // Unfolded, the same links are drawn to the nodes themselves.
        assert_eq!(pair_svg(&p, &links, "open").matches("class=\"node ").count(), 5 + 4);
    }
}
