//! When verify and its program's worker share one CPU, a side that waits
//! for the other yields the CPU instead of sleeping on a pipe (the
//! fork-server protocol in `runtime/include/tsoify_channel.h`): the yield
//! runs the other side at once, without a wakeup, about 10% faster on short
//! executions. That is a bet that nothing else wants the CPU. When another
//! busy process shares it (a build, a second checker the CPU locks do not
//! know about), each yield hands that process a whole time slice, and a
//! search of 30 us executions ran at 1.5 ms each (25x slower). Then both
//! sides had better sleep on their pipes and leave it to the scheduler
//! where they run: unpinned, the same search ran at 35-85 us each (pinned
//! and sleeping, 70-120 us: the busy process still took its share).
//!
//! The same holds when the two overlap, each on a CPU of its own and
//! yielding it while it waits (`channel::CpuClaim`): there only the
//! command's handover tells, since verify may still be analysing the last
//! execution when the worker answers.
//!
//! [`Handoff`] decides, execution by execution, which of the two to use
//! (`channel::Server` pins or releases the processes and tells the worker).
//! The worker stamps when it takes a command and when it answers; verify
//! stamps when it posts and when it sees the answer. With the CPU to
//! themselves both handovers take a few microseconds; a handover that
//! takes [`Handoff::SLOW_NS`] means the CPU went elsewhere. A few slow
//! handovers in a short window switch sharing off for a while, twice as
//! long each time it comes back slow, and a clean window resets that.

/// The yield-or-sleep decision of one channel (see the module comment).
#[derive(Debug)]
pub struct Handoff {
    /// yielding is allowed at all: both sides are pinned to one CPU
    pinned: bool,
    /// yielding now (mirrored into the channel's `handoff` word)
    on: bool,
    /// executions in the current window (while on) or sat out so far (while off)
    count: u32,
    /// slow handovers in the current window
    slow: u32,
    /// how many times in a row yielding came back slow
    backoff: u32,
}

impl Handoff {
    /// A handover slower than this gave the CPU to someone else: a context
    /// switch costs a few microseconds, a time slice of another process
    /// about a millisecond. (The worker's restore between executions falls
    /// in the answer's handover too; only a data segment of megabytes
    /// takes this long, and then sleeping costs nothing that matters.)
    pub const SLOW_NS: u64 = 250_000;
    /// executions per window
    const WINDOW: u32 = 64;
    /// slow handovers in a window that switch yielding off
    const STRIKES: u32 = 3;
    /// executions without yielding after the first switch-off; doubled
    /// each time yielding comes back slow, up to `MAX_BACKOFF` doublings
    const OFF_FOR: u32 = 256;
    const MAX_BACKOFF: u32 = 12;

    pub fn new(pinned: bool) -> Handoff {
        Handoff { pinned, on: pinned, count: 0, slow: 0, backoff: 0 }
    }

    /// Whether a waiting side yields now.
    pub fn yielding(&self) -> bool {
        self.on
    }

    /// One execution's round trip: `command_ns` from verify's post to the
    /// worker taking it, `answer_ns` from the worker's answer to verify
    /// seeing it. Returns the new [`Handoff::yielding`].
    pub fn observe(&mut self, command_ns: u64, answer_ns: u64) -> bool {
        if !self.pinned {
            return false;
        }
        self.count += 1;
        if !self.on {
            if self.count >= Self::OFF_FOR << self.backoff.min(Self::MAX_BACKOFF) {
                self.backoff += 1;
                self.on = true;
                self.count = 0;
                self.slow = 0;
            }
            return self.on;
        }
        if command_ns >= Self::SLOW_NS || answer_ns >= Self::SLOW_NS {
            self.slow += 1;
        }
        if self.slow >= Self::STRIKES {
            self.on = false;
            self.count = 0;
            self.slow = 0;
            // off for OFF_FOR << backoff: backoff grew each time yielding
            // came back, and only a clean window resets it
        } else if self.count >= Self::WINDOW {
            self.count = 0;
            self.slow = 0;
            self.backoff = 0;
        }
        self.on
    }
}

/// CLOCK_MONOTONIC in nanoseconds: the clock the worker stamps with
/// (server.c), comparable across the two processes.
pub fn now_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

#[cfg(test)]
mod tests {
    use super::Handoff;

    const FAST: u64 = 3_000;
    const SLOW: u64 = 2_000_000;

    /// Runs `n` executions with the given handover times; returns how many
    /// of them yielded.
    fn run(h: &mut Handoff, n: u32, command_ns: u64, answer_ns: u64) -> u32 {
        (0..n).filter(|_| {
            let yielded = h.yielding();
            h.observe(command_ns, answer_ns);
            yielded
        }).count() as u32
    }

    #[test]
    fn unpinned_never_yields() {
        let mut h = Handoff::new(false);
        assert!(!h.yielding());
        assert_eq!(run(&mut h, 1000, FAST, FAST), 0);
    }

    #[test]
    fn fast_handovers_keep_yielding() {
        let mut h = Handoff::new(true);
        assert_eq!(run(&mut h, 10_000, FAST, FAST), 10_000);
        // one slow handover now and then (a tick preempting a long
        // execution) is no contention
        for _ in 0..100 {
            run(&mut h, 63, FAST, FAST);
            h.observe(SLOW, FAST);
        }
        assert!(h.yielding());
    }

    #[test]
    fn slow_handovers_switch_yielding_off_for_a_while() {
        let mut h = Handoff::new(true);
        run(&mut h, 10, FAST, FAST);
        // three slow ones (either direction) in a window: off
        h.observe(SLOW, FAST);
        h.observe(FAST, SLOW);
        assert!(h.yielding());
        h.observe(SLOW, SLOW);
        assert!(!h.yielding());
        // off for 256 executions, whatever they take, then on again
        assert_eq!(run(&mut h, 255, FAST, FAST), 0);
        assert!(!h.yielding());
        h.observe(FAST, FAST);
        assert!(h.yielding());
    }

    #[test]
    fn contention_that_stays_doubles_the_time_off() {
        let mut h = Handoff::new(true);
        let mut off_periods = vec![];
        for _ in 0..4 {
            run(&mut h, 3, SLOW, SLOW);
            assert!(!h.yielding());
            let mut off = 0;
            while !h.yielding() {
                h.observe(SLOW, SLOW);
                off += 1;
            }
            off_periods.push(off);
        }
        assert_eq!(off_periods, [256, 512, 1024, 2048]);
        // a clean window after it came back starts over at 256
        run(&mut h, 64, FAST, FAST);
        run(&mut h, 3, SLOW, SLOW);
        assert_eq!(run(&mut h, 256, FAST, FAST), 0);
        assert!(h.yielding());
    }
}
