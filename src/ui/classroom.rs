//! The page's exercises: the instructor's form that exports an exercise from
//! the loaded pairs, the exercise a student has open (its key kept here, out
//! of the drawn corpus when it is hidden), the student's *Check* and answers
//! file, and the class table of many answers files.
//!
//! Plain data and a reducer, built and tested natively. The exercise and
//! answers files are read by the file worker (`ui::load`, slots
//! [`Slot::Exercise`](super::load::Slot) and `Answers`); marks, scores and
//! the class table are the engine's ([`crate::exercise`]), the same
//! functions `treelink exercise` runs.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::corpus::{Corpus, PairIndex};
use crate::exercise::{check_pair, Answers, ClassTable, Exercise, PairCheck};
use crate::tree::NodeId;

/// The instructor's form, as typed (kept for the next visit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExerciseForm {
    /// Pair numbers, e.g. `3, 1, 5` or `2-6` (ranges allowed).
    pub pairs: String,
    pub title: String,
    pub instructions: String,
    pub show_gold: bool,
}

impl Default for ExerciseForm {
    fn default() -> Self {
        ExerciseForm {
            pairs: String::new(),
            title: "Sub-tree alignment exercise".into(),
            instructions: "Link each source sub-tree to the target sub-tree that translates it.".into(),
            show_gold: false,
        }
    }
}

/// An exercise opened in the page.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenExercise {
    /// The file it came from.
    pub file: String,
    pub exercise: Rc<Exercise>,
}

/// Hand links of pairs, by pair (the page's, or one exercise's).
pub type HandLinks = BTreeMap<PairIndex, Vec<(NodeId, NodeId)>>;

/// Everything about exercises the page holds.
///
/// Kept for the next visit: the form, the student's name and the hand
/// links of exercises left (the open exercise comes back as a file).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Classroom {
    #[serde(rename = "exercise_form", default)]
    pub form: ExerciseForm,
    /// Why the form cannot make an exercise (shown next to it).
    #[serde(skip)]
    pub form_error: Option<String>,
    /// What the last export of the form made (shown next to its buttons).
    #[serde(skip)]
    pub exported: Option<String>,
    #[serde(skip)]
    pub open: Option<OpenExercise>,
    #[serde(default)]
    pub student: String,
    /// After *Check*: each exercise pair's marks and counts, in its order.
    #[serde(skip)]
    pub checks: Option<Rc<Vec<PairCheck>>>,
    /// The class table of the answers files dropped for the open exercise.
    #[serde(skip)]
    pub class: Option<Rc<ClassTable>>,
    /// The hand links of exercises left (by [`Exercise::fingerprint`]):
    /// opened again, an exercise gets them back.
    #[serde(rename = "exercise_links", with = "links_left", default)]
    pub left: BTreeMap<String, HandLinks>,
}

/// [`Classroom::left`] as a list of (fingerprint, [(pair, links)]).
mod links_left {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use super::HandLinks;
    use crate::corpus::PairIndex;
    use crate::tree::NodeId;

    type Listed = Vec<(String, Vec<(PairIndex, Vec<(NodeId, NodeId)>)>)>;

    pub fn serialize<S: Serializer>(left: &BTreeMap<String, HandLinks>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(left.iter().map(|(f, links)| (f, links.iter().collect::<Vec<_>>())))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, HandLinks>, D::Error> {
        let listed = Listed::deserialize(d)?;
        Ok(listed.into_iter().map(|(f, links)| (f, links.into_iter().collect())).collect())
    }
}

/// A JSON file to offer for download (the reducer turns it into its effect).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    pub name: String,
    pub json: String,
}

/// What the exercise panel asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseAction {
    SetPairs(String),
    SetTitle(String),
    SetInstructions(String),
    SetShowGold(bool),
    /// Export an exercise of the form's pairs of the loaded corpus, with its key.
    Export,
    /// Export the students' copy of that exercise, without the key
    /// ([`Exercise::student_copy`]).
    ExportStudentCopy,
    SetStudent(String),
    /// Mark the student's links of every pair against the key.
    Check,
    /// Download the student's answers file.
    ExportAnswers,
    /// Leave the exercise: what was loaded before it comes back (the
    /// root's part, `State::leave_exercise`); its hand links are kept for
    /// when it is opened again.
    Close,
}

/// Pair numbers from `text`: numbers and ranges `a-b`, separated by commas
/// or spaces, in the order written.
pub fn parse_pair_numbers(text: &str) -> Result<Vec<usize>, String> {
    let mut numbers = Vec::new();
    for part in text.split([',', ' ', ';']).map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            s.trim().parse::<usize>().map_err(|_| format!("expected pair numbers such as 3, 7, 10-12, found '{part}'"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b || b - a >= 10_000 {
                    return Err(format!("expected a range from a smaller to a larger pair number, found '{part}'"));
                }
                numbers.extend(a..=b);
            }
            None => numbers.push(number(part)?),
        }
    }
    Ok(numbers)
}

