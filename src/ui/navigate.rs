//! Moving between the diagram's nodes with the arrow keys, as they are
//! drawn: the source tree with its root at the top, the target tree below
//! it mirrored (its root at the bottom, its leaves facing the source's).
//! ↑ and ↓ go to the node drawn above or below (a parent or a first
//! child), and from a tree's leaves across the gap to the nearest leaf of
//! the other tree; ← and → go to the neighbour in the same row. So a
//! target node is a few keys away from any source node, not a Tab per
//! node in between. Side by side ([`Orientation::SideBySide`]) the same
//! turned a quarter: ← and → go towards a root or away from it, ↑ and ↓
//! along a column. Plain Rust over [`Drawing`], tested natively.

use crate::layout::{Drawing, FoldedTree, Orientation, Rect, TreeLayout};
use crate::tree::NodeId;
use crate::ui::folds::Side;

/// An arrow key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    /// The arrow of a `KeyboardEvent.key`, if it is one.
    pub fn of_key(key: &str) -> Option<Direction> {
        match key {
            "ArrowUp" => Some(Direction::Up),
            "ArrowDown" => Some(Direction::Down),
            "ArrowLeft" => Some(Direction::Left),
            "ArrowRight" => Some(Direction::Right),
            _ => None,
        }
    }
}

fn side_of(drawing: &Drawing, side: Side) -> (&FoldedTree, &TreeLayout) {
    match side {
        Side::Source => (&drawing.source, &drawing.layout.source),
        Side::Target => (&drawing.target, &drawing.layout.target),
    }
}

/// Where a box is along a row (x stacked, y side by side) and from a
/// tree's root to its words (y stacked, x side by side).
fn along_row(drawing: &Drawing, r: &Rect) -> (f64, f64) {
    match drawing.layout.orientation {
        Orientation::Stacked => (r.cx, r.cy),
        Orientation::SideBySide => (r.cy, r.cx),
    }
}

/// The drawn node of `side` nearest to `at` (along a row) among those
/// drawn without nodes below them (POS nodes and folded sub-trees: the
/// row that faces the other tree).
fn nearest_leaf(drawing: &Drawing, side: Side, at: f64) -> Option<NodeId> {
    let (f, l) = side_of(drawing, side);
    let off = |d: NodeId| (along_row(drawing, &l.nodes[d.index()]).0 - at).abs();
    f.tree
        .node_ids()
        .filter(|&d| f.tree.children(d).is_empty())
        .min_by(|&a, &b| off(a).total_cmp(&off(b)).then(a.cmp(&b)))
}

