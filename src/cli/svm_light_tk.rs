//! `treelink svm-light-tk learn|classify|examples`: SVM-Light-TK 1.5's
//! `svm_learn -t 5` and `svm_classify` on their files, with their option
//! letters (engine: [`treelink::svm_light_tk`]), and a writer of
//! sub-tree-pair examples from a treebank.

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::time::Instant;

use clap::{ArgAction, Args, Subcommand};

use super::progress::Reporter;
use super::{usage, CliError};
use treelink::corpus::Corpus;
use treelink::kernel::DEFAULT_MAX_NODE_PAIRS;
use treelink::progress::Progress;
use treelink::svm::PolyKernel;
use treelink::svm_light_tk::{
    self, parse_example, Classifier, Combination, Confusion, Example, KernelParams, LearnParams, Pairing, TkError,
    TkModel, TreeKernel, VectorKernel,
};

#[derive(Subcommand, Debug)]
pub enum TkCommand {
    /// As `svm_learn -t 5`: learn a model from EXAMPLES and write it to MODEL (SVM-Light-TK's model format).
    ///
    /// Supported: -t 5, -F 0|1, -W S|A, -V S|A, -C T|+, -L, -T, -N 0..3, -S 0|1 with -d -s -r, -c, -j,
    /// -m, -v. Options of SVM-Light-TK that would change the result and are not supported are
    /// refused; those that only steer SVM-Light's own solver (-q -n -h -f) are accepted with a note.
    #[command(disable_help_flag = true)]
    Learn(Box<LearnArgs>),
    /// As `svm_classify`: one decision value per line of EXAMPLES into PREDICTIONS; prints accuracy.
    #[command(disable_help_flag = true)]
    Classify(ClassifyArgs),
    /// Write sub-tree-pair examples of a gold-aligned treebank in SVM-Light-TK's format.
    ///
    /// Positives are the gold links between phrase nodes (`+1 |BT| (source sub-tree) |BT|
    /// (target sub-tree) |ET|`); negatives are phrase-node pairs of the same tree pair without a
    /// gold link, drawn with the seed.
    Examples(ExamplesArgs),
}

/// SVM-Light-TK's option letters (each takes a value, as in `svm_learn`).
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Kernel type: only 5 (trees and vectors combined).
    #[arg(short = 't', default_value_t = 5)]
    kernel_type: i64,
    /// Tree kernel: 0 ST (subtrees), 1 SST (subset trees).
    #[arg(short = 'F', default_value_t = 1)]
    tree_kernel: i64,
    /// Trees of two examples: S the i-th with the i-th, A all pairs.
    #[arg(short = 'W', default_value = "S")]
    tree_pairing: String,
    /// Vectors of two examples: S the i-th with the i-th, A all pairs.
    #[arg(short = 'V', default_value = "S")]
    vector_pairing: String,
    /// Combination: T trees only, + vectors plus -T times trees.
    #[arg(short = 'C', default_value = "T")]
    combination: String,
    /// Decay λ of the tree kernel.
    #[arg(short = 'L', default_value_t = 0.4)]
    lambda: f64,
    /// Weight of the trees in -C +.
    #[arg(short = 'T', default_value_t = 1.0)]
    tree_constant: f64,
    /// Normalisation: 0 none, 1 trees, 2 vectors, 3 both (each tree and vector on its own).
    #[arg(short = 'N', default_value_t = 3)]
    normalization: i64,
    /// Vector kernel: 0 linear, 1 polynomial (s a·b + r)^d.
    #[arg(short = 'S', default_value_t = 1)]
    vector_kernel: i64,
    /// Degree d of the polynomial kernel.
    #[arg(short = 'd', default_value_t = 3)]
    degree: i64,
    /// s of the polynomial kernel.
    #[arg(short = 's', default_value_t = 1.0)]
    poly_s: f64,
    /// r of the polynomial kernel.
    #[arg(short = 'r', default_value_t = 1.0)]
    poly_r: f64,
    /// C; 0 is SVM-Light's default, 1/avg(|x|)².
    #[arg(short = 'c', default_value_t = 0.0)]
    cost: f64,
    /// Cost factor: errors on positives cost j times more.
    #[arg(short = 'j', default_value_t = 1.0)]
    cost_factor: f64,
    /// Kernel cache in MB (treelink's rows are f64).
    #[arg(short = 'm', default_value_t = 200.0)]
    cache_mb: f64,
    /// Verbosity: 0 quiet, 1 a summary (default), 2 progress.
    #[arg(short = 'v', default_value_t = 1)]
    verbosity: i64,
    /// Refuse a tree whose kernel would visit more node pairs with equal productions than this.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODE_PAIRS)]
    max_node_pairs: u64,
    #[command(flatten)]
    other: OtherLetters,
    #[arg(long, action = ArgAction::Help)]
    help: Option<bool>,
    /// Training examples, one per line.
    examples: String,
    /// The model file to write.
    #[arg(default_value = "svm_model")]
    model: String,
}

