//! What the wrong and missed links of an alignment are: each sorted into
//! one kind, and counted by label pair and by span length, with examples —
//! what `treelink eval --errors` prints and the page's Results panel shows.
//!
//! Links are counted as [`super::prf`] counts them (between phrase nodes on
//! both sides; good and fuzzy gold alike). A **wrong** link (predicted, not
//! gold) and a **missed** one (gold, not predicted) are each of the first
//! kind that fits, in this order:
//! 1. [`ErrorKind::Chain`] — *same words, other node*: the other side of
//!    the comparison (gold for a wrong link, the prediction for a missed
//!    one) links nodes with the same spans on both sides: a node of a unary
//!    chain (a node and its only child cover the same words) or its
//!    neighbour was picked instead;
//! 2. [`ErrorKind::BothUnlinked`] — neither node is linked on the other
//!    side (a wrong link joins two nodes the annotators left unlinked; a
//!    missed one, two nodes the prediction left unlinked);
//! 3. [`ErrorKind::LinkedElsewhere`] — one node (or both) is linked to
//!    another node there.
//!
//! Cost: O(L²) per pair for its L links (a few dozen), after one pass
//! over the nodes.
//!
//! # Examples
//! ```
//! use treelink::corpus::TreePair;
//! use treelink::eval::errors::{ErrorKind, ErrorTable, Miss};
//! use treelink::io::links::Link;
//! use treelink::tree::{NodeId, Tree};
//! // NP1 and its only child N2 cover the same word: a unary chain.
//! let s = Tree::parse_one("(S (NP (N (NN Haus))) (V steht))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (NN house)) (VP (V stands)))", "t").unwrap();
//! let l = |s, t| Link::good(NodeId::new(s), NodeId::new(t));
//! let pair = TreePair { source: s, target: t, gold: vec![l(0, 0), l(2, 1)] };
//! let table = ErrorTable::of_corpus([(&pair, &[l(0, 0), l(1, 1)][..])], 3);
//! assert_eq!(table.count(Miss::Wrong, ErrorKind::Chain), 1); // NP1–NP1, gold has N2–NP1
//! assert_eq!(table.count(Miss::Missed, ErrorKind::Chain), 1); // N2–NP1
//! assert_eq!(table.counts.correct, 1);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::prf::Counts;
use crate::corpus::{PairIndex, TreePair};
use crate::io::links::Link;
use crate::tree::{NodeId, Tree};

/// Whether an error is a link predicted but not gold, or gold but not predicted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Miss {
    Wrong,
    Missed,
}

impl Miss {
    pub fn name(self) -> &'static str {
        match self {
            Miss::Wrong => "wrong",
            Miss::Missed => "missed",
        }
    }
}

/// The kind of a wrong or missed link (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ErrorKind {
    Chain,
    BothUnlinked,
    LinkedElsewhere,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 3] = [ErrorKind::Chain, ErrorKind::BothUnlinked, ErrorKind::LinkedElsewhere];

    /// What the kind means for `miss`, in words.
    pub fn describe(self, miss: Miss) -> &'static str {
        match (self, miss) {
            (ErrorKind::Chain, Miss::Wrong) => "unary chain: same words, gold links another node",
            (ErrorKind::Chain, Miss::Missed) => "unary chain: same words, another node linked",
            (ErrorKind::BothUnlinked, Miss::Wrong) => "both nodes unlinked in gold",
            (ErrorKind::BothUnlinked, Miss::Missed) => "both nodes left unlinked",
            (ErrorKind::LinkedElsewhere, Miss::Wrong) => "a node linked elsewhere in gold",
            (ErrorKind::LinkedElsewhere, Miss::Missed) => "a node linked elsewhere",
        }
    }
}

/// One wrong or missed link, with what the page and the CLI show of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorExample {
    pub pair: PairIndex,
    pub source: NodeId,
    pub target: NodeId,
    pub labels: (String, String),
    /// The words of the two nodes' spans, space-separated.
    pub words: (String, String),
    /// The link on the other side that makes it this kind (chain, or linked elsewhere).
    pub other: Option<(NodeId, NodeId)>,
}

/// One kind's count and its first examples, in corpus order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindRow {
    pub miss: Miss,
    pub kind: ErrorKind,
    pub count: usize,
    pub examples: Vec<ErrorExample>,
}

/// Correct, wrong and missed links of one group (a label pair, a span length).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupCounts {
    pub correct: usize,
    pub wrong: usize,
    pub missed: usize,
}

impl GroupCounts {
    fn add(&mut self, miss: Option<Miss>) {
        match miss {
            None => self.correct += 1,
            Some(Miss::Wrong) => self.wrong += 1,
            Some(Miss::Missed) => self.missed += 1,
        }
    }

