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

/// `alignment_model`, 2026-11-24 (crash-4d44c28d…): a support vector's plain
/// feature of 2.2e215 read, and the polynomial kernel of it overflowed to
/// infinity, so a decision value was NaN. Feature values and coefficients
/// far beyond what training gives are now refused with their JSON path.
#[test]
fn a_model_with_a_feature_value_that_overflows_the_kernel_is_refused_where_it_is() {
    use treelink::align::model::AlignmentModel;
    let data = format!("{}/www/sample/dev", env!("CARGO_MANIFEST_DIR"));
    let corpus = treelink::corpus::Corpus::read_prefix(&data, true).unwrap();
    let corpus = treelink::corpus::Corpus { pairs: corpus.pairs[..12].to_vec() };
    let source = treelink::app::alignment::lexicon_source(None, None, Vec::new(), Default::default());
    let options = treelink::align::model::TrainOptions { max_examples: 200, ..Default::default() };
    let model =
        treelink::app::alignment::train_model(&corpus, None, source, &[options], &mut treelink::progress::Quiet)
            .unwrap();
    let json = serde_json::to_string_pretty(&model).unwrap();
    assert_eq!(AlignmentModel::from_json(&json, "m.json").unwrap(), model);
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["support_vectors"][1]["plain"][5] = serde_json::json!(2.2e215);
    let e = AlignmentModel::from_json(&serde_json::to_string(&value).unwrap(), "m.json").unwrap_err().to_string();
    assert!(e.starts_with("m.json:1:"), "{e}");
    assert!(e.contains("support_vectors[1].plain: expected feature values between -1e6 and 1e6, found 2.2e215"), "{e}");
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["rho"] = serde_json::json!(-1e300);
    let e = AlignmentModel::from_json(&serde_json::to_string(&value).unwrap(), "m.json").unwrap_err().to_string();
    assert!(e.contains("rho: expected a coefficient between -1e100 and 1e100, found -1e300"), "{e}");
}

/// `tiger`, 2026-11-29 (crash-f619cbec…): an alignment whose node links
/// join no two sentences one to one imported as 0 pairs and wrote empty
/// files; their export then read as one treebank given twice. An import of
/// no pair is now refused at the alignment, naming what it expected.
#[test]
fn an_alignment_that_pairs_no_sentence_one_to_one_is_refused_not_imported_as_nothing() {
    use treelink::corpus::Named;
    use treelink::tiger::{import_pair, ImportOptions};
    let sentence = |id: &str, word: &str| {
        format!(
            "<s id=\"{id}\"><graph root=\"{id}_500\"><terminals><t id=\"{id}_1\" word=\"{word}\" pos=\"NN\"/></terminals>\
             <nonterminals><nt id=\"{id}_500\" cat=\"NP\"><edge label=\"HD\" idref=\"{id}_1\"/></nt></nonterminals></graph></s>"
        )
    };
    let treebank = |sentences: &[String]| format!("<corpus id=\"c\"><body>{}</body></corpus>", sentences.concat());
    let de = treebank(&[sentence("s1", "Haus"), sentence("s2", "Baum")]);
    let es = treebank(&[sentence("t1", "casa")]);
    // t1 is linked to both s1 and s2: no sentence is paired with one other alone.
    let sta = "<treealign>\n<head><treebanks><treebank id=\"de\" filename=\"de.xml\"/><treebank id=\"es\" filename=\"es.xml\"/></treebanks></head>\n\
        <alignments>\
        <align type=\"good\"><node treebank_id=\"de\" node_id=\"s1_500\"/><node treebank_id=\"es\" node_id=\"t1_500\"/></align>\
        <align type=\"good\"><node treebank_id=\"de\" node_id=\"s2_1\"/><node treebank_id=\"es\" node_id=\"t1_1\"/></align>\
        </alignments></treealign>\n";
    let named = |name, text| Named { name, text };
    let e = import_pair(named("de.xml", &de), named("es.xml", &es), named("de-es.sta", sta), ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("de-es.sta:2:7: expected at least one 1:1 sentence pair"), "{e}");
    assert!(e.contains("found none among its 2 alignments"), "{e}");
}
