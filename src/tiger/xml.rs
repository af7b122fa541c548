//! The XML layer under both readers: positions (line and column in
//! characters), the located [`TigerError`], and a stream of elements.

use std::collections::HashMap;
use std::fmt;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// A 1-based line and column (in characters) in an input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Loc {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A located error from reading TigerXML or STA XML: `file:line:column: what was expected`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct TigerError {
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    pub kind: TigerErrorKind,
}

impl TigerError {
    pub(super) fn at(file: &str, loc: Loc, kind: TigerErrorKind) -> Self {
        TigerError { file: file.to_string(), line: loc.line, column: loc.column, kind }
    }
}

/// What went wrong, phrased as what the reader expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TigerErrorKind {
    #[error("expected well-formed XML: {message}")]
    Xml { message: String },
    #[error("expected </{element}> before the end of the input")]
    Unclosed { element: String },
    #[error("expected {expected} as the document element, found {found}")]
    WrongDocument { expected: &'static str, found: String },
    #[error("expected attribute '{attribute}' on <{element}>")]
    MissingAttribute { element: &'static str, attribute: &'static str },
    #[error("expected <{element}> inside <{parent}>")]
    Misplaced { element: &'static str, parent: &'static str },
    #[error("id '{id}' was already used at {line}:{column}; expected unique ids")]
    DuplicateId { id: String, line: usize, column: usize },
    #[error("edge of {node} names node {idref}, which is not in sentence {sentence}")]
    DanglingIdref { node: String, idref: String, sentence: String },
    #[error("graph root {root} is not a node of sentence {sentence}")]
    DanglingRoot { root: String, sentence: String },
    #[error("node {node} has two parents, {first} and {second}; expected a tree")]
    TwoParents { node: String, first: String, second: String },
    #[error("nonterminals form a cycle (each contains the next: {path}); expected a tree")]
    Cycle { path: String },
    #[error("graph root {root} has parent {parent}; expected the root to be the top node")]
    RootHasParent { root: String, parent: String },
    #[error("expected at least one word in sentence {sentence}")]
    NoWords { sentence: String },
    #[error("{element} names node {node} which is not in {file}")]
    UnknownNode { element: &'static str, node: String, file: String },
    #[error("expected two <treebank>s in <treebanks>, found {found}")]
    TreebankCount { found: usize },
    #[error("node names treebank '{treebank}', which is not declared in <treebanks>")]
    UnknownTreebank { treebank: String },
    #[error("expected one node of treebank '{treebank}' in <{element}>, found {found}")]
    NodesPerTreebank { element: &'static str, treebank: String, found: usize },
    #[error("expected the alignment's treebanks ({treebanks}) to be {source_file} and {target_file}, but neither the files' names nor the node ids each holds tell which is which; name the files as the alignment does")]
    TreebanksDoNotMatch { treebanks: String, source_file: String, target_file: String },
    #[error("the same treebank given twice ({given}), as the source and as the target; expected the alignment's two treebanks ({treebanks})")]
    SameTreebankTwice { given: String, treebanks: String },
    #[error("expected at least one 1:1 sentence pair (two sentences linked to each other alone), found none among its {alignments} alignments: nothing to import")]
    NoSentencePairs { alignments: usize },
}

/// Tracks line and column while offsets grow, so locating every element
/// costs O(input length) in total.
pub(super) struct Lines<'a> {
    text: &'a str,
    offset: usize,
    loc: Loc,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { text, offset: 0, loc: Loc { line: 1, column: 1 } }
    }

    pub(super) fn at(&mut self, offset: u64) -> Loc {
        let mut offset = usize::try_from(offset).unwrap_or(usize::MAX).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset {
            self.offset = 0;
            self.loc = Loc { line: 1, column: 1 };
        }
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.loc.line += 1;
                self.loc.column = 1;
            } else {
                self.loc.column += 1;
            }
        }
        self.offset = offset;
        self.loc
    }
}

/// An XML element as the readers see it: its attributes and position, with
/// the file name for errors.
pub(super) struct Element<'x, 'f> {
    attributes: Vec<quick_xml::events::attributes::Attribute<'x>>,
    loc: Loc,
    file: &'f str,
}

impl<'x, 'f> Element<'x, 'f> {
    /// Reads the attributes of `start` once, refusing duplicates in
    /// O(n log n) (quick-xml's own check is quadratic in the attributes).
    pub(super) fn new(start: &'x BytesStart<'x>, loc: Loc, file: &'f str) -> Result<Self, TigerError> {
        let xml = |e: String| TigerError::at(file, loc, TigerErrorKind::Xml { message: e });
        let attributes =
            start.attributes().with_checks(false).collect::<Result<Vec<_>, _>>().map_err(|e| xml(e.to_string()))?;
        let mut keys: Vec<&[u8]> = attributes.iter().map(|a| a.key.as_ref()).collect();
        keys.sort_unstable();
        if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
            return Err(xml(format!("attribute '{}' appears twice", String::from_utf8_lossy(w[0]))));
        }
        Ok(Element { attributes, loc, file })
    }

    pub(super) fn error(&self, kind: TigerErrorKind) -> TigerError {
        TigerError::at(self.file, self.loc, kind)
    }

    /// The unescaped value of attribute `name`, if present.
    pub(super) fn attr(&self, name: &str) -> Result<Option<String>, TigerError> {
        match self.attributes.iter().find(|a| a.key.local_name().as_ref() == name.as_bytes()) {
            None => Ok(None),
            Some(a) => a
                .unescape_value()
                .map(|v| Some(v.into_owned()))
                .map_err(|e| self.error(TigerErrorKind::Xml { message: e.to_string() })),
        }
    }

    /// Records `id` as given first here in `first`, or the `DuplicateId`
    /// error naming where it was.
    pub(super) fn first_use(&self, id: &str, first: &mut HashMap<String, Loc>) -> Result<(), TigerError> {
        if let Some(&at) = first.get(id) {
            return Err(self.error(dup(id, at)));
        }
        first.insert(id.to_string(), self.loc);
        Ok(())
    }

    pub(super) fn required(&self, element: &'static str, attribute: &'static str) -> Result<String, TigerError> {
        self.attr(attribute)?.ok_or_else(|| self.error(TigerErrorKind::MissingAttribute { element, attribute }))
    }
}

