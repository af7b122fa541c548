//! Training-side pieces of the meta-structure system (§3): the RMs that
//! tile a span, RM pair extraction over the aligned leaf nodes (§3.2), the
//! RM transformation table (eqs. 9-10), the samples of target SMS the
//! structure model (eq. 13) is trained on, and the target word → POS table
//! used to give a structure to glue translations. See the parent module for
//! the readings of the paper.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use std::sync::OnceLock;

use crate::hash::StrSet;
use crate::io::json::Text;
use crate::math::ln;
use crate::mt::meta::{Decomposition, RmShape};
use crate::mt::phrase::table::valid_score;
use crate::mt::phrase::{combine, consistent_pairs, ExtractMethod, SpanPair};
use crate::rng::SplitMix64;
use crate::tree::{NodeId, Tree};

/// Limits on the RMs that are extracted and decoded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RmLimits {
    /// MS per RM at most. Default 5 (the paper's Table 1 has RMs of five MS; on SQUOIA 4 loses 0.7 BLEU, 6 and 7 gain nothing and grow the table).
    pub max_ms: usize,
    /// Words in an RM's scope at most (either side). Default 7, the phrase length limit.
    pub max_words: usize,
}

impl Default for RmLimits {
    fn default() -> Self {
        RmLimits { max_ms: DEFAULT_MAX_MS, max_words: DEFAULT_MAX_RM_WORDS }
    }
}

/// Default [`RmLimits::max_ms`].
pub const DEFAULT_MAX_MS: usize = 5;
/// Default [`RmLimits::max_words`].
pub const DEFAULT_MAX_RM_WORDS: usize = 7;

/// The MS of one tree indexed for tiling: the structure string of every
/// admissible node, and the admissible nodes starting at each word.
pub struct MsIndex<'t> {
    tree: &'t Tree,
    /// Structure string of each node's MS (empty for a node that is not an MS).
    ms_string: Vec<String>,
    /// Admissible nodes whose span starts at each word and has at most
    /// `max_words` words, in pre-order (higher MS first).
    starting: Vec<Vec<NodeId>>,
}

impl<'t> MsIndex<'t> {
    pub fn new(d: &Decomposition<'t>, max_words: usize) -> MsIndex<'t> {
        let tree = d.tree();
        let n = tree.words().len();
        let mut ms_string = vec![String::new(); tree.len()];
        let mut starting = vec![Vec::new(); n];
        for m in d.meta_structures() {
            let span = m.span();
            if span.is_empty() || span.len() > max_words || span.start >= n {
                continue;
            }
            ms_string[m.root()] = m.to_string();
            starting[span.start].push(m.root());
        }
        MsIndex { tree, ms_string, starting }
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    /// The structure string of the MS rooted at `n` (empty if it is not one).
    pub fn ms_string(&self, n: NodeId) -> &str {
        self.ms_string.get(n).map_or("", String::as_str)
    }

    /// The structure string of the RM made of the MS `roots` (MS strings
    /// separated by spaces, as [`RmShape`] writes it).
    pub fn rm_string(&self, roots: &[NodeId]) -> String {
        let mut s = String::new();
        for (k, &r) in roots.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(self.ms_string(r));
        }
        s
    }

    /// Every RM of at most `max_ms` MS whose scope is exactly `start..end`
    /// (its tilings by MS), depth-first with higher MS first.
    pub fn tilings(&self, start: usize, end: usize, max_ms: usize) -> Vec<Vec<NodeId>> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, Vec<NodeId>)> = vec![(start, Vec::new())];
        while let Some((pos, roots)) = stack.pop() {
            if pos == end {
                if !roots.is_empty() {
                    out.push(roots);
                }
                continue;
            }
            if roots.len() >= max_ms || pos >= self.starting.len() {
                continue;
            }
            for &m in self.starting[pos].iter().rev() {
                let e = self.tree.span(m).end;
                if e <= end {
                    let mut next = roots.clone();
                    next.push(m);
                    stack.push((e, next));
                }
            }
        }
        out
    }

    /// Every RM starting at word `start` with at most `max_ms` MS (and, by
    /// construction of the index, at most `max_words` words), depth-first.
    pub fn rms_from(&self, start: usize, max_ms: usize, max_words: usize) -> Vec<Vec<NodeId>> {
        let mut out = Vec::new();
        let mut stack: Vec<Vec<NodeId>> =
            self.starting.get(start).map_or(Vec::new(), |v| v.iter().rev().map(|&m| vec![m]).collect());
        while let Some(roots) = stack.pop() {
            let end = roots.last().map_or(start, |&m| self.tree.span(m).end);
            if roots.len() < max_ms && end < self.starting.len() {
                for &m in self.starting[end].iter().rev() {
                    if self.tree.span(m).end - start <= max_words {
                        let mut longer = roots.clone();
                        longer.push(m);
                        stack.push(longer);
                    }
                }
            }
            out.push(roots);
        }
        out
    }
}

