//! Text formats: Moses `lex` tables, word alignments (`i-j`), plain
//! bitexts, and GIZA++'s own files: vocabularies (`.vcb`), numeric
//! t-tables (`*.t3.final`) read with them, and Viterbi alignments
//! (`*.A3.final`).

use super::alignment::WordAlignment;
use super::table::{format_prob, LexTable, NULL};
use super::SentencePair;
use crate::hash::{FnvMap, WordMap};
use crate::io::links::{LinkOutOfRange, LinkUnits};
use crate::io::text::{line_count_position, tokens_with_columns};
use crate::pair_index::PairIndex;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

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
    #[error("{file}:{line}:{column}: word id {id} is not in {vocab}; expected the ids of that vocabulary file")]
    UnknownId { file: String, line: usize, column: usize, id: u64, vocab: String },
    #[error("{file}:{line}:{column}: {message}")]
    Invalid { file: String, line: usize, column: usize, message: String },
}

const LEX_WORD_Y: &str = "a second word y (lines are 'x y p(x|y)')";
const LEX_PROB: &str = "a probability p(x|y) between 0 and 1 (lines are 'x y p(x|y)')";
const LEX_END: &str = "the end of the line after 'x y p(x|y)'";
const LINK: &str = "a word link 'i-j' or 'i-j?' (source word i, target word j, counted from 0)";

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
    // Sized for every line at once: growing it step by step was a tenth of reading a table.
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let mut first_line: WordMap<(&str, &str), usize> = WordMap::with_capacity_and_hasher(lines, Default::default());
    for (l, line) in text.lines().enumerate() {
        let line_no = l + 1;
        let Some([(column, x), (_, y), p]) = three_fields(file, line_no, line, [LEX_WORD_Y, LEX_PROB, LEX_END])? else {
            continue;
        };
        let p = parse_prob(p.1).ok_or_else(|| unexpected_token(file, line_no, p, LEX_PROB))?;
        first_time(&mut first_line, (x, y), (x, y), (file, line_no, column))?;
        entries.push((x, y, p));
    }
    let lowercase = entries.iter().all(|(x, y, _)| is_lowercase(x) && is_lowercase(y));
    Ok(LexTable::from_entries(entries, lowercase))
}

/// The three fields of a table line, `None` for a blank one; else the error
/// naming the field missing (`second`, `third`) or the extra one (`end`).
fn three_fields<'a>(
    file: &str,
    line_no: usize,
    line: &'a str,
    [second, third, end]: [&'static str; 3],
) -> Result<Option<[(usize, &'a str); 3]>, LexError> {
    let eol =
        |expected| LexError::EndOfLine { file: file.into(), line: line_no, column: line.chars().count() + 1, expected };
    match tokens_with_columns(line)[..] {
        [] => Ok(None),
        [_] => Err(eol(second)),
        [_, _] => Err(eol(third)),
        [a, b, c] => Ok(Some([a, b, c])),
        [_, _, _, extra, ..] => Err(unexpected_token(file, line_no, extra, end)),
    }
}

/// A probability: a number in `[0, 1]`.
fn parse_prob(token: &str) -> Option<f64> {
    token.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p))
}

/// Notes that the pair `key` (the words `x`, `y`) is at `(file, line,
/// column)`, or the error that it was already given on an earlier line.
fn first_time<K: Eq + Hash, S: BuildHasher>(
    first_line: &mut HashMap<K, usize, S>,
    key: K,
    (x, y): (&str, &str),
    (file, line, column): (&str, usize, usize),
) -> Result<(), LexError> {
    if let Some(&first) = first_line.get(&key) {
        return Err(LexError::Duplicate { file: file.into(), line, column, x: x.into(), y: y.into(), first });
    }
    first_line.insert(key, line);
    Ok(())
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

/// `i-j`, or `i-j?` (a fuzzy link, as the `.gold` files mark them: an
/// STA's word links in `PREFIX.words`), read as a link either way.
fn parse_word_link(token: &str) -> Option<(usize, usize)> {
    crate::io::links::parse_link(token).map(|l| (l.source.index(), l.target.index()))
}

/// The token `found` at `column` of line `line` is not the `expected`.
fn unexpected_token(file: &str, line: usize, (column, found): (usize, &str), expected: &'static str) -> LexError {
    LexError::Unexpected { file: file.to_string(), line, column, expected, found: found.to_string() }
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
                    parse_word_link(token)
                        .map(|link| (link, column))
                        .ok_or_else(|| unexpected_token(file, l + 1, (column, token), LINK))
                })
                .collect()
        })
        .collect()
}

