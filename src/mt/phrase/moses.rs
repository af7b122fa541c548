//! The extracted phrase pairs as a Moses phrase table, so the kernels
//! paper's extraction (word, DirC, EWoS; §7) can be used in Moses
//! (`mt-train --export-phrase-table F`).
//!
//! One line per phrase pair, as Moses' `train-model.perl` writes
//! `phrase-table`:
//!
//! ```text
//! source words ||| target words ||| φ(f̄|ē) lex(f̄|ē) φ(ē|f̄) lex(ē|f̄) ||| 0-0 1-1 ||| c(ē) c(f̄) c(f̄,ē)
//! ```
//!
//! The four scores are the phrase table's ([`super::table`], the same
//! extraction counts and lexical weights), before pruning: every extracted
//! pair, as Moses keeps them (its decoder prunes with `ttable-limit`). The
//! alignment is the word links inside the pair (source position – target
//! position, from 0 within the phrases), the most frequent among its
//! occurrences (the first in byte order on a tie), as Moses keeps it; a
//! pair taken from a sub-tree link may have none. The counts are the
//! target phrase's, the source phrase's and the pair's extraction counts
//! (DirC counts a pair found by both alignments twice). Lines are sorted
//! by source then target phrase in byte order (`LC_ALL=C sort`, as Moses
//! expects); pairs with a word the format cannot hold (empty, with
//! whitespace, or `|||`) are left out, as from the phrase table.
//!
//! [`super::read_phrase_table`] reads the result back (it ignores the last
//! two fields) to the scores of an unpruned [`PhraseTable::train`].
//!
//! [`PhraseTable::train`]: super::PhraseTable::train

use super::extract::{extract, AlignedPair, ExtractOptions};
use super::table::{interned, storable_word, Interner, LexWeights};
use crate::hash::FnvMap;

/// One line of a Moses phrase table.
#[derive(Debug, Clone, PartialEq)]
pub struct MosesEntry {
    pub source: Vec<String>,
    pub target: Vec<String>,
    /// `[φ(f̄|ē), lex(f̄|ē), φ(ē|f̄), lex(ē|f̄)]`, Moses' order.
    pub scores: [f64; 4],
    /// Word links inside the pair, `(source, target)` from 0 within it.
    pub alignment: Vec<(usize, usize)>,
    /// `[c(ē), c(f̄), c(f̄, ē)]`, Moses' order.
    pub counts: [u64; 3],
}

/// What is gathered per phrase pair: its count, its best lexical weights,
/// and how often each inner alignment occurred.
#[derive(Default)]
struct Gathered {
    count: u64,
    ef: f64,
    fe: f64,
    alignments: FnvMap<Vec<(usize, usize)>, u64>,
}

