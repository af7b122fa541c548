//! Work shared across threads, with results in input order: the one place
//! where the engine uses more than one core (`--threads N` on the CLI).
//!
//! [`map_in_order`] hands the items of a slice to `N` scoped threads (each
//! takes the next item as it finishes one, so uneven items balance), each
//! with a state of its own made by `init` on the calling thread and moved
//! to the worker (a scorer, a kernel stream: it need not be `Sync`), and
//! gives back the results in the items' order. So a caller that writes the
//! results, or sums them, in that order gets the same bytes and bits with
//! any number of threads — provided each item's result depends on the item
//! alone, never on what the thread's state did before (the states must be
//! reset between items, as [`crate::align::model::Scorer`] rolls its index
//! back). [`Threads::ONE`] runs on the calling thread and spawns nothing.
//!
//! No thread pool crate: `std::thread::scope` borrows the caller's data
//! (model, lexicon, trees) without `Arc`s or `'static`, and a spawn per
//! batch (a few µs) is nothing beside the batch. On wasm32 there are no
//! threads (the page shares its work across Web Workers instead, each with
//! its own wasm instance), so [`Threads::available`] is 1 there and every
//! call runs on the calling thread.
//!
//! ```
//! use treelink::parallel::{map_in_order, Threads};
//! let squares = map_in_order(&[1u64, 2, 3, 4, 5], Threads::new(3), || 0u64, |seen, k, x| {
//!     *seen += 1; // the thread's own state: how many items it took
//!     (k, x * x)
//! });
//! assert_eq!(squares, [(0, 1), (1, 4), (2, 9), (3, 16), (4, 25)]);
//! ```

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many threads a step may use (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Threads(NonZeroUsize);

impl Threads {
    /// The calling thread alone.
    pub const ONE: Threads = Threads(NonZeroUsize::MIN);

    /// `n` threads (0 counts as 1).
    pub fn new(n: usize) -> Threads {
        Threads(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN))
    }

    /// Every core the system offers this process (1 if it cannot tell, and
    /// on wasm32).
    pub fn available() -> Threads {
        if cfg!(target_arch = "wasm32") {
            return Threads::ONE;
        }
        Threads(std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN))
    }

    pub fn get(self) -> usize {
        self.0.get()
    }
}

impl Default for Threads {
    fn default() -> Self {
        Threads::ONE
    }
}

impl std::fmt::Display for Threads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// `f(state, k, &items[k])` for every `k`, on up to `threads` threads (never
/// more than there are items), each thread with its own `init()` state;
/// the results in the items' order (module documentation).
pub fn map_in_order<T, S, R>(
    items: &[T],
    threads: Threads,
    mut init: impl FnMut() -> S,
    f: impl Fn(&mut S, usize, &T) -> R + Sync,
) -> Vec<R>
where
    T: Sync,
    S: Send,
    R: Send,
{
    let n = threads.get().min(items.len()).max(1);
    let mut states: Vec<S> = (0..n).map(|_| init()).collect();
    map_with_states(items, &mut states, f)
}

/// [`map_in_order`] with the threads' states made by the caller, one thread
/// per state (kept across calls: a stream maps chunk after chunk with them).
pub fn map_with_states<T, S, R>(items: &[T], states: &mut [S], f: impl Fn(&mut S, usize, &T) -> R + Sync) -> Vec<R>
where
    T: Sync,
    S: Send,
    R: Send,
{
    let n = states.len().min(items.len());
    if n <= 1 || cfg!(target_arch = "wasm32") {
        let Some(state) = states.first_mut() else { return Vec::new() };
        return items.iter().enumerate().map(|(k, x)| f(state, k, x)).collect();
    }
    let next = AtomicUsize::new(0);
    let (next, f) = (&next, &f);
    let mut done: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = states[..n]
            .iter_mut()
            .map(|state| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(x) = items.get(k) else { break };
                        out.push((k, f(state, k, x)));
                    }
                    out
                })
            })
            .collect();
        // A worker that panicked (a bug, never input) takes the caller down with it.
        workers.into_iter().map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (k, r) in done.iter_mut().flat_map(std::mem::take) {
        slots[k] = Some(r);
    }
    // Every index below the length was taken by exactly one worker.
    slots.into_iter().flatten().collect()
}

/// `(a(), b())`, the two at once on two threads when `threads` allows
/// more than one (and not on wasm32), else one after the other.
pub fn join<A: Send, B: Send>(threads: Threads, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    if threads.get() < 2 || cfg!(target_arch = "wasm32") {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let other = scope.spawn(b);
        let first = a();
        // A panic of `b` (a bug, never input) takes the caller down with it.
        (first, other.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    })
}

/// Items per thread in a chunk of [`stream_in_order`] on more than one
/// thread: enough that a thread rarely waits for the others at the chunk's
/// end. (On one thread a chunk is one item: a report per item, as it is made.)
pub const CHUNK_PER_THREAD: usize = 32;

