//! The baseline of paper §6.2: Tinsley, Zhechev, Hearne & Way (2007),
//! "Robust language pair-independent sub-tree alignment".
//!
//! Every (source node, target node) pair is a hypothesis scored from lexical
//! translation probabilities over the inside spans (`s_l`, `t_l`) and the
//! outside words (`s̄_l`, `t̄_l`):
//!
//! `γ(s, t) = α(s_l|t_l) · α(t_l|s_l) · α(s̄_l|t̄_l) · α(t̄_l|s̄_l)`
//!
//! with, for word strings `x` and `y`,
//! - score function 1 (`s1`): `α(x|y) = ∏_i Σ_j P(x_i|y_j)`;
//! - score function 2 (`s2`): `α(x|y) = ∏_i (1/|y|) Σ_j P(x_i|y_j)`.
//!
//! An empty `x` gives 1 (empty product); a non-empty `x` with an empty `y`
//! gives 0. Hypotheses scoring 0 are pruned. The search then repeatedly takes
//! the best hypothesis and blocks those that contradict it under the three
//! well-formedness criteria ([`super::greedy`]), with optional heuristics:
//! - `skip1`: skip hypotheses tied with another at the same score; take the
//!   best one that has no tie;
//! - `skip2`: as skip1, and the taken one's nodes must not belong to any
//!   skipped (tied) hypothesis;
//! - `span1`: postpone hypotheses where either node spans a single word (POS
//!   level) until no other hypothesis remains.
//!
//! When every remaining hypothesis is excluded by skip1/skip2, the best one is
//! taken, so the search always ends with every hypothesis linked or blocked.
//! Scores are compared in log space, so long sentences do not underflow
//! ([`crate::math::ln`], so natively and in wasm the same bits).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::features::LexicalMatrices;
use super::greedy::first_conflict;
use crate::kernel::UnknownName;
use crate::tree::{NodeId, Tree};

/// Tinsley et al.'s two score functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ScoreFunction {
    #[default]
    S1,
    S2,
}

impl FromStr for ScoreFunction {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s {
            "s1" => Ok(ScoreFunction::S1),
            "s2" => Ok(ScoreFunction::S2),
            _ => Err(UnknownName { what: "score function", found: s.into(), expected: "s1, s2" }),
        }
    }
}

impl fmt::Display for ScoreFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoreFunction::S1 => "s1",
            ScoreFunction::S2 => "s2",
        })
    }
}

/// The search heuristics; any combination may be on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Heuristics {
    pub skip1: bool,
    pub skip2: bool,
    pub span1: bool,
}

impl FromStr for Heuristics {
    type Err = UnknownName;
    /// A comma-separated list such as `skip2,span1` (empty: none).
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let mut h = Heuristics::default();
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "skip1" => h.skip1 = true,
                "skip2" => h.skip2 = true,
                "span1" => h.span1 = true,
                _ => {
                    return Err(UnknownName { what: "heuristic", found: name.into(), expected: "skip1, skip2, span1" })
                }
            }
        }
        Ok(h)
    }
}

impl fmt::Display for Heuristics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = [(self.skip1, "skip1"), (self.skip2, "skip2"), (self.span1, "span1")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        f.write_str(&names.join(","))
    }
}

/// `ln α(x|y)` for positions `xs`, `ys`, with `p(x, y) = P(x|y)`.
fn ln_alpha(xs: &[usize], ys: &[usize], p: impl Fn(usize, usize) -> f64, function: ScoreFunction) -> f64 {
    let norm = match function {
        ScoreFunction::S1 => 1.0,
        ScoreFunction::S2 => ys.len() as f64,
    };
    xs.iter().map(|&x| crate::math::ln(ys.iter().map(|&y| p(x, y)).sum::<f64>() / norm)).sum::<f64>()
}

/// `ln γ(s, t)`; `-inf` for a zero score.
pub fn ln_score(src: &Tree, s: NodeId, trg: &Tree, t: NodeId, m: &LexicalMatrices, function: ScoreFunction) -> f64 {
    let split =
        |span: std::ops::Range<usize>, n: usize| -> (Vec<usize>, Vec<usize>) { (0..n).partition(|i| span.contains(i)) };
    let (s_in, s_out) = split(src.span(s), m.n_src());
    let (t_in, t_out) = split(trg.span(t), m.n_trg());
    let p_s_t = |i: usize, j: usize| m.p_s_given_t(i, j);
    let p_t_s = |j: usize, i: usize| m.p_t_given_s(i, j);
    let score = ln_alpha(&s_in, &t_in, p_s_t, function)
        + ln_alpha(&t_in, &s_in, p_t_s, function)
        + ln_alpha(&s_out, &t_out, p_s_t, function)
        + ln_alpha(&t_out, &s_out, p_t_s, function);
    if score.is_nan() {
        f64::NEG_INFINITY
    } else {
        score
    }
}

/// A scored hypothesis.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Hypothesis {
    s: NodeId,
    t: NodeId,
    ln_score: f64,
}

