//! Arbitrary bytes as a Python source file, read as `errata index` reads one.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    errata_fuzz::extract(errata_lang::Lang::Python, "src/fuzzed.py", data);
});
