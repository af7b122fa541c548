//! Importing a TigerXML treebank pair with its STA alignment into a
//! [`Corpus`](crate::corpus::Corpus), with a report of what changed or was dropped.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use super::convert::{Change, ConvertedSentence};
use super::read::{parse_tiger, TigerCorpus, TigerSentence};
use super::sta::{parse_sta, StaAlign, StaAlignment, StaKind, StaNode, StaTreebank};
use super::xml::{Loc, TigerError, TigerErrorKind};
use crate::corpus::{Corpus, Named, PairIndex, TreePair};
use crate::io::links::{Link, LinkKind};
use crate::tree::Tree;

/// Options of [`import_pair`]. The default keeps every link the trees can
/// hold, as gold or set aside with the ids ([`PairIds::set_aside`]), so
/// exporting the gold links gives back the alignment's links (see
/// [`crate::tiger`]); [`ImportOptions::BRACKETED_DATA`] makes the gold
/// links of `../shared/data`'s bracketed files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ImportOptions {
    /// Keep only links between two phrase nodes (Tiger nonterminals), as the
    /// bracketed gold files do; links touching POS nodes (Tiger terminals,
    /// mostly word alignments) are then counted, not kept. Default: `false`.
    pub phrase_only: bool,
    /// Drop the links of a node whose yield changed when its constituent was
    /// made continuous, as the bracketed gold files do (7-10% of links).
    /// Default `false`: such a link is set aside — not gold, since the node
    /// now covers fewer words than the annotators linked (as a training
    /// positive it is noise, in dev or test gold no model can find it: 2-6 F
    /// lost on SQUOIA and nl-en) — and kept with the pair's ids
    /// ([`PairIds::set_aside`]), so an export to the original treebanks
    /// puts it back.
    pub drop_changed_yields: bool,
    /// Drop nonterminals that have no parent but are not the graph's root
    /// (and their links), as the bracketed trees do. Default `false`: they
    /// are attached to the root ([`TigerSentence::to_tree_keeping_tops`]).
    #[serde(default)]
    pub drop_unreachable: bool,
}

impl ImportOptions {
    /// What made the bracketed files of `../shared/data`: phrase links
    /// only, links of nodes whose yield changed dropped, nonterminals
    /// unreachable from the root dropped.
    pub const BRACKETED_DATA: ImportOptions =
        ImportOptions { phrase_only: true, drop_changed_yields: true, drop_unreachable: true };
}

/// The Tiger ids of one converted sentence.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SentenceIds {
    /// The sentence id (`s@id`).
    pub sentence: String,
    /// The Tiger id of every node, indexed by pre-order [`NodeId`](crate::tree::NodeId).
    pub nodes: Vec<String>,
    /// Whether the root (node 0) is a virtual root the import added over
    /// several top nodes (`…_VROOT`), which its treebank does not have: a
    /// link to it is left out of an export to the original treebanks.
    #[serde(default)]
    pub virtual_root: bool,
}

/// The Tiger ids of one sentence pair, and the links of the original
/// alignment that are not gold because a linked node's yield changed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairIds {
    pub source: SentenceIds,
    pub target: SentenceIds,
    /// Links set aside by the import ([`ImportOptions::drop_changed_yields`]),
    /// in the alignment's order: an export to the original treebanks writes
    /// them after the gold links, so the round trip loses none.
    #[serde(default)]
    pub set_aside: Vec<TigerLink>,
}

/// A link of the original alignment by its two nodes' Tiger ids.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TigerLink {
    pub source: String,
    pub target: String,
    pub kind: LinkKind,
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
                set_aside: Vec::new(),
            })
            .collect()
    }

    /// The ids of the pair read the other way (source and target swapped).
    pub fn swapped(&self) -> PairIds {
        PairIds {
            source: self.target.clone(),
            target: self.source.clone(),
            set_aside: self
                .set_aside
                .iter()
                .map(|l| TigerLink { source: l.target.clone(), target: l.source.clone(), kind: l.kind })
                .collect(),
        }
    }
}

