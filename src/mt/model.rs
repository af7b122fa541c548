//! The translation model file (`treelink mt-train -o MTMODEL`): either
//! system, phrase-based or meta-structure, as one versioned JSON object.
//!
//! ```text
//! {
//!   "format": "treelink-mt",      // always this string
//!   "version": 2,                 // MT_MODEL_VERSION; 1 still reads, others are refused
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
//! strings), `structure_lm`, `tags` (target word → POS), and `weights` has 17
//! entries ([`crate::mt::ms`]). Reading refuses another format or version, a
//! missing or unknown system, and malformed JSON, with
//! `file:line:column: expected ...`.
//!
//! # The binary form
//!
//! The same model, for loading fast and keeping small (`mt-train -o
//! MODEL.tlmt`, `mt-convert`): the bytes [`MT_BINARY_MAGIC`], the layout
//! version [`MT_BINARY_VERSION`] (u32, little-endian), then DEFLATE
//! (RFC 1951) of the postcard encoding of what the JSON file holds, in its
//! order: format, version, system, training, model. Both encodings come
//! from the same serde types, so every field a model has is in both.
//! postcard is compact (varints, no field names) and deterministic, and
//! both it and the compressor are plain Rust (the page reads the same
//! bytes). postcard writes no field names, so any change to the model's
//! types changes the layout: bump [`MT_BINARY_VERSION`] with it (a test
//! reads a committed binary model and fails when the layout moves). The
//! JSON file stays the interchange form; a binary file of another layout
//! version is refused, saying to convert it again from JSON.

use serde::{Deserialize, Serialize};

use crate::io::json::{from_json, JsonError};
use crate::lexicon::WordModel;
use crate::mt::ms::{MsSystem, MsTranslation, MS_FEATURE_NAMES};
use crate::mt::phrase::unknown::{SourceNote, SourceWords, WordRule};
use crate::mt::phrase::{ExtractMethod, PhraseSystem, PHRASE_FEATURE_NAMES};
use crate::mt::tune::Tuner;
use crate::tree::Tree;

/// The `format` string of a model file.
pub const MT_MODEL_FORMAT: &str = "treelink-mt";
/// The `version` this build writes. Version 2 added to both systems
/// `vocabulary` (source word counts), `word_backoff` (the lexicon back-off)
/// and `config.unknown` (the unknown-word treatment, [`crate::mt::phrase::unknown`]);
/// to the MS system `config.reading` (the structure features' reading),
/// `rm_lexicon` (RM lexical weights), tag counts in `tags` (`counts`,
/// `tag_counts`) and three weights (17). A version-1 JSON file reads as it
/// was written: unknown words copied, the paper's reading, the new weights 0.
pub const MT_MODEL_VERSION: u32 = 2;
/// The oldest JSON `version` this build reads.
pub const MT_MODEL_OLDEST_VERSION: u32 = 1;
/// The first bytes of a binary model file.
pub const MT_BINARY_MAGIC: &[u8; 8] = b"TLMT-BIN";
/// The layout of the binary form this build reads and writes (2: the fields
/// of model version 2; 3: the training record says how the model was made,
/// [`TrainingInfo::made_by`] and after it; 4: the unknown-word options'
/// stem back-off, issue 41; an older layout is refused, to be converted
/// again from its JSON file).
pub const MT_BINARY_VERSION: u32 = 4;
/// A binary model is refused if it would inflate beyond this (a damaged or
/// hostile file must not take the page's memory).
pub const MT_BINARY_MAX_BYTES: usize = 1 << 30;

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

    /// The names of the system's features h, in the order of its weights.
    pub fn feature_names(self) -> &'static [&'static str] {
        match self {
            SystemKind::Phrase => &PHRASE_FEATURE_NAMES,
            SystemKind::Ms => &MS_FEATURE_NAMES,
        }
    }
}

