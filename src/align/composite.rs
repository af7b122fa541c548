//! The composite kernel of paper §5 over candidate sub-tree pairs:
//!
//! `K(x, y) = θ0 · K̂p(x, y) + Σ_i θi · K̂_BTK_i(x, y)`, with `Σ θ = 1`,
//!
//! where `K̂p` is the normalised degree-2 polynomial kernel on the plain
//! features and each `K̂_BTK_i` a normalised iBTK or dBTK in one sub-structure
//! space. A [`KernelSpec`] names the combination as the CLI writes it:
//! `lex` (φ1..φ7 only), `lex+str` or `plain` (φ1..φ7 and the structural
//! features), `plain+dbtk-root+ibtk-rgsst`, `ibtk-sst`, …
//!
//! The SVM evaluates this kernel millions of times between sub-trees of
//! different trees, so [`StructureIndex`] makes each evaluation cheap:
//! labels, productions and whole sub-tree *shapes* are interned to integers
//! once per tree; Δ depends only on the shapes of its two nodes, so it is
//! memoised per shape pair; the SST sum merges two lists of (production,
//! shape, count) sorted by production. The values equal those of
//! [`crate::kernel`] (a test checks it on real trees).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::context::ContextParts;
use super::features::N_PLAIN;
use crate::kernel::index::{StructureIndex, SubTreeKey};
use crate::kernel::{normalize, BtkKind, Space, UnknownName, DEFAULT_LAMBDA};

/// Which plain features the polynomial kernel sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlainSet {
    /// φ1..φ7 (the paper's "Lex").
    Lex,
    /// φ1..φ7 and the three online structural features ("Lex + Online Str", "Plain").
    LexStr,
}

impl PlainSet {
    /// The feature vector this set uses, from all plain features.
    pub fn select(self, all: &[f64; N_PLAIN]) -> &[f64] {
        match self {
            PlainSet::Lex => &all[..7],
            PlainSet::LexStr => &all[..],
        }
    }
}

/// A composite kernel: optional plain polynomial kernel, context and history
/// kernels (beyond the paper), then BTKs, with weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelSpec {
    pub plain: Option<PlainSet>,
    /// `ctx`: the context features of [`super::context`].
    #[serde(default)]
    pub context: bool,
    /// `unk` (with `ctx`): the context features also hold the share of words
    /// unknown to the lexicon inside and outside the spans
    /// ([`super::context::N_UNKNOWN`]); not a component of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unknown: bool,
    /// `orth` (with `ctx`): the orthographic similarity of the spans' words
    /// ([`super::context::N_ORTH`] features); not a component of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub orth: bool,
    /// `chain` (with `ctx`): where each node sits in a chain of nodes over
    /// the same words ([`super::context::N_CHAIN`]); not a component of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chain: bool,
    /// `node` (with `ctx`): how well each node's best partner scores, and
    /// how far the candidate is from it ([`super::context::N_NODE`]); not a
    /// component of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub node: bool,
    /// `hist`: a first pass's decisions on the neighbouring pairs ([`super::history`]).
    #[serde(default)]
    pub history: bool,
    pub btks: Vec<(BtkKind, Space)>,
    /// One weight per component, in [`component_names`](Self::component_names) order; they sum to 1.
    pub thetas: Vec<f64>,
    /// Decay λ of the tree kernels.
    pub lambda: f64,
}

impl KernelSpec {
    /// Number of components (plain, ctx, hist kernels and BTKs).
    pub fn components(&self) -> usize {
        usize::from(self.plain.is_some()) + usize::from(self.context) + usize::from(self.history) + self.btks.len()
    }

    /// A name per component, in order: `plain` (or `lex`), `ctx`, `hist`, then `dbtk-root`, ….
    pub fn component_names(&self) -> Vec<String> {
        let plain = self.plain.map(|p| match p {
            PlainSet::Lex => "lex".to_string(),
            PlainSet::LexStr => "plain".to_string(),
        });
        let ctx = self.context.then(|| "ctx".to_string());
        let hist = self.history.then(|| "hist".to_string());
        plain.into_iter().chain(ctx).chain(hist).chain(self.btks.iter().map(|(k, s)| format!("{k}-{s}"))).collect()
    }

