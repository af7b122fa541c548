//! The phrase-based system: training (word alignment, extraction, table,
//! LM), translating and tuning (MERT), and what the meta-structure system's
//! training shares with it (list checks, span pairs, aligned pairs).

use std::ops::Deref;

use serde::{Deserialize, Serialize};

use super::decode::{
    decode_phrase_words, default_phrase_weights, PhraseDecodeOptions, Translation, F_UNKNOWN, NUM_PHRASE_FEATURES,
};
use super::extract::{subtree_pairs, AlignedPair, ExtractMethod, SpanPair};
use super::table::{PhraseTable, PhraseTableOptions};
use super::unknown::{SourceVocabulary, SourceWords, UnknownWordOptions};
use crate::corpus::Corpus;
use crate::io::links::LinkKind;
use crate::mt::lm::{LmError, NgramLm, DEFAULT_ORDER};
use crate::mt::tune::{mert_with_progress, MertOptions, MertReport};
use crate::progress::{Cancelled, Observer, Quiet};
use crate::tree::NodeId;

/// Everything that defines how a [`PhraseSystem`] is trained and decodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PhraseSystemConfig {
    pub table: PhraseTableOptions,
    /// Order of the target language model (default 3, the paper's).
    pub lm_order: usize,
    pub decode: PhraseDecodeOptions,
    /// Unknown source words: pass-through, lexicon, casing, compound splitting
    /// ([`super::unknown`]; default all; in a version-1 file: copied).
    #[serde(default = "UnknownWordOptions::copy_only")]
    pub unknown: UnknownWordOptions,
}

impl Default for PhraseSystemConfig {
    fn default() -> Self {
        PhraseSystemConfig {
            table: PhraseTableOptions::default(),
            lm_order: DEFAULT_ORDER,
            decode: PhraseDecodeOptions::default(),
            unknown: UnknownWordOptions::default(),
        }
    }
}

/// Why a system could not be trained, loaded or tuned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PhraseSystemError {
    #[error(transparent)]
    Count(#[from] CountError),
    #[error(transparent)]
    Lm(#[from] LmError),
    #[error(transparent)]
    Json(#[from] crate::io::json::JsonError),
    #[error("cancelled")]
    Cancelled,
}

/// The phrase-based system: phrase table, target language model, feature
/// weights (see [`crate::mt::decoder`] for the features) and settings.
/// Serialisable as one JSON model file ([`PhraseSystem::to_json`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhraseSystem {
    pub config: PhraseSystemConfig,
    #[serde(deserialize_with = "crate::io::json::weights::<_, NUM_PHRASE_FEATURES>")]
    pub weights: Vec<f64>,
    pub table: PhraseTable,
    pub lm: NgramLm,
    /// Word counts of the training source sentences (unknown words' casing
    /// and compound parts, [`super::unknown`]); empty in model files of
    /// version 1, which then split no compound.
    #[serde(default)]
    pub vocabulary: SourceVocabulary,
    /// One-word translations from the word-alignment lexicon for training
    /// words without a one-word phrase pair ([`super::unknown::lexicon_backoff`];
    /// empty when trained from a given word alignment, and in version-1 files).
    #[serde(default)]
    pub word_backoff: PhraseTable,
}

/// The gold sub-tree links of each pair of a corpus as `(source node, target node)`;
/// fuzzy links only if `include_fuzzy`.
pub fn gold_subtree_links(corpus: &Corpus, include_fuzzy: bool) -> Vec<Vec<(NodeId, NodeId)>> {
    corpus
        .pairs
        .iter()
        .map(|p| {
            p.gold.iter().filter(|l| include_fuzzy || l.kind == LinkKind::Good).map(|l| (l.source, l.target)).collect()
        })
        .collect()
}

/// A list that must hold one entry per sentence pair does not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected} {what} (one per sentence pair), found {found}")]
pub struct CountError {
    pub what: &'static str,
    pub expected: usize,
    pub found: usize,
}

impl CountError {
    /// `Ok` when `found == expected`.
    pub fn check(what: &'static str, expected: usize, found: usize) -> Result<(), CountError> {
        if found == expected {
            Ok(())
        } else {
            Err(CountError { what, expected, found })
        }
    }
}

/// What both systems (phrase-based and MS) check first: one word alignment
/// and, if given, one list of sub-tree links per sentence pair.
pub(crate) fn check_training_lists(
    pairs: usize,
    alignments: usize,
    subtree_links: Option<&[Vec<(NodeId, NodeId)>]>,
) -> Result<(), CountError> {
    CountError::check("word alignments", pairs, alignments)?;
    subtree_links.map_or(Ok(()), |l| CountError::check("lists of sub-tree links", pairs, l.len()))
}

/// The span pairs of pair `k`'s sub-tree links, each side at most `max`
/// words; none for word-only extraction or without links.
pub(crate) fn subtree_span_pairs(
    corpus: &Corpus,
    subtree_links: Option<&[Vec<(NodeId, NodeId)>]>,
    method: ExtractMethod,
    k: usize,
    max: usize,
) -> Vec<SpanPair> {
    match (subtree_links.and_then(|l| l.get(k)), corpus.pairs.get(k)) {
        (Some(links), Some(p)) if method != ExtractMethod::Word => subtree_pairs(&p.source, &p.target, links, max),
        _ => Vec::new(),
    }
}

/// The corpus's pairs as a phrase table is trained on them.
pub(crate) fn aligned_pairs<'a, A: Deref<Target = [(usize, usize)]>>(
    corpus: &'a Corpus,
    alignments: &'a [A],
    subtree: &'a [Vec<SpanPair>],
) -> Vec<AlignedPair<'a>> {
    corpus
        .pairs
        .iter()
        .zip(alignments)
        .zip(subtree)
        .map(|((p, a), s)| AlignedPair { source: p.source.words(), target: p.target.words(), alignment: a, subtree: s })
        .collect()
}

