//! The lexical side of alignment: where the lexicon and the word links
//! come from (paper §6.3 trains GIZA++ on all the sentences; we train in the
//! engine, or read Moses tables and word alignments).
//!
//! - Tables given, links given: used as they are.
//! - Tables given, no links: links from the engine's aligner under those tables.
//! - Nothing given: IBM1 + fast_align-style IBM2 (then, if chosen, the HMM) both
//!   ways, symmetrised, trained
//!   on every sentence involved (never on gold links), plus an optional extra
//!   bitext. The sentences are kept so that aligning new input can re-train on
//!   them plus the input's, as GIZA++ would be run.

use serde::{Deserialize, Serialize};

use crate::corpus::Corpus;
use crate::lexicon::{
    self, align_with, bitext_of, Lexicon, LexiconOptions, SentencePair, TableEstimate, WordAlignment,
};
use crate::progress::{Cancelled, Observer};

/// The in-engine lexicon's settings for alignment: fast_align defaults, with
/// the tables taken from the directional models' `t(f|e)` (as the paper and
/// Tinsley et al. use GIZA++'s tables) rather than from link counts, whose
/// tables are too sparse for products over words. Entries below `1e-7` (the features' floor) are
/// dropped to keep model files small.
pub fn alignment_lexicon_options() -> LexiconOptions {
    LexiconOptions { table: TableEstimate::Model { min_prob: 1e-7 }, ..LexiconOptions::default() }
}

/// Where the lexicon comes from.
// Built once per run, so the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum LexiconSource {
    /// Moses tables (and, optionally, word links for the first corpus).
    Given { lexicon: Lexicon, links: Option<Vec<WordAlignment>> },
    /// Trained in the engine on the corpora's sentences plus `extra`.
    Train { extra: Vec<SentencePair>, options: LexiconOptions },
}

/// The lexical model of an alignment model.
// One per model, so the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LexicalModel {
    /// Tables read from files.
    Tables(Lexicon),
    /// Trained in the engine on these sentences with these settings.
    InEngine { options: LexiconOptions, bitext: Vec<SentencePair> },
}

/// The lexicon, how to rebuild it (for the model file) and the word links of
/// each corpus, in the order given.
#[derive(Debug, Clone)]
pub struct LexicalSetup {
    pub lexicon: Lexicon,
    pub model: LexicalModel,
    pub links: Vec<Vec<WordAlignment>>,
}

/// Builds the lexicon and word links for `corpora` (see the module doc),
/// reporting the lexicon's EM iterations as `stage`.
pub fn prepare(
    corpora: &[&Corpus],
    source: LexiconSource,
    stage: &'static str,
    progress: &mut dyn Observer,
) -> Result<LexicalSetup, Cancelled> {
    match source {
        LexiconSource::Given { lexicon, links } => {
            let options = LexiconOptions { lowercase: lexicon.s2t.lowercase(), ..LexiconOptions::default() };
            let mut given = links;
            let links = corpora
                .iter()
                .enumerate()
                .map(|(k, c)| match (k, given.take()) {
                    (0, Some(l)) => l,
                    _ => align_with(&lexicon, &bitext_of(c), &options),
                })
                .collect();
            Ok(LexicalSetup { model: LexicalModel::Tables(lexicon.clone()), lexicon, links })
        }
        LexiconSource::Train { extra, options } => {
            let mut bitext: Vec<SentencePair> = corpora.iter().flat_map(|c| bitext_of(c)).collect();
            let n_corpus = bitext.len();
            bitext.extend(extra);
            let (lexicon, mut all_links) = lexicon::train_observed(&bitext, &options, stage, progress)?;
            all_links.truncate(n_corpus);
            let mut links = Vec::with_capacity(corpora.len());
            let mut rest = all_links.into_iter();
            for c in corpora {
                links.push(rest.by_ref().take(c.len()).collect());
            }
            Ok(LexicalSetup { lexicon, model: LexicalModel::InEngine { options, bitext }, links })
        }
    }
}

/// Whether the sentences being aligned join the in-engine lexicon's training.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputSentences {
    /// Re-train on the model's sentences plus the input's, as GIZA++ is run
    /// on a whole corpus (no gold links): no input word is unknown.
    #[default]
    Train,
    /// Held out: the lexicon as trained on the model's sentences, the
    /// input's word links by its Viterbi alignment ([`align_with`]); words it
    /// never saw stay unaligned. For scoring on a test split, which must not
    /// reach any model.
    HeldOut,
}

/// The word links of `corpus` from a prepared lexicon, without training on
/// its sentences (a held-out split).
pub fn held_out_links(setup: &LexicalSetup, corpus: &Corpus) -> Vec<WordAlignment> {
    align_with(&setup.lexicon, &bitext_of(corpus), &model_options(&setup.model))
}

/// The options the lexicon of `model` aligns with.
fn model_options(model: &LexicalModel) -> LexiconOptions {
    match model {
        LexicalModel::Tables(lexicon) => {
            LexiconOptions { lowercase: lexicon.s2t.lowercase(), ..LexiconOptions::default() }
        }
        LexicalModel::InEngine { options, .. } => options.clone(),
    }
}

/// The lexicon and word links for aligning `input` with a model: the
/// model's tables (links given, else from the engine's aligner), or its
/// in-engine lexicon re-trained on its sentences, plus the input's unless
/// they are [`InputSentences::HeldOut`] (given links then replace the
/// trained ones).
pub fn lexicon_for_input(
    model: &LexicalModel,
    input: &Corpus,
    given_links: Option<Vec<WordAlignment>>,
    sentences: InputSentences,
    stage: &'static str,
    progress: &mut dyn Observer,
) -> Result<(Lexicon, Vec<WordAlignment>), Cancelled> {
    match model {
        LexicalModel::Tables(lexicon) => {
            let links = given_links.unwrap_or_else(|| align_with(lexicon, &bitext_of(input), &model_options(model)));
            Ok((lexicon.clone(), links))
        }
        LexicalModel::InEngine { options, bitext } if sentences == InputSentences::HeldOut => {
            let (lexicon, _) = lexicon::train_observed(bitext, options, stage, progress)?;
            let links = given_links.unwrap_or_else(|| align_with(&lexicon, &bitext_of(input), options));
            Ok((lexicon, links))
        }
        LexicalModel::InEngine { options, bitext } => {
            let mut all: Vec<SentencePair> = bitext_of(input);
            all.extend_from_slice(bitext);
            let (lexicon, mut links) = lexicon::train_observed(&all, options, stage, progress)?;
            links.truncate(input.len());
            Ok((lexicon, given_links.unwrap_or(links)))
        }
    }
}
