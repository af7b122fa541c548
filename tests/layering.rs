//! The layering of ARCHITECTURE.md, checked on the source: engine →
//! application layer (`src/app`) → CLI (`src/cli`) | worker ↔ page
//! (`src/ui`). Each layer uses only the layers below it, no module depends
//! on itself through others (no cycles between modules), and the engine and
//! the application layer name no web crate, terminal or file system.
#![cfg(not(target_arch = "wasm32"))] // reads the source tree from disk

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every module of the library (`src/` minus `src/bin`, `main.rs`), by its
/// path (`align::model`), with its code: comments and `#[cfg(test)] mod tests`
/// left out (a doc link or a test's import is not a dependency).
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
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
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
            let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            out.insert(parts.join("::"), code.join("\n"));
        }
    }
    out
}

/// The modules `module` names (`crate::a::b`, `super::c`), each as the
/// longest known module path; a module's own sub-modules and ancestors are
/// not dependencies.
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
            let rest = &code[at + prefix.len()..];
            let path: Vec<&str> = rest
                .split("::")
                .map(|s| s.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(""))
                .take_while(|s| !s.is_empty())
                .collect();
            let full: Vec<&str> = base.iter().copied().chain(path).collect();
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
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    modules.iter().map(|(m, code)| (m.clone(), uses(m, code, &known))).collect()
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
    // Depth-first search for a back edge, iteratively.
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
                        let names: Vec<&str> = path.iter().map(|(m, _)| *m).skip_while(|m| *m != n).collect();
                        panic!("a module cycle: {} -> {n}", names.join(" -> "));
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

#[test]
fn the_checks_see_a_dependency_and_a_cycle() {
    // The scanner itself: a use, a super path, a doc link that is not one.
    let known: BTreeSet<String> = ["a", "a::b", "a::c", "d"].iter().map(|s| s.to_string()).collect();
    let deps = uses("a::b", "use super::c::X;\nlet y = crate::d::f();\n", &known);
    assert_eq!(deps, ["a::c".to_string(), "d".to_string()].into_iter().collect());
    assert!(uses("a::b", "use my_crate::d;", &known).is_empty());
    let g = graph();
    assert!(g["app::alignment"].contains("align::model"), "{:?}", g["app::alignment"]);
    assert!(g["cli::align"].contains("app::alignment"), "{:?}", g["cli::align"]);
}
