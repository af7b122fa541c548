//! `treelink bench`: speed figures of the engine on real data, printed.
//! Timing targets belong here, not in tests.

use std::ops::ControlFlow;
use std::time::Instant;

use clap::Args;

use super::CliError;
use treelink::align::composite::{Instance, StructureIndex};
use treelink::align::lexical::{alignment_lexicon_options, prepare, LexiconSource};
use treelink::align::model::{self, search_links, Scorer, TrainOptions};
use treelink::corpus::Corpus;
use treelink::eval::prf::Counts;
use treelink::kernel::{btk, BtkKind, Space, SubTree, SubTreePair};

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
}

fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

pub fn bench(args: BenchArgs) -> Result<(), CliError> {
    let train = Corpus::read_prefix(&args.train, true)?;
    let test = Corpus::read_prefix(&args.test, true)?;
    out!("train: {} pairs ({}), test: {} pairs ({})", train.len(), args.train, test.len(), args.test)?;

    // Kernel evaluations: sub-tree pairs of consecutive test pairs.
    let pairs: Vec<(SubTreePair<'_>, SubTreePair<'_>)> = test
        .pairs
        .windows(2)
        .flat_map(|w| {
            let (a, b) = (&w[0], &w[1]);
            (0..a.source.len().min(b.source.len()).min(a.target.len()).min(b.target.len())).step_by(2).map(move |n| {
                (
                    SubTreePair::new(SubTree::new(&a.source, n), SubTree::new(&a.target, n)),
                    SubTreePair::new(SubTree::new(&b.source, n), SubTree::new(&b.target, n)),
                )
            })
        })
        .collect();
    let mut index = StructureIndex::new(0.4);
    let keyed: Vec<(Instance, Instance)> = {
        let mut cache = std::collections::HashMap::new();
        let mut key = |idx: &mut StructureIndex, st: SubTree<'_>| {
            let ptr = st.tree as *const _ as usize;
            let indexed = cache.entry(ptr).or_insert_with(|| idx.index_tree(st.tree)).clone();
            idx.subtree_key(st.tree, &indexed, st.root)
        };
        pairs
            .iter()
            .map(|(x, y)| {
                let mk = |idx: &mut StructureIndex,
                          p: &SubTreePair<'_>,
                          key: &mut dyn FnMut(&mut StructureIndex, SubTree<'_>) -> _| {
                    Instance { source: key(idx, p.source), target: key(idx, p.target), plain: [0.0; 10] }
                };
                (mk(&mut index, x, &mut key), mk(&mut index, y, &mut key))
            })
            .collect()
    };
    out!("\nkernel evaluations per second ({} sub-tree pair pairs):", pairs.len())?;
    out!("{:<8} {:>16} {:>18}", "space", "reference (dBTK)", "indexed (K_S+K_T)")?;
    for space in Space::ALL {
        let t = Instant::now();
        let mut sink = 0.0;
        for (x, y) in &pairs {
            sink += btk(BtkKind::Dbtk, space, 0.4, *x, *y);
        }
        let reference = pairs.len() as f64 / secs(t);
        let t = Instant::now();
        for (x, y) in &keyed {
            sink += index.tree_kernel(space, &x.source, &y.source) + index.tree_kernel(space, &x.target, &y.target);
        }
        let indexed = keyed.len() as f64 / secs(t);
        out!("{:<8} {:>16.0} {:>18.0}   (checksum {sink:.3e})", space.paper_name(), reference, indexed)?;
    }

    // Training and aligning, natively.
    let t = Instant::now();
    let setup = prepare(
        &[&train, &test],
        LexiconSource::Train { extra: Vec::new(), options: alignment_lexicon_options() },
        &mut |_, _| {},
    );
    let lexicon_secs = secs(t);
    let options = TrainOptions {
        spec: args.kernel.parse().map_err(|e: treelink::kernel::UnknownName| CliError::Usage(e.to_string()))?,
        max_examples: args.max_examples,
        ..TrainOptions::default()
    };
    let t = Instant::now();
    let m = model::train(&train, None, &setup, &options, &mut |_| ControlFlow::Continue(()))?;
    let train_secs = secs(t);
    let t = Instant::now();
    let scorer = Scorer::new(&m, &setup.lexicon)?;
    let pred: Vec<_> =
        test.pairs.iter().zip(&setup.links[1]).map(|(p, l)| search_links(&scorer.align_pair(p, l).0)).collect();
    let align_secs = secs(t);
    let counts = Counts::of_corpus(test.pairs.iter().zip(pred.iter().map(|l| l.as_slice())));
    out!("\nnative, kernel {}:", m.spec)?;
    out!("  lexical model on {} sentence pairs: {lexicon_secs:.2} s", train.len() + test.len())?;
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
