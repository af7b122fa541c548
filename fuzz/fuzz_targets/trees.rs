//! Bracketed trees: any text reads as trees or gives a located error, and a
//! tree that reads writes back to text that reads as the same tree.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::tree::Tree;

fuzz_target!(|data: &[u8]| {
    let Some(text) = treelink_fuzz::text(data) else { return };
    match Tree::parse_all(text, "fuzz.src") {
        Ok(trees) => {
            for tree in &trees {
                let again = Tree::parse_one(&tree.to_string(), "again").expect("a written tree reads back");
                assert_eq!(&again, tree);
                for n in tree.node_ids() {
                    assert!(tree.subtree_end(n) > n && tree.subtree_end(n).index() <= tree.len());
                    assert!(tree.span(n).start < tree.span(n).end && tree.span(n).end <= tree.words().len());
                }
            }
        }
        Err(e) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
    }
});
