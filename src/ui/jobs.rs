//! The page's side of a Web Worker: starts its loader (`worker_loader.js`,
//! built by trunk from `src/bin/worker.rs`: a job worker, or the file
//! worker by its name), queues requests until the worker says it
//! is ready, hands every response to a callback, and cancels a job by
//! terminating the worker and starting a fresh one. A worker that dies is
//! stopped and reported ([`Response::Stopped`]); a fresh one starts when
//! the page asks ([`Jobs::restart`]) or with the next request. A message
//! may carry a second part beside its JSON (`[request, file]`, or the text
//! of what one job worker made for another: `ui::pool`), handed over
//! unread with the response.
//!
//! Why not gloo-worker's bridge: dropping a bridge only *posts* a "destroy"
//! message, which a worker busy in a synchronous training loop reads after
//! the loop ends; `Worker.terminate()` stops it at once.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions};
use yew::Callback;

use super::protocol::{Request, Response};

/// The page's worker script (`src/bin/worker.rs`: training, aligning,
/// translating; or checking files), relative to the page (so it works
/// under any sub-path).
pub const JOB_WORKER: &str = "./worker_loader.js";
/// The name that makes a worker the file worker (`ui::worker::run`).
pub const FILE_WORKER_NAME: &str = "files";

#[derive(Default)]
struct Inner {
    worker: Option<Worker>,
    ready: bool,
    queue: Vec<JsValue>,
    on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    on_error: Option<Closure<dyn FnMut(ErrorEvent)>>,
}

/// A response, and what came beside it (unread).
pub type Answer = (Response, Option<JsValue>);

/// A handle on the worker; cheap to clone, equal when it is the same worker.
#[derive(Clone)]
pub struct Jobs {
    inner: Rc<RefCell<Inner>>,
    respond: Callback<Answer>,
    /// The worker's name (`self.name` inside it): the page runs two.
    name: &'static str,
    /// Its script ([`JOB_WORKER`]).
    script: &'static str,
}

impl PartialEq for Jobs {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Jobs {
    /// The worker named `name`, started by the first request (so the page
    /// does not fetch and compile its code until it is needed); `respond`
    /// gets every response but `Ready`.
    pub fn on_demand(name: &'static str, script: &'static str, respond: Callback<Answer>) -> Jobs {
        Jobs { inner: Rc::default(), respond, name, script }
    }

    fn spawn(&self) {
        let weak: Weak<RefCell<Inner>> = Rc::downgrade(&self.inner);
        let respond = self.respond.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            // A response, or `[response, what came beside it]`.
            let data = event.data();
            let (text, beside) = match data.dyn_ref::<js_sys::Array>() {
                Some(parts) => (parts.get(0).as_string(), Some(parts.get(1))),
                None => (data.as_string(), None),
            };
            let Some(text) = text else { return };
            match serde_json::from_str::<Response>(&text) {
                Ok(Response::Ready) => {
                    if let Some(inner) = weak.upgrade() {
                        let mut inner = inner.borrow_mut();
                        inner.ready = true;
                        let queue = std::mem::take(&mut inner.queue);
                        if let Some(w) = &inner.worker {
                            for message in queue {
                                let _ = w.post_message(&message);
                            }
                        }
                    }
                }
                Ok(response) => respond.emit((response, beside)),
                Err(e) => respond
                    .emit((Response::Failed { job: None, message: format!("unreadable worker message: {e}") }, None)),
            }
        });
        let (respond, weak, name, script) = (self.respond.clone(), Rc::downgrade(&self.inner), self.name, self.script);
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            // A panic in wasm or running out of memory ends here, as an
            // uncaught error of the worker's event loop.
            // Its state is not to be trusted any more: it is stopped (once
            // this handler, owned by the old worker's handle, has returned);
            // a fresh one starts when the user asks or with the next request.
            let (respond, weak) = (respond.clone(), weak.clone());
            let message =
                format!("The worker stopped ({}); the data, models and results on this page are kept", event.message());
            gloo::timers::callback::Timeout::new(0, move || {
                if let Some(inner) = weak.upgrade() {
                    Jobs { inner, respond: respond.clone(), name, script }.stop();
                }
                respond.emit((Response::Stopped { message }, None));
            })
            .forget();
        });
        let mut inner = self.inner.borrow_mut();
        let options = WorkerOptions::new();
        options.set_name(self.name);
        match Worker::new_with_options(self.script, &options) {
            Ok(worker) => {
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                inner.worker = Some(worker);
            }
            Err(e) => {
                let message = format!("cannot start the worker ({}): {e:?}", self.script);
                self.respond.emit((Response::Failed { job: None, message }, None));
            }
        }
        inner.ready = false;
        inner.on_message = Some(on_message);
        inner.on_error = Some(on_error);
    }

    /// Sends a request (queued until the worker is ready).
    pub fn send(&self, request: &Request) {
        let Ok(text) = serde_json::to_string(request) else { return };
        self.post(JsValue::from_str(&text));
    }

    /// Sends a request with `beside` as its second part (`[request, beside]`):
    /// a file the worker reads itself (a large file never passes through the
    /// page's thread as text), or an artifact's text.
    pub fn send_with(&self, request: &Request, beside: &JsValue) {
        let Ok(text) = serde_json::to_string(request) else { return };
        self.post(js_sys::Array::of2(&JsValue::from_str(&text), beside).into());
    }

    fn post(&self, message: JsValue) {
        // A worker that died is started again by the next request.
        if self.inner.borrow().worker.is_none() {
            self.spawn();
        }
        let mut inner = self.inner.borrow_mut();
        match (&inner.worker, inner.ready) {
            (Some(w), true) => {
                let _ = w.post_message(&message);
            }
            _ => inner.queue.push(message),
        }
    }

    /// Stops whatever the worker is doing and starts a fresh one.
    pub fn restart(&self) {
        self.stop();
        self.spawn();
    }

    /// Stops the worker (what it was asked is dropped); none runs until
    /// [`Jobs::restart`] or the next request.
    pub fn stop(&self) {
        let mut inner = self.inner.borrow_mut();
        if let Some(w) = inner.worker.take() {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
        inner.queue.clear();
        inner.ready = false;
    }
}
