//! Reading the user's files for the page, off the page's thread: the page
//! keeps each upload's text in its slot and asks the file worker to check
//! them ([`LoadRequest`]); the worker runs [`check`] (the engine's readers,
//! through [`crate::app::files`]) and answers with each slot's status, and,
//! when the uploads make a corpus, the corpus itself in parts of
//! [`PART_PAIRS`] pairs ([`WirePair`], each part its own short task on the
//! page). A file that does not read never replaces what was loaded: its
//! status says where and why, and no corpus comes back.
//!
//! Plain Rust, built and tested natively; the worker's side is
//! `ui::worker`, the page's the reducer (`ui::state`) and `ui::effects`.

use serde::{Deserialize, Serialize};

use crate::app::files::{self, FileKind, TableSide};
use crate::app::interchange;
use crate::corpus::{Corpus, CorpusError, Named, TreePair};
use crate::exercise::{Answers, ClassTable, Exercise};
use crate::io::links::{Link, LinkKind};
use crate::io::text::counted;
use crate::lexicon::read_word_alignments_for;
use crate::limits::Limits;
use crate::mt::lm::read_arpa;
use crate::tiger::{ImportOptions, ImportOrigin, PairIds, Side};
use crate::tree::{Tree, TreeBuilder};

/// The built-in sample (SQUOIA German–Spanish, dev; `www/sample/`),
/// embedded in the workers that read it ([`sample`]), not in the page.
const SAMPLE_SRC: &str = include_str!("../../www/sample/dev.src");
const SAMPLE_TRG: &str = include_str!("../../www/sample/dev.trg");
const SAMPLE_GOLD: &str = include_str!("../../www/sample/dev.gold");

/// The built-in sample's pairs, read.
pub fn sample() -> Corpus {
    Corpus::from_texts(
        Named { name: "sample/dev.src", text: SAMPLE_SRC },
        Named { name: "sample/dev.trg", text: SAMPLE_TRG },
        Some(Named { name: "sample/dev.gold", text: SAMPLE_GOLD }),
    )
    .unwrap_or_default()
}

/// The built-in sample as a check's answer: read on the page's thread
/// (157 pairs, a few milliseconds), so a first visit needs no worker.
pub fn sample_checked() -> Checked {
    let corpus = sample();
    let answer = LoadAnswer {
        statuses: Vec::new(),
        corpus: Some((CorpusOrigin::Sample, corpus.len())),
        model: None,
        exercise: None,
        class: None,
        warnings: Vec::new(),
        given: Vec::new(),
        tiger: None,
    };
    Checked { answer, corpus: Some((corpus, None)) }
}

/// A request's answer as the page gets it: the sample's read on the page
/// ([`sample_checked`]), any other the file worker's ([`check`]).
#[cfg(test)]
pub fn answer(request: &LoadRequest) -> Checked {
    if request.sample {
        sample_checked()
    } else {
        check(request)
    }
}

/// Pairs per part of a corpus sent to the page: a part decodes in a few
/// milliseconds, so no task of the page's thread grows with the corpus.
pub const PART_PAIRS: usize = 50;

/// The kinds of file the loader accepts, each with its own picker and status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Slot {
    #[default]
    Source,
    Target,
    Gold,
    Tiger,
    LexS2t,
    LexT2s,
    WordLinks,
    Model,
    TranslationModel,
    Lm,
    /// A classroom exercise: its pairs become the loaded corpus.
    Exercise,
    /// Students' answers to the open exercise (many files).
    Answers,
    /// Dev pairs given as their own files (`PREFIX.src`, `.trg`, `.gold`,
    /// as `treelink train --dev PREFIX`): appended after the pairs as their dev.
    DevSet,
    /// Test pairs given as their own files: appended last, aligned held out
    /// (`treelink align --input PREFIX --held-out`).
    TestSet,
    /// The Dublin sub-tree aligner's pairs and links (`treelink import dublin`).
    Dublin,
    /// The two GIZA++ vocabularies (`.vcb`) a t-table of word ids is read
    /// with (`--vcb`), in either order: the pairs' words tell them apart.
    Vcb,
}

/// Which part of the split a set of pairs given as its own files is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeldRole {
    Dev,
    Test,
}

impl HeldRole {
    pub fn slot(self) -> Slot {
        match self {
            HeldRole::Dev => Slot::DevSet,
            HeldRole::Test => Slot::TestSet,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HeldRole::Dev => "dev",
            HeldRole::Test => "test",
        }
    }
}

impl Slot {
    /// The slots checked together: trees, their gold links and word links.
    pub const TREES_GROUP: [Slot; 4] = [Slot::Source, Slot::Target, Slot::Gold, Slot::WordLinks];

    /// The slots checked together: the lexical tables and the vocabularies
    /// a table of word ids is read with.
    pub const LEXICON_GROUP: [Slot; 3] = [Slot::LexS2t, Slot::LexT2s, Slot::Vcb];

    /// The inputs whose files make pairs (each kind puts the others' out of use).
    pub const PAIRS: [Slot; 5] = [Slot::Source, Slot::Target, Slot::Gold, Slot::Tiger, Slot::Dublin];

