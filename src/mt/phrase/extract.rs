//! Phrase extraction.
//!
//! Positions are 0-based and spans half-open. A word alignment `A` is a set
//! of links `(i, j)`: source word i – target word j (links outside the
//! sentences are ignored).
//!
//! * **Consistent with the word alignment** (Koehn, Och & Marcu 2003): the
//!   pair of spans (`S`, `T`) is consistent with `A` iff at least one link
//!   has `i ∈ S` and `j ∈ T`, and no link has exactly one end inside (for
//!   every `(i, j) ∈ A`: `i ∈ S ⇔ j ∈ T`). Unaligned words at the edges of a
//!   consistent pair may be included or not, which gives the usual extra
//!   pairs. [`consistent_pairs`] lists *all* consistent pairs whose two
//!   sides have at most `max_phrase_len` words (default
//!   [`DEFAULT_MAX_PHRASE_LEN`] = 7).
//! * **Consistent with the sub-tree alignment**: a sub-tree link `(s, t)`
//!   between source node `s` and target node `t` stands for the phrase pair
//!   (`span(s)`, `span(t)`) of the two nodes' yields; the pairs consistent
//!   with a sub-tree alignment are exactly these span pairs, without
//!   repeats within a sentence (two links with the same spans, e.g. through
//!   unary nodes, give one pair), and within the same length limit
//!   ([`subtree_pairs`]). No extension over unaligned words is made: a
//!   linked constituent is taken as annotated.
//! * [`ExtractMethod`] combines the two sets of a sentence pair, `W` (word)
//!   and `T` (sub-tree), into counted phrase pairs ([`combine`]):
//!   - `Word`: every pair of `W` once;
//!   - `DirC` (*directly concatenate*, Tinsley et al. 2009): the rule sets
//!     are concatenated, every pair of `W` once *plus* every pair of `T`
//!     once, so a syntactic pair that is also word-consistent counts twice;
//!   - `EWoS` (*either word or sub-tree*): every pair consistent with either
//!     alignment, i.e. every pair of `W ∪ T`, once ("without redundant
//!     counts for syntactic rules").
//!

use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::tree::{NodeId, Tree};

/// Longest phrase (on either side) extracted unless told otherwise (Moses' default).
pub const DEFAULT_MAX_PHRASE_LEN: usize = 7;

/// A phrase pair as two half-open spans: source words `src.0..src.1`,
/// target words `trg.0..trg.1`. Ordered by source span, then target span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SpanPair {
    pub src: (usize, usize),
    pub trg: (usize, usize),
}

impl SpanPair {
    pub fn new(src: Range<usize>, trg: Range<usize>) -> SpanPair {
        SpanPair { src: (src.start, src.end), trg: (trg.start, trg.end) }
    }

    pub fn src_len(&self) -> usize {
        self.src.1.saturating_sub(self.src.0)
    }

    pub fn trg_len(&self) -> usize {
        self.trg.1.saturating_sub(self.trg.0)
    }
}

/// How the phrase pairs of a sentence pair are collected (module documentation).
/// Written in model files as its CLI name (`word`, `dirc`, `ewos`); the
/// Rust names of the first model files (`Word`, `DirC`, `EWoS`) still read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExtractMethod {
    /// Phrase pairs consistent with the word alignment only.
    #[default]
    #[serde(alias = "Word")]
    Word,
    /// Word-alignment pairs plus sub-tree pairs, concatenated (a pair in both counts twice).
    #[serde(alias = "DirC")]
    DirC,
    /// Pairs consistent with either alignment, each once.
    #[serde(alias = "EWoS")]
    EWoS,
}

impl ExtractMethod {
    pub const ALL: [ExtractMethod; 3] = [ExtractMethod::Word, ExtractMethod::DirC, ExtractMethod::EWoS];

    pub fn name(self) -> &'static str {
        match self {
            ExtractMethod::Word => "word",
            ExtractMethod::DirC => "dirc",
            ExtractMethod::EWoS => "ewos",
        }
    }
}

display_by_name!(ExtractMethod);

/// An unknown extraction method name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected an extraction method (word, dirc, ewos), found '{0}'")]
pub struct UnknownMethod(pub String);

