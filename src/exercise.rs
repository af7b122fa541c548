//! Alignment exercises for the classroom: an instructor picks pairs of a
//! gold-aligned treebank, writes instructions and hands out one versioned
//! file ([`Exercise`]); each student aligns the pairs by hand (the page's
//! teaching mode, with the paper's three well-formedness criteria, §4.2) and
//! hands back an answers file ([`Answers`]); [`check_pair`] marks each link
//! correct, wrong or missed against the key, and [`ClassTable`] sums a class.
//!
//! Scores are the paper's precision, recall and F (§6) through
//! [`Counts::of_pair`], the function `treelink eval` uses, with the key as
//! gold: only links between two phrase nodes count, so a link a student draws
//! between POS nodes is shown as [`Mark::Unscored`], never as wrong.
//!
//! An exercise file comes in two kinds. The instructor's file carries the
//! key (the page and `treelink exercise check` need it offline); handed to
//! students it is a self-check file: the page hides the key unless the
//! instructor chose to show gold, and *Check* marks their links, but anyone
//! who opens the JSON can read it. A student copy
//! ([`Exercise::student_copy`]) withholds the key: the same pairs and texts,
//! no key link, no count of them; answers to it carry the same fingerprint,
//! so the instructor checks them against the file with the key.
//!
//! Answers name their exercise by a fingerprint of its pairs (numbers and
//! trees, not the key), so answers to another exercise, or to an edited copy,
//! are refused rather than scored against the wrong trees; a corrected key
//! keeps the students' answers valid.

use std::collections::BTreeMap;
use std::fmt;
use std::hash::Hasher;

use serde::{Deserialize, Serialize};

use crate::corpus::{Corpus, TreePair};
use crate::eval::prf::Counts;
use crate::hash::Fnv;
use crate::io::json::{from_json, JsonError};
use crate::io::links::{format_link_line, parse_links_located, Link};
use crate::io::text::end_position;
use crate::tree::{NodeId, Tree};

/// The exercise file's format name.
pub const FORMAT: &str = "treelink-exercise";
/// The answers file's format name.
pub const ANSWERS_FORMAT: &str = "treelink-exercise-answers";
/// The version of both files.
pub const VERSION: u32 = 1;

/// One pair of an exercise: its number in the instructor's treebank
/// (1-based, as the page shows it), both trees and the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawPair", into = "RawPair")]
pub struct ExercisePair {
    pub number: usize,
    pub pair: TreePair,
}

/// An exercise as it is stored: trees bracketed, links in the gold format
/// (`2-3 5-7?`), checked against each other when read. A student copy's
/// pairs have no `key` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPair {
    number: usize,
    source: String,
    target: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<String>,
}

impl TryFrom<RawPair> for ExercisePair {
    type Error = String;
    fn try_from(raw: RawPair) -> Result<Self, String> {
        let (source, target) = trees(&raw.source, &raw.target)?;
        let gold = links_within(raw.key.as_deref().unwrap_or_default(), "key", &source, &target)?;
        Ok(ExercisePair { number: raw.number, pair: TreePair { source, target, gold } })
    }
}

impl From<ExercisePair> for RawPair {
    fn from(p: ExercisePair) -> RawPair {
        RawPair {
            number: p.number,
            source: p.pair.source.to_bracketed(),
            target: p.pair.target.to_bracketed(),
            key: Some(format_link_line(&p.pair.gold)),
        }
    }
}

/// A pair of a student copy as it is written: no key.
fn without_key(p: &ExercisePair) -> RawPair {
    RawPair { key: None, ..RawPair::from(p.clone()) }
}

/// Reads both trees of a pair from their bracketed strings.
fn trees(source: &str, target: &str) -> Result<(Tree, Tree), String> {
    let one = |text: &str, side: &str| {
        Tree::parse_one(text, "").map_err(|e| {
            format!("the {side} is not one bracketed tree: at {}:{} of the string: {}", e.line, e.column, e.kind)
        })
    };
    Ok((one(source, "source")?, one(target, "target")?))
}

/// Reads one line of links (`field` names it in errors) and checks every node
/// number against the trees.
fn links_within(line: &str, field: &str, source: &Tree, target: &Tree) -> Result<Vec<Link>, String> {
    if line.contains('\n') {
        return Err(format!("the {field} must be one line of links, found a line break"));
    }
    let parsed = parse_links_located(line, "").map_err(|e| {
        format!(
            "the {field} is not a line of links: at column {} of the string: expected 'i-j' or 'i-j?', found '{}'",
            e.column, e.found
        )
    })?;
    let mut links = Vec::new();
    for (link, column) in parsed.into_iter().flatten() {
        for (side, tree, node) in [("source", source, link.source), ("target", target, link.target)] {
            if !tree.contains(node) {
                return Err(format!(
                    "link {link} of the {field} (column {column} of the string) names {side} node {node}, \
                     but the {side} tree has only {} nodes (numbered 0 to {})",
                    tree.len(),
                    tree.len().saturating_sub(1)
                ));
            }
        }
        if !links.iter().any(|l: &Link| (l.source, l.target) == (link.source, link.target)) {
            links.push(link);
        }
    }
    Ok(links)
}

