//! The meta-structure (MS) translation system (Sun, Zhao & Liang,
//! "Meta-Structure Transformation Model for Statistical Machine
//! Translation"): RM pairs extracted from a word-aligned parallel treebank
//! (§3.2), a log-linear model over them (eqs. 7-14) and a beam-search
//! decoder that covers the source tree with RMs bottom-up, translates the
//! words inside each RM phrase by phrase and builds the target SMS (§4).
//! The decomposition itself (MS, SMS, RM, the constraints `α`, `β`) is
//! [`crate::mt::meta`].
//!
//! # The idea in plain words
//! Cut the source tree into small sub-trees that reach down to the words
//! (MS); a run of neighbouring MS is an RM. Training learns, from trees
//! whose words are aligned, which target RM each source RM turns into
//! (`NP[ART-NN]` → `NP[DA-NC]`) and how often. Decoding picks source RMs
//! that cover the sentence, puts them in a target order (the reordering
//! happens between RMs), turns each into a target RM and translates the
//! words inside it with the phrase table, so that the target RM has one
//! leaf per target word. The output is the translation and, for free, the
//! target SMS: the target RMs one after another.
//!
//! # Training (§3)
//! 1. **Word alignment** of the training pairs (given, or trained in the
//!    engine, [`crate::lexicon`]). Leaf (POS) node `i` of a tree is word
//!    `i`, so the word alignment is the alignment of the leaf nodes (§3.2).
//! 2. **RM pairs** ([`extract::rm_pairs`]): the phrase-extraction algorithm
//!    over the leaves gives the span pairs consistent with the alignment
//!    ([`crate::mt::phrase::consistent_pairs`], unaligned edge leaves
//!    included); with DirC / EWoS the sub-tree alignment's span pairs are
//!    combined with them exactly as for phrases
//!    ([`crate::mt::phrase::combine`]). Each span pair whose two scopes have
//!    at most `max_words` words gives the RM pairs over it: every RM of at
//!    most `max_ms` MS whose scope is exactly the source span (its
//!    *tilings*, [`extract::MsIndex::tilings`]) times every such RM of the
//!    target span. A span pair with `a` source and `b` target tilings gives
//!    each pair the fractional count `1/(a·b)` (times the span pair's count,
//!    2 for DirC's doubles): `Count(A, B)` is "the expected number of times
//!    A is aligned with B" (§3.2) when one SMS of each tree is drawn
//!    uniformly among those that hold an RM over the span.
//! 3. **RM transformation probabilities** (eqs. 9-10, §3.2): relative
//!    frequencies of the expected counts both ways,
//!    `P(e|f) = Count(f, e) / Σ_e' Count(f, e')` and
//!    `P(f|e) = Count(f, e) / Σ_f' Count(f', e)`; the `rm_top_k` targets
//!    of each source RM with the highest `P(e|f)` are kept ([`extract::RmTable`]).
//! 4. **Lexical features** h3/h4 (eqs. 11-12): the words in an RM's scope
//!    are translated "in the way of the phrase-based model", so
//!    `P(L(RM_e) | L(RM_f))` is the product over the phrase pairs used inside
//!    the RM of the phrase table's `φ(ē|f̄)` and `lex(ē|f̄)` (two features, as
//!    Pharaoh's table has), and h4 the inverse `φ(f̄|ē)`, `lex(f̄|ē)`. The
//!    phrase table is the baseline's ([`crate::mt::phrase::PhraseTable`],
//!    trained with the same extraction method).
//! 5. **Structure model** h5 (eq. 13): a 3-gram model over target RMs.
//!    Table 2's RMs are single MS and §3.2 counts "consecutive sub-trees", so
//!    the tokens are target MS (structure strings), the sentences are SMS of
//!    the training target trees, and an RM of several MS is scored by the
//!    chain rule over its MS. Enumerating every SMS is exponential (see
//!    [`crate::mt::meta`]); each tree contributes up to `structure_samples`
//!    distinct SMS drawn at random ([`extract::sample_sms`], seeded), MS of
//!    more than `max_words` words always split, since no RM holds them.
//!    **Smoothing** for unseen events (the paper "set\[s\] some fixed value"):
//!    interpolated modified Kneser-Ney over these token sentences
//!    ([`NgramLm`]), with KenLM's fallback discounts when the count-of-counts
//!    cannot give valid ones; an unseen MS gets the `<unk>` mass.
//! 6. **Word language model** h6 (eq. 14): modified Kneser-Ney
//!    ([`NgramLm`], order `lm_order`, default 3 as the paper) on the target
//!    sentences.
//! 7. A target word → POS table ([`extract::TagLexicon`]) gives glue steps
//!    a structure (below).
//!
//! # The log-linear model (eqs. 7-8)
//! Features, all sums over the RMs of a derivation, natural logs
//! ([`NUM_MS_FEATURES`] = 17). Indices 0-8 are the phrase-based model's
//! ([`crate::mt::decoder`]), so that the phrase-based model is, as §2.2
//! says, the special case with the RM features' weights at zero and every
//! RM a single phrase:
//!
//! | index | feature | paper |
//! |---|---|---|
//! | [`F_INV_PHRASE`], [`F_INV_LEX`] | ln φ(f̄\|ē), ln lex(f̄\|ē) of the phrases inside RMs | h4 (eq. 12) |
//! | [`F_DIR_PHRASE`], [`F_DIR_LEX`] | ln φ(ē\|f̄), ln lex(ē\|f̄) | h3 (eq. 11) |
//! | [`F_LM`] | ln P(e), `</s>` on completion | h6 (eq. 14) |
//! | [`F_DISTORTION`] | −\|start of RM − end of previous RM\| | reordering at the RM level |
//! | [`F_WORDS`] | target words | word penalty (Table 4 "Word") |
//! | [`F_PHRASES`] | phrase pairs | phrase penalty (Table 4 "Phr") |
//! | [`F_UNKNOWN`] | copied unknown words | |
//! | [`F_RM_E_GIVEN_F`] | ln P(RM_e\|RM_f) | h1 (eq. 9) |
//! | [`F_RM_F_GIVEN_E`] | ln P(RM_f\|RM_e) | h2 (eq. 10) |
//! | [`F_STRUCTURE`] | ln P(MS \| two previous MS), `</s>` on completion | h5 (eq. 13) |
//! | [`F_RMS`] | RMs used | RM penalty |
//! | [`F_GLUE`] | glue steps | |
//! | [`F_RM_LEX_E_GIVEN_F`], [`F_RM_LEX_F_GIVEN_E`] | ln lex(RM_e\|RM_f), ln lex(RM_f\|RM_e) | h1/h2's lexical weights (reading `rm_lexical`) |
//! | [`F_TAGS`] | Σ ln P(leaf tag \| target word) | eq. 6's P(e \| RM_e) (reading `tag_agreement`) |
//!
//! # Decoding (§4)
//! For a source tree, the **candidate RMs** are every RM (of at most
//! `max_ms` MS and `max_words` words) of every SMS of the tree
//! ([`extract::MsIndex::rms_from`]) that the RM table knows. For each, its
//! best `rm_limit` target RMs are tried; a target RM of `L` leaves is
//! combined with the `inner_k` best **monotone phrase segmentations** of
//! the RM's scope that give exactly `L` target words (a DP over the
//! scope, ranked by the weighted phrase features and context-free LM
//! estimates): the target RM has one leaf per word (Figure 4:
//! `(r, WRB VBD)`, 如何 → *how did*). Each such (source RM, target RM,
//! words) is an **option**; at most `span_limit` options per source span
//! are kept, best future estimate first.
//!
//! A word that no option covers (its POS RM and every RM over it unknown to
//! the table, or no length fits) gets **glue** options: its best `inner_k`
//! translations, the target RM being the target words' POS tags
//! ([`extract::TagLexicon`]), `P(RM_e|RM_f) = P(RM_f|RM_e) =`
//! `unseen_rm_prob` (§3.2's fixed value for unseen parameters) and the
//! glue feature 1. So every sentence can be translated.
//!
//! The search is the generic [`beam_search`](crate::mt::decoder::beam_search):
//! hypotheses extend by one option over uncovered source words, the target
//! grows left to right, so source RMs are reordered as whole symbols
//! ("reordering at the RM level", §2.2) within a distortion limit
//! (default 6 words, Moses' rule); stacks by covered words with histogram
//! (`stack_limit`, default 50) and threshold pruning; future costs from the
//! options' estimates (weighted static features plus context-free word and
//! structure LM scores); recombination on (coverage, word LM state,
//! structure LM state, end of the last RM). The result
//! ([`decode::MsTranslation`]) is the words, the **target SMS** (the target
//! RMs in target order), the derivation (source RM ↔ target RM with spans
//! and the phrase pairs inside) and an n-best list with feature vectors for
//! MERT ([`crate::mt::tune`]).
//!
//! # Readings of the paper (where it is silent or ambiguous)
//! - "All the possible candidate RM ... which can cover a part of the parse
//!   tree at the bottom" (§4): an RM covers words through its MS, which
//!   reach down to the pre-terminals; the hypotheses cover the source words,
//!   in any order within the distortion limit. The paper's Figure 4 chooses
//!   them left to right; nothing requires a tree order.
//! - Eq. 6's sum over SMS and segmentations is approximated by the best
//!   derivation (eq. 8), and the constant `α` of `P(SM[T(f)]|f)` drops out.
//! - The target length of a target RM is its number of leaves; the words
//!   inside an RM are translated monotonically (the RM level is where
//!   reordering happens; phrase pairs carry local reordering themselves).
//! - §3.2's `Count(A, B)` is "expected": the uniform fractional share
//!   above. GIZA++ both ways is replaced by the engine's aligner
//!   (grow-diag-final-and).
//! - h3/h4 use both phrase probabilities and lexical weights (Table 4 lists
//!   only `P_w`; Pharaoh's phrase probabilities are in its model too).
//!
//! ## The structure features at a small data size ([`MsReading`])
//! The paper estimates h1, h2 (eqs. 9-10) and h5 (eq. 13) from 10k sentence
//! pairs and says it "didn't meet with the serious data sparseness problem".
//! On SQUOIA's 2728 pairs it does: 98.7% of the RM pairs have an expected
//! count of at most 1, and MERT sets the weights of h1, h2, h5 to about 0.
//! Five readings, each selectable (`treelink mt-train --ms-reading`), the
//! paper's own being [`MsReading::PAPER`] (relative frequencies, MS tokens,
//! no further features):
//! - **`backoff`** ([`RmEstimate::Backoff`]): §3.2's "fixed value for the
//!   unseen parameters" read as smoothing. `P(RM_e|RM_f)` and `P(RM_f|RM_e)`
//!   are interpolated (Witten-Bell, with the number of distinct targets as
//!   the back-off mass) with the probability of the *coarse* RM pair whose MS
//!   are cut to their root labels, times the fine target's share of its
//!   coarse class ([`RmTable::estimate_backoff`]). A rare RM pair then
//!   scores by how often its shape (`NP PP` → `GRUP.NOM SP`) is seen.
//! - **`discount`** ([`RmEstimate::Discount`]): the same back-off with the
//!   weight of the coarse pair set by modified Kneser-Ney style absolute
//!   discounting instead of Witten-Bell (Chen & Goodman 1998): each expected
//!   count loses `min(c, D_⌈c⌉)`, the three discounts estimated from the
//!   count-of-counts of the rounded-up counts (the expected counts are
//!   fractional; KenLM's fallback discounts when those give no valid ones),
//!   and the lost mass goes to the coarse RM pair times Kneser-Ney's
//!   continuation probability of the fine RM within its coarse class
//!   ([`RmTable::estimate_discounted`]). With 98.7% of the counts at most 1,
//!   a rare pair keeps little of its relative frequency and is scored mostly
//!   by its shape and by how many RMs its target RM is seen with. The
//!   structure model h5 is already Kneser-Ney smoothed; over coarse
//!   structures it is the reading `roots`.
//! - **`roots`** ([`StructureTokens::Roots`]): the structure model h5 over
//!   the MS's root labels instead of whole MS strings — the paper's Table 2
//!   mixes both (`IN`, `NP-A[NPB[PRP-NN]]`); root labels are frequent enough
//!   for its 3-grams (modified Kneser-Ney, as before).
//! - **`rm_lexical`**: a lexical-weighting analogue for RM pairs, as Koehn et
//!   al. (2003) score a phrase pair from its word pairs: the MS root labels
//!   are the "words", their translation tables are trained by IBM Model 1 on
//!   the RM pairs ([`RmLexicon`]), and `lex(RM_e|RM_f)` (and the inverse)
//!   are two further features beside h1 and h2 (the paper's h1/h2 "model the
//!   structure transformation"; these model it from its parts).
//! - **`tag_agreement`**: eq. 6's `P(e | RM_i[T(e)], ...)`, which the paper
//!   leaves to the lexical features, read as how well the target words fit
//!   the leaves of the target RM they fill: `Σ_j ln P(t_j | w_j)` over the
//!   target RM's pre-terminal labels `t_j` and the words `w_j`
//!   ([`TagLexicon::ln_p_tag`]). Without it a target RM constrains only the
//!   number of words, so h1 and h5 score a structure the words need not
//!   have.
//!
//! # Caps and cost
//! Defaults (see [`MsSystemConfig`], [`MsDecodeOptions`]): `max_ms` 5,
//! `max_words` 7, `rm_top_k` 20, `rm_limit` 10, `inner_k` 2, `span_limit`
//! 20, `per_translation` 1, stack limit 50. The number of candidate RMs is
//! at most `words · d^max_ms` for `d` MS starting at a word, in practice a
//! few per word once the table filters them; the options are at most
//! `span_limit · words · max_words`.
//!
//! **Spurious ambiguity.** Many RM pairs (different shapes and
//! segmentations of one span) yield the same words: on SQUOIA dev a
//! 100-best list held 3 distinct translations on average (the phrase-based
//! system's: 71), and MERT, which learns from the differences between
//! n-best entries, kept the default weights. So options with equal words
//! over a span are cut to `per_translation` (the best estimate), and
//! n-best lists are *distinct* (up to `10 · nbest` derivations read off the
//! search graph, the best of each word sequence kept, as Moses' distinct
//! n-best lists for MERT): 76 distinct translations per 100-best list.
//!
//! Measured on SQUOIA (2728 training pairs, release build, one core):
//! training the word-extraction system takes 9 s (word alignment
//! included), its model file is 90 MB of JSON (loaded in 2 s); decoding runs
//! at 119 test sentences per second, 11 ms for a 20-word sentence, 43 ms
//! for one of 40 words or more (see `docs/translation-results.md`).