/// Reads word alignments: one line per sentence pair (possibly empty), with
/// whitespace-separated links `i-j` (or `i-j?`, fuzzy, taken as links), `i`
/// a source and `j` a target word position counted from 0 (the format of
/// Moses `aligned.*` files, of `fast_align`, of [`write_word_alignments`]
/// and of an import's `PREFIX.words`). Tabs, repeated and
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
            LinkOutOfRange::check(
                PairIndex::new(l),
                &format_args!("{i}-{j}"),
                (i, j),
                (n_src, n_trg),
                LinkUnits::Words,
            )
            .map_err(|error| LexError::LinkOutOfRange {
                file: file.to_string(),
                line: l + 1,
                column,
                error,
            })?;
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

/// A GIZA++ vocabulary file (`.vcb`, as `plain2snt` writes it): one word a
/// line, `id word count`. Id 0 is the empty word `NULL` of a t-table's
/// first column.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GizaVocab {
    /// The file's name (for errors naming it).
    pub file: String,
    words: FnvMap<u64, String>,
}

impl GizaVocab {
    /// The word with id `id`.
    pub fn word(&self, id: u64) -> Option<&str> {
        self.words.get(&id).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Its words, in no particular order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.words.values().map(String::as_str)
    }
}

const VCB_ID: &str = "a word id (lines are 'id word count')";
const VCB_WORD: &str = "a word after its id (lines are 'id word count')";

/// Reads a GIZA++ `.vcb` file; blank lines are skipped, a count may be
/// missing, an id given twice is refused.
pub fn read_giza_vocab(text: &str, file: &str) -> Result<GizaVocab, LexError> {
    let mut words = FnvMap::default();
    let mut first_line: FnvMap<u64, usize> = FnvMap::default();
    for (l, line) in text.lines().enumerate() {
        let tokens = tokens_with_columns(line);
        let Some(&(column, id)) = tokens.first() else { continue };
        let unexpected = |token, expected| unexpected_token(file, l + 1, token, expected);
        let id: u64 = id.parse().map_err(|_| unexpected((column, id), VCB_ID))?;
        let Some(&(_, word)) = tokens.get(1) else {
            let column = line.chars().count() + 1;
            return Err(LexError::EndOfLine { file: file.to_string(), line: l + 1, column, expected: VCB_WORD });
        };
        if let Some(&first) = first_line.get(&id) {
            return Err(LexError::Invalid {
                file: file.to_string(),
                line: l + 1,
                column,
                message: format!("word id {id} again (the first is on line {first}); expected each id once"),
            });
        }
        first_line.insert(id, l + 1);
        words.insert(id, word.to_string());
    }
    Ok(GizaVocab { file: file.to_string(), words })
}

/// Whether a table's text is a GIZA++ t-table of word ids (`3 17 0.25`
/// lines) rather than of words: its first ten entries all begin with two
/// numbers. Such a table is read with its vocabularies
/// ([`read_giza_ttable`]); read as words it would match none.
pub fn is_numeric_table(text: &str) -> bool {
    let mut lines = text.lines().map(str::split_whitespace).filter_map(|mut t| Some((t.next()?, t.next()?))).take(10);
    let numeric = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let first = lines.next();
    first.is_some_and(|(a, b)| numeric(a) && numeric(b)) && lines.all(|(a, b)| numeric(a) && numeric(b))
}

/// Whether every id of a numeric t-table's first column is in
/// `conditioning` (or 0, `NULL`) and every id of its second in `predicted`:
/// the way round [`read_giza_ttable`] can read it.
pub fn giza_ttable_fits(text: &str, conditioning: &GizaVocab, predicted: &GizaVocab) -> bool {
    text.lines().map(str::split_whitespace).filter_map(|mut t| Some((t.next()?, t.next()?))).all(|(a, b)| {
        let known = |w: &str, v: &GizaVocab, null: bool| {
            w.parse::<u64>().is_ok_and(|id| (null && id == 0) || v.word(id).is_some())
        };
        known(a, conditioning, true) && known(b, predicted, false)
    })
}

