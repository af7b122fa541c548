//! The translation commands: mt-train, translate, bleu, mt-experiment.

use std::time::Instant;

use clap::Args;

use super::progress::Reporter;
use super::stream::{self, ThreadsArg};
use super::{read, usage, CliError};
use treelink::align::composite::KernelSpec;
use treelink::app::translation::{
    self, DevChoice, Pinned, SubtreeAlign, SubtreeAlignArg, TrainingPlan, Translated, TranslationTraining,
};
use treelink::app::translation_experiment;
use treelink::corpus::Corpus;
use treelink::eval::bleu::{corpus_bleu, Bleu, BleuStats};
use treelink::eval::curve::LogLinearFit;
use treelink::eval::significance::{self, RunScores};
use treelink::lexicon::WordModel;
use treelink::limits::Limits;
use treelink::mt::lm::{read_arpa, write_arpa, NgramLm};
use treelink::mt::model::{MtOutput, SystemKind, TranslationModel};
use treelink::mt::ms::{MsReading, MsTranslation, RmEstimate, StructureTokens};
use treelink::mt::phrase::unknown::{SourceNote, UnknownWordOptions, WordRule};
use treelink::mt::phrase::ExtractMethod;
use treelink::mt::train::MtTrainSettings;
use treelink::mt::tune::Tuner;
use treelink::tree::Tree;

/// Settings shared by mt-train and mt-experiment.
#[derive(Args, Debug, Clone)]
pub struct MtOptions {
    /// Tuning iterations on --dev, of --tuner (0: keep the untuned default weights).
    #[arg(long, default_value_t = 5)]
    pub tune_iterations: usize,
    /// n-best entries per dev sentence for tuning.
    #[arg(long, default_value_t = 100)]
    pub nbest: usize,
    /// Hypotheses per stack (default: 100 for phrase, 50 for ms).
    #[arg(long, value_name = "N")]
    pub beam: Option<usize>,
    /// Order of the word language model (h6).
    #[arg(long, default_value_t = 3)]
    pub lm_order: usize,
    /// Longest phrase (and RM scope) in words.
    #[arg(long, default_value_t = 7)]
    pub max_phrase_len: usize,
    /// MS per RM at most (ms system).
    #[arg(long, default_value_t = treelink::mt::ms::extract::DEFAULT_MAX_MS)]
    pub max_ms: usize,
    /// Seed of the tuner (MERT's random directions, PRO's sampled pairs) and of the structure model's SMS samples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Use only the good gold links (default: good and fuzzy) with --subtree-align gold.
    #[arg(long)]
    pub good_only: bool,
    /// Word language model (h6) as an ARPA file, instead of the one trained on the training
    /// pairs' target sentences (`treelink lm` writes one).
    #[arg(long, value_name = "LM.arpa")]
    pub lm: Option<String>,
    /// Treatment of source words the phrase table does not know, comma-separated: pass
    /// (numbers and punctuation passed through), lexicon (training words without a one-word
    /// phrase pair translated by the word-alignment lexicon), case (another casing), stem (a
    /// known word with the same stem), split (compounds into known parts); none: every unknown
    /// word copied.
    #[arg(long, value_name = "LIST", default_value = "pass,lexicon,case,stem,split", value_parser = parse_unknown)]
    pub unknown_words: UnknownWordOptions,
    /// Reading of the MS system's structure features, comma-separated: paper (the paper's:
    /// relative frequencies, MS tokens), backoff (h1/h2 interpolated with coarse RM pairs),
    /// discount (h1/h2 discounted, modified Kneser-Ney style, the mass to coarse RM pairs), roots (h5 over MS root labels), rmlex (RM lexical weights), tags (tag agreement).
    /// Default: `mt-train --dev` chooses paper or discount on dev; otherwise paper.
    #[arg(long, value_name = "LIST", value_parser = parse_reading)]
    pub ms_reading: Option<MsReading>,
    /// MS system: every phrase pair is also an option (source RM: its words' POS nodes; target
    /// RM: the words' tags; the unseen-RM probability and the glue feature), so the phrase-based
    /// model is inside the MS model.
    #[arg(long)]
    pub phrase_fallback: bool,
    /// The word alignment the tables are extracted from: fast-align (IBM1, then fast_align's IBM2,
    /// both ways, grow-diag-final-and) or hmm (those, then the HMM of Vogel et al. 1996).
    /// Default: `mt-train --dev` chooses one on dev; otherwise fast-align.
    #[arg(long, value_name = "MODEL")]
    pub word_model: Option<WordModel>,
    /// How the weights are tuned on --dev: pro (Hopkins & May 2011: pairwise ranking by a
    /// logistic regression on sampled n-best pairs; the default, its test BLEU varies far less
    /// over tuning runs) or mert (Och 2003, the paper's: line searches on corpus BLEU, with 5
    /// random restarts and 5 random directions per round).
    #[arg(long, value_name = "TUNER", default_value = "pro")]
    pub tuner: Tuner,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

fn parse_reading(s: &str) -> Result<MsReading, String> {
    let mut r = MsReading::PAPER;
    for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        match item {
            "paper" => {}
            "backoff" => r.rm_estimate = RmEstimate::Backoff,
            "discount" => r.rm_estimate = RmEstimate::Discount,
            "roots" => r.structure_tokens = StructureTokens::Roots,
            "rmlex" => r.rm_lexical = true,
            "tags" => r.tag_agreement = true,
            _ => return Err(format!("expected paper, backoff, discount, roots, rmlex or tags, found '{item}'")),
        }
    }
    Ok(r)
}

fn parse_unknown(s: &str) -> Result<UnknownWordOptions, String> {
    let mut o = UnknownWordOptions::copy_only();
    for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        match item {
            "pass" => o.pass_through = true,
            "lexicon" => o.lexicon = true,
            "case" => o.case = true,
            "stem" => o.stem = true,
            "split" => o.split = true,
            "none" => {}
            _ => return Err(format!("expected pass, lexicon, case, stem, split or none, found '{item}'")),
        }
    }
    Ok(o)
}

