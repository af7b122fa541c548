//! Meta-structures (MS), meta-structure sequences (SMS) and recombinations of
//! MS (RM): the decomposition of a parse tree that the meta-structure
//! transformation model translates with (Sun, Zhao & Liang, "Meta-Structure
//! Transformation Model for Statistical Machine Translation", §2.1 and §3.1).
//!
//! # The idea in plain words
//! Cut a parse tree horizontally into pieces that each reach down to the
//! words: each piece is a small sub-tree (an **MS**), and the pieces, read
//! left to right, cover the sentence once (an **SMS**). Cutting higher gives
//! few big pieces, cutting lower many small ones, down to one part-of-speech
//! node per word. Any run of neighbouring pieces is an **RM**; the model
//! learns how a source RM turns into a target RM (eqs. 9-10) and translates
//! the words inside each RM phrase by phrase (eqs. 11-12).
//!
//! Two numbers keep the pieces small and bushy (§3.1): an MS is at most
//! `α` high (constraint 1), and has at least `β` leaves per level of height
//! (constraint 2); the paper uses `α = 3`, `β = 1.5` ([`Constraints::PAPER`]).
//! The **initial SMS** takes, top-down and left to right, the highest
//! sub-trees that satisfy both; every **further SMS** deletes the root of one
//! of its MS ([`Decomposition::delete`]).
//!
//! # Worked example
//! `(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))`, with the
//! paper's `α = 3`, `β = 1.5` and heights counted in phrase levels
//! ([`HeightMeasure::PhraseEdges`]): S has height 2 and 4 leaves (4 ≥ 1.5·2),
//! so the whole tree is the initial SMS. Deleting S leaves `NP VP`; deleting
//! NP or VP (height 1, 2 leaves) or ADVP (height 0) goes further down. With
//! `C(n) = 1 + ∏ C(children)` SMS below an MS root (a POS node: 1), there are
//! `C(S) = 1 + C(NP)·C(VP) = 1 + 2·3 = 7` SMS:
//! ```
//! use treelink::mt::meta::{Constraints, Decomposition, RmShape};
//! use treelink::tree::Tree;
//! let tree = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))", "ex").unwrap();
//! let d = Decomposition::new(&tree, Constraints::PAPER);
//! assert_eq!(d.initial_sms().to_string(), "S[NP[DT-NN]-VP[VBZ-ADVP[RB]]]");
//! assert_eq!(d.count_sms(), 7);
//! let all: Vec<String> = d.sms_iter().map(|s| s.to_string()).collect();
//! assert_eq!(all, [
//!     "S[NP[DT-NN]-VP[VBZ-ADVP[RB]]]", // initial
//!     "NP[DT-NN] VP[VBZ-ADVP[RB]]",    // S deleted
//!     "DT NN VP[VBZ-ADVP[RB]]",        // ... then NP
//!     "NP[DT-NN] VBZ ADVP[RB]",        // ... or VP
//!     "DT NN VBZ ADVP[RB]",
//!     "NP[DT-NN] VBZ RB",
//!     "DT NN VBZ RB",                  // one POS node per word
//! ]);
//! // An RM is a run of neighbouring MS; its scope is the words it covers.
//! let sms = d.delete(d.initial_sms(), 0).unwrap(); // NP VP
//! let sms = d.delete(&sms, 1).unwrap(); // NP VBZ ADVP
//! let rm = sms.rm(1..3).unwrap();
//! assert_eq!(rm.to_string(), "VBZ ADVP[RB]");
//! assert_eq!(rm.words(), ["barks", "loudly"]);
//! let shape: RmShape = "VBZ ADVP[RB]".parse().unwrap(); // as stored in model files
//! assert_eq!(rm.shape(), shape);
//! ```
//!
//! # Reading of the paper (where it is silent or ambiguous)
//! - **MS** (Definition 1): a sub-tree whose leaves are the pre-terminals
//!   (POS nodes) of the words it covers; `I[G, D, H]` with phrase leaves is
//!   not one. A fragment that may stop only at pre-terminals is the complete
//!   sub-tree below its root, so an MS is identified by its root
//!   ([`MetaStructure`]); its frontier is the POS nodes, its internal nodes
//!   the phrase nodes; words are not nodes (as in [`Tree`]).
//! - **`N(Leaf-nodes)`** (§3.1, constraint 2): the MS's pre-terminals, i.e.
//!   the number of words it covers.
//! - **`N(height)`** (constraints 1-2) is not defined in the paper. Counted
//!   in edges down to the pre-terminals ([`HeightMeasure::Edges`]), four of
//!   the paper's own nine phrase MS break its `β = 1.5`: the three `AP[...]`
//!   of Table 1 such as `AP[AP[BMP[m-q]-a]-usde]` (4 leaves, height 3) and
//!   `NP-A[NPB[PRP-NN]]` of Table 2 (2 leaves, height 2). Counted in phrase
//!   levels, i.e. edges down to the deepest phrase node, the pre-terminal
//!   level being the word level ([`HeightMeasure::PhraseEdges`]), every MS
//!   printed in the paper (Tables 1-2, Figure 4) satisfies `α = 3`,
//!   `β = 1.5`; the unit tests check them all. So that is the default, and
//!   `Edges` is an option.
//! - **Height 0** (a lone pre-terminal, and under `PhraseEdges` a flat
//!   phrase): the ratio `N/0` is taken as infinite, so it always passes.
//!   A lone pre-terminal must be an MS, or some words could not be covered;
//!   the paper's RMs `wj`, `DT CD JJ NNS PUNC` use them.
//! - **Initial SMS** (§3.1): "top-down and left-to-right, any node is deleted
//!   if the sub-tree can't satisfy the constraints (1), (2)": the sub-tree at
//!   the root is kept if it satisfies both, else the root is deleted and its
//!   children are tried, left to right. The result is the highest admissible
//!   sub-trees; it always exists as every pre-terminal is admissible.
//! - **Further SMS** (§3.1): "deleting a node in any MS". Deleting an inner
//!   node would leave a fragment that is not a sub-tree (Definition 1), and
//!   deleting a pre-terminal would uncover its word; so the deleted node is
//!   an MS's root. Its MS is replaced by the highest admissible sub-trees
//!   below it, by the same rule as the initial SMS, so that every MS of every
//!   SMS satisfies the constraints (the alternative, replacing it by its
//!   children whatever their shape, would let unconstrained MS in).
//! - Hence the SMS are exactly the left-to-right covers of the sentence by
//!   admissible sub-trees (Definition 2: "the parse tree can be reconstructed
//!   with the elements in the same order").
//! - **RM** (Definition 2, eq. 5): a contiguous, non-empty sub-sequence of an
//!   SMS (eq. 5 segments an SMS into `RM_1 … RM_k`; §3.2 counts RMs as
//!   "consecutive sub-trees"). Its scope `L(RM)` (eqs. 11-12) is the words
//!   of its span. An RM has no variables or slots: each MS reaches down to
//!   its words, so every word in the span is translated inside the RM; the
//!   deleted nodes above the SMS belong to no RM.
//! - The structure string (Tables 1-2, Figure 4): see [`structure`].
//!
//! # Cost
//! [`Decomposition::new`] is O(nodes · depth); [`Decomposition::count_sms`]
//! is O(nodes) (saturating at `u128::MAX`). The number of SMS is exponential
//! in the sentence length (it multiplies over the initial MS). Measured on
//! the German SQUOIA trees with the paper's constraints: median 97 SMS per
//! dev tree (train: 192), 90th percentile ~2·10^4, maximum 1.0·10^7 for a
//! 55-word dev sentence and 3.5·10^9 for a 65-word train sentence (counting
//! edges instead: median 8, maximum 1.3·10^4 on dev).
//! [`Decomposition::sms_iter`] is lazy, breadth-first by number of deletions
//! (the coarsest SMS first), each SMS once without a table of those seen,
//! ~0.6 µs per SMS; [`Decomposition::all_sms`] takes a cap
//! ([`DEFAULT_MAX_SMS`]). Nothing recurses, so no tree is too deep.

