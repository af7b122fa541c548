//! Geometry of a tree pair drawing: where every node box, word and link goes.
//!
//! Pure arithmetic with no web dependency, so it is tested natively (no
//! overlapping boxes on real 40-word sentences) and the page's SVG is a plain
//! function of it.
//!
//! Rows are by height: POS nodes share the row just above the words, and a
//! node always sits above its children because a parent is strictly higher.
//! Nodes of one row never dominate each other, so their spans are disjoint
//! and they can be ordered left to right. Text is drawn in a monospace font so
//! widths are known without measuring: `chars × char_width`.
//!
//! The target tree is drawn mirrored below the source tree (words on top,
//! root at the bottom) so that the two sentences face each other.
//!
//! A long pair is far wider than it is high that way, so presentation mode
//! may lay the two trees side by side instead ([`Orientation::SideBySide`]):
//! one word per row, columns by height, the source's root at the left and
//! its words near the middle, the target mirrored (its words near the
//! middle, its root at the right). Whichever fits the screen at the larger
//! zoom is drawn ([`best_orientation`]). What reads the geometry (edges,
//! links, keys) asks the layout's [`Orientation`], never assumes one.

use std::collections::BTreeSet;

use crate::tree::{NodeId, Tree, TreeBuilder};

/// Sizes in SVG user units (px at zoom 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Advance of one character of the monospace font.
    pub char_width: f64,
    /// Height of a node box.
    pub box_height: f64,
    /// Horizontal padding inside a box, each side.
    pub box_padding: f64,
    /// Vertical distance between rows: 8 px of edge between boxes, so that
    /// SQUOIA's deep trees (an 18-word pair has 14 rows) fit a laptop's
    /// diagram box at readable text.
    pub row_gap: f64,
    /// Minimum horizontal space between neighbouring boxes or words (room
    /// for the page's fold control left of a phrase box).
    pub min_gap: f64,
    /// Vertical space between the two trees' word rows.
    pub middle_gap: f64,
    /// Margin around the drawing.
    pub margin: f64,
    /// Side by side: vertical distance between words (one per row), so a
    /// 30-word pair fits a 1080 px screen at 16 px text (its diagram box
    /// is 907 px high there: 737 units at zoom 16/13).
    pub word_pitch: f64,
    /// Side by side: height of a node box and a word's, less than
    /// `box_height` so that rows `word_pitch` apart keep a gap.
    pub side_box_height: f64,
    /// Side by side: horizontal space between columns (room for a node's
    /// number right of its box and the fold control left of the next).
    pub column_gap: f64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            char_width: 7.8,
            box_height: 22.0,
            box_padding: 5.0,
            row_gap: 30.0,
            min_gap: 12.0,
            middle_gap: 48.0,
            margin: 16.0,
            word_pitch: 23.0,
            side_box_height: 19.0,
            column_gap: 16.0,
        }
    }
}

/// An axis-aligned box, by its centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub cx: f64,
    pub cy: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn left(&self) -> f64 {
        self.cx - self.width / 2.0
    }
    pub fn right(&self) -> f64 {
        self.cx + self.width / 2.0
    }
    pub fn top(&self) -> f64 {
        self.cy - self.height / 2.0
    }
    pub fn bottom(&self) -> f64 {
        self.cy + self.height / 2.0
    }
    /// Whether the interiors intersect.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.left() < o.right() && o.left() < self.right() && self.top() < o.bottom() && o.top() < self.bottom()
    }
}

/// One tree laid out: a box per node, a box per word.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeLayout {
    pub nodes: Vec<Rect>,
    pub words: Vec<Rect>,
    pub width: f64,
    pub height: f64,
}

/// How the two trees of a pair face each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Orientation {
    /// The source tree on top (root up, words along x), the target mirrored
    /// below it: the page's diagram and the exported SVG.
    #[default]
    Stacked,
    /// The source tree at the left (root left, one word per row), the
    /// target mirrored at the right: a long pair on a wide screen.
    SideBySide,
}

impl Orientation {
    /// The end points `(x1, y1, x2, y2)` of a tree edge from a parent's box
    /// to its child's (or word's): from the side of one facing the other.
    pub fn edge(self, from: &Rect, to: &Rect) -> (f64, f64, f64, f64) {
        match self {
            Orientation::Stacked => {
                let (y1, y2) = if from.cy < to.cy { (from.bottom(), to.top()) } else { (from.top(), to.bottom()) };
                (from.cx, y1, to.cx, y2)
            }
            Orientation::SideBySide => {
                let (x1, x2) = if from.cx < to.cx { (from.right(), to.left()) } else { (from.left(), to.right()) };
                (x1, from.cy, x2, to.cy)
            }
        }
    }