    pub fn errors(&self) -> usize {
        self.wrong + self.missed
    }
}

/// Span-length buckets (the longer of the two spans, in words): 1, 2, 3–4, 5–8, 9–16, 17 and more.
pub const SPAN_BUCKETS: [(usize, usize); 6] = [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, usize::MAX)];

/// The bucket of a span length ([`SPAN_BUCKETS`]).
fn bucket(len: usize) -> usize {
    SPAN_BUCKETS.iter().position(|&(lo, hi)| (lo..=hi).contains(&len)).unwrap_or(0)
}

/// A bucket in words: "1", "3–4", "≥ 17".
pub fn bucket_name(k: usize) -> String {
    match SPAN_BUCKETS.get(k) {
        Some(&(lo, hi)) if lo == hi => lo.to_string(),
        Some(&(lo, usize::MAX)) => format!("≥ {lo}"),
        Some(&(lo, hi)) => format!("{lo}–{hi}"),
        None => String::new(),
    }
}

/// The errors of an alignment against gold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorTable {
    pub counts: Counts,
    /// Wrong kinds, then missed kinds, in [`ErrorKind::ALL`] order.
    pub kinds: Vec<KindRow>,
    /// Per label pair (source, target): by errors, most first, ties by labels.
    pub label_pairs: Vec<((String, String), GroupCounts)>,
    /// Per span bucket ([`SPAN_BUCKETS`]).
    pub span_lengths: Vec<GroupCounts>,
}

fn words(tree: &Tree, n: NodeId) -> String {
    tree.yield_of(n).join(" ")
}

/// The kind of `link`, missing from `other` (the other side's links), and
/// the other link that decides it.
fn kind_of(
    pair: &TreePair,
    (s, t): (NodeId, NodeId),
    other: &BTreeSet<(NodeId, NodeId)>,
) -> (ErrorKind, Option<(NodeId, NodeId)>) {
    let (src, trg) = (&pair.source, &pair.target);
    let same_words = other.iter().find(|&&(s2, t2)| src.span(s2) == src.span(s) && trg.span(t2) == trg.span(t));
    if let Some(&o) = same_words {
        return (ErrorKind::Chain, Some(o));
    }
    match other.iter().find(|&&(s2, t2)| s2 == s || t2 == t) {
        Some(&o) => (ErrorKind::LinkedElsewhere, Some(o)),
        None => (ErrorKind::BothUnlinked, None),
    }
}

