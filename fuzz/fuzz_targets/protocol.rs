//! The page↔worker messages (JSON strings): any text is a request the
//! worker reads or refuses, and a response the page reads or refuses,
//! without panicking. A request that reads is carried out as far as the
//! engine goes without a browser (the worker's reading of its files, the
//! alignment of its corpus with its model and tables, the baseline, the
//! explanation of a node pair, the translation of its trees), and writes
//! back to JSON that reads as the same request.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::align::baseline::{baseline_links, BaselineOptions};
use treelink::align::explain::explain;
use treelink::align::lexical::LexicalModel;
use treelink::align::model::{AlignmentModel, Scorer};
use treelink::corpus::{Corpus, Named, TreePair};
use treelink::lexicon::{read_moses_lex, read_word_alignments_for, Lexicon, WordAlignment};
use treelink::mt::lm::read_arpa;
use treelink::mt::model::TranslationModel;
use treelink::tree::Tree;
use treelink::ui::load;
use treelink::ui::protocol::{CorpusText, LexiconFiles, Request, Response};

const SRC: &str = "(S (NP (ART der) (NN Hund)) (VP (VVFIN bellt) (ADV laut)))";
const TRG: &str = "(S (NP (DT the) (NN dog)) (VP (VBZ barks) (ADVP (RB loudly))))";

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    if let Ok(response) = serde_json::from_str::<Response>(text) {
        let again = serde_json::to_string(&response).expect("a response writes");
        let _ = serde_json::from_str::<Response>(&again);
    }
    let Ok(request) = serde_json::from_str::<Request>(text) else { return };
    let again = serde_json::to_string(&request).expect("a request writes");
    // Numbers that JSON cannot hold (NaN) write as null and do not read back.
    if let Ok(again) = serde_json::from_str::<Request>(&again) {
        assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&request).unwrap());
    }
    match request {
        Request::Train { corpus, lexicon, .. } => {
            if let Ok(corpus) = corpus.parse() {
                let _ = files(&lexicon, &corpus);
            }
        }
        Request::Align { corpus, model, lexicon, .. } => align(&corpus, &model, &lexicon),
        Request::Update { corpus, model, kept, lexicon, .. } => {
            // What the worker reads before it trains: the pairs, the files, the model, the kept options.
            if let Ok(corpus) = corpus.parse() {
                let _ = files(&lexicon, &corpus);
            }
            let _ = AlignmentModel::from_json(&model, "the model");
            let _ = serde_json::from_str::<treelink::align::model::TrainOptions>(&kept);
        }
        Request::Explain { pair, source, target } => {
            let corpus = Corpus::from_texts(Named { name: "s", text: SRC }, Named { name: "t", text: TRG }, None)
                .expect("fixed pair");
            if let Some(p) = corpus.pairs.get(pair.index()) {
                // `treelink train --train <the sample's first 3 pairs> --kernel lex --max-examples 20`
                let model = AlignmentModel::from_json(include_str!("../src/tiny-model.json"), "tiny")
                    .expect("the fixed model reads");
                let lexicon = Lexicon::default();
                let scorer = Scorer::new(&model, &lexicon).expect("the default model scores");
                let links = WordAlignment::default();
                let (search, _) = scorer.align_pair(p, &links);
                let e = explain(&model, &scorer, &lexicon, p, &links, &search, source, target);
                assert_eq!(e.is_some(), p.source.contains(source) && p.target.contains(target));
            }
        }
        Request::TrainMt { corpus, lm, .. } => {
            let _ = corpus.parse();
            if let Some(lm) = lm {
                let _ = read_arpa(&lm.text, &lm.name);
            }
        }
        Request::LoadMt { model, .. } => {
            if let Ok(m) = TranslationModel::from_json(&model.text, &model.name) {
                let source = Tree::parse_one(SRC, "s").expect("fixed tree");
                let _ = m.system.translate(&source);
            }
        }
        Request::LoadMtFile { .. } => {}
        Request::Load { request, .. } => {
            // The file worker: every part of a corpus it builds decodes to the corpus.
            let checked = load::check(&request);
            let pairs: Vec<TreePair> = checked
                .parts()
                .into_iter()
                .flatten()
                .map(|p| p.decode().expect("a part the file worker sends decodes").0)
                .collect();
            assert_eq!(Some(&pairs), checked.corpus.as_ref().map(|(c, _)| &c.pairs).or(Some(&Vec::new())));
        }
        Request::Translate { source, .. } => {
            let _ = Tree::parse_one(&source, "source tree");
        }
        Request::TranslateAll { sources, .. } => {
            for (k, s) in sources.iter().enumerate() {
                let _ = Tree::parse_one(s, &format!("source tree {}", k + 1));
            }
        }
        // A text to keep comes beside the message, and a pool's piece needs
        // the pairs and artifacts its worker was given first: the message's
        // reading and round trip above are what a stray one can reach.
        Request::KeepText { .. } | Request::Piece { .. } => {}
    }
});

/// The uploaded tables (both or neither) and word links, read as the worker reads them.
fn files(files: &LexiconFiles, corpus: &Corpus) -> Result<(Option<Lexicon>, Option<Vec<WordAlignment>>), String> {
    let lengths: Vec<(usize, usize)> =
        corpus.pairs.iter().map(|p| (p.source.words().len(), p.target.words().len())).collect();
    let links = files
        .word_links
        .as_ref()
        .map(|f| read_word_alignments_for(&f.text, &f.name, &lengths).map_err(|e| e.to_string()))
        .transpose()?;
    let read = |f: &treelink::ui::protocol::NamedText| read_moses_lex(&f.text, &f.name).map_err(|e| e.to_string());
    let tables = match (&files.s2t, &files.t2s) {
        (Some(s2t), Some(t2s)) => Some(Lexicon::new(read(s2t)?, read(t2s)?)),
        _ => None,
    };
    Ok((tables, links))
}

/// The worker's Align: its corpus aligned with its model (with the model's
/// tables; an in-engine lexicon is not re-trained here) and the baseline.
fn align(corpus: &CorpusText, model: &str, lexicon: &LexiconFiles) {
    let Ok(corpus) = corpus.parse() else { return };
    let Ok(model) = AlignmentModel::from_json(model, "the alignment model") else { return };
    let Ok((tables, links)) = files(lexicon, &corpus) else { return };
    let lexicon = match &model.lexicon {
        LexicalModel::Tables(l) => l.clone(),
        LexicalModel::InEngine { .. } => Lexicon::default(),
    };
    let scorer = Scorer::new(&model, &lexicon).expect("a model that reads can score");
    let baseline_lexicon = tables.unwrap_or_default();
    for (k, pair) in corpus.pairs.iter().enumerate() {
        let words = links.as_ref().and_then(|l| l.get(k)).cloned().unwrap_or_default();
        let (search, _) = scorer.align_pair(pair, &words);
        assert!(search.links.iter().all(|&(s, t)| pair.source.contains(s) && pair.target.contains(t)));
        for l in baseline_links(&baseline_lexicon, pair, &BaselineOptions::default()) {
            assert!(pair.source.contains(l.source) && pair.target.contains(l.target));
        }
    }
}