    /// A link's curve from source box `s` to target box `t`, as the end
    /// points and two control points: it leaves the source towards the
    /// target tree and arrives from the source's side.
    pub fn link(self, s: &Rect, t: &Rect) -> [(f64, f64); 4] {
        match self {
            Orientation::Stacked => {
                let (y1, y2) = (s.bottom(), t.top());
                let mid = (y1 + y2) / 2.0;
                [(s.cx, y1), (s.cx, mid), (t.cx, mid), (t.cx, y2)]
            }
            Orientation::SideBySide => {
                let (x1, x2) = (s.right(), t.left());
                let mid = (x1 + x2) / 2.0;
                [(x1, s.cy), (mid, s.cy), (mid, t.cy), (x2, t.cy)]
            }
        }
    }
}

/// Both trees of a pair in one coordinate system.
#[derive(Debug, Clone, PartialEq)]
pub struct PairLayout {
    pub source: TreeLayout,
    pub target: TreeLayout,
    pub width: f64,
    pub height: f64,
    /// How the trees face each other; edges and links follow it.
    pub orientation: Orientation,
}

fn text_width(text: &str, style: &Style) -> f64 {
    text.chars().count() as f64 * style.char_width + 2.0 * style.box_padding
}

/// Lays out one tree with its root at `top` (or, `mirrored`, with its words
/// at `top` and its root at the bottom), starting at x = `left`.
pub fn layout_tree(tree: &Tree, style: &Style, left: f64, top: f64, mirrored: bool) -> TreeLayout {
    let n_words = tree.words().len();
    let widths: Vec<f64> = tree.node_ids().map(|n| text_width(tree.label(n), style)).collect();
    let word_widths: Vec<f64> = tree.words().iter().map(|w| text_width(w, style)).collect();
    // Each word's slot is as wide as the word or any box that spans only it.
    let mut slot: Vec<f64> = word_widths.clone();
    for (node, width) in tree.nodes().iter().zip(&widths) {
        if node.span.len() == 1 {
            slot[node.span.start] = slot[node.span.start].max(*width);
        }
    }
    // Extra space added after word i to separate crowded boxes above it.
    let mut extra = vec![0.0; n_words];
    let rows = tree.height(NodeId::ROOT);
    let mut by_row: Vec<Vec<NodeId>> = vec![Vec::new(); rows];
    for n in tree.node_ids() {
        by_row[tree.height(n) - 1].push(n);
    }
    for row in &mut by_row {
        row.sort_by_key(|&n| tree.span(n).start);
    }
    let mut xs = vec![0.0; tree.len()];
    let mut word_x = vec![0.0; n_words];
    // Widen gaps until no two neighbours in a row overlap; every pass only
    // adds space, and each added gap fixes the pair that asked for it.
    for _pass in 0..=tree.len() {
        let mut x = left;
        for i in 0..n_words {
            word_x[i] = x + slot[i] / 2.0;
            x += slot[i] + style.min_gap + extra[i];
        }
        // Bottom-up: a node is centred over its first and last child.
        for n in tree.node_ids().rev() {
            xs[n.index()] = match tree.children(n) {
                [] => word_x[tree.span(n).start],
                kids => (xs[kids[0].index()] + xs[kids[kids.len() - 1].index()]) / 2.0,
            };
        }
        let mut widened = false;
        for row in &by_row {
            for pair in row.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let need = (widths[a.index()] + widths[b.index()]) / 2.0 + style.min_gap;
                let have = xs[b.index()] - xs[a.index()];
                if have + 1e-9 < need {
                    // Open the gap at the boundary between the two spans.
                    let boundary = tree.span(a).end.saturating_sub(1);
                    extra[boundary] += need - have;
                    widened = true;
                }
            }
        }
        if !widened {
            break;
        }
    }
    let width = (0..n_words).map(|i| slot[i] + style.min_gap + extra[i]).sum::<f64>() - style.min_gap;
    // Row r (height r+1) from the word row: words at distance 0.
    let height = rows as f64 * style.row_gap + style.box_height;
    let y_of_level = |level: usize| {
        // level 0 = words, level k = nodes of height k.
        let from_words = level as f64 * style.row_gap;
        if mirrored {
            top + style.box_height / 2.0 + from_words
        } else {
            top + height - style.box_height / 2.0 - from_words
        }
    };
    let nodes = tree
        .node_ids()
        .map(|n| Rect {
            cx: xs[n.index()],
            cy: y_of_level(tree.height(n)),
            width: widths[n.index()],
            height: style.box_height,
        })
        .collect();
    let words = (0..n_words)
        .map(|i| Rect { cx: word_x[i], cy: y_of_level(0), width: word_widths[i], height: style.box_height })
        .collect();
    TreeLayout { nodes, words, width: width.max(0.0), height }
}

