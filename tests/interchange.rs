//! Research I/O against the real data of `../shared/data`: TigerXML + STA
//! round trips (the gold links exported for the original treebanks are the
//! alignment's links), the TigerXML export that keeps the original
//! sentences, GIZA++'s A3.final files against Moses' symmetrised links, the
//! Dublin aligner's file, and the property that import → export → import is
//! the identity on generated treebanks with discontinuous constituents.
#![cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk

use std::collections::BTreeSet;

use proptest::prelude::*;
use treelink::app::files::read_word_links;
use treelink::app::interchange::{dublin_corpus, dublin_text, export_sta, export_tiger, import_files, Originals};
use treelink::corpus::{Corpus, Named};
use treelink::io::links::{Link, LinkKind};
use treelink::io::text::decode_text_as;
use treelink::lexicon::{read_giza_a3, symmetrize, Symmetrization, WordAlignment};
use treelink::tiger::{import_pair, parse_sta, DropReason, IdsFile, ImportOptions, LinkOrigin, StaLinks, TigerImport};
use treelink::tree::NodeId;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/");

fn read(rel: &str) -> String {
    let path = format!("{DATA}{rel}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn named<'a>(name: &'a str, text: &'a str) -> Named<'a> {
    Named { name, text }
}

/// The `<align>` links of an STA text as a set of (source id, target id, type).
fn sta_links(text: &str, source: &str, target: &str) -> BTreeSet<(String, String, String)> {
    let sta = parse_sta(text, "sta").unwrap();
    let kind = |k: &treelink::tiger::StaKind| match k {
        treelink::tiger::StaKind::Good => "good".to_string(),
        treelink::tiger::StaKind::Fuzzy => "fuzzy".to_string(),
        treelink::tiger::StaKind::Other(t) => t.clone(),
        treelink::tiger::StaKind::Sentence => "sentence".to_string(),
    };
    let mut out = BTreeSet::new();
    for a in sta.alignments.iter().filter(|a| a.kind != treelink::tiger::StaKind::Sentence) {
        let node = |tb: &str| a.nodes.iter().find(|n| n.treebank == tb).map(|n| n.node.clone()).unwrap();
        out.insert((node(source), node(target), kind(&a.kind)));
    }
    out
}

struct Set {
    source: String,
    target: String,
    alignment: String,
    names: [&'static str; 3],
}

impl Set {
    fn read(names: [&'static str; 3]) -> Set {
        Set { source: read(names[0]), target: read(names[1]), alignment: read(names[2]), names }
    }

    fn import(&self, options: ImportOptions) -> TigerImport {
        import_pair(
            named(self.names[0], &self.source),
            named(self.names[1], &self.target),
            named(self.names[2], &self.alignment),
            options,
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn originals(&self) -> Originals<'_> {
        Originals { source: named(self.names[0], &self.source), target: named(self.names[1], &self.target) }
    }
}

/// The import's ids as the CLI writes and reads them back (`PREFIX.ids`).
fn ids_of(imported: &TigerImport) -> IdsFile {
    let made = import_files(imported, None);
    let ids = made.iter().find(|f| f.name == "ids").unwrap();
    IdsFile::read(&ids.text, "x.ids").unwrap()
}

fn gold(corpus: &Corpus) -> Vec<Vec<Link>> {
    corpus.pairs.iter().map(|p| p.gold.clone()).collect()
}

fn as_gold(links: &[Vec<Link>]) -> StaLinks<'_> {
    StaLinks { links, origin: LinkOrigin::Gold }
}

#[test]
fn nl_en_gold_links_exported_for_the_original_treebanks_are_the_alignments_links() {
    let set = Set::read([
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.nl.tiger",
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.en.tiger",
        "lingua-align-nl-en-125/raw/nl-en_125.xml",
    ]);
    let imported = set.import(ImportOptions::default());
    assert!(imported.report.dropped_links.is_empty(), "{:?}", imported.report.dropped_links);
    let ids = ids_of(&imported);
    let sta =
        export_sta(&imported.corpus, as_gold(&gold(&imported.corpus)), Some((&ids, "x.ids")), None, None).unwrap();
    assert!(sta.left_out.is_empty());
    let (original, exported) = (sta_links(&set.alignment, "nl", "en"), sta_links(&sta.text, "nl", "en"));
    assert_eq!(original.len(), 4118);
    // None lost, none added: links on discontinuous constituents (148 of them) included.
    assert_eq!(exported, original);
    assert_eq!(imported.report.set_aside.len(), 148);
    assert_eq!(imported.ids.iter().map(|p| p.set_aside.len()).sum::<usize>(), 148);
    // The declarations are the original ones.
    assert!(sta.text.contains(r#"<treebank id="nl" language="Unknown" filename="ep-00-12-15.125.nl.tiger"/>"#));
    // An old .ids file (sentence ids alone) with the original treebanks gives the same file.
    let old = IdsFile::read(&read("lingua-align-nl-en-125/bracketed/all.ids"), "all.ids").unwrap();
    let bracketed = set.import(ImportOptions::BRACKETED_DATA);
    let from_old = export_sta(
        &bracketed.corpus,
        as_gold(&gold(&bracketed.corpus)),
        Some((&old, "all.ids")),
        Some(set.originals()),
        None,
    )
    .unwrap();
    let new = ids_of(&bracketed);
    let from_new =
        export_sta(&bracketed.corpus, as_gold(&gold(&bracketed.corpus)), Some((&new, "x.ids")), None, None).unwrap();
    assert_eq!(sta_links(&from_old.text, "source", "target"), sta_links(&from_new.text, "nl", "en"));
}

/// G1 of issue 24: a `.ids` file made by another import (the default one)
/// beside trees of the bracketed data's recipe names other nodes on the
/// pairs where the two differ. Without the originals that is refused where
/// the counts differ; with them the ids are found again and the links are
/// those of the right file.
#[test]
fn an_ids_file_of_another_import_is_refused_or_found_again_never_used_silently() {
    let set = Set::read([
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.nl.tiger",
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.en.tiger",
        "lingua-align-nl-en-125/raw/nl-en_125.xml",
    ]);
    let (default, bracketed) = (set.import(ImportOptions::default()), set.import(ImportOptions::BRACKETED_DATA));
    let (stale, right) = (ids_of(&default), ids_of(&bracketed));
    let differ: Vec<usize> = (0..right.pairs.len())
        .filter(|&k| {
            let (a, b) = (&stale.pairs[k], &right.pairs[k]);
            a.source.nodes.len() != b.source.nodes.len() || a.target.nodes.len() != b.target.nodes.len()
        })
        .collect();
    assert!(!differ.is_empty(), "the two imports make trees of other sizes somewhere");
    let links = gold(&bracketed.corpus);
    let err =
        export_sta(&bracketed.corpus, as_gold(&links), Some((&stale, "x.ids")), None, None).unwrap_err().to_string();
    // The first pair whose counts differ, at its line (after the 4 header lines).
    let line = format!("x.ids:{}:1:", 4 + differ[0] + 1);
    assert!(err.starts_with(&line) && err.contains("not made with these trees"), "{err}");
    let good = export_sta(&bracketed.corpus, as_gold(&links), Some((&right, "x.ids")), None, None).unwrap();
    let found =
        export_sta(&bracketed.corpus, as_gold(&links), Some((&stale, "x.ids")), Some(set.originals()), None).unwrap();
    assert_eq!(sta_links(&found.text, "nl", "en"), sta_links(&good.text, "nl", "en"));
    assert_eq!(found.left_out, good.left_out);
    // No .ids at all: the made-up sentence ids (s1, s2, …) are not nl-en's,
    // so the originals cannot be written for these pairs; said, not guessed.
    let err = export_tiger(&bracketed.corpus, as_gold(&links), None, Some(set.originals()), None, "a.xml")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("the ids made up for want of a .ids file (sentences s1, s2, …):1:1:"), "{err}");
}

#[test]
fn nl_en_tigerxml_export_keeps_the_original_sentences_and_imports_back_to_the_same_corpus() {
    let set = Set::read([
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.nl.tiger",
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.en.tiger",
        "lingua-align-nl-en-125/raw/nl-en_125.xml",
    ]);
    let imported = set.import(ImportOptions::default());
    let ids = ids_of(&imported);
    let out = export_tiger(
        &imported.corpus,
        as_gold(&gold(&imported.corpus)),
        Some((&ids, "x.ids")),
        Some(set.originals()),
        Some(named(set.names[2], &set.alignment)),
        "nl-en_125.xml",
    )
    .unwrap();
    let names: Vec<&str> = out.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["ep-00-12-15.125.nl.tiger", "ep-00-12-15.125.en.tiger", "nl-en_125.xml"]);
    // Every feature declaration, edge label and secondary edge of the original.
    for what in ["<feature ", " label=\"", "<secedge"] {
        assert_eq!(out.files[0].text.matches(what).count(), set.source.matches(what).count(), "{what}");
    }
    let back = import_pair(
        named(names[0], &out.files[0].text),
        named(names[1], &out.files[1].text),
        named(names[2], &out.files[2].text),
        ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(back.corpus, imported.corpus);
    assert_eq!(back.ids, imported.ids);
    // Two treebanks declared with one file name cannot be written as two files (found by fuzzing).
    let mut same = ids.clone();
    if let Some(o) = same.origin.as_mut() {
        o.target.filename = o.source.filename.clone();
    }
    let e = export_tiger(
        &imported.corpus,
        as_gold(&gold(&imported.corpus)),
        Some((&same, "x.ids")),
        Some(set.originals()),
        None,
        "a.xml",
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "both treebanks are declared with the file name 'ep-00-12-15.125.nl.tiger': expected two names to write them by");
    // A tree that is not the imported one is refused (the export writes sentences, not trees).
    let mut changed = imported.corpus.clone();
    changed.pairs[3] = changed.pairs[4].clone();
    let e =
        export_tiger(&changed, as_gold(&gold(&changed)), Some((&ids, "x.ids")), Some(set.originals()), None, "a.xml")
            .unwrap_err();
    assert!(e.to_string().starts_with("pair 4: the source tree is not the one imported from"), "{e}");
}

#[test]
fn squoia_raw_round_trips_every_link_of_its_one_to_one_pairs() {
    for sub in ["LAI", "GREG"] {
        let set = Set::read([
            ["squoia-de-es/raw/", sub, "_SQUOIA_DE.xml"].concat().leak(),
            ["squoia-de-es/raw/", sub, "_SQUOIA_ES.xml"].concat().leak(),
            ["squoia-de-es/raw/", sub, "_alignments_squoia_de_es.xml"].concat().leak(),
        ]);
        let imported = set.import(ImportOptions::default());
        let ids = ids_of(&imported);
        let sta =
            export_sta(&imported.corpus, as_gold(&gold(&imported.corpus)), Some((&ids, "x.ids")), None, None).unwrap();
        let (original, exported) = (sta_links(&set.alignment, "de", "es"), sta_links(&sta.text, "de", "es"));
        // Nothing added; what is lost is exactly what the import listed: links of sentences
        // aligned 1:2 or 2:1, which a corpus of sentence pairs cannot hold.
        assert!(exported.is_subset(&original), "{sub}");
        let lost: BTreeSet<_> = original.difference(&exported).map(|(s, t, _)| (s.clone(), t.clone())).collect();
        let listed: BTreeSet<_> =
            imported.report.dropped_links.iter().map(|d| (d.source_node.clone(), d.target_node.clone())).collect();
        assert_eq!(lost, listed, "{sub}");
        assert!(imported.report.dropped_links.iter().all(|d| d.reason == DropReason::NotInPair), "{sub}");
        assert!(!imported.report.skipped_sentence_links.is_empty(), "{sub}");
    }
}

// ------------------------------------------- STA exports read by another reader

/// The ids of the terminals (`<t>`) of a TigerXML text, read by roxmltree.
fn terminal_ids(tiger: &str) -> BTreeSet<String> {
    let doc = roxmltree::Document::parse(tiger).unwrap();
    doc.descendants().filter(|n| n.has_tag_name("t")).filter_map(|n| n.attribute("id")).map(String::from).collect()
}

/// An STA text as roxmltree reads it: the declared treebank ids in order,
/// the `<alignment-metadata>` children as (tag, text), each `<sen-align>`'s
/// node ids, and each `<align>`'s attributes and nodes (treebank, id, type).
struct ReadBack {
    treebanks: Vec<String>,
    metadata: Vec<(String, String)>,
    sen_aligns: Vec<Vec<String>>,
    aligns: Vec<(Attributes, Vec<ReadNode>)>,
}

/// An element's attributes as (name, value).
type Attributes = Vec<(String, String)>;
/// A `<node>`: treebank id, node id and its `type`, if any.
type ReadNode = (String, String, Option<String>);

fn read_back(text: &str) -> ReadBack {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not XML: {e}"));
    let elements = |tag: &'static str| doc.descendants().filter(move |n| n.has_tag_name(tag));
    let nodes = |n: roxmltree::Node<'_, '_>| {
        n.children()
            .filter(|c| c.has_tag_name("node"))
            .map(|c| {
                let attr = |a: &str| c.attribute(a).unwrap_or_default().to_string();
                (attr("treebank_id"), attr("node_id"), c.attribute("type").map(String::from))
            })
            .collect::<Vec<_>>()
    };
    ReadBack {
        treebanks: elements("treebank").map(|t| t.attribute("id").unwrap().to_string()).collect(),
        metadata: elements("alignment-metadata")
            .flat_map(|m| m.children().filter(|c| c.is_element()))
            .map(|c| (c.tag_name().name().to_string(), c.text().unwrap_or_default().to_string()))
            .collect(),
        sen_aligns: elements("sen-align").map(|a| nodes(a).into_iter().map(|(_, id, _)| id).collect()).collect(),
        aligns: elements("align")
            .map(|a| {
                let attrs = a.attributes().map(|x| (x.name().to_string(), x.value().to_string())).collect();
                (attrs, nodes(a))
            })
            .collect(),
    }
}

fn nl_en() -> Set {
    Set::read([
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.nl.tiger",
        "lingua-align-nl-en-125/raw/ep-00-12-15.125.en.tiger",
        "lingua-align-nl-en-125/raw/nl-en_125.xml",
    ])
}

/// Issue 40 item 1: the nl-en gold exported for the original treebanks, read
/// back by roxmltree: every node typed as the original treebanks have it
/// (`t` for a Tiger terminal, `nt` otherwise), the original's treebank order
/// and metadata, no `<sen-align>` (the original has none), no `prob`.
#[test]
fn nl_en_sta_export_types_every_node_and_keeps_the_originals_order_and_metadata() {
    let set = nl_en();
    let imported = set.import(ImportOptions::default());
    let ids = ids_of(&imported);
    let alignment = Some(named(set.names[2], &set.alignment));
    let sta =
        export_sta(&imported.corpus, as_gold(&gold(&imported.corpus)), Some((&ids, "x.ids")), None, alignment).unwrap();
    let (original, exported) = (read_back(&set.alignment), read_back(&sta.text));
    assert_eq!(original.treebanks, ["en", "nl"]);
    assert_eq!(exported.treebanks, original.treebanks);
    assert_eq!(original.metadata.len(), 8);
    assert_eq!(original.metadata[0], ("author".to_string(), "Gideon Kotzé".to_string()));
    assert_eq!(exported.metadata, original.metadata);
    assert!(original.sen_aligns.is_empty());
    assert!(exported.sen_aligns.is_empty(), "{} <sen-align>s made up", exported.sen_aligns.len());
    // Every link, every node typed by what it is in the original treebanks.
    // (Ids are per treebank: s10_1 is a Dutch phrase and an English word.)
    let (en, nl) = (terminal_ids(&set.target), terminal_ids(&set.source));
    assert!(en.contains("s10_1") && !nl.contains("s10_1"));
    assert_eq!(exported.aligns.len(), original.aligns.len());
    let (mut t, mut nt) = (0, 0);
    for (attrs, nodes) in &exported.aligns {
        assert!(attrs.iter().all(|(name, _)| name != "prob"), "gold links have no prob: {attrs:?}");
        // The nodes in the declared order (en first), as the original writes them.
        assert_eq!(nodes.iter().map(|n| n.0.as_str()).collect::<Vec<_>>(), ["en", "nl"]);
        for (treebank, id, kind) in nodes {
            let terminals = if treebank == "en" { &en } else { &nl };
            let want = if terminals.contains(id) { "t" } else { "nt" };
            assert_eq!(kind.as_deref(), Some(want), "{id}");
            if want == "t" {
                t += 1;
            } else {
                nt += 1;
            }
        }
    }
    // Phrase links are most of nl-en's, with word links beside them.
    assert!(nt > 2 * 1380 && t > 0, "{nt} phrase nodes, {t} terminals");
}

/// Issue 40 item 1: SQUOIA's originals have `<sen-align>`s: those of the
/// exported pairs are kept as written (and no other), around the
/// original's head.
#[test]
fn squoia_sta_export_keeps_the_originals_sen_aligns_of_its_pairs_and_no_other() {
    let set = Set::read([
        "squoia-de-es/raw/LAI_SQUOIA_DE.xml",
        "squoia-de-es/raw/LAI_SQUOIA_ES.xml",
        "squoia-de-es/raw/LAI_alignments_squoia_de_es.xml",
    ]);
    let imported = set.import(ImportOptions::default());
    let ids = ids_of(&imported);
    let alignment = Some(named(set.names[2], &set.alignment));
    let sta =
        export_sta(&imported.corpus, as_gold(&gold(&imported.corpus)), Some((&ids, "x.ids")), None, alignment).unwrap();
    let (original, exported) = (read_back(&set.alignment), read_back(&sta.text));
    assert_eq!(original.sen_aligns.len(), 165);
    let pairs: BTreeSet<Vec<String>> = imported
        .ids
        .iter()
        .map(|p| vec![format!("{}_VROOT", p.source.sentence), format!("{}_VROOT", p.target.sentence)])
        .collect();
    let of_pairs: Vec<&Vec<String>> = original.sen_aligns.iter().filter(|s| pairs.contains(*s)).collect();
    assert_eq!(exported.sen_aligns.iter().collect::<Vec<_>>(), of_pairs);
    assert!(of_pairs.len() < original.sen_aligns.len() && of_pairs.len() >= 150, "{}", of_pairs.len());
    assert_eq!(exported.metadata, original.metadata);
    assert_eq!(exported.treebanks, ["de", "es"]);
    // The import reads it back to the same corpus.
    let back = import_pair(
        named(set.names[0], &set.source),
        named(set.names[1], &set.target),
        named("back.xml", &sta.text),
        ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(back.corpus, imported.corpus);
}

/// Issue 40 item 1: a model's links carry `prob` and `type` by
/// `predicted_align`: from a links file (no posteriors) `i-j` is prob 1,
/// good and `i-j?` prob 0.5, fuzzy; with posteriors, prob is the posterior
/// and good exactly when it is above 0.5 (Lingua-Align's reading of prob).
#[test]
fn predicted_links_carry_prob_and_a_type_lingua_align_reads_the_same() {
    let set = nl_en();
    let imported = set.import(ImportOptions::BRACKETED_DATA);
    let ids = ids_of(&imported);
    // "Predictions": the gold phrase links, every third one marked fuzzy.
    let mut predicted = gold(&imported.corpus);
    for (k, l) in predicted.iter_mut().flatten().enumerate() {
        l.kind = if k % 3 == 0 { LinkKind::Fuzzy } else { LinkKind::Good };
    }
    let n = predicted.iter().map(Vec::len).sum::<usize>();
    assert_eq!(n, 1380);
    let from_file = StaLinks { links: &predicted, origin: LinkOrigin::Predicted { posteriors: None } };
    let sta = export_sta(&imported.corpus, from_file, Some((&ids, "x.ids")), None, None).unwrap();
    let back = read_back(&sta.text);
    assert_eq!(back.aligns.len(), n);
    let attr = |attrs: &[(String, String)], name: &str| attrs.iter().find(|(a, _)| a == name).map(|(_, v)| v.clone());
    let flat: Vec<&Link> = predicted.iter().flatten().collect();
    for ((attrs, _), link) in back.aligns.iter().zip(&flat) {
        let (prob, kind) = (attr(attrs, "prob"), attr(attrs, "type"));
        match link.kind {
            LinkKind::Good => assert_eq!((prob.as_deref(), kind.as_deref()), (Some("1"), Some("good"))),
            LinkKind::Fuzzy => assert_eq!((prob.as_deref(), kind.as_deref()), (Some("0.5"), Some("fuzzy"))),
        }
    }
    // With posteriors (the scores a search takes its links with).
    let posteriors: Vec<Vec<f64>> = predicted
        .iter()
        .enumerate()
        .map(|(k, l)| (0..l.len()).map(|j| ((k + j) % 10) as f64 / 10.0 + 0.05).collect())
        .collect();
    let scored = StaLinks { links: &predicted, origin: LinkOrigin::Predicted { posteriors: Some(&posteriors) } };
    let sta = export_sta(&imported.corpus, scored, Some((&ids, "x.ids")), None, None).unwrap();
    let back = read_back(&sta.text);
    for ((attrs, _), p) in back.aligns.iter().zip(posteriors.iter().flatten()) {
        let prob: f64 = attr(attrs, "prob").unwrap().parse().unwrap();
        assert_eq!(prob, *p);
        assert_eq!(attr(attrs, "type").unwrap(), if prob > 0.5 { "good" } else { "fuzzy" });
    }
    // The types read back by the import are the links'.
    let back = import_pair(
        named(set.names[0], &set.source),
        named(set.names[1], &set.target),
        named("pred.sta.xml", &sta.text),
        ImportOptions::default(),
    )
    .unwrap();
    let kinds = |l: &[Vec<Link>]| l.iter().flatten().filter(|l| l.kind == LinkKind::Good).count();
    assert_eq!(kinds(&gold(&back.corpus)), posteriors.iter().flatten().filter(|&&p| p > 0.5).count());
}

/// Issue 40 item 1: `export tiger --links pred.links` names its STA file
/// after the links file, with prob on every link; the gold keeps the
/// original alignment's name.
#[test]
fn export_tiger_names_predictions_after_their_links_file() {
    use std::process::Command;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sta-names");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let treelink = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_treelink")).args(args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let raw = format!("{DATA}lingua-align-nl-en-125/raw/");
    let prefix = dir.join("nlen").display().to_string();
    treelink(&[
        "import",
        "tiger",
        "--reverse",
        "--source",
        &format!("{raw}ep-00-12-15.125.nl.tiger"),
        "--target",
        &format!("{raw}ep-00-12-15.125.en.tiger"),
        "--alignment",
        &format!("{raw}nl-en_125.xml"),
        "-o",
        &prefix,
    ]);
    let pred = dir.join("pred.links").display().to_string();
    std::fs::copy(format!("{prefix}.gold"), &pred).unwrap();
    let (out_pred, out_gold) = (dir.join("pred").display().to_string(), dir.join("gold").display().to_string());
    treelink(&["export", "tiger", "--input", &prefix, "--links", &pred, "-o", &out_pred]);
    treelink(&["export", "tiger", "--input", &prefix, "-o", &out_gold]);
    let names = |d: &str| {
        let mut n: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        n.sort();
        n
    };
    assert_eq!(names(&out_pred), ["ep-00-12-15.125.en.tiger", "ep-00-12-15.125.nl.tiger", "pred.sta.xml"]);
    assert_eq!(names(&out_gold), ["ep-00-12-15.125.en.tiger", "ep-00-12-15.125.nl.tiger", "nl-en_125.xml"]);
    let predicted = read_back(&std::fs::read_to_string(format!("{out_pred}/pred.sta.xml")).unwrap());
    // A model's links are its own: the 148 gold links the import set aside are not added to them.
    assert_eq!(predicted.aligns.len(), 4118 - 148);
    assert!(predicted.aligns.iter().all(|(attrs, _)| attrs.iter().any(|(a, _)| a == "prob")));
    let gold = read_back(&std::fs::read_to_string(format!("{out_gold}/nl-en_125.xml")).unwrap());
    assert_eq!(gold.aligns.len(), 4118);
    assert!(gold.aligns.iter().all(|(attrs, _)| attrs.iter().all(|(a, _)| a != "prob")));
    // The original alignment's frame, found through PREFIX.ids, in both.
    assert_eq!((predicted.treebanks, gold.metadata.len()), (vec!["en".to_string(), "nl".to_string()], 8));
}

#[test]
fn giza_a3_files_in_both_directions_give_moses_intersection() {
    let corpus = Corpus::read_prefix(&format!("{DATA}lingua-align-nl-en-125/bracketed/all"), false).unwrap();
    let bracketed_ids = read("lingua-align-nl-en-125/bracketed/all.ids");
    // The A3 files and aligned.* hold 403 pairs (aligned.ids: English sentence, Dutch sentence):
    // keep the corpus's 125 (Dutch source, English target), in its order.
    let aligned_ids: Vec<String> =
        read("lingua-align-nl-en-125/raw/moses/aligned.ids").lines().map(String::from).collect();
    // (pair of the corpus, row of the A3 files) for the pairs GIZA++ aligned.
    let found: Vec<(usize, usize)> = bracketed_ids
        .lines()
        .enumerate()
        .filter_map(|(k, l)| {
            let (nl, en) = l.split_once('\t')?;
            let want = format!("{}\t{}", en.trim_start_matches('s'), nl.trim_start_matches('s'));
            Some((k, aligned_ids.iter().position(|a| *a == want)?))
        })
        .collect();
    let gunzip = |f: &str| {
        let bytes = std::fs::read(format!("{DATA}{f}")).unwrap();
        decode_text_as(&bytes, f, "utf-8").unwrap().into_owned()
    };
    // GIZA++ ran on its own tokenisation: keep the pairs whose sentences are the trees' words.
    let s2t_all = read_giza_a3(&gunzip("lingua-align-nl-en-125/raw/moses/src-trg.A3.final.gz"), "s2t").unwrap();
    let found: Vec<(usize, usize)> = found
        .into_iter()
        .filter(|&(k, r)| {
            let p = &corpus.pairs[k];
            s2t_all[r].giza_source.len() == p.source.words().len()
                && s2t_all[r].giza_target.len() == p.target.words().len()
        })
        .collect();
    assert!(found.len() >= 100, "{} of the 125 pairs in the GIZA++ files with the trees' words", found.len());
    let corpus = Corpus { pairs: found.iter().map(|&(k, _)| corpus.pairs[k].clone()).collect() };
    let rows: Vec<usize> = found.iter().map(|&(_, r)| r).collect();
    let cut = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        rows.iter().flat_map(|&r| lines[3 * r..3 * r + 3].iter().map(|l| format!("{l}\n"))).collect::<String>()
    };
    let (a, b) = (
        cut(&gunzip("lingua-align-nl-en-125/raw/moses/src-trg.A3.final.gz")),
        cut(&gunzip("lingua-align-nl-en-125/raw/moses/trg-src.A3.final.gz")),
    );
    // Either order: the directions come from the sentences.
    let read_both =
        |x: &str, y: &str| read_word_links(&[named("a.A3.final", x), named("b.A3.final", y)], &corpus).unwrap();
    let links = read_both(&a, &b);
    assert_eq!(links.links, read_both(&b, &a).links);
    assert!(links.notes.iter().any(|n| n.contains("grow-diag-final-and")), "{:?}", links.notes);
    // Their intersection is Moses' aligned.intersect of the same pairs (English first there).
    let one = |x: &str| read_word_links(&[named("a.A3.final", x)], &corpus).unwrap().links;
    let (s2t, t2s) = (one(&a), one(&b));
    let moses: Vec<String> =
        read("lingua-align-nl-en-125/raw/moses/aligned.intersect").lines().map(String::from).collect();
    let mut equal = 0;
    for (k, p) in corpus.pairs.iter().enumerate() {
        let (n, m) = (p.source.words().len(), p.target.words().len());
        let ours = symmetrize(&s2t[k], &t2s[k], n, m, Symmetrization::Intersection);
        let theirs = WordAlignment::new(moses[rows[k]].split_whitespace().map(|l| {
            let (en, nl) = l.split_once('-').unwrap();
            (nl.parse().unwrap(), en.parse().unwrap())
        }));
        equal += usize::from(ours == theirs);
    }
    assert_eq!(equal, corpus.len());
}

#[test]
fn the_dublin_file_reads_as_its_125_pairs_and_writes_back() {
    let bytes = std::fs::read(format!("{DATA}lingua-align-nl-en-125/raw/nl-en_125.dublin")).unwrap();
    // Latin-1, as the data's README says: read as UTF-8 its one non-ASCII byte is located.
    let e = decode_text_as(&bytes, "nl-en_125.dublin", "utf-8").unwrap_err().to_string();
    assert!(e.starts_with("nl-en_125.dublin:186:"), "{e}");
    let text = decode_text_as(&bytes, "nl-en_125.dublin", "latin1").unwrap();
    assert!(text.contains("ideeën"));
    // English first in the file; read the other way round, Dutch is the source as in bracketed/all.
    let (corpus, notes) = dublin_corpus(named("nl-en_125.dublin", &text), true).unwrap();
    assert_eq!(corpus.len(), 125);
    // Two of its lines of links end with a number without its partner: left out, and said.
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("nl-en_125.dublin:171:"), "{notes:?}");
    let bracketed = Corpus::read_prefix(&format!("{DATA}lingua-align-nl-en-125/bracketed/all"), false).unwrap();
    let sorted = |w: &[String]| {
        let mut w = w.to_vec();
        w.sort();
        w
    };
    let same = |f: &dyn Fn(&treelink::corpus::TreePair) -> Vec<String>| {
        corpus.pairs.iter().zip(&bracketed.pairs).filter(|(d, b)| f(d) == f(b)).count()
    };
    let english = same(&|p| p.target.words().to_vec());
    // The Dutch leaves are in another order where constituents were discontinuous.
    let dutch = same(&|p| sorted(p.source.words()));
    eprintln!("English sentences equal: {english}, Dutch words equal as multisets: {dutch}");
    // (Three Dutch trees of the Dublin file lack a word of the TigerXML sentence, such as its ".")
    assert_eq!((english, dutch), (125, 122));
    // The first pair's first links by hand: 1 1 2 2 … in the file (English, Dutch), from 1.
    assert_eq!(
        corpus.pairs[0].gold[..2],
        [Link::good(NodeId::new(0), NodeId::new(0)), Link::good(NodeId::new(1), NodeId::new(1))]
    );
    let (written, fuzzy) = dublin_text(&corpus, &gold(&corpus));
    assert_eq!(fuzzy, 0);
    assert_eq!(dublin_corpus(named("back.dublin", &written), false).unwrap(), (corpus, Vec::new()));
}

// ------------------------------------------------------------------ property

/// A generated sentence: `words` terminals and nonterminals given as
/// (category, children), children being terminals (`T(k)`) or later
/// nonterminals (`N(k)`), the first nonterminal the root. Children may
/// be any subset of the words, so constituents are often discontinuous.
#[derive(Debug, Clone)]
struct Sentence {
    words: usize,
    nts: Vec<Vec<Child>>,
}

#[derive(Debug, Clone, Copy)]
enum Child {
    T(usize),
    N(usize),
}

fn sentence() -> impl Strategy<Value = Sentence> {
    (2usize..9).prop_flat_map(|words| (Just(words), 1..=words.min(5))).prop_flat_map(|(words, nts)| {
        // Each word and each nonterminal but the root gets a parent among the earlier
        // nonterminals; word k < nts goes to nonterminal k, so none is empty.
        let word_parents = proptest::collection::vec(0..nts, words);
        let nt_parents: Vec<BoxedStrategy<usize>> = (1..nts).map(|k| (0..k).boxed()).collect();
        (Just(words), Just(nts), word_parents, nt_parents).prop_map(|(words, nts, wp, np)| {
            let mut children = vec![Vec::new(); nts];
            for (w, &p) in wp.iter().enumerate() {
                children[if w < nts { w } else { p }].push(Child::T(w));
            }
            for (k, &p) in np.iter().enumerate() {
                children[p].push(Child::N(k + 1));
            }
            Sentence { words, nts: children }
        })
    })
}

fn tiger_of(prefix: &str, sentences: &[Sentence]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<corpus id=\"g\">\n<head><annotation>\n<feature name=\"pos\" domain=\"T\"/><feature name=\"morph\" domain=\"T\"/>\n</annotation></head>\n<body>\n");
    for (k, s) in sentences.iter().enumerate() {
        out.push_str(&format!("<s id=\"{prefix}{k}\"><graph root=\"{prefix}{k}_500\"><terminals>\n"));
        for w in 0..s.words {
            out.push_str(&format!(
                " <t id=\"{prefix}{k}_{}\" word=\"w{w}\" pos=\"P{}\" morph=\"m{w}\"/>\n",
                w + 1,
                w % 3
            ));
        }
        out.push_str("</terminals><nonterminals>\n");
        for (n, children) in s.nts.iter().enumerate() {
            out.push_str(&format!(" <nt id=\"{prefix}{k}_{}\" cat=\"C{}\">", 500 + n, n % 4));
            for c in children {
                let id = match c {
                    Child::T(w) => format!("{prefix}{k}_{}", w + 1),
                    Child::N(m) => format!("{prefix}{k}_{}", 500 + m),
                };
                out.push_str(&format!("<edge label=\"L{}\" idref=\"{id}\"/>", id.len() % 3));
            }
            out.push_str("</nt>\n");
        }
        out.push_str("</nonterminals></graph></s>\n");
    }
    out.push_str("</body>\n</corpus>\n");
    out
}

/// An alignment of sentence pairs k – k with the given node links
/// (indices into each sentence's nodes: words first, then nonterminals).
/// A generated pair: its two sentences and its links (source node, target node, fuzzy).
type GeneratedPair = (Sentence, Sentence, Vec<(usize, usize, bool)>);

fn sta_of(pairs: &[GeneratedPair]) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n<treealign><head><treebanks>\n<treebank id=\"a\" filename=\"a.xml\"/><treebank id=\"b\" filename=\"b.xml\"/>\n</treebanks></head><alignments>\n");
    let node = |prefix: &str, k: usize, s: &Sentence, n: usize| {
        let n = n % (s.words + s.nts.len());
        if n < s.words {
            format!("{prefix}{k}_{}", n + 1)
        } else {
            format!("{prefix}{k}_{}", 500 + n - s.words)
        }
    };
    for (k, (s, t, links)) in pairs.iter().enumerate() {
        out.push_str(&format!("<sen-align><node treebank_id=\"a\" node_id=\"x{k}_VROOT\"/><node treebank_id=\"b\" node_id=\"y{k}_VROOT\"/></sen-align>\n"));
        for &(i, j, fuzzy) in links {
            out.push_str(&format!(
                "<align type=\"{}\"><node treebank_id=\"a\" node_id=\"{}\"/><node treebank_id=\"b\" node_id=\"{}\"/></align>\n",
                if fuzzy { "fuzzy" } else { "good" },
                node("x", k, s, i),
                node("y", k, t, j)
            ));
        }
    }
    out.push_str("</alignments></treealign>\n");
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Import → export (TigerXML with the original sentences, the gold links as STA) → import
    /// is the identity: the same trees, ids and links, and the same STA links as the original.
    #[test]
    fn import_export_import_is_the_identity_with_discontinuous_constituents(
        pairs in proptest::collection::vec(
            (sentence(), sentence(), proptest::collection::vec((0usize..20, 0usize..20, any::<bool>()), 0..6)),
            1..5,
        )
    ) {
        let a = tiger_of("x", &pairs.iter().map(|p| p.0.clone()).collect::<Vec<_>>());
        let b = tiger_of("y", &pairs.iter().map(|p| p.1.clone()).collect::<Vec<_>>());
        let sta = sta_of(&pairs);
        let imported = import_pair(named("a.xml", &a), named("b.xml", &b), named("g.sta", &sta), ImportOptions::default()).unwrap();
        prop_assert!(imported.report.dropped_links.is_empty(), "{:?}", imported.report.dropped_links);
        let ids = ids_of(&imported);
        let originals = Originals { source: named("a.xml", &a), target: named("b.xml", &b) };
        let out = export_tiger(&imported.corpus, as_gold(&gold(&imported.corpus)), Some((&ids, "x.ids")), Some(originals), Some(named("g.sta", &sta)), "g.sta").unwrap();
        let back = import_pair(
            named("a.xml", &out.files[0].text),
            named("b.xml", &out.files[1].text),
            named("g.sta", &out.files[2].text),
            ImportOptions::default(),
        ).unwrap();
        prop_assert_eq!(&back.corpus, &imported.corpus);
        prop_assert_eq!(&back.ids, &imported.ids);
        prop_assert_eq!(sta_links(&out.files[2].text, "a", "b"), sta_links(&sta, "a", "b"));
    }
}

