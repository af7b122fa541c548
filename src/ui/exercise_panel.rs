//! The exercise panel: an instructor makes an exercise from the loaded
//! pairs and exports it; a student opens one, aligns by hand in the
//! teaching mode, presses *Check* and exports the answers; the instructor
//! drops the answers files and reads the class table. Everything it shows
//! comes from [`super::classroom::Classroom`]; labels and words are text.

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::classroom::ExerciseAction;
use super::into_view::{self, Place};
use super::loader::slot_row;
use super::panels::ExerciseView;
use super::state::{LoadAction, Slot};
use super::store::Dispatch;
use crate::eval::prf::Counts;
use crate::exercise::{ClassTable, Mark, PairCheck};

#[derive(Properties, PartialEq)]
pub struct ExerciseProps {
    pub view: ExerciseView,
    pub exercise: Dispatch<ExerciseAction>,
    /// The exercise and answers files' inputs.
    pub load: Dispatch<LoadAction>,
}

fn prf_cells(c: &Counts) -> Html {
    html! {
        <>
            <td>{c.correct}</td><td>{c.predicted}</td><td>{c.gold}</td>
            <td class="p">{format!("{:.2}", c.precision())}</td>
            <td class="r">{format!("{:.2}", c.recall())}</td>
            <td class="f">{format!("{:.2}", c.f())}</td>
        </>
    }
}

fn prf_head(first: &str) -> Html {
    html! {
        <thead><tr><th scope="col">{first.to_string()}</th><th scope="col">{"correct"}</th><th scope="col">{"drawn"}</th>
            <th scope="col">{"key"}</th><th scope="col">{"P"}</th><th scope="col">{"R"}</th><th scope="col">{"F"}</th></tr></thead>
    }
}

fn text_input(id: &str, value: &str, exercise: Dispatch<ExerciseAction>, make: fn(String) -> ExerciseAction) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        exercise.emit(make(input.value()))
    });
    html! { <input type="text" id={id.to_string()} value={value.to_string()} {oninput} /> }
}

fn button(id: &str, label: &str, exercise: Dispatch<ExerciseAction>, action: ExerciseAction) -> Html {
    let onclick = Callback::from(move |_: MouseEvent| exercise.emit(action.clone()));
    html! { <button type="button" id={id.to_string()} {onclick}>{label.to_string()}</button> }
}

/// The instructor's form: pairs, title, instructions, whether gold is shown.
fn make_form(props: &ExerciseProps) -> Html {
    let c = &props.view;
    let exercise = props.exercise;
    let on_instructions = {
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            exercise.emit(ExerciseAction::SetInstructions(area.value()))
        })
    };
    let on_show = {
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            exercise.emit(ExerciseAction::SetShowGold(input.checked()))
        })
    };
    html! {
        <fieldset class="exercise-make">
            <legend>{"Make an exercise (instructor)"}</legend>
            <p class="hint">{format!("From the loaded pairs ({}); their gold links become the key. Type pair numbers, or search with “Find a pair” above the diagram and add what it finds.", props.view.corpus.len())}</p>
            <div class="field"><label for="exercise-pairs">{"Pairs (e.g. 3, 7, 10-12)"}</label>
                {text_input("exercise-pairs", &c.form.pairs, exercise, ExerciseAction::SetPairs)}</div>
            <div class="field"><label for="exercise-title">{"Title"}</label>
                {text_input("exercise-title", &c.form.title, exercise, ExerciseAction::SetTitle)}</div>
            <div class="field"><label for="exercise-instructions">{"Instructions"}</label>
                <textarea id="exercise-instructions" rows="3" value={c.form.instructions.clone()} oninput={on_instructions} /></div>
            <label class="check"><input id="exercise-show-gold" type="checkbox" checked={c.form.show_gold} onchange={on_show} />
                {" show the key's links to the students while they align"}</label>
            <p>{button("exercise-export", "Export the exercise", exercise, ExerciseAction::Export)}</p>
            if let Some(e) = &c.form_error {
                <p id="exercise-form-error" class="status error" role="alert">{"✗ "}{e.clone()}</p>
            }
        </fieldset>
    }
}

fn mark_name(m: Mark) -> &'static str {
    match m {
        Mark::Correct => "✓ correct",
        Mark::Wrong => "✗ wrong",
        Mark::Missed => "○ missed",
        Mark::Unscored => "· not scored (a POS node)",
    }
}