/// Reads a GIZA++ t-table of word ids (`*.t3.final`, `*.actual.t3.final`
/// are its word form and read as Moses tables): lines `y x p(x|y)`, the
/// conditioning word's id first (0 for `NULL`), from `conditioning`'s
/// vocabulary, then the generated word's, from `predicted`'s — so a table
/// of GIZA++ run with `-s S.vcb -t T.vcb` is `p(t|s)` with
/// `conditioning = S.vcb`. The table holds `p(x|y)` over the words, as
/// [`read_moses_lex`] would read the same entries written out in words.
/// Errors are located: a field missing or extra, an id that is not in its
/// vocabulary, a probability outside `[0, 1]`, a pair given twice.
pub fn read_giza_ttable(
    text: &str,
    file: &str,
    conditioning: &GizaVocab,
    predicted: &GizaVocab,
) -> Result<LexTable, LexError> {
    let mut entries: Vec<(&str, &str, f64)> = Vec::new();
    let mut first_line: FnvMap<(u64, u64), usize> = FnvMap::default();
    for (l, line) in text.lines().enumerate() {
        let line_no = l + 1;
        const Y: &str = "the id of the conditioning word (lines are 'y_id x_id p(x|y)')";
        const X: &str = "the id of the generated word (lines are 'y_id x_id p(x|y)')";
        const P: &str = "a probability p(x|y) between 0 and 1 (lines are 'y_id x_id p(x|y)')";
        const END: &str = "the end of the line after 'y_id x_id p(x|y)'";
        let Some(tokens) = three_fields(file, line_no, line, [X, P, END])? else { continue };
        let unexpected = |token, expected| unexpected_token(file, line_no, token, expected);
        let y: u64 = tokens[0].1.parse().map_err(|_| unexpected(tokens[0], Y))?;
        let x: u64 = tokens[1].1.parse().map_err(|_| unexpected(tokens[1], X))?;
        let p = parse_prob(tokens[2].1).ok_or_else(|| unexpected(tokens[2], P))?;
        let unknown = |column: usize, id: u64, vocab: &GizaVocab| LexError::UnknownId {
            file: file.to_string(),
            line: line_no,
            column,
            id,
            vocab: vocab.file.clone(),
        };
        let y_word =
            if y == 0 { NULL } else { conditioning.word(y).ok_or_else(|| unknown(tokens[0].0, y, conditioning))? };
        let x_word = predicted.word(x).ok_or_else(|| unknown(tokens[1].0, x, predicted))?;
        first_time(&mut first_line, (y, x), (x_word, y_word), (file, line_no, tokens[0].0))?;
        entries.push((x_word, y_word, p));
    }
    let lowercase = entries.iter().all(|(x, y, _)| is_lowercase(x) && is_lowercase(y));
    Ok(LexTable::from_entries(entries, lowercase))
}

/// One sentence pair of a GIZA++ Viterbi alignment file (`*.A3.final`):
/// the sentence GIZA++ aligned from (`giza_source`, the words of its `NULL
/// ({ })` line, `NULL` left out), the sentence it generated
/// (`giza_target`), and the links `(i, j)`: source word `i` generated target
/// word `j` (both from 0; each target word has at most one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GizaPair {
    pub giza_source: Vec<String>,
    pub giza_target: Vec<String>,
    pub links: Vec<(usize, usize)>,
    /// The line of the pair's `# Sentence pair` header.
    pub line: usize,
}

/// Whether a text is a GIZA++ `A3.final` file (its first line is a
/// `# Sentence pair (1) ...` header).
pub fn is_giza_a3(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with("# Sentence pair")
}

