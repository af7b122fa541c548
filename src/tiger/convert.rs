//! One Tiger sentence as a [`Tree`](crate::tree::Tree): discontinuities
//! repaired, every change reported.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use super::read::TigerSentence;
use super::xml::{dup, Loc, TigerError, TigerErrorKind};
use crate::tree::{NodeId, Tree, TreeBuilder};

/// What [`Graph::build`] makes: the tree, the Tiger id of each of its
/// nodes, and the node each graph node became (`None`: not in the tree).
type Built = (Tree, Vec<String>, Vec<Option<NodeId>>);

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
    /// Nonterminals with no parent besides the graph's root were attached
    /// to the root ([`TigerSentence::to_tree_keeping_tops`]).
    AttachedTops { sentence: String, nodes: Vec<NodeName>, root: NodeName },
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
            Change::AttachedTops { sentence, nodes, root } => write!(
                f,
                "{sentence}: nonterminals {} had no parent and are not the root: attached to the root {root}",
                join(nodes)
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
        convert(self, file, false)
    }

    /// [`TigerSentence::to_tree`], except that nonterminals not reachable
    /// from the graph's root (a second top node) are attached to the root
    /// before step 2, instead of dropped, so they and their links stay
    /// (reported as [`Change::AttachedTops`]).
    pub fn to_tree_keeping_tops(&self, file: &str) -> Result<ConvertedSentence, TigerError> {
        convert(self, file, true)
    }
}

pub(super) fn convert(s: &TigerSentence, file: &str, keep_tops: bool) -> Result<ConvertedSentence, TigerError> {
    let mut g = Graph::new(s, file)?;
    g.check_acyclic()?;
    let mut changes = Vec::new();
    let root = g.root(&mut changes)?;
    if keep_tops {
        g.attach_tops(root, &mut changes);
    }
    let (reach, post) = g.post_order(root);
    let yields = g.make_contiguous(root, &post, &mut changes);
    g.attach_unreachable(root, &reach, &yields, &mut changes)?;
    let (tree, node_ids, pre) = g.build(root)?;
    let mut yield_changed: Vec<NodeId> = (0..=g.total).filter(|&k| yields.changed[k]).filter_map(|k| pre[k]).collect();
    yield_changed.sort_unstable();
    let index = node_ids.iter().zip(tree.node_ids()).map(|(id, k)| (id.clone(), k)).collect();
    Ok(ConvertedSentence { tree, node_ids, yield_changed, changes, index })
}

/// A sentence's graph during conversion. Node `k` is terminal `k` for
/// `k < nt`, nonterminal `k − nt` up to `total`, and the virtual root at
/// `total` (used only when the sentence has several top nodes).
struct Graph<'s> {
    s: &'s TigerSentence,
    file: &'s str,
    nt: usize,
    total: usize,
    /// Node index by Tiger id (the virtual root excluded).
    index: HashMap<&'s str, usize>,
    virtual_id: String,
    parent: Vec<Option<usize>>,
    kids: Vec<Vec<usize>>,
}

/// The word span of each node after step 2: leftmost and rightmost word,
/// number of words, and whether its yield changed.
struct Yields {
    lo: Vec<usize>,
    hi: Vec<usize>,
    count: Vec<usize>,
    changed: Vec<bool>,
}

