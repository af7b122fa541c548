//! Translation model files (JSON, either system): read, or an error with the
//! file, line, column and JSON path; a model that reads translates a short
//! sentence without panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::mt::model::MtModel;
use treelink::tree::Tree;

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    let model = match MtModel::from_json(text, "mt.json") {
        Ok(model) => model,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("mt.json:"), "{message}");
            return;
        }
    };
    let source = Tree::parse_one("(S (NP (ART das) (NN Haus)) (VAFIN ist) (ADJD klein))", "s").expect("fixed tree");
    let _ = model.system.translate(&source);
});
