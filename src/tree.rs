//! Parse trees as arenas of labelled nodes, and their Penn-style bracketed form.
//!
//! A [`Tree`] holds *labelled* nodes only: phrase nodes and POS (pre-terminal)
//! nodes. Words are leaves, not nodes: each POS node owns exactly one word.
//! Nodes are numbered in pre-order from 0 (the root), which is the numbering
//! of the gold link files (`../shared/data/README.md`), of the model files and
//! of the page, so a link means the same thing everywhere.
//!
//! Because numbering is pre-order, the sub-tree rooted at node `n` is the
//! contiguous id range `n..tree.subtree_end(n)`; the kernels rely on this.
//!
//! Reading accepts one tree per line or trees spread over several lines
//! (`.mrg` style), an optional unlabelled outer bracket `( (S ...) )`, and any
//! UTF-8 label or word without whitespace or brackets (brackets inside tokens
//! are written `-LRB-` / `-RRB-`, and are kept verbatim). Reading is iterative,
//! so deeply nested input cannot overflow the stack. Cost: O(input length).
//!
//! # Examples
//! ```
//! use treelink::tree::{NodeId, Tree};
//! let t = Tree::parse_one("(S (NP (ART den) (NN Klimawandel)) (VVFIN spüren))", "ex").unwrap();
//! assert_eq!(t.len(), 5); // S NP ART NN VVFIN
//! assert_eq!(t.label(NodeId::new(1)), "NP");
//! assert_eq!(t.span(NodeId::new(1)), 0..2);
//! assert_eq!(t.words(), ["den", "Klimawandel", "spüren"]);
//! assert_eq!(t.to_string(), "(S (NP (ART den) (NN Klimawandel)) (VVFIN spüren))");
//! ```

use std::fmt;
use std::ops::Range;

/// Index of a labelled node: its position in pre-order, the root being 0.
///
/// A number of its own so that a node is never taken for a word position,
/// a pair or a count. Written (serde, `Display`, `Debug`) as the bare
/// number, so every file and message reads as it did when it was a `usize`.
/// Made from a number with [`NodeId::new`] only where that number names a
/// node of a known tree (checked first when it was read from a file).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct NodeId(usize);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The node at pre-order position `index`.
    #[inline]
    pub const fn new(index: usize) -> Self {
        NodeId(index)
    }

    /// Its pre-order position, to index a per-node table.
    #[inline]
    pub const fn index(self) -> usize {
        self.0
    }
}

impl From<NodeId> for usize {
    #[inline]
    fn from(n: NodeId) -> usize {
        n.0
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// A run of consecutive node ids `start..end` (a sub-tree, or a whole
/// tree), iterated in pre-order: what `Range<NodeId>` would be if ranges of
/// a number of one's own could be iterated.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NodeRange {
    pub start: NodeId,
    pub end: NodeId,
}

impl NodeRange {
    /// Whether `n` lies in the run.
    #[inline]
    pub fn contains(&self, n: &NodeId) -> bool {
        self.start <= *n && *n < self.end
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.start >= self.end
    }
}

impl Iterator for NodeRange {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        (self.start < self.end).then(|| {
            let n = self.start;
            self.start.0 += 1;
            n
        })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.0.saturating_sub(self.start.0);
        (n, Some(n))
    }
}

impl DoubleEndedIterator for NodeRange {
    #[inline]
    fn next_back(&mut self) -> Option<NodeId> {
        (self.start < self.end).then(|| {
            self.end.0 -= 1;
            self.end
        })
    }
}

impl ExactSizeIterator for NodeRange {}

impl std::iter::FusedIterator for NodeRange {}

/// Trees read from a text, with the 1-based line and column of each one's opening bracket.
pub type TreesWithStarts = (Vec<Tree>, Vec<(usize, usize)>);

/// One labelled node of a [`Tree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub label: String,
    pub parent: Option<NodeId>,
    /// Children in left-to-right order; empty for a POS node.
    pub children: Vec<NodeId>,
    /// Half-open range of word positions covered by the node.
    pub span: Range<usize>,
    /// Edges from the root (the root has depth 0).
    pub depth: usize,
    /// Nodes on the longest downward path, counting this one (a POS node has height 1).
    pub height: usize,
    /// One past the last pre-order id of this node's sub-tree.
    pub subtree_end: NodeId,
}

/// A parse tree: an arena of labelled nodes in pre-order plus the words.
#[derive(Debug, Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    words: Vec<String>,
    /// Whether the input wrapped the tree in an unlabelled bracket `( (S ...) )`,
    /// kept so that writing reproduces the input.
    outer_bracket: bool,
    /// All node ids sorted by production (then id): computed once per tree,
    /// when a kernel first merges two trees' equal productions (the fast
    /// tree kernel); trees that never meet that kernel never sort.
    production_order: std::sync::OnceLock<Box<[NodeId]>>,
}