/// The items of `input` a chunk at a time ([`CHUNK_PER_THREAD`] per
/// thread) through [`map_with_states`], each result handed to `write` in
/// input order with its index (from 0); memory holds one chunk, whatever
/// the input's length. An error of `input` stops the stream once the
/// results of the items before it are written (as one thread would); so
/// does an error of `write`. Returns the number of items.
pub fn stream_in_order<T, S, R, E>(
    input: impl IntoIterator<Item = Result<T, E>>,
    threads: Threads,
    mut init: impl FnMut() -> S,
    f: impl Fn(&mut S, usize, &T) -> R + Sync,
    mut write: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<usize, E>
where
    T: Sync,
    S: Send,
    R: Send,
{
    let chunk = if threads.get() == 1 { 1 } else { CHUNK_PER_THREAD * threads.get() };
    let mut states: Vec<S> = (0..threads.get()).map(|_| init()).collect();
    let mut input = input.into_iter();
    let (mut items, mut first) = (Vec::with_capacity(chunk), 0);
    loop {
        items.clear();
        let mut failed = None;
        for item in input.by_ref() {
            match item {
                Ok(x) => items.push(x),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
            if items.len() == chunk {
                break;
            }
        }
        let results = map_with_states(&items, &mut states, |s, k, x| f(s, first + k, x));
        for (k, r) in results.into_iter().enumerate() {
            write(first + k, r)?;
        }
        first += items.len();
        if let Some(e) = failed {
            return Err(e);
        }
        if items.len() < chunk {
            return Ok(first);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_with_any_number_of_threads() {
        let items: Vec<u64> = (0..1000).collect();
        // Uneven work, so threads finish out of order.
        let slow = |_: &mut (), k: usize, x: &u64| -> (usize, u64) {
            let spin = (x % 7) * 200;
            let mut h = *x;
            for _ in 0..spin {
                h = h.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            (k, h)
        };
        let one = map_in_order(&items, Threads::ONE, || (), slow);
        assert!(one.iter().enumerate().all(|(k, r)| r.0 == k));
        for n in [2, 3, 8, 2000] {
            assert_eq!(map_in_order(&items, Threads::new(n), || (), slow), one, "{n} threads");
        }
        assert!(map_in_order(&[] as &[u64], Threads::new(4), || (), slow).is_empty());
    }

    #[test]
    fn join_gives_both_results_in_their_places_on_one_thread_or_two() {
        for n in [1, 2, 4] {
            let main = std::thread::current().id();
            let (a, (b, other)) = join(Threads::new(n), || 6 * 7, || ("b", std::thread::current().id() != main));
            assert_eq!((a, b), (42, "b"));
            assert_eq!(other, n > 1, "{n} threads: the second on a thread of its own exactly when allowed");
        }
    }

    #[test]
    fn a_stream_writes_in_order_and_stops_after_the_items_before_an_error() {
        let input = |fail_at: Option<u64>| (0..300u64).map(move |x| if Some(x) == fail_at { Err(x) } else { Ok(x) });
        for threads in [1, 2, 5] {
            let mut written = Vec::new();
            let n = stream_in_order(
                input(None),
                Threads::new(threads),
                || (),
                |_, k, x| (k, 2 * x),
                |k, r| {
                    written.push((k, r));
                    Ok::<_, u64>(())
                },
            );
            assert_eq!(n, Ok(300));
            assert!(written.iter().enumerate().all(|(i, &(k, (kk, r)))| i == k && k == kk && r == 2 * k as u64));
            let mut written = Vec::new();
            let e = stream_in_order(
                input(Some(100)),
                Threads::new(threads),
                || (),
                |_, _, x| *x,
                |_, r| {
                    written.push(r);
                    Ok::<_, u64>(())
                },
            );
            assert_eq!((e, written), (Err(100), (0..100).collect::<Vec<_>>()), "{threads} threads");
            // A writer's error stops the stream at once.
            let mut written = 0;
            let e = stream_in_order(
                input(None),
                Threads::new(threads),
                || (),
                |_, _, x| *x,
                |k, _| {
                    written += 1;
                    if k == 70 {
                        Err(7)
                    } else {
                        Ok(())
                    }
                },
            );
            assert_eq!((e, written), (Err(7), 71));
        }
    }

    #[test]
    fn each_thread_has_its_own_state_and_every_item_is_taken_once() {
        let items = vec![(); 500];
        let taken = map_in_order(
            &items,
            Threads::new(4),
            || 0usize,
            |count, _, _| {
                *count += 1;
                *count
            },
        );
        assert_eq!(taken.len(), 500);
        // Each state counts only its own thread's items: the counts run 1, 2, ... per thread.
        let ones = taken.iter().filter(|&&c| c == 1).count();
        assert!((1..=4).contains(&ones), "{ones} threads started");
        assert_eq!(Threads::new(0), Threads::ONE);
        assert!(Threads::available().get() >= 1);
    }
}