/// `treelink mt-train`.
#[derive(Args, Debug)]
pub struct MtTrainArgs {
    /// Training treebank: PREFIX.src, PREFIX.trg (and PREFIX.gold for --subtree-align gold).
    #[arg(long, value_name = "PREFIX")]
    pub train: String,
    /// Development treebank (PREFIX.src, PREFIX.trg): the weights are tuned on it (--tuner).
    #[arg(long, value_name = "PREFIX")]
    pub dev: Option<String>,
    /// ms (meta-structure) or phrase (the phrase-based baseline).
    #[arg(long, value_name = "SYSTEM")]
    pub system: SystemKind,
    /// Phrase (and RM) extraction: word, dirc or ewos. Default: word; with --dev, chosen on dev
    /// among word, dirc and ewos when the training pairs have sub-tree links (PREFIX.gold, or
    /// --subtree-align).
    #[arg(long, value_name = "METHOD")]
    pub extract: Option<ExtractMethod>,
    /// Sub-tree alignment for dirc/ewos: a model file from `treelink train`, gold (PREFIX.gold),
    /// or trained (the aligner trained on --train with --dev, the paper's best kernel). Default: gold.
    #[arg(long, value_name = "MODEL|gold|trained")]
    pub subtree_align: Option<SubtreeAlignArg>,
    /// Word alignment of the training pairs (`i-j` per line, or GIZA++'s two A3.final files,
    /// symmetrised with grow-diag-final-and); default: trained in the engine on the train and
    /// dev sentences.
    #[arg(long, value_name = "F", num_args = 1..=2)]
    pub word_align: Option<Vec<String>>,
    /// Choose on --dev, the default with --dev: train and tune each configuration —
    /// for ms the readings paper and discount, each with the word models fast-align and hmm
    /// (phrase: the word models), word extraction and also --extract's method if it is not word —
    /// print each with its dev BLEU, and keep the best. A --ms-reading or --word-model given is
    /// the only one tried; with both given (or --preset, --word-align or --export-phrase-table)
    /// there is nothing to choose and the one configuration is trained and tuned.
    #[arg(long, requires = "dev", conflicts_with_all = ["preset", "export_phrase_table", "word_align"])]
    pub choose: bool,
    /// With --choose: start no further configuration after this many minutes of CPU time
    /// (the one running finishes; the paper's configuration is always tried first).
    #[arg(long, value_name = "MIN", default_value_t = translation::CHOICE_BUDGET_SECONDS / 60.0)]
    pub budget_minutes: f64,
    /// paper: the meta-structure paper's configuration (its reading, the IBM-model word
    /// alignment, word extraction, no phrase fallback), whatever the other flags say.
    #[arg(long, value_name = "NAME", value_parser = ["paper"])]
    pub preset: Option<String>,
    #[command(flatten)]
    pub opts: MtOptions,
    /// Also write every extracted phrase pair (--extract word, dirc or ewos; unpruned) as a Moses
    /// phrase table: `src ||| trg ||| φ(f|e) lex(f|e) φ(e|f) lex(e|f) ||| alignment ||| counts`.
    #[arg(long, value_name = "F")]
    pub export_phrase_table: Option<String>,
    /// Output model file: JSON, or the compact binary form if it ends in .tlmt.
    #[arg(short = 'o', long = "output", value_name = "MTMODEL")]
    pub output: String,
}

