//! Lexical translation models (placeholder, being written).
