//! TigerXML + STA (three texts cut at 0xFF: source treebank, target
//! treebank, alignment): each sentence converts to a tree or a located
//! error; an import that succeeds exports to files that import to the same
//! corpus, both its own TigerXML and the original sentences as written
//! (`app::interchange`, through the `.ids` file); the three files given in
//! any order make the same set or the same refusal.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::corpus::Named;
use treelink::app::files::{import_tiger, tiger_sets, TigerSets};
use treelink::app::interchange::{export_tiger, import_files, InterchangeError, Originals};
use treelink::tiger::{
    export_pair, import_pair, parse_tiger, IdsFile, ImportOptions, LinkOrigin, StaLinks, TreebankName,
};

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
    // The original sentences as written, through the .ids file the CLI writes.
    let made = import_files(&imported, None);
    let ids = IdsFile::read(&made[3].text, "x.ids").expect("written ids read");
    let gold: Vec<_> = imported.corpus.pairs.iter().map(|p| p.gold.clone()).collect();
    let originals = Originals { source: named("de.xml", src), target: named("en.xml", trg) };
    let links = StaLinks { links: &gold, origin: LinkOrigin::Gold };
    let alignment = Some(named("de-en.sta", sta));
    let out = match export_tiger(&imported.corpus, links, Some((&ids, "x.ids")), Some(originals), alignment, "de-en.sta") {
        Ok(out) => out,
        // Two treebanks declared with one file name cannot be written as two files.
        Err(InterchangeError::SameFileName { .. }) => return,
        Err(e) => panic!("an imported corpus exports its original sentences: {e}"),
    };
    // Read back by the names the export gave them (those its alignment declares).
    let file = |k: usize| named(&out.files[k].name, &out.files[k].text);
    let again = import_pair(file(0), file(1), file(2), options).expect("the original sentences import");
    // A pair without links is in the STA only through the original's <sen-align> (none is made
    // up): such a pair may be missing, and nothing else changes.
    let mut rest = again.corpus.pairs.iter().zip(&again.ids).peekable();
    for (p, i) in imported.corpus.pairs.iter().zip(&imported.ids) {
        if rest.peek() == Some(&(p, i)) {
            rest.next();
        } else {
            assert!(p.gold.is_empty(), "a pair with links is lost");
        }
    }
    assert!(rest.next().is_none(), "a pair is added");
    // Given in any order, the three files make the same set and the same import.
    let files = [named("de.xml", src), named("en.xml", trg), named("de-en.sta", sta)];
    let reversed = [files[2], files[1], files[0]];
    let (a, b) = (tiger_sets(&files), tiger_sets(&reversed));
    fn pick<'a>(s: &TigerSets, f: &[Named<'a>; 3]) -> Option<[Named<'a>; 3]> {
        match s {
            TigerSets::One { alignment, treebanks: [x, y] } => Some([f[*alignment], f[*x], f[*y]]),
            _ => None,
        }
    }
    if let (Some(x), Some(y)) = (pick(&a, &files), pick(&b, &reversed)) {
        let (x, y) = (import_tiger(&x, options), import_tiger(&y, options));
        assert_eq!(x.map(|i| i.corpus).map_err(|e| e.to_string()), y.map(|i| i.corpus).map_err(|e| e.to_string()));
    } else {
        assert_eq!(format!("{a:?}").split('{').next(), format!("{b:?}").split('{').next());
    }
});
