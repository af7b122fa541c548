//! Finding a pair by its number, a node label or a word (the engine's
//! [`Corpus::find`]), and adding the pairs found to the exercise form.

use super::State;
use crate::corpus::{Corpus, Found, PairIndex};
use crate::io::text::counted;

/// Finding a pair: the query as typed and the pairs it finds ([`Corpus::find`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FindPair {
    pub query: String,
    /// The first [`FindPair::LIMIT`] pairs found.
    pub found: Vec<(PairIndex, Found)>,
    /// How many pairs the query finds in all.
    pub total: usize,
    /// What the last *add to the exercise* did, until the next search.
    pub added: Option<String>,
}

/// What the find box asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FindAction {
    /// Find pairs by a number, a label or a word.
    Query(String),
    /// Add the pairs found (all, or the found pair with this index) to the
    /// exercise form's pairs ([`Classroom::add_pairs`]).
    AddToExercise(Option<PairIndex>),
}

impl FindPair {
    /// Pairs listed at most.
    pub const LIMIT: usize = 50;

    /// The find box's reducer: a query searches the pairs loaded (`corpus`)
    /// again (adding the pairs found to the exercise is a cross-part rule,
    /// `State::add_found_to_exercise`).
    pub(super) fn query(&mut self, query: String, corpus: &Corpus) {
        self.query = query;
        self.search_again(corpus);
    }

    /// The numbers of the pairs found (all, or the found pair `which`).
    fn numbers(&self, which: Option<PairIndex>) -> Vec<usize> {
        self.found.iter().filter(|(k, _)| which.is_none_or(|w| w == *k)).map(|(k, _)| k.number()).collect()
    }

    /// New pairs were loaded: the same query searches them.
    pub(super) fn search_again(&mut self, corpus: &Corpus) {
        self.found = corpus.find(&self.query, usize::MAX);
        self.total = self.found.len();
        self.found.truncate(FindPair::LIMIT);
        self.added = None;
    }

    /// What the search found, in words with the total: "1 pair found",
    /// "The first 50 of 112 pairs found"; empty for no query.
    pub fn summary(&self) -> String {
        let (n, total) = (self.found.len(), self.total);
        match (self.query.trim().is_empty(), n) {
            (true, _) => String::new(),
            (false, 0) => "No pair found.".into(),
            (false, _) if total > n => format!("The first {n} of {total} pairs found:"),
            (false, _) => format!("{n} {} found:", counted(n, "pairs")),
        }
    }
}