/// One step of the streaming reader.
pub(super) enum Step<'x> {
    Open(BytesStart<'x>, Loc),
    Close(Vec<u8>),
    End,
}

/// Streams the elements of an XML text, checking nesting and reporting
/// located errors. Elements are given as `Open(start, loc)` /
/// `Close(name)`; an empty element gets a `Close` right after its `Open`.
pub(super) struct XmlStream<'a> {
    reader: Reader<&'a [u8]>,
    pub(super) lines: Lines<'a>,
    file: &'a str,
    open: Vec<Vec<u8>>,
    pending_close: Option<Vec<u8>>,
    /// The byte offset of the `<` of the last element opened.
    pub(super) last_open: usize,
}

impl<'a> XmlStream<'a> {
    pub(super) fn new(text: &'a str, file: &'a str) -> Self {
        let mut reader = Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        XmlStream { reader, lines: Lines::new(text), file, open: Vec::new(), pending_close: None, last_open: 0 }
    }

    /// The byte offset just past the last element's tag (after an `Open`,
    /// its start tag; after a `Close`, its end tag or its empty tag).
    pub(super) fn offset(&self) -> usize {
        usize::try_from(self.reader.buffer_position()).unwrap_or(usize::MAX)
    }

    /// The document element, which must be `root`: else, or where the text
    /// has no element, a `WrongDocument` error expecting `expected`.
    pub(super) fn document(
        &mut self,
        root: &[u8],
        expected: &'static str,
    ) -> Result<(BytesStart<'a>, Loc), TigerError> {
        loop {
            match self.next()? {
                Step::Open(start, loc) => {
                    let el = Element::new(&start, loc, self.file)?;
                    let name = start.local_name();
                    if name.as_ref() != root {
                        let found = format!("<{}>", String::from_utf8_lossy(name.as_ref()));
                        return Err(el.error(TigerErrorKind::WrongDocument { expected, found }));
                    }
                    return Ok((start, loc));
                }
                Step::Close(_) => {}
                Step::End => {
                    let loc = self.lines.at(self.lines.text.len() as u64);
                    let kind = TigerErrorKind::WrongDocument { expected, found: "no element".into() };
                    return Err(TigerError::at(self.file, loc, kind));
                }
            }
        }
    }

    pub(super) fn next(&mut self) -> Result<Step<'a>, TigerError> {
        if let Some(name) = self.pending_close.take() {
            return Ok(Step::Close(name));
        }
        loop {
            let before = self.reader.buffer_position();
            let event = match self.reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    let loc = self.lines.at(self.reader.error_position());
                    return Err(TigerError::at(self.file, loc, TigerErrorKind::Xml { message: e.to_string() }));
                }
            };
            match event {
                Event::Start(s) => {
                    self.last_open = usize::try_from(before).unwrap_or(usize::MAX);
                    let loc = self.lines.at(before);
                    self.open.push(s.local_name().as_ref().to_vec());
                    return Ok(Step::Open(s, loc));
                }
                Event::Empty(s) => {
                    self.last_open = usize::try_from(before).unwrap_or(usize::MAX);
                    let loc = self.lines.at(before);
                    self.pending_close = Some(s.local_name().as_ref().to_vec());
                    return Ok(Step::Open(s, loc));
                }
                Event::End(_) => {
                    let name = self.open.pop().unwrap_or_default();
                    return Ok(Step::Close(name));
                }
                Event::Eof => {
                    if let Some(name) = self.open.last() {
                        let loc = self.lines.at(self.reader.buffer_position());
                        let element = String::from_utf8_lossy(name).into_owned();
                        return Err(TigerError::at(self.file, loc, TigerErrorKind::Unclosed { element }));
                    }
                    return Ok(Step::End);
                }
                _ => {}
            }
        }
    }
}

pub(super) fn dup(id: &str, first: Loc) -> TigerErrorKind {
    TigerErrorKind::DuplicateId { id: id.to_string(), line: first.line, column: first.column }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_characters() {
        let mut l = Lines::new("äb\ncd");
        assert_eq!(l.at(2), Loc { line: 1, column: 2 });
        assert_eq!(l.at(1), Loc { line: 1, column: 1 }); // inside 'ä': moved back
        assert_eq!(l.at(5), Loc { line: 2, column: 2 });
        assert_eq!(l.at(100), Loc { line: 2, column: 3 });
    }
}
