//! The Dublin sub-tree aligner's format (Zhechev & Way 2008; Lingua-Align
//! reads and writes it as `dublin`): for each tree pair, four lines —
//!
//! ```text
//! (S-1 (NP-2 (DT-3 the) (NN-4 house)) (VBZ-5 is))
//! (S-1 (NP-2 (ART-3 das) (NN-4 Haus)) (VAFIN-5 ist))
//! 1 1 2 2 3 3 4 4 5 5
//! <blank line>
//! ```
//!
//! — the source tree and the target tree, bracketed on one line each, every
//! label carrying its node's number after a last `-` (1-based, in pre-order
//! over phrase and POS nodes, as treelink numbers nodes from 0), then the
//! links as pairs of numbers `source target`. The format has no link types:
//! links read as good, and a fuzzy link is written as any other
//! ([`write_dublin`] counts them so the caller can say so). A bracket that
//! is a word is written as the bracket itself (`(-LRB--3 ()`): read as
//! `-LRB-` / `-RRB-`, as the bracketed files write it, and written back so.
//!
//! Reading renumbers nodes by their numbers (so a file numbered in another
//! order still reads right) and refuses, located: a tree that does not
//! read, a label without its number, a number used twice in a tree, and a
//! link naming a number its tree does not have. A last number without its
//! partner (the shared nl-en file has two such lines) is left out and
//! listed in the pair's notes. Cost: O(input length). No recursion.
//!
//! ```
//! use treelink::io::dublin::{read_dublin, write_dublin};
//! let text = "(S-1 (NP-2 (DT-3 the) (NN-4 house)) (VBZ-5 is))\n(S-1 (NP-2 (ART-3 das) (NN-4 Haus)) (VAFIN-5 ist))\n1 1 2 2 5 5\n\n";
//! let pairs = read_dublin(text, "x.dublin").unwrap();
//! assert_eq!(pairs[0].source.to_string(), "(S (NP (DT the) (NN house)) (VBZ is))");
//! let n = treelink::tree::NodeId::new;
//! assert_eq!(pairs[0].links, [(n(0), n(0)), (n(1), n(1)), (n(4), n(4))]);
//! let (written, _) = write_dublin(pairs.iter().map(|p| (&p.source, &p.target, p.links.iter().map(|&(s, t)| (s, t, false)))));
//! assert_eq!(written, text);
//! ```

use std::fmt;

use crate::tree::{NodeId, ParseError, Tree, TreeBuilder};

/// One tree pair of a Dublin file, its nodes numbered from 0 in pre-order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DublinPair {
    pub source: Tree,
    pub target: Tree,
    /// `(source node, target node)`, in the file's order.
    pub links: Vec<(NodeId, NodeId)>,
    /// The line of the pair's source tree.
    pub line: usize,
    /// What was left out, located: a last link number without its partner
    /// (files the aligner wrote so exist).
    pub notes: Vec<String>,
}

/// A located error in a Dublin file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DublinError {
    #[error(transparent)]
    Tree(#[from] ParseError),
    #[error("{file}:{line}:{column}: {message}")]
    Format { file: String, line: usize, column: usize, message: String },
}

impl DublinError {
    fn at(file: &str, line: usize, column: usize, message: impl fmt::Display) -> Self {
        DublinError::Format { file: file.to_string(), line, column, message: message.to_string() }
    }
}

/// Stand-ins for a bracket written as a word (`(-LRB--3 ()`, as the Dublin
/// aligner writes them): one character each, so columns stay right.
const OPEN_WORD: char = '\u{E000}';
const CLOSE_WORD: char = '\u{E001}';