pub mod decode;
pub mod derivation;
pub mod extract;

use std::ops::Deref;

use serde::{Deserialize, Serialize};

pub use crate::mt::phrase::{
    F_DIR_LEX, F_DIR_PHRASE, F_DISTORTION, F_INV_LEX, F_INV_PHRASE, F_LM, F_PHRASES, F_UNKNOWN, F_WORDS,
};
pub use decode::{decode_ms, MsDecodeOptions, MsOption, MsSearch, MsState, MsStep, MsTables, MsTranslation};
pub use extract::{RmEntry, RmLexicon, RmLimits, RmTable, TagLexicon};

use crate::corpus::Corpus;
use crate::hash::FnvMap;
use crate::mt::lm::{LmError, NgramLm, DEFAULT_ORDER};
use crate::mt::meta::{Constraints, Decomposition};
use crate::mt::phrase::system::{aligned_pairs, check_training_lists, subtree_span_pairs};
use crate::mt::phrase::unknown::{SourceVocabulary, SourceWords, UnknownWordOptions};
use crate::mt::phrase::{default_phrase_weights, CountError, PhraseTable, PhraseTableOptions, SpanPair};
use crate::mt::tune::{mert, MertOptions, MertReport};
use crate::progress::{Flow, Observer, Progress};
use crate::rng::SplitMix64;
use crate::tree::{NodeId, Tree};

