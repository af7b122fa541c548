//! The structure string of an RM, as the paper writes it in its Tables 1-2 and
//! Figure 4: `AP[AP[BMP[m-q]-a]-usde] wj`.
//!
//! Notation (read off the paper's examples):
//! - an RM is its MS from left to right, separated by spaces:
//!   `AP[...] wj` is two MS, `DT CD JJ NNS PUNC` five;
//! - an MS is its root label followed, if the root is a phrase node, by its
//!   children in brackets separated by `-`: `BMP[m-q]`;
//! - a bare label is a pre-terminal (POS) node; its word is not written, so
//!   the string is the *shape* of the structure, shared by every sentence
//!   with the same sub-trees. Each bare label stands for exactly one word.
//!
//! Labels may themselves contain `-` (the paper's own `NP-A`, STTS `$-LRB-`).
//! At the top level, where MS are separated by spaces, a `-` is just part of
//! the label, so the paper's `NP-A[NPB[PRP-NN]]` reads as written. Inside
//! brackets `-` separates children, so a `-` in a child's label is written
//! `\-`: `S[NP\-A[NN]-VP[VV]]`. Likewise `\[`, `\]`, `\\` and `\ ` (a
//! backslash before whitespace) escape the other special characters
//! anywhere; a backslash before any other character is that character.
//!
//! Reading is lenient about spaces inside a structure (the paper prints
//! `NPB [DT-JJ-NN-PUNC.]` and `VP[vg - BNP[pron - n]]`); writing gives the
//! canonical form (no optional spaces, minimal escapes), so
//! string → [`RmShape`] → string is the identity on canonical strings and
//! shape → string → shape is the identity on every shape.
//!
//! Cost: reading and writing are O(length) and iterative (no recursion), so
//! a deeply nested string is an error or a shape, never a stack overflow.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Constraints, HeightMeasure};
use crate::tree::{NodeId, Tree};

/// One node of an [`RmShape`], in pre-order: its label and number of children.
/// `arity == 0` is a pre-terminal (it stands for one word).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeNode {
    pub label: String,
    pub arity: usize,
}

/// The tree-independent shape of an RM (a sequence of MS): what the model
/// files store and the RM transformation tables (eqs. 9-10) and the
/// structure model (eq. 13) are keyed on. Written and read as the paper's
/// structure string; serialises as that string.
///
/// Only [`RmShape::parse`], [`RmShape::from_tree`] and [`RmShape::concat`]
/// make one, so it always holds at least one MS and a well-formed pre-order.
///
/// # Examples
/// ```
/// use treelink::mt::meta::RmShape;
/// let rm: RmShape = "AP[AP[BMP[m-q]-a]-usde] wj".parse().unwrap();
/// assert_eq!(rm.ms_count(), 2);
/// assert_eq!(rm.leaves().collect::<Vec<_>>(), ["m", "q", "a", "usde", "wj"]);
/// assert_eq!(rm.to_string(), "AP[AP[BMP[m-q]-a]-usde] wj");
/// let e = "NP-A[NPB[PRP-NN]".parse::<RmShape>().unwrap_err(); // Table 2's typo
/// assert_eq!(e.to_string(), "column 17: expected ']' to close 'NP-A[' opened at column 5, found the end of the string");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RmShape {
    /// All MS of the RM, one after another, each in pre-order.
    nodes: Vec<ShapeNode>,
}

/// One MS inside an [`RmShape`]: its nodes in pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MsShape<'a> {
    nodes: &'a [ShapeNode],
}

/// A located error from reading a structure string: `column N: what was expected`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct StructureError {
    /// 1-based column of the offending character (one past the end for "end of the string"), in characters.
    pub column: usize,
    pub kind: StructureErrorKind,
}

/// What went wrong, phrased as what the reader expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StructureErrorKind {
    #[error("expected a meta-structure, found {found}")]
    Empty { found: String },
    #[error("expected a label, found {found}")]
    ExpectedLabel { found: String },
    #[error("expected a child inside '{label}[', found ']'")]
    NoChildren { label: String },
    #[error("expected ']' to close '{label}[' opened at column {column}, found the end of the string")]
    Unclosed { label: String, column: usize },
    #[error("unexpected ']': no bracket is open here")]
    UnexpectedClose,
    #[error("expected '-', '[' or ']' after the child '{label}', found {found}")]
    ExpectedSeparator { label: String, found: String },
    #[error("expected a space between meta-structures after ']', found {found}")]
    ExpectedSpace { found: String },
    #[error("expected a character after '\\', found the end of the string")]
    DanglingEscape,
}

