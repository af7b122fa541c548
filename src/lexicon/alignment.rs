//! Word alignments, their symmetrisation (Koehn et al. 2003) and their
//! quality against hand links (Och & Ney 2003).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The word links of one sentence pair: `(i, j)` links source word `i` to
/// target word `j` (positions from 0). Kept sorted and without duplicates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "Vec<(usize, usize)>", into = "Vec<(usize, usize)>")]
pub struct WordAlignment {
    links: Vec<(usize, usize)>,
}

impl WordAlignment {
    /// The alignment with these links (sorted and deduplicated here).
    pub fn new(links: impl IntoIterator<Item = (usize, usize)>) -> WordAlignment {
        let mut links: Vec<_> = links.into_iter().collect();
        links.sort_unstable();
        links.dedup();
        WordAlignment { links }
    }

    /// The links `(source, target)` in increasing order.
    pub fn links(&self) -> &[(usize, usize)] {
        &self.links
    }

    pub fn contains(&self, i: usize, j: usize) -> bool {
        self.links.binary_search(&(i, j)).is_ok()
    }

    pub fn len(&self) -> usize {
        self.links.len()
    }

    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }

    /// The same links with source and target swapped.
    pub fn inverse(&self) -> WordAlignment {
        WordAlignment::new(self.links.iter().map(|&(i, j)| (j, i)))
    }

    /// The links that fit sentences of `n_src` and `n_trg` words.
    pub fn within(&self, n_src: usize, n_trg: usize) -> WordAlignment {
        WordAlignment { links: self.links.iter().copied().filter(|&(i, j)| i < n_src && j < n_trg).collect() }
    }
}

/// Read-only view of the sorted links, so a `&WordAlignment` is a `&[(usize, usize)]`.
impl std::ops::Deref for WordAlignment {
    type Target = [(usize, usize)];

    fn deref(&self) -> &Self::Target {
        &self.links
    }
}

impl AsRef<[(usize, usize)]> for WordAlignment {
    fn as_ref(&self) -> &[(usize, usize)] {
        &self.links
    }
}

impl From<Vec<(usize, usize)>> for WordAlignment {
    fn from(links: Vec<(usize, usize)>) -> Self {
        WordAlignment::new(links)
    }
}

impl From<WordAlignment> for Vec<(usize, usize)> {
    fn from(a: WordAlignment) -> Self {
        a.links
    }
}

impl fmt::Display for WordAlignment {
    /// `i-j` links separated by single spaces (one line of an alignment file).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (i, j)) in self.links.iter().enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{i}-{j}")?;
        }
        Ok(())
    }
}

/// How two directional alignments are combined into one (Koehn, Och & Marcu
/// 2003; the heuristics of Moses' `-alignment` option).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetrization {
    /// Links in both directions (high precision).
    Intersection,
    /// Links in either direction (high recall).
    Union,
    /// The intersection, grown with union links adjacent to a link
    /// (horizontally, vertically or diagonally) that align a so far unaligned word.
    GrowDiag,
    /// `GrowDiag`, then each directional link that aligns a so far unaligned word.
    GrowDiagFinal,
    /// `GrowDiag`, then each directional link whose two words are both unaligned.
    #[default]
    GrowDiagFinalAnd,
}

impl Symmetrization {
    pub const ALL: [Symmetrization; 5] = [
        Symmetrization::Intersection,
        Symmetrization::Union,
        Symmetrization::GrowDiag,
        Symmetrization::GrowDiagFinal,
        Symmetrization::GrowDiagFinalAnd,
    ];

    /// The Moses name (`grow-diag-final-and`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Symmetrization::Intersection => "intersection",
            Symmetrization::Union => "union",
            Symmetrization::GrowDiag => "grow-diag",
            Symmetrization::GrowDiagFinal => "grow-diag-final",
            Symmetrization::GrowDiagFinalAnd => "grow-diag-final-and",
        }
    }
}

display_by_name!(Symmetrization);

impl std::str::FromStr for Symmetrization {
    type Err = crate::kernel::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::kernel::UnknownName::find("symmetrisation", s, s, &Symmetrization::ALL, Symmetrization::name)
    }
}

/// Neighbours in the order of Koehn's pseudo-code: the four horizontal and
/// vertical ones, then the four diagonal ones.
const NEIGHBOURS: [(isize, isize); 8] = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)];

