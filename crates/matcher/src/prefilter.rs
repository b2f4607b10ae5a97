//! Which templates' key fragments occur in a text, in one pass over it.
//!
//! An overlapping Aho-Corasick search over tens of thousands of keys follows failure links at
//! almost every byte; this filter does one table probe every few bytes instead, in the manner
//! of Hyperscan's FDR or Wu-Manber over many patterns. A table reads the text as grams of a
//! few bytes at every `stride`-th position; each key is filed under `stride` consecutive grams
//! of its own (those fewest other keys share), so that wherever the key occurs one of them is
//! read. A gram read is looked up in a bitmap, where each gram filed set two bits of one word,
//! and only where both are set are the keys filed under it compared.
//!
//! Keys of 11 bytes or more (most) are read as 8-byte grams, which log lines rarely share with
//! a key, at every 4th position; keys of 7 to 10 bytes as 4-byte grams at every 4th. Shorter
//! keys are few: up to [`FEW_SHORT`] of them are found with SIMD (Teddy, from the
//! `aho-corasick` crate); more get a table of 3-byte grams at every 2nd position, and those
//! under 4 bytes an Aho-Corasick automaton.

use aho_corasick::{packed, AhoCorasick, MatchKind};
use rayon::prelude::*;

/// How a table reads texts: grams of `len` bytes at every `stride`-th position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reading {
    len: usize,
    stride: usize,
}

impl Reading {
    /// The shortest key the reading cannot miss: `stride` consecutive grams fit in it.
    fn min_key(self) -> usize {
        self.len + self.stride - 1
    }
}

const LONG: Reading = Reading { len: 8, stride: 4 };
const MEDIUM: Reading = Reading { len: 4, stride: 4 };
const SHORT: Reading = Reading { len: 3, stride: 2 };

/// Keys too short for [`MEDIUM`] are found with Teddy when there are at most this many.
const FEW_SHORT: usize = 64;

/// A key filed under a gram.
#[derive(Clone, Copy, Default)]
struct Entry {
    gram: u64,
    key: u32,
    /// Where the gram is in the key.
    offset: u32,
    /// The key's first 8 bytes (fewer for a shorter key, zero-padded) and the mask of those
    /// present: one comparison rejects almost every false hit.
    head: u64,
    mask: u64,
}

/// The bitmap has about 32 bits a gram filed, at most 2^MAX_BITS_LOG (256 KiB, in cache); a
/// small set of keys (an `explain` loads a few hundred) gets a small table, cheap to build.
const MAX_BITS_LOG: u32 = 21;
const MIN_BITS_LOG: u32 = 10;
/// Entries are grouped in at most 2^MAX_BUCKETS_LOG buckets (the 1 MiB of their starts).
const MAX_BUCKETS_LOG: u32 = 18;
/// Grams are counted in at most 2^SKETCH_LOG counters (2 MiB).
const SKETCH_LOG: u32 = 20;

/// One reading of texts and the keys filed under its grams.
struct Table {
    reading: Reading,
    bits_log: u32,
    bits: Vec<u64>,
    /// A slot's bucket is `slot >> bucket_shift`.
    bucket_shift: u32,
    /// The entries of bucket `b` are `entries[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    entries: Vec<Entry>,
}

/// How keys too short for the tables are found.
enum Short {
    /// Teddy finds where some key starts; there every key with that first byte is compared.
    Teddy {
        searcher: packed::Searcher,
        by_first: Vec<Vec<u32>>,
    },
    /// Each match of the automaton's pattern `i` is key `ids[i]`.
    Automaton { ac: AhoCorasick, ids: Vec<u32> },
}

/// Finds key fragments in texts.
pub(crate) struct Prefilter {
    keys: Vec<Box<[u8]>>,
    tables: Vec<Table>,
    short: Option<Short>,
}

