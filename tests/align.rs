//! The alignment engine end to end on real data (the built-in sample, the
//! SQUOIA dev set): training, the model file, aligning, the baseline, and the
//! well-formedness of every output.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use treelink::align::baseline::{baseline_links, BaselineOptions};
use treelink::align::composite::{CompositeKernel, KernelSpec};
use treelink::align::features::LinkWeight;
use treelink::align::greedy::search_links;
use treelink::align::greedy::{check_links, greedy_align, Scored};
use treelink::align::lexical::alignment_lexicon_options;
use treelink::align::lexical::LexicalModel;
use treelink::align::lexical::{lexicon_for_input, prepare, InputSentences, LexicalSetup, LexiconSource};
use treelink::align::model::{self, AlignmentModel, Scorer, TrainOptions};
use treelink::align::primal::Solver;
use treelink::corpus::{Corpus, Named};
use treelink::eval::prf::Counts;
use treelink::io::links::Link;
use treelink::lexicon::{align_with, bitext_of, Lexicon, WordAlignment};
use treelink::progress::Quiet;
use treelink::tree::NodeId;

fn sample() -> Corpus {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample");
    let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).unwrap();
    let (s, t, g) = (read("dev.src"), read("dev.trg"), read("dev.gold"));
    Corpus::from_texts(
        Named { name: "dev.src", text: &s },
        Named { name: "dev.trg", text: &t },
        Some(Named { name: "dev.gold", text: &g }),
    )
    .unwrap()
}

/// Train on the first 110 pairs, test on the rest; one in-engine lexicon on all sentences.
struct Split {
    train: Corpus,
    test: Corpus,
    lexicon: treelink::lexicon::Lexicon,
    train_links: Vec<WordAlignment>,
    test_links: Vec<WordAlignment>,
}

fn split() -> Split {
    let all = sample();
    let train = Corpus { pairs: all.pairs[..110].to_vec() };
    let test = Corpus { pairs: all.pairs[110..].to_vec() };
    let setup = prepare(
        &[&train, &test],
        LexiconSource::Train {
            extra: Vec::new(),
            options: alignment_lexicon_options(),
            held_out: false,
            links: Vec::new(),
        },
        "lexical model",
        &mut Quiet,
    )
    .unwrap();
    let mut links = setup.links.into_iter();
    Split { train, test, lexicon: setup.lexicon, train_links: links.next().unwrap(), test_links: links.next().unwrap() }
}

fn train(s: &Split, spec: &str, max_examples: usize) -> AlignmentModel {
    train_with(s, &TrainOptions { spec: spec.parse().unwrap(), max_examples, ..TrainOptions::default() }).unwrap()
}

fn align(model: &AlignmentModel, lexicon: &Lexicon, corpus: &Corpus, links: &[WordAlignment]) -> Vec<Vec<Link>> {
    let scorer = Scorer::new(model, lexicon).unwrap();
    corpus.pairs.iter().zip(links).map(|(p, l)| search_links(&scorer.align_pair(p, l).0)).collect()
}

fn score(corpus: &Corpus, pred: &[Vec<Link>]) -> Counts {
    Counts::of_corpus(corpus.pairs.iter().zip(pred.iter().map(|l| l.as_slice())))
}

#[test]
fn the_fast_decision_function_equals_the_sum_over_support_vectors() {
    let s = split();
    let specs = [
        "lex",
        "plain+ibtk-sst",
        "plain+dbtk-rdsst",
        "plain+dbtk-root+ibtk-rgsst",
        "ibtk-root+dbtk-rgsst",
        "plain+ctx+dbtk-root",
        "lex+ctx+hist+ibtk-rgsst",
    ];
    for spec in specs {
        let model = train(&s, spec, 800);
        let scorer = Scorer::new(&model, &s.lexicon).unwrap();
        let pair = &s.test.pairs[3];
        let decisions = scorer.decisions(pair, &s.test_links[3]);
        assert!(!decisions.is_empty());
        // Re-derive each decision with the reference kernel over a fresh index.
        for d in decisions.iter().take(25) {
            let slow = reference_decision(&model, &s.lexicon, pair, &s.test_links[3], d);
            assert!((d.value - slow).abs() <= 1e-9 * (1.0 + slow.abs()), "{spec}: fast {} vs slow {slow}", d.value);
            assert_eq!(d.parts.len(), model.spec.component_names().len());
            assert_eq!(d.context.is_some(), model.spec.context, "{spec}");
            assert_eq!(d.history.is_some(), model.spec.history, "{spec}");
        }
    }
}

