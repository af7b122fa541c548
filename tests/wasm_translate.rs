//! The meta-structure translation engine compiled to wasm32, in headless
//! Chromium: trained on the built-in sample exactly as
//! `treelink mt-train --train www/sample/dev --system ms --tune-iterations 0`
//! and run on the sample's source trees as `treelink translate`, it must
//! produce the same translations as the native CLI
//! (`target/fixtures/native-mt.txt`, written by `scripts/native-fixtures.sh`).
//! It prints the training time, the decoding speed and the time of a
//! 20-word sentence (line 155) with the default beam; for figures as the
//! page sees them run it with `--release`.
#![cfg(target_arch = "wasm32")]

use treelink::corpus::{Corpus, Named};
use treelink::mt::model::{MtSystem, SystemKind};
use treelink::mt::phrase::ExtractMethod;
use treelink::mt::train::{train_system, word_alignments_and_lexicon, MtTrainSettings};
use treelink::progress::Quiet;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const NATIVE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/target/fixtures/native-mt.txt"));

fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen_test]
fn wasm_ms_translation_equals_the_native_cli() {
    let corpus = Corpus::from_texts(
        Named { name: "dev.src", text: include_str!("../www/sample/dev.src") },
        Named { name: "dev.trg", text: include_str!("../www/sample/dev.trg") },
        None,
    )
    .unwrap();
    let started = now_ms();
    // As `mt-train` without --dev: word alignment on the training sentences, and the
    // CLI's training with its defaults (the lexicon kept for the unknown-word back-off).
    let (mut links, lexicon) = word_alignments_and_lexicon(&[&corpus], &mut Quiet).expect("never cancelled");
    let settings = MtTrainSettings { tune_iterations: 0, lexicon: Some(lexicon), ..MtTrainSettings::default() };
    let (system, _) = train_system(
        SystemKind::Ms,
        ExtractMethod::Word,
        &corpus,
        &links.swap_remove(0),
        None,
        None,
        &settings,
        &mut Quiet,
    )
    .unwrap();
    let MtSystem::Ms(sys) = system else { panic!("not an MS system") };
    let trained = now_ms();
    let native: Vec<&str> = NATIVE.lines().collect();
    assert_eq!(native.len(), corpus.len());
    // The 20-word sentence alone, with the default beam.
    let twenty = &corpus.pairs[154].source;
    assert_eq!(twenty.words().len(), 20);
    let t0 = now_ms();
    let t = sys.translate(twenty);
    let twenty_ms = now_ms() - t0;
    assert_eq!(t.words.join(" "), native[154]);
    // A debug build (scripts/test.sh) checks the last ten sentences; `--release` checks and times all.
    let first = if cfg!(debug_assertions) { corpus.len() - 10 } else { 0 };
    let t0 = now_ms();
    let mut words = 0;
    for (i, (p, n)) in corpus.pairs.iter().zip(&native).enumerate().skip(first) {
        let t = sys.translate(&p.source);
        assert_eq!(&t.words.join(" "), n, "sentence {}: wasm and native translations differ", i + 1);
        words += p.source.words().len();
    }
    let secs = (now_ms() - t0) / 1000.0;
    console_log!(
        "wasm ({}), ms system on the 157 sample pairs: training {:.1} s ({} RM pairs); decoding {:.1} sentences/s ({} sentences, {} words in {:.1} s); the 20-word sentence in {:.0} ms",
        if cfg!(debug_assertions) { "debug" } else { "release" },
        (trained - started) / 1000.0,
        sys.rm_table.len(),
        (corpus.len() - first) as f64 / secs,
        corpus.len() - first,
        words,
        secs,
        twenty_ms
    );
}