pub(super) fn synthesize_ids(tree: &Tree, k: usize) -> SentenceIds {
    let sentence = format!("s{k}");
    let (mut word, mut phrase) = (0, tree.words().len().max(499));
    let nodes = tree
        .node_ids()
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
    SentenceIds { sentence, nodes, virtual_root: false }
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

/// A link set aside because a linked node's yield changed: the node covers
/// fewer words than the annotators linked (those left after the
/// discontinuity was repaired), so the link is not gold; it is kept with the
/// pair's ids ([`PairIds::set_aside`]) for the export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    pub pair: PairIndex,
    pub source_node: String,
    pub target_node: String,
    pub kind: LinkKind,
    /// The side(s) whose node's yield changed.
    pub sides: Vec<Side>,
}

impl fmt::Display for SetAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.kind == LinkKind::Good { "good" } else { "fuzzy" };
        let s: Vec<String> = self.sides.iter().map(Side::to_string).collect();
        write!(
            f,
            "pair {}: {kind} link {} – {} set aside, not gold: the {} node lost words when its discontinuous \
             constituent was made continuous (an export puts the link back)",
            self.pair,
            self.source_node,
            self.target_node,
            s.join(" and ")
        )
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
    /// The pair (from 0) and side of each of [`Self::changes`].
    pub change_places: Vec<(usize, Side)>,
    /// Links set aside because a node's yield changed (the default; see
    /// [`ImportOptions::drop_changed_yields`]).
    pub set_aside: Vec<SetAside>,
    /// Paired sentences with at least one change, and nodes whose yield changed.
    pub changed_sentences: usize,
    pub changed_nodes: usize,
    /// `<align>` elements in the STA file.
    pub sta_links: usize,
    /// Links in the corpus.
    pub kept_links: usize,
    /// Whether phrase links only were asked for ([`ImportOptions::phrase_only`]).
    pub phrase_only: bool,
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
                "{} changes in {} paired sentences; {} nodes changed their yield{}",
                self.changes.len(),
                self.changed_sentences,
                self.changed_nodes,
                if self.set_aside.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; {} links on them set aside, not gold: such a node covers fewer words than the annotators \
                         linked (its discontinuous constituent was made continuous), so no aligner can find the \
                         link; kept with the ids, an export to the original treebanks puts them back",
                        self.set_aside.len()
                    )
                }
            ),
            format!(
                "{} of {} links kept; {}{} dropped: {yields} because a yield changed, {not_paired} outside the 1:1 \
                 pairs, {not_in_tree} naming a node not in the tree, {virtual_root} naming a virtual root",
                self.kept_links,
                self.sta_links,
                if self.phrase_only {
                    format!("{} POS links left out (phrase links only asked for); ", self.skipped_pos_links)
                } else {
                    String::new()
                },
                self.dropped_links.len(),
            ),
        ];
        for (t, n) in &self.retyped {
            out.push(format!("{n} links of type '{t}' imported as fuzzy"));
        }
        out.extend(self.notes.iter().cloned());
        out
    }

    /// The summary, then every change (with its pair and side), link set
    /// aside, skipped sentence link and dropped link.
    pub fn lines(&self) -> Vec<String> {
        let mut out = self.summary();
        out.extend(self.changes.iter().enumerate().map(|(k, c)| match self.change_places.get(k) {
            Some((pair, side)) => format!("pair {} ({side}): {c}", pair + 1),
            None => c.to_string(),
        }));
        out.extend(self.set_aside.iter().map(SetAside::to_string));
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
    /// The alignment's declarations of the source and the target treebank
    /// (what an export names them by, so it opens with the originals).
    pub treebanks: [StaTreebank; 2],
    /// The names the source, target and alignment files were given by.
    pub files: [String; 3],
    /// The alignment's word links (between two Tiger terminals) of each
    /// pair, in its order, whatever [`ImportOptions`] keep as gold: input
    /// annotation for the word side of alignment (`PREFIX.words`).
    pub words: Vec<Vec<WordLink>>,
}

