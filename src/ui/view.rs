//! The page's root component: it makes the store ([`Store`]: the one
//! [`State`], the running job's progress apart from it, the workers and
//! the runner of effects) once, renders each new state (a progress report
//! or a clock tick is none: the progress bars render them) and hands each
//! panel its slice ([`State::panels`]); the layout of the workbench and
//! the keyboard shortcuts.

use std::rc::Rc;

use yew::prelude::*;

use super::classroom::ExerciseAction;
use super::effects::{carry_out, Workers};
use super::into_view::{self, Place};
use super::results::training_data_warning_inline;
use super::state::{
    Action, AnnotateAction, ExportFile, FindAction, FoldAction, JobAction, KeepProblem, Keeping, LoadAction, Mode,
    ProgressAction, Results, SelectAction, SessionAction, Shared, SortKey, State, TeachAction, TrainAction,
    TranslateAction,
};
use super::store::{use_slice, Dispatch, Store, StoreHandle};
use super::{
    diagram, exercise_panel, explain_panel, export, find, kernel_table, loader, persist, results, teach, train,
    translate,
};

use crate::corpus::{PairIndex, TreePair};
use crate::exercise::Mark;
use crate::io::text::counted;
use crate::svg::{DrawnLink, DIAGRAM_CSS};
use crate::tree::{NodeId, Tree};

/// What the diagram's links depend on ([`State::drawn_links`]): they are
/// made again when it changes, and only then.
#[derive(PartialEq)]
struct DrawnKey {
    corpus: Shared<crate::corpus::Corpus>,
    pair: PairIndex,
    mode: Mode,
    results: Option<Shared<Results>>,
    checks: Option<Shared<Vec<crate::exercise::PairCheck>>>,
    links: Vec<(NodeId, NodeId)>,
    reveal_gold: bool,
    refused: Option<(NodeId, NodeId, String)>,
    step: usize,
    /// The annotator's edits of the pair, and whether it is accepted.
    annotated: (Option<(crate::app::annotation::Edits, usize)>, bool),
}

impl DrawnKey {
    fn of(s: &State) -> DrawnKey {
        DrawnKey {
            corpus: Shared(s.loaded.corpus.clone()),
            pair: s.selection.pair,
            mode: s.selection.mode,
            results: s.results().cloned(),
            checks: s.classroom.checks.clone().map(Shared),
            links: s.student_links().to_vec(),
            reveal_gold: s.teach.reveal_gold,
            refused: s.teach.refused.clone(),
            step: s.teach.step,
            annotated: (s.annotation.edits.get(&s.selection.pair).cloned(), s.annotation.is_done(s.selection.pair)),
        }
    }
}

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

/// Whether a key press belongs to a text field (so shortcuts leave it alone).
fn typing(e: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"))
}

fn node_text(tree: &Tree, n: NodeId) -> (String, String) {
    if !tree.contains(n) {
        return (format!("({n})"), String::new());
    }
    (format!("{} ({n})", tree.label(n)), tree.yield_of(n).join(" "))
}

#[derive(Properties, PartialEq)]
struct LinkTableProps {
    pair: Rc<TreePair>,
    links: Rc<Vec<DrawnLink>>,
    /// The posteriors of the results, if any.
    results: Option<Shared<Results>>,
    /// The pair's index in the corpus.
    k: PairIndex,
    select: Dispatch<SelectAction>,
}

