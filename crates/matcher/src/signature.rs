//! A text's three-byte windows as a set of 512 bits, for rejecting a template before searching
//! for it.
//!
//! Templates that share their key (the fragment the prefilter finds) are all candidates when it
//! is found: at 50,000 templates a rendered log line has about nine, of which seven or eight do
//! not match. Each of those cost a search for its fragments, reached through pointers to
//! memory not in cache. A template can be found in a text only if every three bytes of its
//! literal text are in it, so one comparison of the template's set with the line's (made once
//! for a line with more than a couple of candidates) rejects nearly all of them.

/// The windows of a text or of a template's literal text, hashed to 512 bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Signature([u64; 8]);

impl Signature {
    /// Every three-byte window of `text`.
    pub(crate) fn of_text(text: &[u8]) -> Signature {
        let mut sig = Signature::default();
        sig.add(text);
        sig
    }

    /// The windows every text holding the literals holds: each literal's, without the
    /// whitespace at its edges (a log line may cut that off, and the matcher then finds the
    /// literal without it).
    pub(crate) fn of_literals<'a>(literals: impl IntoIterator<Item = &'a str>) -> Signature {
        let mut sig = Signature::default();
        for l in literals {
            sig.add(l.trim().as_bytes());
        }
        sig
    }

    fn add(&mut self, bytes: &[u8]) {
        for w in bytes.windows(3) {
            let v = u32::from(w[0]) | u32::from(w[1]) << 8 | u32::from(w[2]) << 16;
            let bit = (v.wrapping_mul(0x9E37_79B1) >> (32 - 9)) as usize;
            self.0[bit >> 6] |= 1 << (bit & 63);
        }
    }

    /// Whether every window of `other` may be in this set (false means surely not).
    #[inline]
    pub(crate) fn covers(&self, other: &Signature) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0, |missing, (a, b)| missing | (b & !a))
            == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_covers_the_literals_it_holds_and_not_others() {
        let line = Signature::of_text(b"2024-05-01 ERROR app: Invalid user bob from 10.0.0.1");
        assert!(line.covers(&Signature::of_literals(["Invalid user ", " from "])));
        // Edge whitespace a log line trims off does not count.
        assert!(line.covers(&Signature::of_literals(["\tInvalid user", " from  "])));
        assert!(!line.covers(&Signature::of_literals(["Invalid user ", " to port "])));
        assert!(!line.covers(&Signature::of_literals(["Permission denied"])));
        // Literals of fewer than three bytes say nothing, so they never reject.
        assert!(line.covers(&Signature::of_literals(["zq"])));
        assert!(Signature::of_text(b"").covers(&Signature::default()));
    }
}
