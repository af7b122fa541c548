//! The phrase table.
//!
//! With `c(f̄, ē)` the extraction count summed over the corpus, the phrase
//! translation probabilities are relative frequencies:
//! `φ(ē|f̄) = c(f̄, ē) / Σ_ē' c(f̄, ē')` and `φ(f̄|ē) = c(f̄, ē) / Σ_f̄' c(f̄', ē)`.
//!
//! The lexical weights follow Koehn et al. (2003). First a word table from
//! the links of all sentence pairs, as Moses' `lex.e2f` / `lex.f2e`:
//! `w(e|f) = c(f, e) / c(f)`, `w(f|e) = c(f, e) / c(e)`, where `c(f, e)`
//! counts links, an unaligned target word counts as linked to `NULL`
//! (`c(NULL, e)`), an unaligned source word as linked to `NULL` on the other
//! side, and `c(f)`, `c(e)` are the totals including those `NULL` links.
//! Then for one occurrence of a pair with the links `a` that have both ends
//! inside the pair:
//!
//! ```text
//! lex(ē|f̄, a) = Π_j  [ 1/|{i: (i,j) ∈ a}| Σ_{(i,j) ∈ a} w(e_j|f_i) ]   or w(e_j|NULL) if e_j has no link in a
//! lex(f̄|ē, a) = Π_i  [ 1/|{j: (i,j) ∈ a}| Σ_{(i,j) ∈ a} w(f_i|e_j) ]   or w(f_i|NULL) if f_i has no link in a
//! ```
//!
//! Each factor is floored at [`LEX_FLOOR`] (only reachable by sub-tree pairs
//! whose words are linked only outside the pair, when that word was never
//! unaligned in the corpus). When a pair occurs with several alignments the
//! highest weight is kept, each direction on its own (Koehn et al. 2003).
//! Words are compared exactly (case-sensitive, as BLEU). A phrase pair with
//! a word the text form cannot hold (empty, containing whitespace, or
//! `|||`) is left out of the table (the decoder copies such a word).
//!
//! Pruning keeps the `top_k` (default [`DEFAULT_TOP_K`] = 20) translations
//! of each source phrase with the highest `φ(ē|f̄) · lex(ē|f̄)`, ties broken
//! by higher `φ(f̄|ē)`, then by the target phrase in lexicographic order.
//! Probabilities are not renormalised after pruning (as Moses).
//!
//! The four scores of an entry are kept in Moses' order:
//! `[φ(f̄|ē), lex(f̄|ē), φ(ē|f̄), lex(ē|f̄)]`
//! ([`INV_PHRASE`], [`INV_LEX`], [`DIR_PHRASE`], [`DIR_LEX`]).
//!
//! # Text form
//!
//! [`write_phrase_table`] / [`read_phrase_table`]: one entry per line,
//! `source words ||| target words ||| p1 p2 p3 p4` with the scores in the
//! order above, numbers in Rust's shortest round-trip form (so reading
//! gives back the same bits). Reading also accepts Moses' further fields
//! (`||| alignment ||| counts`) and ignores them; blank lines are skipped;
//! errors are located: `file:line:column: expected ..., found ...`.
//!

use serde::{Deserialize, Serialize};

use super::extract::{extract, AlignedPair, ExtractOptions, SpanPair};
use crate::hash::FnvMap;

/// Translations kept per source phrase unless told otherwise (Moses' `ttable-limit`).
pub const DEFAULT_TOP_K: usize = 20;
/// Smallest factor of a lexical weight (see the module documentation).
pub const LEX_FLOOR: f64 = 1e-7;
/// Index of φ(f̄|ē) in [`PhraseEntry::scores`].
pub const INV_PHRASE: usize = 0;
/// Index of lex(f̄|ē).
pub const INV_LEX: usize = 1;
/// Index of φ(ē|f̄).
pub const DIR_PHRASE: usize = 2;
/// Index of lex(ē|f̄).
pub const DIR_LEX: usize = 3;

/// One phrase-table entry; `scores` in Moses' order
/// `[φ(f̄|ē), lex(f̄|ē), φ(ē|f̄), lex(ē|f̄)]`, each in (0, 1].
#[derive(Debug, Clone, PartialEq)]
pub struct PhraseEntry {
    pub source: Vec<String>,
    pub target: Vec<String>,
    pub scores: [f64; 4],
}

impl PhraseEntry {
    /// The pruning score φ(ē|f̄) · lex(ē|f̄).
    pub fn prune_score(&self) -> f64 {
        self.scores[DIR_PHRASE] * self.scores[DIR_LEX]
    }
}