impl FromStr for ExtractMethod {
    type Err = UnknownMethod;
    fn from_str(s: &str) -> Result<Self, UnknownMethod> {
        let key = s.to_ascii_lowercase();
        ExtractMethod::ALL.into_iter().find(|m| m.name() == key).ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

/// All phrase pairs consistent with the word alignment (Koehn et al. 2003)
/// with at most `max_len` words on each side, sorted. Links outside the
/// sentences are ignored. Cost: O(n · max_len · (max_len + links)).
pub fn consistent_pairs(n_src: usize, n_trg: usize, alignment: &[(usize, usize)], max_len: usize) -> Vec<SpanPair> {
    let mut out = Vec::new();
    if max_len == 0 {
        return out;
    }
    let mut t_of_s = vec![Vec::new(); n_src];
    let mut s_of_t = vec![Vec::new(); n_trg];
    for &(i, j) in alignment {
        if i < n_src && j < n_trg {
            t_of_s[i].push(j);
            s_of_t[j].push(i);
        }
    }
    for fs in 0..n_src {
        let (mut lo, mut hi) = (usize::MAX, 0usize);
        for (fe, targets) in t_of_s.iter().enumerate().take(fs.saturating_add(max_len)).skip(fs) {
            for &j in targets {
                lo = lo.min(j);
                hi = hi.max(j);
            }
            if lo == usize::MAX {
                continue;
            }
            if hi - lo + 1 > max_len {
                break; // the target span only grows with fe
            }
            let consistent = (lo..=hi).all(|j| s_of_t[j].iter().all(|&i| fs <= i && i <= fe));
            if !consistent {
                continue;
            }
            // Extend over unaligned target words on both sides.
            let mut ts = lo;
            loop {
                let mut te = hi;
                while te + 1 - ts <= max_len {
                    out.push(SpanPair { src: (fs, fe + 1), trg: (ts, te + 1) });
                    te += 1;
                    if te >= n_trg || !s_of_t[te].is_empty() {
                        break;
                    }
                }
                if ts == 0 || !s_of_t[ts - 1].is_empty() {
                    break;
                }
                ts -= 1;
                if hi + 1 - ts > max_len {
                    break;
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// The phrase pairs of sub-tree links: (`span(s)`, `span(t)`) for each link
/// `(s, t)`, sorted and without repeats, leaving out links naming a node
/// outside its tree and pairs with a side longer than `max_len`.
pub fn subtree_pairs(source: &Tree, target: &Tree, links: &[(NodeId, NodeId)], max_len: usize) -> Vec<SpanPair> {
    let mut out: Vec<SpanPair> = links
        .iter()
        .filter(|&&(s, t)| source.contains(s) && target.contains(t))
        .map(|&(s, t)| SpanPair::new(source.span(s), target.span(t)))
        .filter(|p| (1..=max_len).contains(&p.src_len()) && (1..=max_len).contains(&p.trg_len()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Combines the word-alignment pairs and the sub-tree pairs of one sentence
/// pair by `method` into (pair, count), sorted by pair (module documentation).
pub fn combine(word: &[SpanPair], subtree: &[SpanPair], method: ExtractMethod) -> Vec<(SpanPair, u32)> {
    let mut w = word.to_vec();
    w.sort_unstable();
    w.dedup();
    let mut t = subtree.to_vec();
    t.sort_unstable();
    t.dedup();
    let mut all: Vec<(SpanPair, u32)> = w.iter().map(|&p| (p, 1)).collect();
    match method {
        ExtractMethod::Word => {}
        ExtractMethod::DirC => all.extend(t.iter().map(|&p| (p, 1))),
        ExtractMethod::EWoS => all.extend(t.iter().filter(|p| w.binary_search(p).is_err()).map(|&p| (p, 1))),
    }
    all.sort_unstable();
    let mut out: Vec<(SpanPair, u32)> = Vec::with_capacity(all.len());
    for (p, c) in all {
        match out.last_mut() {
            Some(last) if last.0 == p => last.1 += c,
            _ => out.push((p, c)),
        }
    }
    out
}

/// Extraction settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExtractOptions {
    pub method: ExtractMethod,
    /// Longest phrase on either side (default 7).
    pub max_phrase_len: usize,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions { method: ExtractMethod::Word, max_phrase_len: DEFAULT_MAX_PHRASE_LEN }
    }
}

/// One word-aligned sentence pair with its sub-tree phrase pairs (empty if none).
#[derive(Debug, Clone, Copy)]
pub struct AlignedPair<'a> {
    pub source: &'a [String],
    pub target: &'a [String],
    pub alignment: &'a [(usize, usize)],
    /// Phrase pairs from the sub-tree alignment ([`subtree_pairs`]); used by DirC and EWoS.
    pub subtree: &'a [SpanPair],
}

/// The counted phrase pairs of one sentence pair.
pub fn extract(pair: &AlignedPair<'_>, options: &ExtractOptions) -> Vec<(SpanPair, u32)> {
    let (n, m) = (pair.source.len(), pair.target.len());
    let word = consistent_pairs(n, m, pair.alignment, options.max_phrase_len);
    let max = options.max_phrase_len;
    let subtree: Vec<SpanPair> = pair
        .subtree
        .iter()
        .copied()
        .filter(|p| p.src.0 < p.src.1 && p.src.1 <= n && p.trg.0 < p.trg.1 && p.trg.1 <= m)
        .filter(|p| p.src_len() <= max && p.trg_len() <= max)
        .collect();
    combine(&word, &subtree, options.method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_methods_are_written_by_their_cli_names_and_old_names_still_read() {
        for m in ExtractMethod::ALL {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.name()));
            assert_eq!(serde_json::from_str::<ExtractMethod>(&json).unwrap(), m);
        }
        let old: Vec<ExtractMethod> = serde_json::from_str(r#"["Word", "DirC", "EWoS"]"#).unwrap();
        assert_eq!(old, ExtractMethod::ALL);
    }

    #[test]
    fn unaligned_edges_both_sides() {
        // "a b" / "x y z": a-y; b, x, z unaligned.
        let p = consistent_pairs(2, 3, &[(0, 1)], 7);
        let expected = [
            SpanPair::new(0..1, 0..2),
            SpanPair::new(0..1, 0..3),
            SpanPair::new(0..1, 1..2),
            SpanPair::new(0..1, 1..3),
            SpanPair::new(0..2, 0..2),
            SpanPair::new(0..2, 0..3),
            SpanPair::new(0..2, 1..2),
            SpanPair::new(0..2, 1..3),
        ];
        assert_eq!(p, expected);
    }

    #[test]
    fn out_of_range_links_and_zero_length() {
        assert!(consistent_pairs(2, 2, &[(0, 0), (5, 1), (1, 9)], 0).is_empty());
        assert_eq!(consistent_pairs(1, 1, &[(0, 0), (5, 1)], 3), [SpanPair::new(0..1, 0..1)]);
    }

    #[test]
    fn method_names() {
        for m in ExtractMethod::ALL {
            assert_eq!(m.name().parse::<ExtractMethod>(), Ok(m));
        }
        assert_eq!("EWoS".parse::<ExtractMethod>(), Ok(ExtractMethod::EWoS));
        assert!("both".parse::<ExtractMethod>().is_err());
    }
}