/// Trees are equal when their nodes, words and outer bracket are (the
/// production order follows from the nodes, computed or not).
impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        self.nodes == other.nodes && self.words == other.words && self.outer_bracket == other.outer_bracket
    }
}

impl Eq for Tree {}

/// The production at a node, as the tree kernels compare it (paper §2.1):
/// a POS node's production includes its word (POS -> word, as in Collins &
/// Duffy); a phrase node's is its label and its children's labels.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Production<'a> {
    Pos { label: &'a str, word: &'a str },
    Phrase { label: &'a str, children: Vec<&'a str> },
}

impl fmt::Display for Production<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Production::Pos { label, word } => write!(f, "{label} → {word}"),
            Production::Phrase { label, children } => write!(f, "{label} → {}", children.join(" ")),
        }
    }
}

/// A located error from reading bracketed trees: `file:line:column: what was expected`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct ParseError {
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    pub kind: ParseErrorKind,
}

/// What went wrong, phrased as what the reader expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    #[error("expected '(' to start a tree, found {found}")]
    ExpectedTreeStart { found: String },
    #[error("expected a label after '(', found {found}")]
    ExpectedLabel { found: String },
    #[error("expected ')' to close '({label}' opened at {line}:{column}, found end of input")]
    Unclosed { label: String, line: usize, column: usize },
    #[error("unexpected ')': no bracket is open here")]
    UnexpectedClose,
    #[error("expected a word or a sub-tree inside '({label}', found ')'")]
    EmptyNode { label: String },
    #[error("expected ')' after the word '{word}' of the POS node '({label}', found {found}")]
    ExpectedCloseAfterWord { label: String, word: String, found: String },
    #[error("expected '(' to start a sub-tree of '({label}', found the word '{word}' (words may only stand alone under a POS node)")]
    WordAmongSubtrees { label: String, word: String },
    #[error("expected exactly one tree inside the unlabelled outer bracket, found {found}")]
    OuterBracket { found: String },
    #[error("expected one tree, found {found}")]
    NotOneTree { found: String },
    #[error("expected a tree on every line, found a blank line: the first tree is on a line of its own, so line k is tree k (and pair k), and a blank line would shift every later one; remove it")]
    BlankLine,
    #[error(
        "expected one tree per line (as the first tree is on a line of its own), found a second tree on this line"
    )]
    SecondTreeOnLine,
    #[error("expected this tree to end on its line (one tree per line, as the first tree is), found it goes on to line {end}")]
    TreeAcrossLines { end: usize },
}

/// How the trees of a file lie on its lines, told by its first tree: a
/// first tree on a line of its own makes the file one tree per line, where
/// line `k` is tree `k` (and pair `k` of a corpus, or output line `k`), so
/// a blank line, a second tree on a line or a tree spread over lines would
/// shift every later one: each is refused where it is. A first tree spread
/// over lines (Penn Treebank `.mrg` files) allows any layout. Fed tree by
/// tree, so a stream checks what a whole file does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineLayout {
    /// `Some(true)` once the first tree was on one line; `Some(false)` spread.
    one_per_line: Option<bool>,
    /// The line the last tree ended on.
    last_end: usize,
}

impl LineLayout {
    /// Checks the next tree, which starts at `start` and ends on line `end`.
    pub fn check(&mut self, file: &str, start: (usize, usize), end: usize) -> Result<(), ParseError> {
        let error = |line, column, kind| ParseError { file: file.to_string(), line, column, kind };
        let one_per_line = *self.one_per_line.get_or_insert(start.0 == end);
        let previous = std::mem::replace(&mut self.last_end, end);
        if !one_per_line {
            return Ok(());
        }
        // The line after the last tree (or header line, [`LineLayout::header`]): line 1 at first.
        let expected_line = previous + 1;
        if start.0 > expected_line {
            return Err(error(expected_line, 1, ParseErrorKind::BlankLine));
        }
        // (`previous` is 0 before the first tree, and a header line holds no tree.)
        if start.0 == previous {
            return Err(error(start.0, start.1, ParseErrorKind::SecondTreeOnLine));
        }
        if end > start.0 {
            return Err(error(start.0, start.1, ParseErrorKind::TreeAcrossLines { end }));
        }
        Ok(())
    }

    /// A Penn Treebank `*x*` header line (`line`) was skipped: it holds no
    /// tree and is no blank line, so the next tree may start after it.
    pub fn header(&mut self, line: usize) {
        self.last_end = line;
    }
}

/// Builds a [`Tree`] in pre-order: the bracket reader and the TigerXML
/// importer both go through it, so their trees satisfy the same invariants.
#[derive(Debug, Default)]
pub struct TreeBuilder {
    nodes: Vec<Node>,
    words: Vec<String>,
    open: Vec<NodeId>,
}

