//! The sub-tree alignment workflows (paper §4–6): train a model, align a
//! corpus with it, run the Tinsley et al. (2007) baseline, explain a node
//! pair — what `treelink train`, `align` and `baseline` do, and what the
//! page's Train / Align buttons and its explanation panel ask the worker.

use crate::align::baseline::{baseline_links, BaselineOptions};
use crate::align::composite::KernelSpec;
use crate::align::explain::{self, Explanation};
use crate::align::greedy::Search;
use crate::align::lexical::{
    alignment_lexicon_options, lexicon_for_input, prepare, InputSentences, LexicalModel, LexiconSource,
};
use crate::align::model::{self, AlignError, AlignmentModel, Scorer, TrainOptions};
use crate::corpus::{Corpus, Named};
use crate::io::links::Link;
use crate::lexicon::{
    read_moses_lex, read_word_alignments_for, LexError, Lexicon, SentencePair, WordAlignment, WordModel,
};
use crate::progress::{report, Cancelled, Observer, Progress};
use crate::tree::NodeId;

/// Why an alignment workflow stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlignmentError {
    #[error("training failed: {0}")]
    Train(AlignError),
    #[error(transparent)]
    Model(AlignError),
    #[error("no kernel to train")]
    NoKernel,
    #[error("{0} pairs are too few to hold out {HELD_OUT_PERCENT}% as dev and train on the rest")]
    TooFewToHoldOut(usize),
    #[error("cancelled")]
    Cancelled,
}

impl From<Cancelled> for AlignmentError {
    fn from(_: Cancelled) -> Self {
        AlignmentError::Cancelled
    }
}

/// The Moses tables to use, p(t|s) and p(s|t) (the CLI's `--lex-s2t` and
/// `--lex-t2s`, the page's two tables): both, or none (one alone is not
/// used: the lexicon then comes from the engine).
pub fn both_tables<T>(s2t: Option<T>, t2s: Option<T>) -> Option<(T, T)> {
    s2t.zip(t2s)
}

/// The two Moses tables read as a lexicon.
pub fn moses_lexicon(s2t: Named<'_>, t2s: Named<'_>) -> Result<Lexicon, LexError> {
    Ok(Lexicon::new(read_moses_lex(s2t.text, s2t.name)?, read_moses_lex(t2s.text, t2s.name)?))
}

/// The word links of `corpus`'s pairs (the CLI's `--word-align`, the page's
/// word alignment input): one line per pair, each link inside its sentences.
pub fn word_links(file: Named<'_>, corpus: &Corpus) -> Result<Vec<WordAlignment>, LexError> {
    read_word_alignments_for(file.text, file.name, &corpus.sentence_lengths())
}

/// Where the lexicon comes from, as both the CLI and the page decide it:
/// given Moses tables (with the corpus's word links, if given too), else
/// the engine's lexicon trained on the corpora's sentences plus `extra`
/// (word links are then ignored: the engine aligns its own sentences) with
/// `word_model` (fast_align's IBM2, or the HMM after it).
pub fn lexicon_source(
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
    extra: Vec<SentencePair>,
    word_model: WordModel,
) -> LexiconSource {
    match tables {
        Some(lexicon) => LexiconSource::Given { lexicon, links: word_links },
        None => LexiconSource::Train {
            extra,
            options: alignment_lexicon_options().with_word_model(word_model),
            held_out: false,
        },
    }
}

/// The kernels `treelink train` tries on dev when no kernel is given.
pub const DEFAULT_SHORTLIST: [&str; 4] =
    ["plain", "plain+ibtk-rgsst", "plain+dbtk-root+ibtk-rgsst", "plain+dbtk-root+ibtk-rdsst"];

/// The kernels to train: the one given; else, with a dev set to choose
/// on, [`DEFAULT_SHORTLIST`]; else the paper's best.
pub fn kernels_to_try(kernel: Option<KernelSpec>, with_dev: bool) -> Vec<KernelSpec> {
    match (kernel, with_dev) {
        (Some(k), _) => vec![k],
        (None, false) => vec![KernelSpec::paper_best()],
        (None, true) => DEFAULT_SHORTLIST.iter().filter_map(|s| s.parse().ok()).collect(),
    }
}

/// Trains a model on `train` for each of `options` (one per kernel) and
/// keeps the best by F on `dev` (the first on a tie, or without dev). The
/// lexicon and word links come from `lexicon` for `train` and `dev` at once.
pub fn train_model(
    train: &Corpus,
    dev: Option<&Corpus>,
    lexicon: LexiconSource,
    options: &[TrainOptions],
    observer: &mut dyn Observer,
) -> Result<AlignmentModel, AlignmentError> {
    // Cheap: a treebank beyond the candidate limit is refused before the lexicon is built.
    for o in options {
        model::check_train_candidates(train, o).map_err(AlignmentError::Train)?;
    }
    let corpora: Vec<&Corpus> = std::iter::once(train).chain(dev).collect();
    let setup = prepare(&corpora, lexicon, "lexical model", observer)?;
    let mut best: Option<(f64, AlignmentModel)> = None;
    for o in options {
        let model = model::train(train, dev, &setup, o, observer).map_err(|e| match e {
            AlignError::Cancelled => AlignmentError::Cancelled,
            e => AlignmentError::Train(e),
        })?;
        let f = model.summary.dev_f.unwrap_or(0.0);
        if let Some(counts) = model.summary.dev {
            observer.note(&format!("{}: dev {counts} ({})", model.spec, chosen(&model)));
        }
        if best.as_ref().is_none_or(|(bf, _)| f > *bf) {
            best = Some((f, model));
        }
    }
    best.map(|(_, m)| m).ok_or(AlignmentError::NoKernel)
}

