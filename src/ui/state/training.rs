//! The training form ([`TrainForm`]: its fields as typed, each bad field's
//! error, the choices beyond the options) and what the Train panel asks:
//! train and align, align with the model in hand, download the model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{DownloadBody, Effect, HeldSets, JobKind, State};
use crate::align::composite::KernelSpec;
use crate::align::model::{show_max_examples, DecisionThreshold, TrainOptions, TRAIN_SETTINGS};
use crate::align::primal::Solver;
use crate::app::alignment::{self, Given, PairsTraining, Preset, TrainingPlan, PAGE_STEM_CHARS};
use crate::lexicon::WordModel;
use crate::svm::SvmParams;
use crate::ui::load::HeldRole;
use crate::ui::protocol::{CorpusText, Request};

/// A field of the training form: the kernel typed, its weights θ, or one
/// of the engine's [`TRAIN_SETTINGS`] by its name (the page's control is
/// `train-NAME`, the CLI's flag `--NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Field(&'static str);

impl Field {
    pub const KERNEL: Field = Field("kernel");
    pub const THETAS: Field = Field("thetas");
    pub const LAMBDA: Field = Field("lambda");
    pub const C: Field = Field("c");
    pub const MAX_EXAMPLES: Field = Field("max-examples");
    pub const SEED: Field = Field("seed");
    pub const MAX_NEGATIVE_RATIO: Field = Field("max-negative-ratio");

    /// The field of the engine's setting `name` (one of [`TRAIN_SETTINGS`]).
    pub fn setting(name: &'static str) -> Field {
        debug_assert!(TRAIN_SETTINGS.iter().any(|s| s.name == name), "no training setting {name}");
        Field(name)
    }

    /// Every field: the kernel, θ, then the settings in the engine's order.
    pub fn all() -> impl Iterator<Item = Field> {
        [Field::KERNEL, Field::THETAS].into_iter().chain(TRAIN_SETTINGS.iter().map(|s| Field(s.name)))
    }

    /// The field called `name` (or, in sessions kept before fields were
    /// named so, by its old name: `MaxExamples`).
    fn named(name: &str) -> Option<Field> {
        let name = match name {
            "Kernel" => "kernel",
            "Thetas" => "thetas",
            "Lambda" => "lambda",
            "C" => "c",
            "MaxExamples" => "max-examples",
            "Seed" => "seed",
            "MaxNegativeRatio" => "max-negative-ratio",
            name => name,
        };
        Field::all().find(|f| f.0 == name)
    }

    /// The page's control of the field.
    pub fn id(self) -> String {
        format!("train-{}", self.0)
    }
}

/// [`TrainForm::values`] as a session keeps them: a list of (field, text);
/// read back over the defaults, a field no longer known left out.
mod form_values {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use super::{Field, TrainForm};

    pub fn serialize<S: Serializer>(values: &BTreeMap<Field, String>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(|(f, v)| (f.0, v)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<Field, String>, D::Error> {
        let mut values = TrainForm::default().values;
        for (name, text) in Vec::<(String, String)>::deserialize(d)? {
            if let Some(field) = Field::named(&name) {
                values.insert(field, text);
            }
        }
        Ok(values)
    }
}

/// What the Train button trains: as `treelink train` without `--kernel`
/// (the engine's best chosen on the dev pairs, or the paper's
/// configuration: `--preset`), or with the form's kernel (`--kernel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Setting {
    /// `train --dev` (the default): [`Preset::Best`]'s configurations.
    #[default]
    Best,
    /// `train --preset paper`: the paper's kernels and decision.
    Paper,
    /// `train --kernel K`: the kernel typed in the form.
    Kernel,
}

impl Setting {
    pub const ALL: [Setting; 3] = [Setting::Best, Setting::Paper, Setting::Kernel];

    pub fn name(self) -> &'static str {
        match self {
            Setting::Best => "best",
            Setting::Paper => "paper",
            Setting::Kernel => "kernel",
        }
    }
}

