//! Benchmark peer: the naive loop, every pattern (a compiled `regex::Regex` each) tried on every
//! line, over the first SAMPLE lines of a log.
//!
//! Usage: `naive PATTERNS LOG SAMPLE`. Prints one JSON line: patterns, compile_s, scan_s,
//! lines (those scanned), lines_per_s, matched_lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::BufRead;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, patterns, log, sample] = &args[..] else {
        eprintln!("usage: naive PATTERNS LOG SAMPLE");
        std::process::exit(2);
    };
    let sample: usize = sample.parse().expect("SAMPLE is a number");
    let f = std::io::BufReader::new(std::fs::File::open(patterns).expect("the patterns open"));
    let patterns: Vec<String> = f
        .lines()
        .map(|l| serde_json::from_str(&l.expect("the patterns read")).expect("a JSON string"))
        .collect();
    let t = Instant::now();
    let regexes: Vec<regex::Regex> = patterns
        .iter()
        .filter_map(|p| regex::Regex::new(p).ok())
        .collect();
    let compile_s = t.elapsed().as_secs_f64();
    let file = std::io::BufReader::new(std::fs::File::open(log).expect("the log opens"));
    let (mut lines, mut matched) = (0u64, 0u64);
    let t = Instant::now();
    for line in file.split(b'\n').take(sample) {
        let line = line.expect("the log reads");
        let line = String::from_utf8_lossy(&line);
        lines += 1;
        if regexes.iter().any(|r| r.is_match(&line)) {
            matched += 1;
        }
    }
    let scan_s = t.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "patterns": regexes.len(), "compile_s": compile_s, "scan_s": scan_s,
            "lines": lines, "lines_per_s": lines as f64 / scan_s, "matched_lines": matched
        })
    );
}
