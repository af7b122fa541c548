//! Bracketed trees read one at a time from a reader (`treelink kernel` and
//! `btk` on files of any size), located as [`Tree::parse_all`] locates them.

use super::text::{decode_utf8, ReadError};
use crate::tree::{LineLayout, ParseError, Tree};

/// Why a stream of trees stopped: the input could not be read (or is not
/// UTF-8), or a tree in it is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error(transparent)]
    Parse(#[from] ParseError),
}

/// Trees read one at a time from a [`std::io::BufRead`]: memory holds the
/// lines of one tree (or of one line holding several), never the whole
/// input, and errors are located as [`Tree::parse_all`] and
/// [`decode_utf8`] locate them.
///
/// ```
/// use treelink::io::tree_stream::TreeStream;
/// let text = "(S (NP (DT a) (NN b))\n   (VP (V c)))\n(X (Y y)) (Z (W w))\n";
/// let trees: Vec<_> = TreeStream::new(text.as_bytes(), "t").map(|t| t.unwrap().to_string()).collect();
/// assert_eq!(trees, ["(S (NP (DT a) (NN b)) (VP (V c)))", "(X (Y y))", "(Z (W w))"]);
/// ```
pub struct TreeStream<R> {
    reader: R,
    file: String,
    /// Lines consumed so far.
    line: usize,
    /// Characters on the last line read (for the end position).
    last_line_chars: usize,
    ended_with_newline: bool,
    /// Trees of the last chunk not yet handed out, with their starts.
    ready: std::collections::VecDeque<(Tree, (usize, usize))>,
    last_start: (usize, usize),
    chunk: String,
    bytes: Vec<u8>,
    done: bool,
    /// The layout checked tree by tree ([`TreeStream::numbered`]).
    layout: Option<LineLayout>,
}

impl<R: std::io::BufRead> TreeStream<R> {
    /// A stream over `reader`; `file` names it in errors.
    pub fn new(reader: R, file: &str) -> Self {
        TreeStream {
            reader,
            file: file.to_string(),
            line: 0,
            last_line_chars: 0,
            ended_with_newline: false,
            ready: Default::default(),
            last_start: (1, 1),
            chunk: String::new(),
            bytes: Vec::new(),
            done: false,
            layout: None,
        }
    }

    /// A stream of trees whose `k`-th is output line `k` (`treelink kernel`
    /// and `btk`): the layout is checked as [`Tree::parse_numbered`] checks
    /// a whole file ([`LineLayout`]), so a blank line or a second tree on a
    /// line is refused where it is, never shifting the lines after it.
    pub fn numbered(reader: R, file: &str) -> Self {
        TreeStream { layout: Some(LineLayout::default()), ..TreeStream::new(reader, file) }
    }

    /// Line and column of the '(' that began the last tree handed out.
    pub fn last_start(&self) -> (usize, usize) {
        self.last_start
    }

    /// Line and column just past the input, once the stream has ended (as
    /// [`super::text::end_position`] gives them for a whole text).
    pub fn end_position(&self) -> (usize, usize) {
        if self.line == 0 {
            (1, 1)
        } else if self.ended_with_newline {
            (self.line + 1, 1)
        } else {
            (self.line, self.last_line_chars + 1)
        }
    }

