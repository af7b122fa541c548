//! Small helpers shared by the line-oriented readers (and the counts in
//! their messages), and the one way a file's bytes become text
//! ([`decode_text`]): gzip inflated (told by its magic bytes, whatever the
//! file's name), the encoding an XML declaration names honoured, anything
//! else read as UTF-8, and the first byte that is not text located by line
//! and column in every case. The CLI ([`read_text_file`], [`open_text`]) and
//! the page (its file reader) both go through it.

use std::borrow::Cow;

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

/// Line and column (1-based, the column in characters) just past `before`.
fn position_after(before: &str) -> (usize, usize) {
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

/// Why a file could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
    #[error(transparent)]
    Encoding(#[from] EncodingError),
    /// A gzipped file that does not inflate: located where its text stops
    /// (line and column of the inflated text).
    #[error("{file}:{line}:{column}: expected the gzip data to go on, found {message}")]
    Gzip { file: String, line: usize, column: usize, message: String },
}

impl ReadError {
    /// The file the error is about.
    pub fn file(&self) -> &str {
        match self {
            ReadError::Io { file, .. } | ReadError::Gzip { file, .. } => file,
            ReadError::Encoding(e) => &e.file,
        }
    }
}

/// The first two bytes of every gzip member (RFC 1952).
pub const GZIP_MAGIC: [u8; 2] = [0x1F, 0x8B];

/// The most a gzipped file may inflate to (1 GiB): a damaged or hostile
/// file cannot take all the memory of the CLI or the page.
pub const MAX_INFLATED: u64 = 1 << 30;

/// Whether `bytes` start as gzip data does.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP_MAGIC)
}

/// Inflates gzip data (every member, as `zcat` does: pigz and bgzip write
/// several), at most [`MAX_INFLATED`] bytes. A damaged or cut stream is
/// located where its text stops.
pub fn gunzip(bytes: &[u8], file: &str) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut out = Vec::new();
    let read = flate2::read::MultiGzDecoder::new(bytes).take(MAX_INFLATED + 1).read_to_end(&mut out);
    let stopped = |message: String, out: &[u8]| {
        // The text before the damage, as far as it is UTF-8, places it.
        let before = match std::str::from_utf8(out) {
            Ok(t) => t,
            Err(e) => std::str::from_utf8(&out[..e.valid_up_to()]).unwrap_or_default(),
        };
        let (line, column) = position_after(before);
        ReadError::Gzip { file: file.to_string(), line, column, message }
    };
    match read {
        Err(e) => Err(stopped(format!("a damaged or cut gzip stream ({e})"), &out)),
        Ok(n) if n as u64 > MAX_INFLATED => {
            out.truncate(MAX_INFLATED as usize);
            Err(stopped(format!("more than {} MiB of inflated text, over the limit", MAX_INFLATED >> 20), &out))
        }
        Ok(_) => Ok(out),
    }
}

/// The encoding an XML declaration at the start of `bytes` names
/// (`<?xml version="1.0" encoding="ISO-8859-1"?>`), and the byte offset of
/// its name, if there is one.
fn declared_encoding(bytes: &[u8]) -> Option<(&str, usize)> {
    let start = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let head = &bytes[start..bytes.len().min(start + 1024)];
    let decl = head.strip_prefix(b"<?xml")?;
    if !decl.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let end = decl.windows(2).position(|w| w == b"?>")?;
    let decl = std::str::from_utf8(&decl[..end]).ok()?;
    let at = decl.find("encoding")?;
    let rest = decl[at + "encoding".len()..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let value = &rest[1..];
    let label = &value[..value.find(quote)?];
    let offset = start + "<?xml".len() + (decl.len() - value.len());
    Some((label, offset))
}

/// `bytes` as text, as every file treelink reads: gzip data (told by its
/// magic bytes) is inflated first ([`gunzip`]); a text whose XML
/// declaration names an encoding other than UTF-8 is decoded from it (any
/// label of the WHATWG Encoding Standard, as `encoding_rs` knows them: so
/// `ISO-8859-1` and `latin1` read as Windows-1252, its superset), its first
/// malformed byte located; anything else is UTF-8 ([`decode_utf8`]). Control
/// bytes mark a binary file in every encoding. Positions in errors are in
/// the (inflated) text.
///
/// ```
/// use treelink::io::text::decode_text;
/// let latin1 = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<t word=\"Stra\xdfe\"/>";
/// assert!(decode_text(latin1, "a.xml").unwrap().ends_with("<t word=\"Straße\"/>"));
/// let e = decode_text(b"<t word=\"Stra\xdfe\"/>", "b.xml").unwrap_err();
/// assert!(e.to_string().starts_with("b.xml:1:14: expected UTF-8 text, found the byte 0xDF"), "{e}");
/// ```
pub fn decode_text<'a>(bytes: &'a [u8], file: &str) -> Result<Cow<'a, str>, ReadError> {
    if is_gzip(bytes) {
        let inflated = gunzip(bytes, file)?;
        return Ok(Cow::Owned(decode_plain(&inflated, file)?.into_owned()));
    }
    Ok(decode_plain(bytes, file)?)
}

