//! Phrase-based decoding (Pharaoh / Moses) over the generic beam search of
//! [`crate::mt::decoder`].
//!
//! [`PhraseSearch`] (Pharaoh / Moses with default settings) has
//! [`NUM_PHRASE_FEATURES`] = 9 features, all in the natural-log domain:
//!
//! | index | feature | value per phrase |
//! |---|---|---|
//! | [`F_INV_PHRASE`] | ln φ(f̄\|ē) | from the table |
//! | [`F_INV_LEX`] | ln lex(f̄\|ē) | from the table |
//! | [`F_DIR_PHRASE`] | ln φ(ē\|f̄) | from the table |
//! | [`F_DIR_LEX`] | ln lex(ē\|f̄) | from the table |
//! | [`F_LM`] | ln P(e) | LM (log10 from [`NgramLm`] × ln 10), `</s>` added on completion |
//! | [`F_DISTORTION`] | −\|start − previous end\| | linear distortion |
//! | [`F_WORDS`] | number of target words | word penalty (weight of either sign) |
//! | [`F_PHRASES`] | 1 | phrase penalty |
//! | [`F_UNKNOWN`] | 1 per unknown word | source words with no one-word translation are copied |
//!
//! Distortion follows Moses: the jump of a phrase starting at `start` after
//! a phrase ending before `prev_end` is `|start − prev_end|` (the first
//! phrase jumps from 0; no jump is charged at the end of the sentence). With
//! a distortion limit `L` (default 6) a phrase is allowed only if the jump is
//! at most `L` and, when it leaves uncovered words before it, its end is at
//! most `L` words after the first uncovered word (so that it stays possible
//! to go back). An unknown word's option has the table features 0 (ln 1).
//!
//! The future estimate of an option is its weighted table features, word and
//! phrase penalties and the LM score of its words without context
//! ([`NgramLm::null_state`]); distortion is not estimated.
//!
//! Recombination state: the LM state ([`LmState`], the minimal context) and
//! the end of the last source phrase.
//!
//! Default weights ([`default_phrase_weights`]) are Moses' untuned defaults:
//! 0.2 for each table feature, 0.5 LM, 0.3 distortion, 1 per target word
//! (Moses' word penalty -1 on the value -|e|), 0.2 phrase penalty and -100 per
//! unknown word.

use serde::{Deserialize, Serialize};

use super::table::PhraseTable;
use super::unknown::{SourceNote, SourceWords, WordRule};
use crate::math::{dot, ln};
use crate::mt::decoder::{
    search_nbest, within_distortion_limit, BeamOptions, Coverage, NBestEntry, SearchSpace, SearchStats,
};
use crate::mt::lm::{LmState, NgramLm, WordId};

/// ln φ(f̄|ē).
pub const F_INV_PHRASE: usize = 0;
/// ln lex(f̄|ē).
pub const F_INV_LEX: usize = 1;
/// ln φ(ē|f̄).
pub const F_DIR_PHRASE: usize = 2;
/// ln lex(ē|f̄).
pub const F_DIR_LEX: usize = 3;
/// ln P(e) of the n-gram LM.
pub const F_LM: usize = 4;
/// −Σ |jump|.
pub const F_DISTORTION: usize = 5;
/// Number of target words.
pub const F_WORDS: usize = 6;
/// Number of phrases.
pub const F_PHRASES: usize = 7;
/// Number of unknown (copied) source words.
pub const F_UNKNOWN: usize = 8;
/// Number of features of the phrase-based model.
pub const NUM_PHRASE_FEATURES: usize = 9;
/// Short names of the features, by index.
pub const PHRASE_FEATURE_NAMES: [&str; NUM_PHRASE_FEATURES] =
    ["tm_inv_phrase", "tm_inv_lex", "tm_dir_phrase", "tm_dir_lex", "lm", "distortion", "words", "phrases", "unknown"];

/// Moses' untuned default weights (module documentation).
pub fn default_phrase_weights() -> Vec<f64> {
    vec![0.2, 0.2, 0.2, 0.2, 0.5, 0.3, 1.0, 0.2, -100.0]
}

/// Settings of the phrase-based decoder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PhraseDecodeOptions {
    pub beam: BeamOptions,
    /// Longest jump (`None`: unlimited). Default 6.
    pub distortion_limit: Option<usize>,
    /// Translations per source span tried, best first in table order (`None`: all). Default 20.
    pub ttable_limit: Option<usize>,
    /// n-best lists of distinct translations ([`crate::mt::decoder::distinct_nbest`]: up to
    /// `10 · nbest` derivations, the best of each word sequence). Default
    /// false; [`crate::mt::phrase::PhraseSystem::tune`] turns it on.
    pub distinct_nbest: bool,
}