/// Phrase-table settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PhraseTableOptions {
    pub extract: ExtractOptions,
    /// Translations kept per source phrase (`None`: all). Default 20.
    pub top_k: Option<usize>,
}

impl Default for PhraseTableOptions {
    fn default() -> Self {
        PhraseTableOptions { extract: ExtractOptions::default(), top_k: Some(DEFAULT_TOP_K) }
    }
}

/// A located error in a phrase-table text, or an invalid table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhraseTableError {
    #[error("{file}:{line}:{column}: expected {expected}, found {found}")]
    Text { file: String, line: usize, column: usize, expected: String, found: String },
    #[error("invalid phrase table: {0}")]
    Invalid(String),
}

/// A phrase table: entries grouped by source phrase (source phrases in
/// lexicographic order of their words), each group best first by the
/// pruning order (module documentation). Serialised as a list of
/// `[source, target, scores]` with the words of a phrase joined by spaces.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(try_from = "Vec<(String, String, [f64; 4])>", into = "Vec<(String, String, [f64; 4])>")]
pub struct PhraseTable {
    entries: Vec<PhraseEntry>,
    index: FnvMap<Vec<String>, (usize, usize)>,
    max_source_len: usize,
}

impl PartialEq for PhraseTable {
    fn eq(&self, other: &PhraseTable) -> bool {
        self.entries == other.entries
    }
}

impl From<PhraseTable> for Vec<(String, String, [f64; 4])> {
    fn from(t: PhraseTable) -> Self {
        t.entries.into_iter().map(|e| (e.source.join(" "), e.target.join(" "), e.scores)).collect()
    }
}

impl TryFrom<Vec<(String, String, [f64; 4])>> for PhraseTable {
    type Error = PhraseTableError;
    fn try_from(v: Vec<(String, String, [f64; 4])>) -> Result<Self, PhraseTableError> {
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        PhraseTable::from_entries(
            v.into_iter().map(|(s, t, scores)| PhraseEntry { source: words(&s), target: words(&t), scores }).collect(),
        )
    }
}

/// Whether a word can be stored in a table (and written in its text form).
fn storable_word(w: &str) -> bool {
    !w.is_empty() && !w.contains(char::is_whitespace) && w != "|||"
}

fn valid_score(p: f64) -> bool {
    p > 0.0 && p <= 1.0
}

/// The order of the entries of one source phrase: best pruning score first.
fn entry_order(a: &PhraseEntry, b: &PhraseEntry) -> std::cmp::Ordering {
    b.prune_score()
        .total_cmp(&a.prune_score())
        .then(b.scores[INV_PHRASE].total_cmp(&a.scores[INV_PHRASE]))
        .then_with(|| a.target.cmp(&b.target))
}

impl PhraseTable {
    /// A table of these entries (sorted and indexed here). Refuses empty
    /// phrases, words that are empty or contain whitespace or are `|||`,
    /// scores outside (0, 1] and repeated (source, target) pairs.
    pub fn from_entries(mut entries: Vec<PhraseEntry>) -> Result<PhraseTable, PhraseTableError> {
        let bad = |m: String| Err(PhraseTableError::Invalid(m));
        for e in &entries {
            for (side, p) in [("source", &e.source), ("target", &e.target)] {
                if p.is_empty() {
                    return bad(format!("an entry has an empty {side} phrase"));
                }
                if let Some(w) = p.iter().find(|w| !storable_word(w)) {
                    return bad(format!("the {side} word '{w}' is empty, contains whitespace or is '|||'"));
                }
            }
            if !e.scores.iter().all(|&p| valid_score(p)) {
                return bad(format!(
                    "the scores of '{} ||| {}' must be in (0, 1], found {:?}",
                    e.source.join(" "),
                    e.target.join(" "),
                    e.scores
                ));
            }
        }
        entries.sort_by(|a, b| a.source.cmp(&b.source).then_with(|| entry_order(a, b)));
        let mut table = PhraseTable { entries, index: FnvMap::default(), max_source_len: 0 };
        table.reindex()?;
        Ok(table)
    }

    fn reindex(&mut self) -> Result<(), PhraseTableError> {
        self.index.clear();
        self.max_source_len = 0;
        let mut start = 0;
        while start < self.entries.len() {
            let src = &self.entries[start].source;
            let end = start + self.entries[start..].iter().take_while(|e| &e.source == src).count();
            let mut targets: Vec<&Vec<String>> = self.entries[start..end].iter().map(|e| &e.target).collect();
            targets.sort();
            if let Some(w) = targets.windows(2).find(|w| w[0] == w[1]) {
                return Err(PhraseTableError::Invalid(format!(
                    "the pair '{} ||| {}' is listed twice",
                    src.join(" "),
                    w[0].join(" ")
                )));
            }
            self.max_source_len = self.max_source_len.max(src.len());
            self.index.insert(src.clone(), (start, end));
            start = end;
        }
        Ok(())
    }

