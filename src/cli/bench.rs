//! `treelink bench`: speed figures of the engine on real data, printed.
//! Timing targets belong here, not in tests.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Args;

use super::CliError;
use treelink::align::greedy::search_links;
use treelink::align::lexical::{alignment_lexicon_options, prepare, LexiconSource};
use treelink::align::model::{self, AlignmentModel, Scorer, TrainOptions};
use treelink::app::alignment;
use treelink::corpus::Corpus;
use treelink::eval::prf::Counts;
use treelink::kernel::speed;
use treelink::lexicon::bitext_of;
use treelink::lexicon::WordModel;
use treelink::parallel::Threads;
use treelink::progress::Quiet;
use treelink::svm_light_tk;
use treelink::tree::Tree;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Training treebank (with gold).
    #[arg(long, value_name = "PREFIX")]
    pub train: String,
    /// Treebank to align (with gold, for the F it prints).
    #[arg(long, value_name = "PREFIX")]
    pub test: String,
    /// Composite kernel to train.
    #[arg(long, default_value = "plain+dbtk-root+ibtk-rgsst")]
    pub kernel: String,
    /// Training examples at most.
    #[arg(long, default_value_t = 6000)]
    pub max_examples: usize,
    /// Sub-tree-pair examples of TRAIN for `svm-light-tk learn` (0: skip that part).
    #[arg(long, default_value_t = 7000)]
    pub tk_examples: usize,
    /// Pairs of TEST, repeated, that `treelink align` (and, with --mt-model, `translate`) runs on
    /// with each of --threads for the scaling figures (0: skip them).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub scale_pairs: usize,
    /// Thread counts of the scaling figures, comma-separated (default: 1, 2, ... every core).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub threads: Vec<usize>,
    /// Pairs of TEST, repeated, that `treelink align` streams for the memory figures (its peak
    /// resident memory at each size; empty: skip them).
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "1000,100000")]
    pub memory_pairs: Vec<usize>,
    /// A translation model (from `treelink mt-train`): the scaling figures of `translate` too, on
    /// TEST's source trees repeated.
    #[arg(long, value_name = "MTMODEL")]
    pub mt_model: Option<String>,
}

fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

