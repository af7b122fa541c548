//! Kernel SVM (placeholder, being written).
