//! The web page's entry point: mounts the Yew app (wasm32 only).

#[cfg(target_arch = "wasm32")]
fn main() {
    treelink::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the treelink web app runs in the browser: build it with `trunk build` (see README.md)");
}
