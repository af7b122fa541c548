//! treelink: syntax-aware translation with bilingual tree kernels.
//!
//! The engine (every module here but `ui`) is plain Rust with no web
//! dependency: the `treelink` command-line tool and the web page call the
//! same functions and get the same numbers. See `ARCHITECTURE.md`.

/// `Display` of each enum named as its `name()`, the name the command line
/// and the model files use.
macro_rules! display_by_name {
    ($($t:ty),+) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    )+};
}

pub mod align;
pub mod app;
pub mod corpus;
pub mod eval;
pub mod exercise;
pub mod hash;
pub mod io;
pub mod kernel;
pub mod layout;
pub mod lexicon;
pub mod limits;
pub mod math;
pub mod mt;
pub mod pair_index;
pub mod parallel;
pub mod progress;
pub mod rng;
pub mod svg;
pub mod svm;
pub mod svm_light_tk;
pub mod tiger;
pub mod tree;

/// The page: natively its state, reducer and messages (tested with the
/// engine; the fuzz targets read the messages as the worker does); the
/// views and the worker glue in wasm32 only.
pub mod ui;

/// The value named `s` among `named` (each name with its value), or the
/// error every reader of such a name gives: `expected a, b or c, found 's'`.
pub fn one_of<T: Copy>(s: &str, named: &[(&str, T)]) -> Result<T, String> {
    named.iter().find(|(name, _)| *name == s).map(|&(_, value)| value).ok_or_else(|| {
        let names: Vec<&str> = named.iter().map(|(name, _)| *name).collect();
        let last = names.len().saturating_sub(1);
        format!("expected {} or {}, found '{s}'", names[..last].join(", "), names[last..].join(""))
    })
}

/// What a model file records as the program that trained it: `treelink` and
/// its version (alignment and translation models alike).
pub fn made_by() -> String {
    format!("treelink {}", env!("CARGO_PKG_VERSION"))
}
