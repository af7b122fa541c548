//! Exercises in the page. The Exercises panel: an instructor makes an
//! exercise from the loaded pairs and exports it (with the key, and the
//! students' copy without it); anyone opens one there; with the file that
//! has the key open, the instructor drops the answers files and reads the
//! class table. The exercise box, in the inspector beside (on a phone
//! below) the diagram: the student's side of the open exercise — which
//! kind of file it is, aligning by hand, *Check* and its marks (brought
//! into view), the answers file, leaving. A student sees no instructor
//! control. Everything shown comes from
//! [`super::classroom::Classroom`]; labels and words are text.

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::classroom::ExerciseAction;
use super::into_view::{self, Place};
use super::loader::slot_row;
use super::panels::ExerciseView;
use super::state::{LoadAction, Slot};
use super::store::Dispatch;
use crate::eval::prf::Counts;
use crate::exercise::{ClassTable, Exercise, Mark, PairCheck};
use crate::io::text::counted;

#[derive(Properties, PartialEq)]
pub struct ExerciseProps {
    pub view: ExerciseView,
    pub exercise: Dispatch<ExerciseAction>,
    /// The exercise and answers files' inputs.
    pub load: Dispatch<LoadAction>,
}

#[derive(Properties, PartialEq)]
pub struct ExerciseBoxProps {
    pub view: ExerciseView,
    pub exercise: Dispatch<ExerciseAction>,
}

/// A row's counts and P, R, F (`.p`, `.r`, `.f`), as the exercise's and
/// the teaching scores show them.
pub(super) fn prf_cells(c: &Counts) -> Html {
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
            <th scope="col">{"key"}</th><th scope="col" title="precision">{"P"}</th><th scope="col" title="recall">{"R"}</th><th scope="col" title="F-score">{"F"}</th></tr></thead>
    }
}

fn text_input(id: &str, value: &str, exercise: Dispatch<ExerciseAction>, make: fn(String) -> ExerciseAction) -> Html {
    let oninput =
        Callback::from(move |e: InputEvent| exercise.emit(make(e.target_unchecked_into::<HtmlInputElement>().value())));
    html! { <input type="text" id={id.to_string()} value={value.to_string()} {oninput} /> }
}

fn button(id: &str, label: &str, exercise: Dispatch<ExerciseAction>, action: ExerciseAction) -> Html {
    let onclick = Callback::from(move |_: MouseEvent| exercise.emit(action.clone()));
    html! { <button type="button" id={id.to_string()} {onclick}>{label.to_string()}</button> }
}

/// The instructor's form: pairs, title, instructions, whether gold is
/// shown, and its two exports, each saying what it made.
fn make_form(props: &ExerciseProps) -> Html {
    let c = &props.view;
    let exercise = props.exercise;
    let on_instructions = Callback::from(move |e: InputEvent| {
        exercise.emit(ExerciseAction::SetInstructions(e.target_unchecked_into::<HtmlTextAreaElement>().value()))
    });
    let on_show = Callback::from(move |e: Event| {
        exercise.emit(ExerciseAction::SetShowGold(e.target_unchecked_into::<HtmlInputElement>().checked()))
    });
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
            <p class="buttons">
                {button("exercise-export", "Export the exercise (with the key)", exercise, ExerciseAction::Export)}
                {button("exercise-export-student", "Export a student copy (without the key)", exercise, ExerciseAction::ExportStudentCopy)}
            </p>
            <p class="hint">{"The file with the key is yours: open it here to check the class's answers, or hand it out for students to check themselves (the page hides the key, but anyone who opens the file can read it). The student copy holds the pairs and your text, nothing of the key: students export their answers and you check them against your file."}</p>
            if let Some(e) = &c.form_error {
                <p id="exercise-form-error" class="status error" role="alert">{"✗ "}{e.clone()}</p>
            }
            if let Some(done) = &c.exported {
                <p id="exercise-exported" class="status ok" role="status">{"✓ "}{done.clone()}</p>
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

/// Which kind of exercise file is open, in a few words (the line above
/// the diagram: in view on a phone, where the exercise box is below it).
pub fn kind_short(e: &Exercise) -> &'static str {
    if e.key_withheld {
        "a student copy, without the key"
    } else if e.show_gold {
        "with its key, shown"
    } else {
        "with its key, hidden until you check"
    }
}

/// Which kind of exercise file is open, in a sentence.
fn kind_line(e: &Exercise) -> &'static str {
    if e.key_withheld {
        "A student copy, without the key: align by hand and export your answers for your instructor, who checks them against the file with the key."
    } else if e.show_gold {
        "An exercise with its key, shown while you align: Check marks your links against it."
    } else {
        "An exercise with its key, hidden until you check: Check marks your links against it."
    }
}