/// Combines the two directional alignments of one sentence pair of `n_src`
/// and `n_trg` words (`s2t` from the model `p(t|s)`, `t2s` from `p(s|t)`;
/// both as `(source, target)` links; links outside the sentences are ignored).
///
/// `grow-diag-final-and` follows Koehn's pseudo-code (Koehn 2010, ch. 4;
/// the Moses manual):
/// ```text
/// A = s2t ∩ t2s
/// GROW-DIAG: repeat until nothing is added:
///   for source word i = 0..n_src, target word j = 0..n_trg, if (i, j) ∈ A:
///     for each neighbour (i', j') of (i, j) (4 straight, then 4 diagonal):
///       if (i' unaligned or j' unaligned in A) and (i', j') ∈ s2t ∪ t2s: add it to A
/// FINAL-AND(s2t); FINAL-AND(t2s):
///   for i = 0..n_src, j = 0..n_trg: if (i, j) in the directional alignment
///     and i and j are both unaligned in A: add (i, j) to A
/// ```
/// (`grow-diag-final` adds in the final step when either word is unaligned.)
/// Points added during a sweep are seen later in the same sweep, so the
/// result is a deterministic function of the inputs.
pub fn symmetrize(
    s2t: &WordAlignment,
    t2s: &WordAlignment,
    n_src: usize,
    n_trg: usize,
    method: Symmetrization,
) -> WordAlignment {
    let (s2t, t2s) = (s2t.within(n_src, n_trg), t2s.within(n_src, n_trg));
    let union = || WordAlignment::new(s2t.links().iter().chain(t2s.links()).copied());
    let intersection = || WordAlignment::new(s2t.links().iter().copied().filter(|&(i, j)| t2s.contains(i, j)));
    match method {
        Symmetrization::Intersection => return intersection(),
        Symmetrization::Union => return union(),
        _ => {}
    }
    let in_union = {
        let mut m = vec![false; n_src * n_trg];
        for &(i, j) in union().links() {
            m[i * n_trg + j] = true;
        }
        m
    };
    let mut a = vec![false; n_src * n_trg];
    let mut src_aligned = vec![false; n_src];
    let mut trg_aligned = vec![false; n_trg];
    for &(i, j) in intersection().links() {
        a[i * n_trg + j] = true;
        src_aligned[i] = true;
        trg_aligned[j] = true;
    }
    // GROW-DIAG
    loop {
        let mut added = false;
        for i in 0..n_src {
            for j in 0..n_trg {
                if !a[i * n_trg + j] {
                    continue;
                }
                for (di, dj) in NEIGHBOURS {
                    let (Some(ni), Some(nj)) = (i.checked_add_signed(di), j.checked_add_signed(dj)) else {
                        continue;
                    };
                    if ni >= n_src || nj >= n_trg {
                        continue;
                    }
                    let k = ni * n_trg + nj;
                    if !a[k] && (!src_aligned[ni] || !trg_aligned[nj]) && in_union[k] {
                        a[k] = true;
                        src_aligned[ni] = true;
                        trg_aligned[nj] = true;
                        added = true;
                    }
                }
            }
        }
        if !added {
            break;
        }
    }
    // FINAL / FINAL-AND
    if method != Symmetrization::GrowDiag {
        let both = method == Symmetrization::GrowDiagFinalAnd;
        for directional in [&s2t, &t2s] {
            for &(i, j) in directional.links() {
                let k = i * n_trg + j;
                let free = if both { !src_aligned[i] && !trg_aligned[j] } else { !src_aligned[i] || !trg_aligned[j] };
                if !a[k] && free {
                    a[k] = true;
                    src_aligned[i] = true;
                    trg_aligned[j] = true;
                }
            }
        }
    }
    WordAlignment::new((0..n_src * n_trg).filter(|&k| a[k]).map(|k| (k / n_trg, k % n_trg)))
}

/// Precision, recall and alignment error rate of test links `A` against
/// sure links `S` and possible links `P ⊇ S` (Och & Ney 2003):
/// `precision = |A∩P| / |A|`, `recall = |A∩S| / |S|`,
/// `AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|)`, `f1` the harmonic mean of
/// precision and recall. With only sure links (`P = S`) AER is `1 − f1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct AlignmentQuality {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub aer: f64,
    /// `|A|`, `|S|`, `|P|` (P counting the sure links too).
    pub test_links: usize,
    pub sure_links: usize,
    pub possible_links: usize,
}