pub mod structure;

use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::tree::{NodeId, NodeRange, Tree};

pub use structure::{MsShape, RmShape, ShapeNode, StructureError, StructureErrorKind};

/// How `N(height)` of an MS is counted (§3.1, constraints 1-2; the paper does
/// not say, see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeightMeasure {
    /// Edges from the root down to the deepest phrase node: the pre-terminal
    /// level counts as the word level. A pre-terminal or a flat phrase
    /// (`NPB[DT-JJ-NN]`) has height 0, `AP[AP[BMP[m-q]-a]-usde]` height 2.
    /// Every MS printed in the paper satisfies `α = 3`, `β = 1.5` this way.
    #[default]
    PhraseEdges,
    /// Edges from the root down to the deepest pre-terminal (the textbook
    /// height of a tree whose leaves are the POS nodes): a pre-terminal has
    /// height 0, `NPB[DT-JJ-NN]` 1, `AP[AP[BMP[m-q]-a]-usde]` 3.
    Edges,
}

impl HeightMeasure {
    /// The height under this measure of a sub-tree whose height in nodes is
    /// `nodes` (as [`Tree::height`] counts it: a pre-terminal is 1).
    pub fn of_node_height(self, nodes: usize) -> usize {
        match self {
            HeightMeasure::PhraseEdges => nodes.saturating_sub(2),
            HeightMeasure::Edges => nodes.saturating_sub(1),
        }
    }
}

