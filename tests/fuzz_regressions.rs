//! Inputs the fuzz targets (`fuzz/`, `scripts/fuzz.sh`) found, kept as tests
//! of what the reader must do with them.

use treelink::lexicon::{read_word_alignments, read_word_alignments_for};

/// `word_alignments`, 2026-11-23 (crash-6be0d9fa…): a position of
/// 18446744073709551615 (`usize::MAX`) reads, and then no sentence can hold
/// it. The crash was in the target's own `i + 1`; what the reader promises
/// is that a known sentence length refuses the position with its place.
#[test]
fn a_word_position_of_usize_max_is_refused_against_any_sentence_length() {
    let text = "0-0 1-18446744073709551615\n";
    let links = read_word_alignments(text, "aligned").unwrap();
    assert_eq!(links[0].links(), &[(0, 0), (1, usize::MAX)]);
    for target_words in [2, 1000, usize::MAX] {
        let e = read_word_alignments_for(text, "aligned", &[(2, target_words)]).unwrap_err().to_string();
        assert!(e.starts_with("aligned:1:5: "), "{e}");
        assert!(e.contains("18446744073709551615"), "{e}");
    }
}

/// `svm_light_tk`, 2026-11-23 (crash-9f1556ce…): a model whose support
/// vector holds `(PP (I)( nNi)(NP …))` reads, but the model it writes does
/// not read back ("expected only sub-trees or only leaves under '(PP'").
/// Either the first reading should refuse it with its place or the writing
/// should keep it readable; which one is SVM-Light-TK's reading of `( nNi)`,
/// not settled yet (the fuzz target skips this round trip until it is).
#[test]
#[ignore = "open: svm_light_tk reads '( nNi)' beside sub-trees but writes what it then refuses"]
fn an_svm_light_tk_model_that_reads_writes_a_model_that_reads() {
    let data = format!("{}/tests/data/svm-light-tk-sst.model", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(data).unwrap().replace("(PP (IN (in))(NP", "(PP (I)( nNi)(NP");
    let model = treelink::svm_light_tk::TkModel::from_text(&text, "model").unwrap();
    let written = model.to_text();
    assert!(treelink::svm_light_tk::TkModel::from_text(&written, "again").is_ok(), "{written}");
}