pub fn bench(args: BenchArgs) -> Result<(), CliError> {
    let train = Corpus::read_prefix(&args.train, true)?;
    let test = Corpus::read_prefix(&args.test, true)?;
    out!("train: {} pairs ({}), test: {} pairs ({})", train.len(), args.train, test.len(), args.test)?;

    // Kernel evaluations: sub-trees of consecutive test trees (source and target).
    let sources: Vec<Tree> = test.pairs.iter().map(|p| p.source.clone()).collect();
    let targets: Vec<Tree> = test.pairs.iter().map(|p| p.target.clone()).collect();
    let clock = Instant::now();
    let rows = speed::measure(&[&sources, &targets], 0.4, 0.5, &mut || clock.elapsed().as_secs_f64());
    out!("\nns per tree-kernel evaluation ({} sub-tree pairs of consecutive trees, λ = 0.4):", rows[0].evaluations)?;
    out!("{:<8} {:>10} {:>10} {:>10}  checksum", "space", "reference", "in order", "keyed")?;
    for r in &rows {
        out!(
            "{:<8} {:>10.0} {:>10.0} {:>10.0}  {:.6e}",
            r.space.paper_name(),
            r.reference_ns,
            r.in_order_ns,
            r.keyed_ns,
            r.checksum
        )?;
    }

    // SVM-Light-TK's task on the same examples `svm-light-tk examples` writes.
    if args.tk_examples > 0 {
        let as_examples = |c: &Corpus, max: usize| -> Result<Vec<svm_light_tk::Example>, CliError> {
            svm_light_tk::subtree_pair_examples(c, 3, max, 1)
                .iter()
                .enumerate()
                .map(|(k, e)| svm_light_tk::parse_example(&e.to_string(), "examples", k + 1).map_err(CliError::from))
                .collect()
        };
        let (learn_on, classify) = (as_examples(&train, args.tk_examples)?, as_examples(&test, usize::MAX)?);
        let params = svm_light_tk::LearnParams {
            kernel: svm_light_tk::KernelParams { normalization: 1, ..Default::default() },
            c: Some(2.4),
            ..Default::default()
        };
        let t = Instant::now();
        let (model, summary) = svm_light_tk::learn(&learn_on, &params, &mut treelink::progress::Quiet)?;
        let learn_secs = secs(t);
        let t = Instant::now();
        let mut classifier = svm_light_tk::Classifier::new(&model, params.max_node_pairs)?;
        let mut confusion = svm_light_tk::Confusion::default();
        for e in &classify {
            let d = classifier.decision(e).map_err(|e| CliError::Usage(e.to_string()))?;
            confusion.add(e.label, d);
        }
        let classify_secs = secs(t);
        out!(
            "\nsvm-light-tk -t 5 -F 1 -W S -N 1 -c 2.4 (iBTK-SST) on {} sub-tree-pair examples of {}, classifying {} of {}:",
            learn_on.len(),
            args.train,
            classify.len(),
            args.test
        )?;
        out!(
            "  learn {learn_secs:.2} s ({} support vectors, {} SMO iterations, {} kernel evaluations); \
             classify {classify_secs:.2} s; accuracy {:.2}%",
            summary.stats.n_sv,
            summary.stats.iterations,
            summary.stats.kernel_evals,
            confusion.accuracy()
        )?;
    }

    // Training and aligning, natively.
    let source = |options| LexiconSource::Train { extra: Vec::new(), options, held_out: false, links: Vec::new() };
    let t = Instant::now();
    let setup = prepare(&[&train, &test], source(alignment_lexicon_options()), "lexical model", &mut Quiet)?;
    let lexicon_secs = secs(t);
    let t = Instant::now();
    let hmm = source(alignment_lexicon_options().with_word_model(WordModel::Hmm));
    prepare(&[&train, &test], hmm, "lexical model (HMM)", &mut Quiet)?;
    let hmm_secs = secs(t);
    let options = TrainOptions {
        spec: args.kernel.parse().map_err(|e: treelink::kernel::UnknownName| CliError::Usage(e.to_string()))?,
        max_examples: args.max_examples,
        ..TrainOptions::default()
    };
    let t = Instant::now();
    let m = model::train(&train, None, &setup, &options, &mut Quiet)?;
    let train_secs = secs(t);
    let t = Instant::now();
    let scorer = Scorer::new(&m, &setup.lexicon)?;
    let pred: Vec<_> =
        test.pairs.iter().zip(&setup.links[1]).map(|(p, l)| search_links(&scorer.align_pair(p, l).0)).collect();
    let align_secs = secs(t);
    let counts = Counts::of_corpus(test.pairs.iter().zip(pred.iter().map(|l| l.as_slice())));
    out!("\nnative, kernel {}:", m.spec)?;
    out!(
        "  lexical model on {} sentence pairs: {lexicon_secs:.2} s (with the HMM: {hmm_secs:.2} s)",
        train.len() + test.len()
    )?;
    out!(
        "  training: {train_secs:.2} s ({} examples, {} support vectors, {} SMO iterations, {} kernel evaluations)",
        m.summary.examples,
        m.support_vectors.len(),
        m.summary.svm_iterations,
        m.summary.kernel_evals
    )?;
    out!("  aligning: {align_secs:.2} s, {:.1} ms per pair; {counts}", 1000.0 * align_secs / test.len() as f64)?;

    if args.scale_pairs > 0 || !args.memory_pairs.is_empty() {
        scaling(&args, &train, &test, &m)?;
    }
    Ok(())
}

