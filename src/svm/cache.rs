//! The kernel cache: rows of `Q_ij = y_i y_j K(i, j)` under a memory budget,
//! evicted least recently used first, plus the diagonal kept apart.
//!
//! A row is stored at full length `n` but filled lazily: an entry not yet
//! computed holds NaN (the kernel itself is never allowed to return NaN, so
//! the sentinel is unambiguous). SMO mostly needs rows over the active
//! (unshrunk) examples, so a row remembers the *epoch* of the active set it
//! was completed for: the active set only shrinks within an epoch, so such a
//! row needs no scan until the next unshrinking. A missing entry `(i, k)` is
//! first looked up in row `k` (Q is symmetric) before the kernel is called.
//!
//! The kernel is always called as `eval(min(i, j), max(i, j))`, so every
//! entry is a function of the unordered pair: the solver sees the same numbers
//! whatever the cache size, and its result does not depend on it.

use super::{KernelFn, SvmError};

const NONE: usize = usize::MAX;
/// Epoch marker of a row whose every entry is filled.
const FULL: u64 = u64::MAX;

pub(crate) struct QCache<'a> {
    kernel: &'a dyn KernelFn,
    /// `true` for a positive example.
    pos: Vec<bool>,
    n: usize,
    pub(crate) max_rows: usize,
    /// Q_ii = K(i, i).
    pub(crate) diag: Vec<f64>,
    rows: Vec<Vec<f64>>,
    /// For each slot: its example, the epoch it is complete for, LRU links.
    owner: Vec<usize>,
    epoch: Vec<u64>,
    prev: Vec<usize>,
    next: Vec<usize>,
    /// Least and most recently used slots.
    lru: usize,
    mru: usize,
    slot_of: Vec<usize>,
    pub(crate) kernel_evals: u64,
    pub(crate) hits: u64,
    pub(crate) misses: u64,
    /// Reusable buffers of `fill`: the entries to evaluate and their values.
    need: Vec<usize>,
    values: Vec<f64>,
}

impl<'a> QCache<'a> {
    /// Evaluates the diagonal (n kernel calls). `max_rows` is clamped to [2, n].
    pub(crate) fn new(kernel: &'a dyn KernelFn, pos: Vec<bool>, max_rows: usize) -> Result<Self, SvmError> {
        let n = pos.len();
        let mut cache = QCache {
            kernel,
            pos,
            n,
            max_rows: max_rows.clamp(2, n.max(2)),
            diag: Vec::with_capacity(n),
            rows: Vec::new(),
            owner: Vec::new(),
            epoch: Vec::new(),
            prev: Vec::new(),
            next: Vec::new(),
            lru: NONE,
            mru: NONE,
            slot_of: vec![NONE; n],
            kernel_evals: 0,
            hits: 0,
            misses: 0,
            need: Vec::new(),
            values: Vec::new(),
        };
        for i in 0..n {
            let k = cache.eval(i, i)?;
            cache.diag.push(k);
        }
        Ok(cache)
    }

    /// y_i y_k K(i, k), checked finite.
    fn eval(&mut self, i: usize, k: usize) -> Result<f64, SvmError> {
        let (a, b) = if i <= k { (i, k) } else { (k, i) };
        let v = self.kernel.eval(a, b);
        self.kernel_evals += 1;
        if !v.is_finite() {
            return Err(SvmError::NonFiniteKernel { i: a, j: b, value: v });
        }
        Ok(if self.pos[i] == self.pos[k] { v } else { -v })
    }

    /// Q_ik from the diagonal or from row k if it is cached there.
    fn cached(&self, i: usize, k: usize) -> Option<f64> {
        if i == k {
            return Some(self.diag[i]);
        }
        let s = self.slot_of[k];
        (s != NONE).then(|| self.rows[s][i]).filter(|v| !v.is_nan())
    }

    fn unlink(&mut self, s: usize) {
        let (p, q) = (self.prev[s], self.next[s]);
        if p == NONE {
            self.lru = q;
        } else {
            self.next[p] = q;
        }
        if q == NONE {
            self.mru = p;
        } else {
            self.prev[q] = p;
        }
    }

    fn push_mru(&mut self, s: usize) {
        self.prev[s] = self.mru;
        self.next[s] = NONE;
        if self.mru == NONE {
            self.lru = s;
        } else {
            self.next[self.mru] = s;
        }
        self.mru = s;
    }

    /// The slot holding row `i`, made most recent; a new (all-NaN) slot if
    /// absent, evicting the least recently used row other than `pin`.
    fn slot(&mut self, i: usize, pin: usize) -> usize {
        let s = self.slot_of[i];
        if s != NONE {
            self.unlink(s);
            self.push_mru(s);
            return s;
        }
        let s = if self.rows.len() < self.max_rows {
            self.rows.push(vec![f64::NAN; self.n]);
            self.owner.push(i);
            self.epoch.push(0);
            self.prev.push(NONE);
            self.next.push(NONE);
            self.rows.len() - 1
        } else {
            let mut victim = self.lru;
            if victim == pin {
                victim = self.next[victim];
            }
            self.unlink(victim);
            self.slot_of[self.owner[victim]] = NONE;
            self.rows[victim].fill(f64::NAN);
            victim
        };
        self.owner[s] = i;
        self.epoch[s] = 0;
        self.slot_of[i] = s;
        self.push_mru(s);
        s
    }

