//! The application layer: every user-level workflow of treelink, once, in
//! plain Rust over the engine. The `treelink` CLI (`src/cli/`) and the
//! page's Web Worker (`src/ui/worker.rs`) are adapters over it: they read
//! their inputs (files on disk, or files and messages from the page), call
//! one workflow with an [`Observer`](crate::progress::Observer) for its
//! progress, and show the result. So a model trained in the page is the
//! model `treelink` trains from the same data and settings.
//!
//! | workflow | here | CLI | page |
//! |---|---|---|---|
//! | tell a file's kind, read a model file, import a TigerXML pair | [`files`] | every command | the loader |
//! | train an alignment model | [`alignment::train_model`] | `train` | Train |
//! | align a corpus, the baseline, explain a pair | [`alignment::align`], [`alignment::baseline`], [`alignment::align_and_compare`] | `align`, `baseline` | Align, the explanation |
//! | train a translation system | [`translation::train_model`] | `mt-train` | Translate: Train |
//! | translate a tree or a corpus | [`translation::translate`], [`translation::translate_all`] | `translate` | Translate |
//!
//! Nothing here knows about a terminal, a file system or a browser: inputs
//! arrive parsed, and time is measured by the caller.

pub mod alignment;
pub mod files;
pub mod translation;
