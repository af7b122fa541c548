//! GIZA++'s files (four texts cut at 0xFF: source .vcb, target .vcb, a
//! numeric t-table, an A3.final file): each reads or gives a located error;
//! a t-table that reads holds probabilities in [0, 1] of words of its
//! vocabularies; the A3 pairs' links stay inside their sentences.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::lexicon::{read_giza_a3, read_giza_ttable, read_giza_vocab};

fuzz_target!(|data: &[u8]| {
    let Some([sv, tv, table, a3]) = treelink_fuzz::texts::<4>(data) else { return };
    let vocabs = match (read_giza_vocab(sv, "s.vcb"), read_giza_vocab(tv, "t.vcb")) {
        (Ok(s), Ok(t)) => Some((s, t)),
        (Err(e), _) | (_, Err(e)) => {
            treelink_fuzz::assert_located(&e, &["s.vcb", "t.vcb"]);
            None
        }
    };
    if let Some((s, t)) = &vocabs {
        match read_giza_ttable(table, "s2t.t3.final", s, t) {
            Ok(lex) => {
                for (x, y, p) in lex.entries() {
                    assert!((0.0..=1.0).contains(&p), "{x} {y} {p}");
                }
            }
            Err(e) => treelink_fuzz::assert_located(&e, &["s2t.t3.final"]),
        }
    }
    match read_giza_a3(a3, "s2t.A3.final") {
        Ok(pairs) => {
            for p in pairs {
                assert!(p.links.iter().all(|&(i, j)| i < p.giza_source.len() && j < p.giza_target.len()), "{p:?}");
            }
        }
        Err(e) => treelink_fuzz::assert_located(&e, &["s2t.A3.final"]),
    }
});