fn describe(c: Option<char>) -> String {
    match c {
        None => "the end of the string".to_string(),
        Some(c) if c.is_whitespace() => "a space".to_string(),
        Some(c) => format!("'{c}'"),
    }
}

/// Whether `c` must be escaped in a label; `inside` brackets `-` separates children.
fn needs_escape(c: char, inside: bool) -> bool {
    c.is_whitespace() || c == '[' || c == ']' || c == '\\' || (inside && c == '-')
}

/// `label` as it stands at the top level of a structure string (outside
/// brackets): whitespace, brackets and `\` escaped with `\`.
pub(crate) fn escape_label(label: &str) -> String {
    let mut s = String::with_capacity(label.len());
    // Writing to a String does not fail.
    let _ = write_label(&mut s, label, false);
    s
}

fn write_label(f: &mut impl fmt::Write, label: &str, inside: bool) -> fmt::Result {
    for c in label.chars() {
        if needs_escape(c, inside) {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    Ok(())
}

/// Writes MS given as one pre-order stream of `(label, arity)`: top-level
/// nodes are separated by spaces, children by `-`. Iterative.
pub(super) fn write_structure<'a>(
    f: &mut impl fmt::Write,
    preorder: impl IntoIterator<Item = (&'a str, usize)>,
) -> fmt::Result {
    // Children still to write for each open bracket, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut any = false;
    for (label, arity) in preorder {
        if open.is_empty() && std::mem::replace(&mut any, true) {
            f.write_char(' ')?;
        }
        write_label(f, label, !open.is_empty())?;
        if arity > 0 {
            f.write_char('[')?;
            open.push(arity);
            continue;
        }
        // A leaf completes its parent's current child, and maybe the parent too.
        while let Some(rest) = open.last_mut() {
            *rest -= 1;
            if *rest > 0 {
                f.write_char('-')?;
                break;
            }
            open.pop();
            f.write_char(']')?;
        }
    }
    Ok(())
}

/// Pre-order `(label, arity)` of the sub-trees rooted at `roots` (complete, down to the pre-terminals).
pub(super) fn tree_preorder<'t>(tree: &'t Tree, roots: &'t [NodeId]) -> impl Iterator<Item = (&'t str, usize)> + 't {
    roots.iter().flat_map(move |&r| tree.subtree(r)).map(move |n| (tree.label(n), tree.children(n).len()))
}

/// One past the last node of the MS starting at `start` in a pre-order with arities.
fn ms_end(nodes: &[ShapeNode], start: usize) -> usize {
    let mut need = 1usize;
    let mut i = start;
    while need > 0 && i < nodes.len() {
        need = need - 1 + nodes[i].arity;
        i += 1;
    }
    i
}

/// Nodes-based height (a pre-terminal is 1) of a pre-order with arities holding one tree.
fn node_height(nodes: &[ShapeNode]) -> usize {
    let mut open: Vec<usize> = Vec::new();
    let mut best = 0;
    for node in nodes {
        best = best.max(open.len() + 1);
        if node.arity > 0 {
            open.push(node.arity);
            continue;
        }
        while let Some(rest) = open.last_mut() {
            *rest -= 1;
            if *rest > 0 {
                break;
            }
            open.pop();
        }
    }
    best
}

impl RmShape {
    /// Reads a structure string (see the module documentation for the notation).
    pub fn parse(s: &str) -> Result<Self, StructureError> {
        Reader::new(s).read()
    }

    /// Whether `s` reads as a structure string ([`RmShape::parse`]'s
    /// error if not), without building the shape for the canonical ASCII
    /// form (a model's RM table checks every RM this way).
    pub fn check(s: &str) -> Result<(), StructureError> {
        // Nearly every RM string is in the canonical ASCII form; the rest are read.
        if canonical_ascii(s.as_bytes()) {
            return Ok(());
        }
        RmShape::parse(s).map(drop)
    }

    /// The shape of the sub-trees rooted at `roots`, left to right (each an MS,
    /// complete down to its pre-terminals). `None` if `roots` is empty or holds
    /// an id that is not a node of `tree`. (Labels are never empty in trees
    /// the readers make; an empty label would write as nothing.)
    pub fn from_tree(tree: &Tree, roots: &[NodeId]) -> Option<Self> {
        (!roots.is_empty() && roots.iter().all(|&r| tree.contains(r))).then(|| RmShape::of_tree(tree, roots))
    }

