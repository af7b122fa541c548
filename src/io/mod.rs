//! File formats. Every reader returns an error naming the file, line and
//! column and what it expected; no reader panics on any input.

pub mod dublin;
pub mod json;
pub mod links;
pub mod text;
pub mod tree_stream;
