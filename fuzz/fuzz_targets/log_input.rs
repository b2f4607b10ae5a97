//! Arbitrary text as a pasted error or a log: each line read as `errata scan` reads a line,
//! the whole as `errata explain` splits a paste into messages and stack traces, and fed line
//! by line to the grouper that `scan` runs over a stream.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        let read = errata_matcher::input::read_line(line);
        let _ = read.message();
        for i in 0..read.texts().len() {
            let _ = read.text(i);
        }
    }
    let _ = errata_matcher::trace::segments(&text);
    let mut grouper = errata_matcher::trace::Grouper::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(seg) = grouper.push(n as u64 + 1, line) {
            grouper.recycle(seg);
        }
    }
    let _ = grouper.finish();
});
