//! The sub-tree alignment commands: train, align, baseline, eval, experiment.

use std::time::Instant;

use clap::Args;

use super::output;
use super::progress::{notes, Reporter};
use super::stream::{self, ThreadsArg};
use super::{read, CliError};
use treelink::align::baseline::{BaselineOptions, Heuristics, NullWord, ScoreFunction, UnaryChains};
use treelink::align::candidates::CandidateNodes;
use treelink::align::composite::KernelSpec;
use treelink::align::explain;
use treelink::align::lexical::{GivenLinks, InputSentences, LexicalModel, LexiconSource};
use treelink::align::link_search::LinkSearch;
use treelink::align::model::{
    self, read_max_examples, read_negative_ratio, read_positive, AlignmentModel, DecisionThreshold, TrainOptions,
};
use treelink::align::primal::Solver;
use treelink::app::alignment::{self, Preset};
use treelink::app::alignment_experiment::{self, RowChoice, Settings};
use treelink::app::annotation;
use treelink::app::files::{self, TableSide};
use treelink::app::stream as app_stream;
use treelink::corpus::{Corpus, Named};
use treelink::eval::errors::ErrorTable;
use treelink::eval::prf::Counts;
use treelink::eval::significance::{DEFAULT_SAMPLES, DEFAULT_SEED};
use treelink::io::links::{format_link_line, write_posteriors, Link};
use treelink::lexicon::{self, Lexicon, SentencePair, WordAlignment, WordModel};
use treelink::limits::Limits;
use treelink::one_of;
use treelink::parallel::{self, Threads};

/// Lexical tables and word links shared by the commands.
#[derive(Args, Debug, Clone, Default)]
pub struct LexArgs {
    /// Moses lexical table p(target|source): lines `target source p`. Needs --lex-t2s.
    #[arg(long, value_name = "F", requires = "lex_t2s")]
    pub lex_s2t: Option<String>,
    /// Moses lexical table p(source|target): lines `source target p`. Needs --lex-s2t.
    #[arg(long, value_name = "F", requires = "lex_s2t")]
    pub lex_t2s: Option<String>,
    /// The two GIZA++ vocabularies of tables of word ids (GIZA++ t-tables, `3 17 0.25` lines)
    /// given as --lex-s2t/--lex-t2s, in either order: the source's is the one whose words cover
    /// more of the corpus's source tokens (as the page tells them apart; refused when the words
    /// cannot tell). Each table is checked against the corpus: a warning when it covers less
    /// than half of its side's words or looks given the wrong way round.
    #[arg(long, num_args = 2, value_names = ["A.vcb", "B.vcb"])]
    pub vcb: Option<Vec<String>>,
    /// Extra plain bitext for the in-engine lexicon: SRC and TRG files, one tokenised sentence per line.
    #[arg(long, num_args = 2, value_names = ["SRC", "TRG"])]
    pub bitext: Option<Vec<String>>,
    /// The in-engine lexicon's word-alignment model: fast-align (IBM1, then fast_align's IBM2) or
    /// hmm (those, then the HMM of Vogel et al. 1996 from IBM2's table). Default: fast-align;
    /// `train --dev` without --kernel (--preset best) trains its kept configuration with each
    /// and keeps the better on dev. `align` re-trains with the model file's choice.
    #[arg(long, value_name = "MODEL")]
    pub word_model: Option<WordModel>,
    /// Beyond the paper: a word the in-engine lexicon never saw (in held-out sentences) is looked
    /// up by its stem, its first N characters lowercased, in tables trained on the stemmed
    /// sentences; two identical words (names, numbers) get 0.5. Off by default; `align` re-trains
    /// with the model file's choice.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub stem_backoff: Option<u16>,
}