/// The RM pairs of one tree pair (§3.2) with their expected counts, as
/// (source RM string, target RM string, count), sorted by the strings.
///
/// The span pairs are the phrase pairs over the leaf (POS) nodes that are
/// consistent with the word alignment (`word`, from [`consistent_pairs`])
/// combined with the sub-tree span pairs (`subtree`) by `method`
/// ([`combine`]). A span pair of count `c` whose source scope has `a`
/// tilings by RMs and whose target scope has `b` gives each of the `a · b`
/// RM pairs `c / (a · b)`: the expected count when one SMS of each tree is
/// drawn uniformly among those that hold an RM over the span.
pub fn rm_pairs(
    source: &MsIndex<'_>,
    target: &MsIndex<'_>,
    word: &[SpanPair],
    subtree: &[SpanPair],
    method: ExtractMethod,
    limits: &RmLimits,
) -> Vec<(String, String, f64)> {
    let mut out: Vec<(String, String, f64)> = Vec::new();
    for (sp, count) in combine(word, subtree, method) {
        if sp.src_len() > limits.max_words || sp.trg_len() > limits.max_words {
            continue;
        }
        let a = source.tilings(sp.src.0, sp.src.1, limits.max_ms);
        let b = target.tilings(sp.trg.0, sp.trg.1, limits.max_ms);
        if a.is_empty() || b.is_empty() {
            continue;
        }
        let share = f64::from(count) / (a.len() * b.len()) as f64;
        let ts: Vec<String> = b.iter().map(|r| target.rm_string(r)).collect();
        for f in &a {
            let fs = source.rm_string(f);
            for t in &ts {
                out.push((fs.clone(), t.clone(), share));
            }
        }
    }
    out.sort_by(|x, y| x.0.cmp(&y.0).then_with(|| x.1.cmp(&y.1)));
    let mut merged: Vec<(String, String, f64)> = Vec::with_capacity(out.len());
    for (f, e, c) in out {
        match merged.last_mut() {
            Some(last) if last.0 == f && last.1 == e => last.2 += c,
            _ => merged.push((f, e, c)),
        }
    }
    merged
}

/// The span pairs of a tree pair's leaves consistent with the word alignment
/// (§3.2: "the alignments of leaf nodes ... derived from the word alignments";
/// leaf `i` is the POS node of word `i`).
pub fn leaf_pairs(source: &Tree, target: &Tree, alignment: &[(usize, usize)], max_words: usize) -> Vec<SpanPair> {
    consistent_pairs(source.words().len(), target.words().len(), alignment, max_words)
}

/// One entry of the RM transformation table: `P(e|f)` (eq. 9) and
/// `P(f|e)` (eq. 10) by relative frequency of the expected counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RmEntry {
    /// Source RM structure string.
    pub source: String,
    /// Target RM structure string.
    pub target: String,
    /// Expected count `Count(RM_f, RM_e)` over the corpus.
    pub count: f64,
    /// `P(RM_e | RM_f)`.
    pub p_e_given_f: f64,
    /// `P(RM_f | RM_e)`.
    pub p_f_given_e: f64,
}

/// What the decoder needs of a target RM: its MS (tokens of the structure
/// model) and its number of words.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRm {
    pub ms: Vec<String>,
    /// The root label of each MS (the coarse structure, [`StructureTokens::Roots`](crate::mt::ms::StructureTokens::Roots)).
    pub roots: Vec<String>,
    /// The pre-terminal labels, one per word.
    pub leaves: Vec<String>,
    pub words: usize,
}

/// The RM transformation table (§3.2, eqs. 9-10): entries grouped by source
/// RM (in string order), each group best first by `P(e|f)` (ties: higher
/// `P(f|e)`, then target string). Serialised as a list of
/// `[source, target, count, P(e|f), P(f|e)]`.
///
/// Held flat, as [`PhraseTable`](crate::mt::phrase::PhraseTable) is: each
/// source and target RM string once ([`StrSet`]; a source's id is its
/// group's number) and per entry its target's id and numbers. A group's
/// [`RmEntry`]s are made at its first lookup, and a target RM is parsed
/// into a [`TargetRm`] at its first lookup; reading a model only checks
/// each RM string once (SQUOIA's MS model: 613,108 entries over 88,976
/// source and 64,401 target RMs).
#[derive(Debug, Clone, Default)]
pub struct RmTable {
    sources: StrSet,
    /// The first entry of each group.
    group_starts: Vec<usize>,
    targets: StrSet,
    /// Per entry: target id, count, `P(e|f)`, `P(f|e)`.
    rows: Vec<(u32, f64, f64, f64)>,
    /// Each group's entries as [`RmEntry`]s, made at its first lookup.
    made: Vec<OnceLock<Box<[RmEntry]>>>,
    /// Each target RM parsed, at its first lookup.
    parsed: Vec<OnceLock<TargetRm>>,
}

impl PartialEq for RmTable {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.raw_rows().eq(other.raw_rows())
    }
}

impl Serialize for RmTable {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The length first (postcard needs it; the rows' iterator cannot say).
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for row in self.raw_rows() {
            seq.serialize_element(&row)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for RmTable {
    /// Entry by entry into the flat table, its strings borrowed from the
    /// input when they can be.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = RmTable;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<RmTable, A::Error> {
                use serde::de::Error;
                let mut raw = RawRmTable::default();
                while let Some((f, e, count, p_ef, p_fe)) =
                    seq.next_element::<(Text<'de>, Text<'de>, f64, f64, f64)>()?
                {
                    raw.push(&f.0, &e.0, count, p_ef, p_fe);
                }
                raw.finish().map_err(A::Error::custom)
            }
        }
        deserializer.deserialize_seq(Entries)
    }
}

