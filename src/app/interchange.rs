//! Treebanks in and out: what `treelink import` / `export` and the page's
//! import and export buttons do, once.
//!
//! - [`import_files`]: the files an import of a TigerXML pair makes
//!   (`PREFIX.src`, `.trg`, `.gold`, `.ids`), the same the page downloads
//!   for the corpus it imported ([`bracketed_files`]).
//! - [`export_sta`]: links (gold or predicted) as a Stockholm TreeAligner
//!   file that opens with the original treebanks: every node's original id,
//!   from the corpus's ids ([`crate::tiger::IdsFile`]), typed `t`/`nt`; the
//!   original alignment's head and `<sen-align>`s kept, none made up; a
//!   model's links with `prob` and good/fuzzy by
//!   [`crate::tiger::predicted_align`]. [`sta_file_name`]: predictions are
//!   named after their links file, never as the gold alignment.
//! - [`export_tiger`]: the pairs as TigerXML that keeps everything the
//!   originals have (each sentence as written), with the links as STA;
//!   without the originals, the trees as TigerXML of their own.
//! - [`dublin_corpus`], [`dublin_text`]: the Dublin aligner's format.
//!
//! The round trip these promise: importing a treebank pair and exporting
//! its gold links as STA gives the original alignment's links, as a set of
//! (source node, target node, type) — the import keeps every link the trees
//! can hold ([`ImportOptions::default`]): as gold, or, on a node whose yield
//! changed, set aside with the ids ([`PairIds::set_aside`]), which an export
//! to the original treebanks writes back; it lists the ones they cannot.

use std::borrow::Cow;

use crate::corpus::{Corpus, Named, PairIndex, TreePair};
use crate::io::dublin::{read_dublin, write_dublin, DublinError};
use crate::io::links::{write_links, Link, LinkKind};
use crate::io::text::{decode_text, decode_text_as, ReadError};
use crate::tiger::{
    export_pair_links, parse_sta, parse_tiger, write_sta_links, write_tiger_verbatim, ExportError, IdsError, IdsFile,
    ImportOrigin, PairIds, StaAlignment, StaExport, StaFrame, StaLinks, TigerCorpus, TigerError, TigerImport,
    TreebankName, TreebankOrigin, WordLink,
};

/// Why an import or export could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InterchangeError {
    #[error(transparent)]
    Tiger(#[from] TigerError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error(transparent)]
    Ids(#[from] IdsError),
    #[error(transparent)]
    Dublin(#[from] DublinError),
    #[error("{ids}: it names the sentences only (an older .ids file): expected the original TigerXML files, to find each node's id")]
    NeedOriginals { ids: String },
    #[error("both treebanks are declared with the file name '{name}': expected two names to write them by")]
    SameFileName { name: String },
}

/// A file an import or export makes: its name (an extension for the
/// bracketed files, a file name otherwise) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeFile {
    pub name: String,
    pub text: String,
}

/// The corpus's bracketed files: `.src`, `.trg`, `.gold` and, for pairs
/// with ids (an import), `.ids` ([`IdsFile`]).
pub fn bracketed_files(corpus: &Corpus, ids: Option<&[PairIds]>, origin: Option<&ImportOrigin>) -> Vec<MadeFile> {
    let lines = |f: fn(&TreePair) -> String| corpus.pairs.iter().map(|p| f(p) + "\n").collect::<String>();
    let mut out = vec![
        MadeFile { name: "src".into(), text: lines(|p| p.source.to_bracketed()) },
        MadeFile { name: "trg".into(), text: lines(|p| p.target.to_bracketed()) },
        MadeFile {
            name: "gold".into(),
            text: write_links(&corpus.pairs.iter().map(|p| p.gold.clone()).collect::<Vec<_>>()),
        },
    ];
    if let Some(ids) = ids {
        let file = IdsFile { origin: origin.cloned(), pairs: ids.to_vec() };
        out.push(MadeFile { name: "ids".into(), text: file.write() });
    }
    out
}

/// Where an import came from: the treebanks as the alignment declared
/// them, found by the paths given (`source`, `target`, `alignment`: what an
/// export finds them by; the names they were imported by if `None`).
pub fn import_origin(imported: &TigerImport, paths: Option<[&str; 3]>) -> ImportOrigin {
    let [source, target, alignment] = paths.unwrap_or([&imported.files[0], &imported.files[1], &imported.files[2]]);
    ImportOrigin {
        source: TreebankOrigin::of(&imported.treebanks[0], source),
        target: TreebankOrigin::of(&imported.treebanks[1], target),
        alignment: Some(alignment.to_string()),
    }
}

/// The files of an import ([`bracketed_files`] with its ids and
/// [`import_origin`]), and `.words`, its [`words_text`], when it has any.
pub fn import_files(imported: &TigerImport, paths: Option<[&str; 3]>) -> Vec<MadeFile> {
    let mut files = bracketed_files(&imported.corpus, Some(&imported.ids), Some(&import_origin(imported, paths)));
    if let Some(text) = words_text(imported) {
        files.push(MadeFile { name: crate::app::files::WORDS.into(), text });
    }
    files
}

/// The alignment's word links, when it has any: a line per pair, `i-j`
/// (good) or `i-j?` (fuzzy) word positions from 0, as `--word-align` reads
/// them ([`crate::app::files::set_word_links`]); the page's word links
/// after a TigerXML import.
pub fn words_text(imported: &TigerImport) -> Option<String> {
    imported.words.iter().any(|links| !links.is_empty()).then(|| {
        let link = |&(i, j, kind): &WordLink| format!("{i}-{j}{}", if kind == LinkKind::Fuzzy { "?" } else { "" });
        let line = |links: &Vec<WordLink>| links.iter().map(link).collect::<Vec<_>>().join(" ") + "\n";
        imported.words.iter().map(line).collect()
    })
}

/// The original TigerXML files of an imported corpus.
#[derive(Debug, Clone, Copy)]
pub struct Originals<'a> {
    pub source: Named<'a>,
    pub target: Named<'a>,
}

