//! The link format of `NAME.gold` files: one line per sentence pair (possibly
//! empty), space-separated links `i-j` (good / sure) or `i-j?` (fuzzy /
//! possible), where `i` and `j` are pre-order node ids of the source and
//! target trees.
//!
//! # Examples
//! ```
//! use treelink::io::links::{parse_links, write_links, Link, LinkKind};
//! use treelink::tree::NodeId;
//! let pairs = parse_links("0-0 2-1?\n\n", "dev.gold").unwrap();
//! let n = NodeId::new;
//! assert_eq!(pairs[0], [Link::good(n(0), n(0)), Link { source: n(2), target: n(1), kind: LinkKind::Fuzzy }]);
//! assert!(pairs[1].is_empty());
//! assert_eq!(write_links(&pairs), "0-0 2-1?\n\n");
//! ```

use std::fmt;

use crate::pair_index::PairIndex;

use crate::tree::NodeId;

/// Whether annotators marked the link exact or approximate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum LinkKind {
    /// `i-j`: good / sure.
    Good,
    /// `i-j?`: fuzzy / possible.
    Fuzzy,
}

/// A link between source node `source` and target node `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Link {
    pub source: NodeId,
    pub target: NodeId,
    pub kind: LinkKind,
}

impl Link {
    pub fn good(source: NodeId, target: NodeId) -> Self {
        Link { source, target, kind: LinkKind::Good }
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.source, self.target)?;
        if self.kind == LinkKind::Fuzzy {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// A located error in a links file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: expected a link 'i-j' or 'i-j?' with node numbers i and j, found '{found}'")]
pub struct LinkError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub found: String,
}

/// `i-j` (a good link) or `i-j?` (a fuzzy one), `i` and `j` digits only.
pub(crate) fn parse_link(token: &str) -> Option<Link> {
    let (body, kind) = match token.strip_suffix('?') {
        Some(b) => (b, LinkKind::Fuzzy),
        None => (token, LinkKind::Good),
    };
    let (i, j) = body.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(i) || !digits(j) {
        return None;
    }
    Some(Link { source: NodeId::new(i.parse().ok()?), target: NodeId::new(j.parse().ok()?), kind })
}

/// Reads a links file: one `Vec<Link>` per line.
pub fn parse_links(text: &str, file: &str) -> Result<Vec<Vec<Link>>, LinkError> {
    Ok(parse_links_located(text, file)?
        .into_iter()
        .map(|line| line.into_iter().map(|(link, _)| link).collect())
        .collect())
}

/// Like [`parse_links`], with the 1-based column of each link (its line is
/// its index plus one), for errors that check links against trees.
pub fn parse_links_located(text: &str, file: &str) -> Result<Vec<Vec<(Link, usize)>>, LinkError> {
    text.lines()
        .enumerate()
        .map(|(l, line)| {
            crate::io::text::tokens_with_columns(line)
                .into_iter()
                .map(|(column, token)| {
                    parse_link(token).map(|link| (link, column)).ok_or_else(|| LinkError {
                        file: file.to_string(),
                        line: l + 1,
                        column,
                        found: token.to_string(),
                    })
                })
                .collect()
        })
        .collect()
}

/// What the numbers of a link count: the nodes of a tree pair (sub-tree
/// links) or the words of a sentence pair (word links).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkUnits {
    Nodes,
    Words,
}

/// A link that names a node (or word) past the end of its tree (or
/// sentence): the one shape of this error, wherever links meet the pairs
/// they link (a gold or word links file read, a corpus exported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkOutOfRange {
    /// The sentence pair (shown as its number, from 1).
    pub pair: PairIndex,
    /// The link as written (`2-3`, `2-3?`).
    pub link: String,
    /// "source" or "target": the side whose number is too large.
    pub side: &'static str,
    pub index: usize,
    /// How many nodes (or words) that side has.
    pub count: usize,
    pub units: LinkUnits,
}

impl LinkOutOfRange {
    /// The first side of the link `(i, j)` of pair `pair` whose
    /// number is not below that side's count, if any.
    pub fn check(
        pair: PairIndex,
        link: &dyn fmt::Display,
        (i, j): (usize, usize),
        (source_count, target_count): (usize, usize),
        units: LinkUnits,
    ) -> Result<(), LinkOutOfRange> {
        let (side, index, count) = if i >= source_count {
            ("source", i, source_count)
        } else if j >= target_count {
            ("target", j, target_count)
        } else {
            return Ok(());
        };
        Err(LinkOutOfRange { pair, link: link.to_string(), side, index, count, units })
    }
}

impl fmt::Display for LinkOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LinkOutOfRange { pair, link, side, index, count, .. } = self;
        match self.units {
            LinkUnits::Nodes => write!(
                f,
                "link {link} names {side} node {index}, but the {side} tree of pair {pair} has only {count} nodes \
                 (numbered 0 to {})",
                count.saturating_sub(1)
            ),
            LinkUnits::Words => write!(
                f,
                "link {link} names {side} word {index}, but the {side} sentence of pair {pair} has only {count} words"
            ),
        }
    }
}

impl std::error::Error for LinkOutOfRange {}

/// One line of links, in the order given.
pub fn format_link_line(links: &[Link]) -> String {
    links.iter().map(Link::to_string).collect::<Vec<_>>().join(" ")
}

