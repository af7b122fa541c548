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

use crate::tree::{NodeId, Tree};

/// Sizes in SVG user units (px at zoom 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Advance of one character of the monospace font.
    pub char_width: f64,
    /// Height of a node box.
    pub box_height: f64,
    /// Horizontal padding inside a box, each side.
    pub box_padding: f64,
    /// Vertical distance between rows.
    pub row_gap: f64,
    /// Minimum horizontal space between neighbouring boxes or words.
    pub min_gap: f64,
    /// Vertical space between the two trees' word rows.
    pub middle_gap: f64,
    /// Margin around the drawing.
    pub margin: f64,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            char_width: 7.8,
            box_height: 22.0,
            box_padding: 5.0,
            row_gap: 44.0,
            min_gap: 8.0,
            middle_gap: 70.0,
            margin: 16.0,
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

/// Both trees of a pair in one coordinate system.
#[derive(Debug, Clone, PartialEq)]
pub struct PairLayout {
    pub source: TreeLayout,
    pub target: TreeLayout,
    pub width: f64,
    pub height: f64,
}

fn text_width(text: &str, style: &Style) -> f64 {
    text.chars().count() as f64 * style.char_width + 2.0 * style.box_padding
}

/// Lays out one tree with its root at `top` (or, `mirrored`, with its words
/// at `top` and its root at the bottom), starting at x = `left`.
pub fn layout_tree(tree: &Tree, style: &Style, left: f64, top: f64, mirrored: bool) -> TreeLayout {
    let n_words = tree.words().len();
    let widths: Vec<f64> = (0..tree.len()).map(|n| text_width(tree.label(n), style)).collect();
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
    let rows = tree.height(0);
    let mut by_row: Vec<Vec<NodeId>> = vec![Vec::new(); rows];
    for n in 0..tree.len() {
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
        for n in (0..tree.len()).rev() {
            xs[n] = match tree.children(n) {
                [] => word_x[tree.span(n).start],
                kids => (xs[kids[0]] + xs[kids[kids.len() - 1]]) / 2.0,
            };
        }
        let mut widened = false;
        for row in &by_row {
            for pair in row.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let need = (widths[a] + widths[b]) / 2.0 + style.min_gap;
                let have = xs[b] - xs[a];
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
    let nodes = (0..tree.len())
        .map(|n| Rect { cx: xs[n], cy: y_of_level(tree.height(n)), width: widths[n], height: style.box_height })
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
    PairLayout { source: src, target: trg, width, height }
}

fn shift(mut t: TreeLayout, dx: f64) -> TreeLayout {
    for r in t.nodes.iter_mut().chain(t.words.iter_mut()) {
        r.cx += dx;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn wide_labels_over_short_words_do_not_overlap() {
        let t = Tree::parse_one("(S (VERYLONGLABEL (X a) (X b)) (ANOTHERLONGLABEL (X c) (X d)))", "t").unwrap();
        let l = layout_tree(&t, &Style::default(), 0.0, 0.0, false);
        assert!(!l.nodes[1].overlaps(&l.nodes[4]));
    }
}