/// Reads a GIZA++ Viterbi alignment file (`*.A3.final`, as GIZA++ writes
/// it, in any number of pairs): three lines a pair —
///
/// ```text
/// # Sentence pair (1) source length 3 target length 2 alignment score : 0.0123
/// the house
/// NULL ({ }) das ({ 1 }) Haus ({ 2 }) ist ({ })
/// ```
///
/// — the header, the generated sentence, and each word of the sentence
/// aligned from (after `NULL`) with the 1-based positions it generated in
/// `({ })`. Errors are located: a missing line, a header that is not one, a
/// position outside the generated sentence or given twice, lengths that
/// disagree with the header's.
pub fn read_giza_a3(text: &str, file: &str) -> Result<Vec<GizaPair>, LexError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut k = 0;
    let err = |line: usize, column: usize, message: String| LexError::Invalid {
        file: file.to_string(),
        line: line + 1,
        column,
        message,
    };
    while k < lines.len() {
        if lines[k].trim().is_empty() {
            k += 1;
            continue;
        }
        let header = lines[k].trim_start_matches('\u{feff}');
        if !header.starts_with("# Sentence pair") {
            return Err(err(k, 1, format!("expected a '# Sentence pair (n) ...' header, found '{}'", clip(header))));
        }
        let numbers: Vec<usize> = header
            .split_whitespace()
            .zip(header.split_whitespace().skip(1))
            .filter(|(w, _)| *w == "length")
            .filter_map(|(_, n)| n.parse().ok())
            .collect();
        let (Some(target_line), Some(source_line)) = (lines.get(k + 1), lines.get(k + 2)) else {
            let (line, column) = crate::io::text::end_position(text);
            return Err(LexError::Invalid {
                file: file.to_string(),
                line,
                column,
                message: "expected the two lines of the sentence pair after its header, found the end of the file"
                    .into(),
            });
        };
        let giza_target: Vec<String> = target_line.split_whitespace().map(str::to_string).collect();
        let (giza_source, links) =
            read_a3_links(source_line, giza_target.len()).map_err(|(column, m)| err(k + 2, column, m))?;
        if let [s, t] = numbers[..] {
            if (s, t) != (giza_source.len(), giza_target.len()) {
                return Err(err(
                    k,
                    1,
                    format!(
                        "the header says source length {s} and target length {t}, but the lines below hold {} and {} words",
                        giza_source.len(),
                        giza_target.len()
                    ),
                ));
            }
        }
        out.push(GizaPair { giza_source, giza_target, links, line: k + 1 });
        k += 3;
    }
    Ok(out)
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// The words of an `A3.final` line (`NULL` left out) and their links.
type A3Line = (Vec<String>, Vec<(usize, usize)>);

