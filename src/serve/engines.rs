//! The engines that search for the browser's games, bounded in number: a search waits for a
//! free engine, the shortest first, and runs on it through the engine's one search handle
//! ([`Engine::start`]); a search whose game is deleted or dropped is cancelled, waiting or
//! running ([`Ticket`]).

use super::ids::{GameId, lock};
use skald::engine::session::Session;
use skald::engine::{Engine, Finished, Report, SearchHandle, SearchRequest};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A set of engines for one kind of search (the quick engine moves, the long ones, analyses):
/// at most as many searches run at once as there are engines. More wait in a queue that hands
/// a free engine to the search with the shortest time budget first (first come first among
/// equals); a search leaves the queue, or stops, when it is cancelled ([`Ticket`]). Each
/// search runs on its engine's search thread.
pub struct Engines {
    pool: Arc<Mutex<Pool>>,
}

/// The engines of an [`Engines`] and the searches waiting for one.
struct Pool {
    /// The idle engines.
    idle: Vec<IdleEngine>,
    /// The searches waiting for an engine (never while one is idle).
    waiting: Vec<Waiter>,
    /// The number of the next [`Ticket`].
    next: u64,
}

/// An idle engine and the id of the game it searched last (its tables are kept for the same
/// game and emptied for another).
type IdleEngine = (Engine, Option<GameId>);

/// A search waiting for an engine.
struct Waiter {
    /// Its time budget, ms: the shortest is served first.
    budget_ms: u64,
    /// Its [`Ticket`]'s number (first come first among equal budgets).
    seq: u64,
    /// Where its engine goes.
    tx: tokio::sync::oneshot::Sender<Lease>,
}

/// An engine lent to one search; back to the pool (to the next waiting search) when dropped.
struct Lease {
    engine: Option<IdleEngine>,
    pool: Arc<Mutex<Pool>>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            release(&self.pool, engine);
        }
    }
}

/// Gives `engine` to the waiting search with the shortest budget (the first of those), or
/// keeps it idle when none waits.
fn release(pool: &Arc<Mutex<Pool>>, mut engine: IdleEngine) {
    loop {
        let next = {
            let mut p = lock(pool);
            let best = p
                .waiting
                .iter()
                .enumerate()
                .min_by_key(|(_, w)| (w.budget_ms, w.seq))
                .map(|(i, _)| i);
            match best {
                Some(i) => p.waiting.remove(i),
                None => {
                    p.idle.push(engine);
                    return;
                }
            }
        };
        let lease = Lease {
            engine: Some(engine),
            pool: Arc::clone(pool),
        };
        match next.tx.send(lease) {
            Ok(()) => return,
            // Its request went away meanwhile: the next one.
            Err(mut lease) => engine = lease.engine.take().expect("the lease just made"),
        }
    }
}

/// One search's place: cancelling it stops the search if it runs, takes it out of the queue if
/// it waits (its request then answers at once), and keeps it from starting. Cloned into the
/// game it searches for.
#[derive(Clone)]
pub struct Ticket {
    cancelled: Arc<AtomicBool>,
    /// The engine's handle of the search once it has started.
    running: Arc<Mutex<Option<SearchHandle>>>,
    seq: u64,
    pool: Arc<Mutex<Pool>>,
}

impl Ticket {
    /// Cancels the search (waiting, running, or not yet started); nothing if it is over.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(handle) = lock(&self.running).as_ref() {
            handle.cancel();
        }
        lock(&self.pool).waiting.retain(|w| w.seq != self.seq);
    }

    /// Whether [`Ticket::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// Takes a waiting search out of the queue when its request goes away.
struct Queued<'a> {
    pool: &'a Mutex<Pool>,
    seq: u64,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        lock(self.pool).waiting.retain(|w| w.seq != self.seq);
    }
}

impl Engines {
    /// `count` engines (at least one), each with the default hash table (16 MiB) and one
    /// thread.
    pub fn new(count: usize) -> anyhow::Result<Engines> {
        let count = count.max(1);
        let engines = (0..count)
            .map(|_| Engine::new().map(|e| (e, None)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Engines {
            pool: Arc::new(Mutex::new(Pool {
                idle: engines,
                waiting: Vec::new(),
                next: 0,
            })),
        })
    }

    /// `true` when every engine is busy (a search would wait).
    pub fn all_busy(&self) -> bool {
        lock(&self.pool).idle.is_empty()
    }

    /// The searches waiting for an engine.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        lock(&self.pool).waiting.len()
    }

    /// The ticket of a new search, to be [`Engines::run`] once (and kept by its game, to
    /// cancel it).
    pub fn ticket(&self) -> Ticket {
        let mut p = lock(&self.pool);
        p.next += 1;
        Ticket {
            cancelled: Arc::default(),
            running: Arc::default(),
            seq: p.next,
            pool: Arc::clone(&self.pool),
        }
    }

    /// Searches `session` (of game `game`) with `request` on a free engine, once one is free
    /// (searches with a shorter `budget_ms` first), calling `report` after each completed
    /// depth; returns how the search ended. `None` if it was cancelled before it started
    /// ([`Ticket::cancel`]; cancelled while it runs, it ends [`Finished::Cancelled`]).
    pub async fn run(
        &self,
        ticket: &Ticket,
        budget_ms: u64,
        game: GameId,
        session: Box<dyn Session>,
        request: SearchRequest,
        report: impl FnMut(&Report) + Send + 'static,
    ) -> Option<Finished> {
        let mut lease = self.lease(ticket, budget_ms).await?;
        let (engine, last) = lease.engine.as_mut().expect("a lease holds its engine");
        if *last != Some(game) {
            engine.clear_tables();
            *last = Some(game);
        }
        engine.set_session(session);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let handle = engine
            .start(request, report, move |finished| {
                let _ = tx.send(finished);
            })
            .ok()?;
        *lock(&ticket.running) = Some(handle.clone());
        if ticket.is_cancelled() {
            handle.cancel();
        }
        // The engine stays leased until its search has answered.
        let finished = rx.await.ok();
        drop(lease);
        finished
    }