/// Aligns one tree pair with the baseline: returns the links in the order taken.
pub fn tinsley_align(
    src: &Tree,
    trg: &Tree,
    m: &LexicalMatrices,
    function: ScoreFunction,
    heuristics: Heuristics,
) -> Vec<(NodeId, NodeId)> {
    let mut pool: Vec<Hypothesis> = (0..src.len())
        .flat_map(|s| (0..trg.len()).map(move |t| (s, t)))
        .map(|(s, t)| Hypothesis { s, t, ln_score: ln_score(src, s, trg, t, m, function) })
        .filter(|h| h.ln_score > f64::NEG_INFINITY)
        .collect();
    pool.sort_by(|a, b| b.ln_score.total_cmp(&a.ln_score).then(a.s.cmp(&b.s)).then(a.t.cmp(&b.t)));
    let single_word = |h: &Hypothesis| src.span(h.s).len() == 1 || trg.span(h.t).len() == 1;
    let mut links = Vec::new();
    while !pool.is_empty() {
        // span1: consider single-word hypotheses only once nothing else is left.
        let phase: Vec<usize> = if heuristics.span1 && pool.iter().any(|h| !single_word(h)) {
            (0..pool.len()).filter(|&k| !single_word(&pool[k])).collect()
        } else {
            (0..pool.len()).collect()
        };
        let chosen = choose(&pool, &phase, heuristics);
        let h = pool[chosen];
        links.push((h.s, h.t));
        pool.retain(|o| first_conflict(src, trg, (o.s, o.t), &[(h.s, h.t)]).is_none());
    }
    links
}

/// Index into `pool` of the hypothesis to take among the `candidates` (in score order).
fn choose(pool: &[Hypothesis], candidates: &[usize], heuristics: Heuristics) -> usize {
    if !(heuristics.skip1 || heuristics.skip2) {
        return candidates[0];
    }
    let mut skipped_s = Vec::new();
    let mut skipped_t = Vec::new();
    let mut k = 0;
    while k < candidates.len() {
        // The run of hypotheses tied at this score.
        let score = pool[candidates[k]].ln_score;
        let end = k + candidates[k..].iter().take_while(|&&i| pool[i].ln_score == score).count();
        if end - k == 1 {
            let h = pool[candidates[k]];
            if !heuristics.skip2 || (!skipped_s.contains(&h.s) && !skipped_t.contains(&h.t)) {
                return candidates[k];
            }
        } else {
            for &i in &candidates[k..end] {
                skipped_s.push(pool[i].s);
                skipped_t.push(pool[i].t);
            }
        }
        k = end;
    }
    candidates[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_functions_by_hand() {
        // Source "a b" (X = a), target "c d" (Y = c); P(c|a) etc. below.
        let s = Tree::parse_one("(S (X a) (Z b))", "s").unwrap();
        let t = Tree::parse_one("(S (Y c) (W d))", "t").unwrap();
        // P(t_j|s_i) = pts[i][j]; P(s_i|t_j) = pst[i][j].
        let pts = [[0.8, 0.1], [0.2, 0.6]];
        let pst = [[0.7, 0.3], [0.1, 0.5]];
        let m = LexicalMatrices::from_fn(2, 2, |i, j| pts[i][j], |i, j| pst[i][j], &[]);
        // (X, Y): α(a|c) α(c|a) α(b|d) α(d|b) = 0.7 · 0.8 · 0.5 · 0.6
        let g = ln_score(&s, 1, &t, 1, &m, ScoreFunction::S1).exp();
        assert!((g - 0.7 * 0.8 * 0.5 * 0.6).abs() < 1e-12);
        // (S, S): outside empty on both sides (factor 1); inside:
        // α(ab|cd) = (0.7+0.3)(0.1+0.5), α(cd|ab) = (0.8+0.2)(0.1+0.6).
        let g = ln_score(&s, 0, &t, 0, &m, ScoreFunction::S1).exp();
        assert!((g - 1.0 * 0.6 * 1.0 * 0.7).abs() < 1e-12);
        // s2 divides each sum by |y| = 2.
        let g2 = ln_score(&s, 0, &t, 0, &m, ScoreFunction::S2).exp();
        assert!((g2 - 0.5 * 0.3 * 0.5 * 0.35).abs() < 1e-12);
        // (S, Y): the source outside is empty but the target's is not: 0.
        assert_eq!(ln_score(&s, 0, &t, 1, &m, ScoreFunction::S1), f64::NEG_INFINITY);
    }

    #[test]
    fn alignment_is_well_formed_and_finds_the_obvious_links() {
        let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "s").unwrap();
        let t = Tree::parse_one("(S (NP (ART der) (NN Hund)) (VP (VVFIN bellt)))", "t").unwrap();
        let diag = |i: usize, j: usize| if i == j { 0.9 } else { 0.05 };
        let m = LexicalMatrices::from_fn(3, 3, diag, diag, &[]);
        for h in ["", "skip1", "skip2", "span1", "skip2,span1", "skip1,skip2,span1"] {
            let h: Heuristics = h.parse().unwrap();
            let links = tinsley_align(&s, &t, &m, ScoreFunction::S1, h);
            assert!(crate::align::greedy::check_links(&s, &t, &links).is_ok());
            for l in [(0, 0), (1, 1), (4, 4)] {
                assert!(links.contains(&l), "{h}: {links:?}");
            }
        }
        assert!("skip3".parse::<Heuristics>().is_err());
    }

    #[test]
    fn skip1_skips_ties_and_skip2_also_their_nodes() {
        let pool = [
            Hypothesis { s: 1, t: 1, ln_score: -1.0 },
            Hypothesis { s: 1, t: 2, ln_score: -1.0 },
            Hypothesis { s: 1, t: 3, ln_score: -2.0 },
            Hypothesis { s: 4, t: 4, ln_score: -3.0 },
        ];
        let all = [0, 1, 2, 3];
        assert_eq!(choose(&pool, &all, Heuristics::default()), 0);
        let skip1 = Heuristics { skip1: true, ..Default::default() };
        assert_eq!(choose(&pool, &all, skip1), 2);
        let skip2 = Heuristics { skip2: true, ..Default::default() };
        assert_eq!(choose(&pool, &all, skip2), 3, "(1,3) shares source node 1 with skipped ties");
    }
}