/// A table's entries as read, before they are checked, ordered and grouped:
/// RM strings already each stored once.
#[derive(Default)]
struct RawRmTable {
    sources: StrSet,
    targets: StrSet,
    /// Per entry: source id, target id, count, `P(e|f)`, `P(f|e)`.
    rows: Vec<(u32, u32, f64, f64, f64)>,
}

impl RawRmTable {
    fn push(&mut self, source: &str, target: &str, count: f64, p_e_given_f: f64, p_f_given_e: f64) {
        // A table lists a source's entries together: the last source again
        // needs no lookup.
        let f = match self.rows.last() {
            Some(&(last, ..)) if self.sources.bytes(last) == source.as_bytes() => last,
            _ => self.sources.insert(source).0,
        };
        let e = self.targets.insert(target).0;
        self.rows.push((f, e, count, p_e_given_f, p_f_given_e));
    }

    /// The table: entries sorted (unless they come sorted, as every table
    /// this crate writes does) and grouped; checks that both RM strings
    /// parse, probabilities are in (0, 1], counts positive and pairs not
    /// repeated (the first fault in the table's order).
    fn finish(self) -> Result<RmTable, String> {
        let RawRmTable { sources, targets, rows } = self;
        // Byte order is `str` order.
        let cmp = |&i: &usize, &j: &usize| {
            let (a, b) = (&rows[i], &rows[j]);
            let by_source =
                if a.0 == b.0 { std::cmp::Ordering::Equal } else { sources.bytes(a.0).cmp(sources.bytes(b.0)) };
            by_source.then_with(|| {
                b.3.total_cmp(&a.3).then(b.4.total_cmp(&a.4)).then_with(|| targets.bytes(a.1).cmp(targets.bytes(b.1)))
            })
        };
        let mut order: Vec<usize> = (0..rows.len()).collect();
        if !order.windows(2).all(|w| cmp(&w[0], &w[1]).is_le()) {
            order.sort_by(cmp);
        }
        let mut checked = vec![false; targets.len()];
        let mut table = RmTable::default();
        let mut last = None;
        for &i in &order {
            let (f, e, count, p_ef, p_fe) = rows[i];
            if last != Some(f) {
                let source = sources.get(f);
                RmShape::check(source).map_err(|err| format!("source RM '{source}': {err}"))?;
                table.sources.insert(source);
                table.group_starts.push(table.rows.len());
                last = Some(f);
            }
            if !checked[e as usize] {
                let target = targets.get(e);
                RmShape::check(target).map_err(|err| format!("target RM '{target}': {err}"))?;
                checked[e as usize] = true;
            }
            if !(valid_score(p_ef) && valid_score(p_fe) && count > 0.0 && count.is_finite()) {
                return Err(format!(
                    "RM pair '{}' → '{}': expected probabilities in (0, 1] and a positive count, found {count} {p_ef} {p_fe}",
                    sources.get(f),
                    targets.get(e)
                ));
            }
            table.rows.push((e, count, p_ef, p_fe));
        }
        table.targets = targets;
        for g in 0..table.group_starts.len() {
            let mut ids: Vec<u32> = table.rows[table.entry_range(g)].iter().map(|r| r.0).collect();
            ids.sort_unstable();
            if ids.windows(2).any(|w| w[0] == w[1]) {
                let mut t: Vec<&str> = ids.iter().map(|&e| table.targets.get(e)).collect();
                t.sort_unstable();
                let twice = t.windows(2).find(|w| w[0] == w[1]).map_or("", |w| w[0]);
                return Err(format!("the RM pair '{}' → '{twice}' is listed twice", table.sources.get(g as u32)));
            }
        }
        table.made = (0..table.group_starts.len()).map(|_| OnceLock::new()).collect();
        table.parsed = (0..table.targets.len()).map(|_| OnceLock::new()).collect();
        Ok(table)
    }
}

impl RmTable {
    /// A table of these entries: checks that both RM strings parse,
    /// probabilities are in (0, 1], counts positive and pairs not repeated.
    pub fn from_entries(entries: Vec<RmEntry>) -> Result<RmTable, String> {
        let mut raw = RawRmTable::default();
        for e in &entries {
            raw.push(&e.source, &e.target, e.count, e.p_e_given_f, e.p_f_given_e);
        }
        raw.finish()
    }

    /// The entries of group `g` (a source RM), as indices.
    fn entry_range(&self, g: usize) -> std::ops::Range<usize> {
        let end = self.group_starts.get(g + 1).copied().unwrap_or(self.rows.len());
        self.group_starts[g]..end
    }