    /// This spec without the `hist` component (a second pass's first pass);
    /// the other weights keep their ratios.
    pub fn without_history(&self) -> Self {
        let mut spec = self.clone();
        if self.history {
            let at = usize::from(self.plain.is_some()) + usize::from(self.context);
            spec.history = false;
            let mut thetas = self.thetas.clone();
            if at < thetas.len() {
                thetas.remove(at);
            }
            let sum: f64 = thetas.iter().sum();
            spec.thetas = if sum > 0.0 {
                thetas.iter().map(|t| t / sum).collect()
            } else {
                vec![1.0 / spec.components() as f64; spec.components()]
            };
        }
        spec
    }

    /// Sets the weights, normalised to sum to 1. `None` when the count is
    /// wrong or a weight is negative or all are 0.
    pub fn with_thetas(mut self, thetas: &[f64]) -> Option<Self> {
        let sum: f64 = thetas.iter().sum();
        let valid = |t: &f64| t.is_finite() && *t >= 0.0;
        if thetas.len() != self.components() || !thetas.iter().all(valid) || sum.is_nan() || sum <= 0.0 {
            return None;
        }
        self.thetas = thetas.iter().map(|t| t / sum).collect();
        Some(self)
    }

    /// Which features beyond Lingua-Align's the context holds.
    pub fn context_parts(&self) -> ContextParts {
        ContextParts { unknown: self.unknown, orth: self.orth, chain: self.chain, node: self.node }
    }

    /// The paper's best combination on its gold-standard corpus.
    pub fn paper_best() -> Self {
        "plain+dbtk-root+ibtk-rgsst".parse().expect("a valid spec")
    }
}

impl FromStr for KernelSpec {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let bad = |found: &str| UnknownName {
            what: "kernel component",
            found: found.to_string(),
            expected: "lex, str (with lex), plain, ctx, unk, orth, chain, node (each with ctx), hist, or KIND-SPACE \
                       with KIND ibtk|dbtk and SPACE sst|rdsst|rgsst|root"
                .into(),
        };
        let (mut lex, mut str_, mut btks) = (false, false, Vec::new());
        let (mut context, mut unknown, mut history) = (false, false, false);
        let (mut orth, mut chain, mut node) = (false, false, false);
        for part in s.split('+').map(str::trim) {
            match part {
                "lex" => lex = true,
                "ctx" => context = true,
                "unk" => unknown = true,
                "orth" => orth = true,
                "chain" => chain = true,
                "node" => node = true,
                "hist" => history = true,
                "str" => str_ = true,
                "plain" => (lex, str_) = (true, true),
                _ => {
                    let (kind, space) = part.split_once('-').ok_or_else(|| bad(part))?;
                    let pair = (
                        kind.parse::<BtkKind>().map_err(|_| bad(part))?,
                        space.parse::<Space>().map_err(|_| bad(part))?,
                    );
                    if !btks.contains(&pair) {
                        btks.push(pair);
                    }
                }
            }
        }
        if str_ && !lex {
            return Err(bad("str without lex"));
        }
        for (on, name) in [(unknown, "unk"), (orth, "orth"), (chain, "chain"), (node, "node")] {
            if on && !context {
                return Err(bad(&format!("{name} without ctx")));
            }
        }
        let plain = match (lex, str_) {
            (false, _) => None,
            (true, false) => Some(PlainSet::Lex),
            (true, true) => Some(PlainSet::LexStr),
        };
        let mut spec = KernelSpec {
            plain,
            context,
            unknown,
            orth,
            chain,
            node,
            history,
            btks,
            thetas: Vec::new(),
            lambda: DEFAULT_LAMBDA,
        };
        let n = spec.components();
        if n == 0 {
            return Err(bad(s));
        }
        spec.thetas = vec![1.0 / n as f64; n];
        Ok(spec)
    }
}

