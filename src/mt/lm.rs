//! The word n-gram language model of feature h6 (`h6(e, f) = log P(e)`):
//! interpolated modified Kneser-Ney (Chen & Goodman 1998) trained in the
//! engine, stored in backoff form, and read from / written to ARPA files.
//!
//! # Training
//!
//! Each sentence is scored as `<s> w1 .. wk </s>` (one `<s>`). For an n-gram
//! `g` of order n the *adjusted count* a(g) is its count c(g) when n is the
//! model order or g starts with `<s>` (nothing can precede it), and otherwise
//! its continuation count N1+(• g), the number of distinct words seen before
//! g. For every order n three discounts are estimated from the
//! count-of-counts t_k of the adjusted counts of that order (t_k = number of
//! n-grams with a(g) = k):
//!
//! ```text
//! Y = t1 / (t1 + 2 t2),  D1 = 1 - 2Y t2/t1,  D2 = 2 - 3Y t3/t2,  D3+ = 3 - 4Y t4/t3
//! ```
//!
//! **Fallback.** When t1, t2 or t3 is 0 or a discount falls outside
//! 0 < D_k <= k (tiny or artificial data), that order uses D1 = 0.5,
//! D2 = 1, D3+ = 1.5 (KenLM's `--discount_fallback` values). KenLM accepts
//! D_k = 0; here it is refused so that every word keeps a probability > 0.
//!
//! The interpolated estimate of w after context h (n - 1 words, h' = h
//! without its first word) is
//!
//! ```text
//! p(w | h) = max(a(hw) - D(a(hw)), 0) / S(h) + γ(h) p(w | h'),
//! S(h) = Σ_x a(hx),   γ(h) = (D1 N1(h•) + D2 N2(h•) + D3+ N3+(h•)) / S(h)
//! ```
//!
//! where N_k(h•) counts the words x with a(hx) = k (k >= 3 for N3+), and
//! the unigrams interpolate with the uniform distribution over the
//! vocabulary without `<s>` (so `<unk>` gets `γ(ε) / |V \ {<s>}|`). The model
//! stores log10 p(w | h) for every seen n-gram and the backoff weight
//! log10 γ(h) for every context; an unseen n-gram gets
//! γ(h) p(w | h'), which is the interpolated value, so the stored model is
//! exactly the interpolated one and p(· | h) sums to 1 over the vocabulary
//! without `<s>`. `<s>` gets log10 probability -99 (never predicted, SRILM's
//! convention); n-grams ending in `</s>` and top-order n-grams have backoff 0.
//!
//! Tokens are split again at whitespace; `<s>` and `</s>` inside a sentence
//! are dropped and `<unk>` is the unknown word.
//!
//! # Scoring
//!
//! Queries follow ARPA semantics: p(w | h) is the stored value if hw is
//! stored, else 10^bo(h) p(w | h') (bo of an absent context is 0). Words are
//! interned ([`WordId`]) and n-grams are found through a hash trie keyed by
//! (context node, word), so a query allocates nothing. [`LmState`] is the
//! node of the longest context that can still matter (KenLM's minimal state),
//! a `u32`: equal states give equal futures, so a decoder can recombine on it.
//! `log10` and `10^x` use the bit-reproducible `ln` / `exp` of
//! [`crate::math`]: the command line and the page train the same model.
//!
//! # ARPA
//!
//! [`write_arpa`] writes `log10 p <TAB> words [<TAB> backoff]`, backoffs only
//! when non-zero, n-grams sorted by word ids, numbers in Rust's shortest
//! round-trip form, so [`read_arpa`] gives back exactly the same numbers.
//! Reading skips anything before `\data\` and after `\end\`; it refuses
//! malformed files with `file:line:column: expected ..., found ...`. A file
//! without `<unk>` gets `<unk>` at -100 (as KenLM); `<s>` and `</s>` are
//! required. An n-gram whose prefix is missing gets a "blank" prefix whose
//! probability is the backed-off one and whose backoff is 0, which leaves
//! every probability as the file defines it (as KenLM).
//!
//! # Examples
//! ```
//! use treelink::mt::lm::{read_arpa, write_arpa, NgramLm, WordId};
//! let corpus = [vec!["a", "b"], vec!["a", "c", "b"]];
//! let lm = NgramLm::train(&corpus, 3).unwrap();
//! let (p, state) = lm.score_word(lm.begin_state(), lm.word_id("a"));
//! assert!(p < 0.0);
//! let (_, _) = lm.score_word(state, WordId::EOS);
//! let back = read_arpa(&write_arpa(&lm), "lm.arpa").unwrap();
//! assert_eq!(back.log_prob(&["a"], "b"), lm.log_prob(&["a"], "b"));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::hash::FnvMap;
use crate::math::{exp, ln};

