//! The translation model file (`treelink mt-train -o MTMODEL`): either
//! system, phrase-based or meta-structure, as one versioned JSON object.
//!
//! ```text
//! {
//!   "format": "treelink-mt",      // always this string
//!   "version": 1,                 // MT_MODEL_VERSION; other versions are refused
//!   "system": "phrase" | "ms",
//!   "training": { ... },          // how it was trained (informative)
//!   "model": { ... }              // PhraseSystem or MsSystem, serde's field names
//! }
//! ```
//!
//! `model` of a phrase system holds `config`, `weights` (9, indices
//! [`crate::mt::decoder`]'s `F_*`), `table` (a list of
//! `[source, target, [φ(f|e), lex(f|e), φ(e|f), lex(e|f)]]`) and `lm` (the
//! n-gram model); of an MS system also `rm_table` (a list of
//! `[source RM, target RM, count, P(e|f), P(f|e)]`, RMs as structure
//! strings), `structure_lm`, `tags` (target word → POS), and `weights` has 14
//! entries ([`crate::mt::ms`]). Reading refuses another format or version, a
//! missing or unknown system, and malformed JSON, with
//! `file:line:column: expected ...`.

use serde::{Deserialize, Serialize};

use crate::io::json::{from_json, JsonError};
use crate::mt::ms::{MsSystem, MsTranslation};
use crate::mt::phrase::{ExtractMethod, PhraseSystem};
use crate::tree::Tree;

/// The `format` string of a model file.
pub const MT_MODEL_FORMAT: &str = "treelink-mt";
/// The `version` this build reads and writes.
pub const MT_MODEL_VERSION: u32 = 1;

/// Which system a model file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SystemKind {
    /// The phrase-based baseline.
    Phrase,
    /// The meta-structure system.
    Ms,
}

impl SystemKind {
    pub fn name(self) -> &'static str {
        match self {
            SystemKind::Phrase => "phrase",
            SystemKind::Ms => "ms",
        }
    }
}

impl std::str::FromStr for SystemKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "phrase" => Ok(SystemKind::Phrase),
            "ms" => Ok(SystemKind::Ms),
            _ => Err(format!("expected a system (ms, phrase), found '{s}'")),
        }
    }
}

/// How a model was trained (written for people; not needed to decode).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainingInfo {
    pub train: String,
    pub dev: Option<String>,
    pub extract: Option<ExtractMethod>,
    /// `gold`, a sub-tree alignment model file, or none.
    pub subtree_align: Option<String>,
    pub pairs: usize,
    /// Dev BLEU of the tuned weights (if tuned).
    pub dev_bleu: Option<f64>,
    pub seconds: f64,
}

/// A trained system of either kind.
#[derive(Debug, Clone, PartialEq)]
pub enum MtSystem {
    Phrase(Box<PhraseSystem>),
    Ms(Box<MsSystem>),
}

/// One translation: the words and, for the MS system, the target SMS and derivation.
#[derive(Debug, Clone, PartialEq)]
pub struct MtOutput {
    pub words: Vec<String>,
    /// The MS system's full result.
    pub ms: Option<MsTranslation>,
}

impl MtSystem {
    pub fn kind(&self) -> SystemKind {
        match self {
            MtSystem::Phrase(_) => SystemKind::Phrase,
            MtSystem::Ms(_) => SystemKind::Ms,
        }
    }

    /// Translates a source tree (the phrase system reads only its words).
    pub fn translate(&self, source: &Tree) -> MtOutput {
        match self {
            MtSystem::Phrase(p) => MtOutput { words: p.translate(source.words()).words, ms: None },
            MtSystem::Ms(m) => {
                let t = m.translate(source);
                MtOutput { words: t.words.clone(), ms: Some(t) }
            }
        }
    }
}

/// A model file's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct MtModel {
    pub training: TrainingInfo,
    pub system: MtSystem,
}

/// Why a model file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MtModelError {
    #[error(transparent)]
    Json(#[from] JsonError),
    #[error("{file}:1:1: expected format \"{MT_MODEL_FORMAT}\" version {MT_MODEL_VERSION}, found format {format:?} version {version}")]
    Header { file: String, format: String, version: u32 },
    #[error("{file}:1:1: expected \"system\": \"phrase\" or \"ms\"")]
    NoSystem { file: String },
}

#[derive(Serialize)]
struct FileOut<'a, T> {
    format: &'a str,
    version: u32,
    system: SystemKind,
    training: &'a TrainingInfo,
    model: &'a T,
}

#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: String,
    #[serde(default)]
    version: u32,
    system: Option<SystemKind>,
}

#[derive(Deserialize)]
struct FileIn<T> {
    #[serde(default)]
    training: TrainingInfo,
    model: T,
}

/// What the file should be, for errors.
const WHAT: &str = "a treelink translation model";

impl MtModel {
    /// The model file's text.
    pub fn to_json(&self) -> String {
        let s = match &self.system {
            MtSystem::Phrase(p) => serde_json::to_string(&FileOut {
                format: MT_MODEL_FORMAT,
                version: MT_MODEL_VERSION,
                system: SystemKind::Phrase,
                training: &self.training,
                model: p,
            }),
            MtSystem::Ms(m) => serde_json::to_string(&FileOut {
                format: MT_MODEL_FORMAT,
                version: MT_MODEL_VERSION,
                system: SystemKind::Ms,
                training: &self.training,
                model: m,
            }),
        };
        s.unwrap_or_default()
    }

    /// Reads a model file; `file` names it in errors.
    pub fn from_json(text: &str, file: &str) -> Result<MtModel, MtModelError> {
        let header: Header = from_json(text, file, WHAT)?;
        if header.format != MT_MODEL_FORMAT || header.version != MT_MODEL_VERSION {
            return Err(MtModelError::Header {
                file: file.to_string(),
                format: header.format,
                version: header.version,
            });
        }
        // The weights and probabilities JSON cannot constrain are checked
        // while reading (`deserialize_with`), so their errors are located.
        match header.system {
            None => Err(MtModelError::NoSystem { file: file.to_string() }),
            Some(SystemKind::Phrase) => {
                let f: FileIn<PhraseSystem> = from_json(text, file, WHAT)?;
                Ok(MtModel { training: f.training, system: MtSystem::Phrase(Box::new(f.model)) })
            }
            Some(SystemKind::Ms) => {
                let f: FileIn<MsSystem> = from_json(text, file, WHAT)?;
                Ok(MtModel { training: f.training, system: MtSystem::Ms(Box::new(f.model)) })
            }
        }
    }
}