/// `treelink train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training treebank: PREFIX.src, PREFIX.trg, PREFIX.gold.
    #[arg(long, value_name = "PREFIX")]
    pub train: String,
    /// Development treebank (tunes pruning, picks the kernel, fits --platt).
    #[arg(long, value_name = "PREFIX")]
    pub dev: Option<String>,
    /// Composite kernel, e.g. plain+dbtk-root+ibtk-rgsst, lex, lex+str, plain+ibtk-sst.
    /// Default: the best on --dev of --preset's configurations (without --dev:
    /// plain+dbtk-root+ibtk-rgsst).
    #[arg(long, value_name = "SPEC")]
    pub kernel: Option<KernelSpec>,
    /// Without --kernel, what --dev chooses among. best: the paper's kernels (plain,
    /// plain+ibtk-rgsst, plain+dbtk-root+ibtk-rgsst, plain+dbtk-root+ibtk-rdsst; SMO) and
    /// plain+ctx+unk+orth+chain+node+dbtk-root by the linear solver on every training candidate with C (1, 5)
    /// and the cost factor (2, 8) chosen on dev; each with the link search chosen on dev; the
    /// in-engine lexicon with --stem-backoff 4 (unless given). The best on dev is trained again
    /// with the HMM lexicon (unless --word-model is given) and the better lexicon on dev kept;
    /// its threshold on D is calibrated on 5-fold cross-validation over train pooled with dev
    /// (--threshold-folds). paper: the paper's (Tables 3/4): its kernels by SMO, C 2.4, greedy
    /// search, D > 0.
    #[arg(long, default_value = "best", value_parser = parse_preset)]
    pub preset: Preset,
    /// Word alignment of the training pairs (`i-j` per line, source-target), or GIZA++'s two
    /// A3.final files (either order; symmetrised with grow-diag-final-and).
    #[arg(long, value_name = "F", num_args = 1..=2)]
    pub word_align: Option<Vec<String>>,
    /// Do not read the sets' own word links: PREFIX.words (the STA's word links, written by
    /// `import tiger`) of --train and --dev are read when there, unless --word-align is given.
    #[arg(long)]
    pub no_words: bool,
    #[command(flatten)]
    pub lex: LexArgs,
    #[command(flatten)]
    pub svm: SvmArgs,
    /// The default, kept for scripts that give it: every model is trained for held-out input.
    #[arg(long, hide = true)]
    pub held_out: bool,
    /// Output model file (JSON).
    #[arg(short = 'o', long = "output", value_name = "MODEL")]
    pub output: String,
    /// Threads for the candidates' features and the dev pairs' alignment (default: every core);
    /// the model is the same with any number.
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// Settings of the classifier.
#[derive(Args, Debug, Clone)]
pub struct SvmArgs {
    /// Weights θ of the kernel's components, comma-separated (plain first); normalised to sum 1.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub theta: Option<Vec<f64>>,
    /// Decay λ of the tree kernels.
    #[arg(long, default_value_t = TrainOptions::default().spec.lambda, value_parser = |t: &str| read_positive(t, "a decay λ"))]
    pub lambda: f64,
    /// SVM cost C.
    #[arg(long, default_value_t = TrainOptions::default().c, value_parser = |t: &str| read_positive(t, "a cost C"))]
    pub c: f64,
    /// C+/C− (default: negatives/positives among the examples, between 1 and 4).
    #[arg(long, value_name = "J", value_parser = |t: &str| read_positive(t, "a cost factor C+/C−"))]
    pub cost_factor: Option<f64>,
    /// Candidate nodes: phrase (phrase nodes only) or all.
    #[arg(long, default_value = "phrase", value_parser = parse_candidates)]
    pub candidates: CandidateNodes,
    /// Pruning keeps all but this fraction of the positives on each pruning feature.
    /// Default: with --dev, the best on dev of 0, 0.005 and 0.02; without, 0.005.
    #[arg(long, value_name = "Q")]
    pub prune_quantile: Option<f64>,
    /// Negatives kept per positive at most (seeded sample; inf: all).
    #[arg(long, default_value_t = TrainOptions::default().max_negative_ratio, value_parser = read_negative_ratio)]
    pub max_negative_ratio: f64,
    /// Training examples at most (seeded sample: every positive while they fit, negatives fill the
    /// rest), or all.
    /// Default: 6000 with --solver smo, all with --solver linear.
    #[arg(long, value_name = "N", value_parser = read_max_examples)]
    pub max_examples: Option<usize>,
    /// The SVM solver: smo (any kernel), or linear (dual coordinate descent on the explicit
    /// feature map, for kernels whose BTKs are all root: lex, plain, ctx, hist, *-root).
    #[arg(long, default_value = "smo")]
    pub solver: Solver,
    /// Negatives per positive tried on --dev after the cost factor (comma-separated, inf: all);
    /// kept if dev F improves.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub tune_negative_ratio: Vec<f64>,
    /// Seed of the samples.
    #[arg(long, default_value_t = TrainOptions::default().seed)]
    pub seed: u64,
    /// Fit Platt's sigmoid on --dev instead of the paper's 1/(1+e^-D).
    #[arg(long)]
    pub platt: bool,
    /// Link only candidates whose decision value D exceeds this: a number (the paper: 0), or auto:
    /// with --dev, the threshold that maximises F on dev; without, 0. Default: auto (with
    /// `train --preset paper`: 0).
    #[arg(long, value_parser = parse_threshold)]
    pub threshold: Option<DecisionThreshold>,
    /// Which candidates above the threshold become links: greedy (the paper's, well-formed),
    /// greedy-final (then a final step for nodes left unlinked), src2trg (each source node's best
    /// target), assignment (the best one-to-one links, made well-formed); Lingua-Align's searches.
    /// Default: greedy (`train --dev`'s default preset: chosen on dev).
    #[arg(long)]
    pub search: Option<LinkSearch>,
    /// C values tried on --dev after the pruning quantile (comma-separated); kept if dev F improves.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub tune_c: Vec<f64>,
    /// Cost factors C+/C- tried on --dev after C (comma-separated); kept if dev F improves.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub tune_cost_factor: Vec<f64>,
    /// Beyond the paper: `train --dev` with the threshold calibrated (auto) sets the kept model's
    /// threshold on the out-of-fold decisions of K-fold cross-validation over the training pairs
    /// pooled with dev's, not on dev alone (for input from another source than dev; K ≥ 2, 0: dev
    /// alone). Default: 5 with --preset best and no --kernel, else 0.
    #[arg(long, value_name = "K", value_parser = parse_threshold_folds)]
    pub threshold_folds: Option<u16>,
}

fn parse_threshold_folds(s: &str) -> Result<u16, String> {
    match s.parse::<u16>() {
        Ok(k) if k != 1 => Ok(k),
        _ => Err(format!("expected 0 (dev alone) or a number of folds from 2, found '{s}'")),
    }
}

fn parse_threshold(s: &str) -> Result<DecisionThreshold, String> {
    match s {
        "auto" => Ok(DecisionThreshold::Calibrated),
        _ => s
            .parse::<f64>()
            .ok()
            .filter(|t| t.is_finite())
            .map(DecisionThreshold::Fixed)
            .ok_or_else(|| format!("expected auto or a number, found '{s}'")),
    }
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    one_of(s, &[("best", Preset::Best), ("paper", Preset::Paper)])
}

fn parse_candidates(s: &str) -> Result<CandidateNodes, String> {
    one_of(s, &[("phrase", CandidateNodes::Phrase), ("all", CandidateNodes::All)])
}

