//! Text formats: Moses `lex` tables, word alignments (`i-j`), plain bitexts.

use std::collections::HashMap;

use super::alignment::WordAlignment;
use super::table::{format_prob, LexTable, NULL};
use super::SentencePair;
use crate::io::links::{LinkOutOfRange, LinkUnits};
use crate::io::text::{line_count_position, tokens_with_columns};

/// A located error in a lexical table, word alignment or bitext file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LexError {
    #[error("{file}:{line}:{column}: expected {expected}, found '{found}'")]
    Unexpected { file: String, line: usize, column: usize, expected: &'static str, found: String },
    #[error("{file}:{line}:{column}: expected {expected}, found the end of the line")]
    EndOfLine { file: String, line: usize, column: usize, expected: &'static str },
    #[error("{file}:{line}:{column}: second entry for '{x} {y}' (the first is on line {first})")]
    Duplicate { file: String, line: usize, column: usize, x: String, y: String, first: usize },
    #[error("{file}:{line}:{column}: {error}")]
    LinkOutOfRange { file: String, line: usize, column: usize, error: LinkOutOfRange },
    /// At the first extra line, or the end of the file when lines are missing.
    #[error("{file}:{line}:{column}: expected {expected} {what}, found {found}")]
    CountMismatch { file: String, line: usize, column: usize, expected: usize, found: usize, what: &'static str },
    #[error("{file}:{line}:{column}: expected {expected} lines (as many as {other}), found {found}")]
    LineCountMismatch { file: String, line: usize, column: usize, expected: usize, found: usize, other: String },
}

const LEX_WORD_Y: &str = "a second word y (lines are 'x y p(x|y)')";
const LEX_PROB: &str = "a probability p(x|y) between 0 and 1 (lines are 'x y p(x|y)')";
const LEX_END: &str = "the end of the line after 'x y p(x|y)'";
const LINK: &str = "a word link 'i-j' (source word i, target word j, counted from 0)";

/// Reads a lexical translation table in Moses `lex` format: one entry
/// `x y p(x|y)` per line (whitespace-separated; blank lines are skipped),
/// `NULL` being the empty word. Moses' `lex.e2f` has lines `f e p(f|e)` and
/// `lex.f2e` lines `e f p(e|f)` (for each `y`, the `p` of its lines sum to 1).
/// So with source = f, `lex.e2f` is the `--lex-s2t` table `p(t|s)` whose
/// lines are `target source p`, and `lex.f2e` is `--lex-t2s`.
///
/// The table lowercases lookups ([`LexTable::lowercase`]) when every word in
/// the file is already lowercase (Moses tables usually are), and otherwise
/// matches words exactly. Errors name `file`, line and column: a missing or
/// extra field, a probability that is not a number in `[0, 1]`, or a pair
/// given twice.
pub fn read_moses_lex(text: &str, file: &str) -> Result<LexTable, LexError> {
    let mut entries: Vec<(&str, &str, f64)> = Vec::new();
    let mut first_line: HashMap<(&str, &str), usize> = HashMap::new();
    for (l, line) in text.lines().enumerate() {
        let line_no = l + 1;
        let tokens: Vec<(usize, &str)> = tokens_with_columns(line);
        if tokens.is_empty() {
            continue;
        }
        let end_column = line.chars().count() + 1;
        let eol =
            |expected| LexError::EndOfLine { file: file.to_string(), line: line_no, column: end_column, expected };
        let unexpected = |(column, found): (usize, &str), expected| LexError::Unexpected {
            file: file.to_string(),
            line: line_no,
            column,
            expected,
            found: found.to_string(),
        };
        match tokens.len() {
            1 => return Err(eol(LEX_WORD_Y)),
            2 => return Err(eol(LEX_PROB)),
            3 => {}
            _ => return Err(unexpected(tokens[3], LEX_END)),
        }
        let (x, y) = (tokens[0].1, tokens[1].1);
        let p = tokens[2]
            .1
            .parse::<f64>()
            .ok()
            .filter(|p| (0.0..=1.0).contains(p))
            .ok_or_else(|| unexpected(tokens[2], LEX_PROB))?;
        if let Some(&first) = first_line.get(&(x, y)) {
            return Err(LexError::Duplicate {
                file: file.to_string(),
                line: line_no,
                column: tokens[0].0,
                x: x.to_string(),
                y: y.to_string(),
                first,
            });
        }
        first_line.insert((x, y), line_no);
        entries.push((x, y, p));
    }
    let lowercase = entries.iter().all(|(x, y, _)| is_lowercase(x) && is_lowercase(y));
    Ok(LexTable::from_entries(entries, lowercase))
}

fn is_lowercase(word: &str) -> bool {
    word == NULL || word.to_lowercase() == word
}

/// Writes a table in Moses `lex` format (`x y p(x|y)` per line, sorted by `y`
/// then `x`); probabilities are written in full, so reading gives the same table.
pub fn write_moses_lex(table: &LexTable) -> String {
    let mut out = String::new();
    for (x, y, p) in table.entries() {
        out.push_str(x);
        out.push(' ');
        out.push_str(y);
        out.push(' ');
        out.push_str(&format_prob(p));
        out.push('\n');
    }
    out
}

fn parse_word_link(token: &str) -> Option<(usize, usize)> {
    let (i, j) = token.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(i) || !digits(j) {
        return None;
    }
    Some((i.parse().ok()?, j.parse().ok()?))
}

/// Word links with the line and column of each, one entry per line.
type LocatedLinks = Vec<Vec<((usize, usize), usize)>>;

fn read_located(text: &str, file: &str) -> Result<LocatedLinks, LexError> {
    text.lines()
        .enumerate()
        .map(|(l, line)| {
            tokens_with_columns(line)
                .into_iter()
                .map(|(column, token)| {
                    parse_word_link(token).map(|link| (link, column)).ok_or_else(|| LexError::Unexpected {
                        file: file.to_string(),
                        line: l + 1,
                        column,
                        expected: LINK,
                        found: token.to_string(),
                    })
                })
                .collect()
        })
        .collect()
}

/// Reads word alignments: one line per sentence pair (possibly empty), with
/// whitespace-separated links `i-j`, `i` a source and `j` a target word
/// position counted from 0 (the format of Moses `aligned.*` files, of
/// `fast_align` and of [`write_word_alignments`]). Tabs, repeated and
/// trailing spaces and CRLF line ends are accepted.
pub fn read_word_alignments(text: &str, file: &str) -> Result<Vec<WordAlignment>, LexError> {
    Ok(read_located(text, file)?
        .into_iter()
        .map(|links| WordAlignment::new(links.into_iter().map(|(link, _)| link)))
        .collect())
}

/// Like [`read_word_alignments`], and checks the alignments against the
/// sentence lengths `(source words, target words)` of each pair: one line per
/// pair, every link inside its sentences.
pub fn read_word_alignments_for(
    text: &str,
    file: &str,
    lengths: &[(usize, usize)],
) -> Result<Vec<WordAlignment>, LexError> {
    let located = read_located(text, file)?;
    if located.len() != lengths.len() {
        let (line, column) = line_count_position(text, lengths.len(), located.len());
        return Err(LexError::CountMismatch {
            file: file.to_string(),
            line,
            column,
            expected: lengths.len(),
            found: located.len(),
            what: "lines of word links (one per sentence pair)",
        });
    }
    for (l, (links, &(n_src, n_trg))) in located.iter().zip(lengths).enumerate() {
        for &((i, j), column) in links {
            LinkOutOfRange::check(l + 1, &format_args!("{i}-{j}"), (i, j), (n_src, n_trg), LinkUnits::Words)
                .map_err(|error| LexError::LinkOutOfRange { file: file.to_string(), line: l + 1, column, error })?;
        }
    }
    Ok(located.into_iter().map(|links| WordAlignment::new(links.into_iter().map(|(link, _)| link))).collect())
}

/// Writes word alignments, one line per sentence pair (each ending with a
/// newline), links `i-j` in increasing order.
pub fn write_word_alignments(alignments: &[WordAlignment]) -> String {
    let mut out = String::new();
    for a in alignments {
        out.push_str(&a.to_string());
        out.push('\n');
    }
    out
}

/// Reads a plain sentence-aligned bitext: two files with one tokenised
/// sentence per line (words separated by whitespace), line `k` of one the
/// translation of line `k` of the other. Empty lines are empty sentences.
pub fn read_bitext(
    source_text: &str,
    source_file: &str,
    target_text: &str,
    target_file: &str,
) -> Result<Vec<SentencePair>, LexError> {
    let split = |text: &str| -> Vec<Vec<String>> {
        text.lines().map(|l| l.split_whitespace().map(str::to_string).collect()).collect()
    };
    let (source, target) = (split(source_text), split(target_text));
    if source.len() != target.len() {
        let (line, column) = line_count_position(target_text, source.len(), target.len());
        return Err(LexError::LineCountMismatch {
            file: target_file.to_string(),
            line,
            column,
            expected: source.len(),
            found: target.len(),
            other: source_file.to_string(),
        });
    }
    Ok(source.into_iter().zip(target).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moses_lex_reads_and_writes() {
        let t = read_moses_lex("the das 0.7\r\n\n  that\tdas 0.3  \nhaus NULL 1\n", "lex.e2f").unwrap();
        assert!(t.lowercase());
        assert_eq!((t.prob("that", "das"), t.prob("haus", NULL), t.len()), (0.3, 1.0, 3));
        assert_eq!(write_moses_lex(&t), "haus NULL 1\nthat das 0.3\nthe das 0.7\n");
        assert_eq!(read_moses_lex(&write_moses_lex(&t), "x").unwrap(), t);
        let cased = read_moses_lex("The Das 1\n", "x").unwrap();
        assert!(!cased.lowercase());
        assert_eq!((cased.prob("The", "Das"), cased.prob("the", "das")), (1.0, 0.0));
        assert!(read_moses_lex("", "x").unwrap().is_empty());
    }

    #[test]
    fn moses_lex_errors_are_located() {
        let err = |text: &str| read_moses_lex(text, "lex.f2e").unwrap_err().to_string();
        assert_eq!(
            err("a b 0.5\nthe\n"),
            "lex.f2e:2:4: expected a second word y (lines are 'x y p(x|y)'), found the end of the line"
        );
        assert_eq!(
            err("the das\n"),
            "lex.f2e:1:8: expected a probability p(x|y) between 0 and 1 (lines are 'x y p(x|y)'), found the end of the line"
        );
        assert_eq!(
            err("the das 1.5\n"),
            "lex.f2e:1:9: expected a probability p(x|y) between 0 and 1 (lines are 'x y p(x|y)'), found '1.5'"
        );
        assert_eq!(
            err("the das NaN\n"),
            "lex.f2e:1:9: expected a probability p(x|y) between 0 and 1 (lines are 'x y p(x|y)'), found 'NaN'"
        );
        assert_eq!(err("the das 0.5 x\n"), "lex.f2e:1:13: expected the end of the line after 'x y p(x|y)', found 'x'");
        assert_eq!(
            err("the das 0.5\n\nthe  das 0.2\n"),
            "lex.f2e:3:1: second entry for 'the das' (the first is on line 1)"
        );
    }

    #[test]
    fn word_alignments_read_and_write() {
        let a = read_word_alignments("0-0 2-1  1-1\n\n\t3-2 \r\n", "a.txt").unwrap();
        assert_eq!(a.len(), 3);
        assert_eq!(a[0].links(), [(0, 0), (1, 1), (2, 1)]);
        assert!(a[1].is_empty());
        assert_eq!(write_word_alignments(&a), "0-0 1-1 2-1\n\n3-2\n");
        assert_eq!(read_word_alignments(&write_word_alignments(&a), "b").unwrap(), a);
        assert!(read_word_alignments("", "c").unwrap().is_empty());
    }

    #[test]
    fn word_alignment_errors_are_located() {
        let err = |text: &str| read_word_alignments(text, "aligned.gdfa").unwrap_err().to_string();
        let expected = "expected a word link 'i-j' (source word i, target word j, counted from 0)";
        assert_eq!(err("0-0\n1-1 2-x\n"), format!("aligned.gdfa:2:5: {expected}, found '2-x'"));
        for bad in ["1-", "-1", "1-2-3", "1-2?", "a-b", "+1-2", "99999999999999999999999-1", "1–2"] {
            assert!(read_word_alignments(bad, "x").is_err(), "{bad}");
        }
        let lengths = [(2, 3), (1, 1)];
        assert_eq!(read_word_alignments_for("0-2 1-0\n0-0\n", "a", &lengths).unwrap().len(), 2);
        assert_eq!(
            read_word_alignments_for("0-0\n", "a", &lengths).unwrap_err().to_string(),
            "a:2:1: expected 2 lines of word links (one per sentence pair), found 1"
        );
        assert_eq!(
            read_word_alignments_for("0-0 2-0\n0-0\n", "a", &lengths).unwrap_err().to_string(),
            "a:1:5: link 2-0 names source word 2, but the source sentence of pair 1 has only 2 words"
        );
        assert_eq!(
            read_word_alignments_for("0-0\n0-1\n", "a", &lengths).unwrap_err().to_string(),
            "a:2:1: link 0-1 names target word 1, but the target sentence of pair 2 has only 1 words"
        );
    }

    #[test]
    fn bitexts() {
        let b = read_bitext("das Haus\n\nein  Buch\n", "s", "the house\n\na book", "t").unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b[2], (vec!["ein".to_string(), "Buch".to_string()], vec!["a".to_string(), "book".to_string()]));
        assert!(b[1].0.is_empty());
        assert_eq!(
            read_bitext("a\nb\n", "train.de", "x\n", "train.en").unwrap_err().to_string(),
            "train.en:2:1: expected 2 lines (as many as train.de), found 1"
        );
    }
}