/// The training form's texts, as typed, and the error of each bad field;
/// the in-engine lexicon's word model (`--word-model`) and stem back-off
/// (`--stem-backoff 4`); whether the last 20% of the training pairs are
/// dev to calibrate the threshold on D (`--dev`); and whether the last
/// 20% of the pairs are held out as a test (`--held-out`, then `align` on
/// them): [`PairsTraining`], split by `app::alignment::PairSplit`.
///
/// Kept for the next visit as it is (a field a session does not name: its default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainForm {
    #[serde(rename = "form", with = "form_values")]
    pub values: BTreeMap<Field, String>,
    pub setting: Setting,
    pub solver: Solver,
    /// The in-engine lexicon's word model (`--word-model`); `None`: the
    /// plan's (the best setting with dev pairs chooses it on them, else fast-align).
    pub word_model: Option<WordModel>,
    pub calibrate: bool,
    pub test: bool,
    pub stem_backoff: bool,
    /// The Advanced settings are shown: closed at first, open when a kept
    /// session sets one of them ([`TrainForm::sets_advanced`]); not kept.
    #[serde(skip)]
    pub advanced: bool,
}

impl Default for TrainForm {
    /// `treelink train --dev`'s defaults: the engine's best chosen on the
    /// dev pairs (the last 20% of the training pairs), from the paper's
    /// settings (λ = 0.4, C = 2.4, its best kernel when one is typed).
    fn default() -> Self {
        let d = TrainOptions::default();
        let kernel = (Field::KERNEL, KernelSpec::paper_best().to_string());
        let settings = TRAIN_SETTINGS.iter().map(|s| (Field(s.name), (s.show)(&d)));
        let values = [kernel, (Field::THETAS, String::new())].into_iter().chain(settings);
        TrainForm {
            values: values.into_iter().collect(),
            setting: Setting::default(),
            solver: Solver::default(),
            word_model: None,
            calibrate: true,
            test: false,
            stem_backoff: false,
            advanced: false,
        }
    }
}

impl TrainForm {
    /// The choices beyond the options, as the worker takes them (the stem
    /// back-off as the plan has it).
    /// (The dev and test sets given as files, `held`, are the dev and the
    /// test whatever *Dev pairs* and *Hold out a test* say.)
    pub fn pairs_training(&self, held: &HeldSets) -> PairsTraining {
        PairsTraining {
            word_model: self.word_model.unwrap_or_default(),
            stem_backoff: self.stem_backoff_in_use(held),
            calibrate: self.calibrate_in_use(held),
            test: self.test_in_use(held),
            dev_set: held.pairs(HeldRole::Dev),
            test_set: held.pairs(HeldRole::Test),
        }
    }

    /// Whether there are dev pairs: a dev set given as files, or *Dev pairs*'s share.
    pub fn calibrate_in_use(&self, held: &HeldSets) -> bool {
        self.calibrate || held.dev.is_some()
    }

    /// Whether there is a held-out test: a test set given as files, or
    /// *Hold out a test*'s share, which a dev set given as files (the last
    /// pairs) rules out.
    pub fn test_in_use(&self, held: &HeldSets) -> bool {
        held.test.is_some() || (self.test && held.dev.is_none())
    }

    /// The stem back-off the training will use: the box's, or the one
    /// its preset gives ([`alignment::preset_stem_backoff`], as the plan's).
    pub fn stem_backoff_in_use(&self, held: &HeldSets) -> Option<usize> {
        let (preset, kernel_given) = self.preset();
        self.stem_backoff.then_some(PAGE_STEM_CHARS).or(alignment::preset_stem_backoff(
            preset,
            self.calibrate_in_use(held),
            kernel_given,
        ))
    }

    /// The preset `treelink train` would be given, and whether a kernel is.
    fn preset(&self) -> (Preset, bool) {
        match self.setting {
            Setting::Best => (Preset::Best, false),
            Setting::Paper => (Preset::Paper, false),
            Setting::Kernel => (Preset::Best, true),
        }
    }

    /// The configurations the Train button tries, as `treelink train`
    /// plans them for the same settings ([`alignment::training_plan`]).
    pub fn plan(&self, held: &HeldSets) -> Result<TrainingPlan, BTreeMap<Field, String>> {
        let base = self.options(held)?;
        let (preset, kernel_given) = self.preset();
        let kernel = kernel_given.then(|| base.spec.clone());
        let stem = self.stem_backoff.then_some(PAGE_STEM_CHARS);
        alignment::training_plan(
            base,
            kernel,
            self.calibrate_in_use(held),
            preset,
            Given { stem_backoff: stem, word_model: self.word_model.is_some(), ..Given::default() },
        )
        .map_err(|e| BTreeMap::from([(Field::KERNEL, e.to_string())]))
    }