/// The ids an export writes and the treebanks it declares.
struct ExportIds {
    ids: Vec<PairIds>,
    source: TreebankName,
    target: TreebankName,
}

fn name_of(t: &TreebankOrigin, fallback_file: &str) -> TreebankName {
    let file = t.filename.clone().or_else(|| t.path.as_deref().map(base).map(String::from));
    TreebankName {
        id: t.id.clone(),
        language: t.language.clone().unwrap_or_default(),
        filename: file.unwrap_or_else(|| fallback_file.to_string()),
    }
}

fn base(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The ids for an export of `corpus`: those of its `.ids` file (`ids`,
/// named `ids_name`), else ids made up ([`PairIds::synthesize`]: sentences
/// `s1`, `s2`, …), with treebanks `source` / `target`. With the originals,
/// each tree must be the one its sentence converts to, and each node's id
/// is found again by that conversion (an older file names sentences only; a
/// newer one made by another import would name other nodes). Without them,
/// each pair's trees must have as many nodes as the file names ids for, or
/// the file is not of these trees. The originals, parsed, come back with
/// the ids.
fn export_ids(
    corpus: &Corpus,
    ids: Option<(&IdsFile, &str)>,
    originals: Option<Originals<'_>>,
) -> Result<(ExportIds, Option<[TigerCorpus; 2]>), InterchangeError> {
    let made_up;
    let (file, ids_name) = match ids {
        Some(given) => given,
        None => {
            made_up = IdsFile { origin: None, pairs: PairIds::synthesize(corpus) };
            (&made_up, "the ids made up for want of a .ids file (sentences s1, s2, …)")
        }
    };
    let mut file = file.clone();
    let (source, target) = match &file.origin {
        Some(o) => (name_of(&o.source, "treelink-source.xml"), name_of(&o.target, "treelink-target.xml")),
        None => {
            let named = |o: Option<Originals<'_>>, side: fn(Originals<'_>) -> Named<'_>, id: &str| {
                TreebankName::new(id, "", o.map_or(&format!("treelink-{id}.xml"), |o| base(side(o).name)))
            };
            (named(originals, |o| o.source, "source"), named(originals, |o| o.target, "target"))
        }
    };
    if file.pairs.len() != corpus.len() {
        return Err(ExportError::PairCount { expected: corpus.len(), found: file.pairs.len() }.into());
    }
    let parsed = match originals {
        Some(o) => {
            let (s, t) = (parse_tiger(o.source.text, o.source.name)?, parse_tiger(o.target.text, o.target.name)?);
            let trees: Vec<_> = corpus.pairs.iter().map(|p| (&p.source, &p.target)).collect();
            let converted = file.nodes_from(ids_name, (o.source.name, &s), (o.target.name, &t), &trees)?;
            check_trees(corpus, &file.pairs, converted.iter().map(|(s, t)| (&s.tree, &t.tree)), o)?;
            Some([s, t])
        }
        None if !file.has_nodes() => return Err(InterchangeError::NeedOriginals { ids: ids_name.to_string() }),
        None => {
            file.check_node_counts(ids_name, corpus.pairs.iter().map(|p| (p.source.len(), p.target.len())))?;
            None
        }
    };
    Ok((ExportIds { ids: file.pairs, source, target }, parsed))
}