impl std::str::FromStr for SystemKind {
    type Err = crate::kernel::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "phrase" => Ok(SystemKind::Phrase),
            "ms" => Ok(SystemKind::Ms),
            _ => Err(crate::kernel::UnknownName {
                what: "translation system",
                found: s.into(),
                expected: "ms, phrase".into(),
            }),
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
    /// The program that trained it: `treelink` and its version.
    pub made_by: String,
    /// The word alignment's model, when the engine aligned the words
    /// (`None`: word links given as a file).
    pub word_model: Option<WordModel>,
    /// How the weights were tuned on dev (`None`: untuned default weights).
    pub tuner: Option<Tuner>,
    /// The preset that set the configuration (`paper`), if one did.
    pub preset: Option<String>,
    /// The configuration dev chose among those tried (`mt-train --dev`), as
    /// the log names it.
    pub chosen_on_dev: Option<String>,
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
    /// The source words the phrase table did not know and what was done with them.
    pub source_notes: Vec<SourceNote>,
    /// Per word of `words`, the index in `source_notes` of the treated word it comes from.
    pub provenance: Vec<Option<usize>>,
    /// Per source word, the rule of the derivation that translated it.
    pub rules: Vec<Option<WordRule>>,
}

impl MtSystem {
    pub fn kind(&self) -> SystemKind {
        match self {
            MtSystem::Phrase(_) => SystemKind::Phrase,
            MtSystem::Ms(_) => SystemKind::Ms,
        }
    }

    /// The weights λ of the log-linear model, named by [`SystemKind::feature_names`].
    pub fn weights(&self) -> &[f64] {
        match self {
            MtSystem::Phrase(p) => &p.weights,
            MtSystem::Ms(m) => &m.weights,
        }
    }

    /// Replaces the weights λ (as MERT's runs start again from the same ones).
    pub fn set_weights(&mut self, weights: &[f64]) {
        match self {
            MtSystem::Phrase(p) => p.weights = weights.to_vec(),
            MtSystem::Ms(m) => m.weights = weights.to_vec(),
        }
    }

    /// Sets the decoder's hypotheses per stack (`translate --beam`).
    pub fn set_beam(&mut self, stack_limit: usize) {
        match self {
            MtSystem::Phrase(p) => p.config.decode.beam.stack_limit = stack_limit,
            MtSystem::Ms(m) => m.config.decode.beam.stack_limit = stack_limit,
        }
    }

    /// A sentence's words as the system looks them up (unknown words treated, [`crate::mt::phrase::unknown`]).
    pub fn source_words(&self, words: &[String]) -> SourceWords {
        match self {
            MtSystem::Phrase(p) => p.source_words(words),
            MtSystem::Ms(m) => m.source_words(words),
        }
    }

    /// Translates a source tree (the phrase system reads only its words).
    pub fn translate(&self, source: &Tree) -> MtOutput {
        match self {
            MtSystem::Phrase(p) => {
                let t = p.translate(source.words());
                let (provenance, rules) = (t.provenance(), t.word_rules(source.words()));
                MtOutput { words: t.words, ms: None, source_notes: t.source_notes, provenance, rules }
            }
            MtSystem::Ms(m) => {
                let t = m.translate(source);
                let (provenance, rules) = (t.provenance(), t.word_rules(source.words()));
                MtOutput {
                    words: t.words.clone(),
                    source_notes: t.source_notes.clone(),
                    provenance,
                    rules,
                    ms: Some(t),
                }
            }
        }
    }
}

/// A model file's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct TranslationModel {
    pub training: TrainingInfo,
    pub system: MtSystem,
}