/// The share of the loaded pairs the page holds out as dev when asked to
/// calibrate (it has no dev file): the last 20%, as `treelink train --dev`
/// would use them.
pub const HELD_OUT_PERCENT: usize = 20;

/// Splits `corpus` into its first pairs (train) and its last
/// [`HELD_OUT_PERCENT`]% (dev, at least one pair); `None` when either
/// side would be empty.
pub fn hold_out(corpus: &Corpus) -> Option<(Corpus, Corpus)> {
    let dev = held_out_pairs(corpus.len())?;
    let (train, dev) = corpus.pairs.split_at(corpus.len() - dev);
    Some((Corpus { pairs: train.to_vec() }, Corpus { pairs: dev.to_vec() }))
}

/// How many of `n` pairs [`hold_out`] holds out, if it can.
pub fn held_out_pairs(n: usize) -> Option<usize> {
    let dev = (n * HELD_OUT_PERCENT / 100).max(1);
    (dev < n).then_some(dev)
}

/// What the page's Train button does with the pairs it holds: `treelink
/// train --train PAIRS` or, with `held_out`, `treelink train --train FIRST
/// --dev LAST` on the split of [`hold_out`] (word links given for all pairs
/// are cut to the training pairs', as `--word-align` gives them).
pub fn train_on_pairs(
    corpus: &Corpus,
    held_out: bool,
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
    word_model: WordModel,
    options: &[TrainOptions],
    observer: &mut dyn Observer,
) -> Result<AlignmentModel, AlignmentError> {
    if !held_out {
        let source = lexicon_source(tables, word_links, Vec::new(), word_model);
        return train_model(corpus, None, source, options, observer);
    }
    let (train, dev) = hold_out(corpus).ok_or(AlignmentError::TooFewToHoldOut(corpus.len()))?;
    let word_links = word_links.map(|mut links| {
        links.truncate(train.len());
        links
    });
    let source = lexicon_source(tables, word_links, Vec::new(), word_model);
    train_model(&train, Some(&dev), source, options, observer)
}

/// What training chose on dev, in words.
pub fn chosen(model: &AlignmentModel) -> String {
    let s = &model.summary;
    format!(
        "pruning quantile {}, C {}, cost factor {:.2}, threshold on D {:.3}; {} examples ({} positive), {} support vectors",
        s.prune_quantile,
        s.c,
        s.cost_factor,
        model.threshold,
        s.examples,
        s.positives_sampled,
        model.support_vectors.len()
    )
}

/// A corpus aligned by a model: the lexicon and word links used, and the
/// search log of every pair.
#[derive(Debug, Clone)]
pub struct CorpusAlignment {
    pub lexicon: Lexicon,
    pub word_links: Vec<WordAlignment>,
    pub searches: Vec<Search>,
}

impl CorpusAlignment {
    /// The links of each pair, sorted (what `treelink align` prints).
    pub fn links(&self) -> Vec<Vec<Link>> {
        self.searches.iter().map(explain::predicted_links).collect()
    }
}

/// Aligns `input` with `model`: the model's lexicon for the input (its
/// tables, or its in-engine lexicon re-trained with the input's sentences),
/// `given_links` replacing the word links when given, then the greedy
/// search on every pair.
pub fn align(
    model: &AlignmentModel,
    input: &Corpus,
    given_links: Option<Vec<WordAlignment>>,
    observer: &mut dyn Observer,
) -> Result<CorpusAlignment, AlignmentError> {
    align_input(model, input, given_links, InputSentences::Train, observer)
}

/// [`align`], saying whether the input's sentences join the in-engine
/// lexicon's training ([`InputSentences::HeldOut`]: a test split, scored
/// without reaching any model).
pub fn align_input(
    model: &AlignmentModel,
    input: &Corpus,
    given_links: Option<Vec<WordAlignment>>,
    sentences: InputSentences,
    observer: &mut dyn Observer,
) -> Result<CorpusAlignment, AlignmentError> {
    let (lexicon, word_links) =
        lexicon_for_input(&model.lexicon, input, given_links, sentences, "lexical model for aligning", observer)?;
    let scorer = Scorer::new(model, &lexicon).map_err(AlignmentError::Model)?;
    let searches = explain::align_corpus(&scorer, input, &word_links, observer)?;
    Ok(CorpusAlignment { lexicon, word_links, searches })
}

