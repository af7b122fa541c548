//! Speed in wasm32 (headless Chromium), measured by the same engine code as
//! `treelink bench` natively, on the same trees (the built-in sample is
//! SQUOIA dev): ns per tree-kernel evaluation for each space and path
//! ([`treelink::kernel::speed`]). Figures are printed, not asserted; for
//! figures comparable with a release CLI run it with `--release`:
//! `cargo test --release --target wasm32-unknown-unknown --test wasm_bench -- --nocapture`
//! (docs/speed.md).
#![cfg(target_arch = "wasm32")]

use treelink::corpus::{Corpus, Named};
use treelink::kernel::speed;
use treelink::tree::Tree;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `performance.now()` in seconds: finer than `Date.now()`'s milliseconds,
/// for the 2 ms batches of [`speed::measure`].
fn now_seconds() -> f64 {
    use wasm_bindgen::JsCast;
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).unwrap();
    let now: js_sys::Function = js_sys::Reflect::get(&performance, &"now".into()).unwrap().unchecked_into();
    now.call0(&performance).unwrap().as_f64().unwrap() / 1000.0
}

#[wasm_bindgen_test]
fn wasm_kernel_speed_per_space_and_path() {
    let corpus = Corpus::from_texts(
        Named { name: "dev.src", text: include_str!("../www/sample/dev.src") },
        Named { name: "dev.trg", text: include_str!("../www/sample/dev.trg") },
        None,
    )
    .unwrap();
    let sources: Vec<Tree> = corpus.pairs.iter().map(|p| p.source.clone()).collect();
    let targets: Vec<Tree> = corpus.pairs.iter().map(|p| p.target.clone()).collect();
    let min_seconds = if cfg!(debug_assertions) { 0.05 } else { 0.5 };
    let rows = speed::measure(&[&sources, &targets], 0.4, min_seconds, &mut now_seconds);
    console_log!(
        "wasm ({}): ns per tree-kernel evaluation ({} sub-tree pairs of consecutive trees, λ = 0.4)",
        if cfg!(debug_assertions) { "debug" } else { "release" },
        rows[0].evaluations
    );
    for r in &rows {
        console_log!(
            "{:<8} reference {:>8.0}  in order {:>8.0}  keyed {:>8.0}  checksum {:.6e}",
            r.space.paper_name(),
            r.reference_ns,
            r.in_order_ns,
            r.keyed_ns,
            r.checksum
        );
        assert!(r.checksum.is_finite() && r.reference_ns > 0.0);
    }
}

/// The in-engine lexicon on the 157 sample pairs in wasm32, fast_align
/// (IBM1 5 + IBM2 5 iterations per direction) against the HMM after them
/// (+ 5 iterations per direction): seconds per training, printed (the
/// page's target for the HMM lexicon is under 2 s; docs/alignment-results.md).
#[wasm_bindgen_test]
fn wasm_lexicon_training_speed() {
    use treelink::align::lexical::alignment_lexicon_options;
    use treelink::lexicon::{bitext_of, train, WordModel};
    let corpus = Corpus::from_texts(
        Named { name: "dev.src", text: include_str!("../www/sample/dev.src") },
        Named { name: "dev.trg", text: include_str!("../www/sample/dev.trg") },
        None,
    )
    .unwrap();
    let bitext = bitext_of(&corpus);
    let mut links = Vec::new();
    for model in WordModel::ALL {
        let options = alignment_lexicon_options().with_word_model(model);
        let runs = 3;
        let start = js_sys::Date::now();
        for _ in 0..runs {
            links = train(&bitext, &options, &mut |_| {}).alignments;
        }
        let seconds = (js_sys::Date::now() - start) / 1000.0 / runs as f64;
        let n: usize = links.iter().map(|l| l.len()).sum();
        console_log!(
            "wasm ({}): lexicon {model} on {} pairs: {seconds:.3} s per training ({n} links)",
            if cfg!(debug_assertions) { "debug" } else { "release" },
            bitext.len()
        );
        assert!(n > 0);
    }
}