impl fmt::Display for KernelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        match self.plain {
            Some(PlainSet::Lex) => parts.push("lex".into()),
            Some(PlainSet::LexStr) if self.components() == 1 => parts.push("lex+str".into()),
            Some(PlainSet::LexStr) => parts.push("plain".into()),
            None => {}
        }
        if self.context {
            parts.push("ctx".into());
        }
        for (on, name) in [(self.unknown, "unk"), (self.orth, "orth"), (self.chain, "chain"), (self.node, "node")] {
            if self.context && on {
                parts.push(name.into());
            }
        }
        if self.history {
            parts.push("hist".into());
        }
        parts.extend(self.btks.iter().map(|(k, s)| format!("{k}-{s}")));
        f.write_str(&parts.join("+"))
    }
}

/// `(x·y + 1)²`: the polynomial kernel of degree 2 on plain features.
pub fn polynomial_kernel(x: &[f64], y: &[f64]) -> f64 {
    let dot = crate::math::dot(x, y);
    (dot + 1.0) * (dot + 1.0)
}

/// The explicit feature map of `(x·y + 1)²`: `[1, √2·x_i, x_i², √2·x_i·x_j (i<j)]`,
/// so that `φ(x)·φ(y)` is the polynomial kernel (used to fold the support
/// vectors' plain part into one weight vector).
pub fn polynomial_feature_map(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut phi = Vec::with_capacity(1 + 2 * n + n * (n - 1) / 2);
    phi.push(1.0);
    phi.extend(x.iter().map(|v| std::f64::consts::SQRT_2 * v));
    phi.extend(x.iter().map(|v| v * v));
    for i in 0..n {
        for j in i + 1..n {
            phi.push(std::f64::consts::SQRT_2 * x[i] * x[j]);
        }
    }
    phi
}

/// One candidate sub-tree pair as a kernel instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub source: SubTreeKey,
    pub target: SubTreeKey,
    pub plain: [f64; N_PLAIN],
    /// Its context (for `ctx`).
    pub context: Option<ContextKey>,
    /// The first pass's decisions around it (for `hist`).
    pub history: Option<Vec<f64>>,
}

/// A candidate's context as the kernel sees it: the dense features and the
/// interned label pairs ([`StructureIndex::label_pair`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ContextKey {
    pub dense: Vec<f64>,
    pub labels: u32,
    pub parent_labels: Option<u32>,
}

impl ContextKey {
    /// The label kernel of the key with itself.
    pub fn label_self(&self) -> f64 {
        (1.0 + f64::from(u8::from(self.parent_labels.is_some()))) / 2.0
    }
}

/// `(I[label pairs equal] + I[parent label pairs equal]) / 2`.
pub fn label_kernel(x: &ContextKey, y: &ContextKey) -> f64 {
    let same = |a: bool| f64::from(u8::from(a));
    (same(x.labels == y.labels) + same(x.parent_labels.is_some() && x.parent_labels == y.parent_labels)) / 2.0
}

/// The `ctx` kernel (see [`super::context`]): the mean of the normalised
/// polynomial kernel on the dense features and the normalised label kernel,
/// given each key's self parts `(poly, label)`.
pub fn context_kernel(x: &ContextKey, sx: (f64, f64), y: &ContextKey, sy: (f64, f64)) -> f64 {
    0.5 * (normalize(polynomial_kernel(&x.dense, &y.dense), sx.0, sy.0) + normalize(label_kernel(x, y), sx.1, sy.1))
}

/// An instance in the composite kernel's explicit feature space, when every
/// component has a finite one (`lex`/`plain`, `ctx`, `hist` and `*-root`):
/// `K(x, y) = Σ_blocks s_x s_y (v_x·v_y + 1)² + Σ_same keys a_x a_y`, the
/// dot product of `[s φ(v) per block, a per key]` (φ the degree-2 map of
/// [`polynomial_feature_map`]). SST, RdSST and RgSST sum over tree
/// fragments without bound, so they have none here.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplicitFeatures {
    /// `(s, v)` per polynomial part, in component order (plain, ctx, hist);
    /// `s` folds in `√θ` and the normalisation.
    pub poly: Vec<(f64, Vec<f64>)>,
    /// Indicator features with their values.
    pub indicators: Vec<(Indicator, f64)>,
}

