//! Evaluation: precision/recall/F of sub-tree links, BLEU, and the
//! significance of BLEU differences.

pub mod bleu;
pub mod prf;
pub mod significance;
