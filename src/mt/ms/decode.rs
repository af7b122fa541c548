//! The meta-structure decoder (§4): a [`SearchSpace`] over RM options of
//! one source tree, searched by the generic [`beam_search`]. See the parent
//! module for the model, the options and the caps.

use serde::{Deserialize, Serialize};

use super::extract::{MsIndex, RmLexicon, RmLimits, RmTable, TagLexicon};
use super::{
    MsReading, StructureTokens, F_DISTORTION, F_GLUE, F_LM, F_PHRASES, F_RMS, F_RM_E_GIVEN_F, F_RM_F_GIVEN_E,
    F_RM_LEX_E_GIVEN_F, F_RM_LEX_F_GIVEN_E, F_STRUCTURE, F_TAGS, F_UNKNOWN, F_WORDS, NUM_MS_FEATURES,
};
use crate::math::{dot, ln};
use crate::mt::decoder::{
    search_nbest, within_distortion_limit, BeamOptions, Coverage, NBestEntry, SearchSpace, SearchStats,
};
use crate::mt::lm::{LmState, NgramLm, WordId};
use crate::mt::meta::structure::escape_label;
use crate::mt::meta::{Constraints, Decomposition};
use crate::mt::phrase::unknown::{SourceNote, SourceVocabulary, SourceWords, UnknownWordOptions, WordRule};
use crate::mt::phrase::{PhraseStep, PhraseTable};
use crate::tree::{NodeId, Tree};

/// Settings of the meta-structure decoder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MsDecodeOptions {
    /// Stacks, pruning and n-best. Default: stack limit 50, threshold 1e-5.
    pub beam: BeamOptions,
    /// Longest RM-level jump in words (`None`: unlimited). Default 6.
    pub distortion_limit: Option<usize>,
    /// Phrase translations per source phrase tried inside an RM. Default 20.
    pub ttable_limit: usize,
    /// Target RMs tried per source RM, best `P(e|f)` first. Default 10.
    pub rm_limit: usize,
    /// Translations of an RM's scope kept per target length. Default 2.
    pub inner_k: usize,
    /// Options kept per source span, best estimate first. Default 20.
    pub span_limit: usize,
    /// Options kept per source span and target word sequence, best estimate
    /// first (0: all). Default 1: different RM pairs that give the same words
    /// over the same span would otherwise fill stacks and n-best lists with
    /// one translation (measured on SQUOIA dev: 3 distinct translations per
    /// 100-best list instead of 71 for the phrase-based system), and MERT
    /// would have nothing to choose from.
    pub per_translation: usize,
    /// n-best lists of distinct translations: up to `10 · nbest` derivations
    /// are read off the search graph and only the best of each word sequence
    /// is kept (as Moses' distinct n-best lists for MERT). Default true.
    pub distinct_nbest: bool,
    /// Also give the scope of every candidate source RM its best `inner_k`
    /// translations of any length with an unseen target RM (the words'
    /// tags), `P = unseen_rm_prob` both ways and the glue feature: the
    /// RM table of a small corpus rarely has a target RM of the right length.
    /// Default false (on SQUOIA it made MERT less stable and did not help).
    pub unseen_targets: bool,
    /// Also make every phrase pair of the sentence an option, as in the
    /// phrase-based model: its source RM the POS nodes of its words (an RM
    /// of pre-terminals, always one of the tree's), its target RM the words'
    /// tags, `P = unseen_rm_prob` both ways (§3.2's fixed value for unseen
    /// parameters) and the glue feature. Then the phrase-based model is
    /// inside the MS model (§2.2 calls it a special case) and MERT weighs
    /// the RM pairs against it. Default false.
    pub phrase_fallback: bool,
}

impl Default for MsDecodeOptions {
    fn default() -> Self {
        MsDecodeOptions {
            beam: BeamOptions { stack_limit: 50, ..BeamOptions::default() },
            distortion_limit: Some(6),
            ttable_limit: 20,
            rm_limit: 10,
            inner_k: 2,
            span_limit: 20,
            per_translation: 1,
            distinct_nbest: true,
            unseen_targets: false,
            phrase_fallback: false,
        }
    }
}

