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

use crate::align::features::LinkWeight;
use crate::corpus::Corpus;
use crate::lexicon::{
    self, align_with, bitext_of, BackoffOptions, Lexicon, LexiconOptions, SentencePair, TableEstimate, WordAlignment,
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
    /// Moses tables (and, optionally, word links given: see [`GivenLinks`]).
    Given { lexicon: Lexicon, links: GivenLinks },
    /// Trained in the engine on the corpora's sentences plus `extra`; with
    /// `held_out`, for a model of held-out input (see [`prepare`]). Word
    /// links given ([`GivenLinks`]) take the place of the lexicon's own.
    Train { extra: Vec<SentencePair>, options: LexiconOptions, held_out: bool, links: GivenLinks },
}

/// Word links given (another aligner's, or a set's own annotation), per
/// corpus in the order [`prepare`] gets them (the training pairs', then the
/// dev pairs'): a corpus with `None`, or past the end, gets the lexicon's.
/// They are input, never gold: the lexicon is trained on the sentences
/// either way.
pub type GivenLinks = Vec<Option<Vec<WordAlignment>>>;

/// How φ5–φ7 weigh a link with these links given: 1 when the training
/// pairs' (the first corpus's) are.
fn given_weight(given: &GivenLinks) -> LinkWeight {
    if given.first().is_some_and(Option::is_some) {
        LinkWeight::Unit
    } else {
        LinkWeight::Lexicon
    }
}

impl LexiconSource {
    /// This source for a model that will align held-out input (no effect on given tables).
    pub fn for_held_out_input(mut self, on: bool) -> Self {
        if let LexiconSource::Train { held_out, .. } = &mut self {
            *held_out = on;
        }
        self
    }

    /// The in-engine lexicon's word model (`None`: given tables, which no
    /// word model trains).
    pub fn word_model(&self) -> Option<lexicon::WordModel> {
        match self {
            LexiconSource::Given { .. } => None,
            LexiconSource::Train { options, .. } => Some(options.word_model()),
        }
    }

    /// This source with the in-engine lexicon trained by `model` (no effect on given tables).
    pub fn with_word_model(mut self, model: lexicon::WordModel) -> Self {
        if let LexiconSource::Train { options, .. } = &mut self {
            *options = options.clone().with_word_model(model);
        }
        self
    }

    /// This source with the word links `given` in place of any given before.
    pub fn with_given_links(mut self, given: GivenLinks) -> Self {
        match &mut self {
            LexiconSource::Given { links, .. } | LexiconSource::Train { links, .. } => *links = given,
        }
        self
    }

    /// This source with the in-engine lexicon's stem back-off (`None`: off;
    /// no effect on given tables).
    pub fn with_stem_backoff(mut self, stem_chars: Option<usize>) -> Self {
        if let LexiconSource::Train { options, .. } = &mut self {
            options.backoff = stem_chars.map(|stem_chars| BackoffOptions { stem_chars, ..BackoffOptions::default() });
        }
        self
    }
}

/// The lexical model of an alignment model.
// One per model, so the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LexicalModel {
    /// Tables read from files.
    Tables(Lexicon),
    /// Trained in the engine on these sentences with these settings; with
    /// `held_out`, the model was trained for input whose sentences stay out
    /// of the lexicon ([`InputSentences::HeldOut`]), its training pairs
    /// featurised as such input is.
    InEngine {
        options: LexiconOptions,
        bitext: Vec<SentencePair>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        held_out: bool,
    },
}

impl LexicalModel {
    /// Whether the model was trained for held-out input.
    pub fn held_out(&self) -> bool {
        matches!(self, LexicalModel::InEngine { held_out: true, .. })
    }
}

