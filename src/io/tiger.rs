//! TigerXML treebanks with Stockholm TreeAligner (STA) alignments: import a
//! treebank pair with its alignment into a [`Corpus`], and export a corpus
//! back to TigerXML + STA XML that the importer reads to the same corpus.
//!
//! # What it provides
//! - [`parse_tiger`]: the sentences of a TigerXML file (`<s id>` with
//!   `<graph root>`, `<terminals><t id word pos/>`, `<nonterminals><nt id
//!   cat><edge idref/>`), keeping sentence and node ids. Secondary edges
//!   (`<secedge>`) and everything in `<head>` are ignored.
//! - [`TigerSentence::to_tree`]: one sentence as a [`Tree`], made the way the
//!   bracketed files of `../shared/data` were made (see that README): POS
//!   nodes from terminals, phrase nodes from nonterminals, children ordered
//!   by their leftmost word; discontinuous constituents made continuous by
//!   raising children bottom-up, keeping the longest contiguous run of
//!   children (the leftmost on a tie); terminals unreachable from the root
//!   attached to the root. It returns the Tiger id of every pre-order node,
//!   the nodes whose yield changed and a [`Change`] list saying what changed.
//! - [`parse_sta`]: an STA alignment file (`<treebanks>`, `<sen-align>`,
//!   `<align type="good|fuzzy">`; `<to-empty>` is ignored).
//! - [`import_pair`]: a [`Corpus`] of the 1:1 sentence pairs of a treebank
//!   pair, gold links in pre-order ids, the Tiger ids per pair and an
//!   [`ImportReport`] of everything changed or dropped, with counts.
//! - [`write_tiger`], [`write_sta`], [`export_pair`]: the export, with the
//!   original Tiger ids when known ([`TigerImport::ids`]) or synthesized ones
//!   ([`PairIds::synthesize`], `s{pair}_{n}`) for a corpus read from
//!   bracketed files.
//!
//! Against the bracketed data this importer reproduces, with
//! `phrase_only = true`, every tree, id and gold line of
//! `squoia-de-es/bracketed/{train,dev,test}` and `lingua-align-nl-en-125/bracketed/all`.
//!
//! # Costs
//! Reading is streaming (quick-xml) and O(input length); converting a
//! sentence is O(n log n) in its nodes, plus the moves of raised children (a
//! child raised through k discontinuous ancestors moves k times, so
//! O(n · depth) at worst); importing is linear in the alignment plus the
//! conversion of the paired sentences only. Nothing recurses, so deep or
//! hostile input cannot overflow the stack.
//!
//! # What it refuses
//! Every refusal is a [`TigerError`] naming the file, 1-based line and column
//! (in characters) and what was expected; no input makes it panic or loop:
//! malformed XML, a document that is not TigerXML / STA, missing required
//! attributes (`s@id`, `t@id/word/pos`, `nt@id/cat`, `edge@idref`,
//! `align@type`, `node@treebank_id/node_id`, `treebank@id`), duplicate ids,
//! an edge or graph root naming a node that does not exist, a node with two
//! parents, cycles, a root that has a parent, a sentence without words, and
//! alignment nodes that are in neither treebank.
//!
//! Labels and words are stored as the bracketed format needs them: `(` and
//! `)` become `-LRB-` / `-RRB-` (and back on export), whitespace inside a
//! token becomes `_`, and an empty label or word becomes `--`.
//!
//! # Example
//! ```
//! use treelink::io::tiger::parse_tiger;
//! let xml = r#"<corpus id="c"><body><s id="s1"><graph root="s1_500">
//!   <terminals><t id="s1_1" word="den" pos="ART"/><t id="s1_2" word="Mann" pos="NN"/>
//!   <t id="s1_3" word="sah" pos="VVFIN"/></terminals>
//!   <nonterminals><nt id="s1_500" cat="S"><edge idref="s1_3"/><edge idref="s1_501"/></nt>
//!   <nt id="s1_501" cat="NP"><edge idref="s1_1"/><edge idref="s1_2"/></nt></nonterminals>
//! </graph></s></body></corpus>"#;
//! let corpus = parse_tiger(xml, "c.xml").unwrap();
//! let s = corpus.sentence("s1").unwrap().to_tree("c.xml").unwrap();
//! assert_eq!(s.tree.to_string(), "(S (NP (ART den) (NN Mann)) (VVFIN sah))");
//! assert_eq!(s.node_ids, ["s1_500", "s1_501", "s1_1", "s1_2", "s1_3"]);
//! assert!(s.changes.is_empty());
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::corpus::{Corpus, Named, TreePair};
use crate::io::links::{Link, LinkKind};
use crate::tree::{NodeId, Tree, TreeBuilder};

// ---------------------------------------------------------------------------
// Errors and positions
// ---------------------------------------------------------------------------

/// A 1-based line and column (in characters) in an input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Loc {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A located error from reading TigerXML or STA XML: `file:line:column: what was expected`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct TigerError {
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    pub kind: TigerErrorKind,
}

impl TigerError {
    fn at(file: &str, loc: Loc, kind: TigerErrorKind) -> Self {
        TigerError { file: file.to_string(), line: loc.line, column: loc.column, kind }
    }
}

/// What went wrong, phrased as what the reader expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TigerErrorKind {
    #[error("expected well-formed XML: {message}")]
    Xml { message: String },
    #[error("expected </{element}> before the end of the input")]
    Unclosed { element: String },
    #[error("expected {expected} as the document element, found {found}")]
    WrongDocument { expected: &'static str, found: String },
    #[error("expected attribute '{attribute}' on <{element}>")]
    MissingAttribute { element: &'static str, attribute: &'static str },
    #[error("expected <{element}> inside <{parent}>")]
    Misplaced { element: &'static str, parent: &'static str },
    #[error("id '{id}' was already used at {line}:{column}; expected unique ids")]
    DuplicateId { id: String, line: usize, column: usize },
    #[error("edge of {node} names node {idref}, which is not in sentence {sentence}")]
    DanglingIdref { node: String, idref: String, sentence: String },
    #[error("graph root {root} is not a node of sentence {sentence}")]
    DanglingRoot { root: String, sentence: String },
    #[error("node {node} has two parents, {first} and {second}; expected a tree")]
    TwoParents { node: String, first: String, second: String },
    #[error("nonterminals form a cycle (each contains the next: {path}); expected a tree")]
    Cycle { path: String },
    #[error("graph root {root} has parent {parent}; expected the root to be the top node")]
    RootHasParent { root: String, parent: String },
    #[error("expected at least one word in sentence {sentence}")]
    NoWords { sentence: String },
    #[error("{element} names node {node} which is not in {file}")]
    UnknownNode { element: &'static str, node: String, file: String },
    #[error("expected two <treebank>s in <treebanks>, found {found}")]
    TreebankCount { found: usize },
    #[error("node names treebank '{treebank}', which is not declared in <treebanks>")]
    UnknownTreebank { treebank: String },
    #[error("expected one node of treebank '{treebank}' in <{element}>, found {found}")]
    NodesPerTreebank { element: &'static str, treebank: String, found: usize },
    #[error("expected the alignment's treebanks ({treebanks}) to be {source_file} and {target_file}, but neither order matches their node ids")]
    TreebanksDoNotMatch { treebanks: String, source_file: String, target_file: String },
}

/// Tracks line and column while offsets grow, so locating every element
/// costs O(input length) in total.
struct Lines<'a> {
    text: &'a str,
    offset: usize,
    loc: Loc,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { text, offset: 0, loc: Loc { line: 1, column: 1 } }
    }

    fn at(&mut self, offset: u64) -> Loc {
        let mut offset = usize::try_from(offset).unwrap_or(usize::MAX).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset {
            self.offset = 0;
            self.loc = Loc { line: 1, column: 1 };
        }
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.loc.line += 1;
                self.loc.column = 1;
            } else {
                self.loc.column += 1;
            }
        }
        self.offset = offset;
        self.loc
    }
}

/// An XML element as the readers see it: its attributes and position, with
/// the file name for errors.
struct Element<'x, 'f> {
    attributes: Vec<quick_xml::events::attributes::Attribute<'x>>,
    loc: Loc,
    file: &'f str,
}

