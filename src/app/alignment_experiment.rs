//! The alignment experiment (Tables 3/4 of the kernels paper), what
//! `treelink experiment` runs: every feature space of the paper, the best
//! combination on dev and the Tinsley et al. (2007) baseline, then the rows
//! beyond the paper, each trained on the training pairs, chosen on dev and
//! scored on the test pairs — on one train/dev/test split, or by K-fold
//! cross-validation of one treebank.
//!
//! The test pairs reach no model: by default one lexicon is trained on the
//! training sentences only, and dev and test are held out alike, their word
//! links from it (as `train` does); with `transductive_lexicon` it is
//! trained on every sentence, as the paper runs GIZA++ on its whole corpus
//! (never on a gold link).

use super::alignment::{self, AlignmentError};
use super::Clock;
use crate::align::baseline::BaselineOptions;
use crate::align::composite::KernelSpec;
use crate::align::explain;
use crate::align::lexical::{held_out_links, prepare, LexicalSetup, LexiconSource};
use crate::align::model::{self, AlignError, AlignmentModel, DecisionThreshold, TrainOptions};
use crate::align::primal::Solver;
use crate::corpus::Corpus;
use crate::eval::prf::Counts;
use crate::eval::significance::{Bootstrap, DEFAULT_SAMPLES, DEFAULT_SEED};
use crate::io::links::Link;
use crate::kernel::Space;
use crate::lexicon::WordAlignment;
use crate::parallel::{map_in_order, Threads};
use crate::progress::{Cancelled, Flow, Observer, Progress, Quiet};

/// Why the experiment stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExperimentError {
    #[error(transparent)]
    Alignment(#[from] AlignmentError),
    #[error(transparent)]
    Align(#[from] AlignError),
    #[error("{data}: {pairs} pairs cannot make {folds} folds")]
    TooFewForFolds { data: String, pairs: usize, folds: usize },
    #[error("cancelled")]
    Cancelled,
}

impl From<Cancelled> for ExperimentError {
    fn from(_: Cancelled) -> Self {
        ExperimentError::Cancelled
    }
}

/// Which rows to run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowChoice {
    /// The paper's Tables 3/4.
    pub paper: bool,
    /// Beyond the paper, on the paper rows' best combination (else on
    /// `kernel`), each adding to the one before: the threshold on D
    /// calibrated on dev,
    pub calibrated: bool,
    /// + the context features,
    pub context: bool,
    /// + the shares of words unknown to the lexicon,
    pub unknown: bool,
    /// the ctx row's explicit part on all the training data ([`Solver::Linear`]),
    pub data: bool,
    /// + the second pass.
    pub history: bool,
    /// `treelink train --dev`'s default selection ([`alignment::Preset::Best`]
    /// over the lexicon given), the test scored once with the model it keeps.
    pub defaults: bool,
    /// Without the paper rows: the combination the other rows build on
    /// (the paper's best if `None`).
    pub kernel: Option<KernelSpec>,
}

impl RowChoice {
    fn beyond(&self) -> bool {
        self.calibrated || self.context || self.unknown || self.data || self.history
    }
}

/// How the experiment trains.
#[derive(Debug, Clone)]
pub struct Settings {
    pub rows: RowChoice,
    /// Every row's training options but its kernel (`treelink train`'s,
    /// for the paper's best kernel); the paper's rows drop the tuning of
    /// C, the cost factor and the negative share, and decide by D > 0.
    pub train: TrainOptions,
    /// The weights θ of every row's kernel components (`--theta`), else equal.
    pub thetas: Option<Vec<f64>>,
    /// The defaults row's `--threshold-folds` (`None`: the preset's).
    pub threshold_folds: Option<usize>,
    /// Whether `--word-model` was given (else the defaults row chooses it on dev, as `train` does).
    pub word_model_given: bool,
    /// The `data` row's sizes: at most this many examples each (`usize::MAX`: all).
    pub data_sizes: Vec<usize>,
    /// Where the lexicon comes from (tables, or the engine's with its extra bitext).
    pub lexicon: LexiconSource,
    /// Train the in-engine lexicon on dev's and test's sentences too.
    pub transductive_lexicon: bool,
    /// Rows (or, cross-validating, folds) trained at once, each on a thread
    /// of its own; the table is the same with any number (its times are
    /// each row's wall time, which rows run side by side share).
    pub threads: Threads,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub name: String,
    pub counts: Counts,
    /// The counts of each test pair, in order (for the paired bootstrap).
    pub per_pair: Vec<Counts>,
    pub train_secs: f64,
    pub align_secs: f64,
}

