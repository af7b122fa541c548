//! Reading Stockholm TreeAligner (STA) alignment files.

use std::collections::HashMap;
use std::ops::Range;

use super::xml::{Element, Loc, Step, TigerError, TigerErrorKind, XmlStream};

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
    /// Where the element is in the text (start tag to end tag), so an
    /// export can keep it as written.
    pub span: Range<usize>,
}

/// An STA alignment file: its treebanks and its alignments in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaAlignment {
    pub treebanks: Vec<StaTreebank>,
    pub alignments: Vec<StaAlign>,
    /// Where `<treebanks>` (or else the document) starts.
    pub loc: Loc,
    /// Where the `<treealign …>` start tag is in the text.
    pub document_tag: Range<usize>,
    /// Where `<head>…</head>` (metadata, treebank declarations, features,
    /// settings) is, if there is one: what an export keeps as written.
    pub head: Option<Range<usize>>,
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
    (_, sta.loc) = xml.document(b"treealign", "a Stockholm TreeAligner <treealign>")?;
    sta.document_tag = xml.last_open..xml.offset();
    let mut head_start: Option<usize> = None;
    loop {
        match xml.next()? {
            Step::End => break,
            Step::Open(start, loc) => {
                let el = Element::new(&start, loc, file)?;
                match start.local_name().as_ref() {
                    b"head" if head_start.is_none() => head_start = Some(xml.last_open),
                    b"treebanks" => sta.loc = loc,
                    b"treebank" => {
                        let id = el.required("treebank", "id")?;
                        el.first_use(&id, &mut treebank_locs)?;
                        sta.treebanks.push(StaTreebank {
                            id,
                            language: el.attr("language")?,
                            filename: el.attr("filename")?,
                            loc,
                        });
                    }
                    b"sen-align" => {
                        let span = xml.last_open..xml.last_open;
                        current = Some(StaAlign { kind: StaKind::Sentence, nodes: Vec::new(), loc, span });
                    }
                    b"align" => {
                        let kind = match el.required("align", "type")?.as_str() {
                            "good" => StaKind::Good,
                            "fuzzy" => StaKind::Fuzzy,
                            other => StaKind::Other(other.to_string()),
                        };
                        let span = xml.last_open..xml.last_open;
                        current = Some(StaAlign { kind, nodes: Vec::new(), loc, span });
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
            Step::Close(name) => match name.as_slice() {
                b"sen-align" | b"align" => {
                    if let Some(mut a) = current.take() {
                        a.span.end = xml.offset();
                        sta.alignments.push(a);
                    }
                }
                b"head" if sta.head.is_none() => sta.head = head_start.map(|start| start..xml.offset()),
                _ => {}
            },
        }
    }
    Ok(sta)
}