/// `Σ_i coef_i K(sv_i, x) − ρ` with the plain composite kernel; the
/// candidate's context recomputed from its trees and the lexicon.
fn reference_decision(
    model: &AlignmentModel,
    lexicon: &Lexicon,
    pair: &treelink::corpus::TreePair,
    links: &WordAlignment,
    d: &model::Decision,
) -> f64 {
    use treelink::align::composite::{ContextKey, Instance};
    use treelink::align::context::{ContextFeatures, ContextParts, PairFeatureTable};
    use treelink::kernel::index::StructureIndex;
    use treelink::tree::Tree;
    let mut index = StructureIndex::new(model.spec.lambda);
    let key = |c: &ContextFeatures, index: &mut StructureIndex| ContextKey {
        dense: c.dense.clone(),
        labels: index.label_pair(&c.labels.0, &c.labels.1),
        parent_labels: c.parent_labels.as_ref().map(|(a, b)| index.label_pair(a, b)),
    };
    let svs: Vec<Instance> = model
        .support_vectors
        .iter()
        .map(|sv| {
            let (a, b) = (Tree::parse_one(&sv.source, "sv").unwrap(), Tree::parse_one(&sv.target, "sv").unwrap());
            let (ia, ib) = (index.index_tree(&a), index.index_tree(&b));
            Instance {
                source: index.subtree_key(&a, &ia, NodeId::new(0)),
                target: index.subtree_key(&b, &ib, NodeId::new(0)),
                plain: sv.plain,
                context: sv.context.as_ref().map(|c| key(c, &mut index)),
                history: sv.history.clone(),
            }
        })
        .collect();
    let (s, t) = (d.candidate.source, d.candidate.target);
    let context = model.spec.context.then(|| {
        let table = PairFeatureTable::new(
            &pair.source,
            &pair.target,
            &model::pair_matrices(lexicon, pair, links, model.link_weight),
        );
        let c = ContextFeatures::compute(&pair.source, s, &pair.target, t, &table, ContextParts::default());
        assert_eq!(Some(&c.dense), d.context.as_ref());
        key(&c, &mut index)
    });
    let (is, it) = (index.index_tree(&pair.source), index.index_tree(&pair.target));
    let x = Instance {
        source: index.subtree_key(&pair.source, &is, s),
        target: index.subtree_key(&pair.target, &it, t),
        plain: d.candidate.features.to_vec(),
        context,
        history: d.history.clone(),
    };
    let kernel = CompositeKernel::new(&model.spec, &index, &[]);
    let sx = kernel.self_parts(&x);
    model
        .support_vectors
        .iter()
        .zip(&svs)
        .map(|(sv, y)| sv.coef * kernel.eval_with(&x, &sx, y, &kernel.self_parts(y)))
        .sum::<f64>()
        - model.rho
}

fn train_with(s: &Split, options: &TrainOptions) -> Result<AlignmentModel, model::AlignError> {
    let lexical = LexicalSetup {
        lexicon: s.lexicon.clone(),
        model: LexicalModel::Tables(s.lexicon.clone()),
        links: vec![s.train_links.clone()],
        folds: None,
        link_weight: LinkWeight::Lexicon,
    };
    model::train(&s.train, None, &lexical, options, &mut Quiet)
}

