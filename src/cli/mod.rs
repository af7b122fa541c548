//! Command-line parsing (clap) and the commands themselves.

use std::io::{BufWriter, Write};
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
mod mt;
mod progress;

use treelink::io::text::{end_position, read_text_file};
use treelink::kernel::{self, BtkKind, Space, SubTree, SubTreePair};
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
    /// fast_align-style IBM2 both ways, grow-diag-final-and) on the train and dev
    /// sentences (never their gold links), plus --bitext.
    Train(align::TrainArgs),
    /// Align tree pairs with a trained model; prints one line of links per pair (gold format).
    Align(align::AlignArgs),
    /// Align tree pairs with the Tinsley et al. (2007) baseline; prints one line of links per pair.
    Baseline(align::BaselineArgs),
    /// Precision, recall and F of predicted links against gold, over phrase-node links.
    Eval(align::EvalArgs),
    /// The paper's Tables 3/4: every feature space, the best combination and the baseline, with timings.
    Experiment(align::ExperimentArgs),
    /// Speed figures: kernel evaluations per second, training and aligning times.
    Bench(bench::BenchArgs),
    /// Train a translation system (ms: meta-structure, phrase: phrase-based) on a parallel treebank.
    ///
    /// The word alignment is trained in the engine on the train and dev sentences (or read
    /// with --word-align); with --extract dirc|ewos the sub-tree alignment comes from gold links
    /// (PREFIX.gold) or a model of `treelink train`. The weights are tuned on --dev by MERT.
    MtTrain(mt::MtTrainArgs),
    /// Translate source trees (one per line) with a trained system; one tokenised sentence per line.
    Translate(mt::TranslateArgs),
    /// Train a word language model (modified Kneser-Ney, the systems' h6) and write it as ARPA
    /// (for `mt-train --lm` and the page).
    Lm(mt::LmArgs),
    /// Corpus BLEU of hypotheses against references (tokenised, one per line), as sacreBLEU -tok none.
    Bleu(mt::BleuArgs),
    /// Table 5 of the kernels paper / Table 3 of the meta-structure paper: systems x extraction
    /// methods, test BLEU with its n-gram precisions, and timings.
    MtExperiment(mt::MtExperimentArgs),
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
}

/// A command's failure: printed as one sentence on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Read(#[from] treelink::io::text::ReadError),
    #[error(transparent)]
    Tree(#[from] treelink::tree::ParseError),
    #[error("{file}:{line}:{column}: expected {expected} {what} (as many as {other}), found {found}")]
    Count { file: String, line: usize, column: usize, expected: usize, what: &'static str, other: String, found: usize },
    #[error("--lambda must be a number greater than 0, found {0}")]
    Lambda(f64),
    #[error("cannot write the output: {0}")]
    Write(std::io::Error),
    #[error("{file}: cannot write: {source}")]
    WriteFile { file: String, source: std::io::Error },
    #[error(transparent)]
    Corpus(#[from] treelink::corpus::CorpusError),
    #[error(transparent)]
    Links(#[from] treelink::io::links::LinkError),
    #[error(transparent)]
    Lexicon(#[from] treelink::lexicon::LexError),
    #[error(transparent)]
    Align(#[from] treelink::align::model::AlignError),
    #[error(transparent)]
    AlignModel(#[from] treelink::align::model::ModelFileError),
    #[error(transparent)]
    MtModel(#[from] treelink::mt::model::MtModelError),
    #[error("{0}")]
    Usage(String),
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
    match cli.command {
        Command::Train(args) => align::train(args),
        Command::Align(args) => align::align(args),
        Command::Baseline(args) => align::baseline(args),
        Command::Eval(args) => align::eval(args),
        Command::Experiment(args) => align::experiment(args),
        Command::Bench(args) => bench::bench(args),
        Command::MtTrain(args) => mt::mt_train(args),
        Command::Translate(args) => mt::translate(args),
        Command::Bleu(args) => mt::bleu(args),
        Command::Lm(args) => mt::lm(args),
        Command::MtExperiment(args) => mt::mt_experiment(args),
        Command::Kernel { k: KernelArgs { space, lambda, normalize }, left, right } => {
            check_lambda(lambda)?;
            let files = read_tree_files(&[&left, &right])?;
            let (l, r) = (&files[0], &files[1]);
            print_lines((0..l.len()).map(|i| {
                let (a, b) = (SubTree::whole(&l[i]), SubTree::whole(&r[i]));
                if normalize {
                    kernel::tree_kernel_normalized(space, lambda, a, b)
                } else {
                    kernel::tree_kernel(space, lambda, a, b)
                }
            }))
        }
        Command::Btk { kind, k: KernelArgs { space, lambda, normalize }, src1, trg1, src2, trg2 } => {
            check_lambda(lambda)?;
            let f = read_tree_files(&[&src1, &trg1, &src2, &trg2])?;
            print_lines((0..f[0].len()).map(|i| {
                let x = SubTreePair::whole(&f[0][i], &f[1][i]);
                let y = SubTreePair::whole(&f[2][i], &f[3][i]);
                if normalize {
                    kernel::btk_normalized(kind, space, lambda, x, y)
                } else {
                    kernel::btk(kind, space, lambda, x, y)
                }
            }))
        }
    }
}

fn check_lambda(lambda: f64) -> Result<(), CliError> {
    if lambda.is_finite() && lambda > 0.0 {
        Ok(())
    } else {
        Err(CliError::Lambda(lambda))
    }
}

/// Reads tree files that must hold equally many trees.
fn read_tree_files(files: &[&str]) -> Result<Vec<Vec<Tree>>, CliError> {
    let mut out: Vec<Vec<Tree>> = Vec::with_capacity(files.len());
    for &file in files {
        let text = read_text_file(file)?;
        let (trees, starts) = Tree::parse_all_with_starts(&text, file)?;
        if let Some(first) = out.first() {
            if first.len() != trees.len() {
                let (line, column) = starts.get(first.len()).copied().unwrap_or_else(|| end_position(&text));
                return Err(CliError::Count {
                    file: file.to_string(),
                    line,
                    column,
                    what: "trees",
                    expected: first.len(),
                    other: files[0].to_string(),
                    found: trees.len(),
                });
            }
        }
        out.push(trees);
    }
    Ok(out)
}

/// One value per line; `{}` on f64 prints the shortest decimal that reads
/// back to the same double, i.e. full precision.
fn print_lines(values: impl Iterator<Item = f64>) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for v in values {
        writeln!(out, "{v}").map_err(CliError::Write)?;
    }
    out.flush().map_err(CliError::Write)?;
    Ok(())
}
