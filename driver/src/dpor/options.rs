//! The set of option indices of one choice that a search has explored or
//! must explore (`Node::done`, `Node::backtrack`).
//!
//! A bit per option: the first 128 in place, the rest (a choice may have
//! up to 1,024 options) in words allocated only when used. Every node of
//! the path has two such sets, made as its execution runs: as B-tree sets
//! they were two allocations per node and execution.

/// Options in place, without an allocation.
const LOW: u32 = 128;

#[derive(Clone, Default, PartialEq, Eq)]
pub struct OptionSet {
    low: u128,
    /// option `LOW + 64 * w + b` is bit b of word w
    high: Vec<u64>,
}

impl OptionSet {
    /// The set of one option.
    pub fn one(o: u32) -> OptionSet {
        let mut set = OptionSet::default();
        set.insert(o);
        set
    }

    /// Add `o`; true when it was not in the set.
    pub fn insert(&mut self, o: u32) -> bool {
        if o < LOW {
            let had = self.low >> o & 1 != 0;
            self.low |= 1 << o;
            return !had;
        }
        let (w, bit) = high_slot(o);
        if w >= self.high.len() {
            self.high.resize(w + 1, 0);
        }
        let had = self.high[w] & bit != 0;
        self.high[w] |= bit;
        !had
    }

    pub fn contains(&self, o: u32) -> bool {
        if o < LOW {
            return self.low >> o & 1 != 0;
        }
        let (w, bit) = high_slot(o);
        self.high.get(w).is_some_and(|word| word & bit != 0)
    }

    /// The options in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let low = Bits { word: self.low, base: 0 };
        let high = self.high.iter().enumerate().flat_map(|(w, &word)| Bits { word: word as u128, base: LOW + 64 * w as u32 });
        low.chain(high)
    }
}

/// The word of `high` that holds option `o` (at least `LOW`), and its bit there.
fn high_slot(o: u32) -> (usize, u64) {
    (((o - LOW) / 64) as usize, 1 << ((o - LOW) % 64))
}

/// The set bits of one word, lowest first, as option indices from `base`.
struct Bits {
    word: u128,
    base: u32,
}

impl Iterator for Bits {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.word == 0 {
            return None;
        }
        let b = self.word.trailing_zeros();
        self.word &= self.word - 1;
        Some(self.base + b)
    }
}

impl Extend<u32> for OptionSet {
    fn extend<I: IntoIterator<Item = u32>>(&mut self, options: I) {
        for o in options {
            self.insert(o);
        }
    }
}

impl FromIterator<u32> for OptionSet {
    fn from_iter<I: IntoIterator<Item = u32>>(options: I) -> OptionSet {
        let mut set = OptionSet::default();
        set.extend(options);
        set
    }
}

impl std::fmt::Debug for OptionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::OptionSet;
    use std::collections::BTreeSet;

    /// The same answers as a B-tree set, in place and beyond it.
    #[test]
    fn agrees_with_a_btree_set() {
        let picks = [0u32, 5, 63, 64, 127, 128, 129, 191, 192, 700, 1023, 5, 128];
        let mut ours = OptionSet::default();
        let mut reference = BTreeSet::new();
        for &o in &picks {
            assert_eq!(ours.insert(o), reference.insert(o), "insert {o}");
        }
        assert_eq!(ours.iter().collect::<Vec<_>>(), reference.iter().copied().collect::<Vec<_>>());
        for o in 0..1100 {
            assert_eq!(ours.contains(o), reference.contains(&o), "contains {o}");
        }
        let all: OptionSet = (0..300).collect();
        assert_eq!(all.iter().count(), 300);
        assert_eq!(format!("{:?}", OptionSet::one(3)), "{3}");
        assert!(OptionSet::default().iter().next().is_none());
    }
}
