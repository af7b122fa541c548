//! Files by kind: what a file holds, told from its name and, for `.xml` and
//! `.json`, from its first element or its `format` header (a typed sniff,
//! not a substring search); and the readers that check a model file,
//! import a TigerXML pair from files given in any order, read a lexical
//! table of either format (Moses words, or GIZA++ ids with their
//! vocabularies) and check it against the corpus ([`check_table`]: the one
//! check of the CLI and the page), and read word links of either format
//! (`i-j` lines, or GIZA++ `A3.final` files symmetrised).

use std::collections::HashSet;
use std::fmt;

use crate::align::model::{AlignmentModel, ModelFileError as AlignmentModelError};
use crate::corpus::{Corpus, Direction, Named, WordFit};
use crate::exercise;
use crate::lexicon::{
    giza_ttable_fits, is_giza_a3, is_numeric_table, read_giza_a3, read_giza_ttable, read_giza_vocab, read_moses_lex,
    read_word_alignments_for, symmetrize, Coverage, GizaPair, GizaVocab, LexError, LexTable, Symmetrization,
    WordAlignment,
};
use crate::mt::model::{TranslationModel, MT_MODEL_FORMAT};
use crate::tiger::{import_parsed, match_files, parse_sta, parse_tiger, ImportOptions, TigerError, TigerImport};

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// Bracketed source trees (`.src`).
    SourceTrees,
    /// Bracketed target trees (`.trg`).
    TargetTrees,
    /// Gold sub-tree links (`.gold`).
    GoldLinks,
    /// A TigerXML treebank (`.xml`, root element `<corpus>`).
    TigerXml,
    /// A Stockholm TreeAligner alignment (`.xml`, root element `<treealign>`).
    StaAlignment,
    /// A Moses lexical table `p(t|s)` (`lex.e2f`).
    LexS2t,
    /// A Moses lexical table `p(s|t)` (`lex.f2e`).
    LexT2s,
    /// Word links, `i-j` per line (`aligned.*`).
    WordAlignment,
    /// A sub-tree alignment model from `treelink train` (`.json`).
    AlignmentModel,
    /// A translation model from `treelink mt-train` (`.json` with format
    /// `treelink-mt`, or its binary form `.tlmt`).
    TranslationModel,
    /// A word language model in ARPA format (`.arpa`).
    ArpaLm,
    /// A classroom exercise (`.json` with format `treelink-exercise`).
    Exercise,
    /// A student's answers to an exercise (`.json` with format
    /// `treelink-exercise-answers`).
    ExerciseAnswers,
    /// The Dublin sub-tree aligner's pairs and links (`.dublin`).
    Dublin,
    /// A GIZA++ vocabulary (`.vcb`), read with a t-table of word ids.
    GizaVocab,
}

/// How much of a `.xml` or `.json` file [`FileKind::sniff`] needs.
pub const SNIFF_BYTES: usize = 4096;

impl FileKind {
    /// The kind a file's name says (`.xml` is taken as TigerXML and `.json`
    /// as an alignment model until [`FileKind::sniff`] reads their heads).
    pub fn from_name(name: &str) -> Option<FileKind> {
        let lower = name.to_ascii_lowercase();
        // A gzipped file is what its name says without `.gz` (it is inflated when read).
        let lower = lower.strip_suffix(".gz").unwrap_or(&lower);
        let base = lower.rsplit(['/', '\\']).next().unwrap_or(lower);
        if base.ends_with(".a3.final") {
            return Some(FileKind::WordAlignment);
        }
        let ext = lower.rsplit('.').next().unwrap_or("");
        match ext {
            "src" => Some(FileKind::SourceTrees),
            "trg" => Some(FileKind::TargetTrees),
            "gold" => Some(FileKind::GoldLinks),
            "xml" | "tiger" => Some(FileKind::TigerXml),
            "json" => Some(FileKind::AlignmentModel),
            "tlmt" => Some(FileKind::TranslationModel),
            "dublin" => Some(FileKind::Dublin),
            "vcb" => Some(FileKind::GizaVocab),
            "arpa" | "lm" => Some(FileKind::ArpaLm),
            "e2f" | "s2t" => Some(FileKind::LexS2t),
            "f2e" | "t2s" => Some(FileKind::LexT2s),
            _ if lower.starts_with("aligned.") => Some(FileKind::WordAlignment),
            "align" | "wa" | "gdfa" | "intersect" | "grow-diag" | WORDS => Some(FileKind::WordAlignment),
            _ => None,
        }
    }

    /// Whether [`FileKind::sniff`] needs the file's head to tell its kind.
    pub fn needs_head(self) -> bool {
        matches!(self, FileKind::TigerXml | FileKind::StaAlignment | FileKind::AlignmentModel)
    }

    /// The kind of a file of kind `by_name` ([`FileKind::from_name`]) whose
    /// text starts with `head`: XML by its root element (`<treealign>` is an
    /// STA alignment, anything else TigerXML); JSON by its `format` field
    /// (both model files write it first).
    pub fn sniff(by_name: FileKind, head: &str) -> FileKind {
        match by_name {
            FileKind::TigerXml | FileKind::StaAlignment => match root_element(head) {
                Some("treealign") => FileKind::StaAlignment,
                _ => FileKind::TigerXml,
            },
            FileKind::AlignmentModel => match json_format(head) {
                Some(f) if f == MT_MODEL_FORMAT => FileKind::TranslationModel,
                Some(f) if f == exercise::FORMAT => FileKind::Exercise,
                Some(f) if f == exercise::ANSWERS_FORMAT => FileKind::ExerciseAnswers,
                _ => FileKind::AlignmentModel,
            },
            other => other,
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::SourceTrees => "source trees",
            FileKind::TargetTrees => "target trees",
            FileKind::GoldLinks => "gold links",
            FileKind::TigerXml => "a TigerXML treebank",
            FileKind::StaAlignment => "a Stockholm TreeAligner alignment",
            FileKind::LexS2t => "a lexical table p(t|s)",
            FileKind::LexT2s => "a lexical table p(s|t)",
            FileKind::WordAlignment => "a word alignment",
            FileKind::AlignmentModel => "an alignment model",
            FileKind::TranslationModel => "a translation model",
            FileKind::ArpaLm => "an ARPA language model",
            FileKind::Exercise => "an exercise",
            FileKind::ExerciseAnswers => "an exercise's answers",
            FileKind::Dublin => "a Dublin aligner file",
            FileKind::GizaVocab => "a GIZA++ vocabulary",
        })
    }
}

