//! The README as a front door (issue 38): short, a quick start near the top
//! whose commands exist with the flags it uses, short sentences, links that
//! lead somewhere, and the defaults `--help` states said as `--help` says
//! them. The quick start's training itself is not run here (the suite is at
//! its time limit); it was run as written when the README was written.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn readme() -> String {
    read(&root().join("README.md"))
}

/// README.md and every docs/*.md, by path relative to the root.
fn documents() -> Vec<(String, String)> {
    let mut docs = vec![("README.md".to_string(), readme())];
    let mut names: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    for n in names {
        let path = format!("docs/{n}");
        docs.push((path.clone(), read(&root().join(&path))));
    }
    docs
}

fn help(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_treelink")).args(args).arg("--help").output().expect("the binary runs");
    assert!(o.status.success(), "treelink {args:?} --help: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Runs of whitespace as one space, so wrapped text compares with unwrapped.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `--help`'s entry for `option` (the lines after its own, up
/// to a blank line), squeezed.
fn option_help(help: &str, option: &str) -> String {
    let lines: Vec<&str> = help.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(option))
        .unwrap_or_else(|| panic!("{option} not in the help:\n{help}"));
    let text: Vec<&str> = lines[at + 1..].iter().take_while(|l| !l.trim().is_empty()).copied().collect();
    squeeze(&text.join(" "))
}

/// The first fenced block after the `## Quick start` heading: its first
/// line's number (from 1) and its lines.
fn quick_start(readme: &str) -> (usize, Vec<String>) {
    let lines: Vec<&str> = readme.lines().collect();
    let heading = lines.iter().position(|l| *l == "## Quick start").expect("a `## Quick start` section");
    let open = (heading..lines.len()).find(|&i| lines[i].starts_with("```")).expect("a fenced block in it");
    let close = (open + 1..lines.len()).find(|&i| lines[i].starts_with("```")).expect("the block closes");
    (open + 1, lines[open + 1..close].iter().map(|l| l.to_string()).collect())
}

/// The prose of a Markdown text: fenced blocks, tables, headings, images,
/// HTML comments and inline code dropped; links reduced to their text.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let t = line.trim_start();
        if fenced || t.starts_with('|') || t.starts_with('#') || t.starts_with("![") || t.starts_with("<!--") {
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    // Links: [text](target) → text.
    let mut plain = String::new();
    let mut rest = out.as_str();
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](").map(|m| open + m) else { break };
        let Some(end) = rest[mid..].find(')').map(|e| mid + e) else { break };
        plain.push_str(&rest[..open]);
        plain.push_str(&rest[open + 1..mid]);
        rest = &rest[end + 1..];
    }
    plain.push_str(rest);
    // Inline code counts as one word.
    let mut words = String::new();
    for (i, part) in plain.split('`').enumerate() {
        words.push_str(if i % 2 == 1 { "code" } else { part });
    }
    words
}

/// Sentences of prose: split at `.`, `?` or `!` followed by whitespace,
/// and at blank lines and list items.
fn sentences(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in prose.split("\n\n").flat_map(|b| b.split("\n- ")) {
        let block = squeeze(block);
        let mut current = String::new();
        let chars: Vec<char> = block.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            current.push(c);
            let ends = matches!(c, '.' | '?' | '!') && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
            if ends {
                out.push(std::mem::take(&mut current));
            }
        }
        out.push(current);
    }
    out.into_iter()
        .map(|s| s.trim().trim_start_matches("- ").to_string())
        .filter(|s| s.split_whitespace().count() > 0)
        .collect()
}

#[test]
fn the_readme_is_short_and_its_quick_start_is_near_the_top() {
    let text = readme();
    let lines = text.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines (at most 250)");
    let (first, block) = quick_start(&text);
    assert!(first + block.len() <= 80, "the quick start's block ends at line {} (at most 80)", first + block.len());
    for needed in ["scripts/serve.sh", "scripts/test.sh", "docs/screenshot.png"] {
        assert!(text.contains(needed), "README.md no longer names {needed}");
    }
    // Train, align, eval and a drawing, on the built-in sample.
    let commands: Vec<&str> = block.iter().filter_map(|l| l.strip_prefix("treelink ")).collect();
    let subcommands: Vec<&str> = commands.iter().map(|c| c.split_whitespace().next().unwrap()).collect();
    assert_eq!(subcommands, ["train", "align", "eval", "draw"]);
    assert!(block.iter().any(|l| l.contains("www/sample/dev")), "the quick start uses the built-in sample");
}