impl<'x, 'f> Element<'x, 'f> {
    /// Reads the attributes of `start` once, refusing duplicates in
    /// O(n log n) (quick-xml's own check is quadratic in the attributes).
    fn new(start: &'x BytesStart<'x>, loc: Loc, file: &'f str) -> Result<Self, TigerError> {
        let xml = |e: String| TigerError::at(file, loc, TigerErrorKind::Xml { message: e });
        let attributes =
            start.attributes().with_checks(false).collect::<Result<Vec<_>, _>>().map_err(|e| xml(e.to_string()))?;
        let mut keys: Vec<&[u8]> = attributes.iter().map(|a| a.key.as_ref()).collect();
        keys.sort_unstable();
        if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
            return Err(xml(format!("attribute '{}' appears twice", String::from_utf8_lossy(w[0]))));
        }
        Ok(Element { attributes, loc, file })
    }

    fn error(&self, kind: TigerErrorKind) -> TigerError {
        TigerError::at(self.file, self.loc, kind)
    }

    /// The unescaped value of attribute `name`, if present.
    fn attr(&self, name: &str) -> Result<Option<String>, TigerError> {
        match self.attributes.iter().find(|a| a.key.local_name().as_ref() == name.as_bytes()) {
            None => Ok(None),
            Some(a) => a
                .unescape_value()
                .map(|v| Some(v.into_owned()))
                .map_err(|e| self.error(TigerErrorKind::Xml { message: e.to_string() })),
        }
    }

    fn required(&self, element: &'static str, attribute: &'static str) -> Result<String, TigerError> {
        self.attr(attribute)?.ok_or_else(|| self.error(TigerErrorKind::MissingAttribute { element, attribute }))
    }
}

/// One step of the streaming reader.
enum Step<'x> {
    Open(BytesStart<'x>, Loc),
    Close(Vec<u8>),
    End,
}

/// Streams the elements of an XML text, checking nesting and reporting
/// located errors. Elements are given as `Open(start, loc)` /
/// `Close(name)`; an empty element gets a `Close` right after its `Open`.
struct XmlStream<'a> {
    reader: Reader<&'a [u8]>,
    lines: Lines<'a>,
    file: &'a str,
    open: Vec<Vec<u8>>,
    pending_close: Option<Vec<u8>>,
}

impl<'a> XmlStream<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        let mut reader = Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        XmlStream { reader, lines: Lines::new(text), file, open: Vec::new(), pending_close: None }
    }

    fn next(&mut self) -> Result<Step<'a>, TigerError> {
        if let Some(name) = self.pending_close.take() {
            return Ok(Step::Close(name));
        }
        loop {
            let before = self.reader.buffer_position();
            let event = match self.reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    let loc = self.lines.at(self.reader.error_position());
                    return Err(TigerError::at(self.file, loc, TigerErrorKind::Xml { message: e.to_string() }));
                }
            };
            match event {
                Event::Start(s) => {
                    let loc = self.lines.at(before);
                    self.open.push(s.local_name().as_ref().to_vec());
                    return Ok(Step::Open(s, loc));
                }
                Event::Empty(s) => {
                    let loc = self.lines.at(before);
                    self.pending_close = Some(s.local_name().as_ref().to_vec());
                    return Ok(Step::Open(s, loc));
                }
                Event::End(_) => {
                    let name = self.open.pop().unwrap_or_default();
                    return Ok(Step::Close(name));
                }
                Event::Eof => {
                    if let Some(name) = self.open.last() {
                        let loc = self.lines.at(self.reader.buffer_position());
                        let element = String::from_utf8_lossy(name).into_owned();
                        return Err(TigerError::at(self.file, loc, TigerErrorKind::Unclosed { element }));
                    }
                    return Ok(Step::End);
                }
                _ => {}
            }
        }
    }
}

fn name_of(start: &BytesStart<'_>) -> String {
    format!("<{}>", String::from_utf8_lossy(start.local_name().as_ref()))
}

// ---------------------------------------------------------------------------
// TigerXML
// ---------------------------------------------------------------------------

/// A TigerXML treebank: its sentences in file order, indexed by sentence id
/// and by node id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TigerCorpus {
    /// The `id` of `<corpus>`, if any.
    pub id: Option<String>,
    pub sentences: Vec<TigerSentence>,
    sentence_index: HashMap<String, usize>,
    node_index: HashMap<String, usize>,
}

impl TigerCorpus {
    pub fn len(&self) -> usize {
        self.sentences.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sentences.is_empty()
    }

    /// The sentence with id `id`.
    pub fn sentence(&self, id: &str) -> Option<&TigerSentence> {
        self.sentence_index.get(id).map(|&i| &self.sentences[i])
    }

    /// Index (in [`Self::sentences`]) of the sentence with id `id`.
    pub fn sentence_position(&self, id: &str) -> Option<usize> {
        self.sentence_index.get(id).copied()
    }

    /// Index of the sentence that holds the node (terminal or nonterminal) `node`.
    pub fn sentence_of_node(&self, node: &str) -> Option<usize> {
        self.node_index.get(node).copied()
    }
}

/// One `<s>` of a TigerXML file, as written (before any conversion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TigerSentence {
    pub id: String,
    /// `graph@root`, if given.
    pub root: Option<String>,
    /// Terminals in word order.
    pub terminals: Vec<Terminal>,
    pub nonterminals: Vec<Nonterminal>,
    /// Where `<s>` starts.
    pub loc: Loc,
    /// Where `<graph>` starts (the sentence's start if there is none).
    pub graph_loc: Loc,
}

/// `<t id word pos/>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terminal {
    pub id: String,
    pub word: String,
    pub pos: String,
    pub loc: Loc,
}

/// `<nt id cat>` with its primary edges (secondary edges are not kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nonterminal {
    pub id: String,
    pub cat: String,
    pub edges: Vec<Edge>,
    pub loc: Loc,
}

/// `<edge idref label/>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub idref: String,
    /// The edge label (`--` when absent).
    pub label: String,
    pub loc: Loc,
}

/// Reads a TigerXML file (see the module documentation for what it keeps
/// and refuses). Ids must be unique over the file, as TigerXML requires,
/// because alignments name nodes by id alone. Cost: O(input length).
pub fn parse_tiger(text: &str, file: &str) -> Result<TigerCorpus, TigerError> {
    let mut xml = XmlStream::new(text, file);
    let mut corpus = TigerCorpus::default();
    let mut first_loc: HashMap<String, Loc> = HashMap::new();
    let mut sentence: Option<TigerSentence> = None;
    let mut in_nt = false;
    let mut seen_document = false;
    loop {
        match xml.next()? {
            Step::End => break,
            Step::Open(start, loc) => {
                let el = Element::new(&start, loc, file)?;
                let name = start.local_name();
                if !seen_document {
                    seen_document = true;
                    if name.as_ref() != b"corpus" {
                        return Err(el.error(TigerErrorKind::WrongDocument {
                            expected: "a TigerXML <corpus>",
                            found: name_of(&start),
                        }));
                    }
                    corpus.id = el.attr("id")?;
                    continue;
                }
                match name.as_ref() {
                    b"s" => {
                        if sentence.is_some() {
                            return Err(el.error(TigerErrorKind::Misplaced { element: "s", parent: "body" }));
                        }
                        let id = el.required("s", "id")?;
                        if let Some(&first) = first_loc.get(&id) {
                            return Err(el.error(dup(&id, first)));
                        }
                        first_loc.insert(id.clone(), loc);
                        sentence = Some(TigerSentence {
                            id,
                            root: None,
                            terminals: Vec::new(),
                            nonterminals: Vec::new(),
                            loc,
                            graph_loc: loc,
                        });
                    }
                    b"graph" => {
                        let s = sentence
                            .as_mut()
                            .ok_or_else(|| el.error(TigerErrorKind::Misplaced { element: "graph", parent: "s" }))?;
                        s.root = el.attr("root")?;
                        s.graph_loc = loc;
                    }
                    b"t" => {
                        let s = sentence
                            .as_mut()
                            .ok_or_else(|| el.error(TigerErrorKind::Misplaced { element: "t", parent: "s" }))?;
                        let id = el.required("t", "id")?;
                        let word = el.required("t", "word")?;
                        let pos = el.required("t", "pos")?;
                        if let Some(&first) = first_loc.get(&id) {
                            return Err(el.error(dup(&id, first)));
                        }
                        first_loc.insert(id.clone(), loc);
                        s.terminals.push(Terminal { id, word, pos, loc });
                    }
                    b"nt" => {
                        let s = sentence
                            .as_mut()
                            .ok_or_else(|| el.error(TigerErrorKind::Misplaced { element: "nt", parent: "s" }))?;
                        let id = el.required("nt", "id")?;
                        let cat = el.required("nt", "cat")?;
                        if let Some(&first) = first_loc.get(&id) {
                            return Err(el.error(dup(&id, first)));
                        }
                        first_loc.insert(id.clone(), loc);
                        s.nonterminals.push(Nonterminal { id, cat, edges: Vec::new(), loc });
                        in_nt = true;
                    }
                    b"edge" => {
                        let nt = match sentence.as_mut().and_then(|s| s.nonterminals.last_mut()) {
                            Some(nt) if in_nt => nt,
                            _ => return Err(el.error(TigerErrorKind::Misplaced { element: "edge", parent: "nt" })),
                        };
                        let idref = el.required("edge", "idref")?;
                        let label = el.attr("label")?.unwrap_or_else(|| "--".to_string());
                        nt.edges.push(Edge { idref, label, loc });
                    }
                    _ => {}
                }
            }
            Step::Close(name) => match name.as_slice() {
                b"nt" => in_nt = false,
                b"s" => {
                    if let Some(s) = sentence.take() {
                        let k = corpus.sentences.len();
                        for t in &s.terminals {
                            corpus.node_index.insert(t.id.clone(), k);
                        }
                        for n in &s.nonterminals {
                            corpus.node_index.insert(n.id.clone(), k);
                        }
                        corpus.sentence_index.insert(s.id.clone(), k);
                        corpus.sentences.push(s);
                    }
                }
                _ => {}
            },
        }
    }
    if !seen_document {
        let loc = xml.lines.at(text.len() as u64);
        return Err(TigerError::at(
            file,
            loc,
            TigerErrorKind::WrongDocument { expected: "a TigerXML <corpus>", found: "no element".into() },
        ));
    }
    Ok(corpus)
}