/// The name of the first element of an XML text (after the declaration,
/// comments, processing instructions and a doctype).
fn root_element(head: &str) -> Option<&str> {
    let mut rest = head;
    loop {
        let at = rest.find('<')?;
        rest = &rest[at + 1..];
        match rest.chars().next()? {
            '?' | '!' => continue,
            _ => {
                let end = rest.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(rest.len());
                let name = &rest[..end];
                return Some(name.rsplit(':').next().unwrap_or(name));
            }
        }
    }
}

/// The string value of a leading `"format"` field of a JSON object.
fn json_format(head: &str) -> Option<&str> {
    let rest = head.trim_start().strip_prefix('{')?.trim_start().strip_prefix("\"format\"")?;
    let rest = rest.trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    rest.split('"').next()
}

/// Reads an alignment model file (`treelink train`'s): the one reader
/// behind the CLI's `--model`, the page's model input (its status, in the
/// file worker) and the job worker's *Align with the model*, so all three
/// check the same things.
pub fn read_alignment_model(text: &str, file: &str) -> Result<AlignmentModel, AlignmentModelError> {
    AlignmentModel::from_json(text, file)
}

/// How `input`'s words fit the words `model` was trained on ([`Direction`]):
/// the sentences of its in-engine lexicon, or its tables' words. `align`
/// and the page warn when input looks reversed or foreign to the model
/// ([`Direction::warning`]).
pub fn alignment_model_fit(model: &AlignmentModel, input: &Corpus) -> Direction {
    use crate::align::lexical::LexicalModel;
    let sides =
        |source: bool| input.pairs.iter().flat_map(move |p| if source { p.source.words() } else { p.target.words() });
    let fit = match &model.lexicon {
        LexicalModel::Tables(l) => {
            let (s, t) = (&l.s2t, &l.t2s);
            // p(t|s) is conditioned on source words and predicts target words.
            let source = |w: &str| s.y_id(w).is_some() || t.x_id(w).is_some();
            let target = |w: &str| s.x_id(w).is_some() || t.y_id(w).is_some();
            let from_source = WordFit::of(sides(true).map(String::as_str), source, target);
            from_source.and(WordFit::of(sides(false).map(String::as_str), target, source))
        }
        LexicalModel::InEngine { bitext, .. } => {
            let vocabulary = |source: bool| -> HashSet<String> {
                bitext.iter().flat_map(|(s, t)| if source { s } else { t }).map(|w| w.to_lowercase()).collect()
            };
            let (source, target) = (vocabulary(true), vocabulary(false));
            let from_source =
                WordFit::of(sides(true).map(String::as_str), |w| source.contains(w), |w| target.contains(w));
            from_source.and(WordFit::of(
                sides(false).map(String::as_str),
                |w| target.contains(w),
                |w| source.contains(w),
            ))
        }
    };
    fit.direction()
}

/// How source trees' words fit a translation model's source vocabulary
/// (the words of its training sources) and its target words (its language
/// model's), counted: `translate` and the page warn when they look like
/// target sentences or another language ([`WordFit::direction`],
/// [`Direction::warning`]).
pub fn translation_model_fit(model: &TranslationModel, sources: &[crate::tree::Tree]) -> WordFit {
    use crate::mt::model::MtSystem;
    let (vocabulary, lm) = match &model.system {
        MtSystem::Phrase(s) => (&s.vocabulary, &s.lm),
        MtSystem::Ms(s) => (&s.vocabulary, &s.lm),
    };
    let known_source = |w: &str| vocabulary.count(w) > 0 || vocabulary.count(&capitalised(w)) > 0;
    let known_target = |w: &str| {
        lm.word_id(w) != crate::mt::lm::WordId::UNK || lm.word_id(&capitalised(w)) != crate::mt::lm::WordId::UNK
    };
    WordFit::of(sources.iter().flat_map(|t| t.words()).map(String::as_str), known_source, known_target)
}

/// `w` with its first letter upper-case (a vocabulary that kept case holds
/// a sentence's first word so).
fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// Why three files did not import as a TigerXML pair.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TigerFilesError {
    #[error("expected one Stockholm TreeAligner file (<treealign>) among the XML files, found {0}")]
    StaCount(usize),
    #[error("expected two TigerXML treebanks besides the alignment, found {0}")]
    TreebankCount(usize),
    #[error(transparent)]
    Tiger(#[from] TigerError),
}

/// What the files given to the TigerXML input make ([`tiger_sets`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TigerSets {
    /// One set: the alignment file and its two treebanks (indices into the files).
    One { alignment: usize, treebanks: [usize; 2] },
    /// Not a set yet: what is missing, in words.
    Waiting(String),
    /// Files that make no one set (two sets, a file no alignment names, an
    /// alignment that does not read), in words.
    Refused(String),
}

