//! The translation experiment (Table 5 of the kernels paper, Table 3 of the
//! meta-structure paper), what `treelink mt-experiment` runs: each system
//! with each extraction method trained on the training pairs, tuned on dev
//! by MERT several times from the same default weights (MERT on a small dev
//! set is noisy: Clark et al. 2011), and scored by BLEU on the test set.
//!
//! No test sentence reaches any model: the word alignment, like the tables,
//! the language models and MERT, sees the training and dev pairs only; the
//! test pairs are only translated and scored.

use super::translation::{self, SubtreeAlign, SubtreeLinks, TranslationError};
use super::Clock;
use crate::corpus::Corpus;
use crate::eval::bleu::{Bleu, BleuStats};
use crate::eval::curve::LogLinearFit;
use crate::eval::significance::{self, Bootstrap, RunScores, SignificanceError};
use crate::mt::model::{SystemKind, TrainingInfo, TranslationModel};
use crate::mt::phrase::unknown::UnknownStats;
use crate::mt::phrase::ExtractMethod;
use crate::mt::train::{self as mt_train, MtTrainSettings};
use crate::mt::tune::MertOptions;
use crate::progress::Observer;
use crate::tree::Tree;

/// What to run: the data, the rows (systems × extraction methods) and how
/// each is trained and tuned.
#[derive(Debug, Clone)]
pub struct Experiment<'a> {
    pub train: &'a Corpus,
    /// Names the training data in the models' records.
    pub train_name: String,
    /// MERT's dev set (and a trained sub-tree aligner's).
    pub dev: &'a Corpus,
    pub dev_name: String,
    /// The reported BLEU's test set (its gold links are never read).
    pub test: &'a Corpus,
    /// The sub-tree links of DirC / EWoS extraction; `None` when every
    /// method is word extraction ([`needs_subtree_links`]).
    pub subtree: Option<SubtreeAlign>,
    pub systems: Vec<SystemKind>,
    pub methods: Vec<ExtractMethod>,
    /// MERT runs per row (seeds `settings.seed`, `+1`, …); one without tuning.
    pub repeats: usize,
    /// The systems' settings; `settings.tune_iterations` are each run's.
    pub settings: MtTrainSettings,
}

/// Whether any of `methods` extracts with sub-tree links.
pub fn needs_subtree_links(methods: &[ExtractMethod]) -> bool {
    methods.iter().any(|&m| m != ExtractMethod::Word)
}

/// One run of a row, handed to the caller when its test set is translated
/// (`mt-experiment --output-dir` writes both).
pub struct Run<'a> {
    /// `SYSTEM-METHOD-RUN`, the run counted from 1.
    pub name: String,
    /// The tuned model, its record naming the data and its time.
    pub model: &'a TranslationModel,
    /// The test set's translations.
    pub hyps: &'a [Vec<String>],
}

/// One row of the table: one system and method, one test BLEU per run.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub system: SystemKind,
    pub method: ExtractMethod,
    pub bleus: Vec<Bleu>,
    /// Per run, the test sentences' BLEU statistics (for the significance test).
    pub sentences: Vec<Vec<BleuStats>>,
    /// Per run, the tuned weights.
    pub weights: Vec<Vec<f64>>,
    /// Unknown source words of dev and test.
    pub unknown: [UnknownStats; 2],
    /// Per run, the tuned weights' dev BLEU (empty without tuning).
    pub dev_bleus: Vec<f64>,
    pub train_secs: f64,
    pub tune_secs: f64,
    pub test_secs: f64,
}

impl Row {
    /// The row's test scores, run by run, sentence by sentence.
    pub fn scores(&self) -> RunScores {
        RunScores { runs: self.sentences.clone() }
    }

    /// Each weight's mean over the runs, named as the system names its features.
    pub fn mean_weights(&self) -> Vec<(&'static str, f64)> {
        let n = self.weights.len().max(1) as f64;
        let names = self.system.feature_names();
        let mean = |i: usize| self.weights.iter().map(|w| w.get(i).copied().unwrap_or(0.0)).sum::<f64>() / n;
        names.iter().enumerate().map(|(i, &name)| (name, mean(i))).collect()
    }
}