/// Negatives per positive tried on dev by the `data` row unless
/// `tune_negative_ratio` is given (inf: every negative that survives pruning).
const DATA_NEGATIVE_RATIOS: [f64; 3] = [6.0, 12.0, f64::INFINITY];

/// The chosen rows (Tables 3/4 and beyond), then the baseline, on one
/// train/dev/test split; steps timed by `clock`.
pub fn run_split(
    train: &Corpus,
    dev: &Corpus,
    test: &Corpus,
    settings: &Settings,
    clock: &(dyn Clock + Sync),
    observer: &mut dyn Observer,
) -> Result<Vec<Row>, ExperimentError> {
    model::check_train_candidates(train, &settings.train)?;
    let (setup, test_links) = lexical_setup(train, dev, test, settings, observer)?;
    let split = Split { train, dev, test, setup: &setup, test_links: &test_links, clock };
    let mut rows = Vec::new();
    let combo = split.paper_rows(settings, &mut rows, observer)?;
    if settings.rows.beyond() {
        split.rows_beyond(settings, combo, &mut rows, observer)?;
    }
    if settings.rows.defaults {
        split.defaults_row(settings, &mut rows, observer)?;
    }
    // Baseline: Tinsley et al. with the paper's best heuristics.
    let started = clock.seconds();
    let pred = alignment::baseline(test, &setup.lexicon, &BaselineOptions::default(), &mut Quiet)?;
    let align_secs = clock.seconds() - started;
    let per_pair = per_pair_counts(test, &pred);
    rows.push(Row {
        name: "Baseline (Tinsley et al. 2007, skip2_s1_span1)".into(),
        counts: per_pair.iter().copied().sum(),
        per_pair,
        train_secs: 0.0,
        align_secs,
    });
    Ok(rows)
}

/// K-fold cross-validation of `all` (named `data` in errors): in fold `f`
/// the `f`th of `folds` (at least 3) parts of the pairs, in order, is the
/// test set and the next the dev set; each row's counts, per-pair counts
/// and times summed over the folds.
pub fn cross_validate(
    all: &Corpus,
    data: &str,
    folds: usize,
    settings: &Settings,
    clock: &(dyn Clock + Sync),
    observer: &mut dyn Observer,
) -> Result<Vec<Row>, ExperimentError> {
    let k = folds.max(3);
    if all.len() < k {
        return Err(ExperimentError::TooFewForFolds { data: data.to_string(), pairs: all.len(), folds: k });
    }
    let fold_of = |i: usize| i * k / all.len();
    let pick = |keep: &dyn Fn(usize) -> bool| Corpus {
        pairs: all.pairs.iter().enumerate().filter(|(i, _)| keep(fold_of(*i))).map(|(_, p)| p.clone()).collect(),
    };
    let split_of = |f: usize| {
        let dev_fold = (f + 1) % k;
        (pick(&|g| g != f && g != dev_fold), pick(&|g| g == dev_fold), pick(&|g| g == f))
    };
    let describe = |f: usize, (train, dev, test): &(Corpus, Corpus, Corpus)| {
        format!("fold {}/{k}: train {}, dev {}, test {} pairs", f + 1, train.len(), dev.len(), test.len())
    };
    let folds: Vec<Result<Vec<Row>, ExperimentError>> = if settings.threads.get() == 1 {
        let mut out = Vec::with_capacity(k);
        for f in 0..k {
            let split = split_of(f);
            observer.note(&describe(f, &split));
            out.push(Ok(run_split(&split.0, &split.1, &split.2, settings, clock, observer)?));
        }
        out
    } else {
        // A fold on each thread, its rows one after another.
        let one = Settings { threads: Threads::ONE, ..settings.clone() };
        let fold_ids: Vec<usize> = (0..k).collect();
        let done = map_in_order(
            &fold_ids,
            settings.threads,
            || (),
            |_, _, &f| {
                let split = split_of(f);
                run_split(&split.0, &split.1, &split.2, &one, clock, &mut Quiet)
            },
        );
        for f in 0..k {
            observer.note(&describe(f, &split_of(f)));
        }
        done
    };
    let mut total: Vec<Row> = Vec::new();
    for rows in folds {
        let rows = rows?;
        if total.is_empty() {
            total = rows;
            continue;
        }
        for (t, r) in total.iter_mut().zip(rows) {
            t.counts = t.counts + r.counts;
            t.per_pair.extend(r.per_pair);
            t.train_secs += r.train_secs;
            t.align_secs += r.align_secs;
            // Each fold chose its own best combination on dev.
            if t.name.starts_with("Plain + dBTK") && t.name.contains("best on dev") {
                t.name = "Plain + best dBTK + best iBTK (on dev, per fold)".into();
            }
        }
    }
    Ok(total)
}

