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

#[cfg(target_arch = "wasm32")]
mod annotate;
#[cfg(target_arch = "wasm32")]
mod diagram;
#[cfg(target_arch = "wasm32")]
mod effects;
#[cfg(target_arch = "wasm32")]
mod exercise_panel;
#[cfg(target_arch = "wasm32")]
mod explain_panel;
#[cfg(target_arch = "wasm32")]
mod export;
#[cfg(target_arch = "wasm32")]
mod file_handles;
#[cfg(target_arch = "wasm32")]
mod find;
#[cfg(target_arch = "wasm32")]
mod into_view;
#[cfg(target_arch = "wasm32")]
pub mod jobs;
#[cfg(target_arch = "wasm32")]
mod kernel_table;
#[cfg(target_arch = "wasm32")]
mod loader;
#[cfg(target_arch = "wasm32")]
mod persist;
#[cfg(target_arch = "wasm32")]
mod results;
#[cfg(target_arch = "wasm32")]
mod store;
#[cfg(target_arch = "wasm32")]
mod teach;
#[cfg(target_arch = "wasm32")]
mod train;
#[cfg(target_arch = "wasm32")]
mod translate;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub mod worker;
#[cfg(target_arch = "wasm32")]
mod zoom;

pub use state::{Action, State};
#[cfg(target_arch = "wasm32")]
pub use view::start;