/// The node drawn next to drawn node `d` of `side` in `direction` (see
/// the module's doc); `None` at an edge of the drawing.
pub fn neighbour(drawing: &Drawing, side: Side, d: NodeId, direction: Direction) -> Option<(Side, NodeId)> {
    let (f, l) = side_of(drawing, side);
    let tree = &f.tree;
    if !tree.contains(d) {
        return None;
    }
    // The keys towards each tree's root, and back and forth along a row: stacked, the
    // source's root is at the top; side by side, at the left.
    let (to_source_root, to_target_root, back, forth) = match drawing.layout.orientation {
        Orientation::Stacked => (Direction::Up, Direction::Down, Direction::Left, Direction::Right),
        Orientation::SideBySide => (Direction::Left, Direction::Right, Direction::Up, Direction::Down),
    };
    let (to_root, from_root) =
        if side == Side::Source { (to_source_root, to_target_root) } else { (to_target_root, to_source_root) };
    let at = |n: NodeId| along_row(drawing, &l.nodes[n.index()]);
    if direction == to_root {
        tree.parent(d).map(|p| (side, p))
    } else if direction == from_root {
        match tree.children(d).first() {
            Some(&child) => Some((side, child)),
            None => {
                let other = if side == Side::Source { Side::Target } else { Side::Source };
                nearest_leaf(drawing, other, at(d).0).map(|n| (other, n))
            }
        }
    } else {
        let (x, row) = at(d);
        let same_row = tree.node_ids().filter(|&n| n != d && (at(n).1 - row).abs() < 0.5);
        let next = if direction == forth {
            same_row.filter(|&n| at(n).0 > x).min_by(|&a, &b| at(a).0.total_cmp(&at(b).0))
        } else {
            debug_assert_eq!(direction, back);
            same_row.filter(|&n| at(n).0 < x).max_by(|&a, &b| at(a).0.total_cmp(&at(b).0))
        };
        next.map(|n| (side, n))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::layout::Style;
    use crate::tree::Tree;

    fn drawing(folds: &[usize]) -> Drawing {
        // Source ids: S0 NP1 DT2 NN3 VP4 VBZ5; target: S0 SN1 DET2 NC3 V4.
        let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "s").unwrap();
        let t = Tree::parse_one("(S (SN (DET el) (NC perro)) (V ladra))", "t").unwrap();
        let folds: BTreeSet<NodeId> = folds.iter().map(|&f| NodeId::new(f)).collect();
        Drawing::new(&s, &t, &folds, &BTreeSet::new(), &Style::default())
    }

    /// The keys a person presses to reach a target node from the source
    /// root, each moving to the node drawn in that direction.
    #[test]
    fn arrows_move_as_the_trees_are_drawn_and_cross_between_them() {
        let d = drawing(&[]);
        use Direction::*;
        use Side::*;
        let go = |from: (Side, NodeId), keys: &[Direction]| {
            keys.iter().try_fold(from, |(side, n), &k| neighbour(&d, side, n, k))
        };
        assert_eq!(neighbour(&d, Source, NodeId::new(0), Up), None, "the source root is the top");
        assert_eq!(go((Source, NodeId::new(0)), &[Down]), Some((Source, NodeId::new(1))), "first child");
        assert_eq!(
            go((Source, NodeId::new(0)), &[Down, Right]),
            Some((Source, NodeId::new(4))),
            "NP → VP, its neighbour in the row"
        );
        assert_eq!(go((Source, NodeId::new(0)), &[Down, Down, Right]), Some((Source, NodeId::new(3))), "DT → NN");
        assert_eq!(go((Source, NodeId::new(3)), &[Up]), Some((Source, NodeId::new(1))), "the parent");
        // Across: from the source's leaves down to the nearest target leaf (the target is mirrored).
        let (x, across) = (d.layout.source.nodes[2].cx, go((Source, NodeId::new(2)), &[Down]).unwrap());
        assert_eq!(across.0, Target);
        let leaves: Vec<NodeId> = d.target.tree.node_ids().filter(|&n| d.target.tree.children(n).is_empty()).collect();
        let nearest = leaves
            .iter()
            .copied()
            .min_by(|&a, &b| {
                (d.layout.target.nodes[a.index()].cx - x)
                    .abs()
                    .total_cmp(&(d.layout.target.nodes[b.index()].cx - x).abs())
            })
            .unwrap();
        assert_eq!(across.1, nearest);
        // In the mirrored target, ↓ goes to the parent and ↑ to a child, then back across.
        assert_eq!(go((Target, NodeId::new(2)), &[Down]), Some((Target, NodeId::new(1))));
        assert_eq!(go((Target, NodeId::new(1)), &[Down]), Some((Target, NodeId::new(0))));
        assert_eq!(neighbour(&d, Target, NodeId::new(0), Down), None, "the target root is the bottom");
        assert_eq!(go((Target, NodeId::new(1)), &[Up]), Some((Target, NodeId::new(2))));
        assert_eq!(go((Target, NodeId::new(2)), &[Up]).map(|(s, _)| s), Some(Source));
        assert_eq!(neighbour(&d, Source, NodeId::new(1), Left), None, "the row's first");
        assert_eq!(neighbour(&d, Source, NodeId::new(99), Up), None);
        // A folded sub-tree is a leaf: ↓ crosses from it.
        let folded = drawing(&[1]);
        assert!(folded.source.tree.children(NodeId::new(1)).is_empty());
        assert_eq!(neighbour(&folded, Source, NodeId::new(1), Down).map(|(s, _)| s), Some(Target));
    }

    /// Side by side, the same moves turned a quarter: → away from the
    /// source's root and across to the target, ← back, ↑ ↓ along a column.
    #[test]
    fn side_by_side_the_arrows_turn_with_the_trees() {
        let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "s").unwrap();
        let t = Tree::parse_one("(S (SN (DET el) (NC perro)) (V ladra))", "t").unwrap();
        let none = BTreeSet::new();
        let d = Drawing::oriented(&s, &t, &none, &none, &Style::default(), Orientation::SideBySide);
        use Direction::*;
        use Side::*;
        let n = NodeId::new;
        assert_eq!(neighbour(&d, Source, n(0), Left), None, "the source root is the left edge");
        assert_eq!(neighbour(&d, Source, n(0), Right), Some((Source, n(1))), "first child");
        assert_eq!(neighbour(&d, Source, n(3), Left), Some((Source, n(1))), "the parent");
        assert_eq!(neighbour(&d, Source, n(2), Down), Some((Source, n(3))), "DT → NN, down its column");
        assert_eq!(neighbour(&d, Source, n(3), Up), Some((Source, n(2))));
        // From the source's POS node DT across to the target leaf in the nearest row, DET.
        assert_eq!(neighbour(&d, Source, n(2), Right), Some((Target, n(2))));
        assert_eq!(neighbour(&d, Target, n(2), Right), Some((Target, n(1))), "the mirrored target's parent");
        assert_eq!(neighbour(&d, Target, n(0), Right), None, "the target root is the right edge");
        assert_eq!(neighbour(&d, Target, n(2), Left).map(|(s, _)| s), Some(Source));
    }
}
