//! The lexical side of alignment: where the lexicon and the word links
//! come from (paper §6.3 trains GIZA++ on all the sentences; we train in the
//! engine, or read Moses tables and word alignments).
//!
//! - Tables given, links given: used as they are.
//! - Tables given, no links: links from the engine's aligner under those tables.
//! - Nothing given: IBM1 + fast_align-style IBM2 both ways, symmetrised, trained
//!   on every sentence involved (never on gold links), plus an optional extra
//!   bitext. The sentences are kept so that aligning new input can re-train on
//!   them plus the input's, as GIZA++ would be run.

use crate::corpus::Corpus;
use crate::lexicon::{self, align_with, bitext_of, Lexicon, LexiconOptions, SentencePair, WordAlignment};

/// Where the lexicon comes from.
#[derive(Debug, Clone)]
pub enum LexiconSource {
    /// Moses tables (and, optionally, word links for the first corpus).
    Given { lexicon: Lexicon, links: Option<Vec<WordAlignment>> },
    /// Trained in the engine on the corpora's sentences plus `extra`.
    Train { extra: Vec<SentencePair>, options: LexiconOptions },
}

/// The lexicon, the sentences it was trained on (if in-engine) and the word
/// links of each corpus, in the order given.
#[derive(Debug, Clone)]
pub struct LexicalSetup {
    pub lexicon: Lexicon,
    pub bitext: Option<Vec<SentencePair>>,
    pub links: Vec<Vec<WordAlignment>>,
}

/// Builds the lexicon and word links for `corpora` (see the module doc).
/// `progress` gets (done, total) over the lexicon's training stages.
pub fn prepare(corpora: &[&Corpus], source: LexiconSource, progress: &mut dyn FnMut(u64, u64)) -> LexicalSetup {
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
            LexicalSetup { lexicon, bitext: None, links }
        }
        LexiconSource::Train { extra, options } => {
            let mut bitext: Vec<SentencePair> = corpora.iter().flat_map(|c| bitext_of(c)).collect();
            let n_corpus = bitext.len();
            bitext.extend(extra);
            let total = (options.ibm1_iterations + options.ibm2_iterations) as u64 * 2;
            let mut done = 0;
            let (lexicon, mut all_links) = lexicon::train_lexicon(&bitext, &options, &mut |_| {
                done += 1;
                progress(done.min(total), total);
            });
            all_links.truncate(n_corpus);
            let mut links = Vec::with_capacity(corpora.len());
            let mut rest = all_links.into_iter();
            for c in corpora {
                links.push(rest.by_ref().take(c.len()).collect());
            }
            LexicalSetup { lexicon, bitext: Some(bitext), links }
        }
    }
}

/// Re-trains an in-engine lexicon on its sentences plus `input`'s, and
/// returns it with the input's word links (so no input word is unknown).
pub fn retrain_with_input(
    bitext: &[SentencePair],
    input: &Corpus,
    options: &LexiconOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> (Lexicon, Vec<WordAlignment>) {
    let mut all: Vec<SentencePair> = bitext_of(input);
    all.extend_from_slice(bitext);
    let total = (options.ibm1_iterations + options.ibm2_iterations) as u64 * 2;
    let mut done = 0;
    let (lexicon, mut links) = lexicon::train_lexicon(&all, options, &mut |_| {
        done += 1;
        progress(done.min(total), total);
    });
    links.truncate(input.len());
    (lexicon, links)
}