fn dup(id: &str, first: Loc) -> TigerErrorKind {
    TigerErrorKind::DuplicateId { id: id.to_string(), line: first.line, column: first.column }
}

// ---------------------------------------------------------------------------
// Conversion of one sentence
// ---------------------------------------------------------------------------

/// A node as a change report names it: its Tiger id and label (category or POS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeName {
    pub id: String,
    pub label: String,
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id, self.label)
    }
}

fn join(names: &[NodeName]) -> String {
    names.iter().map(NodeName::to_string).collect::<Vec<_>>().join(", ")
}

/// One thing the conversion of a sentence changed, in the words of the
/// data README's recipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `node` was discontinuous: its children `raised` moved up to `to`,
    /// keeping the longest contiguous run of children. `node`'s yield changed.
    Raised { sentence: String, node: NodeName, raised: Vec<NodeName>, to: NodeName },
    /// Terminals not reachable from the root were attached to the root
    /// (the root's links are kept: its yield is the whole sentence).
    Reattached { sentence: String, terminals: Vec<NodeName>, root: NodeName },
    /// Nonterminals not reachable from the root were dropped (their words
    /// were attached to the root).
    DroppedUnreachable { sentence: String, nodes: Vec<NodeName> },
    /// A nonterminal that covers no word was dropped.
    DroppedEmpty { sentence: String, node: NodeName },
    /// The root is a terminal, so the tree is that one POS node and the other
    /// terminals were dropped (as in the bracketed data).
    DroppedTerminals { sentence: String, root: NodeName, terminals: Vec<NodeName> },
    /// The graph names no root and has several top nodes: a virtual root
    /// (labelled `VROOT`) was added over them.
    VirtualRoot { sentence: String, root: String, children: Vec<NodeName> },
}

impl Change {
    /// The Tiger sentence id this change is about.
    pub fn sentence(&self) -> &str {
        match self {
            Change::Raised { sentence, .. }
            | Change::Reattached { sentence, .. }
            | Change::DroppedUnreachable { sentence, .. }
            | Change::DroppedEmpty { sentence, .. }
            | Change::DroppedTerminals { sentence, .. }
            | Change::VirtualRoot { sentence, .. } => sentence,
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Raised { sentence, node, raised, to } => write!(
                f,
                "{sentence}: {node} was discontinuous: raised {} to {to}; the yield of {} changed",
                join(raised),
                node.id
            ),
            Change::Reattached { sentence, terminals, root } => {
                write!(
                    f,
                    "{sentence}: terminals {} were not reachable from the root: attached to the root {root}",
                    join(terminals)
                )
            }
            Change::DroppedUnreachable { sentence, nodes } => {
                write!(f, "{sentence}: nonterminals {} are not reachable from the root: dropped", join(nodes))
            }
            Change::DroppedEmpty { sentence, node } => write!(f, "{sentence}: {node} covers no word: dropped"),
            Change::DroppedTerminals { sentence, root, terminals } => write!(
                f,
                "{sentence}: the root {root} is a terminal, so the tree is that one word: dropped terminals {}",
                join(terminals)
            ),
            Change::VirtualRoot { sentence, root, children } => write!(
                f,
                "{sentence}: the graph names no root: added a virtual root {root} (VROOT) over {}",
                join(children)
            ),
        }
    }
}

/// A sentence converted to a [`Tree`] (see [`TigerSentence::to_tree`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertedSentence {
    pub tree: Tree,
    /// The Tiger id of every node, indexed by pre-order [`NodeId`].
    pub node_ids: Vec<String>,
    /// Pre-order ids of the nodes whose yield changed when discontinuous
    /// constituents were made continuous, ascending.
    pub yield_changed: Vec<NodeId>,
    /// What changed, in processing order.
    pub changes: Vec<Change>,
    index: HashMap<String, NodeId>,
}

impl ConvertedSentence {
    /// The pre-order id of Tiger node `id`, if it survived the conversion.
    pub fn node(&self, id: &str) -> Option<NodeId> {
        self.index.get(id).copied()
    }

    /// Whether the yield of node `n` changed.
    pub fn changed(&self, n: NodeId) -> bool {
        self.yield_changed.binary_search(&n).is_ok()
    }
}

/// A token as the bracketed format can hold it: `(`/`)` as `-LRB-`/`-RRB-`,
/// whitespace as `_`, empty as `--`.
fn to_token(s: &str) -> Cow<'_, str> {
    if s.is_empty() {
        return Cow::Borrowed("--");
    }
    if !s.chars().any(|c| c == '(' || c == ')' || c.is_whitespace()) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '(' => out.push_str("-LRB-"),
            ')' => out.push_str("-RRB-"),
            c if c.is_whitespace() => out.push('_'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The inverse of the bracket escape, for export.
fn from_token(s: &str) -> Cow<'_, str> {
    if s.contains("-LRB-") || s.contains("-RRB-") {
        Cow::Owned(s.replace("-LRB-", "(").replace("-RRB-", ")"))
    } else {
        Cow::Borrowed(s)
    }
}

impl TigerSentence {
    /// Converts the sentence to a [`Tree`] following the recipe of
    /// `../shared/data/README.md` ("How the bracketed files were made"):
    ///
    /// 1. terminals become POS nodes (label = `pos`), nonterminals phrase
    ///    nodes (label = `cat`); the root is `graph@root` (unless it is a
    ///    `…_VROOT` that is not a node), or else the only parentless
    ///    nonterminal, or else a virtual `VROOT` over all of them;
    /// 2. bottom-up (post-order), each non-root nonterminal whose words are not
    ///    contiguous keeps the longest run of children (sorted by leftmost word)
    ///    whose words are contiguous — the leftmost such run on a tie — and its
    ///    other children are raised to its parent; its yield has changed;
    /// 3. terminals unreachable from the root are attached to the root (this
    ///    does not count as a yield change) and unreachable nonterminals are
    ///    dropped; a terminal root gives a one-node tree;
    /// 4. children are ordered by their leftmost word and the tree is built
    ///    in pre-order.
    ///
    /// `file` names the TigerXML file in errors. Cost: O(n log n) in the
    /// sentence's nodes plus the moves of raised children (see the module
    /// documentation); no recursion.
    pub fn to_tree(&self, file: &str) -> Result<ConvertedSentence, TigerError> {
        convert(self, file)
    }
}

