//! Evaluation: precision/recall/F of links, and BLEU.

pub mod bleu;