/// The order used unless told otherwise (the paper's 3-gram model).
pub const DEFAULT_ORDER: usize = 3;
/// The highest order accepted.
pub const MAX_ORDER: usize = 10;
/// The unknown word.
pub const UNK: &str = "<unk>";
/// Beginning of sentence.
pub const BOS: &str = "<s>";
/// End of sentence.
pub const EOS: &str = "</s>";
/// log10 probability of `<s>`, which is never predicted (SRILM's "zero").
pub const BOS_LOG_PROB: f64 = -99.0;
/// log10 probability given to `<unk>` when an ARPA file does not list it (KenLM's default).
pub const MISSING_UNK_LOG_PROB: f64 = -100.0;
/// Discounts used when count-of-counts cannot give valid ones (KenLM's `--discount_fallback`).
pub const FALLBACK_DISCOUNTS: [f64; 3] = [0.5, 1.0, 1.5];

const ROOT: u32 = 0;

/// An interned word. Ids 0, 1, 2 are `<unk>`, `<s>`, `</s>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct WordId(pub u32);

impl WordId {
    pub const UNK: WordId = WordId(0);
    pub const BOS: WordId = WordId(1);
    pub const EOS: WordId = WordId(2);
}

/// A decoder state: the longest context that still matters, as a node of the
/// model's trie. Only meaningful for the model that produced it (a state of
/// another model is treated as the empty context, never a panic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LmState(u32);

/// Errors from training (bad order), ARPA reading (located) and model files.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LmError {
    #[error("{file}:{line}:{column}: expected {expected}, found {found}")]
    Arpa { file: String, line: usize, column: usize, expected: String, found: String },
    #[error("expected an n-gram order from 1 to {MAX_ORDER}, found {0}")]
    Order(usize),
    #[error("invalid language model: {0}")]
    Model(String),
}

/// The three discounts of one order and whether they are the fallback.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Discounts {
    /// D1, D2, D3+.
    pub d: [f64; 3],
    pub fallback: bool,
}

impl Discounts {
    /// The discount of an adjusted count (0 for 0).
    pub fn of(&self, count: u64) -> f64 {
        match count {
            0 => 0.0,
            1 => self.d[0],
            2 => self.d[1],
            _ => self.d[2],
        }
    }
}

/// Chen & Goodman's discounts from the count-of-counts `[t1, t2, t3, t4]`,
/// or [`FALLBACK_DISCOUNTS`] when t1, t2 or t3 is 0 or some D_k is not in (0, k].
pub fn kn_discounts(t: [u64; 4]) -> Discounts {
    let fallback = Discounts { d: FALLBACK_DISCOUNTS, fallback: true };
    if t[..3].contains(&0) {
        return fallback;
    }
    let t = t.map(|x| x as f64);
    let y = t[0] / (t[0] + 2.0 * t[1]);
    let d = [1.0 - 2.0 * y * t[1] / t[0], 2.0 - 3.0 * y * t[2] / t[1], 3.0 - 4.0 * y * t[3] / t[2]];
    if d.iter().enumerate().all(|(k, &dk)| dk > 0.0 && dk <= (k + 1) as f64) {
        Discounts { d, fallback: false }
    } else {
        fallback
    }
}

fn key(parent: u32, word: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(word)
}

/// log10 with the reproducible `ln`.
fn log10(x: f64) -> f64 {
    ln(x) / std::f64::consts::LN_10
}

/// A log10 score as the natural log the decoders' features are in.
pub fn log10_to_ln(log10: f64) -> f64 {
    log10 * std::f64::consts::LN_10
}

#[derive(Debug, Clone)]
struct Node {
    log_prob: f64,
    backoff: f64,
    parent: u32,
    /// The longest proper suffix of this n-gram present in the trie.
    suffix: u32,
    word: u32,
    order: u8,
    /// A prefix missing from an ARPA file, inserted to keep the trie closed.
    blank: bool,
    /// Has children or a non-zero backoff: as a state it differs from its suffix.
    extendable: bool,
}

impl Node {
    fn root() -> Node {
        Node {
            log_prob: 0.0,
            backoff: 0.0,
            parent: ROOT,
            suffix: ROOT,
            word: 0,
            order: 0,
            blank: false,
            extendable: true,
        }
    }
}

/// One stored n-gram: word ids, log10 probability, log10 backoff.
type Entry = (Vec<u32>, f64, f64);

/// A word n-gram language model in backoff form. See the module documentation.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "LmRepr", try_from = "LmRepr")]
pub struct NgramLm {
    order: usize,
    vocab: Vec<String>,
    ids: FnvMap<String, u32>,
    nodes: Vec<Node>,
    children: FnvMap<u64, u32>,
}

impl fmt::Debug for NgramLm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NgramLm")
            .field("order", &self.order)
            .field("vocab", &self.vocab.len())
            .field("ngrams", &self.ngram_counts())
            .finish()
    }
}