/// Groups the files given to the TigerXML input into sets — an alignment
/// (`<treealign>`) and the two treebanks its declarations name — by their
/// names, whatever their order: one alignment with two treebanks is a set
/// whatever the treebanks' names (their contents decide which is which,
/// [`import_tiger`]); with more files, each treebank goes with the
/// alignment that names it. Several sets, or files left over, are refused
/// with what was found; an alignment that does not read is refused with
/// its located error. The answer depends on the files, never on their order.
pub fn tiger_sets(files: &[Named<'_>]) -> TigerSets {
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| files[a].name.cmp(files[b].name).then(a.cmp(&b)));
    let is_sta = |k: &usize| FileKind::sniff(FileKind::TigerXml, files[*k].text) == FileKind::StaAlignment;
    let (stas, tigers): (Vec<usize>, Vec<usize>) = order.into_iter().partition(is_sta);
    let names = |ks: &[usize]| ks.iter().map(|&k| files[k].name).collect::<Vec<_>>().join(", ");
    let mut declared = Vec::with_capacity(stas.len());
    for &a in &stas {
        match parse_sta(files[a].text, files[a].name) {
            Ok(sta) => declared.push((a, sta)),
            Err(e) => return TigerSets::Refused(e.to_string()),
        }
    }
    let base = |name: &str| name.rsplit(['/', '\\']).next().unwrap_or(name).to_string();
    match (declared.as_slice(), tigers.as_slice()) {
        ([], []) => TigerSets::Waiting("no files yet".into()),
        ([], _) if tigers.len() <= 2 => TigerSets::Waiting(format!(
            "{} TigerXML file{} ({}): waiting for the alignment (a Stockholm TreeAligner <treealign> file)",
            tigers.len(),
            if tigers.len() == 1 { "" } else { "s" },
            names(&tigers)
        )),
        ([], _) => TigerSets::Refused(TigerFilesError::StaCount(0).to_string()),
        ([(a, _)], [x, y]) => TigerSets::One { alignment: *a, treebanks: [*x, *y] },
        ([(a, sta)], _) if tigers.len() < 2 => {
            let given: Vec<String> = tigers.iter().map(|&t| base(files[t].name)).collect();
            let missing: Vec<String> = sta
                .treebanks
                .iter()
                .filter_map(|t| t.filename.as_deref().map(base))
                .filter(|f| !given.contains(f))
                .collect();
            let waiting = if missing.is_empty() { "its two treebanks".to_string() } else { missing.join(" and ") };
            TigerSets::Waiting(format!(
                "{} of 3 files: waiting for {waiting} (named by {})",
                tigers.len() + 1,
                files[*a].name
            ))
        }
        _ => {
            // Each treebank with the alignment that names it.
            let mut sets: Vec<(usize, Vec<usize>)> = declared.iter().map(|(a, _)| (*a, Vec::new())).collect();
            let mut stray = Vec::new();
            for &t in &tigers {
                let owner = declared.iter().position(|(_, sta)| {
                    sta.treebanks
                        .iter()
                        .any(|tb| tb.filename.as_deref().is_some_and(|f| base(f) == base(files[t].name)))
                });
                match owner {
                    Some(k) => sets[k].1.push(t),
                    None => stray.push(t),
                }
            }
            let describe = |(a, ts): &(usize, Vec<usize>)| {
                format!("{} with {}", files[*a].name, if ts.is_empty() { "no treebank".to_string() } else { names(ts) })
            };
            let found = sets.iter().map(describe).collect::<Vec<_>>().join("; ");
            if !stray.is_empty() {
                return TigerSets::Refused(format!(
                    "{} named by no alignment (found {found}): expected each treebank named by its alignment's <treebank filename>",
                    names(&stray)
                ));
            }
            match sets.as_slice() {
                [(a, ts)] if ts.len() == 2 => TigerSets::One { alignment: *a, treebanks: [ts[0], ts[1]] },
                [(_, ts)] => TigerSets::Refused(format!(
                    "{} treebanks for one alignment ({found}): expected the two it names",
                    ts.len()
                )),
                _ => TigerSets::Refused(format!(
                    "{} files make {} TigerXML sets ({found}): drop one set at a time (treelink import tiger makes one \
                     corpus of each)",
                    files.len(),
                    sets.len()
                )),
            }
        }
    }
}

/// Which treebank of a TigerXML set is the source, the one rule of `treelink
/// import tiger` and the page: the treebank the alignment declares first,
/// or the other with [`TigerDirection::Reversed`] (`--reverse`, the page's
/// *Swap source and target*). Which file is which declared treebank comes
/// from the declarations ([`match_files`]: the node ids each file holds,
/// else the files' names), never from the order the files were given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TigerDirection {
    /// The treebank the alignment declares first is the source.
    #[default]
    Declared,
    /// The treebank the alignment declares second is the source.
    Reversed,
}