/// ln P(RM_e | RM_f), h1 (eq. 9).
pub const F_RM_E_GIVEN_F: usize = 9;
/// ln P(RM_f | RM_e), h2 (eq. 10).
pub const F_RM_F_GIVEN_E: usize = 10;
/// ln of the structure model, h5 (eq. 13).
pub const F_STRUCTURE: usize = 11;
/// Number of RMs.
pub const F_RMS: usize = 12;
/// Number of glue steps.
pub const F_GLUE: usize = 13;
/// ln lex(RM_e|RM_f), the RM lexical weight (reading `rm_lexical`; 0 otherwise).
pub const F_RM_LEX_E_GIVEN_F: usize = 14;
/// ln lex(RM_f|RM_e).
pub const F_RM_LEX_F_GIVEN_E: usize = 15;
/// Σ ln P(leaf tag | target word) (reading `tag_agreement`; 0 otherwise).
pub const F_TAGS: usize = 16;
/// Number of features of the meta-structure model.
pub const NUM_MS_FEATURES: usize = 17;
/// Number of features in model files of version 1 (before the three above).
pub const NUM_MS_FEATURES_V1: usize = 14;
/// Short names of the features, by index.
pub const MS_FEATURE_NAMES: [&str; NUM_MS_FEATURES] = [
    "tm_inv_phrase",
    "tm_inv_lex",
    "tm_dir_phrase",
    "tm_dir_lex",
    "lm",
    "distortion",
    "words",
    "phrases",
    "unknown",
    "rm_e_given_f",
    "rm_f_given_e",
    "structure",
    "rms",
    "glue",
    "rm_lex_e_given_f",
    "rm_lex_f_given_e",
    "tags",
];