    /// Every entry as (source, target, count, `P(e|f)`, `P(f|e)`), in order.
    fn raw_rows(&self) -> impl Iterator<Item = (&str, &str, f64, f64, f64)> + '_ {
        (0..self.group_starts.len()).flat_map(move |g| {
            let source = self.sources.get(g as u32);
            self.rows[self.entry_range(g)].iter().map(move |&(e, c, p, q)| (source, self.targets.get(e), c, p, q))
        })
    }

    /// The entries of group `g` as [`RmEntry`]s, made at the first call.
    fn group_entries(&self, g: usize) -> &[RmEntry] {
        self.made[g].get_or_init(|| {
            let source = self.sources.get(g as u32);
            self.rows[self.entry_range(g)]
                .iter()
                .map(|&(e, count, p_e_given_f, p_f_given_e)| RmEntry {
                    source: source.to_string(),
                    target: self.targets.get(e).to_string(),
                    count,
                    p_e_given_f,
                    p_f_given_e,
                })
                .collect()
        })
    }

    /// Target RM `e` parsed, at the first call (its string was checked when
    /// the table was made).
    fn target_rm(&self, e: u32) -> &TargetRm {
        self.parsed[e as usize].get_or_init(|| {
            let shape = RmShape::parse(self.targets.get(e));
            let shape = shape.as_ref();
            TargetRm {
                ms: shape.map_or(Vec::new(), |s| s.ms().map(|m| m.to_string()).collect()),
                roots: shape.map_or(Vec::new(), |s| s.ms().map(|m| m.root_label().to_string()).collect()),
                leaves: shape.map_or(Vec::new(), |s| s.leaves().map(str::to_string).collect()),
                words: shape.map_or(0, |s| s.word_count()),
            }
        })
    }

    /// Estimates the table from expected counts (relative frequencies both
    /// ways), then keeps the `top_k` targets of each source RM (probabilities
    /// are not renormalised, as in a phrase table).
    pub fn estimate(counts: Vec<(String, String, f64)>, top_k: Option<usize>) -> RmTable {
        let mut c_f: BTreeMap<&str, f64> = BTreeMap::new();
        let mut c_e: BTreeMap<&str, f64> = BTreeMap::new();
        for (f, e, c) in &counts {
            *c_f.entry(f).or_insert(0.0) += c;
            *c_e.entry(e).or_insert(0.0) += c;
        }
        let entries: Vec<RmEntry> = counts
            .iter()
            .filter(|(_, _, c)| *c > 0.0)
            .map(|(f, e, c)| RmEntry {
                source: f.clone(),
                target: e.clone(),
                count: *c,
                p_e_given_f: (c / c_f[f.as_str()]).min(1.0),
                p_f_given_e: (c / c_e[e.as_str()]).min(1.0),
            })
            .collect();
        RmTable::pruned(entries, top_k)
    }

    /// Estimates the table from expected counts as [`RmTable::estimate`], each
    /// relative frequency interpolated with a back-off to the *coarse* RM
    /// pair, whose MS are cut to their root labels (`NP[ART-NN] VVFIN` →
    /// `NP VVFIN`), Witten-Bell style (module documentation of
    /// [`crate::mt::ms`], reading [`RmEstimate::Backoff`](crate::mt::ms::RmEstimate::Backoff)):
    /// `P(e|f) = (c(f,e) + n(f) · P(E|F) · P(e|E)) / (c(f) + n(f))` with `F`, `E`
    /// the coarse forms, `n(f)` the number of distinct targets of `f`,
    /// `P(E|F) = C(F,E) / C(F)` from the summed coarse counts and
    /// `P(e|E) = c(e) / C(E)`; `P(f|e)` the same way round.
    pub fn estimate_backoff(counts: Vec<(String, String, f64)>, top_k: Option<usize>) -> RmTable {
        let coarse = coarse_forms(&counts);
        let s = CoarseCounts::new(&counts, &coarse);
        let entries = smoothed_entries(&counts, |f, e, c| {
            let (p_ef, p_fe, cf, ce) = s.coarse_pair(f, e);
            let back_ef = p_ef * s.c_e[e] / s.cc_e[ce];
            let back_fe = p_fe * s.c_f[f] / s.cc_f[cf];
            let (nf, ne) = (s.n_f[f], s.n_e[e]);
            ((c + nf * back_ef) / (s.c_f[f] + nf), (c + ne * back_fe) / (s.c_e[e] + ne))
        });
        RmTable::pruned(entries, top_k)
    }

    /// Estimates the table from expected counts with modified Kneser-Ney
    /// style absolute discounting (Chen & Goodman 1998; module documentation
    /// of [`crate::mt::ms`], reading
    /// [`RmEstimate::Discount`](crate::mt::ms::RmEstimate::Discount)):
    /// `P(e|f) = (c(f,e) − d(f,e)) / c(f) + γ(f) · P(E|F) · P_kn(e|E)` with
    /// `d(f,e) = min(c(f,e), D_k)`, `k = ⌈c(f,e)⌉` capped at 3, the three
    /// discounts `D_1, D_2, D_3+` from the count-of-counts of `⌈c⌉` by
    /// [`kn_discounts`](crate::mt::lm::kn_discounts) (KenLM's fallback when
    /// they are invalid), `γ(f) = Σ_e' d(f,e') / c(f)` the discounted mass,
    /// `P(E|F) = C(F,E) / C(F)` the coarse RM pair's relative frequency and
    /// `P_kn(e|E) = N(·,e) / Σ_{e' ∈ E} N(·,e')` Kneser-Ney's continuation
    /// probability (`N(·,e)`: distinct source RMs seen with `e`), so that a
    /// target seen with many sources is the likelier for a rare one. Each
    /// row sums to 1 over the targets seen in training; `P(f|e)` the same
    /// way round.
    pub fn estimate_discounted(counts: Vec<(String, String, f64)>, top_k: Option<usize>) -> RmTable {
        let coarse = coarse_forms(&counts);
        let s = CoarseCounts::new(&counts, &coarse);
        let mut t = [0u64; 4];
        for (_, _, c) in counts.iter().filter(|x| x.2 > 0.0) {
            let k = c.ceil().min(4.0) as usize;
            if let Some(x) = t.get_mut(k.saturating_sub(1)) {
                *x += 1;
            }
        }
        let discounts = crate::mt::lm::kn_discounts(t);
        let discount = |c: f64| c.min(discounts.of(c.ceil().min(3.0) as u64));
        let (mut gamma_f, mut gamma_e): (BTreeMap<&str, f64>, BTreeMap<&str, f64>) = Default::default();
        for (f, e, c) in counts.iter().filter(|x| x.2 > 0.0) {
            *gamma_f.entry(f).or_insert(0.0) += discount(*c);
            *gamma_e.entry(e).or_insert(0.0) += discount(*c);
        }
        let entries = smoothed_entries(&counts, |f, e, c| {
            let (p_ef, p_fe, cf, ce) = s.coarse_pair(f, e);
            let back_ef = p_ef * s.n_e[e] / s.nc_e[ce];
            let back_fe = p_fe * s.n_f[f] / s.nc_f[cf];
            let kept = c - discount(c);
            ((kept + gamma_f[f] * back_ef) / s.c_f[f], (kept + gamma_e[e] * back_fe) / s.c_e[e])
        });
        RmTable::pruned(entries, top_k)
    }

    /// The table of these estimated entries, the `top_k` targets of each source RM kept.
    fn pruned(entries: Vec<RmEntry>, top_k: Option<usize>) -> RmTable {
        let mut table = RmTable::from_entries(entries).unwrap_or_default();
        if let Some(k) = top_k {
            table.prune(k);
        }
        table
    }

    /// Keeps the first `k` targets of each source RM: the rows are cut in
    /// place (the kept entries of a valid table are valid and in order, so
    /// nothing is checked or interned again).
    pub fn prune(&mut self, k: usize) {
        if k == 0 {
            *self = RmTable::default();
            return;
        }
        let mut rows = Vec::with_capacity(self.rows.len());
        let mut starts = Vec::with_capacity(self.group_starts.len());
        for g in 0..self.group_starts.len() {
            starts.push(rows.len());
            let range = self.entry_range(g);
            rows.extend_from_slice(&self.rows[range.start..range.end.min(range.start + k)]);
        }
        self.made = (0..starts.len()).map(|_| OnceLock::new()).collect();
        self.rows = rows;
        self.group_starts = starts;
    }

    /// All entries, grouped by source RM (each group made if it was not yet).
    pub fn entries(&self) -> impl Iterator<Item = &RmEntry> + '_ {
        (0..self.group_starts.len()).flat_map(move |g| self.group_entries(g))
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of distinct source RMs.
    pub fn source_rms(&self) -> usize {
        self.group_starts.len()
    }

    /// The entries of a source RM and their parsed targets, best first.
    pub fn lookup(&self, source: &str) -> (&[RmEntry], impl Iterator<Item = &TargetRm> + '_) {
        let g = self.sources.id(source).map(|g| g as usize);
        let entries = g.map_or(&[][..], |g| self.group_entries(g));
        let range = g.map_or(0..0, |g| self.entry_range(g));
        (entries, self.rows[range].iter().map(|r| self.target_rm(r.0)))
    }

    /// The entry of a pair.
    pub fn get(&self, source: &str, target: &str) -> Option<&RmEntry> {
        self.lookup(source).0.iter().find(|e| e.target == target)
    }
}