fn convert(s: &TigerSentence, file: &str) -> Result<ConvertedSentence, TigerError> {
    let nt = s.terminals.len();
    let total = nt + s.nonterminals.len();
    // Node k: terminals 0..nt, nonterminals nt..total, a virtual root at total.
    let mut ids: Vec<&str> = s.terminals.iter().map(|t| t.id.as_str()).collect();
    ids.extend(s.nonterminals.iter().map(|n| n.id.as_str()));
    let mut labels: Vec<&str> = s.terminals.iter().map(|t| t.pos.as_str()).collect();
    labels.extend(s.nonterminals.iter().map(|n| n.cat.as_str()));
    let locs: Vec<Loc> = s.terminals.iter().map(|t| t.loc).chain(s.nonterminals.iter().map(|n| n.loc)).collect();
    let err = |loc: Loc, kind: TigerErrorKind| TigerError::at(file, loc, kind);

    let mut index: HashMap<&str, usize> = HashMap::with_capacity(total);
    for (k, &id) in ids.iter().enumerate() {
        if let Some(&first) = index.get(id) {
            return Err(err(locs[k], dup(id, locs[first])));
        }
        index.insert(id, k);
    }
    let mut virtual_id = format!("{}_VROOT", s.id);
    while index.contains_key(virtual_id.as_str()) {
        virtual_id.push('_');
    }
    ids.push(&virtual_id);
    labels.push("VROOT");

    let mut parent: Vec<Option<usize>> = vec![None; total + 1];
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); total + 1];
    for (j, n) in s.nonterminals.iter().enumerate() {
        let me = nt + j;
        for e in &n.edges {
            let Some(&c) = index.get(e.idref.as_str()) else {
                return Err(err(
                    e.loc,
                    TigerErrorKind::DanglingIdref {
                        node: n.id.clone(),
                        idref: e.idref.clone(),
                        sentence: s.id.clone(),
                    },
                ));
            };
            if let Some(p) = parent[c] {
                return Err(err(
                    e.loc,
                    TigerErrorKind::TwoParents { node: e.idref.clone(), first: ids[p].into(), second: n.id.clone() },
                ));
            }
            parent[c] = Some(me);
            kids[me].push(c);
        }
    }

    // Cycles: walk up from every nonterminal; 1 = on the current path, 2 = leads to a top node.
    let mut state = vec![0u8; total];
    for start in nt..total {
        let mut path = Vec::new();
        let mut cur = start;
        loop {
            match state[cur] {
                0 => {
                    state[cur] = 1;
                    path.push(cur);
                    match parent[cur] {
                        Some(p) => cur = p,
                        None => break,
                    }
                }
                1 => {
                    // `cur` is on the path: the cycle is cur -> ... -> cur.
                    let from = path.iter().position(|&x| x == cur).unwrap_or(0);
                    // Upwards (child, parent, ...) back to `cur`, then reversed: each contains the next.
                    let mut names: Vec<&str> = path[from..].iter().map(|&x| ids[x]).collect();
                    names.push(ids[cur]);
                    names.reverse();
                    return Err(err(locs[cur], TigerErrorKind::Cycle { path: names.join(" → ") }));
                }
                _ => break,
            }
        }
        for x in path {
            state[x] = 2;
        }
    }

    let mut changes = Vec::new();
    let name =
        |k: usize, ids: &[&str], labels: &[&str]| NodeName { id: ids[k].to_string(), label: labels[k].to_string() };

    // The root.
    // A graph root `…_VROOT` that is not a node names the virtual root of
    // the TreeAligner: treat it as no root given.
    let given_root = s.root.as_ref().filter(|r| index.contains_key(r.as_str()) || !r.ends_with("_VROOT"));
    let root = match given_root {
        Some(r) => {
            let Some(&k) = index.get(r.as_str()) else {
                return Err(err(s.graph_loc, TigerErrorKind::DanglingRoot { root: r.clone(), sentence: s.id.clone() }));
            };
            if let Some(p) = parent[k] {
                return Err(err(s.graph_loc, TigerErrorKind::RootHasParent { root: r.clone(), parent: ids[p].into() }));
            }
            k
        }
        None => {
            let tops: Vec<usize> = (nt..total).filter(|&k| parent[k].is_none()).collect();
            match tops.len() {
                1 => tops[0],
                0 if nt == 1 => 0,
                0 if nt == 0 => return Err(err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() })),
                _ => {
                    for &t in &tops {
                        parent[t] = Some(total);
                        kids[total].push(t);
                    }
                    changes.push(Change::VirtualRoot {
                        sentence: s.id.clone(),
                        root: virtual_id.clone(),
                        children: tops.iter().map(|&t| name(t, &ids, &labels)).collect(),
                    });
                    total
                }
            }
        }
    };

    // Reachability and post-order, iteratively.
    let mut reach = vec![false; total + 1];
    let mut post = Vec::new();
    let mut stack = vec![(root, false)];
    while let Some((n, expanded)) = stack.pop() {
        if expanded {
            post.push(n);
            continue;
        }
        if reach[n] {
            continue;
        }
        reach[n] = true;
        stack.push((n, true));
        stack.extend(kids[n].iter().rev().map(|&c| (c, false)));
    }

    // Word span of each node: leftmost, rightmost, number of words.
    let mut lo = vec![usize::MAX; total + 1];
    let mut hi = vec![0usize; total + 1];
    let mut count = vec![0usize; total + 1];
    for k in 0..nt {
        (lo[k], hi[k], count[k]) = (k, k, 1);
    }
    let mut changed = vec![false; total + 1];
    for &n in &post {
        if n < nt || n == root {
            continue;
        }
        let mut ch: Vec<usize> = kids[n].iter().copied().filter(|&c| count[c] > 0).collect();
        if ch.is_empty() {
            kids[n].clear();
            changes.push(Change::DroppedEmpty { sentence: s.id.clone(), node: name(n, &ids, &labels) });
            continue;
        }
        ch.sort_by_key(|&c| lo[c]);
        // Runs of children whose words follow each other; keep the longest (leftmost on a tie).
        let (mut best, mut run_start) = ((0, 0), 0);
        for k in 1..=ch.len() {
            if k == ch.len() || lo[ch[k]] != hi[ch[k - 1]] + 1 {
                if k - run_start > best.1 - best.0 {
                    best = (run_start, k);
                }
                run_start = k;
            }
        }
        if best.1 - best.0 < ch.len() {
            let p = parent[n].unwrap_or(root);
            let raised: Vec<usize> = ch[..best.0].iter().chain(&ch[best.1..]).copied().collect();
            for &c in &raised {
                parent[c] = Some(p);
                kids[p].push(c);
            }
            changes.push(Change::Raised {
                sentence: s.id.clone(),
                node: name(n, &ids, &labels),
                raised: raised.iter().map(|&c| name(c, &ids, &labels)).collect(),
                to: name(p, &ids, &labels),
            });
            changed[n] = true;
            ch = ch[best.0..best.1].to_vec();
        }
        lo[n] = ch.first().map_or(usize::MAX, |&c| lo[c]);
        hi[n] = ch.last().map_or(0, |&c| hi[c]);
        count[n] = ch.iter().map(|&c| count[c]).sum();
        kids[n] = ch;
    }

    let unreachable_nts: Vec<usize> = (nt..total).filter(|&k| !reach[k]).collect();
    if !unreachable_nts.is_empty() {
        changes.push(Change::DroppedUnreachable {
            sentence: s.id.clone(),
            nodes: unreachable_nts.iter().map(|&k| name(k, &ids, &labels)).collect(),
        });
    }
    if root < nt {
        let others: Vec<usize> = (0..nt).filter(|&k| k != root).collect();
        if !others.is_empty() {
            changes.push(Change::DroppedTerminals {
                sentence: s.id.clone(),
                root: name(root, &ids, &labels),
                terminals: others.iter().map(|&k| name(k, &ids, &labels)).collect(),
            });
        }
    } else {
        let stray: Vec<usize> = (0..nt).filter(|&k| !reach[k]).collect();
        if !stray.is_empty() {
            changes.push(Change::Reattached {
                sentence: s.id.clone(),
                terminals: stray.iter().map(|&k| name(k, &ids, &labels)).collect(),
                root: name(root, &ids, &labels),
            });
        }
        let mut ch: Vec<usize> = kids[root].iter().copied().filter(|&c| count[c] > 0).chain(stray).collect();
        if ch.is_empty() {
            return Err(err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() }));
        }
        ch.sort_by_key(|&c| lo[c]);
        kids[root] = ch;
    }

    // Build the tree in pre-order.
    enum Walk {
        Open(usize),
        Close,
    }
    let mut b = TreeBuilder::new();
    let mut node_ids = Vec::new();
    let mut pre = vec![usize::MAX; total + 1];
    let mut walk = vec![Walk::Open(root)];
    while let Some(step) = walk.pop() {
        match step {
            Walk::Open(n) if n < nt => {
                let t = &s.terminals[n];
                pre[n] = b.pos(to_token(&t.pos), to_token(&t.word));
                node_ids.push(ids[n].to_string());
            }
            Walk::Open(n) => {
                pre[n] = b.open_phrase(to_token(labels[n]));
                node_ids.push(ids[n].to_string());
                walk.push(Walk::Close);
                walk.extend(kids[n].iter().rev().map(|&c| Walk::Open(c)));
            }
            Walk::Close => {
                b.close();
            }
        }
    }
    let tree = b.finish().ok_or_else(|| err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() }))?;
    let mut yield_changed: Vec<NodeId> =
        (0..=total).filter(|&k| changed[k] && pre[k] != usize::MAX).map(|k| pre[k]).collect();
    yield_changed.sort_unstable();
    let index = node_ids.iter().enumerate().map(|(k, id)| (id.clone(), k)).collect();
    Ok(ConvertedSentence { tree, node_ids, yield_changed, changes, index })
}

// ---------------------------------------------------------------------------
// Stockholm TreeAligner XML
// ---------------------------------------------------------------------------

/// `<treebank id language filename/>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaTreebank {
    pub id: String,
    pub language: Option<String>,
    pub filename: Option<String>,
    pub loc: Loc,
}

/// What an alignment element says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaKind {
    /// `<sen-align>`: the sentences are translations of each other.
    Sentence,
    /// `<align type="good">`.
    Good,
    /// `<align type="fuzzy">`.
    Fuzzy,
    /// `<align>` of another type (e.g. `weak`); imported as fuzzy.
    Other(String),
}

/// `<node treebank_id node_id/>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaNode {
    pub treebank: String,
    pub node: String,
    pub loc: Loc,
}

/// One `<sen-align>` or `<align>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaAlign {
    pub kind: StaKind,
    pub nodes: Vec<StaNode>,
    pub loc: Loc,
}

/// An STA alignment file: its treebanks and its alignments in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaAlignment {
    pub treebanks: Vec<StaTreebank>,
    pub alignments: Vec<StaAlign>,
    /// Where `<treebanks>` (or else the document) starts.
    pub loc: Loc,
}