impl SvmArgs {
    /// The training options for kernel `spec`, its λ and θ the arguments'.
    fn options(&self, spec: &KernelSpec, limits: &Limits) -> Result<TrainOptions, CliError> {
        let options = TrainOptions {
            spec: KernelSpec { lambda: self.lambda, ..spec.clone() },
            c: self.c,
            cost_factor: self.cost_factor,
            candidates: self.candidates,
            prune_quantile: self.prune_quantile.unwrap_or(TrainOptions::default().prune_quantile),
            tune_prune_quantiles: match self.prune_quantile {
                Some(_) => Vec::new(),
                None => TrainOptions::default().tune_prune_quantiles,
            },
            max_negative_ratio: self.max_negative_ratio,
            max_examples: self.max_examples.unwrap_or(self.solver.default_max_examples()),
            solver: self.solver,
            tune_negative_ratio: self.tune_negative_ratio.clone(),
            seed: self.seed,
            platt: self.platt,
            max_train_candidates: limits.max_train_candidates,
            threshold: self.threshold.unwrap_or(DecisionThreshold::Calibrated),
            search: self.search.unwrap_or_default(),
            tune_search: self.search.into_iter().collect(),
            tune_c: self.tune_c.clone(),
            tune_cost_factor: self.tune_cost_factor.clone(),
            ..TrainOptions::default()
        };
        Ok(alignment::for_kernel(&options, spec, self.theta.as_deref())?)
    }
}

