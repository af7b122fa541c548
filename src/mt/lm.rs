//! Word n-gram language model (placeholder, being written).