/// Same order, vocabulary (with ids) and stored n-grams with bit-identical numbers.
impl PartialEq for NgramLm {
    fn eq(&self, other: &NgramLm) -> bool {
        let same = |a: &Vec<Vec<Entry>>, b: &Vec<Vec<Entry>>| {
            a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| {
                x.0 == y.0 && x.1.to_bits() == y.1.to_bits() && (x.2 == y.2) // backoff ±0 are the same
            })
        };
        let (a, b) = (self.entries(), other.entries());
        self.order == other.order
            && self.vocab == other.vocab
            && a.iter().map(Vec::len).eq(b.iter().map(Vec::len))
            && same(&a, &b)
    }
}

/// Splits training tokens at whitespace, drops sentence markers.
fn clean_tokens<'a, T: AsRef<str> + 'a>(tokens: impl Iterator<Item = &'a T>) -> impl Iterator<Item = &'a str> {
    tokens.flat_map(|t| t.as_ref().split_whitespace()).filter(|&t| t != BOS && t != EOS)
}

impl NgramLm {
    /// An empty trie with the three special words interned.
    fn skeleton(order: usize) -> Result<NgramLm, LmError> {
        if !(1..=MAX_ORDER).contains(&order) {
            return Err(LmError::Order(order));
        }
        let mut lm = NgramLm {
            order,
            vocab: Vec::new(),
            ids: FnvMap::default(),
            nodes: vec![Node::root()],
            children: FnvMap::default(),
        };
        for w in [UNK, BOS, EOS] {
            lm.intern(w);
        }
        Ok(lm)
    }

    fn intern(&mut self, w: &str) -> u32 {
        if let Some(&id) = self.ids.get(w) {
            return id;
        }
        let id = self.vocab.len() as u32;
        self.vocab.push(w.to_string());
        self.ids.insert(w.to_string(), id);
        id
    }

    fn child(&self, parent: u32, word: u32) -> Option<u32> {
        self.children.get(&key(parent, word)).copied()
    }

    /// The child node, created (blank, probabilities to be set) if absent.
    fn child_or_insert(&mut self, parent: u32, word: u32) -> (u32, bool) {
        let next = self.nodes.len() as u32;
        let id = *self.children.entry(key(parent, word)).or_insert(next);
        if id != next {
            return (id, false);
        }
        let order = self.nodes[parent as usize].order + 1;
        self.nodes.push(Node {
            log_prob: 0.0,
            backoff: 0.0,
            parent,
            suffix: ROOT,
            word,
            order,
            blank: true,
            extendable: false,
        });
        (id, true)
    }

    /// Nodes grouped by order 1..=order (index 0 unused), in creation order.
    fn by_order(&self) -> Vec<Vec<u32>> {
        let mut by = vec![Vec::new(); self.order + 1];
        for (i, n) in self.nodes.iter().enumerate().skip(1) {
            by[n.order as usize].push(i as u32);
        }
        by
    }

    /// Suffix pointers (longest proper suffix present), order by order.
    fn link_suffixes(&mut self, by_order: &[Vec<u32>]) {
        for ids in by_order.iter().skip(1) {
            for &m in ids {
                let Node { parent, word, .. } = self.nodes[m as usize];
                let mut cand = self.nodes[parent as usize].suffix;
                let suffix = if parent == ROOT {
                    ROOT
                } else {
                    loop {
                        if let Some(s) = self.child(cand, word) {
                            break s;
                        }
                        if cand == ROOT {
                            break ROOT;
                        }
                        cand = self.nodes[cand as usize].suffix;
                    }
                };
                self.nodes[m as usize].suffix = suffix;
            }
        }
    }

    fn set_extendable(&mut self) {
        let mut has_children = vec![false; self.nodes.len()];
        for n in self.nodes.iter().skip(1) {
            has_children[n.parent as usize] = true;
        }
        for (n, c) in self.nodes.iter_mut().zip(has_children).skip(1) {
            n.extendable = (c || n.backoff != 0.0) && (n.order as usize) < self.order;
        }
    }

    /// Trains an interpolated modified Kneser-Ney model of the given order on
    /// tokenised sentences (see the module documentation).
    pub fn train<T: AsRef<str>, S: AsRef<[T]>>(sentences: &[S], order: usize) -> Result<NgramLm, LmError> {
        NgramLm::train_with_discounts(sentences, order).map(|(lm, _)| lm)
    }

    /// [`NgramLm::train`], also returning the discounts used for each order
    /// 1..=order (index 0 is the unigrams').
    pub fn train_with_discounts<T: AsRef<str>, S: AsRef<[T]>>(
        sentences: &[S],
        order: usize,
    ) -> Result<(NgramLm, Vec<Discounts>), LmError> {
        let mut lm = NgramLm::skeleton(order)?;
        let mut counts: Vec<u64> = vec![0];
        for w in [WordId::UNK, WordId::BOS, WordId::EOS] {
            lm.child_or_insert(ROOT, w.0);
            counts.push(0);
        }
        let mut ids = Vec::new();
        for s in sentences {
            ids.clear();
            ids.push(WordId::BOS.0);
            for t in clean_tokens(s.as_ref().iter()) {
                let id = lm.intern(t);
                ids.push(id);
            }
            ids.push(WordId::EOS.0);
            for i in 0..ids.len() {
                let mut node = ROOT;
                for &w in &ids[i..ids.len().min(i + order)] {
                    let (n, new) = lm.child_or_insert(node, w);
                    if new {
                        counts.push(0);
                    }
                    node = n;
                    counts[node as usize] += 1;
                }
            }
        }
        let by_order = lm.by_order();
        lm.link_suffixes(&by_order);
        let n_nodes = lm.nodes.len();

        // Adjusted counts: continuation counts except at the top order and after <s>.
        let mut starts_bos = vec![false; n_nodes];
        let mut cont = vec![0u64; n_nodes];
        for ids in &by_order[1..] {
            for &m in ids {
                let n = &lm.nodes[m as usize];
                starts_bos[m as usize] =
                    if n.order == 1 { n.word == WordId::BOS.0 } else { starts_bos[n.parent as usize] };
                if n.order >= 2 {
                    cont[n.suffix as usize] += 1;
                }
            }
        }
        let bos_unigram = lm.child(ROOT, WordId::BOS.0).unwrap_or(ROOT);
        let adjusted: Vec<u64> = (0..n_nodes)
            .map(|m| {
                if m == 0 || m as u32 == bos_unigram {
                    0
                } else if lm.nodes[m].order as usize == order || starts_bos[m] {
                    counts[m]
                } else {
                    cont[m]
                }
            })
            .collect();

        // Discounts per order from the count-of-counts of adjusted counts.
        let discounts: Vec<Discounts> = by_order
            .iter()
            .map(|ids| {
                let mut t = [0u64; 4];
                for &m in ids {
                    if let a @ 1..=4 = adjusted[m as usize] {
                        t[a as usize - 1] += 1;
                    }
                }
                kn_discounts(t)
            })
            .collect();

        // Per context: S(h) and N1, N2, N3+.
        let mut total = vec![0u64; n_nodes];
        let mut n123 = vec![[0u64; 3]; n_nodes];
        for (m, node) in lm.nodes.iter().enumerate().skip(1) {
            let a = adjusted[m];
            if a > 0 {
                total[node.parent as usize] += a;
                n123[node.parent as usize][a.min(3) as usize - 1] += 1;
            }
        }
        let gamma = |h: usize, d: &Discounts| {
            if total[h] == 0 {
                1.0
            } else {
                (d.d[0] * n123[h][0] as f64 + d.d[1] * n123[h][1] as f64 + d.d[2] * n123[h][2] as f64) / total[h] as f64
            }
        };

        // Interpolated probabilities, lower orders first.
        let uniform = 1.0 / (lm.vocab.len() - 1) as f64;
        let mut prob = vec![0.0f64; n_nodes];
        for (n, ids) in by_order.iter().enumerate().skip(1) {
            let d = &discounts[n];
            for &m in ids {
                let m = m as usize;
                let node = &lm.nodes[m];
                let h = node.parent as usize;
                let lower = if n == 1 { uniform } else { prob[node.suffix as usize] };
                let a = adjusted[m];
                let own = if total[h] == 0 { 0.0 } else { (a as f64 - d.of(a)).max(0.0) / total[h] as f64 };
                prob[m] = own + gamma(h, d) * lower;
            }
        }
        for m in 1..n_nodes {
            let n = lm.nodes[m].order as usize;
            let node = &mut lm.nodes[m];
            node.blank = false;
            node.log_prob = if m as u32 == bos_unigram { BOS_LOG_PROB } else { log10(prob[m]) };
            node.backoff = if total[m] > 0 && n < order { log10(gamma(m, &discounts[n + 1])) } else { 0.0 };
        }
        lm.set_extendable();
        Ok((lm, discounts[1..].to_vec()))
    }

    /// Trains on text with one sentence per line, tokens separated by whitespace.
    pub fn train_text(text: &str, order: usize) -> Result<NgramLm, LmError> {
        let sentences: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
        NgramLm::train(&sentences, order)
    }

    /// The n-gram order.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The vocabulary, indexed by [`WordId`]; starts with `<unk>`, `<s>`, `</s>`.
    pub fn vocab(&self) -> &[String] {
        &self.vocab
    }

    /// The id of a word, [`WordId::UNK`] if unknown. No allocation.
    pub fn word_id(&self, word: &str) -> WordId {
        self.ids.get(word).map_or(WordId::UNK, |&i| WordId(i))
    }

    /// The word of an id.
    pub fn word(&self, id: WordId) -> Option<&str> {
        self.vocab.get(id.0 as usize).map(String::as_str)
    }

    /// Number of stored n-grams of each order 1..=order (index 0 is unigrams).
    pub fn ngram_counts(&self) -> Vec<usize> {
        let mut c = vec![0; self.order];
        for n in self.nodes.iter().skip(1).filter(|n| !n.blank) {
            c[n.order as usize - 1] += 1;
        }
        c
    }

    /// The state after `<s>`, where every sentence starts.
    pub fn begin_state(&self) -> LmState {
        LmState(self.minimal(self.child(ROOT, WordId::BOS.0).unwrap_or(ROOT)))
    }

    /// The empty context (a fragment that does not start a sentence).
    pub fn null_state(&self) -> LmState {
        LmState(ROOT)
    }

    fn minimal(&self, mut m: u32) -> u32 {
        while m != ROOT && !self.nodes[m as usize].extendable {
            m = self.nodes[m as usize].suffix;
        }
        m
    }

    /// log10 p(w | context node) by ARPA backoff, and the node of the stored n-gram used.
    fn score_from(&self, mut ctx: u32, w: u32) -> (f64, u32) {
        let mut bo = 0.0;
        loop {
            if let Some(m) = self.child(ctx, w) {
                return (bo + self.nodes[m as usize].log_prob, m);
            }
            if ctx == ROOT {
                // Only for ids without a unigram (never in a well-formed model): <unk>.
                return match self.child(ROOT, WordId::UNK.0) {
                    Some(m) => (bo + self.nodes[m as usize].log_prob, m),
                    None => (bo + MISSING_UNK_LOG_PROB, ROOT),
                };
            }
            bo += self.nodes[ctx as usize].backoff;
            ctx = self.nodes[ctx as usize].suffix;
        }
    }

    /// log10 p(word | state) and the state after the word. Unknown or
    /// out-of-range ids score as `<unk>`; a foreign state as the empty context.
    pub fn score_word(&self, state: LmState, word: WordId) -> (f64, LmState) {
        let w = if (word.0 as usize) < self.vocab.len() { word.0 } else { WordId::UNK.0 };
        let ctx = if (state.0 as usize) < self.nodes.len() { state.0 } else { ROOT };
        let (lp, m) = self.score_from(ctx, w);
        (lp, LmState(self.minimal(m)))
    }

    /// log10 p(`</s>` | state): closing a sentence.
    pub fn score_end(&self, state: LmState) -> f64 {
        self.score_word(state, WordId::EOS).0
    }

    /// ln P of `words` after `state` (their log10 scores summed left to
    /// right, then made a natural log once) and the state after them: the
    /// LM feature both decoders add for a phrase.
    pub fn ln_score_words(&self, mut state: LmState, words: &[WordId]) -> (f64, LmState) {
        let mut total = 0.0;
        for &word in words {
            let (lp, next) = self.score_word(state, word);
            total += lp;
            state = next;
        }
        (log10_to_ln(total), state)
    }

    /// ln p(`</s>` | state): the LM feature of completing a hypothesis.
    pub fn ln_score_end(&self, state: LmState) -> f64 {
        log10_to_ln(self.score_end(state))
    }

    /// The node of the longest suffix of `context` (at most order - 1 words) in the trie.
    fn context_node<S: AsRef<str>>(&self, context: &[S]) -> u32 {
        let ids: Vec<u32> = context.iter().map(|w| self.word_id(w.as_ref()).0).collect();
        let start = ids.len().saturating_sub(self.order - 1);
        'outer: for s in start..ids.len() {
            let mut node = ROOT;
            for &w in &ids[s..] {
                match self.child(node, w) {
                    Some(n) => node = n,
                    None => continue 'outer,
                }
            }
            return node;
        }
        ROOT
    }

    /// log10 p(word | context), the context given as words (its last
    /// order - 1 words count; write `<s>` to start a sentence).
    pub fn log_prob<S: AsRef<str>>(&self, context: &[S], word: &str) -> f64 {
        self.score_from(self.context_node(context), self.word_id(word).0).0
    }

    /// log10 P(`<s>` words `</s>`).
    pub fn score_sentence<S: AsRef<str>>(&self, words: &[S]) -> f64 {
        let mut state = self.begin_state();
        let mut total = 0.0;
        for w in words {
            let (lp, next) = self.score_word(state, self.word_id(w.as_ref()));
            total += lp;
            state = next;
        }
        total + self.score_end(state)
    }

    /// Perplexity over sentences, counting `</s>` as a token: 10^(-Σ log10 p / N).
    pub fn perplexity<S: AsRef<str>, W: AsRef<[S]>>(&self, sentences: &[W]) -> f64 {
        let (mut total, mut n) = (0.0, 0usize);
        for s in sentences {
            total += self.score_sentence(s.as_ref());
            n += s.as_ref().len() + 1;
        }
        if n == 0 {
            1.0
        } else {
            // 10^x with the reproducible `exp`.
            exp(-total / n as f64 * std::f64::consts::LN_10)
        }
    }

    /// The word ids of a node's n-gram.
    fn ngram_of(&self, mut m: u32) -> Vec<u32> {
        let mut words = Vec::with_capacity(self.nodes[m as usize].order as usize);
        while m != ROOT {
            words.push(self.nodes[m as usize].word);
            m = self.nodes[m as usize].parent;
        }
        words.reverse();
        words
    }

    /// The stored (non-blank) n-grams of each order, sorted by word ids.
    fn entries(&self) -> Vec<Vec<Entry>> {
        let mut out = vec![Vec::new(); self.order];
        for (m, n) in self.nodes.iter().enumerate().skip(1) {
            if !n.blank {
                out[n.order as usize - 1].push((self.ngram_of(m as u32), n.log_prob, n.backoff));
            }
        }
        for v in &mut out {
            v.sort_by(|a, b| a.0.cmp(&b.0));
        }
        out
    }
}