/// The caps: `max_negative_ratio` bounds the negatives per positive, then
/// `max_examples` the total (every positive while they are at most half); with
/// both lifted every positive and every negative that survives pruning is
/// an example.
#[test]
fn the_example_caps_keep_what_they_say() {
    let s = split();
    let base = TrainOptions {
        spec: "plain+dbtk-root".parse().unwrap(),
        solver: Solver::Linear,
        prune_quantile: 0.02,
        tune_prune_quantiles: Vec::new(),
        ..TrainOptions::default()
    };
    let all =
        train_with(&s, &TrainOptions { max_examples: usize::MAX, max_negative_ratio: f64::INFINITY, ..base.clone() })
            .unwrap()
            .summary;
    assert_eq!(all.examples, all.positives + all.negatives_after_pruning);
    assert_eq!(all.positives_sampled, all.positives);
    assert!(all.negatives_after_pruning > 6 * all.positives, "the sample has negatives to cap: {all:?}");
    let ratio = train_with(&s, &TrainOptions { max_examples: usize::MAX, max_negative_ratio: 2.0, ..base.clone() })
        .unwrap()
        .summary;
    assert_eq!((ratio.positives_sampled, ratio.examples), (all.positives, 3 * all.positives));
    let capped =
        train_with(&s, &TrainOptions { max_examples: 500, max_negative_ratio: 2.0, ..base.clone() }).unwrap().summary;
    assert_eq!(capped.examples, 500);
    // More positives than half the cap: half of it are positives (their share, a third, is less).
    assert!(all.positives > 250, "{all:?}");
    assert_eq!(capped.positives_sampled, 250);
    // A cap that holds every positive twice takes only negatives.
    let roomy = 2 * all.positives + all.positives / 2;
    let fits =
        train_with(&s, &TrainOptions { max_examples: roomy, max_negative_ratio: 2.0, ..base.clone() }).unwrap().summary;
    assert_eq!((fits.examples, fits.positives_sampled), (roomy, all.positives), "every positive kept");
}

/// The linear solver trains on every example; its model file is SMO's form
/// (support vectors and coefficients), scores as the kernel sum says, learns
/// links (beats the baseline) and is the same on every run.
#[test]
fn the_linear_solver_trains_on_all_examples_in_the_models_usual_form() {
    let s = split();
    let options = TrainOptions {
        spec: "plain+ctx+dbtk-root".parse().unwrap(),
        solver: Solver::Linear,
        max_examples: usize::MAX,
        max_negative_ratio: f64::INFINITY,
        ..TrainOptions::default()
    };
    let model = train_with(&s, &options).unwrap();
    assert_eq!(model.summary.examples, model.summary.positives + model.summary.negatives_after_pruning);
    let json = serde_json::to_string(&model).unwrap();
    let back = AlignmentModel::from_json(&json, "linear.json").unwrap();
    assert_eq!(back, model);
    assert_eq!(model, train_with(&s, &options).unwrap(), "deterministic");
    let scorer = Scorer::new(&back, &s.lexicon).unwrap();
    let pair = &s.test.pairs[3];
    // The reference sums over every support vector per decision: a few suffice.
    for d in scorer.decisions(pair, &s.test_links[3]).iter().take(4) {
        let slow = reference_decision(&back, &s.lexicon, pair, &s.test_links[3], d);
        assert!((d.value - slow).abs() <= 1e-9 * (1.0 + slow.abs()), "fast {} vs slow {slow}", d.value);
    }
    let ours = score(&s.test, &align(&back, &s.lexicon, &s.test, &s.test_links));
    let base: Vec<Vec<Link>> =
        s.test.pairs.iter().map(|p| baseline_links(&s.lexicon, p, &BaselineOptions::default())).collect();
    let baseline = score(&s.test, &base);
    eprintln!("held-out 47 pairs, linear solver on every example: {ours}\nbaseline {baseline}");
    assert!(ours.f() > baseline.f(), "{ours} vs {baseline}");
    // Kernels over tree fragments have no explicit map: refused, before any work.
    let rgsst = TrainOptions { spec: "plain+ibtk-rgsst".parse().unwrap(), ..options };
    let e = train_with(&s, &rgsst).unwrap_err();
    assert_eq!(e, model::AlignError::NotExplicit { spec: "plain+ibtk-rgsst".into(), component: "ibtk-rgsst".into() });
    assert!(e.to_string().contains("explicit feature map"), "{e}");
}