/// The lexicon, how to rebuild it (for the model file) and the word links of
/// each corpus, in the order given.
#[derive(Debug, Clone)]
pub struct LexicalSetup {
    pub lexicon: Lexicon,
    pub model: LexicalModel,
    pub links: Vec<Vec<WordAlignment>>,
    /// For a model of held-out input ([`prepare`]): the lexicons
    /// the first corpus's pairs are featurised with, each trained without
    /// that pair's fold.
    pub folds: Option<HeldOutFolds>,
    /// How φ5–φ7 weigh a word link: 1 when the first corpus's (the
    /// training pairs') links were given, else by the lexicon.
    pub link_weight: LinkWeight,
}

/// Jackknifed lexicons of a training corpus: pair `p` is seen through
/// `lexicons[of_pair[p]]`, a lexicon trained on the other folds' sentences.
#[derive(Debug, Clone)]
pub struct HeldOutFolds {
    pub lexicons: Vec<Lexicon>,
    pub of_pair: Vec<usize>,
}

impl LexicalSetup {
    /// This setup with the word links `given` in place of the lexicon's.
    fn with_given_links(mut self, given: GivenLinks) -> Self {
        self.link_weight = given_weight(&given);
        for (links, given) in self.links.iter_mut().zip(given) {
            if let Some(given) = given {
                *links = given;
            }
        }
        self
    }

    /// The lexicon pair `p` of the first corpus (the training pairs) is
    /// featurised with: its fold's, or the one lexicon.
    pub fn train_lexicon(&self, p: usize) -> &Lexicon {
        self.folds.as_ref().and_then(|f| f.of_pair.get(p).and_then(|&k| f.lexicons.get(k))).unwrap_or(&self.lexicon)
    }

    /// This setup for the training pairs `ids` (in that order) alone.
    pub fn train_subset(&self, ids: &[usize]) -> LexicalSetup {
        let train_links = self.links.first().map_or(&[][..], Vec::as_slice);
        LexicalSetup {
            lexicon: self.lexicon.clone(),
            model: self.model.clone(),
            links: vec![ids.iter().map(|&i| train_links.get(i).cloned().unwrap_or_default()).collect()],
            link_weight: self.link_weight,
            folds: self.folds.as_ref().map(|f| HeldOutFolds {
                lexicons: f.lexicons.clone(),
                of_pair: ids.iter().map(|&i| f.of_pair.get(i).copied().unwrap_or(usize::MAX)).collect(),
            }),
        }
    }
}

/// Folds of the jackknifed training lexicons ([`prepare`]).
pub const HELD_OUT_FOLDS: usize = 5;

/// The lexical model [`prepare`] records for `corpora` from `source`,
/// known before any training (the page's job workers train the lexicon an
/// alignment with the model will need while the model trains).
pub fn lexical_model(corpora: &[&Corpus], source: &LexiconSource) -> LexicalModel {
    match source {
        LexiconSource::Given { lexicon, .. } => LexicalModel::Tables(lexicon.clone()),
        LexiconSource::Train { extra, options, held_out, .. } => {
            // Held out: the training pairs' sentences alone; else every corpus's.
            let corpora = if *held_out { corpora.get(..1).unwrap_or_default() } else { corpora };
            let mut bitext: Vec<SentencePair> = corpora.iter().flat_map(|c| bitext_of(c)).collect();
            bitext.extend(extra.iter().cloned());
            LexicalModel::InEngine { options: options.clone(), bitext, held_out: *held_out }
        }
    }
}

