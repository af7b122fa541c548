//! treelink: syntax-aware translation with bilingual tree kernels.
//!
//! The engine (every module here but `ui`) is plain Rust with no web
//! dependency: the `treelink` command-line tool and the web page call the
//! same functions and get the same numbers. See `ARCHITECTURE.md`.

pub mod align;
pub mod app;
pub mod corpus;
pub mod eval;
pub mod hash;
pub mod io;
pub mod kernel;
pub mod layout;
pub mod lexicon;
pub mod limits;
pub mod math;
pub mod mt;
pub mod progress;
pub mod rng;
pub mod svm;
pub mod svm_light_tk;
pub mod tree;

#[cfg(target_arch = "wasm32")]
pub mod ui;

/// Natively, of the page only the page↔worker messages: the fuzz targets
/// read them as the worker does.
#[cfg(not(target_arch = "wasm32"))]
pub mod ui {
    // `Response::Explained` is large only with 64-bit pointers; in the page
    // (wasm32), where the messages live, the lint does not fire.
    #[allow(clippy::large_enum_variant)]
    pub mod protocol;
}
