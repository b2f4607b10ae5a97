//! A dataset nobody vetted: the lines before the first `---` are records (`message TAB
//! pattern`), the rest is the text to explain. The matcher must refuse what it cannot run
//! cheaply and answer the rest, whatever the patterns.
#![no_main]

use errata_model::MatchEntry;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (head, query) = text.split_once("\n---\n").unwrap_or((&text, ""));
    let entries: Vec<MatchEntry> = head
        .lines()
        .take(64)
        .enumerate()
        .map(|(i, line)| {
            let (message, pattern) = line.split_once('\t').unwrap_or((line, line));
            MatchEntry {
                id: format!("{i:016x}"),
                slug: format!("r{i}"),
                file_path: format!("src/f{}.py", i % 3),
                line_number: i as u32 + 1,
                message: message.to_owned(),
                pattern: pattern.to_owned(),
                ..MatchEntry::default()
            }
        })
        .collect();
    let (matcher, _report) = errata_matcher::Matcher::new(entries);
    let _ = matcher.explain(query, 5);
    let _ = matcher.similar(query, 5);
    let segments = errata_matcher::trace::segments(query);
    let _ = matcher.explain_segments(&segments, 5);
});