/// Builds the lexicon and word links for `corpora` (see the module doc),
/// reporting the lexicon's EM iterations as `stage`.
///
/// For a model of held-out input (`held_out`, beyond the paper): the
/// sentences it will align stay out of its lexicon, so their features are
/// sparser than those of sentences the lexicon was trained on, and the model
/// should learn from features like the ones it will see. The lexicon is
/// trained on the first corpus's sentences (the training pairs, plus the
/// extra bitext) only; the other corpora's word links come from it as a test
/// set's would ([`held_out_links`]); and each training pair is featurised
/// through a lexicon trained without its fold (jackknife, [`HELD_OUT_FOLDS`]
/// contiguous folds), its word links by that lexicon's Viterbi alignment.
pub fn prepare(
    corpora: &[&Corpus],
    source: LexiconSource,
    stage: &'static str,
    progress: &mut dyn Observer,
) -> Result<LexicalSetup, Cancelled> {
    match source {
        LexiconSource::Given { lexicon, links: given } => {
            let options = tables_options(&lexicon);
            let link_weight = given_weight(&given);
            let mut given = given.into_iter();
            let links = corpora
                .iter()
                .map(|c| given.next().flatten().unwrap_or_else(|| align_with(&lexicon, &bitext_of(c), &options)))
                .collect();
            Ok(LexicalSetup { model: LexicalModel::Tables(lexicon.clone()), lexicon, links, folds: None, link_weight })
        }
        LexiconSource::Train { extra, options, held_out: true, links } => {
            Ok(prepare_held_out(corpora, extra, options, stage, progress)?.with_given_links(links))
        }
        LexiconSource::Train { extra, options, held_out: false, links: given } => {
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
            let model = LexicalModel::InEngine { options, bitext, held_out: false };
            let setup = LexicalSetup { lexicon, model, links, folds: None, link_weight: LinkWeight::Lexicon };
            Ok(setup.with_given_links(given))
        }
    }
}

/// [`prepare`] for a model of held-out input.
fn prepare_held_out(
    corpora: &[&Corpus],
    extra: Vec<SentencePair>,
    options: LexiconOptions,
    stage: &'static str,
    progress: &mut dyn Observer,
) -> Result<LexicalSetup, Cancelled> {
    let train_bitext = corpora.first().map(|c| bitext_of(c)).unwrap_or_default();
    let with_extra = |pairs: Vec<SentencePair>| pairs.into_iter().chain(extra.iter().cloned()).collect::<Vec<_>>();
    let bitext = with_extra(train_bitext.clone());
    let (lexicon, _) = lexicon::train_observed(&bitext, &options, stage, progress)?;
    let n = train_bitext.len();
    let fold_of = |i: usize| i * HELD_OUT_FOLDS / n.max(1);
    let mut lexicons = Vec::with_capacity(HELD_OUT_FOLDS);
    let mut train_links = vec![WordAlignment::default(); n];
    for fold in 0..HELD_OUT_FOLDS {
        let (held, rest): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| fold_of(i) == fold);
        let rest_bitext = with_extra(rest.iter().map(|&i| train_bitext[i].clone()).collect());
        let (fold_lexicon, _) = lexicon::train_observed(&rest_bitext, &options, stage, progress)?;
        let held_bitext: Vec<SentencePair> = held.iter().map(|&i| train_bitext[i].clone()).collect();
        for (&i, links) in held.iter().zip(align_with(&fold_lexicon, &held_bitext, &options)) {
            train_links[i] = links;
        }
        lexicons.push(fold_lexicon);
    }
    let mut links = vec![train_links];
    links.extend(corpora.iter().skip(1).map(|c| align_with(&lexicon, &bitext_of(c), &options)));
    Ok(LexicalSetup {
        lexicon,
        model: LexicalModel::InEngine { options, bitext, held_out: true },
        links,
        folds: Some(HeldOutFolds { lexicons, of_pair: (0..n).map(fold_of).collect() }),
        link_weight: LinkWeight::Lexicon,
    })
}

/// Whether the sentences being aligned join the in-engine lexicon's training.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
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

/// The options given tables align with: the defaults, lowercased as the tables are.
fn tables_options(lexicon: &Lexicon) -> LexiconOptions {
    LexiconOptions { lowercase: lexicon.s2t.lowercase(), ..LexiconOptions::default() }
}

/// The options the lexicon of `model` aligns with.
fn model_options(model: &LexicalModel) -> LexiconOptions {
    match model {
        LexicalModel::Tables(lexicon) => tables_options(lexicon),
        LexicalModel::InEngine { options, .. } => options.clone(),
    }
}

/// The lexicon for aligning input with a model, and where each input
/// pair's word links come from ([`input_lexicon`]); its JSON form moves
/// between the page's job workers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputLexicon {
    pub lexicon: Lexicon,
    pub links: InputLinks,
}

