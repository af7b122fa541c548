//! Pair by pair: the work of one input pair — aligned by a model
//! ([`PairAligner`]) or by the baseline ([`baseline_stream`]) — once, for
//! every way of running it over a corpus: the CLI's streams (`treelink
//! align`, `baseline`: read, aligned a chunk at a time on `--threads`
//! threads, written in input order), a corpus held whole
//! ([`align_pairs`], under [`super::alignment::align_input`]), and the
//! page's job workers, each aligning its share of the pairs.
//!
//! **What streams.** A pair's links depend on that pair and on the lexicon
//! alone (the scorer rolls its index back before each pair), so any split
//! of the input into chunks, threads or workers gives the same bytes. The
//! lexicon is what may need the whole input first:
//!
//! | lexicon | streams? |
//! |---|---|
//! | Moses tables: the model's, or given (`--lex-s2t/--lex-t2s`, e.g. from `treelink lexicon`) | yes: each pair's word links by the tables' Viterbi alignment |
//! | the model's in-engine lexicon, input held out (`--held-out`) | yes: trained once on the model's sentences |
//! | the model's in-engine lexicon re-trained with the input's sentences (the default, as GIZA++ is run on a whole corpus) | the sentences are read first (a first pass over the input), then the trees stream |
//!
//! The baseline alike: given tables stream; its in-engine lexicon is
//! trained on the input's sentences first. Memory then holds the input's
//! sentences (words only) and the word links, not its trees or results.
//!
//! Nothing here reads a file: the caller hands the input over as an
//! iterator of pairs and takes each result in order.

use crate::align::baseline::{baseline_links, BaselineOptions};
use crate::align::explain;
use crate::align::greedy::Search;
use crate::align::lexical::{input_lexicon, InputLexicon, InputSentences, LexicalModel};
use crate::align::model::{AlignError, AlignmentModel, Scorer};
use crate::corpus::TreePair;
use crate::io::links::Link;
use crate::lexicon::{Lexicon, SentencePair, WordAlignment};
use crate::parallel::{stream_in_order, Threads};
use crate::progress::{report, Cancelled, Observer, Progress};

use std::borrow::Borrow;

/// A pair to align, with its word links when they are given (`--word-align`).
pub type InputPair = (TreePair, Option<WordAlignment>);

/// Aligns input pairs with a model under an input lexicon: what every
/// thread (or worker) shares. Each thread aligns with a scorer of its own
/// ([`PairAligner::scorer`]).
pub struct PairAligner<'a> {
    input: &'a InputLexicon,
    scorer: Scorer<'a>,
}

/// One pair aligned: the word links it was aligned with, the search, and
/// how unsure the model is of the pair (which pair an annotator does next).
#[derive(Debug, Clone, PartialEq)]
pub struct AlignedPair {
    pub word_links: WordAlignment,
    pub search: Search,
    pub uncertainty: f64,
}

impl<'a> PairAligner<'a> {
    /// An aligner for `model` under `input` (the model is checked here once).
    pub fn new(model: &'a AlignmentModel, input: &'a InputLexicon) -> Result<Self, AlignError> {
        let scorer = Scorer::new(model, &input.lexicon)?;
        Ok(PairAligner { input, scorer })
    }

    /// A scorer for one thread.
    pub fn scorer(&self) -> Scorer<'a> {
        self.scorer.clone()
    }

    /// The input lexicon (shared by the threads; the scorers are not).
    pub fn input(&self) -> &'a InputLexicon {
        self.input
    }
}

/// Aligns input pair `k` (its number in the input, from 0) with `scorer`
/// (one of [`PairAligner::scorer`]): its word links (`given`, else those of
/// the input lexicon), then the greedy search.
pub fn align_pair(
    input: &InputLexicon,
    scorer: &Scorer<'_>,
    k: usize,
    pair: &TreePair,
    given: Option<&WordAlignment>,
) -> AlignedPair {
    let word_links = match given {
        Some(links) => links.clone(),
        None => input.links(k, pair.source.words(), pair.target.words()),
    };
    let (search, decisions) = scorer.align_pair(pair, &word_links);
    AlignedPair { word_links, search, uncertainty: scorer.uncertainty(&decisions) }
}