/// Reads a Stockholm TreeAligner alignment file: `<treebanks><treebank id
/// language filename/>`, `<sen-align>` sentence links (node ids such as
/// `s2939_VROOT`), `<align type="good|fuzzy">` node links, each with
/// `<node treebank_id node_id/>` children. `<to-empty>` and the rest of
/// `<head>` are ignored. Nodes must name a declared treebank. Cost: O(input length).
pub fn parse_sta(text: &str, file: &str) -> Result<StaAlignment, TigerError> {
    let mut xml = XmlStream::new(text, file);
    let mut sta = StaAlignment { loc: Loc { line: 1, column: 1 }, ..Default::default() };
    let mut current: Option<StaAlign> = None;
    let mut treebank_locs: HashMap<String, Loc> = HashMap::new();
    let mut seen_document = false;
    loop {
        match xml.next()? {
            Step::End => break,
            Step::Open(start, loc) => {
                let el = Element::new(&start, loc, file)?;
                let name = start.local_name();
                if !seen_document {
                    seen_document = true;
                    sta.loc = loc;
                    if name.as_ref() != b"treealign" {
                        return Err(el.error(TigerErrorKind::WrongDocument {
                            expected: "a Stockholm TreeAligner <treealign>",
                            found: name_of(&start),
                        }));
                    }
                    continue;
                }
                match name.as_ref() {
                    b"treebanks" => sta.loc = loc,
                    b"treebank" => {
                        let id = el.required("treebank", "id")?;
                        if let Some(&first) = treebank_locs.get(&id) {
                            return Err(el.error(dup(&id, first)));
                        }
                        treebank_locs.insert(id.clone(), loc);
                        sta.treebanks.push(StaTreebank {
                            id,
                            language: el.attr("language")?,
                            filename: el.attr("filename")?,
                            loc,
                        });
                    }
                    b"sen-align" => current = Some(StaAlign { kind: StaKind::Sentence, nodes: Vec::new(), loc }),
                    b"align" => {
                        let kind = match el.required("align", "type")?.as_str() {
                            "good" => StaKind::Good,
                            "fuzzy" => StaKind::Fuzzy,
                            other => StaKind::Other(other.to_string()),
                        };
                        current = Some(StaAlign { kind, nodes: Vec::new(), loc });
                    }
                    b"node" => {
                        let Some(a) = current.as_mut() else {
                            return Err(el.error(TigerErrorKind::Misplaced { element: "node", parent: "align" }));
                        };
                        let treebank = el.required("node", "treebank_id")?;
                        let node = el.required("node", "node_id")?;
                        if !treebank_locs.contains_key(&treebank) {
                            return Err(el.error(TigerErrorKind::UnknownTreebank { treebank }));
                        }
                        a.nodes.push(StaNode { treebank, node, loc });
                    }
                    _ => {}
                }
            }
            Step::Close(name) => {
                if matches!(name.as_slice(), b"sen-align" | b"align") {
                    if let Some(a) = current.take() {
                        sta.alignments.push(a);
                    }
                }
            }
        }
    }
    if !seen_document {
        let loc = xml.lines.at(text.len() as u64);
        return Err(TigerError::at(
            file,
            loc,
            TigerErrorKind::WrongDocument {
                expected: "a Stockholm TreeAligner <treealign>",
                found: "no element".into(),
            },
        ));
    }
    Ok(sta)
}

// ---------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------

/// Options of [`import_pair`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    /// Keep only links between two phrase nodes (Tiger nonterminals), as the
    /// bracketed gold files do. With `false`, links touching POS nodes
    /// (Tiger terminals, mostly word alignments) are kept too. Default: `true`.
    pub phrase_only: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions { phrase_only: true }
    }
}

/// The Tiger ids of one converted sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceIds {
    /// The sentence id (`s@id`).
    pub sentence: String,
    /// The Tiger id of every node, indexed by pre-order [`NodeId`].
    pub nodes: Vec<String>,
}

/// The Tiger ids of one sentence pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairIds {
    pub source: SentenceIds,
    pub target: SentenceIds,
}

impl PairIds {
    /// Ids for a corpus that has none (e.g. read from bracketed files): pair
    /// `k` (1-based) gets sentence id `s{k}` on both sides, its words the ids
    /// `s{k}_1`, `s{k}_2`, … in word order, and its phrase nodes `s{k}_500`,
    /// `s{k}_501`, … in pre-order (numbered from the number of words + 1 if
    /// that is above 500), as in the SQUOIA files.
    pub fn synthesize(corpus: &Corpus) -> Vec<PairIds> {
        corpus
            .pairs
            .iter()
            .enumerate()
            .map(|(k, p)| PairIds {
                source: synthesize_ids(&p.source, k + 1),
                target: synthesize_ids(&p.target, k + 1),
            })
            .collect()
    }
}

fn synthesize_ids(tree: &Tree, k: usize) -> SentenceIds {
    let sentence = format!("s{k}");
    let (mut word, mut phrase) = (0, tree.words().len().max(499));
    let nodes = (0..tree.len())
        .map(|n| {
            if tree.is_pos(n) {
                word += 1;
                format!("{sentence}_{word}")
            } else {
                phrase += 1;
                format!("{sentence}_{phrase}")
            }
        })
        .collect();
    SentenceIds { sentence, nodes }
}

/// Which side of the pair a node is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Source,
    Target,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Source => "source",
            Side::Target => "target",
        })
    }
}

/// Why an STA node link is not in the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropReason {
    /// A linked node's yield changed when its constituent was made continuous.
    YieldChanged { sides: Vec<Side> },
    /// The two sentences are not an imported 1:1 pair.
    NotInPair,
    /// A linked node is not in the converted tree (unreachable or empty).
    NodeNotInTree { side: Side },
    /// The link names the virtual root `…_VROOT`, which is not a node.
    VirtualRoot,
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DropReason::YieldChanged { sides } => {
                let s: Vec<String> = sides.iter().map(Side::to_string).collect();
                write!(f, "the yield of the {} node changed", s.join(" and "))
            }
            DropReason::NotInPair => f.write_str("its sentences are not a 1:1 sentence pair"),
            DropReason::NodeNotInTree { side } => write!(f, "the {side} node is not in the converted tree"),
            DropReason::VirtualRoot => f.write_str("it names a virtual root, which is not a node"),
        }
    }
}

/// An STA node link left out of the corpus, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedLink {
    pub source_node: String,
    pub target_node: String,
    pub kind: LinkKind,
    pub reason: DropReason,
    /// Where the `<align>` is in the STA file.
    pub loc: Loc,
}

impl fmt::Display for DroppedLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.kind == LinkKind::Good { "good" } else { "fuzzy" };
        write!(f, "dropped {kind} link {} – {}: {}", self.source_node, self.target_node, self.reason)
    }
}

/// A sentence link that is not 1:1, so neither sentence was imported through it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedSentenceLink {
    pub source: String,
    pub target: String,
    /// How many target sentences the source sentence is linked to.
    pub source_links: usize,
    /// How many source sentences the target sentence is linked to.
    pub target_links: usize,
}

impl fmt::Display for SkippedSentenceLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sentences {} – {} not imported: {} is linked to {} target sentence(s) and {} to {} source sentence(s) (only 1:1 pairs are imported)",
            self.source, self.target, self.source, self.source_links, self.target, self.target_links
        )
    }
}

/// Everything [`import_pair`] changed or left out, with counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// The STA file's name, for locating dropped links.
    pub sta_file: String,
    pub source_sentences: usize,
    pub target_sentences: usize,
    pub pairs: usize,
    /// Sentence links that were not 1:1.
    pub skipped_sentence_links: Vec<SkippedSentenceLink>,
    /// Sentences of the treebanks that no alignment mentions.
    pub unaligned_source: usize,
    pub unaligned_target: usize,
    /// What converting the paired sentences changed.
    pub changes: Vec<Change>,
    /// Paired sentences with at least one change, and nodes whose yield changed.
    pub changed_sentences: usize,
    pub changed_nodes: usize,
    /// `<align>` elements in the STA file.
    pub sta_links: usize,
    /// Links in the corpus.
    pub kept_links: usize,
    /// Links touching a POS node, left out because of `phrase_only`.
    pub skipped_pos_links: usize,
    /// Links left out for another reason.
    pub dropped_links: Vec<DroppedLink>,
    /// Link types other than good / fuzzy, imported as fuzzy, with counts.
    pub retyped: BTreeMap<String, usize>,
    /// Other remarks (e.g. how the treebanks were matched to the files).
    pub notes: Vec<String>,
}

impl ImportReport {
    /// Number of dropped links with a yield-changed reason.
    pub fn dropped_for_yield(&self) -> usize {
        self.dropped_links.iter().filter(|d| matches!(d.reason, DropReason::YieldChanged { .. })).count()
    }

    /// Dropped links per reason: (yield changed, not in a pair, node not in the tree, virtual root).
    pub fn dropped_by_reason(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for d in &self.dropped_links {
            n[match d.reason {
                DropReason::YieldChanged { .. } => 0,
                DropReason::NotInPair => 1,
                DropReason::NodeNotInTree { .. } => 2,
                DropReason::VirtualRoot => 3,
            }] += 1;
        }
        n
    }