/// Paired bootstrap p-value (as `mt-experiment`'s, over the test pairs and
/// alignment F) of each row against the row above it; `None` for the first.
pub fn p_against_row_above(rows: &[Row]) -> Vec<Option<f64>> {
    let n = rows.first().map_or(0, |r| r.per_pair.len());
    let observed = rows.iter().map(|r| r.counts.f()).collect();
    let bootstrap = Bootstrap::with_scores(observed, n, DEFAULT_SAMPLES, DEFAULT_SEED, |k, drawn| {
        drawn.iter().filter_map(|&i| rows[k].per_pair.get(i).copied()).sum::<Counts>().f()
    });
    (0..rows.len()).map(|k| k.checked_sub(1).and_then(|above| bootstrap.p_value(k, above))).collect()
}

/// One lexicon for every row, never trained on a gold link: on train,
/// with the dev and test pairs' word links from it (or, as GIZA++ in the
/// paper, on every sentence); and the test pairs' word links.
fn lexical_setup(
    train: &Corpus,
    dev: &Corpus,
    test: &Corpus,
    settings: &Settings,
    observer: &mut dyn Observer,
) -> Result<(LexicalSetup, Vec<WordAlignment>), Cancelled> {
    let source = settings.lexicon.clone();
    if settings.transductive_lexicon {
        let all = prepare(&[train, dev, test], source.for_held_out_input(false), "lexical model", observer)?;
        let test_links = all.links[2].clone();
        Ok((LexicalSetup { links: all.links[..2].to_vec(), ..all }, test_links))
    } else {
        // Test is held out; so is dev, which chooses for it (see align::lexical::prepare).
        let setup = prepare(&[train, dev], source.for_held_out_input(true), "lexical model", observer)?;
        let test_links = held_out_links(&setup, test);
        Ok((setup, test_links))
    }
}

/// The notes of a row trained on another thread, said once it is done
/// (rows end out of order; their progress is not shown).
#[derive(Default)]
struct Notes(Vec<String>);

impl Observer for Notes {
    fn progress(&mut self, _: Progress) -> Flow {
        Flow::Continue(())
    }

    fn note(&mut self, message: &str) {
        self.0.push(message.to_string());
    }
}

/// One split's data and lexicon, what every row trains and scores with.
struct Split<'a> {
    train: &'a Corpus,
    dev: &'a Corpus,
    test: &'a Corpus,
    setup: &'a LexicalSetup,
    test_links: &'a [WordAlignment],
    clock: &'a (dyn Clock + Sync),
}

/// A row to train: its name and options.
type RowJob = (String, TrainOptions);

/// A row trained and scored, with its dev F, pruning quantile and note.
struct Trained {
    row: Row,
    dev_f: f64,
    quantile: f64,
    note: String,
}