impl<'s> Graph<'s> {
    /// The nodes and the edges between them; refuses duplicate ids, edges
    /// to unknown nodes and nodes with two parents.
    fn new(s: &'s TigerSentence, file: &'s str) -> Result<Self, TigerError> {
        let nt = s.terminals.len();
        let total = nt + s.nonterminals.len();
        let mut g = Graph {
            s,
            file,
            nt,
            total,
            index: HashMap::with_capacity(total),
            virtual_id: String::new(),
            parent: vec![None; total + 1],
            kids: vec![Vec::new(); total + 1],
        };
        for k in 0..total {
            let id = g.tiger_id(k);
            if let Some(&first) = g.index.get(id) {
                return Err(g.err(g.loc(k), dup(id, g.loc(first))));
            }
            g.index.insert(id, k);
        }
        let mut virtual_id = format!("{}_VROOT", s.id);
        while g.index.contains_key(virtual_id.as_str()) {
            virtual_id.push('_');
        }
        g.virtual_id = virtual_id;
        for (j, n) in s.nonterminals.iter().enumerate() {
            let me = nt + j;
            for e in &n.edges {
                let Some(&c) = g.index.get(e.idref.as_str()) else {
                    return Err(g.err(
                        e.loc,
                        TigerErrorKind::DanglingIdref {
                            node: n.id.clone(),
                            idref: e.idref.clone(),
                            sentence: s.id.clone(),
                        },
                    ));
                };
                if let Some(p) = g.parent[c] {
                    return Err(g.err(
                        e.loc,
                        TigerErrorKind::TwoParents {
                            node: e.idref.clone(),
                            first: g.id(p).into(),
                            second: n.id.clone(),
                        },
                    ));
                }
                g.parent[c] = Some(me);
                g.kids[me].push(c);
            }
        }
        Ok(g)
    }