/// The sums the smoothed estimates of the RM table read: fine and coarse
/// (root labels, [`coarse_rm`]) counts both ways and the numbers of
/// distinct partners.
struct CoarseCounts<'a> {
    coarse_of: &'a BTreeMap<&'a str, String>,
    /// `c(f)`, `c(e)`: expected counts of an RM.
    c_f: BTreeMap<&'a str, f64>,
    c_e: BTreeMap<&'a str, f64>,
    /// `n(f)`: distinct targets of `f`; `n(e)` = `N(·,e)`: distinct sources of `e`.
    n_f: BTreeMap<&'a str, f64>,
    n_e: BTreeMap<&'a str, f64>,
    /// `C(F, E)`, `C(F)`, `C(E)`: the counts summed over coarse classes.
    cc: BTreeMap<(&'a str, &'a str), f64>,
    cc_f: BTreeMap<&'a str, f64>,
    cc_e: BTreeMap<&'a str, f64>,
    /// Distinct fine pairs whose source (target) is in the coarse class:
    /// `Σ_{f ∈ F} n(f)`, `Σ_{e ∈ E} N(·,e)`.
    nc_f: BTreeMap<&'a str, f64>,
    nc_e: BTreeMap<&'a str, f64>,
}

/// The entries of the counted pairs (count > 0) with the probabilities
/// `(P(e|f), P(f|e))` that `p(f, e, count)` gives, capped at 1.
fn smoothed_entries(counts: &[(String, String, f64)], p: impl Fn(&str, &str, f64) -> (f64, f64)) -> Vec<RmEntry> {
    counts
        .iter()
        .filter(|(_, _, c)| *c > 0.0)
        .map(|(f, e, c)| {
            let (p_e_given_f, p_f_given_e) = p(f, e, *c);
            RmEntry {
                source: f.clone(),
                target: e.clone(),
                count: *c,
                p_e_given_f: p_e_given_f.min(1.0),
                p_f_given_e: p_f_given_e.min(1.0),
            }
        })
        .collect()
}