impl TigerImport {
    /// How many word links the alignment has (`PREFIX.words`'s).
    pub fn word_links(&self) -> usize {
        self.words.iter().map(Vec::len).sum()
    }
}

/// A link between two words: their positions in the source and the target
/// sentence (from 0), and its kind.
pub type WordLink = (usize, usize, LinkKind);

pub(super) fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// A node of an alignment resolved against a treebank.
pub(super) enum Resolved {
    /// A real node: sentence index and node id.
    Node(usize),
    /// `…_VROOT` or a sentence id: the sentence as a whole.
    Sentence(usize),
}

pub(super) fn resolve(corpus: &TigerCorpus, node: &str) -> Option<Resolved> {
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
/// [`TigerSentence::to_tree`](super::TigerSentence::to_tree); each `<align>` between the two sentences of a
/// pair becomes a gold link in STA file order (duplicates kept), unless it
/// touches a POS node and `options.phrase_only`, a node that is not in the
/// tree (dropped and reported), or a node whose yield changed (set aside in
/// [`PairIds::set_aside`], or dropped with `options.drop_changed_yields`;
/// reported either way).
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
    let input = ImportInput { source_file, src, target_file, trg, sta_file, sta };
    let mut report = ImportReport {
        sta_file: sta_file.to_string(),
        source_sentences: src.len(),
        target_sentences: trg.len(),
        phrase_only: options.phrase_only,
        ..Default::default()
    };
    let (src_tb, trg_tb) = input.match_treebanks(&mut report)?;
    let treebanks = [src_tb.clone(), trg_tb.clone()];
    let resolved = input.resolve_alignments(&src_tb.id, &trg_tb.id)?;
    let pairs = input.sentence_pairs(&resolved, &mut report);
    // An import of no pair would write empty files that look like a result.
    if pairs.pairs.is_empty() {
        return Err(TigerError::at(
            sta_file,
            sta.loc,
            TigerErrorKind::NoSentencePairs { alignments: sta.alignments.len() },
        ));
    }
    let converted = input.convert_pairs(&pairs.pairs, options.drop_unreachable, &mut report)?;
    let PairLinks { gold, words, set_aside } = gold_links(&resolved, &pairs, &converted, options, &mut report);
    report.pairs = pairs.pairs.len();
    let mut corpus = Corpus::default();
    let mut ids = Vec::with_capacity(pairs.pairs.len());
    let sentence_ids = |corpus: &TigerCorpus, k: usize, nodes: Vec<String>| SentenceIds {
        sentence: corpus.sentences[k].id.clone(),
        virtual_root: nodes.first().is_some_and(|r| corpus.sentence_of_node(r).is_none()),
        nodes,
    };
    for ((((a, b), (cs, ct)), gold), set_aside) in pairs.pairs.iter().zip(converted).zip(gold).zip(set_aside) {
        let (source, target) = (sentence_ids(src, *a, cs.node_ids), sentence_ids(trg, *b, ct.node_ids));
        ids.push(PairIds { source, target, set_aside });
        corpus.pairs.push(TreePair { source: cs.tree, target: ct.tree, gold });
    }
    let files = [source_file.to_string(), target_file.to_string(), sta_file.to_string()];
    Ok(TigerImport { corpus, ids, report, treebanks, files, words })
}

/// The three parsed files of an import and their names.
struct ImportInput<'a> {
    source_file: &'a str,
    src: &'a TigerCorpus,
    target_file: &'a str,
    trg: &'a TigerCorpus,
    sta_file: &'a str,
    sta: &'a StaAlignment,
}

/// An STA alignment with its two nodes resolved to sentences.
struct ResolvedAlign<'s> {
    align: &'s StaAlign,
    src_node: &'s str,
    trg_node: &'s str,
    src_sentence: usize,
    trg_sentence: usize,
    /// A node alignment naming a whole sentence (`…_VROOT` or a sentence id).
    virtual_node: bool,
}