impl ErrorTable {
    /// The errors of each pair's predicted links against its gold, with up
    /// to `examples` examples per kind.
    pub fn of_corpus<'a>(pairs: impl IntoIterator<Item = (&'a TreePair, &'a [Link])>, examples: usize) -> ErrorTable {
        ErrorTable::of_pairs_from(0, pairs, examples)
    }

    /// [`ErrorTable::of_corpus`] of pairs numbered from `first` (the
    /// examples name them so): the held-out pairs of a corpus.
    pub fn of_pairs_from<'a>(
        first: usize,
        pairs: impl IntoIterator<Item = (&'a TreePair, &'a [Link])>,
        examples: usize,
    ) -> ErrorTable {
        let mut kinds: Vec<KindRow> = [Miss::Wrong, Miss::Missed]
            .iter()
            .flat_map(|&miss| {
                ErrorKind::ALL.iter().map(move |&kind| KindRow { miss, kind, count: 0, examples: Vec::new() })
            })
            .collect();
        let mut labels: BTreeMap<(String, String), GroupCounts> = BTreeMap::new();
        let mut spans = vec![GroupCounts::default(); SPAN_BUCKETS.len()];
        let mut counts = Counts::default();
        for (k, (pair, predicted)) in pairs.into_iter().enumerate() {
            counts = counts + Counts::of_pair(pair, predicted);
            let gold: BTreeSet<(NodeId, NodeId)> = pair.phrase_links(&pair.gold);
            let pred: BTreeSet<(NodeId, NodeId)> = pair.phrase_links(predicted);
            let (src, trg) = (&pair.source, &pair.target);
            let mut note = |link: (NodeId, NodeId), miss: Option<Miss>| {
                let (s, t) = link;
                let label_pair = (src.label(s).to_string(), trg.label(t).to_string());
                labels.entry(label_pair).or_default().add(miss);
                spans[bucket(src.span(s).len().max(trg.span(t).len()))].add(miss);
            };
            for &link in pred.intersection(&gold) {
                note(link, None);
            }
            for (miss, errors, other) in [(Miss::Wrong, &pred, &gold), (Miss::Missed, &gold, &pred)] {
                for &link in errors.difference(other) {
                    note(link, Some(miss));
                    let (kind, decided_by) = kind_of(pair, link, other);
                    let row =
                        kinds.iter_mut().find(|r| r.miss == miss && r.kind == kind).expect("every kind has a row");
                    row.count += 1;
                    if row.examples.len() < examples {
                        let (s, t) = link;
                        row.examples.push(ErrorExample {
                            pair: PairIndex::new(first + k),
                            source: s,
                            target: t,
                            labels: (src.label(s).to_string(), trg.label(t).to_string()),
                            words: (words(src, s), words(trg, t)),
                            other: decided_by,
                        });
                    }
                }
            }
        }
        let mut label_pairs: Vec<((String, String), GroupCounts)> = labels.into_iter().collect();
        label_pairs.sort_by(|a, b| b.1.errors().cmp(&a.1.errors()).then_with(|| a.0.cmp(&b.0)));
        ErrorTable { counts, kinds, label_pairs, span_lengths: spans }
    }

    /// How many links of `miss` are of `kind`.
    pub fn count(&self, miss: Miss, kind: ErrorKind) -> usize {
        self.kinds.iter().filter(|r| r.miss == miss && r.kind == kind).map(|r| r.count).sum()
    }

    /// How many links are wrong, or missed.
    pub fn total(&self, miss: Miss) -> usize {
        self.kinds.iter().filter(|r| r.miss == miss).map(|r| r.count).sum()
    }

    /// The table as text, with at most `label_rows` label pairs (what `treelink eval --errors` prints).
    pub fn to_text(&self, label_rows: usize) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut out, label_rows);
        out
    }

    fn write_text(&self, out: &mut String, label_rows: usize) -> fmt::Result {
        use fmt::Write;
        for (k, miss) in [Miss::Wrong, Miss::Missed].into_iter().enumerate() {
            let total = self.total(miss);
            let gap = if k == 0 { "" } else { "\n" };
            writeln!(out, "{gap}{total} {} links, by kind:", miss.name())?;
            for row in self.kinds.iter().filter(|r| r.miss == miss) {
                writeln!(out, "  {:>6}  {:>5.1}%  {}", row.count, share(row.count, total), row.kind.describe(miss))?;
                for e in &row.examples {
                    writeln!(out, "          {}", e)?;
                }
            }
        }
        writeln!(out, "\nBy label pair (source / target), most errors first:")?;
        writeln!(out, "  {:<24}  {:>7}  {:>6}  {:>6}", "labels", "correct", "wrong", "missed")?;
        for ((s, t), g) in self.label_pairs.iter().take(label_rows) {
            writeln!(out, "  {:<24}  {:>7}  {:>6}  {:>6}", format!("{s} / {t}"), g.correct, g.wrong, g.missed)?;
        }
        if self.label_pairs.len() > label_rows {
            writeln!(out, "  ({} more label pairs)", self.label_pairs.len() - label_rows)?;
        }
        writeln!(out, "\nBy span length (words, the longer side):")?;
        writeln!(out, "  {:<8}  {:>7}  {:>6}  {:>6}", "words", "correct", "wrong", "missed")?;
        for (k, g) in self.span_lengths.iter().enumerate() {
            writeln!(out, "  {:<8}  {:>7}  {:>6}  {:>6}", bucket_name(k), g.correct, g.wrong, g.missed)?;
        }
        Ok(())
    }
}

/// `n` as a percentage of `total` (0 when there is none).
pub fn share(n: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * n as f64 / total as f64
    }
}