/// `ctx` with weight 0 is the paper's kernel exactly: the same support
/// vectors, coefficients and ρ as without it (so naming no new component
/// leaves the paper's model as it was).
#[test]
fn the_paper_specs_give_the_paper_model() {
    let s = split();
    let paper = train(&s, "plain+dbtk-root", 600);
    let mut options = TrainOptions { max_examples: 600, ..TrainOptions::default() };
    options.spec = "plain+ctx+dbtk-root".parse::<KernelSpec>().unwrap().with_thetas(&[1.0, 0.0, 1.0]).unwrap();
    let zero = train_with(&s, &options).unwrap();
    assert_eq!(zero.rho, paper.rho);
    assert_eq!(zero.support_vectors.len(), paper.support_vectors.len());
    for (a, b) in zero.support_vectors.iter().zip(&paper.support_vectors) {
        assert_eq!((&a.source, &a.target, a.plain, a.coef), (&b.source, &b.target, b.plain, b.coef));
        assert!(a.context.is_some() && b.context.is_none() && b.history.is_none());
    }
    // The paper's model file has no field of the new components.
    let json = serde_json::to_string(&paper).unwrap();
    assert!(!json.contains("\"context\":{") && !json.contains("first_pass"), "{}", &json[..200]);
    assert!(paper.spec.component_names() == ["plain", "dbtk-root"] && paper.threshold == 0.0);
}

/// A model for held-out input: the training pairs are featurised through
/// lexicons that never saw them, dev's links come from the lexicon as a
/// test set's would, and the model file says so, so `align` keeps its
/// input out of the lexicon too.
#[test]
fn a_model_for_held_out_input_never_sees_a_sentence_through_a_lexicon_trained_on_it() {
    let all = sample();
    let (train, dev) = (Corpus { pairs: all.pairs[..100].to_vec() }, Corpus { pairs: all.pairs[100..].to_vec() });
    let source = LexiconSource::Train {
        extra: Vec::new(),
        options: alignment_lexicon_options(),
        held_out: true,
        links: Vec::new(),
    }
    .with_stem_backoff(Some(4));
    let setup = prepare(&[&train, &dev], source, "lexical model", &mut Quiet).unwrap();
    let folds = setup.folds.as_ref().unwrap();
    let options = alignment_lexicon_options().with_word_model(Default::default());
    let options = treelink::lexicon::LexiconOptions {
        backoff: Some(treelink::lexicon::BackoffOptions { stem_chars: 4, identical: 0.5 }),
        ..options
    };
    let (main, _) = treelink::lexicon::train_lexicon(&bitext_of(&train), &options, &mut |_| {});
    assert_eq!(setup.lexicon, main, "the lexicon is trained on the training sentences alone");
    assert_eq!(setup.links[1], align_with(&main, &bitext_of(&dev), &options), "dev is held out");
    assert_eq!(folds.lexicons.len(), 5);
    let mut unseen = 0;
    for (p, pair) in train.pairs.iter().enumerate() {
        let fold = folds.of_pair[p];
        assert_eq!(fold, p * 5 / train.len());
        let lexicon = setup.train_lexicon(p);
        assert!(std::ptr::eq(lexicon, &folds.lexicons[fold]));
        // Its word links are its fold lexicon's Viterbi links.
        let own = bitext_of(&Corpus { pairs: vec![pair.clone()] });
        assert_eq!(setup.links[0][p], align_with(lexicon, &own, &options)[0]);
        // A word no other fold has is unknown to the pair's lexicon, known to the main one.
        for w in pair.source.words() {
            let elsewhere = train.pairs.iter().enumerate().any(|(q, o)| {
                folds.of_pair[q] != fold && o.source.words().iter().any(|x| x.to_lowercase() == w.to_lowercase())
            });
            if !elsewhere {
                unseen += 1;
                assert!(lexicon.s2t.y_id(w).is_none(), "{w}");
                assert!(main.s2t.y_id(w).is_some(), "{w}");
            }
        }
    }
    assert!(unseen > 100, "{unseen}");
    let model = model::train(
        &train,
        Some(&dev),
        &setup,
        &TrainOptions { max_examples: 600, ..TrainOptions::default() },
        &mut Quiet,
    )
    .unwrap();
    assert!(model.lexicon.held_out());
    let json = serde_json::to_string(&model).unwrap();
    assert!(json.contains("\"held_out\":true") && json.contains("\"backoff\""));
    assert_eq!(AlignmentModel::from_json(&json, "m.json").unwrap(), model);
    // Aligning held out keeps the input out of the lexicon; not held out, its sentences join the model's.
    let (lexicon, links) =
        lexicon_for_input(&model.lexicon, &dev, None, InputSentences::HeldOut, "x", &mut Quiet).unwrap();
    assert_eq!((lexicon, links), (main, setup.links[1].clone()));
    let (joined, _) = lexicon_for_input(&model.lexicon, &dev, None, InputSentences::Train, "x", &mut Quiet).unwrap();
    let both = [bitext_of(&dev), bitext_of(&train)].concat();
    assert_eq!(joined, treelink::lexicon::train_lexicon(&both, &options, &mut |_| {}).0);
}