/// Untuned default weights: the phrase-based model's (Moses' defaults), 0.2
/// for each RM transformation probability and for the structure model, 0
/// per RM and −1 per glue step, 0.1 for each RM lexical weight and 0.2 for
/// tag agreement ([`MsSystem::train`] sets those of features its reading
/// does not use to 0).
pub fn default_ms_weights() -> Vec<f64> {
    let mut w = default_phrase_weights();
    w.extend_from_slice(&[0.2, 0.2, 0.2, 0.0, -1.0, 0.1, 0.1, 0.2]);
    w
}

/// How h1/h2 (eqs. 9-10) are estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RmEstimate {
    /// §3.2: relative frequencies of the expected counts.
    Paper,
    /// Interpolated with the coarse RM pair (root labels), Witten-Bell
    /// ([`RmTable::estimate_backoff`]).
    Backoff,
    /// Modified Kneser-Ney style absolute discounting, the discounted mass
    /// given to the coarse RM pair ([`RmTable::estimate_discounted`]).
    Discount,
}

/// The tokens of the structure model h5 (eq. 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructureTokens {
    /// Whole MS structure strings (Table 2).
    Ms,
    /// The MS's root labels (a coarse structure model).
    Roots,
}

/// Which reading of the paper the structure features follow (module
/// documentation, "Readings of the paper"). [`MsReading::PAPER`] is the
/// paper's own; model files of version 1 read as it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MsReading {
    pub rm_estimate: RmEstimate,
    pub structure_tokens: StructureTokens,
    /// The RM lexical weights `lex(RM_e|RM_f)`, `lex(RM_f|RM_e)` as two more
    /// features ([`F_RM_LEX_E_GIVEN_F`], [`F_RM_LEX_F_GIVEN_E`]).
    pub rm_lexical: bool,
    /// The tag agreement of the target words with the target RM's leaves as
    /// a feature ([`F_TAGS`]).
    pub tag_agreement: bool,
}

