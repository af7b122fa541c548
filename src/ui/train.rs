//! The model panel: the training form (with the paper's defaults), the
//! buttons that start worker jobs, the job's progress bar with an ETA and a
//! cancel button, and the model in hand (download it for the CLI).

use yew::prelude::*;

use super::panels::TrainView;
use super::results::training_data_warning;
use super::state::{Field, FormAction, Job, JobAction, JobKind, JobProgress, Setting, TrainAction};
use super::store::{use_running, Dispatch};
use crate::align::primal::Solver;
use crate::app::alignment::{
    pair_span, PairSplit, BEYOND_PAPER_KERNEL, DEFAULT_SHORTLIST, DEFAULT_THRESHOLD_FOLDS, HELD_OUT_PERCENT,
    PAGE_STEM_CHARS,
};
use crate::lexicon::WordModel;

#[derive(Properties, PartialEq)]
pub struct TrainProps {
    pub view: TrainView,
    pub train: Dispatch<TrainAction>,
    /// The progress bar's *Cancel* and *Restart the worker*.
    pub job: Dispatch<JobAction>,
}

/// Kernel combinations offered in the form, each with what it is (any
/// other spec can be typed): the paper's Tables 3/4, then the components
/// beyond it (issue 9, `docs/alignment-results.md`).
const PRESETS: [(&str, &str); 12] = [
    ("plain+dbtk-root+ibtk-rgsst", "the paper's best (§6, Table 3)"),
    ("plain+dbtk-root+ibtk-rdsst", "paper, Table 3"),
    ("plain+ibtk-rgsst", "paper, Table 3"),
    ("plain", "paper: φ1..φ7 + structure only (§4)"),
    ("lex", "paper: lexical features only (§4)"),
    ("lex+str", "paper, Table 3"),
    ("plain+ibtk-sst", "paper, Table 3"),
    ("plain+dbtk-sst", "paper, Table 3"),
    ("plain+ctx+dbtk-root+ibtk-rgsst", "+ context features (Lingua-Align, Tiedemann & Kotzé 2009)"),
    ("plain+ctx+dbtk-root", "+ context, all-root: explicit features"),
    (
        "plain+ctx+unk+dbtk-root+ibtk-rgsst",
        "+ context and the shares of words unknown to the lexicon (unk), for held-out pairs",
    ),
    (
        "plain+ctx+hist+dbtk-root+ibtk-rgsst",
        "+ context and a second pass over the first's links (Lingua-Align's history)",
    ),
];

fn field(
    state: &TrainView,
    train: Dispatch<TrainAction>,
    f: Field,
    label: &str,
    help: &str,
    list: Option<&str>,
) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        train.emit(TrainAction::Form(FormAction::SetField(f, input.value())));
    });
    let error = state.errors.get(&f);
    let help_id = format!("{}-help", f.id());
    html! {
        <div class="form-row">
            <label for={f.id()}>{label}</label>
            <input id={f.id()} type="text" value={state.form.value(f).to_string()} {oninput} list={list.map(str::to_string)}
                aria-invalid={error.is_some().to_string()} aria-describedby={help_id.clone()} spellcheck="false" />
            if let Some(e) = error {
                <span id={help_id} class="error" role="alert">{e}</span>
            } else {
                <span id={help_id} class="hint">{help}</span>
            }
        </div>
    }
}

/// The running job: its stage, a progress bar, counts, ETA, elapsed time and
/// a cancel button (which stops the worker at once and starts a fresh one).
/// After the job worker died: a button that starts a fresh one (any job
/// started also does).
pub fn restart_worker(worker_stopped: bool, job: Dispatch<JobAction>, id: &'static str) -> Html {
    if !worker_stopped {
        return html! {};
    }
    let onclick = Callback::from(move |_: MouseEvent| job.emit(JobAction::RestartWorker));
    html! { <>{" "}<button type="button" {id} {onclick}>{"Restart the worker"}</button></> }
}

/// The model in hand (`#id`): where it came from and what it is, or
/// `none` (a hint) without one.
pub fn model_summary(id: &'static str, what: &'static str, model: &Option<(String, String)>, none: &str) -> Html {
    match model {
        Some((origin, summary)) => {
            html! { <p {id}><strong>{what}</strong>{format!("{origin} — {summary}.")}</p> }
        }
        None => html! { <p {id} class="hint">{none.to_string()}</p> },
    }
}