impl TreeBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens a phrase node as the next child of the innermost open node.
    pub fn open_phrase(&mut self, label: impl Into<String>) -> NodeId {
        let id = NodeId::new(self.nodes.len());
        let parent = self.open.last().copied();
        if let Some(p) = parent {
            self.nodes[p.index()].children.push(id);
        }
        let start = self.words.len();
        self.nodes.push(Node {
            label: label.into(),
            parent,
            children: Vec::new(),
            span: start..start,
            depth: self.open.len(),
            height: 1,
            subtree_end: NodeId::new(id.index() + 1),
        });
        self.open.push(id);
        id
    }

    /// Adds a POS node with its word as the next child of the innermost open node.
    pub fn pos(&mut self, label: impl Into<String>, word: impl Into<String>) -> NodeId {
        let id = self.open_phrase(label);
        self.words.push(word.into());
        self.close();
        id
    }

    /// Closes the innermost open node; returns it, or `None` if none is open.
    pub fn close(&mut self) -> Option<NodeId> {
        let id = self.open.pop()?;
        let end = self.words.len();
        let height =
            1 + self.nodes[id.index()].children.iter().map(|&c| self.nodes[c.index()].height).max().unwrap_or(0);
        let subtree_end = NodeId::new(self.nodes.len());
        let node = &mut self.nodes[id.index()];
        node.span.end = end;
        node.height = height;
        node.subtree_end = subtree_end;
        Some(id)
    }

    /// Number of nodes still open.
    pub fn depth(&self) -> usize {
        self.open.len()
    }

    /// Label of the innermost open node.
    pub fn open_label(&self) -> Option<&str> {
        self.open.last().map(|&n| self.nodes[n.index()].label.as_str())
    }

    /// Finishes the tree as [`TreeBuilder::finish`], remembering whether its
    /// text wrapped it in an unlabelled bracket (written back the same way).
    pub fn finish_wrapped(self, outer_bracket: bool) -> Option<Tree> {
        self.finish().map(|tree| Tree { outer_bracket, ..tree })
    }

    /// Finishes the tree, closing whatever is still open. `None` if it has no node.
    pub fn finish(mut self) -> Option<Tree> {
        while self.close().is_some() {}
        if self.nodes.is_empty() {
            return None;
        }
        Some(Tree { nodes: self.nodes, words: self.words, outer_bracket: false, production_order: Default::default() })
    }
}

impl Tree {
    /// Number of labelled nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true for a tree that was read or built (a tree has a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node, in pre-order (the root first).
    pub fn node_ids(&self) -> NodeRange {
        NodeRange { start: NodeId::ROOT, end: NodeId::new(self.nodes.len()) }
    }

    /// Whether `n` is a node of this tree.
    #[inline]
    pub fn contains(&self, n: NodeId) -> bool {
        n.index() < self.nodes.len()
    }

