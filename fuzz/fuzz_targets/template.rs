//! A message template from arbitrary text: literal runs and placeholders alternate at each NUL
//! byte, and each placeholder's text (on one line) is also the value it renders. The pattern
//! errata writes for it must compile, match every such rendering, read back as errata's own
//! form (the matcher's fast path), and compile as the matcher compiles a dataset's patterns.
#![no_main]

use errata_model::{PatternParts, Segment, Template};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut t = Template::new(Vec::<Segment>::new());
    let mut message = String::new();
    for (i, part) in text.split('\0').enumerate() {
        if i % 2 == 0 {
            t.push_literal(part);
            message.push_str(part);
        } else {
            // A value a message renders at runtime, on the line of the message.
            let value = part.replace(['\n', '\r'], " ");
            t.push_placeholder(format!("{{{part}}}"));
            message.push_str(&value);
        }
    }
    let pattern = t.pattern();
    let re = regex::Regex::new(&pattern).expect("a template's pattern compiles");
    assert!(
        re.is_match(&message),
        "{pattern:?} does not match {message:?}"
    );
    let parts = PatternParts::parse(&pattern).expect("errata's own patterns read back");
    for literal in &parts.literals {
        assert!(
            message.contains(literal.as_str()),
            "{literal:?} not in {message:?}"
        );
    }
    let _ = parts.anchor();
    if let Ok(shape) = errata_matcher::template::Shape::compile(&pattern) {
        assert!(
            shape.find(&message).is_some(),
            "{pattern:?} does not find {message:?}"
        );
    }
    // The same text read as an untrusted dataset's pattern.
    let _ = errata_matcher::template::vet(&text);
});