/// The lexicon for aligning input with a model of lexical model
/// `lexical`, the one step before [`PairAligner`] wherever input is aligned
/// (a stream, a corpus held whole, a pool's piece): `tables` when given
/// (they replace the model's lexicon), else the model's ([`input_lexicon`]),
/// for which `sentences` is called only when it needs the input's sentences
/// first (`needed` says so before it is called, for the caller's note).
pub fn aligning_lexicon<E: From<Cancelled>>(
    lexical: &LexicalModel,
    tables: Option<Lexicon>,
    held_out: InputSentences,
    sentences: impl FnOnce() -> Result<Vec<SentencePair>, E>,
    observer: &mut dyn Observer,
) -> Result<InputLexicon, E> {
    if let Some(tables) = tables {
        return Ok(InputLexicon::tables(tables));
    }
    let input = if InputLexicon::needs_sentences(lexical, held_out) { sentences()? } else { Vec::new() };
    Ok(input_lexicon(lexical, &input, held_out, "lexical model for aligning", observer)?)
}

/// Whether aligning with `model` (no tables given) reads the input's
/// sentences before its trees stream (module documentation).
pub fn align_reads_sentences_first(model: &AlignmentModel, tables_given: bool, held_out: InputSentences) -> bool {
    !tables_given && InputLexicon::needs_sentences(&model.lexicon, held_out)
}

/// Aligns the pairs of `input` as they come, a chunk at a time on
/// `threads` threads, handing each pair's links and their posteriors
/// ([`explain::predicted_posteriors`]) to `write` in input order
/// (reported as stage "aligning", total unknown). Returns the number of pairs.
pub fn align_stream<E: From<Cancelled>>(
    aligner: &PairAligner<'_>,
    input: impl IntoIterator<Item = Result<InputPair, E>>,
    threads: Threads,
    observer: &mut dyn Observer,
    mut write: impl FnMut(usize, Vec<Link>, Vec<f64>) -> Result<(), E>,
) -> Result<usize, E> {
    let lexicon = aligner.input();
    stream_in_order(
        input,
        threads,
        || aligner.scorer(),
        |scorer, k, (pair, given)| {
            let search = align_pair(lexicon, scorer, k, pair, given.as_ref()).search;
            (explain::predicted_links(&search), explain::predicted_posteriors(&search))
        },
        |k, (links, posteriors)| {
            write(k, links, posteriors)?;
            Ok(report(observer, Progress::new("aligning", k as u64 + 1, 0))?)
        },
    )
}

/// Aligns `pairs` held in memory, input pairs `first..` (of the input the
/// lexicon was made for), on `threads` threads, with `given` word links
/// (of these pairs) replacing the lexicon's: the word links and the search
/// of each pair, in order (reported as stage "aligning", of the pairs' number).
pub fn align_pairs(
    aligner: &PairAligner<'_>,
    pairs: &[TreePair],
    first: usize,
    given: Option<&[WordAlignment]>,
    threads: Threads,
    observer: &mut dyn Observer,
) -> Result<Vec<AlignedPair>, Cancelled> {
    let total = pairs.len() as u64;
    let mut out = Vec::with_capacity(pairs.len());
    let items = pairs.iter().enumerate().map(|(k, p)| Ok((p, given.map(|g| g.get(k).cloned().unwrap_or_default()))));
    let lexicon = aligner.input();
    stream_in_order(
        items,
        threads,
        || aligner.scorer(),
        |scorer, k, (pair, given)| align_pair(lexicon, scorer, first + k, pair, given.as_ref()),
        |k, aligned| {
            out.push(aligned);
            report(observer, Progress::new("aligning", k as u64 + 1, total))
        },
    )?;
    Ok(out)
}

