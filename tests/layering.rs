//! The layering of ARCHITECTURE.md, checked on the source: engine →
//! application layer (`src/app`) → CLI (`src/cli`) | worker ↔ page
//! (`src/ui`). Each layer uses only the layers below it, no module depends
//! on itself through others (no cycles between modules), no folder does
//! either (no cycles between the files and folders of one folder, e.g.
//! `corpus` and `io`), no module imports the crate's own items by glob
//! (which would hide what it uses from these checks), and the engine and
//! the application layer name no web crate, terminal or file system.
#![cfg(not(target_arch = "wasm32"))] // reads the source tree from disk

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every module of the library (`src/` minus `src/bin`, `main.rs`), by its
/// path (`align::model`), with its code: comments and the test module
/// (`#[cfg(test)] mod tests { .. }`, or a file of its own) left out (a doc
/// link or a test's import is not a dependency).
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "bin") {
                    stack.push(path);
                }
                continue;
            }
            let Some(rel) = path.strip_prefix(&root).ok().and_then(|r| r.to_str()) else { continue };
            let Some(rel) = rel.strip_suffix(".rs") else { continue };
            if rel == "main" {
                continue;
            }
            let mut parts: Vec<&str> = rel.split('/').collect();
            if matches!(parts.last(), Some(&"mod") | Some(&"lib")) {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            // Test-only modules in files of their own (`#[cfg(test)] mod tests;`,
            // `#[cfg(test)] mod testing;`), by the declarations that name them.
            for (at, _) in text.match_indices("#[cfg(test)]\nmod ") {
                let rest = &text[at + "#[cfg(test)]\nmod ".len()..];
                if let Some(name) = rest.split_once(';').map(|(n, _)| n).filter(|n| !n.contains(char::is_whitespace)) {
                    test_only.insert(parts.iter().copied().chain([name]).collect::<Vec<_>>().join("::"));
                }
            }
            let code = &text[..inline_test_module(&text).unwrap_or(text.len())];
            let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            out.insert(parts.join("::"), code.join("\n"));
        }
    }
    out.retain(|m, _| !test_only.contains(m));
    out
}

/// Where the file's test module starts (`#[cfg(test)]` then `mod NAME {`),
/// which by custom closes the file.
fn inline_test_module(text: &str) -> Option<usize> {
    text.match_indices("#[cfg(test)]\nmod ").map(|(at, _)| at).find(|&at| {
        let rest = &text[at + "#[cfg(test)]\nmod ".len()..];
        let name_end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        name_end > 0 && rest[name_end..].starts_with(" {")
    })
}

/// The paths a use tree names, read from `rest` (the text after a prefix
/// such as `super::`): `a::b::{c, d::{e, f as g}}` names `a::b::c`,
/// `a::b::d::e` and `a::b::d::f`; a plain path (`a::f(x)`) names itself; a
/// glob (`a::*`) ends in `*`.
fn use_paths(rest: &str) -> Vec<Vec<String>> {
    fn ident(s: &[u8], at: &mut usize) -> String {
        let start = *at;
        while *at < s.len() && (s[*at].is_ascii_alphanumeric() || s[*at] == b'_') {
            *at += 1;
        }
        String::from_utf8_lossy(&s[start..*at]).into_owned()
    }
    fn space(s: &[u8], at: &mut usize) {
        while *at < s.len() && s[*at].is_ascii_whitespace() {
            *at += 1;
        }
    }
    // One use tree from `at`, under `prefix`.
    fn tree(s: &[u8], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            if s.get(*at) == Some(&b'{') {
                *at += 1;
                loop {
                    space(s, at);
                    match s.get(*at) {
                        None => return,
                        Some(b'}') => {
                            *at += 1;
                            return;
                        }
                        _ => {}
                    }
                    let before = *at;
                    tree(s, at, path.clone(), out);
                    // Past a rename (`x as y`) to the next item or the group's end.
                    while *at < s.len() && s[*at] != b',' && s[*at] != b'}' {
                        *at += 1;
                    }
                    if s.get(*at) == Some(&b',') {
                        *at += 1;
                    }
                    if *at == before {
                        return;
                    }
                }
            }
            let mut name = ident(s, at);
            if name.is_empty() && s.get(*at) == Some(&b'*') {
                *at += 1;
                name = "*".to_string();
            }
            if name.is_empty() {
                break;
            }
            path.push(name);
            if s[*at..].starts_with(b"::") {
                *at += 2;
            } else {
                break;
            }
        }
        if !path.is_empty() {
            out.push(path);
        }
    }
    let mut out = Vec::new();
    tree(rest.as_bytes(), &mut 0, Vec::new(), &mut out);
    out
}