/// A scratch directory for the scaling figures' files, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, CliError> {
        let dir = std::env::temp_dir().join(format!("treelink-bench-{}", std::process::id()));
        super::output::create_dir(&dir.to_string_lossy())?;
        Ok(Scratch(dir))
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    fn write(&self, name: &str, text: &str) -> Result<String, CliError> {
        let file = self.path(name);
        super::output::write_file(&file, text)?;
        Ok(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The 1-minute load average (Linux), to print beside the timings.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// A child run: its wall time and peak resident memory (kB; Linux, from
/// `/proc/PID/status` sampled every 5 ms while it runs), and its stdout.
struct Run {
    secs: f64,
    peak_kb: Option<u64>,
    output: Vec<u8>,
}

/// Runs this binary with `args`, stdout kept, stderr dropped.
fn run_treelink(args: &[&str], out: &str) -> Result<Run, CliError> {
    let exe = std::env::current_exe().map_err(|e| CliError::Usage(format!("cannot find this binary: {e}")))?;
    let file = std::fs::File::create(out).map_err(|source| CliError::WriteFile { file: out.into(), source })?;
    let started = Instant::now();
    let mut child = Command::new(exe)
        .args(args)
        .stdout(file)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| CliError::Usage(format!("cannot run treelink {}: {e}", args.join(" "))))?;
    let status_file = format!("/proc/{}/status", child.id());
    let running = AtomicBool::new(true);
    let (status, peak_kb) = std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            let mut peak = None;
            while running.load(Ordering::Relaxed) {
                let hwm = std::fs::read_to_string(&status_file).ok().and_then(|s| {
                    s.lines()
                        .find_map(|l| l.strip_prefix("VmHWM:"))
                        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                });
                peak = peak.max(hwm);
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        });
        let status = child.wait();
        running.store(false, Ordering::Relaxed);
        (status, sampler.join().unwrap_or(None))
    });
    let secs = secs(started);
    let status = status.map_err(|e| CliError::Usage(format!("treelink {}: {e}", args.join(" "))))?;
    if !status.success() {
        return Err(CliError::Usage(format!("treelink {} failed ({status})", args.join(" "))));
    }
    let output = std::fs::read(out).map_err(|e| CliError::Usage(format!("{out}: {e}")))?;
    Ok(Run { secs, peak_kb, output })
}

/// `pairs` pairs of `corpus` repeated, as PREFIX.src and PREFIX.trg in `scratch`.
fn repeated(scratch: &Scratch, corpus: &Corpus, pairs: usize) -> Result<String, CliError> {
    let name = format!("rep{pairs}");
    for (ext, side) in [("src", true), ("trg", false)] {
        let mut text = String::new();
        for p in corpus.pairs.iter().cycle().take(pairs) {
            text.push_str(&if side { &p.source } else { &p.target }.to_string());
            text.push('\n');
        }
        scratch.write(&format!("{name}.{ext}"), &text)?;
    }
    Ok(scratch.path(&name))
}

/// The serial fraction `s` of Amdahl's law, `S(n) = 1 / (s + (1 - s)/n)`,
/// from the speedup `speedup` measured on `n` threads.
fn serial_fraction(n: usize, speedup: f64) -> f64 {
    let n = n as f64;
    ((n / speedup - 1.0) / (n - 1.0)).clamp(0.0, 1.0)
}

/// Times `treelink` on `args` + `--threads N` for each thread count,
/// checks the outputs are byte-identical, and prints the speedups and what
/// Amdahl's law predicts beyond from the serial fraction.
fn scaling_rows(scratch: &Scratch, what: &str, args: &[&str], threads: &[usize], units: usize) -> Result<(), CliError> {
    out!("\n{what}: {units} on 1 to {} threads (load average {} before):", threads.iter().max().unwrap_or(&1), load())?;
    out!(
        "{:>8} {:>10} {:>12} {:>8} {:>11} {:>10}  output",
        "threads",
        "wall (s)",
        "per second",
        "speedup",
        "efficiency",
        "peak (MB)"
    )?;
    let mut first: Option<Run> = None;
    let mut last = (1, 1.0);
    for &t in threads {
        let n = t.to_string();
        let run = run_treelink(&[args, &["--threads", &n]].concat(), &scratch.path(&format!("out-{t}")))?;
        let base = first.as_ref().map_or(run.secs, |f| f.secs);
        let speedup = base / run.secs;
        let same = first.as_ref().is_none_or(|f| f.output == run.output);
        out!(
            "{t:>8} {:>10.2} {:>12.1} {speedup:>8.2} {:>10.0}% {:>10}  {}",
            run.secs,
            units as f64 / run.secs,
            100.0 * speedup / t as f64,
            run.peak_kb.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
            if first.is_none() {
                ""
            } else if same {
                "identical to 1 thread"
            } else {
                "DIFFERS from 1 thread"
            }
        )?;
        if !same {
            return Err(CliError::Usage(format!("{what}: the output on {t} threads differs from that on 1")));
        }
        last = (t, speedup);
        first.get_or_insert(run);
    }
    if last.0 > 1 {
        let s = serial_fraction(last.0, last.1);
        let predicted: Vec<String> = [4usize, 8, 16, 32]
            .iter()
            .filter(|&&n| n > last.0)
            .map(|&n| format!("{n}: {:.1}×", 1.0 / (s + (1.0 - s) / n as f64)))
            .collect();
        out!(
            "  serial fraction (Amdahl, from {} threads): {:.3}; predicted speedup on {} (load average {} after)",
            last.0,
            s,
            predicted.join(", "),
            load()
        )?;
    }
    Ok(())
}

