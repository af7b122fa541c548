//! Training a translation system end to end, as `treelink mt-train` and the
//! page's worker both do: word alignment in the engine (when none is given),
//! the phrase-based or meta-structure system, and MERT on a dev set.
//!
//! One function for both callers, so a model trained in the page is the
//! model the CLI trains with the same settings.

use crate::corpus::Corpus;
use crate::lexicon::Lexicon;
use crate::lexicon::{self, bitext_of, LexiconOptions, WordAlignment, WordModel};
use crate::mt::lm::NgramLm;
use crate::mt::model::{MtSystem, SystemKind};
use crate::mt::ms::{MsReading, MsSystem, MsSystemConfig, MsSystemError};
use crate::mt::phrase::unknown::{
    lexicon_backoff, SourceVocabulary, UnknownWordOptions, BACKOFF_MIN_PROB, BACKOFF_PER_WORD,
};
use crate::mt::phrase::PhraseTable;
use crate::mt::phrase::{ExtractMethod, PhraseSystem, PhraseSystemConfig, PhraseSystemError};
use crate::mt::tune::{MertOptions, MertReport, Tuner};
use crate::parallel::Threads;
use crate::progress::{report, Cancelled, Observer, Progress};
use crate::tree::{NodeId, Tree};

/// The settings of `treelink mt-train` beyond the data (its defaults are the CLI's).
#[derive(Debug, Clone, PartialEq)]
pub struct MtTrainSettings {
    /// MERT iterations on the dev set (0: keep the untuned default weights).
    pub tune_iterations: usize,
    /// n-best entries per dev sentence for MERT.
    pub nbest: usize,
    /// Hypotheses per stack (`None`: the system's default, 100 phrase / 50 ms).
    pub beam: Option<usize>,
    /// Order of the word language model (h6).
    pub lm_order: usize,
    /// Longest phrase (and RM scope) in words.
    pub max_phrase_len: usize,
    /// MS per RM at most (ms system).
    pub max_ms: usize,
    /// Seed of MERT's random directions and of the structure model's SMS samples.
    pub seed: u64,
    /// A word language model (h6) to use instead of the one trained on the
    /// training pairs' target sentences (e.g. read from an ARPA file).
    pub lm: Option<NgramLm>,
    /// Unknown source words: pass-through, lexicon back-off, casing, compound splitting.
    pub unknown: UnknownWordOptions,
    /// The reading of the MS system's structure features.
    pub reading: MsReading,
    /// MS system: every phrase pair also an option ([`crate::mt::ms::MsDecodeOptions::phrase_fallback`]).
    pub phrase_fallback: bool,
    /// The word-alignment model ([`word_alignments_with`]): fast_align (the
    /// default) or the HMM after it.
    pub word_model: WordModel,
    /// The word-alignment lexicon of the training pairs ([`word_alignments_with`]):
    /// the unknown-word back-off's translations ([`crate::mt::phrase::unknown::lexicon_backoff`]).
    /// `None` (e.g. a word alignment given as a file): no back-off.
    pub lexicon: Option<Lexicon>,
    /// Threads for extraction (phrase and RM pairs) and MERT's dev decoding;
    /// the system is the same with any number.
    pub threads: Threads,
    /// How the weights are tuned on dev: PRO (the default: on SQUOIA its
    /// test BLEU varies 4–17 times less over tuning runs than MERT's, at
    /// the same or a higher mean; docs/translation-results.md) or MERT.
    pub tuner: Tuner,
}

impl Default for MtTrainSettings {
    fn default() -> Self {
        MtTrainSettings {
            tune_iterations: 5,
            nbest: 100,
            beam: None,
            lm_order: 3,
            max_phrase_len: 7,
            max_ms: crate::mt::ms::extract::DEFAULT_MAX_MS,
            seed: 1,
            lm: None,
            unknown: UnknownWordOptions::default(),
            reading: MsReading::default(),
            phrase_fallback: false,
            word_model: WordModel::FastAlign,
            lexicon: None,
            threads: Threads::ONE,
            tuner: Tuner::Pro,
        }
    }
}

