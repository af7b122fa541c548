//! Test helpers shared by the native and the wasm test binaries.
#![allow(dead_code)]

use std::collections::HashMap;

use treelink::kernel::Space;
use treelink::tree::{NodeId, Tree};

/// Every subset-tree fragment rooted at `n`, as (bracketed string, number of
/// productions). A child is either cut (kept as a bare label) or expanded
/// into one of its own fragments — the definition of §3.1 enumerated
/// literally, with no Δ recursion.
pub fn fragments_at(t: &Tree, n: NodeId) -> Vec<(String, u32)> {
    if let Some(w) = t.word_of(n) {
        return vec![(format!("({} {})", t.label(n), w), 1)];
    }
    let mut partial: Vec<(Vec<String>, u32)> = vec![(Vec::new(), 1)];
    for &c in t.children(n) {
        let mut options = vec![(t.label(c).to_string(), 0)];
        options.extend(fragments_at(t, c));
        let mut next = Vec::new();
        for (parts, size) in &partial {
            for (o, s) in &options {
                let mut p = parts.clone();
                p.push(o.clone());
                next.push((p, size + s));
            }
        }
        partial = next;
    }
    partial.into_iter().map(|(parts, size)| (format!("({} {})", t.label(n), parts.join(" ")), size)).collect()
}

/// Fragment counts over the nodes in `nodes`: fragment -> (count, size).
fn fragment_counts(t: &Tree, nodes: impl Iterator<Item = NodeId>) -> HashMap<String, (u32, u32)> {
    let mut counts = HashMap::new();
    for n in nodes {
        for (f, size) in fragments_at(t, n) {
            counts.entry(f).or_insert((0, size)).0 += 1;
        }
    }
    counts
}

/// `K(S, S') = Σ_f λ^|f| · #_S(f) · #_S'(f)` over explicitly enumerated fragments.
pub fn brute_force_kernel(space: Space, lambda: f64, a: &Tree, ra: NodeId, b: &Tree, rb: NodeId) -> f64 {
    let same_root = a.label(ra) == b.label(rb);
    let dot = |ca: HashMap<String, (u32, u32)>, cb: HashMap<String, (u32, u32)>| -> f64 {
        let mut keys: Vec<_> = ca.keys().filter(|k| cb.contains_key(*k)).collect();
        keys.sort();
        keys.iter()
            .map(|k| {
                let (na, size) = ca[*k];
                let nb = cb[*k].0;
                lambda.powi(size as i32) * f64::from(na) * f64::from(nb)
            })
            .sum()
    };
    match space {
        Space::Sst => dot(fragment_counts(a, a.subtree(ra)), fragment_counts(b, b.subtree(rb))),
        Space::RdSst if same_root => dot(fragment_counts(a, a.subtree(ra)), fragment_counts(b, b.subtree(rb))),
        Space::RdSst => 0.0,
        Space::RgSst => dot(fragment_counts(a, std::iter::once(ra)), fragment_counts(b, std::iter::once(rb))),
        Space::Root => f64::from(u8::from(same_root)),
    }
}

/// Relative closeness for sums computed in different orders.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// A small deterministic pseudo-random tree over a tiny alphabet, so that
/// productions repeat and kernels are non-trivial (xorshift; same on every target).
pub fn random_tree(seed: u64, max_depth: u32) -> Tree {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    fn build(out: &mut String, depth: u32, max_depth: u32, next: &mut dyn FnMut(u64) -> u64) {
        let phrase = ["A", "B"];
        let pos = ["x", "y"];
        if depth >= max_depth || (depth > 0 && next(2) == 0) {
            let tag = ["P", "Q"][next(2) as usize];
            out.push_str(&format!("({tag} {})", pos[next(2) as usize]));
        } else {
            out.push_str(&format!("({}", phrase[next(2) as usize]));
            for _ in 0..1 + next(2) {
                out.push(' ');
                build(out, depth + 1, max_depth, next);
            }
            out.push(')');
        }
    }
    let mut s = String::new();
    build(&mut s, 0, max_depth, &mut next);
    Tree::parse_one(&s, "random").expect("generated trees are well-formed")
}
