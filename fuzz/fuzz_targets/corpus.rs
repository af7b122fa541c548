//! A treebank: source trees, target trees and gold links (three texts cut at
//! 0xFF), assembled with every link checked against its trees; then the
//! links read again as predicted links and scored, as `treelink eval` does.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::corpus::{Corpus, Named};
use treelink::eval::prf::Counts;

fuzz_target!(|data: &[u8]| {
    let Some([src, trg, gold]) = treelink_fuzz::texts::<3>(data) else { return };
    let named = |name, text| Named { name, text };
    let corpus = match Corpus::from_texts(named("f.src", src), named("f.trg", trg), Some(named("f.gold", gold))) {
        Ok(c) => c,
        Err(e) => return treelink_fuzz::assert_located(&e, &["f.src", "f.trg", "f.gold"]),
    };
    let pred = corpus.read_links(named("f.pred", gold)).expect("links that passed as gold pass as predictions");
    let counts = Counts::of_corpus(corpus.pairs.iter().zip(pred.iter().map(Vec::as_slice)));
    assert!(counts.correct <= counts.predicted);
});
