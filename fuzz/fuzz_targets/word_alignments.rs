//! Word alignments (`i-j` per line): read, or a located error; checked
//! against sentence lengths, every link inside passes and one outside fails.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::lexicon::{read_word_alignments, read_word_alignments_for, write_word_alignments};

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    let alignments = match read_word_alignments(text, "aligned") {
        Ok(a) => a,
        Err(e) => return treelink_fuzz::assert_located(&e, &["aligned"]),
    };
    let again = read_word_alignments(&write_word_alignments(&alignments), "again").expect("written links read back");
    assert_eq!(again, alignments);
    // The shortest sentences that hold every link of their line (none can
    // hold a position of usize::MAX: tests/fuzz_regressions.rs).
    if alignments.iter().any(|a| a.links().iter().any(|&(i, j)| i == usize::MAX || j == usize::MAX)) {
        return;
    }
    let lengths: Vec<(usize, usize)> = alignments
        .iter()
        .map(|a| a.links().iter().fold((0, 0), |(s, t), &(i, j)| (s.max(i + 1), t.max(j + 1))))
        .collect();
    assert!(read_word_alignments_for(text, "aligned", &lengths).is_ok());
    if let Some(k) = lengths.iter().position(|&(s, _)| s > 0) {
        let mut shorter = lengths.clone();
        shorter[k].0 -= 1;
        let e = read_word_alignments_for(text, "aligned", &shorter).expect_err("a link beyond a sentence is refused");
        treelink_fuzz::assert_located(&e, &["aligned"]);
    }
});