/// *Check*'s marks of the pair shown and the scores of every pair.
fn check_view(state: &ExerciseView, checks: &[PairCheck]) -> Html {
    let total: Counts = checks.iter().map(|k| k.counts).sum();
    let here: Option<&PairCheck> = checks.get(state.pair.index());
    let pair = state.corpus.pair(state.pair);
    let marks = here.into_iter().flat_map(|k| k.marks.iter()).map(|&(s, t, m)| {
        let label = |tree: &crate::tree::Tree, n: crate::tree::NodeId| {
            if tree.contains(n) {
                tree.label(n).to_string()
            } else {
                "?".into()
            }
        };
        let what =
            pair.map_or(String::new(), |p| format!("{} ({s}) ↔ {} ({t})", label(&p.source, s), label(&p.target, t)));
        html! { <li class={classes!("mark", format!("mark-{}", m.name()))}>{mark_name(m)}{": "}{what}</li> }
    });
    html! {
        <div id="exercise-check" class="exercise-check" role="status">
            <h3>{format!("Pair {} checked", state.pair.number())}</h3>
            <ul id="exercise-marks">{ for marks }</ul>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Scores against the key">
                <table class="scores" id="exercise-scores">
                    <caption>{"Against the key (phrase links, as the evaluation)"}</caption>
                    {prf_head("pair")}
                    <tbody>
                        { for checks.iter().enumerate().map(|(k, ch)| html! { <tr><th scope="row">{k + 1}</th>{prf_cells(&ch.counts)}</tr> }) }
                        <tr id="exercise-total"><th scope="row">{"all"}</th>{prf_cells(&total)}</tr>
                    </tbody>
                </table>
            </div>
        </div>
    }
}

/// The student's side of the open exercise, in the inspector beside (on
/// a phone, below) the diagram: which kind of file it is, the
/// instructions, the student's name, *Check* and its marks (brought into
/// view), the answers file, leaving.
#[function_component(ExerciseBox)]
pub fn exercise_box(props: &ExerciseBoxProps) -> Html {
    let state = &props.view;
    let exercise = props.exercise;
    // After *Check*, its marks are brought into view (in the inspector beside the diagram).
    // On a phone the diagram stays in view, its links marked, and the line under it says what Check found.
    use_effect_with((state.checks.clone(), state.pair), |(checked, _)| {
        if checked.is_some() {
            into_view::bring_selected("#exercise-check", Place::DiagramOnOneColumn);
        }
    });
    let Some((file, e)) = &state.open else { return html! {} };
    let number = state.number.map_or(String::new(), |n| format!(" (pair {n} of the instructor's treebank)"));
    let leave = match &state.back_to {
        Some(name) => format!("Leave the exercise (back to {name})"),
        None => "Leave the exercise".to_string(),
    };
    html! {
        <section class="panel exercise-box" id="exercise-box" aria-labelledby="exercise-box-title">
            <h2 id="exercise-box-title">{format!("Exercise: {}", e.title)}</h2>
            <p id="exercise-kind" class={classes!("kind", e.key_withheld.then_some("withheld"))}>{kind_line(e)}</p>
            if !e.instructions.is_empty() {
                <p id="exercise-instructions-text" class="instructions">{e.instructions.clone()}</p>
            }
            <p class="hint">{format!("Pair {} of {}{number}, from {file}. Align by hand: click a source node, then a target node.", state.pair.number(), e.pairs.len())}</p>
            <div class="field"><label for="exercise-student">{"Your name"}</label>
                {text_input("exercise-student", &state.student, exercise, ExerciseAction::SetStudent)}</div>
            <p class="buttons">
                if !e.key_withheld {
                    {button("exercise-check-button", "Check", exercise, ExerciseAction::Check)}
                }
                {button("exercise-answers", "Export my answers", exercise, ExerciseAction::ExportAnswers)}
                {button("exercise-close", &leave, exercise, ExerciseAction::Close)}
            </p>
            if let Some(checks) = &state.checks {
                {check_view(state, checks)}
            }
        </section>
    }
}

