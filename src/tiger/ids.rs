//! `PREFIX.ids`: where each pair of a corpus imported from TigerXML came
//! from — what `treelink export sta` and `export tiger` map the pairs back
//! through, so their files open with the original treebanks.
//!
//! # Format (version 3, written by `treelink import tiger` and the page)
//!
//! ```text
//! # treelink ids 3
//! # source<TAB>ID<TAB>LANGUAGE<TAB>FILENAME<TAB>PATH
//! # target<TAB>ID<TAB>LANGUAGE<TAB>FILENAME<TAB>PATH
//! # alignment<TAB>PATH
//! s10<TAB>s5<TAB>s10_500 s10_1 s10_2 …<TAB>s5_501 s5_1 …<TAB>s10_502>s5_503 s10_504>s5_502?
//! ```
//!
//! The header gives each treebank as the alignment declared it (`<treebank
//! id language filename>`) and the path the import read it from, and the
//! alignment file's path (a field may be empty). Then one line per pair,
//! line `k` pair `k`: the source and target sentence ids, then the original
//! id of every node of the source tree and of the target tree, in
//! pre-order (node `n` of the bracketed tree is the `n`-th id), separated
//! by spaces. A root the original treebank does not have (the virtual root
//! `VROOT` added over several top nodes) is `%`. The fifth field holds the
//! pair's links set aside by the import ([`PairIds::set_aside`]: a linked
//! node's yield changed, so the link is not in `.gold`), `SOURCE>TARGET` by
//! Tiger ids (each among the line's node ids), `?` after a fuzzy one, in
//! the alignment's order; the export writes them back. In every field `%`,
//! tab, line feed, carriage return, space and `#` are written `%25`, `%09`,
//! `%0A`, `%0D`, `%20` and `%23` (in the fifth also `>` and `?`: `%3E`,
//! `%3F`), so any id reads back as it was.
//!
//! # Version 2
//!
//! As version 3 with the header `# treelink ids 2` and four fields per
//! line: no link set aside (the import then kept such links in `.gold`).
//!
//! # Version 1 (the shared data's `.ids` files)
//!
//! `SOURCE_SENTENCE<TAB>TARGET_SENTENCE` per line, no header: the node ids
//! are then found again by converting the original sentences
//! ([`IdsFile::nodes_from`]).

use std::fmt::Write as _;

use super::convert::ConvertedSentence;
use super::import::{PairIds, SentenceIds, TigerLink};
use super::read::{TigerCorpus, TigerSentence};
use super::sta::StaTreebank;
use super::xml::{Loc, TigerError};
use crate::io::links::LinkKind;
use crate::pair_index::PairIndex;
use crate::tree::Tree;

/// The first line of a version 3 file (what [`IdsFile::write`] writes).
pub const IDS_HEADER: &str = "# treelink ids 3";

/// The first line of a version 2 file (read, no longer written).
const IDS_HEADER_2: &str = "# treelink ids 2";

/// The id written for a node its treebank does not have.
pub const NO_NODE: &str = "%";

/// One treebank of an imported corpus: as the alignment declares it, and
/// where the import read it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TreebankOrigin {
    /// `<treebank id>`: what the alignment's nodes name it by.
    pub id: String,
    pub language: Option<String>,
    /// `<treebank filename>`, as the alignment has it.
    pub filename: Option<String>,
    /// The file the import read (as given to it).
    pub path: Option<String>,
}

impl TreebankOrigin {
    pub fn of(t: &StaTreebank, path: &str) -> Self {
        TreebankOrigin {
            id: t.id.clone(),
            language: t.language.clone(),
            filename: t.filename.clone(),
            path: Some(path.to_string()),
        }
    }
}

/// Where an imported corpus came from: its two treebanks and its alignment.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ImportOrigin {
    pub source: TreebankOrigin,
    pub target: TreebankOrigin,
    /// The alignment file the import read.
    pub alignment: Option<String>,
}

/// What a `PREFIX.ids` file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdsFile {
    /// The treebanks (version 2; `None` in a version 1 file).
    pub origin: Option<ImportOrigin>,
    /// Per pair the sentence ids, and (version 2) every node's id; a
    /// version 1 file leaves the node lists empty.
    pub pairs: Vec<PairIds>,
}

