//! SVM-Light-TK files (`treelink svm-light-tk`): a model file reads or
//! gives a located error, and one that reads writes back to itself and
//! classifies each line of the input that reads as an example (or refuses
//! it with an error) without panicking. Two texts cut at 0xFF: the model,
//! then examples.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::kernel::DEFAULT_MAX_NODE_PAIRS;
use treelink::svm_light_tk::{parse_example, Classifier, TkModel};

fuzz_target!(|data: &[u8]| {
    let Some([model, examples]) = treelink_fuzz::texts::<2>(data) else { return };
    let parsed: Vec<_> = examples
        .lines()
        .enumerate()
        .filter_map(|(k, line)| {
            parse_example(line, "examples", k + 1).map_err(|e| treelink_fuzz::assert_located(&e, &["examples"])).ok()
        })
        .collect();
    let model = match TkModel::from_text(model, "model") {
        Ok(m) => m,
        Err(e) => return treelink_fuzz::assert_located(&e, &["model"]),
    };
    // A written model reads back to itself (tests/fuzz_regressions.rs has the case that did not).
    let again = TkModel::from_text(&model.to_text(), "again").expect("a written model reads back");
    assert_eq!(again.to_text(), model.to_text());
    // As the CLI: a bound on matched node pairs keeps each evaluation bounded.
    let Ok(mut classifier) = Classifier::new(&model, DEFAULT_MAX_NODE_PAIRS) else { return };
    for e in &parsed {
        let _ = classifier.decision(e);
    }
});