/// `treelink simulate-annotation`.
#[derive(Args, Debug)]
pub struct SimulateAnnotationArgs {
    /// Training treebank of the first model: PREFIX.src, PREFIX.trg, PREFIX.gold.
    #[arg(long, value_name = "PREFIX")]
    pub train: String,
    /// Development treebank the first model is chosen on, as `train --dev`.
    #[arg(long, value_name = "PREFIX")]
    pub dev: Option<String>,
    /// The treebank to annotate, its gold links the simulated annotator's: PREFIX.src,
    /// PREFIX.trg, PREFIX.gold.
    #[arg(long, value_name = "PREFIX")]
    pub pool: String,
    /// Pairs annotated between two updates of the model.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch: u32,
    /// Which pair next: uncertainty (the one the current model is least sure of: the most
    /// candidates with a posterior near the threshold's, for its number of candidates) or file.
    #[arg(long, default_value = "uncertainty")]
    pub order: annotation::Order,
    /// Never update the model: the first one proposes every pair.
    #[arg(long)]
    pub no_update: bool,
    /// Do not decode again after an edit: every wrong link of a pair's first proposal is
    /// removed and every missed one added, one by one.
    #[arg(long)]
    pub no_propagate: bool,
    /// The first model's kernel, as `train --kernel`.
    #[arg(long, value_name = "SPEC")]
    pub kernel: Option<KernelSpec>,
    /// As `train --preset`.
    #[arg(long, default_value = "best", value_parser = parse_preset)]
    pub preset: Preset,
    #[command(flatten)]
    pub lex: LexArgs,
    #[command(flatten)]
    pub svm: SvmArgs,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `treelink align`.
#[derive(Args, Debug)]
pub struct AlignArgs {
    /// Model file from `treelink train`.
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// Treebank to align: PREFIX.src and PREFIX.trg.
    #[arg(long, value_name = "PREFIX")]
    pub input: String,
    /// Word alignment of the input pairs (default: the engine's aligner): `i-j` lines, or
    /// GIZA++'s two A3.final files (either order; symmetrised with grow-diag-final-and).
    #[arg(long, value_name = "F", num_args = 1..=2)]
    pub word_align: Option<Vec<String>>,
    /// Do not read the input's own word links, PREFIX.words (the STA's word links, written by
    /// `import tiger`; read when there, with --held-out too, unless --word-align is given).
    #[arg(long)]
    pub no_words: bool,
    /// The input is a held-out test set: its sentences do not join the in-engine lexicon's
    /// training (by default they do, as GIZA++ is run on a whole corpus); its word links come
    /// from the lexicon as trained. For scores that no test sentence has shaped.
    #[arg(long)]
    pub held_out: bool,
    /// Moses lexical table p(target|source) to align with instead of the model's lexicon (e.g.
    /// from `treelink lexicon` on the model's and the input's sentences): the input then streams.
    /// Needs --lex-t2s.
    #[arg(long, value_name = "F", requires = "lex_t2s")]
    pub lex_s2t: Option<String>,
    /// Moses lexical table p(source|target), with --lex-s2t.
    #[arg(long, value_name = "F", requires = "lex_s2t")]
    pub lex_t2s: Option<String>,
    /// Also write each link's posterior to FILE: a line per pair, one probability per link of
    /// the pair's line of links, in its order (what `export sta/tiger --posteriors` writes as prob).
    #[arg(long, value_name = "FILE")]
    pub posteriors: Option<String>,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `treelink baseline`.
#[derive(Args, Debug)]
pub struct BaselineArgs {
    /// Treebank to align: PREFIX.src and PREFIX.trg.
    #[arg(long, value_name = "PREFIX")]
    pub input: String,
    /// Score function of Tinsley et al. (2007): s1 or s2.
    #[arg(long, default_value = "s1")]
    pub score: ScoreFunction,
    /// Heuristics, comma-separated: skip1, skip2, span1 (empty for none).
    #[arg(long, default_value = "skip2,span1")]
    pub heuristics: Heuristics,
    /// The empty word in the scores: both (sides, as the original aligner), generating (y side only),
    /// or off (the formula as printed).
    #[arg(long, default_value = "both", value_parser = parse_null)]
    pub null: NullWord,
    /// Unary chains: merged into one candidate (as the original aligner) or separate.
    #[arg(long, default_value = "merged", value_parser = parse_unary)]
    pub unary: UnaryChains,
    #[command(flatten)]
    pub lex: LexArgs,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `treelink lexicon`.
#[derive(Args, Debug)]
pub struct LexiconArgs {
    /// Plain bitext: SRC and TRG files, one tokenised sentence per line.
    #[arg(long, num_args = 2, value_names = ["SRC", "TRG"], required_unless_present = "input")]
    pub bitext: Option<Vec<String>>,
    /// Treebanks whose sentences (the trees' words) join the bitext: PREFIX.src and PREFIX.trg
    /// (repeatable; e.g. the training treebank and the corpus to align).
    #[arg(long, value_name = "PREFIX")]
    pub input: Vec<String>,
    /// The word-alignment model: fast-align (IBM1, then fast_align's IBM2) or hmm (those, then
    /// the HMM of Vogel et al. 1996).
    #[arg(long, value_name = "MODEL", default_value = "fast-align")]
    pub word_model: WordModel,
    /// Output prefix: writes PREFIX.s2t and PREFIX.t2s.
    #[arg(short = 'o', long = "output", value_name = "PREFIX")]
    pub output: String,
}

fn parse_null(s: &str) -> Result<NullWord, String> {
    one_of(s, &[("both", NullWord::Both), ("generating", NullWord::Generating), ("off", NullWord::Off)])
}

fn parse_unary(s: &str) -> Result<UnaryChains, String> {
    one_of(s, &[("merged", UnaryChains::Merged), ("separate", UnaryChains::Separate)])
}

/// `treelink eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Gold treebank: PREFIX.src, PREFIX.trg, PREFIX.gold.
    #[arg(long, value_name = "PREFIX")]
    pub input: String,
    /// Predicted links, one line per pair.
    #[arg(long, value_name = "PRED")]
    pub pred: String,
    /// Also print the wrong and missed links by kind (unary chain: same words, other node; both
    /// nodes unlinked; a node linked elsewhere), by label pair and by span length, with examples.
    #[arg(long)]
    pub errors: bool,
    /// Examples per kind with --errors.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub examples: usize,
    /// A second system's predicted links on the same pairs: prints its scores and the paired
    /// bootstrap p-value of the F difference (1000 resamples of the pairs).
    #[arg(long, value_name = "PRED")]
    pub against: Option<String>,
    /// Label pairs listed with --errors (most errors first).
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub label_pairs: usize,
}

/// `treelink experiment`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// Training treebank (with gold).
    #[arg(long, value_name = "PREFIX", required_unless_present = "data")]
    pub train: Option<String>,
    /// Development treebank (with gold): tunes pruning and picks the best combination.
    #[arg(long, value_name = "PREFIX", required_unless_present = "data")]
    pub dev: Option<String>,
    /// Test treebank (with gold): the reported scores.
    #[arg(long, value_name = "PREFIX", required_unless_present = "data")]
    pub test: Option<String>,
    /// Instead of train/dev/test: one treebank evaluated by K-fold cross-validation
    /// (--folds); in each fold the next fold is the dev set.
    #[arg(long, value_name = "PREFIX", conflicts_with_all = ["train", "dev", "test"])]
    pub data: Option<String>,
    /// Number of folds with --data.
    #[arg(long, default_value_t = 5)]
    pub folds: usize,
    /// Rows to run (comma-separated): paper (Tables 3/4), calibrated (the threshold on D chosen on
    /// dev), ctx (+ context features), unk (+ the shares of words unknown to the lexicon, for
    /// held-out sentences), data (the ctx row's kernel without its fragment BTKs, on all the
    /// training data by --solver linear, the negative share tuned on dev), hist (+ second pass),
    /// default (`train --dev`'s default selection, --preset best, with the lexicon given here);
    /// beyond = calibrated,ctx,hist; all = paper,beyond. The rows beyond the paper add up,
    /// on the paper rows' best combination (or --kernel) at its pruning quantile. The baseline
    /// always runs.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "all",
          value_parser = ["paper", "calibrated", "ctx", "unk", "data", "hist", "default", "beyond", "all"])]
    pub rows: Vec<String>,
    /// The `data` row's sizes (comma-separated): at most this many examples each (every positive
    /// while they fit), or all; one row per size.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "all", value_parser = read_max_examples)]
    pub data_sizes: Vec<usize>,
    /// Without the paper rows: the combination the other rows build on (default plain+dbtk-root+ibtk-rgsst).
    #[arg(long, value_name = "SPEC")]
    pub kernel: Option<KernelSpec>,
    /// Train the in-engine lexicon on the dev and test sentences too (never their gold links), as
    /// the paper runs GIZA++ on its whole corpus. By default the test sentences stay out of every
    /// model: the lexicon is trained on train only, dev and test are held out alike (their word
    /// links from it), and each training pair is featurised by a lexicon trained without it (as
    /// `train` does).
    #[arg(long)]
    pub transductive_lexicon: bool,
    #[command(flatten)]
    pub lex: LexArgs,
    #[command(flatten)]
    pub svm: SvmArgs,
    /// Rows (or folds, with --data) trained side by side, one per thread (default: every core);
    /// the scores are the same with any number, the times are each row's wall time.
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// A treebank to align or train on: every tree within the limits.
fn corpus(prefix: &str, gold: bool, limits: &Limits) -> Result<Corpus, CliError> {
    Ok(Corpus::read_prefix_within(prefix, gold, limits)?)
}

