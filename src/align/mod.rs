//! Sub-tree alignment (Sun, Zhang & Tan 2010, §4-6): plain features, candidate
//! pairs and pruning, the composite kernel, the SVM classifier, greedy search
//! under the three well-formedness criteria, the Tinsley et al. (2007)
//! baseline, and the model file.

pub mod baseline;
pub mod calibrate;
pub mod candidates;
pub mod composite;
pub mod context;
pub mod explain;
pub mod features;
pub mod greedy;
pub mod history;
pub mod lexical;
pub mod link_search;
pub mod model;
pub mod primal;