    /// A few lines of counts.
    pub fn summary(&self) -> Vec<String> {
        let [yields, not_paired, not_in_tree, virtual_root] = self.dropped_by_reason();
        let mut out = vec![
            format!(
                "{} sentence pairs imported ({} source, {} target sentences; {} sentence links not 1:1; {} source and {} target sentences unaligned)",
                self.pairs,
                self.source_sentences,
                self.target_sentences,
                self.skipped_sentence_links.len(),
                self.unaligned_source,
                self.unaligned_target
            ),
            format!(
                "{} changes in {} paired sentences; {} nodes changed their yield",
                self.changes.len(),
                self.changed_sentences,
                self.changed_nodes
            ),
            format!(
                "{} of {} links kept; {} POS links left out (phrase links only); {} dropped: {yields} because a yield changed, \
                 {not_paired} outside the 1:1 pairs, {not_in_tree} naming a node not in the tree, {virtual_root} naming a virtual root",
                self.kept_links,
                self.sta_links,
                self.skipped_pos_links,
                self.dropped_links.len(),
            ),
        ];
        for (t, n) in &self.retyped {
            out.push(format!("{n} links of type '{t}' imported as fuzzy"));
        }
        out.extend(self.notes.iter().cloned());
        out
    }

    /// The summary, then every change, skipped sentence link and dropped link.
    pub fn lines(&self) -> Vec<String> {
        let mut out = self.summary();
        out.extend(self.changes.iter().map(Change::to_string));
        out.extend(self.skipped_sentence_links.iter().map(SkippedSentenceLink::to_string));
        out.extend(self.dropped_links.iter().map(|d| format!("{}:{}: {d}", self.sta_file, d.loc)));
        out
    }
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in self.lines() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// The result of [`import_pair`].
#[derive(Debug, Clone, PartialEq)]
pub struct TigerImport {
    pub corpus: Corpus,
    /// The Tiger ids of each pair (sentence ids and node ids per pre-order node).
    pub ids: Vec<PairIds>,
    pub report: ImportReport,
}

fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// A node of an alignment resolved against a treebank.
enum Resolved {
    /// A real node: sentence index and node id.
    Node(usize),
    /// `…_VROOT` or a sentence id: the sentence as a whole.
    Sentence(usize),
}

fn resolve(corpus: &TigerCorpus, node: &str) -> Option<Resolved> {
    if let Some(k) = corpus.sentence_of_node(node) {
        return Some(Resolved::Node(k));
    }
    let sentence = node.strip_suffix("_VROOT").unwrap_or(node);
    corpus.sentence_position(sentence).map(Resolved::Sentence)
}

/// Imports a TigerXML treebank pair with its STA alignment: `source` and
/// `target` are the TigerXML files, `sta` the alignment; the names are used
/// to match the STA `<treebank filename>`s (by base name; if they do not
/// match, by which treebank's node ids are in which file) and in errors.
///
/// Sentence pairs: every `<sen-align>` and every `<align>` links a source
/// sentence to a target sentence; the pairs are the links whose source and
/// target sentences are linked to nothing else (1:1), in the order of their
/// first link in the STA file — this reproduces the `.ids` files of the
/// bracketed data. Each paired sentence is converted with
/// [`TigerSentence::to_tree`]; each `<align>` between the two sentences of a
/// pair becomes a gold link in STA file order (duplicates kept), unless it
/// touches a POS node and `options.phrase_only`, or touches a node whose
/// yield changed or that is not in the tree (dropped and reported).
///
/// Errors: anything [`parse_tiger`] or [`parse_sta`] refuses, an alignment
/// node that is in neither treebank, an alignment element without exactly
/// one node of each treebank, and the conversion errors of paired sentences.
pub fn import_pair(
    source: Named<'_>,
    target: Named<'_>,
    sta: Named<'_>,
    options: ImportOptions,
) -> Result<TigerImport, TigerError> {
    let src = parse_tiger(source.text, source.name)?;
    let trg = parse_tiger(target.text, target.name)?;
    let alignment = parse_sta(sta.text, sta.name)?;
    import_parsed(source.name, &src, target.name, &trg, sta.name, &alignment, options)
}

/// [`import_pair`] on already parsed files (`*_file` name them in errors).
pub fn import_parsed(
    source_file: &str,
    src: &TigerCorpus,
    target_file: &str,
    trg: &TigerCorpus,
    sta_file: &str,
    sta: &StaAlignment,
    options: ImportOptions,
) -> Result<TigerImport, TigerError> {
    let mut report = ImportReport {
        sta_file: sta_file.to_string(),
        source_sentences: src.len(),
        target_sentences: trg.len(),
        ..Default::default()
    };
    let (src_tb, trg_tb) = match_treebanks(source_file, src, target_file, trg, sta_file, sta, &mut report)?;

    // Resolve every alignment to (source, target) nodes.
    struct Resolved2<'s> {
        align: &'s StaAlign,
        src_node: &'s str,
        trg_node: &'s str,
        src_sentence: usize,
        trg_sentence: usize,
        virtual_node: bool,
    }
    let mut resolved = Vec::with_capacity(sta.alignments.len());
    for a in &sta.alignments {
        let element = if a.kind == StaKind::Sentence { "sen-align" } else { "align" };
        let pick = |tb: &str| -> Result<&StaNode, TigerError> {
            let mut nodes = a.nodes.iter().filter(|n| n.treebank == tb);
            match (nodes.next(), nodes.next()) {
                (Some(n), None) => Ok(n),
                _ => Err(TigerError::at(
                    sta_file,
                    a.loc,
                    TigerErrorKind::NodesPerTreebank {
                        element,
                        treebank: tb.to_string(),
                        found: a.nodes.iter().filter(|n| n.treebank == tb).count(),
                    },
                )),
            }
        };
        let (sn, tn) = (pick(src_tb)?, pick(trg_tb)?);
        let unknown = |n: &StaNode, file: &str| {
            TigerError::at(
                sta_file,
                n.loc,
                TigerErrorKind::UnknownNode { element, node: n.node.clone(), file: basename(file).to_string() },
            )
        };
        let rs = resolve(src, &sn.node).ok_or_else(|| unknown(sn, source_file))?;
        let rt = resolve(trg, &tn.node).ok_or_else(|| unknown(tn, target_file))?;
        let virtual_node =
            a.kind != StaKind::Sentence && (matches!(rs, Resolved::Sentence(_)) || matches!(rt, Resolved::Sentence(_)));
        let sentence = |r: Resolved| match r {
            Resolved::Node(k) | Resolved::Sentence(k) => k,
        };
        resolved.push(Resolved2 {
            align: a,
            src_node: &sn.node,
            trg_node: &tn.node,
            src_sentence: sentence(rs),
            trg_sentence: sentence(rt),
            virtual_node,
        });
    }

    // Sentence links and 1:1 pairs, in order of first appearance.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut src_links = vec![0usize; src.len()];
    let mut trg_links = vec![0usize; trg.len()];
    for r in &resolved {
        let e = (r.src_sentence, r.trg_sentence);
        if seen.insert(e) {
            edges.push(e);
            src_links[e.0] += 1;
            trg_links[e.1] += 1;
        }
    }
    report.unaligned_source = src_links.iter().filter(|&&n| n == 0).count();
    report.unaligned_target = trg_links.iter().filter(|&&n| n == 0).count();
    let mut pair_of_source: Vec<Option<usize>> = vec![None; src.len()];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in &edges {
        if src_links[a] == 1 && trg_links[b] == 1 {
            pair_of_source[a] = Some(pairs.len());
            pairs.push((a, b));
        } else {
            report.skipped_sentence_links.push(SkippedSentenceLink {
                source: src.sentences[a].id.clone(),
                target: trg.sentences[b].id.clone(),
                source_links: src_links[a],
                target_links: trg_links[b],
            });
        }
    }

    // Convert the paired sentences.
    let mut converted = Vec::with_capacity(pairs.len());
    for &(a, b) in &pairs {
        let cs = src.sentences[a].to_tree(source_file)?;
        let ct = trg.sentences[b].to_tree(target_file)?;
        for c in [&cs, &ct] {
            if !c.changes.is_empty() {
                report.changed_sentences += 1;
            }
            report.changed_nodes += c.yield_changed.len();
            report.changes.extend(c.changes.iter().cloned());
        }
        converted.push((cs, ct));
    }