    /// The Tiger id of a real node (not the virtual root), borrowed from the sentence.
    fn tiger_id(&self, k: usize) -> &'s str {
        let s = self.s;
        if k < self.nt {
            &s.terminals[k].id
        } else {
            &s.nonterminals[k - self.nt].id
        }
    }

    fn id(&self, k: usize) -> &str {
        if k == self.total {
            &self.virtual_id
        } else {
            self.tiger_id(k)
        }
    }

    fn label(&self, k: usize) -> &str {
        if k < self.nt {
            &self.s.terminals[k].pos
        } else if k < self.total {
            &self.s.nonterminals[k - self.nt].cat
        } else {
            "VROOT"
        }
    }

    fn loc(&self, k: usize) -> Loc {
        if k < self.nt {
            self.s.terminals[k].loc
        } else {
            self.s.nonterminals[k - self.nt].loc
        }
    }

    fn name(&self, k: usize) -> NodeName {
        NodeName { id: self.id(k).to_string(), label: self.label(k).to_string() }
    }

    fn names(&self, nodes: &[usize]) -> Vec<NodeName> {
        nodes.iter().map(|&k| self.name(k)).collect()
    }

    fn err(&self, loc: Loc, kind: TigerErrorKind) -> TigerError {
        TigerError::at(self.file, loc, kind)
    }

    /// Refuses a cycle of edges: walks up from every nonterminal, marking
    /// nodes on the current path (1) and nodes known to lead to a top (2).
    fn check_acyclic(&self) -> Result<(), TigerError> {
        let mut state = vec![0u8; self.total];
        for start in self.nt..self.total {
            let mut path = Vec::new();
            let mut cur = start;
            loop {
                match state[cur] {
                    0 => {
                        state[cur] = 1;
                        path.push(cur);
                        match self.parent[cur] {
                            Some(p) => cur = p,
                            None => break,
                        }
                    }
                    1 => {
                        // `cur` is on the path: the cycle is cur -> ... -> cur.
                        let from = path.iter().position(|&x| x == cur).unwrap_or(0);
                        // Upwards (child, parent, ...) back to `cur`, then reversed: each contains the next.
                        let mut names: Vec<&str> = path[from..].iter().map(|&x| self.id(x)).collect();
                        names.push(self.id(cur));
                        names.reverse();
                        return Err(self.err(self.loc(cur), TigerErrorKind::Cycle { path: names.join(" → ") }));
                    }
                    _ => break,
                }
            }
            for x in path {
                state[x] = 2;
            }
        }
        Ok(())
    }

    /// Step 1's root: `graph@root` (a `…_VROOT` that is not a node names the
    /// TreeAligner's virtual root: treated as no root given), else the only
    /// parentless nonterminal, else a virtual root over all of them.
    fn root(&mut self, changes: &mut Vec<Change>) -> Result<usize, TigerError> {
        let s = self.s;
        let given_root = s.root.as_ref().filter(|r| self.index.contains_key(r.as_str()) || !r.ends_with("_VROOT"));
        if let Some(r) = given_root {
            let Some(&k) = self.index.get(r.as_str()) else {
                return Err(
                    self.err(s.graph_loc, TigerErrorKind::DanglingRoot { root: r.clone(), sentence: s.id.clone() })
                );
            };
            if let Some(p) = self.parent[k] {
                return Err(
                    self.err(s.graph_loc, TigerErrorKind::RootHasParent { root: r.clone(), parent: self.id(p).into() })
                );
            }
            return Ok(k);
        }
        let tops: Vec<usize> = (self.nt..self.total).filter(|&k| self.parent[k].is_none()).collect();
        match tops.len() {
            1 => Ok(tops[0]),
            0 if self.nt == 1 => Ok(0),
            0 if self.nt == 0 => Err(self.err(s.loc, TigerErrorKind::NoWords { sentence: s.id.clone() })),
            _ => {
                let total = self.total;
                for &t in &tops {
                    self.parent[t] = Some(total);
                    self.kids[total].push(t);
                }
                changes.push(Change::VirtualRoot {
                    sentence: s.id.clone(),
                    root: self.virtual_id.clone(),
                    children: self.names(&tops),
                });
                Ok(total)
            }
        }
    }

    /// Attaches the nonterminals without a parent, other than a nonterminal
    /// `root`, to the root.
    fn attach_tops(&mut self, root: usize, changes: &mut Vec<Change>) {
        if root < self.nt || root == self.total {
            return;
        }
        let tops: Vec<usize> = (self.nt..self.total).filter(|&k| k != root && self.parent[k].is_none()).collect();
        if tops.is_empty() {
            return;
        }
        for &t in &tops {
            self.parent[t] = Some(root);
            self.kids[root].push(t);
        }
        changes.push(Change::AttachedTops {
            sentence: self.s.id.clone(),
            nodes: self.names(&tops),
            root: self.name(root),
        });
    }

    /// The nodes reachable from `root`, and their post-order (iteratively).
    fn post_order(&self, root: usize) -> (Vec<bool>, Vec<usize>) {
        let mut reach = vec![false; self.total + 1];
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
            stack.extend(self.kids[n].iter().rev().map(|&c| (c, false)));
        }
        (reach, post)
    }

    /// Step 2: bottom-up, each non-root nonterminal keeps the longest run of
    /// children whose words follow each other (the leftmost on a tie) and
    /// raises the others to its parent; nonterminals without words are dropped.
    fn make_contiguous(&mut self, root: usize, post: &[usize], changes: &mut Vec<Change>) -> Yields {
        let (nt, size) = (self.nt, self.total + 1);
        let mut y =
            Yields { lo: vec![usize::MAX; size], hi: vec![0; size], count: vec![0; size], changed: vec![false; size] };
        for k in 0..nt {
            (y.lo[k], y.hi[k], y.count[k]) = (k, k, 1);
        }
        for &n in post {
            if n < nt || n == root {
                continue;
            }
            let mut ch: Vec<usize> = self.kids[n].iter().copied().filter(|&c| y.count[c] > 0).collect();
            if ch.is_empty() {
                self.kids[n].clear();
                changes.push(Change::DroppedEmpty { sentence: self.s.id.clone(), node: self.name(n) });
                continue;
            }
            ch.sort_by_key(|&c| y.lo[c]);
            // Runs of children whose words follow each other; keep the longest (leftmost on a tie).
            let (mut best, mut run_start) = ((0, 0), 0);
            for k in 1..=ch.len() {
                if k == ch.len() || y.lo[ch[k]] != y.hi[ch[k - 1]] + 1 {
                    if k - run_start > best.1 - best.0 {
                        best = (run_start, k);
                    }
                    run_start = k;
                }
            }
            if best.1 - best.0 < ch.len() {
                let p = self.parent[n].unwrap_or(root);
                let raised: Vec<usize> = ch[..best.0].iter().chain(&ch[best.1..]).copied().collect();
                for &c in &raised {
                    self.parent[c] = Some(p);
                    self.kids[p].push(c);
                }
                changes.push(Change::Raised {
                    sentence: self.s.id.clone(),
                    node: self.name(n),
                    raised: self.names(&raised),
                    to: self.name(p),
                });
                y.changed[n] = true;
                ch = ch[best.0..best.1].to_vec();
            }
            y.lo[n] = ch.first().map_or(usize::MAX, |&c| y.lo[c]);
            y.hi[n] = ch.last().map_or(0, |&c| y.hi[c]);
            y.count[n] = ch.iter().map(|&c| y.count[c]).sum();
            self.kids[n] = ch;
        }
        y
    }

    /// Step 3: unreachable nonterminals are dropped, unreachable terminals
    /// attached to the root (a terminal root drops the other terminals), and
    /// the root's children ordered by their leftmost word.
    fn attach_unreachable(
        &mut self,
        root: usize,
        reach: &[bool],
        y: &Yields,
        changes: &mut Vec<Change>,
    ) -> Result<(), TigerError> {
        let (nt, sentence) = (self.nt, &self.s.id);
        let unreachable_nts: Vec<usize> = (nt..self.total).filter(|&k| !reach[k]).collect();
        if !unreachable_nts.is_empty() {
            changes
                .push(Change::DroppedUnreachable { sentence: sentence.clone(), nodes: self.names(&unreachable_nts) });
        }
        if root < nt {
            let others: Vec<usize> = (0..nt).filter(|&k| k != root).collect();
            if !others.is_empty() {
                changes.push(Change::DroppedTerminals {
                    sentence: sentence.clone(),
                    root: self.name(root),
                    terminals: self.names(&others),
                });
            }
            return Ok(());
        }
        let stray: Vec<usize> = (0..nt).filter(|&k| !reach[k]).collect();
        if !stray.is_empty() {
            changes.push(Change::Reattached {
                sentence: sentence.clone(),
                terminals: self.names(&stray),
                root: self.name(root),
            });
        }
        let mut ch: Vec<usize> = self.kids[root].iter().copied().filter(|&c| y.count[c] > 0).chain(stray).collect();
        if ch.is_empty() {
            return Err(self.err(self.s.loc, TigerErrorKind::NoWords { sentence: sentence.clone() }));
        }
        ch.sort_by_key(|&c| y.lo[c]);
        self.kids[root] = ch;
        Ok(())
    }

    /// Step 4: the tree in pre-order, the Tiger id of each of its nodes, and
    /// the node of each graph node (`None` when not in the tree).
    fn build(&self, root: usize) -> Result<Built, TigerError> {
        enum Walk {
            Open(usize),
            Close,
        }
        let mut b = TreeBuilder::new();
        let mut node_ids = Vec::new();
        let mut pre = vec![None; self.total + 1];
        let mut walk = vec![Walk::Open(root)];
        while let Some(step) = walk.pop() {
            match step {
                Walk::Open(n) if n < self.nt => {
                    let t = &self.s.terminals[n];
                    pre[n] = Some(b.pos(to_token(&t.pos), to_token(&t.word)));
                    node_ids.push(self.id(n).to_string());
                }
                Walk::Open(n) => {
                    pre[n] = Some(b.open_phrase(to_token(self.label(n))));
                    node_ids.push(self.id(n).to_string());
                    walk.push(Walk::Close);
                    walk.extend(self.kids[n].iter().rev().map(|&c| Walk::Open(c)));
                }
                Walk::Close => {
                    b.close();
                }
            }
        }
        let tree =
            b.finish().ok_or_else(|| self.err(self.s.loc, TigerErrorKind::NoWords { sentence: self.s.id.clone() }))?;
        Ok((tree, node_ids, pre))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiger::read::parse_tiger;
    use crate::tiger::sta::parse_sta;
    use crate::tiger::xml::TigerErrorKind;

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
        assert_eq!(s.yield_changed, [NodeId::new(3)]);
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