    /// The slots checked with this one (itself alone when none).
    pub fn group(self) -> &'static [Slot] {
        match self {
            Slot::Source | Slot::Target | Slot::Gold => &Slot::TREES_GROUP,
            Slot::LexS2t | Slot::LexT2s | Slot::Vcb => &Slot::LEXICON_GROUP,
            Slot::Tiger => &[Slot::Tiger, Slot::WordLinks],
            // Answers are checked against the open exercise's file.
            Slot::Answers => &[Slot::Exercise, Slot::Answers],
            Slot::WordLinks => &[Slot::WordLinks],
            Slot::Model => &[Slot::Model],
            Slot::TranslationModel => &[Slot::TranslationModel],
            Slot::Lm => &[Slot::Lm],
            Slot::Exercise => &[Slot::Exercise],
            Slot::DevSet => &[Slot::DevSet],
            Slot::TestSet => &[Slot::TestSet],
            Slot::Dublin => &[Slot::Dublin],
        }
    }

    pub const ALL: [Slot; 16] = [
        Slot::Source,
        Slot::Target,
        Slot::Gold,
        Slot::Tiger,
        Slot::LexS2t,
        Slot::LexT2s,
        Slot::WordLinks,
        Slot::Model,
        Slot::TranslationModel,
        Slot::Lm,
        Slot::Exercise,
        Slot::Answers,
        Slot::DevSet,
        Slot::TestSet,
        Slot::Dublin,
        Slot::Vcb,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Slot::Source => "src",
            Slot::Target => "trg",
            Slot::Gold => "gold",
            Slot::Tiger => "tiger",
            Slot::LexS2t => "lex-s2t",
            Slot::LexT2s => "lex-t2s",
            Slot::WordLinks => "word-align",
            Slot::Model => "model",
            Slot::TranslationModel => "mt-model",
            Slot::Lm => "lm",
            Slot::Exercise => "exercise",
            Slot::Answers => "answers",
            Slot::DevSet => "dev-set",
            Slot::TestSet => "test-set",
            Slot::Dublin => "dublin",
            Slot::Vcb => "vcb",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Slot::Source => "Source trees (.src)",
            Slot::Target => "Target trees (.trg)",
            Slot::Gold => "Gold links (.gold)",
            Slot::Tiger => "TigerXML pair + STA alignment (.xml, 3 files)",
            Slot::LexS2t => "Lexical table p(t|s) (Moses lex.e2f)",
            Slot::LexT2s => "Lexical table p(s|t) (Moses lex.f2e)",
            Slot::WordLinks => "Word alignment (i-j per line)",
            Slot::Model => "Alignment model (.json from treelink train)",
            Slot::TranslationModel => "Translation model (.json or binary .tlmt from treelink mt-train)",
            Slot::Lm => "Language model for training translation (ARPA)",
            Slot::Exercise => "Open an exercise (.json from an instructor)",
            Slot::Answers => "Students' answers to this exercise (.json, many files)",
            Slot::DevSet => "Dev pairs (.src + .trg + .gold, as train --dev)",
            Slot::TestSet => "Test pairs (.src + .trg + .gold, aligned held out)",
            Slot::Dublin => "Dublin aligner file (.dublin, UTF-8 or Latin-1)",
            Slot::Vcb => "GIZA++ vocabularies for t-tables of word ids (.vcb, source and target, 2 files)",
        }
    }

    pub fn accept(self) -> Option<&'static str> {
        match self {
            Slot::Source => Some(".src,.trg,.txt,.mrg,.penn"),
            Slot::Target => Some(".trg,.src,.txt,.mrg,.penn"),
            Slot::Gold => Some(".gold,.txt"),
            Slot::Tiger => Some(".xml,.tiger"),
            Slot::Model => Some(".json"),
            Slot::TranslationModel => Some(".json,.tlmt"),
            Slot::Lm => Some(".arpa,.lm"),
            Slot::Exercise | Slot::Answers => Some(".json"),
            Slot::DevSet | Slot::TestSet => Some(".src,.trg,.gold"),
            Slot::Dublin => Some(".dublin"),
            Slot::Vcb => Some(".vcb"),
            Slot::LexS2t | Slot::LexT2s | Slot::WordLinks => None,
        }
    }

    /// Which slot a dropped file goes to, by its name ([`FileKind::from_name`];
    /// a `.json` file is an alignment model until its head says otherwise).
    pub fn of_file(name: &str) -> Option<Slot> {
        FileKind::from_name(name).map(Slot::of_kind)
    }

    /// The slot of a file of kind `kind`.
    pub fn of_kind(kind: FileKind) -> Slot {
        match kind {
            FileKind::SourceTrees => Slot::Source,
            FileKind::TargetTrees => Slot::Target,
            FileKind::GoldLinks => Slot::Gold,
            FileKind::TigerXml | FileKind::StaAlignment => Slot::Tiger,
            FileKind::LexS2t => Slot::LexS2t,
            FileKind::LexT2s => Slot::LexT2s,
            FileKind::WordAlignment => Slot::WordLinks,
            FileKind::AlignmentModel => Slot::Model,
            FileKind::TranslationModel => Slot::TranslationModel,
            FileKind::ArpaLm => Slot::Lm,
            FileKind::Exercise => Slot::Exercise,
            FileKind::ExerciseAnswers => Slot::Answers,
            FileKind::Dublin => Slot::Dublin,
            FileKind::GizaVocab => Slot::Vcb,
        }
    }

    /// Whether the input takes several files at once (a TigerXML set, a class's answers).
    pub fn takes_many(self) -> bool {
        matches!(self, Slot::Tiger | Slot::Answers | Slot::DevSet | Slot::TestSet | Slot::Vcb)
    }
}

/// A file's name (for errors) and text. The text is shared with the
/// page's state (no copy per request), and the page's side of the file
/// worker sends a text the worker already holds as a reference to it
/// (`ui::effects`), so a large file crosses to the worker once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileText {
    pub name: String,
    pub text: std::rc::Rc<str>,
}

/// What the file worker is asked to check: the slot that changed and the
/// files of every slot its check needs (the trees with their gold links and
/// word links; the three Tiger files; one file otherwise).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LoadRequest {
    pub changed: Slot,
    pub files: Vec<(Slot, Vec<FileText>)>,
    /// The trees loaded now, bracketed (source, target): gold links given
    /// without uploaded trees are read against them.
    pub current: Option<(String, String)>,
    /// The sentence lengths of the pairs loaded now (word links are checked against them).
    pub lengths: Vec<(usize, usize)>,
    /// For the lexical tables and vocabularies ([`Slot::LEXICON_GROUP`]):
    /// the source words of the pairs loaded now, every occurrence, to
    /// report how many a table covers (one that covers the other side's
    /// better looks given the wrong way round) and to tell the two
    /// vocabularies apart.
    #[serde(default)]
    pub source_words: Vec<String>,
    /// The target words, likewise.
    #[serde(default)]
    pub target_words: Vec<String>,
    /// Files of the trees' group that were refused with the others (gold
    /// links given before their trees, say), tried again with the changed
    /// slot's; `files` holds those slots' files in use, used if the retried
    /// ones are refused again.
    #[serde(default)]
    pub retry: Vec<(Slot, Vec<FileText>)>,
    /// The slots whose last given files are in the request (the others
    /// send their files in use), each with the count of files given to it
    /// (`SlotStatus::given`); the answer carries it back.
    #[serde(default)]
    pub given: Vec<(Slot, u32)>,
    /// Read the built-in sample (no file is given).
    #[serde(default)]
    pub sample: bool,
    /// How a TigerXML set is imported (the page's default keeps every
    /// link; *as the shared data's bracketed files* is
    /// [`ImportOptions::BRACKETED_DATA`]).
    #[serde(default)]
    pub tiger_options: ImportOptions,
    /// The pairs shown are read the other way: a dev or test set, given as
    /// written, is read the same way.
    #[serde(default)]
    pub sides_swapped: bool,
}

impl LoadRequest {
    /// The request to read the built-in sample.
    pub fn sample() -> LoadRequest {
        LoadRequest { sample: true, ..LoadRequest::default() }
    }
}