/// Every phrase pair extracted from `pairs` with `options` (the phrase
/// table's extraction), with its Moses fields (module documentation).
/// Cost: as [`super::PhraseTable::train`], plus the inner links of each
/// occurrence.
pub fn moses_entries(pairs: &[AlignedPair<'_>], options: &ExtractOptions) -> Vec<MosesEntry> {
    let (src_vocab, trg_vocab, data) = interned(pairs);
    let lex = LexWeights::estimate(pairs, &data);
    let mut gathered: FnvMap<(Vec<u32>, Vec<u32>), Gathered> = FnvMap::default();
    for (p, (src, trg)) in pairs.iter().zip(&data) {
        let (n, m) = (src.len(), trg.len());
        let links: Vec<(usize, usize)> = p.alignment.iter().copied().filter(|&(i, j)| i < n && j < m).collect();
        for (sp, count) in extract(p, options) {
            let (ef, fe) = lex.weights(&sp, src, trg, &links);
            let mut inner: Vec<(usize, usize)> = links
                .iter()
                .filter(|&&(i, j)| sp.src.0 <= i && i < sp.src.1 && sp.trg.0 <= j && j < sp.trg.1)
                .map(|&(i, j)| (i - sp.src.0, j - sp.trg.0))
                .collect();
            inner.sort_unstable();
            inner.dedup();
            let key = (src[sp.src.0..sp.src.1].to_vec(), trg[sp.trg.0..sp.trg.1].to_vec());
            let g = gathered.entry(key).or_default();
            g.count += u64::from(count);
            g.ef = g.ef.max(ef);
            g.fe = g.fe.max(fe);
            *g.alignments.entry(inner).or_insert(0) += u64::from(count);
        }
    }
    let mut c_src: FnvMap<&[u32], u64> = FnvMap::default();
    let mut c_trg: FnvMap<&[u32], u64> = FnvMap::default();
    for ((s, t), g) in &gathered {
        *c_src.entry(s).or_insert(0) += g.count;
        *c_trg.entry(t).or_insert(0) += g.count;
    }
    let words =
        |ids: &[u32], v: &Interner| -> Vec<String> { ids.iter().map(|&w| v.words[w as usize].clone()).collect() };
    let mut entries: Vec<MosesEntry> = gathered
        .iter()
        .filter(|((s, t), _)| {
            s.iter().all(|&w| storable_word(&src_vocab.words[w as usize]))
                && t.iter().all(|&w| storable_word(&trg_vocab.words[w as usize]))
        })
        .map(|((s, t), g)| {
            let (cs, ct) = (c_src[s.as_slice()], c_trg[t.as_slice()]);
            // The most frequent inner alignment; the first in order on a tie.
            let alignment = g
                .alignments
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                .map(|(a, _)| a.clone())
                .unwrap_or_default();
            let c = g.count as f64;
            MosesEntry {
                source: words(s, &src_vocab),
                target: words(t, &trg_vocab),
                scores: [c / ct as f64, g.fe, c / cs as f64, g.ef],
                alignment,
                counts: [ct, cs, g.count],
            }
        })
        .collect();
    entries.sort_by(|a, b| {
        a.source.join(" ").cmp(&b.source.join(" ")).then_with(|| a.target.join(" ").cmp(&b.target.join(" ")))
    });
    entries
}

/// Writes entries as Moses phrase-table lines (module documentation);
/// numbers in Rust's shortest form that reads back to the same bits.
pub fn write_moses_phrase_table(entries: &[MosesEntry]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for e in entries {
        let _ = write!(out, "{} ||| {} |||", e.source.join(" "), e.target.join(" "));
        for p in e.scores {
            let _ = write!(out, " {p}");
        }
        out.push_str(" |||");
        for (i, j) in &e.alignment {
            let _ = write!(out, " {i}-{j}");
        }
        let _ = writeln!(out, " ||| {} {} {}", e.counts[0], e.counts[1], e.counts[2]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::extract::{ExtractMethod, SpanPair};
    use super::super::table::{read_phrase_table, PhraseTable, PhraseTableOptions};
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn a_worked_example_and_the_phrase_tables_scores() {
        // das Haus / the house (0-0 1-1), das Buch / the book (0-0 1-1).
        let (s1, t1, s2, t2) = (words("das Haus"), words("the house"), words("das Buch"), words("the book"));
        let links = [(0, 0), (1, 1)];
        let pairs = [
            AlignedPair { source: &s1, target: &t1, alignment: &links, subtree: &[] },
            AlignedPair { source: &s2, target: &t2, alignment: &links, subtree: &[] },
        ];
        let entries = moses_entries(&pairs, &ExtractOptions::default());
        let text = write_moses_phrase_table(&entries);
        // das|the twice: φ both ways 1, w(the|das) = 2/2 = 1; das Haus|the house once.
        assert!(text.starts_with("Buch ||| book ||| 1 1 1 1 ||| 0-0 ||| 1 1 1\n"), "{text}");
        assert!(text.contains("\ndas ||| the ||| 1 1 1 1 ||| 0-0 ||| 2 2 2\n"), "{text}");
        assert!(text.contains("\ndas Haus ||| the house ||| 1 1 1 1 ||| 0-0 1-1 ||| 1 1 1\n"), "{text}");
        assert_eq!(entries.len(), 5);
        // The scores are the (unpruned) phrase table's.
        let table = PhraseTable::train(&pairs, &PhraseTableOptions { top_k: None, ..Default::default() });
        let back = read_phrase_table(&text, "phrase-table").unwrap();
        assert_eq!(back.len(), table.len());
        for e in table.entries() {
            assert_eq!(back.get(&e.source, &e.target).map(|b| b.scores), Some(e.scores), "{e:?}");
        }
    }

    #[test]
    fn dirc_counts_a_sub_tree_pair_twice_and_keeps_its_inner_links() {
        // a b / x y with a-x only; the sub-tree pair (a b | x y) is also word-consistent (b, y unaligned).
        let (s, t) = (words("a b"), words("x y"));
        let links = [(0, 0)];
        let subtree = [SpanPair::new(0..2, 0..2)];
        let pairs = [AlignedPair { source: &s, target: &t, alignment: &links, subtree: &subtree }];
        let options = ExtractOptions { method: ExtractMethod::DirC, ..ExtractOptions::default() };
        let entries = moses_entries(&pairs, &options);
        let ab = entries.iter().find(|e| e.source == ["a", "b"] && e.target == ["x", "y"]).unwrap();
        assert_eq!((ab.counts[2], ab.alignment.clone()), (2, vec![(0, 0)]));
        let word = moses_entries(&pairs, &ExtractOptions::default());
        let ab = word.iter().find(|e| e.source == ["a", "b"] && e.target == ["x", "y"]).unwrap();
        assert_eq!(ab.counts[2], 1);
    }
}
