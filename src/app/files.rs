//! Files by kind: what a file holds, told from its name and, for `.xml` and
//! `.json`, from its first element or its `format` header (a typed sniff,
//! not a substring search); and the readers that check a model file or
//! import a TigerXML pair from files given in any order.

use std::fmt;

use crate::align::model::{AlignmentModel, ModelFileError as AlignmentModelError};
use crate::corpus::Named;
use crate::exercise;
use crate::mt::model::{TranslationModel, TranslationModelError, MT_MODEL_FORMAT};
use crate::tiger::{import_pair, parse_sta, ImportOptions, TigerError, TigerImport};

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
}

/// How much of a `.xml` or `.json` file [`FileKind::sniff`] needs.
pub const SNIFF_BYTES: usize = 4096;

impl FileKind {
    /// The kind a file's name says (`.xml` is taken as TigerXML and `.json`
    /// as an alignment model until [`FileKind::sniff`] reads their heads).
    pub fn from_name(name: &str) -> Option<FileKind> {
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit('.').next().unwrap_or("");
        match ext {
            "src" => Some(FileKind::SourceTrees),
            "trg" => Some(FileKind::TargetTrees),
            "gold" => Some(FileKind::GoldLinks),
            "xml" | "tiger" => Some(FileKind::TigerXml),
            "json" => Some(FileKind::AlignmentModel),
            "tlmt" => Some(FileKind::TranslationModel),
            "arpa" | "lm" => Some(FileKind::ArpaLm),
            "e2f" | "s2t" => Some(FileKind::LexS2t),
            "f2e" | "t2s" => Some(FileKind::LexT2s),
            _ if lower.starts_with("aligned.") => Some(FileKind::WordAlignment),
            "align" | "wa" | "gdfa" | "intersect" | "grow-diag" => Some(FileKind::WordAlignment),
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

/// A model file of either kind.
// One per file read, so the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ModelFile {
    Alignment(AlignmentModel),
    Translation(TranslationModel),
}

/// Why a model file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelReadError {
    #[error(transparent)]
    Alignment(#[from] AlignmentModelError),
    #[error(transparent)]
    Translation(#[from] TranslationModelError),
}

impl ModelFile {
    /// Reads a model file of either kind, told by its `format` field.
    pub fn read(text: &str, file: &str) -> Result<ModelFile, ModelReadError> {
        match FileKind::sniff(FileKind::AlignmentModel, text) {
            FileKind::TranslationModel => Ok(ModelFile::Translation(TranslationModel::from_json(text, file)?)),
            _ => Ok(ModelFile::Alignment(read_alignment_model(text, file)?)),
        }
    }
}

/// Reads an alignment model file (`treelink train`'s): the one reader
/// behind the CLI's `--model`, the page's model input (its status, in the
/// file worker) and the job worker's *Align with the model*, so all three
/// check the same things.
pub fn read_alignment_model(text: &str, file: &str) -> Result<AlignmentModel, AlignmentModelError> {
    AlignmentModel::from_json(text, file)
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

/// Imports two TigerXML treebanks and their STA alignment given in any
/// order: the alignment is the file whose root element is `<treealign>`;
/// the treebank it lists second is the target (upload order otherwise).
pub fn import_tiger(files: &[Named<'_>]) -> Result<TigerImport, TigerFilesError> {
    let is_sta = |f: &&Named<'_>| FileKind::sniff(FileKind::TigerXml, f.text) == FileKind::StaAlignment;
    let sta: Vec<&Named<'_>> = files.iter().filter(is_sta).collect();
    let mut tigers: Vec<&Named<'_>> = files.iter().filter(|f| !is_sta(f)).collect();
    let [sta] = sta.as_slice() else { return Err(TigerFilesError::StaCount(sta.len())) };
    if tigers.len() != 2 {
        return Err(TigerFilesError::TreebankCount(tigers.len()));
    }
    let alignment = parse_sta(sta.text, sta.name)?;
    if let Some(second) = alignment.treebanks.get(1).and_then(|t| t.filename.as_deref()) {
        if tigers[0].name.ends_with(second) {
            tigers.swap(0, 1);
        }
    }
    Ok(import_pair(*tigers[0], *tigers[1], **sta, ImportOptions::default())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name_then_by_head() {
        assert_eq!(FileKind::from_name("dev.SRC"), Some(FileKind::SourceTrees));
        assert_eq!(FileKind::from_name("aligned.grow-diag-final-and"), Some(FileKind::WordAlignment));
        assert_eq!(FileKind::from_name("notes.txt"), None);
        let xml = FileKind::from_name("a.xml").unwrap();
        assert!(xml.needs_head());
        let sta = "<?xml version=\"1.0\"?>\n<!-- aligned by hand -->\n<treealign subversion=\"3\">";
        assert_eq!(FileKind::sniff(xml, sta), FileKind::StaAlignment);
        assert_eq!(
            FileKind::sniff(xml, "<?xml version=\"1.0\"?><corpus id=\"x\"><!-- <treealign> -->"),
            FileKind::TigerXml
        );
        let json = FileKind::from_name("m.json").unwrap();
        assert_eq!(FileKind::sniff(json, "{\"format\":\"treelink-mt\",\"version\":1}"), FileKind::TranslationModel);
        assert_eq!(FileKind::sniff(json, "{ \"format\" : \"treelink-alignment-model\" }"), FileKind::AlignmentModel);
        // A translation model named elsewhere in the text is not one.
        assert_eq!(FileKind::sniff(json, "{\"spec\":\"treelink-mt\"}"), FileKind::AlignmentModel);
        assert_eq!(FileKind::sniff(json, "{\n  \"format\": \"treelink-exercise\",\n"), FileKind::Exercise);
        assert_eq!(FileKind::sniff(json, "{\"format\": \"treelink-exercise-answers\""), FileKind::ExerciseAnswers);
    }

    #[test]
    fn model_files_are_read_by_their_format() {
        let e = ModelFile::read("{\"format\":\"treelink-alignment-model\",\"version\":99}", "m.json").unwrap_err();
        assert!(e.to_string().starts_with("m.json:"), "{e}");
        let e = ModelFile::read("{\"format\":\"treelink-mt\",\"version\":1", "t.json").unwrap_err();
        assert!(matches!(e, ModelReadError::Translation(_)), "{e}");
        let e = ModelFile::read("[1, 2]", "x.json").unwrap_err();
        assert!(e.to_string().starts_with("x.json:1:1: expected a treelink alignment model"), "{e}");
    }
}
