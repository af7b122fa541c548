//! The web page: the alignment workbench and the Translate view, a thin
//! Yew view over one [`State`], with every long computation in a Web Worker.
//!
//! The state, its reducer ([`State::apply`]), what each panel draws of it
//! ([`panels`]), the typed ids ([`ids`]) and the page ↔ worker messages
//! ([`protocol`]) are plain Rust that builds and is tested natively; the
//! store that holds the state (`store`), the one runner of the reducer's
//! effects (`effects`), the views (`view` and the components), the
//! worker's message pump ([`worker`]), the jobs ([`jobs::Jobs`]) and the
//! file registry are wasm32 only. Parsing and the workflows are the
//! application layer's ([`crate::app`]), the same as the CLI's; views
//! render their slice of the state and send [`Action`]s, and the workers'
//! answers come back as actions.

pub mod classroom;
pub mod folds;
pub mod ids;
pub mod load;
pub mod navigate;
pub mod panels;
pub mod pool;
// `Response::Explained` is large only with 64-bit pointers; in the page
// (wasm32), where the messages live, the lint does not fire.
#[allow(clippy::large_enum_variant)]
pub mod protocol;
pub mod state;

/// Each item built for the page (wasm32) only.
macro_rules! page_only {
    ($($item:item)*) => { $(#[cfg(target_arch = "wasm32")] $item)* };
}

page_only! {
    mod diagram;
    mod effects;
    mod exercise_panel;
    mod explain_panel;
    mod export;
    mod file_handles;
    mod find;
    mod into_view;
    pub mod jobs;
    mod kernel_table;
    mod loader;
    mod persist;
    mod results;
    mod store;
    mod teach;
    mod train;
    mod translate;
    mod view;
    pub mod worker;
    mod zoom;
}

pub use state::{Action, State};
#[cfg(target_arch = "wasm32")]
pub use view::start;
