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
//!    **Smoothing** for unseen events (the paper "set[s] some fixed value"):
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
//! ([`NUM_MS_FEATURES`] = 14). Indices 0-8 are the phrase-based model's
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
pub use decode::{decode_ms, MsDecodeOptions, MsModel, MsOption, MsSearch, MsState, MsStep, MsTranslation};
pub use extract::{RmEntry, RmLimits, RmTable, TagLexicon};

use crate::corpus::Corpus;
use crate::hash::FnvMap;
use crate::mt::lm::{LmError, NgramLm, DEFAULT_ORDER};
use crate::mt::meta::{Constraints, Decomposition};
use crate::mt::phrase::{
    aligned_pairs, check_training_lists, default_phrase_weights, subtree_span_pairs, CountError, PhraseTable,
    PhraseTableOptions, SpanPair,
};
use crate::mt::tune::{mert, MertOptions, MertReport};
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
/// Number of features of the meta-structure model.
pub const NUM_MS_FEATURES: usize = 14;
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
];

/// Untuned default weights: the phrase-based model's (Moses' defaults), 0.2
/// for each RM transformation probability and for the structure model, 0
/// per RM and −1 per glue step.
pub fn default_ms_weights() -> Vec<f64> {
    let mut w = default_phrase_weights();
    w.extend_from_slice(&[0.2, 0.2, 0.2, 0.0, -1.0]);
    w
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
    #[serde(deserialize_with = "crate::io::json::weights::<_, NUM_MS_FEATURES>")]
    pub weights: Vec<f64>,
    pub table: PhraseTable,
    pub rm_table: RmTable,
    pub lm: NgramLm,
    pub structure_lm: NgramLm,
    pub tags: TagLexicon,
    #[serde(default)]
    pub summary: MsTrainingSummary,
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
        let rm_table = RmTable::estimate(counted, config.rm_top_k);
        // Structure model (h5) on sampled target SMS.
        let mut rng = SplitMix64::new(config.seed);
        let mut sentences: Vec<Vec<String>> = Vec::new();
        for p in &corpus.pairs {
            let d = Decomposition::new(&p.target, config.constraints);
            sentences.extend(extract::sample_sms(&d, config.structure_samples.max(1), max_words, &mut rng));
        }
        summary.structure_sentences = sentences.len();
        let structure_lm = NgramLm::train(&sentences, config.structure_order)?;
        // Word LM (h6) and tags.
        let targets: Vec<&[String]> = corpus.pairs.iter().map(|p| p.target.words()).collect();
        let lm = NgramLm::train(&targets, config.lm_order)?;
        let tags = TagLexicon::train(corpus.pairs.iter().map(|p| &p.target));
        Ok(MsSystem {
            config: config.clone(),
            weights: default_ms_weights(),
            table,
            rm_table,
            lm,
            structure_lm,
            tags,
            summary,
        })
    }

    /// What the decoder reads.
    pub fn model(&self) -> MsModel<'_> {
        MsModel {
            table: &self.table,
            rm_table: &self.rm_table,
            lm: &self.lm,
            structure_lm: &self.structure_lm,
            tags: &self.tags,
            constraints: self.config.constraints,
            limits: self.config.limits,
            unseen_rm_prob: self.config.unseen_rm_prob,
        }
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
    /// with the best decoded dev BLEU. `progress` gets each decoded sentence.
    pub fn tune(
        &mut self,
        sources: &[Tree],
        references: &[Vec<String>],
        options: &MertOptions,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<MertReport, MsSystemError> {
        CountError::check("references", sources.len(), references.len())?;
        let mut opts = options.clone();
        if !opts.fixed.contains(&F_UNKNOWN) {
            opts.fixed.push(F_UNKNOWN);
        }
        let mut decode = self.config.decode.clone();
        decode.beam.nbest = options.nbest.max(1);
        let this = &*self;
        let report = mert(references, &self.weights, &opts, |w| {
            sources
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    progress(k + 1, sources.len());
                    this.translate_with(s, w, &decode).nbest.into_iter().map(|e| (e.words, e.features)).collect()
                })
                .collect()
        });
        self.weights = report.weights.clone();
        Ok(report)
    }
}