    /// Fills the missing entries of row `i` (in slot `s`) at `ks`: from the
    /// diagonal or other cached rows where it can, the rest in one
    /// [`KernelFn::eval_many`] call.
    fn fill(&mut self, s: usize, i: usize, ks: impl Iterator<Item = usize>) -> Result<(), SvmError> {
        let mut need = std::mem::take(&mut self.need);
        need.clear();
        let rows_at_once = self.kernel.rows_at_once();
        for k in ks {
            if self.rows[s][k].is_nan() {
                let from_cache = if rows_at_once && k != i { None } else { self.cached(i, k) };
                match from_cache {
                    Some(v) => self.rows[s][k] = v,
                    None => need.push(k),
                }
            }
        }
        if need.is_empty() {
            self.hits += 1;
        } else {
            self.misses += 1;
            let mut values = std::mem::take(&mut self.values);
            values.clear();
            values.resize(need.len(), 0.0);
            self.kernel.eval_many(i, &need, &mut values);
            self.kernel_evals += need.len() as u64;
            for (&k, &v) in need.iter().zip(&values) {
                if !v.is_finite() {
                    let (a, b) = if i <= k { (i, k) } else { (k, i) };
                    return Err(SvmError::NonFiniteKernel { i: a, j: b, value: v });
                }
                self.rows[s][k] = if self.pos[i] == self.pos[k] { v } else { -v };
            }
            self.values = values;
        }
        self.need = need;
        Ok(())
    }

    /// Row `i` filled at least over `active` (the active set of epoch
    /// `epoch`, which starts at 1); returns its slot. `pin` is a slot that must
    /// not be evicted (the other row of the working pair) or `usize::MAX`.
    pub(crate) fn row_active(&mut self, i: usize, active: &[usize], epoch: u64, pin: usize) -> Result<usize, SvmError> {
        let s = self.slot(i, pin);
        if self.epoch[s] == FULL || self.epoch[s] == epoch {
            self.hits += 1;
            return Ok(s);
        }
        self.fill(s, i, active.iter().copied())?;
        self.epoch[s] = epoch;
        Ok(s)
    }

    /// Row `i` filled over all n examples.
    pub(crate) fn row_full(&mut self, i: usize) -> Result<usize, SvmError> {
        let s = self.slot(i, NONE);
        if self.epoch[s] == FULL {
            self.hits += 1;
            return Ok(s);
        }
        self.fill(s, i, 0..self.n)?;
        self.epoch[s] = FULL;
        Ok(s)
    }

    /// Row `i` filled at least over `ks`.
    pub(crate) fn row_at(&mut self, i: usize, ks: &[usize]) -> Result<usize, SvmError> {
        let s = self.slot(i, NONE);
        if self.epoch[s] == FULL {
            self.hits += 1;
            return Ok(s);
        }
        self.fill(s, i, ks.iter().copied())?;
        Ok(s)
    }

    pub(crate) fn get(&self, s: usize) -> &[f64] {
        &self.rows[s]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn evicts_least_recently_used_and_counts_evaluations() {
        let calls = Cell::new(0u64);
        let k = |i: usize, j: usize| {
            calls.set(calls.get() + 1);
            assert!(i <= j, "kernel called as ({i}, {j})");
            (i * 10 + j) as f64
        };
        let mut c = QCache::new(&k, vec![true, false, true, true], 2).unwrap();
        assert_eq!(c.kernel_evals, 4);
        assert_eq!(c.diag, vec![0.0, 11.0, 22.0, 33.0]);
        let s0 = c.row_full(0).unwrap();
        assert_eq!(c.get(s0), &[0.0, -1.0, 2.0, 3.0]);
        assert_eq!(c.kernel_evals, 7);
        // Row 1 reuses Q_10 = Q_01 from row 0.
        let s1 = c.row_full(1).unwrap();
        assert_eq!(c.get(s1), &[-1.0, 11.0, -12.0, -13.0]);
        assert_eq!(c.kernel_evals, 9);
        // Touch row 0, so row 1 is the one evicted for row 2.
        c.row_full(0).unwrap();
        assert_eq!(c.hits, 1);
        let s2 = c.row_full(2).unwrap();
        assert_eq!(c.get(s2), &[2.0, -12.0, 22.0, 23.0]);
        assert_eq!(c.slot_of[1], NONE);
        assert_ne!(c.slot_of[0], NONE);
        assert_eq!(calls.get(), c.kernel_evals);
    }

    #[test]
    fn active_rows_are_reused_within_an_epoch_and_pinned_rows_survive() {
        let k = |i: usize, j: usize| 1.0 + (i + j) as f64;
        let mut c = QCache::new(&k, vec![true; 5], 2).unwrap();
        let active = [1, 3, 4];
        let a = c.row_active(0, &active, 1, NONE).unwrap();
        assert!(c.get(a)[2].is_nan() && c.get(a)[3] == 4.0);
        let evals = c.kernel_evals;
        c.row_active(0, &active[1..], 1, NONE).unwrap();
        assert_eq!(c.kernel_evals, evals);
        let b = c.row_active(1, &active, 1, a).unwrap();
        // Row 0 is least recent but pinned: row 1 is evicted instead.
        let d = c.row_active(2, &active, 1, a).unwrap();
        assert_eq!(d, b);
        assert_eq!(c.get(a)[4], 5.0);
        // A later epoch fills what the larger active set needs.
        let a2 = c.row_active(0, &[0, 1, 2, 3, 4], 2, NONE).unwrap();
        assert_eq!(c.get(a2), &[1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn a_non_finite_kernel_value_is_an_error() {
        let k = |i: usize, j: usize| if i == 0 && j == 2 { f64::INFINITY } else { 1.0 };
        let mut c = QCache::new(&k, vec![true; 3], 10).unwrap();
        assert!(matches!(c.row_full(0), Err(SvmError::NonFiniteKernel { i: 0, j: 2, .. })));
    }
}