/// An exercise file: what the instructor hands out.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    pub format: String,
    pub version: u32,
    pub title: String,
    /// Free text for the students, shown above the first pair (plain text).
    pub instructions: String,
    /// Whether the page shows the key's links while the student aligns.
    pub show_gold: bool,
    /// A student copy: the file holds no key (each pair's `gold` is
    /// empty); answers to it are checked against the instructor's file.
    #[serde(default)]
    pub key_withheld: bool,
    #[serde(deserialize_with = "some_pairs")]
    pub pairs: Vec<ExercisePair>,
}

/// Written by hand so that a student copy's pairs carry no `key` field and
/// the instructor's file is written as before (no `key_withheld` field).
impl Serialize for Exercise {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut file = s.serialize_struct("Exercise", 6 + usize::from(self.key_withheld))?;
        file.serialize_field("format", &self.format)?;
        file.serialize_field("version", &self.version)?;
        file.serialize_field("title", &self.title)?;
        file.serialize_field("instructions", &self.instructions)?;
        file.serialize_field("show_gold", &self.show_gold)?;
        if self.key_withheld {
            file.serialize_field("key_withheld", &true)?;
            file.serialize_field("pairs", &self.pairs.iter().map(without_key).collect::<Vec<_>>())?;
        } else {
            file.serialize_field("pairs", &self.pairs)?;
        }
        file.end()
    }
}

/// An exercise's pairs: at least one, as [`Exercise::new`] makes them.
fn some_pairs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<ExercisePair>, D::Error> {
    let pairs = Vec::<ExercisePair>::deserialize(d)?;
    if pairs.is_empty() {
        return Err(serde::de::Error::custom("expected at least one pair, found none"));
    }
    Ok(pairs)
}

/// Why an exercise or answers file cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExerciseError {
    #[error(transparent)]
    Json(#[from] JsonError),
    #[error("{file}:1:1: expected a {what} (\"format\": \"{format}\", \"version\": {VERSION}), found \"format\": {found_format}, \"version\": {found_version}")]
    Format { file: String, what: &'static str, format: &'static str, found_format: String, found_version: String },
    #[error("{file}:{line}:{column}: expected each pair number once, found pair {number} twice")]
    Duplicate { file: String, line: usize, column: usize, number: usize },
    #[error(transparent)]
    OtherExercise(Box<OtherExercise>),
    #[error("an exercise needs at least one pair: give pair numbers from 1 to {pairs}{}", found_numbers(found))]
    NoPair { pairs: usize, found: Vec<usize> },
    #[error("pair {number} does not exist: the treebank has pairs 1 to {pairs}")]
    PairOutOfRange { number: usize, pairs: usize },
    #[error("{file}:{line}:{column}: a student copy withholds the key, found key links at pair {number}")]
    KeyInStudentCopy { file: String, line: usize, column: usize, number: usize },
    #[error("{exercise} is a student copy without the key: check {answers} against the instructor's exercise file, the one with the key")]
    NoKey { exercise: String, answers: String },
}

/// What [`ExerciseError::NoPair`] says was given: nothing, or the numbers.
fn found_numbers(found: &[usize]) -> String {
    if found.is_empty() {
        String::new()
    } else {
        format!(", found {}", found.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))
    }
}

/// Answers to another exercise than the one they are checked against (or an
/// edited copy of it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: expected answers to the exercise '{expected_title}' of {exercise} (fingerprint {expected}), found answers to '{found_title}' (fingerprint {found})")]
pub struct OtherExercise {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub exercise: String,
    pub expected: String,
    pub expected_title: String,
    pub found: String,
    pub found_title: String,
}

impl Exercise {
    /// An exercise over the pairs numbered `numbers` (1-based) of `corpus`,
    /// their gold links as the key, in the order given (repeats dropped).
    pub fn new(
        corpus: &Corpus,
        numbers: &[usize],
        title: &str,
        instructions: &str,
        show_gold: bool,
    ) -> Result<Exercise, ExerciseError> {
        let mut pairs: Vec<ExercisePair> = Vec::new();
        for &number in numbers {
            let pair = number
                .checked_sub(1)
                .and_then(|k| corpus.pairs.get(k))
                .ok_or(ExerciseError::PairOutOfRange { number, pairs: corpus.len() })?;
            if !pairs.iter().any(|p| p.number == number) {
                pairs.push(ExercisePair { number, pair: pair.clone() });
            }
        }
        if pairs.is_empty() {
            return Err(ExerciseError::NoPair { pairs: corpus.len(), found: numbers.to_vec() });
        }
        Ok(Exercise {
            format: FORMAT.into(),
            version: VERSION,
            title: title.into(),
            instructions: instructions.into(),
            show_gold,
            key_withheld: false,
            pairs,
        })
    }

    /// The student copy of this exercise: the same pairs (numbers and
    /// trees), title and instructions, without the key: no key link, no
    /// count of them, nothing to show. A function of the pairs and texts
    /// alone (two exercises that differ only in their keys have the same
    /// copy), with the same [`Exercise::fingerprint`], so answers to it are
    /// checked against this exercise.
    pub fn student_copy(&self) -> Exercise {
        let pairs = self
            .pairs
            .iter()
            .map(|p| ExercisePair { number: p.number, pair: TreePair { gold: Vec::new(), ..p.pair.clone() } })
            .collect();
        Exercise { show_gold: false, key_withheld: true, pairs, ..self.clone() }
    }

