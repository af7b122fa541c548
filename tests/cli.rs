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
            let expected = tree_kernel(space, 0.3, SubTree::whole(&ta[i]), SubTree::whole(&tb[i])).unwrap();
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
        let expected = btk_normalized(BtkKind::Ibtk, Space::Sst, 0.4, x, y).unwrap();
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
    // A 20,000-deep unary chain: refused at once, naming the numbers and the option.
    let chain = write(&dir, "chain.trees", &format!("{}(B b){}\n", "(A ".repeat(20_000), ")".repeat(20_000)));
    let o = treelink(&["kernel", "--space", "sst", &chain, &chain]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "treelink: tree 1 of each file: the tree kernel of these trees (20001 and 20001 nodes) would visit 399960003 \
         node pairs with equal productions, more than the limit of 1000000: raise the limit (--max-node-pairs) to \
         compute it"
    );
    let o = treelink(&["kernel", "--space", "rgsst", "--normalize", &chain, &chain]);
    assert_eq!(stdout(&o), "1\n", "RgSST needs no node-pair enumeration");
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
    first_pairs(concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev"), dir, name, range)
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
    // Issue 40 item 5: the model says what made it.
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(json["summary"]["made_by"].as_str(), Some(concat!("treelink ", env!("CARGO_PKG_VERSION"))));
    let o = treelink(&["align", "--model", &model, "--input", &test]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pred = write(&dir, "pred.links", &stdout(&o));
    assert_eq!(stdout(&o).lines().count(), 57);
    // Every line is in the gold format and parses back.
    treelink::io::links::parse_links(&stdout(&o), "pred").unwrap();
    // Issue 40 item 1: each link's posterior, written beside the links and
    // exported as STA's prob (good above 0.5, else fuzzy).
    let post = dir.join("pred.post").to_string_lossy().into_owned();
    let o = treelink(&["align", "--model", &model, "--input", &test, "--posteriors", &post]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), std::fs::read_to_string(&pred).unwrap(), "the links are the same with --posteriors");
    let links = treelink::io::links::parse_links(&stdout(&o), "pred").unwrap();
    let posteriors =
        treelink::io::links::read_posteriors(&std::fs::read_to_string(&post).unwrap(), "post", &links).unwrap();
    assert!(posteriors.iter().flatten().any(|&p| p < 1.0) && posteriors.iter().flatten().all(|&p| p > 0.0));
    let sta = dir.join("pred.xml").to_string_lossy().into_owned();
    let o = treelink(&["export", "sta", "--input", &test, "--links", &pred, "--posteriors", &post, "-o", &sta]);
    assert!(o.status.success(), "{}", stderr(&o));
    let xml = std::fs::read_to_string(&sta).unwrap();
    let probs: Vec<(f64, bool)> = xml
        .split("<align ")
        .skip(1)
        .map(|a| {
            let attr =
                |name: &str| a.split(&format!("{name}=\"")).nth(1).unwrap().split('"').next().unwrap().to_string();
            (attr("prob").parse().unwrap(), attr("type") == "good")
        })
        .collect();
    let expected: Vec<(f64, bool)> = posteriors.iter().flatten().map(|&p| (p, p > 0.5)).collect();
    assert_eq!(probs.len(), expected.len());
    for (got, want) in probs.iter().zip(&expected) {
        assert!((got.0 - want.0).abs() < 1e-6 && got.1 == want.1, "{got:?} against {want:?}");
    }
    // A posteriors file that does not fit the links is refused where it parts from them.
    let short = write(
        &dir,
        "short.post",
        &std::fs::read_to_string(&post).unwrap().lines().skip(1).map(|l| format!("{l}\n")).collect::<String>(),
    );
    let e =
        failure(&treelink(&["export", "sta", "--input", &test, "--links", &pred, "--posteriors", &short, "-o", &sta]));
    assert!(e.contains("short.post:") && e.contains("expected"), "{e}");
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
    // Issue 40 item 2: a blank line half-way through the input: no line of
    // links is written (not 29 lines, then an error), and `--held-out` too.
    let blank = sample_prefix(&dir, "blank", 100..157);
    for ext in ["src", "trg"] {
        let file = format!("{blank}.{ext}");
        let mut lines: Vec<String> = std::fs::read_to_string(&file).unwrap().lines().map(str::to_string).collect();
        lines[29].clear();
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    }
    for held_out in [false, true] {
        let mut args = vec!["align", "--model", &model, "--input", &blank];
        if held_out {
            args.push("--held-out");
        }
        let o = treelink(&args);
        let e = failure(&o);
        assert!(
            e.starts_with(&format!("treelink: {blank}.src:30:1: expected a tree on every line, found a blank")),
            "{e}"
        );
        assert_eq!(stdout(&o), "", "held out: {held_out}");
    }
    // A model file that is not one is refused with its position.
    let junk = write(&dir, "junk.json", "{\"format\": 3");
    let o = treelink(&["align", "--model", &junk, "--input", &test]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("junk.json:1:"), "{}", stderr(&o));
}

/// The one line the binary printed on stderr, after a failing exit (never a panic).
fn failure(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(1), "stdout: {}\nstderr: {}", stdout(o), stderr(o));
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
    // Progress lines come after the first second (a loaded machine reaches
    // it before the error), and a warning may come first: the error is the
    // one line that is neither.
    let e: Vec<String> = (stderr(o).lines())
        .filter(|l| !is_progress(l) && !l.starts_with("treelink: warning: "))
        .map(str::to_string)
        .collect();
    assert_eq!(e.len(), 1, "{e:?}");
    e[0].trim().to_string()
}

/// A line of the CLI's progress reporter: `treelink: STAGE: DONE/TOTAL (P%)…`
/// or `treelink: STAGE: DONE (elapsed N s)` (an unknown total).
fn is_progress(line: &str) -> bool {
    let Some((_, rest)) = line.strip_prefix("treelink: ").and_then(|l| l.rsplit_once(": ")) else { return false };
    let count = rest.split([' ', ',']).next().unwrap_or("");
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match count.split_once('/') {
        Some((done, total)) => digits(done) && digits(total) && rest.contains("%)"),
        None => digits(count) && rest.contains("(elapsed "),
    }
}

#[test]
fn predicted_links_are_checked_against_the_trees() {
    let dir = scratch("pred-links");
    let input = sample_prefix(&dir, "in", 0..3);
    let corpus = treelink::corpus::Corpus::read_prefix(&input, true).unwrap();
    let nodes = corpus.pairs[1].source.len();
    let eval = |pred: &str| treelink(&["eval", "--input", &input, "--pred", &write(&dir, "pred", pred)]);
    // A link to a source node the tree lacks (it used to panic in tree.rs).
    let e = failure(&eval(&format!("0-0\n0-0 {nodes}-1\n\n")));
    let pred = dir.join("pred").to_string_lossy().into_owned();
    assert_eq!(
        e,
        format!(
            "treelink: {pred}:2:5: link {nodes}-1 names source node {nodes}, but the source tree of pair 2 has only \
             {nodes} nodes (numbered 0 to {})",
            nodes - 1
        )
    );
    let e = failure(&eval("0-0\n\n0-999?\n"));
    assert!(e.starts_with(&format!("treelink: {pred}:3:1: link 0-999? names target node 999")), "{e}");
    // Too few and too many lines: at the end of the file, at the first extra line.
    let e = failure(&eval("0-0\n"));
    assert_eq!(e, format!("treelink: {pred}:2:1: expected 3 lines of links (one per tree pair), found 1"));
    let e = failure(&eval("\n\n\n0-0\n"));
    assert_eq!(e, format!("treelink: {pred}:4:1: expected 3 lines of links (one per tree pair), found 4"));
    // The gold file is checked the same way.
    let gold = format!("{input}.gold");
    std::fs::write(&gold, "0-0\n0-0\n0-0 1-4000\n").unwrap();
    let e = failure(&eval("\n\n\n"));
    assert!(e.starts_with(&format!("treelink: {gold}:3:5: link 1-4000 names target node 4000")), "{e}");
}

