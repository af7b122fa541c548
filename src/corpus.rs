//! A parallel treebank: source trees, target trees and (optionally) gold
//! links, read from the bracketed files `PREFIX.src`, `PREFIX.trg`,
//! `PREFIX.gold` and checked against each other.

use crate::io::links::{parse_links_located, Link, LinkError, LinkOutOfRange, LinkUnits};
#[cfg(not(target_arch = "wasm32"))]
use crate::io::text::read_text_file;
use crate::io::text::{end_position, line_count_position, ReadError};
use crate::limits::{LimitError, Limits};
pub use crate::pair_index::PairIndex;
use crate::tree::{NodeId, ParseError, Tree};

/// One sentence pair with its gold links (empty when none were given).
/// `Eq` lets `Rc<TreePair>`/`Rc<Corpus>` compare by pointer first (the page
/// compares its state on every render).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreePair {
    pub source: Tree,
    pub target: Tree,
    pub gold: Vec<Link>,
}

/// Sentence pairs in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Corpus {
    pub pairs: Vec<TreePair>,
}

/// Why a corpus could not be assembled; each variant names the file, and
/// each but `Read` the line and column.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CorpusError {
    #[error(transparent)]
    Tree(#[from] ParseError),
    #[error(transparent)]
    Links(#[from] LinkError),
    #[error("{file}:{line}:{column}: expected {expected} {} (one per {per}), found {found}", crate::io::text::counted(*.expected, .what))]
    CountMismatch {
        file: String,
        /// Where the first extra item starts, or the end of the file when items are missing.
        line: usize,
        column: usize,
        expected: usize,
        found: usize,
        what: &'static str,
        per: &'static str,
    },
    #[error("{file}:{line}:{column}: {error}")]
    LinkOutOfRange { file: String, line: usize, column: usize, error: LinkOutOfRange },
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// A treebank file with no tree: a command would otherwise succeed with no output.
    #[error("{file}:1:1: expected at least one tree, found none")]
    Empty { file: String },
}

impl CorpusError {
    /// The file the error is in (every variant names one).
    pub fn file(&self) -> &str {
        match self {
            CorpusError::Tree(e) => &e.file,
            CorpusError::Links(e) => &e.file,
            CorpusError::CountMismatch { file, .. } | CorpusError::LinkOutOfRange { file, .. } => file,
            CorpusError::Read(e) => e.file(),
            CorpusError::Limit(e) => &e.file,
            CorpusError::Empty { file, .. } => file,
        }
    }
}

/// A named text input (file name for errors, and contents).
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl TreePair {
    /// The pair read the other way: target as source, source as target,
    /// each link reversed.
    pub fn swapped(&self) -> TreePair {
        TreePair {
            source: self.target.clone(),
            target: self.source.clone(),
            gold: self.gold.iter().map(|l| Link { source: l.target, target: l.source, kind: l.kind }).collect(),
        }
    }

    /// The node pairs of `links` between two phrase nodes (the links the
    /// evaluation counts and the models learn), in any collection.
    pub fn phrase_links<C: FromIterator<(NodeId, NodeId)>>(&self, links: &[Link]) -> C {
        let phrase = |l: &&Link| self.source.is_phrase(l.source) && self.target.is_phrase(l.target);
        links.iter().filter(phrase).map(|l| (l.source, l.target)).collect()
    }
}

/// Where a search found a pair ([`Corpus::find`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The query is the pair's number.
    Number,
    /// A word of its source (`true`) or target sentence contains the query.
    Word { source: bool, word: String },
    /// A node of its source (`true`) or target tree has the query as label.
    Label { source: bool, label: String, count: usize },
}

