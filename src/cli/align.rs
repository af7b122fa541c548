//! The sub-tree alignment commands: train, align, baseline, eval, experiment.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::progress::Reporter;
use super::CliError;
use treelink::align::baseline::{BaselineOptions, Heuristics, NullWord, ScoreFunction, UnaryChains};
use treelink::align::candidates::CandidateNodes;
use treelink::align::composite::KernelSpec;
use treelink::align::lexical::{InputSentences, LexiconSource};
use treelink::align::model::{self, AlignmentModel, DecisionThreshold, TrainOptions};
use treelink::align::primal::Solver;
use treelink::app::alignment;
use treelink::app::alignment_experiment::{self, RowChoice, Settings};
use treelink::app::files::{self, TableSide};
use treelink::corpus::{Corpus, Named};
use treelink::eval::prf::Counts;
use treelink::eval::significance::{DEFAULT_SAMPLES, DEFAULT_SEED};
use treelink::io::links::{format_link_line, Link};
use treelink::lexicon::{self, Lexicon, SentencePair, WordAlignment, WordModel};
use treelink::limits::Limits;

/// Lexical tables and word links shared by the commands.
#[derive(Args, Debug, Clone, Default)]
pub struct LexArgs {
    /// Moses lexical table p(target|source): lines `target source p`. Needs --lex-t2s.
    #[arg(long, value_name = "F", requires = "lex_t2s")]
    pub lex_s2t: Option<String>,
    /// Moses lexical table p(source|target): lines `source target p`. Needs --lex-s2t.
    #[arg(long, value_name = "F", requires = "lex_s2t")]
    pub lex_t2s: Option<String>,
    /// The GIZA++ vocabularies (source, then target) of tables of word ids (GIZA++ t-tables,
    /// `3 17 0.25` lines) given as --lex-s2t/--lex-t2s. Each table is checked against the
    /// corpus: a warning when it covers less than half of its side's words or looks given the
    /// wrong way round.
    #[arg(long, num_args = 2, value_names = ["SRC.vcb", "TRG.vcb"])]
    pub vcb: Option<Vec<String>>,
    /// Extra plain bitext for the in-engine lexicon: SRC and TRG files, one tokenised sentence per line.
    #[arg(long, num_args = 2, value_names = ["SRC", "TRG"])]
    pub bitext: Option<Vec<String>>,
    /// The in-engine lexicon's word-alignment model: fast-align (IBM1, then fast_align's IBM2) or
    /// hmm (those, then the HMM of Vogel et al. 1996 from IBM2's table). `align` re-trains with the
    /// model file's choice.
    #[arg(long, value_name = "MODEL", default_value = "fast-align")]
    pub word_model: WordModel,
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
    /// Default: the best on --dev of plain, plain+ibtk-rgsst, plain+dbtk-root+ibtk-rgsst,
    /// plain+dbtk-root+ibtk-rdsst (without --dev: plain+dbtk-root+ibtk-rgsst).
    #[arg(long, value_name = "SPEC")]
    pub kernel: Option<KernelSpec>,
    /// Word alignment of the training pairs (`i-j` per line, source-target), or GIZA++'s two
    /// A3.final files (either order; symmetrised with grow-diag-final-and).
    #[arg(long, value_name = "F", num_args = 1..=2)]
    pub word_align: Option<Vec<String>>,
    #[command(flatten)]
    pub lex: LexArgs,
    #[command(flatten)]
    pub svm: SvmArgs,
    /// Train for held-out input (beyond the paper): the model will align sentences its in-engine
    /// lexicon never saw (`align` then keeps the input out of the lexicon, as `align --held-out`).
    /// The lexicon is trained on --train's sentences only, --dev's word links come from it as a
    /// test set's would, and each training pair is featurised by a lexicon trained without its
    /// fold (5 folds), so training sees features as sparse as the input's.
    #[arg(long)]
    pub held_out: bool,
    /// Output model file (JSON).
    #[arg(short = 'o', long = "output", value_name = "MODEL")]
    pub output: String,
}