/// An indicator feature of [`ExplicitFeatures`]: interned labels
/// ([`StructureIndex`]) and the component (index into the spec's BTKs) it
/// belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Indicator {
    /// `ctx`: the candidate's label pair, and its parents' label pair.
    Labels(u32),
    ParentLabels(u32),
    /// dBTK-Root: the pair of root labels.
    RootPair {
        btk: usize,
        source: u32,
        target: u32,
    },
    /// iBTK-Root: each side's root label.
    SourceRoot {
        btk: usize,
        label: u32,
    },
    TargetRoot {
        btk: usize,
        label: u32,
    },
}

impl ExplicitFeatures {
    /// `K(x, y)` from the two explicit vectors.
    pub fn dot(&self, other: &ExplicitFeatures) -> f64 {
        let poly: f64 = self
            .poly
            .iter()
            .zip(&other.poly)
            .filter(|((_, a), (_, b))| a.len() == b.len() && !a.is_empty())
            .map(|((sa, a), (sb, b))| sa * sb * polynomial_kernel(a, b))
            .sum();
        let indicators: f64 = self
            .indicators
            .iter()
            .flat_map(|(k, a)| other.indicators.iter().filter(move |(l, _)| l == k).map(move |(_, b)| a * b))
            .sum();
        poly + indicators
    }
}

impl KernelSpec {
    /// Whether every component has a finite explicit feature map
    /// ([`ExplicitFeatures`]); `None`, else the first component without one.
    pub fn non_explicit_component(&self) -> Option<String> {
        self.btks.iter().find(|(_, space)| *space != Space::Root).map(|(k, s)| format!("{k}-{s}"))
    }
}

/// The composite kernel over a set of instances, with their self-kernels
/// precomputed for normalisation.
#[derive(Debug)]
pub struct CompositeKernel<'a> {
    spec: &'a KernelSpec,
    index: &'a StructureIndex,
    /// Per instance, per component: `K(x, x)` (for a BTK: source and target parts).
    selfs: Vec<Vec<(f64, f64)>>,
}

impl<'a> CompositeKernel<'a> {
    pub fn new(spec: &'a KernelSpec, index: &'a StructureIndex, instances: &[&Instance]) -> Self {
        let mut k = CompositeKernel { spec, index, selfs: Vec::new() };
        k.selfs = instances.iter().map(|x| k.self_parts(x)).collect();
        k
    }

    /// The self-kernel parts of an instance, component by component.
    pub fn self_parts(&self, x: &Instance) -> Vec<(f64, f64)> {
        let mut parts = Vec::with_capacity(self.spec.components());
        if let Some(set) = self.spec.plain {
            let v = set.select(&x.plain);
            parts.push((polynomial_kernel(v, v), 0.0));
        }
        if self.spec.context {
            parts.push(
                x.context.as_ref().map_or((0.0, 0.0), |c| (polynomial_kernel(&c.dense, &c.dense), c.label_self())),
            );
        }
        if self.spec.history {
            parts.push(x.history.as_ref().map_or((0.0, 0.0), |h| (polynomial_kernel(h, h), 0.0)));
        }
        for &(_, space) in &self.spec.btks {
            parts.push((
                self.index.tree_kernel(space, &x.source, &x.source),
                self.index.tree_kernel(space, &x.target, &x.target),
            ));
        }
        parts
    }

