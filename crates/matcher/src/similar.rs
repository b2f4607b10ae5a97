//! Approximate matching: trigram similarity between a message and each template's literal
//! text, for messages reworded between versions, quoted differently, or cut short.

/// Below this similarity (Dice coefficient over trigrams) nothing is worth showing.
const MIN_SIMILARITY: f64 = 0.45;

const BITS: usize = 1 << 20;

/// The `limit` templates most similar to `message`, as (template index, similarity).
pub(crate) fn best<'a>(
    message: &str,
    templates: impl Iterator<Item = &'a [Box<str>]>,
    limit: usize,
) -> Vec<(usize, f64)> {
    let mut query = vec![0u64; BITS / 64];
    let mut distinct = 0usize;
    trigrams(message.as_bytes(), |h| {
        let (w, b) = (h / 64, h % 64);
        if query[w] & (1 << b) == 0 {
            query[w] |= 1 << b;
            distinct += 1;
        }
    });
    if distinct == 0 {
        return Vec::new();
    }
    let mut scored: Vec<(usize, f64)> = Vec::new();
    for (i, literals) in templates.enumerate() {
        let (mut total, mut shared) = (0usize, 0usize);
        for lit in literals {
            trigrams(lit.as_bytes(), |h| {
                total += 1;
                if query[h / 64] & (1 << (h % 64)) != 0 {
                    shared += 1;
                }
            });
        }
        if total == 0 {
            continue;
        }
        let dice = 2.0 * shared.min(distinct) as f64 / (distinct + total) as f64;
        if dice >= MIN_SIMILARITY {
            scored.push((i, dice));
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(limit);
    scored
}

/// Calls `f` with a hash of each trigram of the lowercased text.
fn trigrams(text: &[u8], mut f: impl FnMut(usize)) {
    for w in text.windows(3) {
        let k = (w[0].to_ascii_lowercase() as u32) << 16
            | (w[1].to_ascii_lowercase() as u32) << 8
            | w[2].to_ascii_lowercase() as u32;
        f((k.wrapping_mul(0x9E37_79B1) >> 12) as usize % BITS);
    }
}