impl State {
    /// *Add to the exercise* (cross-part: the find box's pairs into the
    /// exercise form's, [`Classroom::add_pairs`](crate::ui::classroom::Classroom::add_pairs)).
    pub(super) fn add_found_to_exercise(&mut self, which: Option<PairIndex>) {
        let numbers = self.find.numbers(which);
        self.find.added = Some(match self.classroom.add_pairs(numbers.iter().copied()) {
            Ok(added) => {
                let skipped = numbers.len() - added;
                let also = if skipped > 0 { format!(" ({skipped} listed already)") } else { String::new() };
                let pairs = &self.classroom.form.pairs;
                format!("{added} {} added to the exercise's pairs{also}: {pairs}", counted(added, "pairs"))
            }
            Err(e) => format!("Nothing added: the exercise's pairs do not read ({e})."),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;

    #[test]
    fn the_find_box_says_how_many_pairs_it_found_in_words() {
        let mut s = State::with_sample();
        s.apply(Action::Find(FindAction::Query("7".into())));
        assert_eq!(s.find.summary(), "1 pair found:");
        s.apply(Action::Find(FindAction::Query("zurück".into())));
        assert_eq!(s.find.summary(), "2 pairs found:");
        // Every pair has an NP: more than are listed, and the total is said.
        s.apply(Action::Find(FindAction::Query("np".into())));
        let all = s.loaded.corpus.find("np", usize::MAX).len();
        assert!(all > FindPair::LIMIT && s.find.found.len() == FindPair::LIMIT, "{all}");
        assert_eq!(s.find.summary(), format!("The first 50 of {all} pairs found:"));
        s.apply(Action::Find(FindAction::Query("no such word".into())));
        assert_eq!(s.find.summary(), "No pair found.");
        s.apply(Action::Find(FindAction::Query(" ".into())));
        assert_eq!(s.find.summary(), "");
    }

    #[test]
    fn a_pair_is_found_and_opened() {
        let mut s = State::with_sample();
        s.apply(Action::Find(FindAction::Query("Lateinamerika".into())));
        let word = Found::Word { source: true, word: "Lateinamerika-Institut".into() };
        assert_eq!(s.find.found.first(), Some(&(PairIndex::FIRST, word)));
        s.apply(Action::Find(FindAction::Query("7".into())));
        assert_eq!(s.find.found, [(PairIndex::new(6), Found::Number)]);
        select_pair(&mut s, 6);
        assert_eq!(s.selection.pair.index(), 6);
        // New pairs: the same query searches them.
        read_pairs(&mut s, &["(S (A a))\n", "(S (B b))\n"]);
        assert!(s.find.found.is_empty());
    }

    /// An instructor searches and adds what was found to the exercise: all
    /// the pairs found, or one; the exported exercise holds those pairs.
    #[test]
    fn found_pairs_go_into_the_exercise() {
        use crate::exercise::Exercise;
        let mut s = State::with_sample();
        s.apply(Action::Exercise(ExerciseAction::SetPairs("2".into())));
        s.apply(Action::Find(FindAction::Query("Lateinamerika".into())));
        let numbers: Vec<usize> = s.find.found.iter().map(|(k, _)| k.number()).collect();
        assert!(!numbers.is_empty());
        assert!(s.apply(Action::Find(FindAction::AddToExercise(None))).is_empty());
        let listed = |s: &State| crate::ui::classroom::parse_pair_numbers(&s.classroom.form.pairs).unwrap();
        let expected: Vec<usize> = std::iter::once(2).chain(numbers.iter().copied().filter(|&n| n != 2)).collect();
        assert_eq!(listed(&s), expected);
        assert!(s.find.added.as_deref().unwrap().starts_with(&format!("{} pair", numbers.len())), "{:?}", s.find.added);
        // Again: nothing new.
        s.apply(Action::Find(FindAction::AddToExercise(None)));
        assert_eq!(listed(&s), expected);
        assert!(s.find.added.as_deref().unwrap().starts_with("0 pairs added"), "{:?}", s.find.added);
        // One pair found by its number, added alone.
        s.apply(Action::Find(FindAction::Query("7".into())));
        assert!(s.find.added.is_none());
        s.apply(Action::Find(FindAction::AddToExercise(Some(PairIndex::new(6)))));
        assert_eq!(listed(&s).last(), Some(&7));
        let added = format!("1 pair added to the exercise's pairs: {}", s.classroom.form.pairs);
        assert_eq!(s.find.added, Some(added));
        // Exported: the engine's exercise of exactly those pairs.
        let (_, text) = downloaded(&s.apply(Action::Exercise(ExerciseAction::Export)));
        let f = &s.classroom.form;
        let made = Exercise::new(&s.loaded.corpus, &listed(&s), &f.title, &f.instructions, f.show_gold).unwrap();
        assert_eq!(text, made.to_json());
    }

    /// A typo in the exercise form's pairs stays as typed, and nothing is added to it.
    #[test]
    fn nothing_is_added_to_exercise_pairs_that_do_not_read() {
        let mut s = State::with_sample();
        s.apply(Action::Find(FindAction::Query("7".into())));
        assert_eq!(s.find.found, [(PairIndex::new(6), Found::Number)]);
        s.classroom.form.pairs = "1, x".into();
        s.apply(Action::Find(FindAction::AddToExercise(None)));
        assert_eq!(
            s.find.added.as_deref(),
            Some("Nothing added: the exercise's pairs do not read (expected pair numbers such as 3, 7, 10-12, found 'x').")
        );
        assert_eq!(s.classroom.form.pairs, "1, x");
    }
}