/// The student's side of an open exercise.
fn do_exercise(props: &ExerciseProps) -> Html {
    let state = &props.view;
    let c = state;
    let exercise = props.exercise;
    let Some((file, e)) = &c.open else { return html! {} };
    let number = c.number.map_or(String::new(), |n| format!(" — pair {n} of the instructor's treebank"));
    let check_view = c.checks.as_ref().map(|checks| {
        let total: Counts = checks.iter().map(|k| k.counts).sum();
        let here: Option<&PairCheck> = checks.get(state.pair);
        let pair = state.corpus.pairs.get(state.pair);
        let marks = here.into_iter().flat_map(|k| k.marks.iter()).map(|&(s, t, m)| {
            let label = |tree: &crate::tree::Tree, n: crate::tree::NodeId| if tree.contains(n) { tree.label(n).to_string() } else { "?".into() };
            let what = pair.map_or(String::new(), |p| format!("{} ({s}) ↔ {} ({t})", label(&p.source, s), label(&p.target, t)));
            html! { <li class={classes!("mark", format!("mark-{}", m.name()))}>{mark_name(m)}{": "}{what}</li> }
        });
        html! {
            <div id="exercise-check" class="exercise-check" role="status">
                <h4>{format!("Pair {} checked", state.pair + 1)}</h4>
                <ul id="exercise-marks">{ for marks }</ul>
                <table class="scores" id="exercise-scores">
                    <caption>{"Against the key (phrase links, as the evaluation)"}</caption>
                    {prf_head("pair")}
                    <tbody>
                        { for checks.iter().enumerate().map(|(k, ch)| html! { <tr><th scope="row">{k + 1}</th>{prf_cells(&ch.counts)}</tr> }) }
                        <tr id="exercise-total"><th scope="row">{"all"}</th>{prf_cells(&total)}</tr>
                    </tbody>
                </table>
            </div>
        }
    });
    html! {
        <fieldset class="exercise-do">
            <legend>{format!("Exercise: {}", e.title)}</legend>
            if !e.instructions.is_empty() {
                <p id="exercise-instructions-text" class="instructions">{e.instructions.clone()}</p>
            }
            <p class="hint">{format!("{} pairs from {}; this is pair {} of {}{number}. Align by hand in the pair's teaching mode; {}",
                e.pairs.len(), file, state.pair + 1, e.pairs.len(),
                if e.show_gold { "the key's links are shown." } else { "the key is hidden until you check." })}</p>
            <div class="field"><label for="exercise-student">{"Your name"}</label>
                {text_input("exercise-student", &c.student, exercise, ExerciseAction::SetStudent)}</div>
            <p>
                {button("exercise-check-button", "Check", exercise, ExerciseAction::Check)}{" "}
                {button("exercise-answers", "Export my answers", exercise, ExerciseAction::ExportAnswers)}{" "}
                {button("exercise-close", "Leave the exercise", exercise, ExerciseAction::Close)}
            </p>
            {check_view.unwrap_or_default()}
            {slot_row(Slot::Answers, &state.answers_slot, props.load)}
            if let Some(class) = &c.class {
                {class_table(class)}
            }
        </fieldset>
    }
}

/// The class table: students, pairs, and the links most students got wrong.
fn class_table(t: &ClassTable) -> Html {
    html! {
        <div id="class-table" class="class-table">
            <table class="scores" id="class-students">
                <caption>{format!("Class: {} students", t.students.len())}</caption>
                {prf_head("student")}
                <tbody>
                    { for t.students.iter().map(|s| html! { <tr><th scope="row" title={s.file.clone()}>{s.student.clone()}</th>{prf_cells(&s.counts)}</tr> }) }
                    <tr><th scope="row">{"all"}</th>{prf_cells(&t.total)}</tr>
                </tbody>
            </table>
            <table class="scores" id="class-pairs">
                <caption>{"Per pair (its number in the instructor's treebank)"}</caption>
                {prf_head("pair")}
                <tbody>{ for t.pairs.iter().map(|p| html! { <tr><th scope="row">{p.number}</th>{prf_cells(&p.counts)}</tr> }) }</tbody>
            </table>
            <table class="scores" id="class-hardest">
                <caption>{"The links most students got wrong or missed"}</caption>
                <thead><tr><th scope="col">{"pair"}</th><th scope="col">{"link"}</th><th scope="col">{"labels"}</th><th scope="col">{"how"}</th><th scope="col">{"students"}</th></tr></thead>
                <tbody>{ for t.hardest.iter().map(|h| html! {
                    <tr><td>{h.number}</td><td>{format!("{}-{}", h.source, h.target)}</td><td class="text">{h.labels.clone()}</td>
                        <td>{h.mark.name()}</td><td>{h.students}</td></tr>
                }) }</tbody>
            </table>
        </div>
    }
}

#[function_component(ExercisePanel)]
pub fn exercise_panel(props: &ExerciseProps) -> Html {
    let view = &props.view;
    // After *Check*, its marks are brought into view (on a phone they are
    // far below the diagram), as a click's feedback is.
    use_effect_with((view.checks.clone(), view.pair), |(checked, _)| {
        if checked.is_some() {
            into_view::bring_selected("#exercise-check", Place::Nearest);
        }
    });
    html! {
        <section class="panel exercise" id="exercise-panel" aria-labelledby="exercise-heading">
            <h2 id="exercise-heading">{"Exercises"}</h2>
            <p class="hint">{"An instructor picks pairs and exports one exercise file; students open it here (or drop it on the Data panel, or open the page with ?exercise=FILE.json for a file beside it on the same site), align by hand, check, and export their answers; the instructor opens the exercise and drops all the answers files for the class table. The same files work with treelink exercise check on the command line. The key is inside the exercise file: hidden here, but readable by anyone who opens the file."}</p>
            {slot_row(Slot::Exercise, &view.exercise_slot, props.load)}
            {do_exercise(props)}
            {make_form(props)}
        </section>
    }
}
