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