/// Imports a TigerXML treebank pair (in either order) and its STA
/// alignment, the source chosen by `direction` ([`TigerDirection`]); the
/// report's last note says which treebank is the source and why.
pub fn import_tiger_set(
    sta: Named<'_>,
    [a, b]: [Named<'_>; 2],
    direction: TigerDirection,
    options: ImportOptions,
) -> Result<TigerImport, TigerError> {
    let alignment = parse_sta(sta.text, sta.name)?;
    let (ta, tb) = (parse_tiger(a.text, a.name)?, parse_tiger(b.text, b.name)?);
    let a_is_declared_first = match_files(sta.name, &alignment, (a.name, &ta), (b.name, &tb))?.first_is_treebank_0;
    let first_is_source = a_is_declared_first == (direction == TigerDirection::Declared);
    let ((source, src), (target, trg)) = if first_is_source { ((a, &ta), (b, &tb)) } else { ((b, &tb), (a, &ta)) };
    let mut imported = import_parsed(source.name, src, target.name, trg, sta.name, &alignment, options)?;
    let declared = |t: &crate::tiger::StaTreebank| match &t.language {
        Some(l) => format!("'{}' ({l})", t.id),
        None => format!("'{}'", t.id),
    };
    let [s, t] = &imported.treebanks;
    let why = match direction {
        TigerDirection::Declared => "the alignment declares it first",
        TigerDirection::Reversed => "the alignment declares it second, reversed as asked",
    };
    imported.report.notes.push(format!(
        "source: treebank {} = {} ({why}); target: treebank {} = {}",
        declared(s),
        source.name,
        declared(t),
        target.name
    ));
    Ok(imported)
}

/// Imports two TigerXML treebanks and their STA alignment given in any
/// order (the page's drop, whose order the browser decides): the alignment
/// is the file whose root element is `<treealign>`; the source is the
/// treebank the alignment declares first ([`TigerDirection::Declared`]). So
/// the same three files give the same direction whatever their order, and
/// files the declarations do not tell apart are refused in words.
pub fn import_tiger(files: &[Named<'_>], options: ImportOptions) -> Result<TigerImport, TigerFilesError> {
    let is_sta = |f: &&Named<'_>| FileKind::sniff(FileKind::TigerXml, f.text) == FileKind::StaAlignment;
    let sta: Vec<&Named<'_>> = files.iter().filter(is_sta).collect();
    let tigers: Vec<&Named<'_>> = files.iter().filter(|f| !is_sta(f)).collect();
    let [sta] = sta.as_slice() else { return Err(TigerFilesError::StaCount(sta.len())) };
    let [a, b] = tigers.as_slice() else { return Err(TigerFilesError::TreebankCount(tigers.len())) };
    Ok(import_tiger_set(**sta, [**a, **b], TigerDirection::Declared, options)?)
}

/// Which way round a lexical table is meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableSide {
    /// `p(t|s)`: conditioned on source words (`--lex-s2t`).
    S2t,
    /// `p(s|t)`: conditioned on target words (`--lex-t2s`).
    T2s,
}

impl TableSide {
    /// The side of the corpus whose words the table is conditioned on.
    pub fn conditioning(self) -> &'static str {
        match self {
            TableSide::S2t => "source",
            TableSide::T2s => "target",
        }
    }

    fn other(self) -> &'static str {
        match self {
            TableSide::S2t => "target",
            TableSide::T2s => "source",
        }
    }
}

/// Reads a lexical table of either format: Moses `lex` lines of words
/// (`x y p(x|y)`), or a GIZA++ t-table of word ids with the corpus's two
/// GIZA++ vocabularies `(source .vcb, target .vcb)`. A table of ids is read
/// the way round its ids fit the vocabularies (the side's way first, so a
/// table given the wrong way round is read as it is and [`check_table`]
/// says so); without vocabularies it is refused in words, not read as a
/// table that matches no word.
pub fn read_lex_table(
    table: Named<'_>,
    vocabs: Option<(&GizaVocab, &GizaVocab)>,
    side: TableSide,
) -> Result<LexTable, LexError> {
    if !is_numeric_table(table.text) {
        return read_moses_lex(table.text, table.name);
    }
    let Some((source, target)) = vocabs else {
        return Err(LexError::Invalid {
            file: table.name.to_string(),
            line: 1,
            column: 1,
            message: "a GIZA++ t-table of word ids (not words): expected its two vocabulary files (.vcb, source then \
                      target) with it"
                .into(),
        });
    };
    let (mine, swapped) = match side {
        TableSide::S2t => ((source, target), (target, source)),
        TableSide::T2s => ((target, source), (source, target)),
    };
    let (conditioning, predicted) =
        if !giza_ttable_fits(table.text, mine.0, mine.1) && giza_ttable_fits(table.text, swapped.0, swapped.1) {
            swapped
        } else {
            mine
        };
    read_giza_ttable(table.text, table.name, conditioning, predicted)
}

/// A corpus's two GIZA++ vocabularies, told apart ([`giza_vocabularies`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GizaVocabularies {
    /// The vocabulary of the source words (GIZA++'s `-s` of a `p(t|s)` run).
    pub source: GizaVocab,
    pub target: GizaVocab,
    /// The status line: which file is which side, its words, what it covers.
    pub summary: String,
}

impl GizaVocabularies {
    /// As [`read_lex_table`] takes them.
    pub fn pair(&self) -> (&GizaVocab, &GizaVocab) {
        (&self.source, &self.target)
    }
}