/// `line` with each bracket that is a POS node's word (`(X-3 ()`, `(X-3 ))`)
/// replaced by its stand-in.
fn bracket_words(line: &str) -> std::borrow::Cow<'_, str> {
    let chars: Vec<char> = line.chars().collect();
    let mut out: Option<Vec<char>> = None;
    let mut k = 0;
    while k < chars.len() {
        // `(LABEL` then one space, a bracket, and the ')' closing the POS node.
        if chars[k] == '(' {
            let mut j = k + 1;
            while j < chars.len() && !chars[j].is_whitespace() && chars[j] != '(' && chars[j] != ')' {
                j += 1;
            }
            if j > k + 1
                && chars.get(j) == Some(&' ')
                && matches!(chars.get(j + 1), Some('(' | ')'))
                && chars.get(j + 2) == Some(&')')
            {
                let o = out.get_or_insert_with(|| chars.clone());
                o[j + 1] = if chars[j + 1] == '(' { OPEN_WORD } else { CLOSE_WORD };
                k = j + 3;
                continue;
            }
        }
        k += 1;
    }
    match out {
        Some(o) => std::borrow::Cow::Owned(o.into_iter().collect()),
        None => std::borrow::Cow::Borrowed(line),
    }
}

/// A tree read from one line with its numbered labels, and each node's
/// number (by pre-order id).
fn read_numbered(line: &str, file: &str, line_no: usize) -> Result<(Tree, Vec<u64>), DublinError> {
    let line = &*bracket_words(line);
    let tree = Tree::parse_one(line, file).map_err(|mut e| {
        e.line += line_no - 1;
        DublinError::Tree(e)
    })?;
    // The 1-based columns (in characters) of the `(` of each node, in pre-order.
    let columns: Vec<usize> = line.chars().enumerate().filter(|&(_, c)| c == '(').map(|(k, _)| k + 1).collect();
    // With an outer unlabelled bracket, node k's '(' is the (k + 1)-th.
    let skip = usize::from(tree.outer_bracket());
    let mut builder = TreeBuilder::new();
    let mut numbers = Vec::with_capacity(tree.len());
    let mut open: Vec<NodeId> = Vec::new();
    for n in tree.node_ids() {
        while open.last().is_some_and(|&p| !tree.is_ancestor(p, n)) {
            open.pop();
            builder.close();
        }
        let label = tree.label(n);
        let number = label
            .rsplit_once('-')
            .filter(|(l, k)| !l.is_empty() && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|(l, k)| Some((l, k.parse::<u64>().ok()?)));
        let Some((plain, number)) = number else {
            let column = columns.get(n.index() + skip).map_or(1, |c| c + 1);
            return Err(DublinError::at(
                file,
                line_no,
                column,
                format!("expected a label with its node number (as NP-3), found '{label}'"),
            ));
        };
        numbers.push(number);
        match tree.word_of(n).filter(|_| tree.is_pos(n)) {
            Some(word) => {
                // A bracket as a word is written -LRB- / -RRB- in trees (as in the bracketed files).
                let word = match word.chars().next() {
                    Some(OPEN_WORD) if word.len() == OPEN_WORD.len_utf8() => "-LRB-",
                    Some(CLOSE_WORD) if word.len() == CLOSE_WORD.len_utf8() => "-RRB-",
                    _ => word,
                };
                builder.pos(plain, word);
            }
            None => {
                builder.open_phrase(plain);
                open.push(n);
            }
        }
    }
    while open.pop().is_some() {
        builder.close();
    }
    let plain = builder
        .finish_wrapped(tree.outer_bracket())
        .ok_or_else(|| DublinError::at(file, line_no, 1, "expected a tree, found none"))?;
    let mut sorted: Vec<(u64, usize)> = numbers.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        let column = columns.get(w[1].1 + skip).map_or(1, |c| c + 1);
        return Err(DublinError::at(
            file,
            line_no,
            column,
            format!("node number {} is used twice in this tree; expected each node its own", w[0].0),
        ));
    }
    Ok((plain, numbers))
}