impl Prefilter {
    pub(crate) fn new(keys: Vec<Box<[u8]>>) -> Prefilter {
        let (mut long, mut medium, mut short) = (Vec::new(), Vec::new(), Vec::new());
        for (i, k) in keys.iter().enumerate() {
            debug_assert!(!k.is_empty(), "every template has literal text");
            let i = i as u32;
            if k.len() >= LONG.min_key() {
                long.push(i);
            } else if k.len() >= MEDIUM.min_key() {
                medium.push(i);
            } else {
                short.push(i);
            }
        }
        let mut readings = vec![(LONG, long), (MEDIUM, medium)];
        let mut short_finder = teddy(&keys, &short);
        if short_finder.is_none() {
            let (table, tiny): (Vec<u32>, Vec<u32>) = short
                .into_iter()
                .partition(|&i| keys[i as usize].len() >= SHORT.min_key());
            readings.push((SHORT, table));
            if !tiny.is_empty() {
                let ac = AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .build(tiny.iter().map(|&i| &keys[i as usize]))
                    .expect("an automaton over a few short strings always builds");
                short_finder = Some(Short::Automaton { ac, ids: tiny });
            }
        }
        let tables = readings
            .into_par_iter()
            .filter(|(_, ids)| !ids.is_empty())
            .map(|(reading, ids)| Table::new(reading, &keys, &ids))
            .collect();
        Prefilter {
            keys,
            tables,
            short: short_finder,
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
        for table in &self.tables {
            match table.reading.len {
                8 => table.scan::<8>(&self.keys, text, &mut found),
                4 => table.scan::<4>(&self.keys, text, &mut found),
                _ => table.scan::<3>(&self.keys, text, &mut found),
            }
        }
        if let Some(short) = &self.short {
            match short {
                Short::Teddy { searcher, by_first } => {
                    let mut at = 0;
                    while let Some(m) =
                        searcher.find_in(text, aho_corasick::Span::from(at..text.len()))
                    {
                        let p = m.start();
                        for &k in &by_first[text[p] as usize] {
                            if text[p..].starts_with(&self.keys[k as usize]) {
                                found(k);
                            }
                        }
                        at = p + 1;
                    }
                }
                Short::Automaton { ac, ids } => {
                    for m in ac.find_overlapping_iter(text) {
                        found(ids[m.pattern().as_usize()]);
                    }
                }
            }
        }
    }
}

/// A Teddy searcher for `short` keys, when there are few and this machine has the SIMD for it.
fn teddy(keys: &[Box<[u8]>], short: &[u32]) -> Option<Short> {
    if short.is_empty() || short.len() > FEW_SHORT {
        return None;
    }
    let searcher = packed::Config::new()
        .match_kind(packed::MatchKind::LeftmostFirst)
        .builder()
        .extend(short.iter().map(|&i| &keys[i as usize]))
        .build()?;
    let mut by_first = vec![Vec::new(); 256];
    for &i in short {
        by_first[keys[i as usize][0] as usize].push(i);
    }
    Some(Short::Teddy { searcher, by_first })
}

impl Table {
    fn new(reading: Reading, keys: &[Box<[u8]>], ids: &[u32]) -> Table {
        let Reading { len, stride } = reading;
        // About how many keys contain each gram: counts in a table indexed by the gram's hash,
        // where a collision only makes a gram look commoner. (A map of 50,000 keys' distinct
        // 8-byte grams took 40 MB and a tenth of a second.)
        let sketch_log = (ids.len().max(1) * 64)
            .next_power_of_two()
            .trailing_zeros()
            .clamp(MIN_BITS_LOG, SKETCH_LOG);
        let mut shared = vec![0u16; 1 << sketch_log];
        for &i in ids {
            for w in keys[i as usize].windows(len) {
                let c = &mut shared[slot(hash(gram(w)), sketch_log)];
                *c = c.saturating_add(1);
            }
        }
        let filed = ids.len() * stride;
        let bits_log = (filed.max(1) * 32)
            .next_power_of_two()
            .trailing_zeros()
            .clamp(MIN_BITS_LOG, MAX_BITS_LOG);
        let bucket_shift = bits_log.saturating_sub(MAX_BUCKETS_LOG);
        let mut bits = vec![0u64; 1 << (bits_log - 6)];
        // Where each key's `stride` consecutive grams that are the least shared in all begin,
        // found on every core.
        let chosen: Vec<usize> = ids
            .par_iter()
            .map(|&i| {
                let k = &keys[i as usize];
                let count = |at: usize| shared[slot(hash(gram(&k[at..at + len])), sketch_log)];
                // The sum over a sliding run of `stride` grams; the first least wins.
                debug_assert!(stride <= 8);
                let mut run = [0u16; 8];
                let mut sum = 0u64;
                for (at, c) in run.iter_mut().enumerate().take(stride) {
                    *c = count(at);
                    sum += u64::from(*c);
                }
                let (mut least, mut best) = (sum, 0);
                for at in 1..=k.len() - len + 1 - stride {
                    let c = count(at + stride - 1);
                    let slot = &mut run[(at - 1) % stride];
                    sum = sum - u64::from(*slot) + u64::from(c);
                    *slot = c;
                    if sum < least {
                        (least, best) = (sum, at);
                    }
                }
                best
            })
            .collect();
        let mut placed: Vec<(usize, Entry)> = Vec::with_capacity(filed);
        for (&i, &at) in ids.iter().zip(&chosen) {
            let k = &keys[i as usize];
            let (head, mask) = head(k);
            for offset in at..at + stride {
                let g = gram(&k[offset..offset + len]);
                let h = hash(g);
                let s = slot(h, bits_log);
                bits[s >> 6] |= mark(h, s);
                let entry = Entry {
                    gram: g,
                    key: i,
                    offset: offset as u32,
                    head,
                    mask,
                };
                placed.push((s >> bucket_shift, entry));
            }
        }
        // The entries in bucket order, by a counting sort: `starts[b]` is where bucket `b`
        // begins.
        let mut starts = vec![0u32; (1 << (bits_log - bucket_shift)) + 1];
        for (b, _) in &placed {
            starts[b + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let mut entries = vec![Entry::default(); placed.len()];
        for (b, e) in placed {
            entries[starts[b] as usize] = e;
            starts[b] += 1;
        }
        // Each bucket's start was moved to its end, which is where the next bucket begins.
        let last = starts.len() - 1;
        starts.copy_within(..last, 1);
        starts[0] = 0;
        Table {
            reading,
            bits_log,
            bits,
            bucket_shift,
            starts,
            entries,
        }
    }

    /// Reads `text` as grams of `LEN` bytes (the reading's) and reports the keys found.
    #[inline]
    fn scan<const LEN: usize>(&self, keys: &[Box<[u8]>], text: &[u8], found: &mut impl FnMut(u32)) {
        let stride = self.reading.stride;
        let Some(last) = text.len().checked_sub(LEN) else {
            return;
        };
        let mut i = 0;
        while i <= last {
            let g = gram(&text[i..i + LEN]);
            let h = hash(g);
            let s = slot(h, self.bits_log);
            let m = mark(h, s);
            if self.bits[s >> 6] & m == m {
                self.compare(keys, g, s, i, text, found);
            }
            i += stride;
        }
    }

    /// The keys filed under gram `g` (in slot `s`), read at `i` in `text`.
    #[inline]
    fn compare(
        &self,
        keys: &[Box<[u8]>],
        g: u64,
        s: usize,
        i: usize,
        text: &[u8],
        found: &mut impl FnMut(u32),
    ) {
        let b = s >> self.bucket_shift;
        let range = self.starts[b] as usize..self.starts[b + 1] as usize;
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
            let key = &keys[e.key as usize];
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

/// A gram (up to 8 bytes) as a number.
#[inline]
fn gram(w: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..w.len()].copy_from_slice(w);
    u64::from_le_bytes(b)
}

#[inline]
fn slot(h: u64, bits_log: u32) -> usize {
    (h >> (64 - bits_log)) as usize
}

#[inline]
fn hash(g: u64) -> u64 {
    g.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The two bits a gram of hash `h` sets in its slot's word of the bitmap: the slot's own, and
/// one chosen by other bits of the hash. A text's gram is looked up only when both are set,
/// which a gram of no key is about a third as likely to find as one bit, at the same size.
#[inline]
fn mark(h: u64, s: usize) -> u64 {
    (1 << (s & 63)) | (1 << ((h >> 30) & 63))
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

    /// The keys that occur in `text`, by looking for each.
    fn naive(keys: &[String], text: &str) -> Vec<u32> {
        keys.iter()
            .enumerate()
            .filter(|(_, k)| text.contains(k.as_str()))
            .map(|(i, _)| i as u32)
            .collect()
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
    fn many_short_keys_are_found_by_tables() {
        // More than FEW_SHORT keys of 3 to 6 bytes: a 3-byte-gram table and an automaton.
        let keys: Vec<String> = (0..200)
            .map(|i| match i % 3 {
                0 => format!("q{i}"),
                1 => format!("w{i}x"),
                _ => format!("e{i}yz"),
            })
            .collect();
        let p = Prefilter::new(keys.iter().map(|k| k.as_bytes().into()).collect());
        assert!(matches!(p.short, Some(Short::Automaton { .. })));
        let text = "q3 w100x q99e197yz e2yz";
        let want = naive(&keys, text);
        assert!(want.len() >= 5, "{want:?}");
        assert_eq!(found(&p, text), want);
    }

    #[test]
    fn agrees_with_a_naive_search() {
        let keys: Vec<String> = (0..500).map(|i| format!("key{i} part")).collect();
        let p = Prefilter::new(keys.iter().map(|k| k.as_bytes().into()).collect());
        let text = "xx key17 part key3 part key499 partkey250 par";
        let want = naive(&keys, text);
        assert_eq!(found(&p, text), want);
    }

    #[test]
    fn agrees_with_a_naive_search_on_keys_of_every_length() {
        // Keys of 3 to 20 bytes over a small alphabet, so that they overlap and share grams;
        // texts made of pieces of keys, at every alignment.
        let mut seed = 7u64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let alphabet = b"ab c:";
        // 40 keys: the few short ones are found by Teddy; 300: by the short tables.
        for count in [40, 300] {
            let keys: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let len = 3 + next(18) as usize;
                    (0..len).map(|_| alphabet[next(5) as usize]).collect()
                })
                .collect();
            let p = Prefilter::new(keys.iter().map(|k| k[..].into()).collect());
            for _ in 0..200 {
                let mut text = Vec::new();
                while text.len() < 120 {
                    let k = &keys[next(count) as usize];
                    let from = next(k.len() as u64) as usize;
                    text.extend_from_slice(&k[from..]);
                    text.push(alphabet[next(5) as usize]);
                }
                let want: Vec<u32> = keys
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| text.windows(k.len()).any(|w| w == &k[..]))
                    .map(|(i, _)| i as u32)
                    .collect();
                let mut got = Vec::new();
                p.for_each(&text, |k| got.push(k));
                got.sort_unstable();
                got.dedup();
                assert_eq!(got, want, "{}", String::from_utf8_lossy(&text));
            }
        }
    }
}