/// SVM-Light's other letters, read only to be refused or noted.
#[derive(Args, Debug)]
struct OtherLetters {
    #[arg(short = 'z', hide = true)]
    other_z: Option<String>,
    #[arg(short = 'b', hide = true)]
    other_b: Option<String>,
    #[arg(short = 'i', hide = true)]
    other_i: Option<String>,
    #[arg(short = 'f', hide = true)]
    other_f: Option<String>,
    #[arg(short = 'q', hide = true)]
    other_q: Option<String>,
    #[arg(short = 'n', hide = true)]
    other_n: Option<String>,
    #[arg(short = 'h', hide = true)]
    other_h: Option<String>,
    #[arg(short = 'w', hide = true)]
    other_w: Option<String>,
    #[arg(short = 'p', hide = true)]
    other_p: Option<String>,
    #[arg(short = 'e', hide = true)]
    other_e: Option<String>,
    #[arg(short = 'o', hide = true)]
    other_o: Option<String>,
    #[arg(short = 'k', hide = true)]
    other_k: Option<String>,
    #[arg(short = 'x', hide = true)]
    other_x: Option<String>,
    #[arg(short = 'g', hide = true)]
    other_g: Option<String>,
    #[arg(short = 'u', hide = true)]
    other_u: Option<String>,
    #[arg(short = 'l', hide = true)]
    other_l: Option<String>,
    #[arg(short = 'a', hide = true)]
    other_a: Option<String>,
    #[arg(short = 'M', hide = true)]
    other_mu: Option<String>,
    #[arg(short = 'U', hide = true)]
    other_u_params: Option<String>,
}

impl OtherLetters {
    /// Notes for letters that make no difference here; an error for the rest.
    fn check(&self) -> Result<Vec<String>, CliError> {
        // Refused, unless its value is SVM-Light's default (so it changes nothing), where there is one.
        for (value, letter, default, why) in [
            (&self.other_z, "z", Some("c"), "only classification (-z c) is supported"),
            (&self.other_b, "b", Some("1"), "only the biased hyperplane (-b 1) is supported"),
            (&self.other_i, "i", Some("0"), "removing inconsistent examples (-i 1) is not supported"),
            (&self.other_f, "f", Some("1"), "the final optimality check is always done (-f 1)"),
            (&self.other_x, "x", Some("0"), "leave-one-out estimates (-x 1) are not supported"),
            (&self.other_u_params, "U", Some("0"), "per-tree kernel parameters (-U 1) are not supported"),
            (&self.other_w, "w", None, "it is regression's ε (only classification is supported)"),
            (&self.other_p, "p", None, "transduction is not supported"),
            (
                &self.other_e,
                "e",
                None,
                "the stopping tolerance is SMO's on the maximal violating pair (10⁻³), not SVM-Light's",
            ),
            (&self.other_o, "o", None, "XiAlpha estimates are not computed"),
            (&self.other_k, "k", None, "XiAlpha estimates are not computed"),
            (&self.other_g, "g", None, "the RBF kernel (-S 2) is not supported"),
            (&self.other_u, "u", None, "user-defined kernels are not supported"),
            (&self.other_l, "l", None, "transduction is not supported"),
            (&self.other_a, "a", None, "writing all alphas is not supported"),
        ] {
            if let Some(v) = value.as_deref().filter(|v| Some(*v) != default) {
                return Err(unsupported(format!("option -{letter} {v}"), why));
            }
        }
        let ignored = [
            (&self.other_q, "q", "SVM-Light's working-set size"),
            (&self.other_n, "n", "SVM-Light's new variables per iteration"),
            (&self.other_h, "h", "SVM-Light's iterations before shrinking"),
            (&self.other_mu, "M", "μ of the PT kernels, which -F 0|1 do not use"),
        ];
        let note = |(value, letter, what): (&Option<String>, &str, &str)| {
            Some(format!("-{letter} {} ({what}) makes no difference here: ignored", value.as_ref()?))
        };
        Ok(ignored.into_iter().filter_map(note).collect())
    }
}

#[derive(Args, Debug)]
pub struct ClassifyArgs {
    /// Verbosity: 0 quiet, 1 accuracy (default).
    #[arg(short = 'v', default_value_t = 1)]
    v: i64,
    /// Prediction format: only 1 (one decision value per line).
    #[arg(short = 'f', default_value_t = 1)]
    f: i64,
    /// Refuse a tree whose kernel would visit more node pairs with equal productions than this.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODE_PAIRS)]
    max_node_pairs: u64,
    #[arg(long, action = ArgAction::Help)]
    help: Option<bool>,
    /// Examples to classify, one per line (labels are used only for the accuracy).
    examples: String,
    /// A model of `svm-light-tk learn` or of SVM-Light-TK 1.5's `svm_learn`.
    model: String,
    /// Where to write the decision values.
    #[arg(default_value = "svm_predictions")]
    predictions: String,
}