/// The coarse form ([`coarse_rm`]) of every RM of the counts.
fn coarse_forms(counts: &[(String, String, f64)]) -> BTreeMap<&str, String> {
    let mut coarse_of: BTreeMap<&str, String> = BTreeMap::new();
    for (f, e, _) in counts {
        for s in [f, e] {
            coarse_of.entry(s).or_insert_with(|| coarse_rm(s));
        }
    }
    coarse_of
}

impl<'a> CoarseCounts<'a> {
    fn new(counts: &'a [(String, String, f64)], coarse_of: &'a BTreeMap<&'a str, String>) -> CoarseCounts<'a> {
        let mut s = CoarseCounts {
            coarse_of,
            c_f: BTreeMap::new(),
            c_e: BTreeMap::new(),
            n_f: BTreeMap::new(),
            n_e: BTreeMap::new(),
            cc: BTreeMap::new(),
            cc_f: BTreeMap::new(),
            cc_e: BTreeMap::new(),
            nc_f: BTreeMap::new(),
            nc_e: BTreeMap::new(),
        };
        for (f, e, c) in counts.iter().filter(|x| x.2 > 0.0) {
            let (f, e) = (f.as_str(), e.as_str());
            *s.c_f.entry(f).or_insert(0.0) += c;
            *s.c_e.entry(e).or_insert(0.0) += c;
            *s.n_f.entry(f).or_insert(0.0) += 1.0;
            *s.n_e.entry(e).or_insert(0.0) += 1.0;
            let (cf, ce) = (coarse_of[f].as_str(), coarse_of[e].as_str());
            *s.cc.entry((cf, ce)).or_insert(0.0) += c;
            *s.cc_f.entry(cf).or_insert(0.0) += c;
            *s.cc_e.entry(ce).or_insert(0.0) += c;
            *s.nc_f.entry(cf).or_insert(0.0) += 1.0;
            *s.nc_e.entry(ce).or_insert(0.0) += 1.0;
        }
        s
    }

    /// `P(E|F)`, `P(F|E)` of the coarse pair of `(f, e)` and the coarse forms `F`, `E`.
    fn coarse_pair(&self, f: &str, e: &str) -> (f64, f64, &'a str, &'a str) {
        let (cf, ce) = (self.coarse_of[f].as_str(), self.coarse_of[e].as_str());
        let joint = self.cc[&(cf, ce)];
        (joint / self.cc_f[cf], joint / self.cc_e[ce], cf, ce)
    }
}

/// The coarse form of an RM structure string: its MS's root labels,
/// separated by spaces (empty if the string does not parse).
pub fn coarse_rm(rm: &str) -> String {
    RmShape::parse(rm)
        .map_or(String::new(), |r| r.ms().map(|m| m.root_label().to_string()).collect::<Vec<_>>().join(" "))
}

/// The MS root labels of an RM structure string (empty if it does not parse).
pub fn rm_roots(rm: &str) -> Vec<String> {
    RmShape::parse(rm).map_or(Vec::new(), |r| r.ms().map(|m| m.root_label().to_string()).collect())
}

/// The label written for the empty MS of IBM Model 1 (`NULL`).
pub const NULL_LABEL: &str = "NULL";
/// Smallest translation probability of a label (unseen pairs).
pub const LABEL_FLOOR: f64 = 1e-7;

/// A lexical-weighting analogue for RM pairs (reading
/// [`crate::mt::ms`]'s "RM lexical weights"): label translation tables
/// `t(E|F)` and `t(F|E)` between the root labels of source and target MS,
/// trained by IBM Model 1 (EM, a `NULL` label on the given side) on the RM
/// pairs of the training corpus as label sequences weighted by their
/// expected counts. An RM pair is then scored as Koehn et al. (2003) score
/// a phrase pair from its word pairs, without an alignment inside the pair
/// (IBM Model 1's sum over alignments):
/// `lex(RM_e|RM_f) = Π_j (t(E_j|NULL) + Σ_i t(E_j|F_i)) / (|F| + 1)`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RmLexicon {
    /// `e_given_f[F][E] = t(E|F)`.
    pub e_given_f: BTreeMap<String, BTreeMap<String, f64>>,
    /// `f_given_e[E][F] = t(F|E)`.
    pub f_given_e: BTreeMap<String, BTreeMap<String, f64>>,
}