    /// Whether one of the Advanced settings differs from its default (a
    /// kept session's: the Advanced settings are shown open).
    pub fn sets_advanced(&self) -> bool {
        let d = TrainForm::default();
        let typed = Field::all().any(|f| f != Field::KERNEL && self.value(f).trim() != d.value(f));
        typed
            || (self.solver, self.word_model, self.calibrate, self.stem_backoff)
                != (d.solver, d.word_model, d.calibrate, d.stem_backoff)
    }

    pub fn value(&self, f: Field) -> &str {
        self.values.get(&f).map_or("", String::as_str)
    }

    /// The kernel spec as typed (with its default equal θ), if it parses.
    pub fn spec(&self) -> Option<KernelSpec> {
        self.value(Field::KERNEL).trim().parse().ok()
    }

    /// The options the form describes, or the error of each bad field.
    pub fn options(&self, held: &HeldSets) -> Result<TrainOptions, BTreeMap<Field, String>> {
        let mut errors = BTreeMap::new();
        let spec = match self.value(Field::KERNEL).trim().parse::<KernelSpec>() {
            Ok(spec) => {
                with_thetas(spec, self.value(Field::THETAS).trim()).map_err(|e| errors.insert(Field::THETAS, e)).ok()
            }
            Err(e) => {
                errors.insert(Field::KERNEL, e.to_string());
                None
            }
        };
        let mut options = TrainOptions {
            spec: spec.unwrap_or_else(KernelSpec::paper_best),
            solver: self.solver,
            // Progress more often than the CLI's default (it changes nothing else).
            svm: SvmParams { progress_every: 100, ..SvmParams::default() },
            // `--threshold auto`: with the held-out dev, the one that maximises its F.
            threshold: if self.calibrate_in_use(held) {
                DecisionThreshold::Calibrated
            } else {
                DecisionThreshold::Fixed(0.0)
            },
            ..TrainOptions::default()
        };
        for setting in &TRAIN_SETTINGS {
            let field = Field(setting.name);
            if let Err(e) = (setting.read)(self.value(field).trim(), &mut options) {
                errors.insert(field, e);
            }
        }
        match errors.is_empty() {
            true => Ok(options),
            false => Err(errors),
        }
    }
}

/// `spec` with the weights θ typed (empty: its own), or what was expected.
fn with_thetas(spec: KernelSpec, text: &str) -> Result<KernelSpec, String> {
    if text.is_empty() {
        return Ok(spec);
    }
    let (n, names) = (spec.components(), spec.component_names().join(", "));
    let parsed: Result<Vec<f64>, _> = text.split(',').map(|t| t.trim().parse::<f64>()).collect();
    (parsed.ok().and_then(|t| spec.with_thetas(&t))).ok_or_else(|| {
        format!("expected {n} comma-separated weights ≥ 0, not all 0, one per component ({names}); found '{text}'")
    })
}

/// An edit of the training form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormAction {
    SetField(Field, String),
    /// Best, the paper's, or the kernel typed (typing a kernel chooses it).
    SetSetting(Setting),
    /// The SVM solver (`--solver`); linear trains on every example unless a number is typed.
    SetSolver(Solver),
    /// The in-engine lexicon's word model for training.
    /// `None`: the plan's (chosen on dev by the best setting).
    SetWordModel(Option<WordModel>),
    /// Hold out the last 20% of the training pairs as dev (calibrated threshold), or not.
    SetCalibrate(bool),
    /// Hold out the last 20% of the pairs as a test (train on the rest, score them), or not.
    SetHoldOutTest(bool),
    /// Show the Advanced settings, or not.
    ShowAdvanced(bool),
    /// The in-engine lexicon's stem back-off (`--stem-backoff 4`), on or off.
    SetStemBackoff(bool),
}

/// What the Train panel asks.
#[derive(Debug, Clone, PartialEq)]
pub enum TrainAction {
    Form(FormAction),
    /// Train on the loaded pairs, then align them (the training form's options).
    Train {
        now: f64,
    },
    /// Align the loaded pairs with the model in hand.
    Align {
        now: f64,
    },
    DownloadModel,
}

