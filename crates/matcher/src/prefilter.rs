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
/// 2^22 bits (512 KiB): with 50,000 keys about 1% of a text's grams probe the table in vain.
const BITS_LOG: u32 = 22;

/// Finds key fragments in texts.
pub(crate) struct Prefilter {
    keys: Vec<Box<[u8]>>,
    bits: Vec<u64>,
    /// Gram → (key, offset of the gram in the key).
    by_gram: HashMap<u32, Vec<(u32, u32)>, BuildGramHasher>,
    short: Option<AhoCorasick>,
    short_keys: Vec<u32>,
}

impl Prefilter {
    pub(crate) fn new(keys: Vec<Box<[u8]>>) -> Prefilter {
        // How many keys contain each gram: a key is filed under its least shared one.
        let mut shared: HashMap<u32, u32, BuildGramHasher> = HashMap::default();
        for k in &keys {
            let mut seen: Vec<u32> = k.windows(GRAM).map(gram).collect();
            seen.sort_unstable();
            seen.dedup();
            for g in seen {
                *shared.entry(g).or_default() += 1;
            }
        }
        let mut bits = vec![0u64; 1 << (BITS_LOG - 6)];
        let mut by_gram: HashMap<u32, Vec<(u32, u32)>, BuildGramHasher> = HashMap::default();
        let mut short = Vec::new();
        let mut short_keys = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            let best = k
                .windows(GRAM)
                .enumerate()
                .min_by_key(|(_, w)| shared[&gram(w)]);
            match best {
                Some((offset, w)) => {
                    let g = gram(w);
                    let s = slot(g);
                    bits[s >> 6] |= 1 << (s & 63);
                    by_gram
                        .entry(g)
                        .or_default()
                        .push((i as u32, offset as u32));
                }
                None => {
                    short.push(&k[..]);
                    short_keys.push(i as u32);
                }
            }
        }
        let short = (!short.is_empty()).then(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(&short)
                .expect("an automaton over a few short strings always builds")
        });
        Prefilter {
            keys,
            bits,
            by_gram,
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
        if text.len() >= GRAM {
            for i in 0..=text.len() - GRAM {
                let g = gram(&text[i..i + GRAM]);
                let s = slot(g);
                if self.bits[s >> 6] & (1 << (s & 63)) == 0 {
                    continue;
                }
                let Some(list) = self.by_gram.get(&g) else {
                    continue;
                };
                for &(k, offset) in list {
                    let key = &self.keys[k as usize];
                    let Some(start) = i.checked_sub(offset as usize) else {
                        continue;
                    };
                    if text.get(start..start + key.len()) == Some(&key[..]) {
                        found(k);
                    }
                }
            }
        }
        if let Some(ac) = &self.short {
            for m in ac.find_overlapping_iter(text) {
                found(self.short_keys[m.pattern().as_usize()]);
            }
        }
    }
}

fn gram(w: &[u8]) -> u32 {
    u32::from_le_bytes([w[0], w[1], w[2], w[3]])
}

fn slot(g: u32) -> usize {
    (g.wrapping_mul(0x9E37_79B1) >> (32 - BITS_LOG)) as usize
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
