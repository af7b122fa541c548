// Starts the file worker built by trunk from src/bin/file_worker.rs
// (file_worker.js is wasm-bindgen's no-modules glue; paths are relative to this file).
importScripts('./file_worker.js');
wasm_bindgen({ module_or_path: './file_worker_bg.wasm' });