/// Where a corpus built from the uploads came from (the page names it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CorpusOrigin {
    /// Uploaded source and target files (with their gold links, if any).
    Trees { source: String, target: String },
    /// An imported TigerXML pair (each part carries the pairs' Tiger ids).
    Tiger,
    /// The trees loaded before, with the gold links of this file.
    GoldFor(String),
    /// The pairs of an exercise file (their key hidden unless it says to show it).
    Exercise(String),
    /// The built-in sample.
    Sample,
    /// Dev or test pairs from their own files (named by them): they
    /// follow the pairs shown, as their dev or test.
    Held { role: HeldRole, name: String },
    /// The pairs of a Dublin aligner file (named), its first tree of each pair the source.
    Dublin(String),
}

/// The file worker's answer: the status of every slot it checked, what a
/// model file is, and whether a corpus came out (its pairs come in parts
/// before this answer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadAnswer {
    pub statuses: Vec<(Slot, Result<String, String>)>,
    /// The corpus the uploads make, and how many pairs its parts hold.
    pub corpus: Option<(CorpusOrigin, usize)>,
    /// The alignment model file's description, if it reads.
    pub model: Option<String>,
    /// The exercise that was opened (its pairs are the corpus).
    #[serde(default)]
    pub exercise: Option<(String, Exercise)>,
    /// The class table of the answers files, checked against the open exercise.
    #[serde(default)]
    pub class: Option<ClassTable>,
    /// Files that read but deserve a warning (a lexical table covering few of the corpus's words).
    #[serde(default)]
    pub warnings: Vec<(Slot, String)>,
    /// [`LoadRequest::given`], back.
    #[serde(default)]
    pub given: Vec<(Slot, u32)>,
    /// For an imported TigerXML set: where it came from (what its exports
    /// declare and name) and every change the import made, one line each.
    #[serde(default)]
    pub tiger: Option<Box<TigerAnswer>>,
}

/// What the page keeps of a TigerXML import besides its pairs and ids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TigerAnswer {
    pub origin: ImportOrigin,
    /// [`crate::tiger::ImportReport::lines`]: the summary, then every change.
    pub report: Vec<String>,
    /// The alignment's word links, as `import tiger` writes `PREFIX.words`.
    #[serde(default)]
    pub words: Option<String>,
}

/// One tree as it crosses from the worker: its nodes in pre-order, each
/// with its label and either its word (a POS node) or its number of
/// children. Rebuilt with [`TreeBuilder`], so the page's trees keep every
/// invariant of the engine's (and a wrong message is refused, not trusted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireTree {
    pub nodes: Vec<(String, Option<String>, u32)>,
    #[serde(default)]
    pub outer: bool,
}

impl From<&Tree> for WireTree {
    fn from(tree: &Tree) -> Self {
        let nodes = tree
            .node_ids()
            .map(|n| {
                let word = tree.word_of(n).filter(|_| tree.is_pos(n)).map(str::to_string);
                (tree.label(n).to_string(), word, tree.children(n).len() as u32)
            })
            .collect();
        WireTree { nodes, outer: tree.outer_bracket() }
    }
}

impl TryFrom<WireTree> for Tree {
    type Error = String;

    fn try_from(wire: WireTree) -> Result<Tree, String> {
        let mut builder = TreeBuilder::new();
        // Children still to come of each open phrase node.
        let mut left: Vec<u32> = Vec::new();
        let count = wire.nodes.len();
        for (k, (label, word, children)) in wire.nodes.into_iter().enumerate() {
            if k > 0 && left.is_empty() {
                return Err(format!("a tree with more than one root (node {k})"));
            }
            match word {
                Some(word) => {
                    builder.pos(label, word);
                }
                None => {
                    builder.open_phrase(label);
                    if children > 0 {
                        left.push(children);
                        continue;
                    }
                    builder.close();
                }
            }
            // A node is complete: its parent has one child fewer to wait for.
            while let Some(n) = left.last_mut() {
                *n -= 1;
                if *n > 0 {
                    break;
                }
                left.pop();
                builder.close();
            }
        }
        if !left.is_empty() {
            return Err(format!("a tree of {count} nodes whose last phrase lacks children"));
        }
        builder.finish_wrapped(wire.outer).ok_or_else(|| "an empty tree".to_string())
    }
}

/// One pair as it crosses from the worker: its trees, its gold links
/// `(source, target, fuzzy)` and, imported from TigerXML, its Tiger ids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WirePair {
    pub source: WireTree,
    pub target: WireTree,
    pub gold: Vec<(usize, usize, bool)>,
    pub ids: Option<PairIds>,
}

impl WirePair {
    pub fn new(pair: &TreePair, ids: Option<&PairIds>) -> Self {
        WirePair {
            source: (&pair.source).into(),
            target: (&pair.target).into(),
            gold: pair.gold.iter().map(|l| (l.source.index(), l.target.index(), l.kind == LinkKind::Fuzzy)).collect(),
            ids: ids.cloned(),
        }
    }

    /// The pair, its links checked against its trees, and its Tiger ids.
    pub fn decode(self) -> Result<(TreePair, Option<PairIds>), String> {
        let source = Tree::try_from(self.source)?;
        let target = Tree::try_from(self.target)?;
        let mut gold = Vec::with_capacity(self.gold.len());
        for (s, t, fuzzy) in self.gold {
            let (Some(source_node), Some(target_node)) = (source.node_at(s), target.node_at(t)) else {
                return Err(format!("link {s}-{t} outside trees of {} and {} nodes", source.len(), target.len()));
            };
            let kind = if fuzzy { LinkKind::Fuzzy } else { LinkKind::Good };
            gold.push(Link { source: source_node, target: target_node, kind });
        }
        Ok((TreePair { source, target, gold }, self.ids))
    }
}

/// What [`check`] found: the answer for the page, and the corpus with its
/// Tiger ids (sent to the page in parts).
#[derive(Debug)]
pub struct Checked {
    pub answer: LoadAnswer,
    pub corpus: Option<(Corpus, Option<Vec<PairIds>>)>,
}

impl Checked {
    /// The corpus in parts of [`PART_PAIRS`] pairs, as the page receives it.
    pub fn parts(&self) -> Vec<Vec<WirePair>> {
        let Some((corpus, ids)) = &self.corpus else { return Vec::new() };
        let id = |k: usize| ids.as_ref().and_then(|ids| ids.get(k));
        let pairs: Vec<WirePair> = corpus.pairs.iter().enumerate().map(|(k, p)| WirePair::new(p, id(k))).collect();
        pairs.chunks(PART_PAIRS).map(<[WirePair]>::to_vec).collect()
    }
}

fn node_count(trees: &[Tree]) -> usize {
    trees.iter().map(Tree::len).sum()
}

