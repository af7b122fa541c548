//! Exporting a corpus to TigerXML + STA XML that the importer reads back
//! to the same corpus.

use std::collections::{HashMap, HashSet};

use quick_xml::escape::escape as esc;

use super::convert::from_token;
use super::import::{basename, PairIds, SentenceIds};
use super::read::TigerCorpus;
use super::sta::{StaAlign, StaAlignment, StaKind};
use crate::corpus::{Corpus, PairIndex};
use crate::io::links::{Link, LinkKind, LinkOutOfRange, LinkUnits};
use crate::tree::{NodeId, Tree};

/// Why a corpus could not be exported (the ids do not fit the trees).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("expected ids for {expected} sentence pairs, found {found}")]
    PairCount { expected: usize, found: usize },
    #[error("sentence {sentence}: expected {expected} node ids (one per node), found {found}")]
    NodeCount { sentence: String, expected: usize, found: usize },
    #[error("id '{id}' is used twice in one treebank; expected unique ids")]
    DuplicateId { id: String },
    #[error(transparent)]
    LinkOutOfRange(#[from] LinkOutOfRange),
    #[error("expected two different treebank ids, found '{id}' twice")]
    SameTreebank { id: String },
    #[error("the original alignment declares the treebanks {declared}: expected it to declare '{source_id}' and '{target_id}', the corpus's treebanks")]
    UndeclaredTreebanks { source_id: String, target_id: String, declared: String },
    #[error("pair {pair}: expected {file} to hold the {side} sentence {sentence} (PREFIX.ids names it), but it has none of that id")]
    UnknownSentence { pair: PairIndex, side: &'static str, sentence: String, file: String },
    #[error(
        "pair {pair}: a link set aside at import names the node {node}, which is not among the pair's {side} node ids"
    )]
    SetAsideNode { pair: PairIndex, side: &'static str, node: String },
    #[error("pair {pair}: the {side} tree is not the one imported from {file} sentence {sentence} (its words or structure changed); an export that keeps the original sentences needs the imported trees")]
    TreeChanged { pair: PairIndex, side: &'static str, sentence: String, file: String },
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

/// Opens the document element as the original wrote its tag (`<name/>`,
/// which holds nothing, opened for the body), else as `<name>`; then a line break.
fn open_document(out: &mut String, tag: &str, name: &str) {
    match tag.strip_suffix("/>") {
        Some(open) => out.push_str(&format!("{}>", open.trim_end())),
        None if tag.is_empty() => out.push_str(&format!("<{name}>")),
        None => out.push_str(tag),
    }
    out.push('\n');
}

/// Writes trees as a TigerXML corpus with id `corpus_id`. Each tree comes with
/// its ids (sentence id and one id per pre-order node, e.g. from
/// [`TigerImport::ids`](super::TigerImport::ids) or [`PairIds::synthesize`]). Terminals are written in
/// word order, nonterminals in pre-order with edges labelled `--`; `-LRB-` /
/// `-RRB-` become `(` / `)` again. Reading the result with [`parse_tiger`](super::parse_tiger)
/// and [`TigerSentence::to_tree`](super::TigerSentence::to_tree) gives the same trees (they are continuous).
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
            esc(&ids.nodes[NodeId::ROOT.index()])
        ));
        for n in tree.node_ids().filter(|&n| tree.is_pos(n)) {
            let word = tree.word_of(n).unwrap_or_default();
            out.push_str(&format!(
                " <t id=\"{}\" word=\"{}\" pos=\"{}\"/>\n",
                esc(&ids.nodes[n.index()]),
                esc(from_token(word)),
                esc(from_token(tree.label(n)))
            ));
        }
        out.push_str("</terminals>\n<nonterminals>\n");
        for n in tree.node_ids().filter(|&n| tree.is_phrase(n)) {
            out.push_str(&format!(
                " <nt id=\"{}\" cat=\"{}\">\n",
                esc(&ids.nodes[n.index()]),
                esc(from_token(tree.label(n)))
            ));
            for &c in tree.children(n) {
                out.push_str(&format!("  <edge label=\"--\" idref=\"{}\"/>\n", esc(&ids.nodes[c.index()])));
            }
            out.push_str(" </nt>\n");
        }
        out.push_str("</nonterminals>\n</graph>\n</s>\n");
    }
    out.push_str("</body>\n</corpus>\n");
    Ok(out)
}