    /// Extracts phrase pairs from word-aligned sentence pairs and estimates
    /// the four scores, then prunes (module documentation).
    /// Cost: O(Σ pairs extracted · phrase length²).
    pub fn train(pairs: &[AlignedPair<'_>], options: &PhraseTableOptions) -> PhraseTable {
        let mut src_vocab = Interner::default();
        let mut trg_vocab = Interner::default();
        let data: Vec<(Vec<u32>, Vec<u32>)> = pairs
            .iter()
            .map(|p| {
                (p.source.iter().map(|w| src_vocab.id(w)).collect(), p.target.iter().map(|w| trg_vocab.id(w)).collect())
            })
            .collect();
        let lex = LexWeights::estimate(pairs, &data);
        // Key: source ids, SEP, target ids.
        const SEP: u32 = u32::MAX;
        let mut acc: FnvMap<Box<[u32]>, Acc> = FnvMap::default();
        let mut key = Vec::new();
        for (p, (src, trg)) in pairs.iter().zip(&data) {
            let (n, m) = (src.len(), trg.len());
            let links: Vec<(usize, usize)> = p.alignment.iter().copied().filter(|&(i, j)| i < n && j < m).collect();
            for (sp, count) in extract(p, &options.extract) {
                let (ef, fe) = lex.weights(&sp, src, trg, &links);
                key.clear();
                key.extend_from_slice(&src[sp.src.0..sp.src.1]);
                key.push(SEP);
                key.extend_from_slice(&trg[sp.trg.0..sp.trg.1]);
                let e = acc.entry(key.clone().into_boxed_slice()).or_insert((0, 0.0, 0.0));
                e.0 += u64::from(count);
                e.1 = e.1.max(ef);
                e.2 = e.2.max(fe);
            }
        }
        let mut pairs_counted: Vec<(Box<[u32]>, Acc)> = acc.into_iter().collect();
        pairs_counted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let split = |k: &[u32]| {
            let s = k.iter().position(|&x| x == SEP).unwrap_or(k.len());
            (k[..s].to_vec(), k[(s + 1).min(k.len())..].to_vec())
        };
        let mut c_src: FnvMap<Vec<u32>, u64> = FnvMap::default();
        let mut c_trg: FnvMap<Vec<u32>, u64> = FnvMap::default();
        for (k, (c, _, _)) in &pairs_counted {
            let (s, t) = split(k);
            *c_src.entry(s).or_insert(0) += c;
            *c_trg.entry(t).or_insert(0) += c;
        }
        // Words the table cannot hold (empty, with whitespace, or `|||`) never enter it.
        let storable = |ids: &[u32], v: &Interner| ids.iter().all(|&w| storable_word(&v.words[w as usize]));
        let entries = pairs_counted
            .iter()
            .filter(|(k, _)| {
                let (s, t) = split(k);
                storable(&s, &src_vocab) && storable(&t, &trg_vocab)
            })
            .map(|(k, (c, ef, fe))| {
                let (s, t) = split(k);
                let (c, ef, fe) = (*c as f64, *ef, *fe);
                let phi_ef = c / c_src[&s] as f64;
                let phi_fe = c / c_trg[&t] as f64;
                PhraseEntry {
                    source: s.iter().map(|&w| src_vocab.words[w as usize].clone()).collect(),
                    target: t.iter().map(|&w| trg_vocab.words[w as usize].clone()).collect(),
                    scores: [phi_fe, fe, phi_ef, ef],
                }
            })
            .collect();
        // Entries come from distinct keys with non-empty sides of storable words and scores in (0, 1].
        let mut table = PhraseTable::from_entries(entries).unwrap_or_default();
        if let Some(k) = options.top_k {
            table.prune(k);
        }
        table
    }

    /// Keeps the first `k` translations of each source phrase (they are in pruning order).
    pub fn prune(&mut self, k: usize) {
        let mut kept = Vec::with_capacity(self.entries.len());
        let mut start = 0;
        let entries = std::mem::take(&mut self.entries);
        while start < entries.len() {
            let end = start + entries[start..].iter().take_while(|e| e.source == entries[start].source).count();
            kept.extend(entries[start..end.min(start + k)].iter().cloned());
            start = end;
        }
        self.entries = kept;
        // Pruning keeps the order and cannot create repeats.
        let _ = self.reindex();
    }

    /// All entries, grouped by source phrase.
    pub fn entries(&self) -> &[PhraseEntry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of distinct source phrases.
    pub fn source_phrases(&self) -> usize {
        self.index.len()
    }

    /// The longest source phrase, in words.
    pub fn max_source_len(&self) -> usize {
        self.max_source_len
    }

    /// The translations of a source phrase, best first (empty if unknown). No allocation.
    pub fn lookup(&self, source: &[String]) -> &[PhraseEntry] {
        match self.index.get(source) {
            Some(&(s, e)) => &self.entries[s..e],
            None => &[],
        }
    }

    /// The entry of a (source, target) pair.
    pub fn get<S: AsRef<str>, T: AsRef<str>>(&self, source: &[S], target: &[T]) -> Option<&PhraseEntry> {
        let src: Vec<String> = source.iter().map(|w| w.as_ref().to_string()).collect();
        self.lookup(&src)
            .iter()
            .find(|e| e.target.len() == target.len() && e.target.iter().zip(target).all(|(a, b)| a == b.as_ref()))
    }
}

/// Per phrase pair: count, best lex(ē|f̄), best lex(f̄|ē).
type Acc = (u64, f64, f64);

#[derive(Default)]
struct Interner {
    /// Id 0 is NULL.
    words: Vec<String>,
    ids: FnvMap<String, u32>,
}

impl Interner {
    fn id(&mut self, w: &str) -> u32 {
        if self.words.is_empty() {
            self.words.push(String::new());
        }
        if let Some(&id) = self.ids.get(w) {
            return id;
        }
        let id = self.words.len() as u32;
        self.words.push(w.to_string());
        self.ids.insert(w.to_string(), id);
        id
    }
}

/// The word tables w(e|f), w(f|e) from link counts (ids; 0 = NULL).
struct LexWeights {
    /// (f, e) -> w(e|f).
    e_given_f: FnvMap<(u32, u32), f64>,
    /// (f, e) -> w(f|e).
    f_given_e: FnvMap<(u32, u32), f64>,
}

impl LexWeights {
    fn estimate(pairs: &[AlignedPair<'_>], data: &[(Vec<u32>, Vec<u32>)]) -> LexWeights {
        let mut counts: FnvMap<(u32, u32), f64> = FnvMap::default();
        let mut c_f: FnvMap<u32, f64> = FnvMap::default();
        let mut c_e: FnvMap<u32, f64> = FnvMap::default();
        for (p, (src, trg)) in pairs.iter().zip(data) {
            let (n, m) = (src.len(), trg.len());
            let mut src_aligned = vec![false; n];
            let mut trg_aligned = vec![false; m];
            let mut links: Vec<(usize, usize)> = p.alignment.iter().copied().filter(|&(i, j)| i < n && j < m).collect();
            links.sort_unstable();
            links.dedup();
            let mut add = |f: u32, e: u32| {
                *counts.entry((f, e)).or_insert(0.0) += 1.0;
                *c_f.entry(f).or_insert(0.0) += 1.0;
                *c_e.entry(e).or_insert(0.0) += 1.0;
            };
            for &(i, j) in &links {
                add(src[i], trg[j]);
                src_aligned[i] = true;
                trg_aligned[j] = true;
            }
            for (i, _) in src_aligned.iter().enumerate().filter(|(_, &a)| !a) {
                add(src[i], 0);
            }
            for (j, _) in trg_aligned.iter().enumerate().filter(|(_, &a)| !a) {
                add(0, trg[j]);
            }
        }
        let mut e_given_f = FnvMap::default();
        let mut f_given_e = FnvMap::default();
        for (&(f, e), &c) in &counts {
            e_given_f.insert((f, e), c / c_f[&f]);
            f_given_e.insert((f, e), c / c_e[&e]);
        }
        LexWeights { e_given_f, f_given_e }
    }

    /// (lex(ē|f̄), lex(f̄|ē)) of one occurrence; `links` are the sentence's links.
    fn weights(&self, sp: &SpanPair, src: &[u32], trg: &[u32], links: &[(usize, usize)]) -> (f64, f64) {
        let inside: Vec<(usize, usize)> = links
            .iter()
            .copied()
            .filter(|&(i, j)| sp.src.0 <= i && i < sp.src.1 && sp.trg.0 <= j && j < sp.trg.1)
            .collect();
        let get = |m: &FnvMap<(u32, u32), f64>, k: (u32, u32)| m.get(&k).copied().unwrap_or(0.0);
        let mut ef = 1.0;
        for (j, &e) in trg.iter().enumerate().take(sp.trg.1).skip(sp.trg.0) {
            let (mut sum, mut k) = (0.0, 0usize);
            for &(i, _) in inside.iter().filter(|l| l.1 == j) {
                sum += get(&self.e_given_f, (src[i], e));
                k += 1;
            }
            let w = if k == 0 { get(&self.e_given_f, (0, e)) } else { sum / k as f64 };
            ef *= w.max(LEX_FLOOR);
        }
        let mut fe = 1.0;
        for (i, &f) in src.iter().enumerate().take(sp.src.1).skip(sp.src.0) {
            let (mut sum, mut k) = (0.0, 0usize);
            for &(_, j) in inside.iter().filter(|l| l.0 == i) {
                sum += get(&self.f_given_e, (f, trg[j]));
                k += 1;
            }
            let w = if k == 0 { get(&self.f_given_e, (f, 0)) } else { sum / k as f64 };
            fe *= w.max(LEX_FLOOR);
        }
        (ef, fe)
    }
}

// ------------------------------------------------------------ text form ----

/// Writes the table as `source ||| target ||| p1 p2 p3 p4` lines (module documentation).
pub fn write_phrase_table(table: &PhraseTable) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for e in &table.entries {
        let _ = write!(out, "{} ||| {} |||", e.source.join(" "), e.target.join(" "));
        for p in e.scores {
            let _ = write!(out, " {p}");
        }
        out.push('\n');
    }
    out
}

/// Reads a table written by [`write_phrase_table`] (or a Moses phrase table
/// with four scores); `file` names it in errors.
pub fn read_phrase_table(text: &str, file: &str) -> Result<PhraseTable, PhraseTableError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |line: usize, column: usize, expected: &str, found: String| PhraseTableError::Text {
        file: file.to_string(),
        line,
        column,
        expected: expected.to_string(),
        found,
    };
    let mut entries = Vec::new();
    let mut seen: FnvMap<(Vec<String>, Vec<String>), usize> = FnvMap::default();
    for (l, line) in text.lines().enumerate() {
        let l = l + 1;
        let toks = crate::io::text::tokens_with_columns(line);
        if toks.is_empty() {
            continue;
        }
        let end_col = toks.last().map_or(1, |(c, t)| c + t.chars().count());
        let seps: Vec<usize> = toks.iter().enumerate().filter(|(_, t)| t.1 == "|||").map(|(k, _)| k).collect();
        let Some(&s1) = seps.first() else {
            return Err(err(l, end_col, "'|||' after the source phrase", "end of line".into()));
        };
        if s1 == 0 {
            return Err(err(l, toks[0].0, "a source phrase", "'|||'".into()));
        }
        let Some(&s2) = seps.get(1) else {
            return Err(err(l, end_col, "'|||' after the target phrase", "end of line".into()));
        };
        if s2 == s1 + 1 {
            return Err(err(l, toks[s2].0, "a target phrase", "'|||'".into()));
        }
        let s3 = seps.get(2).copied().unwrap_or(toks.len());
        let score_toks = &toks[s2 + 1..s3];
        let mut scores = [0.0; 4];
        for (k, &(col, tok)) in score_toks.iter().enumerate() {
            if k == 4 {
                return Err(err(l, col, "'|||' or the end of the line after 4 scores", format!("'{tok}'")));
            }
            scores[k] = tok
                .parse::<f64>()
                .ok()
                .filter(|&p| valid_score(p))
                .ok_or_else(|| err(l, col, "a probability in (0, 1]", format!("'{tok}'")))?;
        }
        if score_toks.len() < 4 {
            let col = if s3 < toks.len() { toks[s3].0 } else { end_col };
            let what = if s3 < toks.len() { "'|||'" } else { "end of line" };
            return Err(err(
                l,
                col,
                "4 scores (φ(f|e) lex(f|e) φ(e|f) lex(e|f))",
                format!("{what} after {} score(s)", score_toks.len()),
            ));
        }
        let source: Vec<String> = toks[..s1].iter().map(|t| t.1.to_string()).collect();
        let target: Vec<String> = toks[s1 + 1..s2].iter().map(|t| t.1.to_string()).collect();
        if let Some(first) = seen.insert((source.clone(), target.clone()), l) {
            return Err(err(
                l,
                toks[0].0,
                &format!("each phrase pair once (first on line {first})"),
                format!("'{} ||| {}' again", source.join(" "), target.join(" ")),
            ));
        }
        entries.push(PhraseEntry { source, target, scores });
    }
    PhraseTable::from_entries(entries)
}
