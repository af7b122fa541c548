//! Moses `lex` tables: read, or a located error; a table that reads writes
//! back to text that reads as the same table.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::lexicon::{read_moses_lex, write_moses_lex};

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    match read_moses_lex(text, "lex.e2f") {
        Ok(table) => {
            let again = read_moses_lex(&write_moses_lex(&table), "again").expect("a written table reads back");
            assert_eq!(again, table);
        }
        Err(e) => treelink_fuzz::assert_located(&e, &["lex.e2f"]),
    }
});