/// What the links written are, which decides what each `<align>` says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LinkOrigin<'a> {
    /// Annotated links (a gold file): `type` from the link (`i-j` good,
    /// `i-j?` fuzzy), no `prob`, as the Stockholm TreeAligner writes them.
    Gold,
    /// A model's links: each with a `prob` and a `type` by [`predicted_align`],
    /// from its posterior (`posteriors`, one list per pair parallel to the
    /// links) when known, else from the link as the links file has it.
    Predicted { posteriors: Option<&'a [Vec<f64>]> },
}

/// The `prob` and `type` of a predicted link, one rule for every export:
/// - with its posterior `p` (the model's `P(a+|S,T)`): `prob = p`, `good`
///   when `p > 0.5`, else `fuzzy` — Lingua-Align's own rule, which its
///   evaluator also applies to `prob` when it reads one, so the two never
///   disagree;
/// - without (a links file: `treelink align` writes the links the model
///   decided — posterior past its threshold, taken by the search — not
///   their posteriors): `i-j` is the decision itself, `prob = 1`, `good`;
///   `i-j?` is `prob = 0.5`, `fuzzy` (not above 0.5, so Lingua-Align reads
///   it fuzzy too).
pub fn predicted_align(kind: LinkKind, posterior: Option<f64>) -> (f64, &'static str) {
    let prob = posterior.unwrap_or(match kind {
        LinkKind::Good => 1.0,
        LinkKind::Fuzzy => 0.5,
    });
    (prob, if prob > 0.5 { "good" } else { "fuzzy" })
}

/// Links to write, one list per pair, and what they are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaLinks<'a> {
    pub links: &'a [Vec<Link>],
    pub origin: LinkOrigin<'a>,
}

/// What an STA export is written around.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StaFrame<'a> {
    /// The original alignment (its text and its [`parse_sta`](super::parse_sta)
    /// reading), for the original treebanks: its `<treealign>` tag and its
    /// `<head>` as written (metadata, the treebanks in its declared order,
    /// features, settings), and before each pair's links the original's
    /// `<sen-align>`s of that pair's two sentences, as written.
    Original { text: &'a str, sta: &'a StaAlignment },
    /// The original treebanks without their alignment: the two treebanks
    /// declared source first, no metadata, and no `<sen-align>` (the
    /// original's are not known; none is made up).
    Treebanks,
    /// TigerXML written by [`write_tiger`] from the trees: a `<sen-align>` of
    /// the two roots per pair (nodes that file has), so a pair without links
    /// is still a pair when read back.
    OwnTrees,
}

/// An STA file written by [`write_sta_links`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaExport {
    pub text: String,
    /// The links left out, and why (a link to a virtual root the original
    /// treebank does not have), one line each.
    pub left_out: Vec<String>,
}

