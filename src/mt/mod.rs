//! Translation: meta-structures, language models, extraction and decoding.

pub mod decoder;
pub mod lm;
pub mod meta;
pub mod model;
pub mod ms;
pub mod phrase;
pub mod train;
pub mod tune;