    // Links.
    let mut gold: Vec<Vec<Link>> = vec![Vec::new(); pairs.len()];
    for r in &resolved {
        let kind = match &r.align.kind {
            StaKind::Sentence => continue,
            StaKind::Good => LinkKind::Good,
            StaKind::Fuzzy => LinkKind::Fuzzy,
            StaKind::Other(t) => {
                *report.retyped.entry(t.clone()).or_insert(0) += 1;
                LinkKind::Fuzzy
            }
        };
        report.sta_links += 1;
        let drop = |reason| DroppedLink {
            source_node: r.src_node.to_string(),
            target_node: r.trg_node.to_string(),
            kind,
            reason,
            loc: r.align.loc,
        };
        let pair = pair_of_source[r.src_sentence].filter(|&p| pairs[p].1 == r.trg_sentence);
        let Some(p) = pair else {
            report.dropped_links.push(drop(DropReason::NotInPair));
            continue;
        };
        if r.virtual_node {
            report.dropped_links.push(drop(DropReason::VirtualRoot));
            continue;
        }
        let (cs, ct) = &converted[p];
        let (Some(i), Some(j)) = (cs.node(r.src_node), ct.node(r.trg_node)) else {
            let side = if cs.node(r.src_node).is_none() { Side::Source } else { Side::Target };
            report.dropped_links.push(drop(DropReason::NodeNotInTree { side }));
            continue;
        };
        if options.phrase_only && (cs.tree.is_pos(i) || ct.tree.is_pos(j)) {
            report.skipped_pos_links += 1;
            continue;
        }
        let mut sides = Vec::new();
        if cs.changed(i) {
            sides.push(Side::Source);
        }
        if ct.changed(j) {
            sides.push(Side::Target);
        }
        if !sides.is_empty() {
            report.dropped_links.push(drop(DropReason::YieldChanged { sides }));
            continue;
        }
        gold[p].push(Link { source: i, target: j, kind });
        report.kept_links += 1;
    }

    report.pairs = pairs.len();
    let mut corpus = Corpus::default();
    let mut ids = Vec::with_capacity(pairs.len());
    for (((a, b), (cs, ct)), gold) in pairs.iter().zip(converted).zip(gold) {
        ids.push(PairIds {
            source: SentenceIds { sentence: src.sentences[*a].id.clone(), nodes: cs.node_ids },
            target: SentenceIds { sentence: trg.sentences[*b].id.clone(), nodes: ct.node_ids },
        });
        corpus.pairs.push(TreePair { source: cs.tree, target: ct.tree, gold });
    }
    Ok(TigerImport { corpus, ids, report })
}

/// Which STA treebank id is the source and which the target.
fn match_treebanks<'s>(
    source_file: &str,
    src: &TigerCorpus,
    target_file: &str,
    trg: &TigerCorpus,
    sta_file: &str,
    sta: &'s StaAlignment,
    report: &mut ImportReport,
) -> Result<(&'s str, &'s str), TigerError> {
    if sta.treebanks.len() != 2 {
        return Err(TigerError::at(sta_file, sta.loc, TigerErrorKind::TreebankCount { found: sta.treebanks.len() }));
    }
    let (t0, t1) = (&sta.treebanks[0], &sta.treebanks[1]);
    let named = |t: &StaTreebank, file: &str| t.filename.as_deref().is_some_and(|f| basename(f) == basename(file));
    if named(t0, source_file) && named(t1, target_file) && !named(t0, target_file) {
        return Ok((&t0.id, &t1.id));
    }
    if named(t1, source_file) && named(t0, target_file) && !named(t1, target_file) {
        return Ok((&t1.id, &t0.id));
    }
    // Fall back on the node ids: count the nodes each order resolves.
    let score = |s: &str, t: &str| {
        sta.alignments
            .iter()
            .flat_map(|a| &a.nodes)
            .filter(|n| {
                (n.treebank == s && resolve(src, &n.node).is_some())
                    || (n.treebank == t && resolve(trg, &n.node).is_some())
            })
            .count()
    };
    let (forward, backward) = (score(&t0.id, &t1.id), score(&t1.id, &t0.id));
    let chosen = if forward >= backward && forward > 0 {
        (t0.id.as_str(), t1.id.as_str())
    } else if backward > forward {
        (t1.id.as_str(), t0.id.as_str())
    } else {
        let describe = |t: &StaTreebank| format!("{} = {}", t.id, t.filename.as_deref().unwrap_or("?"));
        return Err(TigerError::at(
            sta_file,
            sta.loc,
            TigerErrorKind::TreebanksDoNotMatch {
                treebanks: format!("{}, {}", describe(t0), describe(t1)),
                source_file: basename(source_file).to_string(),
                target_file: basename(target_file).to_string(),
            },
        ));
    };
    report.notes.push(format!(
        "the alignment's treebank file names do not name {} and {}: matched treebank '{}' to the source and '{}' to the target by their node ids",
        basename(source_file),
        basename(target_file),
        chosen.0,
        chosen.1
    ));
    Ok(chosen)
}

// ---------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------

/// Why a corpus could not be exported (the ids do not fit the trees).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("expected ids for {expected} sentence pairs, found {found}")]
    PairCount { expected: usize, found: usize },
    #[error("sentence {sentence}: expected {expected} node ids (one per node), found {found}")]
    NodeCount { sentence: String, expected: usize, found: usize },
    #[error("id '{id}' is used twice in one treebank; expected unique ids")]
    DuplicateId { id: String },
    #[error("pair {pair}: link {link} names a node outside the trees")]
    LinkOutOfRange { pair: usize, link: String },
    #[error("expected two different treebank ids, found '{id}' twice")]
    SameTreebank { id: String },
}

/// How an exported treebank is named in the STA file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreebankName {
    /// The `treebank_id` used by the alignment's nodes.
    pub id: String,
    pub language: String,
    /// The TigerXML file name (what the importer matches the files by).
    pub filename: String,
}

impl TreebankName {
    pub fn new(id: &str, language: &str, filename: &str) -> Self {
        TreebankName { id: id.into(), language: language.into(), filename: filename.into() }
    }
}

/// The three files of an export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TigerExport {
    pub source_tiger: String,
    pub target_tiger: String,
    pub sta: String,
}

fn esc(s: &str) -> Cow<'_, str> {
    quick_xml::escape::escape(s)
}

/// Writes trees as a TigerXML corpus with id `corpus_id`. Each tree comes with
/// its ids (sentence id and one id per pre-order node, e.g. from
/// [`TigerImport::ids`] or [`PairIds::synthesize`]). Terminals are written in
/// word order, nonterminals in pre-order with edges labelled `--`; `-LRB-` /
/// `-RRB-` become `(` / `)` again. Reading the result with [`parse_tiger`]
/// and [`TigerSentence::to_tree`] gives the same trees (they are continuous).
pub fn write_tiger<'a>(
    corpus_id: &str,
    sentences: impl IntoIterator<Item = (&'a Tree, &'a SentenceIds)>,
) -> Result<String, ExportError> {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n");
    out.push_str(&format!("<corpus id=\"{}\">\n", esc(corpus_id)));
    out.push_str(
        "<head>\n<annotation>\n<feature name=\"word\" domain=\"T\"/>\n<feature name=\"pos\" domain=\"T\"/>\n\
         <feature name=\"cat\" domain=\"NT\"/>\n<edgelabel>\n<value name=\"--\"/>\n</edgelabel>\n</annotation>\n</head>\n<body>\n",
    );
    let mut used: HashSet<&str> = HashSet::new();
    for (tree, ids) in sentences {
        if ids.nodes.len() != tree.len() {
            return Err(ExportError::NodeCount {
                sentence: ids.sentence.clone(),
                expected: tree.len(),
                found: ids.nodes.len(),
            });
        }
        for id in std::iter::once(&ids.sentence).chain(&ids.nodes) {
            if !used.insert(id) {
                return Err(ExportError::DuplicateId { id: id.clone() });
            }
        }
        out.push_str(&format!(
            "<s id=\"{}\">\n<graph root=\"{}\">\n<terminals>\n",
            esc(&ids.sentence),
            esc(&ids.nodes[0])
        ));
        for n in (0..tree.len()).filter(|&n| tree.is_pos(n)) {
            let word = tree.word_of(n).unwrap_or_default();
            out.push_str(&format!(
                " <t id=\"{}\" word=\"{}\" pos=\"{}\"/>\n",
                esc(&ids.nodes[n]),
                esc(&from_token(word)),
                esc(&from_token(tree.label(n)))
            ));
        }
        out.push_str("</terminals>\n<nonterminals>\n");
        for n in (0..tree.len()).filter(|&n| tree.is_phrase(n)) {
            out.push_str(&format!(" <nt id=\"{}\" cat=\"{}\">\n", esc(&ids.nodes[n]), esc(&from_token(tree.label(n)))));
            for &c in tree.children(n) {
                out.push_str(&format!("  <edge label=\"--\" idref=\"{}\"/>\n", esc(&ids.nodes[c])));
            }
            out.push_str(" </nt>\n");
        }
        out.push_str("</nonterminals>\n</graph>\n</s>\n");
    }
    out.push_str("</body>\n</corpus>\n");
    Ok(out)
}