#[test]
fn each_quick_start_command_exists_with_the_flags_it_uses() {
    let (_, block) = quick_start(&readme());
    let mut checked = 0;
    for line in &block {
        let Some(command) = line.strip_prefix("treelink ") else { continue };
        let words: Vec<&str> = command.split_whitespace().take_while(|w| !w.starts_with('>')).collect();
        let help = help(&words[..1]);
        for flag in words.iter().filter(|w| w.starts_with('-')) {
            let listed = help
                .lines()
                .any(|l| l.trim_start().split([',', ' ']).any(|w| w == *flag || w.split('=').next() == Some(flag)));
            assert!(listed, "`treelink {}` has no option {flag} (quick start line `{line}`)", words[0]);
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} flags checked");
}

#[test]
fn the_readmes_sentences_are_short() {
    let list = sentences(&prose(&readme()));
    let lengths: Vec<usize> = list.iter().map(|s| s.split_whitespace().count()).collect();
    assert!(list.len() >= 20, "{} sentences found", list.len());
    for (s, &n) in list.iter().zip(&lengths) {
        assert!(n <= 60, "a sentence of {n} words (at most 60): {s}");
    }
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    assert!(mean <= 25.0, "sentences average {mean:.1} words (at most 25)");
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_`
/// dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every `](target)` of a text outside fenced blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let docs = documents();
    let mut checked = 0;
    for (path, text) in &docs {
        let dir = Path::new(path).parent().unwrap_or(Path::new(""));
        for target in link_targets(text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let file_path = if file.is_empty() { root().join(path) } else { root().join(dir).join(file) };
            assert!(file_path.exists(), "{path}: link to {target}: {} does not exist", file_path.display());
            if !fragment.is_empty() && file_path.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&read(&file_path));
                assert!(headings.contains(fragment), "{path}: link to {target}: no heading #{fragment}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} links checked");
}

#[test]
fn the_tuner_is_stated_as_help_states_it() {
    let default = |command: &str| {
        let text = help(&[command]);
        let entry = text.split("--tuner <TUNER>").nth(1).unwrap_or_else(|| panic!("{command}: no --tuner"));
        let at = entry.find("[default: ").expect("--tuner has a default");
        entry[at + 10..].split(']').next().unwrap().to_string()
    };
    let tuner = default("mt-train");
    assert_eq!(default("mt-experiment"), tuner, "mt-train and mt-experiment tune alike by default");
    let other = if tuner == "pro" { "mert" } else { "pro" };
    let cli = read(&root().join("docs/cli.md"));
    assert!(
        cli.contains(&format!("the default tuner is `{tuner}`")),
        "docs/cli.md does not say the default tuner is `{tuner}`"
    );
    for (path, text) in documents().iter().filter(|(p, _)| !p.contains("results")) {
        let flat = squeeze(text);
        assert!(!flat.contains(&format!("default tuner is `{other}`")), "{path} says the default tuner is `{other}`");
        if tuner == "pro" {
            assert!(!flat.contains("tuned by MERT"), "{path} says the weights are tuned by MERT");
        }
    }
    // mt-train's description names the option rather than a tuner.
    assert!(!squeeze(&help(&["mt-train"])).contains("tuned on --dev by MERT"));
}

#[test]
fn the_import_direction_is_stated_once_as_help_states_it() {
    let text = help(&["import", "tiger"]);
    let cli = squeeze(&read(&root().join("docs/cli.md")));
    for option in ["--source <", "--alignment <"] {
        let said = option_help(&text, option);
        assert!(cli.contains(&said), "docs/cli.md does not quote `import tiger --help` on {option}: \"{said}\"");
    }
    // Said in one place: the README and the other guides link to it.
    for (path, text) in documents() {
        if path == "docs/cli.md" {
            continue;
        }
        let flat = squeeze(&text);
        for claim in ["declares first is the source", "declares first as the source", "comes out English→Dutch"] {
            assert!(
                !flat.contains(claim),
                "{path} states the import's direction itself (\"{claim}\"): link to docs/cli.md"
            );
        }
    }
}

#[test]
fn the_sentence_splitter_counts_as_a_reader_would() {
    let p = prose(
        "One two three. Four five: six.\n\n```sh\nnot prose at all\n```\n- a [link text](x.md) here\n| a | b |\n",
    );
    assert_eq!(sentences(&p), ["One two three.", "Four five: six.", "a link text here"]);
    assert_eq!(anchor("## Import tiger direction".trim_start_matches('#')), "import-tiger-direction");
    assert_eq!(anchor(" The kernels (paper §2–3)"), "the-kernels-paper-23");
}