/// The button that aligns the loaded pairs with the model in hand, where
/// a view needs its results (the diagram's counts, the search stepper,
/// the annotation's proposals).
pub(super) fn align_button(id: &'static str, train: Dispatch<TrainAction>, busy: bool) -> Html {
    let onclick = Callback::from(move |_: MouseEvent| train.emit(TrainAction::Align { now: js_sys::Date::now() }));
    html! { <button id={id} type="button" class="primary" disabled={busy} {onclick}>{"Align with the model"}</button> }
}

pub fn job_status(j: &Job, p: &JobProgress, job: Dispatch<JobAction>) -> Html {
    let on_cancel = {
        let shown = p.clone();
        Callback::from(move |_: MouseEvent| job.emit(JobAction::Cancel(Some(shown.clone()))))
    };
    let what = match j.kind {
        JobKind::Train => "Training and aligning",
        JobKind::Align => "Aligning",
        JobKind::Update => "Updating the model with the pairs annotated",
        JobKind::TrainMt => "Training a translation model",
        JobKind::TranslateAll => "Translating the pairs",
    };
    let count = if p.total > 0 {
        format!("{}/{} ({:.0}%)", p.done, p.total, 100.0 * p.done as f64 / p.total as f64)
    } else if p.done > 0 {
        format!("iteration {}", p.done)
    } else {
        String::new()
    };
    let eta = match p.eta_seconds() {
        Some(s) => format!("about {s:.0} s left in this step"),
        None if p.total == 0 && matches!(j.kind, JobKind::TrainMt | JobKind::TranslateAll) => {
            "this step does not count how far it is".into()
        }
        None if p.total == 0 && p.done > 0 => match p.gap {
            Some((violation, eps)) => {
                format!("the SVM is done when its largest error, now {violation:.4}, falls below ε = {eps}")
            }
            None => "the SVM runs until its largest error falls below ε".into(),
        },
        None => "estimating…".into(),
    };
    // Choosing on dev, the longest part of the default training, as a whole.
    let plan = p.plan.map(|(done, total, _)| {
        let dev = j.split.map_or(0, |s| s.dev);
        let left = match p.plan_eta_seconds() {
            Some(s) => format!("about {s:.0} s left"),
            None => "estimating how long".into(),
        };
        format!("Choosing the best settings on {dev} dev pairs: {done} of {total} tried, {left}.")
    });
    html! {
        <div id="job" class="job" role="status" aria-live="polite">
            if p.total > 0 {
                <progress id="job-progress" max={p.total.to_string()} value={p.done.to_string()} aria-label="Progress of this stage"></progress>
            } else {
                <progress id="job-progress" aria-label="Progress of this stage"></progress>
            }
            if let Some(plan) = plan {
                <strong id="job-plan">{plan}</strong>
            }
            <span id="job-stage"><strong>{format!("{what}: ")}</strong>{&p.stage}</span>
            <span id="job-count">{count}</span>
            <span id="job-eta">{eta}</span>
            <span id="job-elapsed">{format!("{:.1} s elapsed", p.elapsed_seconds())}</span>
            <button id="cancel-job" type="button" class="danger" onclick={on_cancel}>{"Cancel"}</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct JobStatusProps {
    /// The kinds of job this panel started (it shows only their progress).
    pub kinds: &'static [JobKind],
    pub job: Dispatch<JobAction>,
}

/// The progress of the running job, if it is of one of `kinds`: it reads
/// the job and its progress (kept apart from the state) from the page's
/// store ([`use_running`]), so a progress report re-renders this bar and
/// nothing else.
#[function_component(JobStatus)]
pub fn job_status_bar(props: &JobStatusProps) -> Html {
    let running = use_running();
    match running.filter(|(j, _)| props.kinds.contains(&j.kind)) {
        Some((j, p)) => job_status(&j, &p, props.job),
        None => html! {},
    }
}

/// The in-engine lexicon's word-alignment model (`treelink train
/// --word-model`), or, by default, the plan's: the best setting with dev
/// pairs tries both on its kept configuration and keeps the better on dev;
/// otherwise fast-align, which the select then shows.
fn word_model_choice(state: &TrainView, chosen_on_dev: bool, train: Dispatch<TrainAction>) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
        let model = WordModel::ALL.into_iter().find(|m| select.value() == m.name());
        train.emit(TrainAction::Form(FormAction::SetWordModel(model)));
    });
    let tables = state.tables.is_some();
    let help = if tables {
        "Not used: the uploaded Moses tables are the lexicon."
    } else {
        "The in-engine lexicon's word alignment (--word-model)."
    };
    let shown = state.form.word_model.or((!chosen_on_dev).then_some(WordModel::FastAlign));
    let option = |m: Option<WordModel>, label: &str| {
        let value = m.map_or("dev", WordModel::name);
        html! { <option value={value} selected={shown == m} disabled={m.is_none() && !chosen_on_dev}>{label.to_string()}</option> }
    };
    html! {
        <div class="form-row">
            <label for="train-word-model">{"Word model"}</label>
            <select id="train-word-model" {onchange} aria-describedby="train-word-model-help" disabled={tables}>
                {option(None, "chosen on dev (fast-align or hmm)")}
                {option(Some(WordModel::FastAlign), "fast-align (IBM1 + IBM2)")}
                {option(Some(WordModel::Hmm), "hmm (IBM1 + IBM2 + HMM)")}
            </select>
            <span id="train-word-model-help" class="hint">{help}</span>
        </div>
    }
}