    /// The key's links over all pairs (none in a student copy).
    pub fn key_links(&self) -> usize {
        self.pairs.iter().map(|p| p.pair.gold.len()).sum()
    }

    /// What the file is, in a line: its title and pairs, and its key (shown,
    /// hidden, or withheld from a student copy), e.g. `'Week 3', 3 pairs,
    /// key of 27 links (hidden)`.
    pub fn summary(&self) -> String {
        let pairs = crate::io::text::counted(self.pairs.len(), "pairs");
        if self.key_withheld {
            return format!("'{}', {} {pairs}, a student copy without the key", self.title, self.pairs.len());
        }
        let links = crate::io::text::counted(self.key_links(), "links");
        let shown = if self.show_gold { "shown" } else { "hidden" };
        format!("'{}', {} {pairs}, key of {} {links} ({shown})", self.title, self.pairs.len(), self.key_links())
    }

    /// Reads an exercise file; errors name `file`, line, column and JSON path.
    pub fn from_json(text: &str, file: &str) -> Result<Exercise, ExerciseError> {
        check_header(text, file, "treelink exercise", FORMAT)?;
        let exercise: Exercise = from_json(text, file, "a treelink exercise")?;
        if let Some(number) = first_repeat(exercise.pairs.iter().map(|p| p.number)) {
            let (line, column) = position_of_number(text, number, 1);
            return Err(ExerciseError::Duplicate { file: file.into(), line, column, number });
        }
        if let Some(p) = exercise.pairs.iter().find(|p| exercise.key_withheld && !p.pair.gold.is_empty()) {
            let (line, column) = position_of_number(text, p.number, 0);
            return Err(ExerciseError::KeyInStudentCopy { file: file.into(), line, column, number: p.number });
        }
        Ok(exercise)
    }

    /// The file's text: pretty JSON, one field per line, so it diffs well.
    pub fn to_json(&self) -> String {
        // Plain data of strings and numbers: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The fingerprint answers carry: FNV-1a over the pair numbers and both
    /// trees in bracketed form (not the key, not the texts), 16 hex digits.
    pub fn fingerprint(&self) -> String {
        fingerprint(self.pairs.iter().map(|p| (p.number, &p.pair.source, &p.pair.target)))
    }

    /// The pairs as a treebank whose gold links are the key (what the page
    /// loads for the student).
    pub fn corpus(&self) -> Corpus {
        Corpus { pairs: self.pairs.iter().map(|p| p.pair.clone()).collect() }
    }
}

/// The file's `format` and `version` before anything else, so a file of
/// another kind is named as such rather than by its first unknown field. A
/// file that is not JSON at all passes here and gets the located syntax error.
fn check_header(text: &str, file: &str, what: &'static str, format: &'static str) -> Result<(), ExerciseError> {
    #[derive(Deserialize)]
    struct Header {
        format: Option<serde_json::Value>,
        version: Option<serde_json::Value>,
    }
    let Ok(header) = serde_json::from_str::<Header>(text) else { return Ok(()) };
    if header.format.as_ref().and_then(|f| f.as_str()) == Some(format)
        && header.version.as_ref().and_then(|v| v.as_u64()) == Some(u64::from(VERSION))
    {
        return Ok(());
    }
    let show = |v: Option<serde_json::Value>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
    Err(ExerciseError::Format {
        file: file.into(),
        what,
        format,
        found_format: show(header.format),
        found_version: show(header.version),
    })
}

fn fingerprint<'a>(pairs: impl Iterator<Item = (usize, &'a Tree, &'a Tree)>) -> String {
    let mut h = Fnv::default();
    for (number, source, target) in pairs {
        h.write(number.to_string().as_bytes());
        h.write(b"\t");
        h.write(source.to_bracketed().as_bytes());
        h.write(b"\t");
        h.write(target.to_bracketed().as_bytes());
        h.write(b"\n");
    }
    format!("{:016x}", h.finish())
}

fn first_repeat(numbers: impl Iterator<Item = usize>) -> Option<usize> {
    let mut seen = std::collections::BTreeSet::new();
    numbers.into_iter().find(|&n| !seen.insert(n))
}

/// Where `"number": n` occurs for the `nth` time (from 0) in `text` (the
/// second for the error of a repeated pair); the top of the file when it
/// cannot be found.
fn position_of_number(text: &str, number: usize, nth: usize) -> (usize, usize) {
    let needle = format!("\"number\": {number}");
    let compact = format!("\"number\":{number}");
    let mut found = text.match_indices(&needle).chain(text.match_indices(&compact)).map(|(i, _)| i).collect::<Vec<_>>();
    found.sort_unstable();
    found.get(nth).map_or((1, 1), |&i| end_position(&text[..i]))
}

/// One pair's answer: the links the student drew.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawAnswer", into = "RawAnswer")]
pub struct Answer {
    pub number: usize,
    pub source: Tree,
    pub target: Tree,
    pub links: Vec<Link>,
}

/// An answer as stored: it carries its pair's trees, so node numbers are
/// checked when it is read, before any exercise is at hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnswer {
    number: usize,
    source: String,
    target: String,
    #[serde(default)]
    links: String,
}

