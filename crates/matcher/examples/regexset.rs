//! Benchmark peer: every pattern in one `regex::RegexSet`, run on each line of a log.
//!
//! Usage: `regexset PATTERNS LOG` where PATTERNS has one JSON string (a messagePattern) a line.
//! Prints one JSON line: patterns, compile_s, scan_s, lines, lines_per_s, matched_lines, or
//! `{"error": …}` when the set does not compile within its size limits. The scan stops after
//! BUDGET seconds (default 60; `"stopped": true` then, and the rate is over the lines read).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::BufRead;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, patterns, log] = &args[..] else {
        eprintln!("usage: regexset PATTERNS LOG");
        std::process::exit(2);
    };
    let patterns = read_patterns(patterns);
    let t = Instant::now();
    let set = regex::RegexSetBuilder::new(&patterns)
        .size_limit(1 << 30)
        .dfa_size_limit(1 << 30)
        .build();
    let compile_s = t.elapsed().as_secs_f64();
    let set = match set {
        Ok(s) => s,
        Err(e) => {
            let msg = e.to_string();
            let msg = msg.lines().next().unwrap_or_default();
            println!(
                "{}",
                serde_json::json!({"patterns": patterns.len(), "compile_s": compile_s, "error": msg})
            );
            return;
        }
    };
    let file = std::io::BufReader::new(std::fs::File::open(log).expect("the log opens"));
    let budget: f64 = std::env::var("BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(60.0);
    let (mut lines, mut matched, mut stopped) = (0u64, 0u64, false);
    let t = Instant::now();
    for line in file.split(b'\n') {
        if lines % 64 == 0 && t.elapsed().as_secs_f64() > budget {
            stopped = true;
            break;
        }
        let line = line.expect("the log reads");
        lines += 1;
        if set.is_match(&String::from_utf8_lossy(&line)) {
            matched += 1;
        }
    }
    let scan_s = t.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "patterns": patterns.len(), "compile_s": compile_s, "scan_s": scan_s,
            "lines": lines, "lines_per_s": lines as f64 / scan_s, "matched_lines": matched,
            "stopped": stopped
        })
    );
}

fn read_patterns(path: &str) -> Vec<String> {
    let f = std::io::BufReader::new(std::fs::File::open(path).expect("the patterns open"));
    f.lines()
        .map(|l| serde_json::from_str(&l.expect("the patterns read")).expect("a JSON string"))
        .collect()
}