/// What the Train button trains: the engine's best chosen on the dev
/// pairs (`treelink train --dev`), the paper's configuration (`--preset
/// paper`), or the kernel typed (`--kernel`); in one sentence, the rest in
/// the panel's guide.
fn setting_choice(state: &TrainView, train: Dispatch<TrainAction>) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
        let setting = Setting::ALL.into_iter().find(|s| s.name() == select.value()).unwrap_or_default();
        train.emit(TrainAction::Form(FormAction::SetSetting(setting)));
    });
    let form = &state.form;
    let help = match (form.setting, form.calibrate_in_use(&state.held)) {
        (Setting::Best, true) => {
            "Tries the paper's kernels and a fast linear one, and keeps the best on the dev pairs."
        }
        (Setting::Paper, true) => "The paper's kernels and settings; the kernel is chosen on the dev pairs.",
        (Setting::Best | Setting::Paper, false) => {
            "Without dev pairs nothing is chosen, so the paper's best kernel is trained."
        }
        (Setting::Kernel, _) => "Trains the kernel you type, with the settings under Advanced.",
    };
    let option = |s: Setting, label: &str| html! { <option value={s.name()} selected={form.setting == s}>{label.to_string()}</option> };
    html! {
        <div class="form-row">
            <label for="train-setting">{"Train"}</label>
            <select id="train-setting" {onchange} aria-describedby="train-setting-help">
                {option(Setting::Best, "the best settings, chosen on dev")}
                {option(Setting::Paper, "the paper's settings")}
                {option(Setting::Kernel, "a kernel I type")}
            </select>
            <span id="train-setting-help" class="hint">{help}{" "}<a href="#train-guide">{"More in the guide below."}</a></span>
        </div>
    }
}

/// The SVM solver (`treelink train --solver`).
fn solver_choice(state: &TrainView, train: Dispatch<TrainAction>) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
        let solver = select.value().parse().unwrap_or_default();
        train.emit(TrainAction::Form(FormAction::SetSolver(solver)));
    });
    let form = &state.form;
    let help = "SMO for any kernel; linear for kernels whose BTKs are all root (--solver).";
    let option = |s: Solver, label: &str| html! { <option value={s.name()} selected={form.solver == s}>{label.to_string()}</option> };
    html! {
        <div class="form-row">
            <label for="train-solver">{"Solver"}</label>
            <select id="train-solver" {onchange} aria-describedby="train-solver-help">
                {option(Solver::Smo, "smo (any kernel)")}
                {option(Solver::Linear, "linear (root kernels only)")}
            </select>
            <span id="train-solver-help" class="hint">{help}</span>
        </div>
    }
}

/// A checkbox of the form with its help (`id`, `id-help`).
fn checkbox(
    id: &'static str,
    label: &str,
    checked: bool,
    disabled: bool,
    help: Html,
    on: impl Fn(bool) -> FormAction + 'static,
    train: Dispatch<TrainAction>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        train.emit(TrainAction::Form(on(input.checked())));
    });
    let help_id = format!("{id}-help");
    html! {
        <div class="form-row">
            <label for={id}>{label.to_string()}</label>
            <input {id} type="checkbox" {checked} {disabled} {onchange} aria-describedby={help_id.clone()} />
            <span id={help_id} class="hint">{help}</span>
        </div>
    }
}

