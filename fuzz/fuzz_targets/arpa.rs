//! ARPA language models: read, or a located error; a model that reads
//! scores its own words and writes back to an ARPA file that reads again.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::mt::lm::{read_arpa, write_arpa};

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    let lm = match read_arpa(text, "lm.arpa") {
        Ok(lm) => lm,
        Err(e) => return treelink_fuzz::assert_located(&e, &["lm.arpa"]),
    };
    let again = read_arpa(&write_arpa(&lm), "again").expect("a written model reads back");
    assert_eq!(write_arpa(&again), write_arpa(&lm));
    let words: Vec<&str> = lm.vocab().iter().map(String::as_str).take(12).collect();
    let score = lm.score_sentence(&words);
    assert!(!score.is_nan(), "{score}");
});