impl TrainForm {
    /// The form's reducer: a field as typed, or a choice (each bad field's
    /// error is [`TrainForm::plan`]'s, found when the form is shown).
    pub fn apply(&mut self, action: FormAction) {
        match action {
            FormAction::SetField(field, value) => {
                if field == Field::KERNEL {
                    self.setting = Setting::Kernel;
                }
                self.values.insert(field, value);
            }
            FormAction::SetSetting(setting) => self.setting = setting,
            FormAction::SetSolver(solver) => {
                // The field follows the solver's `--max-examples` default, unless typed otherwise.
                if self.value(Field::MAX_EXAMPLES).trim() == show_max_examples(self.solver.default_max_examples()) {
                    self.values.insert(Field::MAX_EXAMPLES, show_max_examples(solver.default_max_examples()));
                }
                self.solver = solver;
            }
            FormAction::SetWordModel(model) => self.word_model = model,
            FormAction::SetCalibrate(on) => self.calibrate = on,
            FormAction::SetHoldOutTest(on) => self.test = on,
            FormAction::ShowAdvanced(on) => self.advanced = on,
            FormAction::SetStemBackoff(on) => self.stem_backoff = on,
        }
    }
}

impl State {
    /// A [`TrainAction`]: the form's edits are its own; a job starts only
    /// when none runs, with the loaded pairs and the lexical files in use.
    pub(super) fn train(&mut self, action: TrainAction) -> Vec<Effect> {
        let mut effects = Vec::new();
        match action {
            TrainAction::Form(edit) => self.form.apply(edit),
            TrainAction::Train { now } => {
                let has_gold = self.loaded.corpus.gold_links() > 0;
                let how = self.form.pairs_training(&self.loaded.held);
                let split = how.split(self.loaded.corpus.len());
                if let (None, Ok(plan), true, Some(split)) =
                    (&self.jobs.running, self.form.plan(&self.loaded.held), has_gold, split)
                {
                    let options = plan.options;
                    let id = self.jobs.next_id();
                    self.start_job(id, JobKind::Train, now);
                    if let Some(j) = &mut self.jobs.running {
                        j.split = Some(split);
                        j.test_set = self.loaded.held.test.as_ref().map(|t| t.name.clone());
                    }
                    let corpus = CorpusText::of(&self.loaded.corpus);
                    let lexicon = self.lexicon_files();
                    effects.push(Effect::Post(Request::Train { job: id, corpus, options, lexicon, how }));
                }
            }
            TrainAction::Align { now } => {
                if let (None, Some(model)) =
                    (&self.jobs.running, self.alignment.model.as_ref().map(|m| m.json.to_string()))
                {
                    let id = self.jobs.next_id();
                    self.start_job(id, JobKind::Align, now);
                    let corpus = CorpusText::of(&self.loaded.corpus);
                    let lexicon = self.lexicon_files();
                    effects.push(Effect::Post(Request::Align { job: id, corpus, model, lexicon }));
                }
            }
            TrainAction::DownloadModel => {
                if let Some(m) = &self.alignment.model {
                    let body = DownloadBody::Text { text: m.json.clone(), mime: "application/json" };
                    effects.push(Effect::Download { name: "treelink-model.json".into(), body });
                }
            }
        }
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;

    /// What the form says of `field`, if it does not read.
    fn field_error(form: &TrainForm, field: Field) -> Option<String> {
        form.plan(&HeldSets::default()).err().unwrap_or_default().get(&field).cloned()
    }

    /// A form's edit, as the Train panel sends it.
    fn edit(s: &mut State, action: FormAction) {
        s.apply(Action::Train(TrainAction::Form(action)));
    }

    /// The paper's settings read; a bad field says what it expected and
    /// makes no options, until it is mended.
    #[test]
    fn a_bad_field_says_what_it_expected_and_makes_no_options() {
        let mut form = TrainForm::default();
        let paper = form.options(&HeldSets::default()).expect("the defaults read");
        assert_eq!(
            (paper.spec.to_string(), paper.spec.lambda, paper.c),
            ("plain+dbtk-root+ibtk-rgsst".into(), 0.4, 2.4)
        );
        form.apply(FormAction::SetField(Field::C, " -2 ".into()));
        form.apply(FormAction::SetField(Field::THETAS, "1, 2".into()));
        assert!(form.options(&HeldSets::default()).is_err());
        assert_eq!(field_error(&form, Field::C).as_deref(), Some("expected a cost C greater than 0, found '-2'"));
        assert_eq!(
            field_error(&form, Field::THETAS).as_deref(),
            Some("expected 3 comma-separated weights ≥ 0, not all 0, one per component (plain, dbtk-root, ibtk-rgsst); found '1, 2'")
        );
        form.apply(FormAction::SetField(Field::C, "2".into()));
        form.apply(FormAction::SetField(Field::THETAS, "1, 1, 2".into()));
        assert!(form.plan(&HeldSets::default()).is_ok(), "{:?}", form.plan(&HeldSets::default()).err());
        let options = form.options(&HeldSets::default()).expect("mended");
        assert_eq!((options.c, options.spec.thetas), (2.0, vec![0.25, 0.25, 0.5]));
    }
    /// The form's settings plan what `treelink train` plans for the same
    /// flags: the default is `train --dev` (the best setting), the paper's
    /// is `--preset paper`, a kernel typed is `--kernel`; the solver, the
    /// negatives per positive and "all" examples reach the options.
    #[test]
    fn the_forms_settings_plan_what_the_cli_plans_for_the_same_flags() {
        let mut form = TrainForm::default();
        let base = form.options(&HeldSets::default()).expect("the defaults read");
        let cli = |kernel: Option<&str>, preset| {
            let kernel = kernel.map(|k| k.parse::<KernelSpec>().unwrap());
            crate::app::alignment::training_plan(base.clone(), kernel, true, preset, Given::default()).unwrap()
        };
        let best = form.plan(&HeldSets::default()).unwrap();
        assert_eq!((&best, best.options.len()), (&cli(None, Preset::Best), 5));
        assert_eq!((best.stem_backoff, form.pairs_training(&HeldSets::default()).stem_backoff), (Some(4), Some(4)));
        assert_eq!(best.options[4].solver, Solver::Linear);
        // The word model: chosen on dev by default, as `train --dev`; one chosen is `--word-model`.
        assert!(best.options.iter().all(|o| o.tune_word_model.len() == 2));
        form.apply(FormAction::SetWordModel(Some(WordModel::Hmm)));
        assert!(form.plan(&HeldSets::default()).unwrap().options.iter().all(|o| o.tune_word_model.is_empty()));
        assert_eq!(form.pairs_training(&HeldSets::default()).word_model, WordModel::Hmm);
        form.apply(FormAction::SetWordModel(None));
        assert_eq!(form.plan(&HeldSets::default()).unwrap(), best);
        form.apply(FormAction::SetSetting(Setting::Paper));
        let paper = form.plan(&HeldSets::default()).unwrap();
        assert_eq!(paper, cli(None, Preset::Paper));
        assert_eq!((paper.options.len(), paper.stem_backoff), (4, None));
        assert!(paper.options.iter().all(|o| o.threshold == DecisionThreshold::Fixed(0.0)));
        form.apply(FormAction::SetField(Field::KERNEL, "plain+ctx+dbtk-root".into()));
        assert_eq!(form.setting, Setting::Kernel, "typing a kernel chooses it");
        form.apply(FormAction::SetSolver(Solver::Linear));
        assert_eq!(form.value(Field::MAX_EXAMPLES), "all", "as --solver linear's default");
        form.apply(FormAction::SetField(Field::MAX_NEGATIVE_RATIO, "inf".into()));
        let one = form.plan(&HeldSets::default()).unwrap();
        assert_eq!(one.options.len(), 1);
        let o = &one.options[0];
        assert_eq!(
            (o.spec.to_string(), o.solver, o.max_examples, o.max_negative_ratio),
            ("plain+ctx+dbtk-root".to_string(), Solver::Linear, usize::MAX, f64::INFINITY)
        );
        form.apply(FormAction::SetSolver(Solver::Smo));
        assert_eq!(form.value(Field::MAX_EXAMPLES), "6000");
        form.apply(FormAction::SetField(Field::MAX_NEGATIVE_RATIO, "-1".into()));
        assert_eq!(
            field_error(&form, Field::MAX_NEGATIVE_RATIO).as_deref(),
            Some("expected inf or a number of negatives per positive greater than 0, found '-1'")
        );
    }

    /// The setting comes back with the session; a session kept before there
    /// was one trains the kernel it typed, or the best setting if it typed
    /// none (the paper's best is the form's default text).
    #[test]
    fn the_setting_is_kept_and_a_session_naming_none_gets_the_default_with_its_kernel_typed() {
        let mut s = State::with_sample();
        edit(&mut s, FormAction::SetSetting(Setting::Paper));
        edit(&mut s, FormAction::SetSolver(Solver::Linear));
        edit(&mut s, FormAction::SetField(Field::KERNEL, "plain+ibtk-sst".into()));
        edit(&mut s, FormAction::SetSetting(Setting::Paper));
        let restored = |session| {
            let r = restored(session);
            (r.form.setting, r.form.solver, r.form.value(Field::KERNEL).to_string())
        };
        assert_eq!(restored(s.session()), (Setting::Paper, Solver::Linear, "plain+ibtk-sst".into()));
        let mut older = serde_json::to_value(s.session()).unwrap();
        older.as_object_mut().unwrap().remove("setting");
        let older = serde_json::from_value(older).unwrap();
        assert_eq!(restored(older), (Setting::Best, Solver::Linear, "plain+ibtk-sst".into()));
    }

    /// Posts a training request, returns what it asks and the job's split, and cancels it.
    fn train_request(s: &mut State) -> (PairsTraining, DecisionThreshold, Option<(usize, usize, usize)>) {
        let effects = s.apply(Action::Train(TrainAction::Train { now: 1.0 }));
        let [Effect::Post(Request::Train { how, options, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let split = s.jobs.running.as_ref().and_then(|j| j.split).map(|p| (p.train, p.dev, p.test));
        let asked = (*how, options[0].threshold, split);
        s.apply(Action::Job(JobAction::Cancel(None)));
        asked
    }

    #[test]
    fn the_word_model_and_the_checkboxes_reach_the_training_request() {
        let mut s = State::with_sample();
        assert_eq!(s.loaded.corpus.len(), 157);
        // The default: the best setting on the last 20% as dev, with its stem back-off.
        let (how, calibrated) = (pairs_training, DecisionThreshold::Calibrated);
        let best = how(WordModel::FastAlign, Some(4), true, false);
        assert_eq!(train_request(&mut s), (best, calibrated, Some((126, 31, 0))));
        // The kernel typed (no stem back-off of the best setting), without dev pairs.
        edit(&mut s, FormAction::SetSetting(Setting::Kernel));
        edit(&mut s, FormAction::SetCalibrate(false));
        let fixed = DecisionThreshold::Fixed(0.0);
        assert_eq!(train_request(&mut s), (how(WordModel::FastAlign, None, false, false), fixed, Some((157, 0, 0))));
        edit(&mut s, FormAction::SetWordModel(Some(WordModel::Hmm)));
        edit(&mut s, FormAction::SetCalibrate(true));
        assert_eq!(
            train_request(&mut s),
            (how(WordModel::Hmm, None, true, false), calibrated, Some((126, 31, 0))),
            "as `train --dev` (--threshold auto) on the last 20%"
        );
        edit(&mut s, FormAction::SetHoldOutTest(true));
        assert_eq!(train_request(&mut s), (how(WordModel::Hmm, None, true, true), calibrated, Some((101, 25, 31))));
        edit(&mut s, FormAction::SetStemBackoff(true));
        edit(&mut s, FormAction::SetCalibrate(false));
        assert_eq!(
            train_request(&mut s),
            (how(WordModel::Hmm, Some(PAGE_STEM_CHARS), false, true), fixed, Some((126, 0, 31)))
        );
        edit(&mut s, FormAction::SetStemBackoff(false));
        edit(&mut s, FormAction::SetHoldOutTest(false));
        assert_eq!(train_request(&mut s), (how(WordModel::Hmm, None, false, false), fixed, Some((157, 0, 0))));
        // Too few pairs to hold out a test and dev: nothing is posted.
        read_pairs(&mut s, &["(S (A a))\n(S (A c))\n", "(T (C c))\n(T (D d))\n", "0-0\n0-0\n"]);
        assert_eq!(s.loaded.corpus.len(), 2);
        edit(&mut s, FormAction::SetCalibrate(true));
        edit(&mut s, FormAction::SetHoldOutTest(true));
        assert!(s.apply(Action::Train(TrainAction::Train { now: 2.0 })).is_empty());
        assert!(s.jobs.running.is_none());
        edit(&mut s, FormAction::SetCalibrate(false));
        assert_eq!(train_request(&mut s).2, Some((1, 0, 1)));
    }
}
