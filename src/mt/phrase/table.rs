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

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::extract::{extract, AlignedPair, ExtractOptions, SpanPair};
use crate::hash::{FnvMap, SliceSet, StrSet};
use crate::io::json::Text;
use crate::parallel::{stream_in_order, Threads};

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

/// Phrase-table settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PhraseTableOptions {
    pub extract: ExtractOptions,
    /// Translations kept per source phrase (`None`: all). Default 20.
    pub top_k: Option<usize>,
    /// Threads extracting the pairs' phrase (and RM) pairs (`--threads`);
    /// the tables are the same with any number. Not part of a model file.
    #[serde(skip)]
    pub threads: Threads,
}

impl Default for PhraseTableOptions {
    fn default() -> Self {
        PhraseTableOptions { extract: ExtractOptions::default(), top_k: Some(DEFAULT_TOP_K), threads: Threads::ONE }
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
///
/// Held flat: every word once ([`StrSet`]), each source phrase once as its
/// words' ids (a phrase's id is its group's number), the entries' target
/// words end to end and their scores. A group's entries become
/// [`PhraseEntry`]s (owned words, what the decoders read) at its first
/// lookup. Reading a model thus fills a few buffers instead of allocating
/// every word of every entry (SQUOIA's MS model: 193,548 entries, about a
/// million words), and a translation makes only the groups it looks up.
#[derive(Debug, Clone, Default)]
pub struct PhraseTable {
    words: StrSet,
    sources: SliceSet<u32>,
    /// The first entry of each group.
    group_starts: Vec<usize>,
    /// Per entry, one past its target's last word in `target_words`.
    target_ends: Vec<usize>,
    target_words: Vec<u32>,
    scores: Vec<[f64; 4]>,
    max_source_len: usize,
    /// Each group's entries as [`PhraseEntry`]s, made at its first lookup.
    made: Vec<OnceLock<Box<[PhraseEntry]>>>,
}

impl PartialEq for PhraseTable {
    fn eq(&self, other: &PhraseTable) -> bool {
        self.len() == other.len() && self.rows().eq(other.rows())
    }
}

impl Serialize for PhraseTable {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The length first (postcard needs it; the rows' iterator cannot say).
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for (s, t, scores) in self.rows() {
            seq.serialize_element(&(s.join(" "), t.join(" "), scores))?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for PhraseTable {
    /// Entry by entry into the flat table (module documentation of
    /// [`PhraseTable`]), its strings borrowed from the input when they can be.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = PhraseTable;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<PhraseTable, A::Error> {
                use serde::de::Error;
                let mut raw = RawTable::default();
                while let Some((s, t, scores)) = seq.next_element::<(Text<'de>, Text<'de>, [f64; 4])>()? {
                    raw.push(Some(&s.0), s.0.split_whitespace(), t.0.split_whitespace(), scores)
                        .map_err(A::Error::custom)?;
                }
                raw.finish().map_err(A::Error::custom)
            }
        }
        deserializer.deserialize_seq(Entries)
    }
}

/// Whether a word can be stored in a table (and written in its text form).
pub(super) fn storable_word(w: &str) -> bool {
    let space = if w.is_ascii() { w.bytes().any(crate::tree::is_space_byte) } else { w.contains(char::is_whitespace) };
    !w.is_empty() && !space && w != "|||"
}

/// A probability a model file may hold: in (0, 1].
pub(crate) fn valid_score(p: f64) -> bool {
    p > 0.0 && p <= 1.0
}

/// The pruning score φ(ē|f̄) · lex(ē|f̄) of an entry's scores.
fn prune_score(scores: &[f64; 4]) -> f64 {
    scores[DIR_PHRASE] * scores[DIR_LEX]
}

/// The order of the entries of one source phrase (best pruning score
/// first, then higher φ(f̄|ē)), before comparing their targets.
fn score_order(a: &[f64; 4], b: &[f64; 4]) -> std::cmp::Ordering {
    prune_score(b).total_cmp(&prune_score(a)).then(b[INV_PHRASE].total_cmp(&a[INV_PHRASE]))
}

/// A table's entries as read, before they are ordered and grouped: words
/// and source phrases already each stored once.
#[derive(Default)]
struct RawTable {
    words: StrSet,
    sources: SliceSet<u32>,
    /// Per entry: its source's id, one past its target's last word in
    /// `target_words`, its scores.
    entries: Vec<(u32, usize, [f64; 4])>,
    target_words: Vec<u32>,
    /// The text and id of the last source phrase read.
    last_source: Option<(String, u32)>,
}

/// The words of a phrase joined by spaces (for messages).
fn joined<'w>(phrase: impl Iterator<Item = &'w str>) -> String {
    phrase.collect::<Vec<_>>().join(" ")
}

impl RawTable {
    /// Adds the words of one side of an entry to `target_words` (from
    /// `start`); refuses an empty phrase and a word that is empty or
    /// contains whitespace or is `|||` (`split`: the words are the pieces
    /// of a text split at whitespace, so only `|||` needs checking).
    fn push_words<'w>(
        &mut self,
        side: &str,
        phrase: impl Iterator<Item = &'w str>,
        split: bool,
    ) -> Result<(), PhraseTableError> {
        let start = self.target_words.len();
        for w in phrase {
            if if split { w == "|||" } else { !storable_word(w) } {
                self.target_words.truncate(start);
                return Err(PhraseTableError::Invalid(format!(
                    "the {side} word '{w}' is empty, contains whitespace or is '|||'"
                )));
            }
            let (id, _) = self.words.insert(w);
            self.target_words.push(id);
        }
        if self.target_words.len() == start {
            return Err(PhraseTableError::Invalid(format!("an entry has an empty {side} phrase")));
        }
        Ok(())
    }