impl MsReading {
    /// The paper's reading: relative frequencies, MS tokens, no extra features.
    pub const PAPER: MsReading = MsReading {
        rm_estimate: RmEstimate::Paper,
        structure_tokens: StructureTokens::Ms,
        rm_lexical: false,
        tag_agreement: false,
    };

    fn paper() -> MsReading {
        MsReading::PAPER
    }

    /// The features this reading leaves at 0 (MERT does not search them).
    pub fn unused_features(&self) -> Vec<usize> {
        let mut v = Vec::new();
        if !self.rm_lexical {
            v.extend([F_RM_LEX_E_GIVEN_F, F_RM_LEX_F_GIVEN_E]);
        }
        if !self.tag_agreement {
            v.push(F_TAGS);
        }
        v
    }
}

impl Default for MsReading {
    fn default() -> Self {
        MsReading::PAPER
    }
}

/// Everything that defines how an [`MsSystem`] is trained and decodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MsSystemConfig {
    /// The phrase table inside RMs: extraction method (also used for RM
    /// pairs), phrase length, pruning.
    pub table: PhraseTableOptions,
    /// `α`, `β` (§3.1; default the paper's 3 and 1.5).
    pub constraints: Constraints,
    pub limits: RmLimits,
    /// Target RMs kept per source RM (default 20).
    pub rm_top_k: Option<usize>,
    /// Order of the word LM (default 3).
    pub lm_order: usize,
    /// Order of the structure model (default 3, eq. 13).
    pub structure_order: usize,
    /// SMS drawn per target tree for the structure model (default 16).
    pub structure_samples: usize,
    /// Seed of those draws.
    pub seed: u64,
    /// `P` of an unseen RM pair, each way (default 1e-4).
    #[serde(deserialize_with = "crate::io::json::positive_probability")]
    pub unseen_rm_prob: f64,
    pub decode: MsDecodeOptions,
    /// Unknown source words: pass-through, lexicon, casing, compound splitting
    /// ([`crate::mt::phrase::unknown`]; default all; in a version-1 file: copied).
    #[serde(default = "UnknownWordOptions::copy_only")]
    pub unknown: UnknownWordOptions,
    /// The reading of the structure features (in a version-1 file: the paper's).
    #[serde(default = "MsReading::paper")]
    pub reading: MsReading,
}