    /// `K(x, y)` for instances with precomputed self parts `sx`, `sy`.
    pub fn eval_with(&self, x: &Instance, sx: &[(f64, f64)], y: &Instance, sy: &[(f64, f64)]) -> f64 {
        let mut total = 0.0;
        let mut c = 0;
        if let Some(set) = self.spec.plain {
            let k = polynomial_kernel(set.select(&x.plain), set.select(&y.plain));
            total += self.spec.thetas[c] * normalize(k, sx[c].0, sy[c].0);
            c += 1;
        }
        if self.spec.context {
            // The normalised `ctx` kernel, 0 when either instance has no context.
            total += self.spec.thetas[c]
                * match (&x.context, &y.context) {
                    (Some(a), Some(b)) => context_kernel(a, sx[c], b, sy[c]),
                    _ => 0.0,
                };
            c += 1;
        }
        if self.spec.history {
            // The normalised `hist` kernel: the polynomial kernel on the first pass's decisions.
            total += self.spec.thetas[c]
                * match (&x.history, &y.history) {
                    (Some(a), Some(b)) => normalize(polynomial_kernel(a, b), sx[c].0, sy[c].0),
                    _ => 0.0,
                };
            c += 1;
        }
        for &(kind, space) in &self.spec.btks {
            let theta = self.spec.thetas[c];
            if theta != 0.0 {
                total += theta * self.btk_normalized(kind, space, x, &sx[c], y, &sy[c]);
            }
            c += 1;
        }
        total
    }

    /// A normalised BTK given the self parts `(K(S,S), K(T,T))` of both sides.
    pub fn btk_normalized(
        &self,
        kind: BtkKind,
        space: Space,
        x: &Instance,
        sx: &(f64, f64),
        y: &Instance,
        sy: &(f64, f64),
    ) -> f64 {
        let ks = self.index.tree_kernel(space, &x.source, &y.source);
        let kt = self.index.tree_kernel(space, &x.target, &y.target);
        match kind {
            BtkKind::Ibtk => normalize(ks + kt, sx.0 + sx.1, sy.0 + sy.1),
            BtkKind::Dbtk => normalize(ks * kt, sx.0 * sx.1, sy.0 * sy.1),
        }
    }

    /// The explicit feature vector of `x` with self parts `sx`
    /// ([`ExplicitFeatures`]), `None` when a component has none.
    pub fn explicit(&self, x: &Instance, sx: &[(f64, f64)]) -> Option<ExplicitFeatures> {
        if self.spec.non_explicit_component().is_some() {
            return None;
        }
        // √θ / √(self value), so that each block's dot product is θ K̂.
        let scale = |theta: f64, self_value: f64| if self_value > 0.0 { (theta / self_value).sqrt() } else { 0.0 };
        let mut out = ExplicitFeatures { poly: Vec::new(), indicators: Vec::new() };
        let mut c = 0;
        if let Some(set) = self.spec.plain {
            out.poly.push((scale(self.spec.thetas[c], sx[c].0), set.select(&x.plain).to_vec()));
            c += 1;
        }
        if self.spec.context {
            // ½ (normalised polynomial + normalised label kernel); the label
            // kernel is (I[labels] + I[parent labels]) / 2.
            let theta = self.spec.thetas[c] / 2.0;
            match &x.context {
                Some(k) => {
                    out.poly.push((scale(theta, sx[c].0), k.dense.clone()));
                    let a = scale(theta / 2.0, sx[c].1);
                    out.indicators.push((Indicator::Labels(k.labels), a));
                    if let Some(p) = k.parent_labels {
                        out.indicators.push((Indicator::ParentLabels(p), a));
                    }
                }
                None => out.poly.push((0.0, Vec::new())),
            }
            c += 1;
        }
        if self.spec.history {
            match &x.history {
                Some(h) => out.poly.push((scale(self.spec.thetas[c], sx[c].0), h.clone())),
                None => out.poly.push((0.0, Vec::new())),
            }
            c += 1;
        }
        for (btk, &(kind, _)) in self.spec.btks.iter().enumerate() {
            let (source, target) = (x.source.root_label(), x.target.root_label());
            let theta = self.spec.thetas[c];
            match kind {
                BtkKind::Dbtk => {
                    out.indicators.push((Indicator::RootPair { btk, source, target }, scale(theta, sx[c].0 * sx[c].1)))
                }
                BtkKind::Ibtk => {
                    let a = scale(theta, sx[c].0 + sx[c].1);
                    out.indicators.push((Indicator::SourceRoot { btk, label: source }, a));
                    out.indicators.push((Indicator::TargetRoot { btk, label: target }, a));
                }
            }
            c += 1;
        }
        Some(out)
    }

