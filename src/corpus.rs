//! A parallel treebank: source trees, target trees and (optionally) gold
//! links, read from the bracketed files `PREFIX.src`, `PREFIX.trg`,
//! `PREFIX.gold` and checked against each other.

use crate::io::links::{parse_links, Link, LinkError};
use crate::tree::{ParseError, Tree};

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

/// Why a corpus could not be assembled; each variant names the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CorpusError {
    #[error(transparent)]
    Tree(#[from] ParseError),
    #[error(transparent)]
    Links(#[from] LinkError),
    #[error("{file}: expected {expected} {what} (one per {per}), found {found}")]
    CountMismatch { file: String, expected: usize, found: usize, what: &'static str, per: &'static str },
    #[error("{file}:{line}:{column}: link {link} names {side} node {node}, but the {side} tree of pair {line} has only {nodes} nodes")]
    LinkOutOfRange {
        file: String,
        line: usize,
        column: usize,
        link: String,
        side: &'static str,
        node: usize,
        nodes: usize,
    },
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
}

/// A named text input (file name for errors, and contents).
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl Corpus {
    /// Builds a corpus from the texts of the source, target and gold files.
    pub fn from_texts(source: Named<'_>, target: Named<'_>, gold: Option<Named<'_>>) -> Result<Corpus, CorpusError> {
        let sources = Tree::parse_all(source.text, source.name)?;
        let targets = Tree::parse_all(target.text, target.name)?;
        if sources.len() != targets.len() {
            return Err(CorpusError::CountMismatch {
                file: target.name.to_string(),
                expected: sources.len(),
                found: targets.len(),
                what: "trees",
                per: "source tree",
            });
        }
        let gold_lines = match gold {
            None => vec![Vec::new(); sources.len()],
            Some(g) => {
                let lines = parse_links(g.text, g.name)?;
                if lines.len() != sources.len() {
                    return Err(CorpusError::CountMismatch {
                        file: g.name.to_string(),
                        expected: sources.len(),
                        found: lines.len(),
                        what: "lines of links",
                        per: "tree pair",
                    });
                }
                check_links(&sources, &targets, &lines, g)?;
                lines
            }
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
        let read = |ext: &str| {
            let file = format!("{prefix}.{ext}");
            std::fs::read_to_string(&file)
                .map(|text| (file.clone(), text))
                .map_err(|e| CorpusError::Io { file, message: e.to_string() })
        };
        let (sn, st) = read("src")?;
        let (tn, tt) = read("trg")?;
        let gold = if with_gold { Some(read("gold")?) } else { None };
        Corpus::from_texts(
            Named { name: &sn, text: &st },
            Named { name: &tn, text: &tt },
            gold.as_ref().map(|(name, text)| Named { name, text }),
        )
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Number of gold links over all pairs.
    pub fn gold_links(&self) -> usize {
        self.pairs.iter().map(|p| p.gold.len()).sum()
    }
}

fn check_links(sources: &[Tree], targets: &[Tree], lines: &[Vec<Link>], gold: Named<'_>) -> Result<(), CorpusError> {
    for (l, (links, text_line)) in lines.iter().zip(gold.text.lines()).enumerate() {
        let columns = crate::io::text::tokens_with_columns(text_line).into_iter().map(|(c, _)| c);
        for (link, column) in links.iter().zip(columns) {
            let (s, t) = (&sources[l], &targets[l]);
            let bad = if link.source >= s.len() {
                Some(("source", link.source, s.len()))
            } else if link.target >= t.len() {
                Some(("target", link.target, t.len()))
            } else {
                None
            };
            if let Some((side, node, nodes)) = bad {
                return Err(CorpusError::LinkOutOfRange {
                    file: gold.name.to_string(),
                    line: l + 1,
                    column,
                    link: link.to_string(),
                    side,
                    node,
                    nodes,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n<'a>(name: &'a str, text: &'a str) -> Named<'a> {
        Named { name, text }
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
        assert_eq!(e.to_string(), "a.trg: expected 1 trees (one per source tree), found 2");
        let e =
            Corpus::from_texts(n("a.src", "(S (A a) (B b))"), n("a.trg", "(S (A a))"), Some(n("a.gold", "0-0 2-3")))
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.gold:1:5: link 2-3 names target node 3, but the target tree of pair 1 has only 2 nodes"
        );
    }
}