/// Whether the last pairs of all are held out as a test (`train`, then
/// `align --held-out` on them), in a sentence.
fn test_choice(state: &TrainView, split: Option<PairSplit>, train: Dispatch<TrainAction>) -> Html {
    let form = &state.form;
    let test = match split.filter(|s| s.test > 0) {
        Some(s) if state.held.test.is_some() => {
            format!("Pairs {}, the test set given in the Data panel, are scored.", pair_span(s.test_pairs()))
        }
        _ if state.held.dev.is_some() => "Off: with a dev set given as files, give the test as files too.".to_string(),
        Some(s) => {
            format!("Pairs {} (the last {HELD_OUT_PERCENT}%) are held out and scored.", pair_span(s.test_pairs()))
        }
        _ if form.test => format!("Too few pairs to hold out the last {HELD_OUT_PERCENT}%."),
        _ => "Off: the model is scored on the pairs it was trained on.".to_string(),
    };
    let disabled = state.held.dev.is_some() || state.held.test.is_some();
    checkbox(
        "train-test",
        "Hold out a test",
        form.test_in_use(&state.held),
        disabled,
        html! {{test}},
        FormAction::SetHoldOutTest,
        train,
    )
}

/// Whether the last training pairs are dev (`treelink train --dev` on
/// them) and the stem back-off, in a sentence each.
fn dev_and_stem_choices(state: &TrainView, split: Option<PairSplit>, train: Dispatch<TrainAction>) -> Html {
    let form = &state.form;
    let calibrate = match split.filter(|s| s.dev > 0) {
        Some(s) if state.held.dev.is_some() => {
            format!("Pairs {}, the dev set given in the Data panel, are the dev pairs.", pair_span(s.dev_pairs()))
        }
        Some(s) => format!(
            "Pairs {} (the last {HELD_OUT_PERCENT}% of the training pairs) are the dev pairs.",
            pair_span(s.dev_pairs())
        ),
        _ if form.calibrate => format!("Too few pairs to hold out the last {HELD_OUT_PERCENT}% as dev."),
        _ => "Off: links where D > 0, as the paper, and nothing chosen.".to_string(),
    };
    let tables = state.tables.is_some();
    let stem_by_setting = !form.stem_backoff && form.stem_backoff_in_use(&state.held).is_some();
    let stem = if tables {
        "Not used: the uploaded Moses tables are the lexicon.".to_string()
    } else if stem_by_setting {
        "On: part of the best setting with dev pairs.".to_string()
    } else {
        format!("Unknown words looked up by their first {PAGE_STEM_CHARS} letters (--stem-backoff {PAGE_STEM_CHARS}).")
    };
    html! {
        <>
            {checkbox("train-calibrate", "Dev pairs", form.calibrate_in_use(&state.held), state.held.dev.is_some(), html! {{calibrate}}, FormAction::SetCalibrate, train)}
            {checkbox("train-stem-backoff", "Stem back-off", form.stem_backoff_in_use(&state.held).is_some(), tables || stem_by_setting, html! {{stem}}, FormAction::SetStemBackoff, train)}
        </>
    }
}