/// The 1:1 sentence pairs, in order of first appearance.
struct SentencePairs {
    /// (source sentence, target sentence).
    pairs: Vec<(usize, usize)>,
    /// The pair of each source sentence, if it has one.
    pair_of_source: Vec<Option<usize>>,
}

impl<'a> ImportInput<'a> {
    /// Which STA treebank is the source file's and which the target's
    /// ([`match_files`]); the files' order is the caller's.
    fn match_treebanks(&self, report: &mut ImportReport) -> Result<(&'a StaTreebank, &'a StaTreebank), TigerError> {
        let matched = match_files(self.sta_file, self.sta, (self.source_file, self.src), (self.target_file, self.trg))?;
        let (s, t) = if matched.first_is_treebank_0 { (0, 1) } else { (1, 0) };
        report.notes.extend(matched.note);
        Ok((&self.sta.treebanks[s], &self.sta.treebanks[t]))
    }

    /// Every alignment's (source, target) nodes and sentences; refuses an
    /// alignment without exactly one node per treebank or with a node in
    /// neither treebank.
    fn resolve_alignments(&self, src_tb: &str, trg_tb: &str) -> Result<Vec<ResolvedAlign<'a>>, TigerError> {
        let mut resolved = Vec::with_capacity(self.sta.alignments.len());
        for a in &self.sta.alignments {
            let element = if a.kind == StaKind::Sentence { "sen-align" } else { "align" };
            let pick = |tb: &str| -> Result<&'a StaNode, TigerError> {
                let mut nodes = a.nodes.iter().filter(|n| n.treebank == tb);
                match (nodes.next(), nodes.next()) {
                    (Some(n), None) => Ok(n),
                    _ => Err(TigerError::at(
                        self.sta_file,
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
                    self.sta_file,
                    n.loc,
                    TigerErrorKind::UnknownNode { element, node: n.node.clone(), file: basename(file).to_string() },
                )
            };
            let rs = resolve(self.src, &sn.node).ok_or_else(|| unknown(sn, self.source_file))?;
            let rt = resolve(self.trg, &tn.node).ok_or_else(|| unknown(tn, self.target_file))?;
            let virtual_node = a.kind != StaKind::Sentence
                && (matches!(rs, Resolved::Sentence(_)) || matches!(rt, Resolved::Sentence(_)));
            let sentence = |r: Resolved| match r {
                Resolved::Node(k) | Resolved::Sentence(k) => k,
            };
            resolved.push(ResolvedAlign {
                align: a,
                src_node: &sn.node,
                trg_node: &tn.node,
                src_sentence: sentence(rs),
                trg_sentence: sentence(rt),
                virtual_node,
            });
        }
        Ok(resolved)
    }