/// Why a model file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TranslationModelError {
    #[error(transparent)]
    Json(#[from] JsonError),
    #[error("{file}:1:1: expected format \"{MT_MODEL_FORMAT}\" version {MT_MODEL_OLDEST_VERSION} to {MT_MODEL_VERSION}, found format {format:?} version {version}")]
    Header { file: String, format: String, version: u32 },
    #[error("{file}:1:1: expected \"system\": \"phrase\" or \"ms\"")]
    NoSystem { file: String },
    #[error(
        "{file}: a binary translation model of layout version {found}; this build reads version \
         {MT_BINARY_VERSION}: convert the JSON model again (treelink mt-convert MODEL.json MODEL.tlmt)"
    )]
    BinaryVersion { file: String, found: u32 },
    #[error("{file}: expected a treelink binary translation model, but {problem}")]
    Binary { file: String, problem: String },
    #[error(transparent)]
    Encoding(#[from] crate::io::text::EncodingError),
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
    /// Any JSON here: another version may write the system otherwise, and
    /// its version is what to tell the user.
    #[serde(default)]
    system: Option<serde_json::Value>,
}

/// The fields of [`FileOut`] before the training info, as postcard reads
/// them back (no defaults: a binary file always has them).
#[derive(Deserialize)]
struct BinaryHeader {
    format: String,
    version: u32,
    system: SystemKind,
}

#[derive(Deserialize)]
struct FileIn<T> {
    #[serde(default)]
    training: TrainingInfo,
    model: T,
}

/// What the file should be, for errors.
const WHAT: &str = "a treelink translation model";

impl TranslationModel {
    /// A one-line description: system, extraction, table sizes, training pairs, weights.
    pub fn describe(&self) -> String {
        let t = &self.training;
        let extract = t.extract.map_or(String::new(), |e| format!(", {e} extraction"));
        let tables = match &self.system {
            MtSystem::Phrase(p) => format!("{} phrase pairs", p.table.len()),
            MtSystem::Ms(m) => format!(
                "{} phrase pairs, {} RM pairs ({} source RMs)",
                m.table.len(),
                m.rm_table.len(),
                m.rm_table.source_rms()
            ),
        };
        let weights =
            t.dev_bleu.map_or("untuned default weights".to_string(), |b| format!("weights tuned to dev BLEU {b:.2}"));
        format!("{} system{extract}: {tables}; trained on {} pairs; {weights}", self.system.kind().name(), t.pairs)
    }

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

    /// Drops what the model's own decoder can never use, so translations
    /// stay identical: the target RMs of a source RM beyond the decoder's
    /// `rm_limit` (it tries the best `P(e|f)` first, the table's order).
    /// One target stays even at `rm_limit` 0: whether a source RM is in the
    /// table at all still decides where the decoder looks for glue.
    /// Returns the entries dropped.
    pub fn prune_unreachable(&mut self) -> usize {
        match &mut self.system {
            MtSystem::Phrase(_) => 0,
            MtSystem::Ms(m) => {
                let before = m.rm_table.len();
                m.rm_table.prune(m.config.decode.rm_limit.max(1));
                before - m.rm_table.len()
            }
        }
    }

    /// The binary form (module documentation).
    pub fn to_binary(&self) -> Vec<u8> {
        fn encode<T: Serialize>(training: &TrainingInfo, system: SystemKind, model: &T) -> Vec<u8> {
            let out = FileOut { format: MT_MODEL_FORMAT, version: MT_MODEL_VERSION, system, training, model };
            postcard::to_allocvec(&out).unwrap_or_default()
        }
        let payload = match &self.system {
            MtSystem::Phrase(p) => encode(&self.training, SystemKind::Phrase, p),
            MtSystem::Ms(m) => encode(&self.training, SystemKind::Ms, m),
        };
        let mut bytes = MT_BINARY_MAGIC.to_vec();
        bytes.extend_from_slice(&MT_BINARY_VERSION.to_le_bytes());
        bytes.extend(miniz_oxide::deflate::compress_to_vec(&payload, 6));
        bytes
    }

    /// Whether `bytes` begin as a binary model file.
    pub fn is_binary(bytes: &[u8]) -> bool {
        bytes.starts_with(MT_BINARY_MAGIC)
    }