/// The word links `--word-align` gives (one file of `i-j` lines, or GIZA++'s A3.final files).
pub fn word_links(files: &[String], c: &Corpus) -> Result<Vec<WordAlignment>, CliError> {
    let texts = files.iter().map(|f| read(f)).collect::<Result<Vec<_>, _>>()?;
    let named: Vec<Named<'_>> = files.iter().zip(&texts).map(|(name, text)| Named { name, text }).collect();
    let read = files::read_word_links(&named, c)?;
    notes(&read.notes);
    Ok(read.links)
}

/// A set's own word links, `PREFIX.words`, if [`files::set_word_links`]'s
/// rule reads them (`given`: --word-align; `off`: --no-words); what it
/// decided on stderr.
fn own_word_links(prefix: &str, given: bool, off: bool) -> Option<String> {
    let (file, note) = files::set_word_links(prefix, given, off, |f| std::path::Path::new(f).exists());
    notes(note);
    file
}

/// The lexical tables the arguments give, if both are given, each checked
/// against `corpus`'s words (a warning on stderr when it covers few of
/// them or looks given the wrong way round, as the page warns).
/// With two `threads` or more, the two tables are read at once, one a
/// thread: on a corpus that streams, reading them is most of what a run
/// does alone before its pairs divide among the threads.
fn tables(lex: &LexArgs, corpus: &Corpus, threads: Threads) -> Result<Option<Lexicon>, CliError> {
    let Some((s2t, t2s)) = alignment::both_tables(lex.lex_s2t.as_deref(), lex.lex_t2s.as_deref()) else {
        return Ok(None);
    };
    // Told apart by the corpus's words, as the page tells them apart: the
    // order given does not decide.
    let vocabs = match &lex.vcb {
        Some(v) => {
            let (a, b) = (read(&v[0])?, read(&v[1])?);
            let files = [Named { name: &v[0], text: &a }, Named { name: &v[1], text: &b }];
            let vocabs = files::giza_vocabularies(files, corpus.side_words(true), corpus.side_words(false))?;
            eprintln!("treelink: {}", vocabs.summary);
            Some(vocabs)
        }
        None => None,
    };
    let vocabs = vocabs.as_ref().map(files::GizaVocabularies::pair);
    let read_table = |name: &str, side| -> Result<_, CliError> {
        Ok(files::read_lex_table(Named { name, text: &read(name)? }, vocabs, side)?)
    };
    let (s2t_table, t2s_table) =
        parallel::join(threads, || read_table(s2t, TableSide::S2t), || read_table(t2s, TableSide::T2s));
    let (s2t_table, t2s_table) = (s2t_table?, t2s_table?);
    for (table, name, side) in [(&s2t_table, s2t, TableSide::S2t), (&t2s_table, t2s, TableSide::T2s)] {
        if let Some(warning) =
            files::check_table(table, name, side, corpus.side_words(true), corpus.side_words(false)).warning
        {
            eprintln!("treelink: warning: {warning}");
        }
    }
    Ok(Some(Lexicon::new(s2t_table, t2s_table)))
}

/// The extra bitext for the in-engine lexicon (read only when no tables are given).
fn extra_bitext(lex: &LexArgs) -> Result<Vec<SentencePair>, CliError> {
    match (&lex.bitext, &lex.lex_s2t) {
        (Some(files), None) => Ok(lexicon::read_bitext(&read(&files[0])?, &files[0], &read(&files[1])?, &files[1])?),
        _ => Ok(Vec::new()),
    }
}

/// The lexicon source the arguments ask for (tables checked against `corpus`).
fn lexicon_source(
    lex: &LexArgs,
    links: Option<Vec<WordAlignment>>,
    corpus: &Corpus,
    threads: Threads,
) -> Result<LexiconSource, CliError> {
    Ok(alignment::lexicon_source(
        tables(lex, corpus, threads)?,
        links,
        extra_bitext(lex)?,
        lex.word_model.unwrap_or_default(),
    )
    .with_stem_backoff(lex.stem_backoff.map(usize::from)))
}

/// What `treelink train` trains with: the configurations of its plan
/// ([`alignment::training_plan`]) and the lexicon's source, from the
/// training arguments (`simulate-annotation` trains its first model so).
struct Training<'a> {
    kernel: Option<KernelSpec>,
    preset: Preset,
    lex: &'a LexArgs,
    svm: &'a SvmArgs,
    threads: Threads,
}

impl Training<'_> {
    fn plan(
        &self,
        train: &Corpus,
        links: GivenLinks,
        with_dev: bool,
        limits: &Limits,
    ) -> Result<(Vec<TrainOptions>, LexiconSource), CliError> {
        model::check_train_candidates(train, &self.svm.options(&KernelSpec::paper_best(), limits)?)?;
        let mut base = self.svm.options(&self.kernel.clone().unwrap_or_else(KernelSpec::paper_best), limits)?;
        base.threads = self.threads;
        let given = alignment::Given {
            thetas: self.svm.theta.as_deref(),
            stem_backoff: self.lex.stem_backoff.map(usize::from),
            threshold: self.svm.threshold.is_some(),
            threshold_folds: self.svm.threshold_folds.map(usize::from),
            word_model: self.lex.word_model.is_some(),
        };
        let plan = alignment::training_plan(base, self.kernel.clone(), with_dev, self.preset, given)?;
        let source = lexicon_source(self.lex, None, train, self.threads)?
            .with_given_links(links)
            .with_stem_backoff(plan.stem_backoff);
        Ok((plan.options, source))
    }
}