/// The constraints on an MS of §3.1: (1) `height ≤ α`; (2) `leaves / height ≥ β`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Constraints {
    /// `α`: the largest height allowed.
    pub alpha: usize,
    /// `β`: the smallest ratio of leaves (words) to height allowed.
    pub beta: f64,
    /// How the height is counted.
    #[serde(default)]
    pub height: HeightMeasure,
}

impl Constraints {
    /// The paper's setting (§5.2): `α = 3`, `β = 1.5`, heights in phrase levels.
    pub const PAPER: Constraints = Constraints { alpha: 3, beta: 1.5, height: HeightMeasure::PhraseEdges };

    /// Whether an MS of this `height` and number of `leaves` satisfies (1) and
    /// (2). Height 0 always does (`leaves / 0` is infinite); a `beta` that is
    /// NaN admits nothing else. Written as `leaves ≥ β · height`, no division.
    pub fn admits(&self, height: usize, leaves: usize) -> bool {
        height == 0 || (height <= self.alpha && leaves as f64 >= self.beta * height as f64)
    }
}

impl Default for Constraints {
    fn default() -> Self {
        Constraints::PAPER
    }
}

/// Default cap on the SMS [`Decomposition::all_sms`] lists per tree (the
/// coarsest ones, breadth-first). With the paper's constraints, 61% of the
/// German dev trees (55% of train) have at most this many SMS, and listing
/// them takes 0.04 ms per tree on average (at most 0.3 ms).
pub const DEFAULT_MAX_SMS: usize = 256;

/// An MS (Definition 1): the complete sub-tree rooted at `root`, down to
/// its pre-terminals. A view into a [`Tree`]; whether it satisfies the §3.1
/// constraints is [`MetaStructure::satisfies`].
#[derive(Clone, Copy)]
pub struct MetaStructure<'t> {
    tree: &'t Tree,
    root: NodeId,
}

impl<'t> MetaStructure<'t> {
    /// The MS rooted at `root`; `None` if `root` is not a node of `tree`.
    pub fn new(tree: &'t Tree, root: NodeId) -> Option<Self> {
        tree.contains(root).then_some(MetaStructure { tree, root })
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    pub fn root(&self) -> NodeId {
        self.root
    }

    /// All its nodes, in pre-order.
    pub fn nodes(&self) -> NodeRange {
        self.tree.subtree(self.root)
    }

    /// Its leaves: the pre-terminals, left to right ("the direct sons of the
    /// leaf nodes are the words", Definition 1).
    pub fn frontier(&self) -> impl Iterator<Item = NodeId> + 't {
        let tree = self.tree;
        tree.subtree(self.root).filter(move |&n| tree.is_pos(n))
    }

