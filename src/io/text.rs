//! Small helpers shared by the line-oriented readers (and the counts in
//! their messages).

/// `what`, a plural with its noun first ("trees", "lines of links"), for a
/// count of `n`: its first word singular for one.
///
/// ```
/// use treelink::io::text::counted;
/// assert_eq!(counted(1, "lines of links"), "line of links");
/// assert_eq!(counted(2, "trees"), "trees");
/// ```
pub fn counted(n: usize, what: &str) -> String {
    match what.split_once(' ') {
        _ if n != 1 => what.to_string(),
        Some((noun, rest)) => format!("{} {rest}", noun.strip_suffix('s').unwrap_or(noun)),
        None => what.strip_suffix('s').unwrap_or(what).to_string(),
    }
}

/// Whitespace-separated tokens of a line with their 1-based columns, counted
/// in characters (so errors point where an editor shows the token).
///
/// ```
/// use treelink::io::text::tokens_with_columns;
/// assert_eq!(tokens_with_columns(" ä-b  c"), vec![(2, "ä-b"), (7, "c")]);
/// ```
pub fn tokens_with_columns(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((i, column + 1)),
            (true, Some((s, col))) => {
                out.push((col, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &line[s..]));
    }
    out
}

/// The 1-based line and column just past the end of `text`: where an error
/// saying "expected more lines (or trees)" points.
///
/// ```
/// use treelink::io::text::end_position;
/// assert_eq!(end_position("a\nbc"), (2, 3));
/// assert_eq!(end_position("a\nbc\n"), (3, 1));
/// assert_eq!(end_position(""), (1, 1));
/// ```
pub fn end_position(text: &str) -> (usize, usize) {
    let last = text.rfind('\n').map_or(0, |i| i + 1);
    (text.matches('\n').count() + 1, text[last..].chars().count() + 1)
}

/// Where a line-per-item file with `found` lines instead of `expected` goes
/// wrong: the first extra line, or the end of the file when lines are missing.
pub fn line_count_position(text: &str, expected: usize, found: usize) -> (usize, usize) {
    if found > expected {
        (expected + 1, 1)
    } else {
        end_position(text)
    }
}

/// Text that is not UTF-8, located at its first bad byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: expected UTF-8 text, found {found}")]
pub struct EncodingError {
    pub file: String,
    /// 1-based line of the first byte that is not UTF-8.
    pub line: usize,
    /// 1-based column, in characters (the valid ones before it on its line, plus one).
    pub column: usize,
    /// What was there, with a hint at the likely encoding.
    pub found: String,
}

/// `bytes` as text, or where and why it is not UTF-8 text. A UTF-16 file
/// (byte order mark `FF FE` or `FE FF`) is named as such; a control byte
/// (NUL and the other C0 controls but tab, line feed, form feed and carriage
/// return; DEL) marks a binary file; any other bad byte is shown in hex
/// with the usual cause (Latin-1 or Windows-1252 text). No byte of a bad
/// file reaches the message.
///
/// ```
/// use treelink::io::text::decode_utf8;
/// assert_eq!(decode_utf8(b"(NN Stra\xc3\x9fe)", "a.src").unwrap(), "(NN Straße)");
/// let e = decode_utf8(b"(S\n  (NN Stra\xdfe))", "a.src").unwrap_err();
/// assert_eq!((e.line, e.column), (2, 11));
/// ```
pub fn decode_utf8<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str, EncodingError> {
    let bad = match std::str::from_utf8(bytes) {
        Ok(text) => match text.bytes().position(is_binary_control) {
            None => return Ok(text),
            // Valid UTF-8 with control bytes: a binary file; its bytes would
            // reach the error messages (and the page) as garbage.
            Some(bad) => bad,
        },
        Err(e) => e.valid_up_to(),
    };
    // The prefix is valid, so lines and characters can be counted on it.
    let before = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    let found = if bad == 0 && (bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF])) {
        "a UTF-16 byte order mark: convert the file to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)".to_string()
    } else if bytes.get(bad).copied().is_some_and(is_binary_control) {
        let byte = bytes.get(bad).copied().unwrap_or_default();
        format!("the control byte 0x{byte:02X} (a binary file?)")
    } else {
        let byte = bytes.get(bad).copied().unwrap_or_default();
        format!(
            "the byte 0x{byte:02X}, which is not UTF-8 there (Latin-1 or Windows-1252 text? convert it, e.g. iconv -f LATIN1 -t UTF-8)"
        )
    };
    Err(EncodingError { file: file.to_string(), line, column, found })
}

/// A byte no text file holds: a C0 control other than tab, line feed, form
/// feed and carriage return, or DEL.
fn is_binary_control(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r')) || b == 0x7f
}

/// Why a file could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
    #[error(transparent)]
    Encoding(#[from] EncodingError),
}

/// Reads a file as UTF-8 text; errors name the file and, for bad bytes, the line and column.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_text_file(file: &str) -> Result<String, ReadError> {
    let bytes = std::fs::read(file).map_err(|e| ReadError::Io { file: file.to_string(), message: e.to_string() })?;
    decode_utf8(&bytes, file)?;
    // Valid, so this moves the buffer without copying or checking again.
    String::from_utf8(bytes).map_err(|e| ReadError::Io { file: file.to_string(), message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_names_one_thing() {
        assert_eq!(counted(1, "trees"), "tree");
        assert_eq!(counted(1, "lines of links"), "line of links");
        assert_eq!(counted(2, "lines of links"), "lines of links");
        assert_eq!(counted(0, "trees"), "trees");
    }

    #[test]
    fn bad_bytes_are_located_in_characters() {
        let e = decode_utf8("ä-b\nc d é".as_bytes(), "x").map(str::len);
        assert_eq!(e, Ok(11));
        let mut bytes = "ä-b\nc dé".as_bytes().to_vec();
        bytes.extend([b' ', 0xE9, b'x']);
        let e = decode_utf8(&bytes, "w.txt").unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        assert!(e.to_string().starts_with("w.txt:2:6: expected UTF-8 text, found the byte 0xE9"), "{e}");
        // A sequence cut off at the end of the file.
        let e = decode_utf8(&[b'a', b'\n', 0xC3], "t").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        let e = decode_utf8(&[0xFF, 0xFE, b'(', 0], "u16").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.found.contains("UTF-16"));
    }

    #[test]
    fn control_bytes_in_valid_utf8_are_a_binary_file_located_at_the_first() {
        let e = decode_utf8(b"(S (NN a))\n(S \x01\x02\x1b[31m (NN b))", "b.src").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4));
        assert_eq!(e.to_string(), "b.src:2:4: expected UTF-8 text, found the control byte 0x01 (a binary file?)");
        assert!(decode_utf8(b"a\x00", "z").unwrap_err().to_string().contains("0x00"));
        // Tab, CR LF and form feed are text.
        assert_eq!(decode_utf8(b"(S\t(NN a))\r\n\x0c", "t").unwrap(), "(S\t(NN a))\r\n\x0c");
    }
}
