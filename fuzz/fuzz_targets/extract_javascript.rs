//! Arbitrary bytes as a JavaScript source file, read as `errata index` reads one.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    errata_fuzz::extract(errata_lang::Lang::JavaScript, "src/fuzzed.js", data);
});