    /// Its internal (phrase) nodes, in pre-order; none for a lone pre-terminal.
    pub fn internal(&self) -> impl Iterator<Item = NodeId> + 't {
        let tree = self.tree;
        tree.subtree(self.root).filter(move |&n| tree.is_phrase(n))
    }

    /// `N(Leaf-nodes)` (§3.1, constraint 2): the number of pre-terminals, i.e. of words.
    pub fn leaves(&self) -> usize {
        self.tree.span(self.root).len()
    }

    /// `N(height)` (§3.1, constraints 1-2) under `measure`.
    pub fn height(&self, measure: HeightMeasure) -> usize {
        measure.of_node_height(self.tree.height(self.root))
    }

    /// The word positions it covers.
    pub fn span(&self) -> Range<usize> {
        self.tree.span(self.root)
    }

    pub fn words(&self) -> &'t [String] {
        self.tree.yield_of(self.root)
    }

    /// Constraints (1) and (2) of §3.1.
    pub fn satisfies(&self, constraints: &Constraints) -> bool {
        constraints.admits(self.height(constraints.height), self.leaves())
    }

    /// Its tree-independent shape (a one-MS [`RmShape`]).
    pub fn shape(&self) -> RmShape {
        RmShape::of_tree(self.tree, std::slice::from_ref(&self.root))
    }
}

impl PartialEq for MetaStructure<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.root == other.root
    }
}

impl Eq for MetaStructure<'_> {}

impl fmt::Display for MetaStructure<'_> {
    /// The structure string, e.g. `NP[DT-NN]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        structure::write_structure(f, structure::tree_preorder(self.tree, std::slice::from_ref(&self.root)))
    }
}

impl fmt::Debug for MetaStructure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MetaStructure({} {:?} {})", self.root, self.span(), self)
    }
}

/// MS of one tree whose spans are adjacent, left to right: what an SMS and
/// an RM both are (an SMS covers the whole sentence). Reached through
/// [`MetaStructureSequence`] and [`Recombination`], which deref to it.
#[derive(Clone)]
pub struct MsRun<'t> {
    tree: &'t Tree,
    roots: Vec<NodeId>,
}

impl<'t> MsRun<'t> {
    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    /// The roots of its MS, left to right (increasing pre-order ids).
    pub fn roots(&self) -> &[NodeId] {
        &self.roots
    }

    /// Number of MS (at least 1).
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Never true: it holds at least one MS.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// Its MS, left to right.
    pub fn iter(&self) -> impl Iterator<Item = MetaStructure<'t>> + '_ {
        self.roots.iter().map(|&root| MetaStructure { tree: self.tree, root })
    }

    /// The word positions it covers (its MS's spans are adjacent).
    pub fn span(&self) -> Range<usize> {
        match (self.roots.first(), self.roots.last()) {
            (Some(&a), Some(&b)) => self.tree.span(a).start..self.tree.span(b).end,
            _ => 0..0,
        }
    }

    /// The words in its scope (`L(RM)` of eqs. 11-12 for an RM).
    pub fn words(&self) -> &'t [String] {
        &self.tree.words()[self.span()]
    }

    /// Its tree-independent shape, as the model files store it.
    pub fn shape(&self) -> RmShape {
        RmShape::of_tree(self.tree, &self.roots)
    }
}

impl PartialEq for MsRun<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.roots == other.roots
    }
}

impl Eq for MsRun<'_> {}

impl fmt::Display for MsRun<'_> {
    /// The structure string, e.g. `AP[AP[BMP[m-q]-a]-usde] wj`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        structure::write_structure(f, structure::tree_preorder(self.tree, &self.roots))
    }
}

/// An SMS (Definition 2): MS that cover the sentence once, left to right.
/// Made by a [`Decomposition`], so its MS satisfy its constraints.
#[derive(Clone, PartialEq, Eq)]
pub struct MetaStructureSequence<'t>(MsRun<'t>);

/// The paper's name for a [`MetaStructureSequence`].
pub type Sms<'t> = MetaStructureSequence<'t>;

impl<'t> std::ops::Deref for MetaStructureSequence<'t> {
    type Target = MsRun<'t>;
    fn deref(&self) -> &MsRun<'t> {
        &self.0
    }
}

impl<'t> MetaStructureSequence<'t> {
    /// Its `i`-th MS.
    pub fn get(&self, i: usize) -> Option<MetaStructure<'t>> {
        self.roots.get(i).map(|&root| MetaStructure { tree: self.tree, root })
    }

    /// The RM made of its MS `range` (Definition 2: a contiguous
    /// sub-sequence); `None` if `range` is empty or out of bounds.
    pub fn rm(&self, range: Range<usize>) -> Option<Recombination<'t>> {
        let roots = self.roots.get(range).filter(|r| !r.is_empty())?;
        Some(Recombination(MsRun { tree: self.tree, roots: roots.to_vec() }))
    }

    /// Every RM of this SMS with at most `max_ms` MS, by start then length
    /// (the pieces eq. 5's segmentations are made of).
    pub fn rms(&self, max_ms: usize) -> Vec<Recombination<'t>> {
        let m = self.roots.len();
        (0..m)
            .flat_map(|i| (i + 1..=m.min(i.saturating_add(max_ms))).map(move |j| i..j))
            .filter_map(|r| self.rm(r))
            .collect()
    }
}

