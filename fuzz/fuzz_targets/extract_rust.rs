//! Arbitrary bytes as a Rust source file, read as `errata index` reads one.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    errata_fuzz::extract(errata_lang::Lang::Rust, "src/fuzzed.rs", data);
});