    /// The node numbered `index` (as read from a file), if the tree has it:
    /// where a number from outside becomes a [`NodeId`].
    #[inline]
    pub fn node_at(&self, index: usize) -> Option<NodeId> {
        (index < self.nodes.len()).then_some(NodeId(index))
    }

    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.index()]
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn label(&self, n: NodeId) -> &str {
        &self.nodes[n.index()].label
    }

    /// Whether the tree's text wrapped it in an unlabelled bracket `( (S ...) )`.
    pub fn outer_bracket(&self) -> bool {
        self.outer_bracket
    }

    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// Words covered by node `n`.
    pub fn yield_of(&self, n: NodeId) -> &[String] {
        &self.words[self.nodes[n.index()].span.clone()]
    }

    pub fn span(&self, n: NodeId) -> Range<usize> {
        self.nodes[n.index()].span.clone()
    }

    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        self.nodes[n.index()].parent
    }

    pub fn children(&self, n: NodeId) -> &[NodeId] {
        &self.nodes[n.index()].children
    }

    pub fn depth(&self, n: NodeId) -> usize {
        self.nodes[n.index()].depth
    }

    pub fn height(&self, n: NodeId) -> usize {
        self.nodes[n.index()].height
    }

    /// A POS (pre-terminal) node: it has a word and no child nodes.
    pub fn is_pos(&self, n: NodeId) -> bool {
        self.nodes[n.index()].children.is_empty()
    }

    /// A phrase node: it has child nodes.
    pub fn is_phrase(&self, n: NodeId) -> bool {
        !self.is_pos(n)
    }

    /// The word of a POS node.
    pub fn word_of(&self, n: NodeId) -> Option<&str> {
        self.is_pos(n).then(|| self.words[self.nodes[n.index()].span.start].as_str())
    }

    /// One past the last node of the sub-tree rooted at `n`.
    pub fn subtree_end(&self, n: NodeId) -> NodeId {
        self.nodes[n.index()].subtree_end
    }

    /// The nodes of the sub-tree rooted at `n` (itself and its descendants).
    pub fn subtree(&self, n: NodeId) -> NodeRange {
        NodeRange { start: n, end: self.nodes[n.index()].subtree_end }
    }

    /// Proper descendants of `n`.
    pub fn descendants(&self, n: NodeId) -> NodeRange {
        NodeRange { start: NodeId::new(n.index() + 1), end: self.nodes[n.index()].subtree_end }
    }

    /// Whether `a` dominates `d` (a proper ancestor).
    pub fn is_ancestor(&self, a: NodeId, d: NodeId) -> bool {
        a < d && d < self.nodes[a.index()].subtree_end
    }

    /// Proper ancestors of `n`, nearest first.
    pub fn ancestors(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.nodes[n.index()].parent, move |&p| self.nodes[p.index()].parent)
    }

    /// The production at `n` (see [`Production`]).
    pub fn production(&self, n: NodeId) -> Production<'_> {
        let node = &self.nodes[n.index()];
        match self.word_of(n) {
            Some(word) => Production::Pos { label: &node.label, word },
            None => Production::Phrase {
                label: &node.label,
                children: node.children.iter().map(|&c| self.nodes[c.index()].label.as_str()).collect(),
            },
        }
    }

    /// Whether nodes `a` of `self` and `b` of `other` have the same production.
    pub fn same_production(&self, a: NodeId, other: &Tree, b: NodeId) -> bool {
        self.cmp_production(a, other, b).is_eq()
    }

    /// Node ids sorted by production, equal productions adjacent (ties by id).
    pub fn production_order(&self) -> &[NodeId] {
        self.production_order.get_or_init(|| {
            let mut order: Vec<NodeId> = self.node_ids().collect();
            order.sort_by(|&a, &b| self.cmp_production(a, self, b).then(a.cmp(&b)));
            order.into()
        })
    }

    /// Total order on productions across trees, without allocating: POS
    /// productions before phrase ones, then by label, then by word or by the
    /// children's labels. `Equal` exactly when the productions are the same.
    pub fn cmp_production(&self, a: NodeId, other: &Tree, b: NodeId) -> std::cmp::Ordering {
        let (na, nb) = (&self.nodes[a.index()], &other.nodes[b.index()]);
        let (wa, wb) = (self.word_of(a), other.word_of(b));
        wb.is_some().cmp(&wa.is_some()).then_with(|| na.label.cmp(&nb.label)).then_with(|| match (wa, wb) {
            (Some(wa), Some(wb)) => wa.cmp(wb),
            _ => na
                .children
                .iter()
                .map(|&c| &self.nodes[c.index()].label)
                .cmp(nb.children.iter().map(|&c| &other.nodes[c.index()].label)),
        })
    }

    /// Reads every tree in `text`; `file` names the input in errors.
    pub fn parse_all(text: &str, file: &str) -> Result<Vec<Tree>, ParseError> {
        Ok(BracketReader::new(text, file).read_all()?.0)
    }

    /// Like [`Tree::parse_all`], with the line and column of each tree's
    /// opening bracket (for errors about a tree as a whole, e.g. one too many).
    pub fn parse_all_with_starts(text: &str, file: &str) -> Result<TreesWithStarts, ParseError> {
        BracketReader::new(text, file).read_all()
    }

    /// Like [`Tree::parse_all_with_starts`], for a file whose tree `k` is
    /// pair `k` or output line `k` (a corpus's `.src`/`.trg`, the sources
    /// to translate): the layout is checked ([`LineLayout`]), so no blank
    /// line or second tree on a line shifts the trees after it unseen.
    pub fn parse_numbered(text: &str, file: &str) -> Result<TreesWithStarts, ParseError> {
        let mut reader = BracketReader::new(text, file);
        reader.layout = Some(LineLayout::default());
        reader.read_all()
    }

    /// Like [`Tree::parse_all_with_starts`], for a text that begins on line
    /// `first_line` of its file (a stream's chunk of whole trees); with a
    /// `layout`, checked as [`Tree::parse_numbered`] checks it and carried
    /// from the chunks before (a stream of numbered trees).
    pub fn parse_from_line(
        text: &str,
        file: &str,
        first_line: usize,
        layout: Option<&mut LineLayout>,
    ) -> Result<TreesWithStarts, ParseError> {
        let mut reader = BracketReader::new(text, file);
        reader.line = first_line;
        reader.layout = layout.as_deref().copied();
        let (trees, end) = reader.read_all_laid_out()?;
        if let (Some(layout), Some(end)) = (layout, end) {
            *layout = end;
        }
        Ok(trees)
    }

    /// Reads exactly one tree.
    pub fn parse_one(text: &str, file: &str) -> Result<Tree, ParseError> {
        let mut trees = Self::parse_all(text, file)?;
        if trees.len() != 1 {
            return Err(ParseError {
                file: file.to_string(),
                line: 1,
                column: 1,
                kind: ParseErrorKind::NotOneTree { found: format!("{} trees", trees.len()) },
            });
        }
        Ok(trees.remove(0))
    }

    /// The sub-tree rooted at `n` in bracketed form, as a tree of its own (its
    /// kernels equal those of the sub-tree in place).
    pub fn subtree_bracketed(&self, n: NodeId) -> String {
        struct At<'a>(&'a Tree, NodeId);
        impl fmt::Display for At<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_node(self.1, f)
            }
        }
        At(self, n).to_string()
    }

    /// The bracketed form on one line (the format of `NAME.src` / `NAME.trg`).
    pub fn to_bracketed(&self) -> String {
        self.to_string()
    }

    fn write_node(&self, n: NodeId, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative so a deep tree cannot overflow the stack while writing.
        enum Step {
            Open(NodeId),
            Close,
        }
        let mut stack = vec![Step::Open(n)];
        let mut first = true;
        while let Some(step) = stack.pop() {
            match step {
                Step::Open(n) => {
                    if !first {
                        out.write_str(" ")?;
                    }
                    first = false;
                    write!(out, "({}", self.nodes[n.index()].label)?;
                    if let Some(w) = self.word_of(n) {
                        write!(out, " {w})")?;
                    } else {
                        stack.push(Step::Close);
                        stack.extend(self.nodes[n.index()].children.iter().rev().map(|&c| Step::Open(c)));
                    }
                }
                Step::Close => out.write_str(")")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.outer_bracket {
            f.write_str("( ")?;
        }
        self.write_node(NodeId::ROOT, f)?;
        if self.outer_bracket {
            f.write_str(" )")?;
        }
        Ok(())
    }
}

/// Token of bracketed text with its 1-based line and column.
#[derive(Debug, Clone, PartialEq)]
enum Token<'a> {
    Open,
    Close,
    Atom(&'a str),
}

struct Located<'a> {
    token: Token<'a>,
    line: usize,
    column: usize,
}

