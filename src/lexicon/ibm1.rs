//! IBM Model 1 (Brown et al. 1993): every alignment equally likely, so
//! `p(f | e) ∝ Π_j Σ_i t(f_j | e_i)` over `e_0 = NULL, e_1..e_n`, and EM
//! finds `t` from co-occurrence alone. Trained alone here for inspection and
//! teaching; [`super::train`] runs it as the first stage of both directions
//! before fast_align ([`super::ibm2`]).

use super::directional::{intern, Direction, Directional};
use super::ibm2::Prior;
use super::table::LexTable;
use super::SentencePair;

/// IBM Model 1 alone, direction source → target: `iterations` EM iterations
/// from uniform `t`, with NULL; returns `t(t|s)` with every co-occurring
/// pair (including `t(t|NULL)`). The EM of Brown et al. (1993) for Model 1:
/// `c(f|e) = Σ_pairs Σ_j Σ_i [f_j = f][e_i = e] t(f|e) / Σ_i' t(f_j|e_i')`,
/// `t(f|e) = c(f|e) / Σ_f c(f|e)`.
pub fn train_ibm1(bitext: &[SentencePair], iterations: usize, lowercase: bool) -> LexTable {
    let data = intern(bitext, lowercase, usize::MAX);
    let mut model = Directional::new(&data, Direction::SourceToTarget);
    for _ in 0..iterations {
        model.em_iteration(&data, Prior::Uniform, None, false);
    }
    model.table(&data, 0.0)
}
