//! Translation: meta-structures, language models, extraction and decoding.

pub mod lm;
pub mod meta;