impl Split<'_> {
    /// Trains with `options` (choosing on dev) and aligns the test pairs.
    fn trained(
        &self,
        name: String,
        options: &TrainOptions,
        observer: &mut dyn Observer,
    ) -> Result<Trained, ExperimentError> {
        let started = self.clock.seconds();
        let model = model::train(self.train, Some(self.dev), self.setup, options, observer)?;
        let train_secs = self.clock.seconds() - started;
        self.score(name, &model, train_secs, observer)
    }

    /// `treelink train --dev`'s default selection: every configuration of
    /// [`alignment::Preset::Best`] trained and tuned on dev, the best by dev
    /// F kept (the first of equals), and only it scored on test.
    fn defaults_row(
        &self,
        settings: &Settings,
        rows: &mut Vec<Row>,
        observer: &mut dyn Observer,
    ) -> Result<(), ExperimentError> {
        // As `treelink train --dev` plans it (its stem back-off is the lexicon's, set for every row).
        let given = alignment::Given {
            thetas: settings.thetas.as_deref(),
            threshold_folds: settings.threshold_folds,
            word_model: settings.word_model_given,
            ..alignment::Given::default()
        };
        let plan = alignment::training_plan(
            settings.train.clone(),
            settings.rows.kernel.clone(),
            true,
            alignment::Preset::Best,
            given,
        )?;
        let options = plan.options;
        let started = self.clock.seconds();
        // The other word models' lexicons are held out as this split's is; a
        // transductive lexicon (trained with test's sentences too) is kept as it is.
        let source = (!settings.transductive_lexicon).then(|| settings.lexicon.clone().for_held_out_input(true));
        let kept = alignment::keep_best(self.train, Some(self.dev), self.setup, source.as_ref(), &options, observer)?;
        let train_secs = self.clock.seconds() - started;
        let name = "defaults (train --dev, chosen on dev)".to_string();
        let scored = match &kept.other_setup {
            // Dev chose another word model: test's word links come from its lexicon.
            Some(other) => {
                let test_links = held_out_links(other, self.test);
                let split = Split { setup: other, test_links: &test_links, ..*self };
                split.score(name, &kept.model, train_secs, observer)?
            }
            None => self.score(name, &kept.model, train_secs, observer)?,
        };
        observer.note(&scored.note);
        rows.push(scored.row);
        Ok(())
    }

    /// Aligns the test pairs with `model`: the row `name`, with its dev F,
    /// pruning quantile and note.
    fn score(
        &self,
        name: String,
        model: &AlignmentModel,
        train_secs: f64,
        observer: &mut dyn Observer,
    ) -> Result<Trained, ExperimentError> {
        let started = self.clock.seconds();
        let searches = alignment::search_all(model, &self.setup.lexicon, self.test, self.test_links, observer)?;
        let pred: Vec<Vec<Link>> = searches.iter().map(explain::predicted_links).collect();
        let align_secs = self.clock.seconds() - started;
        let per_pair = per_pair_counts(self.test, &pred);
        let (dev_f, counts) = (model.summary.dev_f.unwrap_or(0.0), per_pair.iter().copied().sum::<Counts>());
        let note = format!("{name}: dev F {dev_f:.2} ({}), test {counts}", alignment::chosen(model));
        let row = Row { name, counts, per_pair, train_secs, align_secs };
        Ok(Trained { row, dev_f, quantile: model.summary.prune_quantile, note })
    }

    /// Trains with `options` (choosing on dev), aligns the test pairs and
    /// adds the row `name`; returns its dev F and pruning quantile.
    fn row(
        &self,
        name: String,
        options: &TrainOptions,
        rows: &mut Vec<Row>,
        observer: &mut dyn Observer,
    ) -> Result<(f64, f64), ExperimentError> {
        Ok(self.rows_at_once(vec![(name, options.clone())], Threads::ONE, rows, observer)?[0])
    }

    /// The rows of `jobs`, trained independently, on `threads` threads
    /// (each quiet but for its note, then), added in order; their dev F and
    /// pruning quantiles.
    fn rows_at_once(
        &self,
        jobs: Vec<RowJob>,
        threads: Threads,
        rows: &mut Vec<Row>,
        observer: &mut dyn Observer,
    ) -> Result<Vec<(f64, f64)>, ExperimentError> {
        let mut out = Vec::with_capacity(jobs.len());
        let mut add = |t: Trained, observer: &mut dyn Observer| {
            observer.note(&t.note);
            rows.push(t.row);
            out.push((t.dev_f, t.quantile));
        };
        if threads.get() == 1 {
            for (name, options) in jobs {
                add(self.trained(name, &options, observer)?, observer);
            }
        } else {
            let done = map_in_order(
                &jobs,
                threads,
                || (),
                |_, _, (name, options)| {
                    let mut notes = Notes::default();
                    let trained = self.trained(name.clone(), options, &mut notes);
                    (notes, trained)
                },
            );
            // Each row's notes said in order, as one thread says them.
            for (notes, t) in done {
                notes.0.iter().for_each(|n| observer.note(n));
                add(t?, observer);
            }
        }
        Ok(out)
    }

    /// The paper's rows, if chosen: each feature space, then the best dBTK
    /// and iBTK on dev combined. Returns the combination the rows beyond
    /// build on, with its pruning quantile if it was run.
    fn paper_rows(
        &self,
        settings: &Settings,
        rows: &mut Vec<Row>,
        observer: &mut dyn Observer,
    ) -> Result<(KernelSpec, Option<f64>), ExperimentError> {
        let chosen = settings.rows.kernel.clone().unwrap_or_else(KernelSpec::paper_best);
        if !settings.rows.paper {
            return Ok((chosen, None));
        }
        let mut jobs: Vec<RowJob> = vec![
            ("Lex".into(), paper_options(settings, &builtin("lex"))?),
            ("Lex + Online Str".into(), paper_options(settings, &builtin("lex+str"))?),
        ];
        let mut spaces = Vec::new();
        for kind in ["dbtk", "ibtk"] {
            for space in ["sst", "rdsst", "rgsst", "root"] {
                let name = format!("Plain + {}-{}", kind_title(kind), space_title(space));
                jobs.push((name, paper_options(settings, &builtin(&format!("plain+{kind}-{space}")))?));
                spaces.push((usize::from(kind == "ibtk"), format!("{kind}-{space}")));
            }
        }
        let scores = self.rows_at_once(jobs, settings.threads, rows, observer)?;
        let mut best = [(f64::MIN, "dbtk-root".to_string()), (f64::MIN, "ibtk-rgsst".to_string())];
        for ((k, kind_space), &(dev_f, _)) in spaces.into_iter().zip(&scores[2..]) {
            if dev_f > best[k].0 {
                best[k] = (dev_f, kind_space);
            }
        }
        let combo = builtin(&format!("plain+{}+{}", best[0].1, best[1].1));
        let title = format!("Plain + {} + {} (best on dev)", title_of(&best[0].1), title_of(&best[1].1));
        let (_, quantile) = self.row(title, &paper_options(settings, &combo)?, rows, observer)?;
        Ok((combo, Some(quantile)))
    }

    /// The rows beyond the paper, each adding to the one before, on
    /// `combo` at the pruning quantile its row chose on dev.
    fn rows_beyond(
        &self,
        settings: &Settings,
        (combo, combo_quantile): (KernelSpec, Option<f64>),
        rows: &mut Vec<Row>,
        observer: &mut dyn Observer,
    ) -> Result<(), ExperimentError> {
        let chosen = &settings.rows;
        let mut options = paper_options(settings, &combo)?;
        let quantile = match combo_quantile {
            Some(q) => q,
            None => self.row(format!("{combo} (the paper's decision, D > 0)"), &options, rows, observer)?.1,
        };
        (options.prune_quantile, options.tune_prune_quantiles) = (quantile, Vec::new());
        options.threshold = DecisionThreshold::Calibrated;
        (options.tune_c, options.tune_cost_factor) =
            (settings.train.tune_c.clone(), settings.train.tune_cost_factor.clone());
        // Each row's options are known now: they train side by side.
        let mut jobs: Vec<RowJob> = Vec::new();
        if chosen.calibrated {
            jobs.push(("  threshold on D calibrated on dev".into(), options.clone()));
        }
        options.spec = with_components(&options.spec, true, false);
        if chosen.context {
            jobs.push(("  + ctx (context features)".into(), options.clone()));
        }
        if chosen.unknown {
            options.spec.unknown = true;
            jobs.push(("  + unk (unknown words' shares)".into(), options.clone()));
        }
        if chosen.data {
            let mut data = options.clone();
            data.spec.btks.retain(|&(_, space)| space == Space::Root);
            data.spec = with_components(&data.spec, true, false);
            data.solver = Solver::Linear;
            data.tune_negative_ratio = match settings.train.tune_negative_ratio.is_empty() {
                true => DATA_NEGATIVE_RATIOS.to_vec(),
                false => settings.train.tune_negative_ratio.clone(),
            };
            for &size in &settings.data_sizes {
                data.max_examples = size;
                let at_most = if size == usize::MAX { "all".to_string() } else { format!("<= {size}") };
                jobs.push((format!("  more data: {}, linear solver, {at_most} examples", data.spec), data.clone()));
            }
        }
        options.spec = with_components(&options.spec, true, true);
        if chosen.history {
            jobs.push(("  + hist (second pass)".into(), options));
        }
        self.rows_at_once(jobs, settings.threads, rows, observer)?;
        Ok(())
    }
}

