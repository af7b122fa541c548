//! One Tiger sentence as a [`Tree`](crate::tree::Tree): discontinuities
//! repaired, every change reported.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use super::read::TigerSentence;
use super::xml::{dup, Loc, TigerError, TigerErrorKind};
use crate::tree::{NodeId, Tree, TreeBuilder};

/// A node as a change report names it: its Tiger id and label (category or POS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeName {
    pub id: String,
    pub label: String,
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id, self.label)
    }
}

pub(super) fn join(names: &[NodeName]) -> String {
    names.iter().map(NodeName::to_string).collect::<Vec<_>>().join(", ")
}

/// One thing the conversion of a sentence changed, in the words of the
/// data README's recipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `node` was discontinuous: its children `raised` moved up to `to`,
    /// keeping the longest contiguous run of children. `node`'s yield changed.
    Raised { sentence: String, node: NodeName, raised: Vec<NodeName>, to: NodeName },
    /// Terminals not reachable from the root were attached to the root
    /// (the root's links are kept: its yield is the whole sentence).
    Reattached { sentence: String, terminals: Vec<NodeName>, root: NodeName },
    /// Nonterminals not reachable from the root were dropped (their words
    /// were attached to the root).
    DroppedUnreachable { sentence: String, nodes: Vec<NodeName> },
    /// A nonterminal that covers no word was dropped.
    DroppedEmpty { sentence: String, node: NodeName },
    /// The root is a terminal, so the tree is that one POS node and the other
    /// terminals were dropped (as in the bracketed data).
    DroppedTerminals { sentence: String, root: NodeName, terminals: Vec<NodeName> },
    /// The graph names no root and has several top nodes: a virtual root
    /// (labelled `VROOT`) was added over them.
    VirtualRoot { sentence: String, root: String, children: Vec<NodeName> },
}

impl Change {
    /// The Tiger sentence id this change is about.
    pub fn sentence(&self) -> &str {
        match self {
            Change::Raised { sentence, .. }
            | Change::Reattached { sentence, .. }
            | Change::DroppedUnreachable { sentence, .. }
            | Change::DroppedEmpty { sentence, .. }
            | Change::DroppedTerminals { sentence, .. }
            | Change::VirtualRoot { sentence, .. } => sentence,
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Raised { sentence, node, raised, to } => write!(
                f,
                "{sentence}: {node} was discontinuous: raised {} to {to}; the yield of {} changed",
                join(raised),
                node.id
            ),
            Change::Reattached { sentence, terminals, root } => {
                write!(
                    f,
                    "{sentence}: terminals {} were not reachable from the root: attached to the root {root}",
                    join(terminals)
                )
            }
            Change::DroppedUnreachable { sentence, nodes } => {
                write!(f, "{sentence}: nonterminals {} are not reachable from the root: dropped", join(nodes))
            }
            Change::DroppedEmpty { sentence, node } => write!(f, "{sentence}: {node} covers no word: dropped"),
            Change::DroppedTerminals { sentence, root, terminals } => write!(
                f,
                "{sentence}: the root {root} is a terminal, so the tree is that one word: dropped terminals {}",
                join(terminals)
            ),
            Change::VirtualRoot { sentence, root, children } => write!(
                f,
                "{sentence}: the graph names no root: added a virtual root {root} (VROOT) over {}",
                join(children)
            ),
        }
    }
}

/// A sentence converted to a [`Tree`] (see [`TigerSentence::to_tree`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertedSentence {
    pub tree: Tree,
    /// The Tiger id of every node, indexed by pre-order [`NodeId`].
    pub node_ids: Vec<String>,
    /// Pre-order ids of the nodes whose yield changed when discontinuous
    /// constituents were made continuous, ascending.
    pub yield_changed: Vec<NodeId>,
    /// What changed, in processing order.
    pub changes: Vec<Change>,
    index: HashMap<String, NodeId>,
}

impl ConvertedSentence {
    /// The pre-order id of Tiger node `id`, if it survived the conversion.
    pub fn node(&self, id: &str) -> Option<NodeId> {
        self.index.get(id).copied()
    }

    /// Whether the yield of node `n` changed.
    pub fn changed(&self, n: NodeId) -> bool {
        self.yield_changed.binary_search(&n).is_ok()
    }
}