/// The panel's guide: what each choice does in full, with the CLI's flags
/// and the papers' sections (the controls say it in one sentence).
fn guide() -> Html {
    let entry = |name: &'static str, what: String| html! { <><dt>{name}</dt><dd>{what}</dd></> };
    html! {
        <details id="train-guide" class="train-guide">
            <summary>{"How training works"}</summary>
            <dl>
                {entry("The best settings", format!("As `treelink train --dev` without --kernel: the paper's kernels ({}) by SMO, and {BEYOND_PAPER_KERNEL} by the linear solver (C and the cost factor tuned), each with its pruning, threshold on D and link search chosen on the dev pairs; then the kept one's threshold by {DEFAULT_THRESHOLD_FOLDS}-fold cross-validation over the training pairs pooled with them, and its word model chosen on dev; stem back-off {PAGE_STEM_CHARS} (docs/alignment-results.md, \"The defaults\").", DEFAULT_SHORTLIST.join(", ")))}
                {entry("The paper's settings", "As `treelink train --dev --preset paper`: the paper's kernels by SMO, C and λ as under Advanced, the greedy search, a link where D > 0; the kernel and the pruning chosen on the dev pairs (§6).".into())}
                {entry("A kernel I type", "As `treelink train --kernel K`: plain features (§4) + BTKs (§3) + ctx (Lingua-Align's context), e.g. plain+ctx+dbtk-root+ibtk-rgsst, with the settings under Advanced.".into())}
                {entry("Hold out a test", format!("The last {HELD_OUT_PERCENT}% of the pairs (or the test set given as files) are held out: the model trains on the pairs before them as `treelink train` does (their sentences stay out of the in-engine lexicon), then aligns them alone as `treelink align --held-out` and scores them, with the baseline on the same lexicon (docs/alignment-results.md, \"Training for held-out input\")."))}
                {entry("Dev pairs", format!("The last {HELD_OUT_PERCENT}% of the training pairs (or the dev set given as files) are --dev: the threshold on D (the paper links above D = 0, the posterior 0.5, §5–6), the pruning quantile (§6.3) and the configuration that maximise their F are chosen on them."))}
                {entry("Max. examples, negatives per positive, seed", "The SVM (§5) trains on at most this many candidate pairs (all: every one; 6000 for SMO, all for the linear solver), every positive while they fit and negatives filling the rest, at most this many per positive (inf: all), a sample drawn with the seed: another seed, other examples, another model.".into())}
                {entry("Solver", "SMO over any kernel (the paper's), or the linear solver (dual coordinate descent) on the explicit features, for kernels whose BTKs are all root (lex, plain, ctx, unk, *-root), on every example. The best setting trains the paper's kernels by SMO and its own configuration by the linear solver.".into())}
                {entry("Word model", "The paper trains GIZA++ (§6.3); here fast_align's IBM2 (Dyer et al. 2013), or the HMM after it (Vogel et al. 1996), as GIZA++ before IBM4. Chosen on dev: the best setting's kept configuration is trained with each and the better on the dev pairs kept; fast-align otherwise.".into())}
                {entry("Stem back-off", format!("Beyond the paper: a word the in-engine lexicon never saw (in held-out pairs) is looked up by its first {PAGE_STEM_CHARS} characters, lowercased; identical words get 0.5. {PAGE_STEM_CHARS} was chosen on SQUOIA dev."))}
            </dl>
        </details>
    }
}