/// Reads the two GIZA++ vocabularies of a corpus given in either order (the
/// page's one input takes both; the CLI's `--vcb` names them source then
/// target): the source's is the one whose words cover more of the corpus's
/// source tokens and less of its target tokens — the assignment whose two
/// token shares sum higher. Vocabularies the words do not tell apart (equal
/// sums: no words, or vocabularies of another corpus) are refused in words,
/// so a table of ids is never read the wrong way round by a guess.
pub fn giza_vocabularies<'a>(
    files: [Named<'_>; 2],
    source_words: impl IntoIterator<Item = &'a str> + Clone,
    target_words: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<GizaVocabularies, LexError> {
    let [a, b] = files;
    let read = |f: Named<'_>| read_giza_vocab(f.text, f.name);
    let (va, vb) = (read(a)?, read(b)?);
    let share = |v: &GizaVocab, words: &mut dyn Iterator<Item = &'a str>| {
        let known: HashSet<&str> = v.words().collect();
        let (mut covered, mut all) = (0usize, 0usize);
        for w in words {
            all += 1;
            covered += usize::from(known.contains(w));
        }
        if all == 0 {
            0.0
        } else {
            covered as f64 / all as f64
        }
    };
    let s = |v: &GizaVocab| share(v, &mut source_words.clone().into_iter());
    let t = |v: &GizaVocab| share(v, &mut target_words.clone().into_iter());
    let (sa, ta, sb, tb) = (s(&va), t(&va), s(&vb), t(&vb));
    let (a_first, b_first) = (sa + tb, sb + ta);
    if a_first == b_first {
        return Err(LexError::Invalid {
            file: a.name.to_string(),
            line: 1,
            column: 1,
            message: format!(
                "the words of the pairs loaded do not tell which of {} and {} is the source's vocabulary (they cover \
                 {:.0}% and {:.0}% of the source tokens, {:.0}% and {:.0}% of the target tokens); expected the two \
                 .vcb files of these pairs' GIZA++ run",
                a.name,
                b.name,
                100.0 * sa,
                100.0 * sb,
                100.0 * ta,
                100.0 * tb
            ),
        });
    }
    let ((source, s_share), (target, t_share)) =
        if a_first > b_first { ((va, sa), (vb, tb)) } else { ((vb, sb), (va, ta)) };
    let summary = format!(
        "source {}: {} {}, {:.0}% of the source tokens; target {}: {} {}, {:.0}% of the target tokens",
        source.file,
        source.len(),
        crate::io::text::counted(source.len(), "words"),
        100.0 * s_share,
        target.file,
        target.len(),
        crate::io::text::counted(target.len(), "words"),
        100.0 * t_share
    );
    Ok(GizaVocabularies { source, target, summary })
}

/// What a lexical table covers of the corpus it is used with
/// ([`check_table`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TableCheck {
    /// Of the words on the side the table is conditioned on (source words
    /// for `p(t|s)`), how many it has a row for.
    pub coverage: Coverage,
    /// The same table's rows over the other side's words.
    pub other_side: Coverage,
    /// The status line (file, entries, coverage).
    pub summary: String,
    /// Why the table may be the wrong one: it covers less than
    /// [`Coverage::LOW`] of the words, or looks given the wrong way round.
    pub warning: Option<String>,
}

/// Checks a lexical table against the corpus's words, as the CLI (before it
/// uses `--lex-s2t`/`--lex-t2s`) and the page (next to the table's input)
/// both do: its coverage of the words it is conditioned on, and whether it
/// covers the other side's words better — a table given the wrong way
/// round (`lex.e2f` for `lex.f2e`), whose lookups would then mostly fail.
/// `source_words` and `target_words` are the corpus's words, every
/// occurrence. Warns below [`Coverage::LOW`] of the types or tokens, or
/// when the other side's tokens are covered more and at least at that share.
pub fn check_table<'a>(
    table: &LexTable,
    name: &str,
    side: TableSide,
    source_words: impl IntoIterator<Item = &'a str>,
    target_words: impl IntoIterator<Item = &'a str>,
) -> TableCheck {
    let (source, target) = (table.coverage(source_words), table.coverage(target_words));
    let (coverage, other_side) = match side {
        TableSide::S2t => (source, target),
        TableSide::T2s => (target, source),
    };
    let (mine, other) = (side.conditioning(), side.other());
    let percent = |x: f64| format!("{:.0}%", 100.0 * x);
    let entries = if table.len() == 1 { "entry" } else { "entries" };
    let mut summary = format!("{name}: {} {entries}", table.len());
    if coverage.types > 0 {
        summary.push_str(&format!(
            "; covers {} of {} {mine} word types ({}) and {} of {} tokens ({})",
            coverage.types_covered,
            coverage.types,
            percent(coverage.type_share()),
            coverage.tokens_covered,
            coverage.tokens,
            percent(coverage.token_share())
        ));
    }
    let swapped = other_side.token_share() > coverage.token_share() && other_side.token_share() >= Coverage::LOW;
    let warning = if swapped {
        Some(format!(
            "{name} looks given the wrong way round: the words it is conditioned on cover {} of the {other} words' \
             tokens but {} of the {mine} words' (is it the other table — lex.e2f and lex.f2e swapped — or are source \
             and target swapped?)",
            percent(other_side.token_share()),
            percent(coverage.token_share())
        ))
    } else if coverage.is_low() {
        Some(format!(
            "{name} covers less than {} of the {mine} words: the others get no lexical probability (is it the table \
             of these languages, in this direction?)",
            percent(Coverage::LOW)
        ))
    } else {
        None
    };
    TableCheck { coverage, other_side, summary, warning }
}

/// Word links read for a corpus ([`read_word_links`]), with what the
/// reading decided.
#[derive(Debug, Clone, PartialEq)]
pub struct WordLinks {
    pub links: Vec<WordAlignment>,
    /// How the files were read (which GIZA++ file is which direction, ...).
    pub notes: Vec<String>,
}

/// The extension of a set's own word links, `PREFIX.words`: the STA's links
/// between two words, written by the import of a TigerXML set.
pub const WORDS: &str = "words";

