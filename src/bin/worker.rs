//! The page's Web Worker (wasm32 only): trains and aligns with the engine
//! off the page's thread (see `treelink::ui::worker`). trunk builds it from
//! `<link data-trunk rel="rust" data-bin="worker" data-type="worker">`.

#[cfg(target_arch = "wasm32")]
fn main() {
    treelink::ui::worker::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the treelink web worker runs in the browser: build it with `trunk build` (see README.md)");
}
