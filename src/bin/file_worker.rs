//! The page's file worker (wasm32 only): checks the files the user gives
//! off the page's thread (see `treelink::ui::worker::run_files`), in a
//! binary of its own, without the training and translation code. trunk
//! builds it from `<link data-trunk rel="rust" data-bin="file_worker" data-type="worker">`.

#[cfg(target_arch = "wasm32")]
fn main() {
    treelink::ui::worker::run_files();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the treelink file worker runs in the browser: build it with `trunk build` (see README.md)");
}