/// Checks one slot's file on its own, so its status shows at once.
fn status(slot: Slot, files: &[FileText], lengths: &[(usize, usize)]) -> Option<Result<String, String>> {
    let f = files.last()?;
    let (name, text) = (&f.name, &*f.text);
    // No input of the page is meaningful empty (a gold file of pairs
    // without links still has their lines).
    if text.is_empty() && slot != Slot::Tiger {
        return Some(Err(format!("{name}:1:1: the file is empty; nothing was loaded from it")));
    }
    Some(match slot {
        Slot::Source | Slot::Target => Tree::parse_all(text, name)
            .map(|t| format!("{name}: {} {}, {} nodes", t.len(), counted(t.len(), "trees"), node_count(&t)))
            .map_err(|e| e.to_string()),
        Slot::Gold => crate::io::links::parse_links(text, name)
            .map(|l| {
                let links: usize = l.iter().map(Vec::len).sum();
                format!("{name}: {} {}, {links} {}", l.len(), counted(l.len(), "lines"), counted(links, "links"))
            })
            .map_err(|e| e.to_string()),
        // What the files make is said in `check_files` (`tiger_set`).
        Slot::Tiger => Ok(format!(
            "{} files: {}",
            files.len(),
            files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
        )),
        Slot::LexS2t | Slot::LexT2s => {
            return Some(lex_status(slot, f, None, &[], &[]).0);
        }
        // Read in `check_files`, the two files together with the tables.
        Slot::Vcb => return None,
        Slot::WordLinks => read_word_alignments_for(text, name, lengths)
            .map(|a| format!("{name}: {} lines, {} word links", a.len(), a.iter().map(|l| l.len()).sum::<usize>()))
            .map_err(|e| e.to_string()),
        Slot::Model => files::read_alignment_model(text, name)
            .map(|m| format!("{name}: {}", m.describe()))
            .map_err(|e| e.to_string()),
        // Read by the job worker, which keeps it (see `Request::LoadMt`).
        Slot::TranslationModel => Ok(format!("{name}: reading it in the worker…")),
        // Read in `check`, where the exercise is at hand.
        Slot::Exercise | Slot::Answers => Ok(format!("{name}: reading it…")),
        // Read in `check_files`, the three files together.
        Slot::DevSet | Slot::TestSet => return None,
        // Read in `check_files`, where the pairs it makes are.
        Slot::Dublin => return None,
        Slot::Lm => read_arpa(text, name)
            .map(|lm| {
                let counts: Vec<String> =
                    lm.ngram_counts().iter().enumerate().map(|(n, c)| format!("{c} {}-grams", n + 1)).collect();
                format!("{name}: order {}, {}", lm.order(), counts.join(", "))
            })
            .map_err(|e| e.to_string()),
    })
}

/// A lexical table's status, read with the vocabularies if given (a
/// GIZA++ table of ids is refused in words without them:
/// [`files::read_lex_table`]), and, when it covers few of the corpus's
/// words on its conditioning side or covers the other side's better, a
/// warning: [`files::check_table`], as the CLI checks its tables.
fn lex_status(
    slot: Slot,
    f: &FileText,
    vocabs: Option<&files::GizaVocabularies>,
    source_words: &[String],
    target_words: &[String],
) -> (Result<String, String>, Option<String>) {
    let side = if slot == Slot::LexS2t { TableSide::S2t } else { TableSide::T2s };
    let table = match files::read_lex_table(Named { name: &f.name, text: &f.text }, vocabs.map(|v| v.pair()), side) {
        Ok(t) => t,
        Err(e) => return (Err(e.to_string()), None),
    };
    if source_words.is_empty() && target_words.is_empty() {
        let entries = if table.len() == 1 { "entry" } else { "entries" };
        return (Ok(format!("{}: {} {entries}", f.name, table.len())), None);
    }
    let (source, target) = (source_words.iter().map(String::as_str), target_words.iter().map(String::as_str));
    let check = files::check_table(&table, &f.name, side, source, target);
    (Ok(check.summary), check.warning)
}

/// Checks the files of a request and builds the corpus they make, as the
/// page did on its own thread before: each file on its own, then the trees
/// with their gold links (an error shown next to the file it is in), a
/// TigerXML pair once its three files are there, gold links against the
/// trees loaded now, and word links against the pairs they will belong to.
///
/// The built-in sample is not a check ([`LoadRequest::sample`]): the page
/// reads it itself ([`sample_checked`]), before any worker has started.
pub fn check(request: &LoadRequest) -> Checked {
    if request.retry.is_empty() {
        return check_files(request);
    }
    // First with the refused files again; if one is refused again, with the
    // files in use, the retried ones keeping their error.
    let mut with_retried = LoadRequest { retry: Vec::new(), ..request.clone() };
    for (slot, retried) in &request.retry {
        with_retried.files.retain(|(s, _)| s != slot);
        with_retried.files.push((*slot, retried.clone()));
    }
    let first = check_files(&with_retried);
    let refused: Vec<(Slot, Result<String, String>)> = (first.answer.statuses.iter())
        .filter(|(s, r)| r.is_err() && request.retry.iter().any(|(t, _)| t == s))
        .cloned()
        .collect();
    if refused.is_empty() {
        return first;
    }
    let mut second = check_files(&LoadRequest { retry: Vec::new(), ..request.clone() });
    let statuses = &mut second.answer.statuses;
    statuses.retain(|(s, _)| !refused.iter().any(|(t, _)| t == s));
    statuses.extend(refused);
    second
}