/// What the experiment found, with its times.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub align_secs: f64,
    pub subtree_secs: f64,
    /// Where the sub-tree links came from, if any row needed them.
    pub subtree: Option<String>,
    /// MERT runs per row.
    pub repeats: usize,
    pub rows: Vec<Row>,
}

impl Outcome {
    /// Paired bootstrap resampling of the rows' test sentences (sacreBLEU's
    /// resamples and seed; a row's score on a resample is the mean over its runs).
    pub fn significance(&self) -> Result<Bootstrap, SignificanceError> {
        let scores: Vec<RunScores> = self.rows.iter().map(Row::scores).collect();
        Bootstrap::new(&scores, significance::DEFAULT_SAMPLES, significance::DEFAULT_SEED)
    }
}

/// Runs the experiment: the word alignment of train and dev, the sub-tree
/// links, then each row — trained once untuned, then per run tuned from
/// those weights with the next MERT seed and the test set translated;
/// `each_run` gets every run as it ends. Steps are timed by `clock`.
pub fn run<E: From<TranslationError>>(
    experiment: &Experiment<'_>,
    clock: &dyn Clock,
    observer: &mut dyn Observer,
    mut each_run: impl FnMut(Run<'_>) -> Result<(), E>,
) -> Result<Outcome, E> {
    let (train, dev, test) = (experiment.train, experiment.dev, experiment.test);
    let started = clock.seconds();
    let (mut links, lexicon) = mt_train::word_alignments_with(&[train, dev], experiment.settings.word_model, observer)
        .map_err(TranslationError::from)?;
    let align_secs = clock.seconds() - started;
    observer.note(&format!("word alignment of {} pairs (train and dev): {align_secs:.1} s", train.len() + dev.len()));
    let started = clock.seconds();
    let subtree = match &experiment.subtree {
        Some(align) => Some(translation::subtree_links(align, train, Some(dev), observer)?),
        None => None,
    };
    let subtree_secs = clock.seconds() - started;
    if let Some(s) = &subtree {
        let count = s.links.iter().map(Vec::len).sum::<usize>();
        observer.note(&format!(
            "sub-tree alignment ({}): {count} links on the training pairs, {subtree_secs:.1} s",
            s.origin
        ));
    }
    let repeats = if experiment.settings.tune_iterations > 0 { experiment.repeats.max(1) } else { 1 };
    let rows_of = RowData {
        experiment,
        word_links: links.swap_remove(0),
        subtree: subtree.as_ref(),
        // Trained untuned: each run tunes from the same default weights.
        untuned: MtTrainSettings { tune_iterations: 0, lexicon: Some(lexicon), ..experiment.settings.clone() },
        sources: test.pairs.iter().map(|p| p.source.clone()).collect(),
        repeats,
    };
    let mut rows = Vec::new();
    for &system in &experiment.systems {
        for &method in &experiment.methods {
            rows.push(rows_of.row(system, method, clock, observer, &mut each_run)?);
        }
    }
    Ok(Outcome { align_secs, subtree_secs, subtree: subtree.map(|s| s.origin), repeats, rows })
}

/// What every row is trained and scored with.
struct RowData<'a> {
    experiment: &'a Experiment<'a>,
    /// The training pairs' word links (aligned with dev's).
    word_links: Vec<crate::lexicon::WordAlignment>,
    subtree: Option<&'a SubtreeLinks>,
    untuned: MtTrainSettings,
    /// The test set's source trees.
    sources: Vec<Tree>,
    repeats: usize,
}

