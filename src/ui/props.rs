//! What the panels receive from the root: the state as [`Settled`] (equal
//! while only the running job's progress moves) and the running job as a
//! context ([`Running`]) that only the progress bar reads. Apart from the
//! root (`view`), so the panels depend on it and the root on them, not
//! each on the other.

use yew::prelude::*;

use super::state::{self, State};

/// The state as the panels see it: equal while only the running job's
/// progress moves ([`State::same_but_progress`]), so a progress report
/// re-renders the progress bar (which reads [`Running`]) and not the panels.
#[derive(Clone)]
pub struct Settled(pub UseReducerHandle<State>);

impl PartialEq for Settled {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_but_progress(&other.0)
    }
}

impl std::ops::Deref for Settled {
    type Target = State;
    fn deref(&self) -> &State {
        &self.0
    }
}

/// The running job, as a context: the one thing a progress report changes.
#[derive(Clone, PartialEq)]
pub struct Running(pub Option<state::Job>);
