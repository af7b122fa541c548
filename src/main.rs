//! The `treelink` command-line tool: the engine's functions over files.
//! Every command reads its inputs fully, reports the first error as
//! `file:line:column: what was expected` on stderr with a non-zero exit, and
//! writes results to stdout.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