/// The words of an `A3.final` `NULL ({ }) w ({ 1 2 })` line and their links;
/// errors as (column, message).
fn read_a3_links(line: &str, target_len: usize) -> Result<A3Line, (usize, String)> {
    let tokens = tokens_with_columns(line);
    let end = line.chars().count() + 1;
    if tokens.is_empty() {
        return Err((1, "expected 'NULL ({ ... })', found an empty line".into()));
    }
    let (mut words, mut links) = (Vec::new(), Vec::new());
    let mut taken = vec![false; target_len];
    let mut k = 0;
    while k < tokens.len() {
        let (column, word) = tokens[k];
        // The first group is the empty word's: its positions are unaligned target words.
        let null = k == 0;
        if null && word != "NULL" {
            return Err((column, format!("expected the line to start with NULL, found '{word}'")));
        }
        match tokens.get(k + 1) {
            Some(&(_, "({")) => {}
            Some(&(c, found)) => return Err((c, format!("expected '({{' after the word '{word}', found '{found}'"))),
            None => return Err((end, format!("expected '({{' after the word '{word}', found the end of the line"))),
        }
        k += 2;
        loop {
            let Some(&(c, n)) = tokens.get(k) else {
                return Err((end, "expected '})', found the end of the line".into()));
            };
            k += 1;
            if n == "})" {
                break;
            }
            let j = n.parse::<usize>().ok().filter(|&j| (1..=target_len).contains(&j)).ok_or_else(|| {
                (c, format!("expected a target position from 1 to {target_len} or '}})', found '{n}'"))
            })?;
            if std::mem::replace(&mut taken[j - 1], true) {
                return Err((c, format!("target word {j} is aligned twice; expected each at most once")));
            }
            if !null {
                links.push((words.len(), j - 1));
            }
        }
        if !null {
            words.push(word.to_string());
        }
    }
    Ok((words, links))
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
        // A fuzzy link (an import's `.words`) is a link.
        assert_eq!(read_word_alignments("0-0 2-1?\n", "d.words").unwrap()[0].links(), [(0, 0), (2, 1)]);
    }

    #[test]
    fn word_alignment_errors_are_located() {
        let err = |text: &str| read_word_alignments(text, "aligned.gdfa").unwrap_err().to_string();
        let expected = "expected a word link 'i-j' or 'i-j?' (source word i, target word j, counted from 0)";
        assert_eq!(err("0-0\n1-1 2-x\n"), format!("aligned.gdfa:2:5: {expected}, found '2-x'"));
        for bad in ["1-", "-1", "1-2-3", "1-2??", "1?-2", "a-b", "+1-2", "99999999999999999999999-1", "1–2"] {
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
    fn giza_numeric_tables_read_with_their_vocabularies() {
        let s = read_giza_vocab("2 das 10\n3 Haus 4\n\n4 ist 3\n", "s.vcb").unwrap();
        let t = read_giza_vocab("2 the 9\n3 house 4\n", "t.vcb").unwrap();
        assert_eq!((s.len(), s.word(3), s.word(9)), (3, Some("Haus"), None));
        let table = "0 2 0.1\n2 2 0.9\n3 3 1e-1\n";
        assert!(is_numeric_table(table) && !is_numeric_table("the das 0.7\n"));
        assert!(giza_ttable_fits(table, &s, &t) && !giza_ttable_fits("4 4 0.5\n", &s, &t));
        let p = read_giza_ttable(table, "s2t.t3.final", &s, &t).unwrap();
        // p(t|s): the first column conditions, as the words form `the das 0.9` says.
        assert_eq!((p.prob("the", "das"), p.prob("the", NULL), p.prob("house", "Haus")), (0.9, 0.1, 0.1));
        assert!(!p.lowercase(), "Haus is cased, so words match exactly");
        let err = |text: &str| read_giza_ttable(text, "x.t3", &s, &t).unwrap_err().to_string();
        assert_eq!(
            err("2 2 0.5\n2 7 0.5\n"),
            "x.t3:2:3: word id 7 is not in t.vcb; expected the ids of that vocabulary file"
        );
        assert!(err("2 2 1.5").starts_with("x.t3:1:5: expected a probability"));
        assert!(err("2 2 0.5\n2 2 0.5").starts_with("x.t3:2:1: second entry for 'the das'"));
        let e = read_giza_vocab("2 das 1\nx y 1\n", "v.vcb").unwrap_err().to_string();
        assert!(e.starts_with("v.vcb:2:1: expected a word id"), "{e}");
        let e = read_giza_vocab("2 das 1\n2 die 1\n", "v.vcb").unwrap_err().to_string();
        assert!(e.starts_with("v.vcb:2:1: word id 2 again (the first is on line 1)"), "{e}");
    }

    #[test]
    fn giza_a3_files_give_their_links_and_refuse_what_is_not_one() {
        let a3 = "# Sentence pair (1) source length 3 target length 2 alignment score : 0.01\n\
                  the house\n\
                  NULL ({ }) das ({ 1 }) Haus ({ 2 }) ist ({ })\n\
                  # Sentence pair (2) source length 1 target length 2 alignment score : 0.5\n\
                  a b\n\
                  NULL ({ 2 }) x ({ 1 })\n";
        assert!(is_giza_a3(a3) && !is_giza_a3("0-0 1-1\n"));
        let pairs = read_giza_a3(a3, "s2t.A3.final").unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].giza_source, ["das", "Haus", "ist"]);
        assert_eq!(pairs[0].giza_target, ["the", "house"]);
        assert_eq!(
            (pairs[0].links.clone(), pairs[1].links.clone(), pairs[1].line),
            (vec![(0, 0), (1, 1)], vec![(0, 0)], 4)
        );
        let err = |text: &str| read_giza_a3(text, "a.A3").unwrap_err().to_string();
        let header = "# Sentence pair (1) source length 1 target length 1 alignment score : 1\n";
        assert_eq!(
            err(&format!("{header}a\nNULL ({{ }}) x ({{ 2 }})\n")),
            "a.A3:3:17: expected a target position from 1 to 1 or '})', found '2'"
        );
        assert_eq!(
            err(&format!("{header}a\nNULL ({{ 1 }}) x ({{ 1 }})\n")),
            "a.A3:3:19: target word 1 is aligned twice; expected each at most once"
        );
        assert!(err(&format!("{header}a\nNULL ({{ }}) x ({{ 1 }}) y ({{ }})\n"))
            .starts_with("a.A3:1:1: the header says source length 1"));
        assert!(err(&format!("{header}a\n")).contains("found the end of the file"));
        assert!(err("0-0 1-1\n").starts_with("a.A3:1:1: expected a '# Sentence pair (n) ...' header"));
        assert!(err(&format!("{header}a\nx ({{ 1 }})\n")).starts_with("a.A3:3:1: expected the line to start with NULL"));
        assert!(err(&format!("{header}a\nNULL ({{ }}) x ({{ 1\n")).starts_with("a.A3:3:18: expected '})'"));
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