/// The file name of a download: the text's letters and digits, dashes for the rest.
fn file_stem(text: &str) -> String {
    let stem: String = text.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let stem = stem.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-");
    if stem.is_empty() {
        "exercise".into()
    } else {
        stem.chars().take(60).collect()
    }
}

impl Classroom {
    /// Applies `action`; `corpus` is the loaded pairs and `links` the
    /// student's hand links per pair (the teaching mode's).
    pub fn apply(
        &mut self,
        action: ExerciseAction,
        corpus: &Corpus,
        links: &BTreeMap<PairIndex, Vec<(NodeId, NodeId)>>,
    ) -> Option<Download> {
        match action {
            ExerciseAction::SetPairs(p) => {
                self.form.pairs = p;
                self.form_error = None;
            }
            ExerciseAction::SetTitle(t) => self.form.title = t,
            ExerciseAction::SetInstructions(t) => self.form.instructions = t,
            ExerciseAction::SetShowGold(b) => self.form.show_gold = b,
            ExerciseAction::Export | ExerciseAction::ExportStudentCopy => {
                let copy = action == ExerciseAction::ExportStudentCopy;
                let made = parse_pair_numbers(&self.form.pairs).and_then(|numbers| {
                    let f = &self.form;
                    Exercise::new(corpus, &numbers, &f.title, &f.instructions, f.show_gold).map_err(|e| e.to_string())
                });
                match made {
                    Ok(keyed) => {
                        self.form_error = None;
                        let stem = file_stem(&keyed.title);
                        let numbers: Vec<String> = keyed.pairs.iter().map(|p| p.number.to_string()).collect();
                        let (name, exercise, what) = if copy {
                            let what = format!(
                                "answers to it are checked against {stem}.exercise.json, the file with the key"
                            );
                            (format!("{stem}.student.exercise.json"), keyed.student_copy(), what)
                        } else {
                            let what = if keyed.show_gold {
                                "the students see the key while they align".to_string()
                            } else {
                                "keep it to check the class's answers, or hand it out for the students to check themselves".to_string()
                            };
                            (format!("{stem}.exercise.json"), keyed, what)
                        };
                        self.exported = Some(format!(
                            "Downloaded {name}: {} (pairs {}); {what}.",
                            exercise.summary(),
                            numbers.join(", ")
                        ));
                        return Some(Download { name, json: exercise.to_json() });
                    }
                    Err(e) => {
                        self.form_error = Some(e);
                        self.exported = None;
                    }
                }
            }
            ExerciseAction::SetStudent(s) => self.student = s,
            ExerciseAction::Check => {
                // A student copy has no key to check against.
                if let Some(open) = self.open.as_ref().filter(|o| !o.exercise.key_withheld) {
                    let checks = open
                        .exercise
                        .pairs
                        .iter()
                        .zip(PairIndex::all(open.exercise.pairs.len()))
                        .map(|(p, k)| check_pair(&p.pair, links.get(&k).map_or(&[][..], |l| l)))
                        .collect();
                    self.checks = Some(Rc::new(checks));
                }
            }
            ExerciseAction::ExportAnswers => {
                if let Some(open) = &self.open {
                    let per_pair: Vec<Vec<(NodeId, NodeId)>> = PairIndex::all(open.exercise.pairs.len())
                        .map(|k| links.get(&k).cloned().unwrap_or_default())
                        .collect();
                    let student = if self.student.trim().is_empty() { "student" } else { self.student.trim() };
                    let answers = Answers::new(&open.exercise, student, &per_pair);
                    let name = format!("{}.{}.answers.json", file_stem(&open.exercise.title), file_stem(student));
                    return Some(Download { name, json: answers.to_json() });
                }
            }
            ExerciseAction::Close => {
                if let Some(open) = self.open.take() {
                    self.left.insert(open.exercise.fingerprint(), links.clone());
                }
                self.checks = None;
                self.class = None;
            }
        }
        None
    }

    /// Appends pair `numbers` (1-based, e.g. a search's pairs) to the
    /// form's pairs, each once: those the form already lists are skipped,
    /// and what was typed stays as typed. How many were added.
    pub fn add_pairs(&mut self, numbers: impl IntoIterator<Item = usize>) -> Result<usize, String> {
        // What was typed does not read: it stays as typed, with why, and nothing is added to it.
        let listed = parse_pair_numbers(&self.form.pairs).inspect_err(|e| self.form_error = Some(e.clone()))?;
        let mut listed: BTreeSet<usize> = listed.into_iter().collect();
        let new: Vec<String> = numbers.into_iter().filter(|&n| listed.insert(n)).map(|n| n.to_string()).collect();
        if !new.is_empty() {
            let typed = self.form.pairs.trim_end_matches([',', ' ', ';']);
            let sep = if typed.is_empty() { "" } else { ", " };
            self.form.pairs = format!("{typed}{sep}{}", new.join(", "));
            self.form_error = None;
        }
        Ok(new.len())
    }

