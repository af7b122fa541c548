//! Alignment model files (JSON): read, or an error with the file, line,
//! column and JSON path; a model that reads must align a tree pair without
//! panicking (with its own tables, or none for an in-engine lexicon, whose
//! training settings come from the file and are not run here).
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::align::lexical::LexicalModel;
use treelink::align::model::{AlignmentModel, Scorer};
use treelink::corpus::{Corpus, Named};
use treelink::lexicon::{Lexicon, WordAlignment};

const SRC: &str = "(S (NP (ART der) (NN Hund)) (VP (VVFIN bellt) (ADV laut)))";
const TRG: &str = "(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))";

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    let model = match AlignmentModel::from_json(text, "model.json") {
        Ok(model) => model,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("model.json:"), "{message}");
            return;
        }
    };
    let lexicon = match &model.lexicon {
        LexicalModel::Tables(l) => l.clone(),
        LexicalModel::InEngine { .. } => Lexicon::default(),
    };
    let scorer = Scorer::new(&model, &lexicon).expect("a model that reads can score");
    let corpus =
        Corpus::from_texts(Named { name: "s", text: SRC }, Named { name: "t", text: TRG }, None).expect("fixed pair");
    let (search, decisions) = scorer.align_pair(&corpus.pairs[0], &WordAlignment::default());
    assert!(decisions.iter().all(|d| !d.value.is_nan() || model.rho.is_nan()));
    let _ = search;
});