/// The baseline's lexicon: given tables, else the engine's lexicon trained
/// on the input's sentences plus `extra`.
pub fn baseline_lexicon(
    input: &Corpus,
    tables: Option<Lexicon>,
    extra: Vec<SentencePair>,
    word_model: WordModel,
    observer: &mut dyn Observer,
) -> Result<Lexicon, Cancelled> {
    let source = lexicon_source(tables, None, extra, word_model);
    Ok(prepare(&[input], source, "lexical model for the baseline", observer)?.lexicon)
}

/// The Tinsley et al. (2007) baseline's links of every pair, sorted.
pub fn baseline(
    input: &Corpus,
    lexicon: &Lexicon,
    options: &BaselineOptions,
    observer: &mut dyn Observer,
) -> Result<Vec<Vec<Link>>, Cancelled> {
    let n = input.len() as u64;
    let mut out = Vec::with_capacity(input.len());
    for (k, pair) in input.pairs.iter().enumerate() {
        out.push(baseline_links(lexicon, pair, options));
        report(observer, Progress::new("baseline (Tinsley et al.)", k as u64 + 1, n))?;
    }
    Ok(out)
}

/// A corpus aligned by a model and by the baseline, kept to explain node
/// pairs (the page's alignment workbench).
pub struct Comparison {
    pub model: AlignmentModel,
    pub corpus: Corpus,
    pub alignment: CorpusAlignment,
    /// The baseline's links of each pair (its default settings, the paper's best).
    pub baseline: Vec<Vec<(NodeId, NodeId)>>,
    /// Where the lexicons came from, in a sentence.
    pub lexicon_note: String,
}

/// Aligns `corpus` with `model` (as `treelink align`) and with the baseline
/// (as `treelink baseline`), with the uploaded `tables` and `word_links` if any.
pub fn align_and_compare(
    model: AlignmentModel,
    corpus: Corpus,
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
    observer: &mut dyn Observer,
) -> Result<Comparison, AlignmentError> {
    let given_note = if word_links.is_some() { " with the uploaded word alignment" } else { "" };
    let alignment = align(&model, &corpus, word_links, observer)?;
    let baseline_note = match &tables {
        Some(_) => "the uploaded Moses tables".to_string(),
        None => format!("the engine's lexicon trained on the {} pairs", corpus.len()),
    };
    let lexicon = baseline_lexicon(&corpus, tables, Vec::new(), WordModel::default(), observer)?;
    let links = baseline(&corpus, &lexicon, &BaselineOptions::default(), observer)?;
    let baseline = links.into_iter().map(|ls| ls.into_iter().map(|l| (l.source, l.target)).collect()).collect();
    let model_note = match &model.lexicon {
        LexicalModel::Tables(_) => "the model's Moses tables".to_string(),
        LexicalModel::InEngine { bitext, .. } => format!(
            "the model's in-engine lexicon re-trained on its {} sentence pairs and the {} pairs aligned",
            bitext.len(),
            corpus.len()
        ),
    };
    let lexicon_note = format!("Lexicon of the model: {model_note}{given_note}; of the baseline: {baseline_note}.");
    Ok(Comparison { model, corpus, alignment, baseline, lexicon_note })
}

/// Why a node pair could not be explained.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    #[error("pair {} is not in the last alignment", .0 + 1)]
    NoPair(usize),
    #[error("node pair {}-{} is outside the trees of pair {}", .nodes.0, .nodes.1, .pair + 1)]
    NoNodes { pair: usize, nodes: (NodeId, NodeId) },
    #[error("{0}")]
    Model(String),
}

impl Comparison {
    /// Why the model did (not) link `source` and `target` in pair `pair`.
    pub fn explain(&self, pair: usize, source: NodeId, target: NodeId) -> Result<Explanation, ExplainError> {
        let a = &self.alignment;
        let (Some(p), Some(links), Some(search)) =
            (self.corpus.pairs.get(pair), a.word_links.get(pair), a.searches.get(pair))
        else {
            return Err(ExplainError::NoPair(pair));
        };
        let scorer = Scorer::new(&self.model, &a.lexicon).map_err(|e| ExplainError::Model(e.to_string()))?;
        explain::explain(&self.model, &scorer, &a.lexicon, p, links, search, source, target)
            .ok_or(ExplainError::NoNodes { pair, nodes: (source, target) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Named;

    fn pairs(n: usize) -> Corpus {
        let trees: String = (0..n).map(|k| format!("(S (N w{k}))\n")).collect();
        Corpus::from_texts(Named { name: "a.src", text: &trees }, Named { name: "a.trg", text: &trees }, None).unwrap()
    }

    #[test]
    fn the_held_out_dev_is_the_last_fifth_and_never_empties_a_side() {
        let corpus = pairs(157);
        let (train, dev) = hold_out(&corpus).unwrap();
        assert_eq!((train.len(), dev.len()), (126, 31));
        assert_eq!(train.pairs[..], corpus.pairs[..126]);
        assert_eq!(dev.pairs[..], corpus.pairs[126..]);
        let (train, dev) = hold_out(&pairs(4)).unwrap();
        assert_eq!((train.len(), dev.len()), (3, 1));
        assert!(hold_out(&pairs(1)).is_none());
        assert!(hold_out(&pairs(0)).is_none());
    }
}
