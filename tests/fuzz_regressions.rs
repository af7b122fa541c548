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
/// vector holds `(PP (I)( nNi)(NP …))` read, but the model it wrote did
/// not read back: an empty bracket is written as the leaf it is, and a
/// leaf beside a sub-tree is refused. The reading now applies the leaves'
/// rule to an empty bracket too, so such a model is refused where it is.
#[test]
fn an_svm_light_tk_model_with_an_empty_bracket_beside_a_sub_tree_is_refused_where_it_is() {
    let data = format!("{}/tests/data/svm-light-tk-sst.model", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(data).unwrap().replace("(PP (IN (in))(NP", "(PP (I)( nNi)(NP");
    let e = treelink::svm_light_tk::TkModel::from_text(&text, "model").unwrap_err().to_string();
    assert!(e.starts_with("model:"), "{e}");
    assert!(e.contains("found '(I)' with nothing under it beside a sub-tree"), "{e}");
    // Beside leaves only, an empty bracket is a leaf, and the written model reads back the same.
    let text = std::fs::read_to_string(format!("{}/tests/data/svm-light-tk-sst.model", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace("(IN (in))", "(IN (in) of)");
    let model = treelink::svm_light_tk::TkModel::from_text(&text, "model").unwrap();
    let again = treelink::svm_light_tk::TkModel::from_text(&model.to_text(), "again").unwrap();
    assert_eq!(again.to_text(), model.to_text());
}