/// The modules `module` names (`crate::a::b`, `super::c`, and each path of
/// a group, `super::{c, d::e}`), each as the longest known module path; a
/// module's own sub-modules and ancestors are not dependencies.
fn uses(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let parent: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    let parent = &parent[..parent.len().saturating_sub(1)];
    let mut out = BTreeSet::new();
    // The CLI (in the binary) names the library as `treelink::`.
    for (prefix, base) in [("crate::", Vec::new()), ("treelink::", Vec::new()), ("super::", parent.to_vec())] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for path in use_paths(&code[at + prefix.len()..]) {
                let full: Vec<&str> = base.iter().copied().chain(path.iter().map(String::as_str)).collect();
                let target = (1..=full.len()).rev().map(|k| full[..k].join("::")).find(|m| known.contains(m));
                if let Some(t) = target {
                    let related = t == module
                        || module.starts_with(&format!("{t}::"))
                        || t.starts_with(&format!("{module}::"))
                        || module.is_empty();
                    if !related {
                        out.insert(t);
                    }
                }
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    graph_of(&modules())
}

fn graph_of(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    modules.iter().map(|(m, code)| (m.clone(), uses(m, code, &known))).collect()
}

/// The dependencies between the entries of each folder: `m -> n` becomes
/// `a -> b` for the entries `a` and `b` (a file or a folder) of the deepest
/// folder that holds both, so `io::tiger::import -> corpus` is `io -> corpus`
/// and `mt::ms::decode -> mt::phrase::table` is `mt::ms -> mt::phrase`.
fn folder_graph(g: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in g {
        let a: Vec<&str> = m.split("::").collect();
        for d in deps {
            let b: Vec<&str> = d.split("::").collect();
            let shared = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            // A module's own ancestors and descendants are not dependencies.
            if shared < a.len() && shared < b.len() {
                out.entry(a[..=shared].join("::")).or_default().insert(b[..=shared].join("::"));
            }
        }
    }
    out
}

/// The crates other than this one that the code may name: the standard
/// library's and those of Cargo.toml's dependency tables.
fn other_crates() -> BTreeSet<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut out: BTreeSet<String> = ["std", "core", "alloc"].iter().map(|s| s.to_string()).collect();
    let mut in_dependencies = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line.contains("dependencies");
        } else if let Some((name, _)) = line.split_once('=').filter(|_| in_dependencies) {
            out.insert(name.trim().replace('-', "_"));
        }
    }
    out
}

/// The glob imports (`use x::*`) of `module`'s code that name the crate's
/// own items: from `crate`, `super`, `self`, `treelink`, a sub-module, or any
/// name in scope that is not another crate (an enum's variants too). A glob
/// of another crate (`yew::prelude::*`) names nothing of ours.
fn crate_globs(module: &str, code: &str, known: &BTreeSet<String>, others: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].trim_end_matches(' ');
        let starts_statement = before.is_empty()
            || before.ends_with('\n')
            || before.ends_with("pub")
            || before.ends_with(')') && before.rsplit('\n').next().is_some_and(|l| l.trim_start().starts_with("pub("));
        if !starts_statement {
            continue;
        }
        let statement = code[at + 4..].split(';').next().unwrap_or_default();
        for path in use_paths(statement) {
            if path.last().map(String::as_str) != Some("*") {
                continue;
            }
            let root = path[0].as_str();
            let ours = matches!(root, "crate" | "super" | "self" | "treelink")
                || known.contains(&format!("{module}::{root}"))
                || !others.contains(root);
            if ours {
                out.push(path.join("::"));
            }
        }
    }
    out
}

