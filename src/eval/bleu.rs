//! Corpus BLEU (placeholder, being written).
