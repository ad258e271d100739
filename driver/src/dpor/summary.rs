//! A cheap test that a step cannot interfere with a sequence of steps
//! (wakeup trees: `Seq::weak_initial` of a process not in the sequence),
//! before the exact test event by event.

use crate::channel::Footprint;

/// A summary of what some footprints touch, as three 64-bit hash sets:
/// their processes, the owners of their flushes and of their events that
/// wait for flushes, and the 8-byte words they access or the sync objects
/// they use. Two footprints that `interfere` share a bit in one of them
/// (same process, same flush owner, or an overlap of words: a sync object
/// is the word its address is in), so a step none of whose footprints
/// shares a bit with the summary of a sequence conflicts with none of it.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct FootprintSummary {
    procs: u64,
    owners: u64,
    words: u64,
}

impl FootprintSummary {
    fn bit(x: u64) -> u64 {
        1 << (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)
    }

    /// The bits of the words `f` accesses (all bits for a wide range).
    fn word_bits(f: &Footprint) -> u64 {
        if f.sync() {
            return Self::bit(f.lo >> 3);
        }
        if !(f.reads() || f.writes()) {
            return 0; // no memory access (see Footprint::memory_conflict)
        }
        let words = super::analysis::words(f);
        if words.end - words.start > 64 {
            return u64::MAX;
        }
        words.fold(0, |b, w| b | Self::bit(w))
    }

    fn owner_bits(f: &Footprint) -> u64 {
        if f.flush() || f.after_flushes() {
            Self::bit(f.owner as u64)
        } else {
            0
        }
    }

    pub(super) fn add(&mut self, f: &Footprint) {
        self.procs |= Self::bit(f.proc as u64);
        self.owners |= Self::owner_bits(f);
        self.words |= Self::word_bits(f);
    }

    /// Add everything `other` summarises (the same bits as adding its
    /// footprints one by one).
    pub(super) fn union(&mut self, other: &FootprintSummary) {
        self.procs |= other.procs;
        self.owners |= other.owners;
        self.words |= other.words;
    }

    /// `f` may interfere with one of the footprints added.
    #[cfg(test)]
    pub(super) fn may_interfere(&self, f: &Footprint) -> bool {
        self.procs & Self::bit(f.proc as u64) != 0 || self.owners & Self::owner_bits(f) != 0 || self.words & Self::word_bits(f) != 0
    }

    /// Some footprint added to `self` may interfere with one added to
    /// `other` (`may_interfere` of each of `self`'s against `other`, in one
    /// test: each set of bits is the union of its footprints').
    pub(super) fn meets(&self, other: &FootprintSummary) -> bool {
        self.procs & other.procs != 0 || self.owners & other.owners != 0 || self.words & other.words != 0
    }
}

#[cfg(test)]
mod tests {
    use super::FootprintSummary;
    use crate::channel::{Footprint, FP_AFTER_FLUSHES, FP_FLUSH, FP_READ, FP_SYNC, FP_WRITE};

    /// Footprints of every kind over a few processes, owners and bytes.
    fn footprints() -> Vec<Footprint> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let kinds = [FP_READ, FP_WRITE, FP_READ | FP_WRITE, FP_SYNC, FP_SYNC | FP_WRITE, FP_WRITE | FP_FLUSH, FP_READ | FP_AFTER_FLUSHES, FP_AFTER_FLUSHES, 0];
        (0..400)
            .map(|_| {
                let lo = 0x1000 + next(96);
                let len = match next(4) { 0 => 0, 1 => 1 << next(4), 2 => next(24), _ => 600 };
                Footprint { lo, hi: lo + len, proc: next(6) as u32, owner: next(3) as u16, access: kinds[next(kinds.len() as u64) as usize], pad: 0 }
            })
            .collect()
    }

    /// Whatever interferes with a footprint hits its summary, and with
    /// one of several footprints, their summary.
    #[test]
    fn interfering_footprints_always_hit() {
        let fps = footprints();
        let mut hits = 0;
        for (n, b) in fps.iter().enumerate() {
            let mut one = FootprintSummary::default();
            one.add(b);
            let mut several = FootprintSummary::default();
            for c in &fps[n..(n + 5).min(fps.len())] {
                several.add(c);
            }
            for a in &fps {
                if a.interferes(b) {
                    assert!(one.may_interfere(a), "{a:?} interferes with {b:?}");
                    assert!(several.may_interfere(a), "{a:?} interferes with {b:?}");
                }
                hits += !one.may_interfere(a) as usize;
                // a summary against a summary: the same answer as each
                // footprint against it
                let mut alone = FootprintSummary::default();
                alone.add(a);
                assert_eq!(alone.meets(&several), several.may_interfere(a));
                let mut pair = alone;
                pair.add(b);
                assert_eq!(pair.meets(&several), several.may_interfere(a) || several.may_interfere(b));
            }
        }
        // and it says no often enough to be worth asking
        assert!(hits > fps.len() * fps.len() / 4, "{hits} misses");
    }
}