/// Settings of the classifier.
#[derive(Args, Debug, Clone)]
pub struct SvmArgs {
    /// Weights θ of the kernel's components, comma-separated (plain first); normalised to sum 1.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub theta: Option<Vec<f64>>,
    /// Decay λ of the tree kernels.
    #[arg(long, default_value_t = treelink::kernel::DEFAULT_LAMBDA)]
    pub lambda: f64,
    /// SVM cost C.
    #[arg(long, default_value_t = treelink::svm::DEFAULT_C)]
    pub c: f64,
    /// C+/C− (default: negatives/positives among the examples, between 1 and 4).
    #[arg(long, value_name = "J")]
    pub cost_factor: Option<f64>,
    /// Candidate nodes: phrase (phrase nodes only) or all.
    #[arg(long, default_value = "phrase", value_parser = parse_candidates)]
    pub candidates: CandidateNodes,
    /// Pruning keeps all but this fraction of the positives on each pruning feature.
    /// Default: with --dev, the best on dev of 0, 0.005 and 0.02; without, 0.005.
    #[arg(long, value_name = "Q")]
    pub prune_quantile: Option<f64>,
    /// Negatives kept per positive at most (seeded sample; inf: all).
    #[arg(long, default_value_t = 6.0)]
    pub max_negative_ratio: f64,
    /// Training examples at most (seeded sample, positives and negatives in proportion), or all.
    /// Default: 6000 with --solver smo, all with --solver linear.
    #[arg(long, value_name = "N", value_parser = parse_max_examples)]
    pub max_examples: Option<usize>,
    /// The SVM solver: smo (any kernel), or linear (dual coordinate descent on the explicit
    /// feature map, for kernels whose BTKs are all root: lex, plain, ctx, hist, *-root).
    #[arg(long, default_value = "smo", value_parser = parse_solver)]
    pub solver: Solver,
    /// Negatives per positive tried on --dev after the cost factor (comma-separated, inf: all);
    /// kept if dev F improves.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub tune_negative_ratio: Vec<f64>,
    /// Seed of the samples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fit Platt's sigmoid on --dev instead of the paper's 1/(1+e^-D).
    #[arg(long)]
    pub platt: bool,
    /// Link only candidates whose decision value D exceeds this: a number (the paper: 0), or auto:
    /// with --dev, the threshold that maximises F on dev; without, 0.
    #[arg(long, default_value = "auto", value_parser = parse_threshold)]
    pub threshold: DecisionThreshold,
    /// C values tried on --dev after the pruning quantile (comma-separated); kept if dev F improves.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub tune_c: Vec<f64>,
    /// Cost factors C+/C- tried on --dev after C (comma-separated); kept if dev F improves.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub tune_cost_factor: Vec<f64>,
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

fn parse_max_examples(s: &str) -> Result<usize, String> {
    match s {
        "all" => Ok(usize::MAX),
        _ => s
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("expected all or a count above 0, found '{s}'")),
    }
}

fn parse_solver(s: &str) -> Result<Solver, String> {
    match s {
        "smo" => Ok(Solver::Smo),
        "linear" => Ok(Solver::Linear),
        _ => Err(format!("expected smo or linear, found '{s}'")),
    }
}