impl Default for MsSystemConfig {
    fn default() -> Self {
        MsSystemConfig {
            table: PhraseTableOptions::default(),
            constraints: Constraints::PAPER,
            limits: RmLimits::default(),
            rm_top_k: Some(20),
            lm_order: DEFAULT_ORDER,
            structure_order: 3,
            structure_samples: 16,
            seed: 1,
            unseen_rm_prob: 1e-4,
            decode: MsDecodeOptions::default(),
            unknown: UnknownWordOptions::default(),
            reading: MsReading::default(),
        }
    }
}

/// Why a system could not be trained, loaded or tuned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MsSystemError {
    #[error(transparent)]
    Count(#[from] CountError),
    #[error(transparent)]
    Lm(#[from] LmError),
    #[error("cancelled")]
    Cancelled,
}

/// Sizes of what training extracted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MsTrainingSummary {
    pub pairs: usize,
    /// Span pairs over leaves that gave RM pairs.
    pub span_pairs: usize,
    /// Distinct RM pairs before pruning.
    pub rm_pairs: usize,
    /// SMS sentences the structure model was trained on.
    pub structure_sentences: usize,
}

/// The meta-structure system: phrase table, RM table, structure model,
/// word LM, tag lexicon, weights and settings; one JSON model file
/// ([`crate::mt::model`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsSystem {
    pub config: MsSystemConfig,
    /// [`NUM_MS_FEATURES`] weights; a version-1 file's [`NUM_MS_FEATURES_V1`]
    /// read with the new features' weights 0 (`ms_weights`).
    #[serde(deserialize_with = "ms_weights")]
    pub weights: Vec<f64>,
    pub table: PhraseTable,
    pub rm_table: RmTable,
    pub lm: NgramLm,
    pub structure_lm: NgramLm,
    pub tags: TagLexicon,
    #[serde(default)]
    pub summary: MsTrainingSummary,
    /// Word counts of the training source sentences (unknown words' casing
    /// and compound parts, [`crate::mt::phrase::unknown`]); empty in model files of
    /// version 1, which then split no compound.
    #[serde(default)]
    pub vocabulary: SourceVocabulary,
    /// One-word translations from the word-alignment lexicon for training
    /// words without a one-word phrase pair ([`crate::mt::phrase::unknown::lexicon_backoff`];
    /// empty when trained from a given word alignment, and in version-1 files).
    #[serde(default)]
    pub word_backoff: PhraseTable,
    /// Label tables of the RM lexical weights (reading `rm_lexical`; else empty).
    #[serde(default)]
    pub rm_lexicon: RmLexicon,
}