/// Everything the decoder reads from a trained system.
pub struct MsTables<'a> {
    pub table: &'a PhraseTable,
    pub rm_table: &'a RmTable,
    pub lm: &'a NgramLm,
    pub structure_lm: &'a NgramLm,
    pub tags: &'a TagLexicon,
    pub constraints: Constraints,
    pub limits: RmLimits,
    /// `P` of an unseen RM pair (glue), both ways.
    pub unseen_rm_prob: f64,
    /// Source word counts and the treatment of unknown words ([`crate::mt::phrase::unknown`]).
    pub vocabulary: &'a SourceVocabulary,
    pub word_backoff: &'a PhraseTable,
    pub unknown: UnknownWordOptions,
    /// Which reading of the structure features ([`MsReading`]).
    pub reading: MsReading,
    /// The RM lexical weights' label tables (reading `rm_lexical`).
    pub rm_lexicon: &'a RmLexicon,
}

/// A phrase pair applicable inside the sentence.
#[derive(Debug, Clone)]
struct Phrase {
    start: usize,
    end: usize,
    target: Vec<String>,
    unknown: bool,
    /// ln φ(f|e), ln lex(f|e), ln φ(e|f), ln lex(e|f).
    ln_scores: [f64; 4],
    /// Weighted static features plus the context-free LM estimate.
    estimate: f64,
    /// The context-free LM estimate (ln).
    lm_estimate: f64,
}

/// A translation of an RM's scope (the `inner` translations of the options),
/// phrase by phrase: a monotone phrase segmentation of the span (or one
/// with a swap), its phrase ids and its DP score.
#[derive(Debug, Clone)]
struct ScopeTranslation {
    /// Phrase ids in target order.
    phrases: Vec<u32>,
    /// Target words.
    words: usize,
    score: f64,
    /// ScopeTranslation jumps (a swap's; 0 when monotone).
    distortion: f64,
}

/// One option of the search: a source RM over `span`, a target RM and a
/// translation of the scope with as many words as the target RM has leaves.
#[derive(Debug, Clone)]
pub struct MsOption {
    pub start: usize,
    pub end: usize,
    /// Source RM structure string.
    pub source_rm: String,
    /// The roots of the source RM's MS in the source tree, left to right.
    pub source_roots: Vec<NodeId>,
    /// Target RM structure string.
    pub target_rm: String,
    /// Target words.
    pub target: Vec<String>,
    /// The phrase pairs inside the RM, left to right (monotone).
    pub phrases: Vec<PhraseStep>,
    /// No RM pair applied: a single word with a flat target structure.
    pub glue: bool,
    /// Static features (everything but LM, structure model and distortion).
    static_features: [f64; NUM_MS_FEATURES],
    word_ids: Vec<WordId>,
    ms_ids: Vec<WordId>,
    estimate: f64,
}

/// The recombination state: word LM and structure LM contexts and the end
/// of the last source RM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MsState {
    pub lm: LmState,
    pub structure: LmState,
    pub last_end: usize,
}

/// The meta-structure model of one source tree.
pub struct MsSearch<'a> {
    lm: &'a NgramLm,
    structure_lm: &'a NgramLm,
    n: usize,
    options: Vec<MsOption>,
    distortion_limit: Option<usize>,
    /// The unknown source words and what was done with them.
    notes: Vec<SourceNote>,
}

/// The phrase pairs applicable inside one sentence, by start word: every
/// table entry of every sub-span (at most `ttable_limit` per span), and a
/// copy of each word without a one-word translation.
struct SentencePhrases {
    phrases: Vec<Phrase>,
    by_start: Vec<Vec<u32>>,
}

impl SentencePhrases {
    fn collect(model: &MsTables<'_>, words: &SourceWords, ttable_limit: usize, w: &[f64], max_words: usize) -> Self {
        let n = words.len();
        let mut out = SentencePhrases { phrases: Vec::new(), by_start: vec![Vec::new(); n] };
        let max_src = model.table.max_source_len().clamp(1, max_words);
        for s in 0..n {
            for e in s + 1..=n.min(s + max_src) {
                let entries = words.lookup(model.table, s, e);
                let take = ttable_limit.min(entries.len());
                for entry in &entries[..take] {
                    out.add(model, w, s, e, entry.target.clone(), false, entry.scores.map(ln));
                }
                if e == s + 1 && take == 0 {
                    let word = words.original.get(s).cloned().unwrap_or_default();
                    out.add(model, w, s, e, vec![word], true, [0.0; 4]);
                }
            }
        }
        out
    }