pub fn train(args: TrainArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let train = corpus(&args.train, true, limits)?;
    let dev = args.dev.as_deref().map(|d| corpus(d, true, limits)).transpose()?;
    let threads = args.threads.get();
    let training =
        Training { kernel: args.kernel.clone(), preset: args.preset, lex: &args.lex, svm: &args.svm, threads };
    let own = |prefix: &str, c: &Corpus| {
        let file = own_word_links(prefix, args.word_align.is_some(), args.no_words);
        file.map(|f| word_links(&[f], c)).transpose()
    };
    let own_train = own(&args.train, &train)?;
    let given = args.word_align.as_deref().map(|f| word_links(f, &train)).transpose()?;
    let train_links = given.or(own_train);
    let dev_links = args.dev.as_deref().zip(dev.as_ref()).map(|(prefix, dev)| own(prefix, dev)).transpose()?.flatten();
    let links = vec![train_links, dev_links];
    let started = Instant::now();
    let (options, source) = training.plan(&train, links, dev.is_some(), limits)?;
    let (kept, _) = alignment::train_model_kept(&train, dev.as_ref(), source, &options, &mut reporter)?;
    let (model, tried) = (kept.model, kept.tried);
    output::write_file(&args.output, model.to_json())?;
    reporter.note(&format!("wrote {}: {}", args.output, model.describe()));
    // With dev, every training it scored (the kept one again with another word model included).
    let trained = tried.len().max(options.len());
    reporter.note(&format!("{trained} configuration(s) tried in {:.1} s", started.elapsed().as_secs_f64()));
    Ok(())
}

/// `treelink simulate-annotation`: the first model trained as `train`
/// would, then the annotation of the pool replayed with its gold as the
/// annotator ([`annotation::simulate`]); a line per batch, then the totals.
pub fn simulate_annotation(args: SimulateAnnotationArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let train = corpus(&args.train, true, limits)?;
    let dev = args.dev.as_deref().map(|d| corpus(d, true, limits)).transpose()?;
    let pool = corpus(&args.pool, true, limits)?;
    let threads = args.threads.get();
    let training =
        Training { kernel: args.kernel.clone(), preset: args.preset, lex: &args.lex, svm: &args.svm, threads };
    let (options, source) = training.plan(&train, Vec::new(), dev.is_some(), limits)?;
    let (kept, setup) = alignment::train_model_kept(&train, dev.as_ref(), source, &options, &mut reporter)?;
    reporter.note(&format!("first model: {}", kept.model.describe()));
    let first = annotation::FirstModel::new(&kept.model, &kept.options, &setup);
    let simulation_options = annotation::SimulationOptions {
        batch: args.batch as usize,
        order: args.order,
        update: !args.no_update,
        propagate: !args.no_propagate,
        threads,
    };
    let started = Instant::now();
    let clock = || started.elapsed().as_secs_f64();
    let mut lines = Ok(());
    let simulation = annotation::simulate(&train, &pool, first, simulation_options, &clock, &mut reporter, |b| {
        let update = b.update_seconds.map_or("-".to_string(), |s| format!("{s:.1} s"));
        let share = if b.gold == 0 { 0.0 } else { 100.0 * b.edits as f64 / b.gold as f64 };
        if lines.is_ok() {
            lines =
                out!("pairs {}  edits {}  gold {}  edits/gold {share:.1}%  update {update}", b.pairs, b.edits, b.gold);
        }
    })?;
    lines?;
    out!("{simulation}")?;
    Ok(())
}

/// Reads an alignment model file.
pub fn read_model(file: &str) -> Result<AlignmentModel, CliError> {
    Ok(treelink::app::files::read_alignment_model(&read(file)?, file)?)
}

/// The sentences (words) of every pair of a treebank, read pair by pair.
fn sentences(pairs: stream::Pairs) -> Result<Vec<SentencePair>, CliError> {
    pairs.map(|p| p.map(|(p, _)| (p.source.words().to_vec(), p.target.words().to_vec()))).collect()
}

/// Writes a line of links per pair to stdout as they come (see [`stream`]),
/// after the input has been checked whole ([`output::Lines`]).
struct LinkWriter(output::Lines);

impl LinkWriter {
    fn new(pairs: usize) -> Self {
        LinkWriter(output::Lines::new(Some(pairs), "lines of links"))
    }

    fn write(&mut self, links: &[Link]) -> Result<(), CliError> {
        self.0.line(format_args!("{}", format_link_line(links)))
    }

    /// Flushes what was written, then hands on the stream's result.
    fn finish(self, result: Result<usize, CliError>) -> Result<(), CliError> {
        self.0.finish(result).map(drop)
    }
}

