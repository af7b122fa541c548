//! The page's store: the one [`State`], and apart from it the running
//! job's [`Progress`]. An action is reduced ([`State::apply`]) and the
//! effects it returns are carried out by the one runner the root gives
//! ([`Store::run_effects_with`], `ui::effects`); a progress report or a
//! clock tick changes the progress alone ([`Store::report`]). Each
//! subscriber compares its part of the new value with the last and
//! renders again only if it changed ([`use_slice`]): the root and the
//! panels subscribe to the state, the progress bars to the progress too
//! ([`use_running`]), so a report renders the bars and nothing else.
//!
//! Actions dispatched while one is being reduced or its effects carried
//! out (a worker's answer, an effect's own action) wait in a queue, so the
//! reducer never runs inside itself.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use yew::prelude::*;

use super::state::{Action, Effect, Job, JobProgress, Progress, ProgressAction, State};

type Runner = dyn Fn(Effect);
/// Who watches a value of the store: told each new value.
type Listener<T> = dyn Fn(&Rc<T>);

/// A value of the store and those who watch it.
struct Watched<T> {
    value: RefCell<Rc<T>>,
    listeners: RefCell<Vec<Weak<Listener<T>>>>,
}

impl<T> Watched<T> {
    fn new(value: T) -> Self {
        Watched { value: RefCell::new(Rc::new(value)), listeners: RefCell::default() }
    }

    fn get(&self) -> Rc<T> {
        self.value.borrow().clone()
    }

    fn set(&self, value: Rc<T>) {
        *self.value.borrow_mut() = value;
    }

    /// Tells every listener still there the value now.
    fn tell(&self) {
        let value = self.get();
        let listeners: Vec<Rc<Listener<T>>> = {
            let mut all = self.listeners.borrow_mut();
            all.retain(|l| l.strong_count() > 0);
            all.iter().filter_map(Weak::upgrade).collect()
        };
        for listen in listeners {
            listen(&value);
        }
    }

    fn subscribe(&self, listener: &Rc<Listener<T>>) {
        self.listeners.borrow_mut().push(Rc::downgrade(listener));
    }
}

/// The state, the progress, the queue of actions waiting and the runner of effects.
pub struct Store {
    state: Watched<State>,
    progress: Watched<Progress>,
    queue: RefCell<VecDeque<Action>>,
    reducing: Cell<bool>,
    runner: RefCell<Option<Box<Runner>>>,
}

impl Store {
    pub fn new(state: State) -> Rc<Store> {
        Rc::new(Store {
            state: Watched::new(state),
            progress: Watched::new(Progress::default()),
            queue: RefCell::default(),
            reducing: Cell::new(false),
            runner: RefCell::new(None),
        })
    }

    /// The state now.
    pub fn state(&self) -> Rc<State> {
        self.state.get()
    }

    /// Who carries out the reducer's effects (the root sets it once).
    pub fn run_effects_with(&self, runner: impl Fn(Effect) + 'static) {
        *self.runner.borrow_mut() = Some(Box::new(runner));
    }

    /// Reduces `action` (after those already waiting), carries out its
    /// effects and tells the subscribers.
    pub fn dispatch(&self, action: Action) {
        self.queue.borrow_mut().push_back(action);
        if self.reducing.replace(true) {
            return;
        }
        loop {
            let Some(action) = self.queue.borrow_mut().pop_front() else { break };
            let last = self.state();
            let mut next = (*last).clone();
            let effects = next.apply(action);
            if !Rc::ptr_eq(&last.loaded.corpus, &next.loaded.corpus) {
                discard_later(last.loaded.corpus.clone());
            }
            drop(last);
            self.state.set(Rc::new(next));
            if let Some(run) = &*self.runner.borrow() {
                effects.into_iter().for_each(run);
            }
            self.state.tell();
        }
        self.reducing.set(false);
    }

    /// A progress report or a clock tick, for the job running now: the
    /// progress bars' alone.
    pub fn report(&self, action: ProgressAction) {
        let mut next = (*self.progress.get()).clone();
        next.apply(action, self.state().jobs.running.as_ref());
        self.progress.set(Rc::new(next));
        self.progress.tell();
    }

    /// A callback that dispatches to this store.
    pub fn dispatcher(self: &Rc<Self>) -> Callback<Action> {
        let store = self.clone();
        Callback::from(move |a| store.dispatch(a))
    }

    /// A callback that reports progress to this store.
    pub fn reporter(self: &Rc<Self>) -> Callback<ProgressAction> {
        let store = self.clone();
        Callback::from(move |p| store.report(p))
    }
}