/// Source tree on top (root up), target tree below it mirrored (root down).
pub fn layout_pair(source: &Tree, target: &Tree, style: &Style) -> PairLayout {
    let m = style.margin;
    let src = layout_tree(source, style, m, m, false);
    let trg_top = m + src.height + style.middle_gap;
    let trg = layout_tree(target, style, m, trg_top, true);
    let width = src.width.max(trg.width) + 2.0 * m;
    // Centre the narrower tree.
    let centre = |t: TreeLayout| {
        let dx = (width - 2.0 * m - t.width) / 2.0;
        shift(t, dx)
    };
    let (src, trg) = (centre(src), centre(trg));
    let height = trg_top + trg.height + m;
    PairLayout { source: src, target: trg, width, height, orientation: Orientation::Stacked }
}

/// Lays out one tree side by side with another: one word per row from
/// `top`, nodes in columns by height, the root's column at the left and the
/// words' at the right (or, `mirrored`, the words at the left and the root
/// at the right), starting at x = `left`.
///
/// A node's row is midway between its first and last child's, so it lies
/// within its span's rows: nodes of one column have disjoint spans, hence
/// rows at least a `word_pitch` apart, and never overlap.
pub fn layout_tree_side(tree: &Tree, style: &Style, left: f64, top: f64, mirrored: bool) -> TreeLayout {
    let n_words = tree.words().len();
    let rows = tree.height(NodeId::ROOT);
    let widths: Vec<f64> = tree.node_ids().map(|n| text_width(tree.label(n), style)).collect();
    let word_widths: Vec<f64> = tree.words().iter().map(|w| text_width(w, style)).collect();
    // Column 0 holds the words, column k the nodes of height k.
    let mut column = vec![0.0f64; rows + 1];
    column[0] = word_widths.iter().copied().fold(0.0, f64::max);
    for n in tree.node_ids() {
        let k = tree.height(n);
        column[k] = column[k].max(widths[n.index()]);
    }
    let width = column.iter().sum::<f64>() + rows as f64 * style.column_gap;
    // Left edge of each column: from the root's (source) or the words' (mirrored).
    let mut column_left = vec![0.0; rows + 1];
    let mut x = left;
    let order: Vec<usize> = if mirrored { (0..=rows).collect() } else { (0..=rows).rev().collect() };
    for k in order {
        column_left[k] = x;
        x += column[k] + style.column_gap;
    }
    let word_y = |i: usize| top + style.side_box_height / 2.0 + i as f64 * style.word_pitch;
    let mut ys = vec![0.0; tree.len()];
    for n in tree.node_ids().rev() {
        ys[n.index()] = match tree.children(n) {
            [] => word_y(tree.span(n).start),
            kids => (ys[kids[0].index()] + ys[kids[kids.len() - 1].index()]) / 2.0,
        };
    }
    let nodes = tree
        .node_ids()
        .map(|n| {
            let k = tree.height(n);
            Rect {
                cx: column_left[k] + column[k] / 2.0,
                cy: ys[n.index()],
                width: widths[n.index()],
                height: style.side_box_height,
            }
        })
        .collect();
    // Each word next to its POS node: left-aligned in its column, or right-aligned mirrored.
    let words = (0..n_words)
        .map(|i| {
            let w = word_widths[i];
            let cx = if mirrored { column_left[0] + column[0] - w / 2.0 } else { column_left[0] + w / 2.0 };
            Rect { cx, cy: word_y(i), width: w, height: style.side_box_height }
        })
        .collect();
    let height = n_words.saturating_sub(1) as f64 * style.word_pitch + style.side_box_height;
    TreeLayout { nodes, words, width, height }
}

