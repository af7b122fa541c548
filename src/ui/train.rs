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
    let oninput = {
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            train.emit(TrainAction::Form(FormAction::SetField(f, input.value())));
        })
    };
    let errors = state.form.plan(&state.held).err().unwrap_or_default();
    let error = errors.get(&f);
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
    let onclick = { Callback::from(move |_: MouseEvent| job.emit(JobAction::RestartWorker)) };
    html! { <>{" "}<button type="button" {id} {onclick}>{"Restart the worker"}</button></> }
}

pub fn job_status(j: &Job, p: &JobProgress, job: Dispatch<JobAction>) -> Html {
    let on_cancel = {
        let shown = p.clone();
        Callback::from(move |_: MouseEvent| job.emit(JobAction::Cancel(Some(shown.clone()))))
    };
    let what = match j.kind {
        JobKind::Train => "Training and aligning",
        JobKind::Align => "Aligning",
        JobKind::TrainMt => "Training a translation model",
        JobKind::TranslateAll => "Translating the pairs",
    };
    let count = if p.total > 0 {
        format!("{}/{} ({:.0}%)", p.done, p.total, percent(p.done, p.total))
    } else if p.done > 0 {
        format!("iteration {}", p.done)
    } else {
        String::new()
    };
    let eta = match p.eta_seconds() {
        Some(s) => format!("about {s:.0} s left in this stage"),
        None if p.total == 0 && matches!(j.kind, JobKind::TrainMt | JobKind::TranslateAll) => {
            "no ETA: this stage does not count its steps".into()
        }
        None if p.total == 0 && p.done > 0 => match p.gap {
            Some((violation, eps)) => {
                format!("no ETA: SMO stops when the KKT violation, now {violation:.4}, falls below ε = {eps}")
            }
            None => "no ETA: SMO runs until the KKT violation falls below ε".into(),
        },
        None => "estimating…".into(),
    };
    html! {
        <div id="job" class="job" role="status" aria-live="polite">
            if p.total > 0 {
                <progress id="job-progress" max={p.total.to_string()} value={p.done.to_string()} aria-label="Progress of this stage"></progress>
            } else {
                <progress id="job-progress" aria-label="Progress of this stage"></progress>
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

fn percent(done: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * done as f64 / total as f64
    }
}

/// The in-engine lexicon's word-alignment model (`treelink train
/// --word-model`), or, by default, the plan's: the best setting with dev
/// pairs tries both on its kept configuration and keeps the better on dev.
fn word_model_choice(state: &TrainView, train: Dispatch<TrainAction>) -> Html {
    let onchange = {
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let model = WordModel::ALL.into_iter().find(|m| select.value() == m.name());
            train.emit(TrainAction::Form(FormAction::SetWordModel(model)));
        })
    };
    let tables = state.tables.is_some();
    let help = if tables {
        "not used: the uploaded Moses tables are the lexicon"
    } else {
        "--word-model: the paper trains GIZA++ (§6.3); here fast_align's IBM2 (Dyer et al. 2013), or the HMM after it (Vogel et al. 1996), as GIZA++ before IBM4. Chosen on dev: the best setting's kept configuration is trained with each and the better on the dev pairs kept (fast-align without dev pairs, with the paper's settings or a typed kernel; docs/alignment-results.md)"
    };
    let option = |m: Option<WordModel>, label: &str| {
        let value = m.map_or("dev", WordModel::name);
        html! { <option value={value} selected={state.form.word_model == m}>{label.to_string()}</option> }
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
/// paper`, also one click on its button), or the kernel typed (`--kernel`).
fn setting_choice(state: &TrainView, train: Dispatch<TrainAction>) -> Html {
    let onchange = {
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let setting = Setting::ALL.into_iter().find(|s| s.name() == select.value()).unwrap_or_default();
            train.emit(TrainAction::Form(FormAction::SetSetting(setting)));
        })
    };
    let on_paper =
        Callback::from(move |_: MouseEvent| train.emit(TrainAction::Form(FormAction::SetSetting(Setting::Paper))));
    let form = &state.form;
    let dev = form.calibrate_in_use(&state.held);
    let help = match (form.setting, dev) {
        (Setting::Best, true) => format!(
            "as `treelink train --dev` without --kernel: the paper's kernels (SMO) and {BEYOND_PAPER_KERNEL} by the linear solver (C and cost factor tuned), each with pruning, threshold on D and link search chosen on the dev pairs, then the kept one's threshold by {DEFAULT_THRESHOLD_FOLDS}-fold cross-validation over the training pairs pooled with them (so it holds on pairs from another source); stem back-off {PAGE_STEM_CHARS} (docs/alignment-results.md, \"The defaults\")"
        ),
        (Setting::Paper, true) => format!(
            "as `treelink train --dev --preset paper`: the paper's kernels ({}) by SMO, C and λ as below, the greedy search, a link where D > 0; the kernel and the pruning chosen on the dev pairs (§6)",
            DEFAULT_SHORTLIST.join(", ")
        ),
        (Setting::Best | Setting::Paper, false) => "no dev pairs (Calibrate is off): the paper's best kernel, nothing chosen (as `treelink train` without --dev); turn Calibrate on to choose on the last 20%".to_string(),
        (Setting::Kernel, _) => "as `treelink train --kernel K`: the kernel and settings below".to_string(),
    };
    let option = |s: Setting, label: &str| html! { <option value={s.name()} selected={form.setting == s}>{label.to_string()}</option> };
    html! {
        <div class="form-row">
            <label for="train-setting">{"Train"}</label>
            <select id="train-setting" {onchange} aria-describedby="train-setting-help">
                {option(Setting::Best, "the best, chosen on dev")}
                {option(Setting::Paper, "the paper's settings")}
                {option(Setting::Kernel, "the kernel below")}
            </select>
            <div class="setting">
                <button id="train-paper" type="button" onclick={on_paper} disabled={form.setting == Setting::Paper}>{"Use the paper's settings"}</button>
                <span id="train-setting-help" class="hint">{help}</span>
            </div>
        </div>
    }
}