/// IBM Model 1 on weighted label-sequence pairs: `t(generated | given)`.
fn ibm1_labels(pairs: &[(&[String], &[String], f64)], iterations: usize) -> BTreeMap<String, BTreeMap<String, f64>> {
    let vocab: std::collections::BTreeSet<&str> = pairs.iter().flat_map(|p| p.1.iter().map(String::as_str)).collect();
    let uniform = 1.0 / vocab.len().max(1) as f64;
    let mut t: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    let get = |t: &BTreeMap<String, BTreeMap<String, f64>>, f: &str, e: &str| {
        t.get(f).and_then(|r| r.get(e)).copied().unwrap_or(uniform)
    };
    for _ in 0..iterations {
        let mut counts: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for &(given, generated, w) in pairs {
            for e in generated {
                let denom: f64 = get(&t, NULL_LABEL, e) + given.iter().map(|f| get(&t, f, e)).sum::<f64>();
                if denom <= 0.0 {
                    continue;
                }
                for f in std::iter::once(NULL_LABEL).chain(given.iter().map(String::as_str)) {
                    let c = w * get(&t, f, e) / denom;
                    *counts.entry(f.to_string()).or_default().entry(e.clone()).or_insert(0.0) += c;
                }
            }
        }
        for row in counts.values_mut() {
            let total: f64 = row.values().sum();
            if total > 0.0 {
                row.values_mut().for_each(|v| *v /= total);
            }
        }
        t = counts;
    }
    t
}

impl RmLexicon {
    /// Trains both tables on RM pairs with their expected counts (5 EM iterations).
    pub fn train(counts: &[(String, String, f64)]) -> RmLexicon {
        let mut coarse: BTreeMap<(Vec<String>, Vec<String>), f64> = BTreeMap::new();
        let mut roots_of: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (f, e, c) in counts {
            let rf = roots_of.entry(f).or_insert_with(|| rm_roots(f)).clone();
            let re = roots_of.entry(e).or_insert_with(|| rm_roots(e)).clone();
            if !rf.is_empty() && !re.is_empty() {
                *coarse.entry((rf, re)).or_insert(0.0) += c;
            }
        }
        let fe: Vec<(&[String], &[String], f64)> =
            coarse.iter().map(|((f, e), c)| (f.as_slice(), e.as_slice(), *c)).collect();
        let ef: Vec<(&[String], &[String], f64)> = fe.iter().map(|&(f, e, c)| (e, f, c)).collect();
        RmLexicon { e_given_f: ibm1_labels(&fe, 5), f_given_e: ibm1_labels(&ef, 5) }
    }

    fn score(table: &BTreeMap<String, BTreeMap<String, f64>>, given: &[String], generated: &[String]) -> f64 {
        let t = |f: &str, e: &str| table.get(f).and_then(|r| r.get(e)).copied().unwrap_or(0.0);
        generated
            .iter()
            .map(|e| {
                let sum = t(NULL_LABEL, e) + given.iter().map(|f| t(f, e)).sum::<f64>();
                ln((sum / (given.len() + 1) as f64).max(LABEL_FLOOR))
            })
            .sum()
    }

    /// `ln lex(RM_e|RM_f)` from the root labels of both RMs.
    pub fn ln_e_given_f(&self, f: &[String], e: &[String]) -> f64 {
        Self::score(&self.e_given_f, f, e)
    }

    /// `ln lex(RM_f|RM_e)`.
    pub fn ln_f_given_e(&self, f: &[String], e: &[String]) -> f64 {
        Self::score(&self.f_given_e, e, f)
    }

    pub fn is_empty(&self) -> bool {
        self.e_given_f.is_empty()
    }
}

/// Up to `samples` distinct SMS of `d`'s tree drawn at random (seeded),
/// each as its MS structure strings left to right: the sentences the
/// structure model is trained on. Each draw walks the initial SMS left to
/// right and keeps an MS with probability 1/2 or deletes it (and decides
/// again for each MS that replaces it); an MS of more than `max_words`
/// words, which no RM can hold, is always deleted; a pre-terminal is
/// always kept.
pub fn sample_sms(d: &Decomposition<'_>, samples: usize, max_words: usize, rng: &mut SplitMix64) -> Vec<Vec<String>> {
    let tree = d.tree();
    let mut drawn: Vec<Vec<NodeId>> = Vec::with_capacity(samples);
    for _ in 0..samples {
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = d.initial_sms().roots().iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            let below = d.replacement(n);
            let delete = !below.is_empty() && (tree.span(n).len() > max_words || rng.next_u64() >> 63 == 1);
            if delete {
                stack.extend(below.iter().rev());
            } else {
                out.push(n);
            }
        }
        drawn.push(out);
    }
    drawn.sort();
    drawn.dedup();
    drawn.iter().map(|roots| roots.iter().filter_map(|&r| d.ms(r).map(|m| m.to_string())).collect()).collect()
}

/// The most frequent POS of each target word in the training trees (ties:
/// the smaller tag), for the structure of glue translations.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TagLexicon {
    tags: BTreeMap<String, String>,
    /// `c(word, tag)` (empty in model files of version 1).
    #[serde(default)]
    counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// `c(tag)`.
    #[serde(default)]
    tag_counts: BTreeMap<String, u64>,
}

/// The POS given to a target word never seen in training.
pub const UNKNOWN_TAG: &str = "X";