impl Corpus {
    /// The pairs a query finds, in order, at most `limit`: a number finds
    /// that pair (counting from 1); otherwise a pair whose source or target
    /// has the query as a node label (its case ignored), or a word that
    /// contains it (its case ignored). One entry per pair: its first find.
    pub fn find(&self, query: &str, limit: usize) -> Vec<(PairIndex, Found)> {
        let query = query.trim();
        if query.is_empty() {
            return Vec::new();
        }
        if let Ok(n) = query.trim_start_matches('#').parse::<usize>() {
            return PairIndex::from_number(n)
                .filter(|p| p.index() < self.len())
                .map(|p| (p, Found::Number))
                .into_iter()
                .collect();
        }
        let lower = query.to_lowercase();
        let label = |tree: &Tree, source: bool| {
            let count = tree.node_ids().filter(|&n| tree.label(n).to_lowercase() == lower).count();
            let first = tree.node_ids().find(|&n| tree.label(n).to_lowercase() == lower);
            first.map(|n| Found::Label { source, label: tree.label(n).to_string(), count })
        };
        let word = |tree: &Tree, source: bool| {
            let w = tree.words().iter().find(|w| w.to_lowercase().contains(&lower))?;
            Some(Found::Word { source, word: w.clone() })
        };
        self.pairs
            .iter()
            .zip(PairIndex::all(self.len()))
            .filter_map(|(p, k)| {
                let found = label(&p.source, true)
                    .or_else(|| label(&p.target, false))
                    .or_else(|| word(&p.source, true))
                    .or_else(|| word(&p.target, false));
                found.map(|f| (k, f))
            })
            .take(limit)
            .collect()
    }

    /// Every pair read the other way ([`TreePair::swapped`]): a treebank
    /// imported in the opposite direction to the one wanted.
    pub fn swapped(&self) -> Corpus {
        Corpus { pairs: self.pairs.iter().map(TreePair::swapped).collect() }
    }

    /// The number of words of each pair's source and target sentence (what
    /// word-alignment readers check links against).
    pub fn sentence_lengths(&self) -> Vec<(usize, usize)> {
        self.pairs.iter().map(|p| (p.source.words().len(), p.target.words().len())).collect()
    }

    /// Builds a corpus from the texts of the source, target and gold files.
    pub fn from_texts(source: Named<'_>, target: Named<'_>, gold: Option<Named<'_>>) -> Result<Corpus, CorpusError> {
        Self::assemble(source, target, gold, None)
    }

    /// Like [`Corpus::from_texts`], for a corpus that will be aligned or
    /// translated: every tree within `limits` (words and nodes), or an error
    /// at the first one that is not.
    pub fn from_texts_within(
        source: Named<'_>,
        target: Named<'_>,
        gold: Option<Named<'_>>,
        limits: &Limits,
    ) -> Result<Corpus, CorpusError> {
        Self::assemble(source, target, gold, Some(limits))
    }

    fn assemble(
        source: Named<'_>,
        target: Named<'_>,
        gold: Option<Named<'_>>,
        limits: Option<&Limits>,
    ) -> Result<Corpus, CorpusError> {
        // Tree k is pair k: a blank line or a second tree on a line is refused where it is.
        let (sources, source_starts) = Tree::parse_numbered(source.text, source.name)?;
        let (targets, starts) = Tree::parse_numbered(target.text, target.name)?;
        if let Some(limits) = limits {
            limits.check_trees(source.name, &sources, &source_starts)?;
            limits.check_trees(target.name, &targets, &starts)?;
        }
        if sources.len() != targets.len() {
            let (line, column) = starts.get(sources.len()).copied().unwrap_or_else(|| end_position(target.text));
            return Err(CorpusError::CountMismatch {
                file: target.name.to_string(),
                line,
                column,
                expected: sources.len(),
                found: targets.len(),
                what: "trees",
                per: "source tree",
            });
        }
        let gold_lines = match gold {
            None => vec![Vec::new(); sources.len()],
            Some(g) => links_for(&sources, &targets, g)?,
        };
        let pairs = sources
            .into_iter()
            .zip(targets)
            .zip(gold_lines)
            .map(|((source, target), gold)| TreePair { source, target, gold })
            .collect();
        Ok(Corpus { pairs })
    }