#[test]
fn word_links_are_checked_against_the_sentences() {
    let dir = scratch("word-links");
    let input = sample_prefix(&dir, "in", 0..20);
    let model = dir.join("m.json").to_string_lossy().into_owned();
    let o = treelink(&["train", "--train", &input, "--kernel", "lex", "--max-examples", "200", "-o", &model]);
    assert!(o.status.success(), "{}", stderr(&o));
    let corpus = treelink::corpus::Corpus::read_prefix(&input, false).unwrap();
    let words = corpus.pairs[0].target.words().len();
    let links = write(&dir, "aligned", &format!("0-0 1-{words}\n{}", "0-0\n".repeat(19)));
    let e = failure(&treelink(&["align", "--model", &model, "--input", &input, "--word-align", &links]));
    assert_eq!(
        e,
        format!(
            "treelink: {links}:1:5: link 1-{words} names target word {words}, but the target sentence of pair 1 has \
             only {words} words"
        )
    );
    let e = failure(&treelink(&[
        "align",
        "--model",
        &model,
        "--input",
        &input,
        "--word-align",
        &write(&dir, "a1", "0-0\n"),
    ]));
    assert!(e.ends_with("a1:2:1: expected 20 lines of word links (one per sentence pair), found 1"), "{e}");
}

#[test]
fn a_damaged_alignment_model_names_the_file_the_place_and_the_json_path() {
    let dir = scratch("damaged-model");
    let input = sample_prefix(&dir, "in", 0..20);
    let model = dir.join("m.json").to_string_lossy().into_owned();
    let o =
        treelink(&["train", "--train", &input, "--kernel", "plain+ibtk-rgsst", "--max-examples", "200", "-o", &model]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let damaged = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut j = json.clone();
        change(&mut j);
        write(&dir, name, &serde_json::to_string_pretty(&j).unwrap())
    };
    let align = |m: &str| treelink(&["align", "--model", m, "--input", &input]);
    // A support vector's tree with its last bracket cut off.
    let cut = damaged("cut.json", &|j| {
        let s = j["support_vectors"][3]["source"].as_str().unwrap().to_string();
        j["support_vectors"][3]["source"] = s[..s.len() - 1].into();
    });
    let e = failure(&align(&cut));
    let (file_line, rest) = e.split_once(": expected a treelink alignment model (JSON): ").unwrap();
    assert!(file_line.starts_with(&format!("treelink: {cut}:")), "{e}");
    let line: usize = file_line.rsplit(':').nth(1).unwrap().parse().unwrap();
    let text = std::fs::read_to_string(&cut).unwrap();
    assert!(text.lines().nth(line - 1).unwrap().contains("\"source\""), "line {line} is the damaged value: {e}");
    assert!(rest.starts_with("at support_vectors[3].source: expected one bracketed tree; at 1:"), "{e}");
    assert!(rest.contains("found end of input"), "{e}");
    // Weights that do not fit the kernel, a λ of 0, an unknown field type.
    let thetas = damaged("thetas.json", &|j| j["spec"]["thetas"] = serde_json::json!([1.0]));
    let e = failure(&align(&thetas));
    assert!(
        e.contains(": at spec: expected 2 non-negative weights θ (thetas), one per component of plain+ibtk-rgsst"),
        "{e}"
    );
    let lambda = damaged("lambda.json", &|j| j["spec"]["lambda"] = serde_json::json!(0.0));
    assert!(failure(&align(&lambda)).contains("at spec: expected a decay λ (lambda) greater than 0, found 0"));
    let rho = damaged("rho.json", &|j| j["rho"] = serde_json::json!("high"));
    assert!(failure(&align(&rho)).contains("at rho: invalid type: string \"high\", expected f64"));
    // A translation model given where an alignment model is expected.
    let mt = write(&dir, "mt.json", "{\"format\": \"treelink-mt\", \"version\": 1, \"system\": \"phrase\"}");
    assert_eq!(
        failure(&align(&mt)),
        format!(
            "treelink: {mt}:1:1: expected a treelink alignment model (\"format\": \"treelink-alignment-model\", \
             \"version\": 1), found \"format\": \"treelink-mt\", \"version\": 1 (a translation model: give it to \
             `treelink translate`)"
        )
    );
}

/// The smallest phrase-based translation model: no phrases, a unigram LM.
fn tiny_mt_model(weights: &str) -> String {
    format!(
        r#"{{"format": "treelink-mt", "version": 1, "system": "phrase",
  "model": {{"config": {{}}, "weights": {weights}, "table": [],
    "lm": {{"order": 1, "vocab": ["<unk>", "<s>", "</s>"], "ngrams": [[[[0], -1.0, 0.0], [[1], -99.0, 0.0], [[2], -1.0, 0.0]]]}}}}}}"#
    )
}