#[derive(Args, Debug)]
pub struct ExamplesArgs {
    /// Treebank with gold links: PREFIX.src, PREFIX.trg, PREFIX.gold.
    #[arg(long, value_name = "PREFIX")]
    input: String,
    /// Negatives drawn per positive, from the same tree pair.
    #[arg(long, default_value_t = 3)]
    negatives: usize,
    /// At most this many examples (a seeded sample of them).
    #[arg(long, value_name = "N", default_value_t = usize::MAX)]
    max_examples: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (default: stdout).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
}

pub fn run(command: TkCommand) -> Result<(), CliError> {
    match command {
        TkCommand::Learn(args) => learn(*args),
        TkCommand::Classify(args) => classify(args),
        TkCommand::Examples(args) => examples(args),
    }
}

/// An option SVM-Light-TK takes and treelink does not: `what` (the letter
/// and value) refused, saying `why`.
fn unsupported(what: String, why: &str) -> CliError {
    usage(format!("{what} is not supported by treelink svm-light-tk: {why}"))
}

fn pairing(letter: char, v: &str) -> Result<Pairing, CliError> {
    match v {
        "S" => Ok(Pairing::Sequence),
        "A" => Ok(Pairing::AllPairs),
        _ => Err(usage(format!("-{letter} must be S (sequence) or A (all pairs), found '{v}'"))),
    }
}

/// The kernel the letters ask for, or why treelink cannot compute it.
fn kernel_params(a: &LearnArgs) -> Result<KernelParams, CliError> {
    if a.kernel_type != 5 {
        return Err(unsupported(format!("-t {}", a.kernel_type), "only -t 5 (trees and vectors combined)"));
    }
    let tree_kernel = match a.tree_kernel {
        0 => TreeKernel::Subtree,
        1 => TreeKernel::SubsetTree,
        f => return Err(unsupported(format!("-F {f}"), "only -F 0 (ST) and -F 1 (SST)")),
    };
    let combination = match a.combination.as_str() {
        "T" => Combination::Trees,
        "+" => Combination::Sum,
        c => return Err(unsupported(format!("-C {c}"), "only -C T (trees) and -C + (sum)")),
    };
    let vector_kernel = match a.vector_kernel {
        0 => VectorKernel::Linear,
        1 if (0..=64).contains(&a.degree) => {
            VectorKernel::Polynomial(PolyKernel { gamma: a.poly_s, coef0: a.poly_r, degree: a.degree as u32 })
        }
        s => {
            let why = "only -S 0 (linear) and -S 1 (polynomial, -d 0..64)";
            return Err(unsupported(format!("-S {s} -d {}", a.degree), why));
        }
    };
    if !(0..=3).contains(&a.normalization) {
        return Err(usage(format!("-N must be 0, 1, 2 or 3, found {}", a.normalization)));
    }
    if !(a.lambda.is_finite() && a.lambda > 0.0) {
        return Err(CliError::Lambda(a.lambda));
    }
    for (letter, v) in [('c', a.cost), ('j', a.cost_factor), ('m', a.cache_mb)] {
        if !(v.is_finite() && v >= 0.0) || (letter == 'j' && v == 0.0) {
            return Err(usage(format!("-{letter} must be a number above 0 (-c may be 0), found {v}")));
        }
    }
    Ok(KernelParams {
        tree_kernel,
        trees: pairing('W', &a.tree_pairing)?,
        vectors: pairing('V', &a.vector_pairing)?,
        combination,
        lambda: a.lambda,
        tree_constant: a.tree_constant,
        normalization: a.normalization as u8,
        vector_kernel,
    })
}

/// Calls `f` with each line of a file (its number from 1, its text without
/// the line end), reading one line at a time.
fn for_each_line(file: &str, mut f: impl FnMut(usize, &str) -> Result<(), CliError>) -> Result<(), CliError> {
    let mut lines = super::stream::FileLines::open(file)?;
    while let Some(text) = lines.next_line()? {
        f(lines.line, &text)?;
    }
    Ok(())
}

/// Reads every example of a file (blank lines skipped).
fn read_examples(file: &str) -> Result<Vec<Example>, CliError> {
    let mut out = Vec::new();
    for_each_line(file, |k, line| {
        if !line.trim().is_empty() {
            out.push(parse_example(line, file, k)?);
        }
        Ok(())
    })?;
    Ok(out)
}