fn check_files(request: &LoadRequest) -> Checked {
    let files = |slot: Slot| request.files.iter().find(|(s, _)| *s == slot).map_or(&[][..], |(_, f)| f.as_slice());
    let mut statuses: Vec<(Slot, Result<String, String>)> = Vec::new();
    let set = |statuses: &mut Vec<(Slot, Result<String, String>)>, slot: Slot, status: Result<String, String>| {
        statuses.retain(|(s, _)| *s != slot);
        statuses.push((slot, status));
    };
    for (slot, f) in &request.files {
        let lexicon = |s: &Slot| Slot::LEXICON_GROUP.contains(s);
        let read_below = matches!(slot, Slot::Model | Slot::Exercise | Slot::Answers)
            || (lexicon(slot) && lexicon(&request.changed));
        if read_below && !f.last().is_some_and(|f| f.text.is_empty()) {
            continue; // read below
        }
        if let Some(s) = status(*slot, f, &request.lengths) {
            set(&mut statuses, *slot, s);
        }
    }
    let ok = |statuses: &[(Slot, Result<String, String>)], slot: Slot| {
        statuses.iter().any(|(s, r)| *s == slot && r.is_ok()) && !files(slot).is_empty()
    };
    let failed = |statuses: &[(Slot, Result<String, String>)], slot: Slot| {
        statuses.iter().any(|(s, r)| *s == slot && r.is_err())
    };
    let mut corpus: Option<(Corpus, Option<Vec<PairIds>>, CorpusOrigin)> = None;
    let mut model = None;
    let (mut exercise, mut class) = (None, None);
    let mut warnings = Vec::new();
    let mut tiger = None;
    match request.changed {
        Slot::LexS2t | Slot::LexT2s | Slot::Vcb => {
            let (source, target) = (&request.source_words, &request.target_words);
            let vocabs = match files(Slot::Vcb) {
                [a, b] => Some(files::giza_vocabularies(
                    [Named { name: &a.name, text: &a.text }, Named { name: &b.name, text: &b.text }],
                    source.iter().map(String::as_str),
                    target.iter().map(String::as_str),
                )),
                _ => None,
            };
            if let Some(v) = &vocabs {
                set(&mut statuses, Slot::Vcb, v.as_ref().map(|v| v.summary.clone()).map_err(|e| e.to_string()));
            }
            let refused = matches!(vocabs, Some(Err(_)));
            let vocabs = vocabs.as_ref().and_then(|v| v.as_ref().ok());
            let given = |slot: Slot| request.given.iter().any(|(s, _)| *s == slot);
            for slot in [Slot::LexS2t, Slot::LexT2s] {
                // Tables in use are not checked against vocabularies refused
                // now: those in use stay, and the tables read with them.
                if refused && !given(slot) {
                    continue;
                }
                if let Some(f) = files(slot).last().filter(|f| !f.text.is_empty()) {
                    let (status, warning) = lex_status(slot, f, vocabs, source, target);
                    set(&mut statuses, slot, status);
                    warnings.extend(warning.map(|w| (slot, w)));
                }
            }
        }
        Slot::Tiger => match tiger_set(files(Slot::Tiger), request.tiger_options) {
            TigerSet::Imported(imported) => {
                let words = interchange::words_text(&imported);
                let mut summary = imported.report.summary();
                if words.is_some() {
                    let n = imported.word_links();
                    summary.push(format!("its {n} word links are the word alignment unless word links are given"));
                }
                set(&mut statuses, Slot::Tiger, Ok(summary.join("; ")));
                tiger = Some(Box::new(TigerAnswer {
                    origin: interchange::import_origin(&imported, None),
                    report: imported.report.lines(),
                    words,
                }));
                corpus = Some((imported.corpus, Some(imported.ids), CorpusOrigin::Tiger));
            }
            TigerSet::Waiting(m) => set(&mut statuses, Slot::Tiger, Ok(m)),
            TigerSet::Refused(e) => set(&mut statuses, Slot::Tiger, Err(e)),
        },
        Slot::Source | Slot::Target | Slot::Gold => {
            let uploaded_trees = ok(&statuses, Slot::Source) && ok(&statuses, Slot::Target);
            let (src, trg, gold) = (files(Slot::Source).last(), files(Slot::Target).last(), files(Slot::Gold).last());
            if request.changed == Slot::Gold && !uploaded_trees {
                // Gold links for the trees loaded now.
                if let (Some(gold), Some((source, target)), false) =
                    (gold, &request.current, failed(&statuses, Slot::Gold))
                {
                    let result = Corpus::from_texts_within(
                        Named { name: "current.src", text: source },
                        Named { name: "current.trg", text: target },
                        Some(Named { name: &gold.name, text: &gold.text }),
                        &Limits::default(),
                    );
                    match result {
                        Ok(c) => corpus = Some((c, None, CorpusOrigin::GoldFor(gold.name.clone()))),
                        Err(e) => set(&mut statuses, Slot::Gold, Err(page_message(&e))),
                    }
                }
            } else if let (Some(src), Some(trg)) = (src, trg) {
                let refused = [Slot::Source, Slot::Target, Slot::Gold].iter().any(|&s| failed(&statuses, s));
                if !refused {
                    // The page aligns, trains and draws what it loads: trees over
                    // the default limits are refused here, next to their file.
                    let result = Corpus::from_texts_within(
                        Named { name: &src.name, text: &src.text },
                        Named { name: &trg.name, text: &trg.text },
                        gold.map(|g| Named { name: &g.name, text: &g.text }),
                        &Limits::default(),
                    );
                    match result {
                        Ok(c) => {
                            let origin = CorpusOrigin::Trees { source: src.name.clone(), target: trg.name.clone() };
                            corpus = Some((c, None, origin));
                        }
                        Err(e) => {
                            // Shown next to the file the error is in.
                            let at = error_slot(&e, src, trg, gold).unwrap_or(request.changed);
                            set(&mut statuses, at, Err(page_message(&e)));
                        }
                    }
                }
            }
        }
        Slot::Model => {
            // Read once: its status and its description both come from it.
            if let Some(f) = files(Slot::Model).last().filter(|f| !f.text.is_empty()) {
                match files::read_alignment_model(&f.text, &f.name) {
                    Ok(m) => {
                        set(&mut statuses, Slot::Model, Ok(format!("{}: {}", f.name, m.describe())));
                        model = Some(m.describe());
                    }
                    Err(e) => set(&mut statuses, Slot::Model, Err(e.to_string())),
                }
            }
        }
        Slot::Exercise => {
            if let Some(f) = files(Slot::Exercise).last().filter(|f| !f.text.is_empty()) {
                let read = Exercise::from_json(&f.text, &f.name).map_err(|e| e.to_string()).and_then(|e| {
                    let place = |k: usize, side: Side| format!("{}: pairs[{k}].{side}", f.name);
                    over_limits(e.pairs.iter().map(|p| &p.pair), place).map_or(Ok(e), Err)
                });
                match read {
                    Ok(e) => {
                        set(&mut statuses, Slot::Exercise, Ok(format!("{}: {}", f.name, e.summary())));
                        let mut c = e.corpus();
                        if !e.show_gold {
                            // The key stays with the exercise, out of what the page draws and scores.
                            c.pairs.iter_mut().for_each(|p| p.gold.clear());
                        }
                        corpus = Some((c, None, CorpusOrigin::Exercise(f.name.clone())));
                        exercise = Some((f.name.clone(), e));
                    }
                    Err(e) => set(&mut statuses, Slot::Exercise, Err(e)),
                }
            }
        }
        Slot::Answers => {
            let open = files(Slot::Exercise).last().map(|f| (f, Exercise::from_json(&f.text, &f.name)));
            match open {
                Some((f, Ok(e))) => {
                    let mut read = Vec::new();
                    let mut errors = Vec::new();
                    for a in files(Slot::Answers) {
                        match Answers::from_json(&a.text, &a.name, &e, &f.name) {
                            Ok(answers) => read.push((a.name.clone(), answers)),
                            Err(err) => errors.push(err.to_string()),
                        }
                    }
                    let status = if errors.is_empty() {
                        let files = if read.len() == 1 { "answers file" } else { "answers files" };
                        Ok(format!("{} {files} checked against {}", read.len(), f.name))
                    } else {
                        Err(format!(
                            "{} of {} files not counted: {}",
                            errors.len(),
                            errors.len() + read.len(),
                            errors.join("; ")
                        ))
                    };
                    set(&mut statuses, Slot::Answers, status);
                    if !read.is_empty() {
                        class = Some(ClassTable::new(&e, &read));
                    }
                }
                _ => set(
                    &mut statuses,
                    Slot::Answers,
                    Err("waiting for their exercise: open their exercise (the file with the key), and they are checked against it".into()),
                ),
            }
        }
        Slot::DevSet | Slot::TestSet => {
            let role = if request.changed == Slot::DevSet { HeldRole::Dev } else { HeldRole::Test };
            match held_set(files(request.changed), request.sides_swapped) {
                Ok((c, name)) => {
                    let links = c.gold_links();
                    let summary = format!(
                        "{name}: {} {}, {links} gold {}, the {} pairs",
                        c.len(),
                        counted(c.len(), "pairs"),
                        counted(links, "links"),
                        role.name()
                    );
                    set(&mut statuses, request.changed, Ok(summary));
                    corpus = Some((c, None, CorpusOrigin::Held { role, name }));
                }
                Err(e) => set(&mut statuses, request.changed, Err(e)),
            }
        }
        Slot::Dublin => {
            if let Some(f) = files(Slot::Dublin).last().filter(|f| !f.text.is_empty()) {
                match dublin_set(f) {
                    Ok((c, summary)) => {
                        set(&mut statuses, Slot::Dublin, Ok(summary));
                        corpus = Some((c, None, CorpusOrigin::Dublin(f.name.clone())));
                    }
                    Err(e) => set(&mut statuses, Slot::Dublin, Err(e)),
                }
            }
        }
        Slot::WordLinks | Slot::TranslationModel | Slot::Lm => {}
    }
    // Word links are checked against the sentences of the pairs they will belong to.
    if let (Some((c, _, _)), Some(_)) = (&corpus, files(Slot::WordLinks).last()) {
        if let Some(s) = status(Slot::WordLinks, files(Slot::WordLinks), &c.sentence_lengths()) {
            set(&mut statuses, Slot::WordLinks, s);
        }
    }
    let pairs = corpus.as_ref().map_or(0, |(c, _, _)| c.len());
    let answer = LoadAnswer {
        statuses,
        corpus: corpus.as_ref().map(|(_, _, o)| (o.clone(), pairs)),
        model,
        exercise,
        class,
        warnings,
        given: request.given.clone(),
        tiger,
    };
    Checked { answer, corpus: corpus.map(|(c, ids, _)| (c, ids)) }
}