/// The scaling and memory figures: `treelink align` (and `translate`) run
/// as a user runs them, on TEST repeated, streamed with tables from
/// `treelink lexicon` on TRAIN and TEST, each in a process of its own.
fn scaling(args: &BenchArgs, train: &Corpus, test: &Corpus, m: &AlignmentModel) -> Result<(), CliError> {
    let scratch = Scratch::new()?;
    let model = scratch.write("model.json", &m.to_json())?;
    let sentences: Vec<_> = bitext_of(train).into_iter().chain(bitext_of(test)).collect();
    let (s2t, t2s) = alignment::lexicon_tables(sentences, WordModel::default(), &mut Quiet)?;
    let (s2t, t2s) = (scratch.write("lex.s2t", &s2t)?, scratch.write("lex.t2s", &t2s)?);
    let threads: Vec<usize> =
        if args.threads.is_empty() { (1..=Threads::available().get().max(2)).collect() } else { args.threads.clone() };
    out!(
        "\nscaling and memory: `treelink align --model M --input PAIRS --lex-s2t T --lex-t2s T --threads N`, \
         M the model above, the tables of `treelink lexicon` on train and test, PAIRS test repeated; \
         each run a process of its own, its peak resident memory sampled every 5 ms; {} cores",
        Threads::available()
    )?;
    if args.scale_pairs > 0 {
        let input = repeated(&scratch, test, args.scale_pairs)?;
        let align = ["align", "--model", &model, "--input", &input, "--lex-s2t", &s2t, "--lex-t2s", &t2s];
        scaling_rows(&scratch, "align", &align, &threads, args.scale_pairs)?;
        if let Some(mt) = &args.mt_model {
            let sources = format!("{input}.src");
            let translate = ["translate", "--model", mt, "--input", &sources];
            scaling_rows(&scratch, "translate", &translate, &threads, args.scale_pairs)?;
        }
    }
    if !args.memory_pairs.is_empty() {
        out!("\nmemory of align, streamed (every core; load average {} before):", load())?;
        out!("{:>10} {:>10} {:>10} {:>14}", "pairs", "wall (s)", "peak (MB)", "to the first")?;
        let mut first_peak = None;
        for &pairs in &args.memory_pairs {
            let input = repeated(&scratch, test, pairs)?;
            let align = ["align", "--model", &model, "--input", &input, "--lex-s2t", &s2t, "--lex-t2s", &t2s];
            let run = run_treelink(&align, &scratch.path("out-memory"))?;
            let ratio = match (first_peak, run.peak_kb) {
                (Some(f), Some(p)) => format!("{:.2}×", p as f64 / f as f64),
                _ => String::new(),
            };
            first_peak = first_peak.or(run.peak_kb);
            let peak = run.peak_kb.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0));
            out!("{pairs:>10} {:>10.2} {peak:>10} {ratio:>14}", run.secs)?;
            let _ = std::fs::remove_file(format!("{input}.src"));
            let _ = std::fs::remove_file(format!("{input}.trg"));
        }
        out!("  (load average {} after)", load())?;
    }
    Ok(())
}