    /// A phrase with its estimate: weighted table scores, word, phrase and
    /// unknown-word counts, and the LM score of its words without context.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        model: &MsTables<'_>,
        w: &[f64],
        start: usize,
        end: usize,
        target: Vec<String>,
        unknown: bool,
        ln_scores: [f64; 4],
    ) {
        let ids: Vec<WordId> = target.iter().map(|t| model.lm.word_id(t)).collect();
        let (lm_estimate, _) = model.lm.ln_score_words(model.lm.null_state(), &ids);
        let mut f = [0.0; NUM_MS_FEATURES];
        f[..4].copy_from_slice(&ln_scores);
        f[F_WORDS] = target.len() as f64;
        f[F_PHRASES] = 1.0;
        f[F_UNKNOWN] = if unknown { 1.0 } else { 0.0 };
        f[F_LM] = lm_estimate;
        let estimate = dot(w, &f);
        self.by_start[start].push(self.phrases.len() as u32);
        self.phrases.push(Phrase { start, end, target, unknown, ln_scores, estimate, lm_estimate });
    }

    /// The target words of a segmentation.
    fn words_of<'p>(&'p self, inner: &'p ScopeTranslation) -> impl Iterator<Item = &'p String> + 'p {
        inner.phrases.iter().flat_map(|&k| self.phrases[k as usize].target.iter())
    }
}

/// Re-ranks each list of scope translations with the LM over the whole
/// scope instead of phrase by phrase.
fn rerank_with_scope_lm(inner: &mut [Vec<Vec<ScopeTranslation>>], phrases: &SentencePhrases, lm: &NgramLm, w_lm: f64) {
    for list in inner.iter_mut().flatten() {
        for x in list.iter_mut() {
            let ids: Vec<WordId> = phrases.words_of(x).map(|t| lm.word_id(t)).collect();
            let per_phrase: f64 = x.phrases.iter().map(|&k| phrases.phrases[k as usize].lm_estimate).sum();
            let whole = lm.ln_score_words(lm.null_state(), &ids).0;
            x.score += w_lm * (whole - per_phrase);
        }
        list.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
}

/// What an option's target RM gives its features: the structure model's
/// tokens (MS or root labels, [`StructureTokens`]), the MS root labels (RM
/// lexical weights) and the leaves' labels (tag agreement).
#[derive(Clone, Copy)]
struct TargetShape<'x> {
    tokens: &'x [String],
    roots: &'x [String],
    leaves: &'x [String],
}

/// The RM pair of an option: the source RM with its MS roots, the target RM
/// with its shape and `(P(e|f), P(f|e))`.
struct RmChoice<'r> {
    source_rm: &'r str,
    source_roots: &'r [NodeId],
    target_rm: String,
    target: TargetShape<'r>,
    p: (f64, f64),
    /// No RM pair of the table: the target structure is the words' tags.
    glue: bool,
}

/// Makes the options that start at one source word.
struct OptionBuilder<'m, 'a> {
    model: &'m MsTables<'a>,
    w: &'m [f64],
    phrases: &'m SentencePhrases,
    source: &'m Tree,
    start: usize,
}

impl OptionBuilder<'_, '_> {
    /// The option over `start..end` translating the scope by `inner` under `rm`.
    fn option(&self, end: usize, inner: &ScopeTranslation, rm: RmChoice<'_>) -> MsOption {
        let (model, phrases) = (self.model, &self.phrases.phrases);
        let target: Vec<String> = self.phrases.words_of(inner).cloned().collect();
        let mut f = [0.0; NUM_MS_FEATURES];
        for &k in &inner.phrases {
            let ph = &phrases[k as usize];
            for (x, y) in f[..4].iter_mut().zip(ph.ln_scores) {
                *x += y;
            }
            f[F_UNKNOWN] += if ph.unknown { 1.0 } else { 0.0 };
        }
        f[F_WORDS] = target.len() as f64;
        f[F_PHRASES] = inner.phrases.len() as f64;
        f[F_DISTORTION] = -inner.distortion;
        f[F_RM_E_GIVEN_F] = ln(rm.p.0);
        f[F_RM_F_GIVEN_E] = ln(rm.p.1);
        f[F_RMS] = 1.0;
        f[F_GLUE] = if rm.glue { 1.0 } else { 0.0 };
        if model.reading.rm_lexical {
            let labels: Vec<String> = rm.source_roots.iter().map(|&n| self.source.label(n).to_string()).collect();
            f[F_RM_LEX_E_GIVEN_F] = model.rm_lexicon.ln_e_given_f(&labels, rm.target.roots);
            f[F_RM_LEX_F_GIVEN_E] = model.rm_lexicon.ln_f_given_e(&labels, rm.target.roots);
        }
        if model.reading.tag_agreement {
            f[F_TAGS] = target.iter().zip(rm.target.leaves).map(|(w, t)| model.tags.ln_p_tag(w, t)).sum();
        }
        let word_ids: Vec<WordId> = target.iter().map(|t| model.lm.word_id(t)).collect();
        let ms_ids: Vec<WordId> = rm.target.tokens.iter().map(|m| model.structure_lm.word_id(m)).collect();
        let mut est = f;
        est[F_LM] = model.lm.ln_score_words(model.lm.null_state(), &word_ids).0;
        est[F_STRUCTURE] = model.structure_lm.ln_score_words(model.structure_lm.null_state(), &ms_ids).0;
        let phrases_out = inner
            .phrases
            .iter()
            .map(|&k| {
                let ph = &phrases[k as usize];
                PhraseStep { source: (ph.start, ph.end), target: ph.target.clone(), unknown: ph.unknown }
            })
            .collect();
        MsOption {
            start: self.start,
            end,
            source_rm: rm.source_rm.to_string(),
            source_roots: rm.source_roots.to_vec(),
            target_rm: rm.target_rm,
            target,
            phrases: phrases_out,
            glue: rm.glue,
            static_features: f,
            word_ids,
            ms_ids,
            estimate: dot(self.w, &est),
        }
    }