impl fmt::Display for MetaStructureSequence<'_> {
    /// The structure string, e.g. `NP[DT-NN] VBZ RB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for MetaStructureSequence<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sms({:?} {})", self.roots, self)
    }
}

/// An RM, "recombination of MS" (Definition 2): a contiguous, non-empty
/// sub-sequence of an SMS. The unit the model transforms (eqs. 5, 9-10, 13).
#[derive(Clone, PartialEq, Eq)]
pub struct Recombination<'t>(MsRun<'t>);

/// The paper's name for a [`Recombination`].
pub type Rm<'t> = Recombination<'t>;

impl<'t> std::ops::Deref for Recombination<'t> {
    type Target = MsRun<'t>;
    fn deref(&self) -> &MsRun<'t> {
        &self.0
    }
}

/// What the decoder needs of an RM (§4): the words in its scope, `L(RM)`
/// (eqs. 11-12), where they are, and their pre-terminals (the "leaf nodes",
/// §3.2, whose alignments the word alignments induce). An RM has no
/// variables: each of its MS is complete down to the words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope<'t> {
    /// The word positions covered, contiguous.
    pub span: Range<usize>,
    /// `L(RM)`: the words of `span`.
    pub words: &'t [String],
    /// The pre-terminal nodes, left to right, one per word.
    pub leaves: Vec<NodeId>,
    /// The word positions of each MS, left to right (they tile `span`).
    pub ms_spans: Vec<Range<usize>>,
}

impl<'t> Recombination<'t> {
    /// Its scope, for the decoder (§4).
    pub fn scope(&self) -> Scope<'t> {
        Scope {
            span: self.span(),
            words: self.words(),
            leaves: self.iter().flat_map(|m| m.frontier()).collect(),
            ms_spans: self.iter().map(|m| m.span()).collect(),
        }
    }
}

impl fmt::Display for Recombination<'_> {
    /// The structure string, e.g. `AP[AP[BMP[m-q]-a]-usde] wj`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for Recombination<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rm({:?} {:?} {})", self.roots, self.span(), self)
    }
}

/// The decomposition of one parse tree under given [`Constraints`] (§3.1):
/// which sub-trees are MS, the initial SMS, the deletion step and the
/// enumeration of all SMS and RMs.
#[derive(Debug, Clone)]
pub struct Decomposition<'t> {
    tree: &'t Tree,
    constraints: Constraints,
    /// Whether the sub-tree at each node satisfies the constraints (is an MS).
    admissible: Vec<bool>,
    /// For an admissible phrase node: the MS that replace it when it is
    /// deleted (the highest admissible nodes strictly below it, left to right).
    replacement: Vec<Vec<NodeId>>,
    /// The lowest admissible proper ancestor (the MS whose deletion yields this one).
    deleted_from: Vec<Option<NodeId>>,
    initial: Sms<'t>,
}