/// The options of a paper row with kernel `spec`: its decision (D > 0)
/// and its C, nothing tuned beyond the pruning quantile.
fn paper_options(settings: &Settings, spec: &KernelSpec) -> Result<TrainOptions, AlignmentError> {
    Ok(TrainOptions {
        threshold: DecisionThreshold::Fixed(0.0),
        tune_c: Vec::new(),
        tune_cost_factor: Vec::new(),
        tune_negative_ratio: Vec::new(),
        ..alignment::for_kernel(&settings.train, spec, settings.thetas.as_deref())?
    })
}

/// A kernel the experiment names itself.
fn builtin(spec: &str) -> KernelSpec {
    spec.parse().expect("a valid built-in spec")
}

fn per_pair_counts(corpus: &Corpus, pred: &[Vec<Link>]) -> Vec<Counts> {
    corpus.pairs.iter().zip(pred).map(|(pair, links)| Counts::of_pair(pair, links)).collect()
}

/// `spec` with the ctx and hist components set, equal weights.
fn with_components(spec: &KernelSpec, context: bool, history: bool) -> KernelSpec {
    let mut spec = KernelSpec { context, history, ..spec.clone() };
    spec.thetas = vec![1.0 / spec.components() as f64; spec.components()];
    spec
}

fn kind_title(kind: &str) -> &'static str {
    if kind == "dbtk" {
        "dBTK"
    } else {
        "iBTK"
    }
}