impl TryFrom<RawAnswer> for Answer {
    type Error = String;
    fn try_from(raw: RawAnswer) -> Result<Self, String> {
        let (source, target) = trees(&raw.source, &raw.target)?;
        let links = links_within(&raw.links, "answer", &source, &target)?;
        Ok(Answer { number: raw.number, source, target, links })
    }
}

impl From<Answer> for RawAnswer {
    fn from(a: Answer) -> RawAnswer {
        RawAnswer {
            number: a.number,
            source: a.source.to_bracketed(),
            target: a.target.to_bracketed(),
            links: format_link_line(&a.links),
        }
    }
}

/// An answers file: what a student hands back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answers {
    pub format: String,
    pub version: u32,
    /// The exercise's [`Exercise::fingerprint`].
    pub exercise: String,
    /// The exercise's title (to name it in errors).
    pub title: String,
    pub student: String,
    /// One answer per pair of the exercise, in its order.
    pub pairs: Vec<Answer>,
}

impl Answers {
    /// The answers to `exercise` given by `links`, one list per exercise
    /// pair (a missing list is an empty answer). Links are kept once each,
    /// as good links.
    pub fn new(exercise: &Exercise, student: &str, links: &[Vec<(NodeId, NodeId)>]) -> Answers {
        let pairs = exercise
            .pairs
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut drawn: Vec<Link> = Vec::new();
                for &(s, t) in links.get(k).map_or(&[][..], |l| &l[..]) {
                    if p.pair.source.contains(s)
                        && p.pair.target.contains(t)
                        && !drawn.iter().any(|l| (l.source, l.target) == (s, t))
                    {
                        drawn.push(Link::good(s, t));
                    }
                }
                Answer { number: p.number, source: p.pair.source.clone(), target: p.pair.target.clone(), links: drawn }
            })
            .collect();
        Answers {
            format: ANSWERS_FORMAT.into(),
            version: VERSION,
            exercise: exercise.fingerprint(),
            title: exercise.title.clone(),
            student: student.into(),
            pairs,
        }
    }

    /// Reads an answers file and checks it belongs to `exercise`
    /// (`exercise_file` names it in errors), which must hold the key: a
    /// student copy cannot check answers.
    pub fn from_json(
        text: &str,
        file: &str,
        exercise: &Exercise,
        exercise_file: &str,
    ) -> Result<Answers, ExerciseError> {
        if exercise.key_withheld {
            return Err(ExerciseError::NoKey { exercise: exercise_file.into(), answers: file.into() });
        }
        check_header(text, file, "treelink exercise answers file", ANSWERS_FORMAT)?;
        let answers: Answers = from_json(text, file, "treelink exercise answers")?;
        let own = fingerprint(answers.pairs.iter().map(|a| (a.number, &a.source, &a.target)));
        let expected = exercise.fingerprint();
        if answers.exercise != expected || own != expected {
            let (line, column) = text.find("\"exercise\"").map_or((1, 1), |i| end_position(&text[..i]));
            return Err(ExerciseError::OtherExercise(Box::new(OtherExercise {
                file: file.into(),
                line,
                column,
                exercise: exercise_file.into(),
                expected,
                expected_title: exercise.title.clone(),
                // An edited copy keeps the field but not the trees: name what the trees say.
                found: if answers.exercise != own {
                    format!("{} in the file, {own} by its trees", answers.exercise)
                } else {
                    own
                },
                found_title: answers.title,
            })));
        }
        Ok(answers)
    }

    /// The file's text (pretty JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// How a link fares against the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Mark {
    /// Drawn, and in the key (good or fuzzy).
    Correct,
    /// Drawn between two phrase nodes, not in the key.
    Wrong,
    /// In the key, not drawn.
    Missed,
    /// Drawn with a POS node on one side: the key links phrases only (§6), so
    /// it is neither counted nor wrong.
    Unscored,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Correct => "correct",
            Mark::Wrong => "wrong",
            Mark::Missed => "missed",
            Mark::Unscored => "unscored",
        }
    }
}

/// One pair checked: every drawn link and every key link with its mark, and
/// the P/R/F counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairCheck {
    /// `(source node, target node, mark)`: drawn links in the order given,
    /// then missed key links in key order.
    pub marks: Vec<(NodeId, NodeId, Mark)>,
    pub counts: Counts,
}

/// Marks `drawn` against the key (`pair.gold`) and counts it as `treelink
/// eval` does.
pub fn check_pair(pair: &TreePair, drawn: &[(NodeId, NodeId)]) -> PairCheck {
    let phrase = |s: NodeId, t: NodeId| {
        pair.source.contains(s) && pair.target.contains(t) && pair.source.is_phrase(s) && pair.target.is_phrase(t)
    };
    let in_key = |s: NodeId, t: NodeId| pair.gold.iter().any(|l| (l.source, l.target) == (s, t));
    let mut marks = Vec::new();
    let mut seen: Vec<(NodeId, NodeId)> = Vec::new();
    for &(s, t) in drawn {
        if seen.contains(&(s, t)) {
            continue;
        }
        seen.push((s, t));
        let mark = if in_key(s, t) {
            Mark::Correct
        } else if phrase(s, t) {
            Mark::Wrong
        } else {
            Mark::Unscored
        };
        marks.push((s, t, mark));
    }
    for l in &pair.gold {
        if !seen.contains(&(l.source, l.target)) && phrase(l.source, l.target) {
            marks.push((l.source, l.target, Mark::Missed));
        }
    }
    let links: Vec<Link> = seen.iter().map(|&(s, t)| Link::good(s, t)).collect();
    PairCheck { marks, counts: Counts::of_pair(pair, &links) }
}