impl fmt::Display for ErrorExample {
    /// `pair 12, 3-5 NP / NP: "das Haus" / "la casa" (other: 2-5)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pair {}, {}-{} {} / {}: \"{}\" / \"{}\"",
            self.pair, self.source, self.target, self.labels.0, self.labels.1, self.words.0, self.words.1
        )?;
        if let Some((s, t)) = self.other {
            write!(f, " (other: {s}-{t})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::links::LinkKind;

    /// S0 (NP1 (N2 (NN3 a)) VP4 (V5 b) (NP6 (NN7 c))), the same on both sides
    /// (NP1 and N2 a chain; NN3, V5, NN7 POS nodes).
    fn pair(gold: &[(usize, usize)]) -> TreePair {
        let t = "(S (NP (N (NN a))) (VP (V b) (NP (NN c))))";
        TreePair {
            source: Tree::parse_one(t, "s").unwrap(),
            target: Tree::parse_one(t, "t").unwrap(),
            gold: gold.iter().map(|&(s, t)| Link::good(NodeId::new(s), NodeId::new(t))).collect(),
        }
    }

    fn links(l: &[(usize, usize)]) -> Vec<Link> {
        l.iter().map(|&(s, t)| Link::good(NodeId::new(s), NodeId::new(t))).collect()
    }

    #[test]
    fn each_error_falls_into_the_first_kind_that_fits() {
        let p = pair(&[(0, 0), (2, 2), (4, 4)]);
        // (1,1): gold has (2,2), same spans: chain. (6,6): neither 6 linked in gold: both unlinked.
        // (4,6): 4 is linked to 4 in gold: elsewhere. (0,0) correct.
        let pred = links(&[(0, 0), (1, 1), (6, 6), (4, 6), (3, 3)]);
        let table = ErrorTable::of_corpus([(&p, pred.as_slice())], 5);
        assert_eq!(table.count(Miss::Wrong, ErrorKind::Chain), 1);
        assert_eq!(table.count(Miss::Wrong, ErrorKind::BothUnlinked), 1);
        assert_eq!(table.count(Miss::Wrong, ErrorKind::LinkedElsewhere), 1);
        // Missed: (2,2) — predicted (1,1) covers the same words; (4,4) — predicted (4,6) links 4.
        assert_eq!(table.count(Miss::Missed, ErrorKind::Chain), 1);
        assert_eq!(table.count(Miss::Missed, ErrorKind::LinkedElsewhere), 1);
        assert_eq!(table.count(Miss::Missed, ErrorKind::BothUnlinked), 0);
        // The POS link (3,3) is not counted, as P/R/F do not count it.
        assert_eq!((table.total(Miss::Wrong), table.total(Miss::Missed)), (3, 2));
        assert_eq!(table.counts, Counts::of_pair(&p, &pred));
        let wrong_chain = &table.kinds[0].examples[0];
        assert_eq!(
            wrong_chain,
            &ErrorExample {
                pair: PairIndex::FIRST,
                source: NodeId::new(1),
                target: NodeId::new(1),
                labels: ("NP".into(), "NP".into()),
                words: ("a".into(), "a".into()),
                other: Some((NodeId::new(2), NodeId::new(2))),
            }
        );
        assert_eq!(wrong_chain.to_string(), "pair 1, 1-1 NP / NP: \"a\" / \"a\" (other: 2-2)");
        // Pairs numbered from another first (a held-out test's): the same table, the examples renamed.
        let from = ErrorTable::of_pairs_from(40, [(&p, pred.as_slice())], 5);
        assert_eq!(from.kinds[0].examples[0].pair, PairIndex::new(40));
        assert_eq!(from.counts, table.counts);
        assert_eq!(from.label_pairs, table.label_pairs);
    }

    #[test]
    fn a_missed_link_whose_nodes_the_prediction_left_alone_is_both_unlinked() {
        let fuzzy = Link { source: NodeId::new(6), target: NodeId::new(6), kind: LinkKind::Fuzzy };
        let p = TreePair { gold: vec![fuzzy], ..pair(&[]) };
        let table = ErrorTable::of_corpus([(&p, &[][..])], 0);
        assert_eq!(table.count(Miss::Missed, ErrorKind::BothUnlinked), 1);
        assert!(table.kinds.iter().all(|r| r.examples.is_empty()), "no examples asked for");
    }

    #[test]
    fn label_pairs_and_span_lengths_add_up_to_the_links() {
        let p = pair(&[(0, 0), (2, 2), (4, 4)]);
        let pred = links(&[(0, 0), (1, 1), (6, 6), (4, 6)]);
        let table = ErrorTable::of_corpus([(&p, pred.as_slice()), (&p, pred.as_slice())], 1);
        let sum = |f: fn(&GroupCounts) -> usize| table.label_pairs.iter().map(|(_, g)| f(g)).sum::<usize>();
        assert_eq!(
            (sum(|g| g.correct), sum(|g| g.wrong), sum(|g| g.missed)),
            (table.counts.correct, table.total(Miss::Wrong), table.total(Miss::Missed))
        );
        // NP / NP: (1,1) and (6,6) wrong in both copies; then N / N, VP / NP, VP / VP twice each.
        assert_eq!(table.label_pairs[0].0, ("NP".to_string(), "NP".to_string()));
        assert_eq!(table.label_pairs[0].1, GroupCounts { correct: 0, wrong: 4, missed: 0 });
        // Spans: S0 3 words; VP4 2 words (4,4 missed, 4,6 wrong); the rest 1 word.
        assert_eq!(table.span_lengths[0], GroupCounts { correct: 0, wrong: 4, missed: 2 });
        assert_eq!(table.span_lengths[1], GroupCounts { correct: 0, wrong: 2, missed: 2 });
        assert_eq!(table.span_lengths[2], GroupCounts { correct: 2, wrong: 0, missed: 0 });
        assert_eq!((bucket_name(0), bucket_name(2), bucket_name(5)), ("1".into(), "3–4".into(), "≥ 17".into()));
        let text = table.to_text(1);
        assert!(text.contains("6 wrong links, by kind:"), "{text}");
        assert!(text.contains("  (4 more label pairs)"), "{text}");
    }
}