    /// [`RmShape::from_tree`] for roots known to be non-empty and in `tree`.
    pub(super) fn of_tree(tree: &Tree, roots: &[NodeId]) -> Self {
        RmShape {
            nodes: tree_preorder(tree, roots).map(|(l, a)| ShapeNode { label: l.to_string(), arity: a }).collect(),
        }
    }

    /// The RM made of `parts` one after another (e.g. the target SMS the
    /// decoder builds from target RMs, §4). `None` if there are no parts.
    pub fn concat<'a>(parts: impl IntoIterator<Item = &'a RmShape>) -> Option<Self> {
        let nodes: Vec<ShapeNode> = parts.into_iter().flat_map(|p| p.nodes.iter().cloned()).collect();
        (!nodes.is_empty()).then_some(RmShape { nodes })
    }

    /// All nodes of all MS, in pre-order.
    pub fn nodes(&self) -> &[ShapeNode] {
        &self.nodes
    }

    /// The MS of the RM, left to right.
    pub fn ms(&self) -> impl Iterator<Item = MsShape<'_>> + '_ {
        let mut start = 0;
        std::iter::from_fn(move || {
            (start < self.nodes.len()).then(|| {
                let end = ms_end(&self.nodes, start);
                let ms = MsShape { nodes: &self.nodes[start..end] };
                start = end;
                ms
            })
        })
    }

    /// Number of MS (the `k` of `RM_i^k` counts RMs; this counts one RM's MS).
    pub fn ms_count(&self) -> usize {
        self.ms().count()
    }

    /// The pre-terminal labels left to right: one per word of the RM's scope.
    pub fn leaves(&self) -> impl Iterator<Item = &str> + '_ {
        self.nodes.iter().filter(|n| n.arity == 0).map(|n| n.label.as_str())
    }

    /// Number of words the RM covers, `|L(RM)|` (eqs. 11-12).
    pub fn word_count(&self) -> usize {
        self.leaves().count()
    }

    /// Whether every MS satisfies the §3.1 constraints (e.g. a target RM from a model file).
    pub fn satisfies(&self, constraints: &Constraints) -> bool {
        self.ms().all(|m| m.satisfies(constraints))
    }
}

impl<'a> MsShape<'a> {
    /// Its nodes in pre-order (the root first).
    pub fn nodes(&self) -> &'a [ShapeNode] {
        self.nodes
    }

    pub fn root_label(&self) -> &'a str {
        &self.nodes[0].label
    }

    /// `N(Leaf-nodes)` of §3.1: its pre-terminals, one per word.
    pub fn leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.arity == 0).count()
    }

    /// `N(height)` of §3.1 under `measure`.
    pub fn height(&self, measure: HeightMeasure) -> usize {
        measure.of_node_height(node_height(self.nodes))
    }

    /// Constraints (1) and (2) of §3.1.
    pub fn satisfies(&self, constraints: &Constraints) -> bool {
        constraints.admits(self.height(constraints.height), self.leaves())
    }
}

impl fmt::Display for MsShape<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_structure(f, self.nodes.iter().map(|n| (n.label.as_str(), n.arity)))
    }
}

impl fmt::Display for RmShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_structure(f, self.nodes.iter().map(|n| (n.label.as_str(), n.arity)))
    }
}

impl FromStr for RmShape {
    type Err = StructureError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RmShape::parse(s)
    }
}

impl Serialize for RmShape {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RmShape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RmShape;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a structure string such as \"AP[AP[BMP[m-q]-a]-usde] wj\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RmShape, E> {
                RmShape::parse(v).map_err(|e| E::custom(format!("structure string {v:?}: {e}")))
            }
        }
        deserializer.deserialize_str(V)
    }
}