/// `bytes` as text in the encoding named `label` (any WHATWG label:
/// `latin1`, `windows-1252`, `utf-8`, ...), for a file that cannot say its
/// own (a Dublin file in Latin-1, say): gzip inflated first, the first
/// malformed byte located. An unknown label is refused in words.
pub fn decode_text_as<'a>(bytes: &'a [u8], file: &str, label: &str) -> Result<Cow<'a, str>, ReadError> {
    let encoding = encoding_rs::Encoding::for_label(label.trim().as_bytes())
        .filter(|e| e.is_ascii_compatible() && *e != encoding_rs::REPLACEMENT)
        .ok_or_else(|| ReadError::Io {
            file: file.to_string(),
            message: format!("expected the name of an encoding (utf-8, latin1, windows-1252, ...), found '{label}'"),
        })?;
    let decode = |bytes| {
        if encoding == encoding_rs::UTF_8 {
            decode_utf8(bytes, file).map(|t| t.to_string())
        } else {
            decode_legacy(bytes, file, encoding).map(Cow::into_owned)
        }
    };
    if is_gzip(bytes) {
        return Ok(Cow::Owned(decode(&gunzip(bytes, file)?)?));
    }
    Ok(Cow::Owned(decode(bytes)?))
}

/// [`decode_text`] without the gzip step.
fn decode_plain<'a>(bytes: &'a [u8], file: &str) -> Result<Cow<'a, str>, EncodingError> {
    let Some((label, offset)) = declared_encoding(bytes) else {
        return decode_utf8(bytes, file).map(Cow::Borrowed);
    };
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes());
    match encoding {
        // A declaration read as ASCII cannot be in UTF-16: the bytes are what they are.
        Some(e) if e == encoding_rs::UTF_8 || e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => {
            decode_utf8(bytes, file).map(Cow::Borrowed)
        }
        Some(e) if e.is_ascii_compatible() && e != encoding_rs::REPLACEMENT => decode_legacy(bytes, file, e),
        _ => {
            let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
            let (line, column) = position_after(before);
            Err(EncodingError {
                file: file.to_string(),
                line,
                column,
                found: format!(
                    "the encoding '{label}' named by the XML declaration, which treelink cannot read (UTF-8, \
                     ISO-8859-1/Windows-1252 and the other single-byte encodings can be; convert it, e.g. iconv -t UTF-8)"
                ),
            })
        }
    }
}

/// `bytes` decoded from `encoding`, or where its first malformed byte is.
fn decode_legacy<'a>(
    bytes: &'a [u8],
    file: &str,
    encoding: &'static encoding_rs::Encoding,
) -> Result<Cow<'a, str>, EncodingError> {
    use encoding_rs::DecoderResult;
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(bytes.len());
    let mut text = String::with_capacity(capacity);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut text, true);
    let at = |text: &str, found: String| {
        let (line, column) = position_after(text);
        EncodingError { file: file.to_string(), line, column, found }
    };
    match result {
        DecoderResult::InputEmpty => {}
        DecoderResult::Malformed(bad, extra) => {
            let first = read.saturating_sub(usize::from(bad) + usize::from(extra));
            let byte = bytes.get(first).copied().unwrap_or_default();
            return Err(at(&text, format!("the byte 0x{byte:02X}, which is not {} there", encoding.name())));
        }
        DecoderResult::OutputFull => return Err(at(&text, "more text than fits in memory".into())),
    }
    if let Some(k) = text.bytes().position(is_binary_control) {
        let byte = text.as_bytes()[k];
        return Err(at(&text[..k], format!("the control byte 0x{byte:02X} (a binary file?)")));
    }
    Ok(Cow::Owned(text))
}

/// Reads a file as text ([`decode_text`]: gzip, an XML declaration's
/// encoding, else UTF-8); errors name the file and, for bad bytes, the line
/// and column.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_text_file(file: &str) -> Result<String, ReadError> {
    let bytes = std::fs::read(file).map_err(|e| ReadError::Io { file: file.to_string(), message: e.to_string() })?;
    if let Cow::Owned(text) = decode_text(&bytes, file)? {
        return Ok(text);
    }
    // Valid UTF-8, so this moves the buffer without copying or checking again.
    String::from_utf8(bytes).map_err(|e| ReadError::Io { file: file.to_string(), message: e.to_string() })
}