impl Default for PhraseDecodeOptions {
    fn default() -> Self {
        PhraseDecodeOptions {
            beam: BeamOptions::default(),
            distortion_limit: Some(6),
            ttable_limit: Some(20),
            distinct_nbest: false,
        }
    }
}

/// A translation option of one sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct PhraseOption {
    pub start: usize,
    pub end: usize,
    pub target: Vec<String>,
    /// A copied unknown word.
    pub unknown: bool,
    /// ln of the four table scores, in the order of the features.
    pub ln_scores: [f64; 4],
    ids: Vec<WordId>,
    /// ln of the LM probability of the words without context.
    lm_estimate: f64,
}

/// The recombination state of the phrase-based model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PhraseState {
    pub lm: LmState,
    /// End (exclusive) of the last source phrase.
    pub last_end: usize,
}

/// The phrase-based model of one source sentence.
pub struct PhraseSearch<'a> {
    lm: &'a NgramLm,
    n: usize,
    options: Vec<PhraseOption>,
    distortion_limit: Option<usize>,
}

impl<'a> PhraseSearch<'a> {
    /// Collects the options of `source`: the table's translations of every
    /// span up to the longest source phrase (at most `ttable_limit` each),
    /// and a copy of every word without a one-word translation (or when
    /// `ttable_limit` is 0), so that every sentence can be translated.
    pub fn new(
        table: &PhraseTable,
        lm: &'a NgramLm,
        source: &[String],
        options: &PhraseDecodeOptions,
    ) -> PhraseSearch<'a> {
        Self::for_words(table, lm, &SourceWords::plain(source), options)
    }

    /// As [`PhraseSearch::new`], for a sentence whose unknown words were
    /// treated ([`super::unknown`]): spans are looked up through it, and
    /// a word it leaves unknown is copied as written.
    pub fn for_words(
        table: &PhraseTable,
        lm: &'a NgramLm,
        words: &SourceWords,
        options: &PhraseDecodeOptions,
    ) -> PhraseSearch<'a> {
        let n = words.len();
        let mut opts = Vec::new();
        let max = table.max_source_len();
        for (s, word) in words.original.iter().enumerate() {
            for e in s + 1..=n.min(s + max.max(1)) {
                let entries = words.lookup(table, s, e);
                let take = options.ttable_limit.unwrap_or(usize::MAX).min(entries.len());
                for entry in &entries[..take] {
                    opts.push(PhraseOption {
                        start: s,
                        end: e,
                        target: entry.target.clone(),
                        unknown: false,
                        ln_scores: entry.scores.map(ln),
                        ids: Vec::new(),
                        lm_estimate: 0.0,
                    });
                }
                if e == s + 1 && take == 0 {
                    opts.push(PhraseOption {
                        start: s,
                        end: e,
                        target: vec![word.clone()],
                        unknown: true,
                        ln_scores: [0.0; 4],
                        ids: Vec::new(),
                        lm_estimate: 0.0,
                    });
                }
            }
        }
        for o in &mut opts {
            o.ids = o.target.iter().map(|w| lm.word_id(w)).collect();
            o.lm_estimate = lm.ln_score_words(lm.null_state(), &o.ids).0;
        }
        PhraseSearch { lm, n, options: opts, distortion_limit: options.distortion_limit }
    }

    /// The options, numbered as the search numbers them.
    pub fn options(&self) -> &[PhraseOption] {
        &self.options
    }

    fn static_features(o: &PhraseOption, delta: &mut [f64]) {
        delta[..4].copy_from_slice(&o.ln_scores);
        delta[F_WORDS] = o.target.len() as f64;
        delta[F_PHRASES] = 1.0;
        delta[F_UNKNOWN] = if o.unknown { 1.0 } else { 0.0 };
    }
}

impl SearchSpace for PhraseSearch<'_> {
    type State = PhraseState;

    fn source_len(&self) -> usize {
        self.n
    }

    fn num_features(&self) -> usize {
        NUM_PHRASE_FEATURES
    }

    fn num_options(&self) -> usize {
        self.options.len()
    }

    fn option_span(&self, option: usize) -> (usize, usize) {
        let o = &self.options[option];
        (o.start, o.end)
    }

    fn option_estimate(&self, option: usize, weights: &[f64]) -> f64 {
        let o = &self.options[option];
        let mut f = [0.0; NUM_PHRASE_FEATURES];
        Self::static_features(o, &mut f);
        f[F_LM] = o.lm_estimate;
        dot(weights, &f)
    }

    fn initial_state(&self) -> PhraseState {
        PhraseState { lm: self.lm.begin_state(), last_end: 0 }
    }

    fn span_allowed(&self, state: &PhraseState, coverage: &Coverage, start: usize, end: usize) -> bool {
        within_distortion_limit(self.distortion_limit, state.last_end, coverage, start, end)
    }

    fn extend(
        &self,
        state: &PhraseState,
        _coverage: &Coverage,
        option: usize,
        delta: &mut [f64],
    ) -> Option<PhraseState> {
        let o = &self.options[option];
        Self::static_features(o, delta);
        delta[F_DISTORTION] = -(o.start.abs_diff(state.last_end) as f64);
        let (lm, lm_state) = self.lm.ln_score_words(state.lm, &o.ids);
        delta[F_LM] = lm;
        Some(PhraseState { lm: lm_state, last_end: o.end })
    }

    fn finish(&self, state: &PhraseState, delta: &mut [f64]) {
        delta[F_LM] += self.lm.ln_score_end(state.lm);
    }
}