/// One student's row of the class table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudentRow {
    pub student: String,
    /// The answers file it came from.
    pub file: String,
    /// Micro-averaged over the exercise's pairs.
    pub counts: Counts,
}

/// One pair's row: micro-averaged over the students.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    pub number: usize,
    pub counts: Counts,
}

/// A key link many students missed, or a link many drew that is not in the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HardLink {
    pub number: usize,
    pub source: NodeId,
    pub target: NodeId,
    /// `Missed` or `Wrong`.
    pub mark: Mark,
    /// Labels of both nodes, e.g. `NP ↔ sn` (text, never markup).
    pub labels: String,
    /// How many students.
    pub students: usize,
}

/// The class table of an exercise: P/R/F per student and per pair, and the
/// links most students got wrong or missed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassTable {
    pub title: String,
    pub students: Vec<StudentRow>,
    pub pairs: Vec<PairRow>,
    /// At most ten, by decreasing number of students, then pair, mark,
    /// source, target.
    pub hardest: Vec<HardLink>,
    /// Everyone's links together.
    pub total: Counts,
}

impl ClassTable {
    /// Checks each student's answers (with the file each came from) against
    /// the key.
    pub fn new(exercise: &Exercise, answers: &[(String, Answers)]) -> ClassTable {
        let mut students = Vec::new();
        let mut per_pair = vec![Counts::default(); exercise.pairs.len()];
        let mut hard: BTreeMap<(usize, Mark, NodeId, NodeId), usize> = BTreeMap::new();
        for (file, a) in answers {
            let mut counts = Counts::default();
            for (k, p) in exercise.pairs.iter().enumerate() {
                let drawn: Vec<(NodeId, NodeId)> = a
                    .pairs
                    .iter()
                    .find(|x| x.number == p.number)
                    .map(|x| x.links.iter().map(|l| (l.source, l.target)).collect())
                    .unwrap_or_default();
                let check = check_pair(&p.pair, &drawn);
                counts = counts + check.counts;
                per_pair[k] = per_pair[k] + check.counts;
                for (s, t, mark) in check.marks {
                    if matches!(mark, Mark::Missed | Mark::Wrong) {
                        *hard.entry((k, mark, s, t)).or_default() += 1;
                    }
                }
            }
            students.push(StudentRow { student: a.student.clone(), file: file.clone(), counts });
        }
        let mut hardest: Vec<HardLink> = hard
            .into_iter()
            .map(|((k, mark, s, t), n)| {
                let p = &exercise.pairs[k];
                HardLink {
                    number: p.number,
                    source: s,
                    target: t,
                    mark,
                    labels: format!("{} ↔ {}", p.pair.source.label(s), p.pair.target.label(t)),
                    students: n,
                }
            })
            .collect();
        // Stable: ties stay in pair, mark, node order.
        hardest.sort_by_key(|h| std::cmp::Reverse(h.students));
        hardest.truncate(10);
        let total = students.iter().map(|s| s.counts).sum();
        let pairs =
            exercise.pairs.iter().zip(per_pair).map(|(p, counts)| PairRow { number: p.number, counts }).collect();
        ClassTable { title: exercise.title.clone(), students, pairs, hardest, total }
    }
}

impl fmt::Display for ClassTable {
    /// Tab-separated tables, as `treelink exercise check` prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prf = |c: &Counts| {
            format!("{:.2}\t{:.2}\t{:.2}\t{}\t{}\t{}", c.precision(), c.recall(), c.f(), c.correct, c.predicted, c.gold)
        };
        writeln!(f, "# exercise: {}", one_cell(&self.title))?;
        writeln!(f, "# students")?;
        writeln!(f, "student\tfile\tP\tR\tF\tcorrect\tdrawn\tkey")?;
        for s in &self.students {
            writeln!(f, "{}\t{}\t{}", one_cell(&s.student), one_cell(&s.file), prf(&s.counts))?;
        }
        writeln!(f, "all\t-\t{}", prf(&self.total))?;
        writeln!(f, "# pairs")?;
        writeln!(f, "pair\tP\tR\tF\tcorrect\tdrawn\tkey")?;
        for p in &self.pairs {
            writeln!(f, "{}\t{}", p.number, prf(&p.counts))?;
        }
        writeln!(f, "# links most students got wrong or missed")?;
        writeln!(f, "pair\tlink\tlabels\tmark\tstudents")?;
        for h in &self.hardest {
            writeln!(f, "{}\t{}-{}\t{}\t{}\t{}", h.number, h.source, h.target, h.labels, h.mark.name(), h.students)?;
        }
        Ok(())
    }
}