/// Where the word links of the input pairs come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum InputLinks {
    /// Each pair's own: the lexicon's Viterbi alignment ([`align_with`]) with
    /// these options, so the input can be aligned pair by pair as it is read.
    Viterbi(LexiconOptions),
    /// Those of training the lexicon on the input's sentences, one per input
    /// pair in order (which needs the whole input's sentences first).
    Trained(Vec<WordAlignment>),
}

impl InputLexicon {
    /// Moses tables given for the input instead of the model's lexicon;
    /// links by their Viterbi alignment, lowercased as the tables are.
    pub fn tables(lexicon: Lexicon) -> InputLexicon {
        let options = tables_options(&lexicon);
        InputLexicon { lexicon, links: InputLinks::Viterbi(options) }
    }

    /// Whether [`input_lexicon`] needs the input's sentences: the model's
    /// in-engine lexicon is re-trained with them (input not held out). A
    /// model of held-out input aligns so too: trained so, it loses 0.4 F
    /// on SQUOIA where a model trained on a lexicon that saw its pairs
    /// loses 5.7 at held-out input (docs/alignment-results.md).
    pub fn needs_sentences(model: &LexicalModel, sentences: InputSentences) -> bool {
        matches!(model, LexicalModel::InEngine { .. }) && sentences == InputSentences::Train
    }

    /// The word links of input pair `k`, whose sentences are `source` and `target`.
    pub fn links(&self, k: usize, source: &[String], target: &[String]) -> WordAlignment {
        match &self.links {
            InputLinks::Trained(links) => links.get(k).cloned().unwrap_or_default(),
            InputLinks::Viterbi(options) => {
                align_with(&self.lexicon, &[(source.to_vec(), target.to_vec())], options).pop().unwrap_or_default()
            }
        }
    }
}

/// The lexicon for aligning input with a model: the model's tables, or its
/// in-engine lexicon re-trained on its sentences, plus the input's
/// (`input`, the sentences of every input pair in order) unless they are
/// [`InputSentences::HeldOut`]. Only the re-training reads `input` ([`InputLexicon::needs_sentences`]).
pub fn input_lexicon(
    model: &LexicalModel,
    input: &[SentencePair],
    sentences: InputSentences,
    stage: &'static str,
    progress: &mut dyn Observer,
) -> Result<InputLexicon, Cancelled> {
    match model {
        LexicalModel::Tables(lexicon) => Ok(InputLexicon::tables(lexicon.clone())),
        LexicalModel::InEngine { options, bitext, .. } if !InputLexicon::needs_sentences(model, sentences) => {
            let (lexicon, _) = lexicon::train_observed(bitext, options, stage, progress)?;
            Ok(InputLexicon { lexicon, links: InputLinks::Viterbi(options.clone()) })
        }
        LexicalModel::InEngine { options, bitext, .. } => {
            let all: Vec<SentencePair> = input.iter().chain(bitext).cloned().collect();
            let (lexicon, mut links) = lexicon::train_observed(&all, options, stage, progress)?;
            links.truncate(input.len());
            Ok(InputLexicon { lexicon, links: InputLinks::Trained(links) })
        }
    }
}

/// The lexicon and word links for aligning `input` with a model
/// ([`input_lexicon`]); given links replace the word links.
pub fn lexicon_for_input(
    model: &LexicalModel,
    input: &Corpus,
    given_links: Option<Vec<WordAlignment>>,
    sentences: InputSentences,
    stage: &'static str,
    progress: &mut dyn Observer,
) -> Result<(Lexicon, Vec<WordAlignment>), Cancelled> {
    let bitext = bitext_of(input);
    let input_lexicon = input_lexicon(model, &bitext, sentences, stage, progress)?;
    let links = given_links.unwrap_or_else(|| match input_lexicon.links {
        InputLinks::Trained(links) => links,
        InputLinks::Viterbi(options) => align_with(&input_lexicon.lexicon, &bitext, &options),
    });
    Ok((input_lexicon.lexicon, links))
}