/// Reads a Dublin file (see the module documentation): source tree,
/// target tree and links, then a blank line, for each pair; CRLF line ends
/// and a missing last blank line are accepted.
pub fn read_dublin(text: &str, file: &str) -> Result<Vec<DublinPair>, DublinError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut pairs = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].trim().is_empty() {
            k += 1;
            continue;
        }
        let line_no = k + 1;
        let missing = |what: &str| {
            let (line, column) = crate::io::text::end_position(text);
            DublinError::at(
                file,
                line,
                column,
                format!("expected {what} of the pair that starts on line {line_no}, found the end of the file"),
            )
        };
        let (Some(target_line), Some(links_line)) = (lines.get(k + 1), lines.get(k + 2)) else {
            return Err(missing(if k + 1 < lines.len() { "the links line" } else { "the target tree" }));
        };
        let (source, source_numbers) = read_numbered(lines[k], file, line_no)?;
        let (target, target_numbers) = read_numbered(target_line, file, line_no + 1)?;
        let index = |numbers: &[u64]| {
            let mut v: Vec<(u64, NodeId)> = numbers.iter().copied().zip((0..).map(NodeId::new)).collect();
            v.sort_unstable();
            v
        };
        let (source_index, target_index) = (index(&source_numbers), index(&target_numbers));
        let mut tokens = crate::io::text::tokens_with_columns(links_line);
        let mut notes = Vec::new();
        if tokens.len() % 2 == 1 {
            // Read all but the dangling number, and say so (refusing would lose the file).
            let (column, last) = tokens[tokens.len() - 1];
            notes.push(format!(
                "{file}:{}:{column}: source node {last} has no target node number after it (the line ends): left out",
                line_no + 2
            ));
            tokens.pop();
        }
        let mut links = Vec::with_capacity(tokens.len() / 2);
        for (i, &(column, token)) in tokens.iter().enumerate() {
            let (index, side) = if i % 2 == 0 { (&source_index, "source") } else { (&target_index, "target") };
            let node = token
                .parse::<u64>()
                .ok()
                .and_then(|n| index.binary_search_by_key(&n, |e| e.0).ok().map(|k| index[k].1))
                .ok_or_else(|| {
                    DublinError::at(
                        file,
                        line_no + 2,
                        column,
                        format!(
                            "expected a node number of the {side} tree (line {}), found '{token}'",
                            line_no + usize::from(side == "target")
                        ),
                    )
                })?;
            if i % 2 == 0 {
                links.push((node, NodeId::ROOT));
            } else if let Some(last) = links.last_mut() {
                last.1 = node;
            }
        }
        pairs.push(DublinPair { source, target, links, line: line_no, notes });
        k += 3;
    }
    Ok(pairs)
}

/// Writes tree pairs with their links `(source, target, fuzzy)` in the
/// Dublin format; returns the text and how many fuzzy links were written as
/// plain ones (the format has no link types). Reading it back gives the same
/// trees and links (types aside).
pub fn write_dublin<'a, L>(pairs: impl IntoIterator<Item = (&'a Tree, &'a Tree, L)>) -> (String, usize)
where
    L: IntoIterator<Item = (NodeId, NodeId, bool)>,
{
    let mut out = String::new();
    let mut fuzzy = 0;
    for (source, target, links) in pairs {
        write_numbered(source, &mut out);
        out.push('\n');
        write_numbered(target, &mut out);
        out.push('\n');
        let mut first = true;
        for (s, t, is_fuzzy) in links {
            fuzzy += usize::from(is_fuzzy);
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(&format!("{} {}", s.index() + 1, t.index() + 1));
        }
        out.push_str("\n\n");
    }
    (out, fuzzy)
}

