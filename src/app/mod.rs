//! The application layer: every user-level workflow of treelink, once, in
//! plain Rust over the engine. The `treelink` CLI (`src/cli/`) and the
//! page's job workers (`src/ui/pool`, `src/ui/worker.rs`) are adapters over it: they read
//! their inputs (files on disk, or files and messages from the page), call
//! one workflow with an [`Observer`](crate::progress::Observer) for its
//! progress, and show the result. So a model trained in the page is the
//! model `treelink` trains from the same data and settings.
//!
//! | workflow | here | CLI | page |
//! |---|---|---|---|
//! | tell a file's kind, read a model file, import a TigerXML pair, read lexical tables and word links of any format (and check tables against the corpus) | [`files`] | every command | the loader |
//! | import and export treebanks: TigerXML + STA, bracketed with ids, Dublin | [`interchange`] | `import`, `export` | the loader, Export |
//! | train an alignment model; on the pairs held (the page's split), with the lexical model known before it trains | [`alignment::train_model`], [`alignment::train_on_pairs`], [`alignment::lexical_model_on_pairs`] | `train` | Train |
//! | align a corpus, the baseline, explain a pair | [`alignment::align`], [`alignment::baseline`], [`alignment::explain_pair`] | `align`, `baseline` | the explanation |
//! | align pair by pair (any number of threads or workers): the lexicon aligning needs, the search, the baseline's stream | [`stream::aligning_lexicon`], [`stream::align_stream`], [`stream::align_pairs`], [`stream::baseline_stream`] | `align`, `baseline` | Train, Align (the pool's pieces) |
//! | train a translation system | [`translation::train_model`], [`translation::train_on_pairs`] | `mt-train` | Translate: Train |
//! | the annotation loop: propose, decode under edits, update, the next pair; its replay with gold as the annotator | [`annotation::search_under_edits`], [`annotation::simulate`] | `simulate-annotation` | — |
//! | the alignment experiment (Tables 3/4) | [`alignment_experiment::run_split`], [`alignment_experiment::cross_validate`] | `experiment` | — |
//! | read source trees within the limits | [`translation::read_sources`], [`translation::read_source`] | `translate` | Translate |
//! | translate a tree or a corpus | [`translation::translate`], [`translation::translate_each`], [`translation::translate_all`] | `translate` | Translate |
//! | the translation experiment (MERT runs, BLEU) | [`translation_experiment::run`] | `mt-experiment` | — |
//!
//! Nothing here knows about a terminal, a file system or a browser: inputs
//! arrive parsed, and time is measured by the caller (a workflow that times
//! its steps is given a [`Clock`]).

pub mod alignment;
pub mod alignment_experiment;
pub mod annotation;
pub mod files;
pub mod interchange;
pub mod stream;
pub mod translation;
pub mod translation_experiment;

/// The caller's clock, in seconds from any fixed origin (a terminal's
/// `Instant`, a page's `Date.now()`): the experiments time their steps
/// through it and read no clock themselves. Closures are clocks.
pub trait Clock {
    fn seconds(&self) -> f64;
}

impl<F: Fn() -> f64> Clock for F {
    fn seconds(&self) -> f64 {
        self()
    }
}
