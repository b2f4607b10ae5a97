//! errata's matcher alone, on one thread: builds it from a file of patterns and times two passes
//! over a log, the prefilter alone (`may_match`) and the whole match (`find`) of every line. For
//! tuning the matcher without the process around it (`bench/scan.sh` times the whole command).
//!
//! Usage: `lines PATTERNS LOG [REPEAT]`. Prints one JSON line: patterns, build_s, prefilter_s,
//! first_line_s (reading one line, which compiles the regexes that do it), find_s, read_s (reading the lines that may match into their parts; the best of REPEAT passes each), lines, lines_may_match, lines_matched.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::BufRead;
use std::time::Instant;

use errata_matcher::{Matcher, Query};
use errata_model::MatchEntry;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (patterns, log, repeat) = match &args[..] {
        [_, p, l] => (p, l, 3),
        [_, p, l, r] => (p, l, r.parse().expect("REPEAT is a number")),
        _ => {
            eprintln!("usage: lines PATTERNS LOG [REPEAT]");
            std::process::exit(2);
        }
    };
    let f = std::io::BufReader::new(std::fs::File::open(patterns).expect("the patterns open"));
    let entries: Vec<MatchEntry> = f
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let pattern: String =
                serde_json::from_str(&l.expect("the patterns read")).expect("a JSON string");
            MatchEntry {
                id: i.to_string(),
                message: pattern.clone(),
                pattern,
                ..MatchEntry::default()
            }
        })
        .collect();
    let n = entries.len();
    let t = Instant::now();
    let (matcher, _) = Matcher::new(entries);
    let build_s = t.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(log).expect("the log reads as UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    // The first line read compiles the regexes that read lines.
    let t = Instant::now();
    let warm = errata_matcher::input::read_line("2024-05-01 12:00:00 ERROR app.x: ValueError: x");
    let first_s = t.elapsed().as_secs_f64();
    drop(warm);
    let best = |f: &dyn Fn() -> usize| -> (f64, usize) {
        (0..repeat)
            .map(|_| {
                let t = Instant::now();
                let count = f();
                (t.elapsed().as_secs_f64(), count)
            })
            .fold((f64::MAX, 0), |a, b| if b.0 < a.0 { b } else { a })
    };
    let (prefilter_s, may) = best(&|| lines.iter().filter(|l| matcher.may_match(l)).count());
    let (find_s, matched) = best(&|| {
        lines
            .iter()
            .filter(|l| {
                !matcher
                    .find(
                        Query {
                            text: l,
                            frames: &[],
                        },
                        3,
                    )
                    .is_empty()
            })
            .count()
    });
    let candidates: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| matcher.may_match(l))
        .collect();
    let (read_s, _) = best(&|| {
        candidates
            .iter()
            .map(|l| errata_matcher::input::read_line(l).texts().len())
            .sum()
    });
    println!(
        "{}",
        serde_json::json!({
            "patterns": n, "build_s": build_s, "first_line_s": first_s, "prefilter_s": prefilter_s, "find_s": find_s, "read_s": read_s,
            "lines": lines.len(), "lines_may_match": may, "lines_matched": matched
        })
    );
}