/// Why an n-gram could not be added to a model being loaded.
#[derive(Debug)]
enum BuildError {
    Duplicate,
}

/// Loads stored n-grams (from ARPA or a model file) into a trie.
struct Builder {
    lm: NgramLm,
}

impl Builder {
    fn new(order: usize) -> Result<Builder, LmError> {
        Ok(Builder { lm: NgramLm::skeleton(order)? })
    }

    /// Adds a stored n-gram (word ids already interned), creating blank prefixes as needed.
    fn insert(&mut self, words: &[u32], log_prob: f64, backoff: f64) -> Result<(), BuildError> {
        let mut node = ROOT;
        for &w in words {
            node = self.lm.child_or_insert(node, w).0;
        }
        let n = &mut self.lm.nodes[node as usize];
        if !n.blank {
            return Err(BuildError::Duplicate);
        }
        n.blank = false;
        n.log_prob = log_prob;
        n.backoff = backoff;
        Ok(())
    }

    fn has_unigram(&self, w: WordId) -> bool {
        self.lm.child(ROOT, w.0).is_some_and(|m| !self.lm.nodes[m as usize].blank)
    }

    /// Suffix links, blank probabilities, states. Every vocabulary word must
    /// have a unigram (`<unk>` is added at -100 if missing).
    fn finish(mut self) -> Result<NgramLm, String> {
        if !self.has_unigram(WordId::UNK) {
            let _ = self.insert(&[WordId::UNK.0], MISSING_UNK_LOG_PROB, 0.0);
        }
        for (i, w) in self.lm.vocab.iter().enumerate() {
            if !self.has_unigram(WordId(i as u32)) {
                return Err(format!("the word '{w}' has no unigram"));
            }
        }
        let by_order = self.lm.by_order();
        self.lm.link_suffixes(&by_order);
        // A blank hw is what backing off gives: bo(h) + log10 p(w | h').
        for ids in &by_order[2..] {
            for &m in ids {
                if self.lm.nodes[m as usize].blank {
                    let Node { parent, word, .. } = self.lm.nodes[m as usize];
                    let p = &self.lm.nodes[parent as usize];
                    let (bo, suffix) = (p.backoff, p.suffix);
                    let lp = bo + self.lm.score_from(suffix, word).0;
                    self.lm.nodes[m as usize].log_prob = lp;
                }
            }
        }
        self.lm.set_extendable();
        Ok(self.lm)
    }
}