/// What the files of the TigerXML input make ([`tiger_set`]).
enum TigerSet {
    Imported(Box<crate::tiger::TigerImport>),
    /// Not a set yet (an Ok status saying what is missing).
    Waiting(String),
    Refused(String),
}

/// The files of the TigerXML input grouped into a set by their names
/// ([`files::tiger_sets`]: the same answer in any order) and imported with
/// `options`, every tree within the page's limits; an error in any file of
/// the set is the answer.
fn tiger_set(given: &[FileText], options: ImportOptions) -> TigerSet {
    let named: Vec<Named<'_>> = given.iter().map(|f| Named { name: &f.name, text: &f.text }).collect();
    let set = match files::tiger_sets(&named) {
        files::TigerSets::One { alignment, treebanks: [a, b] } => [named[alignment], named[a], named[b]],
        files::TigerSets::Waiting(m) => return TigerSet::Waiting(m),
        files::TigerSets::Refused(m) => return TigerSet::Refused(m),
    };
    let imported = match files::import_tiger(&set, options) {
        Ok(imported) => imported,
        Err(e) => return TigerSet::Refused(e.to_string()),
    };
    let sentence = |k: usize, side: Side| {
        let ids = imported.ids.get(k).map(|i| if side == Side::Source { &i.source } else { &i.target });
        format!("pair {}, {side} sentence {}", k + 1, ids.map_or("?", |i| i.sentence.as_str()))
    };
    match over_limits(&imported.corpus.pairs, sentence) {
        Some(over) => TigerSet::Refused(over),
        None => TigerSet::Imported(Box::new(imported)),
    }
}

/// The pairs of a Dublin file as `treelink import dublin` makes them
/// ([`interchange::dublin_corpus`]: the first tree of each pair the
/// source, the links good links), every tree within the page's limits, with
/// the input's status (what the reading left out counted); or the error.
fn dublin_set(f: &FileText) -> Result<(Corpus, String), String> {
    let (corpus, notes) =
        interchange::dublin_corpus(Named { name: &f.name, text: &f.text }, false).map_err(|e| e.to_string())?;
    let place = |k: usize, side: Side| format!("{}: pair {}, {side} tree", f.name, k + 1);
    if let Some(over) = over_limits(&corpus.pairs, place) {
        return Err(over);
    }
    if corpus.is_empty() {
        return Err(format!("{}: no pairs (a pair is a source tree, a target tree, its links and a blank line); nothing was loaded from it", f.name));
    }
    let links = corpus.gold_links();
    let mut summary = format!(
        "{}: {} {}, {links} {} (first tree of each pair the source)",
        f.name,
        corpus.len(),
        counted(corpus.len(), "pairs"),
        counted(links, "links")
    );
    if let Some(first) = notes.first() {
        summary.push_str(&format!(
            "; {} {} left out, the first at {first}",
            notes.len(),
            counted(notes.len(), "numbers without a partner")
        ));
    }
    Ok((corpus, summary))
}

/// Which file of a set of pairs given as its own files `name` is, by its
/// ending (as `treelink train --dev PREFIX` reads them): 0 the source
/// trees (`.src`), 1 the target trees (`.trg`), 2 the gold links (`.gold`);
/// or why it is none of them.
pub fn held_set_part(name: &str) -> Result<usize, String> {
    match FileKind::from_name(name) {
        Some(FileKind::SourceTrees) => Ok(0),
        Some(FileKind::TargetTrees) => Ok(1),
        Some(FileKind::GoldLinks) => Ok(2),
        _ => Err(format!(
            "{name}: expected PREFIX.src, PREFIX.trg or PREFIX.gold (the three files of a set, as train --dev PREFIX reads them); nothing was loaded from it"
        )),
    }
}

