//! Command-line parsing (clap) and the commands themselves.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` that returns an error instead of panicking (a closed pipe,
/// as in `treelink eval ... | head -1`, is not a crash).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::cli::CliError::Write)
    }};
}

mod align;
mod bench;
mod draw;
mod exercise;
mod interchange;
mod mt;
mod output;
mod progress;
mod stream;
mod svm_light_tk;

use treelink::io::tree_stream::TreeStream;
use treelink::kernel::stream::KernelStream;
use treelink::kernel::{self, BtkKind, Space, SubTree, SubTreePair, TooManyNodePairs};
use treelink::limits::Limits;
use treelink::parallel::{stream_in_order, Threads};
use treelink::tree::Tree;

/// treelink: bilingual tree kernels and sub-tree alignment for syntax-aware translation.
///
/// Trees are Penn-style brackets, one per line or spread over lines:
/// `(S (NP (ART den) (NN Klimawandel)) (VVFIN spüren))`. Words are leaves;
/// nodes (phrase and POS) are numbered in pre-order from 0.
#[derive(Parser, Debug)]
#[command(name = "treelink", version, about, long_about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Limits on one input (see `treelink::limits`): each may be given before or
/// after the command; an input over one gets an error naming it.
#[derive(clap::Args, Debug)]
struct LimitArgs {
    /// Words per sentence that is aligned or translated.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_words)]
    max_words: usize,
    /// Nodes per tree that is aligned or translated.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_nodes)]
    max_nodes: usize,
    /// Candidate node pairs of a training treebank (about 100 bytes of memory each).
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_train_candidates)]
    max_train_candidates: usize,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Monolingual tree kernel K(tree i of LEFT, tree i of RIGHT), one number per line.
    ///
    /// Prints, for each i, the kernel between the i-th tree of LEFT and the
    /// i-th tree of RIGHT at full f64 precision (shortest form that reads
    /// back to the same double). Both files must hold the same number of trees.
    Kernel {
        #[command(flatten)]
        k: KernelArgs,
        #[command(flatten)]
        threads: stream::ThreadsArg,
        /// Trees file.
        left: String,
        /// Trees file, as many trees as LEFT.
        right: String,
    },
    /// Bilingual tree kernel between tree pairs (SRC1_i, TRG1_i) and (SRC2_i, TRG2_i), one number per line.
    ///
    /// iBTK sums the source and target kernels, dBTK multiplies them; with
    /// --normalize the BTK is normalised as a whole. All four files must hold
    /// the same number of trees.
    Btk {
        /// ibtk (sum) or dbtk (product).
        #[arg(long, value_name = "KIND")]
        kind: BtkKind,
        #[command(flatten)]
        k: KernelArgs,
        #[command(flatten)]
        threads: stream::ThreadsArg,
        /// Source trees of the first pairs.
        src1: String,
        /// Target trees of the first pairs.
        trg1: String,
        /// Source trees of the second pairs.
        src2: String,
        /// Target trees of the second pairs.
        trg2: String,
    },
    /// Train a sub-tree alignment model (kernel SVM) on a gold-aligned treebank.
    ///
    /// PREFIX means the files PREFIX.src, PREFIX.trg and PREFIX.gold. Without
    /// --lex-s2t/--lex-t2s the lexical model is trained in the engine (IBM1 and a
    /// fast_align-style IBM2 both ways, then the HMM with --word-model hmm,
    /// grow-diag-final-and) on the train sentences (never their gold links), plus
    /// --bitext. The model is trained for input that lexicon never saw: --dev's
    /// word links come from it as a test set's would, and each training pair is
    /// featurised by a lexicon trained without its fold (5 folds). `align` re-trains
    /// the lexicon with the input's sentences unless --held-out.
    Train(align::TrainArgs),
    /// Replay the annotation of a treebank with its gold as the annotator.
    ///
    /// Trains the first model as `train --train A --dev B` would; then, pair by pair of --pool
    /// (the least sure first, or in file order), the model proposes links, the annotator removes
    /// the most confident wrong link, else adds the first missed gold link, and the pair is
    /// decoded again with the links kept fixed and the removed ones forbidden, until the
    /// proposal is the gold. The model is trained again (its kept configuration) with the pairs
    /// done after each --batch. Prints a line per batch, then `pairs P  gold G  edits E  static
    /// S`, S being the wrong plus missed links of `align --model … --input POOL` with the first model.
    SimulateAnnotation(align::SimulateAnnotationArgs),
    /// Align tree pairs with a trained model; prints one line of links per pair (gold format).
    ///
    /// The pairs are read, aligned (on --threads threads) and printed pair by pair, so memory
    /// does not grow with the input, when the lexicon needs no input sentences: Moses tables (the
    /// model's, or --lex-s2t/--lex-t2s, e.g. from `treelink lexicon`), or --held-out. A model's
    /// in-engine lexicon is otherwise re-trained with the input's sentences, which are read first.
    Align(align::AlignArgs),
    /// Align tree pairs with the Tinsley et al. (2007) baseline; prints one line of links per pair.
    ///
    /// With --lex-s2t/--lex-t2s the pairs stream (read, aligned and printed pair by pair); the
    /// in-engine lexicon is otherwise trained on the input's sentences, which are read first.
    Baseline(align::BaselineArgs),
    /// Train the in-engine lexicon on a bitext and write it as Moses lex tables PREFIX.s2t (lines
    /// `target source p(t|s)`) and PREFIX.t2s (`source target p(s|t)`), which `train`, `align` and
    /// `baseline` take as --lex-s2t and --lex-t2s: so aligning a large corpus streams.
    Lexicon(align::LexiconArgs),
    /// Precision, recall and F of predicted links against gold, over phrase-node links.
    Eval(align::EvalArgs),
    /// Draw one pair with its links as a standalone SVG file (the page's SVG export).
    ///
    /// Gold links from PREFIX.gold if it exists; with --links, predicted links marked correct,
    /// wrong or missed against it.
    Draw(draw::DrawArgs),
    /// The paper's Tables 3/4: every feature space, the best combination and the baseline, with timings.
    Experiment(align::ExperimentArgs),
    /// Speed figures: kernel evaluations per second, training and aligning times.
    Bench(bench::BenchArgs),
    /// Train a translation system (ms: meta-structure, phrase: phrase-based) on a parallel treebank.
    ///
    /// The word alignment is trained in the engine on the train and dev sentences (or read
    /// with --word-align); with --extract dirc|ewos the sub-tree alignment comes from gold links
    /// (PREFIX.gold) or a model of `treelink train`. The weights are tuned on --dev (--tuner).
    MtTrain(mt::MtTrainArgs),
    /// Translate source trees (one per line) with a trained system; one tokenised sentence per line.
    Translate(mt::TranslateArgs),
    /// Convert a translation model between JSON and the compact binary form (.tlmt), optionally
    /// dropping what its decoder can never use.
    MtConvert(mt::MtConvertArgs),
    /// Train a word language model (modified Kneser-Ney, the systems' h6) and write it as ARPA
    /// (for `mt-train --lm` and the page).
    Lm(mt::LmArgs),
    /// Corpus BLEU of hypotheses against references (tokenised, one per line), as sacreBLEU -tok none.
    Bleu(mt::BleuArgs),
    /// Table 5 of the kernels paper / Table 3 of the meta-structure paper: systems x extraction
    /// methods, test BLEU with its n-gram precisions, and timings.
    MtExperiment(mt::MtExperimentArgs),
    /// SVM-Light-TK 1.5's svm_learn -t 5 / svm_classify on its files and option letters, and a
    /// writer of sub-tree-pair examples in its format.
    #[command(name = "svm-light-tk", subcommand)]
    SvmLightTk(svm_light_tk::TkCommand),
    /// Classroom exercises: make one from gold-aligned pairs, write a student's answers, check a
    /// class's answers against the key (the page makes and reads the same files).
    #[command(subcommand)]
    Exercise(exercise::ExerciseCommand),
    /// Treebanks into bracketed files: a TigerXML pair with its STA alignment (tiger), the Dublin
    /// aligner's format (dublin).
    #[command(subcommand)]
    Import(interchange::ImportCommand),
    /// Bracketed files out: links as STA for the original treebanks (sta), TigerXML + STA (tiger),
    /// the Dublin aligner's format (dublin).
    #[command(subcommand)]
    Export(interchange::ExportCommand),
}