/// A module that depends on itself through others, as the modules of the
/// cycle from it, if any (a depth-first search for a back edge, iteratively).
fn first_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut state: BTreeMap<&str, u8> = BTreeMap::new(); // 1 on the path, 2 done
    for start in g.keys() {
        if state.contains_key(start.as_str()) {
            continue;
        }
        let mut path: Vec<(&str, Vec<&str>)> = vec![(start, g[start].iter().map(String::as_str).collect())];
        state.insert(start, 1);
        while let Some((node, next)) = path.last_mut() {
            match next.pop() {
                Some(n) => match state.get(n) {
                    Some(1) => {
                        let names = path.iter().map(|(m, _)| *m).skip_while(|m| *m != n);
                        return Some(names.map(str::to_string).collect());
                    }
                    Some(_) => {}
                    None => {
                        state.insert(n, 1);
                        let deps = g.get(n).map(|d| d.iter().map(String::as_str).collect()).unwrap_or_default();
                        path.push((n, deps));
                    }
                },
                None => {
                    state.insert(node, 2);
                    path.pop();
                }
            }
        }
    }
    None
}

/// The top-level layer a module belongs to.
fn layer(module: &str) -> &'static str {
    match module.split("::").next().unwrap_or("") {
        "app" => "app",
        "cli" => "cli",
        "ui" => "ui",
        _ => "engine",
    }
}

#[test]
fn layers_use_only_the_layers_below() {
    let allowed = |from: &str, to: &str| match (from, to) {
        (_, "engine") => true,
        ("app", "app") | ("cli", "app") | ("ui", "app") => true,
        (a, b) => a == b,
    };
    let mut wrong = Vec::new();
    for (m, deps) in graph() {
        for d in deps {
            if !allowed(layer(&m), layer(&d)) {
                wrong.push(format!("{m} -> {d}"));
            }
        }
    }
    assert!(wrong.is_empty(), "uses across the layering: {wrong:?}");
}

#[test]
fn no_module_depends_on_itself_through_others() {
    let g = graph();
    assert!(g.len() > 40, "found only {} modules", g.len());
    if let Some(cycle) = first_cycle(&g) {
        panic!("a module cycle: {} -> {}", cycle.join(" -> "), cycle[0]);
    }
}

#[test]
fn no_folder_depends_on_itself_through_others() {
    if let Some(cycle) = first_cycle(&folder_graph(&graph())) {
        panic!("a folder cycle: {} -> {}", cycle.join(" -> "), cycle[0]);
    }
}

#[test]
fn no_module_imports_the_crates_own_items_by_glob() {
    let modules = modules();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let others = other_crates();
    assert!(others.contains("yew") && others.contains("serde"), "{others:?}");
    let wrong: Vec<String> = modules
        .iter()
        .flat_map(|(m, code)| crate_globs(m, code, &known, &others).into_iter().map(move |g| format!("{m}: use {g}")))
        .collect();
    assert!(wrong.is_empty(), "glob imports of the crate's own items: {wrong:?}");
}

