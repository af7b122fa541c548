//! The Dublin aligner's format: read, or a located error; what reads writes
//! back to a file that reads to the same trees and links.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::io::dublin::{read_dublin, write_dublin};

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    let pairs = match read_dublin(text, "x.dublin") {
        Ok(p) => p,
        Err(e) => return treelink_fuzz::assert_located(&e, &["x.dublin"]),
    };
    for p in &pairs {
        assert!(p.links.iter().all(|&(s, t)| s < p.source.len() && t < p.target.len()));
    }
    let (written, _) = write_dublin(pairs.iter().map(|p| (&p.source, &p.target, p.links.iter().map(|&(s, t)| (s, t, false)))));
    let again = read_dublin(&written, "again.dublin").expect("a written file reads");
    assert_eq!(again.len(), pairs.len());
    for (a, p) in again.iter().zip(&pairs) {
        assert_eq!((&a.source, &a.target, &a.links), (&p.source, &p.target, &p.links));
    }
});
