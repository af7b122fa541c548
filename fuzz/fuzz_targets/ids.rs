//! `PREFIX.ids` (version 1 or 2): read, or a located error; what reads
//! writes back to a file that reads to the same ids.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::tiger::IdsFile;

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    let file = match IdsFile::read(text, "x.ids") {
        Ok(f) => f,
        Err(e) => return treelink_fuzz::assert_located(&e, &["x.ids"]),
    };
    let again = IdsFile::read(&file.write(), "again.ids").expect("a written file reads");
    // A version 1 file without pairs writes nothing: it reads back empty too.
    assert_eq!(again.pairs, file.pairs);
    if file.origin.is_some() {
        assert_eq!(again.origin, file.origin);
    }
});