/// `treelink translate`.
#[derive(Args, Debug)]
pub struct TranslateArgs {
    /// Model file from `treelink mt-train`.
    #[arg(long, value_name = "MTMODEL")]
    pub model: String,
    /// Source trees, one per line (bracketed).
    #[arg(long, value_name = "FILE.src")]
    pub input: String,
    /// Hypotheses per stack (default: the model's).
    #[arg(long, value_name = "N")]
    pub beam: Option<usize>,
    /// Also print, on stderr, the unknown source words, what was done with them and the words of
    /// the translation they became, and the target SMS and the derivation of each sentence (ms
    /// system; not with --nbest). Sentences and words are numbered from 1, as a person counts
    /// them (sentence k is line k of the input); a rule's words are given as `words A-B`, A and B
    /// included.
    #[arg(long)]
    pub trace: bool,
    /// Print the N best distinct translations of each sentence instead of the best (the page's
    /// n-best table), in Moses's n-best format: `K ||| words ||| h1 h2 … ||| score`, K the
    /// sentence's number from 0, the features h in the model's order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(usize))]
    pub nbest: Option<usize>,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// `treelink lm`.
#[derive(Args, Debug)]
pub struct LmArgs {
    /// Training text: one tokenised sentence per line, or bracketed trees (one per line) whose
    /// leaves are the sentences (e.g. PREFIX.trg).
    #[arg(long, value_name = "FILE")]
    pub train: String,
    /// n-gram order.
    #[arg(long, default_value_t = 3)]
    pub order: usize,
    /// Output ARPA file.
    #[arg(short = 'o', long = "output", value_name = "LM.arpa")]
    pub output: String,
}

/// `treelink bleu`.
#[derive(Args, Debug)]
pub struct BleuArgs {
    /// References, one tokenised sentence per line.
    #[arg(long = "ref", value_name = "REF")]
    pub reference: String,
    /// Hypotheses, one tokenised sentence per line. Given several times, the systems are
    /// compared: each one's BLEU with a 95% confidence interval and, against the first, the
    /// p-value of paired bootstrap resampling (as sacreBLEU's --paired-bs).
    #[arg(long, value_name = "HYP", required = true)]
    pub hyp: Vec<String>,
    /// Bootstrap resamples when comparing systems.
    #[arg(long, default_value_t = significance::DEFAULT_SAMPLES)]
    pub samples: usize,
    /// Seed of the resampling.
    #[arg(long, default_value_t = significance::DEFAULT_SEED)]
    pub seed: u64,
    /// Runs per system (e.g. MERT runs): the --hyp files are taken N at a time, each group one
    /// system; its score is the mean BLEU over its runs, on the sample and on every resample
    /// (Clark et al. 2011), as `mt-experiment --repeats N` compares its rows.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub runs: usize,
}

/// `treelink mt-experiment`.
#[derive(Args, Debug)]
pub struct MtExperimentArgs {
    /// Training treebank (PREFIX.src, .trg, .gold).
    #[arg(long, value_name = "PREFIX")]
    pub train: String,
    /// Development treebank: tuning (--tuner), and the sub-tree aligner's pruning.
    #[arg(long, value_name = "PREFIX")]
    pub dev: String,
    /// Test treebank: the reported BLEU.
    #[arg(long, value_name = "PREFIX")]
    pub test: String,
    /// Sub-tree alignment for dirc/ewos: trained (the aligner trained on --train with --dev,
    /// kernel --kernel), gold, or a model file from `treelink train`.
    #[arg(long, value_name = "trained|gold|MODEL", default_value = "trained")]
    pub subtree_align: SubtreeAlignArg,
    /// Kernel of the trained sub-tree aligner.
    #[arg(long, value_name = "SPEC", default_value = "plain+dbtk-root+ibtk-rgsst")]
    pub kernel: KernelSpec,
    /// Systems to run, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "phrase,ms")]
    pub systems: Vec<SystemKind>,
    /// Extraction methods to run, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "word,dirc,ewos")]
    pub extract: Vec<ExtractMethod>,
    /// Tune each system this many times (MERT seeds --seed, --seed+1, ...) from the default
    /// weights and report the mean test BLEU with its range: MERT on a small dev set is noisy.
    #[arg(long, default_value_t = 1)]
    pub repeats: usize,
    /// Also write every tuned model (`SYSTEM-METHOD-RUN.json`) and its test translations
    /// (`SYSTEM-METHOD-RUN.hyp`) into this directory.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<String>,
    /// Write only the test translations (`SYSTEM-METHOD-RUN.hyp`) into this directory (for
    /// `treelink bleu --runs N` against another experiment's rows).
    #[arg(long, value_name = "DIR")]
    pub hyp_dir: Option<String>,
    /// A learning curve instead of the table: each system trained on these fractions of
    /// --train (nested samples of one seeded shuffle, seed --seed), with the first --extract
    /// method, tuned --repeats times on the same dev and scored on the same test; prints per size
    /// the test BLEU mean ± sd, MS − phrase with its paired-bootstrap p, the RM table's singleton
    /// share and the mean MERT weights of h1/h2/h5, then each system's fit BLEU = a + b·ln(pairs).
    #[arg(long, value_delimiter = ',', value_name = "F,F,...")]
    pub train_fractions: Vec<f64>,
    /// With --train-fractions: write the curve (each run, each size's mean, the fits) as SVG here.
    #[arg(long, value_name = "FILE.svg")]
    pub curve_svg: Option<String>,
    #[command(flatten)]
    pub opts: MtOptions,
}

impl MtOptions {
    fn settings(&self) -> Result<MtTrainSettings, CliError> {
        let lm = match &self.lm {
            Some(file) => Some(read_arpa(&read(file)?, file).map_err(usage)?),
            None => None,
        };
        Ok(MtTrainSettings {
            tune_iterations: self.tune_iterations,
            nbest: self.nbest,
            beam: self.beam,
            lm_order: self.lm_order,
            max_phrase_len: self.max_phrase_len,
            max_ms: self.max_ms,
            seed: self.seed,
            lm,
            unknown: self.unknown_words,
            reading: self.ms_reading.unwrap_or(MsReading::PAPER),
            phrase_fallback: self.phrase_fallback,
            word_model: self.word_model.unwrap_or_default(),
            lexicon: None,
            threads: self.threads.get(),
            tuner: self.tuner,
        })
    }
}

pub fn mt_train(args: MtTrainArgs, limits: &Limits) -> Result<(), CliError> {
    let started = Instant::now();
    let mut reporter = Reporter::new();
    // What dev chooses among (issue 27.1): what the user gave is the only one of its kind;
    // the extraction too, and DirC / EWoS only where there are sub-tree links to extract with.
    let may_choose = args.choose
        || (args.dev.is_some()
            && args.preset.is_none()
            && args.word_align.is_none()
            && args.export_phrase_table.is_none());
    let has_subtree_links =
        args.subtree_align.is_some() || std::path::Path::new(&format!("{}.gold", args.train)).exists();
    let pinned = Pinned { extract: args.extract, reading: args.opts.ms_reading, word_model: args.opts.word_model };
    let plan = TrainingPlan::new(args.system, pinned, may_choose, args.choose, has_subtree_links);
    let needs_subtree = plan.needs_subtree();
    let one = plan.choices[0];
    let subtree_arg = args.subtree_align.clone().unwrap_or(SubtreeAlignArg::Gold);
    let gold = needs_subtree && subtree_arg == SubtreeAlignArg::Gold;
    let train = Corpus::read_prefix_within(&args.train, gold, limits)?;
    let dev = args.dev.as_deref().map(|d| Corpus::read_prefix_within(d, false, limits)).transpose()?;
    let word_links = args.word_align.as_deref().map(|files| super::align::word_links(files, &train)).transpose()?;
    let subtree = if needs_subtree {
        let align = subtree_align(&subtree_arg, &args.opts, None, limits)?;
        Some(translation::subtree_links(&align, &train, dev.as_ref(), &mut reporter)?)
    } else {
        None
    };
    let mut settings = args.opts.settings()?;
    let mut extract = one.extract;
    if args.preset.is_some() {
        let paper = DevChoice::PAPER;
        (settings.reading, settings.word_model, settings.phrase_fallback, extract) =
            (paper.reading, paper.word_model, false, paper.extract);
    }
    let training = TranslationTraining {
        system: args.system,
        extract,
        train: &train,
        train_name: args.train.clone(),
        dev: dev.as_ref(),
        dev_name: args.dev.clone(),
        word_links,
        subtree,
        settings,
    };
    let mut phrase_table = None;
    let mut model = if plan.choose {
        let clock = || started.elapsed().as_secs_f64();
        let budget = 60.0 * args.budget_minutes;
        let chosen = translation::choose_on_dev(training, &plan.choices, budget, &clock, &mut reporter)?;
        out!("configurations tried on dev (budget {} min), dev BLEU after tuning:", args.budget_minutes)?;
        for (k, t) in chosen.tried.iter().enumerate() {
            let kept = if k == chosen.kept { "  <- kept" } else { "" };
            out!("  {}: dev BLEU {:.2}, {:.1} s{kept}", t.choice, t.dev_bleu, t.seconds)?;
        }
        for c in &chosen.untried {
            out!("  {c}: not tried (budget spent)")?;
        }
        chosen.model
    } else {
        match &args.export_phrase_table {
            None => translation::train_model(training, &mut reporter)?,
            Some(file) => {
                let (model, table) = translation::train_model_and_phrase_table(training, &mut reporter)?;
                phrase_table = Some((file, table));
                model
            }
        }
    };
    model.training.seconds = started.elapsed().as_secs_f64();
    model.training.preset = args.preset.clone();
    let bytes = model_file_bytes(&model, &args.output);
    // The model and the phrase table together, or neither.
    match &phrase_table {
        None => super::output::write_file(&args.output, bytes)?,
        Some((file, table)) => {
            super::output::write_files(&[(&args.output, &bytes), (file.as_str(), table.as_bytes())])?;
            reporter.note(&format!("wrote {file}: {} phrase pairs as a Moses phrase table", table.lines().count()));
        }
    }
    let t = &model.training;
    let tuned = match (t.tuner, t.dev_bleu) {
        (Some(tuner), Some(b)) => format!(", tuned by {} to dev BLEU {b:.2}", tuner.name()),
        _ => ", untuned default weights".to_string(),
    };
    let words = t.word_model.map_or(", word links given".to_string(), |m| format!(", word model {m}"));
    let preset = t.preset.as_ref().map_or(String::new(), |p| format!(", preset {p}"));
    reporter.note(&format!(
        "wrote {}: {} system, {} extraction{words}{preset}, {} pairs{tuned}, {:.1} s, by {}",
        args.output,
        args.system.name(),
        t.extract.map_or(one.extract, |m| m),
        train.len(),
        started.elapsed().as_secs_f64(),
        t.made_by
    ));
    Ok(())
}

/// The sub-tree alignment `--subtree-align` asks for.
fn subtree_align(
    arg: &SubtreeAlignArg,
    opts: &MtOptions,
    kernel: Option<&KernelSpec>,
    limits: &Limits,
) -> Result<SubtreeAlign, CliError> {
    Ok(match arg {
        SubtreeAlignArg::Gold => SubtreeAlign::Gold { include_fuzzy: !opts.good_only },
        SubtreeAlignArg::Trained => SubtreeAlign::Trained {
            kernel: kernel.cloned().unwrap_or_else(KernelSpec::paper_best),
            seed: opts.seed,
            max_train_candidates: limits.max_train_candidates,
        },
        SubtreeAlignArg::ModelFile(file) => {
            SubtreeAlign::Model { name: file.clone(), model: Box::new(super::align::read_model(file)?) }
        }
    })
}

/// Reads a translation model file, JSON or binary.
pub fn read_mt_model(file: &str) -> Result<TranslationModel, CliError> {
    let bytes = std::fs::read(file)
        .map_err(|e| treelink::io::text::ReadError::Io { file: file.to_string(), message: e.to_string() })?;
    // A gzipped model file (`model.json.gz`) is inflated first, as every file is.
    let bytes = if treelink::io::text::is_gzip(&bytes) { treelink::io::text::gunzip(&bytes, file)? } else { bytes };
    Ok(TranslationModel::from_bytes(&bytes, file)?)
}

/// A model file's bytes: the binary form for a `.tlmt` file, else JSON.
fn model_file_bytes(model: &TranslationModel, file: &str) -> Vec<u8> {
    if file.ends_with(".tlmt") {
        model.to_binary()
    } else {
        model.to_json().into_bytes()
    }
}

/// `treelink mt-convert`.
#[derive(Args, Debug)]
pub struct MtConvertArgs {
    /// A model of `mt-train`, JSON or binary.
    pub input: String,
    /// The converted model: the binary form if it ends in .tlmt, else JSON.
    pub output: String,
    /// Drop what the model's decoder can never use (target RMs beyond its rm_limit);
    /// translations stay identical.
    #[arg(long)]
    pub prune: bool,
}

pub fn mt_convert(args: MtConvertArgs) -> Result<(), CliError> {
    let started = Instant::now();
    let mut model = read_mt_model(&args.input)?;
    let read_secs = started.elapsed().as_secs_f64();
    let dropped = if args.prune { model.prune_unreachable() } else { 0 };
    let bytes = model_file_bytes(&model, &args.output);
    super::output::write_file(&args.output, &bytes)?;
    let pruned = if args.prune { format!(", {dropped} unreachable RM entries dropped") } else { String::new() };
    Reporter::new().note(&format!(
        "wrote {} ({:.1} MB){pruned}; reading {} took {read_secs:.2} s",
        args.output,
        bytes.len() as f64 / 1e6,
        args.input
    ));
    Ok(())
}

pub fn translate(args: TranslateArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    // The input is read through first (an error in it is quicker to tell
    // than a large model to read, and is told before any output is written);
    // its trees then stream as they are translated.
    // The model's fit is judged on the first trees (a stream does not hold the input).
    let (sentences, sample) = stream::check_trees(&args.input, limits, treelink::app::translation::FIT_SAMPLE)?;
    let trees = stream::Trees::open(&args.input, limits)?;
    let mut model = read_mt_model(&args.model)?;
    if let Some(w) = treelink::app::translation::fit_warning(&model, &sample, &args.input, &args.model) {
        reporter.note(&format!("warning: {w}"));
    }
    if let Some(b) = args.beam {
        model.system.set_beam(b);
    }
    let expected = if args.nbest.is_some() { None } else { Some(sentences) };
    let mut out = super::output::Lines::new(expected, "lines");
    // Source words the translations copy: no rule of the derivation translated them.
    let mut copied = 0;
    // The trace prints each derivation over its source words; the stream hands
    // the trees on to be translated, so the words of those read wait here, in order.
    let pending: std::cell::RefCell<std::collections::VecDeque<Vec<String>>> = Default::default();
    let trees = trees.inspect(|t| {
        if let (true, Ok(t)) = (args.trace, t) {
            pending.borrow_mut().push_back(t.words().to_vec());
        }
    });
    let threads = args.threads.get();
    let unknown = translation::translate_stream(&model, trees, 0, args.nbest, threads, &mut reporter, |k, t| {
        copied += t.rules().iter().flatten().filter(|r| r.copied).count();
        let source = if args.trace { pending.borrow_mut().pop_front().unwrap_or_default() } else { Vec::new() };
        match &t {
            Translated::NBest(v) => {
                for e in &v.nbest {
                    let features: Vec<String> = e.features.iter().map(f64::to_string).collect();
                    out.line(format_args!("{k} ||| {} ||| {} ||| {}", e.words.join(" "), features.join(" "), e.score))?;
                }
            }
            Translated::Best(b) => out.line(format_args!("{}", b.words.join(" ")))?,
        }
        if args.trace {
            trace_notes(k, t.source_notes(), t.words(), t.provenance(), t.rules());
            match &t {
                Translated::Best(MtOutput { ms: Some(ms), .. }) => trace_derivation(k, ms, &source),
                Translated::Best(MtOutput { ms: None, rules, .. }) => trace_phrases(k, rules),
                Translated::NBest(_) => {}
            }
        }
        Ok::<_, CliError>(())
    });
    let unknown = out.finish(unknown)?;
    let share = 100.0 * copied as f64 / unknown.tokens.max(1) as f64;
    reporter.note(&format!("source {unknown}; copied in the translations {share:.1}%"));
    Ok(())
}

/// `--trace`'s lines of the MS system's target SMS and derivation of
/// sentence `k`: each RM pair, and under it the phrase pairs inside its
/// scope (which rule translated each source word).
fn trace_derivation(k: usize, ms: &MsTranslation, source: &[String]) {
    eprintln!("sentence {}: target SMS: {}", k + 1, ms.target_sms);
    for s in &ms.derivation {
        eprintln!(
            "  {} {} -> {}{} : {}",
            word_range(s.source),
            s.source_rm,
            s.target_rm,
            if s.glue { " (glue)" } else { "" },
            s.target.join(" ")
        );
        for p in &s.phrases {
            trace_phrase("      ", p.source, source.get(p.source.0..p.source.1).unwrap_or(&[]), &p.target, p.unknown);
        }
    }
}

/// `--trace`'s lines of the phrase-based system's derivation of sentence
/// `k`: its phrase pairs in target order (which rule translated each
/// source word).
fn trace_phrases(k: usize, rules: &[Option<WordRule>]) {
    eprintln!("sentence {}: phrase pairs:", k + 1);
    let mut steps: Vec<&WordRule> = rules.iter().flatten().collect();
    steps.sort_by_key(|r| r.step);
    steps.dedup_by_key(|r| r.step);
    for r in steps {
        trace_phrase("  ", r.span, &r.source, &r.target, r.copied);
    }
}

/// One phrase pair of a derivation: `[s, e) source -> target`, `(copied)` for a copy.
fn trace_phrase(indent: &str, span: (usize, usize), source: &[String], target: &[String], copied: bool) {
    let copied = if copied { " (copied)" } else { "" };
    eprintln!("{indent}{} {} -> {}{copied}", word_range(span), source.join(" "), target.join(" "));
}

/// A span of source words `[s, e)` (from 0) as the trace numbers words: `words s+1-e`.
fn word_range((s, e): (usize, usize)) -> String {
    if e == s + 1 {
        format!("word {e}")
    } else {
        format!("words {}-{e}", s + 1)
    }
}

/// `--trace`'s lines of the treated source words of sentence `k`: what
/// happened to each under the rule that covers it (a word is unknown only
/// if that rule copies it), and the words of the translation that came
/// from it.
fn trace_notes(
    k: usize,
    notes: &[SourceNote],
    words: &[String],
    provenance: &[Option<usize>],
    rules: &[Option<WordRule>],
) {
    for (i, n) in notes.iter().enumerate() {
        let became: Vec<&str> =
            words.iter().zip(provenance).filter(|(_, p)| **p == Some(i)).map(|(w, _)| w.as_str()).collect();
        let became = if became.is_empty() { String::new() } else { format!("; translated as {}", became.join(" ")) };
        let rule = rules.get(n.word).and_then(Option::as_ref);
        eprintln!("sentence {}: word {} '{}': {}{became}", k + 1, n.word + 1, n.text, n.describe(rule));
    }
}

/// References: one tokenised sentence per line, or a file of bracketed
/// trees, one per line (every line starts with `(` and the file reads as
/// that many trees), whose leaves are the references.
fn references(file: &str) -> Result<Vec<String>, CliError> {
    let text = read(file)?;
    let lines: Vec<&str> = text.lines().collect();
    // BLEU or an LM of no sentence would be a silent 0, not a result.
    if lines.iter().all(|l| l.trim().is_empty()) {
        return Err(CliError::Empty { file: file.to_string(), what: "sentence" });
    }
    if !lines.is_empty() && lines.iter().all(|l| l.trim_start().starts_with('(')) {
        if let Ok(trees) = Tree::parse_all(&text, file) {
            if trees.len() == lines.len() {
                return Ok(trees.iter().map(|t| t.words().join(" ")).collect());
            }
        }
    }
    Ok(lines.into_iter().map(str::to_string).collect())
}

/// Trains a modified Kneser-Ney word LM (the systems' h6) and writes it as ARPA.
pub fn lm(args: LmArgs) -> Result<(), CliError> {
    let sentences: Vec<Vec<String>> =
        references(&args.train)?.iter().map(|l| l.split_whitespace().map(str::to_string).collect()).collect();
    let lm = NgramLm::train(&sentences, args.order).map_err(usage)?;
    let arpa = write_arpa(&lm);
    super::output::write_file(&args.output, &arpa)?;
    let counts: Vec<String> =
        lm.ngram_counts().iter().enumerate().map(|(n, c)| format!("{c} {}-grams", n + 1)).collect();
    out!(
        "{}: {} sentences, order {}, {}; training perplexity {:.2}",
        args.output,
        sentences.len(),
        lm.order(),
        counts.join(", "),
        lm.perplexity(&sentences)
    )
}

/// The hypotheses of `file`, as many lines as `refs` has (located error otherwise).
fn hypotheses(file: &str, reference: &str, refs: &[String]) -> Result<Vec<String>, CliError> {
    let hyps: Vec<String> = read(file)?.lines().map(str::to_string).collect();
    if refs.len() != hyps.len() {
        return Err(CliError::Usage(format!(
            "{}:{}:1: expected {} lines (as many as {}), found {}",
            file,
            hyps.len().min(refs.len()) + 1,
            refs.len(),
            reference,
            hyps.len()
        )));
    }
    Ok(hyps)
}

pub fn bleu(args: BleuArgs) -> Result<(), CliError> {
    let refs = references(&args.reference)?;
    let runs = args.runs.max(1);
    if let [hyp] = args.hyp.as_slice() {
        let b = corpus_bleu(&hypotheses(hyp, &args.reference, &refs)?, &refs).map_err(usage)?;
        return out!("{b}");
    }
    if !args.hyp.len().is_multiple_of(runs) {
        return Err(usage(format!(
            "--runs {runs}: expected a multiple of {runs} --hyp files (each system's runs in a row), found {}",
            args.hyp.len()
        )));
    }
    let mut systems = Vec::with_capacity(args.hyp.len() / runs);
    for group in args.hyp.chunks(runs) {
        let mut scores = RunScores { runs: Vec::with_capacity(runs) };
        for file in group {
            let hyps = hypotheses(file, &args.reference, &refs)?;
            scores.runs.push(hyps.iter().zip(&refs).map(|(h, r)| BleuStats::from_text(h, &[r])).collect());
        }
        systems.push(scores);
    }
    let names: Vec<String> = args
        .hyp
        .chunks(runs)
        .map(|g| if g.len() > 1 { format!("{} (+{} runs)", g[0], g.len() - 1) } else { g[0].clone() })
        .collect();
    let tested = significance::paired_bootstrap(&systems, args.samples.max(1), args.seed).map_err(usage)?;
    let name_width = names.iter().map(|f| f.chars().count()).max().unwrap_or(0).max(6);
    for (file, s) in args.hyp.iter().zip(systems.iter().flat_map(RunScores::bleus)) {
        let width = name_width.max(file.chars().count());
        out!("{file:<width$}  {s}")?;
    }
    out!(
        "paired bootstrap resampling (Koehn 2004): {} resamples of {} sentences, seed {}; {}p against {}",
        args.samples.max(1),
        refs.len(),
        args.seed,
        if runs > 1 { format!("mean BLEU over {runs} runs per system (Clark et al. 2011); ") } else { String::new() },
        names[0]
    )?;
    out!("{:<name_width$}  {:>6}  {:>16}  {:>7}", "system", "BLEU", "μ ± 95% CI", "p")?;
    for (name, t) in names.iter().zip(&tested) {
        let p = t.p_value.map_or("-".to_string(), |p| format!("{p:.4}{:1}", significance::mark(p)));
        out!("{name:<name_width$}  {:>6.2}  {:>16}  {:>7}", t.score, format!("{:.2} ± {:.2}", t.mean, t.ci), p)?;
    }
    Ok(())
}

pub fn mt_experiment(args: MtExperimentArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    if !args.train_fractions.is_empty() {
        return learning_curve(args, limits);
    }
    let (train, dev, test) = experiment_sets(&args, limits)?;
    for dir in args.output_dir.iter().chain(&args.hyp_dir) {
        super::output::create_dir(dir)?;
    }
    let subtree = experiment_subtree(&args, &args.extract, limits)?;
    let experiment = translation_experiment::Experiment {
        train: &train,
        train_name: args.train.clone(),
        dev: &dev,
        dev_name: args.dev.clone(),
        test: &test,
        subtree,
        systems: args.systems.clone(),
        methods: args.extract.clone(),
        repeats: args.repeats,
        settings: args.opts.settings()?,
    };
    let clock = Instant::now();
    let outcome = translation_experiment::run(
        &experiment,
        &|| clock.elapsed().as_secs_f64(),
        &mut reporter,
        |run| -> Result<(), CliError> {
            if let Some(dir) = &args.output_dir {
                let file = format!("{dir}/{}.json", run.name);
                super::output::write_file(&file, run.model.to_json())?;
            }
            let hyps: String = run.hyps.iter().map(|h| h.join(" ") + "\n").collect();
            for dir in args.output_dir.iter().chain(&args.hyp_dir) {
                let file = format!("{dir}/{}.hyp", run.name);
                super::output::write_file(&file, &hyps)?;
            }
            Ok(())
        },
    )?;
    let rows = &outcome.rows;
    let bootstrap = outcome.significance().map_err(usage)?;
    out!(
        "word alignment {:.1} s; sub-tree alignment ({}) {:.1} s; test: {} sentences; {} tuning repeat(s) ({} seeds {}..)",
        outcome.align_secs,
        outcome.subtree.as_deref().unwrap_or("none"),
        outcome.subtree_secs,
        test.len(),
        outcome.repeats,
        args.opts.tuner.name(),
        args.opts.seed
    )?;
    out!(
        "BLEU: mean over the runs; sd: their standard deviation; p: paired bootstrap against the first row ({} resamples, seed {}; a row's score on a resample is the mean over its runs, Clark et al. 2011; * p < 0.05)",
        significance::DEFAULT_SAMPLES,
        significance::DEFAULT_SEED
    )?;
    out!(
        "{:<7} {:<6} {:>6} {:>5} {:>13} {:>7}  {:>6} {:>6} {:>6} {:>6}  {:>5}  {:>7}  {:>8} {:>8} {:>8} {:>7}",
        "System",
        "Model",
        "BLEU",
        "sd",
        "min-max",
        "p",
        "p1",
        "p2",
        "p3",
        "p4",
        "BP",
        "dev",
        "train s",
        "tune s",
        "test s",
        "sent/s"
    )?;
    let p_text = |k: usize, base: usize| -> String {
        match bootstrap.p_value(k, base) {
            Some(p) if k != base => format!("{p:.3}{:1}", significance::mark(p)),
            _ => "-".to_string(),
        }
    };
    for (k, r) in rows.iter().enumerate() {
        let n = r.bleus.len().max(1) as f64;
        let mean = |f: &dyn Fn(&Bleu) -> f64| r.bleus.iter().map(f).sum::<f64>() / n;
        let min = r.bleus.iter().map(|b| b.score).fold(f64::INFINITY, f64::min);
        let max = r.bleus.iter().map(|b| b.score).fold(f64::NEG_INFINITY, f64::max);
        let p: Vec<f64> = (0..4).map(|n| mean(&|b: &Bleu| b.precisions[n])).collect();
        let dev = if r.dev_bleus.is_empty() {
            "-".to_string()
        } else {
            format!("{:.2}", r.dev_bleus.iter().sum::<f64>() / r.dev_bleus.len() as f64)
        };
        out!(
            "{:<7} {:<6} {:>6.2} {:>5.2} {:>13} {:>7}  {:>6.1} {:>6.1} {:>6.1} {:>6.1}  {:>5.3}  {:>7}  {:>8.1} {:>8.1} {:>8.1} {:>7.1}",
            r.system.name(),
            r.method.name(),
            mean(&|b: &Bleu| b.score),
            r.scores().sd(),
            format!("{min:.2}-{max:.2}"),
            p_text(k, 0),
            p[0],
            p[1],
            p[2],
            p[3],
            mean(&|b: &Bleu| b.bp),
            dev,
            r.train_secs,
            r.tune_secs,
            r.test_secs,
            (test.len() * r.bleus.len()) as f64 / r.test_secs.max(1e-9)
        )?;
    }
    if rows.len() > 2 {
        out!("paired bootstrap p-values, row against column (as above; symmetric):")?;
        let name = |r: &translation_experiment::Row| format!("{} {}", r.system.name(), r.method.name());
        let head: Vec<String> = rows[..rows.len() - 1].iter().map(|r| format!("{:>12}", name(r))).collect();
        out!("{:<12} {}", "", head.join(" "))?;
        for (k, r) in rows.iter().enumerate().skip(1) {
            let cells: Vec<String> = (0..k).map(|j| format!("{:>12}", p_text(k, j))).collect();
            out!("{:<12} {}", name(r), cells.join(" "))?;
        }
    }
    out!("source words unknown to the phrase table, and what was done with them:")?;
    for r in rows {
        for (set, stats) in ["dev", "test"].iter().zip(&r.unknown) {
            out!("{} {} {set}: {stats}", r.system.name(), r.method.name())?;
        }
    }
    out!("tuned weights, mean over the runs (MERT normalises the tunable ones to L1 norm 1):")?;
    for r in rows {
        let w: Vec<String> = r.mean_weights().iter().map(|(f, w)| format!("{f} {w:.3}")).collect();
        out!("{} {}: {}", r.system.name(), r.method.name(), w.join(", "))?;
    }
    Ok(())
}

/// `mt-experiment`'s train, dev and test sets (dev with gold for a trained sub-tree aligner).
fn experiment_sets(args: &MtExperimentArgs, limits: &Limits) -> Result<(Corpus, Corpus, Corpus), CliError> {
    let read = |prefix: &str, gold| Corpus::read_prefix_within(prefix, gold, limits);
    let trained = args.subtree_align == SubtreeAlignArg::Trained;
    Ok((read(&args.train, true)?, read(&args.dev, trained)?, read(&args.test, false)?))
}

/// The sub-tree alignment of `mt-experiment`, if one of `methods` extracts with it.
fn experiment_subtree(
    args: &MtExperimentArgs,
    methods: &[ExtractMethod],
    limits: &Limits,
) -> Result<Option<SubtreeAlign>, CliError> {
    let needed = translation_experiment::needs_subtree_links(methods);
    needed.then(|| subtree_align(&args.subtree_align, &args.opts, Some(&args.kernel), limits)).transpose()
}

/// One size of `mt-experiment --train-fractions`: its pairs and, per
/// system in the order run, the runs' test BLEU, the mean h1/h2/h5 weights
/// and the RM singleton share (MS only).
struct CurveSize {
    fraction: f64,
    pairs: usize,
    rows: Vec<CurveRow>,
    /// MS − phrase (mean over runs) and its paired-bootstrap p, when both ran.
    difference: Option<(f64, f64)>,
}

/// One system at one size of the learning curve.
struct CurveRow {
    system: SystemKind,
    /// Each run's test BLEU.
    bleus: Vec<f64>,
    /// The mean tuned weights of h1, h2 and h5 (MS only).
    weights: Vec<(&'static str, f64)>,
    /// The RM table's share of pairs with expected count at most 1 (MS only).
    singletons: Option<f64>,
}

/// `mt-experiment --train-fractions` (issue 27.2): the learning curve.
fn learning_curve(args: MtExperimentArgs, limits: &Limits) -> Result<(), CliError> {
    let mut reporter = Reporter::new();
    let (full, dev, test) = experiment_sets(&args, limits)?;
    let samples =
        translation_experiment::nested_samples(&full, &args.train_fractions, args.opts.seed).map_err(usage)?;
    let methods: Vec<ExtractMethod> = args.extract.iter().copied().take(1).collect();
    let subtree = experiment_subtree(&args, &methods, limits)?;
    let clock = Instant::now();
    let mut sizes: Vec<CurveSize> = Vec::new();
    out!(
        "learning curve: {} of {} training pairs (nested samples, seed {}), {} extraction; dev {} sentences; test {} sentences; {} MERT run(s) per system (seeds {}..)",
        args.train_fractions.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(", "),
        full.len(),
        args.opts.seed,
        methods.first().map_or("word".to_string(), |m| m.to_string()),
        dev.len(),
        test.len(),
        args.repeats.max(1),
        args.opts.seed
    )?;
    out!(
        "{:>6} {:>6} {:<7} {:>6} {:>5}  {:>17}  {:>8} {:>8} {:>8} {:>7}",
        "frac",
        "pairs",
        "system",
        "BLEU",
        "sd",
        "MS-phrase (p)",
        "h1",
        "h2",
        "h5",
        "RM<=1"
    )?;
    for (fraction, train) in args.train_fractions.iter().zip(&samples) {
        let experiment = translation_experiment::Experiment {
            train,
            train_name: format!("{} ({fraction} sample)", args.train),
            dev: &dev,
            dev_name: args.dev.clone(),
            test: &test,
            subtree: subtree.clone(),
            systems: args.systems.clone(),
            methods: methods.clone(),
            repeats: args.repeats,
            settings: args.opts.settings()?,
        };
        let mut singletons: Vec<(SystemKind, f64)> = Vec::new();
        let outcome = translation_experiment::run(
            &experiment,
            &|| clock.elapsed().as_secs_f64(),
            &mut reporter,
            |run| -> Result<(), CliError> {
                if let Some(share) = translation_experiment::rm_singleton_share(run.model) {
                    singletons.push((run.model.system.kind(), share));
                }
                if let Some(dir) = &args.hyp_dir {
                    super::output::create_dir(dir)?;
                    let file = format!("{dir}/{fraction}-{}.hyp", run.name);
                    let hyps: String = run.hyps.iter().map(|h| h.join(" ") + "\n").collect();
                    super::output::write_file(&file, hyps)?;
                }
                Ok(())
            },
        )?;
        let bootstrap = outcome.significance().map_err(usage)?;
        let rows = &outcome.rows;
        let mean =
            |r: &translation_experiment::Row| significance::mean(&r.bleus.iter().map(|b| b.score).collect::<Vec<_>>());
        let phrase = rows.iter().position(|r| r.system == SystemKind::Phrase);
        let ms = rows.iter().position(|r| r.system == SystemKind::Ms);
        let difference = match (phrase, ms) {
            (Some(p), Some(m)) => Some((mean(&rows[m]) - mean(&rows[p]), bootstrap.p_value(m, p).unwrap_or(1.0))),
            _ => None,
        };
        let size = CurveSize {
            fraction: *fraction,
            pairs: train.len(),
            rows: rows
                .iter()
                .map(|r| {
                    let w: Vec<(&'static str, f64)> = r
                        .mean_weights()
                        .into_iter()
                        .filter(|(n, _)| ["rm_e_given_f", "rm_f_given_e", "structure"].contains(n))
                        .collect();
                    let share = singletons.iter().find(|(k, _)| *k == r.system).map(|(_, s)| *s);
                    CurveRow {
                        system: r.system,
                        bleus: r.bleus.iter().map(|b| b.score).collect(),
                        weights: w,
                        singletons: share,
                    }
                })
                .collect(),
            difference,
        };
        for CurveRow { system, bleus, weights: w, singletons: share } in &size.rows {
            let diff = match (system, size.difference) {
                (SystemKind::Ms, Some((d, p))) => format!("{d:+.2} ({p:.3}{})", significance::mark(p)),
                _ => "-".to_string(),
            };
            let wt =
                |name: &str| w.iter().find(|(n, _)| *n == name).map_or("-".to_string(), |(_, v)| format!("{v:.4}"));
            out!(
                "{:>6} {:>6} {:<7} {:>6.2} {:>5.2}  {:>17}  {:>8} {:>8} {:>8} {:>7}",
                size.fraction,
                size.pairs,
                system.name(),
                significance::mean(bleus),
                significance::sample_sd(bleus),
                diff,
                wt("rm_e_given_f"),
                wt("rm_f_given_e"),
                wt("structure"),
                share.map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s))
            )?;
        }
        sizes.push(size);
    }
    out!("log-linear fit per system, BLEU = a + b ln(pairs), each run one point (± standard error):")?;
    let colours = ["#0072b2", "#d55e00"];
    let mut curves = Vec::new();
    let mut fits = Vec::new();
    for (k, system) in args.systems.iter().enumerate() {
        let points: Vec<(f64, Vec<f64>)> = sizes
            .iter()
            .filter_map(|s| s.rows.iter().find(|r| r.system == *system).map(|r| (s.pairs as f64, r.bleus.clone())))
            .collect();
        let fit = LogLinearFit::fit_runs(&points);
        match &fit {
            Some(f) => out!(
                "{:<7} a = {:.2} ± {:.2}, b = {:.3} ± {:.3} BLEU per e-fold of data ({:.3} ± {:.3} per doubling), {} points",
                system.name(),
                f.intercept,
                f.intercept_se,
                f.slope,
                f.slope_se,
                f.slope * std::f64::consts::LN_2,
                f.slope_se * std::f64::consts::LN_2,
                f.points
            )?,
            None => out!("{:<7} too few points to fit", system.name())?,
        }
        fits.push((*system, fit));
        curves.push(translation_experiment::Curve {
            name: system.name(),
            colour: colours[k % colours.len()],
            sizes: points,
            fit,
        });
    }
    let fit_of = |s: SystemKind| fits.iter().find(|(k, _)| *k == s).and_then(|(_, f)| *f);
    if let (Some(p), Some(m)) = (fit_of(SystemKind::Phrase), fit_of(SystemKind::Ms)) {
        let d = p.against(&m);
        let verdict = match d.crossing {
            Some(n) => format!("the lines cross at about {n:.0} training pairs"),
            None => "the MS line does not rise faster: on these fits MS does not overtake phrase".to_string(),
        };
        out!("MS slope − phrase slope = {:.3} ± {:.3} ({:.1} standard errors); {verdict}", d.difference, d.se, d.z())?;
    }
    if let Some(file) = &args.curve_svg {
        super::output::write_file(file, translation_experiment::learning_curve_svg(&curves))?;
        reporter.note(&format!("wrote {file}"));
    }
    Ok(())
}