    /// What a session keeps of it (the fields it serialises), the rest as new.
    pub fn kept(&self) -> Classroom {
        Classroom {
            form: self.form.clone(),
            student: self.student.clone(),
            left: self.left.clone(),
            ..Classroom::default()
        }
    }

    /// An exercise was opened, `links` being the hand links of the one
    /// open before (kept for it): what was checked or tabled for another
    /// one goes; the hand links it had when it was left come back.
    pub fn opened(&mut self, file: String, exercise: Exercise, links: &HandLinks) -> HandLinks {
        if let Some(before) = self.open.take() {
            self.left.insert(before.exercise.fingerprint(), links.clone());
        }
        let back = self.left.remove(&exercise.fingerprint()).unwrap_or_default();
        self.open = Some(OpenExercise { file, exercise: Rc::new(exercise) });
        self.checks = None;
        self.class = None;
        back
    }

    /// Whether a student copy (without the key) is open: nothing to check
    /// the links against, no class table.
    pub fn key_withheld(&self) -> bool {
        self.open.as_ref().is_some_and(|o| o.exercise.key_withheld)
    }

    /// The student changed a link: an earlier check no longer says what is drawn.
    pub fn links_changed(&mut self) {
        self.checks = None;
    }

    /// The exercise's pair number (in the instructor's treebank) of loaded pair `k`.
    pub fn number_of(&self, k: PairIndex) -> Option<usize> {
        self.open.as_ref()?.exercise.pairs.get(k.index()).map(|p| p.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::Mark;
    use crate::ui::load::sample;

    fn downloaded(d: Option<Download>) -> (String, String) {
        let d = d.expect("a download");
        (d.name, d.json)
    }

    #[test]
    fn pair_numbers_read_lists_and_ranges() {
        assert_eq!(parse_pair_numbers("3, 1 5-7;2").unwrap(), vec![3, 1, 5, 6, 7, 2]);
        assert_eq!(parse_pair_numbers("").unwrap(), Vec::<usize>::new());
        assert!(parse_pair_numbers("3, x").unwrap_err().contains("found 'x'"));
        assert!(parse_pair_numbers("7-5").unwrap_err().contains("'7-5'"));
    }

    #[test]
    fn found_pairs_are_added_to_the_form_once() {
        let mut c = Classroom::default();
        assert_eq!(c.add_pairs([7, 3, 7]), Ok(2));
        assert_eq!(c.form.pairs, "7, 3");
        c.form.pairs = "1, 2-4, ".into();
        c.form_error = Some("old".into());
        assert_eq!(c.add_pairs([3, 5, 1, 6]), Ok(2));
        assert_eq!(c.form.pairs, "1, 2-4, 5, 6");
        assert!(c.form_error.is_none());
        assert_eq!(c.add_pairs([5]), Ok(0));
        assert_eq!(c.form.pairs, "1, 2-4, 5, 6");
        assert_eq!(parse_pair_numbers(&c.form.pairs).unwrap(), vec![1, 2, 3, 4, 5, 6]);
        // A typo stays, with its error, and nothing is appended to it.
        c.form.pairs = "1, x".into();
        let e = "expected pair numbers such as 3, 7, 10-12, found 'x'".to_string();
        assert_eq!(c.add_pairs([9]), Err(e.clone()));
        assert_eq!(c.form.pairs, "1, x");
        assert_eq!(c.form_error, Some(e));
    }

    #[test]
    fn the_instructor_exports_what_the_engine_makes() {
        let corpus = sample();
        let mut c = Classroom::default();
        let none = BTreeMap::new();
        c.apply(ExerciseAction::SetPairs("2, 200".into()), &corpus, &none);
        assert!(c.apply(ExerciseAction::Export, &corpus, &none).is_none());
        assert_eq!(c.form_error.as_deref(), Some("pair 200 does not exist: the treebank has pairs 1 to 157"));
        c.apply(ExerciseAction::SetPairs("4, 2".into()), &corpus, &none);
        c.apply(ExerciseAction::SetTitle("Woche 3: NPs".into()), &corpus, &none);
        c.apply(ExerciseAction::SetShowGold(true), &corpus, &none);
        let (name, text) = downloaded(c.apply(ExerciseAction::Export, &corpus, &none));
        assert_eq!(name, "woche-3-nps.exercise.json");
        assert!(c.form_error.is_none());
        let f = &c.form;
        let expected = Exercise::new(&corpus, &[4, 2], &f.title, &f.instructions, true).unwrap();
        assert_eq!(text, expected.to_json());
    }

    #[test]
    fn a_student_checks_and_exports_answers() {
        let corpus = sample();
        let exercise = Exercise::new(&corpus, &[3, 1], "Week 3", "", false).unwrap();
        let mut c = Classroom::default();
        assert!(c.opened("week3.json".into(), exercise.clone(), &BTreeMap::new()).is_empty());
        assert_eq!(
            (c.number_of(PairIndex::new(0)), c.number_of(PairIndex::new(1)), c.number_of(PairIndex::new(2))),
            (Some(3), Some(1), None)
        );
        // Pair 3's first key link, and a wrong one; nothing on pair 1.
        let key = exercise.pairs[0].pair.gold[0];
        let mut links = BTreeMap::new();
        links.insert(PairIndex::new(0), vec![(key.source, key.target), (NodeId::new(0), NodeId::new(1))]);
        c.apply(ExerciseAction::Check, &exercise.corpus(), &links);
        let checks = c.checks.clone().unwrap();
        assert_eq!(checks.len(), 2);
        assert_eq!(checks[0].marks[0], (key.source, key.target, Mark::Correct));
        assert_eq!(checks[0], check_pair(&exercise.pairs[0].pair, &links[&PairIndex::FIRST]));
        assert_eq!(checks[1].counts.correct, 0);
        assert_eq!(checks[1].counts.gold, exercise.pairs[1].pair.gold.len());
        c.links_changed();
        assert!(c.checks.is_none());
        c.apply(ExerciseAction::SetStudent("Ana María".into()), &exercise.corpus(), &links);
        let (name, text) = downloaded(c.apply(ExerciseAction::ExportAnswers, &exercise.corpus(), &links));
        assert_eq!(name, "week-3.ana-maría.answers.json");
        let answers = Answers::from_json(&text, &name, &exercise, "week3.json").unwrap();
        assert_eq!(answers.student, "Ana María");
        assert_eq!(answers.pairs[0].links.len(), 2);
        assert!(answers.pairs[1].links.is_empty());
        c.apply(ExerciseAction::Close, &exercise.corpus(), &links);
        assert!(c.open.is_none() && c.checks.is_none());
        assert!(c.apply(ExerciseAction::ExportAnswers, &exercise.corpus(), &links).is_none());
        // Opened again, the exercise gets back the links it had when it was left.
        assert_eq!(c.opened("week3.json".into(), exercise.clone(), &BTreeMap::new()), links);
        // Its student copy: the same pairs, no check (no key), answers as on the keyed file.
        let copy = exercise.student_copy();
        c.opened("copy.json".into(), copy.clone(), &links);
        assert!(c.key_withheld());
        c.apply(ExerciseAction::Check, &copy.corpus(), &links);
        assert!(c.checks.is_none(), "nothing to check against");
        assert_eq!(c.opened("week3.json".into(), exercise, &BTreeMap::new()), BTreeMap::new(), "the same pairs");
    }

    #[test]
    fn the_instructor_exports_a_student_copy_and_each_export_says_what_it_made() {
        let corpus = sample();
        let mut c = Classroom::default();
        let none = BTreeMap::new();
        c.apply(ExerciseAction::Export, &corpus, &none);
        assert_eq!(
            c.form_error.as_deref(),
            Some("an exercise needs at least one pair: give pair numbers from 1 to 157")
        );
        assert_eq!(c.exported, None);
        c.apply(ExerciseAction::SetPairs("4, 2".into()), &corpus, &none);
        c.apply(ExerciseAction::SetTitle("Week 4".into()), &corpus, &none);
        let (name, text) = downloaded(c.apply(ExerciseAction::ExportStudentCopy, &corpus, &none));
        assert_eq!(name, "week-4.student.exercise.json");
        let keyed = Exercise::new(&corpus, &[4, 2], "Week 4", &c.form.instructions, false).unwrap();
        assert_eq!(text, keyed.student_copy().to_json());
        assert_eq!(
            c.exported.as_deref(),
            Some("Downloaded week-4.student.exercise.json: 'Week 4', 2 pairs, a student copy without the key (pairs 4, 2); answers to it are checked against week-4.exercise.json, the file with the key.")
        );
        let (name, _) = downloaded(c.apply(ExerciseAction::Export, &corpus, &none));
        let said = c.exported.clone().unwrap();
        assert!(
            said.starts_with(&format!(
                "Downloaded {name}: 'Week 4', 2 pairs, key of {} links (hidden) (pairs 4, 2); keep it",
                keyed.key_links()
            )),
            "{said}"
        );
    }
}
