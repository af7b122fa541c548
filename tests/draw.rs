//! `treelink draw`: the SVG of one pair holds its words and one path per
//! link, marked against gold; a pair out of range is refused, naming the
//! file, and leaves no file behind.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn treelink(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_treelink")).args(args).output().expect("the binary runs")
}

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
