//! The files the page holds unread (an uploaded translation model, which
//! can be 90 MB, goes to the worker as a `File`), behind the opaque
//! [`FileHandle`] the state keeps: the state stays plain data.

use std::cell::RefCell;

use super::state::FileHandle;

thread_local! {
    static FILES: RefCell<Vec<web_sys::File>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `file` for the page's lifetime and names it.
pub fn hold(file: web_sys::File) -> FileHandle {
    FILES.with(|files| {
        let mut files = files.borrow_mut();
        files.push(file);
        FileHandle(files.len() as u32 - 1)
    })
}

/// The file `handle` names.
pub fn get(handle: FileHandle) -> Option<web_sys::File> {
    FILES.with(|files| files.borrow().get(handle.0 as usize).cloned())
}