/// Text for one cell of a tab-separated table: tabs and line breaks as spaces.
fn one_cell(text: &str) -> String {
    text.chars().map(|c| if c == '\t' || c == '\n' || c == '\r' { ' ' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Named;
    use crate::rng::SplitMix64;

    /// Two small pairs. Pre-order node numbers: source 0 S, 1 NP, 2 ART, 3 NN,
    /// 4 VP, 5 V; target 0 S, 1 sn, 2 det, 3 nc, 4 grup.verb, 5 v.
    fn corpus() -> Corpus {
        let src = "(S (NP (ART das) (NN Haus)) (VP (V steht)))\n(S (NP (ART der) (NN Hund)) (VP (V bellt)))\n";
        let trg =
            "(S (sn (det la) (nc casa)) (grup.verb (v está)))\n(S (sn (det el) (nc perro)) (grup.verb (v ladra)))\n";
        let gold = "0-0 1-1 4-4?\n0-0 1-1\n";
        Corpus::from_texts(
            Named { name: "t.src", text: src },
            Named { name: "t.trg", text: trg },
            Some(Named { name: "t.gold", text: gold }),
        )
        .unwrap()
    }

    /// Node pairs by their numbers.
    fn links(pairs: &[(usize, usize)]) -> Vec<(NodeId, NodeId)> {
        pairs.iter().map(|&(s, t)| (NodeId::new(s), NodeId::new(t))).collect()
    }

    #[test]
    fn exercise_round_trips_and_keeps_order() {
        let c = corpus();
        let e =
            Exercise::new(&c, &[2, 1, 2], "Übung 1", "Link the phrases.\nTabs\tand <b>markup</b> stay text.", false)
                .unwrap();
        assert_eq!(e.pairs.iter().map(|p| p.number).collect::<Vec<_>>(), vec![2, 1]);
        assert_eq!(e.pairs[1].pair, c.pairs[0]);
        let text = e.to_json();
        assert!(text.contains("\"key\": \"0-0 1-1 4-4?\""), "{text}");
        let back = Exercise::from_json(&text, "e.json").unwrap();
        assert_eq!(back, e);
        assert_eq!(back.to_json(), text);
        assert_eq!(back.fingerprint(), e.fingerprint());
        assert_eq!(e.fingerprint().len(), 16);
        assert_eq!(back.corpus().pairs, vec![c.pairs[1].clone(), c.pairs[0].clone()]);
        // The key is not part of the fingerprint; the trees and numbers are.
        let mut rekeyed = e.clone();
        rekeyed.pairs[0].pair.gold.clear();
        assert_eq!(rekeyed.fingerprint(), e.fingerprint());
        let renumbered = Exercise::new(&c, &[1, 2], "Übung 1", "", false).unwrap();
        assert_ne!(renumbered.fingerprint(), e.fingerprint());
    }

    /// A student copy leaks nothing of the key: no key field, no key link,
    /// no count; two exercises that differ only in their keys (and in
    /// whether gold is shown) give byte-identical copies; it reads back as
    /// itself, and answers to it are checked against the file with the key
    /// (the same fingerprint), never against the copy.
    #[test]
    fn a_student_copy_withholds_the_key_and_its_answers_are_checked_against_the_keyed_file() {
        let c = corpus();
        let keyed = Exercise::new(&c, &[2, 1], "Übung 2", "Link the NPs.", true).unwrap();
        assert_eq!(keyed.key_links(), 5);
        let copy = keyed.student_copy();
        let text = copy.to_json();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        // (serde_json's map sorts the fields.)
        let fields = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(
            fields(&value),
            ["format", "instructions", "key_withheld", "pairs", "show_gold", "title", "version"]
        );
        for pair in value["pairs"].as_array().unwrap() {
            assert_eq!(fields(pair), ["number", "source", "target"], "{pair}");
        }
        assert_eq!((value["show_gold"].as_bool(), value["key_withheld"].as_bool()), (Some(false), Some(true)));
        // Another key (none at all, hidden): the same copy, byte for byte.
        let mut rekeyed = keyed.clone();
        for p in &mut rekeyed.pairs {
            p.pair.gold = vec![Link::good(NodeId::ROOT, NodeId::ROOT)];
        }
        rekeyed.show_gold = false;
        assert_ne!(rekeyed.to_json(), keyed.to_json());
        assert_eq!(rekeyed.student_copy().to_json(), text);
        let back = Exercise::from_json(&text, "copy.json").unwrap();
        assert_eq!(back, copy);
        assert_eq!((back.key_links(), back.fingerprint()), (0, keyed.fingerprint()));
        assert_eq!(back.summary(), "'Übung 2', 2 pairs, a student copy without the key");
        assert_eq!(keyed.summary(), "'Übung 2', 2 pairs, key of 5 links (shown)");
        // The instructor's file is written as before: no new field.
        assert!(!keyed.to_json().contains("key_withheld"));
        // Answers given on the copy are checked against the keyed file, not the copy.
        let answers = Answers::new(&back, "Ana", &[links(&[(0, 0), (1, 1)]), vec![]]).to_json();
        let checked = Answers::from_json(&answers, "ana.json", &keyed, "week.json").unwrap();
        let table = ClassTable::new(&keyed, &[("ana.json".into(), checked)]);
        assert_eq!((table.total.correct, table.total.predicted, table.total.gold), (2, 2, 5));
        assert_eq!(
            Answers::from_json(&answers, "ana.json", &back, "copy.json").unwrap_err().to_string(),
            "copy.json is a student copy without the key: check ana.json against the instructor's exercise file, the one with the key"
        );
        // A copy that carries key links after all is refused at its pair.
        let smuggled = text.replacen("\"number\": 1,", "\"number\": 1,\n      \"key\": \"0-0\",", 1);
        let e = Exercise::from_json(&smuggled, "copy.json").unwrap_err();
        assert!(matches!(e, ExerciseError::KeyInStudentCopy { number: 1, .. }), "{e}");
        assert!(e.to_string().starts_with("copy.json:") && e.to_string().ends_with("found key links at pair 1"), "{e}");
    }

    #[test]
    fn bad_requests_and_files_are_refused_with_their_place() {
        let c = corpus();
        assert_eq!(
            Exercise::new(&c, &[3], "x", "", true).unwrap_err().to_string(),
            "pair 3 does not exist: the treebank has pairs 1 to 2"
        );
        assert!(matches!(Exercise::new(&c, &[0], "x", "", true), Err(ExerciseError::PairOutOfRange { number: 0, .. })));
        assert_eq!(
            Exercise::new(&c, &[], "x", "", true).unwrap_err().to_string(),
            "an exercise needs at least one pair: give pair numbers from 1 to 2"
        );
        let text = Exercise::new(&c, &[1, 2], "x", "", true).unwrap().to_json();
        // A key link past the tree: located at its pair, with the string's column.
        let bad = text.replacen("\"0-0 1-1\"", "\"0-0 1-9\"", 1);
        let e = Exercise::from_json(&bad, "e.json").unwrap_err().to_string();
        assert!(e.starts_with("e.json:"), "{e}");
        assert!(
            e.contains("at pairs[1]: link 1-9 of the key (column 5 of the string) names target node 9, but the target tree has only 6 nodes (numbered 0 to 5)"),
            "{e}"
        );
        let bad = text.replacen("(S (NP (ART der)", "(S (NP (ART der", 1);
        let e = Exercise::from_json(&bad, "e.json").unwrap_err().to_string();
        assert!(e.contains("at pairs[1]: the source is not one bracketed tree"), "{e}");
        let bad = text.replacen("\"0-0 1-1\"", "\"0-0 x\"", 1);
        let e = Exercise::from_json(&bad, "e.json").unwrap_err().to_string();
        assert!(e.contains("at column 5 of the string: expected 'i-j' or 'i-j?', found 'x'"), "{e}");
        let bad = text.replacen("\"number\": 2", "\"number\": 1", 1);
        let e = Exercise::from_json(&bad, "e.json").unwrap_err();
        let first = bad.lines().position(|l| l.contains("\"number\": 1")).unwrap() + 1;
        assert!(matches!(e, ExerciseError::Duplicate { number: 1, .. }), "{e}");
        assert!(e.to_string().contains("found pair 1 twice"), "{e}");
        let ExerciseError::Duplicate { line: at, .. } = e else { unreachable!() };
        let second = bad.lines().enumerate().filter(|(_, l)| l.contains("\"number\": 1")).nth(1).unwrap().0 + 1;
        assert!(at == second && second > first, "the second occurrence, line {second}: {at}");
        let bad = text.replacen(FORMAT, ANSWERS_FORMAT, 1);
        assert!(matches!(Exercise::from_json(&bad, "e.json"), Err(ExerciseError::Format { .. })));
        let e = Exercise::from_json("{\"format\": 3}", "e.json").unwrap_err().to_string();
        assert!(e.starts_with("e.json:1:"), "{e}");
        // No pairs: refused as `Exercise::new` refuses it, at the list.
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["pairs"] = serde_json::json!([]);
        let e = Exercise::from_json(&serde_json::to_string_pretty(&value).unwrap(), "e.json").unwrap_err().to_string();
        assert!(e.starts_with("e.json:") && e.contains("at pairs: expected at least one pair, found none"), "{e}");
    }

    #[test]
    fn a_pair_is_marked_against_its_key() {
        let c = corpus();
        let pair = &c.pairs[0];
        // 0-0 correct (good), 4-4 correct (fuzzy), 1-4 wrong, 3-3 between POS
        // nodes: unscored; 1-1 missed. Repeats count once.
        let check = check_pair(pair, &links(&[(0, 0), (4, 4), (1, 4), (3, 3), (0, 0)]));
        assert_eq!(
            check.marks.iter().map(|&(s, t, mark)| (s.index(), t.index(), mark)).collect::<Vec<_>>(),
            vec![
                (0, 0, Mark::Correct),
                (4, 4, Mark::Correct),
                (1, 4, Mark::Wrong),
                (3, 3, Mark::Unscored),
                (1, 1, Mark::Missed)
            ]
        );
        // P = 2/3 over phrase links, R = 2/3 of the key.
        assert_eq!((check.counts.correct, check.counts.predicted, check.counts.gold), (2, 3, 3));
        assert!((check.counts.f() - 200.0 / 3.0).abs() < 1e-9);
        let empty = check_pair(pair, &[]);
        assert_eq!(empty.marks.len(), 3);
        assert_eq!(empty.counts.f(), 0.0);
    }

    #[test]
    fn marks_agree_with_the_counts_on_random_answers() {
        let mut rng = SplitMix64::new(7);
        for pair in &crate::corpus::sample(..20).pairs {
            for _ in 0..10 {
                let (n, m) = (pair.source.len() as u64, pair.target.len() as u64);
                let mut drawn: Vec<(NodeId, NodeId)> = (0..rng.next_u64() % 12)
                    .map(|_| (NodeId::new((rng.next_u64() % n) as usize), NodeId::new((rng.next_u64() % m) as usize)))
                    .collect();
                // Some key links too, so that correct marks occur.
                drawn.extend(
                    pair.gold.iter().filter(|_| rng.next_u64().is_multiple_of(2)).map(|l| (l.source, l.target)),
                );
                let check = check_pair(pair, &drawn);
                let count = |m: Mark| check.marks.iter().filter(|x| x.2 == m).count();
                let c = check.counts;
                assert_eq!(count(Mark::Correct), c.correct);
                assert_eq!(count(Mark::Correct) + count(Mark::Wrong), c.predicted);
                assert_eq!(count(Mark::Correct) + count(Mark::Missed), c.gold);
                let distinct: std::collections::BTreeSet<_> = drawn.iter().collect();
                assert_eq!(check.marks.len() - count(Mark::Missed), distinct.len());
            }
        }
    }

    #[test]
    fn answers_round_trip_and_belong_to_one_exercise() {
        let c = corpus();
        let e = Exercise::new(&c, &[1, 2], "Übung", "", false).unwrap();
        let a = Answers::new(&e, "Ana \"A\" <i>", &[links(&[(0, 0), (1, 4), (99, 0)]), vec![]]);
        // Node 99 does not exist: dropped when the answers are made.
        assert_eq!(
            a.pairs[0].links,
            vec![Link::good(NodeId::new(0), NodeId::new(0)), Link::good(NodeId::new(1), NodeId::new(4))]
        );
        let text = a.to_json();
        assert_eq!(Answers::from_json(&text, "ana.json", &e, "e.json").unwrap(), a);
        let other = Exercise::new(&c, &[2, 1], "Andere", "", false).unwrap();
        let err = Answers::from_json(&text, "ana.json", &other, "o.json").unwrap_err().to_string();
        assert!(err.starts_with("ana.json:"), "{err}");
        assert!(err.contains("expected answers to the exercise 'Andere' of o.json"), "{err}");
        let err = Answers::from_json(&e.to_json(), "e.json", &e, "e.json").unwrap_err().to_string();
        assert!(err.starts_with("e.json:1:1: expected a treelink exercise answers file"), "{err}");
        assert!(err.ends_with("found \"format\": \"treelink-exercise\", \"version\": 1"), "{err}");
        // An edited copy: same fingerprint field, other trees.
        let edited = text.replacen("Haus", "Baum", 1);
        let err = Answers::from_json(&edited, "ana.json", &e, "e.json").unwrap_err().to_string();
        assert!(err.contains("by its trees"), "{err}");
        let bad = text.replacen("\"0-0 1-4\"", "\"0-0 1-40\"", 1);
        let err = Answers::from_json(&bad, "ana.json", &e, "e.json").unwrap_err().to_string();
        assert!(err.contains("at pairs[0]: link 1-40 of the answer (column 5 of the string)"), "{err}");
        assert!(err.contains("target node 40"), "{err}");
    }

    #[test]
    fn class_table_sums_students_and_pairs() {
        let c = corpus();
        let e = Exercise::new(&c, &[1, 2], "Übung", "", false).unwrap();
        // Ana: pair 1 all three key links; pair 2 0-0 and a wrong 1-4.
        let ana = Answers::new(&e, "Ana", &[links(&[(0, 0), (1, 1), (4, 4)]), links(&[(0, 0), (1, 4)])]);
        // Ben: pair 1 only 0-0 and a wrong 1-4; pair 2 nothing.
        let ben = Answers::new(&e, "Ben", &[links(&[(0, 0), (1, 4)]), vec![]]);
        let table = ClassTable::new(&e, &[("ana.json".into(), ana), ("ben.json".into(), ben)]);
        let c = |t: &Counts| (t.correct, t.predicted, t.gold);
        assert_eq!(c(&table.students[0].counts), (4, 5, 5));
        assert_eq!(c(&table.students[1].counts), (1, 2, 5));
        assert_eq!(c(&table.pairs[0].counts), (4, 5, 6));
        assert_eq!(c(&table.pairs[1].counts), (1, 2, 4));
        assert_eq!(c(&table.total), (5, 7, 10));
        let hard: Vec<_> =
            table.hardest.iter().map(|h| (h.number, h.source.index(), h.target.index(), h.mark, h.students)).collect();
        // The most students first; ties in pair, mark (wrong before missed), node order.
        assert_eq!(
            hard,
            vec![
                (2, 1, 1, Mark::Missed, 2),
                (1, 1, 4, Mark::Wrong, 1),
                (1, 1, 1, Mark::Missed, 1),
                (1, 4, 4, Mark::Missed, 1),
                (2, 1, 4, Mark::Wrong, 1),
                (2, 0, 0, Mark::Missed, 1),
            ]
        );
        assert_eq!(table.hardest[0].labels, "NP ↔ sn");
        assert_eq!(table.hardest[1].labels, "NP ↔ grup.verb");
        let text = table.to_string();
        assert!(text.contains("Ana\tana.json\t80.00\t80.00\t80.00\t4\t5\t5"), "{text}");
        assert!(text.contains("2\t1-1\tNP ↔ sn\tmissed\t2"), "{text}");
    }
}