    /// Reads lines until the brackets balance (tokens cannot contain
    /// brackets, so counting characters is exact), then parses them.
    fn read_chunk(&mut self) -> Result<(), StreamError> {
        self.chunk.clear();
        let first_line = self.line + 1;
        let mut depth: i64 = 0;
        loop {
            self.bytes.clear();
            let n = self
                .reader
                .read_until(b'\n', &mut self.bytes)
                .map_err(|e| StreamError::Read(ReadError::Io { file: self.file.clone(), message: e.to_string() }))?;
            if n == 0 {
                self.done = true;
                break;
            }
            self.line += 1;
            let text = decode_utf8(&self.bytes, &self.file).map_err(|mut e| {
                e.line = self.line;
                StreamError::Read(e.into())
            })?;
            self.ended_with_newline = text.ends_with('\n');
            self.last_line_chars = text.trim_end_matches('\n').chars().count();
            // Brackets are ASCII, and no byte of a multi-byte character is.
            for &b in text.as_bytes() {
                match b {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
            }
            self.chunk.push_str(text);
            if depth <= 0 && !self.chunk.trim().is_empty() {
                break;
            }
        }
        let (trees, starts) = Tree::parse_from_line(&self.chunk, &self.file, first_line, self.layout.as_mut())?;
        self.ready.extend(trees.into_iter().zip(starts));
        Ok(())
    }
}

impl<R: std::io::BufRead> Iterator for TreeStream<R> {
    type Item = Result<Tree, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.ready.is_empty() && !self.done {
            if let Err(e) = self.read_chunk() {
                self.done = true;
                self.ready.clear();
                return Some(Err(e));
            }
        }
        self.ready.pop_front().map(|(tree, start)| {
            self.last_start = start;
            Ok(tree)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::text::end_position;

    #[test]
    fn a_stream_reads_what_parse_all_reads_with_the_same_errors() {
        let text = "( (S\n    (NP (DT the) (NN dog))\n    (VP (VBZ barks))) )\n\n(X (Y $,)) (Z (W w))\n(A (B b))";
        let (all, starts) = Tree::parse_all_with_starts(text, "t").unwrap();
        let mut stream = TreeStream::new(text.as_bytes(), "t");
        for (tree, start) in all.iter().zip(&starts) {
            assert_eq!(&stream.next().unwrap().unwrap(), tree);
            assert_eq!(stream.last_start(), *start);
        }
        assert!(stream.next().is_none());
        assert_eq!(stream.end_position(), end_position(text));
        for t in ["(A a)\n", "(A a)", ""] {
            let mut s = TreeStream::new(t.as_bytes(), "t");
            while s.next().is_some() {}
            assert_eq!(s.end_position(), end_position(t), "{t:?}");
        }
        // Bytes that are not UTF-8: located as when the whole file is decoded.
        let latin1 = b"(A a)\n(S\n  (NN Stra\xdfe))\n";
        let expected = decode_utf8(latin1, "t").unwrap_err();
        let mut stream = TreeStream::new(&latin1[..], "t");
        assert!(stream.next().unwrap().is_ok());
        assert_eq!(stream.next().unwrap().unwrap_err(), StreamError::Read(expected.into()));
        for bad in ["(A a)\n(S (NP (DT the) (NN dog))\n   (VP (VBZ barks)", "(A a)\n\n(S (DT the)))", "(A a)\n(B"] {
            let expected = Tree::parse_all(bad, "t").unwrap_err();
            let mut stream = TreeStream::new(bad.as_bytes(), "t");
            assert!(stream.next().unwrap().is_ok());
            match stream.next() {
                Some(Err(StreamError::Parse(e))) => assert_eq!(e, expected, "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
            assert!(stream.next().is_none(), "an error ends the stream");
        }
    }

    #[test]
    fn a_numbered_stream_refuses_what_a_numbered_file_refuses_where_it_is() {
        for bad in ["(A a)\n(B b)\n\n(C c)\n", "(A a)\n(B b) (C c)\n", "(A a)\n(B\n b)\n"] {
            let expected = Tree::parse_numbered(bad, "t").unwrap_err();
            let got: Result<Vec<Tree>, StreamError> = TreeStream::numbered(bad.as_bytes(), "t").collect();
            assert_eq!(got, Err(StreamError::Parse(expected)), "{bad:?}");
        }
        let mrg = "(A\n a)\n\n(B b) (C c)\n";
        assert_eq!(TreeStream::numbered(mrg.as_bytes(), "t").count(), 3, "a first tree spread over lines: any layout");
    }
}