impl RowData<'_> {
    /// One row: the system trained untuned, then each run.
    fn row<E: From<TranslationError>>(
        &self,
        system: SystemKind,
        method: ExtractMethod,
        clock: &dyn Clock,
        observer: &mut dyn Observer,
        each_run: &mut impl FnMut(Run<'_>) -> Result<(), E>,
    ) -> Result<Row, E> {
        let x = self.experiment;
        let label = format!("{} {}", system.name(), method);
        let started = clock.seconds();
        let subtree = self.subtree.map(|s| s.links.as_slice());
        let (trained, _) =
            mt_train::train_system(system, method, x.train, &self.word_links, subtree, None, &self.untuned, observer)
                .map_err(TranslationError::from)?;
        let train_secs = clock.seconds() - started;
        let initial = trained.weights().to_vec();
        let unknown = |c: &Corpus| {
            let mut stats = UnknownStats::default();
            c.pairs.iter().for_each(|p| stats.add(&trained.source_words(p.source.words())));
            stats
        };
        let (dev_unknown, test_unknown) = (unknown(x.dev), unknown(x.test));
        observer.note(&format!("{label}: dev source {dev_unknown}"));
        observer.note(&format!("{label}: test source {test_unknown}"));
        let mut model = TranslationModel {
            training: TrainingInfo {
                train: x.train_name.clone(),
                dev: Some(x.dev_name.clone()),
                extract: Some(method),
                subtree_align: self.subtree.filter(|_| method != ExtractMethod::Word).map(|s| s.origin.clone()),
                pairs: x.train.len(),
                dev_bleu: None,
                seconds: 0.0,
                made_by: crate::made_by(),
                word_model: Some(x.settings.word_model),
                tuner: (x.settings.tune_iterations > 0).then_some(x.settings.tuner),
                preset: None,
                chosen_on_dev: None,
            },
            system: trained,
        };
        let mut row = Row {
            system,
            method,
            bleus: Vec::new(),
            sentences: Vec::new(),
            weights: Vec::new(),
            unknown: [dev_unknown, test_unknown],
            dev_bleus: Vec::new(),
            train_secs,
            tune_secs: 0.0,
            test_secs: 0.0,
        };
        for r in 0..self.repeats {
            let started = clock.seconds();
            model.system.set_weights(&initial);
            if x.settings.tune_iterations > 0 {
                let mert = MertOptions {
                    iterations: x.settings.tune_iterations,
                    nbest: x.settings.nbest,
                    seed: x.settings.seed.wrapping_add(r as u64),
                    tuner: x.settings.tuner,
                    ..MertOptions::default()
                };
                observer.note(&format!(
                    "{label}: tuning on {} dev sentences ({} seed {})",
                    x.dev.len(),
                    mert.tuner.name(),
                    mert.seed
                ));
                let report =
                    mt_train::tune(&mut model.system, x.dev, &mert, observer).map_err(TranslationError::from)?;
                row.dev_bleus.push(report.bleu);
            }
            let tune_secs = clock.seconds() - started;
            row.tune_secs += tune_secs;
            model.training.dev_bleu = row.dev_bleus.last().copied();
            model.training.seconds = train_secs + tune_secs;
            let started = clock.seconds();
            let hyps = translation::translate_all(&model, &self.sources, observer).map_err(TranslationError::from)?;
            let sentences: Vec<BleuStats> =
                hyps.iter().zip(&x.test.pairs).map(|(h, p)| BleuStats::from_tokens(h, &[p.target.words()])).collect();
            row.test_secs += clock.seconds() - started;
            let bleu = Bleu::corpus(&sentences.iter().copied().sum());
            let name = format!("{}-{}-{}", system.name(), method.name(), r + 1);
            each_run(Run { name, model: &model, hyps: &hyps })?;
            observer.note(&format!("{label}: test {bleu}; weights {:?}", model.system.weights()));
            row.bleus.push(bleu);
            row.sentences.push(sentences);
            row.weights.push(model.system.weights().to_vec());
        }
        observer.note(&format!(
            "{label}: train {:.1} s, tune {:.1} s, test {:.1} s",
            row.train_secs, row.tune_secs, row.test_secs
        ));
        Ok(row)
    }
}

/// Nested samples of `corpus` for a learning curve (issue 27.2): one
/// seeded shuffle of its pairs, and for each fraction the first
/// `⌈fraction · n⌉` of it, kept in corpus order, so every smaller sample is
/// inside every larger one. Fractions must lie in (0, 1].
pub fn nested_samples(corpus: &Corpus, fractions: &[f64], seed: u64) -> Result<Vec<Corpus>, String> {
    let n = corpus.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = crate::rng::SplitMix64::new(seed);
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    fractions
        .iter()
        .map(|&f| {
            if !(f > 0.0 && f <= 1.0) {
                return Err(format!("a training fraction must lie in (0, 1], found {f}"));
            }
            let k = ((f * n as f64).ceil() as usize).clamp(1, n.max(1));
            let mut kept = order[..k.min(n)].to_vec();
            kept.sort_unstable();
            Ok(Corpus { pairs: kept.into_iter().map(|i| corpus.pairs[i].clone()).collect() })
        })
        .collect()
}

