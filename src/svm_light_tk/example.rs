//! SVM-Light-TK's example lines, read as its `svm_learn` and `svm_classify`
//! read them, with located errors where it would exit or silently skip.
//!
//! ```text
//! LABEL [|BT| TREE]... [|ET|] [VECTOR [|BV| VECTOR]... [|EV|]]
//! +1 |BT| (NP (DT the) (NN dog)) |BT| (NP (DT el) (NN perro)) |ET| 1:0.5 3:2 |EV|
//! ```
//!
//! - LABEL: a number (`+1`, `-1`, `2.5`: positive above 0, negative below).
//! - Trees: from the first `|BT|` to `|ET|`, separated by `|BT|`; an empty
//!   one (`|BT| |ET|`) is kept, and contributes 0 to every kernel. A tree is
//!   `(LABEL TREE...)` or `(LABEL LEAF...)`: a node's children are all trees
//!   or all leaves (SVM-Light-TK reads a leaf up to the next `)`, so it
//!   cannot mix them); `(x)` is a leaf too (SVM-Light-TK writes its leaves so
//!   in model files). Labels and leaves are tokens without whitespace or
//!   brackets.
//! - Vectors: after `|ET|` (or after the label if there are no trees), sparse
//!   `index:value` pairs with indices from 1, increasing, separated by
//!   `|BV|`, optionally ended by `|EV|`.
//!
//! Where SVM-Light-TK would ignore text (between the label and `|BT|`, after
//! `|EV|`), this reader reports it: silence would be a difference.

use std::fmt;

/// A parse tree as SVM-Light-TK reads it: leaves are nodes without
/// children, and any node may have several leaves among its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TkTree {
    /// Labels in pre-order (the root first).
    pub labels: Vec<String>,
    /// Children of each node, in order; empty for a leaf.
    pub children: Vec<Vec<usize>>,
}

impl TkTree {
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

impl fmt::Display for TkTree {
    /// The bracketed form, leaves as bare tokens; iterative (deep trees).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        enum Step {
            Open(usize),
            Close,
        }
        let mut stack = vec![Step::Open(0)];
        let mut first = true;
        while let Some(step) = stack.pop() {
            match step {
                Step::Open(n) => {
                    if !first {
                        f.write_str(" ")?;
                    }
                    first = false;
                    if self.children[n].is_empty() && n != 0 {
                        f.write_str(&self.labels[n])?;
                    } else {
                        write!(f, "({}", self.labels[n])?;
                        stack.push(Step::Close);
                        stack.extend(self.children[n].iter().rev().map(|&c| Step::Open(c)));
                    }
                }
                Step::Close => f.write_str(")")?,
            }
        }
        Ok(())
    }
}

/// One example: its label, its trees (`None`: an empty tree) and its sparse
/// vectors (`(index, value)`, indices increasing from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub label: f64,
    pub trees: Vec<Option<TkTree>>,
    pub vectors: Vec<Vec<(u32, f64)>>,
}

impl fmt::Display for Example {
    /// The example line (the label as the shortest decimal that reads back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.label)?;
        write_body(f, &self.trees, &self.vectors)
    }
}

/// Trees and vectors in SVM-Light-TK's markers, after a label or α·y.
pub(crate) fn write_body(f: &mut dyn fmt::Write, trees: &[Option<TkTree>], vectors: &[Vec<(u32, f64)>]) -> fmt::Result {
    for t in trees {
        f.write_str(" |BT| ")?;
        if let Some(t) = t {
            write!(f, "{t}")?;
        }
    }
    if !trees.is_empty() {
        f.write_str(" |ET|")?;
    }
    for (k, v) in vectors.iter().enumerate() {
        if k > 0 {
            f.write_str(" |BV|")?;
        }
        for (i, x) in v {
            write!(f, " {i}:{x}")?;
        }
    }
    if !vectors.is_empty() {
        f.write_str(" |EV|")?;
    }
    Ok(())
}

/// A located error in an example file: `file:line:column: what was expected`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ExampleError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