/// Writes links (gold or predicted, one list per pair of `corpus`) as a
/// Stockholm TreeAligner file around `frame`: each `<align>` names its two
/// nodes by their ids in `ids` (a corpus's `PREFIX.ids`), in the order the
/// treebanks are declared, each typed `t` (a POS node: a Tiger terminal)
/// or `nt` (a phrase node) as Lingua-Align's writer types them — its reader
/// otherwise guesses a terminal for any id numbered below 500. Gold links
/// carry their type, predicted ones `prob` and `type` by
/// [`predicted_align`]. For the original treebanks ([`StaFrame::Original`],
/// [`StaFrame::Treebanks`]) a link to a virtual root (`ids`'
/// `virtual_root`: the import's `VROOT` over several top nodes, which the
/// treebank does not have) is left out and listed. Refuses a link naming a
/// node past its pair's ids, pairs and ids of different counts, one
/// treebank twice, and an original alignment that does not declare both.
pub fn write_sta_links(
    corpus: &Corpus,
    links: StaLinks<'_>,
    ids: &[PairIds],
    (source, target): (&TreebankName, &TreebankName),
    frame: StaFrame<'_>,
) -> Result<StaExport, ExportError> {
    check_ids(corpus, ids)?;
    if ids.len() != links.links.len() {
        return Err(ExportError::PairCount { expected: links.links.len(), found: ids.len() });
    }
    if source.id == target.id {
        return Err(ExportError::SameTreebank { id: source.id.clone() });
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // Which treebank the original declares first: its nodes come first in each <align>.
    let mut source_first = true;
    let mut sentence_links: Vec<Vec<&str>> = Vec::new();
    match frame {
        StaFrame::Original { text, sta } => {
            let position = |id: &str| sta.treebanks.iter().position(|t| t.id == id);
            let (Some(s), Some(t)) = (position(&source.id), position(&target.id)) else {
                return Err(ExportError::UndeclaredTreebanks {
                    source_id: source.id.clone(),
                    target_id: target.id.clone(),
                    declared: sta.treebanks.iter().map(|t| t.id.clone()).collect::<Vec<_>>().join(", "),
                });
            };
            source_first = s < t;
            let slice = |r: &std::ops::Range<usize>| text.get(r.clone()).unwrap_or_default();
            open_document(&mut out, slice(&sta.document_tag), "treealign");
            match &sta.head {
                Some(head) => out.push_str(slice(head)),
                None => declarations(&mut out, source_first, source, target),
            }
            out.push('\n');
            sentence_links = original_sentence_links(sta, ids, source, target)
                .into_iter()
                .map(|spans| spans.into_iter().map(slice).collect())
                .collect();
        }
        StaFrame::Treebanks | StaFrame::OwnTrees => {
            out.push_str("<treealign subversion=\"3\" version=\"2\">\n");
            declarations(&mut out, true, source, target);
            out.push('\n');
        }
    }
    out.push_str("<alignments>\n");
    let skip_virtual = frame != StaFrame::OwnTrees;
    let mut left_out = Vec::new();
    for (k, ((pair_links, pid), pair)) in links.links.iter().zip(ids).zip(&corpus.pairs).enumerate() {
        for sen_align in sentence_links.get(k).into_iter().flatten() {
            out.push_str(sen_align);
            out.push('\n');
        }
        let node = |id: &str, tree: &Tree, n: NodeId, treebank: &str| {
            let kind = if tree.is_pos(n) { "t" } else { "nt" };
            format!("<node treebank_id=\"{}\" node_id=\"{}\" type=\"{kind}\"/>\n", esc(treebank), esc(id))
        };
        let pair_of_nodes = |s: &str, sn: NodeId, t: &str, tn: NodeId| {
            let (s, t) = (node(s, &pair.source, sn, &source.id), node(t, &pair.target, tn, &target.id));
            if source_first {
                s + &t
            } else {
                t + &s
            }
        };
        if frame == StaFrame::OwnTrees {
            let (s, t) = (&pid.source.nodes[NodeId::ROOT.index()], &pid.target.nodes[NodeId::ROOT.index()]);
            out.push_str(&format!("<sen-align>\n{}</sen-align>\n", pair_of_nodes(s, NodeId::ROOT, t, NodeId::ROOT)));
        }
        for (j, link) in pair_links.iter().enumerate() {
            LinkOutOfRange::check(
                PairIndex::new(k),
                link,
                (link.source.index(), link.target.index()),
                (pair.source.len(), pair.target.len()),
                LinkUnits::Nodes,
            )?;
            let (s, t) = (&pid.source.nodes[link.source.index()], &pid.target.nodes[link.target.index()]);
            let virtual_node = (link.source == NodeId::ROOT && pid.source.virtual_root)
                .then_some(s)
                .or((link.target == NodeId::ROOT && pid.target.virtual_root).then_some(t));
            if let (true, Some(v)) = (skip_virtual, virtual_node) {
                left_out.push(format!(
                    "pair {}: link {link} left out: it names the virtual root {v} the import added, which the treebank does not have",
                    k + 1
                ));
                continue;
            }
            let attributes = match links.origin {
                LinkOrigin::Gold => format!("type=\"{}\"", if link.kind == LinkKind::Good { "good" } else { "fuzzy" }),
                LinkOrigin::Predicted { posteriors } => {
                    let posterior = posteriors.and_then(|p| p.get(k)?.get(j).copied());
                    let (prob, kind) = predicted_align(link.kind, posterior);
                    format!("type=\"{kind}\" prob=\"{prob}\"")
                }
            };
            out.push_str(&format!("<align {attributes}>\n{}</align>\n", pair_of_nodes(s, link.source, t, link.target)));
        }
        if links.origin != LinkOrigin::Gold {
            continue;
        }
        // The gold links the import set aside (a node's yield changed): back in the original treebanks' alignment.
        for l in &pid.set_aside {
            if frame == StaFrame::OwnTrees {
                left_out.push(format!(
                    "pair {}: link {} – {} set aside at import left out: a node's yield changed, and in these \
                     continuous trees the node covers fewer words than the link was made for",
                    k + 1,
                    l.source,
                    l.target
                ));
                continue;
            }
            let find = |ids: &SentenceIds, id: &str, side| {
                let node = ids.nodes.iter().position(|n| n == id).map(NodeId::new);
                node.ok_or_else(|| ExportError::SetAsideNode { pair: PairIndex::new(k), side, node: id.to_string() })
            };
            let (sn, tn) = (find(&pid.source, &l.source, "source")?, find(&pid.target, &l.target, "target")?);
            let kind = if l.kind == LinkKind::Good { "good" } else { "fuzzy" };
            out.push_str(&format!(
                "<align type=\"{kind}\">\n{}</align>\n",
                pair_of_nodes(&l.source, sn, &l.target, tn)
            ));
        }
    }
    out.push_str("</alignments>\n</treealign>\n");
    Ok(StaExport { text: out, left_out })
}

/// A `<head>` of our own: the two treebanks (an attribute the original
/// declaration lacked stays out) and the two link types.
fn declarations(out: &mut String, source_first: bool, source: &TreebankName, target: &TreebankName) {
    out.push_str("<head>\n<treebanks>\n");
    let order = if source_first { [source, target] } else { [target, source] };
    for t in order {
        out.push_str(&format!("<treebank id=\"{}\"", esc(&t.id)));
        if !t.language.is_empty() {
            out.push_str(&format!(" language=\"{}\"", esc(&t.language)));
        }
        if !t.filename.is_empty() {
            out.push_str(&format!(" filename=\"{}\"", esc(&t.filename)));
        }
        out.push_str("/>\n");
    }
    out.push_str(
        "</treebanks>\n<alignment-features>\n<alignment-feature color=\"#33e533\" name=\"good\">Exact alignment</alignment-feature>\n\
         <alignment-feature color=\"#e53333\" name=\"fuzzy\">Fuzzy alignment</alignment-feature>\n</alignment-features>\n</head>",
    );
}

/// The original's `<sen-align>`s of the exported pairs: for each, the pair
/// whose two sentences it names (a node names a sentence by the sentence's
/// id, `{id}_VROOT`, or one of its nodes' ids), with its place in the text.
fn original_sentence_links<'s>(
    sta: &'s StaAlignment,
    ids: &[PairIds],
    source: &TreebankName,
    target: &TreebankName,
) -> Vec<Vec<&'s std::ops::Range<usize>>> {
    let index = |side: fn(&PairIds) -> &SentenceIds| {
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for (k, pid) in ids.iter().enumerate() {
            let s = side(pid);
            let real_nodes = s.nodes.iter().skip(usize::from(s.virtual_root));
            for name in std::iter::once(&s.sentence).chain(real_nodes) {
                by_name.entry(name.as_str()).or_insert(k);
            }
        }
        by_name
    };
    let (by_source, by_target) = (index(|p| &p.source), index(|p| &p.target));
    let pair_of = |by: &HashMap<&str, usize>, a: &StaAlign, treebank: &str| {
        let mut nodes = a.nodes.iter().filter(|n| n.treebank == treebank);
        let node = match (nodes.next(), nodes.next()) {
            (Some(n), None) => n.node.as_str(),
            _ => return None,
        };
        by.get(node).or_else(|| by.get(node.strip_suffix("_VROOT")?)).copied()
    };
    let mut found: Vec<Vec<&std::ops::Range<usize>>> = vec![Vec::new(); ids.len()];
    for a in sta.alignments.iter().filter(|a| a.kind == StaKind::Sentence) {
        if let (Some(k), Some(l)) = (pair_of(&by_source, a, &source.id), pair_of(&by_target, a, &target.id)) {
            if k == l {
                found[k].push(&a.span);
            }
        }
    }
    found
}