#[test]
fn a_model_learns_links_beats_the_baseline_and_survives_its_file() {
    let s = split();
    let model = train(&s, "plain+dbtk-root+ibtk-rgsst", 3000);
    let pred = align(&model, &s.lexicon, &s.test, &s.test_links);
    let ours = score(&s.test, &pred);
    let base: Vec<Vec<Link>> =
        s.test.pairs.iter().map(|p| baseline_links(&s.lexicon, p, &BaselineOptions::default())).collect();
    let baseline = score(&s.test, &base);
    eprintln!("held-out 47 pairs: model {ours}\nbaseline {baseline}");
    // Measured: model F = 72.9, baseline F = 67.8 on these 47 held-out pairs
    // (lexicon trained on the 157 sentences only).
    assert!(ours.f() > 65.0, "{ours}");
    assert!(ours.f() > baseline.f() + 2.0, "model {ours} vs baseline {baseline}");
    // Every output is well-formed.
    for (p, links) in s.test.pairs.iter().zip(&pred) {
        let l: Vec<(NodeId, NodeId)> = links.iter().map(|l| (l.source, l.target)).collect();
        assert!(check_links(&p.source, &p.target, &l).is_ok());
    }
    // The model file round-trips and aligns identically.
    let json = serde_json::to_string(&model).unwrap();
    let back = AlignmentModel::from_json(&json, "model.json").unwrap();
    assert_eq!(back, model);
    assert_eq!(align(&back, &s.lexicon, &s.test, &s.test_links), pred);
    // Training is deterministic.
    assert_eq!(train(&s, "plain+dbtk-root+ibtk-rgsst", 3000), model);
}

#[test]
fn a_model_from_another_program_is_refused_with_a_reason() {
    let s = split();
    let mut model = train(&s, "lex", 300);
    model.format = "something-else".into();
    let err = Scorer::new(&model, &s.lexicon).err().unwrap();
    assert!(err.to_string().contains("not a treelink alignment model"), "{err}");
    let err = AlignmentModel::from_json(&serde_json::to_string(&model).unwrap(), "m.json").unwrap_err();
    assert_eq!(
        err.to_string(),
        "m.json:1:1: expected a treelink alignment model (\"format\": \"treelink-alignment-model\", \"version\": 1), \
         found \"format\": \"something-else\", \"version\": 1"
    );
    let spec: KernelSpec = "lex".parse().unwrap();
    assert_eq!(spec.to_string(), "lex");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the scores, the greedy search keeps the three criteria.
    #[test]
    fn greedy_output_always_satisfies_the_criteria(pair_index in 0usize..157, seed in any::<u64>()) {
        let corpus = sample();
        let pair = &corpus.pairs[pair_index];
        let mut state = seed | 1;
        let mut scored = Vec::new();
        for s in 0..pair.source.len() {
            for t in 0..pair.target.len() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state % 3 == 0 {
                    scored.push(Scored::new(NodeId::new(s), NodeId::new(t), (state % 1000) as f64 / 1000.0));
                }
            }
        }
        let search = greedy_align(&pair.source, &pair.target, &scored);
        prop_assert!(check_links(&pair.source, &pair.target, &search.links).is_ok());
        prop_assert_eq!(search.steps.len(), scored.len());
    }
}