/// The share of the MS model's RM pairs whose expected count is at most 1
/// (docs/translation-results.md's "98.7% singletons"); `None` for the
/// phrase-based system or an empty table.
pub fn rm_singleton_share(model: &TranslationModel) -> Option<f64> {
    match &model.system {
        crate::mt::model::MtSystem::Ms(m) if !m.rm_table.is_empty() => {
            let ones = m.rm_table.entries().filter(|e| e.count <= 1.0).count();
            Some(ones as f64 / m.rm_table.len() as f64)
        }
        _ => None,
    }
}

/// One system's curve for [`learning_curve_svg`]: its name, colour and
/// per size `(pairs, runs' BLEU)`, with its fit.
pub struct Curve<'a> {
    pub name: &'a str,
    pub colour: &'a str,
    pub sizes: Vec<(f64, Vec<f64>)>,
    pub fit: Option<LogLinearFit>,
}

/// The learning curve as a standalone SVG: test BLEU against training
/// pairs on a log axis, each run a dot, each size's mean a circle, and each
/// system's log-linear fit a line.
pub fn learning_curve_svg(curves: &[Curve<'_>]) -> String {
    use std::fmt::Write;
    let (w, h, left, right, top, bottom) = (560.0, 360.0, 56.0, 140.0, 20.0, 44.0);
    let all = curves.iter().flat_map(|c| &c.sizes);
    let xs: Vec<f64> = all.clone().map(|(p, _)| crate::math::ln(*p)).collect();
    let ys: Vec<f64> = all.flat_map(|(_, b)| b.iter().copied()).collect();
    if xs.is_empty() || ys.is_empty() {
        return String::from("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    }
    let (x0, x1) =
        (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let (x0, x1) = if x1 > x0 { (x0 - 0.1, x1 + 0.1) } else { (x0 - 1.0, x1 + 1.0) };
    let y0 = (ys.iter().copied().fold(f64::INFINITY, f64::min) - 0.5).floor();
    let y1 = (ys.iter().copied().fold(f64::NEG_INFINITY, f64::max) + 0.5).ceil();
    let sx = |x: f64| left + (x - x0) / (x1 - x0) * (w - left - right);
    let sy = |y: f64| h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>");
    let (bx, by) = (h - bottom, left);
    let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{bx}\" x2=\"{}\" y2=\"{bx}\" stroke=\"black\"/>", w - right);
    let _ = writeln!(s, "<line x1=\"{by}\" y1=\"{top}\" x2=\"{by}\" y2=\"{bx}\" stroke=\"black\"/>");
    let mut sizes: Vec<f64> = curves.iter().flat_map(|c| c.sizes.iter().map(|(p, _)| *p)).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    for p in &sizes {
        let x = sx(crate::math::ln(*p));
        let _ = writeln!(s, "<line x1=\"{x:.1}\" y1=\"{bx}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"black\"/>", bx + 4.0);
        let _ = writeln!(s, "<text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{p}</text>", bx + 17.0);
    }
    let mut y = y0;
    while y <= y1 + 1e-9 {
        let v = sy(y);
        let _ = writeln!(s, "<line x1=\"{}\" y1=\"{v:.1}\" x2=\"{by}\" y2=\"{v:.1}\" stroke=\"black\"/>", by - 4.0);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{y}</text>", by - 7.0, v + 4.0);
        y += 1.0;
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">training pairs (log scale)</text>",
        (left + w - right) / 2.0,
        h - 6.0
    );
    let _ = writeln!(
        s,
        "<text transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">test BLEU</text>",
        (top + h - bottom) / 2.0
    );
    for (k, c) in curves.iter().enumerate() {
        for (p, bleus) in &c.sizes {
            let x = sx(crate::math::ln(*p));
            for b in bleus {
                let _ = writeln!(s, "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"{}\"/>", sy(*b), c.colour);
            }
            if !bleus.is_empty() {
                let m = bleus.iter().sum::<f64>() / bleus.len() as f64;
                let _ = writeln!(
                    s,
                    "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"none\" stroke=\"{}\"/>",
                    sy(m),
                    c.colour
                );
            }
        }
        if let (Some(f), Some(lo), Some(hi)) = (c.fit, sizes.first(), sizes.last()) {
            let _ = writeln!(
                s,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-dasharray=\"5 3\"/>",
                sx(crate::math::ln(*lo)),
                sy(f.at(*lo)),
                sx(crate::math::ln(*hi)),
                sy(f.at(*hi)),
                c.colour
            );
        }
        let ly = top + 14.0 + 18.0 * k as f64;
        let _ = writeln!(
            s,
            "<circle cx=\"{}\" cy=\"{:.1}\" r=\"5\" fill=\"none\" stroke=\"{}\"/>",
            w - right + 16.0,
            ly - 4.0,
            c.colour
        );
        let _ = writeln!(s, "<text x=\"{}\" y=\"{ly:.1}\">{}</text>", w - right + 26.0, escape_text(c.name));
    }
    s.push_str("</svg>\n");
    s
}

/// `text` safe inside an SVG text node.
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bleu::corpus_bleu;
    use crate::progress::Quiet;

    /// The phrase system with word extraction, trained on `train`, tuned on `dev`.
    fn phrase_word<'a>(
        train: &'a Corpus,
        dev: &'a Corpus,
        test: &'a Corpus,
        repeats: usize,
        settings: MtTrainSettings,
    ) -> Experiment<'a> {
        let (train_name, dev_name) = ("train".into(), "dev".into());
        let (systems, methods) = (vec![SystemKind::Phrase], vec![ExtractMethod::Word]);
        Experiment { train, train_name, dev, dev_name, test, subtree: None, systems, methods, repeats, settings }
    }

    /// A run as handed over: its name, model and test translations.
    type Handed = (String, TranslationModel, Vec<Vec<String>>);

    /// The experiment's outcome and every run.
    fn run_all(experiment: &Experiment<'_>) -> (Outcome, Vec<Handed>) {
        let mut runs = Vec::new();
        let outcome = run(experiment, &|| 0.0, &mut Quiet, |r| {
            runs.push((r.name, r.model.clone(), r.hyps.to_vec()));
            Ok::<_, TranslationError>(())
        })
        .unwrap();
        (outcome, runs)
    }

    #[test]
    fn each_run_tunes_from_the_untuned_weights_with_the_next_seed_and_scores_its_own_translations() {
        let [train, dev, test] = [0..30, 30..38, 38..46].map(crate::corpus::sample);
        let settings = MtTrainSettings { tune_iterations: 1, nbest: 10, ..MtTrainSettings::default() };
        let experiment = phrase_word(&train, &dev, &test, 2, settings);
        let (outcome, runs) = run_all(&experiment);
        assert_eq!((outcome.repeats, outcome.subtree.as_deref(), outcome.rows.len()), (2, None, 1));
        let row = &outcome.rows[0];
        let names: Vec<&str> = runs.iter().map(|(n, ..)| n.as_str()).collect();
        assert_eq!(names, ["phrase-word-1", "phrase-word-2"]);
        let sources: Vec<Tree> = test.pairs.iter().map(|p| p.source.clone()).collect();
        let refs: Vec<String> = test.pairs.iter().map(|p| p.target.words().join(" ")).collect();
        for (r, (_, model, hyps)) in runs.iter().enumerate() {
            // The model handed over is the one that translated, and its BLEU the row's.
            assert_eq!(&translation::translate_all(model, &sources, &mut Quiet).unwrap(), hyps);
            let text: Vec<String> = hyps.iter().map(|h| h.join(" ")).collect();
            assert_eq!(corpus_bleu(&text, &refs).unwrap().score, row.bleus[r].score);
            assert_eq!(model.system.weights(), row.weights[r]);
            let t = &model.training;
            assert_eq!(
                (t.train.as_str(), t.dev.as_deref(), t.extract),
                ("train", Some("dev"), Some(ExtractMethod::Word))
            );
            assert_eq!((t.subtree_align.as_deref(), t.pairs, t.dev_bleu), (None, 30, Some(row.dev_bleus[r])));
        }
        // The second run is the first run of an experiment seeded one further.
        let settings = MtTrainSettings { seed: 2, ..experiment.settings.clone() };
        let (next, _) = run_all(&Experiment { repeats: 1, settings, ..experiment.clone() });
        assert_eq!(next.rows[0].weights[0], row.weights[1]);
        assert_eq!(next.rows[0].dev_bleus[0], row.dev_bleus[1]);
        assert_eq!(next.rows[0].unknown, row.unknown);
    }

    #[test]
    fn untuned_the_experiment_runs_once_whatever_the_repeats() {
        let [train, dev, test] = [0..20, 20..24, 24..28].map(crate::corpus::sample);
        let settings = MtTrainSettings { tune_iterations: 0, ..MtTrainSettings::default() };
        let experiment = phrase_word(&train, &dev, &test, 3, settings);
        let (outcome, runs) = run_all(&experiment);
        assert_eq!((outcome.repeats, runs.len(), outcome.rows[0].dev_bleus.len()), (1, 1, 0));
        let defaults = outcome.rows[0].mean_weights();
        assert_eq!(defaults.len(), crate::mt::phrase::PHRASE_FEATURE_NAMES.len());
        assert_eq!(defaults.iter().map(|(_, w)| *w).collect::<Vec<_>>(), runs[0].1.system.weights());
        assert!(needs_subtree_links(&[ExtractMethod::Word, ExtractMethod::EWoS]));
        assert!(!needs_subtree_links(&[ExtractMethod::Word]));
    }

    /// Issue 27.2: the samples are nested, of the sizes asked, drawn from the
    /// corpus, the same for the same seed; a bad fraction is an error.
    #[test]
    fn learning_curve_samples_are_nested_and_sized() {
        // Each pair told apart by its position: the sample repeats a sentence.
        let mut corpus = crate::corpus::sample(0..40);
        for (i, p) in corpus.pairs.iter_mut().enumerate() {
            p.source = Tree::parse_one(&format!("(S (CARD {i}))"), "test").unwrap();
        }
        let key = |c: &Corpus| c.pairs.iter().map(|p| p.source.words().join(" ")).collect::<Vec<_>>();
        let all = key(&corpus);
        let samples = nested_samples(&corpus, &[0.125, 0.25, 0.5, 1.0], 7).unwrap();
        let sizes: Vec<usize> = samples.iter().map(Corpus::len).collect();
        assert_eq!(sizes, [5, 10, 20, 40]);
        for w in samples.windows(2) {
            let (small, large) = (key(&w[0]), key(&w[1]));
            assert!(small.iter().all(|s| large.contains(s)), "{small:?} not in {large:?}");
        }
        // In corpus order, and the whole corpus at fraction 1.
        let pos = |s: &String| all.iter().position(|a| a == s).unwrap();
        assert!(key(&samples[1]).windows(2).all(|w| pos(&w[0]) < pos(&w[1])));
        assert_eq!(key(&samples[3]), all);
        assert_eq!(key(&nested_samples(&corpus, &[0.25], 7).unwrap()[0]), key(&samples[1]));
        assert_ne!(key(&nested_samples(&corpus, &[0.25], 8).unwrap()[0]), key(&samples[1]));
        assert!(nested_samples(&corpus, &[0.0], 7).is_err() && nested_samples(&corpus, &[1.5], 7).is_err());
    }

    /// The curve as SVG: each run a dot, each size's mean a circle, names escaped.
    #[test]
    fn the_learning_curve_as_svg() {
        let line = [100.0, 200.0, 400.0, 800.0].map(|p: f64| (p, 2.0 + 1.5 * crate::math::ln(p)));
        let f = LogLinearFit::fit(&line).unwrap();
        let curve = Curve { name: "a<b", colour: "red", sizes: vec![(100.0, vec![1.0, 2.0])], fit: Some(f) };
        let svg = learning_curve_svg(&[curve]);
        assert!(svg.starts_with("<svg") && svg.contains("a&lt;b") && svg.matches("<circle").count() == 4, "{svg}");
    }
}