/// Writes the sentences named (by id, in order) of an original TigerXML
/// file as a TigerXML file that keeps everything the original has: its
/// `<corpus>` start tag, its `<head>` (every feature and edge label
/// declaration) and each `<s>` element as written — features, edge labels,
/// secondary edges and discontinuous constituents included. `text` is the
/// original file's text (decoded: the result declares UTF-8), `corpus` its
/// reading by [`parse_tiger`](super::parse_tiger); `file` names it in errors.
pub fn write_tiger_verbatim<'a>(
    text: &str,
    corpus: &TigerCorpus,
    file: &str,
    side: &'static str,
    sentences: impl IntoIterator<Item = &'a str>,
) -> Result<String, ExportError> {
    let slice = |r: &std::ops::Range<usize>| text.get(r.clone()).unwrap_or_default();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    open_document(&mut out, slice(&corpus.corpus_tag), "corpus");
    if let Some(head) = &corpus.head {
        out.push_str(slice(head));
        out.push('\n');
    }
    out.push_str("<body>\n");
    for (k, id) in sentences.into_iter().enumerate() {
        let s = corpus.sentence(id).ok_or_else(|| ExportError::UnknownSentence {
            pair: PairIndex::new(k),
            side,
            sentence: id.to_string(),
            file: file.to_string(),
        })?;
        out.push_str(slice(&s.span));
        out.push('\n');
    }
    out.push_str("</body>\n</corpus>\n");
    Ok(out)
}