impl TagLexicon {
    pub fn train<'a>(trees: impl IntoIterator<Item = &'a Tree>) -> TagLexicon {
        let mut counts: BTreeMap<(String, String), u64> = BTreeMap::new();
        for t in trees {
            for n in 0..t.len() {
                if let Some(w) = t.word_of(n) {
                    *counts.entry((w.to_string(), t.label(n).to_string())).or_insert(0) += 1;
                }
            }
        }
        let mut tags: BTreeMap<String, (u64, String)> = BTreeMap::new();
        let mut by_word: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
        let mut tag_counts: BTreeMap<String, u64> = BTreeMap::new();
        for ((w, tag), c) in counts {
            *tag_counts.entry(tag.clone()).or_insert(0) += c;
            by_word.entry(w.clone()).or_default().insert(tag.clone(), c);
            let best = tags.entry(w).or_insert((0, String::new()));
            if c > best.0 {
                *best = (c, tag);
            }
        }
        TagLexicon { tags: tags.into_iter().map(|(w, (_, t))| (w, t)).collect(), counts: by_word, tag_counts }
    }

    /// `ln P(tag | word)` (the tag agreement of a target word with the leaf
    /// it fills, reading "tag agreement" of [`crate::mt::ms`]): the relative
    /// frequency smoothed towards the tags' prior with one pseudo-count,
    /// `(c(w, t) + P(t)) / (c(w) + 1)`, `P(t) = (c(t) + 1) / (N + T + 1)`
    /// (add-one over the `T` tags seen and one unseen); 0 without counts (a
    /// version-1 model file).
    pub fn ln_p_tag(&self, word: &str, tag: &str) -> f64 {
        if self.tag_counts.is_empty() {
            return 0.0;
        }
        let n: u64 = self.tag_counts.values().sum();
        let prior =
            (self.tag_counts.get(tag).copied().unwrap_or(0) + 1) as f64 / (n + self.tag_counts.len() as u64 + 1) as f64;
        let (c_wt, c_w) =
            self.counts.get(word).map_or((0, 0), |m| (m.get(tag).copied().unwrap_or(0), m.values().sum()));
        ln((c_wt as f64 + prior) / (c_w as f64 + 1.0))
    }

    /// The tag of a word ([`UNKNOWN_TAG`] if unseen).
    pub fn tag(&self, word: &str) -> &str {
        self.tags.get(word).map_or(UNKNOWN_TAG, String::as_str)
    }

    pub fn len(&self) -> usize {
        self.tags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_rm_table_read_in_any_order_is_the_sorted_table_and_parses_targets_when_looked_up() {
        let json =
            r#"[["NP[ART-NN]","GRUP.NOM[DA-NC]",1,0.25,1],["VVFIN","VM",2,1,1],["NP[ART-NN]","SN[DA-NC]",3,0.75,1]]"#;
        let table: RmTable = serde_json::from_str(json).unwrap();
        let rows: Vec<(String, String)> = table.entries().map(|e| (e.source.clone(), e.target.clone())).collect();
        let expected = [("NP[ART-NN]", "SN[DA-NC]"), ("NP[ART-NN]", "GRUP.NOM[DA-NC]"), ("VVFIN", "VM")];
        assert_eq!(rows, expected.map(|(f, e)| (f.to_string(), e.to_string())));
        let (entries, targets) = table.lookup("NP[ART-NN]");
        let targets: Vec<&TargetRm> = targets.collect();
        assert_eq!((entries.len(), targets.len()), (2, 2));
        assert_eq!(
            (targets[0].ms.as_slice(), targets[0].leaves.as_slice(), targets[0].words),
            (&["SN[DA-NC]".to_string()][..], &["DA".to_string(), "NC".to_string()][..], 2)
        );
        assert_eq!(table.get("VVFIN", "VM").map(|e| e.count), Some(2.0));
        assert!(table.lookup("NP").0.is_empty() && table.lookup("NP").1.next().is_none());
        let back: RmTable = postcard::from_bytes(&postcard::to_allocvec(&table).unwrap()).unwrap();
        assert!(back == table);
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&RmTable::from_entries(table.entries().cloned().collect()).unwrap()).unwrap()
        );
        // Pruned to the best target of each source RM: the table made of those entries alone.
        let mut pruned = table.clone();
        pruned.prune(1);
        let best: Vec<RmEntry> = ["NP[ART-NN]", "VVFIN"].iter().map(|f| table.lookup(f).0[0].clone()).collect();
        assert!(pruned == RmTable::from_entries(best).unwrap());
        assert_eq!(
            pruned.lookup("NP[ART-NN]").1.map(|t| t.ms.clone()).collect::<Vec<_>>(),
            [vec!["SN[DA-NC]".to_string()]]
        );
        pruned.prune(0);
        assert_eq!(pruned.len(), 0);
    }

    #[test]
    fn bad_rm_tables_are_refused() {
        let err = |json: &str| serde_json::from_str::<RmTable>(json).unwrap_err().to_string();
        assert!(
            err(r#"[["NP[ART","VM",1,1,1]]"#).starts_with("source RM 'NP[ART': column 7: expected ']' to close 'NP['")
        );
        assert!(err(r#"[["NP","VM[]",1,1,1]]"#).starts_with("target RM 'VM[]': "));
        assert!(
            err(r#"[["NP","VM",1,1,1],["NP","VM",1,0.5,1]]"#).starts_with("the RM pair 'NP' → 'VM' is listed twice")
        );
        assert!(err(r#"[["NP","VM",0,1,1]]"#)
            .starts_with("RM pair 'NP' → 'VM': expected probabilities in (0, 1] and a positive count, found 0 1 1"));
    }
}