/// Whether `s` is a structure string in the canonical form this crate
/// writes, in printable ASCII without escapes: MS separated by one space,
/// children by `-` with no spaces, every bracket closed. The reader accepts
/// every such string (and more): checking a model's RMs byte by byte first
/// leaves the reader only the others.
fn canonical_ascii(s: &[u8]) -> bool {
    let label_byte =
        |b: u8, inside: bool| (0x21..0x7f).contains(&b) && !matches!(b, b'[' | b']' | b'\\') && !(inside && b == b'-');
    let (mut depth, mut i) = (0usize, 0usize);
    loop {
        // A label.
        let start = i;
        while i < s.len() && label_byte(s[i], depth > 0) {
            i += 1;
        }
        if i == start {
            return false;
        }
        if s.get(i) == Some(&b'[') {
            depth += 1;
            i += 1;
            continue;
        }
        // After a label or a ']': more ']', then '-' (a child) or ' ' (an MS) before the next label.
        loop {
            match s.get(i) {
                None => return depth == 0,
                Some(b']') if depth > 0 => depth -= 1,
                Some(b'-') if depth > 0 => break,
                Some(b' ') if depth == 0 => break,
                Some(_) => return false,
            }
            i += 1;
        }
        i += 1;
    }
}

/// Character reader with 1-based columns.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    /// Column of the next character.
    column: usize,
    nodes: Vec<ShapeNode>,
    /// Open brackets, innermost last: (node index, column of its '[').
    open: Vec<(usize, usize)>,
}

impl<'a> Reader<'a> {
    fn new(s: &'a str) -> Self {
        Reader { chars: s.chars().peekable(), column: 1, nodes: Vec::new(), open: Vec::new() }
    }

    /// The label of node `n`.
    fn label_of(&self, n: usize) -> String {
        self.nodes.get(n).map(|n| n.label.clone()).unwrap_or_default()
    }

    fn err(&self, column: usize, kind: StructureErrorKind) -> StructureError {
        StructureError { column, kind }
    }

