//! The page's one [`State`] and who renders it. An action is reduced
//! ([`State::apply`]) and the effects it returns are carried out by the
//! one runner the root gives ([`Store::run_effects_with`], `ui::effects`);
//! then each subscriber compares its part of the new state with the last
//! and renders again only if it changed ([`use_slice`]). The root
//! subscribes to the state as [`Settled`] (equal while only the running
//! job's progress moves), the progress bars to the running job alone: a
//! progress report or a clock tick renders the bars and nothing else.
//!
//! Actions dispatched while one is being reduced or its effects carried
//! out (a worker's answer, an effect's own action) wait in a queue, so the
//! reducer never runs inside itself.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use yew::prelude::*;

use super::state::{Action, Effect, Job, State};

type Listener = dyn Fn(&Rc<State>);
type Runner = dyn Fn(Effect);

/// The state, the queue of actions waiting, the subscribers and the runner of effects.
pub struct Store {
    state: RefCell<Rc<State>>,
    queue: RefCell<VecDeque<Action>>,
    reducing: Cell<bool>,
    listeners: RefCell<Vec<Weak<Listener>>>,
    runner: RefCell<Option<Box<Runner>>>,
}

impl Store {
    pub fn new(state: State) -> Rc<Store> {
        Rc::new(Store {
            state: RefCell::new(Rc::new(state)),
            queue: RefCell::default(),
            reducing: Cell::new(false),
            listeners: RefCell::default(),
            runner: RefCell::new(None),
        })
    }

    /// The state now.
    pub fn state(&self) -> Rc<State> {
        self.state.borrow().clone()
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
            let mut next = (*self.state()).clone();
            let effects = next.apply(action);
            let next = Rc::new(next);
            *self.state.borrow_mut() = next.clone();
            if let Some(run) = &*self.runner.borrow() {
                effects.into_iter().for_each(run);
            }
            let listeners: Vec<Rc<Listener>> = {
                let mut all = self.listeners.borrow_mut();
                all.retain(|l| l.strong_count() > 0);
                all.iter().filter_map(Weak::upgrade).collect()
            };
            for listen in listeners {
                listen(&next);
            }
        }
        self.reducing.set(false);
    }

    /// A callback that dispatches to this store.
    pub fn dispatcher(self: &Rc<Self>) -> Callback<Action> {
        let store = self.clone();
        Callback::from(move |a| store.dispatch(a))
    }

    fn subscribe(&self, listener: &Rc<Listener>) {
        self.listeners.borrow_mut().push(Rc::downgrade(listener));
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

/// The state as the root renders it: equal while only the running job's
/// progress moves ([`State::same_but_progress`]).
#[derive(Clone)]
pub struct Settled(pub Rc<State>);

impl PartialEq for Settled {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.same_but_progress(&other.0)
    }
}

impl std::ops::Deref for Settled {
    type Target = State;
    fn deref(&self) -> &State {
        &self.0
    }
}

/// The part `select` picks of the store's state; the component renders
/// again when it changes, and only then.
#[hook]
pub fn use_slice<T: PartialEq + 'static>(store: &Rc<Store>, select: fn(&Rc<State>) -> T) -> Rc<T> {
    let update = use_force_update();
    let current = use_mut_ref(|| Rc::new(select(&store.state())));
    {
        let (store, current) = (store.clone(), current.clone());
        use_effect_with((), move |_| {
            let listener: Rc<Listener> = Rc::new(move |state: &Rc<State>| {
                let next = select(state);
                if *current.borrow().as_ref() != next {
                    *current.borrow_mut() = Rc::new(next);
                    update.force_update();
                }
            });
            store.subscribe(&listener);
            // What changed between the first render and now.
            listener(&store.state());
            move || drop(listener)
        });
    }
    let now = current.borrow().clone();
    now
}

/// The running job, for a progress bar: the one thing a progress report changes.
#[hook]
pub fn use_running() -> Option<Job> {
    let store = use_context::<StoreHandle>().expect("the root provides the store");
    let job = use_slice(&store.0, |s| s.jobs.running.clone());
    (*job).clone()
}
