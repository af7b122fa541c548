//! `treelink bench`: speed figures of the engine on real data, printed.
//! Timing targets belong here, not in tests.

use std::time::Instant;

use clap::Args;

use super::CliError;
use treelink::align::greedy::search_links;
use treelink::align::lexical::{alignment_lexicon_options, prepare, LexiconSource};
use treelink::align::model::{self, Scorer, TrainOptions};
use treelink::corpus::Corpus;
use treelink::eval::prf::Counts;
use treelink::kernel::speed;
use treelink::lexicon::WordModel;
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
    let t = Instant::now();
    let setup = prepare(
        &[&train, &test],
        LexiconSource::Train { extra: Vec::new(), options: alignment_lexicon_options(), held_out: false },
        "lexical model",
        &mut Quiet,
    )?;
    let lexicon_secs = secs(t);
    let t = Instant::now();
    let hmm_options = alignment_lexicon_options().with_word_model(WordModel::Hmm);
    let hmm = LexiconSource::Train { extra: Vec::new(), options: hmm_options, held_out: false };
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
    Ok(())
}