// ---------------------------------------------------------------- ARPA ----

/// Writes the model as an ARPA file (see the module documentation).
pub fn write_arpa(lm: &NgramLm) -> String {
    use std::fmt::Write;
    let entries = lm.entries();
    let mut out = String::from("\\data\\\n");
    for (n, e) in entries.iter().enumerate() {
        let _ = writeln!(out, "ngram {}={}", n + 1, e.len());
    }
    for (n, e) in entries.iter().enumerate() {
        let _ = write!(out, "\n\\{}-grams:\n", n + 1);
        for (words, lp, bo) in e {
            let _ = write!(out, "{lp}\t");
            for (i, &w) in words.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&lm.vocab[w as usize]);
            }
            if *bo != 0.0 {
                let _ = write!(out, "\t{bo}");
            }
            out.push('\n');
        }
    }
    out.push_str("\n\\end\\\n");
    out
}

struct ArpaReader<'a> {
    file: &'a str,
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    /// Number of the last line taken (1-based), for errors at the end of the file.
    last: usize,
}

impl<'a> ArpaReader<'a> {
    fn err(&self, line: usize, column: usize, expected: impl Into<String>, found: impl Into<String>) -> LmError {
        LmError::Arpa { file: self.file.to_string(), line, column, expected: expected.into(), found: found.into() }
    }

