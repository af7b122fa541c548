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

/// A composite kernel: optional plain polynomial kernel plus BTKs, with weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelSpec {
    pub plain: Option<PlainSet>,
    pub btks: Vec<(BtkKind, Space)>,
    /// One weight per component, the plain kernel first; they sum to 1.
    pub thetas: Vec<f64>,
    /// Decay λ of the tree kernels.
    pub lambda: f64,
}

impl KernelSpec {
    /// Number of components (plain kernel and BTKs).
    pub fn components(&self) -> usize {
        usize::from(self.plain.is_some()) + self.btks.len()
    }

    /// A name per component, in order: `plain` (or `lex`), then `dbtk-root`, ….
    pub fn component_names(&self) -> Vec<String> {
        let plain = self.plain.map(|p| match p {
            PlainSet::Lex => "lex".to_string(),
            PlainSet::LexStr => "plain".to_string(),
        });
        plain.into_iter().chain(self.btks.iter().map(|(k, s)| format!("{k}-{s}"))).collect()
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
            expected: "lex, str (with lex), plain, or KIND-SPACE with KIND ibtk|dbtk and SPACE sst|rdsst|rgsst|root",
        };
        let (mut lex, mut str_, mut btks) = (false, false, Vec::new());
        for part in s.split('+').map(str::trim) {
            match part {
                "lex" => lex = true,
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
        let plain = match (lex, str_) {
            (false, _) => None,
            (true, false) => Some(PlainSet::Lex),
            (true, true) => Some(PlainSet::LexStr),
        };
        let n = usize::from(plain.is_some()) + btks.len();
        if n == 0 {
            return Err(bad(s));
        }
        Ok(KernelSpec { plain, btks, thetas: vec![1.0 / n as f64; n], lambda: DEFAULT_LAMBDA })
    }
}

impl fmt::Display for KernelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        match self.plain {
            Some(PlainSet::Lex) => parts.push("lex".into()),
            Some(PlainSet::LexStr) if self.btks.is_empty() => parts.push("lex+str".into()),
            Some(PlainSet::LexStr) => parts.push("plain".into()),
            None => {}
        }
        parts.extend(self.btks.iter().map(|(k, s)| format!("{k}-{s}")));
        f.write_str(&parts.join("+"))
    }
}

/// `(x·y + 1)²`: the polynomial kernel of degree 2 on plain features.
pub fn polynomial_kernel(x: &[f64], y: &[f64]) -> f64 {
    let dot: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
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
        for &(kind, space) in &self.spec.btks {
            let theta = self.spec.thetas[c];
            if theta != 0.0 {
                total += theta * self.btk_normalized(kind, space, x, &sx[c], y, &sy[c]);
            }
            c += 1;
        }
        total
    }

    /// Each component's weighted, normalised kernel `θ_c K̂_c(x, y)`; they sum to `K(x, y)`.
    pub fn component_values(&self, x: &Instance, sx: &[(f64, f64)], y: &Instance, sy: &[(f64, f64)]) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.spec.components());
        let mut c = 0;
        if let Some(set) = self.spec.plain {
            let k = polynomial_kernel(set.select(&x.plain), set.select(&y.plain));
            out.push(self.spec.thetas[c] * normalize(k, sx[c].0, sy[c].0));
            c += 1;
        }
        for &(kind, space) in &self.spec.btks {
            out.push(self.spec.thetas[c] * self.btk_normalized(kind, space, x, &sx[c], y, &sy[c]));
            c += 1;
        }
        out
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
    use crate::tree::Tree;

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
        for bad in ["", "str", "ibtk", "xbtk-sst", "ibtk-ptk", "lex+foo"] {
            assert!(bad.parse::<KernelSpec>().is_err(), "{bad}");
        }
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
            Instance { source: index.subtree_key(s, &is, 0), target: index.subtree_key(t, &it, 0), plain }
        };
        let mut p1 = [0.0; N_PLAIN];
        p1[0] = 1.0;
        let mut p2 = [0.0; N_PLAIN];
        p2[1] = 1.0;
        let x = inst(&s1, &t1, p1);
        let y = inst(&s2, &t2, p2);
        let spec = "lex+dbtk-sst".parse::<KernelSpec>().unwrap().with_thetas(&[0.25, 0.75]).unwrap();
        let k = CompositeKernel::new(&spec, &index, &[&x, &y]);
        // Plain: (0+1)² / sqrt((1+1)² (1+1)²) = 1/4. dBTK-SST normalised: as in crate::kernel.
        let btk =
            btk_normalized(BtkKind::Dbtk, Space::Sst, 0.4, SubTreePair::whole(&s1, &t1), SubTreePair::whole(&s2, &t2))
                .unwrap();
        let expected = 0.25 * 0.25 + 0.75 * btk;
        assert!((k.eval(&[&x, &y], 0, 1) - expected).abs() < 1e-12);
        assert!((k.eval(&[&x, &y], 0, 0) - 1.0).abs() < 1e-12, "normalised components weighted to sum 1");
    }
}