/// Source tree at the left (root at the left edge), target tree at the
/// right mirrored (root at the right edge), their words facing across the
/// middle; the shorter tree centred vertically.
pub fn layout_pair_side(source: &Tree, target: &Tree, style: &Style) -> PairLayout {
    let m = style.margin;
    let src = layout_tree_side(source, style, m, m, false);
    let trg = layout_tree_side(target, style, m + src.width + style.middle_gap, m, true);
    let height = src.height.max(trg.height) + 2.0 * m;
    let centre = |t: TreeLayout| {
        let dy = (height - 2.0 * m - t.height) / 2.0;
        shift_y(t, dy)
    };
    let width = src.width + style.middle_gap + trg.width + 2.0 * m;
    PairLayout { source: centre(src), target: centre(trg), width, height, orientation: Orientation::SideBySide }
}

/// The orientation whose layout shows a pair at the larger zoom in a
/// `box_width` × `box_height` box, text capped at `max_text_px` as
/// [`fit_zoom`] caps it (stacked when both reach the cap). Unclamped below,
/// so that a pair too long for either still gets the larger of the two.
pub fn best_orientation(
    stacked: &PairLayout,
    side_by_side: &PairLayout,
    box_width: f64,
    box_height: f64,
    max_text_px: f64,
) -> Orientation {
    let fit = |l: &PairLayout| (box_width / l.width).min(box_height / l.height).min(max_text_px / FONT_PX);
    if fit(side_by_side) > fit(stacked) {
        Orientation::SideBySide
    } else {
        Orientation::Stacked
    }
}

/// A tree as drawn, with some sub-trees folded: each folded phrase node
/// stands in for its sub-tree, drawn as its label over its yield (one
/// text, shortened), and node ids map both ways to the original tree's.
#[derive(Debug, Clone, PartialEq)]
pub struct FoldedTree {
    /// The tree drawn (folded nodes have the yield as their one word).
    pub tree: Tree,
    /// The original id of each drawn node.
    pub original: Vec<NodeId>,
    /// The drawn node of each original node: itself, or the folded node that hides it.
    pub drawn: Vec<NodeId>,
    /// Whether a drawn node is a folded sub-tree.
    pub folded: Vec<bool>,
}

/// Longest text a folded yield is drawn with (characters), so a folded
/// clause does not widen the drawing back to its words' width.
pub const FOLDED_YIELD_CHARS: usize = 24;