#[test]
fn the_engine_and_the_application_layer_name_no_web_crate_terminal_or_file_system() {
    let web = ["web_sys::", "js_sys::", "wasm_bindgen", "yew::", "gloo::"];
    let host = ["std::fs::", "std::io::stdin", "std::io::stdout", "std::process::", "println!", "eprintln!"];
    let mut wrong = Vec::new();
    for (m, code) in modules() {
        let banned: Vec<&str> = match layer(&m) {
            "engine" => web.to_vec(),
            "app" => web.iter().chain(&host).copied().collect(),
            _ => continue,
        };
        for b in banned {
            if code.contains(b) {
                wrong.push(format!("{m}: {b}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// `crate::math` is the one door to `libm` (the same bits natively and in
/// wasm32): a direct call elsewhere would be a second contract.
#[test]
fn transcendentals_go_through_crate_math() {
    let wrong: Vec<String> =
        modules().into_iter().filter(|(m, code)| m != "math" && code.contains("libm::")).map(|(m, _)| m).collect();
    assert!(wrong.is_empty(), "libm called outside crate::math: {wrong:?}");
    // The platform's own methods (`x.ln()`) differ from libm in the last
    // place on some inputs, so the wasm page would not reproduce the CLI.
    let platform = [".ln()", ".exp()", ".log10()", ".log2()", ".ln_1p()", ".exp_m1()", ".powf(", ".tanh()"];
    let wrong: Vec<String> = modules()
        .into_iter()
        .filter(|(m, code)| m != "math" && platform.iter().any(|f| code.contains(f)))
        .map(|(m, _)| m)
        .collect();
    assert!(wrong.is_empty(), "the platform's transcendental functions called outside crate::math: {wrong:?}");
}

#[test]
fn the_checks_see_a_dependency_and_a_cycle() {
    // The scanner itself: a use, a super path, a doc link that is not one.
    let known: BTreeSet<String> = ["a", "a::b", "a::c", "d"].iter().map(|s| s.to_string()).collect();
    let deps = uses("a::b", "use super::c::X;\nlet y = crate::d::f();\n", &known);
    assert_eq!(deps, ["a::c".to_string(), "d".to_string()].into_iter().collect());
    assert!(uses("a::b", "use my_crate::d;", &known).is_empty());
    // A group names each of its paths, nested groups and renames too.
    let deps = uses("a::b", "use super::{c::X, Y};\n", &known);
    assert_eq!(deps, ["a::c".to_string()].into_iter().collect());
    let deps = uses("a::b", "use crate::{a::{c as C, self}, d::{self, Z}};\n", &known);
    assert_eq!(deps, ["a::c".to_string(), "d".to_string()].into_iter().collect());
    let deps = uses("d", "use crate::a::{\n    b::{B1, B2},\n    c,\n};\n", &known);
    assert_eq!(deps, ["a::b".to_string(), "a::c".to_string()].into_iter().collect());
    // A cycle through a group is a cycle.
    let modules: BTreeMap<String, String> = [("a::b", "use super::{c, x};"), ("a::c", "use crate::a::b::Y;")]
        .into_iter()
        .map(|(m, c)| (m.to_string(), c.to_string()))
        .collect();
    assert_eq!(first_cycle(&graph_of(&modules)), Some(vec!["a::b".to_string(), "a::c".to_string()]));
    // A folder cycle with no module cycle: a::x -> b::y, b::z -> a::w; and
    // one inside a folder, between two of its folders.
    let modules: BTreeMap<String, String> = [
        ("a::x", "use crate::b::y::Y;"),
        ("a::w", ""),
        ("b::y", ""),
        ("b::z", "use crate::a::w::W;"),
        ("m::p::x", "use crate::m::q::y;"),
        ("m::q::y", ""),
        ("m::q::z", "use crate::m::p::w;"),
        ("m::p::w", ""),
    ]
    .into_iter()
    .map(|(m, c)| (m.to_string(), c.to_string()))
    .collect();
    let g = graph_of(&modules);
    assert_eq!(first_cycle(&g), None);
    let folders = folder_graph(&g);
    assert_eq!(first_cycle(&folders), Some(vec!["a".to_string(), "b".to_string()]));
    assert!(folders["m::p"].contains("m::q") && folders["m::q"].contains("m::p"), "{folders:?}");
    // Globs of our own items are found, in groups and re-exports too; another crate's are not.
    let known: BTreeSet<String> = ["a", "a::b", "a::c", "d"].iter().map(|s| s.to_string()).collect();
    let others: BTreeSet<String> = ["std", "yew"].iter().map(|s| s.to_string()).collect();
    let code = "use super::c::*;\nuse yew::prelude::*;\nuse crate::{d::*, a::c::X};\npub use b::*;\n    use Kind::*;\nlet x = a * b; // use y::*\n";
    assert_eq!(crate_globs("a", code, &known, &others), ["super::c::*", "crate::d::*", "b::*", "Kind::*"]);
    let g = graph();
    assert!(g["app::alignment"].contains("align::model"), "{:?}", g["app::alignment"]);
    assert!(g["cli::align"].contains("app::alignment"), "{:?}", g["cli::align"]);
}