/// One step of a phrase-based derivation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhraseStep {
    /// Half-open source span.
    pub source: (usize, usize),
    pub target: Vec<String>,
    /// A copied unknown word.
    pub unknown: bool,
}

/// The result of translating one sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Translation {
    /// The best translation.
    pub words: Vec<String>,
    /// Its model score λ · h.
    pub score: f64,
    /// Its feature vector h (indices `F_*`).
    pub features: Vec<f64>,
    /// Its phrase pairs in target order.
    pub derivation: Vec<PhraseStep>,
    /// The n-best list, best first (its first entry is the translation above).
    pub nbest: Vec<NBestEntry>,
    pub stats: SearchStats,
    /// The source words the phrase table did not know: passed through,
    /// looked up in another casing, split or copied ([`super::unknown`]).
    #[serde(default)]
    pub source_notes: Vec<SourceNote>,
}

impl Translation {
    /// Per word of the translation, the index in `source_notes` of the
    /// treated source word it comes from ([`super::unknown::target_provenance`]).
    pub fn provenance(&self) -> Vec<Option<usize>> {
        let phrases = self.derivation.iter().map(|p| (p.source, p.target.len()));
        super::unknown::target_provenance(phrases, &self.source_notes)
    }

    /// Per word of `source` (the sentence translated), the phrase pair that
    /// translated it ([`super::unknown::word_rules`]).
    pub fn word_rules(&self, source: &[String]) -> Vec<Option<WordRule>> {
        let phrases = self.derivation.iter().enumerate().map(|(k, p)| (k, p.source, &p.target[..], p.unknown, None));
        super::unknown::word_rules(phrases, source)
    }
}

/// Translates `source` with the phrase-based model (module documentation).
/// If the distortion limit leaves no complete translation, the sentence is
/// decoded again without it. Never fails: a sentence that cannot be
/// translated at all (non-finite weights) gives an empty translation with
/// score −∞.
pub fn decode_phrase(
    table: &PhraseTable,
    lm: &NgramLm,
    source: &[String],
    weights: &[f64],
    options: &PhraseDecodeOptions,
) -> Translation {
    decode_phrase_words(table, lm, &SourceWords::plain(source), weights, options)
}

/// [`decode_phrase`] of a sentence whose unknown words were treated
/// ([`super::unknown`]); the result lists them.
pub fn decode_phrase_words(
    table: &PhraseTable,
    lm: &NgramLm,
    source: &SourceWords,
    weights: &[f64],
    options: &PhraseDecodeOptions,
) -> Translation {
    let mut model = PhraseSearch::for_words(table, lm, source, options);
    let words_of = |m: &PhraseSearch<'_>, d: &[usize]| {
        d.iter().flat_map(|&o| m.options[o].target.iter().cloned()).collect::<Vec<_>>()
    };
    let lift_limit = |m: &mut PhraseSearch<'_>| m.distortion_limit.take().is_some();
    let (result, nbest) =
        search_nbest(&mut model, weights, &options.beam, options.distinct_nbest, lift_limit, words_of);
    match result.nbest.first() {
        Some(best) => Translation {
            words: words_of(&model, &best.options),
            score: best.score,
            features: best.features.clone(),
            derivation: best
                .options
                .iter()
                .map(|&o| {
                    let opt = &model.options[o];
                    PhraseStep { source: (opt.start, opt.end), target: opt.target.clone(), unknown: opt.unknown }
                })
                .collect(),
            nbest,
            stats: result.stats,
            source_notes: source.notes.clone(),
        },
        None => Translation {
            words: Vec::new(),
            score: f64::NEG_INFINITY,
            features: vec![0.0; NUM_PHRASE_FEATURES],
            derivation: Vec::new(),
            nbest,
            stats: result.stats,
            source_notes: source.notes.clone(),
        },
    }
}