    /// Reads `PREFIX.src`, `PREFIX.trg` and, if `with_gold`, `PREFIX.gold`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_prefix(prefix: &str, with_gold: bool) -> Result<Corpus, CorpusError> {
        Self::read_files(prefix, with_gold, None)
    }

    /// Like [`Corpus::read_prefix`], with every tree within `limits` (see [`Corpus::from_texts_within`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_prefix_within(prefix: &str, with_gold: bool, limits: &Limits) -> Result<Corpus, CorpusError> {
        Self::read_files(prefix, with_gold, Some(limits))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn read_files(prefix: &str, with_gold: bool, limits: Option<&Limits>) -> Result<Corpus, CorpusError> {
        let read = |ext: &str| {
            let file = format!("{prefix}.{ext}");
            read_text_file(&file).map(|text| (file, text))
        };
        let (sn, st) = read("src")?;
        let (tn, tt) = read("trg")?;
        // A file of no trees is refused by name here, where files are read
        // (the page may hold an empty corpus; a command never has one).
        for (name, text) in [(&sn, &st), (&tn, &tt)] {
            if text.trim().is_empty() {
                return Err(CorpusError::Empty { file: name.clone() });
            }
        }
        let gold = if with_gold { Some(read("gold")?) } else { None };
        Corpus::assemble(
            Named { name: &sn, text: &st },
            Named { name: &tn, text: &tt },
            gold.as_ref().map(|(name, text)| Named { name, text }),
            limits,
        )
    }

    /// Reads a links file for this corpus's pairs (predicted links, say): one
    /// line per pair, every link naming nodes its trees have.
    pub fn read_links(&self, links: Named<'_>) -> Result<Vec<Vec<Link>>, CorpusError> {
        let (sources, targets): (Vec<&Tree>, Vec<&Tree>) = self.pairs.iter().map(|p| (&p.source, &p.target)).unzip();
        links_for(&sources, &targets, links)
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Pair `p`, if the corpus has it.
    pub fn pair(&self, p: PairIndex) -> Option<&TreePair> {
        self.pairs.get(p.index())
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Number of gold links over all pairs.
    pub fn gold_links(&self) -> usize {
        self.pairs.iter().map(|p| p.gold.len()).sum()
    }

    /// Every word of one side (the source's with `source`), pair after
    /// pair: what a table's or a model's coverage is counted over.
    pub fn side_words(&self, source: bool) -> impl Iterator<Item = &str> + Clone {
        self.pairs
            .iter()
            .flat_map(move |p| if source { p.source.words() } else { p.target.words() })
            .map(String::as_str)
    }
}

/// How the words of some sentences fit the two vocabularies of a model
/// (the words it was trained on, source and target): what tells input
/// given the wrong way round, or in other languages, from input it fits.
/// Only words with a letter count (punctuation and numbers are in every
/// language); the vocabularies are asked about lowercased words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WordFit {
    /// Word tokens counted.
    pub tokens: usize,
    /// Of them, known to the vocabulary of the side they were given as.
    pub same: usize,
    /// Known to the other side's vocabulary.
    pub crossed: usize,
}

/// What a [`WordFit`] says of input against a model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Direction {
    /// The input's words are mostly the model's, on the right side.
    Fits,
    /// The input's words are more the model's other side's: source and
    /// target look swapped.
    Reversed { same: f64, crossed: f64 },
    /// Few of the input's words are the model's, on either side: other languages?
    Foreign { same: f64, crossed: f64 },
}

impl WordFit {
    /// Below this share of its words known on either side, input looks foreign to a model.
    pub const FOREIGN: f64 = 0.2;
    /// Input looks reversed when the other side knows at least this much more of its words.
    pub const MARGIN: f64 = 0.1;

    /// Counts `words` against the vocabulary of their side (`known_same`)
    /// and the other side's (`known_crossed`); both are given words lowercased.
    pub fn of<'a>(
        words: impl IntoIterator<Item = &'a str>,
        known_same: impl Fn(&str) -> bool,
        known_crossed: impl Fn(&str) -> bool,
    ) -> WordFit {
        let mut fit = WordFit::default();
        for w in words.into_iter().filter(|w| w.chars().any(char::is_alphabetic)) {
            let w = w.to_lowercase();
            fit.tokens += 1;
            fit.same += usize::from(known_same(&w));
            fit.crossed += usize::from(known_crossed(&w));
        }
        fit
    }

    /// Adds another side's counts (the target sentences' to the source's).
    pub fn and(self, other: WordFit) -> WordFit {
        WordFit {
            tokens: self.tokens + other.tokens,
            same: self.same + other.same,
            crossed: self.crossed + other.crossed,
        }
    }

    /// Reversed when the other side's vocabulary knows clearly more of the
    /// words ([`Self::MARGIN`]), foreign when neither knows
    /// [`Self::FOREIGN`] of them; no words, no verdict (fits).
    pub fn direction(&self) -> Direction {
        if self.tokens == 0 {
            return Direction::Fits;
        }
        let share = |n: usize| n as f64 / self.tokens as f64;
        let (same, crossed) = (share(self.same), share(self.crossed));
        if crossed >= same + Self::MARGIN {
            Direction::Reversed { same, crossed }
        } else if same.max(crossed) < Self::FOREIGN {
            Direction::Foreign { same, crossed }
        } else {
            Direction::Fits
        }
    }
}