/// The class table: students, pairs, and the links most students got wrong.
fn class_table(t: &ClassTable) -> Html {
    let scroll = |label: &'static str, table: Html| html! { <div class="table-scroll" tabindex="0" role="region" aria-label={label}>{table}</div> };
    html! {
        <div id="class-table" class="class-table">
            {scroll("Class: students", html! {
            <table class="scores" id="class-students">
                <caption>{format!("Class: {} {}", t.students.len(), counted(t.students.len(), "students"))}</caption>
                {prf_head("student")}
                <tbody>
                    { for t.students.iter().map(|s| html! { <tr><th scope="row" title={s.file.clone()}>{s.student.clone()}</th>{prf_cells(&s.counts)}</tr> }) }
                    <tr><th scope="row">{"all"}</th>{prf_cells(&t.total)}</tr>
                </tbody>
            </table>
            })}
            {scroll("Class: pairs", html! {
            <table class="scores" id="class-pairs">
                <caption>{"Per pair (its number in the instructor's treebank)"}</caption>
                {prf_head("pair")}
                <tbody>{ for t.pairs.iter().map(|p| html! { <tr><th scope="row">{p.number}</th>{prf_cells(&p.counts)}</tr> }) }</tbody>
            </table>
            })}
            {scroll("Class: the links most got wrong", html! {
            <table class="scores" id="class-hardest">
                <caption>{"The links most students got wrong or missed"}</caption>
                <thead><tr><th scope="col">{"pair"}</th><th scope="col">{"link"}</th><th scope="col">{"labels"}</th><th scope="col">{"how"}</th><th scope="col">{"students"}</th></tr></thead>
                <tbody>{ for t.hardest.iter().map(|h| html! {
                    <tr><td>{h.number}</td><td>{format!("{}-{}", h.source, h.target)}</td><td class="text">{h.labels.clone()}</td>
                        <td>{h.mark.name()}</td><td>{h.students}</td></tr>
                }) }</tbody>
            </table>
            })}
        </div>
    }
}

/// Checking a class's answers against the open exercise's key: the
/// answers files' input and the class table (not for a student copy).
fn grading(props: &ExerciseProps, e: &Exercise) -> Html {
    let view = &props.view;
    if e.key_withheld {
        return html! {
            <p class="hint" id="exercise-grading-note">{"A student copy is open: it has no key, so answers are checked against the exercise file with the key (open that one here, then its answers files)."}</p>
        };
    }
    let answered = !view.answers_slot.files.is_empty();
    html! {
        <details class="exercise-grading" id="exercise-grading" open={answered || view.class.is_some()}>
            <summary>{"Check a class's answers (instructor)"}</summary>
            <p class="hint">{"Drop the students' answers files here or on the Data panel (or pick them): each is checked against this exercise's key."}</p>
            {slot_row(Slot::Answers, &view.answers_slot, props.load)}
            if let Some(class) = &view.class {
                {class_table(class)}
            }
        </details>
    }
}

#[function_component(ExercisePanel)]
pub fn exercise_panel(props: &ExerciseProps) -> Html {
    let view = &props.view;
    html! {
        <section class="panel exercise" id="exercise-panel" aria-labelledby="exercise-heading">
            <h2 id="exercise-heading">{"Exercises"}</h2>
            <p class="hint">{"An instructor picks pairs and exports the exercise with its key, and a copy for the students without it; students open theirs here (or drop it on the Data panel, or open the page with ?exercise=FILE.json for a file beside it on the same site), align by hand and export their answers; the instructor opens the file with the key and drops all the answers files for the class table. The same files work with treelink exercise check on the command line."}</p>
            {slot_row(Slot::Exercise, &view.exercise_slot, props.load)}
            if let Some((file, e)) = &view.open {
                <p class="status" id="exercise-open">{format!("Open: '{}' ({file}), its pairs on the workbench, the exercise box beside them. ", e.title)}
                    <a href="#workbench">{"Go to the exercise"}</a></p>
                {grading(props, e)}
                <p class="hint">{"Leave the exercise (in its box) to make another from the pairs loaded before it."}</p>
            } else {
                {make_form(props)}
            }
        </section>
    }
}