/// Writes a links file, one line per pair (each line ends with a newline).
pub fn write_links(pairs: &[Vec<Link>]) -> String {
    let mut out = String::new();
    for links in pairs {
        out.push_str(&format_link_line(links));
        out.push('\n');
    }
    out
}

/// A links file (sub-tree links `i-j`/`i-j?`, or word links `i-j`) with
/// every link reversed (`j-i`), for pairs whose sides are swapped; every
/// other token and every line stays as it is.
pub fn swap_links_text(text: &str) -> String {
    let swap = |token: &str| -> Option<String> {
        let (link, fuzzy) = token.strip_suffix('?').map_or((token, ""), |l| (l, "?"));
        let (i, j) = link.split_once('-')?;
        let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
        (digits(i) && digits(j)).then(|| format!("{j}-{i}{fuzzy}"))
    };
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive(|c: char| c.is_whitespace()) {
        let token = piece.trim_end_matches(|c: char| c.is_whitespace());
        match swap(token) {
            Some(swapped) => {
                out.push_str(&swapped);
                out.push_str(&piece[token.len()..]);
            }
            None => out.push_str(piece),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapping_a_links_text_reverses_each_link_and_keeps_the_rest() {
        let text = "0-1 2-3?\n\n10-0  x-1 4-\n7-8";
        assert_eq!(swap_links_text(text), "1-0 3-2?\n\n0-10  x-1 4-\n8-7");
        assert_eq!(swap_links_text(&swap_links_text(text)), text);
    }

    #[test]
    fn errors_point_at_the_bad_token() {
        let e = parse_links("0-0 1-1\n0-0  3_4 5-5\n", "x.gold").unwrap_err();
        assert_eq!(e.to_string(), "x.gold:2:6: expected a link 'i-j' or 'i-j?' with node numbers i and j, found '3_4'");
        for bad in ["-1-2", "1-", "a-b", "1-2??", "99999999999999999999999-1"] {
            assert!(parse_links(bad, "y").is_err(), "{bad}");
        }
    }

    #[test]
    fn tabs_and_trailing_space_are_tolerated() {
        let pairs = parse_links("0-0\t1-2? \n", "z").unwrap();
        let n = NodeId::new;
        let want = vec![vec![Link::good(n(0), n(0)), Link { source: n(1), target: n(2), kind: LinkKind::Fuzzy }]];
        assert_eq!(pairs, want);
    }
}

/// A located error in a posteriors file (`align --posteriors`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: expected {expected}, found {found}")]
pub struct PosteriorError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub expected: String,
    pub found: String,
}

/// Writes posteriors as `align --posteriors` does: a line per pair, one
/// number per link of that pair's line of links, in its order.
pub fn write_posteriors(line: &[f64]) -> String {
    line.iter().map(|p| format!("{p:.6}")).collect::<Vec<_>>().join(" ")
}

/// Reads a posteriors file for `links` (a line per pair, one probability in
/// [0, 1] per link, in the links' order); `file` names it in errors.
///
/// ```
/// use treelink::io::links::{parse_links, read_posteriors};
/// let links = parse_links("0-0 2-1\n\n", "pred.links").unwrap();
/// assert_eq!(read_posteriors("0.9 0.625\n\n", "pred.post", &links).unwrap(), [vec![0.9, 0.625], vec![]]);
/// let e = read_posteriors("0.9\n\n", "pred.post", &links).unwrap_err();
/// assert_eq!(e.to_string(), "pred.post:1:4: expected 2 posteriors (one per link of line 1 of the links), found 1");
/// ```
pub fn read_posteriors(text: &str, file: &str, links: &[Vec<Link>]) -> Result<Vec<Vec<f64>>, PosteriorError> {
    let error = |line: usize, column: usize, expected: String, found: String| PosteriorError {
        file: file.to_string(),
        line,
        column,
        expected,
        found,
    };
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != links.len() {
        let (line, column) = match lines.len().cmp(&links.len()) {
            std::cmp::Ordering::Greater => (links.len() + 1, 1),
            _ => (lines.len().max(1), lines.last().map_or(1, |l| l.chars().count() + 1)),
        };
        let expected = format!("{} lines (one per line of the links)", links.len());
        return Err(error(line, column, expected, format!("{}", lines.len())));
    }
    let mut out = Vec::with_capacity(lines.len());
    for (k, (text, pair)) in lines.iter().zip(links).enumerate() {
        let mut values = Vec::with_capacity(pair.len());
        let mut column = 1;
        for token in text.split(' ') {
            if !token.is_empty() {
                match token.parse::<f64>() {
                    Ok(p) if (0.0..=1.0).contains(&p) => values.push(p),
                    _ => {
                        let expected = "a probability from 0 to 1".to_string();
                        return Err(error(k + 1, column, expected, format!("'{token}'")));
                    }
                }
            }
            column += token.chars().count() + 1;
        }
        if values.len() != pair.len() {
            let expected = format!("{} posteriors (one per link of line {} of the links)", pair.len(), k + 1);
            return Err(error(k + 1, text.chars().count() + 1, expected, values.len().to_string()));
        }
        out.push(values);
    }
    Ok(out)
}
