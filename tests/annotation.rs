//! `treelink simulate-annotation` as a user runs it (issue 42, item 4): the
//! final line's format, and its static cost S equal to the wrong plus
//! missed links of `treelink align` with the same first model, as `treelink
//! eval` counts them.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn treelink(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_treelink")).args(args).output().expect("the binary runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Pairs `from..to` of the built-in sample (SQUOIA dev) as PREFIX.{src,trg,gold} in `dir`.
fn sample_slice(dir: &Path, name: &str, from: usize, to: usize) -> String {
    for ext in ["src", "trg", "gold"] {
        let text = std::fs::read_to_string(format!("{}/www/sample/dev.{ext}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let lines: String = text.lines().skip(from).take(to - from).map(|l| format!("{l}\n")).collect();
        std::fs::write(dir.join(format!("{name}.{ext}")), lines).unwrap();
    }
    dir.join(name).to_string_lossy().into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The number after `word` in `line` (`... word N ...`).
fn number_after(line: &str, word: &str) -> usize {
    let mut words = line.split_whitespace();
    words
        .find(|w| *w == word)
        .and_then(|_| words.next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {word} in {line:?}"))
}

#[test]
fn the_static_cost_is_aligns_wrong_plus_missed_links() {
    let dir = scratch("simulate-annotation");
    let train = sample_slice(&dir, "train", 0, 40);
    let pool = sample_slice(&dir, "pool", 40, 50);
    let kernel = ["--kernel", "plain", "--threads", "1"];
    let run = |extra: &[&str]| {
        let mut args = vec!["simulate-annotation", "--train", &train, "--pool", &pool, "--batch", "5"];
        args.extend_from_slice(&kernel);
        args.extend_from_slice(extra);
        stdout(&treelink(&args))
    };
    let out = run(&[]);
    let lines: Vec<&str> = out.lines().collect();
    // A line per batch (two of five pairs), then the totals.
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("pairs 5  edits "), "{out}");
    assert!(lines[0].ends_with(" s"), "the first batch is followed by an update: {out}");
    assert!(lines[1].starts_with("pairs 10  edits ") && lines[1].ends_with("update -"), "{out}");
    let last = lines[2];
    let words: Vec<&str> = last.split("  ").collect();
    assert_eq!(words.len(), 4, "{last}");
    assert!(["pairs ", "gold ", "edits ", "static "].iter().zip(&words).all(|(w, l)| l.starts_with(w)), "{last}");
    assert_eq!(number_after(last, "pairs"), 10);
    let (gold, edits, fixed) = (number_after(last, "gold"), number_after(last, "edits"), number_after(last, "static"));
    assert_eq!(number_after(lines[1], "edits"), edits);

    // The same first model by `train`, its links by `align`, counted by `eval`.
    let model = dir.join("m.json").to_string_lossy().into_owned();
    let mut args = vec!["train", "--train", &train, "-o", &model];
    args.extend_from_slice(&kernel);
    treelink(&args);
    let pred = stdout(&treelink(&["align", "--model", &model, "--input", &pool, "--threads", "1"]));
    let pred_file = dir.join("pool.pred");
    std::fs::write(&pred_file, pred).unwrap();
    let eval = stdout(&treelink(&["eval", "--input", &pool, "--pred", &pred_file.to_string_lossy()]));
    // `R(good) = … (C correct, P predicted, G gold phrase links)`
    let counts = eval.lines().find(|l| l.starts_with("R(good)")).unwrap().replace(['(', ')', ','], " ");
    let number_before = |word: &str| {
        let words: Vec<&str> = counts.split_whitespace().collect();
        words[words.iter().position(|w| *w == word).unwrap() - 1].parse::<usize>().unwrap()
    };
    let (correct, predicted, eval_gold) = (number_before("correct"), number_before("predicted"), number_before("gold"));
    assert_eq!(gold, eval_gold);
    assert_eq!(fixed, (predicted - correct) + (eval_gold - correct), "{eval}");
    assert!(fixed > 0 && edits > 0);

    // No update, no propagation: each pair's first proposal corrected link by link, E = S.
    let fixed_run = run(&["--no-update", "--no-propagate", "--order", "file"]);
    assert!(fixed_run.ends_with(&format!("pairs 10  gold {gold}  edits {fixed}  static {fixed}\n")), "{fixed_run}");
}
