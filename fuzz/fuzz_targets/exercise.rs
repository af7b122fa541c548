//! Exercise and answers files as `treelink exercise check` and the page read
//! them: read, or an error that names the file; answers that read are
//! checked and summed into a class table without panicking (a student copy,
//! without the key, checks none).
#![no_main]
use libfuzzer_sys::fuzz_target;
use treelink::exercise::{check_pair, Answers, ClassTable, Exercise, ExerciseError};

fuzz_target!(|data: &[u8]| {
    let Some([exercise, answers]) = treelink_fuzz::texts::<2>(data) else { return };
    let exercise = match Exercise::from_json(exercise, "ex.json") {
        Ok(e) => e,
        Err(e) => {
            assert!(e.to_string().starts_with("ex.json:"), "{e}");
            return;
        }
    };
    for p in &exercise.pairs {
        let drawn: Vec<(treelink::tree::NodeId, treelink::tree::NodeId)> = p.pair.gold.iter().map(|l| (l.source, l.target)).collect();
        assert_eq!(check_pair(&p.pair, &drawn).counts.correct, check_pair(&p.pair, &drawn).counts.gold);
    }
    match Answers::from_json(answers, "a.json", &exercise, "ex.json") {
        Ok(a) => {
            let _ = ClassTable::new(&exercise, &[("a.json".into(), a)]).to_string();
        }
        // A student copy checks no answers, and says so.
        Err(e @ ExerciseError::NoKey { .. }) => assert!(exercise.key_withheld, "{e}"),
        Err(e) => assert!(e.to_string().starts_with("a.json:"), "{e}"),
    }
});