struct BracketReader<'a> {
    text: &'a str,
    file: &'a str,
    pos: usize,
    line: usize,
    column: usize,
    peeked: Option<Option<Located<'a>>>,
    /// The layout checked tree by tree, if asked for ([`Tree::parse_numbered`]).
    layout: Option<LineLayout>,
}

fn describe(t: &Option<Located<'_>>) -> String {
    match t {
        None => "end of input".to_string(),
        Some(l) => match l.token {
            Token::Open => "'('".to_string(),
            Token::Close => "')'".to_string(),
            Token::Atom(a) => format!("'{a}'"),
        },
    }
}

/// An ASCII whitespace byte, as the bracket reader separates tokens (and
/// `char::is_whitespace` agrees): space, tab, newline, carriage return,
/// vertical tab, form feed.
pub(crate) fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl<'a> BracketReader<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        // A byte-order mark is not part of the first label.
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        BracketReader { text, file, pos, line: 1, column: 1, peeked: None, layout: None }
    }

    /// Skips whitespace and, between trees, the copyright header lines of
    /// Penn Treebank `.mrg` files (lines starting with `*x*`).
    fn skip_headers(&mut self) {
        loop {
            self.skip_space();
            if self.column == 1 && self.text[self.pos..].starts_with("*x*") {
                if let Some(layout) = self.layout.as_mut() {
                    layout.header(self.line);
                }
                let rest = &self.text[self.pos..];
                let line = rest.find('\n').map_or(rest, |end| &rest[..end]);
                self.pos += line.len();
                self.column += line.chars().count();
                continue;
            }
            return;
        }
    }

    fn error(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { file: self.file.to_string(), line, column, kind }
    }

    /// An error at `token`, or where reading stopped if there is none.
    fn error_at(&self, token: &Option<Located<'_>>, kind: ParseErrorKind) -> ParseError {
        let (line, column) = token.as_ref().map_or((self.line, self.column), |t| (t.line, t.column));
        self.error(line, column, kind)
    }

    /// The character starting at byte `i`.
    fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..)?.chars().next()
    }

    /// Skips whitespace, tracking lines and columns (in characters); ASCII
    /// bytes directly, others as characters.
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.pos) {
                Some(b'\n') => {
                    self.pos += 1;
                    self.line += 1;
                    self.column = 1;
                }
                Some(&b) if is_space_byte(b) => {
                    self.pos += 1;
                    self.column += 1;
                }
                // Non-ASCII whitespace (e.g. U+00A0) is a separator too.
                Some(&b) if b >= 0x80 => match self.char_at(self.pos).filter(|c| c.is_whitespace()) {
                    Some(c) => {
                        self.pos += c.len_utf8();
                        self.column += 1;
                    }
                    None => return,
                },
                _ => return,
            }
        }
    }

    fn lex(&mut self) -> Option<Located<'a>> {
        self.skip_space();
        let bytes = self.text.as_bytes();
        if self.pos >= bytes.len() {
            return None;
        }
        let start = self.pos;
        let (line, column) = (self.line, self.column);
        let token = match bytes[start] {
            b'(' => {
                self.pos += 1;
                self.column += 1;
                Token::Open
            }
            b')' => {
                self.pos += 1;
                self.column += 1;
                Token::Close
            }
            _ => {
                // To the next whitespace or bracket; a character is a column.
                let mut end = start;
                let mut n = 0;
                while let Some(&b) = bytes.get(end) {
                    match b {
                        b'(' | b')' => break,
                        _ if is_space_byte(b) => break,
                        0..0x80 => end += 1,
                        _ => match self.char_at(end) {
                            Some(c) if c.is_whitespace() => break,
                            c => end += c.map_or(1, char::len_utf8),
                        },
                    }
                    n += 1;
                }
                self.pos = end;
                self.column += n;
                Token::Atom(&self.text[start..end])
            }
        };
        Some(Located { token, line, column })
    }

    fn next(&mut self) -> Option<Located<'a>> {
        match self.peeked.take() {
            Some(t) => t,
            None => self.lex(),
        }
    }

    fn peek(&mut self) -> &Option<Located<'a>> {
        if self.peeked.is_none() {
            let t = self.lex();
            self.peeked = Some(t);
        }
        self.peeked.as_ref().map_or(&None, |t| t)
    }

    fn read_all(self) -> Result<TreesWithStarts, ParseError> {
        Ok(self.read_all_laid_out()?.0)
    }

    /// Every tree, and the layout after the last (if checked).
    fn read_all_laid_out(mut self) -> Result<(TreesWithStarts, Option<LineLayout>), ParseError> {
        let (mut trees, mut starts) = (Vec::new(), Vec::new());
        loop {
            if self.peeked.is_none() {
                self.skip_headers();
            }
            let Some(start) = self.peek() else { break };
            let start = (start.line, start.column);
            starts.push(start);
            trees.push(self.read_tree()?);
            // The reader stands just after the tree's last ')'.
            let end = self.line;
            if let Some(layout) = self.layout.as_mut() {
                layout.check(self.file, start, end)?;
            }
        }
        Ok(((trees, starts), self.layout))
    }

    /// Reads one tree, with or without an unlabelled outer bracket.
    fn read_tree(&mut self) -> Result<Tree, ParseError> {
        let open = self.next();
        let (line, column) = match &open {
            Some(Located { token: Token::Open, line, column }) => (*line, *column),
            other => {
                return Err(self.error_at(other, ParseErrorKind::ExpectedTreeStart { found: describe(other) }));
            }
        };
        let outer = matches!(self.peek(), Some(Located { token: Token::Open, .. }));
        let mut tree = if outer {
            let tree = self.read_labelled()?;
            match self.next() {
                Some(Located { token: Token::Close, .. }) => tree,
                None => {
                    return Err(self.error(
                        self.line,
                        self.column,
                        ParseErrorKind::Unclosed { label: String::new(), line, column },
                    ))
                }
                Some(other) => {
                    let found = describe(&Some(Located { token: other.token.clone(), line: 0, column: 0 }));
                    return Err(self.error(other.line, other.column, ParseErrorKind::OuterBracket { found }));
                }
            }
        } else {
            self.read_labelled_body(line, column)?
        };
        tree.outer_bracket = outer;
        Ok(tree)
    }

    /// Reads `(LABEL ...)` starting at its '('.
    fn read_labelled(&mut self) -> Result<Tree, ParseError> {
        match self.next() {
            Some(Located { token: Token::Open, line, column }) => self.read_labelled_body(line, column),
            other => Err(self.error_at(&other, ParseErrorKind::ExpectedTreeStart { found: describe(&other) })),
        }
    }

    /// Reads the rest of a labelled tree whose '(' was at `line:column`.
    fn read_labelled_body(&mut self, line: usize, column: usize) -> Result<Tree, ParseError> {
        let mut b = TreeBuilder::new();
        // Where each open node's '(' stood, for "opened at" in errors.
        let mut opened: Vec<(usize, usize)> = Vec::new();
        let mut pending_open = Some((line, column));
        loop {
            if let Some((ol, oc)) = pending_open.take() {
                // Just after '(': a label must follow.
                let label = match self.next() {
                    Some(Located { token: Token::Atom(a), .. }) => a,
                    other => {
                        return Err(self.error_at(&other, ParseErrorKind::ExpectedLabel { found: describe(&other) }));
                    }
                };
                // A label followed by a word is a POS node.
                if let Some(Located { token: Token::Atom(word), .. }) = *self.peek() {
                    self.next();
                    match self.next() {
                        Some(Located { token: Token::Close, .. }) => {
                            b.pos(label, word);
                        }
                        other => {
                            let (label, word, found) = (label.into(), word.into(), describe(&other));
                            return Err(
                                self.error_at(&other, ParseErrorKind::ExpectedCloseAfterWord { label, word, found })
                            );
                        }
                    }
                } else {
                    b.open_phrase(label);
                    opened.push((ol, oc));
                    // A phrase node needs at least one sub-tree.
                    if let Some(Located { token: Token::Close, line, column }) = *self.peek() {
                        return Err(self.error(line, column, ParseErrorKind::EmptyNode { label: label.into() }));
                    }
                }
            }
            if b.depth() == 0 {
                return b.finish().ok_or_else(|| unreachable_empty(self, line, column));
            }
            match self.next() {
                Some(Located { token: Token::Open, line, column }) => pending_open = Some((line, column)),
                Some(Located { token: Token::Close, .. }) => {
                    b.close();
                    opened.pop();
                }
                Some(Located { token: Token::Atom(word), line, column }) => {
                    let label = b.open_label().unwrap_or_default().to_string();
                    return Err(self.error(
                        line,
                        column,
                        ParseErrorKind::WordAmongSubtrees { label, word: word.into() },
                    ));
                }
                None => {
                    let label = b.open_label().unwrap_or_default().to_string();
                    let (ol, oc) = opened.last().copied().unwrap_or((line, column));
                    return Err(self.error(
                        self.line,
                        self.column,
                        ParseErrorKind::Unclosed { label, line: ol, column: oc },
                    ));
                }
            }
        }
    }
}