    /// Adds an entry; refuses an empty phrase, a word that is empty or
    /// contains whitespace or is `|||`, and scores outside (0, 1].
    /// `source_text`, when given, is the source phrase's text and the
    /// phrases are texts split at whitespace: an entry with the same source
    /// text as the last one (tables list a phrase's entries together)
    /// reuses its source without reading its words again.
    fn push<'w>(
        &mut self,
        source_text: Option<&str>,
        source: impl Iterator<Item = &'w str> + Clone,
        target: impl Iterator<Item = &'w str> + Clone,
        scores: [f64; 4],
    ) -> Result<(), PhraseTableError> {
        let reuse = match (source_text, &self.last_source) {
            (Some(text), Some((last, id))) if text == last.as_str() => Some(*id),
            _ => None,
        };
        let id = match reuse {
            Some(id) => id,
            None => {
                let start = self.target_words.len();
                self.push_words("source", source.clone(), source_text.is_some())?;
                let (id, _) = self.sources.insert(&self.target_words[start..]);
                self.target_words.truncate(start);
                if let Some(text) = source_text {
                    let last = self.last_source.get_or_insert_with(Default::default);
                    last.0.clear();
                    last.0.push_str(text);
                    last.1 = id;
                }
                id
            }
        };
        self.push_words("target", target.clone(), source_text.is_some())?;
        if !scores.iter().all(|&p| valid_score(p)) {
            return Err(PhraseTableError::Invalid(format!(
                "the scores of '{} ||| {}' must be in (0, 1], found {:?}",
                joined(source),
                joined(target),
                scores
            )));
        }
        self.entries.push((id, self.target_words.len(), scores));
        Ok(())
    }

    /// The table: entries sorted (unless they come sorted, as every table
    /// this crate writes does) and grouped; refuses a (source, target) pair
    /// listed twice.
    fn finish(self) -> Result<PhraseTable, PhraseTableError> {
        let RawTable { words, sources, entries, target_words, .. } = self;
        let target = |i: usize| {
            let start = if i == 0 { 0 } else { entries[i - 1].1 };
            &target_words[start..entries[i].1]
        };
        let cmp_phrases = |a: &[u32], b: &[u32]| {
            if a == b {
                std::cmp::Ordering::Equal
            } else {
                // Byte order is `str` order.
                a.iter().map(|&w| words.bytes(w)).cmp(b.iter().map(|&w| words.bytes(w)))
            }
        };
        let cmp = |&i: &usize, &j: &usize| {
            let ((si, _, a), (sj, _, b)) = (&entries[i], &entries[j]);
            let by_source =
                if si == sj { std::cmp::Ordering::Equal } else { cmp_phrases(sources.get(*si), sources.get(*sj)) };
            by_source.then_with(|| score_order(a, b)).then_with(|| cmp_phrases(target(i), target(j)))
        };
        let mut order: Vec<usize> = (0..entries.len()).collect();
        if !order.windows(2).all(|w| cmp(&w[0], &w[1]).is_le()) {
            order.sort_by(cmp);
        }
        let mut table = PhraseTable::default();
        let mut last = None;
        for &i in &order {
            let (source, _, scores) = entries[i];
            if last != Some(source) {
                let phrase = sources.get(source);
                table.sources.insert(phrase);
                table.group_starts.push(table.scores.len());
                table.max_source_len = table.max_source_len.max(phrase.len());
                last = Some(source);
            }
            table.target_words.extend_from_slice(target(i));
            table.target_ends.push(table.target_words.len());
            table.scores.push(scores);
        }
        table.words = words;
        table.made = (0..table.group_starts.len()).map(|_| OnceLock::new()).collect();
        // A pair listed twice: the first repeated target of the first such
        // source phrase, in the order of the targets' words.
        for g in 0..table.group_starts.len() {
            let mut targets: Vec<&[u32]> = table.entry_range(g).map(|i| table.target_ids(i)).collect();
            targets.sort_unstable();
            if targets.windows(2).any(|w| w[0] == w[1]) {
                let mut targets: Vec<Vec<&str>> = targets.iter().map(|t| table.phrase(t).collect()).collect();
                targets.sort();
                let twice = targets.windows(2).find(|w| w[0] == w[1]).map_or(String::new(), |w| w[0].join(" "));
                let source = table.phrase(table.sources.get(g as u32)).collect::<Vec<_>>().join(" ");
                return Err(PhraseTableError::Invalid(format!("the pair '{source} ||| {twice}' is listed twice")));
            }
        }
        Ok(table)
    }
}