/// The baseline's links of each pair of `input` as they come, on `threads`
/// threads, handed to `write` in input order (stage "baseline (Tinsley et
/// al.)"; `total` the number of pairs if known, else 0). Returns the number of pairs.
pub fn baseline_stream<T: Borrow<TreePair> + Sync, E: From<Cancelled>>(
    lexicon: &Lexicon,
    options: &BaselineOptions,
    input: impl IntoIterator<Item = Result<T, E>>,
    total: u64,
    threads: Threads,
    observer: &mut dyn Observer,
    mut write: impl FnMut(usize, Vec<Link>) -> Result<(), E>,
) -> Result<usize, E> {
    stream_in_order(
        input,
        threads,
        || (),
        |_, _, pair| baseline_links(lexicon, pair.borrow(), options),
        |k, links| {
            write(k, links)?;
            Ok(report(observer, Progress::new("baseline (Tinsley et al.)", k as u64 + 1, total))?)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::lexical::InputLinks;
    use crate::align::model::TrainOptions;
    use crate::app::alignment::{align_input, lexicon_source, train_model};
    use crate::corpus::Corpus;
    use crate::lexicon::{bitext_of, WordModel};
    use crate::progress::Quiet;

    /// A pair's links do not depend on the pairs aligned before it, nor on
    /// the threads: one pair alone, the corpus in chunks on 1 and 3 threads,
    /// and the corpus as `align_input` aligns it held whole, all agree.
    #[test]
    fn links_are_the_same_alone_in_a_stream_and_on_any_number_of_threads() {
        let corpus = crate::corpus::sample(..);
        let (train, input) =
            (Corpus { pairs: corpus.pairs[..60].to_vec() }, Corpus { pairs: corpus.pairs[60..].to_vec() });
        let options = TrainOptions {
            spec: "plain+ibtk-sst+dbtk-rgsst".parse().unwrap(),
            max_examples: 400,
            ..TrainOptions::default()
        };
        let source = lexicon_source(None, None, Vec::new(), WordModel::FastAlign);
        let model = train_model(&train, None, source, &[options], &mut Quiet).unwrap();
        let bitext = bitext_of(&input);
        let lexicon = input_lexicon(&model.lexicon, &bitext, InputSentences::Train, "x", &mut Quiet).unwrap();
        assert!(matches!(lexicon.links, InputLinks::Trained(_)), "transductive: links from training");
        let aligner = PairAligner::new(&model, &lexicon).unwrap();
        let held = align_input(&model, &input, None, InputSentences::Train, &mut Quiet).unwrap();
        let mut streams = Vec::new();
        for threads in [1, 3] {
            let mut links = Vec::new();
            let pairs = input.pairs.iter().map(|p| Ok::<_, Cancelled>((p.clone(), None)));
            let n = align_stream(&aligner, pairs, Threads::new(threads), &mut Quiet, |k, l, posteriors| {
                assert_eq!(k, links.len());
                // One posterior per link, each the score its step took it with.
                assert_eq!(posteriors, explain::predicted_posteriors(&held.searches[k]));
                assert_eq!(posteriors.len(), l.len());
                assert!(posteriors.iter().all(|p| (0.0..=1.0).contains(p)), "{posteriors:?}");
                links.push(l);
                Ok(())
            })
            .unwrap();
            assert_eq!(n, input.len());
            streams.push(links);
        }
        assert_eq!(streams[0], streams[1], "1 and 3 threads");
        assert_eq!(streams[0], held.links(), "a stream and the corpus held whole");
        assert!(streams[0].iter().map(Vec::len).sum::<usize>() > 200);
        // Pairs alone, each with a fresh scorer, in reverse order.
        for k in (0..input.len()).rev().step_by(9) {
            let aligned = align_pair(&lexicon, &aligner.scorer(), k, &input.pairs[k], None);
            assert_eq!(explain::predicted_links(&aligned.search), streams[0][k], "pair {k}");
            assert_eq!(aligned.search, held.searches[k]);
        }
    }
}