const BT: &str = "|BT|";
const ET: &str = "|ET|";
const BV: &str = "|BV|";
const EV: &str = "|EV|";

/// Reads the example on `text` (one line, without its newline); `line`
/// numbers it in errors. The first token is the label (α·y in a model file).
pub fn parse_example(text: &str, file: &str, line: usize) -> Result<Example, ExampleError> {
    let err = |at: usize, message: String| ExampleError {
        file: file.to_string(),
        line,
        column: text[..at.min(text.len())].chars().count() + 1,
        message,
    };
    let start = text.len() - text.trim_start().len();
    let label_end = text[start..].find(char::is_whitespace).map_or(text.len(), |k| start + k);
    let label_text = &text[start..label_end];
    let label: f64 = label_text
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| err(start, format!("expected a label (a number such as +1 or -1), found '{label_text}'")))?;
    let mut pos = label_end;
    let mut trees = Vec::new();
    if let Some(bt) = text[pos..].find(BT).map(|k| pos + k) {
        if !text[pos..bt].trim().is_empty() {
            let at = pos + (text[pos..].len() - text[pos..].trim_start().len());
            return Err(err(at, format!("expected {BT} or a vector after the label, found '{}'", text[at..bt].trim())));
        }
        // After the whole `|BT|`: in `|BT|ET|` the two markers share a '|'.
        let et = text[bt + BT.len()..].find(ET).map(|k| bt + BT.len() + k).ok_or_else(|| {
            err(text.len(), format!("expected {ET} to end the trees begun at column {}", col(text, bt)))
        })?;
        let mut t = bt + BT.len();
        loop {
            let end = text[t..et].find(BT).map_or(et, |k| t + k);
            trees.push(parse_tree(&text[t..end], t, &err)?);
            if end == et {
                break;
            }
            t = end + BT.len();
        }
        pos = et + ET.len();
    }
    let mut vectors = Vec::new();
    let rest = &text[pos..];
    if !rest.trim().is_empty() {
        let end = rest.find(EV).map_or(text.len(), |k| pos + k);
        if end < text.len() {
            let after = end + EV.len();
            if !text[after..].trim().is_empty() {
                let at = after + (text[after..].len() - text[after..].trim_start().len());
                return Err(err(at, format!("expected the end of the line after {EV}, found '{}'", text[at..].trim())));
            }
        }
        let mut v = pos;
        loop {
            let stop = text[v..end].find(BV).map_or(end, |k| v + k);
            vectors.push(parse_vector(&text[v..stop], v, &err)?);
            if stop == end {
                break;
            }
            v = stop + BV.len();
        }
    }
    Ok(Example { label, trees, vectors })
}

fn col(text: &str, at: usize) -> usize {
    text[..at].chars().count() + 1
}

/// `index:value` pairs; `offset` locates `s` in its line for errors.
fn parse_vector(
    s: &str,
    offset: usize,
    err: &dyn Fn(usize, String) -> ExampleError,
) -> Result<Vec<(u32, f64)>, ExampleError> {
    let mut out: Vec<(u32, f64)> = Vec::new();
    for (at, token) in tokens(s) {
        let at = offset + at;
        let parsed = token.split_once(':').and_then(|(i, v)| Some((i.parse::<u32>().ok()?, v.parse::<f64>().ok()?)));
        let (index, value) = match parsed {
            Some((i, v)) if i >= 1 && v.is_finite() => (i, v),
            _ => return Err(err(at, format!("expected a feature index:value (index from 1), found '{token}'"))),
        };
        if let Some(&(last, _)) = out.last() {
            if index <= last {
                return Err(err(
                    at,
                    format!("expected feature indices in increasing order, found {index} after {last}"),
                ));
            }
        }
        out.push((index, value));
    }
    Ok(out)
}

/// Whitespace-separated tokens with their byte offsets.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_whitespace().map(move |t| (t.as_ptr() as usize - s.as_ptr() as usize, t))
}