/// A held-out input never reaches the lexicon: aligning it with
/// `InputSentences::HeldOut` gives the same lexicon whatever the input
/// (changing the test sentences changes no probability), its word links are
/// the trained lexicon's Viterbi links (`held_out_links`), and a word the
/// lexicon never saw stays unaligned. By default (`Train`) the input's
/// sentences do join the training.
#[test]
fn a_held_out_input_stays_out_of_the_lexicon() {
    use treelink::align::lexical::{held_out_links, lexicon_for_input, InputSentences};
    let all = sample();
    let train = Corpus { pairs: all.pairs[..60].to_vec() };
    let test = Corpus { pairs: all.pairs[60..80].to_vec() };
    let source = LexiconSource::Train {
        extra: Vec::new(),
        options: alignment_lexicon_options(),
        held_out: false,
        links: Vec::new(),
    };
    let setup = prepare(&[&train], source, "lexical model", &mut Quiet).unwrap();
    let held = |input: &Corpus| {
        lexicon_for_input(&setup.model, input, None, InputSentences::HeldOut, "lexical model", &mut Quiet).unwrap()
    };
    let (lexicon, links) = held(&test);
    assert_eq!(links, held_out_links(&setup, &test));
    // Another input (other sentences): the same probabilities for the training words.
    let other = Corpus { pairs: all.pairs[100..120].to_vec() };
    let (lexicon_other, _) = held(&other);
    let (s, t) = (train.pairs[0].source.words()[0].to_lowercase(), train.pairs[0].target.words()[0].to_lowercase());
    assert!(lexicon.s2t.prob(&t, &s) > 0.0);
    assert_eq!(lexicon.s2t.prob(&t, &s).to_bits(), lexicon_other.s2t.prob(&t, &s).to_bits());
    assert_eq!(lexicon.s2t.prob(&t, &s).to_bits(), setup.lexicon.s2t.prob(&t, &s).to_bits());
    // An unseen word on both sides is never linked when held out, and is when trained on.
    let odd = Corpus::from_texts(
        Named { name: "odd.src", text: "(S (NN Quargelbrot) (NN Quargelbrot))\n" },
        Named { name: "odd.trg", text: "(S (NC zorblat) (NC zorblat))\n" },
        None,
    )
    .unwrap();
    let (_, held_links) = held(&odd);
    assert!(held_links[0].is_empty(), "unknown words are not aligned when held out");
    let (trained, trained_links) =
        lexicon_for_input(&setup.model, &odd, None, InputSentences::Train, "lexical model", &mut Quiet).unwrap();
    assert!(!trained_links[0].is_empty());
    assert!(trained.s2t.prob("zorblat", "quargelbrot") > 0.0);
}

/// A model file whose support vectors lack what its kernel needs (a
/// context with `ctx`, a history and a first pass with `hist`), or hold the
/// wrong number of those features, is refused when read, at the support
/// vector's place and JSON path: a model that reads can score.
#[test]
fn a_model_file_whose_support_vectors_miss_what_the_kernel_needs_is_refused_where_they_are() {
    let s = split();
    let model = train(&s, "plain+ctx+hist+dbtk-root", 300);
    let json = serde_json::to_string_pretty(&model).unwrap();
    assert_eq!(AlignmentModel::from_json(&json, "m.json").unwrap(), model);
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        edit(&mut value);
        let text = serde_json::to_string_pretty(&value).unwrap();
        let e = AlignmentModel::from_json(&text, "m.json").unwrap_err().to_string();
        // Located: a line and column inside the file.
        let (line, column) = {
            let mut parts = e.strip_prefix("m.json:").unwrap_or_else(|| panic!("{e}")).splitn(3, ':');
            (parts.next().unwrap().parse::<usize>().unwrap(), parts.next().unwrap().parse::<usize>().unwrap())
        };
        assert!(line > 1 && line <= text.lines().count() && column >= 1, "{e}");
        e
    };
    let e = refused(&|v| {
        v["support_vectors"][2].as_object_mut().unwrap().remove("context");
    });
    assert!(e.contains("at support_vectors[2]: expected a \"context\": the kernel has ctx"), "{e}");
    let e = refused(&|v| {
        v["support_vectors"][1]["context"]["dense"].as_array_mut().unwrap().pop();
    });
    let n = treelink::align::context::N_CONTEXT;
    assert!(
        e.contains(&format!(
            "at support_vectors[1]: expected {n} dense context features (the kernel has ctx), found {}",
            n - 1
        )),
        "{e}"
    );
    let e = refused(&|v| {
        v["support_vectors"][0]["history"] = serde_json::json!([0.5]);
    });
    assert!(e.contains("at support_vectors[0].history: expected 6 history features, found 1"), "{e}");
    let e = refused(&|v| {
        v.as_object_mut().unwrap().remove("first_pass");
    });
    assert!(e.contains("expected \"first_pass\": the kernel has hist"), "{e}");
    let e = refused(&|v| {
        v["first_pass"]["version"] = serde_json::json!(9);
    });
    assert!(e.contains("at first_pass: expected a model of format \"treelink-alignment-model\" version 1, found \"treelink-alignment-model\" version 9"), "{e}");
    // The first pass is checked the same way.
    let e = refused(&|v| {
        v["first_pass"]["support_vectors"][0].as_object_mut().unwrap().remove("context");
    });
    assert!(e.contains("at first_pass.support_vectors[0]: expected a \"context\""), "{e}");
}