/// Which word links a set is read with, one rule for `train` (its train and
/// dev sets) and `align` (its input, held out or not): word links given
/// (`given`: `--word-align`) win, and then no set's own file is read; else
/// the set's own `PREFIX.words` when there (`exists`), unless turned off
/// (`off`: `--no-words`). They are input annotation, never gold: a held-out
/// set's are read too. Returns the file to read, if any, and a line saying
/// what was decided when the set has a `PREFIX.words`.
pub fn set_word_links(
    prefix: &str,
    given: bool,
    off: bool,
    exists: impl Fn(&str) -> bool,
) -> (Option<String>, Option<String>) {
    let file = format!("{prefix}.{WORDS}");
    match (exists(&file), given, off) {
        (false, ..) => (None, None),
        (true, true, _) => (None, Some(format!("{file} not read: the word links --word-align gives win"))),
        (true, false, true) => (None, Some(format!("{file} not read (--no-words)"))),
        (true, false, false) => {
            let note = format!("word links of {prefix} from {file} (the set's own; --no-words ignores them)");
            (Some(file), Some(note))
        }
    }
}

/// Reads the word links of `corpus`'s pairs from the files given (the CLI's
/// `--word-align`, the page's word alignment input): one file of `i-j`
/// lines (one line a pair, each link inside its sentences), or GIZA++
/// `A3.final` files — both directions, told apart by their sentences
/// against the corpus's (whatever their order), symmetrised with
/// grow-diag-final-and as Moses makes its `aligned.grow-diag-final-and`;
/// one direction alone is used as it is (with a note). Each file's pairs
/// must be the corpus's pairs, in order.
pub fn read_word_links(files: &[Named<'_>], corpus: &Corpus) -> Result<WordLinks, LexError> {
    let lengths = corpus.sentence_lengths();
    let a3: Vec<&Named<'_>> = files.iter().filter(|f| is_giza_a3(f.text)).collect();
    match (files, a3.len()) {
        ([file], 0) => {
            return Ok(WordLinks {
                links: read_word_alignments_for(file.text, file.name, &lengths)?,
                notes: Vec::new(),
            })
        }
        (_, 0) | (_, 3..) => {}
        _ if a3.len() == files.len() => {
            let mut directions = Vec::with_capacity(a3.len());
            for f in &a3 {
                directions.push(giza_direction(f, corpus)?);
            }
            return giza_links(&a3, directions, corpus);
        }
        _ => {}
    }
    let file = files.get(1).or(files.first()).map_or("", |f| f.name);
    Err(LexError::Invalid {
        file: file.to_string(),
        line: 1,
        column: 1,
        message: format!(
            "expected one file of 'i-j' word links, or one or two GIZA++ A3.final files (one each way), found {} \
             files ({} of them A3.final)",
            files.len(),
            a3.len()
        ),
    })
}

/// Which way a GIZA++ A3.final file aligns the corpus: `true` when GIZA++'s
/// source sentences (its `NULL` lines) are the corpus's source sentences.
/// Decided by the sentence lengths of every pair, and, when both ways fit
/// (every pair as long on both sides), by which way more words are equal.
fn giza_direction(file: &Named<'_>, corpus: &Corpus) -> Result<(Vec<GizaPair>, bool), LexError> {
    let pairs = read_giza_a3(file.text, file.name)?;
    if pairs.len() != corpus.len() {
        let (line, column) = match pairs.get(corpus.len()) {
            Some(extra) => (extra.line, 1),
            None => crate::io::text::end_position(file.text),
        };
        return Err(LexError::CountMismatch {
            file: file.name.to_string(),
            line,
            column,
            expected: corpus.len(),
            found: pairs.len(),
            what: "sentence pairs of GIZA++ alignments (one per tree pair, in the same order)",
        });
    }
    let (mut forward, mut backward) = (true, true);
    let (mut forward_words, mut backward_words) = (0usize, 0usize);
    for (k, (g, p)) in pairs.iter().zip(&corpus.pairs).enumerate() {
        let (s, t) = (p.source.words(), p.target.words());
        let fits = |a: &[String], b: &[String]| g.giza_source.len() == a.len() && g.giza_target.len() == b.len();
        let equal =
            |x: &[String], y: &[String]| x.iter().zip(y).filter(|(a, b)| a.to_lowercase() == b.to_lowercase()).count();
        forward &= fits(s, t);
        backward &= fits(t, s);
        forward_words += equal(&g.giza_source, s) + equal(&g.giza_target, t);
        backward_words += equal(&g.giza_source, t) + equal(&g.giza_target, s);
        if !forward && !backward {
            return Err(LexError::Invalid {
                file: file.name.to_string(),
                line: g.line,
                column: 1,
                message: format!(
                    "sentence pair {} aligns {} words to {}, but pair {} of the corpus has {} source and {} target \
                     words; expected the corpus's sentences (one way or the other)",
                    k + 1,
                    g.giza_source.len(),
                    g.giza_target.len(),
                    k + 1,
                    s.len(),
                    t.len()
                ),
            });
        }
    }
    let forward = forward && (!backward || forward_words >= backward_words);
    Ok((pairs, forward))
}

/// The links of one or two A3.final files read by [`giza_direction`].
fn giza_links(files: &[&Named<'_>], read: Vec<(Vec<GizaPair>, bool)>, corpus: &Corpus) -> Result<WordLinks, LexError> {
    let as_source_target = |pairs: &[GizaPair], forward: bool| -> Vec<WordAlignment> {
        pairs
            .iter()
            .map(|g| WordAlignment::new(g.links.iter().map(|&(i, j)| if forward { (i, j) } else { (j, i) })))
            .collect()
    };
    let way = |forward: bool| if forward { "source to target" } else { "target to source" };
    let mut notes: Vec<String> = files
        .iter()
        .zip(&read)
        .map(|(f, (_, forward))| format!("{}: GIZA++ alignments {}", f.name, way(*forward)))
        .collect();
    match read.as_slice() {
        [(pairs, forward)] => {
            notes.push(
                "one direction only: its links are used as they are (give both A3.final files to symmetrise)".into(),
            );
            Ok(WordLinks { links: as_source_target(pairs, *forward), notes })
        }
        [(a, fa), (b, fb)] if fa != fb => {
            let (s2t, t2s) = if *fa { (a, b) } else { (b, a) };
            let (s2t, t2s) = (as_source_target(s2t, true), as_source_target(t2s, false));
            let links = corpus
                .pairs
                .iter()
                .zip(s2t.iter().zip(&t2s))
                .map(|(p, (st, ts))| {
                    symmetrize(st, ts, p.source.words().len(), p.target.words().len(), Symmetrization::GrowDiagFinalAnd)
                })
                .collect();
            notes.push("symmetrised with grow-diag-final-and".into());
            Ok(WordLinks { links, notes })
        }
        [(_, forward), _] => Err(LexError::Invalid {
            file: files.get(1).map_or("", |f| f.name).to_string(),
            line: 1,
            column: 1,
            message: format!(
                "both GIZA++ files align {} (as {} does); expected one file each way (src-trg and trg-src)",
                way(*forward),
                files[0].name
            ),
        }),
        _ => Ok(WordLinks { links: Vec::new(), notes }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name_then_by_head() {
        assert_eq!(FileKind::from_name("dev.SRC"), Some(FileKind::SourceTrees));
        assert_eq!(FileKind::from_name("aligned.grow-diag-final-and"), Some(FileKind::WordAlignment));
        assert_eq!(FileKind::from_name("notes.txt"), None);
        assert_eq!(FileKind::from_name("lex.0-0.e2f.gz"), Some(FileKind::LexS2t));
        assert_eq!(FileKind::from_name("src-trg.A3.final.gz"), Some(FileKind::WordAlignment));
        assert_eq!(FileKind::from_name("LAI_SQUOIA_DE.xml.gz"), Some(FileKind::TigerXml));
        let xml = FileKind::from_name("a.xml").unwrap();
        assert!(xml.needs_head());
        let sta = "<?xml version=\"1.0\"?>\n<!-- aligned by hand -->\n<treealign subversion=\"3\">";
        assert_eq!(FileKind::sniff(xml, sta), FileKind::StaAlignment);
        let tiger = "<?xml version=\"1.0\"?><corpus id=\"x\"><!-- <treealign> -->";
        assert_eq!(FileKind::sniff(xml, tiger), FileKind::TigerXml);
        let json = FileKind::from_name("m.json").unwrap();
        assert_eq!(FileKind::sniff(json, "{\"format\":\"treelink-mt\",\"version\":1}"), FileKind::TranslationModel);
        assert_eq!(FileKind::sniff(json, "{ \"format\" : \"treelink-alignment-model\" }"), FileKind::AlignmentModel);
        // A translation model named elsewhere in the text is not one.
        assert_eq!(FileKind::sniff(json, "{\"spec\":\"treelink-mt\"}"), FileKind::AlignmentModel);
        assert_eq!(FileKind::sniff(json, "{\n  \"format\": \"treelink-exercise\",\n"), FileKind::Exercise);
        assert_eq!(FileKind::sniff(json, "{\"format\": \"treelink-exercise-answers\""), FileKind::ExerciseAnswers);
    }

    fn corpus(src: &str, trg: &str) -> Corpus {
        Corpus::from_texts(Named { name: "c.src", text: src }, Named { name: "c.trg", text: trg }, None).unwrap()
    }

    #[test]
    fn a_table_is_checked_for_coverage_and_for_being_the_other_way_round() {
        let (source, target) = (["das", "Haus", "das", "Buch"], ["the", "house", "the", "book"]);
        let s2t = read_moses_lex("the das 0.7\nhouse haus 1\nbook buch 1\n", "lex.e2f").unwrap();
        let check = check_table(&s2t, "lex.e2f", TableSide::S2t, source, target);
        assert_eq!((check.coverage.tokens_covered, check.other_side.tokens_covered), (4, 0));
        assert_eq!(check.warning, None);
        let summary = &check.summary;
        assert!(summary.ends_with("covers 3 of 3 source word types (100%) and 4 of 4 tokens (100%)"), "{summary}");
        // The same table given as p(s|t): conditioned on source words, not target words.
        let check = check_table(&s2t, "lex.e2f", TableSide::T2s, source, target);
        let warning = check.warning.as_deref().unwrap_or_default();
        assert!(warning.starts_with("lex.e2f looks given the wrong way round"), "{check:?}");
        // A table of other languages: low coverage.
        let other = read_moses_lex("x y 1\n", "lex.x").unwrap();
        let check = check_table(&other, "lex.x", TableSide::S2t, source, target);
        let warning = check.warning.as_deref().unwrap_or_default();
        assert!(warning.starts_with("lex.x covers less than 50% of the source words"), "{check:?}");
    }

    #[test]
    fn a_giza_table_of_ids_is_read_with_its_vocabularies_or_refused_in_words() {
        let table = Named { name: "s2t.t3.final", text: "0 3 0.2\n2 2 0.5\n2 3 0.5\n" };
        let e = read_lex_table(table, None, TableSide::S2t).unwrap_err().to_string();
        assert!(e.starts_with("s2t.t3.final:1:1: a GIZA++ t-table of word ids"), "{e}");
        let s = crate::lexicon::read_giza_vocab("2 das 2\n", "s.vcb").unwrap();
        let t = crate::lexicon::read_giza_vocab("2 the 2\n3 house 1\n", "t.vcb").unwrap();
        let p = read_lex_table(table, Some((&s, &t)), TableSide::S2t).unwrap();
        assert_eq!((p.prob("the", "das"), p.prob("house", crate::lexicon::NULL)), (0.5, 0.2));
        // Given as p(s|t), its ids only fit the other way: read so, and the check says it.
        let p = read_lex_table(table, Some((&s, &t)), TableSide::T2s).unwrap();
        assert_eq!(p.prob("the", "das"), 0.5);
        let check = check_table(&p, "s2t.t3.final", TableSide::T2s, ["das"], ["the"]);
        assert!(check.warning.is_some_and(|w| w.contains("wrong way round")));
    }

    #[test]
    fn the_two_vocabularies_are_told_apart_by_the_words_in_either_order_or_refused_in_words() {
        let (de, es) = (
            Named { name: "de.vcb", text: "2 das 3\n3 Haus 1\n" },
            Named { name: "es.vcb", text: "2 la 3\n3 casa 1\n4 . 1\n" },
        );
        let (source, target) = (["das", "Haus", "."], ["la", "casa", "."]);
        for files in [[de, es], [es, de]] {
            let v = giza_vocabularies(files, source, target).unwrap();
            assert_eq!((v.source.file.as_str(), v.target.file.as_str()), ("de.vcb", "es.vcb"));
            assert_eq!(
                v.summary,
                "source de.vcb: 2 words, 67% of the source tokens; target es.vcb: 3 words, 100% of the target tokens"
            );
        }
        // Words that tell nothing (none, or both vocabularies alike): refused, naming both files.
        let e = giza_vocabularies([de, es], [], []).unwrap_err().to_string();
        let which = "de.vcb:1:1: the words of the pairs loaded do not tell which of de.vcb and es.vcb";
        assert!(e.starts_with(which), "{e}");
        let bad = Named { name: "bad.vcb", text: "2 das 1\nx y 1\n" };
        let e = giza_vocabularies([de, bad], source, target).unwrap_err().to_string();
        assert!(e.starts_with("bad.vcb:2:1: expected a word id"), "{e}");
    }

    #[test]
    fn word_links_come_from_i_j_lines_or_both_giza_directions_symmetrised() {
        let c = corpus("(S (A a) (B b))\n(S (C c))\n", "(T (X x) (Y y) (Z z))\n(T (W w))\n");
        let ij = read_word_links(&[Named { name: "w.gdfa", text: "0-0 1-2\n0-0\n" }], &c).unwrap();
        assert_eq!(ij.links[0].links(), [(0, 0), (1, 2)]);
        // GIZA++ from source to target (NULL line = source words) and back.
        let s2t = "# Sentence pair (1) source length 2 target length 3 alignment score : 1\nx y z\nNULL ({ 2 }) a ({ 1 }) b ({ 3 })\n\
                   # Sentence pair (2) source length 1 target length 1 alignment score : 1\nw\nNULL ({ }) c ({ 1 })\n";
        let t2s = "# Sentence pair (1) source length 3 target length 2 alignment score : 1\na b\nNULL ({ }) x ({ 1 }) y ({ 2 }) z ({ })\n\
                   # Sentence pair (2) source length 1 target length 1 alignment score : 1\nc\nNULL ({ }) w ({ 1 })\n";
        let (a, b) = (Named { name: "s2t.A3.final", text: s2t }, Named { name: "t2s.A3.final", text: t2s });
        // Either order: the directions come from the sentences.
        for files in [[a, b], [b, a]] {
            let w = read_word_links(&files, &c).unwrap();
            // s2t {0-0, 1-2}, t2s {0-0, 1-1}: the intersection 0-0 grows by its diagonal 1-1 (b was free),
            // then by 1-1's neighbour 1-2 (z is still free).
            assert_eq!(w.links[0].links(), [(0, 0), (1, 1), (1, 2)], "{files:?}");
            assert_eq!(w.links[1].links(), [(0, 0)]);
            assert!(w.notes.iter().any(|n| n.contains("grow-diag-final-and")));
        }
        let one = read_word_links(&[a], &c).unwrap();
        assert_eq!(one.links[0].links(), [(0, 0), (1, 2)]);
        let e = read_word_links(&[a, a], &c).unwrap_err().to_string();
        assert!(e.contains("both GIZA++ files align source to target"), "{e}");
        let e = read_word_links(&[a, Named { name: "w.gdfa", text: "0-0\n0-0\n" }], &c).unwrap_err().to_string();
        assert!(e.contains("found 2 files (1 of them A3.final)"), "{e}");
        // A file of other sentences is located at the first pair that fits neither way.
        let other = corpus("(S (A a))\n(S (C c))\n", "(T (X x))\n(T (W w))\n");
        let e = read_word_links(&[a], &other).unwrap_err().to_string();
        assert!(e.starts_with("s2t.A3.final:1:1: sentence pair 1 aligns 2 words to 3"), "{e}");
    }

    #[test]
    fn model_files_are_read_by_their_format() {
        let sniff = |text| FileKind::sniff(FileKind::AlignmentModel, text);
        let text = "{\"format\":\"treelink-alignment-model\",\"version\":99}";
        assert_eq!(sniff(text), FileKind::AlignmentModel);
        let e = read_alignment_model(text, "m.json").unwrap_err();
        assert!(e.to_string().starts_with("m.json:"), "{e}");
        let text = "{\"format\":\"treelink-mt\",\"version\":1";
        assert_eq!(sniff(text), FileKind::TranslationModel);
        assert!(TranslationModel::from_json(text, "t.json").is_err());
        assert_eq!(sniff("[1, 2]"), FileKind::AlignmentModel);
        let e = read_alignment_model("[1, 2]", "x.json").unwrap_err();
        assert!(e.to_string().starts_with("x.json:1:1: expected a treelink alignment model"), "{e}");
    }
}
