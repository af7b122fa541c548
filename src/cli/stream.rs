//! The CLI's streamed inputs: tree pairs (`PREFIX.src`, `PREFIX.trg` and
//! a word-links file in lockstep) and source trees, read one at a time with
//! the checks of the whole-file readers (limits, counts, word links inside
//! their sentences) and their located errors, so `align`, `baseline` and
//! `translate` hold a chunk of the input, never all of it. An error is
//! the first met in reading order (a pair's source tree, its target tree,
//! its word links). The commands read their input once through
//! [`check_pairs`] or [`check_trees`] before writing, so no input error
//! comes after the first line of output.

use std::io::BufRead;

use super::CliError;
use treelink::app::stream::InputPair;
use treelink::corpus::{CorpusError, TreePair};
use treelink::io::text::{decode_utf8, ReadError};
use treelink::io::tree_stream::TreeStream;
use treelink::lexicon::{read_word_alignments_for, LexError, WordAlignment};
use treelink::limits::Limits;
use treelink::parallel::Threads;
use treelink::tree::Tree;

/// `--threads`: the same output with any number.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ThreadsArg {
    /// Threads to use (default: every core). The output is the same, byte for byte, with any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

impl ThreadsArg {
    pub fn get(&self) -> Threads {
        self.threads.map_or_else(Threads::available, |n| Threads::new(n.into()))
    }
}

/// A file read line by line, inflated as it is read if gzipped (as the whole-file readers take it).
fn open(file: &str) -> Result<Box<dyn BufRead>, CliError> {
    Ok(treelink::io::text::open_text(file)?)
}

/// The trees of one file, each within `limits`.
pub struct Trees {
    stream: TreeStream<Box<dyn BufRead>>,
    file: String,
    limits: Limits,
    read: usize,
}

impl Trees {
    pub fn open(file: &str, limits: &Limits) -> Result<Trees, CliError> {
        Ok(Trees { stream: TreeStream::numbered(open(file)?, file), file: file.to_string(), limits: *limits, read: 0 })
    }

    /// The trees left, counted to the end (as many as read without error).
    fn count_rest(&mut self) -> usize {
        self.stream.by_ref().take_while(Result::is_ok).count()
    }
}

impl Iterator for Trees {
    type Item = Result<Tree, CliError>;

    fn next(&mut self) -> Option<Self::Item> {
        let tree = match self.stream.next()? {
            Ok(t) => t,
            Err(e) => return Some(Err(e.into())),
        };
        self.read += 1;
        let start = self.stream.last_start();
        Some(match self.limits.check_trees(&self.file, std::slice::from_ref(&tree), &[start]) {
            Ok(()) => Ok(tree),
            Err(e) => Err(e.into()),
        })
    }
}

/// A file read a line at a time (`svm-light-tk`'s examples), or a
/// word-links file, each line's links checked against its pair's sentences.
pub struct FileLines {
    reader: Box<dyn BufRead>,
    file: String,
    /// The number of the line read last, from 1.
    pub line: usize,
    bytes: Vec<u8>,
    /// Where the file ends: (line, column), once it has.
    end: Option<(usize, usize)>,
    last_line_chars: usize,
    ended_with_newline: bool,
}

impl FileLines {
    pub fn open(file: &str) -> Result<FileLines, CliError> {
        Ok(FileLines {
            reader: open(file)?,
            file: file.to_string(),
            line: 0,
            bytes: Vec::new(),
            end: None,
            last_line_chars: 0,
            ended_with_newline: false,
        })
    }

    /// The next line's text, without its line end, or `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<String>, CliError> {
        self.bytes.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.bytes)
            .map_err(|e| ReadError::Io { file: self.file.clone(), message: e.to_string() })?;
        if n == 0 {
            let end = match (self.line, self.ended_with_newline) {
                (0, _) => (1, 1),
                (l, true) => (l + 1, 1),
                (l, false) => (l, self.last_line_chars + 1),
            };
            self.end = Some(end);
            return Ok(None);
        }
        self.line += 1;
        let text = decode_utf8(&self.bytes, &self.file).map_err(|mut e| {
            e.line = self.line;
            ReadError::from(e)
        })?;
        self.ended_with_newline = text.ends_with('\n');
        let text = text.trim_end_matches(['\n', '\r']);
        self.last_line_chars = text.chars().count();
        Ok(Some(text.to_string()))
    }

    /// The links of the next line, inside sentences of `lengths` words (source, target).
    fn next_links(&mut self, lengths: (usize, usize)) -> Result<Option<WordAlignment>, CliError> {
        let Some(text) = self.next_line()? else { return Ok(None) };
        let line = self.line;
        let relocate = |e: LexError| match e {
            LexError::Unexpected { file, column, expected, found, .. } => {
                LexError::Unexpected { file, line, column, expected, found }
            }
            LexError::LinkOutOfRange { file, column, mut error, .. } => {
                // Line k holds pair k.
                error.pair = treelink::corpus::PairIndex::from_number(line).unwrap_or_default();
                LexError::LinkOutOfRange { file, line, column, error }
            }
            e => e,
        };
        let mut links = read_word_alignments_for(&(text + "\n"), &self.file, &[lengths]).map_err(relocate)?;
        Ok(links.pop())
    }

    /// Lines left to the end.
    fn count_rest(&mut self) -> Result<usize, CliError> {
        let mut n = 0;
        while self.next_line()?.is_some() {
            n += 1;
        }
        Ok(n)
    }
}