fn space_title(space: &str) -> &'static str {
    match space {
        "sst" => "SST",
        "rdsst" => "RdSST",
        "rgsst" => "RgSST",
        _ => "Root",
    }
}

fn title_of(kind_space: &str) -> String {
    let (k, s) = kind_space.split_once('-').unwrap_or((kind_space, ""));
    format!("{}-{}", kind_title(k), space_title(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::lexical::alignment_lexicon_options;

    /// No row but the baseline, which trains nothing.
    fn baseline_only() -> Settings {
        Settings {
            rows: RowChoice::default(),
            train: TrainOptions::default(),
            thetas: None,
            threshold_folds: None,
            word_model_given: false,
            data_sizes: Vec::new(),
            lexicon: LexiconSource::Train {
                extra: Vec::new(),
                options: alignment_lexicon_options(),
                held_out: false,
                links: Vec::new(),
            },
            transductive_lexicon: false,
            threads: Threads::ONE,
        }
    }

    /// Rows and folds trained side by side give the table one at a time gives.
    #[test]
    fn rows_and_folds_on_threads_give_the_same_table() {
        let all = crate::corpus::sample(..40);
        let settings = Settings {
            rows: RowChoice { calibrated: true, context: true, kernel: Some(builtin("plain")), ..RowChoice::default() },
            train: TrainOptions { max_examples: 250, ..TrainOptions::default() },
            ..baseline_only()
        };
        let on = |threads| Settings { threads: Threads::new(threads), ..settings.clone() };
        let (train, dev, test) = (&all.pairs[..24], &all.pairs[24..32], &all.pairs[32..]);
        let corpus = |p: &[crate::corpus::TreePair]| Corpus { pairs: p.to_vec() };
        let split = |s: &Settings, notes: &mut Notes| {
            run_split(&corpus(train), &corpus(dev), &corpus(test), s, &|| 0.0, notes).unwrap()
        };
        let (mut one_notes, mut two_notes) = (Notes::default(), Notes::default());
        let one = split(&on(1), &mut one_notes);
        assert_eq!(one.len(), 4, "plain (D > 0), calibrated, + ctx, the baseline");
        assert_eq!(split(&on(2), &mut two_notes), one);
        assert_eq!(two_notes.0, one_notes.0, "each row's note, in order");
        let baseline = baseline_only();
        let folds = |threads| {
            let s = Settings { threads: Threads::new(threads), ..baseline.clone() };
            cross_validate(&all, "sample", 3, &s, &|| 0.0, &mut Notes::default()).unwrap()
        };
        assert_eq!(folds(3), folds(1));
    }

    #[test]
    fn cross_validation_tests_every_pair_once_with_the_next_fold_as_dev() {
        let all = crate::corpus::sample(..40);
        let mut notes = Notes::default();
        // Two folds asked for: three, the fewest with a train, a dev and a test fold.
        let rows = cross_validate(&all, "sample", 2, &baseline_only(), &|| 0.0, &mut notes).unwrap();
        // Folds of 14, 13 and 13 pairs, in order.
        let folds: Vec<&str> = notes.0.iter().filter(|n| n.starts_with("fold")).map(String::as_str).collect();
        assert_eq!(
            folds,
            [
                "fold 1/3: train 13, dev 13, test 14 pairs",
                "fold 2/3: train 14, dev 13, test 13 pairs",
                "fold 3/3: train 13, dev 14, test 13 pairs"
            ]
        );
        let [baseline] = rows.as_slice() else { panic!("{} rows", rows.len()) };
        assert_eq!(baseline.name, "Baseline (Tinsley et al. 2007, skip2_s1_span1)");
        assert_eq!(baseline.per_pair.len(), all.len());
        assert_eq!(baseline.counts, baseline.per_pair.iter().copied().sum());
        let no_links: Vec<Vec<Link>> = vec![Vec::new(); all.len()];
        let gold = Counts::of_corpus(all.pairs.iter().zip(no_links.iter().map(Vec::as_slice)));
        assert_eq!((baseline.counts.gold, baseline.counts.gold_good), (gold.gold, gold.gold_good));
        assert!(baseline.counts.correct > 0);

        let four = Corpus { pairs: all.pairs[..4].to_vec() };
        let e = cross_validate(&four, "four", 5, &baseline_only(), &|| 0.0, &mut notes).unwrap_err();
        assert_eq!(e.to_string(), "four: 4 pairs cannot make 5 folds");
    }

    #[test]
    fn each_row_is_tested_against_the_row_above() {
        let row = |correct| Row {
            name: String::new(),
            counts: Counts { correct, predicted: 10, gold: 10, ..Counts::default() },
            per_pair: vec![Counts { correct, predicted: 10, gold: 10, ..Counts::default() }; 1],
            train_secs: 0.0,
            align_secs: 0.0,
        };
        // Equal rows differ on no resample: p = 1.
        assert_eq!(p_against_row_above(&[row(5), row(5)]), [None, Some(1.0)]);
        assert_eq!(p_against_row_above(&[]), []);
    }
}