fn learn(args: LearnArgs) -> Result<(), CliError> {
    let notes = args.other.check()?;
    let kernel = kernel_params(&args)?;
    let mut reporter = Reporter::new();
    for n in &notes {
        reporter.note(n);
    }
    let started = Instant::now();
    let examples = read_examples(&args.examples)?;
    let params = LearnParams {
        kernel,
        c: (args.cost > 0.0).then_some(args.cost),
        cost_factor: args.cost_factor,
        cache_mb: args.cache_mb,
        max_node_pairs: args.max_node_pairs,
    };
    let verbose = args.verbosity >= 2;
    let (model, summary) = svm_light_tk::learn(&examples, &params, &mut |p: Progress| {
        if verbose {
            let violation = p.gap.map_or(0.0, |(v, _)| v);
            reporter.report(&format!("SMO (violation {violation:.2e})"), p.done, 0);
        }
        ControlFlow::Continue(())
    })?;
    super::output::write_file(&args.model, model.to_text())?;
    if args.verbosity >= 1 {
        let s = &summary.stats;
        eprintln!(
            "treelink: {} examples ({} positive, {} negative), C = {}; {} support vectors ({} at C), \
             {} SMO iterations, {} kernel evaluations, {:.2} s; model in {}",
            examples.len(),
            summary.positives,
            summary.negatives,
            summary.c,
            s.n_sv,
            s.n_bounded_sv,
            s.iterations,
            s.kernel_evals,
            started.elapsed().as_secs_f64(),
            args.model
        );
    }
    Ok(())
}

fn classify(args: ClassifyArgs) -> Result<(), CliError> {
    if args.f != 1 {
        return Err(unsupported(format!("-f {}", args.f), "only -f 1 (one decision value per line)"));
    }
    let text = treelink::io::text::read_text_file(&args.model)?;
    let model = TkModel::from_text(&text, &args.model)?;
    let mut classifier = Classifier::new(&model, args.max_node_pairs).map_err(|e| match e {
        TkError::SupportVector { index, error } => CliError::TkSupportVector {
            file: args.model.clone(),
            line: TkModel::support_vector_line(&text, index).unwrap_or(1),
            index,
            error,
        },
        e => e.into(),
    })?;
    let out = std::fs::File::create(&args.predictions)
        .map_err(|source| CliError::WriteFile { file: args.predictions.clone(), source })?;
    let mut out = BufWriter::new(out);
    let mut confusion = Confusion::default();
    let mut binary = true;
    // Line by line: memory holds the model, not the examples.
    for_each_line(&args.examples, |k, line| {
        if line.trim().is_empty() {
            return Ok(());
        }
        let e = parse_example(line, &args.examples, k)?;
        let d = classifier.decision(&e).map_err(|error| CliError::Usage(format!("{}:{k}: {error}", args.examples)))?;
        writeln!(out, "{d}").map_err(|source| CliError::WriteFile { file: args.predictions.clone(), source })?;
        binary &= e.label.abs() == 1.0;
        confusion.add(e.label, d);
        Ok(())
    })?;
    out.flush().map_err(|source| CliError::WriteFile { file: args.predictions.clone(), source })?;
    if args.v >= 1 && binary && confusion.total() > 0 {
        let (p, r) = (confusion.precision(), confusion.recall());
        out!(
            "Accuracy on test set: {:.2}% ({} correct, {} incorrect, {} total)",
            confusion.accuracy(),
            confusion.true_pos + confusion.true_neg,
            confusion.false_pos + confusion.false_neg,
            confusion.total()
        )?;
        out!("Precision/recall on test set: {p:.2}%/{r:.2}%")?;
    }
    Ok(())
}

fn examples(args: ExamplesArgs) -> Result<(), CliError> {
    let corpus = Corpus::read_prefix(&args.input, true)?;
    let examples = svm_light_tk::subtree_pair_examples(&corpus, args.negatives, args.max_examples, args.seed);
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        for e in &examples {
            writeln!(w, "{e}")?;
        }
        w.flush()
    };
    match &args.output {
        Some(file) => {
            let f = std::fs::File::create(file).map_err(|source| CliError::WriteFile { file: file.clone(), source })?;
            write(&mut BufWriter::new(f)).map_err(|source| CliError::WriteFile { file: file.clone(), source })?;
        }
        None => write(&mut BufWriter::new(std::io::stdout().lock())).map_err(CliError::Write)?,
    }
    let positives = examples.iter().filter(|e| e.positive).count();
    eprintln!(
        "treelink: {} examples ({positives} positive, {} negative) from {} pairs of {}",
        examples.len(),
        examples.len() - positives,
        corpus.len(),
        args.input
    );
    Ok(())
}
