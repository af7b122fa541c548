//! `treelink::svm_light_tk` against SVM-Light-TK 1.5's formulas: kernel
//! values worked by hand (each also what `svm_classify` prints for a model
//! with that one support vector, α = 1 and b = 0, to its 8 digits), decision
//! values of models that SVM-Light-TK itself trained (`tests/data/`: its
//! `svm_learn` on `svm-light-tk-train.dat`, its `svm_classify` output quoted
//! below), rows computed at once equal to entries one by one, the folded
//! decision function equal to the sum over support vectors, and model files
//! that read back to themselves.
#![cfg(not(target_arch = "wasm32"))] // reads files

use treelink::corpus::Corpus;
use treelink::svm::KernelFn;
use treelink::svm_light_tk::kernel::RowKernel;
use treelink::svm_light_tk::{
    learn, parse_example, subtree_pair_examples, Classifier, Combination, Example, ForestKernel, KernelParams,
    LearnParams, Pairing, TkModel, TreeKernel, VectorKernel,
};

fn ex(s: &str) -> Example {
    parse_example(s, "test", 1).unwrap()
}

/// `K(x, y)` with `params` (and no node-pair limit).
fn k(params: &KernelParams, x: &str, y: &str) -> f64 {
    let mut kernel = ForestKernel::new(params.clone(), u64::MAX);
    let (a, b) = (kernel.doc(&ex(x)).unwrap(), kernel.doc(&ex(y)).unwrap());
    kernel.eval(&a, &b)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

const L: f64 = 0.4;
const A: &str = "+1 |BT| (NP (DT the) (NN dog)) |ET|";
const B: &str = "+1 |BT| (NP (DT a) (NN dog)) |ET|";

fn params(tree_kernel: TreeKernel, normalization: u8) -> KernelParams {
    KernelParams { tree_kernel, normalization, ..KernelParams::default() }
}

#[test]
fn sst_kernel_values_worked_by_hand() {
    let raw = params(TreeKernel::SubsetTree, 0);
    // Nodes with children: NP -> DT NN, DT -> the|a, NN -> dog (pre-terminals).
    // Δ(NP, NP) = λ (σ + 0) (σ + Δ(NN, NN)) with σ = 1, Δ(NN, NN) = λ: 0.4 · 1.4.
    assert!(close(k(&raw, A, B), L * (1.0 + L) + L)); // svm_classify: 0.95999998
                                                      // K(a, a) = λ(1+λ)² + λ + λ.
    let kaa = L * (1.0 + L) * (1.0 + L) + 2.0 * L;
    assert!(close(k(&raw, A, A), kaa)); // 1.584
                                        // -N 1: each tree normalised on its own.
    assert!(close(k(&params(TreeKernel::SubsetTree, 1), A, B), 0.96 / kaa)); // 0.60606062
                                                                             // A pre-terminal (its children all leaves) matches a node of the same
                                                                             // production with Δ = λ, whatever is below the other.
    assert!(close(k(&raw, "+1 |BT| (NP DT NN) |ET|", B), L)); // 0.40000001
}

#[test]
fn st_kernel_values_worked_by_hand() {
    let raw = params(TreeKernel::Subtree, 0);
    // σ = 0: Δ(NP, NP) = λ · 0 · Δ(NN, NN) = 0 (the determiners differ), Δ(NN, NN) = λ.
    assert!(close(k(&raw, A, B), L)); // 0.40000001
                                      // K(a, a) = Δ(NP) + Δ(DT) + Δ(NN) = λ·λ·λ + λ + λ: whole subtrees only.
    assert!(close(k(&raw, A, A), L * L * L + 2.0 * L)); // 0.86400002
}

#[test]
fn forests_and_vectors_combine_as_svm_light_tk_combines_them() {
    let raw = params(TreeKernel::SubsetTree, 0);
    let (x, y) =
        ("+1 |BT| (NP (DT the) (NN dog)) |BT| (NN dog) |ET|", "+1 |BT| (NP (DT a) (NN dog)) |BT| (NN dog) |ET|");
    // -W S: K(x1, y1) + K(x2, y2) = 0.96 + 0.4.
    assert!(close(k(&raw, x, y), 1.36)); // 1.36
                                         // -W A: every pair: 0.96 + K(x1, y2) + K(x2, y1) + K(x2, y2) = 0.96 + 0.4 + 0.4 + 0.4.
    let all = KernelParams { trees: Pairing::AllPairs, ..raw.clone() };
    assert!(close(k(&all, x, y), 2.16)); // 2.1600001
                                         // -C + -N 3 -T 0.5: K̂v + T·K̂t, (u·v + 1)³ normalised: 64 / sqrt(216 · 1000).
    let (u, v) = ("+1 |BT| (NP (DT the) (NN dog)) |ET| 1:1 2:2 |EV|", "+1 |BT| (NP (DT a) (NN dog)) |ET| 1:3 |EV|");
    let sum = KernelParams { combination: Combination::Sum, normalization: 3, tree_constant: 0.5, ..raw.clone() };
    let kt = 0.96 / (L * 1.96 + 0.8);
    assert!(close(k(&sum, u, v), 64.0 / (216.0f64 * 1000.0).sqrt() + 0.5 * kt)); // 0.44073638
                                                                                 // -S 0: linear, u·v / sqrt(|u|² |v|²) = 3 / sqrt(5 · 9).
    let linear = KernelParams { vector_kernel: VectorKernel::Linear, ..sum.clone() };
    assert!(close(k(&linear, u, v), 3.0 / 45f64.sqrt() + 0.5 * kt)); // 0.7502439
                                                                     // -C T ignores vectors; an empty tree contributes 0.
    assert!(close(k(&raw, u, v), 0.96));
    assert_eq!(k(&raw, "+1 |BT| |ET|", A), 0.0);
}

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn models_trained_by_svm_light_tk_give_svm_classify_s_decision_values() {
    // svm_classify's output (8 digits) on svm-light-tk-test.dat for the two
    // models svm_learn wrote: `-F 1 -W S -C T -N 1 -c 1` and
    // `-F 0 -W A -C + -N 3 -S 1 -d 2 -c 2 -j 1.5`.
    let expected = [
        ("svm-light-tk-sst.model", [-0.044342055, 0.42841587, 0.82599046, -0.69814683]),
        ("svm-light-tk-st.model", [0.95182118, -0.24975501, 0.26842045, -0.11434557]),
    ];
    let test = data("svm-light-tk-test.dat");
    for (file, values) in expected {
        let model = TkModel::from_text(&data(file), file).unwrap();
        let mut c = Classifier::new(&model, u64::MAX).unwrap();
        for (line, want) in test.lines().zip(values) {
            let d = c.decision(&ex(line)).unwrap();
            // SVM-Light-TK rounds kernel values and vector weights to f32.
            assert!((d - want).abs() < 1e-6, "{file}: {d} vs svm_classify's {want}");
        }
        // Written back, the model reads to itself.
        assert!(TkModel::from_text(&model.to_text(), "again").unwrap() == model, "{file}: round trip");
    }
}

fn sample_examples(max: usize) -> Vec<Example> {
    let prefix = format!("{}/www/sample/dev", env!("CARGO_MANIFEST_DIR"));
    let corpus = Corpus::read_prefix(&prefix, true).unwrap();
    subtree_pair_examples(&corpus, 3, max, 7).iter().map(|e| ex(&e.to_string())).collect()
}

#[test]
fn a_row_at_once_equals_its_entries_one_by_one_bit_for_bit() {
    let examples = sample_examples(300);
    for tree_kernel in [TreeKernel::SubsetTree, TreeKernel::Subtree] {
        let mut kernel = ForestKernel::new(params(tree_kernel, 1), u64::MAX);
        let docs: Vec<_> = examples.iter().map(|e| kernel.doc(e).unwrap()).collect();
        let rows = RowKernel::new(&kernel, &docs);
        let n = docs.len();
        for i in [0, 1, n / 2, n - 1] {
            let ks: Vec<usize> = (0..n).filter(|&k| k != i).collect();
            let mut out = vec![0.0; ks.len()];
            rows.eval_many(i, &ks, &mut out);
            let mut nonzero = 0;
            for (&k, &v) in ks.iter().zip(&out) {
                let one = if i <= k { rows.eval(i, k) } else { rows.eval(k, i) };
                assert_eq!(v.to_bits(), one.to_bits(), "{tree_kernel:?} row {i}, entry {k}: {v} vs {one}");
                nonzero += usize::from(v != 0.0);
            }
            // SST matches most sub-tree pairs somewhere; ST needs whole equal subtrees.
            let enough = if tree_kernel == TreeKernel::SubsetTree { n / 10 } else { 1 };
            assert!(nonzero >= enough, "{tree_kernel:?} row {i}: only {nonzero} non-zero entries");
        }
    }
}

#[test]
fn learning_then_classifying_folds_the_decision_function_exactly_enough() {
    let examples = sample_examples(400);
    let (train, test) = examples.split_at(300);
    for tree_kernel in [TreeKernel::SubsetTree, TreeKernel::Subtree] {
        let p = LearnParams { kernel: params(tree_kernel, 1), c: Some(2.4), ..LearnParams::default() };
        let (model, summary) = learn(train, &p, &mut treelink::progress::Quiet).unwrap();
        assert!(summary.stats.converged && !model.support_vectors.is_empty());
        assert_eq!((summary.positives + summary.negatives, model.training_examples), (300, 300));
        // The folded decision against Σ α_i y_i K(sv_i, x) − b, one kernel per support vector.
        let mut folded = Classifier::new(&model, u64::MAX).unwrap();
        let mut kernel = ForestKernel::new(model.kernel.clone(), u64::MAX);
        let svs: Vec<_> = model.support_vectors.iter().map(|(c, e)| (*c, kernel.doc(e).unwrap())).collect();
        for e in test {
            let x = kernel.doc(e).unwrap();
            let sum: f64 = svs.iter().map(|(c, sv)| c * kernel.eval(sv, &x)).sum::<f64>() - model.b;
            let d = folded.decision(e).unwrap();
            assert!((d - sum).abs() <= 1e-9 * (1.0 + sum.abs()), "{tree_kernel:?}: folded {d} vs {sum}");
        }
        // The model file reads back to the same model.
        assert!(TkModel::from_text(&model.to_text(), "m").unwrap() == model, "{tree_kernel:?}: model file round trip");
    }
}

#[test]
fn examples_of_a_treebank_are_its_gold_phrase_links_and_drawn_negatives() {
    let prefix = format!("{}/www/sample/dev", env!("CARGO_MANIFEST_DIR"));
    let corpus = Corpus::read_prefix(&prefix, true).unwrap();
    let gold: usize = corpus
        .pairs
        .iter()
        .map(|p| p.gold.iter().filter(|l| p.source.is_phrase(l.source) && p.target.is_phrase(l.target)).count())
        .sum();
    let all = subtree_pair_examples(&corpus, 3, usize::MAX, 1);
    assert_eq!(all.iter().filter(|e| e.positive).count(), gold);
    assert!(all.len() > 3 * gold && all.len() <= 4 * gold, "{} examples for {gold} links", all.len());
    assert_eq!(subtree_pair_examples(&corpus, 3, usize::MAX, 1), all, "seeded");
    assert_ne!(subtree_pair_examples(&corpus, 3, usize::MAX, 2), all);
    assert_eq!(subtree_pair_examples(&corpus, 3, 500, 1).len(), 500);
    // The first pair's first gold link, as SVM-Light-TK reads it.
    let p = &corpus.pairs[0];
    let l = p.gold.iter().find(|l| p.source.is_phrase(l.source) && p.target.is_phrase(l.target)).unwrap();
    let line =
        format!("+1 |BT| {} |BT| {} |ET|", p.source.subtree_bracketed(l.source), p.target.subtree_bracketed(l.target));
    assert!(all.iter().any(|e| e.to_string() == line), "{line}");
    assert_eq!(ex(&line).trees.len(), 2);
}
