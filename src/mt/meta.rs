//! Meta-structures (placeholder, being written).