impl PhraseSystem {
    /// Trains on the words of a parallel treebank: the phrase table from the
    /// word alignments (one per pair, `(source i, target j)`) and, for DirC /
    /// EWoS, the sub-tree links of each pair; the language model on the
    /// target sentences. Weights start at [`default_phrase_weights`].
    pub fn train<A: Deref<Target = [(usize, usize)]>>(
        corpus: &Corpus,
        alignments: &[A],
        subtree_links: Option<&[Vec<(NodeId, NodeId)>]>,
        config: &PhraseSystemConfig,
    ) -> Result<PhraseSystem, PhraseSystemError> {
        check_training_lists(corpus.len(), alignments.len(), subtree_links)?;
        let (method, max) = (config.table.extract.method, config.table.extract.max_phrase_len);
        let subtree: Vec<Vec<SpanPair>> =
            (0..corpus.len()).map(|k| subtree_span_pairs(corpus, subtree_links, method, k, max)).collect();
        let pairs = aligned_pairs(corpus, alignments, &subtree);
        let table = PhraseTable::train(&pairs, &config.table);
        let targets: Vec<&[String]> = corpus.pairs.iter().map(|p| p.target.words()).collect();
        let lm = NgramLm::train(&targets, config.lm_order)?;
        let vocabulary = SourceVocabulary::train(corpus.pairs.iter().map(|p| p.source.words()));
        Ok(PhraseSystem {
            config: config.clone(),
            weights: default_phrase_weights(),
            table,
            lm,
            vocabulary,
            word_backoff: PhraseTable::default(),
        })
    }

    /// The sentence as the decoder looks it up: its unknown words treated
    /// by the system's settings ([`super::unknown`]).
    pub fn source_words(&self, source: &[String]) -> SourceWords {
        let limit = self.config.decode.ttable_limit.unwrap_or(usize::MAX);
        SourceWords::prepare(source, &self.table, &self.word_backoff, &self.vocabulary, &self.config.unknown, limit)
    }

    /// Translates a tokenised source sentence with the system's weights and settings.
    pub fn translate(&self, source: &[String]) -> Translation {
        self.translate_with(source, &self.weights, &self.config.decode)
    }

    /// Translates with other weights or settings.
    pub fn translate_with(&self, source: &[String], weights: &[f64], options: &PhraseDecodeOptions) -> Translation {
        decode_phrase_words(&self.table, &self.lm, &self.source_words(source), weights, options)
    }

    /// Tunes the weights on a development set by MERT ([`crate::mt::tune`]),
    /// decoding n-best lists of `options.nbest` distinct translations. The unknown-word
    /// weight is always held fixed, as Moses does (it only has to keep
    /// copying a word much worse than translating it inside a longer phrase;
    /// like every weight it is scaled by MERT's normalisation). Sets and
    /// returns the weights with the best decoded dev BLEU.
    pub fn tune(
        &mut self,
        sources: &[Vec<String>],
        references: &[Vec<String>],
        options: &MertOptions,
    ) -> Result<MertReport, PhraseSystemError> {
        self.tune_with_progress(sources, references, options, &mut Quiet)
    }

    /// [`PhraseSystem::tune`], reporting each MERT iteration to `progress`
    /// ([`mert_with_progress`]); when it says stop, tuning ends in
    /// [`PhraseSystemError::Cancelled`] and the weights stay as they were.
    pub fn tune_with_progress(
        &mut self,
        sources: &[Vec<String>],
        references: &[Vec<String>],
        options: &MertOptions,
        progress: &mut dyn Observer,
    ) -> Result<MertReport, PhraseSystemError> {
        CountError::check("references", sources.len(), references.len())?;
        let mut opts = options.clone();
        if !opts.fixed.contains(&F_UNKNOWN) {
            opts.fixed.push(F_UNKNOWN);
        }
        let mut decode = self.config.decode.clone();
        decode.beam.nbest = options.nbest.max(1);
        decode.distinct_nbest = true;
        let this = &*self;
        let report = mert_with_progress(references, &self.weights, &opts, progress, |w| {
            sources
                .iter()
                .map(|s| this.translate_with(s, w, &decode).nbest.into_iter().map(|e| (e.words, e.features)).collect())
                .collect()
        })
        .map_err(|Cancelled| PhraseSystemError::Cancelled)?;
        self.weights = report.weights.clone();
        Ok(report)
    }

    /// The model file: the whole system as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a model file written by [`PhraseSystem::to_json`]; `file` names it in errors.
    pub fn from_json(text: &str, file: &str) -> Result<PhraseSystem, PhraseSystemError> {
        // The weights are checked while reading (their count and finiteness).
        let sys: PhraseSystem = crate::io::json::from_json(text, file, "a phrase-based model")?;
        Ok(sys)
    }
}