/// The generator makes discontinuous constituents, and links on them, often.
#[test]
fn the_generated_treebanks_are_discontinuous_often() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut changed, mut kept) = (0, 0);
    for _ in 0..64 {
        let (s, t) =
            (sentence().new_tree(&mut runner).unwrap().current(), sentence().new_tree(&mut runner).unwrap().current());
        let links: Vec<(usize, usize, bool)> = (0..12).map(|k| (k, k + 1, false)).collect();
        let pairs = vec![(s, t, links)];
        let a = tiger_of("x", &[pairs[0].0.clone()]);
        let b = tiger_of("y", &[pairs[0].1.clone()]);
        let imported = import_pair(
            named("a.xml", &a),
            named("b.xml", &b),
            named("g.sta", &sta_of(&pairs)),
            ImportOptions::default(),
        )
        .unwrap();
        changed += imported.report.changed_nodes;
        kept += imported.report.set_aside.len();
    }
    assert!(changed > 30 && kept > 10, "{changed} nodes changed their yield, {kept} links set aside on them");
}

/// Issue 40 item 6: one rule for the direction of a TigerXML import, in
/// `app::files` for the CLI and the page: the treebank the alignment
/// declares first is the source (English for nl-en_125.xml), the other when
/// reversed, whatever order the files come in.
#[test]
fn the_source_is_the_treebank_declared_first_unless_reversed_in_any_order() {
    use std::process::Command;
    use treelink::app::files::{import_tiger, import_tiger_set, TigerDirection};
    let raw = "lingua-align-nl-en-125/raw/";
    let (nl_name, en_name, sta_name) = (
        format!("{raw}ep-00-12-15.125.nl.tiger"),
        format!("{raw}ep-00-12-15.125.en.tiger"),
        format!("{raw}nl-en_125.xml"),
    );
    let (nl, en, sta) = (read(&nl_name), read(&en_name), read(&sta_name));
    let (nl, en, sta) = (named(&nl_name, &nl), named(&en_name, &en), named(&sta_name, &sta));
    let reversed = import_tiger_set(sta, [en, nl], TigerDirection::Reversed, ImportOptions::default()).unwrap();
    assert_eq!((reversed.treebanks[0].id.as_str(), reversed.treebanks[1].id.as_str()), ("nl", "en"));
    assert_eq!(reversed.corpus.pairs[0].source.words()[0], "Ik");
    assert_eq!(
        reversed.report.notes.last().unwrap(),
        &format!(
            "source: treebank 'nl' (Unknown) = {nl_name} (the alignment declares it second, reversed as asked); \
             target: treebank 'en' (Unknown) = {en_name}"
        )
    );
    for files in [[en, nl], [nl, en]] {
        let declared = import_tiger_set(sta, files, TigerDirection::Declared, ImportOptions::default()).unwrap();
        assert_eq!(declared.files[0], en_name);
        assert_eq!(declared.corpus, reversed.corpus.swapped());
        let again = import_tiger_set(sta, files, TigerDirection::Reversed, ImportOptions::default()).unwrap();
        assert_eq!(again.corpus, reversed.corpus);
    }
    // The page's files in any order: the CLI's import as declared.
    let cli = import_tiger_set(sta, [nl, en], TigerDirection::Declared, ImportOptions::default()).unwrap();
    for files in [[sta, nl, en], [en, sta, nl], [nl, en, sta]] {
        let page = import_tiger(&files, ImportOptions::default()).unwrap();
        assert_eq!(page.corpus, cli.corpus);
        assert!(page.report.notes.last().unwrap().contains("(the alignment declares it first)"));
    }
    // The CLI refuses a --source that the rule does not make the source, writing nothing.
    let dir = std::env::temp_dir().join(format!("treelink-direction-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("nlen").display().to_string();
    let o = Command::new(env!("CARGO_BIN_EXE_treelink"))
        .args(["import", "tiger", "--source", &format!("{DATA}{nl_name}"), "--target", &format!("{DATA}{en_name}")])
        .args(["--alignment", &format!("{DATA}{sta_name}"), "-o", &out])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("is given as --source, but")
            && e.contains("declares its treebank second")
            && e.contains("give --reverse"),
        "{e}"
    );
    assert!(!std::path::Path::new(&format!("{out}.src")).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 40 item 6: the page's Dublin input reads the shared nl-en file,
/// which is Latin-1, as `import dublin --encoding latin1` does.
#[test]
fn a_dublin_file_that_is_not_utf8_is_read_as_latin1() {
    use treelink::app::interchange::decode_dublin;
    let bytes = std::fs::read(format!("{DATA}lingua-align-nl-en-125/raw/nl-en_125.dublin")).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "the shared file is Latin-1");
    let (text, latin1) = decode_dublin(&bytes, "nl-en_125.dublin").unwrap();
    assert!(latin1);
    assert_eq!(text, decode_text_as(&bytes, "nl-en_125.dublin", "latin1").unwrap());
    let (corpus, _) = dublin_corpus(named("nl-en_125.dublin", &text), false).unwrap();
    assert_eq!(corpus.len(), 125);
    // UTF-8 stays UTF-8 (its bytes would read as other letters in Latin-1).
    let (text, latin1) = decode_dublin("(N-1 Straße)\n".as_bytes(), "u.dublin").unwrap();
    assert_eq!((text.as_ref(), latin1), ("(N-1 Straße)\n", false));
    // Control bytes are refused as in any file.
    assert!(decode_dublin(b"(N-1 a\x00b)\n", "b.dublin").is_err());
}