/// What a set's files `names` are made of: for each part of
/// [`held_set_part`], which of them it is, if any (the last of its ending);
/// or why a file is none of them.
pub fn held_set_parts<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<[Option<usize>; 3], String> {
    let mut parts = [None; 3];
    for (k, name) in names.into_iter().enumerate() {
        parts[held_set_part(name)?] = Some(k);
    }
    Ok(parts)
}

/// The endings of a set's files not given yet, in words ("" when none is missing).
pub fn held_set_missing(parts: &[Option<usize>; 3]) -> String {
    let missing: Vec<&str> =
        [".src", ".trg", ".gold"].into_iter().zip(parts).filter(|(_, p)| p.is_none()).map(|(e, _)| e).collect();
    missing.join(" and ")
}

/// The pairs of a set given as its own files (`PREFIX.src`, `.trg`,
/// `.gold`), every tree within the default [`Limits`], read the other way
/// when the pairs shown are (`swapped`), with the set's name; or the error,
/// located in its file.
fn held_set(given: &[FileText], swapped: bool) -> Result<(Corpus, String), String> {
    let parts = held_set_parts(given.iter().map(|f| f.name.as_str()))?;
    let [Some(src), Some(trg), Some(gold)] = parts.map(|p| p.and_then(|k| given.get(k))) else {
        return Err(format!("waiting for the set's {} file", held_set_missing(&parts)));
    };
    let corpus = Corpus::from_texts_within(
        Named { name: &src.name, text: &src.text },
        Named { name: &trg.name, text: &trg.text },
        Some(Named { name: &gold.name, text: &gold.text }),
        &Limits::default(),
    )
    .map_err(|e| page_message(&e))?;
    let name = format!("{}, {}, {}", src.name, trg.name, gold.name);
    Ok((if swapped { corpus.swapped() } else { corpus }, name))
}

/// The first tree of `pairs` over the default [`Limits`], named by
/// `place(pair, side)`, as a message: corpora that come whole from one
/// file (TigerXML, an exercise) are checked after reading, as bracketed
/// trees are while they are read.
fn over_limits<'a>(
    pairs: impl IntoIterator<Item = &'a TreePair>,
    place: impl Fn(usize, Side) -> String,
) -> Option<String> {
    let limits = Limits::default();
    pairs.into_iter().enumerate().find_map(|(k, p)| {
        [(Side::Source, &p.source), (Side::Target, &p.target)].into_iter().find_map(|(side, tree)| {
            let (limit, found, most) = limits.tree_over(tree)?;
            Some(format!("{}: this tree has {}", place(k, side), limit.over_in_page(found, most)))
        })
    })
}

/// A corpus error as the page shows it ([`LimitError::in_page`] for a limit).
fn page_message(e: &CorpusError) -> String {
    match e {
        CorpusError::Limit(limit) => limit.in_page(),
        e => e.to_string(),
    }
}

