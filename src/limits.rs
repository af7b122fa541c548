//! Limits on the work one valid input may ask for, so a huge input gets an
//! error that names the limit instead of exhausting memory or time.
//!
//! Most stages cost time and memory linear in the input (reading, features,
//! the greedy search, BLEU, the n-gram model). A few grow with the square of
//! one sentence or tree, and those are what the limits bound:
//!
//! | limit | what grows with it | cost at the default |
//! |---|---|---|
//! | [`Limits::max_words`] words per sentence aligned or translated | the lexical matrices of a sentence pair (`|s|·|t|`), the baseline's factors, the meta-structure decoder's span tables | 1,000 × 1,000 words: 8 MB per matrix |
//! | [`Limits::max_nodes`] nodes per tree aligned or translated | candidate node pairs (`n_s·n_t`) and the baseline's hypotheses | 4,000 × 4,000 nodes: 16 M pairs, about 0.4 GB for the baseline |
//! | [`Limits::max_train_candidates`] candidate node pairs of a training treebank | the features kept for training (about 100 bytes each) | 10 M candidates, about 1 GB |
//!
//! Word alignment (IBM models) gives no links to a sentence longer than
//! [`crate::lexicon::LexiconOptions::max_sentence_length`] (also 1,000), as
//! GIZA++ does, so it needs no limit of its own. The tree kernels' own limit
//! (matched node pairs in a unary chain) lives with the kernels.
//!
//! Every limit can be raised: the CLI takes `--max-words`, `--max-nodes` and
//! `--max-train-candidates` before or after the command, and a
//! [`LimitError`] says which one was hit.

use serde::{Deserialize, Serialize};

use crate::tree::Tree;

/// The limits (see the module doc for what each bounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Words per sentence (each side of a pair) that is aligned or translated.
    pub max_words: usize,
    /// Nodes per tree that is aligned or translated.
    pub max_nodes: usize,
    /// Candidate node pairs over a whole training treebank.
    pub max_train_candidates: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_words: 1_000, max_nodes: 4_000, max_train_candidates: 10_000_000 }
    }
}

/// Which limit an input went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    Words,
    Nodes,
    TrainCandidates,
}

impl Limit {
    /// The limit's name, as the CLI option that raises it (`--max-words`).
    pub fn option(self) -> &'static str {
        match self {
            Limit::Words => "--max-words",
            Limit::Nodes => "--max-nodes",
            Limit::TrainCandidates => "--max-train-candidates",
        }
    }

    /// "1001 words, more than the page's limit of 1000": what is over a
    /// limit, in the page's words ([`LimitError::in_page`]).
    pub fn over_in_page(self, found: usize, limit: usize) -> String {
        format!("{found} {}, more than the page's limit of {limit}", self.what())
    }

    fn what(self) -> &'static str {
        match self {
            Limit::Words => "words",
            Limit::Nodes => "nodes",
            Limit::TrainCandidates => "candidate node pairs",
        }
    }
}

/// An input over a limit: where, how big it is, and the limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{file}:{line}:{column}: {subject} has {found} {what}, more than the limit of {limit} ({option} raises it)",
    what = limit_kind.what(),
    option = limit_kind.option()
)]
pub struct LimitError {
    pub file: String,
    /// Where the offending item starts (1-based; 1:1 for a whole file).
    pub line: usize,
    pub column: usize,
    /// What is too big, e.g. "this tree" or "the training treebank".
    pub subject: String,
    pub limit_kind: Limit,
    pub found: usize,
    pub limit: usize,
}

impl LimitError {
    /// The message as the page shows it: the page has no options to raise a
    /// limit, so it names none.
    pub fn in_page(&self) -> String {
        let over = Limit::over_in_page(self.limit_kind, self.found, self.limit);
        format!("{}:{}:{}: {} has {over}", self.file, self.line, self.column, self.subject)
    }
}

impl Limits {
    /// The limit `tree` goes over, with its size and the limit: words
    /// first, then nodes.
    pub fn tree_over(&self, tree: &Tree) -> Option<(Limit, usize, usize)> {
        if tree.words().len() > self.max_words {
            Some((Limit::Words, tree.words().len(), self.max_words))
        } else if tree.len() > self.max_nodes {
            Some((Limit::Nodes, tree.len(), self.max_nodes))
        } else {
            None
        }
    }

    /// Checks the size of each tree of a file, given where each starts
    /// ([`Tree::parse_all_with_starts`]): at most `max_words` words and
    /// `max_nodes` nodes.
    pub fn check_trees(&self, file: &str, trees: &[Tree], starts: &[(usize, usize)]) -> Result<(), LimitError> {
        for (tree, &(line, column)) in trees.iter().zip(starts) {
            if let Some((limit_kind, found, limit)) = self.tree_over(tree) {
                return Err(LimitError {
                    file: file.to_string(),
                    line,
                    column,
                    subject: "this tree".into(),
                    limit_kind,
                    found,
                    limit,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_tree_over_a_limit_is_named_with_its_place() {
        let text = "(S (A a) (B b))\n  (S (A a) (B b) (C c))\n";
        let (trees, starts) = Tree::parse_all_with_starts(text, "t").unwrap();
        let limits = Limits { max_words: 2, ..Limits::default() };
        let e = limits.check_trees("t.src", &trees, &starts).unwrap_err();
        assert_eq!(e.to_string(), "t.src:2:3: this tree has 3 words, more than the limit of 2 (--max-words raises it)");
        let limits = Limits { max_nodes: 3, ..Limits::default() };
        let e = limits.check_trees("t.src", &trees, &starts).unwrap_err();
        assert_eq!((e.line, e.limit_kind, e.found), (2, Limit::Nodes, 4));
        assert!(Limits::default().check_trees("t.src", &trees, &starts).is_ok());
    }
}