impl Direction {
    /// The warning to show, naming the input and the model (`None` when it fits).
    pub fn warning(&self, input: &str, model: &str) -> Option<String> {
        let percent = |x: f64| format!("{:.0}%", 100.0 * x);
        match *self {
            Direction::Fits => None,
            Direction::Reversed { same, crossed } => Some(format!(
                "{input} looks reversed for {model}: {} of its words are the model's on the other side, {} on their own \
                 (are source and target swapped?)",
                percent(crossed),
                percent(same)
            )),
            Direction::Foreign { same, crossed } => Some(format!(
                "{input} looks foreign to {model}: only {} of its words are the model's source or target words ({} on \
                 the other side); is it in the languages the model was trained on?",
                percent(same),
                percent(crossed)
            )),
        }
    }
}

/// The links of a links file, one line per tree pair, each checked against its trees.
fn links_for<T: std::borrow::Borrow<Tree>>(
    sources: &[T],
    targets: &[T],
    file: Named<'_>,
) -> Result<Vec<Vec<Link>>, CorpusError> {
    let lines = parse_links_located(file.text, file.name)?;
    if lines.len() != sources.len() {
        let (line, column) = line_count_position(file.text, sources.len(), lines.len());
        return Err(CorpusError::CountMismatch {
            file: file.name.to_string(),
            line,
            column,
            expected: sources.len(),
            found: lines.len(),
            what: "lines of links",
            per: "tree pair",
        });
    }
    let mut out = Vec::with_capacity(lines.len());
    for (l, ((links, s), t)) in lines.into_iter().zip(sources).zip(targets).enumerate() {
        let (s, t) = (s.borrow(), t.borrow());
        for &(link, column) in &links {
            LinkOutOfRange::check(
                PairIndex::new(l),
                &link,
                (link.source.index(), link.target.index()),
                (s.len(), t.len()),
                LinkUnits::Nodes,
            )
            .map_err(|error| CorpusError::LinkOutOfRange {
                file: file.name.to_string(),
                line: l + 1,
                column,
                error,
            })?;
        }
        out.push(links.into_iter().map(|(link, _)| link).collect());
    }
    Ok(out)
}