/// The diagram's links as a table: the text alternative of the picture.
#[function_component(LinkTable)]
fn link_table(props: &LinkTableProps) -> Html {
    let LinkTableProps { pair, links, results, k, select } = props;
    let (results, k) = (results.as_deref(), *k);
    let rows = links.iter().rev().map(|l| {
        let (sl, sw) = node_text(&pair.source, l.source);
        let (tl, tw) = node_text(&pair.target, l.target);
        let posterior = results.and_then(|r| r.posterior(k, l.source, l.target));
        let onclick = {
            let (select, s, t) = (*select, l.source, l.target);
            Callback::from(move |_: MouseEvent| {
                // The link is seen where it is drawn: the diagram's box comes
                // into view (the box scrolls to the link once it is selected).
                crate::ui::into_view::bring_selected(".diagram-scroll", crate::ui::into_view::Place::Nearest);
                select.emit(SelectAction::ClickLink(s, t))
            })
        };
        html! {
            <tr data-status={l.style.status()}>
                <td><button type="button" class="link-button" {onclick}>{format!("{}-{}", l.source, l.target)}</button></td>
                <td class="text">{l.style.status()}</td>
                <td class="text">{sl}</td><td class="text words">{sw}</td>
                <td class="text">{tl}</td><td class="text words">{tw}</td>
                <td>{posterior.map_or("—".to_string(), |p| format!("{p:.3}"))}</td>
            </tr>
        }
    });
    html! {
        <details class="link-table" open={links.len() <= 12}>
            <summary>{format!("The {} {} of the diagram as a table", links.len(), counted(links.len(), "links"))}</summary>
            <div class="table-scroll" tabindex="0" role="region" aria-label="The diagram's links">
                <table id="link-table">
                    <thead><tr><th scope="col">{"link"}</th><th scope="col">{"status"}</th><th scope="col">{"source node"}</th><th scope="col">{"source words"}</th>
                        <th scope="col">{"target node"}</th><th scope="col">{"target words"}</th><th scope="col">{"posterior"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </details>
    }
}

/// A sentence of the pair on one line; the whole of a long one is its
/// title (its words are in the diagram too).
fn sentence(words: &[String], lang: &'static str, side: &'static str) -> Html {
    let text = words.join(" ");
    html! { <p class="sentence" {lang} title={text.clone()}><span class="side">{side}</span>{text}</p> }
}

/// One line of counts for the pair shown, with the warning on training
/// data beside it (not below: the diagram keeps the height); with a model
/// in hand that has not aligned these pairs (a reload keeps the model, not
/// its results), what the diagram draws instead and the button to align.
fn pair_counts(state: &State, train: Dispatch<TrainAction>) -> Html {
    let Some(r) = state.results() else {
        // (In Steps mode the stepper offers it; in an exercise the model is no help.)
        if state.alignment.model.is_none() || state.selection.mode != Mode::Inspect || state.classroom.open.is_some() {
            return html! {};
        }
        return html! {
            <p id="pair-counts" class="pair-summary hint">
                {"The alignment model in hand has not aligned these pairs: the diagram draws their gold links. "}
                {train::align_button("align-here", train, state.jobs.running.is_some())}
            </p>
        };
    };
    if !r.aligned(state.selection.pair) {
        return html! {
            <p id="pair-counts" class="pair-counts hint">
                {format!("{} and scored; its gold links are drawn.", r.not_aligned_note())}
            </p>
        };
    }
    let (Some(c), Some(b)) =
        (r.model_counts.get(state.selection.pair.index()), r.baseline_counts.get(state.selection.pair.index()))
    else {
        return html! {};
    };
    let drawn = r.predicted.get(state.selection.pair.index()).map_or(0, Vec::len);
    let held_out = if r.held_out.is_some() { ", a held-out pair" } else { "" };
    // A first model's links: said so, and no baseline yet.
    let baseline = if r.preview { String::new() } else { format!(" (baseline F {:.1})", b.f()) };
    html! {
        <p class="pair-summary">
            if r.preview {
                <strong id="pair-preview" class="preview-label">{format!("{}: ", super::state::PREVIEW_LABEL)}</strong>
            }
            <span id="pair-counts" class="pair-counts" data-predicted={drawn.to_string()} data-correct={c.correct.to_string()}>
                {format!(
                    "This pair{held_out}: {drawn} {} predicted, {} correct, {} wrong, {} missed — P {:.1}, R {:.1}, F {:.1}{baseline}.",
                    counted(drawn, "links"), c.correct, c.predicted - c.correct, c.gold - c.correct,
                    c.precision(), c.recall(), c.f()
                )}
            </span>
            if r.saw(state.selection.pair.index()) {
                {training_data_warning_inline("pair-caution")}
            }
        </p>
    }
}

/// Says, at the top of the page, when the work could not be kept for the
/// next visit, and what to do: try again, or (another tab changed it)
/// keep this tab's work or load the other's.
fn keeping_banner(keeping: &Keeping, session: Dispatch<SessionAction>) -> Html {
    let Some(problem) = &keeping.problem else { return html! {} };
    let button = |id: &'static str, label: &'static str, action: SessionAction| {
        let onclick = Callback::from(move |_: MouseEvent| session.emit(action.clone()));
        html! { <button id={id} type="button" {onclick}>{label}</button> }
    };
    let (what, buttons) = match problem {
        KeepProblem::Failed(why) => (
            format!(
                "Your work is not kept in this browser: {why}. It stays on this page while it is open: export your links (Export) or your exercise answers before closing it; free some disk space, or leave private browsing, then try again."
            ),
            button("keep-again", "Try again", SessionAction::KeepAgain { overwrite: false }),
        ),
        KeepProblem::OtherTab => (
            "Another tab or window changed the work this browser keeps since this page read it: your changes here are not kept, so that neither overwrites the other. Keep this tab's work (it replaces the other's), or load the other's (this page reloads)."
                .to_string(),
            html! {
                <>
                    {button("keep-this", "Keep this tab's work", SessionAction::KeepAgain { overwrite: true })}{" "}
                    {button("load-kept", "Load the other tab's work", SessionAction::LoadKept)}
                </>
            },
        ),
    };
    html! {
        <div class="keeping error-banner" id="keeping" role="alert">
            <p>{what}</p>
            <p>{buttons}</p>
        </div>
    }
}

/// What the last tap on the diagram did, said under it (`#hover-info`),
/// where a phone student sees it with the diagram: that the work is not
/// kept (the banner saying what to do is above the diagram, in the
/// flow: it never covers it), *Check*'s marks of the pair shown,
/// else the teaching verdict (linked, refused, undone).
fn tap_feedback(state: &State) -> Option<String> {
    if state.keeping.problem.is_some() {
        return Some("⚠ Your work is not kept in this browser: what to do is said above the diagram.".into());
    }
    // A verdict, marked as done or refused.
    let verdict = |message: &Option<Result<String, String>>| match message.as_ref()? {
        Ok(m) => Some(format!("✓ {m}")),
        Err(m) => Some(format!("✗ {m}")),
    };
    if state.selection.mode == Mode::Annotate {
        return verdict(&state.annotation.message);
    }
    if state.selection.mode != Mode::Teach {
        return None;
    }
    let checked = state.classroom.checks.as_ref().and_then(|c| c.get(state.selection.pair.index()));
    if let Some(check) = checked {
        let count = |m: Mark| check.marks.iter().filter(|&&(_, _, k)| k == m).count();
        return Some(format!(
            "Pair {} checked: {} correct, {} wrong, {} missed, marked on the links (the list is in the exercise box).",
            state.selection.pair.number(),
            count(Mark::Correct),
            count(Mark::Wrong),
            count(Mark::Missed)
        ));
    }
    verdict(&state.teach.message)
}

/// The first screen's guide: three steps, and what every setting means
/// (with the kernels paper's section), shown in the inspector until a node
/// is selected.
fn start_here(pairs: usize) -> Html {
    let setting = |name: &'static str, what: &'static str| html! { <><dt>{name}</dt><dd>{what}</dd></> };
    html! {
        <section class="panel start-here" id="start-here" aria-labelledby="start-title">
            <h2 id="start-title">{"Start here"}</h2>
            <ol class="start-steps">
                <li><strong>{"Look at a pair. "}</strong>{"The diagram shows it with its gold links: the source tree above, the target tree below. Click a link, or a source node and then a target node, to see their bilingual tree kernels here; n / p change the pair."}</li>
                <li><strong>{"Train. "}</strong><a href="#train-panel">{"Train and align"}</a>{format!(" on the {pairs} loaded pairs (seconds, in the background): the diagram then marks each link correct, wrong or missed.")}</li>
                <li><strong>{"Align or teach. "}</strong>{"Inspect why the model made a link; "}<em>{"Align by hand"}</em>{" (the criteria say why a link is refused); or "}<em>{"Search steps"}</em>{"; or "}<em>{"Annotate"}</em>{" new pairs with the model's help: the buttons above the diagram."}</li>
            </ol>
            <details id="settings-help">
                <summary>{"What the settings mean"}</summary>
                <dl class="settings-help">
                    {setting("Kernel spec", "The composite kernel as components joined by +: plain (the plain features φ1–φ7, §4, in a degree-2 polynomial kernel) and BTKs named ibtk-… or dbtk-… with a sub-structure space: sst (every subset tree), rdsst (root-directed), rgsst (root-generated), root (the root alone) — §2 and §3; the sum is §5's K = θ0 K̂p + Σ θi K̂BTK.")}
                    {setting("θ (weights)", "One weight per component of the spec, summing to 1 (§5); empty gives equal weights.")}
                    {setting("λ (decay)", "The decay factor in Δ (§2.1): each fragment counts λ per node, so large shared fragments do not swamp the kernel. The paper uses 0.4 (§6.3). The λ beside the pair's buttons sets it for the kernel view only.")}
                    {setting("C (SVM cost)", "The SVM's penalty for misclassified training pairs (§5, §6.3: C = 2.4): larger fits the training links more closely.")}
                    {setting("iBTK, dBTK", "Independent (§2.1: source kernel + target kernel) and dependent (§2.2: their product) bilingual tree kernels.")}
                    {setting("Posterior, threshold", "P(a+|S,T) = 1/(1+e^−D), from the SVM's decision value D (§5); the greedy search takes candidates with D above the threshold by decreasing posterior, under three well-formedness criteria.")}
                </dl>
            </details>
        </section>
    }
}

/// The page's callbacks, one per kind of action ([`Dispatch`]), made once:
/// each panel is given those it sends, and no others.
struct Callbacks {
    load: Dispatch<LoadAction>,
    select: Dispatch<SelectAction>,
    fold: Dispatch<FoldAction>,
    lambda: Dispatch<String>,
    train: Dispatch<TrainAction>,
    job: Dispatch<JobAction>,
    teach: Dispatch<TeachAction>,
    annotate: Dispatch<AnnotateAction>,
    find: Dispatch<FindAction>,
    order: Dispatch<SortKey>,
    translate: Dispatch<TranslateAction>,
    exercise: Dispatch<ExerciseAction>,
    session: Dispatch<SessionAction>,
    export: Dispatch<ExportFile>,
}

impl Callbacks {
    fn new(store: &'static Store) -> Callbacks {
        Callbacks {
            load: Dispatch::new(store, Action::Load),
            select: Dispatch::new(store, Action::Select),
            fold: Dispatch::new(store, Action::Fold),
            lambda: Dispatch::new(store, Action::SetLambda),
            train: Dispatch::new(store, Action::Train),
            job: Dispatch::new(store, Action::Job),
            teach: Dispatch::new(store, Action::Teach),
            annotate: Dispatch::new(store, Action::Annotate),
            find: Dispatch::new(store, Action::Find),
            order: Dispatch::new(store, Action::SortBy),
            translate: Dispatch::new(store, Action::Translate),
            exercise: Dispatch::new(store, Action::Exercise),
            session: Dispatch::new(store, Action::Session),
            export: Dispatch::new(store, Action::Export),
        }
    }
}

#[function_component(App)]
fn app() -> Html {
    // The store, its workers and the page's callbacks, once.
    let page = use_memo((), |_| {
        let store = Store::new(State::new());
        let dispatch = store.dispatcher();
        let report = store.reporter();
        // The store lives as long as the page: its callbacks hold it by reference.
        let cb = Callbacks::new(Box::leak(Box::new(store.clone())));
        let workers = Workers::start(cb.load, dispatch, report.clone());
        let load = cb.load;
        store.run_effects_with(move |effect| carry_out(effect, &workers, load));
        // The built-in sample is read by the file worker, as any file.
        store.dispatch(Action::Load(LoadAction::LoadSample));
        (store, report, cb)
    });
    let (store, report, cb) = (&page.0, &page.1, &page.2);
    // Each new state (a progress report or a clock tick is none: it renders the progress bars alone).
    let state: Rc<State> = use_slice(store, |s| Shared(s.clone())).0.clone();
    persist::use_kept_session(&state, cb.session);
    persist::use_location(cb.session);
    persist::use_undo_keys(cb.teach);

    // While a job runs, tick so its elapsed time moves between progress reports.
    {
        let report = report.clone();
        use_effect_with(state.jobs.running.is_some(), move |&running| {
            let interval = running.then(|| {
                let tick = move || report.emit(ProgressAction::Tick(js_sys::Date::now()));
                gloo::timers::callback::Interval::new(500, tick)
            });
            move || drop(interval)
        });
    }
    // Keyboard: n / p for the next / previous pair anywhere but in a text
    // field; a to accept the pair while annotating.
    {
        let (select, annotate) = (cb.select, cb.annotate);
        use_effect_with((), move |_| {
            let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
                gloo::events::EventListener::new(&document, "keydown", move |e| {
                    use wasm_bindgen::JsCast;
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    if typing(e) || e.ctrl_key() || e.alt_key() || e.meta_key() {
                        return;
                    }
                    match e.key().as_str() {
                        "n" => select.emit(SelectAction::StepPair(1)),
                        "p" => select.emit(SelectAction::StepPair(-1)),
                        "a" => annotate.emit(AnnotateAction::Accept { now: js_sys::Date::now() }),
                        _ => {}
                    }
                })
            });
            move || drop(listener)
        });
    }

    // The feedback of a click (why this link, the teaching verdict, the
    // search step) is brought into view: in the inspector's own scroll, and
    // on a phone, where it is below the diagram, in the page.
    {
        let feedback = match state.selection.mode {
            Mode::Inspect => {
                (state.selection.source.is_some() && state.selection.target.is_some()).then_some("explain-panel")
            }
            Mode::Teach => state.teach.message.is_some().then_some("teach-feedback"),
            Mode::Steps => Some("step-text"),
            Mode::Annotate => state.annotation.message.is_some().then_some("annotate-feedback"),
        };
        let key = (
            feedback,
            state.selection.source,
            state.selection.target,
            state.teach.message.clone(),
            state.teach.step,
            state.annotation.message.clone(),
        );
        // A node pair's explanation is read with its kernel table below it:
        // on a phone it comes to the top of the screen. A tap's verdict is
        // said under the diagram too (`tap_feedback`): on a phone the
        // diagram stays where the student put it.
        let place = match state.selection.mode {
            Mode::Inspect => Place::TopOnOneColumn,
            Mode::Teach | Mode::Annotate => Place::DiagramOnOneColumn,
            Mode::Steps => Place::Nearest,
        };
        use_effect_with(key, move |(feedback, ..)| {
            if let Some(el) = feedback.and_then(|id| web_sys::window()?.document()?.get_element_by_id(id)) {
                into_view::bring(&el, place);
            }
        });
    }
    // An exercise opened (by its picker, a drop or the address): its
    // diagram is what the student reads next, wherever the page was.
    {
        let opened = state.classroom.open.as_ref().map(|o| (o.file.clone(), Rc::as_ptr(&o.exercise) as usize));
        use_effect_with(opened, |opened| {
            if opened.is_some() {
                into_view::bring_selected(".pair-column", Place::TopOnOneColumn);
            }
        });
    }
    let pair_count = state.loaded.corpus.len();
    // Before the pairs and the kept work are in: a loading state, not "Pair
    // 1 of 0", nor the sample's pairs under a kept exercise's box.
    let loading = !state.keeping.read
        || state.keeping.restoring.is_some()
        || (state.loaded.corpus.is_empty() && state.slots.sample_loading.is_some());
    // Drawn again only when what they depend on changes (not on every action).
    let pair: Option<Rc<TreePair>> = {
        let state = state.clone();
        let key = (Shared(state.loaded.corpus.clone()), state.selection.pair);
        (*use_memo(key, move |_| state.current_pair())).clone()
    };
    let links: Rc<Vec<DrawnLink>> = {
        let state = state.clone();
        (*use_memo(DrawnKey::of(&state), move |_| Rc::new(state.drawn_links()))).clone()
    };
    let panels = state.panels();
    let nav = {
        let select = cb.select;
        let go = |delta: isize| Callback::from(move |_: MouseEvent| select.emit(SelectAction::StepPair(delta)));
        let on_number = Callback::from(move |e: Event| {
            if let Ok(n) = e.target_unchecked_into::<web_sys::HtmlInputElement>().value().trim().parse::<usize>() {
                select.emit(SelectAction::SelectPair(PairIndex::from_number(n).unwrap_or(PairIndex::FIRST)));
            }
        });
        let mode_button = |mode: Mode, id: &'static str, label: &'static str| {
            let onclick = Callback::from(move |_: MouseEvent| select.emit(SelectAction::SetMode(mode)));
            let on = state.selection.mode == mode;
            html! { <button type="button" id={id} class={classes!("mode", on.then_some("on"))} aria-pressed={on.to_string()} {onclick}>{label}</button> }
        };
        html! {
            <nav class="pair-nav" aria-label="Sentence pairs" data-pair={state.selection.pair.to_string()}>
                <button id="prev-pair" type="button" onclick={go(-1)} disabled={state.selection.pair == PairIndex::FIRST} title="Previous pair (p)">{"◀ Previous"}</button>
                <label>{"Pair "}
                    <input id="pair-number" type="number" min="1" max={pair_count.to_string()}
                        value={(state.selection.pair.number()).to_string()} onchange={on_number} />
                    {format!(" of {pair_count}")}
                </label>
                <button id="next-pair" type="button" onclick={go(1)} disabled={state.selection.pair.number() >= pair_count} title="Next pair (n)">{"Next ▶"}</button>
                <span class="modes" role="group" aria-label="What clicking does">
                    {mode_button(Mode::Inspect, "mode-inspect", "Inspect")}
                    {mode_button(Mode::Teach, "mode-teach", "Align by hand")}
                    {mode_button(Mode::Steps, "mode-steps", "Search steps")}
                    {mode_button(Mode::Annotate, "mode-annotate", "Annotate")}
                </span>
            </nav>
        }
    };
    let tapped = tap_feedback(&state);
    let hint = tapped.clone().map_or_else(
        || match state.selection.mode {
            Mode::Inspect => {
                "Click a link, or a source then a target node; hover a link for its posterior; − / + fold a phrase; drag to pan."
            }
            Mode::Teach => "Click a source node, then a target node, to link them; click your link to remove it; drag to pan.",
            Mode::Steps => "The search's links so far, this step's candidate (dashed) and what blocks it; drag to pan.",
            Mode::Annotate => "The model's proposal: click a wrong link to remove it; a source then a target node to add one; Accept (a) when right.",
        }
        .into(),
        AttrValue::from,
    );
    let folds = {
        let (src, trg) = state.folds.of(state.loaded.gen, state.selection.pair);
        Rc::new((src.clone(), trg.clone()))
    };

    html! {
        <>
            <style id="diagram-css">{DIAGRAM_CSS}</style>
            <header>
                <h1>{"treelink"}</h1>
                <p class="lede" id="lede" title="treelink aligns the sub-trees of translated sentence pairs with bilingual tree kernels, and translates with meta-structures — in your browser, offline.">
                    {"Sub-tree alignment with bilingual tree kernels: "}<strong id="lede-pairs">{state.corpus_line()}</strong></p>
                <nav class="sections" aria-label="Sections">
                    { for [("#workbench", "The pair"), ("#loader", "Data"), ("#train-panel", "Train and align"), ("#exercise-panel", "Exercises"),
                        ("#translate-panel", "Translate"), ("#results-panel", "Results"), ("#export-panel", "Export")]
                        .map(|(href, label)| html! { <a {href}>{label}</a> }) }
                </nav>
            </header>
            <ContextProvider<StoreHandle> context={StoreHandle(store.clone())}>
            <main>
                <section class="panel workbench" id="workbench" aria-label="The selected pair">
                    <div class="pair-column">
                        // Above the diagram, in its column's flow: seen with the diagram, never over it.
                        {keeping_banner(&state.keeping, cb.session)}
                        if loading {
                            <p id="loading" class="loading" role="status">{"Loading the built-in sample (German → Spanish) and your work from the last visit…"}</p>
                        } else if pair_count > 0 {
                            {nav}
                        }
                        if let (false, Some(open)) = (loading, &state.classroom.open) {
                            <p id="exercise-line" class="exercise-line">
                                {format!("Exercise '{}' ({}): ", open.exercise.title, open.file)}
                                <strong>{exercise_panel::kind_short(&open.exercise)}</strong>
                                <a href="#exercise-box">{"its box"}</a>
                            </p>
                        }
                        if loading {
                        } else if let Some(pair) = &pair {
                            {sentence(pair.source.words(), "src", "source: ")}
                            {sentence(pair.target.words(), "trg", "target: ")}
                            {pair_counts(&state, cb.train)}
                            <diagram::Diagram pair={pair.clone()} links={links.clone()} selected_source={state.selection.source}
                                selected_target={state.selection.target} pending={state.teach.pending} select={cb.select} fold={cb.fold} hint={hint} tapped={tapped.is_some()}
                                title={format!("Pair {} of {pair_count} — {}", state.selection.pair.number(), state.corpus_line())} folds={folds}>
                                <find::FindPairView view={state.find.clone()} find={cb.find} select={cb.select} />
                            </diagram::Diagram>
                        } else {
                            <find::FindPairView view={state.find.clone()} find={cb.find} select={cb.select} />
                            <p id="no-pairs" role="status">{"No pairs loaded: load a treebank in the Data panel, or the built-in sample."}</p>
                        }
                    </div>
                    <aside class="inspector" id="inspector" aria-label="Inspector">
                        if state.classroom.open.is_some() {
                            <exercise_panel::ExerciseBox view={panels.exercise.clone()} exercise={cb.exercise} />
                        }
                        if state.selection.mode == Mode::Inspect {
                            if state.selection.source.is_none() && state.selection.target.is_none() {
                                {start_here(pair_count)}
                            }
                            <explain_panel::ExplainPanel view={panels.explain} select={cb.select} teach={cb.teach} />
                            <kernel_table::KernelTable view={panels.kernels} select={cb.select} lambda={cb.lambda} />
                        } else {
                            <teach::TeachPanel view={panels.teach} teach={cb.teach} annotate={cb.annotate} train={cb.train} />
                        }
                    </aside>
                    if let Some(pair) = &pair {
                        <div class="below-pair"><LinkTable pair={pair.clone()} links={links.clone()} results={state.results().cloned()}
                            k={state.selection.pair} select={cb.select} /></div>
                    }
                </section>
                <loader::Loader view={panels.loader} load={cb.load} session={cb.session} />
                <train::TrainPanel view={panels.train} train={cb.train} job={cb.job} />
                <exercise_panel::ExercisePanel view={panels.exercise} exercise={cb.exercise} load={cb.load} />
                <translate::TranslatePanel view={panels.translate} translate={cb.translate} job={cb.job}
                    select={cb.select} export={cb.export} />
                <results::ResultsPanel results={state.results().cloned()} corpus={Shared(state.loaded.corpus.clone())}
                    sort={state.alignment.sort} pair={state.selection.pair} order={cb.order} select={cb.select} />
                <export::ExportPanel view={panels.export} export={cb.export} />
            </main>
            </ContextProvider<StoreHandle>>
            <footer>
                <p>{"Keys: n / p next / previous pair; Ctrl+Z / Ctrl+Shift+Z undo / redo your hand links; in the diagram, PageDown / PageUp too, + / − zoom, 0 actual size, f fit, s zoom to the selection; Tab to a node, the arrow keys to the node drawn next to it (↓ from the source's last row crosses to the target tree), Enter to click it, x to fold it; Tab again to the links, the arrow keys between them. Present: the diagram alone, ← → pairs, ↑ ↓ links, Esc leaves."}</p>
                <p>{"Built-in sample: the dev split (LAI sub-corpus, German–Spanish, 157 pairs) of the SQUOIA parallel treebank with gold sub-tree alignments, by the SQUOIA project (University of Zurich), used under the "}
                    <a href="sample/LICENSE">{"Apache License 2.0"}</a>{"."}</p>
                <p>{"Kernels and alignment: Sun, Zhang & Tan, “Exploring Syntactic Structural Features for Sub-Tree Alignment using Bilingual Tree Kernels”, ACL 2010. Baseline: Tinsley, Zhechev, Hearne & Way, 2007."}</p>
                <p>{"Translation: the meta-structure transformation model (MS, SMS, RM) and its beam-search decoder, after the meta-structure SMT paper; phrase-based baseline after Koehn et al. (Pharaoh/Moses)."}</p>
            </footer>
        </>
    }
}