/// Word links given with no tables (`train --word-align`, another
/// aligner's) are the training pairs' word links, held out or not; the
/// lexicon is the engine's all the same, and dev's links are its own
/// unless given for dev too (a set's `PREFIX.words`).
#[test]
fn word_links_given_with_an_engine_lexicon_are_the_training_pairs_links() {
    let all = sample();
    let (train, dev) = (Corpus { pairs: all.pairs[..40].to_vec() }, Corpus { pairs: all.pairs[40..50].to_vec() });
    // A diagonal alignment, unlike any the lexicon would give.
    let given: Vec<WordAlignment> = train
        .pairs
        .iter()
        .map(|p| {
            let n = p.source.words().len().min(p.target.words().len());
            WordAlignment::new((0..n).map(|i| (i, i)))
        })
        .collect();
    for held_out in [false, true] {
        let source =
            |links| LexiconSource::Train { extra: Vec::new(), options: alignment_lexicon_options(), held_out, links };
        let own = prepare(&[&train, &dev], source(Vec::new()), "lexical model", &mut Quiet).unwrap();
        let with = prepare(&[&train, &dev], source(vec![Some(given.clone())]), "lexical model", &mut Quiet).unwrap();
        assert_ne!(own.links[0], given, "the lexicon's own links differ (held out: {held_out})");
        assert_eq!(with.links[0], given, "held out: {held_out}");
        assert_eq!((&with.links[1], &with.lexicon, &with.model), (&own.links[1], &own.lexicon, &own.model));
        // A set's own word links (`PREFIX.words`) are given for dev too; the training pairs' stay the lexicon's.
        let dev_given: Vec<WordAlignment> = dev.pairs.iter().map(|_| WordAlignment::new([(0, 0)])).collect();
        let dev_only =
            prepare(&[&train, &dev], source(vec![None, Some(dev_given.clone())]), "lexical model", &mut Quiet);
        let dev_only = dev_only.unwrap();
        assert_eq!((&dev_only.links[0], &dev_only.links[1]), (&own.links[0], &dev_given), "held out: {held_out}");
    }
}

