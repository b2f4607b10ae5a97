//! Arbitrary bytes as a Java source file, read as `errata index` reads one.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    errata_fuzz::extract(errata_lang::Lang::Java, "src/fuzzed.java", data);
});