    /// The sentence links and, among them, the 1:1 pairs (a sentence linked
    /// to more than one other is skipped and reported).
    fn sentence_pairs(&self, resolved: &[ResolvedAlign<'_>], report: &mut ImportReport) -> SentencePairs {
        let (src, trg) = (self.src, self.trg);
        let mut edges: Vec<(usize, usize)> = Vec::new();
        let mut seen: HashSet<(usize, usize)> = HashSet::new();
        let mut src_links = vec![0usize; src.len()];
        let mut trg_links = vec![0usize; trg.len()];
        for r in resolved {
            let e = (r.src_sentence, r.trg_sentence);
            if seen.insert(e) {
                edges.push(e);
                src_links[e.0] += 1;
                trg_links[e.1] += 1;
            }
        }
        report.unaligned_source = src_links.iter().filter(|&&n| n == 0).count();
        report.unaligned_target = trg_links.iter().filter(|&&n| n == 0).count();
        let mut out = SentencePairs { pairs: Vec::new(), pair_of_source: vec![None; src.len()] };
        for &(a, b) in &edges {
            if src_links[a] == 1 && trg_links[b] == 1 {
                out.pair_of_source[a] = Some(out.pairs.len());
                out.pairs.push((a, b));
            } else {
                report.skipped_sentence_links.push(SkippedSentenceLink {
                    source: src.sentences[a].id.clone(),
                    target: trg.sentences[b].id.clone(),
                    source_links: src_links[a],
                    target_links: trg_links[b],
                });
            }
        }
        out
    }

    /// The paired sentences as trees, their changes counted in the report.
    fn convert_pairs(
        &self,
        pairs: &[(usize, usize)],
        drop_unreachable: bool,
        report: &mut ImportReport,
    ) -> Result<Vec<(ConvertedSentence, ConvertedSentence)>, TigerError> {
        let mut converted = Vec::with_capacity(pairs.len());
        for (k, &(a, b)) in pairs.iter().enumerate() {
            let convert = |s: &TigerSentence, file: &str| {
                if drop_unreachable {
                    s.to_tree(file)
                } else {
                    s.to_tree_keeping_tops(file)
                }
            };
            let cs = convert(&self.src.sentences[a], self.source_file)?;
            let ct = convert(&self.trg.sentences[b], self.target_file)?;
            for (c, side) in [(&cs, Side::Source), (&ct, Side::Target)] {
                if !c.changes.is_empty() {
                    report.changed_sentences += 1;
                }
                report.changed_nodes += c.yield_changed.len();
                report.changes.extend(c.changes.iter().cloned());
                report.change_places.extend(c.changes.iter().map(|_| (k, side)));
            }
            converted.push((cs, ct));
        }
        Ok(converted)
    }
}

/// How two TigerXML files were matched to an alignment's two treebanks
/// ([`match_files`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedFiles {
    /// Whether the first file is the treebank the alignment declares first.
    pub first_is_treebank_0: bool,
    /// How, when not by the files' names.
    pub note: Option<String>,
}

/// Which of two TigerXML files is which of the alignment's two declared
/// treebanks, whatever order the files come in: by which way round more of
/// the alignment's nodes are in the files, and, when the node ids do not
/// tell (both files hold them, say), by the base names of the files against
/// the declarations' `filename`s. Files named as the alignment declares but
/// holding each other's nodes are matched by their nodes, and the note says
/// that their names are swapped (reading them by their names would name
/// nodes that are not in them). The answer depends on the files, never on
/// their order; the same treebank given twice, or two files neither the
/// ids nor the names tell apart, are refused in words.
pub fn match_files(
    sta_file: &str,
    sta: &StaAlignment,
    (first_file, first): (&str, &TigerCorpus),
    (second_file, second): (&str, &TigerCorpus),
) -> Result<MatchedFiles, TigerError> {
    if sta.treebanks.len() != 2 {
        return Err(TigerError::at(sta_file, sta.loc, TigerErrorKind::TreebankCount { found: sta.treebanks.len() }));
    }
    let (t0, t1) = (&sta.treebanks[0], &sta.treebanks[1]);
    let describe = |t: &StaTreebank| format!("{} = {}", t.id, t.filename.as_deref().unwrap_or("?"));
    let treebanks = format!("{}, {}", describe(t0), describe(t1));
    if first_file == second_file || first == second {
        let given = if basename(first_file) == basename(second_file) {
            basename(first_file).to_string()
        } else {
            format!("{} and {} hold the same sentences", basename(first_file), basename(second_file))
        };
        return Err(TigerError::at(sta_file, sta.loc, TigerErrorKind::SameTreebankTwice { given, treebanks }));
    }
    let named = |t: &StaTreebank, file: &str| t.filename.as_deref().is_some_and(|f| basename(f) == basename(file));
    let by_name_straight = named(t0, first_file) && named(t1, second_file);
    let by_name_crossed = named(t1, first_file) && named(t0, second_file);
    let names_decide = by_name_straight != by_name_crossed;
    // Count the nodes each way round resolves.
    let score = |a: &str, b: &str| {
        sta.alignments
            .iter()
            .flat_map(|al| &al.nodes)
            .filter(|n| {
                (n.treebank == a && resolve(first, &n.node).is_some())
                    || (n.treebank == b && resolve(second, &n.node).is_some())
            })
            .count()
    };
    let (straight, crossed) = (score(&t0.id, &t1.id), score(&t1.id, &t0.id));
    if straight == crossed {
        if names_decide {
            return Ok(MatchedFiles { first_is_treebank_0: by_name_straight, note: None });
        }
        return Err(TigerError::at(
            sta_file,
            sta.loc,
            TigerErrorKind::TreebanksDoNotMatch {
                treebanks,
                source_file: basename(first_file).to_string(),
                target_file: basename(second_file).to_string(),
            },
        ));
    }
    let first_is_treebank_0 = straight > crossed;
    if names_decide && by_name_straight == first_is_treebank_0 {
        return Ok(MatchedFiles { first_is_treebank_0, note: None });
    }
    let (a, b) = if first_is_treebank_0 { (t0, t1) } else { (t1, t0) };
    let how = format!(
        "matched by the node ids each holds ({} of the alignment's nodes one way round, {} the other)",
        straight.max(crossed),
        straight.min(crossed)
    );
    let note = if names_decide {
        format!(
            "the files are named the other way round from the alignment's declarations ({treebanks}): {} holds the \
             nodes of treebank '{}' and {} those of '{}'; {how}",
            basename(first_file),
            a.id,
            basename(second_file),
            b.id
        )
    } else {
        format!(
            "the alignment's treebank file names ({}) do not name {} and {}: {how}: {} is treebank '{}', {} is '{}'",
            [t0, t1].iter().map(|t| t.filename.as_deref().unwrap_or("none")).collect::<Vec<_>>().join(", "),
            basename(first_file),
            basename(second_file),
            basename(first_file),
            a.id,
            basename(second_file),
            b.id
        )
    };
    Ok(MatchedFiles { first_is_treebank_0, note: Some(note) })
}

