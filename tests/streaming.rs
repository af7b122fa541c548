//! Threads and streaming change no output: the `treelink` binary's
//! `align`, `baseline`, `translate`, `kernel` and `btk` print the same bytes
//! with `--threads 1` and with more, and what they print pair by pair is
//! what the engine gives for the corpus held whole. (Their speed is
//! `treelink bench`'s and docs/speed.md's, never a test's.)
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use treelink::align::baseline::BaselineOptions;
use treelink::align::lexical::{InputLexicon, InputSentences};
use treelink::app::alignment::{self, align_input};
use treelink::app::files::read_alignment_model;
use treelink::app::stream::{align_pairs, PairAligner};
use treelink::corpus::{Corpus, Named};
use treelink::io::links::format_link_line;
use treelink::parallel::Threads;
use treelink::progress::Quiet;

fn treelink(args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_treelink")).args(args).output().expect("the binary runs");
    assert!(o.status.success(), "treelink {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// Stdout of `treelink args` with `--threads 1`, after checking that each of
/// `more` threads prints the same bytes.
fn same_with_any_threads(args: &[&str], more: &[&str]) -> String {
    let one = treelink(&[args, &["--threads", "1"]].concat()).stdout;
    for n in more {
        let o = treelink(&[args, &["--threads", n]].concat()).stdout;
        assert!(o == one, "treelink {args:?}: --threads {n} differs from --threads 1");
    }
    String::from_utf8(one).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

/// Pairs `range` of the built-in sample (SQUOIA dev) as PREFIX files in `dir`.
fn sample_prefix(dir: &Path, name: &str, range: std::ops::Range<usize>) -> String {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev");
    for ext in ["src", "trg", "gold"] {
        let text = std::fs::read_to_string(format!("{sample}.{ext}")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        std::fs::write(dir.join(format!("{name}.{ext}")), lines[range.clone()].join("\n") + "\n").unwrap();
    }
    path(dir, name)
}

fn lines_of(links: &[Vec<treelink::io::links::Link>]) -> String {
    links.iter().map(|l| format_link_line(l) + "\n").collect()
}

/// Align, with the model's in-engine lexicon (its input sentences read
/// first) and with tables from `treelink lexicon` (one pass); the baseline
/// both ways. Every output is the same on 1, 2 and 3 threads (chunks of 64
/// and 96 pairs: the 110 pairs make two), and equal to the engine's
/// alignment of the corpus held whole.
#[test]
fn align_and_baseline_print_the_same_bytes_on_any_number_of_threads_as_the_corpus_held_whole() {
    let dir = scratch("streaming-align");
    let train = sample_prefix(&dir, "train", 0..60);
    let input = sample_prefix(&dir, "all", 40..150);
    let model = path(&dir, "model.json");
    let lex = path(&dir, "lex");
    treelink(&[
        "train",
        "--train",
        &train,
        "--kernel",
        "plain+dbtk-root+ibtk-sst",
        "--max-examples",
        "500",
        "-o",
        &model,
    ]);
    treelink(&["lexicon", "--input", &input, "-o", &lex]);
    let (s2t, t2s) = (format!("{lex}.s2t"), format!("{lex}.t2s"));

    let corpus = Corpus::read_prefix(&input, false).unwrap();
    let m = read_alignment_model(&std::fs::read_to_string(&model).unwrap(), &model).unwrap();
    let read = |f: &str| std::fs::read_to_string(f).unwrap();
    let tables = alignment::tables_lexicon(
        Named { name: &s2t, text: &read(&s2t) },
        Named { name: &t2s, text: &read(&t2s) },
        None,
        &corpus,
    )
    .unwrap();

    // The model's in-engine lexicon, re-trained with the input's sentences.
    let streamed = same_with_any_threads(&["align", "--model", &model, "--input", &input], &["2"]);
    let held = align_input(&m, &corpus, None, InputSentences::Train, &mut Quiet).unwrap();
    assert_eq!(streamed, lines_of(&held.links()));
    assert!(streamed.lines().filter(|l| !l.is_empty()).count() > 80, "{streamed}");
    // Held out: its lexicon needs no input sentence.
    let streamed = same_with_any_threads(&["align", "--model", &model, "--input", &input, "--held-out"], &["2"]);
    let held = align_input(&m, &corpus, None, InputSentences::HeldOut, &mut Quiet).unwrap();
    assert_eq!(streamed, lines_of(&held.links()));

    // Tables instead of the model's lexicon: one pass.
    let with_tables = ["align", "--model", &model, "--input", &input, "--lex-s2t", &s2t, "--lex-t2s", &t2s];
    let streamed = same_with_any_threads(&with_tables, &["2", "3"]);
    let input_lexicon = InputLexicon::tables(tables.clone());
    let aligner = PairAligner::new(&m, &input_lexicon).unwrap();
    let held = align_pairs(&aligner, &corpus.pairs, 0, None, Threads::ONE, &mut Quiet).unwrap();
    let links: Vec<_> = held.iter().map(|a| treelink::align::explain::predicted_links(&a.search)).collect();
    assert_eq!(streamed, lines_of(&links));

    // The baseline: its in-engine lexicon on the input's sentences, then given tables.
    let streamed = same_with_any_threads(&["baseline", "--input", &input], &["2"]);
    let lexicon = alignment::baseline_lexicon(&corpus, None, Vec::new(), Default::default(), &mut Quiet).unwrap();
    let held = alignment::baseline(&corpus, &lexicon, &BaselineOptions::default(), &mut Quiet).unwrap();
    assert_eq!(streamed, lines_of(&held));
    let streamed =
        same_with_any_threads(&["baseline", "--input", &input, "--lex-s2t", &s2t, "--lex-t2s", &t2s], &["3"]);
    let held = alignment::baseline(&corpus, &tables, &BaselineOptions::default(), &mut Quiet).unwrap();
    assert_eq!(streamed, lines_of(&held));
}

/// `train` featurises the candidates and aligns the dev pairs on threads:
/// the model file is the same.
#[test]
fn train_writes_the_same_model_on_any_number_of_threads() {
    let dir = scratch("streaming-train");
    let train = sample_prefix(&dir, "train", 0..40);
    let dev = sample_prefix(&dir, "dev", 40..60);
    let model = |threads: &str| {
        let file = path(&dir, &format!("model-{threads}.json"));
        let args = ["train", "--train", &train, "--dev", &dev, "--kernel", "plain+dbtk-root", "--max-examples", "300"];
        treelink(&[&args[..], &["--threads", threads, "-o", &file]].concat());
        std::fs::read_to_string(file).unwrap()
    };
    let one = model("1");
    assert!(one.contains("\"dev_f\""), "trained with dev");
    assert_eq!(model("2"), one);
}

/// `mt-train` extracts phrase and RM pairs and decodes the dev sentences
/// for MERT on threads: the model files are the same.
#[test]
fn mt_train_writes_the_same_model_on_any_number_of_threads() {
    let dir = scratch("streaming-mt-train");
    let train = sample_prefix(&dir, "train", 0..60);
    let dev = sample_prefix(&dir, "dev", 60..75);
    for system in ["phrase", "ms"] {
        let model = |threads: &str| {
            let file = path(&dir, &format!("{system}-{threads}.json"));
            let args = ["mt-train", "--train", &train, "--dev", &dev, "--system", system, "--tune-iterations", "2"];
            // One configuration (no choice on dev): the threads are what is tested.
            let one = ["--ms-reading", "paper", "--word-model", "fast-align", "--extract", "word"];
            treelink(&[&args[..], &one, &["--nbest", "20", "--threads", threads, "-o", &file]].concat());
            // All but the training's time.
            let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            json["training"]["seconds"] = serde_json::Value::Null;
            json
        };
        let one = model("1");
        assert!(one["training"]["dev_bleu"].as_f64().is_some_and(|b| b > 0.0), "{system}: tuned on dev");
        assert!(model("3") == one, "{system}: 3 threads give another model than 1");
    }
}

/// `treelink lexicon` writes the tables `--lex-s2t`/`--lex-t2s` read:
/// `target source p(t|s)` and `source target p(s|t)`, each a distribution
/// over its first word given the second, read back to the lexicon trained.
#[test]
fn the_lexicon_command_writes_moses_tables_that_read_back_to_its_lexicon() {
    let dir = scratch("streaming-lexicon");
    let input = sample_prefix(&dir, "all", 0..157);
    let lex = path(&dir, "lex");
    treelink(&["lexicon", "--input", &input, "-o", &lex]);
    let corpus = Corpus::read_prefix(&input, false).unwrap();
    let sentences = treelink::lexicon::bitext_of(&corpus);
    let (s2t, t2s) = alignment::lexicon_tables(sentences.clone(), Default::default(), &mut Quiet).unwrap();
    assert_eq!(std::fs::read_to_string(format!("{lex}.s2t")).unwrap(), s2t);
    assert_eq!(std::fs::read_to_string(format!("{lex}.t2s")).unwrap(), t2s);
    let read = treelink::lexicon::read_moses_lex;
    let (s2t, t2s) = (read(&s2t, "s2t").unwrap(), read(&t2s, "t2s").unwrap());
    assert!(s2t.len() > 1000 && s2t.entries().all(|(_, _, p)| p > 0.0 && p <= 1.0));
    // The same lexicon as trained in the engine, entry for entry.
    let options = treelink::align::lexical::alignment_lexicon_options();
    let (trained, _) = treelink::lexicon::train_observed(&sentences, &options, "x", &mut Quiet).unwrap();
    assert_eq!((s2t, t2s), (trained.s2t, trained.t2s));
}

/// `kernel`, `btk` and `translate` print the same bytes on any number of threads.
#[test]
fn kernels_and_translations_print_the_same_bytes_on_any_number_of_threads() {
    let dir = scratch("streaming-kernels");
    let all = sample_prefix(&dir, "all", 0..157);
    let rest = sample_prefix(&dir, "rest", 1..157);
    let (s1, t1) = (format!("{all}.src"), format!("{all}.trg"));
    // Line k pairs tree k with tree k + 1 (the last with itself).
    let shifted = |ext: &str| {
        let text = std::fs::read_to_string(format!("{rest}.{ext}")).unwrap();
        let last = std::fs::read_to_string(format!("{all}.{ext}")).unwrap().lines().last().unwrap().to_string();
        let file = path(&dir, &format!("shifted.{ext}"));
        std::fs::write(&file, text + &last + "\n").unwrap();
        file
    };
    let (s2, t2) = (shifted("src"), shifted("trg"));
    let k = same_with_any_threads(&["kernel", "--space", "sst", "--normalize", &s1, &s2], &["2", "3"]);
    assert_eq!(k.lines().count(), 157);
    assert!(k.lines().all(|v| v.parse::<f64>().is_ok_and(|v| (0.0..=1.0).contains(&v))), "{k}");
    same_with_any_threads(&["kernel", "--space", "rdsst", &s1, &s1], &["3"]);
    let b =
        same_with_any_threads(&["btk", "--kind", "dbtk", "--space", "sst", "--normalize", &s1, &t1, &s2, &t2], &["2"]);
    assert_eq!(b.lines().count(), 157);

    let train = sample_prefix(&dir, "train", 0..80);
    let mt = path(&dir, "mt.json");
    treelink(&["mt-train", "--train", &train, "--system", "phrase", "-o", &mt]);
    let sources = format!("{}.src", sample_prefix(&dir, "sources", 80..150));
    let best = same_with_any_threads(&["translate", "--model", &mt, "--input", &sources], &["2", "3"]);
    assert_eq!(best.lines().count(), 70);
    let nbest = same_with_any_threads(&["translate", "--model", &mt, "--input", &sources, "--nbest", "3"], &["2"]);
    assert!(nbest.lines().count() > 70 && nbest.starts_with("0 ||| "), "{nbest}");
    // --trace's notes on stderr come in the sentences' order too.
    let trace = |n: &str| {
        let o = treelink(&["translate", "--model", &mt, "--input", &sources, "--trace", "--threads", n]);
        // Progress lines come when a second has passed; the notes are the lines per sentence.
        let text = String::from_utf8(o.stderr).unwrap();
        text.lines().filter(|l| l.starts_with("sentence ")).map(str::to_string).collect::<Vec<_>>()
    };
    let notes = trace("1");
    assert!(!notes.is_empty());
    assert_eq!(trace("3"), notes);
}
