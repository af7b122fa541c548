//! A file's bytes as text (`io::text::decode_text`: gzip by its magic bytes,
//! an XML declaration's encoding, else UTF-8): text, or an error at a line
//! and column; text decodes again (as UTF-8 bytes) to itself unless it
//! declares another encoding.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::io::text::decode_text;

fuzz_target!(|data: &[u8]| {
    match decode_text(data, "f.xml") {
        Ok(text) => {
            if !text.trim_start_matches('\u{feff}').starts_with("<?xml") && !treelink::io::text::is_gzip(data) {
                assert_eq!(decode_text(text.as_bytes(), "again").expect("text decodes"), text);
            }
        }
        Err(e) => treelink_fuzz::assert_located(&e, &["f.xml"]),
    }
});
