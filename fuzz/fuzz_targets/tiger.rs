//! TigerXML + STA (three texts cut at 0xFF: source treebank, target
//! treebank, alignment): each sentence converts to a tree or a located
//! error; an import that succeeds exports to files that import to the same
//! corpus.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::corpus::Named;
use treelink::tiger::{export_pair, import_pair, parse_tiger, ImportOptions, TreebankName};

fuzz_target!(|data: &[u8]| {
    let Some([src, trg, sta]) = treelink_fuzz::texts::<3>(data) else { return };
    match parse_tiger(src, "de.xml") {
        Ok(corpus) => {
            for s in &corpus.sentences {
                if let Err(e) = s.to_tree("de.xml") {
                    treelink_fuzz::assert_located(&e, &["de.xml"]);
                }
            }
        }
        Err(e) => treelink_fuzz::assert_located(&e, &["de.xml"]),
    }
    let named = |name, text| Named { name, text };
    let options = ImportOptions::default();
    let imported = match import_pair(named("de.xml", src), named("en.xml", trg), named("de-en.sta", sta), options) {
        Ok(i) => i,
        Err(e) => return treelink_fuzz::assert_located(&e, &["de.xml", "en.xml", "de-en.sta"]),
    };
    let (de, en) = (TreebankName::new("de", "de", "de.xml"), TreebankName::new("en", "en", "en.xml"));
    let export = export_pair(&imported.corpus, Some(&imported.ids), &de, &en).expect("an imported corpus exports");
    let again = import_pair(
        named("de.xml", &export.source_tiger),
        named("en.xml", &export.target_tiger),
        named("de-en.sta", &export.sta),
        ImportOptions::default(),
    )
    .expect("an export imports");
    assert_eq!(again.corpus, imported.corpus);
});