/// One tree (empty text: `None`); `offset` locates `s` in its line.
fn parse_tree(
    s: &str,
    offset: usize,
    err: &dyn Fn(usize, String) -> ExampleError,
) -> Result<Option<TkTree>, ExampleError> {
    // Tokens: '(', ')' and atoms (no whitespace or brackets), with offsets.
    let mut toks: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    let bytes = s.as_bytes();
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'(' || c == b')' {
            toks.push((i, &s[i..i + 1]));
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else {
            let start = i;
            while i < bytes.len() && !matches!(bytes[i], b'(' | b')') && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            toks.push((start, &s[start..i]));
        }
    }
    if toks.is_empty() {
        return Ok(None);
    }
    let at = |k: usize| offset + toks.get(k).map_or(s.len(), |t| t.0);
    let found = |k: usize| toks.get(k).map_or("the end of the tree".to_string(), |t| format!("'{}'", t.1));
    let mut tree = TkTree { labels: Vec::new(), children: Vec::new() };
    let mut open: Vec<usize> = Vec::new();
    let mut k = 0;
    loop {
        match toks.get(k).map(|t| t.1) {
            Some("(") => {
                let label = match toks.get(k + 1).map(|t| t.1) {
                    Some(l) if l != "(" && l != ")" => l,
                    _ => return Err(err(at(k + 1), format!("expected a label after '(', found {}", found(k + 1)))),
                };
                let id = tree.labels.len();
                tree.labels.push(label.to_string());
                tree.children.push(Vec::new());
                if let Some(&p) = open.last() {
                    tree.children[p].push(id);
                } else if id != 0 {
                    return Err(err(at(k), "expected one tree between the markers, found a second".to_string()));
                }
                open.push(id);
                k += 2;
            }
            Some(")") => {
                let Some(n) = open.pop() else {
                    return Err(err(at(k), "unexpected ')': no bracket is open here".to_string()));
                };
                // `(I)`: a bracket with nothing under it is a leaf as the model
                // writes it back, so it obeys the leaves' rule too (else the
                // written model would not read back).
                if let (true, Some(&p)) = (tree.children[n].is_empty(), open.last()) {
                    if tree.children[p].iter().any(|&c| !tree.children[c].is_empty())
                        || toks.get(k + 1).is_some_and(|t| t.1 == "(")
                    {
                        return Err(err(
                            at(k - 2),
                            format!(
                                "expected only sub-trees or only leaves under '({}', found '({})' with nothing under \
                                 it beside a sub-tree",
                                tree.labels[p], tree.labels[n]
                            ),
                        ));
                    }
                }
                k += 1;
            }
            Some(leaf) => {
                let Some(&p) = open.last() else {
                    return Err(err(at(k), format!("expected '(' to start a tree, found '{leaf}'")));
                };
                if tree.children[p].iter().any(|&c| !tree.children[c].is_empty())
                    || toks.get(k + 1).is_some_and(|t| t.1 == "(")
                {
                    return Err(err(
                        at(k),
                        format!(
                            "expected only sub-trees or only leaves under '({}', found the leaf '{leaf}' beside a sub-tree \
                             (SVM-Light-TK reads a leaf up to the next ')')",
                            tree.labels[p]
                        ),
                    ));
                }
                let id = tree.labels.len();
                tree.labels.push(leaf.to_string());
                tree.children.push(Vec::new());
                tree.children[p].push(id);
                k += 1;
            }
            None => {
                if let Some(&n) = open.last() {
                    return Err(err(
                        at(k),
                        format!("expected ')' to close '({}', found the end of the tree", tree.labels[n]),
                    ));
                }
                return Ok(Some(tree));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(s: &str) -> Example {
        parse_example(s, "ex", 1).unwrap()
    }

    fn bad(s: &str) -> String {
        parse_example(s, "ex", 3).unwrap_err().to_string()
    }

    #[test]
    fn trees_and_vectors_read_as_svm_light_tk_reads_them() {
        let e = ex("+1 |BT| (NP (DT the) (NN dog)) |BT| (NP el perro) |ET| 1:0.5 3:2 |BV| 2:1 |EV|");
        assert_eq!(e.label, 1.0);
        assert_eq!(e.trees.len(), 2);
        let t = e.trees[1].as_ref().unwrap();
        assert_eq!(t.labels, ["NP", "el", "perro"]);
        assert_eq!(t.children, [vec![1, 2], vec![], vec![]]);
        assert_eq!(e.vectors, [vec![(1, 0.5), (3, 2.0)], vec![(2, 1.0)]]);
        assert_eq!(e.to_string(), "1 |BT| (NP (DT the) (NN dog)) |BT| (NP el perro) |ET| 1:0.5 3:2 |BV| 2:1 |EV|");
        // SVM-Light-TK's model files write leaves as (x): the same tree.
        assert_eq!(ex("-1 |BT| (NP (DT (the))(NN (dog))) |ET|").trees, ex("-1 |BT| (NP (DT the) (NN dog)) |ET|").trees);
        // No trees: the vector follows the label; an empty tree is kept.
        assert_eq!(ex("-2 1:1").vectors, [vec![(1, 1.0)]]);
        assert_eq!(ex("0.5 |BT| |BT| (A b) |ET|").trees[0], None);
        assert!(ex("1 |BT| (A b) |ET|").vectors.is_empty());
    }

    #[test]
    fn errors_are_located_where_svm_light_tk_would_exit_or_ignore() {
        assert_eq!(bad("yes |BT| (A b) |ET|"), "ex:3:1: expected a label (a number such as +1 or -1), found 'yes'");
        assert_eq!(bad("+1 |BT| (A b)"), "ex:3:14: expected |ET| to end the trees begun at column 4");
        // Markers sharing a '|' (found by fuzzing: the reader sliced past its end).
        assert_eq!(bad("+1 |BT|ET|"), "ex:3:11: expected |ET| to end the trees begun at column 4");
        assert_eq!(bad("+1 qid:3 |BT| (A b) |ET|"), "ex:3:4: expected |BT| or a vector after the label, found 'qid:3'");
        assert_eq!(bad("+1 |BT| (A b |ET|"), "ex:3:14: expected ')' to close '(A', found the end of the tree");
        assert_eq!(bad("+1 |BT| (A b)) |ET|"), "ex:3:14: unexpected ')': no bracket is open here");
        assert_eq!(bad("+1 |BT| (A b) (C d) |ET|"), "ex:3:15: expected one tree between the markers, found a second");
        assert!(bad("+1 |BT| (NP the (NN dog)) |ET|")
            .starts_with("ex:3:13: expected only sub-trees or only leaves under '(NP'"));
        assert!(bad("+1 |BT| (NP (DT the) dog) |ET|").starts_with("ex:3:22: expected only sub-trees or only leaves"));
        assert_eq!(bad("+1 |BT| A |ET|"), "ex:3:9: expected '(' to start a tree, found 'A'");
        assert_eq!(
            bad("+1 |BT| (PP (I) (NP (NN dog))) |ET|"),
            "ex:3:13: expected only sub-trees or only leaves under '(PP', found '(I)' with nothing under it beside a sub-tree"
        );
        assert!(
            bad("+1 |BT| (PP (NP (NN dog)) (I)) |ET|").starts_with("ex:3:27: expected only sub-trees or only leaves")
        );
        assert_eq!(ex("+1 |BT| (PP (I) of) |ET|").trees.len(), 1);
        assert_eq!(bad("+1 |BT| (() |ET|"), "ex:3:10: expected a label after '(', found '('");
        assert_eq!(bad("+1 |ET| 2:1 1:1"), "ex:3:4: expected a feature index:value (index from 1), found '|ET|'");
        assert_eq!(bad("+1 2:1 1:1"), "ex:3:8: expected feature indices in increasing order, found 1 after 2");
        assert_eq!(bad("+1 0:1"), "ex:3:4: expected a feature index:value (index from 1), found '0:1'");
        assert_eq!(bad("+1 1:1 |EV| # comment"), "ex:3:13: expected the end of the line after |EV|, found '# comment'");
    }
}