    /// The glue option over `start..end` under the source RM `source_rm`:
    /// a flat target structure of the words' tags, `P = unseen_rm_prob`
    /// both ways (§3.2's fixed value).
    fn glue(&self, end: usize, inner: &ScopeTranslation, source_rm: &str, source_roots: &[NodeId]) -> MsOption {
        // The words' tags as they are (the MS's labels) and escaped (the MS structure strings).
        let raw: Vec<String> = self.phrases.words_of(inner).map(|t| self.model.tags.tag(t).to_string()).collect();
        let tags: Vec<String> = raw.iter().map(|t| escape_label(t)).collect();
        let tokens = match self.model.reading.structure_tokens {
            StructureTokens::Ms => &tags,
            StructureTokens::Roots => &raw,
        };
        let p = self.model.unseen_rm_prob;
        let target = TargetShape { tokens, roots: &raw, leaves: &raw };
        let rm = RmChoice { source_rm, source_roots, target_rm: tags.join(" "), target, p: (p, p), glue: true };
        self.option(end, inner, rm)
    }
}

/// The best of a span's options: best estimate first, at most
/// `per_translation` per target word sequence (spurious ambiguity: many RM
/// pairs give the same words), at most `span_limit`.
fn keep_best(v: &mut Vec<MsOption>, options: &MsDecodeOptions) {
    v.sort_by(|a, b| b.estimate.total_cmp(&a.estimate));
    if options.per_translation > 0 {
        let mut seen: Vec<(&[String], usize)> = Vec::new();
        let keep: Vec<bool> = v
            .iter()
            .map(|o| match seen.iter_mut().find(|(t, _)| *t == o.target.as_slice()) {
                Some((_, n)) => {
                    *n += 1;
                    *n <= options.per_translation
                }
                None => {
                    seen.push((o.target.as_slice(), 1));
                    true
                }
            })
            .collect();
        let mut k = 0;
        v.retain(|_| {
            k += 1;
            keep[k - 1]
        });
    }
    v.truncate(options.span_limit.max(1));
}

/// What the options of each start word are made from: the sentence's
/// phrase pairs and MS index, the weights and the decoder's settings.
struct StartOptions<'m, 'a> {
    model: &'m MsTables<'a>,
    options: &'m MsDecodeOptions,
    source: &'m Tree,
    w: &'m [f64],
    phrases: &'m SentencePhrases,
    index: &'m MsIndex<'m>,
    /// The POS nodes in word order (the `i`-th over word `i`).
    pos_nodes: Vec<NodeId>,
    max_words: usize,
}

