//! What the fuzz targets share: turning libFuzzer's bytes into the texts a
//! reader takes, through the same UTF-8 check the CLI uses.

use treelink::io::text::decode_utf8;

/// The input as text, or `None` when it is not UTF-8 (then the check itself
/// must have located the bad byte without panicking).
pub fn text(data: &[u8]) -> Option<&str> {
    match decode_utf8(data, "fuzz") {
        Ok(text) => Some(text),
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1, "{e}");
            None
        }
    }
}

/// The input cut at the byte 0xFF (never part of UTF-8) into `N` texts, for
/// readers that take several files at once; missing parts are empty.
pub fn texts<const N: usize>(data: &[u8]) -> Option<[&str; N]> {
    let mut out = [""; N];
    for (slot, part) in out.iter_mut().zip(data.splitn(N, |&b| b == 0xFF)) {
        *slot = text(part)?;
    }
    Some(out)
}

/// Asserts the reader's promise for an error: its message starts with one of
/// `files`, then `:LINE:COLUMN:` with both at least 1 (docs/reliability.md).
pub fn assert_located(error: &dyn std::fmt::Display, files: &[&str]) {
    let e = error.to_string();
    let located = |rest: &str| {
        let mut parts = rest.splitn(3, ':');
        let number = |p: Option<&str>| p.and_then(|s| s.parse::<usize>().ok()).filter(|&n| n >= 1);
        number(parts.next()).is_some() && number(parts.next()).is_some() && parts.next().is_some()
    };
    let ok = files.iter().any(|f| e.strip_prefix(f).and_then(|r| r.strip_prefix(':')).is_some_and(located));
    assert!(ok, "an error that names no place in {files:?}: {e}");
}