    #[inline]
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    #[inline]
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next();
        if c.is_some() {
            self.column += 1;
        }
        c
    }

    /// Skips whitespace; returns whether there was any.
    #[inline]
    fn skip_space(&mut self) -> bool {
        let mut any = false;
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
            any = true;
        }
        any
    }

    /// Reads a label (at least one character) and adds its node as a child of
    /// the innermost open bracket (or as a new MS at the top level).
    fn label(&mut self) -> Result<(), StructureError> {
        let inside = !self.open.is_empty();
        let start = self.column;
        let mut label = String::new();
        let mut any = false;
        while let Some(c) = self.peek() {
            // An escaped character (`\` then any) is the label's.
            if c != '\\' && needs_escape(c, inside) {
                break;
            }
            self.bump();
            any = true;
            let c = if c == '\\' {
                match self.bump() {
                    Some(e) => e,
                    None => return Err(self.err(self.column, StructureErrorKind::DanglingEscape)),
                }
            } else {
                c
            };
            label.push(c);
        }
        if !any {
            let found = describe(self.peek());
            return Err(self.err(start, StructureErrorKind::ExpectedLabel { found }));
        }
        if let Some(&(parent, _)) = self.open.last() {
            self.nodes[parent].arity += 1;
        }
        self.nodes.push(ShapeNode { label, arity: 0 });
        Ok(())
    }

    fn read(mut self) -> Result<RmShape, StructureError> {
        self.skip_space();
        if self.peek().is_none() || self.peek() == Some('[') {
            let found = describe(self.peek());
            return Err(self.err(self.column, StructureErrorKind::Empty { found }));
        }
        // Invariant at the loop head: the next character starts a label.
        loop {
            if self.peek() == Some(']') {
                let k = if self.open.is_empty() {
                    StructureErrorKind::UnexpectedClose
                } else {
                    StructureErrorKind::ExpectedLabel { found: "']'".into() }
                };
                return Err(self.err(self.column, k));
            }
            self.label()?;
            let just_read = self.nodes.len() - 1;
            self.skip_space();
            if self.peek() == Some('[') {
                let column = self.column;
                self.bump();
                self.open.push((just_read, column));
                self.skip_space();
                if self.peek() == Some(']') {
                    let label = self.label_of(just_read);
                    return Err(self.err(self.column, StructureErrorKind::NoChildren { label }));
                }
                if self.peek().is_none() {
                    return Err(self.unclosed());
                }
                continue;
            }
            if self.open.is_empty() {
                // A whole MS that is a single label; a space was needed to stop it.
                match self.peek() {
                    None => break,
                    Some(']') => return Err(self.err(self.column, StructureErrorKind::UnexpectedClose)),
                    // The label stopped at a space: the next MS starts here.
                    Some(_) => continue,
                }
            }
            // Inside brackets after a child: '-' for the next child or ']'s
            // (`after`: the node just read or closed, for an error).
            let mut after = just_read;
            loop {
                match self.peek() {
                    Some('-') => {
                        self.bump();
                        self.skip_space();
                        if self.peek().is_none() {
                            return Err(self.unclosed());
                        }
                        if matches!(self.peek(), Some('-' | '[')) {
                            let found = describe(self.peek());
                            return Err(self.err(self.column, StructureErrorKind::ExpectedLabel { found }));
                        }
                        break;
                    }
                    Some(']') => {
                        self.bump();
                        let (closed, _) = self.open.pop().unwrap_or((0, 0));
                        after = closed;
                        let spaced = self.skip_space();
                        if self.open.is_empty() {
                            match self.peek() {
                                None => return Ok(RmShape { nodes: self.nodes }),
                                Some(']') => return Err(self.err(self.column, StructureErrorKind::UnexpectedClose)),
                                Some('[') => {
                                    let found = "'['".to_string();
                                    return Err(self.err(self.column, StructureErrorKind::ExpectedLabel { found }));
                                }
                                Some(_) if spaced => break,
                                c => {
                                    let found = describe(c);
                                    return Err(self.err(self.column, StructureErrorKind::ExpectedSpace { found }));
                                }
                            }
                        }
                    }
                    None => return Err(self.unclosed()),
                    c => {
                        let found = describe(c);
                        let label = self.label_of(after);
                        return Err(self.err(self.column, StructureErrorKind::ExpectedSeparator { label, found }));
                    }
                }
            }
        }
        Ok(RmShape { nodes: self.nodes })
    }

    fn unclosed(&self) -> StructureError {
        let (node, column) = self.open.last().copied().unwrap_or((0, 0));
        let label = self.label_of(node);
        self.err(self.column, StructureErrorKind::Unclosed { label, column })
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn an_escaped_label_reads_back_as_one_top_level_node() {
        for label in ["NN", "a b", "[x]", "a\\b", "$-LRB-", "x\ty"] {
            let shape = RmShape::parse(&escape_label(label)).unwrap();
            assert_eq!(shape.nodes().len(), 1, "{label:?}");
            assert_eq!(shape.nodes()[0].label, label);
        }
        assert_eq!(escape_label("a b[c]\\"), "a\\ b\\[c\\]\\\\");
    }

    #[test]
    fn check_accepts_exactly_what_parse_reads() {
        let strings = [
            "NP[ART-NN] VVFIN",
            "AP[AP[BMP[m-q]-a]-usde] wj",
            "$-LRB- NP-A[NPB[PRP-NN]]",
            "S[NP\\-A[NN]-VP[VV]]",
            "NPB [DT-JJ-NN-PUNC.]",
            "VP[vg - BNP[pron - n]]",
            " A",
            "A ",
            "A  B",
            "Ä[Ö-Ü]",
            "",
            " ",
            "[A]",
            "A[]",
            "A[B",
            "A[B]]",
            "A[B][C]",
            "A[B]C",
            "A]",
            "A[B--C]",
            "A[-B]",
            "A[B-]",
            "A\\",
            "A[B-[C]]",
            "A[B C]",
            "NP-A[NPB[PRP-NN]",
            "A\u{1}B",
            "A\tB",
        ];
        for s in strings {
            let (fast, full) = (RmShape::check(s), RmShape::parse(s).map(|_| ()));
            assert_eq!(fast, full, "{s:?}");
            if canonical_ascii(s.as_bytes()) {
                assert!(full.is_ok(), "{s:?}");
            }
        }
        // Every prefix and single-byte change of a canonical string.
        let base = "AP[AP[BMP[m-q]-a]-usde] wj NP-A[X]";
        for n in 0..=base.len() {
            let s = &base[..n];
            assert_eq!(RmShape::check(s), RmShape::parse(s).map(|_| ()), "{s:?}");
        }
        for k in 0..base.len() {
            for c in [b' ', b'[', b']', b'-', b'\\', b'x'] {
                let mut b = base.as_bytes().to_vec();
                b[k] = c;
                let s = String::from_utf8(b).unwrap();
                let (fast, full) = (RmShape::check(&s), RmShape::parse(&s).map(|_| ()));
                assert_eq!(fast, full, "{s:?}");
                if canonical_ascii(s.as_bytes()) {
                    assert!(full.is_ok(), "{s:?}");
                }
            }
        }
    }
}