pub(super) fn check_ids(corpus: &Corpus, ids: &[PairIds]) -> Result<(), ExportError> {
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

/// Exports a corpus as a TigerXML pair plus an STA file of its gold links
/// ([`export_pair_links`]).
pub fn export_pair(
    corpus: &Corpus,
    ids: Option<&[PairIds]>,
    source: &TreebankName,
    target: &TreebankName,
) -> Result<TigerExport, ExportError> {
    let gold: Vec<Vec<Link>> = corpus.pairs.iter().map(|p| p.gold.clone()).collect();
    export_pair_links(corpus, StaLinks { links: &gold, origin: LinkOrigin::Gold }, ids, source, target)
}

/// Exports a corpus as a TigerXML pair of its own trees plus an STA file of
/// `links` ([`StaFrame::OwnTrees`]), with `ids` (e.g.
/// [`TigerImport::ids`](super::TigerImport::ids)) or, if `None`, ids from [`PairIds::synthesize`].
/// `import_pair` on the three texts, named by `source.filename` /
/// `target.filename`, gives back `corpus` with `links` as its gold (with
/// `phrase_only: false`, or `true` if the links are phrase links only).
pub fn export_pair_links(
    corpus: &Corpus,
    links: StaLinks<'_>,
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
    let sta = write_sta_links(corpus, links, ids, (source, target), StaFrame::OwnTrees)?.text;
    Ok(TigerExport { source_tiger, target_tiger, sta })
}
