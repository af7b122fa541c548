//! Evaluation: precision/recall/F of sub-tree links and their errors by kind, BLEU, and the
//! significance of BLEU differences.

pub mod bleu;
pub mod errors;
pub mod prf;
pub mod significance;
