//! The files the page holds unread (an uploaded translation model, which
//! can be 90 MB, goes to the worker as a `File`; a file picked or dropped,
//! until it is read), behind the opaque [`FileHandle`] the state keeps: the
//! state stays plain data.

use std::cell::RefCell;

use super::state::FileHandle;

thread_local! {
    static FILES: RefCell<Vec<Option<web_sys::File>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `file` (until [`release`]) and names it.
pub fn hold(file: web_sys::File) -> FileHandle {
    FILES.with(|files| {
        let mut files = files.borrow_mut();
        files.push(Some(file));
        FileHandle(files.len() as u32 - 1)
    })
}

/// The file `handle` names, unless it was released.
pub fn get(handle: FileHandle) -> Option<web_sys::File> {
    FILES.with(|files| files.borrow().get(handle.0 as usize).cloned().flatten())
}

/// Forgets the file `handle` names (a file read as text: the page keeps the text).
pub fn release(handle: FileHandle) {
    FILES.with(|files| {
        if let Some(f) = files.borrow_mut().get_mut(handle.0 as usize) {
            *f = None;
        }
    })
}