/// The slot of the file a corpus error is in.
fn error_slot(e: &CorpusError, src: &FileText, trg: &FileText, gold: Option<&FileText>) -> Option<Slot> {
    [(Slot::Gold, gold), (Slot::Target, Some(trg)), (Slot::Source, Some(src))]
        .into_iter()
        .find(|(_, f)| f.is_some_and(|f| f.name == e.file()))
        .map(|(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request for `files` (slot, name, text), `changed` the slot just given, nothing loaded before.
    fn request(changed: Slot, files: &[(Slot, &str, &str)]) -> LoadRequest {
        LoadRequest {
            changed,
            files: files
                .iter()
                .map(|&(slot, name, text)| (slot, vec![FileText { name: name.into(), text: text.into() }]))
                .collect(),
            current: None,
            lengths: vec![],
            source_words: vec![],
            target_words: vec![],
            retry: vec![],
            given: vec![],
            sample: false,
            tiger_options: ImportOptions::default(),
            sides_swapped: false,
        }
    }

    /// The corpus of the bracketed texts of `x.src`, `x.trg` (and `x.gold`).
    fn corpus(src: &str, trg: &str, gold: Option<&str>) -> Corpus {
        let named = |name, text| Named { name, text };
        Corpus::from_texts(named("x.src", src), named("x.trg", trg), gold.map(|g| named("x.gold", g))).unwrap()
    }

    /// Issue 40 item 6: the page reads a Dublin file as `treelink import
    /// dublin` does; a file that does not read makes no corpus, its error
    /// next to its input.
    #[test]
    fn a_dublin_file_makes_the_pairs_import_dublin_makes_and_a_bad_one_none() {
        let text = "(S-1 (NP-2 (DT-3 the) (NN-4 house)) (VBZ-5 is))\n(S-1 (NP-2 (ART-3 das) (NN-4 Haus)) (VAFIN-5 ist))\n1 1 2 2 5 5 4\n\n";
        let checked = check(&request(Slot::Dublin, &[(Slot::Dublin, "x.dublin", text)]));
        assert_eq!(checked.answer.corpus, Some((CorpusOrigin::Dublin("x.dublin".into()), 1)));
        let (cli, _) = interchange::dublin_corpus(Named { name: "x.dublin", text }, false).unwrap();
        assert_eq!(checked.corpus.as_ref().map(|(c, _)| c), Some(&cli));
        assert_eq!(cli.pairs[0].source.words(), ["the", "house", "is"]);
        let said = "x.dublin: 1 pair, 3 links (first tree of each pair the source); 1 number without a partner left out, \
                    the first at x.dublin:3:13: source node 4 has no target node number after it (the line ends): left out";
        assert_eq!(checked.answer.statuses, [(Slot::Dublin, Ok(said.into()))]);
        let bad = text.replace("5 5", "5 9");
        let checked = check(&request(Slot::Dublin, &[(Slot::Dublin, "x.dublin", &bad)]));
        assert_eq!(checked.answer.corpus, None);
        assert!(
            matches!(&checked.answer.statuses[..], [(Slot::Dublin, Err(e))] if e.starts_with("x.dublin:3:")),
            "{:?}",
            checked.answer.statuses
        );
        assert_eq!(Slot::of_file("nl-en_125.dublin"), Some(Slot::Dublin));
    }

    #[test]
    fn trees_cross_as_wire_trees_and_come_back_equal() {
        let text = "( (S (NP (ART der) (NN Hund)) (VP (VVFIN bellt) (ADV laut))) )\n(X (Y y))\n(S (A a) (B (C c)))\n";
        for tree in Tree::parse_all(text, "t").unwrap() {
            let wire = WireTree::from(&tree);
            let back = Tree::try_from(wire.clone()).unwrap();
            assert_eq!((&back, back.to_bracketed()), (&tree, tree.to_bracketed()));
        }
        // A wrong message is refused, not trusted.
        let two_roots = vec![("A".into(), Some("a".into()), 0), ("B".into(), Some("b".into()), 0)];
        assert!(Tree::try_from(WireTree { nodes: two_roots, outer: false }).is_err());
        let short = WireTree { nodes: vec![("S".into(), None, 2), ("A".into(), Some("a".into()), 0)], outer: false };
        assert!(Tree::try_from(short).is_err());
        assert!(Tree::try_from(WireTree { nodes: vec![], outer: false }).is_err());
        let wire = |text, file| WireTree::from(&Tree::parse_one(text, file).unwrap());
        let pair =
            WirePair { source: wire("(A a)", "s"), target: wire("(B b)", "t"), gold: vec![(0, 3, false)], ids: None };
        assert!(pair.decode().is_err(), "a link outside the trees");
    }

    #[test]
    fn trees_and_gold_links_make_a_corpus_sent_in_parts() {
        let src: String = (0..450).map(|k| format!("(S (A a{k}) (B b))\n")).collect();
        let trg: String = (0..450).map(|k| format!("(S (C c{k}))\n")).collect();
        let gold: String = (0..450).map(|_| "0-0 1-1?\n").collect();
        let files = [(Slot::Source, "x.src", &*src), (Slot::Target, "x.trg", &*trg), (Slot::Gold, "x.gold", &*gold)];
        let checked = check(&request(Slot::Gold, &files));
        let origin = CorpusOrigin::Trees { source: "x.src".into(), target: "x.trg".into() };
        assert_eq!(checked.answer.corpus, Some((origin, 450)));
        assert!(checked.answer.statuses.contains(&(Slot::Source, Ok("x.src: 450 trees, 1350 nodes".into()))));
        let parts = checked.parts();
        let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
        assert_eq!(sizes.len(), 450_usize.div_ceil(PART_PAIRS));
        assert!(sizes.iter().all(|&n| n == PART_PAIRS) || sizes[..sizes.len() - 1].iter().all(|&n| n == PART_PAIRS));
        assert_eq!(sizes.iter().sum::<usize>(), 450);
        let pairs: Vec<TreePair> = parts.into_iter().flatten().map(|p| p.decode().unwrap().0).collect();
        assert_eq!(Some(&pairs), checked.corpus.as_ref().map(|(c, _)| &c.pairs));
        assert_eq!(pairs[3].gold[1].kind, LinkKind::Fuzzy);
    }

    #[test]
    fn a_tree_over_the_default_limits_is_refused_next_to_its_file() {
        let big = format!("(S {})\n", (0..1_001).map(|k| format!("(A a{k})")).collect::<String>());
        let src = format!("(S (A a))\n{big}");
        let files = [(Slot::Source, "x.src", &*src), (Slot::Target, "x.trg", "(S (B b))\n(S (B b))\n")];
        let checked = check(&request(Slot::Target, &files));
        assert_eq!(checked.answer.corpus, None);
        let refused = Err("x.src:2:1: this tree has 1001 words, more than the page's limit of 1000".into());
        assert!(checked.answer.statuses.contains(&(Slot::Source, refused)));
    }

    #[test]
    fn an_exercise_with_a_tree_over_the_default_limits_is_refused_at_the_tree() {
        let wide = format!("(S {})", (0..1_001).map(|k| format!("(A a{k})")).collect::<String>());
        let corpus = corpus(&format!("(S (A a))\n{wide}\n"), "(T (B b))\n(T (B b))\n", Some("0-0\n0-0\n"));
        let exercise = Exercise::new(&corpus, &[1, 2], "Wide", "Link.", false).unwrap();
        let checked = check(&request(Slot::Exercise, &[(Slot::Exercise, "ex.json", &exercise.to_json())]));
        assert_eq!(checked.answer.corpus, None);
        let status = checked.answer.statuses.iter().find(|(s, _)| *s == Slot::Exercise).map(|(_, m)| m.clone());
        assert_eq!(
            status,
            Some(Err("ex.json: pairs[1].source: this tree has 1001 words, more than the page's limit of 1000".into()))
        );
        // Within the limits, the same exercise opens.
        let small = Exercise::new(&corpus, &[1], "Small", "Link.", false).unwrap();
        let checked = check(&request(Slot::Exercise, &[(Slot::Exercise, "ex.json", &small.to_json())]));
        assert!(checked.answer.corpus.is_some());
    }

    #[test]
    fn the_first_tree_over_the_limits_is_named_by_its_place() {
        let nodes = format!("(S {})", (0..800).map(|_| "(A (C (D (E (B b)))))").collect::<String>());
        let corpus = corpus("(S (A a))\n(S (A a))\n", &format!("(T (B b))\n{nodes}\n"), None);
        let place = |k: usize, side: Side| format!("pair {}, {side}", k + 1);
        assert_eq!(
            over_limits(&corpus.pairs, place),
            Some("pair 2, target: this tree has 4001 nodes, more than the page's limit of 4000".into())
        );
        assert_eq!(over_limits(&corpus.pairs[..1], place), None);
    }

    #[test]
    fn an_error_is_shown_next_to_its_file_and_makes_no_corpus() {
        let files = [(Slot::Source, "x.src", "(S (A a))\n"), (Slot::Target, "x.trg", "(S (B b))\n")];
        let checked = check(&request(Slot::Gold, &[files[0], files[1], (Slot::Gold, "x.gold", "0-99\n")]));
        assert!(checked.corpus.is_none());
        let gold = checked.answer.statuses.iter().find(|(s, _)| *s == Slot::Gold).map(|(_, r)| r.clone());
        assert!(matches!(&gold, Some(Err(e)) if e.starts_with("x.gold:1:1: link 0-99")), "{gold:?}");
        // Gold links alone go with the trees loaded now.
        let gold = LoadRequest {
            current: Some(("(S (A a))\n".into(), "(T (B b))\n".into())),
            lengths: vec![(1, 1)],
            ..request(Slot::Gold, &[(Slot::Gold, "y.gold", "0-0\n")])
        };
        let checked = check(&gold);
        assert_eq!(checked.answer.corpus, Some((CorpusOrigin::GoldFor("y.gold".into()), 1)));
        // Word links against the pairs loaded now.
        let links = &[(Slot::WordLinks, "aligned.gdfa", "0-0 0-5\n")];
        let checked = check(&LoadRequest { lengths: vec![(1, 1)], ..request(Slot::WordLinks, links) });
        assert!(
            matches!(&checked.answer.statuses[..], [(Slot::WordLinks, Err(e))] if e.starts_with("aligned.gdfa:1:")),
            "{:?}",
            checked.answer.statuses
        );
    }
}