/// A located error in a `.ids` file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: expected {expected}")]
pub struct IdsError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub expected: String,
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\t' => out.push_str("%09"),
            '\n' => out.push_str("%0A"),
            '\r' => out.push_str("%0D"),
            ' ' => out.push_str("%20"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

/// [`escape`], and `>` and `?`, which a set-aside link puts between and after its ids.
fn escape_in_link(s: &str) -> String {
    escape(s).replace('>', "%3E").replace('?', "%3F")
}

/// A set-aside link as the fifth field writes it.
fn write_link(l: &TigerLink) -> String {
    let fuzzy = if l.kind == LinkKind::Fuzzy { "?" } else { "" };
    format!("{}>{}{fuzzy}", escape_in_link(&l.source), escape_in_link(&l.target))
}

/// The inverse of [`escape`]; `None` for a `%` not followed by two hex digits.
fn unescape(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let mut out = Vec::with_capacity(s.len());
    let bytes = s.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] == b'%' {
            let hex = s.get(k + 1..k + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            k += 3;
        } else {
            out.push(bytes[k]);
            k += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn optional(s: &Option<String>) -> String {
    s.as_deref().map(escape).unwrap_or_default()
}

impl IdsFile {
    /// The file's text (version 3 when there is an origin or any node id,
    /// else version 1, as the shared data's files).
    pub fn write(&self) -> String {
        let mut out = String::new();
        let v2 = self.origin.is_some() || self.pairs.iter().any(|p| !p.source.nodes.is_empty());
        if v2 {
            out.push_str(IDS_HEADER);
            out.push('\n');
            let origin = self.origin.clone().unwrap_or_default();
            for (side, t) in [("source", &origin.source), ("target", &origin.target)] {
                let _ = writeln!(
                    out,
                    "# {side}\t{}\t{}\t{}\t{}",
                    escape(&t.id),
                    optional(&t.language),
                    optional(&t.filename),
                    optional(&t.path)
                );
            }
            let _ = writeln!(out, "# alignment\t{}", optional(&origin.alignment));
        }
        for p in &self.pairs {
            let _ = write!(out, "{}\t{}", escape(&p.source.sentence), escape(&p.target.sentence));
            if v2 {
                let nodes = |s: &SentenceIds| {
                    let id = |(k, n): (usize, &String)| {
                        if k == 0 && s.virtual_root {
                            NO_NODE.to_string()
                        } else {
                            escape(n)
                        }
                    };
                    s.nodes.iter().enumerate().map(id).collect::<Vec<_>>().join(" ")
                };
                let links = p.set_aside.iter().map(write_link).collect::<Vec<_>>().join(" ");
                let _ = write!(out, "\t{}\t{}\t{links}", nodes(&p.source), nodes(&p.target));
            }
            out.push('\n');
        }
        out
    }

    /// Reads a `.ids` file of either version; errors are located.
    pub fn read(text: &str, file: &str) -> Result<IdsFile, IdsError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let err =
            |line: usize, column: usize, expected: String| IdsError { file: file.to_string(), line, column, expected };
        let mut lines = text.lines().enumerate().peekable();
        let version = match lines.peek().map(|(_, l)| l.trim_end()) {
            Some(IDS_HEADER) => 3,
            Some(IDS_HEADER_2) => 2,
            _ => 1,
        };
        let v2 = version > 1;
        let mut origin = None;
        if v2 {
            lines.next();
            let mut o = ImportOrigin::default();
            for (want, fields) in [("source", 5), ("target", 5), ("alignment", 2)] {
                let Some((l, line)) = lines.next() else {
                    return Err(err(text.lines().count() + 1, 1, format!("the '# {want}' line of the header")));
                };
                let body = line
                    .strip_prefix("# ")
                    .ok_or_else(|| err(l + 1, 1, format!("the '# {want}' line of the header")))?;
                let parts: Vec<&str> = body.split('\t').collect();
                if parts[0] != want || parts.len() != fields {
                    return Err(err(l + 1, 1, format!("'# {want}' and {} tab-separated fields", fields - 1)));
                }
                let field = |k: usize| -> Result<Option<String>, IdsError> {
                    let raw = parts[k];
                    let column = parts[..k].iter().map(|p| p.chars().count() + 1).sum::<usize>() + 3;
                    match unescape(raw) {
                        Some(v) if v.is_empty() => Ok(None),
                        Some(v) => Ok(Some(v)),
                        None => Err(err(l + 1, column, format!("a field with '%' written as %25, found '{raw}'"))),
                    }
                };
                if want == "alignment" {
                    o.alignment = field(1)?;
                } else {
                    let t = TreebankOrigin {
                        id: field(1)?.unwrap_or_default(),
                        language: field(2)?,
                        filename: field(3)?,
                        path: field(4)?,
                    };
                    if want == "source" {
                        o.source = t;
                    } else {
                        o.target = t;
                    }
                }
            }
            origin = Some(o);
        }
        let mut pairs = Vec::new();
        for (l, line) in lines {
            let fields: Vec<&str> = line.strip_suffix('\r').unwrap_or(line).split('\t').collect();
            let want = [2, 4, 5][version - 1];
            if fields.len() != want {
                let what = match version {
                    3 => "5 tab-separated fields (source and target sentence, their nodes' ids, the links set aside)",
                    2 => "4 tab-separated fields (source and target sentence, their nodes' ids)",
                    _ => "2 tab-separated fields (source and target sentence ids)",
                };
                return Err(err(l + 1, 1, format!("{what}, found {}", fields.len())));
            }
            let column = |k: usize| fields[..k].iter().map(|f| f.chars().count() + 1).sum::<usize>() + 1;
            let one = |k: usize| {
                unescape(fields[k])
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| err(l + 1, column(k), format!("a sentence id, found '{}'", fields[k])))
            };
            // The node ids of field `k` for sentence `sentence`, and whether its root is virtual.
            let nodes = |k: usize, sentence: &str| -> Result<SentenceIds, IdsError> {
                let mut ids = SentenceIds { sentence: sentence.to_string(), nodes: Vec::new(), virtual_root: false };
                for (n, id) in fields[k].split(' ').filter(|n| !n.is_empty()).enumerate() {
                    if n == 0 && id == NO_NODE {
                        ids.virtual_root = true;
                        ids.nodes.push(format!("{sentence}_VROOT"));
                        continue;
                    }
                    let id = unescape(id).filter(|v| !v.is_empty()).ok_or_else(|| {
                        let found =
                            format!("node ids with '%' written as %25 (and % for a virtual root), found '{id}'");
                        err(l + 1, column(k), found)
                    })?;
                    ids.nodes.push(id);
                }
                Ok(ids)
            };
            let (source, target) = (one(0)?, one(1)?);
            let none = |sentence: String| SentenceIds { sentence, nodes: Vec::new(), virtual_root: false };
            let (source, target) =
                if v2 { (nodes(2, &source)?, nodes(3, &target)?) } else { (none(source), none(target)) };
            let mut set_aside = Vec::new();
            for link in fields.get(4).into_iter().flat_map(|f| f.split(' ')).filter(|l| !l.is_empty()) {
                let bad = |what: &str| {
                    err(l + 1, column(4), format!("a link set aside, SOURCE>TARGET of {what}, found '{link}'"))
                };
                let (body, kind) = match link.strip_suffix('?') {
                    Some(b) => (b, LinkKind::Fuzzy),
                    None => (link, LinkKind::Good),
                };
                let (s, t) = body.split_once('>').ok_or_else(|| bad("node ids (a fuzzy one with ? after it)"))?;
                let (Some(s), Some(t)) = (unescape(s), unescape(t)) else {
                    return Err(bad("ids with '%' written as %25"));
                };
                if !source.nodes.contains(&s) || !target.nodes.contains(&t) {
                    return Err(bad("ids of the line's source and target nodes"));
                }
                set_aside.push(TigerLink { source: s, target: t, kind });
            }
            pairs.push(PairIds { source, target, set_aside });
        }
        Ok(IdsFile { origin, pairs })
    }

    /// Whether every pair has its node ids (a version 2 file).
    pub fn has_nodes(&self) -> bool {
        self.pairs.iter().all(|p| !p.source.nodes.is_empty() && !p.target.nodes.is_empty())
    }

    /// Refuses a file that is not of the trees it goes with: pair `k`'s
    /// trees (`nodes`: their node counts, source and target) must have as
    /// many nodes as its line names ids for, else the error is at that
    /// line (and the field of the side that differs) of `ids_file`.
    pub fn check_node_counts(
        &self,
        ids_file: &str,
        nodes: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<(), IdsError> {
        let header = if self.origin.is_some() { 4 } else { 0 };
        for (k, (p, (source, target))) in self.pairs.iter().zip(nodes).enumerate() {
            for (field, side, ids, tree) in [(3, "source", &p.source, source), (4, "target", &p.target, target)] {
                if ids.nodes.len() != tree {
                    return Err(IdsError {
                        file: ids_file.to_string(),
                        line: header + k + 1,
                        column: 1,
                        expected: format!(
                            "one id per node of pair {}'s {side} tree (field {field}: {tree} nodes), found {} ids: \
                             this .ids file was not made with these trees (another import, or changed trees); give \
                             the original treebanks (--source, --target) to find the ids again",
                            PairIndex::new(k),
                            ids.nodes.len()
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// Finds the node ids of every pair again (those of a version 1 file,
    /// which names sentences only, or a version 2 file's, which may be of
    /// another import) by converting each pair's original sentences as the
    /// import did ([`convert_as_imported`]), and which roots are virtual
    /// (a file whose node ids differ is another import's: its links set
    /// aside are dropped with them):
    /// `source` and `target` are the original treebanks (named by their
    /// files in errors), `trees` the corpus's trees, pair by pair. Refuses a
    /// sentence id the treebank does not have, at its line of `ids_file`.
    pub fn nodes_from(
        &mut self,
        ids_file: &str,
        (source_file, source): (&str, &TigerCorpus),
        (target_file, target): (&str, &TigerCorpus),
        trees: &[(&Tree, &Tree)],
    ) -> Result<Vec<(ConvertedSentence, ConvertedSentence)>, TigerError> {
        let mut converted = Vec::with_capacity(self.pairs.len());
        let header = if self.origin.is_some() { 4 } else { 0 };
        let mut another_import = false;
        for (k, p) in self.pairs.iter_mut().enumerate() {
            let mut sides = Vec::with_capacity(2);
            for (column, (ids, file, corpus)) in
                [(&mut p.source, source_file, source), (&mut p.target, target_file, target)].into_iter().enumerate()
            {
                let sentence = corpus.sentence(&ids.sentence).ok_or_else(|| {
                    TigerError::at(
                        ids_file,
                        Loc { line: header + k + 1, column: if column == 0 { 1 } else { 2 } },
                        super::xml::TigerErrorKind::UnknownNode {
                            element: "pair",
                            node: ids.sentence.clone(),
                            file: super::import::basename(file).to_string(),
                        },
                    )
                })?;
                let tree = trees.get(k).map(|t| if column == 0 { t.0 } else { t.1 });
                let c = convert_as_imported(sentence, file, tree)?;
                another_import |= !ids.nodes.is_empty() && ids.nodes != c.node_ids;
                ids.nodes = c.node_ids.clone();
                // A root the treebank has no node for is the import's virtual root (as `import` marks it).
                ids.virtual_root = c.node_ids.first().is_some_and(|r| corpus.sentence_of_node(r).is_none());
                sides.push(c);
            }
            let target = sides.pop();
            let source = sides.pop();
            if let (Some(s), Some(t)) = (source, target) {
                converted.push((s, t));
            }
        }
        if another_import {
            // Its links set aside are that import's, not these trees'.
            self.pairs.iter_mut().for_each(|p| p.set_aside.clear());
        }
        Ok(converted)
    }
}

/// A sentence converted as the import converted it: by
/// [`TigerSentence::to_tree_keeping_tops`] (the default) or
/// [`TigerSentence::to_tree`] (the bracketed data's recipe), whichever
/// gives `tree` when it is known (the first otherwise). The two differ only
/// for a sentence with a second top node.
pub fn convert_as_imported(
    sentence: &TigerSentence,
    file: &str,
    tree: Option<&Tree>,
) -> Result<ConvertedSentence, TigerError> {
    let kept = sentence.to_tree_keeping_tops(file)?;
    if tree.is_none_or(|t| *t == kept.tree) {
        return Ok(kept);
    }
    let dropped = sentence.to_tree(file)?;
    Ok(if tree == Some(&dropped.tree) { dropped } else { kept })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &str, t: &str, sn: &[&str], tn: &[&str]) -> PairIds {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        PairIds {
            source: SentenceIds { sentence: s.into(), nodes: v(sn), virtual_root: false },
            target: SentenceIds { sentence: t.into(), nodes: v(tn), virtual_root: false },
            set_aside: Vec::new(),
        }
    }

    #[test]
    fn version_3_reads_back_whatever_the_ids_hold() {
        let file = IdsFile {
            origin: Some(ImportOrigin {
                source: TreebankOrigin {
                    id: "nl".into(),
                    language: Some("nl_NL".into()),
                    filename: Some("a b.tiger".into()),
                    path: Some("raw/a b.tiger".into()),
                },
                target: TreebankOrigin { id: "en".into(), language: None, filename: None, path: None },
                alignment: Some("raw/al.xml".into()),
            }),
            pairs: vec![
                ids("s10", "s5", &["s10_VROOT", "s10_500", "s 1%", "#x"], &["s5_501", "s5_1"]),
                ids("s\t11", "s6", &["a"], &["b"]),
            ],
        };
        let mut file = file;
        file.pairs[0].source.virtual_root = true;
        let link = |s: &str, t: &str, kind| TigerLink { source: s.into(), target: t.into(), kind };
        file.pairs[0].set_aside = vec![link("s 1%", "s5_1", LinkKind::Good), link("#x", "s5_501", LinkKind::Fuzzy)];
        file.pairs[1].set_aside = vec![link("a", "b", LinkKind::Fuzzy)];
        let text = file.write();
        let header = "# treelink ids 3\n# source\tnl\tnl_NL\ta%20b.tiger\traw/a%20b.tiger\n# target\ten\t\t\t\n";
        assert!(text.starts_with(header), "{text}");
        let line = "\ns10\ts5\t% s10_500 s%201%25 %23x\ts5_501 s5_1\ts%201%25>s5_1 %23x>s5_501?\n";
        assert!(text.contains(line), "{text}");
        assert_eq!(IdsFile::read(&text, "x.ids").unwrap(), file);
        // '>' and '?' in an id of a set-aside link are escaped there.
        file.pairs[1].source.nodes = vec!["a>?".into()];
        file.pairs[1].set_aside = vec![link("a>?", "b", LinkKind::Good)];
        let text = file.write();
        assert!(text.ends_with("\ta>?\tb\ta%3E%3F>b\n"), "{text}");
        assert_eq!(IdsFile::read(&text, "x.ids").unwrap(), file);
    }

    #[test]
    fn version_2_reads_with_no_link_set_aside() {
        let v2 = "# treelink ids 2\n# source\ta\t\t\t\n# target\tb\t\t\t\n# alignment\t\ns1\tt1\ts1_500 s1_1\tt1_1\n";
        let file = IdsFile::read(v2, "old.ids").unwrap();
        assert_eq!(file.pairs, [ids("s1", "t1", &["s1_500", "s1_1"], &["t1_1"])]);
        // Written again, it is version 3.
        assert!(file.write().starts_with("# treelink ids 3\n"));
        assert!(file.write().ends_with("\ts1_500 s1_1\tt1_1\t\n"));
    }

    #[test]
    fn version_1_reads_sentence_ids_alone() {
        let file = IdsFile::read("s10\ts5\ns11\ts6\n", "all.ids").unwrap();
        assert_eq!(file.origin, None);
        assert_eq!(file.pairs[1], ids("s11", "s6", &[], &[]));
        assert!(!file.has_nodes());
        assert_eq!(file.write(), "s10\ts5\ns11\ts6\n");
    }

    #[test]
    fn errors_are_located() {
        let err = |t: &str| IdsFile::read(t, "x.ids").unwrap_err().to_string();
        assert_eq!(
            err("s1\ts2\ns3\n"),
            "x.ids:2:1: expected 2 tab-separated fields (source and target sentence ids), found 1"
        );
        let v2 = "# treelink ids 2\n# source\ta\t\t\t\n# target\tb\t\t\t\n# alignment\t\n";
        assert!(err(&format!("{v2}s1\ts2\n")).starts_with("x.ids:5:1: expected 4 tab-separated fields"));
        let v3 = v2.replace("ids 2", "ids 3");
        assert!(err(&format!("{v3}s1\ts2\ta\tb\n")).starts_with("x.ids:5:1: expected 5 tab-separated fields"));
        assert_eq!(
            err(&format!("{v3}s1\ts2\ta\tb\ta>c\n")),
            "x.ids:5:11: expected a link set aside, SOURCE>TARGET of ids of the line's source and target nodes, found 'a>c'"
        );
        assert_eq!(
            err(&format!("{v3}s1\ts2\ta\tb\ta-b\n")),
            "x.ids:5:11: expected a link set aside, SOURCE>TARGET of node ids (a fuzzy one with ? after it), found 'a-b'"
        );
        assert_eq!(
            err(&format!("{v2}s1\ts2\ta%zz\tb\n")),
            "x.ids:5:7: expected node ids with '%' written as %25 (and % for a virtual root), found 'a%zz'"
        );
        assert!(err("# treelink ids 2\n# source\ta\n")
            .starts_with("x.ids:2:1: expected '# source' and 4 tab-separated fields"));
        assert!(err(&format!("{v2}\ts2\ta\tb\n")).starts_with("x.ids:5:1: expected a sentence id"));
    }
}