impl PhraseTable {
    /// A table of these entries (sorted and indexed here). Refuses empty
    /// phrases, words that are empty or contain whitespace or are `|||`,
    /// scores outside (0, 1] and repeated (source, target) pairs.
    pub fn from_entries(entries: Vec<PhraseEntry>) -> Result<PhraseTable, PhraseTableError> {
        let mut raw = RawTable::default();
        for e in &entries {
            raw.push(None, e.source.iter().map(String::as_str), e.target.iter().map(String::as_str), e.scores)?;
        }
        raw.finish()
    }

    /// The entries of group `g` (a source phrase), as indices.
    fn entry_range(&self, g: usize) -> std::ops::Range<usize> {
        let end = self.group_starts.get(g + 1).copied().unwrap_or(self.scores.len());
        self.group_starts[g]..end
    }

    /// The word ids of entry `i`'s target phrase.
    fn target_ids(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.target_ends[i - 1] };
        &self.target_words[start..self.target_ends[i]]
    }

    fn phrase<'a>(&'a self, ids: &'a [u32]) -> impl Iterator<Item = &'a str> + Clone + 'a {
        ids.iter().map(|&w| self.words.get(w))
    }

    /// Every entry as (source words, target words, scores), in order.
    fn rows(&self) -> impl Iterator<Item = (Vec<&str>, Vec<&str>, [f64; 4])> + '_ {
        (0..self.group_starts.len()).flat_map(move |g| {
            let source: Vec<&str> = self.phrase(self.sources.get(g as u32)).collect();
            self.entry_range(g)
                .map(move |i| (source.clone(), self.phrase(self.target_ids(i)).collect(), self.scores[i]))
        })
    }

    /// The entries of group `g` as [`PhraseEntry`]s, made at the first call.
    fn group_entries(&self, g: usize) -> &[PhraseEntry] {
        self.made[g].get_or_init(|| {
            let source: Vec<String> = self.phrase(self.sources.get(g as u32)).map(String::from).collect();
            self.entry_range(g)
                .map(|i| PhraseEntry {
                    source: source.clone(),
                    target: self.phrase(self.target_ids(i)).map(String::from).collect(),
                    scores: self.scores[i],
                })
                .collect()
        })
    }

    /// Extracts phrase pairs from word-aligned sentence pairs and estimates
    /// the four scores, then prunes (module documentation).
    /// Cost: O(Σ pairs extracted · phrase length²).
    pub fn train(pairs: &[AlignedPair<'_>], options: &PhraseTableOptions) -> PhraseTable {
        let (src_vocab, trg_vocab, data) = interned(pairs);
        let lex = LexWeights::estimate(pairs, &data);
        // Key: source ids, SEP, target ids.
        const SEP: u32 = u32::MAX;
        let mut acc: FnvMap<Box<[u32]>, Acc> = FnvMap::default();
        let mut key = Vec::new();
        // Each pair's phrase pairs with their lexical weights on any thread,
        // added up in pair order (counts, and maxima of the weights).
        let of_pair = |_: &mut (), _: usize, (p, (src, trg)): &(&AlignedPair<'_>, &(Vec<u32>, Vec<u32>))| {
            let (n, m) = (src.len(), trg.len());
            let links: Vec<(usize, usize)> = p.alignment.iter().copied().filter(|&(i, j)| i < n && j < m).collect();
            let found: Vec<(SpanPair, u32, (f64, f64))> = extract(p, &options.extract)
                .into_iter()
                .map(|(sp, count)| {
                    let weights = lex.weights(&sp, src, trg, &links);
                    (sp, count, weights)
                })
                .collect();
            found
        };
        let items = pairs.iter().zip(&data).map(Ok::<_, std::convert::Infallible>);
        let added = stream_in_order(
            items,
            options.threads,
            || (),
            of_pair,
            |k, found| {
                let (src, trg) = &data[k];
                for (sp, count, (ef, fe)) in found {
                    key.clear();
                    key.extend_from_slice(&src[sp.src.0..sp.src.1]);
                    key.push(SEP);
                    key.extend_from_slice(&trg[sp.trg.0..sp.trg.1]);
                    let e = acc.entry(key.clone().into_boxed_slice()).or_insert((0, 0.0, 0.0));
                    e.0 += u64::from(count);
                    e.1 = e.1.max(ef);
                    e.2 = e.2.max(fe);
                }
                Ok(())
            },
        );
        let Ok(_) = added;
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
        let mut kept = PhraseTable { words: std::mem::take(&mut self.words), ..PhraseTable::default() };
        for g in 0..self.group_starts.len() {
            let range = self.entry_range(g);
            if range.is_empty() || k == 0 {
                continue;
            }
            kept.sources.insert(self.sources.get(g as u32));
            kept.group_starts.push(kept.scores.len());
            for i in range.start..range.end.min(range.start + k) {
                kept.target_words.extend_from_slice(self.target_ids(i));
                kept.target_ends.push(kept.target_words.len());
                kept.scores.push(self.scores[i]);
            }
        }
        kept.max_source_len = (0..kept.group_starts.len()).map(|g| kept.sources.get(g as u32).len()).max().unwrap_or(0);
        kept.made = (0..kept.group_starts.len()).map(|_| OnceLock::new()).collect();
        *self = kept;
    }

    /// All entries, grouped by source phrase (each group made if it was not yet).
    pub fn entries(&self) -> impl Iterator<Item = &PhraseEntry> + '_ {
        (0..self.group_starts.len()).flat_map(move |g| self.group_entries(g))
    }

    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Number of distinct source phrases.
    pub fn source_phrases(&self) -> usize {
        self.group_starts.len()
    }

    /// The longest source phrase, in words.
    pub fn max_source_len(&self) -> usize {
        self.max_source_len
    }

    /// The translations of a source phrase, best first (empty if unknown).
    /// No allocation once the phrase's entries are made (its first lookup).
    pub fn lookup(&self, source: &[String]) -> &[PhraseEntry] {
        let n = source.len();
        if n == 0 || n > self.max_source_len {
            return &[];
        }
        let mut buffer = [0u32; 16];
        let mut long = Vec::new();
        let ids = if n <= buffer.len() {
            &mut buffer[..n]
        } else {
            long.resize(n, 0);
            &mut long[..]
        };
        for (id, w) in ids.iter_mut().zip(source) {
            match self.words.id(w) {
                Some(x) => *id = x,
                None => return &[],
            }
        }
        match self.sources.id(ids) {
            Some(g) => self.group_entries(g as usize),
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
pub(super) struct Interner {
    /// Id 0 is NULL.
    pub(super) words: Vec<String>,
    ids: FnvMap<String, u32>,
}

impl Interner {
    pub(super) fn id(&mut self, w: &str) -> u32 {
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

/// One pair's source and target sentences as word ids.
pub(super) type PairIds = (Vec<u32>, Vec<u32>);

/// The source and target words of `pairs` numbered (in order of first
/// occurrence, 0 being NULL), and each pair's sentences as those numbers.
pub(super) fn interned(pairs: &[AlignedPair<'_>]) -> (Interner, Interner, Vec<PairIds>) {
    let (mut src_vocab, mut trg_vocab) = (Interner::default(), Interner::default());
    let data = pairs
        .iter()
        .map(|p| {
            (p.source.iter().map(|w| src_vocab.id(w)).collect(), p.target.iter().map(|w| trg_vocab.id(w)).collect())
        })
        .collect();
    (src_vocab, trg_vocab, data)
}

/// The word tables w(e|f), w(f|e) from link counts (ids; 0 = NULL).
pub(super) struct LexWeights {
    /// (f, e) -> w(e|f).
    e_given_f: FnvMap<(u32, u32), f64>,
    /// (f, e) -> w(f|e).
    f_given_e: FnvMap<(u32, u32), f64>,
}

impl LexWeights {
    pub(super) fn estimate(pairs: &[AlignedPair<'_>], data: &[(Vec<u32>, Vec<u32>)]) -> LexWeights {
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
    pub(super) fn weights(&self, sp: &SpanPair, src: &[u32], trg: &[u32], links: &[(usize, usize)]) -> (f64, f64) {
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
    for (source, target, scores) in table.rows() {
        let _ = write!(out, "{} ||| {} |||", source.join(" "), target.join(" "));
        for p in scores {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(s: &str, t: &str, p: f64) -> PhraseEntry {
        let words = |x: &str| x.split(' ').map(String::from).collect();
        PhraseEntry { source: words(s), target: words(t), scores: [1.0, 1.0, p, 1.0] }
    }

    #[test]
    fn a_table_read_in_any_order_is_the_sorted_table_and_writes_back_sorted() {
        let sorted = PhraseTable::from_entries(vec![
            entry("das Haus", "la casa", 0.5),
            entry("das Haus", "casa", 0.25),
            entry("Haus", "casa", 1.0),
            entry("Haus", "hogar", 1.0),
        ])
        .unwrap();
        let rows = |t: &PhraseTable| t.entries().map(|e| (e.source.join(" "), e.target.join(" "))).collect::<Vec<_>>();
        let expected = [("Haus", "casa"), ("Haus", "hogar"), ("das Haus", "la casa"), ("das Haus", "casa")];
        assert_eq!(rows(&sorted), expected.map(|(s, t)| (s.to_string(), t.to_string())));
        let scrambled = r#"[["das  Haus","casa",[1,1,0.25,1]],["Haus","hogar",[1,1,1,1]],["Haus","casa",[1,1,1,1]],["das Haus","la casa",[1,1,0.5,1]]]"#;
        let read: PhraseTable = serde_json::from_str(scrambled).unwrap();
        assert!(read == sorted);
        assert_eq!(serde_json::to_string(&read).unwrap(), serde_json::to_string(&sorted).unwrap());
        let back: PhraseTable = postcard::from_bytes(&postcard::to_allocvec(&read).unwrap()).unwrap();
        assert!(back == sorted);
        let haus = ["das".to_string(), "Haus".to_string()];
        assert_eq!(read.lookup(&haus)[1].target, ["casa"]);
        assert!(read.lookup(&haus[1..]).len() == 2 && read.lookup(&["Casa".to_string()]).is_empty());
        assert_eq!((read.len(), read.source_phrases(), read.max_source_len()), (4, 2, 2));
        let mut pruned = read.clone();
        pruned.prune(1);
        assert_eq!(rows(&pruned), [("Haus", "casa"), ("das Haus", "la casa")].map(|(s, t)| (s.into(), t.into())));
    }

    #[test]
    fn bad_tables_are_refused_with_the_entry() {
        let err = |json: &str| serde_json::from_str::<PhraseTable>(json).unwrap_err().to_string();
        assert!(err(r#"[["a","x",[1,1,1,1]],["b","y",[1,1,1,1]],["a","x",[1,1,0.5,1]]]"#)
            .starts_with("invalid phrase table: the pair 'a ||| x' is listed twice"));
        assert!(err(r#"[["a ||| b","x",[1,1,1,1]]]"#).starts_with("invalid phrase table: the source word '|||'"));
        assert!(
            err(r#"[["a"," ",[1,1,1,1]]]"#).starts_with("invalid phrase table: an entry has an empty target phrase")
        );
        assert!(err(r#"[["a","x",[1,1,2,1]]]"#).starts_with(
            "invalid phrase table: the scores of 'a ||| x' must be in (0, 1], found [1.0, 1.0, 2.0, 1.0]"
        ));
        let e = PhraseTable::from_entries(vec![
            entry("a", "x", 1.0),
            PhraseEntry { source: vec!["b c".into()], ..entry("b", "y", 1.0) },
        ]);
        assert_eq!(
            e.unwrap_err().to_string(),
            "invalid phrase table: the source word 'b c' is empty, contains whitespace or is '|||'"
        );
    }
}