impl<'t> Decomposition<'t> {
    /// Decides which sub-trees are MS and builds the initial SMS. O(nodes · depth).
    pub fn new(tree: &'t Tree, constraints: Constraints) -> Self {
        let admissible: Vec<bool> = tree
            .node_ids()
            .map(|n| tree.is_pos(n) || MetaStructure { tree, root: n }.satisfies(&constraints))
            .collect();
        // The highest admissible nodes in `from..to`, left to right: pre-order
        // lets us skip an admissible node's whole sub-tree.
        let highest = |nodes: NodeRange| {
            let mut out = Vec::new();
            let mut n = nodes.start;
            while n < nodes.end {
                if admissible[n.index()] {
                    out.push(n);
                    n = tree.subtree_end(n);
                } else {
                    n = NodeId::new(n.index() + 1);
                }
            }
            out
        };
        let replacement = tree
            .node_ids()
            .map(|n| if admissible[n.index()] && tree.is_phrase(n) { highest(tree.descendants(n)) } else { Vec::new() })
            .collect();
        let mut deleted_from = vec![None; tree.len()];
        for n in tree.descendants(NodeId::ROOT) {
            if let Some(p) = tree.parent(n) {
                deleted_from[n.index()] = if admissible[p.index()] { Some(p) } else { deleted_from[p.index()] };
            }
        }
        let initial = MetaStructureSequence(MsRun { tree, roots: highest(tree.node_ids()) });
        Decomposition { tree, constraints, admissible, replacement, deleted_from, initial }
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    /// Whether the sub-tree at `n` is an MS satisfying the constraints
    /// (always for a pre-terminal); false for an id not in the tree.
    pub fn is_ms(&self, n: NodeId) -> bool {
        self.admissible.get(n.index()).copied().unwrap_or(false)
    }

    /// The MS rooted at `n`, if it satisfies the constraints.
    pub fn ms(&self, n: NodeId) -> Option<MetaStructure<'t>> {
        self.is_ms(n).then_some(MetaStructure { tree: self.tree, root: n })
    }

    /// Every MS of the tree that satisfies the constraints, in pre-order.
    pub fn meta_structures(&self) -> impl Iterator<Item = MetaStructure<'t>> + '_ {
        self.tree.node_ids().filter_map(|n| self.ms(n))
    }

    /// The MS that replace the MS rooted at `n` when `n` is deleted: the
    /// highest admissible sub-trees below it. Empty for a pre-terminal (it
    /// cannot be deleted) or a node that is not an MS.
    pub fn replacement(&self, n: NodeId) -> &[NodeId] {
        self.replacement.get(n.index()).map_or(&[], Vec::as_slice)
    }

    /// The initial SMS (§3.1): the highest sub-trees satisfying the
    /// constraints, found top-down and left to right.
    pub fn initial_sms(&self) -> &Sms<'t> {
        &self.initial
    }

    /// A further SMS (§3.1): `sms` with the root of its `i`-th MS deleted,
    /// that MS replaced by [`Decomposition::replacement`]. `None` if `i` is
    /// out of range, the MS is a lone pre-terminal, or `sms` is of another tree.
    pub fn delete(&self, sms: &Sms<'t>, i: usize) -> Option<Sms<'t>> {
        if !std::ptr::eq(sms.tree, self.tree) {
            return None;
        }
        let below = self.replacement(*sms.roots.get(i)?);
        if below.is_empty() {
            return None;
        }
        let mut roots = Vec::with_capacity(sms.roots.len() + below.len() - 1);
        roots.extend_from_slice(&sms.roots[..i]);
        roots.extend_from_slice(below);
        roots.extend_from_slice(&sms.roots[i + 1..]);
        Some(MetaStructureSequence(MsRun { tree: self.tree, roots }))
    }

    /// The SMS made of the MS rooted at `roots`, if they satisfy the
    /// constraints and cover the sentence once, left to right.
    pub fn sms_from_roots(&self, roots: &[NodeId]) -> Option<Sms<'t>> {
        let rm = self.recombination(roots)?;
        (rm.span() == (0..self.tree.words().len())).then_some(MetaStructureSequence(rm.0))
    }

    /// The RM made of the MS rooted at `roots`, if they satisfy the
    /// constraints and their spans are adjacent, left to right (then some
    /// SMS holds them as a contiguous sub-sequence: cover the other words
    /// with pre-terminals).
    pub fn recombination(&self, roots: &[NodeId]) -> Option<Rm<'t>> {
        let ok = !roots.is_empty()
            && roots.iter().all(|&n| self.is_ms(n))
            && roots.windows(2).all(|w| self.tree.span(w[0]).end == self.tree.span(w[1]).start);
        ok.then(|| Recombination(MsRun { tree: self.tree, roots: roots.to_vec() }))
    }

    /// How many SMS the tree has: `∏ C(m)` over the initial SMS, where
    /// `C(n) = 1` for a pre-terminal and `C(n) = 1 + ∏ C(r)` over the
    /// replacement `r` of `n` (keep `n`, or delete it and choose below).
    /// Saturates at `u128::MAX`. O(nodes).
    pub fn count_sms(&self) -> u128 {
        let mut c = vec![1u128; self.tree.len()];
        for n in self.tree.node_ids().rev() {
            let below = &self.replacement[n.index()];
            if !below.is_empty() {
                c[n.index()] = below.iter().fold(1u128, |acc, &r| acc.saturating_mul(c[r.index()])).saturating_add(1);
            }
        }
        self.initial.roots.iter().fold(1u128, |acc, &r| acc.saturating_mul(c[r.index()]))
    }

    /// Every SMS, lazily: the initial SMS, then those one deletion away, two
    /// deletions, ... (breadth-first); each once, in a fixed order. Take a
    /// prefix with `.take(n)`: the count can be astronomical (see
    /// [`Decomposition::count_sms`]).
    pub fn sms_iter(&self) -> SmsIter<'_, 't> {
        let mut queue = VecDeque::new();
        queue.push_back((self.initial.roots.clone(), Vec::new()));
        SmsIter { d: self, queue }
    }

    /// The first `max` SMS of [`Decomposition::sms_iter`] (the coarsest ones).
    pub fn all_sms(&self, max: usize) -> Vec<Sms<'t>> {
        self.sms_iter().take(max).collect()
    }

    /// Every RM of every SMS with at most `max_ms` MS: the candidates the
    /// decoder covers the sentence with (§4). Ordered by start word, then
    /// depth-first with higher MS first. The number is polynomial: at most
    /// `words · d^max_ms` for `d` MS starting at one word.
    pub fn candidate_rms(&self, max_ms: usize) -> Vec<Rm<'t>> {
        let n_words = self.tree.words().len();
        let mut starting: Vec<Vec<NodeId>> = vec![Vec::new(); n_words];
        for m in self.meta_structures() {
            if let Some(v) = starting.get_mut(m.span().start) {
                v.push(m.root);
            }
        }
        let mut out = Vec::new();
        if max_ms == 0 {
            return out;
        }
        for first in &starting {
            let mut stack: Vec<Vec<NodeId>> = first.iter().rev().map(|&m| vec![m]).collect();
            while let Some(roots) = stack.pop() {
                let end = roots.last().map_or(n_words, |&m| self.tree.span(m).end);
                if roots.len() < max_ms && end < n_words {
                    for &m in starting[end].iter().rev() {
                        let mut longer = Vec::with_capacity(roots.len() + 1);
                        longer.extend_from_slice(&roots);
                        longer.push(m);
                        stack.push(longer);
                    }
                }
                out.push(Recombination(MsRun { tree: self.tree, roots }));
            }
        }
        out
    }
}

