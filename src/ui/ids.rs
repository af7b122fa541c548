//! The page's typed ids: requests to the workers ([`JobId`], one counter,
//! the state's) and the generations that say what a value belongs to
//! ([`CorpusGen`]: the corpus loaded; [`WorkerGen`]: the job worker
//! running). No number stands in for "none": that is an `Option`.

use serde::{Deserialize, Serialize};

/// A request's id, given by the page's state (its one counter); the
/// answers carry it, so answers to a request the page gave up on are
/// dropped. A translation model in the worker is named by the id of the
/// job that trained or loaded it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JobId(pub u32);

impl JobId {
    /// The id after this one.
    pub fn next(self) -> JobId {
        JobId(self.0.wrapping_add(1))
    }
}

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which corpus was loaded: each new corpus (and each swap of its sides)
/// is the next generation, so results, translations, folds and jobs name
/// the pairs they belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CorpusGen(pub u32);

impl CorpusGen {
    pub fn next(self) -> CorpusGen {
        CorpusGen(self.0.wrapping_add(1))
    }
}

/// Which job worker runs: each restart (a cancel, a crash, *start fresh*)
/// is the next generation; a restarted worker has forgotten what the last
/// one held (an alignment to explain, a translation model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct WorkerGen(pub u32);

impl WorkerGen {
    pub fn next(self) -> WorkerGen {
        WorkerGen(self.0.wrapping_add(1))
    }
}