/// The SVM solver (`treelink train --solver`).
fn solver_choice(state: &TrainView, train: Dispatch<TrainAction>) -> Html {
    let onchange = {
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let solver = select.value().parse().unwrap_or_default();
            train.emit(TrainAction::Form(FormAction::SetSolver(solver)));
        })
    };
    let form = &state.form;
    let help = match form.setting {
        Setting::Best => "--solver: the best setting trains the paper's kernels by SMO and its linear configuration by the linear solver; this applies to the kernel below",
        _ => "--solver: SMO over any kernel (the paper's), or the linear solver (dual coordinate descent) on the explicit features, for kernels whose BTKs are all root (lex, plain, ctx, unk, *-root), on every example",
    };
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
    let onchange = {
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            train.emit(TrainAction::Form(on(input.checked())));
        })
    };
    let help_id = format!("{id}-help");
    html! {
        <div class="form-row">
            <label for={id}>{label.to_string()}</label>
            <input {id} type="checkbox" {checked} {disabled} {onchange} aria-describedby={help_id.clone()} />
            <span id={help_id} class="hint">{help}</span>
        </div>
    }
}

/// Whether the last pairs are held out as dev to calibrate the threshold
/// on D (`treelink train --dev` on them), and whether the last pairs of all
/// are held out as a test (`train --held-out`, then `align` on them).
fn split_choices(state: &TrainView, split: Option<PairSplit>, train: Dispatch<TrainAction>) -> Html {
    let form = &state.form;
    let calibrate = match split.filter(|s| s.dev > 0) {
        Some(s) if state.held.dev.is_some() => format!(
            "pairs {}, the dev set given as files in the Data panel, are --dev: the threshold on D, the pruning quantile and the configuration that maximise their F are chosen on them (as `treelink train --train A --dev B`); remove the set there to hold out a share instead",
            pair_span(s.dev_pairs())
        ),
        Some(s) => format!(
            "holds out pairs {} (the last {HELD_OUT_PERCENT}% of the training pairs) as --dev: the threshold on D (the paper links above D = 0, the posterior 0.5, §5–6) and the pruning quantile (§6.3) that maximise their F are chosen on them; beyond the paper (docs/alignment-results.md, \"Beyond the paper\")",
            pair_span(s.dev_pairs())
        ),
        _ if form.calibrate => format!("too few pairs: the last {HELD_OUT_PERCENT}% of the training pairs are held out as --dev"),
        _ => format!("off: D > 0 links, as the paper (§5–6); on: the last {HELD_OUT_PERCENT}% of the training pairs choose the threshold on D and the pruning (--dev)"),
    };
    let test = match split.filter(|s| s.test > 0) {
        Some(s) if state.held.test.is_some() => format!(
            "pairs {}, the test set given as files in the Data panel, are the test: trains on pairs 1–{} as `treelink train --held-out`, then aligns the test pairs alone as `treelink align --input C --held-out` and scores them (Export: their predicted links, as align writes them)",
            pair_span(s.test_pairs()),
            s.train + s.dev
        ),
        _ if state.held.dev.is_some() => "off: with dev pairs given as files (the last pairs), a test is given as files too (Test pairs in the Data panel)".to_string(),
        Some(s) => format!(
            "holds out pairs {} (the last {HELD_OUT_PERCENT}%) as a test: trains on pairs 1–{} as `treelink train --held-out` (their sentences stay out of the in-engine lexicon), then aligns the held-out pairs alone (`treelink align`) and scores them, with the baseline on the same lexicon: scores no model has seen (docs/alignment-results.md, \"Training for held-out input\")",
            pair_span(s.test_pairs()),
            s.train + s.dev
        ),
        _ if form.test => format!("too few pairs to hold out the last {HELD_OUT_PERCENT}% as a test"),
        _ => format!("off: the model is scored on the pairs it was trained on (optimistic); on: the last {HELD_OUT_PERCENT}% of the pairs are held out as a test no model sees (`train --held-out`, docs/alignment-results.md, \"Training for held-out input\")"),
    };
    let tables = state.tables.is_some();
    let stem_by_setting = !form.stem_backoff && form.stem_backoff_in_use(&state.held).is_some();
    let stem = if tables {
        "not used: the uploaded Moses tables are the lexicon".to_string()
    } else if stem_by_setting {
        format!("on: part of the best setting with dev pairs (--stem-backoff {PAGE_STEM_CHARS}: a word the in-engine lexicon never saw is looked up by its first {PAGE_STEM_CHARS} characters, lowercased)")
    } else {
        format!("--stem-backoff {PAGE_STEM_CHARS} (beyond the paper): a word the in-engine lexicon never saw (in held-out pairs) is looked up by its stem, its first {PAGE_STEM_CHARS} characters lowercased; identical words get 0.5. {PAGE_STEM_CHARS} was chosen on SQUOIA dev (docs/alignment-results.md, \"Training for held-out input\")")
    };
    html! {
        <>
            {checkbox("train-calibrate", "Calibrate", form.calibrate_in_use(&state.held), state.held.dev.is_some(), html! {{calibrate}}, FormAction::SetCalibrate, train)}
            {checkbox("train-test", "Hold out a test", form.test_in_use(&state.held), state.held.dev.is_some() || state.held.test.is_some(), html! {{test}}, FormAction::SetHoldOutTest, train)}
            {checkbox("train-stem-backoff", "Stem back-off", form.stem_backoff_in_use(&state.held).is_some(), tables || stem_by_setting, html! {{stem}}, FormAction::SetStemBackoff, train)}
        </>
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

    let on_train = { Callback::from(move |_: MouseEvent| train.emit(TrainAction::Train { now: js_sys::Date::now() })) };
    let on_align = { Callback::from(move |_: MouseEvent| train.emit(TrainAction::Align { now: js_sys::Date::now() })) };
    let on_download = { Callback::from(move |_: MouseEvent| train.emit(TrainAction::DownloadModel)) };

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
            "Lexicon: trained in the engine on the pairs' sentences ({} both ways, grow-diag-final-and{})",
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
            "Train on the pairs before the held-out test (as train --held-out), then align the held-out pairs alone",
        ),
        None => (
            format!("Train on the {} pairs and align", state.pairs),
            "Train on the loaded pairs (less the dev pairs, with Calibrate), then align them all",
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
    let model = match &state.model {
        Some((origin, summary)) => html! {
            <p id="model-summary"><strong>{"Model: "}</strong>{format!("{origin} — {summary}.")}</p>
        },
        None => {
            html! { <p id="model-summary" class="hint">{"No model yet: train one here, or load a model file from `treelink train` in the Data panel."}</p> }
        }
    };
    html! {
        <section class="panel train" id="train-panel" aria-labelledby="train-title">
            <h2 id="train-title">{"Train and align"}</h2>
            <div class="train-grid">
                <form class="train-form" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                    {setting_choice(state, train)}
                    {field(state, train, Field::KERNEL, "Kernel", "plain features (§4) + BTKs (§3) + ctx (Lingua-Align's context), e.g. plain+ctx+dbtk-root+ibtk-rgsst", Some("kernel-presets"))}
                    <datalist id="kernel-presets">{ for PRESETS.iter().map(|(p, what)| html! { <option value={*p} label={*what} /> }) }</datalist>
                    <p class="hint spec-note" id="spec-note">{spec_note}</p>
                    {field(state, train, Field::THETAS, "θ (weights)", "comma-separated, one per component; empty: equal", None)}
                    {field(state, train, Field::LAMBDA, "λ (decay)", "paper: 0.4", None)}
                    {field(state, train, Field::C, "C (SVM cost)", "paper: 2.4", None)}
                    {field(state, train, Field::MAX_EXAMPLES, "Max. examples", "the SVM (§5) trains on at most this many candidate pairs (all: every one), every positive while they fit and negatives filling the rest (a seeded sample; SMO's cost grows with their square); CLI default 6000 for SMO, all for the linear solver (docs/alignment-results.md, \"More data\")", None)}
                    {field(state, train, Field::setting("cost-factor"), "Cost factor", "C+/C−, the cost of a missed link over a wrong one (--cost-factor); auto: negatives/positives among the examples, between 1 and 4", None)}
                    {field(state, train, Field::MAX_NEGATIVE_RATIO, "Negatives per positive", "at most this many negative examples per positive (--max-negative-ratio; inf: all); CLI default 6", None)}
                    {solver_choice(state, train)}
                    {field(state, train, Field::SEED, "Seed", "of that sample (--seed): another seed, other examples, another model", None)}
                    {word_model_choice(state, train)}
                    {split_choices(state, split, train)}
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
                    {model}
                    <JobStatus kinds={&[JobKind::Train, JobKind::Align][..]} job={props.job} />
                    {note}
                </div>
            </div>
        </section>
    }
}
