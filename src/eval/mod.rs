//! Evaluation: precision/recall/F of sub-tree links and their errors by kind, BLEU, the
//! significance of BLEU differences, and the learning curve's fit.

pub mod bleu;
pub mod curve;
pub mod errors;
pub mod prf;
pub mod significance;
