//! The `treelink` binary's contracts, run as a user runs them: outputs, exit
//! codes and located errors.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use treelink::kernel::{btk_normalized, tree_kernel, BtkKind, Space, SubTree, SubTreePair};
use treelink::tree::Tree;

fn treelink(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_treelink")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory under target/ for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

const A: &str = "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))\n(NP (DT a) (NN cat))\n";
const B: &str = "(S (NP (DT a) (NN dog)) (VP (VBZ barks)))\n(NP (DT a) (NN dog))\n";

#[test]
fn kernel_prints_one_full_precision_number_per_tree_pair() {
    let dir = scratch("kernel");
    let (a, b) = (write(&dir, "a.trees", A), write(&dir, "b.trees", B));
    let ta = Tree::parse_all(A, "a").unwrap();
    let tb = Tree::parse_all(B, "b").unwrap();
    for space in Space::ALL {
        let o = treelink(&["kernel", "--space", space.name(), "--lambda", "0.3", &a, &b]);
        assert!(o.status.success(), "{}", stderr(&o));
        let values: Vec<f64> = stdout(&o).lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(values.len(), 2);
        for (i, v) in values.iter().enumerate() {
            let expected = tree_kernel(space, 0.3, SubTree::whole(&ta[i]), SubTree::whole(&tb[i]));
            assert_eq!(v.to_bits(), expected.to_bits(), "{space} line {i}");
        }
    }
    // Hand-worked: the first pair in SST at λ = 0.4 (see kernel::tests).
    let o = treelink(&["kernel", "--space", "rgsst", &a, &b]);
    let d_np = 0.4 * 1.4; // (DT the) ≠ (DT a); NN equal
    let d_vp = 0.4 * 1.4;
    let expected = 0.4 * (1.0 + d_np) * (1.0 + d_vp);
    let first: f64 = stdout(&o).lines().next().unwrap().parse().unwrap();
    assert!((first - expected).abs() < 1e-12);
}

#[test]
fn btk_normalises_the_bilingual_kernel_as_a_whole() {
    let dir = scratch("btk");
    let (a, b) = (write(&dir, "a.trees", A), write(&dir, "b.trees", B));
    let o = treelink(&["btk", "--kind", "ibtk", "--space", "sst", "--normalize", &a, &b, &b, &a]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ta = Tree::parse_all(A, "a").unwrap();
    let tb = Tree::parse_all(B, "b").unwrap();
    for (i, line) in stdout(&o).lines().enumerate() {
        let x = SubTreePair::whole(&ta[i], &tb[i]);
        let y = SubTreePair::whole(&tb[i], &ta[i]);
        let expected = btk_normalized(BtkKind::Ibtk, Space::Sst, 0.4, x, y);
        assert_eq!(line.parse::<f64>().unwrap().to_bits(), expected.to_bits());
    }
}

#[test]
fn errors_are_located_sentences_on_stderr_with_a_failing_exit() {
    let dir = scratch("errors");
    let good = write(&dir, "good.trees", A);
    let bad = write(&dir, "bad.trees", "(S (NP (DT the) (NN dog))\n  (VP (VBZ barks)\n");
    let o = treelink(&["kernel", "--space", "sst", &good, &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o).trim(),
        format!("treelink: {bad}:3:1: expected ')' to close '(VP' opened at 2:3, found end of input")
    );
    let short = write(&dir, "short.trees", "(X x)\n");
    let o = treelink(&["kernel", "--space", "sst", &good, &short]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("expected 2 trees"), "{}", stderr(&o));
    let o = treelink(&["kernel", "--space", "ptk", &good, &good]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown sub-structure space 'ptk'"));
    let o = treelink(&["kernel", "--space", "sst", "--lambda", "0", &good, &good]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o).trim(), "treelink: --lambda must be a number greater than 0, found 0");
    let o = treelink(&["eval", "--input", &dir.join("nothing").to_string_lossy(), "--pred", &good]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

/// The first `n` pairs of the built-in sample as PREFIX files in `dir`.
fn sample_prefix(dir: &Path, name: &str, range: std::ops::Range<usize>) -> String {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    for ext in ["src", "trg", "gold"] {
        let text = std::fs::read_to_string(format!("{sample}.{ext}")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        write(dir, &format!("{name}.{ext}"), &(lines[range.clone()].join("\n") + "\n"));
    }
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn train_align_baseline_and_eval_work_together() {
    let dir = scratch("pipeline");
    let train = sample_prefix(&dir, "train", 0..100);
    let test = sample_prefix(&dir, "test", 100..157);
    let model = dir.join("model.json").to_string_lossy().into_owned();
    let o =
        treelink(&["train", "--train", &train, "--kernel", "plain+dbtk-root", "--max-examples", "1500", "-o", &model]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("support vectors"), "{}", stderr(&o));
    let o = treelink(&["align", "--model", &model, "--input", &test]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pred = write(&dir, "pred.links", &stdout(&o));
    assert_eq!(stdout(&o).lines().count(), 57);
    // Every line is in the gold format and parses back.
    treelink::io::links::parse_links(&stdout(&o), "pred").unwrap();
    let o = treelink(&["eval", "--input", &test, "--pred", &pred]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let f: f64 = out.lines().find_map(|l| l.strip_prefix("F = ")).unwrap().parse().unwrap();
    assert!(f > 55.0, "{out}");
    // The baseline, with every heuristic combination the contract names.
    for h in ["skip2,span1", "skip1", ""] {
        let o = treelink(&["baseline", "--input", &test, "--score", "s2", "--heuristics", h]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), 57);
    }
    // A model file that is not one is refused with its position.
    let junk = write(&dir, "junk.json", "{\"format\": 3");
    let o = treelink(&["align", "--model", &junk, "--input", &test]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("junk.json:1:"), "{}", stderr(&o));
}