impl StartOptions<'_, '_> {
    /// The options of every span `s..e` that starts at word `s`, one list
    /// per `e` from `s + 1`: the translations of each span's scope (k-best
    /// per target length, reranked with the LM inside the scope), then
    /// options of the RM pairs of the table ([`Self::rm_options`]), of glue
    /// ([`Self::glue_options`]) and, with `phrase_fallback`, of single phrase
    /// pairs ([`Self::phrase_options`]), in that order.
    fn spans_from(&self, s: usize) -> Vec<Vec<MsOption>> {
        let (model, options, phrases) = (self.model, self.options, self.phrases);
        let found = self.found_rms(s);
        let phrase_end = if options.phrase_fallback {
            phrases.by_start[s].iter().map(|&k| phrases.phrases[k as usize].end).max().unwrap_or(s + 1)
        } else {
            s + 1
        };
        let max_end = found.iter().map(|f| f.0).max().unwrap_or(s + 1).max(phrase_end);
        // Translations of s..e for every e, k-best per (end, length).
        let dp_k = options.inner_k.max(1).max(3);
        let mut inner = inner_translations(&phrases.phrases, &phrases.by_start, s, max_end, dp_k, self.w[F_DISTORTION]);
        rerank_with_scope_lm(&mut inner, phrases, model.lm, self.w[F_LM]);
        let builder = OptionBuilder { model, w: self.w, phrases, source: self.source, start: s };
        let mut span_opts: Vec<Vec<MsOption>> = vec![Vec::new(); max_end - s];
        self.rm_options(&builder, &found, &inner, &mut span_opts);
        self.glue_options(&builder, &found, &inner, &mut span_opts);
        if options.phrase_fallback {
            self.phrase_options(&builder, &mut span_opts);
        }
        span_opts
    }

    /// The source RMs starting at word `s` that the RM table has: their
    /// end, structure string and MS roots.
    fn found_rms(&self, s: usize) -> Vec<(usize, String, Vec<NodeId>)> {
        let rms = self.index.rms_from(s, self.model.limits.max_ms.max(1), self.max_words);
        rms.into_iter()
            .filter_map(|roots| {
                let end = roots.last().map(|&m| self.source.span(m).end)?;
                let rm = self.index.rm_string(&roots);
                (!self.model.rm_table.lookup(&rm).0.is_empty()).then_some((end, rm, roots))
            })
            .collect()
    }

    /// For each found source RM, its best `rm_limit` target RMs, each with
    /// the best `inner_k` translations of the scope of the target RM's length.
    fn rm_options(
        &self,
        builder: &OptionBuilder<'_, '_>,
        found: &[(usize, String, Vec<NodeId>)],
        inner: &[Vec<Vec<ScopeTranslation>>],
        span_opts: &mut [Vec<MsOption>],
    ) {
        let (model, s) = (self.model, builder.start);
        for (e, rm, roots) in found {
            let (entries, targets) = model.rm_table.lookup(rm);
            let take = self.options.rm_limit.min(entries.len());
            for (entry, t) in entries[..take].iter().zip(targets) {
                let Some(cands) = inner.get(e - s - 1).and_then(|by_len| by_len.get(t.words)) else { continue };
                for inn in cands.iter().take(self.options.inner_k.max(1)) {
                    let tokens = match model.reading.structure_tokens {
                        StructureTokens::Ms => &t.ms,
                        StructureTokens::Roots => &t.roots,
                    };
                    let choice = RmChoice {
                        source_rm: rm,
                        source_roots: roots,
                        target_rm: entry.target.clone(),
                        target: TargetShape { tokens, roots: &t.roots, leaves: &t.leaves },
                        p: (entry.p_e_given_f, entry.p_f_given_e),
                        glue: false,
                    };
                    span_opts[e - s - 1].push(builder.option(*e, inn, choice));
                }
            }
        }
    }

    /// Glue: a word that no RM pair can translate gets its best
    /// translations with a flat target structure of word tags; with
    /// `unseen_targets`, so does every found source RM's scope.
    fn glue_options(
        &self,
        builder: &OptionBuilder<'_, '_>,
        found: &[(usize, String, Vec<NodeId>)],
        inner: &[Vec<Vec<ScopeTranslation>>],
        span_opts: &mut [Vec<MsOption>],
    ) {
        let (s, inner_keep) = (builder.start, self.options.inner_k.max(1));
        if span_opts[0].is_empty() {
            let mut all: Vec<&ScopeTranslation> = inner.first().map_or(Vec::new(), |v| v.iter().flatten().collect());
            all.sort_by(|a, b| b.score.total_cmp(&a.score));
            let src_rm = self.pos_nodes.get(s).map_or(String::new(), |&p| self.index.ms_string(p).to_string());
            let roots: Vec<NodeId> = self.pos_nodes.get(s).copied().into_iter().collect();
            for inn in all.into_iter().take(inner_keep) {
                span_opts[0].push(builder.glue(s + 1, inn, &src_rm, &roots));
            }
        }
        if self.options.unseen_targets {
            let mut done: Vec<usize> = Vec::new();
            for (e, rm, roots) in found {
                if done.contains(e) {
                    continue;
                }
                done.push(*e);
                let mut all: Vec<&ScopeTranslation> =
                    inner.get(e - s - 1).map_or(Vec::new(), |v| v.iter().flatten().collect());
                all.sort_by(|a, b| b.score.total_cmp(&a.score));
                for inn in all.into_iter().take(inner_keep) {
                    span_opts[e - s - 1].push(builder.glue(*e, inn, rm, roots));
                }
            }
        }
    }

