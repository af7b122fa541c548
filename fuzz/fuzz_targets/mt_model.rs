//! Translation model files as the CLI and the page read them
//! (`TranslationModel::from_bytes`: the binary `.tlmt` form or JSON, either
//! system): read, or an error that names the file (with line, column and JSON
//! path for JSON); a model that reads translates a short sentence without
//! panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::mt::model::TranslationModel;
use treelink::tree::Tree;

fuzz_target!(|data: &[u8]| {
    let model = match TranslationModel::from_bytes(data, "mt.json") {
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