/// Pairs freed per task when a corpus is discarded ([`discard_later`]):
/// about 30 ms of the page's thread.
const DISCARD_PAIRS: usize = 10_000;

/// Frees a corpus the state no longer shows a part at a time, each in a
/// task of its own, once nothing else holds it: freeing 10⁷ nodes at once
/// held the page's thread for half a second.
fn discard_later(corpus: Rc<crate::corpus::Corpus>) {
    if corpus.len() <= DISCARD_PAIRS {
        return;
    }
    yew::platform::spawn_local(async move {
        let mut corpus = corpus;
        // What still renders the last state lets go of it after a render or two.
        for _ in 0..20 {
            gloo::timers::future::TimeoutFuture::new(50).await;
            match Rc::try_unwrap(corpus) {
                Ok(owned) => {
                    let mut pairs = owned.pairs;
                    while !pairs.is_empty() {
                        pairs.truncate(pairs.len().saturating_sub(DISCARD_PAIRS));
                        gloo::timers::future::TimeoutFuture::new(0).await;
                    }
                    return;
                }
                Err(shared) => corpus = shared,
            }
        }
    });
}

/// A callback for one kind of action (`A`: [`SelectAction`], [`TrainAction`],
/// …), what a component is given to send those and no others: it wraps
/// each as the page's [`Action`] and dispatches it to the store. Two words,
/// copied: Yew's `Callback<A>` made by `reform` would do, at the cost of a
/// closure, its vtable and reference counting per kind in the page's wasm.
///
/// [`SelectAction`]: super::state::SelectAction
/// [`TrainAction`]: super::state::TrainAction
pub struct Dispatch<A> {
    store: &'static Store,
    wrap: fn(A) -> Action,
}

impl<A> Dispatch<A> {
    /// `A`s wrapped by `wrap` (an [`Action`] variant) and dispatched to `store`.
    pub fn new(store: &'static Store, wrap: fn(A) -> Action) -> Self {
        Dispatch { store, wrap }
    }

    pub fn emit(&self, action: A) {
        self.store.dispatch((self.wrap)(action))
    }

    /// The page's state as the last action left it (rendered or not yet).
    pub fn state(&self) -> Rc<State> {
        self.store.state()
    }
}

impl<A> Clone for Dispatch<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for Dispatch<A> {}

/// Equal while it sends to the same store the same way.
impl<A> PartialEq for Dispatch<A> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.store, other.store) && std::ptr::fn_addr_eq(self.wrap, other.wrap)
    }
}

/// The store, as a context (equal while it is the same store).
#[derive(Clone)]
pub struct StoreHandle(pub Rc<Store>);

impl PartialEq for StoreHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The part `select` picks of the value `watched` names in the store; the
/// component renders again when it changes, and only then.
#[hook]
fn use_watched<T: 'static, S: PartialEq + 'static>(
    store: &Rc<Store>,
    watched: fn(&Store) -> &Watched<T>,
    select: fn(&Rc<T>) -> S,
) -> Rc<S> {
    let update = use_force_update();
    let current = use_mut_ref(|| Rc::new(select(&watched(store).get())));
    {
        let (store, current) = (store.clone(), current.clone());
        use_effect_with((), move |_| {
            let listener: Rc<Listener<T>> = Rc::new(move |value: &Rc<T>| {
                let next = select(value);
                if *current.borrow().as_ref() != next {
                    *current.borrow_mut() = Rc::new(next);
                    update.force_update();
                }
            });
            watched(&store).subscribe(&listener);
            // What changed between the first render and now.
            listener(&watched(&store).get());
            move || drop(listener)
        });
    }
    let now = current.borrow().clone();
    now
}

/// The part `select` picks of the store's state; the component renders
/// again when it changes, and only then.
#[hook]
pub fn use_slice<T: PartialEq + 'static>(store: &Rc<Store>, select: fn(&Rc<State>) -> T) -> Rc<T> {
    use_watched(store, |s| &s.state, select)
}

/// The running job and how far it is, for a progress bar: it renders again
/// when the job starts or ends, and on each report or tick.
#[hook]
pub fn use_running() -> Option<(Job, JobProgress)> {
    let store = use_context::<StoreHandle>().expect("the root provides the store");
    let job = use_slice(&store.0, |s| s.jobs.running.clone());
    let progress = use_watched(&store.0, |s| &s.progress, |p| p.clone());
    (*job).as_ref().map(|j| (j.clone(), progress.of(j)))
}