/// The kernel settings of `kernel` and `btk`.
#[derive(clap::Args, Debug)]
pub struct KernelArgs {
    /// Sub-structure space: sst (subset trees), rdsst (root-directed),
    /// rgsst (root-generated: Δ of the roots), root (1 if root labels match).
    #[arg(long, value_name = "SPACE")]
    space: Space,
    /// Decay factor λ of the Δ recursion.
    #[arg(long, value_name = "L", default_value_t = kernel::DEFAULT_LAMBDA)]
    lambda: f64,
    /// Normalise: K(x,y)/sqrt(K(x,x)·K(y,y)) (0 when that is 0); a BTK as a whole.
    #[arg(long)]
    normalize: bool,
    /// Refuse an SST or RdSST kernel that would visit more node pairs with equal
    /// productions than this (real sentences match thousands; a 20,000-deep
    /// chain 4·10⁸, minutes and gigabytes).
    #[arg(long, value_name = "N", default_value_t = kernel::DEFAULT_MAX_NODE_PAIRS)]
    max_node_pairs: u64,
}

/// A command's failure: printed as one sentence on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Read(#[from] treelink::io::text::ReadError),
    #[error(transparent)]
    Tree(#[from] treelink::tree::ParseError),
    #[error(transparent)]
    Stream(#[from] treelink::io::tree_stream::StreamError),
    #[error("tree {index} of each file: {error}: raise the limit (--max-node-pairs) to compute it")]
    Kernel { index: usize, error: TooManyNodePairs },
    #[error("{file}:{line}:{column}: expected {expected} {what} (as many as {other}), found {found}")]
    Count { file: String, line: usize, column: usize, expected: usize, what: &'static str, other: String, found: usize },
    #[error("--lambda must be a number greater than 0, found {0}")]
    Lambda(f64),
    #[error("cannot write the output: {0}")]
    Write(std::io::Error),
    #[error("{file}: no pair {pair}: the file holds {pairs} pairs, numbered from 1")]
    PairOutOfRange { file: String, pair: usize, pairs: usize },
    #[error("{file}: cannot write: {source}")]
    WriteFile { file: String, source: std::io::Error },
    /// A file of sentences with none: a command would otherwise print a figure of nothing.
    #[error("{file}:1:1: expected at least one {what}, found none")]
    Empty { file: String, what: &'static str },
    /// An error met after part of a streamed output was written (its input was checked first).
    #[error("{error}\ntreelink: the output is incomplete: {written}{} {what} written before this error", .expected.map_or(String::new(), |n| format!(" of {n}")))]
    Incomplete { written: usize, expected: Option<usize>, what: &'static str, error: Box<CliError> },
    #[error(transparent)]
    Corpus(#[from] treelink::corpus::CorpusError),
    #[error(transparent)]
    Links(#[from] treelink::io::links::LinkError),
    #[error(transparent)]
    Posteriors(#[from] treelink::io::links::PosteriorError),
    #[error(transparent)]
    Lexicon(#[from] treelink::lexicon::LexError),
    #[error(transparent)]
    Align(#[from] treelink::align::model::AlignError),
    #[error(transparent)]
    AlignModel(#[from] treelink::align::model::ModelFileError),
    #[error(transparent)]
    TranslationModel(#[from] treelink::mt::model::TranslationModelError),
    #[error(transparent)]
    Limit(#[from] treelink::limits::LimitError),
    #[error(transparent)]
    Alignment(#[from] treelink::app::alignment::AlignmentError),
    #[error(transparent)]
    Translation(#[from] treelink::app::translation::TranslationError),
    #[error(transparent)]
    Source(#[from] treelink::app::translation::SourceError),
    #[error(transparent)]
    Experiment(#[from] treelink::app::alignment_experiment::ExperimentError),
    #[error("cancelled")]
    Cancelled(#[from] treelink::progress::Cancelled),
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    TkExample(#[from] treelink::svm_light_tk::ExampleError),
    #[error(transparent)]
    TkModel(#[from] treelink::svm_light_tk::ModelError),
    #[error(transparent)]
    Tk(#[from] treelink::svm_light_tk::TkError),
    #[error("{file}:{line}:1: support vector {index}: {error}")]
    TkSupportVector { file: String, line: usize, index: usize, error: treelink::svm_light_tk::DocError },
    #[error(transparent)]
    Exercise(Box<treelink::exercise::ExerciseError>),
    #[error(transparent)]
    Tiger(#[from] treelink::tiger::TigerError),
    #[error(transparent)]
    Interchange(#[from] treelink::app::interchange::InterchangeError),
    #[error(transparent)]
    Ids(#[from] treelink::tiger::IdsError),
}

/// A text file's text (gzipped or not, as every reader takes it).
fn read(file: &str) -> Result<String, CliError> {
    Ok(treelink::io::text::read_text_file(file)?)
}

/// An error in the arguments, saying `message`.
fn usage(message: impl std::fmt::Display) -> CliError {
    CliError::Usage(message.to_string())
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`| head`): stop quietly, like other Unix tools.
        Err(CliError::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("treelink: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    let LimitArgs { max_words, max_nodes, max_train_candidates } = cli.limits;
    let limits = Limits { max_words, max_nodes, max_train_candidates };
    match cli.command {
        Command::Train(args) => align::train(args, &limits),
        Command::Align(args) => align::align(args, &limits),
        Command::SimulateAnnotation(args) => align::simulate_annotation(args, &limits),
        Command::Baseline(args) => align::baseline(args, &limits),
        Command::Lexicon(args) => align::lexicon(args, &limits),
        Command::Eval(args) => align::eval(args),
        Command::Draw(args) => draw::draw(args),
        Command::Experiment(args) => align::experiment(args, &limits),
        Command::Bench(args) => bench::bench(args),
        Command::MtTrain(args) => mt::mt_train(args, &limits),
        Command::Translate(args) => mt::translate(args, &limits),
        Command::MtConvert(args) => mt::mt_convert(args),
        Command::Bleu(args) => mt::bleu(args),
        Command::Lm(args) => mt::lm(args),
        Command::MtExperiment(args) => mt::mt_experiment(args, &limits),
        Command::SvmLightTk(command) => svm_light_tk::run(command),
        Command::Exercise(command) => exercise::run(command),
        Command::Import(command) => interchange::import(command),
        Command::Export(command) => interchange::export(command),
        Command::Kernel { k, threads, left, right } => {
            print_streamed(&[&left, &right], threads.get(), &k, |stream, t| {
                stream.tree_kernel(SubTree::whole(&t[0]), SubTree::whole(&t[1]), k.normalize)
            })
        }
        Command::Btk { kind, k, threads, src1, trg1, src2, trg2 } => {
            print_streamed(&[&src1, &trg1, &src2, &trg2], threads.get(), &k, |stream, t| {
                stream.btk(kind, SubTreePair::whole(&t[0], &t[1]), SubTreePair::whole(&t[2], &t[3]), k.normalize)
            })
        }
    }
}

/// Reads the files tree by tree in lockstep (memory holds a chunk of
/// trees of each) and prints `kernel(trees)` for each i in order, computed
/// on `threads` threads, each with its own stream of `k`'s kernel (a
/// stream's values do not depend on what it computed before); the files
/// must hold equally many trees, at least one, which is checked before the
/// first line is printed.
fn print_streamed(
    files: &[&str],
    threads: Threads,
    k: &KernelArgs,
    kernel: impl Fn(&mut KernelStream, &[Tree]) -> Result<f64, TooManyNodePairs> + Sync,
) -> Result<(), CliError> {
    if !(k.lambda.is_finite() && k.lambda > 0.0) {
        return Err(CliError::Lambda(k.lambda));
    }
    let new = || KernelStream::new(k.space, k.lambda, k.max_node_pairs);
    let (trees, _) = stream::check_all(lockstep(files)?, files[0], 0)?;
    let mut out = output::Lines::new(Some(trees), "lines");
    let printed = stream_in_order(
        lockstep(files)?,
        threads,
        new,
        |stream, _, trees| kernel(stream, trees),
        |i, value| {
            let value = value.map_err(|error| CliError::Kernel { index: i + 1, error })?;
            out.line(format_args!("{value}"))
        },
    );
    out.finish(printed).map(drop)
}

/// The trees of `files` read in lockstep: tree i of each, until all end
/// (an error where one ends before the others).
fn lockstep<'a>(files: &'a [&'a str]) -> Result<impl Iterator<Item = Result<Vec<Tree>, CliError>> + 'a, CliError> {
    let mut streams = Vec::with_capacity(files.len());
    for &file in files {
        // Output line k is tree k of each file: a blank line is refused where it is.
        streams.push(TreeStream::numbered(treelink::io::text::open_text(file)?, file));
    }
    let mut handed = vec![0usize; files.len()];
    let mut done = false;
    Ok(std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut trees = Vec::with_capacity(files.len());
        for (s, n) in streams.iter_mut().zip(&mut handed) {
            match s.next() {
                Some(Ok(t)) => {
                    trees.push(t);
                    *n += 1;
                }
                Some(Err(e)) => {
                    done = true;
                    return Some(Err(CliError::from(e)));
                }
                None => {}
            }
        }
        done = trees.len() < files.len();
        match trees.len() {
            0 => None,
            n if n < files.len() => Some(Err(count_mismatch(files, &mut streams, &handed))),
            _ => Some(Ok(trees)),
        }
    }))
}

/// The error of files that ran out at different trees, as for whole
/// files: the first file whose count differs from the first file's, located
/// at its first extra tree or at its end. The files are counted to their end.
fn count_mismatch<R: std::io::BufRead>(files: &[&str], streams: &mut [TreeStream<R>], handed: &[usize]) -> CliError {
    let mut ends = Vec::with_capacity(files.len());
    for (s, &n) in streams.iter_mut().zip(handed) {
        // The extra tree of a longer file is the one it just handed out.
        let extra = s.last_start();
        let rest = s.by_ref().take_while(Result::is_ok).count();
        ends.push((n + rest, extra, s.end_position()));
    }
    let expected = ends[0].0;
    let k = (1..files.len()).find(|&k| ends[k].0 != expected).unwrap_or(0);
    let (found, extra, end) = ends[k];
    let (line, column) = if found > expected { extra } else { end };
    CliError::Count {
        file: files[k].to_string(),
        line,
        column,
        expected,
        what: "trees",
        other: files[0].to_string(),
        found,
    }
}