/// The weights of a model file: [`NUM_MS_FEATURES`] finite numbers, or the
/// [`NUM_MS_FEATURES_V1`] of a version-1 file (before the RM lexical weights
/// and tag agreement), padded with 0 so that it translates as it did.
fn ms_weights<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    use serde::de::Error;
    let mut w = Vec::<f64>::deserialize(d)?;
    if w.len() == NUM_MS_FEATURES_V1 {
        w.resize(NUM_MS_FEATURES, 0.0);
    }
    if w.len() != NUM_MS_FEATURES || !w.iter().all(|x| x.is_finite()) {
        return Err(D::Error::custom(format!(
            "expected {NUM_MS_FEATURES} (or, version 1, {NUM_MS_FEATURES_V1}) finite feature weights, found {} ({w:?})",
            w.len()
        )));
    }
    Ok(w)
}

impl MsSystem {
    /// Trains on a parallel treebank with one word alignment per pair
    /// (`(source i, target j)`) and, for DirC / EWoS, the sub-tree links of
    /// each pair (module documentation). Weights start at [`default_ms_weights`].
    pub fn train<A: Deref<Target = [(usize, usize)]>>(
        corpus: &Corpus,
        alignments: &[A],
        subtree_links: Option<&[Vec<(NodeId, NodeId)>]>,
        config: &MsSystemConfig,
    ) -> Result<MsSystem, MsSystemError> {
        check_training_lists(corpus.len(), alignments.len(), subtree_links)?;
        let method = config.table.extract.method;
        let max_phrase = config.table.extract.max_phrase_len;
        let max_words = config.limits.max_words;
        let subtree_of = |k: usize, max: usize| subtree_span_pairs(corpus, subtree_links, method, k, max);
        // Phrase table (h3/h4), as the baseline's.
        let phrase_subtree: Vec<Vec<SpanPair>> = (0..corpus.len()).map(|k| subtree_of(k, max_phrase)).collect();
        let pairs = aligned_pairs(corpus, alignments, &phrase_subtree);
        let table = PhraseTable::train(&pairs, &config.table);
        // RM pairs (§3.2).
        let mut counts: FnvMap<(String, String), f64> = FnvMap::default();
        let mut summary = MsTrainingSummary { pairs: corpus.len(), ..MsTrainingSummary::default() };
        for (k, (p, a)) in corpus.pairs.iter().zip(alignments).enumerate() {
            let ds = Decomposition::new(&p.source, config.constraints);
            let dt = Decomposition::new(&p.target, config.constraints);
            let (is, it) = (extract::MsIndex::new(&ds, max_words), extract::MsIndex::new(&dt, max_words));
            let word = extract::leaf_pairs(&p.source, &p.target, a, max_words);
            let sub = subtree_of(k, max_words);
            for (f, e, c) in extract::rm_pairs(&is, &it, &word, &sub, method, &config.limits) {
                *counts.entry((f, e)).or_insert(0.0) += c;
            }
            summary.span_pairs += word.len() + sub.len();
        }
        let mut counted: Vec<(String, String, f64)> = counts.into_iter().map(|((f, e), c)| (f, e, c)).collect();
        counted.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        summary.rm_pairs = counted.len();
        let rm_lexicon = if config.reading.rm_lexical { RmLexicon::train(&counted) } else { RmLexicon::default() };
        let rm_table = match config.reading.rm_estimate {
            RmEstimate::Paper => RmTable::estimate(counted, config.rm_top_k),
            RmEstimate::Backoff => RmTable::estimate_backoff(counted, config.rm_top_k),
            RmEstimate::Discount => RmTable::estimate_discounted(counted, config.rm_top_k),
        };
        // Structure model (h5) on sampled target SMS.
        let mut rng = SplitMix64::new(config.seed);
        let mut sentences: Vec<Vec<String>> = Vec::new();
        for p in &corpus.pairs {
            let d = Decomposition::new(&p.target, config.constraints);
            sentences.extend(extract::sample_sms(&d, config.structure_samples.max(1), max_words, &mut rng));
        }
        if config.reading.structure_tokens == StructureTokens::Roots {
            for sentence in &mut sentences {
                for token in sentence.iter_mut() {
                    if let Some(root) = extract::rm_roots(token).into_iter().next() {
                        *token = root;
                    }
                }
            }
        }
        summary.structure_sentences = sentences.len();
        let structure_lm = NgramLm::train(&sentences, config.structure_order)?;
        // Word LM (h6) and tags.
        let targets: Vec<&[String]> = corpus.pairs.iter().map(|p| p.target.words()).collect();
        let lm = NgramLm::train(&targets, config.lm_order)?;
        let tags = TagLexicon::train(corpus.pairs.iter().map(|p| &p.target));
        let vocabulary = SourceVocabulary::train(corpus.pairs.iter().map(|p| p.source.words()));
        // A feature the reading leaves at 0 gets weight 0, so that the tuned weights say so.
        let mut weights = default_ms_weights();
        for f in config.reading.unused_features() {
            weights[f] = 0.0;
        }
        Ok(MsSystem {
            config: config.clone(),
            weights,
            table,
            rm_table,
            lm,
            structure_lm,
            tags,
            summary,
            vocabulary,
            word_backoff: PhraseTable::default(),
            rm_lexicon,
        })
    }