#[test]
fn a_damaged_translation_model_names_the_file_the_place_and_the_json_path() {
    let dir = scratch("damaged-mt");
    let input = write(&dir, "in.src", "(S (NN Haus))\n");
    let good = write(&dir, "good.json", &tiny_mt_model("[0, 0, 0, 0, 0, 0, 0, 0, -1]"));
    let o = treelink(&["translate", "--model", &good, "--input", &input]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Haus\n");
    let short = write(&dir, "short.json", &tiny_mt_model("[0, 0, 0]"));
    let e = failure(&treelink(&["translate", "--model", &short, "--input", &input]));
    assert_eq!(
        e,
        format!(
            "treelink: {short}:2:46: expected a treelink translation model (JSON): at model.weights: expected 9 \
             finite feature weights, found 3 ([0.0, 0.0, 0.0])"
        )
    );
    let lm =
        write(&dir, "lm.json", &tiny_mt_model("[0, 0, 0, 0, 0, 0, 0, 0, -1]").replace("[[1], -99.0", "[[7], -99.0"));
    let e = failure(&treelink(&["translate", "--model", &lm, "--input", &input]));
    assert!(e.starts_with(&format!("treelink: {lm}:3:")), "{e}");
    assert!(e.contains("at model.lm: invalid language model: bad 1-gram [7]"), "{e}");
}

#[test]
fn text_that_is_not_utf8_is_located_at_its_first_bad_byte() {
    let dir = scratch("utf8");
    let good = write(&dir, "good.trees", "(S (NN Straße))\n(S (NN Haus))\n");
    let latin1 = dir.join("latin1.trees");
    std::fs::write(&latin1, b"(S (NN Haus))\n(S (NN Stra\xdfe))\n").unwrap();
    let latin1 = latin1.to_string_lossy().into_owned();
    let e = failure(&treelink(&["kernel", "--space", "sst", &good, &latin1]));
    assert_eq!(
        e,
        format!(
            "treelink: {latin1}:2:12: expected UTF-8 text, found the byte 0xDF, which is not UTF-8 there (Latin-1 or \
             Windows-1252 text? convert it, e.g. iconv -f LATIN1 -t UTF-8)"
        )
    );
    // The corpus reader and the model readers say the same.
    let prefix = dir.join("c").to_string_lossy().into_owned();
    std::fs::copy(&good, format!("{prefix}.src")).unwrap();
    std::fs::copy(&latin1, format!("{prefix}.trg")).unwrap();
    let e = failure(&treelink(&["baseline", "--input", &prefix]));
    assert!(e.starts_with(&format!("treelink: {prefix}.trg:2:12: expected UTF-8 text")), "{e}");
    let e = failure(&treelink(&["translate", "--model", &latin1, "--input", &good]));
    assert!(e.starts_with(&format!("treelink: {latin1}:2:12: expected UTF-8 text")), "{e}");
}

#[test]
fn svm_light_tk_learn_and_classify_take_its_option_letters_and_files() {
    let dir = scratch("svm-light-tk");
    let data = |f: &str| format!("{}/tests/data/{f}", env!("CARGO_MANIFEST_DIR"));
    let (train, test) = (data("svm-light-tk-train.dat"), data("svm-light-tk-test.dat"));
    let model = dir.join("model").to_string_lossy().into_owned();
    let pred = dir.join("pred").to_string_lossy().into_owned();
    let args = ["svm-light-tk", "learn", "-t", "5", "-F", "1", "-W", "S", "-C", "T", "-L", "0.4", "-N", "1"];
    let o = treelink(&[&args[..], &["-c", "1", "-j", "1", &train, &model]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("6 examples (3 positive, 3 negative), C = 1;"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.starts_with("SVM-light Version V5.01-TK-1.5\n5 # kernel type\n"), "{text}");
    let o = treelink(&["svm-light-tk", "classify", &test, &model, &pred]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Accuracy on test set: "), "{}", stdout(&o));
    let values: Vec<f64> = std::fs::read_to_string(&pred).unwrap().lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(values.len(), 4, "one decision value per example");
    // The same model through the engine gives the same values.
    let m = treelink::svm_light_tk::TkModel::from_text(&text, "model").unwrap();
    let mut c = treelink::svm_light_tk::Classifier::new(&m, u64::MAX).unwrap();
    for (line, v) in std::fs::read_to_string(&test).unwrap().lines().zip(&values) {
        let e = treelink::svm_light_tk::parse_example(line, "t", 1).unwrap();
        assert_eq!(c.decision(&e).unwrap().to_bits(), v.to_bits());
    }
    // SVM-Light-TK's own model file classifies too.
    let o = treelink(&["svm-light-tk", "classify", "-v", "0", &test, &data("svm-light-tk-st.model"), &pred]);
    assert!(o.status.success() && stdout(&o).is_empty(), "{}", stderr(&o));
    // What it cannot compute is refused, naming the option; solver-only letters are noted.
    for (bad, says) in [
        (vec!["-F", "3"], "-F 3 is not supported by treelink svm-light-tk: only -F 0 (ST) and -F 1 (SST)"),
        (vec!["-C", "*"], "-C * is not supported by treelink svm-light-tk: only -C T (trees) and -C + (sum)"),
        (vec!["-t", "1"], "-t 1 is not supported by treelink svm-light-tk: only -t 5"),
        (vec!["-e", "0.01"], "option -e 0.01 is not supported by treelink svm-light-tk"),
        (vec!["-z", "r"], "option -z r is not supported by treelink svm-light-tk: only classification"),
    ] {
        let o = treelink(&[&["svm-light-tk", "learn"][..], &bad, &[&train, &model]].concat());
        assert_eq!(o.status.code(), Some(1), "{bad:?}");
        assert!(stderr(&o).contains(says), "{bad:?}: {}", stderr(&o));
    }
    let o = treelink(&["svm-light-tk", "learn", "-q", "20", "-v", "0", &train, &model]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o).trim(), "treelink: -q 20 (SVM-Light's working-set size) makes no difference here: ignored");
    // A model file short of a support vector is refused where the list ends;
    // a support vector that reads but cannot be used, at its line.
    let sst = std::fs::read_to_string(data("svm-light-tk-sst.model")).unwrap();
    let lines = sst.lines().count();
    let short = write(&dir, "short.model", &(sst.lines().take(lines - 1).collect::<Vec<_>>().join("\n") + "\n"));
    let e = failure(&treelink(&["svm-light-tk", "classify", &test, &short, &pred]));
    assert_eq!(
        e,
        format!("treelink: {short}:{lines}:1: expected 6 support vectors (the header's count minus 1), found 5")
    );
    let e = failure(&treelink(&[
        "svm-light-tk",
        "classify",
        "--max-node-pairs",
        "1",
        &test,
        &data("svm-light-tk-sst.model"),
        &pred,
    ]));
    assert!(e.starts_with(&format!("treelink: {}:22:1: support vector 1: ", data("svm-light-tk-sst.model"))), "{e}");
    // A malformed example is located.
    let bad = write(&dir, "bad.dat", "+1 |BT| (A b) |ET|\n-1 |BT| (A b |ET|\n");
    let o = treelink(&["svm-light-tk", "learn", &bad, &model]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        format!("treelink: {bad}:2:14: expected ')' to close '(A', found the end of the tree")
    );
}

#[test]
fn svm_light_tk_examples_writes_sub_tree_pairs_of_a_treebank() {
    let sample = format!("{}/www/sample/dev", env!("CARGO_MANIFEST_DIR"));
    let o = treelink(&["svm-light-tk", "examples", "--input", &sample, "--negatives", "2", "--max-examples", "50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 50);
    for line in out.lines() {
        let e = treelink::svm_light_tk::parse_example(line, "x", 1).unwrap();
        assert!(e.label == 1.0 || e.label == -1.0);
        assert_eq!(e.trees.len(), 2);
    }
}

#[test]
fn inputs_over_a_limit_get_an_error_naming_it_and_how_to_raise_it() {
    let dir = scratch("limits");
    let input = sample_prefix(&dir, "in", 0..4);
    // A flat 1,001-word sentence as the third pair.
    let long: String = (0..1001).map(|k| format!(" (NN w{k})")).collect();
    let src = std::fs::read_to_string(format!("{input}.src")).unwrap();
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    lines[2] = format!("(S{long})");
    std::fs::write(format!("{input}.src"), lines.join("\n") + "\n").unwrap();
    let e = failure(&treelink(&["baseline", "--input", &input]));
    assert_eq!(
        e,
        format!(
            "treelink: {input}.src:3:1: this tree has 1001 words, more than the limit of 1000 (--max-words raises it)"
        )
    );
    // Raised, before or after the command, it runs.
    let o = treelink(&["baseline", "--input", &input, "--max-words", "1001"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 4);
    assert!(treelink(&["--max-words", "2000", "baseline", "--input", &input]).status.success());
    // Nodes: the first tree with more than 5 is named, in reading order (the
    // input streams pair by pair: a pair's source tree, then its target tree).
    let read = |ext: &str| Tree::parse_all(&std::fs::read_to_string(format!("{input}.{ext}")).unwrap(), "s").unwrap();
    let (sources, targets) = (read("src"), read("trg"));
    let (k, ext, nodes) = (0..sources.len())
        .flat_map(|k| [(k, "src", sources[k].len()), (k, "trg", targets[k].len())])
        .find(|&(_, _, nodes)| nodes > 5)
        .unwrap();
    let e = failure(&treelink(&["baseline", "--input", &input, "--max-words", "2000", "--max-nodes", "5"]));
    assert_eq!(
        e,
        format!(
            "treelink: {input}.{ext}:{}:1: this tree has {nodes} nodes, more than the limit of 5 (--max-nodes raises it)",
            k + 1,
        )
    );
    // Translation reads its input within the limits too.
    let model = write(&dir, "mt.json", &tiny_mt_model("[0, 0, 0, 0, 0, 0, 0, 0, -1]"));
    let e = failure(&treelink(&["translate", "--model", &model, "--input", &format!("{input}.src")]));
    assert!(e.contains(".src:3:1: this tree has 1001 words"), "{e}");
    // Training counts its candidates before computing any feature.
    let train = sample_prefix(&dir, "train", 0..20);
    let e = failure(&treelink(&[
        "train",
        "--train",
        &train,
        "--kernel",
        "lex",
        "--max-train-candidates",
        "100",
        "-o",
        "x",
    ]));
    assert!(
        e.starts_with("treelink: the training treebank has ")
            && e.ends_with("candidate node pairs, more than the limit of 100 (--max-train-candidates raises it)"),
        "{e}"
    );
    // An SST kernel in training refuses a 1,500-deep unary chain (2.25 million
    // matched node pairs) with its pair and node, and names no option: the
    // limit is fixed there (`--max-node-pairs` is the kernel commands').
    let chain = sample_prefix(&dir, "chain", 0..20);
    for (ext, line) in [
        ("src", format!("{}(B b){}", "(A ".repeat(1500), ")".repeat(1500))),
        ("trg", "(X (Y y) (Z z))".to_string()),
        ("gold", "0-0".to_string()),
    ] {
        let file = format!("{chain}.{ext}");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, format!("{text}{line}\n")).unwrap();
    }
    let e = failure(&treelink(&[
        "train",
        "--train",
        &chain,
        "--kernel",
        "plain+ibtk-sst",
        "--prune-quantile",
        "0",
        "-o",
        &dir.join("chain.json").to_string_lossy(),
    ]));
    assert!(
        e.starts_with("treelink: training failed: pair 21, source node ")
            && e.contains("node pairs with equal productions, more than the limit of 1000000 (fixed in training: ")
            && !e.contains("--max-node-pairs"),
        "{e}"
    );
}

/// `exercise new` → `answer` → `check`: each student's P/R/F equals what
/// `treelink eval` gives for the same links on the exercise's pairs, and
/// damaged answers are refused with their place.
#[test]
fn exercise_round_trip_scores_as_eval_does() {
    let dir = scratch("exercise");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    let ex = dir.join("ex.json").to_string_lossy().into_owned();
    let o = treelink(&["exercise", "new", "--corpus", sample, "--pairs", "3,1,5", "--title", "Week 3", "-o", &ex]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The exercise's pairs as a treebank of their own, for `eval`.
    let lines = |ext: &str| std::fs::read_to_string(format!("{sample}.{ext}")).unwrap();
    let pick = |text: String| {
        [3, 1, 5].iter().map(|&n| text.lines().nth(n - 1).unwrap().to_string() + "\n").collect::<String>()
    };
    let prefix = dir.join("picked").to_string_lossy().into_owned();
    for ext in ["src", "trg", "gold"] {
        write(&dir, &format!("picked.{ext}"), &pick(lines(ext)));
    }
    let gold = pick(lines("gold"));
    // Ana keeps the first half of each key line and adds 1-1 (wrong or right);
    // Ben answers nothing on the last pair.
    let ana: String = gold
        .lines()
        .map(|l| {
            let links: Vec<&str> = l.split_whitespace().collect();
            let mut kept: Vec<String> =
                links[..links.len() / 2].iter().map(|s| s.trim_end_matches('?').to_string()).collect();
            kept.push("1-1".into());
            kept.join(" ") + "\n"
        })
        .collect();
    let ben: String = gold
        .lines()
        .enumerate()
        .map(|(k, l)| if k == 2 { "\n".to_string() } else { l.replace('?', "") + "\n" })
        .collect();
    let mut scores = Vec::new();
    for (name, links) in [("Ana", &ana), ("Ben", &ben)] {
        let file = write(&dir, &format!("{name}.links"), links);
        let answers = dir.join(format!("{name}.json")).to_string_lossy().into_owned();
        let o = treelink(&["exercise", "answer", &ex, &file, "--student", name, "-o", &answers]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = treelink(&["eval", "--input", &prefix, "--pred", &file]);
        let prf: Vec<String> = stdout(&o).lines().take(3).map(|l| l.rsplit(' ').next().unwrap().to_string()).collect();
        scores.push((name, answers, prf));
    }
    let answers: Vec<&str> = scores.iter().map(|s| s.1.as_str()).collect();
    let o = treelink(&[&["exercise", "check", &ex][..], &answers].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    for (name, file, prf) in &scores {
        let row = table.lines().find(|l| l.starts_with(&format!("{name}\t"))).unwrap();
        let cells: Vec<&str> = row.split('\t').collect();
        assert_eq!(cells[1], file);
        assert_eq!(&cells[2..5], &prf[..], "{name}: check and eval differ\n{table}");
    }
    assert!(scores[0].2 != scores[1].2, "the two students differ: {scores:?}");
    // Answers with a node the tree lacks, and answers to another exercise.
    let bad = std::fs::read_to_string(&scores[0].1).unwrap().replacen("\"links\": \"", "\"links\": \"0-999 ", 1);
    let bad = write(&dir, "bad.json", &bad);
    let o = treelink(&["exercise", "check", &ex, &bad]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad.json:") && stderr(&o).contains("names target node 999"), "{}", stderr(&o));
    let other = dir.join("other.json").to_string_lossy().into_owned();
    assert!(treelink(&["exercise", "new", "--corpus", sample, "--pairs", "2", "-o", &other]).status.success());
    let o = treelink(&["exercise", "check", &other, &scores[0].1]);
    assert!(stderr(&o).contains("expected answers to the exercise"), "{}", stderr(&o));
    let o = treelink(&["exercise", "new", "--corpus", sample, "--pairs", "158", "-o", &other]);
    assert_eq!(stderr(&o).trim(), "treelink: pair 158 does not exist: the treebank has pairs 1 to 157");
}

/// `eval --errors` sorts every wrong and missed link into one kind, and
/// `--against` tests two systems' F difference on the same pairs.
#[test]
fn eval_sorts_the_errors_by_kind_and_tests_a_difference() {
    let dir = scratch("eval_errors");
    let test = sample_prefix(&dir, "test", 0..40);
    let o = treelink(&["baseline", "--input", &test]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pred = write(&dir, "pred.links", &stdout(&o));
    let o = treelink(&["eval", "--input", &test, "--pred", &pred, "--errors", "--examples", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let number = |prefix: &str| -> usize {
        let line = out.lines().find(|l| l.contains(prefix)).unwrap_or_else(|| panic!("{prefix}: {out}"));
        line.trim().split(' ').next().unwrap().parse().unwrap()
    };
    let counts = out.lines().find_map(|l| l.split_once("  (")).map(|(_, c)| c.to_string()).unwrap();
    let n: Vec<usize> = counts.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
    let (correct, predicted, gold) = (n[0], n[1], n[2]);
    assert_eq!(number("wrong links, by kind"), predicted - correct, "{out}");
    assert_eq!(number("missed links, by kind"), gold - correct, "{out}");
    // The kinds of each part add up to its total.
    let kinds = |from: &str, to: &str| -> usize {
        let part = &out[out.find(from).unwrap()..out.find(to).unwrap()];
        part.lines()
            .skip(1)
            .filter(|l| l.contains('%'))
            .map(|l| l.split_whitespace().next().unwrap().parse::<usize>().unwrap())
            .sum()
    };
    assert_eq!(kinds("wrong links", "missed links"), predicted - correct, "{out}");
    assert_eq!(kinds("missed links", "By label pair"), gold - correct, "{out}");
    assert!(out.contains("pair ") && out.contains("By span length"), "{out}");
    // Gold against the baseline: the gold is better, and the difference is significant.
    let gold_file = format!("{test}.gold");
    let o = treelink(&["eval", "--input", &test, "--pred", &gold_file, "--against", &pred]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("F = 100.00"), "{out}");
    let p: f64 = out.lines().find_map(|l| l.split_once("p = ")).unwrap().1.split(' ').next().unwrap().parse().unwrap();
    assert!(p < 0.01, "{out}");
}

/// `exercise new --student-copy`: the students' copy holds the pairs and
/// texts but nothing of the key (not one key link, nor their count); answers
/// made on the copy are checked against the file with the key, with the same
/// table as answers made on it, and checking against the copy is refused.
#[test]
fn a_student_copy_without_the_key_is_checked_against_the_keyed_file() {
    let dir = scratch("student-copy");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (ex, copy) = (path("ex.json"), path("ex.student.json"));
    let o = treelink(&["exercise", "new", "--corpus", sample, "--pairs", "3,1", "-o", &ex, "--student-copy", &copy]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("a student copy without the key; check its answers against"), "{}", stderr(&o));
    let copy_text = std::fs::read_to_string(&copy).unwrap();
    let keyed: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&ex).unwrap()).unwrap();
    // Not one key line of the keyed file, nor a "key" field, is in the copy.
    for pair in keyed["pairs"].as_array().unwrap() {
        let key = pair["key"].as_str().unwrap();
        assert!(!key.is_empty() && !copy_text.contains(key), "{key}");
        assert!(copy_text.contains(&serde_json::to_string(&pair["source"]).unwrap()), "the trees are there");
    }
    assert!(!copy_text.contains("\"key\""), "{copy_text}");
    // The same links answered on either file: the same table, against the keyed file.
    let links = write(&dir, "ana.links", "0-0 1-1\n0-0\n");
    let mut tables = Vec::new();
    for (on, name) in [(&ex, "on-keyed.json"), (&copy, "on-copy.json")] {
        let answers = path(name);
        let o = treelink(&["exercise", "answer", on, &links, "--student", "Ana", "-o", &answers]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = treelink(&["exercise", "check", &ex, &answers]);
        assert!(o.status.success(), "{}", stderr(&o));
        tables.push(stdout(&o).replace(name, "FILE"));
        let o = treelink(&["exercise", "check", &copy, &answers]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("is a student copy without the key"), "{}", stderr(&o));
    }
    assert_eq!(tables[0], tables[1]);
}

const NL_EN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/lingua-align-nl-en-125/");

fn gzip_file(from: &str, to: &Path) {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&std::fs::read(from).unwrap()).unwrap();
    std::fs::write(to, e.finish().unwrap()).unwrap();
}

/// Issue 24 item 1: `import tiger` and `export sta|tiger` exactly as scripts call them.
#[test]
fn import_tiger_then_export_sta_and_tiger_round_trip_with_the_original_treebanks() {
    let dir = scratch("interchange");
    let raw = format!("{NL_EN}raw/");
    let prefix = dir.join("nlen").to_string_lossy().into_owned();
    // The source treebank gzipped, the target and the alignment as they are.
    let nl = dir.join("nl.tiger.gz");
    gzip_file(&format!("{raw}ep-00-12-15.125.nl.tiger"), &nl);
    let o = treelink(&[
        "import",
        "tiger",
        "--reverse",
        "--source",
        &nl.to_string_lossy(),
        "--target",
        &format!("{raw}ep-00-12-15.125.en.tiger"),
        "--alignment",
        &format!("{raw}nl-en_125.xml"),
        "-o",
        &prefix,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Every change, with its pair and node ids.
    let listed = stdout(&o);
    assert!(listed.starts_with("125 sentence pairs imported"), "{listed}");
    assert!(
        listed
            .contains("\npair 1 (source): s10: s10_17 (ppart) was discontinuous: raised s10_25 (verb) to s10_14 (inf)"),
        "{listed}"
    );
    // Issue 39 item 2: a link on a node whose yield changed is not gold; how many, why, and where they are kept.
    assert!(
        listed.contains(
            "\npair 51: good link s101_37 – s74_553 set aside, not gold: the source node lost words when its \
             discontinuous constituent was made continuous (an export puts the link back)"
        ),
        "{listed}"
    );
    assert!(listed.contains("; 148 links on them set aside, not gold: such a node covers fewer words"), "{listed}");
    assert!(stderr(&o).contains(&format!("125 pairs, 3970 gold links, 148 links set aside in {prefix}.ids")));
    let ids = std::fs::read_to_string(format!("{prefix}.ids")).unwrap();
    assert!(ids.starts_with("# treelink ids 3\n# source\tnl\tUnknown\tep-00-12-15.125.nl.tiger\t"), "{ids}");
    no_gold_link_on_a_changed_yield(&prefix, &raw);
    let out = dir.join("out.xml").to_string_lossy().into_owned();
    let o = treelink(&["export", "sta", "--input", &prefix, "--links", &format!("{prefix}.gold"), "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (original, exported) =
        (std::fs::read_to_string(format!("{raw}nl-en_125.xml")).unwrap(), std::fs::read_to_string(&out).unwrap());
    assert_eq!(exported.matches("<align type=").count(), original.matches("<align type=").count());
    // The same links as the original alignment, read by roxmltree: the 148 set aside are back.
    assert_eq!(sta_link_set(&exported), sta_link_set(&original));
    assert_eq!(sta_link_set(&original).len(), 4118);
    assert!(exported.contains(r#"<treebank id="en" language="Unknown" filename="ep-00-12-15.125.en.tiger"/>"#));
    // export tiger finds the originals through PREFIX.ids; importing its files gives the same files back.
    let tiger = dir.join("tiger").to_string_lossy().into_owned();
    let o = treelink(&["export", "tiger", "--input", &prefix, "-o", &tiger]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("the original sentences as written"), "{}", stderr(&o));
    let back = dir.join("back").to_string_lossy().into_owned();
    let o = treelink(&[
        "import",
        "tiger",
        "--reverse",
        "--source",
        &format!("{tiger}/ep-00-12-15.125.nl.tiger"),
        "--target",
        &format!("{tiger}/ep-00-12-15.125.en.tiger"),
        "--alignment",
        &format!("{tiger}/nl-en_125.xml"),
        "-o",
        &back,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for ext in ["src", "trg", "gold"] {
        assert_eq!(
            std::fs::read(format!("{back}.{ext}")).unwrap(),
            std::fs::read(format!("{prefix}.{ext}")).unwrap(),
            "{ext}"
        );
    }
    // --bracketed-data makes ../shared/data's files.
    let data = dir.join("data").to_string_lossy().into_owned();
    let o = treelink(&[
        "import",
        "tiger",
        "--reverse",
        "--source",
        &format!("{raw}ep-00-12-15.125.nl.tiger"),
        "--target",
        &format!("{raw}ep-00-12-15.125.en.tiger"),
        "--alignment",
        &format!("{raw}nl-en_125.xml"),
        "-o",
        &data,
        "--bracketed-data",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for ext in ["src", "trg", "gold"] {
        assert_eq!(
            std::fs::read(format!("{data}.{ext}")).unwrap(),
            std::fs::read(format!("{NL_EN}bracketed/all.{ext}")).unwrap(),
            "{ext}"
        );
    }
    // An older .ids (sentence ids only) needs the original treebanks.
    std::fs::copy(format!("{NL_EN}bracketed/all.ids"), format!("{data}.ids")).unwrap();
    let e = failure(&treelink(&["export", "sta", "--input", &data, "--links", &format!("{data}.gold"), "-o", &out]));
    assert!(e.contains("it names the sentences only (an older .ids file)"), "{e}");
    let o = treelink(&[
        "export",
        "sta",
        "--input",
        &data,
        "--links",
        &format!("{data}.gold"),
        "-o",
        &out,
        "--source",
        &format!("{raw}ep-00-12-15.125.nl.tiger"),
        "--target",
        &format!("{raw}ep-00-12-15.125.en.tiger"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap().matches("<align type=").count(), 1380);
}

/// An STA file's node links as roxmltree reads them: (nl node, en node, type).
fn sta_link_set(text: &str) -> std::collections::BTreeSet<(String, String, String)> {
    let doc = roxmltree::Document::parse(text).unwrap();
    let node = |a: roxmltree::Node<'_, '_>, tb: &str| {
        let n = a.children().find(|n| n.has_tag_name("node") && n.attribute("treebank_id") == Some(tb)).unwrap();
        n.attribute("node_id").unwrap().to_string()
    };
    doc.descendants()
        .filter(|a| a.has_tag_name("align"))
        .map(|a| (node(a, "nl"), node(a, "en"), a.attribute("type").unwrap().to_string()))
        .collect()
}

/// No gold link of PREFIX (nl-en imported with --reverse) names a node whose yield changed
/// when its constituent was made continuous; and the alignment has 148 links on such nodes.
fn no_gold_link_on_a_changed_yield(prefix: &str, raw: &str) {
    use std::collections::HashSet;
    let changed = |file: &str| -> HashSet<String> {
        let text = std::fs::read_to_string(format!("{raw}{file}")).unwrap();
        let corpus = treelink::tiger::parse_tiger(&text, file).unwrap();
        let mut out = HashSet::new();
        for s in &corpus.sentences {
            let c = s.to_tree_keeping_tops(file).unwrap();
            out.extend(c.yield_changed.iter().map(|n| c.node_ids[n.index()].clone()));
        }
        out
    };
    let (nl, en) = (changed("ep-00-12-15.125.nl.tiger"), changed("ep-00-12-15.125.en.tiger"));
    let ids = std::fs::read_to_string(format!("{prefix}.ids")).unwrap();
    let gold = std::fs::read_to_string(format!("{prefix}.gold")).unwrap();
    let (mut links, mut set_aside) = (0, 0);
    for (line, pair) in ids.lines().skip(4).zip(gold.lines()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (src, trg): (Vec<&str>, Vec<&str>) = (fields[2].split(' ').collect(), fields[3].split(' ').collect());
        for link in pair.split_whitespace() {
            let (i, j) = link.trim_end_matches('?').split_once('-').unwrap();
            let (i, j): (usize, usize) = (i.parse().unwrap(), j.parse().unwrap());
            assert!(!nl.contains(src[i]) && !en.contains(trg[j]), "gold link {link} names a changed yield");
            links += 1;
        }
        for l in fields[4].split(' ').filter(|l| !l.is_empty()) {
            let (s, t) = l.trim_end_matches('?').split_once('>').unwrap();
            assert!(nl.contains(s) || en.contains(t), "{l} set aside on unchanged nodes");
            set_aside += 1;
        }
    }
    assert_eq!((links, set_aside), (3970, 148));
}

/// The STA's links between two terminals, counted from the XML itself: (all, fuzzy). Node
/// ids are looked up in their own treebank (the two files share sentence ids).
fn sta_word_links(raw: &str) -> (usize, usize) {
    let terminals = |file: &str| -> std::collections::HashSet<String> {
        let text = std::fs::read_to_string(format!("{raw}{file}")).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        doc.descendants().filter(|n| n.has_tag_name("t")).map(|n| n.attribute("id").unwrap().to_string()).collect()
    };
    let (nl, en) = (terminals("ep-00-12-15.125.nl.tiger"), terminals("ep-00-12-15.125.en.tiger"));
    let sta = std::fs::read_to_string(format!("{raw}nl-en_125.xml")).unwrap();
    let doc = roxmltree::Document::parse(&sta).unwrap();
    let words: Vec<_> = doc
        .descendants()
        .filter(|a| a.has_tag_name("align"))
        .filter(|a| {
            a.children().filter(|n| n.has_tag_name("node")).all(|n| {
                let id = n.attribute("node_id").unwrap();
                match n.attribute("treebank_id") {
                    Some("nl") => nl.contains(id),
                    Some("en") => en.contains(id),
                    other => panic!("treebank {other:?}"),
                }
            })
        })
        .collect();
    (words.len(), words.iter().filter(|a| a.attribute("type") == Some("fuzzy")).count())
}

/// The lines `range` of each of PREFIX's files that have a line per pair (`.words` if there), as NAME in `dir`.
fn first_pairs(prefix: &str, dir: &Path, name: &str, range: std::ops::Range<usize>) -> String {
    for ext in ["src", "trg", "gold", "words"] {
        let Ok(text) = std::fs::read_to_string(format!("{prefix}.{ext}")) else { continue };
        let lines: Vec<&str> = text.lines().collect();
        write(dir, &format!("{name}.{ext}"), &(lines[range.clone()].join("\n") + "\n"));
    }
    dir.join(name).to_string_lossy().into_owned()
}

/// Issue 39 item 1: the import writes the STA's word links as PREFIX.words; train and align
/// read a set's own word links (held out too), say so, and --no-words turns them off.
#[test]
fn import_tiger_writes_the_word_links_and_train_and_align_read_them() {
    let dir = scratch("words");
    let raw = format!("{NL_EN}raw/");
    let prefix = dir.join("nlen").to_string_lossy().into_owned();
    let (nl, en, sta) = (
        format!("{raw}ep-00-12-15.125.nl.tiger"),
        format!("{raw}ep-00-12-15.125.en.tiger"),
        format!("{raw}nl-en_125.xml"),
    );
    // With phrase links only as gold: the word links are written all the same.
    let args = ["import", "tiger", "--reverse", "--source", &nl, "--target", &en, "--alignment", &sta, "-o", &prefix];
    let o = succeeded(&[&args[..], &["--bracketed-data"]].concat());
    assert!(stderr(&o).contains(".words: 125 pairs, 1380 gold links, 2327 word links"), "{}", stderr(&o));
    let words = std::fs::read_to_string(format!("{prefix}.words")).unwrap();
    assert_eq!(words.lines().count(), 125);
    let links: Vec<&str> = words.split_whitespace().collect();
    assert_eq!((links.len(), links.iter().filter(|l| l.ends_with('?')).count()), sta_word_links(&raw));
    assert_eq!(links.len(), 2327);
    assert!(
        words.starts_with("0-0 1-1 2-1 3-1 4-2 11-5? 12-5? 13-7? 8-8? 9-8 7-10 10-11 5-13 6-14 14-15\n"),
        "{words}"
    );

    let (train, test) = (first_pairs(&prefix, &dir, "train", 0..60), first_pairs(&prefix, &dir, "test", 100..125));
    let (model, bare) = (dir.join("m.json"), dir.join("bare.json"));
    let (model, bare) = (model.to_string_lossy(), bare.to_string_lossy());
    let o = succeeded(&["train", "--train", &train, "--kernel", "plain", "-o", &model]);
    assert!(stderr(&o).contains(&format!("word links of {train} from {train}.words (the set's own")), "{}", stderr(&o));
    let o = succeeded(&["train", "--train", &train, "--kernel", "plain", "--no-words", "-o", &bare]);
    assert!(stderr(&o).contains(&format!("{train}.words not read (--no-words)")), "{}", stderr(&o));
    // φ5–φ7 count given links as 1 each, and the model says so; the paper's weight is left out of the file.
    let (weighed, paper) = (std::fs::read_to_string(&*model).unwrap(), std::fs::read_to_string(&*bare).unwrap());
    assert!(weighed.contains(r#""link_weight":"unit""#) && !paper.contains("link_weight"), "{paper}");
    // Given word links win over the set's own.
    let given = write(&dir, "given.align", &"0-0\n".repeat(60));
    let o = succeeded(&["train", "--train", &train, "--kernel", "plain", "--word-align", &given, "-o", &bare]);
    assert!(stderr(&o).contains("train.words not read: the word links --word-align gives win"), "{}", stderr(&o));

    let align = |extra: &[&str]| {
        let o = succeeded(&[&["align", "--model", &model, "--input", &test, "--held-out"], extra].concat());
        (stdout(&o), stderr(&o))
    };
    let ((with, said), (without, _)) = (align(&[]), align(&["--no-words"]));
    assert!(said.contains(&format!("word links of {test} from {test}.words")), "{said}");
    // `train` trains for held-out input; a model of an older `train` (its lexicon not so marked) is warned of.
    assert!(!said.contains("was trained for input its lexicon saw"), "{said}");
    let older = dir.join("older.json").to_string_lossy().into_owned();
    let text = std::fs::read_to_string(&*model).unwrap();
    assert!(text.contains(r#","held_out":true"#));
    std::fs::write(&older, text.replace(r#","held_out":true"#, "")).unwrap();
    let o = succeeded(&["align", "--model", &older, "--input", &test, "--held-out"]);
    assert!(stderr(&o).contains(&format!("warning: {older} was trained for input its lexicon saw")), "{}", stderr(&o));
    let unlinked = format!("warning: {model} was trained on given word links and the input has none");
    assert!(!said.contains(&unlinked) && align(&["--no-words"]).1.contains(&unlinked), "{said}");
    assert_eq!((with.lines().count(), without.lines().count()), (25, 25));
    assert_ne!(with, without);

    // Imported again at the prefix from an alignment that links no words:
    // the earlier import's word links go, not read as this set's.
    let text = std::fs::read_to_string(&sta).unwrap();
    let terminal = |l: &str| {
        l.split("node_id=\"")
            .nth(1)
            .and_then(|id| id.split('_').nth(1))
            .is_some_and(|n| n.trim_end_matches(|c: char| !c.is_ascii_digit()).parse::<u32>().is_ok_and(|n| n < 500))
    };
    let (mut kept, mut block) = (String::new(), Vec::new());
    for line in text.lines() {
        if line.starts_with("<align ") || !block.is_empty() {
            block.push(line);
            if line.starts_with("</align>") {
                if !block.iter().filter(|l| l.starts_with("<node ")).all(|l| terminal(l)) {
                    block.iter().for_each(|l| kept.push_str(&format!("{l}\n")));
                }
                block.clear();
            }
        } else {
            kept.push_str(&format!("{line}\n"));
        }
    }
    let phrases = write(&dir, "phrases.xml", &kept);
    let args =
        ["import", "tiger", "--reverse", "--source", &nl, "--target", &en, "--alignment", &phrases, "-o", &prefix];
    let o = succeeded(&args);
    assert!(stderr(&o).contains(&format!("removed {prefix}.words, an earlier import's")), "{}", stderr(&o));
    assert!(!std::path::Path::new(&format!("{prefix}.words")).exists());
}

/// Issue 24 item 3: no blank line shifts the pairs; a count mismatch names the file and line.
#[test]
fn a_blank_line_is_refused_where_it_is_and_no_output_line_shifts() {
    let dir = scratch("blank");
    let prefix = sample_prefix(&dir, "c", 0..5);
    let src = std::fs::read_to_string(format!("{prefix}.src")).unwrap();
    let trg = std::fs::read_to_string(format!("{prefix}.trg")).unwrap();
    let with_blank = |text: &str| {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(3, "");
        lines.join("\n") + "\n"
    };
    std::fs::write(format!("{prefix}.src"), with_blank(&src)).unwrap();
    std::fs::write(format!("{prefix}.trg"), with_blank(&trg)).unwrap();
    let e = failure(&treelink(&["baseline", "--input", &prefix]));
    assert!(
        e.starts_with(&format!("treelink: {prefix}.src:4:1: expected a tree on every line, found a blank line")),
        "{e}"
    );
    std::fs::write(format!("{prefix}.src"), &src).unwrap();
    let e = failure(&treelink(&["baseline", "--input", &prefix]));
    assert!(e.starts_with(&format!("treelink: {prefix}.trg:4:1: expected a tree on every line")), "{e}");
    // One tree missing at the end: the file and the line where the two part.
    let short: String = trg.lines().take(4).map(|l| format!("{l}\n")).collect();
    std::fs::write(format!("{prefix}.trg"), short).unwrap();
    let e = failure(&treelink(&["baseline", "--input", &prefix]));
    assert_eq!(e, format!("treelink: {prefix}.trg:5:1: expected 5 trees (one per source tree), found 4"));
}

/// Issue 24 item 4: tables checked as the page checks them; GIZA++'s files read.
#[test]
fn tables_the_wrong_way_round_are_warned_and_giza_files_are_read() {
    let dir = scratch("tables");
    let prefix = format!("{NL_EN}bracketed/all");
    let moses = format!("{NL_EN}raw/moses/");
    let o = treelink(&[
        "baseline",
        "--input",
        &prefix,
        "--lex-s2t",
        &format!("{moses}lex.0-0.f2e"),
        "--lex-t2s",
        &format!("{moses}lex.0-0.e2f"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("lex.0-0.f2e looks given the wrong way round"), "{}", stderr(&o));
    let o = treelink(&[
        "baseline",
        "--input",
        &prefix,
        "--lex-s2t",
        &format!("{moses}lex.0-0.e2f"),
        "--lex-t2s",
        &format!("{moses}lex.0-0.f2e"),
    ]);
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // A GIZA++ t-table of ids: refused in words alone, read with its vocabularies.
    let (s, t) = (write(&dir, "nl.vcb", "2 ik 5\n3 heb 3\n"), write(&dir, "en.vcb", "2 i 5\n3 have 2\n"));
    let s2t = write(&dir, "s2t.t3.final", "2 2 0.9\n3 3 0.8\n0 3 0.2\n");
    let t2s = write(&dir, "t2s.t3.final", "2 2 0.9\n3 3 0.7\n");
    let e = failure(&treelink(&["baseline", "--input", &prefix, "--lex-s2t", &s2t, "--lex-t2s", &t2s]));
    assert!(e.contains("s2t.t3.final:1:1: a GIZA++ t-table of word ids"), "{e}");
    let o = treelink(&["baseline", "--input", &prefix, "--lex-s2t", &s2t, "--lex-t2s", &t2s, "--vcb", &s, &t]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The vocabularies in the other order: told apart by the corpus's words, the same links.
    let swapped = treelink(&["baseline", "--input", &prefix, "--lex-s2t", &s2t, "--lex-t2s", &t2s, "--vcb", &t, &s]);
    assert!(swapped.status.success(), "{}", stderr(&swapped));
    assert_eq!(stdout(&swapped), stdout(&o));
    assert!(stderr(&swapped).contains(&format!("source {s}: 2 words")), "{}", stderr(&swapped));
    assert!(stderr(&o).contains("s2t.t3.final covers less than 50% of the source words"), "{}", stderr(&o));
    // mt-train writes its extracted phrase pairs as a Moses phrase table.
    let pt = dir.join("phrase-table").to_string_lossy().into_owned();
    let model = dir.join("m.json").to_string_lossy().into_owned();
    let train = sample_prefix(&dir, "t", 0..20);
    let o = treelink(&[
        "mt-train",
        "--train",
        &train,
        "--system",
        "phrase",
        "--extract",
        "dirc",
        "-o",
        &model,
        "--export-phrase-table",
        &pt,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = std::fs::read_to_string(&pt).unwrap();
    let first = table.lines().next().unwrap();
    let fields: Vec<&str> = first.split(" ||| ").collect();
    assert_eq!(fields.len(), 5, "{first}");
    assert_eq!(fields[2].split(' ').count(), 4, "four scores: {first}");
    assert_eq!(fields[4].split(' ').count(), 3, "three counts: {first}");
    // Issue 40 item 5: the model and the log say how it was made.
    let record = |file: &str| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(file).unwrap()).unwrap()["training"].clone()
    };
    let made_by = format!("treelink {}", env!("CARGO_PKG_VERSION"));
    let r = record(&model);
    assert_eq!(
        (r["made_by"].as_str(), r["word_model"].as_str(), &r["tuner"]),
        (Some(made_by.as_str()), Some("fast-align"), &serde_json::Value::Null)
    );
    assert!(stderr(&o).contains(", word model fast-align, 20 pairs, untuned default weights,"), "{}", stderr(&o));
    let dev = sample_prefix(&dir, "d", 20..25);
    let o = treelink(&[
        "mt-train",
        "--train",
        &train,
        "--dev",
        &dev,
        "--system",
        "phrase",
        "--extract",
        "word",
        "--word-model",
        "hmm",
        "--tuner",
        "mert",
        "--tune-iterations",
        "1",
        "--nbest",
        "5",
        "--preset",
        "paper",
        "-o",
        &model,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = record(&model);
    assert_eq!(
        (r["tuner"].as_str(), r["preset"].as_str(), r["made_by"].as_str()),
        (Some("mert"), Some("paper"), Some(made_by.as_str()))
    );
    // The paper's preset aligns words with its own word model, whatever --word-model says.
    assert_eq!(r["word_model"].as_str(), Some("fast-align"));
    assert!(
        stderr(&o).contains("word model fast-align, preset paper, 20 pairs, tuned by mert to dev BLEU"),
        "{}",
        stderr(&o)
    );
}

/// Issue 40 items 2 and 3: a command writes its whole output or none that
/// could be taken for a result, and an empty input is refused by name.
#[test]
fn no_half_output_and_no_silent_success_on_empty_input() {
    let dir = scratch("whole-or-none");
    let prefix = sample_prefix(&dir, "c", 0..12);
    let src = std::fs::read_to_string(format!("{prefix}.src")).unwrap();
    let mut lines: Vec<&str> = src.lines().collect();
    lines[8] = "(S (X y)))";
    let broken = write(&dir, "broken.src", &(lines.join("\n") + "\n"));
    std::fs::copy(format!("{prefix}.trg"), dir.join("broken.trg")).unwrap();
    let broken_prefix = dir.join("broken").to_string_lossy().into_owned();
    // Streamed to stdout: the error, and not one line before it.
    let o = treelink(&["baseline", "--input", &broken_prefix, "--threads", "1"]);
    assert!(failure(&o).starts_with(&format!("treelink: {broken}:9:")), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = treelink(&["kernel", "--space", "sst", &broken, &format!("{prefix}.trg")]);
    assert!(failure(&o).starts_with(&format!("treelink: {broken}:9:")), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let model = write(&dir, "tiny.json", &tiny_mt_model("[0,0,0,0,0,0,0,0,0]"));
    let o = treelink(&["translate", "--model", &model, "--input", &broken]);
    assert!(failure(&o).starts_with(&format!("treelink: {broken}:9:")), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    // A file written by a failing command keeps what was there: the lexicon's
    // two tables are written together or not at all.
    let tables = dir.join("lex").to_string_lossy().into_owned();
    let o = treelink(&["lexicon", "--input", &broken_prefix, "-o", &tables]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!Path::new(&format!("{tables}.s2t")).exists() && !Path::new(&format!("{tables}.t2s")).exists());
    // Empty inputs: refused with the file named, whatever reads them.
    let empty = dir.join("empty").to_string_lossy().into_owned();
    write(&dir, "empty.src", "");
    write(&dir, "empty.trg", "\n");
    write(&dir, "empty.gold", "");
    let expected = format!("treelink: {empty}.src:1:1: expected at least one tree, found none");
    assert_eq!(failure(&treelink(&["baseline", "--input", &empty])), expected);
    assert_eq!(failure(&treelink(&["translate", "--model", &model, "--input", &format!("{empty}.src")])), expected);
    assert_eq!(
        failure(&treelink(&["kernel", "--space", "sst", &format!("{empty}.src"), &format!("{empty}.src")])),
        expected
    );
    assert_eq!(
        failure(&treelink(&["train", "--train", &empty, "-o", &dir.join("m.json").to_string_lossy()])),
        expected
    );
    assert!(!dir.join("m.json").exists());
    let o = treelink(&["eval", "--input", &empty, "--pred", &format!("{empty}.gold")]);
    assert_eq!(failure(&o), expected);
    // Sentences: BLEU and an LM of none are refused, not printed as 0.
    let none = write(&dir, "none.txt", "\n");
    let expected = format!("treelink: {none}:1:1: expected at least one sentence, found none");
    assert_eq!(failure(&treelink(&["bleu", "--ref", &none, "--hyp", &none])), expected);
    assert_eq!(failure(&treelink(&["lm", "--train", &none, "-o", &dir.join("x.arpa").to_string_lossy()])), expected);
    // The translate output is whole on a good input: one line per tree.
    let o = treelink(&["translate", "--model", &model, "--input", &format!("{prefix}.src")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 12);
}

/// `treelink ARGS`, which must succeed.
fn succeeded(args: &[&str]) -> Output {
    let out = treelink(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

// `treelink draw`: the SVG of one pair holds its words and one path per
// link, marked against gold; a pair out of range is refused, naming the
// file, and leaves no file behind.

/// Two pairs; pair 2 has gold links 0-0 (good) and 1-1 (fuzzy).
fn treebank(dir: &Path) -> String {
    write(dir, "t.src", "(S (NP (NN a)) (VP (VV b)))\n(S (NP (ART den) (NN Hund)) (VVFIN sieht))\n");
    write(dir, "t.trg", "(S (NP (NN x)) (VP (VV y)))\n(S (NP (DT el) (NN perro)) (VB ve))\n");
    write(dir, "t.gold", "0-0\n0-0 1-1?\n");
    dir.join("t").to_string_lossy().into_owned()
}

fn links_drawn(svg: &str) -> Vec<(String, String)> {
    // `<path class="link correct" data-link="0-0" ...>`: the legend's paths have no data-link.
    svg.split("<path class=\"")
        .skip(1)
        .filter_map(|p| {
            let class = p.split('"').next()?.to_string();
            let link = p.split("data-link=\"").nth(1)?.split('"').next()?.to_string();
            Some((class, link))
        })
        .collect()
}

#[test]
fn draws_a_pairs_words_and_its_gold_links() {
    let dir = scratch("draw-gold");
    let prefix = treebank(&dir);
    let out = dir.join("pair.svg").to_string_lossy().into_owned();
    let o = treelink(&["draw", &prefix, "--pair", "2", "-o", &out]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("wrote {out}: pair 2 of 2, 3 + 3 words, 2 gold links\n"));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
    for word in ["den", "Hund", "sieht", "el", "perro", "ve"] {
        assert!(svg.contains(&format!(">{word}<")), "{word} missing");
    }
    assert_eq!(
        links_drawn(&svg),
        vec![("link gold".to_string(), "0-0".to_string()), ("link gold fuzzy".to_string(), "1-1".to_string())]
    );
}

#[test]
fn predicted_links_are_marked_correct_wrong_or_missed() {
    let dir = scratch("draw-links");
    let prefix = treebank(&dir);
    // Pair 2: 0-0 correct, 3-4 (NN Hund – VB ve) wrong, the fuzzy 1-1 missed.
    let links = write(&dir, "pred", "0-0\n0-0 3-4\n");
    let out = dir.join("pair.svg").to_string_lossy().into_owned();
    let o = treelink(&["draw", &prefix, "--pair", "2", "--links", &links, "-o", &out]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).ends_with("1 correct, 1 wrong, 1 missed\n"));
    let svg = std::fs::read_to_string(&out).unwrap();
    // Missed first, then wrong under correct.
    assert_eq!(
        links_drawn(&svg),
        vec![
            ("link missed".to_string(), "1-1".to_string()),
            ("link wrong".to_string(), "3-4".to_string()),
            ("link correct".to_string(), "0-0".to_string())
        ]
    );
}

#[test]
fn a_pair_out_of_range_is_refused_naming_the_file_and_writes_nothing() {
    let dir = scratch("draw-range");
    let prefix = treebank(&dir);
    let out = dir.join("pair.svg");
    for n in ["0", "3"] {
        let o = treelink(&["draw", &prefix, "--pair", n, "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!("treelink: {prefix}.src: no pair {n}: the file holds 2 pairs, numbered from 1\n")
        );
        assert!(!out.exists());
    }
    // A links file with a node the pair lacks is located, and nothing is written.
    let bad = write(&dir, "bad", "0-0\n0-9\n");
    let o = treelink(&["draw", &prefix, "--pair", "2", "--links", &bad, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!("{bad}:2:")),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists());
    // Nor does a directory that is not there leave a temporary file anywhere.
    let o = treelink(&["draw", &prefix, "--pair", "1", "-o", dir.join("no/such/dir.svg").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 4, "{left:?}");
}

// `treelink simulate-annotation` as a user runs it: the final line's
// format, and its static cost S equal to the wrong plus missed links of
// `treelink align` with the same first model, as `treelink eval` counts them.

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
    let train = sample_prefix(&dir, "train", 0..40);
    let pool = sample_prefix(&dir, "pool", 40..50);
    let kernel = ["--kernel", "plain", "--threads", "1"];
    let run = |extra: &[&str]| {
        let mut args = vec!["simulate-annotation", "--train", &train, "--pool", &pool, "--batch", "5"];
        args.extend_from_slice(&kernel);
        args.extend_from_slice(extra);
        stdout(&succeeded(&args))
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
    succeeded(&args);
    let pred = stdout(&succeeded(&["align", "--model", &model, "--input", &pool, "--threads", "1"]));
    let pred_file = dir.join("pool.pred");
    std::fs::write(&pred_file, pred).unwrap();
    let eval = stdout(&succeeded(&["eval", "--input", &pool, "--pred", &pred_file.to_string_lossy()]));
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