/// Pairs `range` of the built-in sample (SQUOIA dev, with its gold links), for tests.
#[cfg(test)]
pub(crate) fn sample(range: impl std::slice::SliceIndex<[TreePair], Output = [TreePair]>) -> Corpus {
    let corpus = Corpus::read_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev"), true).unwrap();
    Corpus { pairs: corpus.pairs[range].to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n<'a>(name: &'a str, text: &'a str) -> Named<'a> {
        Named { name, text }
    }

    #[test]
    fn pairs_are_found_by_number_label_or_word() {
        let c = Corpus::from_texts(
            n("x.src", "(S (NP (ART der) (NN Hund)) (VP bellt))\n(X (NN Hunde))\n(S (ADV hier))\n"),
            n("x.trg", "(S (NP (DT el) (NN perro)) (VP ladra))\n(Y (NNS perros))\n(S (ADV aquí))\n"),
            None,
        )
        .unwrap();
        // Each find's pair by its index (from 0).
        let found = |q: &str, limit| c.find(q, limit).into_iter().map(|(p, f)| (p.index(), f)).collect::<Vec<_>>();
        assert_eq!(found("2", 10), [(1, Found::Number)]);
        assert_eq!(found("#3", 10), [(2, Found::Number)]);
        assert!(found("4", 10).is_empty() && found("0", 10).is_empty() && found("  ", 10).is_empty());
        let label = |source, label: &str, count| Found::Label { source, label: label.into(), count };
        assert_eq!(found("np", 10), [(0, label(true, "NP", 1))]);
        assert_eq!(found("NNS", 10), [(1, label(false, "NNS", 1))]);
        let word = |source, word: &str| Found::Word { source, word: word.into() };
        // A label first, else a word containing the query.
        assert_eq!(found("S", 10), [(0, label(true, "S", 1)), (1, word(false, "perros")), (2, label(true, "S", 1))]);
        assert_eq!(found("hund", 10), [(0, word(true, "Hund")), (1, word(true, "Hunde"))]);
        assert_eq!(found("hund", 1).len(), 1, "at most the limit");
        assert_eq!(found("perros", 10), [(1, word(false, "perros"))]);
        assert!(found("<b>", 10).is_empty());
    }

    #[test]
    fn a_swapped_corpus_reads_the_other_way_and_swapping_twice_is_the_identity() {
        let c = Corpus::from_texts(
            n("x.src", "(S (A a) (B b))\n(X (Y y))\n"),
            n("x.trg", "(T (C c))\n(Z (W w) (V v))\n"),
            Some(n("x.gold", "0-0 2-1?\n1-2\n")),
        )
        .unwrap();
        let s = c.swapped();
        assert_eq!(s.pairs[0].source.to_bracketed(), "(T (C c))");
        assert_eq!(s.pairs[1].target.to_bracketed(), "(X (Y y))");
        let gold: Vec<_> = s.pairs.iter().map(|p| p.gold.clone()).collect();
        assert_eq!(crate::io::links::write_links(&gold), "0-0 1-2?\n2-1\n");
        assert_eq!(s.swapped(), c);
    }

    #[test]
    fn a_blank_line_in_either_file_is_refused_where_it_is_never_shifting_the_pairs() {
        let src = "(S (A a))\n(S (B b))\n\n(S (C c))\n";
        let trg = "(T (X x))\n(T (Y y))\n\n(T (Z z))\n";
        let e = Corpus::from_texts(n("p.src", src), n("p.trg", "(T (X x))\n(T (Y y))\n(T (Z z))\n"), None).unwrap_err();
        assert!(e.to_string().starts_with("p.src:3:1: expected a tree on every line, found a blank line"), "{e}");
        // Both files with the blank line: still refused, not 3 pairs for 4 lines.
        let e = Corpus::from_texts(n("p.src", src), n("p.trg", trg), None).unwrap_err();
        assert_eq!(
            (e.file(), e.to_string().split(": ").nth(1)),
            ("p.src", Some("expected a tree on every line, found a blank line"))
        );
        // A blank line at the end shifts nothing.
        let one = Corpus::from_texts(n("p.src", "(S (A a))\n\n\n"), n("p.trg", "(T (X x))\n"), None).unwrap();
        assert_eq!(one.len(), 1);
        // Trees spread over lines (a .mrg layout) may be separated by blank lines.
        let mrg = "(S\n  (A a))\n\n(S\n  (B b))\n";
        assert_eq!(Corpus::from_texts(n("p.mrg", mrg), n("p.trg", "(T (X x))\n(T (Y y))\n"), None).unwrap().len(), 2);
    }

    #[test]
    fn input_words_tell_a_fitting_a_reversed_and_a_foreign_corpus_apart() {
        let (de, es) = (["der", "hund", "bellt"], ["el", "perro", "ladra"]);
        let fit = |source: &[&str], target: &[&str]| {
            let s = WordFit::of(source.iter().copied(), |w| de.contains(&w), |w| es.contains(&w));
            let t = WordFit::of(target.iter().copied(), |w| es.contains(&w), |w| de.contains(&w));
            s.and(t).direction()
        };
        assert_eq!(fit(&["Der", "Hund", ".", "1"], &["el", "gato"]), Direction::Fits);
        let Direction::Reversed { same, crossed } = fit(&["El", "perro"], &["der", "Hund", "bellt"]) else { panic!() };
        assert_eq!((same, crossed), (0.0, 1.0));
        assert!(matches!(fit(&["the", "dog"], &["barks"]), Direction::Foreign { .. }));
        assert_eq!(fit(&[".", "3"], &[]), Direction::Fits, "no words, no verdict");
        let w = fit(&["El", "perro"], &["der"]).warning("x.src/x.trg", "model.json").unwrap();
        assert!(w.starts_with("x.src/x.trg looks reversed for model.json: 100% of its words"), "{w}");
    }

    #[test]
    fn assembles_and_checks() {
        let c = Corpus::from_texts(
            n("a.src", "(S (A a) (B b))\n(X x)\n"),
            n("a.trg", "(S (A a))\n(Y y)\n"),
            Some(n("a.gold", "0-0 1-1?\n\n")),
        )
        .unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c.gold_links(), 2);
        let e = Corpus::from_texts(n("a.src", "(X x)\n"), n("a.trg", "(Y y)\n(Z z)"), None).unwrap_err();
        assert_eq!(e.to_string(), "a.trg:2:1: expected 1 tree (one per source tree), found 2");
        let e =
            Corpus::from_texts(n("a.src", "(S (A a) (B b))"), n("a.trg", "(S (A a))"), Some(n("a.gold", "0-0 2-3")))
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.gold:1:5: link 2-3 names target node 3, but the target tree of pair 1 has only 2 nodes (numbered 0 to 1)"
        );
    }
}
