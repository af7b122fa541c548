//! Exporting a corpus to TigerXML + STA XML that the importer reads back
//! to the same corpus.

use std::borrow::Cow;
use std::collections::HashSet;

use super::convert::from_token;
use super::import::{basename, PairIds, SentenceIds};
use super::read::TigerCorpus;
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
    #[error("pair {pair}: expected {file} to hold the {side} sentence {sentence} (PREFIX.ids names it), but it has none of that id")]
    UnknownSentence { pair: PairIndex, side: &'static str, sentence: String, file: String },
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

pub(super) fn esc(s: &str) -> Cow<'_, str> {
    quick_xml::escape::escape(s)
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
                esc(&from_token(word)),
                esc(&from_token(tree.label(n)))
            ));
        }
        out.push_str("</terminals>\n<nonterminals>\n");
        for n in tree.node_ids().filter(|&n| tree.is_phrase(n)) {
            out.push_str(&format!(
                " <nt id=\"{}\" cat=\"{}\">\n",
                esc(&ids.nodes[n.index()]),
                esc(&from_token(tree.label(n)))
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

/// Writes the links of `corpus` as a Stockholm TreeAligner file: per pair a
/// `<sen-align>` of `{sentence}_VROOT` nodes, then an `<align type="good|fuzzy">`
/// per gold link with its nodes' Tiger ids from `ids`. [`import_pair`](super::import_pair) reads
/// it back (with the TigerXML of [`write_tiger`]) to the same pairs and links
/// in the same order.
pub fn write_sta(
    corpus: &Corpus,
    ids: &[PairIds],
    source: &TreebankName,
    target: &TreebankName,
) -> Result<String, ExportError> {
    check_ids(corpus, ids)?;
    let links: Vec<Vec<Link>> = corpus.pairs.iter().map(|p| p.gold.clone()).collect();
    Ok(sta_text(&links, ids, source, target, false)?.text)
}

/// An STA file written for the original treebanks ([`write_sta_links`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaExport {
    pub text: String,
    /// The links left out, and why (a link to a virtual root the original
    /// treebank does not have), one line each.
    pub left_out: Vec<String>,
}

/// Writes links (one list per pair, e.g. gold or predicted) as a Stockholm
/// TreeAligner file for the original treebanks: the declarations `source`
/// and `target` as the original alignment had them, each node by its
/// original id from `ids` (a corpus's `PREFIX.ids`), so the file opens with
/// the original treebanks. A link to a virtual root (`ids`' `virtual_root`:
/// the import's `VROOT` over several top nodes, which the treebank does not
/// have) is left out and listed. Refuses a link naming a node past its
/// pair's ids, and pairs and ids of different counts.
pub fn write_sta_links(
    links: &[Vec<Link>],
    ids: &[PairIds],
    source: &TreebankName,
    target: &TreebankName,
) -> Result<StaExport, ExportError> {
    sta_text(links, ids, source, target, true)
}

fn sta_text(
    links: &[Vec<Link>],
    ids: &[PairIds],
    source: &TreebankName,
    target: &TreebankName,
    skip_virtual: bool,
) -> Result<StaExport, ExportError> {
    if ids.len() != links.len() {
        return Err(ExportError::PairCount { expected: links.len(), found: ids.len() });
    }
    if source.id == target.id {
        return Err(ExportError::SameTreebank { id: source.id.clone() });
    }
    let mut out = String::new();
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<treealign subversion=\"3\" version=\"2\">\n<head>\n<treebanks>\n",
    );
    for t in [source, target] {
        // The declarations as the original alignment had them: an attribute it lacked stays out.
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
         <alignment-feature color=\"#e53333\" name=\"fuzzy\">Fuzzy alignment</alignment-feature>\n</alignment-features>\n</head>\n<alignments>\n",
    );
    let (sid, tid) = (esc(&source.id), esc(&target.id));
    let mut left_out = Vec::new();
    for (k, (pair_links, pid)) in links.iter().zip(ids).enumerate() {
        out.push_str(&format!(
            "<sen-align>\n<node treebank_id=\"{sid}\" node_id=\"{}_VROOT\"/>\n<node treebank_id=\"{tid}\" node_id=\"{}_VROOT\"/>\n</sen-align>\n",
            esc(&pid.source.sentence),
            esc(&pid.target.sentence)
        ));
        for link in pair_links {
            // Checked against the ids, one per node of the pair's trees (`check_ids` for a corpus).
            let counts = (pid.source.nodes.len(), pid.target.nodes.len());
            LinkOutOfRange::check(
                PairIndex::new(k),
                link,
                (link.source.index(), link.target.index()),
                counts,
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
            let kind = if link.kind == LinkKind::Good { "good" } else { "fuzzy" };
            out.push_str(&format!(
                "<align type=\"{kind}\">\n<node treebank_id=\"{sid}\" node_id=\"{}\"/>\n<node treebank_id=\"{tid}\" node_id=\"{}\"/>\n</align>\n",
                esc(s),
                esc(t)
            ));
        }
    }
    out.push_str("</alignments>\n</treealign>\n");
    Ok(StaExport { text: out, left_out })
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
    let tag = slice(&corpus.corpus_tag);
    match tag.strip_suffix("/>") {
        // `<corpus/>` holds nothing: open it for the body.
        Some(open) => out.push_str(&format!("{}>", open.trim_end())),
        None if tag.is_empty() => out.push_str("<corpus>"),
        None => out.push_str(tag),
    }
    out.push('\n');
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

/// Exports a corpus as a TigerXML pair plus an STA file, with `ids` (e.g.
/// [`TigerImport::ids`](super::TigerImport::ids)) or, if `None`, ids from [`PairIds::synthesize`].
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