/// Refuses a tree that is not the one its original sentence converts to.
fn check_trees<'t>(
    corpus: &Corpus,
    ids: &[PairIds],
    converted: impl IntoIterator<Item = (&'t crate::tree::Tree, &'t crate::tree::Tree)>,
    o: Originals<'_>,
) -> Result<(), ExportError> {
    for (k, ((pair, pid), (s, t))) in corpus.pairs.iter().zip(ids).zip(converted).enumerate() {
        for (side, mine, theirs, sentence, file) in [
            ("source", &pair.source, s, &pid.source.sentence, o.source.name),
            ("target", &pair.target, t, &pid.target.sentence, o.target.name),
        ] {
            if mine != theirs {
                return Err(ExportError::TreeChanged {
                    pair: PairIndex::new(k),
                    side,
                    sentence: sentence.clone(),
                    file: file.to_string(),
                });
            }
        }
    }
    Ok(())
}

/// `links` (one list per pair of `corpus`, gold or predicted) as a
/// Stockholm TreeAligner file that opens with the original treebanks:
/// every node named by its original id, from the corpus's ids (`ids`, its
/// `.ids` file and name; see [`export_ids`] for an older file or none) and
/// typed `t` or `nt`. With the original alignment (`alignment`), its
/// `<treealign>` tag and `<head>` are kept as written (metadata, the
/// treebanks in its declared order) and so are its `<sen-align>`s of the
/// exported pairs; without it, the treebanks are declared source first and
/// no `<sen-align>` is written. Without ids, the nodes are those of
/// [`export_tiger`]'s own TigerXML, each pair's `<sen-align>` naming its two
/// roots. Predicted links carry `prob` and `type` by
/// [`crate::tiger::predicted_align`]. A link to a virtual root the import
/// added is left out and listed (the treebank has no such node).
pub fn export_sta(
    corpus: &Corpus,
    links: StaLinks<'_>,
    ids: Option<(&IdsFile, &str)>,
    originals: Option<Originals<'_>>,
    alignment: Option<Named<'_>>,
) -> Result<StaExport, InterchangeError> {
    let own_trees = ids.is_none();
    let (e, _) = export_ids(corpus, ids, originals)?;
    let parsed = alignment.map(|a| parse_sta(a.text, a.name)).transpose()?;
    let frame = frame(own_trees, alignment, parsed.as_ref());
    Ok(write_sta_links(corpus, links, &e.ids, (&e.source, &e.target), frame)?)
}

/// What an STA export is written around: the trees' own TigerXML, or the
/// original treebanks with their alignment if there is one.
fn frame<'a>(own_trees: bool, alignment: Option<Named<'a>>, parsed: Option<&'a StaAlignment>) -> StaFrame<'a> {
    match (own_trees, alignment, parsed) {
        (true, _, _) => StaFrame::OwnTrees,
        (false, Some(a), Some(sta)) => StaFrame::Original { text: a.text, sta },
        _ => StaFrame::Treebanks,
    }
}

/// The name of an export's STA file: a model's links are named after
/// their links file (`pred.links` → `pred.sta.xml`), so predictions never
/// take the gold alignment's name; gold links after the original
/// alignment (its base name), else `alignment.xml`.
pub fn sta_file_name(predicted_links_file: Option<&str>, original_alignment: Option<&str>) -> String {
    match (predicted_links_file, original_alignment) {
        (Some(links), _) => {
            let base = base(links);
            let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
            format!("{stem}.sta.xml")
        }
        (None, Some(a)) => base(a).to_string(),
        (None, None) => "alignment.xml".to_string(),
    }
}

/// What [`export_tiger`] makes: the two TigerXML files and the alignment,
/// each with the name the alignment's declarations give it, and the links
/// left out of the alignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TigerFiles {
    pub files: Vec<MadeFile>,
    pub left_out: Vec<String>,
}

