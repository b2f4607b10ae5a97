//! Approximate matching: trigram similarity between a message and each template's literal
//! text, for messages reworded between versions, quoted differently, or cut short.

/// Below this similarity (Dice coefficient over trigrams) nothing is worth showing.
const MIN_SIMILARITY: f64 = 0.45;

const BITS: usize = 1 << 20;

/// The fewest trigrams of literal text for a template to be found by how much of it a
/// message holds: a short template is held by many messages.
const MIN_HELD: usize = 24;

/// What a template's share held in a message counts for, beside a like share of both.
const HELD_WEIGHT: f64 = 0.8;

/// How many bytes a message and a template's text must start with alike to be nearer.
const START_BYTES: usize = 16;

/// How much nearer that makes them.
const START_BONUS: f64 = 0.15;

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
        // A template most of whose text the message holds, among values of its own (a
        // release that wrote `Invalid package name "x": …` where this one writes `Invalid
        // package name "x" of package "y": …`): how much of the template is there, a little
        // below a like share of both.
        let held = if total >= MIN_HELD {
            HELD_WEIGHT * shared as f64 / total as f64
        } else {
            0.0
        };
        // And a message most of whose text the template holds: a release that wrote less
        // (`Cannot start a runtime from within a runtime. This happens because …` before
        // the sentence this one adds).
        let holds = if distinct >= MIN_HELD {
            HELD_WEIGHT * shared.min(distinct) as f64 / distinct as f64
        } else {
            0.0
        };
        // Messages are told apart by how they start: one that starts as the template does
        // (its first 16 bytes or more) is nearer than one that only shares its words.
        let starts_alike = literals.first().is_some_and(|first| {
            let (a, b) = (first.as_bytes(), message.as_bytes());
            let same = a
                .iter()
                .zip(b)
                .take_while(|(x, y)| x.eq_ignore_ascii_case(y))
                .count();
            same >= START_BYTES
        });
        let sim = dice.max(held).max(holds) + if starts_alike { START_BONUS } else { 0.0 };
        let sim = sim.min(1.0);
        if sim >= MIN_SIMILARITY {
            scored.push((i, sim));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(parts: &[&str]) -> Vec<Box<str>> {
        parts.iter().map(|p| Box::from(*p)).collect()
    }

    #[test]
    fn a_message_that_holds_most_of_a_longer_template_is_near_it() {
        // A log line (pasted in cnpm/cnpmcore#637) around npa.js's text: most of the line is
        // the logger's, so a like share of both is low, but the template is all there.
        let today = lits(&["Invalid package name \"", "\" of package \"", "\": ", "."]);
        let other = lits(&[
            "Invalid tag name \"",
            "\": Tags may not have any characters",
        ]);
        let got = best(
            "2024-01-13 12:23:15,728 ERROR 36861 [-/-/203.209.245.193/0b469c4e17051197957235892e5bcb/1.84ms \
             GET /+CSCOE+/portal.css] nodejs.EINVALIDPACKAGENAMEError: Invalid package name \"+CSCOE+\" \
             of package \"+CSCOE+@portal.css\": name can only contain URL-friendly characters.",
            [today.as_slice(), other.as_slice()].into_iter(),
            2,
        );
        assert_eq!(got.first().map(|g| g.0), Some(0), "{got:?}");
        // A short template is not found by being held: many messages hold it.
        let short = lits(&["bad name"]);
        let got = best(
            "a bad name in the list of all the packages this project depends on",
            [short.as_slice()].into_iter(),
            1,
        );
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn a_message_an_older_release_wrote_shorter_is_nearest_the_template_it_starts() {
        // tokio's panic as pasted from an older release (futurepaul/fluttermint#67), against
        // today's text, which adds a sentence, and a sibling panic that shares most
        // of its words but starts otherwise.
        let today = lits(&["Cannot start a runtime from within a runtime. This happens because a function (like `block_on`) attempted to block the current thread while the thread is being used to drive asynchronous tasks. If you are in an async function, use `.await` on the future instead of blocking on it."]);
        let sibling = lits(&["Cannot block the current thread from within a runtime. This happens because a function attempted to block the current thread while the thread is being used to drive asynchronous tasks."]);
        let got = best(
            "Cannot start a runtime from within a runtime. This happens because a function (like `block_on`) attempted to block the current thread while the thread is being used to drive asynchronous tasks.",
            [sibling.as_slice(), today.as_slice()].into_iter(),
            2,
        );
        assert_eq!(got.first().map(|g| g.0), Some(1), "{got:?}");
    }
}