pub fn align(args: AlignArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let model = read_model(&args.model)?;
    let held_out = if args.held_out { InputSentences::HeldOut } else { InputSentences::Train };
    // A lexicon that saw the training sentences gives their pairs richer
    // word-link features than held-out input gets: recall falls.
    if args.held_out && matches!(model.lexicon, LexicalModel::InEngine { held_out: false, .. }) {
        reporter.note(&format!(
            "warning: {} was trained for input its lexicon saw (by a `train` older than its training for held-out input); on held-out input it loses recall (5.7 F on SQUOIA's DW set, docs/alignment-results.md): train it again",
            args.model
        ));
    }
    let own = own_word_links(&args.input, args.word_align.is_some(), args.no_words);
    if let Some(w) = alignment::links_missing(&model, own.is_some() || args.word_align.is_some()) {
        reporter.note(&format!("warning: {} {w}", args.model));
    }
    let links_file = match args.word_align.as_deref() {
        None => own.as_deref(),
        Some([file]) if !starts_like_giza_a3(file)? => Some(file.as_str()),
        // GIZA++'s A3.final files are matched to the input's sentences: read whole.
        Some(files) => {
            reporter.note("reading the input whole: GIZA++ A3.final word links are matched to its sentences");
            let input = corpus(&args.input, false, limits)?;
            let given = Some(word_links(files, &input)?);
            let aligned = alignment::align_input(&model, &input, given, held_out, &mut reporter)?;
            if let Some(file) = &args.posteriors {
                let lines: String = aligned
                    .searches
                    .iter()
                    .map(|s| write_posteriors(&explain::predicted_posteriors(s)) + "\n")
                    .collect();
                output::write_file(file, lines)?;
            }
            let mut out = LinkWriter::new(input.len());
            let written = aligned.links().iter().try_for_each(|links| out.write(links));
            return out.finish(written.map(|()| 0));
        }
    };
    // The whole input is read once before the first line is written: an
    // error in it leaves no output that could be taken for a result.
    // What looks at the input's words (the model's fit, the tables'
    // coverage) looks at its first pairs: a stream does not hold the input.
    let (pairs, sample) = stream::check_pairs(&args.input, links_file, limits, SAMPLE_PAIRS)?;
    let sample = Corpus { pairs: sample };
    if let Some(w) = files::alignment_model_fit(&model, &sample).warning(&args.input, &args.model) {
        reporter.note(&format!("warning: {w}"));
    }
    let lex = LexArgs { lex_s2t: args.lex_s2t.clone(), lex_t2s: args.lex_t2s.clone(), ..LexArgs::default() };
    let tables = tables(&lex, &sample, args.threads.get())?;
    drop(sample);
    let open = || stream::Pairs::open(&args.input, links_file, limits);
    let first_pass = app_stream::align_reads_sentences_first(&model, tables.is_some(), held_out);
    let input_lexicon = app_stream::aligning_lexicon(
        &model.lexicon,
        tables,
        held_out,
        || {
            let s = sentences(open()?)?;
            note_first_pass(s.len());
            Ok::<_, CliError>(s)
        },
        &mut reporter,
    )?;
    if !first_pass {
        reporter.note("aligning pair by pair as the input is read (the lexicon needs none of its sentences)");
    }
    let aligner = app_stream::PairAligner::new(&model, &input_lexicon)?;
    let mut out = LinkWriter::new(pairs);
    let mut posteriors = String::new();
    let aligned = app_stream::align_stream(&aligner, open()?, args.threads.get(), &mut reporter, |_, links, p| {
        if args.posteriors.is_some() {
            posteriors.push_str(&(write_posteriors(&p) + "\n"));
        }
        out.write(&links)
    });
    // The posteriors' file is written once every line of links is.
    let aligned = aligned.and_then(|n| match &args.posteriors {
        Some(file) => output::write_file(file, &posteriors).map(|()| n),
        None => Ok(n),
    });
    out.finish(aligned)
}

/// Pairs of the input that the checks of its words look at.
const SAMPLE_PAIRS: usize = 1000;

/// Whether a word-links file begins as GIZA++'s A3.final files do (its first 4 kB read).
fn starts_like_giza_a3(file: &str) -> Result<bool, CliError> {
    use std::io::Read;
    let mut head = Vec::with_capacity(4096);
    treelink::io::text::open_text(file)?
        .take(4096)
        .read_to_end(&mut head)
        .map_err(|e| treelink::io::text::ReadError::Io { file: file.to_string(), message: e.to_string() })?;
    Ok(lexicon::is_giza_a3(&String::from_utf8_lossy(&head)))
}

/// The note of `align` when the model's lexicon is re-trained with the input's sentences.
fn note_first_pass(pairs: usize) {
    eprintln!(
        "treelink: read the sentences of {pairs} pairs first: the model's in-engine lexicon is re-trained with \
         them (as GIZA++ is run on a whole corpus); with --held-out, or tables (--lex-s2t/--lex-t2s, e.g. from \
         `treelink lexicon`), the input streams in one pass"
    );
}

pub fn baseline(args: BaselineArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let (pairs, sample) = stream::check_pairs(&args.input, None, limits, SAMPLE_PAIRS)?;
    let open = || stream::Pairs::open(&args.input, None, limits);
    let lexicon = match tables(&args.lex, &Corpus { pairs: sample }, args.threads.get())? {
        Some(tables) => tables,
        None => {
            let s = sentences(open()?)?;
            reporter.note(&format!(
                "read the sentences of {} pairs first: the baseline's in-engine lexicon is trained on them; with \
                 tables (--lex-s2t/--lex-t2s, e.g. from `treelink lexicon`) the input streams in one pass",
                s.len()
            ));
            alignment::baseline_lexicon_of(
                s,
                extra_bitext(&args.lex)?,
                args.lex.word_model.unwrap_or_default(),
                &mut reporter,
            )?
        }
    };
    let options =
        BaselineOptions { score: args.score, heuristics: args.heuristics, null: args.null, unary: args.unary };
    let mut out = LinkWriter::new(pairs);
    let pairs = open()?.map(|p| p.map(|(pair, _)| pair));
    let aligned =
        app_stream::baseline_stream(&lexicon, &options, pairs, 0, args.threads.get(), &mut reporter, |_, links| {
            out.write(&links)
        });
    out.finish(aligned)
}