/// The pairs of `corpus` as TigerXML with `links` as STA (named
/// `alignment_name`, see [`sta_file_name`]). With the original TigerXML
/// files (`originals`) and the corpus's ids, each sentence is written as the
/// original has it — every feature, edge label, secondary edge and
/// discontinuous constituent kept, the `<head>` with its declarations too —
/// after checking each tree is the one its sentence converts to; the files
/// are named as the alignment declares them, and the STA is
/// [`export_sta`]'s (around the original `alignment` if given). Without
/// originals, the trees are written as TigerXML of their own
/// ([`export_pair_links`]: ids from the `.ids` file or made up;
/// `treelink-source.xml`, `treelink-target.xml`), continuous, with word, POS
/// and category only.
pub fn export_tiger(
    corpus: &Corpus,
    links: StaLinks<'_>,
    ids: Option<(&IdsFile, &str)>,
    originals: Option<Originals<'_>>,
    alignment: Option<Named<'_>>,
    alignment_name: &str,
) -> Result<TigerFiles, InterchangeError> {
    let (e, parsed) = export_ids(corpus, ids, originals)?;
    if base(&e.source.filename) == base(&e.target.filename) {
        return Err(InterchangeError::SameFileName { name: base(&e.source.filename).to_string() });
    }
    let (Some(o), Some([s, t])) = (originals, parsed) else {
        let out = export_pair_links(corpus, links, Some(&e.ids), &e.source, &e.target)?;
        return Ok(TigerFiles {
            files: vec![
                MadeFile { name: base(&e.source.filename).to_string(), text: out.source_tiger },
                MadeFile { name: base(&e.target.filename).to_string(), text: out.target_tiger },
                MadeFile { name: alignment_name.to_string(), text: out.sta },
            ],
            left_out: Vec::new(),
        });
    };
    // export_ids checked each tree is its sentence's: the export writes the sentence, not the tree.
    let source_tiger = write_tiger_verbatim(
        o.source.text,
        &s,
        o.source.name,
        "source",
        e.ids.iter().map(|p| p.source.sentence.as_str()),
    )?;
    let target_tiger = write_tiger_verbatim(
        o.target.text,
        &t,
        o.target.name,
        "target",
        e.ids.iter().map(|p| p.target.sentence.as_str()),
    )?;
    let parsed_alignment = alignment.map(|a| parse_sta(a.text, a.name)).transpose()?;
    let frame = frame(false, alignment, parsed_alignment.as_ref());
    let sta = write_sta_links(corpus, links, &e.ids, (&e.source, &e.target), frame)?;
    Ok(TigerFiles {
        files: vec![
            MadeFile { name: base(&e.source.filename).to_string(), text: source_tiger },
            MadeFile { name: base(&e.target.filename).to_string(), text: target_tiger },
            MadeFile { name: alignment_name.to_string(), text: sta.text },
        ],
        left_out: sta.left_out,
    })
}

/// A Dublin file as a corpus: its first tree of each pair the source
/// (`reverse`: the second), its links good links; with what the reading
/// left out, located.
pub fn dublin_corpus(file: Named<'_>, reverse: bool) -> Result<(Corpus, Vec<String>), InterchangeError> {
    let pairs = read_dublin(file.text, file.name)?;
    let notes = pairs.iter().flat_map(|p| p.notes.iter().cloned()).collect();
    let pairs = pairs.into_iter().map(|p| {
        let gold = p.links.iter().map(|&(s, t)| if reverse { Link::good(t, s) } else { Link::good(s, t) }).collect();
        let (source, target) = if reverse { (p.target, p.source) } else { (p.source, p.target) };
        TreePair { source, target, gold }
    });
    Ok((Corpus { pairs: pairs.collect() }, notes))
}

/// A Dublin file's bytes as text, for an input that cannot ask for its
/// encoding (the page's): UTF-8 (gzip inflated, as every file is read,
/// [`decode_text`]), else Latin-1 as `treelink import dublin --encoding
/// latin1` reads it — the format cannot say its encoding, and the Dublin
/// aligner's own files are Latin-1. The second value says Latin-1 was used.
pub fn decode_dublin<'a>(bytes: &'a [u8], file: &str) -> Result<(Cow<'a, str>, bool), ReadError> {
    match decode_text(bytes, file) {
        Ok(text) => Ok((text, false)),
        Err(utf8) => {
            decode_text_as(bytes, file, "latin1").map(|t| (Cow::Owned(t.into_owned()), true)).map_err(|_| utf8)
        }
    }
}

/// `corpus` with `links` (one list per pair) in the Dublin format, and how
/// many fuzzy links lost their type (the format has none).
pub fn dublin_text(corpus: &Corpus, links: &[Vec<Link>]) -> (String, usize) {
    write_dublin(corpus.pairs.iter().zip(links).map(|(p, l)| {
        (&p.source, &p.target, l.iter().map(|l| (l.source, l.target, l.kind == LinkKind::Fuzzy)).collect::<Vec<_>>())
    }))
}