    /// Each phrase pair starting at the builder's word as an option of its
    /// own (the words' POS nodes as the source RM); a one-word phrase only
    /// where the word has no glue option yet.
    fn phrase_options(&self, builder: &OptionBuilder<'_, '_>, span_opts: &mut [Vec<MsOption>]) {
        let (phrases, s) = (self.phrases, builder.start);
        for &k in &phrases.by_start[s] {
            let ph = &phrases.phrases[k as usize];
            if ph.end == s + 1 && span_opts[0].iter().any(|o| o.glue) {
                continue;
            }
            let inn =
                ScopeTranslation { phrases: vec![k], words: ph.target.len(), score: ph.estimate, distortion: 0.0 };
            let roots: Vec<NodeId> = self.pos_nodes.get(s..ph.end).map_or(Vec::new(), <[NodeId]>::to_vec);
            let src_rm = self.index.rm_string(&roots);
            span_opts[ph.end - s - 1].push(builder.glue(ph.end, &inn, &src_rm, &roots));
        }
    }
}

impl<'a> MsSearch<'a> {
    /// Collects the options of `source` under `model` and `weights`
    /// (module documentation of [`crate::mt::ms`]): the sentence's words
    /// looked up, unknown ones treated ([`SourceWords`]), and its phrase
    /// pairs collected; its decomposition into MS, indexed by start word;
    /// then for each start word the options of every span that starts there
    /// (`StartOptions::spans_from`: source RMs found in the RM table, each
    /// with its best target RMs and the best translations of its scope of the
    /// target RM's length; glue options where no RM pair applies), the best
    /// few of each span kept.
    pub fn new(model: &MsTables<'a>, source: &Tree, weights: &[f64], options: &MsDecodeOptions) -> MsSearch<'a> {
        let words = SourceWords::prepare(
            source.words(),
            model.table,
            model.word_backoff,
            model.vocabulary,
            &model.unknown,
            options.ttable_limit,
        );
        let n = words.len();
        let w: Vec<f64> = (0..NUM_MS_FEATURES).map(|i| weights.get(i).copied().unwrap_or(0.0)).collect();
        let max_words = model.limits.max_words.max(1);
        let phrases = SentencePhrases::collect(model, &words, options.ttable_limit, &w, max_words);
        let d = Decomposition::new(source, model.constraints);
        let index = MsIndex::new(&d, max_words);
        let pos_nodes: Vec<NodeId> = source.node_ids().filter(|&p| source.is_pos(p)).collect();
        let starts =
            StartOptions { model, options, source, w: &w, phrases: &phrases, index: &index, pos_nodes, max_words };
        let mut opts: Vec<MsOption> = Vec::new();
        for s in 0..n {
            for mut v in starts.spans_from(s) {
                keep_best(&mut v, options);
                opts.extend(v);
            }
        }
        MsSearch {
            lm: model.lm,
            structure_lm: model.structure_lm,
            n,
            options: opts,
            distortion_limit: options.distortion_limit,
            notes: words.notes,
        }
    }
}

/// For every end `e` in `s+1..=max_end` (index `e - s - 1`), the k best
/// translations of `s..e` per number of target words (index: length), best
/// first: monotone phrase segmentations, and *swaps* — the translation of
/// `m..e` before that of `s..m`, for a split `m` — with the inner jumps
/// `(m − s) + (e − s)` as distortion. Ranked by the weighted static
/// features and context-free LM estimates of the phrases (`w` weights the
/// distortion).
fn inner_translations(
    phrases: &[Phrase],
    by_start: &[Vec<u32>],
    s: usize,
    max_end: usize,
    k: usize,
    w_distortion: f64,
) -> Vec<Vec<Vec<ScopeTranslation>>> {
    let mono_from = |a: usize| monotone(phrases, by_start, a, max_end, k);
    let monos: Vec<Vec<Vec<Vec<ScopeTranslation>>>> = (s..max_end).map(mono_from).collect();
    let mut out: Vec<Vec<Vec<ScopeTranslation>>> = monos[0].clone();
    for e in s + 2..=max_end {
        for m in s + 1..e {
            let (left, right) = (&monos[0][m - s - 1], &monos[m - s][e - m - 1]);
            let dist = ((m - s) + (e - s)) as f64;
            for r in right.iter().flatten() {
                for l in left.iter().flatten() {
                    let len = l.words + r.words;
                    let score = r.score + l.score - w_distortion * dist;
                    let cell = &mut out[e - s - 1];
                    if cell.len() <= len {
                        cell.resize(len + 1, Vec::new());
                    }
                    let mut ps = r.phrases.clone();
                    ps.extend_from_slice(&l.phrases);
                    insert_k(&mut cell[len], ScopeTranslation { phrases: ps, words: len, score, distortion: dist }, k);
                }
            }
        }
    }
    out
}

/// Inserts into a list kept best first and at most `k` long.
fn insert_k(slot: &mut Vec<ScopeTranslation>, x: ScopeTranslation, k: usize) {
    if slot.len() >= k && slot.last().is_some_and(|y| y.score >= x.score) {
        return;
    }
    let pos = slot.iter().position(|y| y.score < x.score).unwrap_or(slot.len());
    slot.insert(pos, x);
    slot.truncate(k);
}

/// The k best monotone phrase segmentations of `s..e` for every `e` up to
/// `max_end`, per target length (see [`inner_translations`]).
fn monotone(
    phrases: &[Phrase],
    by_start: &[Vec<u32>],
    s: usize,
    max_end: usize,
    k: usize,
) -> Vec<Vec<Vec<ScopeTranslation>>> {
    // cells[j - s][len]: k best segmentations of s..j with len target words.
    let width = max_end - s + 1;
    let mut cells: Vec<Vec<Vec<ScopeTranslation>>> = vec![Vec::new(); width];
    cells[0] = vec![vec![ScopeTranslation { phrases: Vec::new(), words: 0, score: 0.0, distortion: 0.0 }]];
    for j in s..max_end {
        let from = std::mem::take(&mut cells[j - s]);
        for &p in by_start.get(j).map_or(&[][..], Vec::as_slice) {
            let ph = &phrases[p as usize];
            if ph.end > max_end {
                continue;
            }
            let t = ph.target.len();
            for h in from.iter().flatten() {
                let len = h.words + t;
                let cell = &mut cells[ph.end - s];
                if cell.len() <= len {
                    cell.resize(len + 1, Vec::new());
                }
                let score = h.score + ph.estimate;
                if cell[len].len() >= k && cell[len].last().is_some_and(|x: &ScopeTranslation| x.score >= score) {
                    continue;
                }
                let mut ps = h.phrases.clone();
                ps.push(p);
                insert_k(&mut cell[len], ScopeTranslation { phrases: ps, words: len, score, distortion: 0.0 }, k);
            }
        }
        cells[j - s] = from;
    }
    cells.into_iter().skip(1).collect()
}

impl SearchSpace for MsSearch<'_> {
    type State = MsState;