/// A builder that saw a node never finishes empty; kept as an error, not a panic.
fn unreachable_empty(r: &BracketReader<'_>, line: usize, column: usize) -> ParseError {
    r.error(line, column, ParseErrorKind::ExpectedLabel { found: "nothing".into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    fn t(s: &str) -> Tree {
        Tree::parse_one(s, "test").unwrap()
    }

    #[test]
    fn arena_in_preorder_with_spans_depths_heights() {
        let tree = t("(S (NP (ART den) (NN Klimawandel)) (VP (ADV schon) (VVFIN spüren)))");
        let labels: Vec<_> = (0..tree.len()).map(|k| tree.label(n(k))).collect();
        assert_eq!(labels, ["S", "NP", "ART", "NN", "VP", "ADV", "VVFIN"]);
        assert_eq!(tree.children(n(0)), [n(1), n(4)]);
        assert_eq!(tree.parent(n(5)), Some(n(4)));
        assert_eq!(tree.span(n(4)), 2..4);
        assert_eq!((tree.depth(n(5)), tree.height(n(0)), tree.height(n(2))), (2, 3, 1));
        assert_eq!(tree.subtree(n(1)).collect::<Vec<_>>(), (1..4).map(NodeId::new).collect::<Vec<_>>());
        assert!(tree.is_ancestor(n(0), n(6)) && tree.is_ancestor(n(4), n(6)) && !tree.is_ancestor(n(1), n(6)));
        assert_eq!(tree.ancestors(n(6)).collect::<Vec<_>>(), [n(4), n(0)]);
        assert_eq!((tree.word_of(n(3)), tree.word_of(n(1))), (Some("Klimawandel"), None));
        assert_eq!(tree.production(n(1)), Production::Phrase { label: "NP", children: vec!["ART", "NN"] });
        assert_eq!(tree.production(n(6)), Production::Pos { label: "VVFIN", word: "spüren" });
        assert_eq!(tree.yield_of(n(4)), ["schon", "spüren"]);
        assert_eq!(tree.subtree_bracketed(n(4)), "(VP (ADV schon) (VVFIN spüren))");
    }

    #[test]
    fn multi_line_outer_bracket_and_round_trip() {
        let text = "( (S\n    (NP (DT the) (NN dog))\n    (VP (VBZ barks) (-LRB- -LRB-))) )\n(X (Y $,))";
        let trees = Tree::parse_all(text, "t.mrg").unwrap();
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[0].to_string(), "( (S (NP (DT the) (NN dog)) (VP (VBZ barks) (-LRB- -LRB-))) )");
        assert_eq!(trees[1].to_string(), "(X (Y $,))");
        assert_eq!(trees[0].label(n(0)), "S");
    }

    #[test]
    fn penn_treebank_headers_are_skipped_between_trees() {
        let mrg = "*x*                                                                     *x*\n\
                   *x*            Copyright (C) 1990 University of Pennsylvania            *x*\n\
                   *x*                                                                     *x*\n\
                   \n( (S \n    (NP-SBJ (NNP Pierre) (NNP Vinken) )\n    (VP (MD will) )))\n\n( (S (NP (DT a)) ))\n";
        let (trees, starts) = Tree::parse_numbered(mrg, "wsj_0001.mrg").unwrap();
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[0].words(), ["Pierre", "Vinken", "will"]);
        assert_eq!(starts, [(5, 1), (9, 1)]);
        // Inside a tree, or not at the start of a line, it is a word or an error as before.
        assert_eq!(t("(X *x*)").words(), ["*x*"]);
        assert!(Tree::parse_all("(A a) *x*", "t").is_err());
    }

    #[test]
    fn one_tree_per_line_is_kept_once_the_first_tree_says_so() {
        let numbered = |s: &str| Tree::parse_numbered(s, "x.src").map(|(t, _)| t.len()).map_err(|e| e.to_string());
        assert_eq!(numbered("(A a)\n(B b)\n\n"), Ok(2));
        assert_eq!(
            numbered("(A a)\n\n(B b)\n").unwrap_err().split(", found").next(),
            Some("x.src:2:1: expected a tree on every line")
        );
        assert!(numbered("\n(A a)\n(B b)\n").unwrap_err().starts_with("x.src:1:1: expected a tree on every line"));
        assert_eq!(
            numbered("(A a)\n(B b) (C c)\n").unwrap_err(),
            "x.src:2:7: expected one tree per line (as the first tree is on a line of its own), found a second tree on this line"
        );
        assert_eq!(
            numbered("(A a)\n(B\n b)\n").unwrap_err(),
            "x.src:2:1: expected this tree to end on its line (one tree per line, as the first tree is), found it goes on to line 3"
        );
        // Penn Treebank `*x*` header lines are neither trees nor blank lines.
        assert_eq!(numbered("*x* header *x*\n*x* two *x*\n(A a)\n*x* again\n(B b)\n"), Ok(2));
        assert!(numbered("*x* header\n\n(A a)\n").unwrap_err().starts_with("x.src:2:1: expected a tree on every line"));
        // A first tree spread over lines: any layout, as before.
        assert_eq!(numbered("(A\n a)\n\n(B b) (C c)\n"), Ok(3));
        // parse_all itself checks no layout.
        assert_eq!(Tree::parse_all("(A a)\n\n(B b) (C c)", "t").unwrap().len(), 3);
    }

    #[test]
    fn single_pos_tree() {
        let tree = t("(NN Editorial)");
        assert_eq!(tree.len(), 1);
        assert!(tree.is_pos(n(0)));
        assert_eq!(tree.to_string(), "(NN Editorial)");
    }

    fn err(s: &str) -> ParseError {
        Tree::parse_all(s, "x.src").unwrap_err()
    }

    #[test]
    fn errors_name_file_line_column_and_expectation() {
        let e = err("(S (NP (DT the) (NN dog))\n   (VP (VBZ barks)");
        assert_eq!(e.to_string(), "x.src:2:19: expected ')' to close '(VP' opened at 2:4, found end of input");
        let e = err("(S (NP (DT the) (NN dog)) (VP))");
        assert_eq!((e.line, e.column), (1, 30));
        assert!(matches!(e.kind, ParseErrorKind::EmptyNode { .. }));
        let e = err("(S (DT the) dog)");
        assert_eq!((e.line, e.column), (1, 13));
        assert!(matches!(e.kind, ParseErrorKind::WordAmongSubtrees { .. }));
        let e = err("(DT the dog)");
        assert!(matches!(e.kind, ParseErrorKind::ExpectedCloseAfterWord { .. }));
        let e = err("S (DT the))");
        assert_eq!(e.to_string(), "x.src:1:1: expected '(' to start a tree, found 'S'");
        let e = err("(S (DT the)))");
        assert_eq!((e.line, e.column), (1, 13));
        let e = err("(())");
        assert!(matches!(e.kind, ParseErrorKind::ExpectedLabel { .. }));
        let e = err("( (S (DT a)) (S (DT b)) )");
        assert!(matches!(e.kind, ParseErrorKind::OuterBracket { .. }));
        assert!(Tree::parse_one("(A a) (B b)", "y").is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_or_a_tree_never_a_crash() {
        let deep = "(A ".repeat(200_000);
        assert!(matches!(err(&deep).kind, ParseErrorKind::Unclosed { .. }));
        let ok = format!("{}(B b){}", "(A ".repeat(100_000), ")".repeat(100_000));
        let tree = t(&ok);
        assert_eq!(tree.len(), 100_001);
        assert_eq!(tree.to_string(), ok);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let e = err("(S (NN Straße) (NN Brücke) ü)");
        assert_eq!((e.line, e.column), (1, 28));
    }

    #[test]
    fn any_unicode_whitespace_separates_tokens_and_counts_one_column() {
        // U+00A0 (no-break space) and U+2003 (em space) as the ASCII space;
        // the vertical tab and form feed too.
        let a = t("(S\u{a0}(NN\u{2003}Straße)\x0b(V\x0cgeht))");
        assert_eq!(a.to_string(), "(S (NN Straße) (V geht))");
        let e = err("(S\u{a0}(NN\u{2003}Brücke)\u{2003}ü)");
        assert_eq!((e.line, e.column), (1, 16));
        assert_eq!(e.kind, ParseErrorKind::WordAmongSubtrees { label: "S".into(), word: "ü".into() });
    }
}