/// A file opened for reading line by line: inflated as it is read when it
/// starts with the gzip magic bytes (what streams of trees read; each line
/// is still checked as UTF-8 by its reader).
#[cfg(not(target_arch = "wasm32"))]
pub fn open_text(file: &str) -> Result<Box<dyn std::io::BufRead>, ReadError> {
    use std::io::BufRead;
    let io = |e: std::io::Error| ReadError::Io { file: file.to_string(), message: e.to_string() };
    let mut reader = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(file).map_err(io)?);
    if is_gzip(reader.fill_buf().map_err(io)?) {
        use std::io::Read;
        let inflated = flate2::bufread::MultiGzDecoder::new(reader).take(MAX_INFLATED);
        return Ok(Box::new(std::io::BufReader::with_capacity(1 << 16, inflated)));
    }
    Ok(Box::new(reader))
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

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_is_told_by_its_magic_bytes_and_inflated_whole() {
        let text = "(S (NN Straße))\n(S (NN x))\n";
        let gz = gzip(text.as_bytes());
        assert_eq!(decode_text(&gz, "trees.src").unwrap(), text);
        // Two members, as pigz or `cat a.gz b.gz` write them.
        let two = [gzip(b"(A a)\n"), gzip(b"(B b)\n")].concat();
        assert_eq!(decode_text(&two, "t").unwrap(), "(A a)\n(B b)\n");
        // A cut stream is located where its text stops.
        let cut = &gz[..gz.len() - 12];
        let e = decode_text(cut, "trees.src.gz").unwrap_err();
        assert!(matches!(e, ReadError::Gzip { .. }), "{e}");
        assert!(e.to_string().starts_with("trees.src.gz:"), "{e}");
        // Inside, the text is checked as any other.
        let e = decode_text(&gzip(b"(S\n (NN Stra\xdfe))"), "z.gz").unwrap_err();
        assert!(e.to_string().starts_with("z.gz:2:10: expected UTF-8 text, found the byte 0xDF"), "{e}");
    }

    #[test]
    fn an_xml_declaration_names_the_encoding_and_a_bad_byte_is_still_located() {
        let decl =
            |enc: &str, body: &[u8]| [format!("<?xml version=\"1.0\" encoding='{enc}' ?>\n").as_bytes(), body].concat();
        // ISO-8859-1 and Windows-1252 (its superset, as the WHATWG standard reads both).
        let t = decode_text(&decl("ISO-8859-1", b"<t word=\"\xe9t\xe9\"/>"), "a.xml").unwrap().into_owned();
        assert!(t.ends_with("<t word=\"été\"/>"), "{t}");
        let t = decode_text(&decl("windows-1252", b"<t word=\"\x80 5\"/>"), "a.xml").unwrap().into_owned();
        assert!(t.ends_with("<t word=\"€ 5\"/>"), "{t}");
        // UTF-8 declared (or nothing declared): a Latin-1 byte is located.
        let e = decode_text(&decl("UTF-8", b"<t\n word=\"\xe9\"/>"), "b.xml").unwrap_err();
        assert_eq!(e.to_string().split(", found").next(), Some("b.xml:3:8: expected UTF-8 text"));
        // A byte that the declared encoding does not have (0xA5 in ISO-8859-3).
        let e = decode_text(&decl("ISO-8859-3", b"<t word=\"ab\xa5\"/>"), "c.xml").unwrap_err();
        let not_latin3 = "c.xml:2:12: expected UTF-8 text, found the byte 0xA5, which is not ISO-8859-3";
        assert!(e.to_string().starts_with(not_latin3), "{e}");
        // Control bytes are a binary file in any encoding.
        let e = decode_text(&decl("latin1", b"ab\x01"), "d.xml").unwrap_err();
        assert!(e.to_string().starts_with("d.xml:2:3:"), "{e}");
        // A name it does not know is located at the declaration.
        let e = decode_text(&decl("EBCDIC-XYZ", b"<x/>"), "e.xml").unwrap_err();
        assert!(e.to_string().starts_with("e.xml:1:31: expected UTF-8 text, found the encoding 'EBCDIC-XYZ'"), "{e}");
        // A gzipped Latin-1 TigerXML file: both steps.
        let t = decode_text(&gzip(&decl("ISO-8859-1", b"\xfc")), "f.xml.gz").unwrap().into_owned();
        assert!(t.ends_with('ü'));
        // No declaration: UTF-8 as before, borrowed.
        assert!(matches!(decode_text(b"<x/>", "g").unwrap(), Cow::Borrowed("<x/>")));
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
