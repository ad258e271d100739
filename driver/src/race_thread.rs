//! The data-race check (races.rs) of a search's executions on a thread of
//! its own, for `--races show` (the default): there the races are only
//! reported at the end, and nothing the search decides waits for them.
//! The check cost about 8% of a short execution (lastzero); on its own
//! thread it runs beside the search instead of between its executions.
//! Executions go over in batches, so the thread wakes once per batch and
//! not once per execution (a wakeup on another CPU costs more than a short
//! execution), and the queue is bounded, so a check that falls behind holds
//! the search back instead of piling up events. When the thread shares its
//! CPU with the program's worker (the two overlap with the search: see
//! `channel::CpuClaim`), it yields that CPU after each execution it checks
//! while the worker has an execution to run, so that execution waits for
//! one check, not a batch.
//! With `--races violation`
//! the first race ends the search, and the check stays in line
//! (`explore::Search::check_races`).

use crate::channel::{Event, WorkerBusy};
use crate::explore::FoundRace;
use crate::info::ProgramInfo;
use crate::races::Incremental;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Executions per batch, and events per batch, whichever fills first.
const BATCH_EXECUTIONS: usize = 32;
const BATCH_EVENTS: usize = 1 << 13;
/// Batches queued before the search waits for the thread.
const QUEUED: usize = 4;

/// The executions of one batch: their events one after another, and each
/// execution's number (1-based, as `Stats::executions`) and end in `events`.
struct Batch {
    events: Vec<Event>,
    executions: Vec<(u64, usize)>,
}

impl Batch {
    /// Room for a full batch (and its last execution) from the start: a
    /// buffer grown execution by execution took fresh pages each time.
    fn new() -> Batch {
        Batch { events: Vec::with_capacity(2 * BATCH_EVENTS), executions: Vec::with_capacity(BATCH_EXECUTIONS) }
    }
}

/// The race check's thread and the batch being filled for it.
pub struct RaceThread {
    batch: Batch,
    /// (None once `finish` or drop closed the queue)
    to_check: Option<SyncSender<Batch>>,
    /// checked batches come back to be filled again (no allocation per batch)
    used: Receiver<Batch>,
    thread: Option<JoinHandle<Vec<FoundRace>>>,
}

impl RaceThread {
    /// Start the thread; `cpus`, when given, is where it may run (the CPUs
    /// the search's own two processes are not pinned to); `worker`: it
    /// shares them with the worker (`Server::beside_the_worker`).
    pub fn start(info: ProgramInfo, cpus: Option<libc::cpu_set_t>, worker: Option<WorkerBusy>) -> RaceThread {
        let (to_check, batches) = mpsc::sync_channel::<Batch>(QUEUED);
        let (give_back, used) = mpsc::channel::<Batch>();
        let thread = std::thread::Builder::new()
            .name("race-check".into())
            .spawn(move || {
                if let Some(set) = cpus {
                    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
                }
                let mut check = Incremental::default();
                let mut found: Vec<FoundRace> = vec![];
                for mut batch in batches {
                    let mut from = 0;
                    for &(execution, end) in &batch.executions {
                        let events = &batch.events[from..end];
                        from = end;
                        FoundRace::add_new(&mut found, check.find(events, &info), events, execution);
                        if worker.as_ref().is_some_and(|w| w.now()) {
                            unsafe { libc::sched_yield() };
                        }
                    }
                    batch.events.clear();
                    batch.executions.clear();
                    let _ = give_back.send(batch);
                }
                found
            })
            .expect("cannot start the race check's thread");
        RaceThread { batch: Batch::new(), to_check: Some(to_check), used, thread: Some(thread) }
    }

    /// Check execution number `execution`, whose events are `events`.
    pub fn check(&mut self, execution: u64, events: &[Event]) {
        self.batch.events.extend_from_slice(events);
        self.batch.executions.push((execution, self.batch.events.len()));
        if self.batch.executions.len() >= BATCH_EXECUTIONS || self.batch.events.len() >= BATCH_EVENTS {
            self.send();
        }
    }

    fn send(&mut self) {
        let next = self.used.try_recv().unwrap_or_else(|_| Batch::new());
        let full = std::mem::replace(&mut self.batch, next);
        // (an error: the thread is gone, and `finish` says how)
        if let Some(queue) = &self.to_check {
            let _ = queue.send(full);
        }
    }

    /// Check what is left and return the races found, in the order of the
    /// executions that showed them first.
    pub fn finish(mut self) -> Vec<FoundRace> {
        if !self.batch.executions.is_empty() {
            self.send();
        }
        self.close().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Close the queue and wait for the thread to end (it does when the
    /// queue closes).
    fn close(&mut self) -> std::thread::Result<Vec<FoundRace>> {
        self.to_check = None;
        self.thread.take().map_or(Ok(vec![]), |t| t.join())
    }
}

/// A search that stops on an error does not finish its race check: the
/// thread still ends before the search's channel goes away (it may be
/// reading the channel: `WorkerBusy`).
impl Drop for RaceThread {
    fn drop(&mut self) {
        let _ = self.close();
    }
}
