//! Evaluation: precision/recall/F of sub-tree links, and BLEU.

pub mod bleu;
pub mod prf;