fn parse_candidates(s: &str) -> Result<CandidateNodes, String> {
    match s {
        "phrase" => Ok(CandidateNodes::Phrase),
        "all" => Ok(CandidateNodes::All),
        _ => Err(format!("expected phrase or all, found '{s}'")),
    }
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
            max_examples: self.max_examples.unwrap_or(match self.solver {
                Solver::Smo => TrainOptions::default().max_examples,
                Solver::Linear => usize::MAX,
            }),
            solver: self.solver,
            tune_negative_ratio: self.tune_negative_ratio.clone(),
            seed: self.seed,
            platt: self.platt,
            max_train_candidates: limits.max_train_candidates,
            threshold: self.threshold,
            tune_c: self.tune_c.clone(),
            tune_cost_factor: self.tune_cost_factor.clone(),
            ..TrainOptions::default()
        };
        let options = alignment::for_kernel(&options, spec, self.theta.as_deref())?;
        if !(self.lambda > 0.0 && self.c > 0.0) {
            return Err(CliError::Usage("--lambda and --c must be greater than 0".into()));
        }
        Ok(options)
    }
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
    /// The input is a held-out test set: its sentences do not join the in-engine lexicon's
    /// training (by default they do, as GIZA++ is run on a whole corpus); its word links come
    /// from the lexicon as trained. For scores that no test sentence has shaped. Always so for a
    /// model of `train --held-out`.
    #[arg(long)]
    pub held_out: bool,
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
}

fn parse_null(s: &str) -> Result<NullWord, String> {
    match s {
        "both" => Ok(NullWord::Both),
        "generating" => Ok(NullWord::Generating),
        "off" => Ok(NullWord::Off),
        _ => Err(format!("expected both, generating or off, found '{s}'")),
    }
}

fn parse_unary(s: &str) -> Result<UnaryChains, String> {
    match s {
        "merged" => Ok(UnaryChains::Merged),
        "separate" => Ok(UnaryChains::Separate),
        _ => Err(format!("expected merged or separate, found '{s}'")),
    }
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
    /// training data by --solver linear, the negative share tuned on dev), hist (+ second pass);
    /// beyond = calibrated,ctx,hist; all = paper,beyond. The rows beyond the paper add up,
    /// on the paper rows' best combination (or --kernel) at its pruning quantile. The baseline
    /// always runs.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "all",
          value_parser = ["paper", "calibrated", "ctx", "unk", "data", "hist", "beyond", "all"])]
    pub rows: Vec<String>,
    /// The `data` row's sizes (comma-separated): at most this many examples each (positives and
    /// negatives in proportion), or all; one row per size.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "all", value_parser = parse_max_examples)]
    pub data_sizes: Vec<usize>,
    /// Without the paper rows: the combination the other rows build on (default plain+dbtk-root+ibtk-rgsst).
    #[arg(long, value_name = "SPEC")]
    pub kernel: Option<KernelSpec>,
    /// Train the in-engine lexicon on the dev and test sentences too (never their gold links), as
    /// the paper runs GIZA++ on its whole corpus. By default the test sentences stay out of every
    /// model: the lexicon is trained on train only, dev and test are held out alike (their word
    /// links from it), and each training pair is featurised by a lexicon trained without it (as
    /// `train --held-out`).
    #[arg(long)]
    pub transductive_lexicon: bool,
    #[command(flatten)]
    pub lex: LexArgs,
    #[command(flatten)]
    pub svm: SvmArgs,
}

fn read(file: &str) -> Result<String, CliError> {
    Ok(treelink::io::text::read_text_file(file)?)
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
    for note in &read.notes {
        eprintln!("treelink: {note}");
    }
    Ok(read.links)
}