/// A tree on one line, each label followed by `-` and its node's number
/// from 1 (iterative: a deep tree cannot overflow the stack).
fn write_numbered(tree: &Tree, out: &mut String) {
    enum Step {
        Open(NodeId),
        Close,
    }
    if tree.outer_bracket() {
        out.push_str("( ");
    }
    let mut stack = vec![Step::Open(NodeId::ROOT)];
    let mut first = true;
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(n) => {
                if !first {
                    out.push(' ');
                }
                first = false;
                out.push_str(&format!("({}-{}", tree.label(n), n.index() + 1));
                match tree.word_of(n).filter(|_| tree.is_pos(n)) {
                    Some(w) => {
                        out.push(' ');
                        // The aligner writes a bracket word as the bracket itself.
                        out.push_str(match w {
                            "-LRB-" => "(",
                            "-RRB-" => ")",
                            w => w,
                        });
                        out.push(')');
                    }
                    None => {
                        stack.push(Step::Close);
                        stack.extend(tree.children(n).iter().rev().map(|&c| Step::Open(c)));
                    }
                }
            }
            Step::Close => out.push(')'),
        }
    }
    if tree.outer_bracket() {
        out.push_str(" )");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_map_to_nodes_whatever_their_order_and_labels_keep_their_dashes() {
        // Numbered in post-order, with a label holding dashes of its own.
        let text = "(NP-SBJ-3 (-LRB--1 -LRB-) (NN-2 x))\n(X-2 (Y-1 y))\n3 2 1 1 2 1\n";
        let pairs = read_dublin(text, "p.dublin").unwrap();
        assert_eq!(pairs[0].source.to_string(), "(NP-SBJ (-LRB- -LRB-) (NN x))");
        let n = NodeId::new;
        assert_eq!(pairs[0].links, [(n(0), n(0)), (n(1), n(1)), (n(2), n(1))]);
    }

    #[test]
    fn errors_are_located() {
        let err = |text: &str| read_dublin(text, "e.dublin").unwrap_err().to_string();
        assert_eq!(
            err("(S-1 (A a))\n(T-1 (B-2 b))\n1 1\n"),
            "e.dublin:1:7: expected a label with its node number (as NP-3), found 'A'"
        );
        assert_eq!(
            err("(S-1 (A-1 a))\n(T-1 (B-2 b))\n1 1\n"),
            "e.dublin:1:7: node number 1 is used twice in this tree; expected each node its own"
        );
        let odd = read_dublin("(S-1 (A-2 a))\n(T-1 (B-2 b))\n1 1 2\n", "e.dublin").unwrap();
        assert_eq!(odd[0].links, [(NodeId::new(0), NodeId::new(0))]);
        assert_eq!(
            odd[0].notes,
            ["e.dublin:3:5: source node 2 has no target node number after it (the line ends): left out"]
        );
        assert_eq!(
            err("(S-1 (A-2 a))\n(T-1 (B-2 b))\n1 3\n"),
            "e.dublin:3:3: expected a node number of the target tree (line 2), found '3'"
        );
        assert!(err("(S-1 (A-2 a))\n(T-1 (B-2 b)\n1 1\n").starts_with("e.dublin:2:"));
        let no_links = err("(S-1 (A-2 a))\n(T-1 (B-2 b))\n");
        assert!(no_links.contains("expected the links line of the pair that starts on line 1"), "{no_links}");
        assert!(err("\n\n(S-1 (A-2 a))\n").contains("expected the target tree of the pair that starts on line 3"));
    }

    #[test]
    fn a_bracket_written_as_a_word_reads_as_in_the_bracketed_files() {
        let text = "(S-1 (-LRB--2 () (NN-3 x) (-RRB--4 )))\n(T-1 (Y-2 y))\n2 2\n";
        let pairs = read_dublin(text, "b.dublin").unwrap();
        assert_eq!(pairs[0].source.to_string(), "(S (-LRB- -LRB-) (NN x) (-RRB- -RRB-))");
        let (written, _) =
            write_dublin([(&pairs[0].source, &pairs[0].target, vec![(NodeId::new(1), NodeId::new(1), false)])]);
        assert_eq!(written, format!("{text}\n"));
    }

    #[test]
    fn fuzzy_links_are_counted_when_written() {
        let t = Tree::parse_one("(S (A a))", "t").unwrap();
        let n = NodeId::new;
        let (text, fuzzy) = write_dublin([(&t, &t, vec![(n(0), n(0), false), (n(1), n(1), true)])]);
        assert_eq!(text, "(S-1 (A-2 a))\n(S-1 (A-2 a))\n1 1 2 2\n\n");
        assert_eq!(fuzzy, 1);
    }
}