/// A folded node's yield as drawn: the words, cut to [`FOLDED_YIELD_CHARS`] with "…".
pub fn folded_yield(words: &[String]) -> String {
    let all = words.join(" ");
    if all.chars().count() <= FOLDED_YIELD_CHARS {
        all
    } else {
        let mut cut: String = all.chars().take(FOLDED_YIELD_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

/// `tree` with the phrase nodes in `folded` drawn as leaves (an id out of
/// range, a POS node, or a node inside another folded one is ignored).
pub fn fold_tree(tree: &Tree, folded: &BTreeSet<NodeId>) -> FoldedTree {
    let mut b = TreeBuilder::new();
    let mut original = Vec::new();
    let mut is_folded = Vec::new();
    let mut drawn = vec![NodeId::ROOT; tree.len()];
    // The original ids of the open drawn phrases, innermost last.
    let mut open: Vec<NodeId> = Vec::new();
    let mut n = NodeId::ROOT;
    while tree.contains(n) {
        while open.last().is_some_and(|&o| tree.subtree_end(o) <= n) {
            open.pop();
            b.close();
        }
        let id = NodeId::new(original.len());
        original.push(n);
        if tree.is_pos(n) {
            b.pos(tree.label(n), tree.yield_of(n).first().cloned().unwrap_or_default());
            is_folded.push(false);
            drawn[n.index()] = id;
            n = NodeId::new(n.index() + 1);
        } else if folded.contains(&n) {
            b.pos(tree.label(n), folded_yield(tree.yield_of(n)));
            is_folded.push(true);
            for d in tree.subtree(n) {
                drawn[d.index()] = id;
            }
            n = tree.subtree_end(n);
        } else {
            b.open_phrase(tree.label(n));
            is_folded.push(false);
            open.push(n);
            drawn[n.index()] = id;
            n = NodeId::new(n.index() + 1);
        }
    }
    // Built from a non-empty tree, so it has a node; an empty one stays empty.
    let drawn_tree = b.finish().unwrap_or_else(|| tree.clone());
    FoldedTree { tree: drawn_tree, original, drawn, folded: is_folded }
}

/// A pair as drawn: both trees (folded as asked) and their layout, whose
/// node indices are the drawn trees' ([`FoldedTree::drawn`] maps to them).
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    pub source: FoldedTree,
    pub target: FoldedTree,
    pub layout: PairLayout,
}

impl Drawing {
    /// The pair stacked (source above, target below), as the page and the exported SVG draw it.
    pub fn new(
        source: &Tree,
        target: &Tree,
        fold_source: &BTreeSet<NodeId>,
        fold_target: &BTreeSet<NodeId>,
        style: &Style,
    ) -> Drawing {
        Drawing::oriented(source, target, fold_source, fold_target, style, Orientation::Stacked)
    }

    /// The pair laid out as `orientation` says.
    pub fn oriented(
        source: &Tree,
        target: &Tree,
        fold_source: &BTreeSet<NodeId>,
        fold_target: &BTreeSet<NodeId>,
        style: &Style,
        orientation: Orientation,
    ) -> Drawing {
        let (source, target) = (fold_tree(source, fold_source), fold_tree(target, fold_target));
        let layout = match orientation {
            Orientation::Stacked => layout_pair(&source.tree, &target.tree, style),
            Orientation::SideBySide => layout_pair_side(&source.tree, &target.tree, style),
        };
        Drawing { source, target, layout }
    }

    /// The drawn nodes a link between original nodes `s` and `t` runs
    /// between (a folded node stands in for what it hides); `None` if an id
    /// is outside the trees.
    pub fn link_ends(&self, s: NodeId, t: NodeId) -> Option<(NodeId, NodeId)> {
        Some((*self.source.drawn.get(s.index())?, *self.target.drawn.get(t.index())?))
    }

    /// The box around original node `n`'s sub-tree (its node, the nodes
    /// and words below it) as drawn, on the source or target side.
    pub fn subtree_box(&self, target_side: bool, n: NodeId) -> Option<Rect> {
        let (f, l) =
            if target_side { (&self.target, &self.layout.target) } else { (&self.source, &self.layout.source) };
        let d = *f.drawn.get(n.index())?;
        let nodes = f.tree.subtree(d).map(|k| l.nodes[k.index()]);
        let words = f.tree.span(d).map(|w| l.words[w]);
        union(nodes.chain(words))
    }
}

/// The smallest box holding all `rects`; `None` for none.
pub fn union(rects: impl IntoIterator<Item = Rect>) -> Option<Rect> {
    let mut it = rects.into_iter();
    let first = it.next()?;
    let (mut l, mut t, mut r, mut b) = (first.left(), first.top(), first.right(), first.bottom());
    for x in it {
        (l, t, r, b) = (l.min(x.left()), t.min(x.top()), r.max(x.right()), b.max(x.bottom()));
    }
    Some(Rect { cx: (l + r) / 2.0, cy: (t + b) / 2.0, width: r - l, height: b - t })
}

/// Font size of labels and words at zoom 1 (px), as `svg::DIAGRAM_CSS` sets it.
pub const FONT_PX: f64 = 13.0;
/// The smallest size text is ever drawn at on the page (px): below it the
/// diagram pans instead of shrinking.
pub const MIN_TEXT_PX: f64 = 10.0;
/// The smallest zoom on a phone: node boxes (22 units high) 24.2 px, a
/// finger's target (WCAG 2.2's 24 × 24 px), and words 14.3 px.
pub const TOUCH_ZOOM_MIN: f64 = 1.1;
/// The smallest click target of the page's diagram (drawing units): a
/// node box's height, so a one-letter box is hit as wide as it is high.
pub const TARGET_UNITS: f64 = 22.0;
/// The zoom range of the page's diagram: from readable text to 4×.
pub const ZOOM_MIN: f64 = MIN_TEXT_PX / FONT_PX;
pub const ZOOM_MAX: f64 = 4.0;
/// The largest text fitting a pair to its box draws (px): a small pair
/// is enlarged to fill the box, but not past twice the page's text.
pub const FIT_MAX_TEXT_PX: f64 = 26.0;
/// The same cap in the page's presentation mode (a projector's back row).
pub const PRESENT_MAX_TEXT_PX: f64 = 40.0;

/// `zoom` within [`ZOOM_MIN`]..=[`ZOOM_MAX`] (a non-finite zoom is 1).
pub fn clamp_zoom(zoom: f64) -> f64 {
    if zoom.is_finite() {
        zoom.clamp(ZOOM_MIN, ZOOM_MAX)
    } else {
        1.0
    }
}

/// The zoom that shows a `width` × `height` drawing whole in a box of
/// `box_width` × `box_height`: enlarged to fill the box (a projector's),
/// but never with text above `max_text_px` ([`FIT_MAX_TEXT_PX`]), nor
/// below readable text (a long pair is panned instead).
pub fn fit_zoom(width: f64, height: f64, box_width: f64, box_height: f64, max_text_px: f64) -> f64 {
    let fit = (box_width / width).min(box_height / height);
    clamp_zoom(fit.min(max_text_px / FONT_PX))
}

/// Zoom to `region` (drawing units) in a `box_width` × `box_height` box:
/// the zoom (readable, at most 2×) and the scroll offsets that centre it.
pub fn zoom_to(region: &Rect, box_width: f64, box_height: f64) -> (f64, f64, f64) {
    let pad = 24.0;
    let z = clamp_zoom(((box_width - pad) / region.width).min((box_height - pad) / region.height).min(2.0));
    let left = (region.cx * z - box_width / 2.0).max(0.0);
    let top = (region.cy * z - box_height / 2.0).max(0.0);
    (z, left, top)
}

fn shift(mut t: TreeLayout, dx: f64) -> TreeLayout {
    for r in t.nodes.iter_mut().chain(t.words.iter_mut()) {
        r.cx += dx;
    }
    t
}

fn shift_y(mut t: TreeLayout, dy: f64) -> TreeLayout {
    for r in t.nodes.iter_mut().chain(t.words.iter_mut()) {
        r.cy += dy;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    fn nodes(ids: &[usize]) -> Vec<NodeId> {
        ids.iter().copied().map(n).collect()
    }

    #[test]
    fn parents_above_children_and_centred() {
        let t = Tree::parse_one("(S (NP (DT the) (NN dog)) (VBZ barks))", "t").unwrap();
        let l = layout_tree(&t, &Style::default(), 0.0, 0.0, false);
        assert!(l.nodes[0].cy < l.nodes[1].cy && l.nodes[1].cy < l.nodes[2].cy);
        assert_eq!(l.nodes[2].cy, l.nodes[4].cy, "POS nodes share a row");
        assert!(l.words[0].cy > l.nodes[2].cy);
        assert!((l.nodes[1].cx - (l.nodes[2].cx + l.nodes[3].cx) / 2.0).abs() < 1e-9);
        let m = layout_tree(&t, &Style::default(), 0.0, 0.0, true);
        assert!(m.nodes[0].cy > m.nodes[1].cy && m.words[0].cy < m.nodes[2].cy, "mirrored: root at the bottom");
    }

    #[test]
    fn folding_a_subtree_draws_its_label_over_its_yield_and_maps_ids_both_ways() {
        let t =
            Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB very) (RB loudly))))", "t").unwrap();
        // Ids: S0 NP1 DT2 NN3 VP4 VBZ5 ADVP6 RB7 RB8.
        let none = fold_tree(&t, &BTreeSet::new());
        assert_eq!(none.tree.to_bracketed(), t.to_bracketed());
        assert_eq!(none.original, (0..9).map(NodeId::new).collect::<Vec<_>>());
        let f = fold_tree(&t, &BTreeSet::from([n(1), n(6), n(7), n(42)]));
        assert_eq!(f.tree.to_bracketed(), "(S (NP the dog) (VP (VBZ barks) (ADVP very loudly)))");
        assert_eq!(f.original, nodes(&[0, 1, 4, 5, 6]));
        assert_eq!(f.drawn, nodes(&[0, 1, 1, 1, 2, 3, 4, 4, 4]));
        assert_eq!(f.folded, vec![false, true, false, false, true]);
        // Folding the root leaves one box; a POS node does not fold.
        let root = fold_tree(&t, &BTreeSet::from([n(0)]));
        assert_eq!(root.tree.len(), 1);
        assert_eq!(root.tree.words(), ["the dog barks very loud…"], "25 characters, cut to 24");
        assert_eq!(fold_tree(&t, &BTreeSet::from([n(2)])).tree.len(), 9);
        // A long yield is cut, so the folded box stays narrow.
        let long: Vec<String> = (0..30).map(|i| format!("w{i}")).collect();
        let y = folded_yield(&long);
        assert_eq!(y.chars().count(), FOLDED_YIELD_CHARS);
        assert!(y.starts_with("w0 w1 w2") && y.ends_with('…'));
    }

    #[test]
    fn a_drawing_links_hidden_nodes_to_their_folded_ancestor_and_is_narrower() {
        let s =
            Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB very) (RB loudly))))", "s").unwrap();
        let t =
            Tree::parse_one("(S (NP (DT el) (NN perro)) (VP (VBZ ladra) (ADVP (RB muy) (RB fuerte))))", "t").unwrap();
        let st = Style::default();
        let open = Drawing::new(&s, &t, &BTreeSet::new(), &BTreeSet::new(), &st);
        let folded = Drawing::new(&s, &t, &BTreeSet::from([n(4)]), &BTreeSet::new(), &st);
        assert_eq!(open.link_ends(n(7), n(7)), Some((n(7), n(7))));
        assert_eq!(folded.link_ends(n(7), n(7)), Some((n(4), n(7))), "RB (7) is hidden in the folded VP (4)");
        assert_eq!(folded.link_ends(n(9), n(0)), None);
        assert!(folded.layout.source.width < open.layout.source.width);
        // The box of a sub-tree holds its node and its words.
        let b = open.subtree_box(false, n(1)).unwrap();
        let (np, the, dog) = (open.layout.source.nodes[1], open.layout.source.words[0], open.layout.source.words[1]);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(b.top(), np.top()) && close(b.bottom(), the.bottom()));
        assert!(close(b.left(), the.left().min(np.left())) && close(b.right(), dog.right().max(np.right())));
        assert!(open.subtree_box(true, n(99)).is_none());
    }

    #[test]
    fn zoom_never_makes_text_unreadable() {
        // A 3600 px wide pair in a 1300 px box: fitting would give 4.7 px text; it stays at 10 px.
        let z = fit_zoom(3596.0, 982.0, 1300.0, 600.0, FIT_MAX_TEXT_PX);
        assert_eq!(z, ZOOM_MIN);
        assert!((FONT_PX * z - MIN_TEXT_PX).abs() < 1e-9);
        // A small pair is enlarged to fill the box, a slightly large one shrunk to fit.
        assert_eq!(fit_zoom(500.0, 400.0, 1300.0, 600.0, FIT_MAX_TEXT_PX), 1.5);
        assert!((fit_zoom(1000.0, 700.0, 900.0, 630.0, FIT_MAX_TEXT_PX) - 0.9).abs() < 1e-12);
        // A tiny one stops at the cap: text of FIT_MAX_TEXT_PX, then larger in presentation.
        assert_eq!(fit_zoom(100.0, 80.0, 1300.0, 600.0, FIT_MAX_TEXT_PX), FIT_MAX_TEXT_PX / FONT_PX);
        assert_eq!(fit_zoom(100.0, 80.0, 1300.0, 600.0, PRESENT_MAX_TEXT_PX), PRESENT_MAX_TEXT_PX / FONT_PX);
        assert_eq!(clamp_zoom(f64::NAN), 1.0);
        assert_eq!(clamp_zoom(100.0), ZOOM_MAX);
        // Zooming to a region centres it.
        let r = Rect { cx: 2000.0, cy: 500.0, width: 200.0, height: 100.0 };
        let (z, left, top) = zoom_to(&r, 800.0, 600.0);
        assert_eq!(z, 2.0);
        assert_eq!((left, top), (2000.0 * 2.0 - 400.0, 500.0 * 2.0 - 300.0));
        let wide = Rect { cx: 300.0, cy: 100.0, width: 5000.0, height: 100.0 };
        assert_eq!(zoom_to(&wide, 800.0, 600.0), (ZOOM_MIN, 0.0, 0.0), "never scrolled before the start");
    }

    #[test]
    fn side_by_side_layouts_of_real_pairs_never_overlap_and_roots_are_outermost() {
        let st = Style::default();
        let pairs = crate::corpus::sample(..).pairs;
        assert_eq!(pairs.len(), 157);
        for p in &pairs {
            let l = layout_pair_side(&p.source, &p.target, &st);
            assert_eq!(l.orientation, Orientation::SideBySide);
            for (t, tree, source) in [(&l.source, &p.source, true), (&l.target, &p.target, false)] {
                let boxes: Vec<&Rect> = t.nodes.iter().chain(&t.words).collect();
                for (i, a) in boxes.iter().enumerate() {
                    for b in &boxes[i + 1..] {
                        assert!(!a.overlaps(b), "{a:?} overlaps {b:?} in {}", tree);
                    }
                    assert!(a.left() >= 0.0 && a.right() <= l.width && a.top() >= 0.0 && a.bottom() <= l.height);
                }
                // Each edge runs from the middle outwards: a parent further from the middle than its
                // child (the source's root at the left, the target's at the right), one word per row.
                for (_, parent, child) in crate::svg::tree_edges(tree, t) {
                    let outside = if source { parent.right() < child.left() } else { parent.left() > child.right() };
                    assert!(outside, "{parent:?} is not outside {child:?} in {tree}");
                }
                assert!(t.words.windows(2).all(|w| (w[1].cy - w[0].cy - st.word_pitch).abs() < 1e-9));
            }
            // The trees face each other across the middle.
            let right_of_source = l.source.nodes.iter().chain(&l.source.words).map(Rect::right).fold(0.0, f64::max);
            let left_of_target =
                l.target.nodes.iter().chain(&l.target.words).map(Rect::left).fold(f64::INFINITY, f64::min);
            assert!(left_of_target - right_of_source >= st.middle_gap - 1e-9);
        }
    }

    #[test]
    fn presentation_lays_long_pairs_side_by_side_where_that_is_larger() {
        let st = Style::default();
        let pairs = crate::corpus::sample(..).pairs;
        let words = |p: &crate::corpus::TreePair| p.source.words().len().max(p.target.words().len());
        // The diagram's box in presentation mode, less the fit's margin, as measured in Chromium
        // (tests/e2e/presentation.test.mjs): 1920×1080 and 1280×720 screens.
        let (projector, small) = ((1876.0, 907.0), (1236.0, 547.0));
        let shown = |p: &crate::corpus::TreePair, (bw, bh): (f64, f64)| {
            let (a, b) = (layout_pair(&p.source, &p.target, &st), layout_pair_side(&p.source, &p.target, &st));
            let o = best_orientation(&a, &b, bw, bh, PRESENT_MAX_TEXT_PX);
            let l = if o == Orientation::Stacked { a } else { b };
            (o, FONT_PX * fit_zoom(l.width, l.height, bw, bh, PRESENT_MAX_TEXT_PX))
        };
        // Every pair of 30 words: side by side, text of 16 px or more (stacked, 14 and 11.7 px).
        let thirty: Vec<_> = pairs.iter().filter(|p| words(p) == 30).collect();
        assert_eq!(thirty.len(), 2);
        for p in thirty {
            let stacked = layout_pair(&p.source, &p.target, &st);
            assert!(FONT_PX * fit_zoom(stacked.width, stacked.height, projector.0, projector.1, 40.0) < 16.0);
            let (o, px) = shown(p, projector);
            assert_eq!(o, Orientation::SideBySide);
            assert!(px >= 16.0, "{px} px");
        }
        // Up to 30 words, 16 px at 1920×1080; the median pair 12 px at 1280×720.
        for p in pairs.iter().filter(|p| words(p) <= 30) {
            assert!(shown(p, projector).1 >= 16.0, "{}", p.source);
        }
        let mut by_length: Vec<_> = pairs.iter().collect();
        by_length.sort_by_key(|p| words(p));
        let median = by_length[(by_length.len() - 1) / 2];
        assert_eq!(words(median), 19);
        assert!(shown(median, small).1 >= 12.0);
        // A short pair reaches the cap either way: stacked, as on the page.
        let short = by_length[0];
        assert_eq!(shown(short, projector), (Orientation::Stacked, PRESENT_MAX_TEXT_PX));
    }

    #[test]
    fn wide_labels_over_short_words_do_not_overlap() {
        let t = Tree::parse_one("(S (VERYLONGLABEL (X a) (X b)) (ANOTHERLONGLABEL (X c) (X d)))", "t").unwrap();
        let l = layout_tree(&t, &Style::default(), 0.0, 0.0, false);
        assert!(!l.nodes[1].overlaps(&l.nodes[4]));
    }
}
