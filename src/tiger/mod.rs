//! TigerXML treebanks with Stockholm TreeAligner (STA) alignments: import a
//! treebank pair with its alignment into a [`Corpus`](crate::corpus::Corpus), and export a corpus
//! back to TigerXML + STA XML that the importer reads to the same corpus.
//!
//! # What it provides
//! - [`parse_tiger`]: the sentences of a TigerXML file (`<s id>` with
//!   `<graph root>`, `<terminals><t id word pos/>`, `<nonterminals><nt id
//!   cat><edge idref/>`), keeping sentence and node ids. Secondary edges
//!   (`<secedge>`) and everything in `<head>` are ignored.
//! - [`TigerSentence::to_tree`]: one sentence as a [`Tree`](crate::tree::Tree), made the way the
//!   bracketed files of `../shared/data` were made (see that README): POS
//!   nodes from terminals, phrase nodes from nonterminals, children ordered
//!   by their leftmost word; discontinuous constituents made continuous by
//!   raising children bottom-up, keeping the longest contiguous run of
//!   children (the leftmost on a tie); terminals unreachable from the root
//!   attached to the root. It returns the Tiger id of every pre-order node,
//!   the nodes whose yield changed and a [`Change`] list saying what changed.
//! - [`parse_sta`]: an STA alignment file (`<treebanks>`, `<sen-align>`,
//!   `<align type="good|fuzzy">`; `<to-empty>` is ignored), with where its
//!   `<treealign>` tag, `<head>` and each alignment are in the text.
//! - [`import_pair`]: a [`Corpus`](crate::corpus::Corpus) of the 1:1 sentence pairs of a treebank
//!   pair, gold links in pre-order ids, the Tiger ids per pair and an
//!   [`ImportReport`] of everything changed or dropped, with counts.
//! - [`write_tiger`], [`export_pair`]: the export, with the
//!   original Tiger ids when known ([`TigerImport::ids`]) or synthesized ones
//!   ([`PairIds::synthesize`], `s{pair}_{n}`) for a corpus read from
//!   bracketed files.
//! - [`write_sta_links`]: links for the original treebanks, writing only
//!   what the original alignment has or the links imply ([`StaFrame`]):
//!   every node typed `t` (POS) or `nt` (phrase) as Lingua-Align types them;
//!   the original's `<treealign>` tag and `<head>` (metadata, the treebanks
//!   in its declared order) and its `<sen-align>`s of the exported pairs kept
//!   as written, none made up; gold links with their type, a model's links
//!   with `prob` and `type` by [`predicted_align`]: the posterior `p` when
//!   known (good when `p > 0.5`, Lingua-Align's rule), else from a links
//!   file `i-j` → `prob="1"` good and `i-j?` → `prob="0.5"` fuzzy.
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
//! use treelink::tiger::parse_tiger;
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

mod convert;
mod export;
mod ids;
mod import;
mod read;
mod sta;
mod xml;

pub use convert::{Change, ConvertedSentence, NodeName};
pub use export::{
    export_pair, export_pair_links, predicted_align, write_sta_links, write_tiger, write_tiger_verbatim, ExportError,
    LinkOrigin, StaExport, StaFrame, StaLinks, TigerExport, TreebankName,
};
pub use ids::{convert_as_imported, IdsError, IdsFile, ImportOrigin, TreebankOrigin, IDS_HEADER, NO_NODE};
pub use import::{
    import_pair, import_parsed, match_files, DropReason, DroppedLink, ImportOptions, ImportReport, MatchedFiles,
    PairIds, SentenceIds, SetAside, Side, SkippedSentenceLink, TigerImport, TigerLink, WordLink,
};
pub use read::{parse_tiger, Edge, Nonterminal, Terminal, TigerCorpus, TigerSentence};
pub use sta::{parse_sta, StaAlign, StaAlignment, StaKind, StaNode, StaTreebank};
pub use xml::{Loc, TigerError, TigerErrorKind};
