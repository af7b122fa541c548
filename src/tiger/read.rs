//! Reading TigerXML: the sentences of a treebank with their ids.

use std::collections::HashMap;
use std::ops::Range;

use super::xml::{Element, Loc, Step, TigerError, TigerErrorKind, XmlStream};

/// A TigerXML treebank: its sentences in file order, indexed by sentence id
/// and by node id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TigerCorpus {
    /// The `id` of `<corpus>`, if any.
    pub id: Option<String>,
    pub sentences: Vec<TigerSentence>,
    /// Where the `<corpus ...>` start tag is in the text (byte range).
    pub corpus_tag: Range<usize>,
    /// Where `<head>...</head>` (the feature and edge label declarations) is, if there is one.
    pub head: Option<Range<usize>>,
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
    /// Where `<s ...>...</s>` is in the text (byte range): the sentence as
    /// written, with every feature, edge label and secondary edge, for an
    /// export that keeps them ([`crate::tiger::write_tiger_verbatim`]).
    pub span: Range<usize>,
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
    let (document, loc) = xml.document(b"corpus", "a TigerXML <corpus>")?;
    corpus.id = Element::new(&document, loc, file)?.attr("id")?;
    corpus.corpus_tag = xml.last_open..xml.offset();
    let mut head_start: Option<usize> = None;
    loop {
        match xml.next()? {
            Step::End => break,
            Step::Open(start, loc) => {
                let el = Element::new(&start, loc, file)?;
                match start.local_name().as_ref() {
                    b"head" if head_start.is_none() && sentence.is_none() => head_start = Some(xml.last_open),
                    b"s" => {
                        if sentence.is_some() {
                            return Err(el.error(TigerErrorKind::Misplaced { element: "s", parent: "body" }));
                        }
                        let id = el.required("s", "id")?;
                        el.first_use(&id, &mut first_loc)?;
                        sentence = Some(TigerSentence {
                            id,
                            root: None,
                            terminals: Vec::new(),
                            nonterminals: Vec::new(),
                            loc,
                            graph_loc: loc,
                            span: xml.last_open..xml.last_open,
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
                        el.first_use(&id, &mut first_loc)?;
                        s.terminals.push(Terminal { id, word, pos, loc });
                    }
                    b"nt" => {
                        let s = sentence
                            .as_mut()
                            .ok_or_else(|| el.error(TigerErrorKind::Misplaced { element: "nt", parent: "s" }))?;
                        let id = el.required("nt", "id")?;
                        let cat = el.required("nt", "cat")?;
                        el.first_use(&id, &mut first_loc)?;
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
                b"head" if corpus.head.is_none() => {
                    if let Some(start) = head_start {
                        corpus.head = Some(start..xml.offset());
                    }
                }
                b"s" => {
                    if let Some(mut s) = sentence.take() {
                        s.span.end = xml.offset();
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
    Ok(corpus)
}