/// `treelink lexicon`: the in-engine lexicon on the bitext and the
/// treebanks' sentences, written as Moses tables.
pub fn lexicon(args: LexiconArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let mut all = match &args.bitext {
        Some(files) => lexicon::read_bitext(&read(&files[0])?, &files[0], &read(&files[1])?, &files[1])?,
        None => Vec::new(),
    };
    for prefix in &args.input {
        all.extend(sentences(stream::Pairs::open(prefix, None, limits)?)?);
    }
    let n = all.len();
    let (s2t, t2s) = alignment::lexicon_tables(all, args.word_model, &mut reporter)?;
    let (s2t_file, t2s_file) = (format!("{}.s2t", args.output), format!("{}.t2s", args.output));
    output::write_files(&[(&s2t_file, s2t.as_bytes()), (&t2s_file, t2s.as_bytes())])?;
    reporter.note(&format!(
        "wrote {0}.s2t ({1} entries, for --lex-s2t) and {0}.t2s ({2}, for --lex-t2s): the lexicon of {n} sentence pairs",
        args.output,
        s2t.lines().count(),
        t2s.lines().count()
    ));
    Ok(())
}

pub fn eval(args: EvalArgs) -> Result<(), CliError> {
    let input = Corpus::read_prefix(&args.input, true)?;
    let text = read(&args.pred)?;
    let pred = input.read_links(Named { name: &args.pred, text: &text })?;
    let c = Counts::of_corpus(input.pairs.iter().zip(pred.iter().map(|l| l.as_slice())));
    out!("P = {:.2}", c.precision())?;
    out!("R = {:.2}", c.recall())?;
    out!("F = {:.2}", c.f())?;
    out!(
        "R(good) = {:.2}  ({} correct, {} predicted, {} gold phrase links)",
        c.recall_good(),
        c.correct,
        c.predicted,
        c.gold
    )?;
    if let Some(other) = &args.against {
        let text = read(other)?;
        let theirs = input.read_links(Named { name: other, text: &text })?;
        let per_pair = |links: &[Vec<Link>]| -> Vec<Counts> {
            input.pairs.iter().zip(links).map(|(p, l)| Counts::of_pair(p, l)).collect()
        };
        let (mine, other_counts) = (per_pair(&pred), per_pair(&theirs));
        let o: Counts = other_counts.iter().copied().sum();
        let p = treelink::eval::prf::paired_p(&mine, &other_counts).unwrap_or(1.0);
        out!("against {other}: P = {:.2}  R = {:.2}  F = {:.2}", o.precision(), o.recall(), o.f())?;
        out!(
            "F difference {:+.2}, p = {p:.3} (paired bootstrap, {DEFAULT_SAMPLES} resamples of the pairs, seed {DEFAULT_SEED})",
            c.f() - o.f()
        )?;
    }
    if args.errors {
        let table = ErrorTable::of_corpus(input.pairs.iter().zip(pred.iter().map(|l| l.as_slice())), args.examples);
        out!("\n{}", table.to_text(args.label_pairs).trim_end())?;
    }
    Ok(())
}

/// The experiment's settings: the rows the arguments choose, how each trains.
fn experiment_settings(args: &ExperimentArgs, limits: &Limits, train: &Corpus) -> Result<Settings, CliError> {
    let wants = |row: &str| args.rows.iter().any(|r| r == row || r == "all" || (r == "beyond" && row != "paper"));
    Ok(Settings {
        rows: RowChoice {
            paper: wants("paper"),
            calibrated: wants("calibrated"),
            context: wants("ctx"),
            unknown: args.rows.iter().any(|r| r == "unk"),
            data: args.rows.iter().any(|r| r == "data"),
            history: wants("hist"),
            defaults: args.rows.iter().any(|r| r == "default"),
            kernel: args.kernel.clone(),
        },
        train: args.svm.options(&KernelSpec::paper_best(), limits)?,
        thetas: args.svm.theta.clone(),
        threshold_folds: args.svm.threshold_folds.map(usize::from),
        word_model_given: args.lex.word_model.is_some(),
        data_sizes: args.data_sizes.clone(),
        lexicon: lexicon_source(&args.lex, None, train, args.threads.get())?,
        transductive_lexicon: args.transductive_lexicon,
        threads: args.threads.get(),
    })
}

pub fn experiment(args: ExperimentArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let started = Instant::now();
    let clock = || started.elapsed().as_secs_f64();
    let rows = match (&args.data, &args.train, &args.dev, &args.test) {
        (Some(data), ..) => {
            let all = corpus(data, true, limits)?;
            let settings = experiment_settings(&args, limits, &all)?;
            alignment_experiment::cross_validate(&all, data, args.folds, &settings, &clock, &mut reporter)?
        }
        (None, Some(train), Some(dev), Some(test)) => {
            let (train, dev, test) =
                (corpus(train, true, limits)?, corpus(dev, true, limits)?, corpus(test, true, limits)?);
            let settings = experiment_settings(&args, limits, &train)?;
            alignment_experiment::run_split(&train, &dev, &test, &settings, &clock, &mut reporter)?
        }
        _ => return Err(CliError::Usage("give --train, --dev and --test, or --data".into())),
    };
    let width = rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(10).max(13);
    out!(
        "{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>9}  {:>9}",
        "Feature Space",
        "P",
        "R",
        "F",
        "p",
        "train (s)",
        "align (s)"
    )?;
    for (r, p) in rows.iter().zip(alignment_experiment::p_against_row_above(&rows)) {
        out!(
            "{:<width$}  {:>6.2}  {:>6.2}  {:>6.2}  {:>6}  {:>9.1}  {:>9.1}",
            r.name,
            r.counts.precision(),
            r.counts.recall(),
            r.counts.f(),
            p.map_or("".to_string(), |p| format!("{p:.3}")),
            r.train_secs,
            r.align_secs
        )?;
    }
    out!(
        "p: paired bootstrap against the row above ({DEFAULT_SAMPLES} resamples of the test pairs, seed {DEFAULT_SEED}; \
         Koehn 2004, as mt-experiment)"
    )?;
    Ok(())
}