    fn source_len(&self) -> usize {
        self.n
    }

    fn num_features(&self) -> usize {
        NUM_MS_FEATURES
    }

    fn num_options(&self) -> usize {
        self.options.len()
    }

    fn option_span(&self, option: usize) -> (usize, usize) {
        let o = &self.options[option];
        (o.start, o.end)
    }

    fn option_estimate(&self, option: usize, _weights: &[f64]) -> f64 {
        self.options[option].estimate
    }

    fn initial_state(&self) -> MsState {
        MsState { lm: self.lm.begin_state(), structure: self.structure_lm.begin_state(), last_end: 0 }
    }

    fn span_allowed(&self, state: &MsState, coverage: &Coverage, start: usize, end: usize) -> bool {
        within_distortion_limit(self.distortion_limit, state.last_end, coverage, start, end)
    }

    fn extend(&self, state: &MsState, _coverage: &Coverage, option: usize, delta: &mut [f64]) -> Option<MsState> {
        let o = &self.options[option];
        delta.copy_from_slice(&o.static_features);
        delta[F_DISTORTION] -= o.start.abs_diff(state.last_end) as f64;
        let (lm, lm_state) = self.lm.ln_score_words(state.lm, &o.word_ids);
        delta[F_LM] = lm;
        let (st, st_state) = self.structure_lm.ln_score_words(state.structure, &o.ms_ids);
        delta[F_STRUCTURE] = st;
        Some(MsState { lm: lm_state, structure: st_state, last_end: o.end })
    }

    fn finish(&self, state: &MsState, delta: &mut [f64]) {
        delta[F_LM] += self.lm.ln_score_end(state.lm);
        delta[F_STRUCTURE] += self.structure_lm.ln_score_end(state.structure);
    }
}

