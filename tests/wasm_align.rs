//! The alignment engine compiled to wasm32, in headless Chromium: trained and
//! run on the built-in sample exactly as `treelink train` + `treelink align`
//! do, it must produce the same links as the native CLI, bit for bit
//! (`target/fixtures/native-align.txt`, written by `scripts/native-fixtures.sh`).
//! It also prints how long training and aligning took in the browser.
#![cfg(target_arch = "wasm32")]

use treelink::align::greedy::search_links;
use treelink::align::lexical::{alignment_lexicon_options, lexicon_for_input, prepare, LexiconSource};
use treelink::align::model::{self, Scorer, TrainOptions};
use treelink::corpus::{Corpus, Named};
use treelink::eval::prf::Counts;
use treelink::io::links::{format_link_line, Link};
use treelink::progress::Quiet;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const NATIVE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/target/fixtures/native-align.txt"));

fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen_test]
fn wasm_training_and_alignment_equal_the_native_cli() {
    let corpus = Corpus::from_texts(
        Named { name: "dev.src", text: include_str!("../www/sample/dev.src") },
        Named { name: "dev.trg", text: include_str!("../www/sample/dev.trg") },
        Some(Named { name: "dev.gold", text: include_str!("../www/sample/dev.gold") }),
    )
    .unwrap();
    // As `treelink train --train www/sample/dev --kernel plain+dbtk-root+ibtk-rgsst --max-examples 3000`.
    let started = now_ms();
    let setup = prepare(
        &[&corpus],
        LexiconSource::Train {
            extra: Vec::new(),
            options: alignment_lexicon_options(),
            held_out: true,
            links: Vec::new(),
        },
        "lexical model",
        &mut Quiet,
    )
    .unwrap();
    let options = TrainOptions {
        spec: "plain+dbtk-root+ibtk-rgsst".parse().unwrap(),
        max_examples: 3000,
        ..TrainOptions::default()
    };
    let m = model::train(&corpus, None, &setup, &options, &mut Quiet).unwrap();
    let trained = now_ms();
    // As `treelink align --model M --input www/sample/dev`.
    let (lexicon, links) =
        lexicon_for_input(&m.lexicon, &corpus, None, Default::default(), "lexical model", &mut Quiet).unwrap();
    let scorer = Scorer::new(&m, &lexicon).unwrap();
    let pred: Vec<Vec<Link>> = corpus
        .pairs
        .iter()
        .zip(&links)
        .map(|(p, l)| {
            let mut links = search_links(&scorer.align_pair(p, l).0);
            links.sort();
            links
        })
        .collect();
    let aligned = now_ms();
    let counts = Counts::of_corpus(corpus.pairs.iter().zip(pred.iter().map(|l| l.as_slice())));
    console_log!(
        "wasm on the 157 sample pairs: training (lexicon + SVM, {} examples) {:.1} s; aligning (with lexicon re-training) {:.1} s, {:.1} ms per pair; {counts}",
        m.summary.examples,
        (trained - started) / 1000.0,
        (aligned - trained) / 1000.0,
        (aligned - trained) / corpus.len() as f64
    );
    let lines: Vec<String> = pred.iter().map(|l| format_link_line(l)).collect();
    let native: Vec<&str> = NATIVE.lines().collect();
    assert_eq!(lines.len(), native.len());
    for (i, (w, n)) in lines.iter().zip(&native).enumerate() {
        assert_eq!(w, n, "pair {}: wasm and native links differ", i + 1);
    }
    assert!(counts.f() > 60.0, "{counts}");
}
