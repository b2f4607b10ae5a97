//! Which templates' key fragments occur in a text, in one pass over it.
//!
//! An overlapping Aho-Corasick search over tens of thousands of keys follows failure links at
//! almost every byte; this filter does one table probe per byte instead, in the manner of
//! Hyperscan's FDR or Rabin-Karp over many patterns: each key is represented by one of its
//! 4-byte grams (the one fewest other keys share), every gram of the text is looked up in a
//! bitmap of those grams, and only at a hit are the keys with that gram compared. Keys shorter
//! than a gram go to a small Aho-Corasick automaton.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};

const GRAM: usize = 4;

/// A key filed under a gram.
#[derive(Clone, Copy, Default)]
struct Entry {
    gram: u32,
    key: u32,
    /// Where the gram is in the key.
    offset: u32,
    /// The key's first 8 bytes (fewer for a shorter key, zero-padded) and the mask of those
    /// present: one comparison rejects almost every false hit.
    head: u64,
    mask: u64,
}
/// At most 2^20 bits (128 KiB, in cache); larger tables measured no faster. A small set of keys
/// (an `explain` loads a few hundred) gets a table of about 32 bits a key, cheap to build.
const MAX_BITS_LOG: u32 = 20;
const MIN_BITS_LOG: u32 = 10;

/// Finds key fragments in texts.
pub(crate) struct Prefilter {
    keys: Vec<Box<[u8]>>,
    bits_log: u32,
    bits: Vec<u64>,
    /// The keys filed under the grams of each slot of the bitmap: `entries[starts[s]..starts[s
    /// + 1]]`, so a hit costs no hashing.
    starts: Vec<u32>,
    entries: Vec<Entry>,
    short: Option<AhoCorasick>,
    short_keys: Vec<u32>,
}

impl Prefilter {
    pub(crate) fn new(keys: Vec<Box<[u8]>>) -> Prefilter {
        // How many keys contain each gram (a key counted once, however often it has it): a key
        // is filed under its least shared one.
        let mut shared: HashMap<u32, (u32, u32), BuildGramHasher> = HashMap::default();
        for (i, k) in keys.iter().enumerate() {
            for w in k.windows(GRAM) {
                let (count, last) = shared.entry(gram(w)).or_insert((0, u32::MAX));
                if *last != i as u32 {
                    *last = i as u32;
                    *count += 1;
                }
            }
        }
        let bits_log = (keys.len().max(1) * 32)
            .next_power_of_two()
            .trailing_zeros()
            .clamp(MIN_BITS_LOG, MAX_BITS_LOG);
        let slot = |g: u32| slot(g, bits_log);
        let mut bits = vec![0u64; 1 << (bits_log - 6)];
        let mut filed: Vec<(usize, Entry)> = Vec::with_capacity(keys.len());
        let mut short = Vec::new();
        let mut short_keys = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            let best = k
                .windows(GRAM)
                .enumerate()
                .min_by_key(|(_, w)| shared[&gram(w)].0);
            match best {
                Some((offset, w)) => {
                    let g = gram(w);
                    let s = slot(g);
                    bits[s >> 6] |= 1 << (s & 63);
                    let (head, mask) = head(k);
                    filed.push((
                        s,
                        Entry {
                            gram: g,
                            key: i as u32,
                            offset: offset as u32,
                            head,
                            mask,
                        },
                    ));
                }
                None => {
                    short.push(&k[..]);
                    short_keys.push(i as u32);
                }
            }
        }
        // The entries in slot order, by a counting sort: `starts[s]` is where slot `s` begins.
        let mut starts = vec![0u32; (1 << bits_log) + 1];
        for (s, _) in &filed {
            starts[s + 1] += 1;
        }
        for s in 1..starts.len() {
            starts[s] += starts[s - 1];
        }
        let mut entries = vec![Entry::default(); filed.len()];
        for (s, e) in filed {
            entries[starts[s] as usize] = e;
            starts[s] += 1;
        }
        // Each slot's start was moved to its end, which is where the next slot begins.
        let last = starts.len() - 1;
        starts.copy_within(..last, 1);
        starts[0] = 0;
        let short = (!short.is_empty()).then(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(&short)
                .expect("an automaton over a few short strings always builds")
        });
        Prefilter {
            keys,
            bits_log,
            bits,
            starts,
            entries,
            short,
            short_keys,
        }
    }

    /// Whether any key occurs in `text`.
    pub(crate) fn is_match(&self, text: &[u8]) -> bool {
        let mut any = false;
        self.for_each(text, |_| any = true);
        any
    }

    /// Calls `found` with each key that occurs in `text` (a key may be reported more than once).
    pub(crate) fn for_each(&self, text: &[u8], mut found: impl FnMut(u32)) {
        for (i, w) in text.windows(GRAM).enumerate() {
            let g = gram(w);
            let s = slot(g, self.bits_log);
            if self.bits[s >> 6] & (1 << (s & 63)) == 0 {
                continue;
            }
            self.compare(g, s, i, text, &mut found);
        }
        if let Some(ac) = &self.short {
            for m in ac.find_overlapping_iter(text) {
                found(self.short_keys[m.pattern().as_usize()]);
            }
        }
    }
}