/// Writes the links of `corpus` as a Stockholm TreeAligner file: per pair a
/// `<sen-align>` of `{sentence}_VROOT` nodes, then an `<align type="good|fuzzy">`
/// per gold link with its nodes' Tiger ids from `ids`. [`import_pair`] reads
/// it back (with the TigerXML of [`write_tiger`]) to the same pairs and links
/// in the same order.
pub fn write_sta(
    corpus: &Corpus,
    ids: &[PairIds],
    source: &TreebankName,
    target: &TreebankName,
) -> Result<String, ExportError> {
    check_ids(corpus, ids)?;
    if source.id == target.id {
        return Err(ExportError::SameTreebank { id: source.id.clone() });
    }
    let mut out = String::new();
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<treealign subversion=\"3\" version=\"2\">\n<head>\n<treebanks>\n",
    );
    for t in [source, target] {
        out.push_str(&format!(
            "<treebank id=\"{}\" language=\"{}\" filename=\"{}\"/>\n",
            esc(&t.id),
            esc(&t.language),
            esc(&t.filename)
        ));
    }
    out.push_str(
        "</treebanks>\n<alignment-features>\n<alignment-feature color=\"#33e533\" name=\"good\">Exact alignment</alignment-feature>\n\
         <alignment-feature color=\"#e53333\" name=\"fuzzy\">Fuzzy alignment</alignment-feature>\n</alignment-features>\n</head>\n<alignments>\n",
    );
    let (sid, tid) = (esc(&source.id), esc(&target.id));
    for (k, (pair, pid)) in corpus.pairs.iter().zip(ids).enumerate() {
        out.push_str(&format!(
            "<sen-align>\n<node treebank_id=\"{sid}\" node_id=\"{}_VROOT\"/>\n<node treebank_id=\"{tid}\" node_id=\"{}_VROOT\"/>\n</sen-align>\n",
            esc(&pid.source.sentence),
            esc(&pid.target.sentence)
        ));
        for link in &pair.gold {
            let (Some(s), Some(t)) = (pid.source.nodes.get(link.source), pid.target.nodes.get(link.target)) else {
                return Err(ExportError::LinkOutOfRange { pair: k + 1, link: link.to_string() });
            };
            let kind = if link.kind == LinkKind::Good { "good" } else { "fuzzy" };
            out.push_str(&format!(
                "<align type=\"{kind}\">\n<node treebank_id=\"{sid}\" node_id=\"{}\"/>\n<node treebank_id=\"{tid}\" node_id=\"{}\"/>\n</align>\n",
                esc(s),
                esc(t)
            ));
        }
    }
    out.push_str("</alignments>\n</treealign>\n");
    Ok(out)
}

fn check_ids(corpus: &Corpus, ids: &[PairIds]) -> Result<(), ExportError> {
    if ids.len() != corpus.len() {
        return Err(ExportError::PairCount { expected: corpus.len(), found: ids.len() });
    }
    for (pair, pid) in corpus.pairs.iter().zip(ids) {
        for (tree, s) in [(&pair.source, &pid.source), (&pair.target, &pid.target)] {
            if s.nodes.len() != tree.len() {
                return Err(ExportError::NodeCount {
                    sentence: s.sentence.clone(),
                    expected: tree.len(),
                    found: s.nodes.len(),
                });
            }
        }
    }
    Ok(())
}

/// Exports a corpus as a TigerXML pair plus an STA file, with `ids` (e.g.
/// [`TigerImport::ids`]) or, if `None`, ids from [`PairIds::synthesize`].
/// `import_pair` on the three texts, named by `source.filename` /
/// `target.filename`, gives back `corpus` (with `phrase_only: false`, or
/// `true` if the corpus has phrase links only).
pub fn export_pair(
    corpus: &Corpus,
    ids: Option<&[PairIds]>,
    source: &TreebankName,
    target: &TreebankName,
) -> Result<TigerExport, ExportError> {
    let synthesized;
    let ids = match ids {
        Some(ids) => ids,
        None => {
            synthesized = PairIds::synthesize(corpus);
            &synthesized
        }
    };
    check_ids(corpus, ids)?;
    let corpus_id = |t: &TreebankName| {
        let base = basename(&t.filename);
        base.rsplit_once('.').map_or(base, |(stem, _)| stem).to_string()
    };
    let source_tiger =
        write_tiger(&corpus_id(source), corpus.pairs.iter().zip(ids).map(|(p, i)| (&p.source, &i.source)))?;
    let target_tiger =
        write_tiger(&corpus_id(target), corpus.pairs.iter().zip(ids).map(|(p, i)| (&p.target, &i.target)))?;
    let sta = write_sta(corpus, ids, source, target)?;
    Ok(TigerExport { source_tiger, target_tiger, sta })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(body: &str) -> String {
        format!("<corpus id=\"c\"><body>\n{body}\n</body></corpus>")
    }

    fn convert_one(body: &str) -> Result<ConvertedSentence, TigerError> {
        let c = parse_tiger(&sentence(body), "c.xml")?;
        c.sentences[0].to_tree("c.xml")
    }

    #[test]
    fn raises_the_shorter_run_and_reports_it() {
        // NP over 1 and 3 is discontinuous (word 2 belongs to S).
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_500"><terminals>
<t id="s1_1" word="a" pos="A"/><t id="s1_2" word="b" pos="B"/><t id="s1_3" word="c" pos="C"/><t id="s1_4" word="d" pos="D"/>
</terminals><nonterminals>
<nt id="s1_500" cat="S"><edge idref="s1_501"/><edge idref="s1_2"/></nt>
<nt id="s1_501" cat="NP"><edge idref="s1_1"/><edge idref="s1_3"/><edge idref="s1_4"/></nt>
</nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(S (A a) (B b) (NP (C c) (D d)))");
        assert_eq!(s.node_ids, ["s1_500", "s1_1", "s1_2", "s1_501", "s1_3", "s1_4"]);
        assert_eq!(s.yield_changed, [3]);
        assert_eq!(s.changes.len(), 1);
        assert_eq!(
            s.changes[0].to_string(),
            "s1: s1_501 (NP) was discontinuous: raised s1_1 (A) to s1_500 (S); the yield of s1_501 changed"
        );
    }

    #[test]
    fn virtual_root_and_terminal_root() {
        let s = convert_one(
            r#"<s id="s1"><graph><terminals><t id="s1_1" word="x" pos="X"/><t id="s1_2" word="(" pos="$("/></terminals>
<nonterminals><nt id="s1_500" cat="A"><edge idref="s1_1"/></nt><nt id="s1_501" cat="B"><edge idref="s1_2"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(VROOT (A (X x)) (B ($-LRB- -LRB-)))");
        assert_eq!(s.node_ids[0], "s1_VROOT");
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_1"><terminals><t id="s1_1" word="x" pos="X"/><t id="s1_2" word="." pos="$."/></terminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(X x)");
        assert!(matches!(s.changes[0], Change::DroppedTerminals { .. }));
    }

    #[test]
    fn vroot_node_or_virtual_vroot() {
        // TIGER-corpus style: a real VROOT node holding the sentence and its punctuation.
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_VROOT"><terminals><t id="s1_1" word="Ja" pos="PTKANT"/><t id="s1_2" word="." pos="$."/></terminals>
<nonterminals><nt id="s1_500" cat="S"><edge idref="s1_1"/></nt>
<nt id="s1_VROOT" cat="VROOT"><edge idref="s1_500"/><edge label="--" idref="s1_2"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(VROOT (S (PTKANT Ja)) ($. .))");
        assert!(s.changes.is_empty());
        // A graph root naming a VROOT that is not a node: the only top node is the root.
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_VROOT"><terminals><t id="s1_1" word="Ja" pos="PTKANT"/><t id="s1_2" word="." pos="$."/></terminals>
<nonterminals><nt id="s1_500" cat="S"><edge idref="s1_1"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(S (PTKANT Ja) ($. .))");
        assert!(matches!(s.changes[..], [Change::Reattached { .. }]));
    }

    #[test]
    fn located_errors() {
        let e = convert_one(
            r#"<s id="s1"><graph root="s1_500"><terminals><t id="s1_1" word="x" pos="X"/></terminals>
<nonterminals><nt id="s1_500" cat="A"><edge idref="s1_9"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "c.xml:3:39: edge of s1_500 names node s1_9, which is not in sentence s1");
        let e = parse_tiger("<corpus><s id=\"a\"></corpus>", "x.xml").unwrap_err();
        assert_eq!((e.line, e.file.as_str()), (1, "x.xml"));
        assert!(matches!(e.kind, TigerErrorKind::Xml { .. }), "{e}");
        let e = parse_tiger("<corpus><s id=\"a\">", "x.xml").unwrap_err();
        assert!(matches!(e.kind, TigerErrorKind::Unclosed { .. }), "{e}");
        let e = parse_sta("<corpus/>", "a.xml").unwrap_err();
        assert!(matches!(e.kind, TigerErrorKind::WrongDocument { .. }), "{e}");
    }

    #[test]
    fn lines_count_characters() {
        let mut l = Lines::new("äb\ncd");
        assert_eq!(l.at(2), Loc { line: 1, column: 2 });
        assert_eq!(l.at(1), Loc { line: 1, column: 1 }); // inside 'ä': moved back
        assert_eq!(l.at(5), Loc { line: 2, column: 2 });
        assert_eq!(l.at(100), Loc { line: 2, column: 3 });
    }
}