/// `train --threshold-folds`: the kept model's threshold is calibrated on
/// out-of-fold decisions of the training pairs pooled with dev's. Rebuilt
/// here by hand — each fold scored by a model trained on the other folds
/// with the settings dev kept — the pooled counts at the threshold are the
/// function's, no threshold does better on them (greedy search: exact),
/// dev alone gives back the threshold training calibrated, and the model
/// keeps the threshold with dev's counts at it.
#[test]
fn the_cross_validated_threshold_is_the_best_on_out_of_fold_and_dev_decisions() {
    use treelink::align::link_search::LinkSearch;
    use treelink::align::model::DecisionThreshold;
    let all = sample();
    let (train, dev) = (Corpus { pairs: all.pairs[..100].to_vec() }, Corpus { pairs: all.pairs[100..].to_vec() });
    let source = LexiconSource::Train {
        extra: Vec::new(),
        options: alignment_lexicon_options(),
        held_out: false,
        links: Vec::new(),
    };
    let setup = prepare(&[&train, &dev], source, "lexical model", &mut Quiet).unwrap();
    let options = TrainOptions {
        spec: "plain+ctx+dbtk-root".parse().unwrap(),
        solver: Solver::Linear,
        max_examples: usize::MAX,
        max_negative_ratio: f64::INFINITY,
        threshold: DecisionThreshold::Calibrated,
        tune_c: vec![1.0, 5.0],
        threshold_folds: 3,
        ..TrainOptions::default()
    };
    let (mut model, kept) = model::train_keeping(&train, Some(&dev), &setup, &options, None, &mut Quiet).unwrap();
    let dev_threshold = model.threshold;
    let cut = model::cross_validated_threshold(&train, &dev, &setup, &mut model, &kept, &mut Quiet).unwrap();
    assert_eq!(cut.dev_only.0, dev_threshold, "dev alone: the threshold training calibrated");
    assert_eq!((model.threshold, model.summary.dev), (cut.threshold, Some(cut.dev)));

    // By hand: 3 folds in order, each scored by a model of the other two.
    let settings = TrainOptions {
        prune_quantile: model.summary.prune_quantile,
        tune_prune_quantiles: Vec::new(),
        c: model.summary.c,
        cost_factor: Some(model.summary.cost_factor),
        tune_c: Vec::new(),
        threshold: DecisionThreshold::Fixed(0.0),
        threshold_folds: 0,
        ..kept.clone()
    };
    let mut pooled: Vec<(&treelink::corpus::TreePair, Vec<model::Decision>)> = Vec::new();
    for fold in 0..3 {
        let (rest, held): (Vec<usize>, Vec<usize>) = (0..100).partition(|&i| i * 3 / 100 != fold);
        let pick = Corpus { pairs: rest.iter().map(|&i| train.pairs[i].clone()).collect() };
        let lexical = LexicalSetup {
            lexicon: setup.lexicon.clone(),
            model: setup.model.clone(),
            links: vec![rest.iter().map(|&i| setup.links[0][i].clone()).collect(), setup.links[1].clone()],
            folds: None,
            link_weight: setup.link_weight,
        };
        let fold_model = model::train(&pick, Some(&dev), &lexical, &settings, &mut Quiet).unwrap();
        let scorer = Scorer::new(&fold_model, &setup.lexicon).unwrap();
        pooled.extend(held.iter().map(|&i| (&train.pairs[i], scorer.decisions(&train.pairs[i], &setup.links[0][i]))));
    }
    let scorer = Scorer::new(&model, &setup.lexicon).unwrap();
    let dev_decisions: Vec<_> =
        dev.pairs.iter().zip(&setup.links[1]).map(|(p, l)| (p, scorer.decisions(p, l))).collect();
    let at = |decided: &[(&treelink::corpus::TreePair, Vec<model::Decision>)], tau: f64| -> Counts {
        decided
            .iter()
            .map(|(p, d)| Counts::of_pair(p, &search_links(&scorer.search_decided(p, d, tau, LinkSearch::Greedy))))
            .sum()
    };
    assert_eq!(at(&dev_decisions, cut.threshold), cut.dev);
    pooled.extend(dev_decisions);
    assert_eq!(at(&pooled, cut.threshold), cut.pooled);
    for k in -30..=30 {
        let tau = dev_threshold + f64::from(k) * 0.05;
        assert!(at(&pooled, tau).f() <= cut.pooled.f() + 1e-9, "τ {tau} beats {}: {}", cut.threshold, at(&pooled, tau));
    }
    eprintln!("dev alone τ {dev_threshold:.3}; pooled τ {:.3}: pooled {}, dev {}", cut.threshold, cut.pooled, cut.dev);
    // Fewer than two folds, or more than the pairs, cannot cross-validate.
    let one = TrainOptions { threshold_folds: 1, ..kept };
    let e = model::cross_validated_threshold(&train, &dev, &setup, &mut model, &one, &mut Quiet).unwrap_err();
    assert_eq!(e, model::AlignError::ThresholdFolds { folds: 1, pairs: 100 });
}