/// Reads the whole input through the checks of [`Pairs`], one pair at a
/// time, so that a streamed output meets no input error after its first
/// line: the number of pairs, at least one (an input of none is refused by
/// name), and the first `keep` of them (what looks at the input's words,
/// a model's fit or the tables' coverage, looks at these).
pub fn check_pairs(
    prefix: &str,
    word_links: Option<&str>,
    limits: &Limits,
    keep: usize,
) -> Result<(usize, Vec<TreePair>), CliError> {
    let pairs = Pairs::open(prefix, word_links, limits)?.map(|p| p.map(|(pair, _)| pair));
    check_all(pairs, &format!("{prefix}.src"), keep)
}

/// Like [`check_pairs`], for the trees of one file.
pub fn check_trees(file: &str, limits: &Limits, keep: usize) -> Result<(usize, Vec<Tree>), CliError> {
    check_all(Trees::open(file, limits)?, file, keep)
}

/// The number of `items`, read to their end (the first error, else none
/// refused as an empty `file`), and the first `keep` of them.
pub fn check_all<T>(
    items: impl Iterator<Item = Result<T, CliError>>,
    file: &str,
    keep: usize,
) -> Result<(usize, Vec<T>), CliError> {
    let mut n = 0;
    let mut first = Vec::new();
    for item in items {
        let item = item?;
        if n < keep {
            first.push(item);
        }
        n += 1;
    }
    match n {
        0 => Err(CorpusError::Empty { file: file.to_string() }.into()),
        n => Ok((n, first)),
    }
}

/// Tree pairs of `PREFIX.src` and `PREFIX.trg` (and their word links, if a
/// file is given), one at a time.
pub struct Pairs {
    source: Trees,
    target: Trees,
    links: Option<FileLines>,
    done: bool,
}

impl Pairs {
    pub fn open(prefix: &str, word_links: Option<&str>, limits: &Limits) -> Result<Pairs, CliError> {
        Ok(Pairs {
            source: Trees::open(&format!("{prefix}.src"), limits)?,
            target: Trees::open(&format!("{prefix}.trg"), limits)?,
            links: word_links.map(FileLines::open).transpose()?,
            done: false,
        })
    }

    /// The error of a target file with another number of trees than the
    /// source (the source counted to its end): at its first extra tree, or at its end.
    fn count_mismatch(&mut self, target_ended: bool) -> CliError {
        let (line, column) =
            if target_ended { self.target.stream.end_position() } else { self.target.stream.last_start() };
        let (sources, targets) = if target_ended {
            (self.source.read + self.source.count_rest(), self.target.read)
        } else {
            let extra = self.target.read;
            (self.source.read, extra + self.target.count_rest())
        };
        CorpusError::CountMismatch {
            file: self.target.file.clone(),
            line,
            column,
            expected: sources,
            found: targets,
            what: "trees",
            per: "source tree",
        }
        .into()
    }

    /// The error of a word-links file with another number of lines than
    /// there are pairs (`pairs`, or counted to the end of the trees).
    fn links_mismatch(&mut self, links_ended: bool) -> CliError {
        let Some(links) = &mut self.links else { return CliError::Usage("no word links".into()) };
        let (expected, found, position) = if links_ended {
            let pairs = self.source.read + self.source.count_rest();
            (pairs, links.line, links.end.unwrap_or((1, 1)))
        } else {
            let pairs = self.source.read;
            match links.count_rest() {
                Ok(rest) => (pairs, pairs + 1 + rest, (pairs + 1, 1)),
                Err(e) => return e,
            }
        };
        LexError::CountMismatch {
            file: links.file.clone(),
            line: position.0,
            column: position.1,
            expected,
            found,
            what: "lines of word links (one per sentence pair)",
        }
        .into()
    }

    fn next_pair(&mut self) -> Result<Option<InputPair>, CliError> {
        let source = self.source.next().transpose()?;
        let target = self.target.next().transpose()?;
        let (source, target) = match (source, target) {
            (Some(s), Some(t)) => (s, t),
            (None, None) => {
                if self.links.as_mut().map(FileLines::next_line).transpose()?.flatten().is_some() {
                    return Err(self.links_mismatch(false));
                }
                return Ok(None);
            }
            (Some(_), None) => return Err(self.count_mismatch(true)),
            (None, Some(_)) => return Err(self.count_mismatch(false)),
        };
        let lengths = (source.words().len(), target.words().len());
        let links = match &mut self.links {
            None => None,
            Some(l) => match l.next_links(lengths)? {
                Some(links) => Some(links),
                None => return Err(self.links_mismatch(true)),
            },
        };
        Ok(Some((TreePair { source, target, gold: Vec::new() }, links)))
    }
}

impl Iterator for Pairs {
    type Item = Result<InputPair, CliError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_pair().transpose();
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }
}