/// Why a system could not be trained or tuned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MtTrainError {
    #[error(transparent)]
    Phrase(#[from] PhraseSystemError),
    #[error(transparent)]
    Ms(#[from] MsSystemError),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// Word alignments of every corpus, trained once on all their sentences
/// (IBM1 + IBM2 both ways, grow-diag-final-and; no gold links are read).
pub fn word_alignments(corpora: &[&Corpus], progress: &mut dyn Observer) -> Result<Vec<Vec<WordAlignment>>, Cancelled> {
    Ok(word_alignments_and_lexicon(corpora, progress)?.0)
}

/// [`word_alignments`] and the lexicon (`p(t|s)`, `p(s|t)`) they were read from.
pub fn word_alignments_and_lexicon(
    corpora: &[&Corpus],
    progress: &mut dyn Observer,
) -> Result<(Vec<Vec<WordAlignment>>, Lexicon), Cancelled> {
    word_alignments_with(corpora, WordModel::FastAlign, progress)
}

/// [`word_alignments_and_lexicon`] by `word_model` (the HMM's Viterbi links
/// replace fast_align's, as `train --word-model hmm` does for sub-tree alignment).
pub fn word_alignments_with(
    corpora: &[&Corpus],
    word_model: WordModel,
    progress: &mut dyn Observer,
) -> Result<(Vec<Vec<WordAlignment>>, Lexicon), Cancelled> {
    let bitext: Vec<_> = corpora.iter().flat_map(|c| bitext_of(c)).collect();
    let options = LexiconOptions::default().with_word_model(word_model);
    let (lexicon, links) = lexicon::train_observed(&bitext, &options, "word alignment", progress)?;
    let mut rest = links.into_iter();
    Ok((corpora.iter().map(|c| rest.by_ref().take(c.len()).collect()).collect(), lexicon))
}

/// The lexicon back-off of a trained system (when a lexicon is given).
fn backoff(
    vocabulary: &SourceVocabulary,
    table: &PhraseTable,
    train: &Corpus,
    settings: &MtTrainSettings,
) -> PhraseTable {
    settings.lexicon.as_ref().map_or_else(PhraseTable::default, |lex| {
        let targets = train.pairs.iter().map(|p| p.target.words());
        lexicon_backoff(vocabulary, table, lex, targets, BACKOFF_PER_WORD, BACKOFF_MIN_PROB)
    })
}

/// Trains one system on `train` with one word alignment per pair and, for
/// DirC / EWoS, the sub-tree links of each pair (kernels paper §7), then
/// tunes it on `dev` by MERT when `dev` is given and
/// `settings.tune_iterations > 0`. Returns it with its tuned dev BLEU.
#[allow(clippy::too_many_arguments)]
pub fn train_system(
    kind: SystemKind,
    method: ExtractMethod,
    train: &Corpus,
    alignments: &[WordAlignment],
    subtree: Option<&[Vec<(NodeId, NodeId)>]>,
    dev: Option<&Corpus>,
    settings: &MtTrainSettings,
    progress: &mut dyn Observer,
) -> Result<(MtSystem, Option<f64>), MtTrainError> {
    let mert = MertOptions {
        iterations: settings.tune_iterations,
        nbest: settings.nbest,
        seed: settings.seed,
        threads: settings.threads,
        tuner: settings.tuner,
        ..MertOptions::default()
    };
    let tune_on = dev.filter(|d| settings.tune_iterations > 0 && !d.is_empty());
    let label = format!("{} {}", kind.name(), method);
    let mut system = match kind {
        SystemKind::Phrase => {
            let mut config = PhraseSystemConfig {
                lm_order: settings.lm_order,
                unknown: settings.unknown,
                ..PhraseSystemConfig::default()
            };
            config.table.extract.method = method;
            config.table.extract.max_phrase_len = settings.max_phrase_len;
            config.table.threads = settings.threads;
            if let Some(b) = settings.beam {
                config.decode.beam.stack_limit = b;
            }
            report(progress, Progress::new("extracting phrase pairs and training the models", 0, 0))?;
            let mut sys = PhraseSystem::train(train, alignments, subtree, &config)?;
            sys.word_backoff = backoff(&sys.vocabulary, &sys.table, train, settings);
            if let Some(lm) = &settings.lm {
                sys.lm = lm.clone();
            }
            progress.note(&format!("{label}: {} phrase pairs", sys.table.len()));
            MtSystem::Phrase(Box::new(sys))
        }
        SystemKind::Ms => {
            let mut config = MsSystemConfig {
                lm_order: settings.lm_order,
                seed: settings.seed,
                unknown: settings.unknown,
                reading: settings.reading,
                ..MsSystemConfig::default()
            };
            config.table.extract.method = method;
            config.table.extract.max_phrase_len = settings.max_phrase_len;
            config.table.threads = settings.threads;
            config.limits.max_words = settings.max_phrase_len;
            config.limits.max_ms = settings.max_ms.max(1);
            config.decode.phrase_fallback = settings.phrase_fallback;
            if let Some(b) = settings.beam {
                config.decode.beam.stack_limit = b;
            }
            progress.note(&format!("{label}: extracting RM pairs and training the models"));
            report(progress, Progress::new("extracting RM pairs and training the models", 0, 0))?;
            let mut sys = MsSystem::train(train, alignments, subtree, &config)?;
            sys.word_backoff = backoff(&sys.vocabulary, &sys.table, train, settings);
            if let Some(lm) = &settings.lm {
                sys.lm = lm.clone();
            }
            progress.note(&format!(
                "{label}: {} phrase pairs, {} RM pairs ({} source RMs), structure model on {} SMS",
                sys.table.len(),
                sys.rm_table.len(),
                sys.rm_table.source_rms(),
                sys.summary.structure_sentences
            ));
            MtSystem::Ms(Box::new(sys))
        }
    };
    let mut bleu = None;
    if let Some(d) = tune_on {
        progress.note(&format!("{label}: tuning on {} dev sentences", d.len()));
        bleu = Some(tune(&mut system, d, &mert, progress)?.bleu);
    }
    Ok((system, bleu))
}

/// Tunes `system`'s weights on `dev` by MERT against the dev target
/// sentences (the phrase-based system decodes the source words, the MS
/// system the source trees), as `mt-train --dev` and each run of
/// `mt-experiment` do. Sets the weights with the best decoded dev BLEU and
/// returns MERT's report.
pub fn tune(
    system: &mut MtSystem,
    dev: &Corpus,
    mert: &MertOptions,
    progress: &mut dyn Observer,
) -> Result<MertReport, MtTrainError> {
    let references: Vec<Vec<String>> = dev.pairs.iter().map(|p| p.target.words().to_vec()).collect();
    Ok(match system {
        MtSystem::Phrase(p) => {
            let sources: Vec<Vec<String>> = dev.pairs.iter().map(|p| p.source.words().to_vec()).collect();
            p.tune_with_progress(&sources, &references, mert, progress)?
        }
        MtSystem::Ms(m) => {
            let sources: Vec<Tree> = dev.pairs.iter().map(|p| p.source.clone()).collect();
            m.tune(&sources, &references, mert, progress)?
        }
    })
}