    /// `K(x_i, x_j)` between instances given at construction.
    pub fn eval(&self, instances: &[&Instance], i: usize, j: usize) -> f64 {
        self.eval_with(instances[i], &self.selfs[i], instances[j], &self.selfs[j])
    }

    pub fn selfs(&self, i: usize) -> &[(f64, f64)] {
        &self.selfs[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{btk_normalized, SubTreePair};
    use crate::tree::{NodeId, Tree};

    #[test]
    fn specs_parse_and_print() {
        for s in ["lex", "lex+str", "plain+dbtk-root+ibtk-rgsst", "ibtk-sst", "plain+ibtk-rdsst"] {
            assert_eq!(s.parse::<KernelSpec>().unwrap().to_string(), s);
        }
        let k: KernelSpec = "plain+dbtk-root+ibtk-rgsst".parse().unwrap();
        assert_eq!(k.plain, Some(PlainSet::LexStr));
        assert_eq!(k.btks, [(BtkKind::Dbtk, Space::Root), (BtkKind::Ibtk, Space::RgSst)]);
        assert_eq!(k.thetas, [1.0 / 3.0; 3]);
        assert_eq!(k.clone().with_thetas(&[2.0, 1.0, 1.0]).unwrap().thetas, [0.5, 0.25, 0.25]);
        assert!(k.with_thetas(&[1.0]).is_none());
        for bad in ["", "str", "ibtk", "xbtk-sst", "ibtk-ptk", "lex+foo", "plain+unk"] {
            assert!(bad.parse::<KernelSpec>().is_err(), "{bad}");
        }
        // unk, orth, chain and node widen ctx; none is a component of its own, and the paper's specs do not name them.
        let w: KernelSpec = "plain+node+ctx+chain+orth+unk".parse().unwrap();
        assert_eq!((w.to_string(), w.components()), ("plain+ctx+unk+orth+chain+node".to_string(), 2));
        assert_eq!(w.context_parts(), ContextParts { unknown: true, orth: true, chain: true, node: true });
        for bad in ["plain+orth", "plain+chain", "plain+node"] {
            assert!(bad.parse::<KernelSpec>().is_err(), "{bad}");
        }
        let u: KernelSpec = "plain+unk+ctx+dbtk-root".parse().unwrap();
        assert_eq!((u.to_string(), u.components(), u.unknown), ("plain+ctx+unk+dbtk-root".to_string(), 3, true));
        assert!(!serde_json::to_string(&KernelSpec::paper_best()).unwrap().contains("unknown"));
        assert!(serde_json::to_string(&u).unwrap().contains("\"unknown\":true"));
    }

    #[test]
    fn the_explicit_map_reproduces_the_kernel() {
        let trees = [
            ("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "(S (NP (DT el) (NN perro)) (VP (VBZ ladra)))"),
            ("(NP (DT a) (NN dog))", "(NP (DT un) (NN perro))"),
            ("(VP (VBZ sleeps))", "(S (VP (VBZ duerme)))"),
            ("(NP (NN dogs))", "(VP (VBZ ladra))"),
        ];
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut index = StructureIndex::new(0.4);
        let labels = ["NP-NP", "S-S", "VP-S"];
        let mut instances = Vec::new();
        for (k, (s, t)) in trees.iter().enumerate() {
            let (s, t) = (Tree::parse_one(s, "s").unwrap(), Tree::parse_one(t, "t").unwrap());
            let (is, it) = (index.index_tree(&s), index.index_tree(&t));
            let mut plain = [0.0; N_PLAIN];
            plain.iter_mut().for_each(|v| *v = rng.symmetric());
            let (a, b) = labels[k % 3].split_once('-').unwrap();
            let (p, q) = labels[(k + 1) % 3].split_once('-').unwrap();
            let context = ContextKey {
                dense: (0..5).map(|_| rng.symmetric()).collect(),
                labels: index.label_pair(a, b),
                parent_labels: (k != 2).then(|| index.label_pair(p, q)),
            };
            instances.push(Instance {
                source: index.subtree_key(&s, &is, NodeId::new(0)),
                target: index.subtree_key(&t, &it, NodeId::new(0)),
                plain,
                context: Some(context),
                history: Some((0..4).map(|_| rng.symmetric()).collect()),
            });
        }
        let refs: Vec<&Instance> = instances.iter().collect();
        for spec in ["lex", "plain+dbtk-root", "plain+ctx+ibtk-root+dbtk-root", "lex+ctx+hist+dbtk-root", "ctx"] {
            let spec: KernelSpec = spec.parse().unwrap();
            let n = spec.components();
            let spec = spec.with_thetas(&(1..=n).map(|w| w as f64).collect::<Vec<_>>()).unwrap();
            let k = CompositeKernel::new(&spec, &index, &refs);
            let maps: Vec<ExplicitFeatures> =
                (0..refs.len()).map(|i| k.explicit(refs[i], k.selfs(i)).unwrap()).collect();
            for i in 0..refs.len() {
                for j in 0..refs.len() {
                    let (want, got) = (k.eval(&refs, i, j), maps[i].dot(&maps[j]));
                    assert!((want - got).abs() < 1e-12, "{spec} K({i}, {j}) = {want}, explicit {got}");
                }
            }
        }
        let with_tree_kernel: KernelSpec = "plain+ctx+dbtk-root+ibtk-rgsst".parse().unwrap();
        assert_eq!(with_tree_kernel.non_explicit_component().as_deref(), Some("ibtk-rgsst"));
        assert!(CompositeKernel::new(&with_tree_kernel, &index, &refs).explicit(refs[0], &[(1.0, 1.0); 4]).is_none());
    }

    #[test]
    fn composite_kernel_by_hand() {
        let s1 = Tree::parse_one("(NP (DT the) (NN dog))", "s1").unwrap();
        let t1 = Tree::parse_one("(NP (DT el) (NN perro))", "t1").unwrap();
        let s2 = Tree::parse_one("(NP (DT a) (NN dog))", "s2").unwrap();
        let t2 = Tree::parse_one("(NP (DT un) (NN perro))", "t2").unwrap();
        let mut index = StructureIndex::new(0.4);
        let mut inst = |s: &Tree, t: &Tree, plain: [f64; N_PLAIN]| {
            let (is, it) = (index.index_tree(s), index.index_tree(t));
            Instance {
                source: index.subtree_key(s, &is, NodeId::new(0)),
                target: index.subtree_key(t, &it, NodeId::new(0)),
                plain,
                context: None,
                history: None,
            }
        };
        let (mut p1, mut p2) = ([0.0; N_PLAIN], [0.0; N_PLAIN]);
        (p1[0], p2[1]) = (1.0, 1.0);
        let (x, y) = (inst(&s1, &t1, p1), inst(&s2, &t2, p2));
        let spec = "lex+dbtk-sst".parse::<KernelSpec>().unwrap().with_thetas(&[0.25, 0.75]).unwrap();
        let k = CompositeKernel::new(&spec, &index, &[&x, &y]);
        // Plain: (0+1)² / sqrt((1+1)² (1+1)²) = 1/4. dBTK-SST normalised: as in crate::kernel.
        let (xp, yp) = (SubTreePair::whole(&s1, &t1), SubTreePair::whole(&s2, &t2));
        let btk = btk_normalized(BtkKind::Dbtk, Space::Sst, 0.4, xp, yp).unwrap();
        let expected = 0.25 * 0.25 + 0.75 * btk;
        assert!((k.eval(&[&x, &y], 0, 1) - expected).abs() < 1e-12);
        assert!((k.eval(&[&x, &y], 0, 0) - 1.0).abs() < 1e-12, "normalised components weighted to sum 1");
    }
}
