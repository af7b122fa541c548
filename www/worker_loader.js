// Starts the Web Worker built by trunk from src/bin/worker.rs (worker.js is
// wasm-bindgen's no-modules glue; paths are relative to this file).
importScripts('./worker.js');
wasm_bindgen({ module_or_path: './worker_bg.wasm' });