    /// Reads a model file in either form, told apart by its first bytes.
    pub fn from_bytes(bytes: &[u8], file: &str) -> Result<TranslationModel, TranslationModelError> {
        if Self::is_binary(bytes) {
            Self::from_binary(bytes, file)
        } else {
            Self::from_json(crate::io::text::decode_utf8(bytes, file)?, file)
        }
    }

    /// Reads the binary form (module documentation).
    pub fn from_binary(bytes: &[u8], file: &str) -> Result<TranslationModel, TranslationModelError> {
        let damaged = |problem: String| TranslationModelError::Binary { file: file.to_string(), problem };
        let rest =
            bytes.strip_prefix(MT_BINARY_MAGIC).ok_or_else(|| damaged("it does not begin with TLMT-BIN".into()))?;
        let (version, compressed) = match rest.split_first_chunk::<4>() {
            Some((v, c)) => (u32::from_le_bytes(*v), c),
            None => return Err(damaged("it ends inside its header".into())),
        };
        if version != MT_BINARY_VERSION {
            return Err(TranslationModelError::BinaryVersion { file: file.to_string(), found: version });
        }
        let payload = miniz_oxide::inflate::decompress_to_vec_with_limit(compressed, MT_BINARY_MAX_BYTES)
            .map_err(|e| damaged(format!("its compressed data is damaged or too large ({:?})", e.status)))?;
        let (header, rest): (BinaryHeader, &[u8]) =
            postcard::take_from_bytes(&payload).map_err(|e| damaged(format!("its header does not decode ({e})")))?;
        if header.format != MT_MODEL_FORMAT || header.version != MT_MODEL_VERSION {
            return Err(TranslationModelError::Header {
                file: file.to_string(),
                format: header.format,
                version: header.version,
            });
        }
        fn decode<'a, T: Deserialize<'a>>(rest: &'a [u8]) -> Result<(TrainingInfo, T), postcard::Error> {
            let (training, rest): (TrainingInfo, &[u8]) = postcard::take_from_bytes(rest)?;
            let (model, rest): (T, &[u8]) = postcard::take_from_bytes(rest)?;
            if rest.is_empty() {
                Ok((training, model))
            } else {
                Err(postcard::Error::DeserializeBadEncoding)
            }
        }
        let bad = |e: postcard::Error| damaged(format!("its model does not decode ({e})"));
        match header.system {
            SystemKind::Phrase => {
                let (training, model) = decode::<PhraseSystem>(rest).map_err(bad)?;
                Ok(TranslationModel { training, system: MtSystem::Phrase(Box::new(model)) })
            }
            SystemKind::Ms => {
                let (training, model) = decode::<MsSystem>(rest).map_err(bad)?;
                Ok(TranslationModel { training, system: MtSystem::Ms(Box::new(model)) })
            }
        }
    }

    /// Reads a model file; `file` names it in errors.
    pub fn from_json(text: &str, file: &str) -> Result<TranslationModel, TranslationModelError> {
        let header: Header = from_json(text, file, WHAT)?;
        if header.format != MT_MODEL_FORMAT || !(MT_MODEL_OLDEST_VERSION..=MT_MODEL_VERSION).contains(&header.version) {
            return Err(TranslationModelError::Header {
                file: file.to_string(),
                format: header.format,
                version: header.version,
            });
        }
        // The weights and probabilities JSON cannot constrain are checked
        // while reading (`deserialize_with`), so their errors are located.
        match header.system.and_then(|v| serde_json::from_value::<SystemKind>(v).ok()) {
            None => Err(TranslationModelError::NoSystem { file: file.to_string() }),
            Some(SystemKind::Phrase) => {
                let f: FileIn<PhraseSystem> = from_json(text, file, WHAT)?;
                Ok(TranslationModel { training: f.training, system: MtSystem::Phrase(Box::new(f.model)) })
            }
            Some(SystemKind::Ms) => {
                let f: FileIn<MsSystem> = from_json(text, file, WHAT)?;
                Ok(TranslationModel { training: f.training, system: MtSystem::Ms(Box::new(f.model)) })
            }
        }
    }
}