/// The lexical tables the arguments give, if both are given, each checked
/// against `corpus`'s words (a warning on stderr when it covers few of
/// them or looks given the wrong way round, as the page warns).
fn tables(lex: &LexArgs, corpus: &Corpus) -> Result<Option<Lexicon>, CliError> {
    let Some((s2t, t2s)) = alignment::both_tables(lex.lex_s2t.as_deref(), lex.lex_t2s.as_deref()) else {
        return Ok(None);
    };
    let vocabs = match &lex.vcb {
        Some(v) => {
            Some((lexicon::read_giza_vocab(&read(&v[0])?, &v[0])?, lexicon::read_giza_vocab(&read(&v[1])?, &v[1])?))
        }
        None => None,
    };
    let vocabs = vocabs.as_ref().map(|(s, t)| (s, t));
    let (s2t_text, t2s_text) = (read(s2t)?, read(t2s)?);
    let s2t_table = files::read_lex_table(Named { name: s2t, text: &s2t_text }, vocabs, TableSide::S2t)?;
    let t2s_table = files::read_lex_table(Named { name: t2s, text: &t2s_text }, vocabs, TableSide::T2s)?;
    for (table, name, side) in [(&s2t_table, s2t, TableSide::S2t), (&t2s_table, t2s, TableSide::T2s)] {
        let words = |source: bool| {
            corpus
                .pairs
                .iter()
                .flat_map(move |p| if source { p.source.words() } else { p.target.words() })
                .map(String::as_str)
        };
        if let Some(warning) = files::check_table(table, name, side, words(true), words(false)).warning {
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
) -> Result<LexiconSource, CliError> {
    Ok(alignment::lexicon_source(tables(lex, corpus)?, links, extra_bitext(lex)?, lex.word_model)
        .with_stem_backoff(lex.stem_backoff.map(usize::from)))
}

fn print_links(pairs: &[Vec<Link>]) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for links in pairs {
        writeln!(out, "{}", format_link_line(links)).map_err(CliError::Write)?;
    }
    out.flush().map_err(CliError::Write)?;
    Ok(())
}

pub fn train(args: TrainArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let train = corpus(&args.train, true, limits)?;
    let dev = args.dev.as_deref().map(|d| corpus(d, true, limits)).transpose()?;
    model::check_train_candidates(&train, &args.svm.options(&KernelSpec::paper_best(), limits)?)?;
    let links = args.word_align.as_deref().map(|f| word_links(f, &train)).transpose()?;
    let source = lexicon_source(&args.lex, links, &train)?.for_held_out_input(args.held_out);
    let options = alignment::kernels_to_try(args.kernel.clone(), dev.is_some())
        .iter()
        .map(|spec| args.svm.options(spec, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let model = alignment::train_model(&train, dev.as_ref(), source, &options, &mut reporter)?;
    std::fs::write(&args.output, model.to_json())
        .map_err(|source| CliError::WriteFile { file: args.output.clone(), source })?;
    reporter.note(&format!("wrote {}: {}", args.output, model.describe()));
    Ok(())
}

/// Reads an alignment model file.
pub fn read_model(file: &str) -> Result<AlignmentModel, CliError> {
    Ok(treelink::app::files::read_alignment_model(&read(file)?, file)?)
}

pub fn align(args: AlignArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let model = read_model(&args.model)?;
    let input = corpus(&args.input, false, limits)?;
    if let Some(w) = files::alignment_model_fit(&model, &input).warning(&args.input, &args.model) {
        reporter.note(&format!("warning: {w}"));
    }
    let given = args.word_align.as_deref().map(|f| word_links(f, &input)).transpose()?;
    let sentences = if args.held_out { InputSentences::HeldOut } else { InputSentences::Train };
    let aligned = alignment::align_input(&model, &input, given, sentences, &mut reporter)?;
    print_links(&aligned.links())
}

pub fn baseline(args: BaselineArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let input = corpus(&args.input, false, limits)?;
    let lexicon = alignment::baseline_lexicon(
        &input,
        tables(&args.lex, &input)?,
        extra_bitext(&args.lex)?,
        args.lex.word_model,
        &mut reporter,
    )?;
    let options =
        BaselineOptions { score: args.score, heuristics: args.heuristics, null: args.null, unary: args.unary };
    print_links(&alignment::baseline(&input, &lexicon, &options, &mut reporter)?)
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
            kernel: args.kernel.clone(),
        },
        train: args.svm.options(&KernelSpec::paper_best(), limits)?,
        thetas: args.svm.theta.clone(),
        data_sizes: args.data_sizes.clone(),
        lexicon: lexicon_source(&args.lex, None, train)?,
        transductive_lexicon: args.transductive_lexicon,
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