impl Prefilter {
    /// The keys filed under gram `g` (in slot `s`), found at `i` in `text`.
    #[inline]
    fn compare(&self, g: u32, s: usize, i: usize, text: &[u8], found: &mut impl FnMut(u32)) {
        let range = self.starts[s] as usize..self.starts[s + 1] as usize;
        for e in &self.entries[range] {
            if e.gram != g {
                continue;
            }
            let Some(start) = i.checked_sub(e.offset as usize) else {
                continue;
            };
            let at = &text[start..];
            if at.len() >= 8 {
                let h = u64::from_le_bytes(at[..8].try_into().expect("8 bytes"));
                if h & e.mask != e.head {
                    continue;
                }
            }
            let key = &self.keys[e.key as usize];
            if at.get(..key.len()) == Some(&key[..]) {
                found(e.key);
            }
        }
    }
}

/// A key's first 8 bytes, zero-padded, and the mask of those it has.
fn head(key: &[u8]) -> (u64, u64) {
    let n = key.len().min(8);
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&key[..n]);
    let mask = if n == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    };
    (u64::from_le_bytes(b), mask)
}

#[inline]
fn gram(w: &[u8]) -> u32 {
    u32::from_le_bytes([w[0], w[1], w[2], w[3]])
}

#[inline]
fn slot(g: u32, bits_log: u32) -> usize {
    (g.wrapping_mul(0x9E37_79B1) >> (32 - bits_log)) as usize
}

/// Grams are already well spread by the multiplication in [`slot`]; the map needs no SipHash.
#[derive(Default, Clone, Copy)]
struct BuildGramHasher;

impl std::hash::BuildHasher for BuildGramHasher {
    type Hasher = GramHasher;
    fn build_hasher(&self) -> GramHasher {
        GramHasher(0)
    }
}

struct GramHasher(u64);

impl std::hash::Hasher for GramHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(p: &Prefilter, text: &str) -> Vec<u32> {
        let mut v = Vec::new();
        p.for_each(text.as_bytes(), |k| v.push(k));
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn finds_every_key_including_overlapping_and_short_ones() {
        let keys = ["Invalid ", "Invalid user ", "user", "ab", " from ", "x"];
        let p = Prefilter::new(keys.iter().map(|k| k.as_bytes().into()).collect());
        assert_eq!(found(&p, "Invalid user bob from 10.0.0.1"), [0, 1, 2, 4]);
        assert_eq!(found(&p, "abx"), [3, 5]);
        assert_eq!(found(&p, "nothing here"), Vec::<u32>::new());
        assert_eq!(found(&p, ""), Vec::<u32>::new());
        assert!(p.is_match(b"user"));
    }

    #[test]
    fn agrees_with_a_naive_search() {
        let keys: Vec<String> = (0..500).map(|i| format!("key{i} part")).collect();
        let p = Prefilter::new(keys.iter().map(|k| k.as_bytes().into()).collect());
        let text = "xx key17 part key3 part key499 partkey250 par";
        let want: Vec<u32> = keys
            .iter()
            .enumerate()
            .filter(|(_, k)| text.contains(k.as_str()))
            .map(|(i, _)| i as u32)
            .collect();
        assert_eq!(found(&p, text), want);
    }
}