    /// The next non-blank line: (1-based number, tokens).
    fn next_line(&mut self) -> Option<(usize, Vec<(usize, &'a str)>)> {
        for (i, line) in self.lines.by_ref() {
            self.last = i + 1;
            let toks = crate::io::text::tokens_with_columns(line);
            if !toks.is_empty() {
                return Some((i + 1, toks));
            }
        }
        None
    }

    /// Whether the next non-blank line is a section header (starts with '\').
    fn at_header(&mut self) -> bool {
        while let Some((_, l)) = self.lines.peek() {
            match l.trim_start().chars().next() {
                None => {
                    if let Some((i, _)) = self.lines.next() {
                        self.last = i + 1;
                    }
                }
                Some(c) => return c == '\\',
            }
        }
        true
    }

    fn expect_header(&mut self, header: &str) -> Result<(), LmError> {
        match self.next_line() {
            Some((_, toks)) if toks.len() == 1 && toks[0].1 == header => Ok(()),
            Some((l, toks)) => Err(self.err(l, toks[0].0, format!("'{header}'"), format!("'{}'", toks[0].1))),
            None => Err(self.err(self.last + 1, 1, format!("'{header}'"), "end of file")),
        }
    }
}

fn parse_number(tok: &str) -> Option<f64> {
    tok.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Reads an ARPA file; `file` names it in error messages.
pub fn read_arpa(text: &str, file: &str) -> Result<NgramLm, LmError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = ArpaReader { file, lines: text.lines().enumerate().peekable(), last: 0 };
    // Anything before \data\ is a comment.
    loop {
        match r.next_line() {
            Some((_, toks)) if toks.len() == 1 && toks[0].1 == "\\data\\" => break,
            Some(_) => {}
            None => return Err(r.err(r.last + 1, 1, "'\\data\\'", "end of file")),
        }
    }
    // ngram n=count, n = 1, 2, ...
    let mut declared: Vec<usize> = Vec::new();
    while !r.at_header() {
        let Some((l, toks)) = r.next_line() else { break };
        let n = declared.len() + 1;
        let expected = format!("'ngram {n}=COUNT'");
        let (col, tok) = if toks[0].1 != "ngram" { toks[0] } else { toks.get(1).copied().unwrap_or(toks[0]) };
        let ok = toks.len() == 2 && toks[0].1 == "ngram" && {
            match toks[1].1.split_once('=') {
                Some((k, c)) if k.parse::<usize>().ok() == Some(n) && c.bytes().all(|b| b.is_ascii_digit()) => {
                    match c.parse::<usize>() {
                        Ok(c) => {
                            declared.push(c);
                            true
                        }
                        Err(_) => false,
                    }
                }
                _ => false,
            }
        };
        if !ok {
            return Err(r.err(l, col, expected, format!("'{tok}'")));
        }
        if declared.len() > MAX_ORDER {
            return Err(r.err(l, col, format!("at most {MAX_ORDER} orders"), format!("'{tok}'")));
        }
    }
    if declared.is_empty() {
        let (l, col, found) = match r.next_line() {
            Some((l, toks)) => (l, toks[0].0, format!("'{}'", toks[0].1)),
            None => (r.last + 1, 1, "end of file".to_string()),
        };
        return Err(r.err(l, col, "'ngram 1=COUNT'", found));
    }
    let order = declared.len();
    let mut b = Builder::new(order)?;
    let mut ids = Vec::with_capacity(order);
    for (n, &count) in (1..=order).zip(&declared) {
        r.expect_header(&format!("\\{n}-grams:"))?;
        let mut seen = 0usize;
        while !r.at_header() {
            let Some((l, toks)) = r.next_line() else { break };
            let (col, tok) = toks[0];
            let lp = parse_number(tok)
                .filter(|&x| x <= 0.0)
                .ok_or_else(|| r.err(l, col, "a log10 probability (a number <= 0)", format!("'{tok}'")))?;
            if toks.len() < n + 1 {
                let end = l;
                let column = toks.last().map_or(1, |(c, t)| c + t.chars().count());
                return Err(r.err(end, column, format!("{n} word(s) after the probability"), "end of line"));
            }
            ids.clear();
            for &(col, w) in &toks[1..=n] {
                if n == 1 {
                    if b.lm.ids.contains_key(w) && b.has_unigram(b.lm.word_id(w)) {
                        return Err(r.err(l, col, "each 1-gram once", format!("'{w}' again")));
                    }
                    ids.push(b.lm.intern(w));
                } else {
                    match b.lm.ids.get(w) {
                        Some(&id) => ids.push(id),
                        None => return Err(r.err(l, col, "a word listed in the \\1-grams: section", format!("'{w}'"))),
                    }
                }
            }
            let backoff = match toks.get(n + 1) {
                None => 0.0,
                Some(&(col, t)) if n == order => {
                    return Err(r.err(
                        l,
                        col,
                        "end of line (the highest order has no backoff weights)",
                        format!("'{t}'"),
                    ));
                }
                Some(&(col, t)) => {
                    parse_number(t).ok_or_else(|| r.err(l, col, "a log10 backoff weight", format!("'{t}'")))?
                }
            };
            if let Some(&(col, t)) = toks.get(n + 2) {
                return Err(r.err(l, col, "end of line", format!("'{t}'")));
            }
            if b.insert(&ids, lp, backoff).is_err() {
                let words = toks[1..=n].iter().map(|t| t.1).collect::<Vec<_>>().join(" ");
                return Err(r.err(l, toks[1].0, format!("each {n}-gram once"), format!("'{words}' again")));
            }
            seen += 1;
        }
        let (l, col, found) = match r.lines.peek() {
            Some((i, line)) => (i + 1, line.chars().take_while(|c| c.is_whitespace()).count() + 1, line.trim()),
            None => (r.last + 1, 1, "end of file"),
        };
        if seen != count {
            return Err(r.err(l, col, format!("{count} {n}-grams as declared in \\data\\"), format!("{seen}")));
        }
        if n == 1 {
            for w in [WordId::BOS, WordId::EOS] {
                if !b.has_unigram(w) {
                    let name = &b.lm.vocab[w.0 as usize];
                    return Err(r.err(l, col, format!("'{name}' among the 1-grams"), format!("'{found}'")));
                }
            }
        }
    }
    r.expect_header("\\end\\")?;
    let line = r.last;
    b.finish().map_err(|e| r.err(line, 1, "a consistent model", e))
}

// ------------------------------------------------------- model files ----

/// The serialised form: vocabulary and stored n-grams per order, as
/// `[word ids, log10 prob, log10 backoff]`.
#[derive(Serialize, Deserialize)]
struct LmRepr {
    order: usize,
    vocab: Vec<String>,
    ngrams: Vec<Vec<Entry>>,
}

impl From<NgramLm> for LmRepr {
    fn from(lm: NgramLm) -> LmRepr {
        let ngrams = lm.entries();
        LmRepr { order: lm.order, vocab: lm.vocab, ngrams }
    }
}

impl TryFrom<LmRepr> for NgramLm {
    type Error = LmError;
    fn try_from(r: LmRepr) -> Result<NgramLm, LmError> {
        let bad = |m: String| LmError::Model(m);
        let mut b = Builder::new(r.order)?;
        if r.vocab.len() < 3 || r.vocab[..3] != [UNK, BOS, EOS] {
            return Err(bad("the vocabulary must start with <unk>, <s>, </s>".into()));
        }
        for w in &r.vocab[3..] {
            if w.is_empty() || w.contains(char::is_whitespace) || b.lm.ids.contains_key(w.as_str()) {
                return Err(bad(format!("bad or repeated word '{w}' in the vocabulary")));
            }
            b.lm.intern(w);
        }
        if r.ngrams.len() != r.order {
            return Err(bad(format!("{} orders of n-grams for an order-{} model", r.ngrams.len(), r.order)));
        }
        for (n, entries) in (1..=r.order).zip(&r.ngrams) {
            for (words, lp, bo) in entries {
                if words.len() != n || words.iter().any(|&w| w as usize >= r.vocab.len()) {
                    return Err(bad(format!("bad {n}-gram {words:?}")));
                }
                if !lp.is_finite() || *lp > 0.0 || !bo.is_finite() || (n == r.order && *bo != 0.0) {
                    return Err(bad(format!("bad numbers for the {n}-gram {words:?}")));
                }
                if n > 1 && words.iter().any(|&w| !b.has_unigram(WordId(w))) {
                    return Err(bad(format!("the {n}-gram {words:?} has a word without a unigram")));
                }
                b.insert(words, *lp, *bo).map_err(|_| bad(format!("repeated {n}-gram {words:?}")))?;
            }
        }
        b.finish().map_err(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discounts_from_count_of_counts() {
        // t = [10, 4, 2, 1]: Y = 10/18, D1 = 1 - 2·(10/18)·4/10 = 5/9,
        // D2 = 2 - 3·(10/18)·2/4 = 7/6, D3+ = 3 - 4·(10/18)·1/2 = 17/9.
        let d = kn_discounts([10, 4, 2, 1]);
        assert!(!d.fallback);
        for (x, y) in d.d.iter().zip([5.0 / 9.0, 7.0 / 6.0, 17.0 / 9.0]) {
            assert!((x - y).abs() < 1e-15, "{x} {y}");
        }
        assert!(kn_discounts([3, 0, 1, 1]).fallback);
        assert!(kn_discounts([3, 1, 0, 0]).fallback);
        // t4 = 0 is fine: D3+ = 3.
        assert_eq!(kn_discounts([4, 2, 1, 0]).d[2], 3.0);
        // D2 = 2 - 3·(1/5)·10/2 = -1: out of range.
        assert!(kn_discounts([1, 2, 10, 1]).fallback);
    }

    #[test]
    fn bad_order() {
        let none: [Vec<&str>; 0] = [];
        assert_eq!(NgramLm::train(&none, 0).unwrap_err(), LmError::Order(0));
        assert!(NgramLm::train(&none, MAX_ORDER + 1).is_err());
    }

    #[test]
    fn empty_corpus_is_uniform() {
        let none: [Vec<&str>; 0] = [];
        let lm = NgramLm::train(&none, 3).unwrap();
        // Vocabulary without <s>: <unk>, </s>.
        assert!((lm.log_prob(&["<s>"], "</s>") - log10(0.5)).abs() < 1e-15);
        assert!((lm.log_prob(&["x"], "y") - log10(0.5)).abs() < 1e-15);
    }
}
