//! Progress on stderr for anything that takes longer than a second: the
//! stage, done/total, and an estimate of the time left.

use std::time::{Duration, Instant};

use treelink::progress::{Flow, Observer, Progress};

/// Prints throttled progress lines to stderr.
pub struct Reporter {
    started: Instant,
    stage_started: Instant,
    stage: String,
    last: Option<Instant>,
}

impl Reporter {
    pub fn new() -> Self {
        let now = Instant::now();
        Reporter { started: now, stage_started: now, stage: String::new(), last: None }
    }

    /// Reports `done` of `total` (total 0: unknown) in `stage`.
    pub fn report(&mut self, stage: &str, done: u64, total: u64) {
        let now = Instant::now();
        if stage != self.stage {
            self.stage = stage.to_string();
            self.stage_started = now;
        }
        // Quiet during the first second, then at most every two seconds.
        if now.duration_since(self.started) < Duration::from_secs(1)
            || self.last.is_some_and(|l| now.duration_since(l) < Duration::from_secs(2))
        {
            return;
        }
        self.last = Some(now);
        let elapsed = now.duration_since(self.stage_started).as_secs_f64();
        let line = if total > 0 {
            let eta = if done > 0 { elapsed * (total - done.min(total)) as f64 / done as f64 } else { f64::NAN };
            let eta = if eta.is_finite() { format!(", about {eta:.0} s left") } else { String::new() };
            format!("{stage}: {done}/{total} ({:.0}%){eta}", 100.0 * done as f64 / total as f64)
        } else {
            format!("{stage}: {done} (elapsed {elapsed:.0} s)")
        };
        eprintln!("treelink: {line}");
    }

    /// A one-off message.
    pub fn note(&mut self, message: &str) {
        eprintln!("treelink: {message}");
    }
}

/// One-off messages, a line each, as [`Reporter::note`] prints them.
pub fn notes(messages: impl IntoIterator<Item = impl std::fmt::Display>) {
    for message in messages {
        eprintln!("treelink: {message}");
    }
}

/// The engine's long steps report here: never cancelled (Ctrl-C stops the process).
impl Observer for Reporter {
    fn progress(&mut self, p: Progress) -> Flow {
        self.report(p.stage, p.done, p.total);
        Flow::Continue(())
    }

    fn note(&mut self, message: &str) {
        Reporter::note(self, message);
    }
}