/// One step of a meta-structure derivation: a source RM and the target RM
/// it was transformed into, with the words of its scope translated phrase
/// by phrase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsStep {
    /// Half-open source word span (the RM's scope).
    pub source: (usize, usize),
    pub source_rm: String,
    /// The roots of the source RM's MS in the source tree, left to right
    /// (what the page outlines).
    #[serde(default)]
    pub source_roots: Vec<NodeId>,
    pub target_rm: String,
    pub target: Vec<String>,
    pub phrases: Vec<PhraseStep>,
    /// No RM pair applied (a single word with a flat structure of word tags).
    pub glue: bool,
}

/// The result of translating one source tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsTranslation {
    /// The best translation.
    pub words: Vec<String>,
    /// The target SMS: the target RMs' structure strings in target order.
    pub target_sms: String,
    /// Its model score λ · h.
    pub score: f64,
    /// Its feature vector h (indices `F_*` of [`crate::mt::ms`]).
    pub features: Vec<f64>,
    /// RM pairs in target order.
    pub derivation: Vec<MsStep>,
    /// The n-best list, best first.
    pub nbest: Vec<NBestEntry>,
    pub stats: SearchStats,
    /// The source words the phrase table did not know: passed through,
    /// looked up in another casing, split or copied ([`crate::mt::phrase::unknown`]).
    #[serde(default)]
    pub source_notes: Vec<SourceNote>,
}

impl MsTranslation {
    /// Per word of the translation, the index in `source_notes` of the
    /// treated source word it comes from: through the phrase pairs inside
    /// each RM pair's scope ([`crate::mt::phrase::unknown::target_provenance`]).
    pub fn provenance(&self) -> Vec<Option<usize>> {
        let phrases = self.derivation.iter().flat_map(|s| &s.phrases).map(|p| (p.source, p.target.len()));
        crate::mt::phrase::unknown::target_provenance(phrases, &self.source_notes)
    }

    /// Per word of `source` (the sentence translated), the phrase pair
    /// inside an RM pair's scope that translated it, with that RM pair
    /// ([`crate::mt::phrase::unknown::word_rules`]).
    pub fn word_rules(&self, source: &[String]) -> Vec<Option<WordRule>> {
        let phrases = self.derivation.iter().enumerate().flat_map(|(k, s)| {
            let rm = Some((s.source_rm.as_str(), s.target_rm.as_str()));
            s.phrases.iter().map(move |p| (k, p.source, &p.target[..], p.unknown, rm))
        });
        crate::mt::phrase::unknown::word_rules(phrases, source)
    }
}

/// Translates a source tree (module documentation of [`crate::mt::ms`]).
/// If the distortion limit leaves no complete translation the tree is
/// decoded again without it; a tree with no words gives an empty translation.
pub fn decode_ms(model: &MsTables<'_>, source: &Tree, weights: &[f64], options: &MsDecodeOptions) -> MsTranslation {
    let mut search = MsSearch::new(model, source, weights, options);
    let words_of = |m: &MsSearch<'_>, d: &[usize]| {
        d.iter().flat_map(|&o| m.options[o].target.iter().cloned()).collect::<Vec<String>>()
    };
    let lift_limit = |m: &mut MsSearch<'_>| m.distortion_limit.take().is_some();
    let (result, nbest) =
        search_nbest(&mut search, weights, &options.beam, options.distinct_nbest, lift_limit, words_of);
    let opts = &search.options;
    match result.nbest.first() {
        Some(best) => MsTranslation {
            words: words_of(&search, &best.options),
            target_sms: best.options.iter().map(|&o| opts[o].target_rm.as_str()).collect::<Vec<_>>().join(" "),
            score: best.score,
            features: best.features.clone(),
            derivation: best
                .options
                .iter()
                .map(|&o| {
                    let x = &opts[o];
                    MsStep {
                        source: (x.start, x.end),
                        source_rm: x.source_rm.clone(),
                        source_roots: x.source_roots.clone(),
                        target_rm: x.target_rm.clone(),
                        target: x.target.clone(),
                        phrases: x.phrases.clone(),
                        glue: x.glue,
                    }
                })
                .collect(),
            nbest,
            stats: result.stats,
            source_notes: search.notes.clone(),
        },
        None => MsTranslation {
            words: Vec::new(),
            target_sms: String::new(),
            score: if source.words().is_empty() { 0.0 } else { f64::NEG_INFINITY },
            features: vec![0.0; NUM_MS_FEATURES],
            derivation: Vec::new(),
            nbest,
            stats: result.stats,
            source_notes: search.notes.clone(),
        },
    }
}