/// The links of each pair, from [`gold_links`].
struct PairLinks {
    gold: Vec<Vec<Link>>,
    words: Vec<Vec<WordLink>>,
    set_aside: Vec<Vec<TigerLink>>,
}

/// The gold links of each pair in pre-order ids: node alignments within a
/// pair whose nodes are in the trees with unchanged yields (POS links only
/// without `phrase_only`); a link on a node whose yield changed is set
/// aside (by Tiger ids) or dropped ([`ImportOptions::drop_changed_yields`]);
/// every other alignment is counted or reported. Beside them, the word
/// links of each pair (links of two POS nodes).
fn gold_links(
    resolved: &[ResolvedAlign<'_>],
    pairs: &SentencePairs,
    converted: &[(ConvertedSentence, ConvertedSentence)],
    options: ImportOptions,
    report: &mut ImportReport,
) -> PairLinks {
    let mut gold: Vec<Vec<Link>> = vec![Vec::new(); pairs.pairs.len()];
    let mut words: Vec<Vec<WordLink>> = vec![Vec::new(); pairs.pairs.len()];
    let mut set_aside: Vec<Vec<TigerLink>> = vec![Vec::new(); pairs.pairs.len()];
    for r in resolved {
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
        let pair = pairs.pair_of_source[r.src_sentence].filter(|&p| pairs.pairs[p].1 == r.trg_sentence);
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
        if cs.tree.is_pos(i) && ct.tree.is_pos(j) {
            words[p].push((cs.tree.span(i).start, ct.tree.span(j).start, kind));
        }
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
            if options.drop_changed_yields {
                report.dropped_links.push(drop(DropReason::YieldChanged { sides }));
            } else {
                let (source, target) = (r.src_node.to_string(), r.trg_node.to_string());
                set_aside[p].push(TigerLink { source: source.clone(), target: target.clone(), kind });
                let pair = PairIndex::new(p);
                report.set_aside.push(SetAside { pair, source_node: source, target_node: target, kind, sides });
            }
            continue;
        }
        gold[p].push(Link { source: i, target: j, kind });
        report.kept_links += 1;
    }
    PairLinks { gold, words, set_aside }
}