    /// What the decoder reads.
    pub fn model(&self) -> MsTables<'_> {
        MsTables {
            table: &self.table,
            rm_table: &self.rm_table,
            lm: &self.lm,
            structure_lm: &self.structure_lm,
            tags: &self.tags,
            constraints: self.config.constraints,
            limits: self.config.limits,
            unseen_rm_prob: self.config.unseen_rm_prob,
            vocabulary: &self.vocabulary,
            word_backoff: &self.word_backoff,
            unknown: self.config.unknown,
            reading: self.config.reading,
            rm_lexicon: &self.rm_lexicon,
        }
    }

    /// The sentence as the decoder looks it up: its unknown words treated
    /// by the system's settings ([`crate::mt::phrase::unknown`]).
    pub fn source_words(&self, source: &[String]) -> SourceWords {
        SourceWords::prepare(
            source,
            &self.table,
            &self.word_backoff,
            &self.vocabulary,
            &self.config.unknown,
            self.config.decode.ttable_limit,
        )
    }

    /// Translates a source tree with the system's weights and settings.
    pub fn translate(&self, source: &Tree) -> MsTranslation {
        decode_ms(&self.model(), source, &self.weights, &self.config.decode)
    }

    /// Translates with other weights or settings.
    pub fn translate_with(&self, source: &Tree, weights: &[f64], options: &MsDecodeOptions) -> MsTranslation {
        decode_ms(&self.model(), source, weights, options)
    }

    /// Tunes the weights on a development set by MERT ([`crate::mt::tune`])
    /// with n-best lists of `options.nbest`; the unknown-word weight stays
    /// fixed (as for the phrase-based system). Sets and returns the weights
    /// with the best decoded dev BLEU. `progress` gets each decoded sentence
    /// (stage "tuning (decoding dev)"); when it says stop, the remaining
    /// sentences are skipped and tuning ends in [`MsSystemError::Cancelled`].
    pub fn tune(
        &mut self,
        sources: &[Tree],
        references: &[Vec<String>],
        options: &MertOptions,
        progress: &mut dyn Observer,
    ) -> Result<MertReport, MsSystemError> {
        CountError::check("references", sources.len(), references.len())?;
        let mut opts = options.clone();
        for f in std::iter::once(F_UNKNOWN).chain(self.config.reading.unused_features()) {
            if !opts.fixed.contains(&f) {
                opts.fixed.push(f);
            }
        }
        let mut decode = self.config.decode.clone();
        decode.beam.nbest = options.nbest.max(1);
        let this = &*self;
        let mut flow = Flow::Continue(());
        let report = mert(references, &self.weights, &opts, |w| {
            sources
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    if flow.is_break() {
                        return Vec::new();
                    }
                    flow =
                        progress.progress(Progress::new("tuning (decoding dev)", k as u64 + 1, sources.len() as u64));
                    this.translate_with(s, w, &decode).nbest.into_iter().map(|e| (e.words, e.features)).collect()
                })
                .collect()
        });
        if flow.is_break() {
            return Err(MsSystemError::Cancelled);
        }
        self.weights = report.weights.clone();
        Ok(report)
    }
}