/// A token as the bracketed format can hold it: `(`/`)` as `-LRB-`/`-RRB-`,
/// whitespace as `_`, empty as `--`.
pub(super) fn to_token(s: &str) -> Cow<'_, str> {
    if s.is_empty() {
        return Cow::Borrowed("--");
    }
    if !s.chars().any(|c| c == '(' || c == ')' || c.is_whitespace()) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '(' => out.push_str("-LRB-"),
            ')' => out.push_str("-RRB-"),
            c if c.is_whitespace() => out.push('_'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The inverse of the bracket escape, for export.
pub(super) fn from_token(s: &str) -> Cow<'_, str> {
    if s.contains("-LRB-") || s.contains("-RRB-") {
        Cow::Owned(s.replace("-LRB-", "(").replace("-RRB-", ")"))
    } else {
        Cow::Borrowed(s)
    }
}

impl TigerSentence {
    /// Converts the sentence to a [`Tree`] following the recipe of
    /// `../shared/data/README.md` ("How the bracketed files were made"):
    ///
    /// 1. terminals become POS nodes (label = `pos`), nonterminals phrase
    ///    nodes (label = `cat`); the root is `graph@root` (unless it is a
    ///    `…_VROOT` that is not a node), or else the only parentless
    ///    nonterminal, or else a virtual `VROOT` over all of them;
    /// 2. bottom-up (post-order), each non-root nonterminal whose words are not
    ///    contiguous keeps the longest run of children (sorted by leftmost word)
    ///    whose words are contiguous — the leftmost such run on a tie — and its
    ///    other children are raised to its parent; its yield has changed;
    /// 3. terminals unreachable from the root are attached to the root (this
    ///    does not count as a yield change) and unreachable nonterminals are
    ///    dropped; a terminal root gives a one-node tree;
    /// 4. children are ordered by their leftmost word and the tree is built
    ///    in pre-order.
    ///
    /// `file` names the TigerXML file in errors. Cost: O(n log n) in the
    /// sentence's nodes plus the moves of raised children (see the module
    /// documentation); no recursion.
    pub fn to_tree(&self, file: &str) -> Result<ConvertedSentence, TigerError> {
        convert(self, file)
    }
}