/// Scores `test` against `sure` and `possible` links, sentence pair by
/// sentence pair (a missing entry counts as an empty alignment; sure links
/// are possible too). Empty denominators give 0.
pub fn alignment_quality(
    test: &[WordAlignment],
    sure: &[WordAlignment],
    possible: &[WordAlignment],
) -> AlignmentQuality {
    let empty = WordAlignment::default();
    let n = test.len().max(sure.len()).max(possible.len());
    let (mut a, mut s, mut p, mut a_s, mut a_p) = (0, 0, 0, 0, 0);
    for k in 0..n {
        let t = test.get(k).unwrap_or(&empty);
        let sk = sure.get(k).unwrap_or(&empty);
        let pk = WordAlignment::new(sk.links().iter().chain(possible.get(k).unwrap_or(&empty).links()).copied());
        a += t.len();
        s += sk.len();
        p += pk.len();
        a_s += t.links().iter().filter(|&&(i, j)| sk.contains(i, j)).count();
        a_p += t.links().iter().filter(|&&(i, j)| pk.contains(i, j)).count();
    }
    let ratio = |x: usize, y: usize| if y == 0 { 0.0 } else { x as f64 / y as f64 };
    let precision = ratio(a_p, a);
    let recall = ratio(a_s, s);
    let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
    let aer = if a + s == 0 { 0.0 } else { 1.0 - (a_s + a_p) as f64 / (a + s) as f64 };
    AlignmentQuality { precision, recall, f1, aer, test_links: a, sure_links: s, possible_links: p }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_alignments_are_sorted_sets() {
        let a = WordAlignment::new([(2, 1), (0, 0), (2, 1), (1, 3)]);
        assert_eq!(a.links(), [(0, 0), (1, 3), (2, 1)]);
        assert_eq!(a.to_string(), "0-0 1-3 2-1");
        assert!(a.contains(1, 3) && !a.contains(3, 1));
        assert_eq!(a.inverse().to_string(), "0-0 1-2 3-1");
        assert_eq!(a.within(3, 3).to_string(), "0-0 2-1");
        assert_eq!(a.len(), 3);
        let slice: &[(usize, usize)] = &a;
        assert_eq!(slice.len(), 3);
        assert_eq!(serde_json::to_string(&a).unwrap(), "[[0,0],[1,3],[2,1]]");
        assert_eq!(serde_json::from_str::<WordAlignment>("[[2,1],[0,0]]").unwrap().to_string(), "0-0 2-1");
        assert_eq!(WordAlignment::default().to_string(), "");
    }

    #[test]
    fn symmetrisation_names() {
        for m in Symmetrization::ALL {
            assert_eq!(m.name().parse::<Symmetrization>(), Ok(m));
        }
        assert_eq!(Symmetrization::default(), Symmetrization::GrowDiagFinalAnd);
        let e = "grow".parse::<Symmetrization>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown symmetrisation 'grow': expected one of intersection, union, grow-diag, grow-diag-final, grow-diag-final-and"
        );
        assert_eq!(e.expected, Symmetrization::ALL.map(Symmetrization::name).join(", "));
    }

    #[test]
    fn grow_diag_only_adds_links_of_unaligned_words() {
        // Intersection {0-0, 1-1}; the union link 1-0 is next to both, but
        // its two words are aligned already, so no heuristic adds it.
        let s2t = WordAlignment::new([(0, 0), (1, 0), (1, 1)]);
        let t2s = WordAlignment::new([(0, 0), (1, 1)]);
        for m in [Symmetrization::GrowDiag, Symmetrization::GrowDiagFinal, Symmetrization::GrowDiagFinalAnd] {
            assert_eq!(symmetrize(&s2t, &t2s, 2, 2, m).to_string(), "0-0 1-1", "{m}");
        }
        assert_eq!(symmetrize(&s2t, &t2s, 2, 2, Symmetrization::Union).to_string(), "0-0 1-0 1-1");
        // Intersection {0-0}: its straight neighbour 1-0 is scanned first and
        // aligns source word 1; the diagonal neighbour 1-1 still joins because
        // target word 1 is unaligned.
        let s2t = WordAlignment::new([(0, 0), (1, 1)]);
        let t2s = WordAlignment::new([(0, 0), (1, 0)]);
        assert_eq!(symmetrize(&s2t, &t2s, 2, 2, Symmetrization::GrowDiag).to_string(), "0-0 1-0 1-1");
        assert_eq!(symmetrize(&s2t, &t2s, 2, 2, Symmetrization::Intersection).to_string(), "0-0");
        // Links outside the sentences are ignored.
        let out = WordAlignment::new([(5, 5)]);
        assert!(symmetrize(&out, &out, 2, 2, Symmetrization::GrowDiagFinalAnd).is_empty());
        assert!(symmetrize(&out, &out, 0, 0, Symmetrization::Union).is_empty());
    }

    #[test]
    fn quality_by_hand() {
        // A = {0-0, 1-1, 2-2}, S = {0-0, 1-2}, P = S ∪ {1-1}.
        let test = [WordAlignment::new([(0, 0), (1, 1), (2, 2)])];
        let sure = [WordAlignment::new([(0, 0), (1, 2)])];
        let possible = [WordAlignment::new([(1, 1)])];
        let q = alignment_quality(&test, &sure, &possible);
        // |A∩P| = 2, |A∩S| = 1: precision 2/3, recall 1/2, AER = 1 − 3/5.
        assert_eq!((q.test_links, q.sure_links, q.possible_links), (3, 2, 3));
        assert!((q.precision - 2.0 / 3.0).abs() < 1e-15);
        assert!((q.recall - 0.5).abs() < 1e-15);
        assert!((q.aer - 0.4).abs() < 1e-15);
        assert!((q.f1 - 4.0 / 7.0).abs() < 1e-15);
        let none = alignment_quality(&[], &[], &[]);
        assert_eq!((none.precision, none.recall, none.f1, none.aer), (0.0, 0.0, 0.0, 0.0));
        // Missing entries count as empty.
        assert_eq!(alignment_quality(&test, &[], &[]).recall, 0.0);
    }
}