    /// A free engine for the search of `ticket`, once one is free (the shortest `budget_ms`
    /// first); `None` if the search was cancelled first.
    async fn lease(&self, ticket: &Ticket, budget_ms: u64) -> Option<Lease> {
        let waiting = {
            let mut p = lock(&self.pool);
            if ticket.is_cancelled() {
                return None;
            }
            match p.idle.pop() {
                Some(engine) => Err(Lease {
                    engine: Some(engine),
                    pool: Arc::clone(&self.pool),
                }),
                None => {
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    p.waiting.push(Waiter {
                        budget_ms,
                        seq: ticket.seq,
                        tx,
                    });
                    Ok(rx)
                }
            }
        };
        let lease = match waiting {
            Err(lease) => lease,
            Ok(rx) => {
                let _queued = Queued {
                    pool: &self.pool,
                    seq: ticket.seq,
                };
                // An error: cancelled (taken out of the queue).
                rx.await.ok()?
            }
        };
        (!ticket.is_cancelled()).then_some(lease)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skald::engine::{Limits, new_session};
    use skald::variant::Variant;
    use std::time::Duration;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    /// Waits (yielding) until `done` holds.
    async fn until(what: &str, done: impl Fn() -> bool) {
        for _ in 0..60_000 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("never: {what}");
    }

    /// A search of the brandubh start with `limits`, named `name` in `order` at its first
    /// report.
    fn search(
        engines: &Arc<Engines>,
        order: &Arc<Mutex<Vec<&'static str>>>,
        name: &'static str,
        budget: u64,
        limits: Limits,
    ) -> (Ticket, tokio::task::JoinHandle<Option<Finished>>) {
        let (engines, order) = (Arc::clone(engines), Arc::clone(order));
        let ticket = engines.ticket();
        let t = ticket.clone();
        let task = tokio::spawn(async move {
            let mut named = false;
            let report = move |_: &Report| {
                if !std::mem::replace(&mut named, true) {
                    lock(&order).push(name);
                }
            };
            let session = new_session(Variant::Brandubh);
            engines
                .run(&t, budget, 1, session, SearchRequest::from(limits), report)
                .await
        });
        (ticket, task)
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn until_stopped() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// One engine, held by a search; more wait: the shortest budget goes first, then first come
    /// first; a cancelled one leaves the queue at once (while the engine is still held), and so
    /// does one whose request went away.
    #[test]
    fn the_shortest_search_goes_first_and_cancelled_ones_leave_the_queue() {
        runtime().block_on(async {
            let engines = Arc::new(Engines::new(1).unwrap());
            let order = Arc::new(Mutex::new(Vec::new()));
            let (holder, first) = search(&engines, &order, "hard 1", 2000, until_stopped());
            until("the first search runs", || !lock(&order).is_empty()).await;
            let (_, hard) = search(&engines, &order, "hard 2", 2000, depth(1));
            until("queued", || engines.waiting() == 1).await;
            let (_, easy) = search(&engines, &order, "easy", 500, depth(1));
            until("queued", || engines.waiting() == 2).await;
            let (_, medium) = search(&engines, &order, "medium", 1000, depth(1));
            let (cancelled, gone) = search(&engines, &order, "cancelled", 500, depth(1));
            let (_, abandoned) = search(&engines, &order, "abandoned", 100, depth(1));
            until("queued", || engines.waiting() == 5).await;
            cancelled.cancel();
            assert_eq!(gone.await.unwrap(), None, "cancelled: answered at once");
            abandoned.abort();
            until("the abandoned search leaves", || engines.waiting() == 3).await;
            assert_eq!(*lock(&order), ["hard 1"], "the engine is still held");
            holder.cancel();
            assert_eq!(first.await.unwrap(), Some(Finished::Cancelled));
            for task in [easy, medium, hard] {
                assert!(matches!(task.await.unwrap(), Some(Finished::Done(_))));
            }
            assert_eq!(*lock(&order), ["hard 1", "easy", "medium", "hard 2"]);
            assert!(!engines.all_busy());
        });
    }

    /// A running search ends when its ticket is cancelled, without an answer; a search
    /// cancelled before it starts never runs.
    #[test]
    fn a_running_search_is_stopped_when_cancelled() {
        runtime().block_on(async {
            let engines = Arc::new(Engines::new(1).unwrap());
            let order = Arc::new(Mutex::new(Vec::new()));
            let (ticket, task) = search(&engines, &order, "long", 2000, until_stopped());
            until("the search runs", || !lock(&order).is_empty()).await;
            ticket.cancel();
            assert_eq!(task.await.unwrap(), Some(Finished::Cancelled));
            let late = engines.ticket();
            late.cancel();
            let session = new_session(Variant::Brandubh);
            let ran = engines
                .run(&late, 500, 1, session, depth(1).into(), |_| {})
                .await;
            assert_eq!(ran, None);
        });
    }
}