pub(super) fn convert(s: &TigerSentence, file: &str) -> Result<ConvertedSentence, TigerError> {
    let nt = s.terminals.len();
    let total = nt + s.nonterminals.len();
    // Node k: terminals 0..nt, nonterminals nt..total, a virtual root at total.
    let mut ids: Vec<&str> = s.terminals.iter().map(|t| t.id.as_str()).collect();
    ids.extend(s.nonterminals.iter().map(|n| n.id.as_str()));
    let mut labels: Vec<&str> = s.terminals.iter().map(|t| t.pos.as_str()).collect();
    labels.extend(s.nonterminals.iter().map(|n| n.cat.as_str()));
    let locs: Vec<Loc> = s.terminals.iter().map(|t| t.loc).chain(s.nonterminals.iter().map(|n| n.loc)).collect();
    let err = |loc: Loc, kind: TigerErrorKind| TigerError::at(file, loc, kind);

    let mut index: HashMap<&str, usize> = HashMap::with_capacity(total);
    for (k, &id) in ids.iter().enumerate() {
        if let Some(&first) = index.get(id) {
            return Err(err(locs[k], dup(id, locs[first])));
        }
        index.insert(id, k);
    }
    let mut virtual_id = format!("{}_VROOT", s.id);
    while index.contains_key(virtual_id.as_str()) {
        virtual_id.push('_');
    }
    ids.push(&virtual_id);
    labels.push("VROOT");

    let mut parent: Vec<Option<usize>> = vec![None; total + 1];
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); total + 1];
    for (j, n) in s.nonterminals.iter().enumerate() {
        let me = nt + j;
        for e in &n.edges {
            let Some(&c) = index.get(e.idref.as_str()) else {
                return Err(err(
                    e.loc,
                    TigerErrorKind::DanglingIdref {
                        node: n.id.clone(),
                        idref: e.idref.clone(),
                        sentence: s.id.clone(),
                    },
                ));
            };
            if let Some(p) = parent[c] {
                return Err(err(
                    e.loc,
                    TigerErrorKind::TwoParents { node: e.idref.clone(), first: ids[p].into(), second: n.id.clone() },
                ));
            }
            parent[c] = Some(me);
            kids[me].push(c);
        }
    }

    // Cycles: walk up from every nonterminal; 1 = on the current path, 2 = leads to a top node.
    let mut state = vec![0u8; total];
    for start in nt..total {
        let mut path = Vec::new();
        let mut cur = start;
        loop {
            match state[cur] {
                0 => {
                    state[cur] = 1;
                    path.push(cur);
                    match parent[cur] {
                        Some(p) => cur = p,
                        None => break,
                    }
                }
                1 => {
                    // `cur` is on the path: the cycle is cur -> ... -> cur.
                    let from = path.iter().position(|&x| x == cur).unwrap_or(0);
                    // Upwards (child, parent, ...) back to `cur`, then reversed: each contains the next.
                    let mut names: Vec<&str> = path[from..].iter().map(|&x| ids[x]).collect();
                    names.push(ids[cur]);
                    names.reverse();
                    return Err(err(locs[cur], TigerErrorKind::Cycle { path: names.join(" → ") }));
                }
                _ => break,
            }
        }
        for x in path {
            state[x] = 2;
        }
    }

    let mut changes = Vec::new();
    let name =
        |k: usize, ids: &[&str], labels: &[&str]| NodeName { id: ids[k].to_string(), label: labels[k].to_string() };

    // The root.
    // A graph root `…_VROOT` that is not a node names the virtual root of
    // the TreeAligner: treat it as no root given.
    let given_root = s.root.as_ref().filter(|r| index.contains_key(r.as_str()) || !r.ends_with("_VROOT"));
    let root = match given_root {
        Some(r) => {
            let Some(&k) = index.get(r.as_str()) else {
                return Err(err(s.graph_loc, TigerErrorKind::DanglingRoot { root: r.clone(), sentence: s.id.clone() }));
            };
            if let Some(p) = parent[k] {
                return Err(err(s.graph_loc, TigerErrorKind::RootHasParent { root: r.clone(), parent: ids[p].into() }));
            }
            k
        }
        None => {
            let tops: Vec<usize> = (nt..total).filter(|&k| parent[k].is_none()).collect();
            match tops.len() {
                1 => tops[0],
                0 if nt == 1 => 0,
                0 if nt == 0 => return Err(err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() })),
                _ => {
                    for &t in &tops {
                        parent[t] = Some(total);
                        kids[total].push(t);
                    }
                    changes.push(Change::VirtualRoot {
                        sentence: s.id.clone(),
                        root: virtual_id.clone(),
                        children: tops.iter().map(|&t| name(t, &ids, &labels)).collect(),
                    });
                    total
                }
            }
        }
    };

    // Reachability and post-order, iteratively.
    let mut reach = vec![false; total + 1];
    let mut post = Vec::new();
    let mut stack = vec![(root, false)];
    while let Some((n, expanded)) = stack.pop() {
        if expanded {
            post.push(n);
            continue;
        }
        if reach[n] {
            continue;
        }
        reach[n] = true;
        stack.push((n, true));
        stack.extend(kids[n].iter().rev().map(|&c| (c, false)));
    }

    // Word span of each node: leftmost, rightmost, number of words.
    let mut lo = vec![usize::MAX; total + 1];
    let mut hi = vec![0usize; total + 1];
    let mut count = vec![0usize; total + 1];
    for k in 0..nt {
        (lo[k], hi[k], count[k]) = (k, k, 1);
    }
    let mut changed = vec![false; total + 1];
    for &n in &post {
        if n < nt || n == root {
            continue;
        }
        let mut ch: Vec<usize> = kids[n].iter().copied().filter(|&c| count[c] > 0).collect();
        if ch.is_empty() {
            kids[n].clear();
            changes.push(Change::DroppedEmpty { sentence: s.id.clone(), node: name(n, &ids, &labels) });
            continue;
        }
        ch.sort_by_key(|&c| lo[c]);
        // Runs of children whose words follow each other; keep the longest (leftmost on a tie).
        let (mut best, mut run_start) = ((0, 0), 0);
        for k in 1..=ch.len() {
            if k == ch.len() || lo[ch[k]] != hi[ch[k - 1]] + 1 {
                if k - run_start > best.1 - best.0 {
                    best = (run_start, k);
                }
                run_start = k;
            }
        }
        if best.1 - best.0 < ch.len() {
            let p = parent[n].unwrap_or(root);
            let raised: Vec<usize> = ch[..best.0].iter().chain(&ch[best.1..]).copied().collect();
            for &c in &raised {
                parent[c] = Some(p);
                kids[p].push(c);
            }
            changes.push(Change::Raised {
                sentence: s.id.clone(),
                node: name(n, &ids, &labels),
                raised: raised.iter().map(|&c| name(c, &ids, &labels)).collect(),
                to: name(p, &ids, &labels),
            });
            changed[n] = true;
            ch = ch[best.0..best.1].to_vec();
        }
        lo[n] = ch.first().map_or(usize::MAX, |&c| lo[c]);
        hi[n] = ch.last().map_or(0, |&c| hi[c]);
        count[n] = ch.iter().map(|&c| count[c]).sum();
        kids[n] = ch;
    }

    let unreachable_nts: Vec<usize> = (nt..total).filter(|&k| !reach[k]).collect();
    if !unreachable_nts.is_empty() {
        changes.push(Change::DroppedUnreachable {
            sentence: s.id.clone(),
            nodes: unreachable_nts.iter().map(|&k| name(k, &ids, &labels)).collect(),
        });
    }
    if root < nt {
        let others: Vec<usize> = (0..nt).filter(|&k| k != root).collect();
        if !others.is_empty() {
            changes.push(Change::DroppedTerminals {
                sentence: s.id.clone(),
                root: name(root, &ids, &labels),
                terminals: others.iter().map(|&k| name(k, &ids, &labels)).collect(),
            });
        }
    } else {
        let stray: Vec<usize> = (0..nt).filter(|&k| !reach[k]).collect();
        if !stray.is_empty() {
            changes.push(Change::Reattached {
                sentence: s.id.clone(),
                terminals: stray.iter().map(|&k| name(k, &ids, &labels)).collect(),
                root: name(root, &ids, &labels),
            });
        }
        let mut ch: Vec<usize> = kids[root].iter().copied().filter(|&c| count[c] > 0).chain(stray).collect();
        if ch.is_empty() {
            return Err(err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() }));
        }
        ch.sort_by_key(|&c| lo[c]);
        kids[root] = ch;
    }

    // Build the tree in pre-order.
    enum Walk {
        Open(usize),
        Close,
    }
    let mut b = TreeBuilder::new();
    let mut node_ids = Vec::new();
    let mut pre = vec![usize::MAX; total + 1];
    let mut walk = vec![Walk::Open(root)];
    while let Some(step) = walk.pop() {
        match step {
            Walk::Open(n) if n < nt => {
                let t = &s.terminals[n];
                pre[n] = b.pos(to_token(&t.pos), to_token(&t.word));
                node_ids.push(ids[n].to_string());
            }
            Walk::Open(n) => {
                pre[n] = b.open_phrase(to_token(labels[n]));
                node_ids.push(ids[n].to_string());
                walk.push(Walk::Close);
                walk.extend(kids[n].iter().rev().map(|&c| Walk::Open(c)));
            }
            Walk::Close => {
                b.close();
            }
        }
    }
    let tree = b.finish().ok_or_else(|| err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() }))?;
    let mut yield_changed: Vec<NodeId> =
        (0..=total).filter(|&k| changed[k] && pre[k] != usize::MAX).map(|k| pre[k]).collect();
    yield_changed.sort_unstable();
    let index = node_ids.iter().enumerate().map(|(k, id)| (id.clone(), k)).collect();
    Ok(ConvertedSentence { tree, node_ids, yield_changed, changes, index })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::tiger::read::parse_tiger;
    use crate::io::tiger::sta::parse_sta;
    use crate::io::tiger::xml::TigerErrorKind;

    fn sentence(body: &str) -> String {
        format!("<corpus id=\"c\"><body>\n{body}\n</body></corpus>")
    }

    fn convert_one(body: &str) -> Result<ConvertedSentence, TigerError> {
        let c = parse_tiger(&sentence(body), "c.xml")?;
        c.sentences[0].to_tree("c.xml")
    }

    #[test]
    fn raises_the_shorter_run_and_reports_it() {
        // NP over 1 and 3 is discontinuous (word 2 belongs to S).
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_500"><terminals>
<t id="s1_1" word="a" pos="A"/><t id="s1_2" word="b" pos="B"/><t id="s1_3" word="c" pos="C"/><t id="s1_4" word="d" pos="D"/>
</terminals><nonterminals>
<nt id="s1_500" cat="S"><edge idref="s1_501"/><edge idref="s1_2"/></nt>
<nt id="s1_501" cat="NP"><edge idref="s1_1"/><edge idref="s1_3"/><edge idref="s1_4"/></nt>
</nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(S (A a) (B b) (NP (C c) (D d)))");
        assert_eq!(s.node_ids, ["s1_500", "s1_1", "s1_2", "s1_501", "s1_3", "s1_4"]);
        assert_eq!(s.yield_changed, [3]);
        assert_eq!(s.changes.len(), 1);
        assert_eq!(
            s.changes[0].to_string(),
            "s1: s1_501 (NP) was discontinuous: raised s1_1 (A) to s1_500 (S); the yield of s1_501 changed"
        );
    }

    #[test]
    fn virtual_root_and_terminal_root() {
        let s = convert_one(
            r#"<s id="s1"><graph><terminals><t id="s1_1" word="x" pos="X"/><t id="s1_2" word="(" pos="$("/></terminals>
<nonterminals><nt id="s1_500" cat="A"><edge idref="s1_1"/></nt><nt id="s1_501" cat="B"><edge idref="s1_2"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(VROOT (A (X x)) (B ($-LRB- -LRB-)))");
        assert_eq!(s.node_ids[0], "s1_VROOT");
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_1"><terminals><t id="s1_1" word="x" pos="X"/><t id="s1_2" word="." pos="$."/></terminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(X x)");
        assert!(matches!(s.changes[0], Change::DroppedTerminals { .. }));
    }

    #[test]
    fn vroot_node_or_virtual_vroot() {
        // TIGER-corpus style: a real VROOT node holding the sentence and its punctuation.
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_VROOT"><terminals><t id="s1_1" word="Ja" pos="PTKANT"/><t id="s1_2" word="." pos="$."/></terminals>
<nonterminals><nt id="s1_500" cat="S"><edge idref="s1_1"/></nt>
<nt id="s1_VROOT" cat="VROOT"><edge idref="s1_500"/><edge label="--" idref="s1_2"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(VROOT (S (PTKANT Ja)) ($. .))");
        assert!(s.changes.is_empty());
        // A graph root naming a VROOT that is not a node: the only top node is the root.
        let s = convert_one(
            r#"<s id="s1"><graph root="s1_VROOT"><terminals><t id="s1_1" word="Ja" pos="PTKANT"/><t id="s1_2" word="." pos="$."/></terminals>
<nonterminals><nt id="s1_500" cat="S"><edge idref="s1_1"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap();
        assert_eq!(s.tree.to_string(), "(S (PTKANT Ja) ($. .))");
        assert!(matches!(s.changes[..], [Change::Reattached { .. }]));
    }

    #[test]
    fn located_errors() {
        let e = convert_one(
            r#"<s id="s1"><graph root="s1_500"><terminals><t id="s1_1" word="x" pos="X"/></terminals>
<nonterminals><nt id="s1_500" cat="A"><edge idref="s1_9"/></nt></nonterminals></graph></s>"#,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "c.xml:3:39: edge of s1_500 names node s1_9, which is not in sentence s1");
        let e = parse_tiger("<corpus><s id=\"a\"></corpus>", "x.xml").unwrap_err();
        assert_eq!((e.line, e.file.as_str()), (1, "x.xml"));
        assert!(matches!(e.kind, TigerErrorKind::Xml { .. }), "{e}");
        let e = parse_tiger("<corpus><s id=\"a\">", "x.xml").unwrap_err();
        assert!(matches!(e.kind, TigerErrorKind::Unclosed { .. }), "{e}");
        let e = parse_sta("<corpus/>", "a.xml").unwrap_err();
        assert!(matches!(e.kind, TigerErrorKind::WrongDocument { .. }), "{e}");
    }
}