#[function_component(TrainPanel)]
pub fn train_panel(props: &TrainProps) -> Html {
    let state = &props.view;
    let train = props.train;
    let busy = state.busy;
    let options = state.form.plan(&state.held);
    let has_gold = state.gold_links > 0;
    let chooses_word_model =
        options.as_ref().is_ok_and(|p| p.options.iter().any(crate::align::model::TrainOptions::tunes_word_model));

    let on_train = Callback::from(move |_: MouseEvent| train.emit(TrainAction::Train { now: js_sys::Date::now() }));
    let on_align = Callback::from(move |_: MouseEvent| train.emit(TrainAction::Align { now: js_sys::Date::now() }));
    let on_download = Callback::from(move |_: MouseEvent| train.emit(TrainAction::DownloadModel));
    let on_advanced = Callback::from(move |e: Event| {
        let details: web_sys::HtmlDetailsElement = e.target_unchecked_into();
        train.emit(TrainAction::Form(FormAction::ShowAdvanced(details.open())));
    });

    let spec_note = match (state.form.spec(), options.as_ref().map(|p| p.options.as_slice())) {
        (_, Ok([o])) => format!(
            "Components: {}; θ = {}.",
            o.spec.component_names().join(", "),
            o.spec.thetas.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(", ")
        ),
        (_, Ok(several)) => format!("{} configurations, the best on the dev pairs kept.", several.len()),
        (Some(spec), Err(_)) => format!("Components: {}.", spec.component_names().join(", ")),
        (None, Err(_)) => String::new(),
    };
    let lexicon_note = match &state.tables {
        Some((a, b)) => format!("Lexicon: the uploaded Moses tables {a} and {b}"),
        _ => format!(
            "Lexicon: trained in the engine on the training pairs' sentences ({} both ways, grow-diag-final-and{})",
            match state.form.word_model {
                Some(WordModel::Hmm) => "IBM1 + IBM2 + HMM",
                _ => "IBM1 + IBM2",
            },
            match (state.form.word_model, chooses_word_model) {
                (None, true) =>
                    "; the kept configuration also with the HMM after them, the better on the dev pairs kept",
                _ => "",
            }
        ),
    } + &state.word_links.as_ref().map_or(String::new(), |w| format!("; word links from {w}"))
        + ".";

    let split = state.form.pairs_training(&state.held).split(state.pairs);
    let (train_label, train_title) = match split.filter(|s| s.test > 0) {
        Some(s) => (
            format!("Train on pairs 1–{} and align the {} held out", s.train + s.dev, s.test),
            "Train on the pairs before the held-out test, then align the held-out pairs alone",
        ),
        None => (
            format!("Train on the {} pairs and align", state.pairs),
            "Train on the loaded pairs (less the dev pairs), then align them all",
        ),
    };
    let note = match &state.note {
        Some(Ok(m)) if state.note_on_training_data => html! {
            <>
                <p id="job-note" class="ok" role="status">{m}</p>
                {training_data_warning("job-caution")}
            </>
        },
        Some(Ok(m)) => html! { <p id="job-note" class="ok" role="status">{m}</p> },
        Some(Err(m)) => {
            html! { <p id="job-note" class="error" role="alert">{m}{restart_worker(state.worker_stopped, props.job, "restart-worker")}</p> }
        }
        None => html! {},
    };
    html! {
        <section class="panel train" id="train-panel" aria-labelledby="train-title">
            <h2 id="train-title">{"Train and align"}</h2>
            <div class="train-grid">
                <form class="train-form" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                    {setting_choice(state, train)}
                    if state.form.setting == Setting::Kernel {
                        {field(state, train, Field::KERNEL, "Kernel", "Components joined by +, e.g. plain+dbtk-root+ibtk-rgsst.", Some("kernel-presets"))}
                        <datalist id="kernel-presets">{ for PRESETS.iter().map(|(p, what)| html! { <option value={*p} label={*what} /> }) }</datalist>
                    }
                    <p class="hint spec-note" id="spec-note">{spec_note}</p>
                    {test_choice(state, split, train)}
                    <details id="train-advanced" open={state.form.advanced} ontoggle={on_advanced}>
                        <summary>{"Advanced"}</summary>
                        if state.form.setting == Setting::Kernel {
                            {field(state, train, Field::THETAS, "θ (weights)", "One per component, comma-separated; empty: equal.", None)}
                        }
                        {field(state, train, Field::LAMBDA, "λ (decay)", "The tree kernels' decay; the paper's is 0.4.", None)}
                        {field(state, train, Field::C, "C (SVM cost)", "The SVM's cost; the paper's is 2.4.", None)}
                        {field(state, train, Field::MAX_EXAMPLES, "Max. examples", "Training examples at most (all: every one).", None)}
                        {field(state, train, Field::setting("cost-factor"), "Cost factor", "A missed link's cost over a wrong one's (auto: from the examples).", None)}
                        {field(state, train, Field::MAX_NEGATIVE_RATIO, "Negatives per positive", "Negative examples per positive at most (inf: all).", None)}
                        {solver_choice(state, train)}
                        {field(state, train, Field::SEED, "Seed", "The seed of the examples' sample.", None)}
                        {word_model_choice(state, chooses_word_model, train)}
                        {dev_and_stem_choices(state, split, train)}
                    </details>
                    {guide()}
                </form>
                <div class="train-side">
                    <p class="hint">{lexicon_note}</p>
                    <div class="buttons">
                        <button id="train" type="button" class="primary" onclick={on_train} disabled={busy || options.is_err() || !has_gold || split.is_none()}
                            title={train_title}>{train_label}</button>
                        <button id="align" type="button" onclick={on_align} disabled={busy || state.model.is_none()}>{"Align with the model"}</button>
                        <button id="download-model" type="button" onclick={on_download} disabled={state.model.is_none()}>{"Download the model (.json)"}</button>
                    </div>
                    if !has_gold {
                        <p class="hint">{"The loaded pairs have no gold links to learn from: load gold links to train."}</p>
                    }
                    {model_summary("model-summary", "Model: ", &state.model, "No model yet: train one here, or load a model file from `treelink train` in the Data panel.")}
                    <JobStatus kinds={&[JobKind::Train, JobKind::Align, JobKind::Update][..]} job={props.job} />
                    {note}
                </div>
            </div>
        </section>
    }
}