/// The SMS of a tree, breadth-first by number of deletions (see
/// [`Decomposition::sms_iter`]).
///
/// Each SMS is generated once, from one canonical parent: call the deleted
/// nodes whose replacements are all still in an SMS its *undeletable* nodes
/// (putting one back gives an SMS one deletion closer to the initial one);
/// the canonical parent puts back the one with the largest id. So deleting
/// node `n` makes a new SMS only if `n` is larger than every undeletable node
/// of the parent except the MS `n` came from.
pub struct SmsIter<'d, 't> {
    d: &'d Decomposition<'t>,
    /// Pending SMS with their undeletable nodes.
    queue: VecDeque<(Vec<NodeId>, Vec<NodeId>)>,
}

impl<'t> Iterator for SmsIter<'_, 't> {
    type Item = Sms<'t>;

    fn next(&mut self) -> Option<Sms<'t>> {
        let (roots, undeletable) = self.queue.pop_front()?;
        for (i, &n) in roots.iter().enumerate() {
            let below = self.d.replacement(n);
            if below.is_empty() {
                continue;
            }
            let from = self.d.deleted_from[n.index()];
            if undeletable.iter().any(|&p| Some(p) != from && p > n) {
                continue; // generated from its canonical parent instead
            }
            let mut child = Vec::with_capacity(roots.len() + below.len() - 1);
            child.extend_from_slice(&roots[..i]);
            child.extend_from_slice(below);
            child.extend_from_slice(&roots[i + 1..]);
            let mut child_undeletable: Vec<NodeId> = undeletable.iter().copied().filter(|&p| Some(p) != from).collect();
            child_undeletable.push(n);
            self.queue.push_back((child, child_undeletable));
        }
        Some(MetaStructureSequence(MsRun { tree: self.d.tree, roots }))
    }
}

#[cfg(test)]
mod tests;
