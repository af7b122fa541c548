//! The one progress contract of every long step (training, aligning,
//! tuning, translating a corpus): the step reports [`Progress`] — its stage
//! in words, `done` of `total` units — to an [`Observer`], which answers
//! whether to go on ([`Flow`]). A step told to stop returns [`Cancelled`]
//! (or its own error's `Cancelled` variant) at its next report.
//!
//! The CLI's observer prints a throttled line on stderr; the page's worker
//! posts a message to the page. Closures `FnMut(Progress) -> Flow` are
//! observers, so a test can count reports or cancel after the n-th.
//!
//! # Examples
//! ```
//! use treelink::progress::{Flow, Observer, Progress};
//! let mut seen = Vec::new();
//! let mut observer = |p: Progress| {
//!     seen.push((p.stage.to_string(), p.done, p.total));
//!     if p.done >= 2 { Flow::Break(()) } else { Flow::Continue(()) }
//! };
//! assert!(observer.progress(Progress::new("aligning", 1, 3)).is_continue());
//! assert!(observer.progress(Progress::new("aligning", 2, 3)).is_break());
//! assert_eq!(seen, [("aligning".to_string(), 1, 3), ("aligning".to_string(), 2, 3)]);
//! ```

use std::ops::ControlFlow;

/// How far a long step is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// What is being done, in words ("aligning", "lexical model").
    pub stage: &'static str,
    /// Units done, of `total`.
    pub done: u64,
    /// 0 when the length is unknown (an iterative solver): `done` then counts iterations.
    pub total: u64,
    /// For an iterative solver (SMO): its distance from convergence and the
    /// tolerance that distance must fall below (what stands in for a total).
    pub gap: Option<(f64, f64)>,
}

impl Progress {
    pub fn new(stage: &'static str, done: u64, total: u64) -> Self {
        Progress { stage, done, total, gap: None }
    }
}

/// Whether a step goes on (`Continue(())`) or stops (`Break(())`).
pub type Flow = ControlFlow<()>;

/// Receives the progress of long steps and answers whether to go on.
pub trait Observer {
    fn progress(&mut self, progress: Progress) -> Flow;

    /// A finished step, in a sentence (the CLI prints it; ignored by default).
    fn note(&mut self, _message: &str) {}
}

impl<F: FnMut(Progress) -> Flow> Observer for F {
    fn progress(&mut self, progress: Progress) -> Flow {
        self(progress)
    }
}

/// An observer that ignores everything and never stops a step.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Observer for Quiet {
    fn progress(&mut self, _: Progress) -> Flow {
        Flow::Continue(())
    }
}

/// A step was stopped by its observer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// `Err(Cancelled)` when the observer says stop.
pub fn report(observer: &mut dyn Observer, progress: Progress) -> Result<(), Cancelled> {
    match observer.progress(progress) {
        Flow::Continue(()) => Ok(()),
        Flow::Break(()) => Err(Cancelled),
    }
}
