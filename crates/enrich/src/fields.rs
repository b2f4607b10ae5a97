//! The explanation fields a model answers, and how its answer is read.

use errata_model::{BackgroundTag, HandlingStrategy};
use serde::{Deserialize, Serialize};

use crate::Error;

/// The explanation fields of a record (schema v2 names via serde camelCase), as the model must
/// answer them: one JSON object with exactly these keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fields {
    pub documentation: String,
    pub trigger_scenarios: String,
    pub common_situations: String,
    pub solutions: Vec<String>,
    pub example_fix: String,
    pub handling_strategy: HandlingStrategy,
    pub validation_code: String,
    pub type_guard: String,
    pub try_catch_pattern: String,
    pub prevention_tips: Vec<String>,
    pub tags: Vec<String>,
    pub background_tag: BackgroundTag,
}

/// The keys of [`Fields`] as serialised, in order.
pub const FIELD_NAMES: [&str; 12] = errata_model::EXPLANATION_FIELDS;

/// The most tags a record has (the schema's `maxItems`).
pub const MAX_TAGS: usize = 8;

/// Every [`HandlingStrategy`], in the schema's order.
pub const HANDLING_STRATEGIES: [HandlingStrategy; 8] = [
    HandlingStrategy::Retry,
    HandlingStrategy::Fallback,
    HandlingStrategy::FailFast,
    HandlingStrategy::FixInput,
    HandlingStrategy::FixConfiguration,
    HandlingStrategy::FixCode,
    HandlingStrategy::Propagate,
    HandlingStrategy::Ignore,
];

/// Every [`BackgroundTag`], in the schema's order.
pub const BACKGROUND_TAGS: [BackgroundTag; 21] = [
    BackgroundTag::InvalidInput,
    BackgroundTag::InvalidStateTransition,
    BackgroundTag::NotFound,
    BackgroundTag::AlreadyExists,
    BackgroundTag::PermissionDenied,
    BackgroundTag::AuthenticationFailed,
    BackgroundTag::MissingConfiguration,
    BackgroundTag::InvalidConfiguration,
    BackgroundTag::UnsupportedOperation,
    BackgroundTag::NotImplemented,
    BackgroundTag::Timeout,
    BackgroundTag::NetworkFailure,
    BackgroundTag::RateLimited,
    BackgroundTag::ResourceExhausted,
    BackgroundTag::DependencyFailure,
    BackgroundTag::MalformedData,
    BackgroundTag::ConcurrencyConflict,
    BackgroundTag::IoFailure,
    BackgroundTag::Cancelled,
    BackgroundTag::Deprecated,
    BackgroundTag::InternalInvariant,
];

impl Fields {
    /// The explanation fields of a record as it stands.
    pub fn of(record: &errata_model::Record) -> Fields {
        Fields {
            documentation: record.documentation.clone(),
            trigger_scenarios: record.trigger_scenarios.clone(),
            common_situations: record.common_situations.clone(),
            solutions: record.solutions.clone(),
            example_fix: record.example_fix.clone(),
            handling_strategy: record.handling_strategy,
            validation_code: record.validation_code.clone(),
            type_guard: record.type_guard.clone(),
            try_catch_pattern: record.try_catch_pattern.clone(),
            prevention_tips: record.prevention_tips.clone(),
            tags: record.tags.clone(),
            background_tag: record.background_tag,
        }
    }

    /// Writes these fields over a record's.
    pub fn apply_to(self, record: &mut errata_model::Record) {
        record.documentation = self.documentation;
        record.trigger_scenarios = self.trigger_scenarios;
        record.common_situations = self.common_situations;
        record.solutions = self.solutions;
        record.example_fix = self.example_fix;
        record.handling_strategy = self.handling_strategy;
        record.validation_code = self.validation_code;
        record.type_guard = self.type_guard;
        record.try_catch_pattern = self.try_catch_pattern;
        record.prevention_tips = self.prevention_tips;
        record.tags = self.tags;
        record.background_tag = self.background_tag;
    }

    /// The prose fields, whose backticked spans name code: `documentation`,
    /// `triggerScenarios`, `commonSituations`, then every solution and prevention tip.
    pub(crate) fn prose(&self) -> impl Iterator<Item = &str> {
        [
            &self.documentation,
            &self.trigger_scenarios,
            &self.common_situations,
        ]
        .into_iter()
        .chain(&self.solutions)
        .chain(&self.prevention_tips)
        .map(String::as_str)
    }

    /// The code fields: `exampleFix`, `validationCode`, `typeGuard`, `tryCatchPattern`.
    pub(crate) fn code(&self) -> [&str; 4] {
        [
            &self.example_fix,
            &self.validation_code,
            &self.type_guard,
            &self.try_catch_pattern,
        ]
    }

    /// Checks what serde cannot: no empty text, no empty list, 1 to [`MAX_TAGS`]
    /// lowercase-kebab tags. Says which field is wrong.
    pub fn validate(&self) -> Result<(), Error> {
        let texts = [
            ("documentation", &self.documentation),
            ("triggerScenarios", &self.trigger_scenarios),
            ("commonSituations", &self.common_situations),
            ("exampleFix", &self.example_fix),
            ("validationCode", &self.validation_code),
            ("typeGuard", &self.type_guard),
            ("tryCatchPattern", &self.try_catch_pattern),
        ];
        for (name, text) in texts {
            if text.trim().is_empty() {
                return Err(Error::Malformed(format!("`{name}` is empty")));
            }
        }
        let lists = [
            ("solutions", &self.solutions),
            ("preventionTips", &self.prevention_tips),
            ("tags", &self.tags),
        ];
        for (name, list) in lists {
            if list.is_empty() {
                return Err(Error::Malformed(format!("`{name}` is an empty list")));
            }
            if let Some(i) = list.iter().position(|s| s.trim().is_empty()) {
                return Err(Error::Malformed(format!("`{name}[{i}]` is empty")));
            }
        }
        if self.tags.len() > MAX_TAGS {
            return Err(Error::Malformed(format!(
                "`tags` has {} items, at most {MAX_TAGS} are allowed",
                self.tags.len()
            )));
        }
        if let Some(tag) = self.tags.iter().find(|t| !is_kebab(t)) {
            return Err(Error::Malformed(format!(
                "tag {tag:?} is not lowercase-kebab (like `lease-reuse`)"
            )));
        }
        Ok(())
    }
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, the schema's tag pattern.
fn is_kebab(tag: &str) -> bool {
    !tag.is_empty()
        && tag.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Reads a model's answer: the first JSON object in `text` (so ```` ```json ```` fences and
/// words around it are tolerated), deserialised into [`Fields`] with no key missing or extra,
/// then [validated](Fields::validate).
///
/// Every failure is [`Error::Malformed`], saying what is wrong.
pub fn parse_answer(text: &str) -> Result<Fields, Error> {
    let object = first_object(text).ok_or_else(|| {
        Error::Malformed(format!(
            "no JSON object in the answer {:?}",
            text.chars().take(120).collect::<String>()
        ))
    })?;
    let fields: Fields = serde_json::from_value(object)
        .map_err(|e| Error::Malformed(format!("the JSON object does not fit the fields: {e}")))?;
    fields.validate()?;
    Ok(fields)
}

/// The first `{` of `text` that starts a whole JSON object, parsed; text after the object is
/// ignored.
fn first_object(text: &str) -> Option<serde_json::Value> {
    text.match_indices('{').find_map(|(at, _)| {
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter();
        match values.next() {
            Some(Ok(v @ serde_json::Value::Object(_))) => Some(v),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> serde_json::Value {
        serde_json::json!({
            "documentation": "Thrown by `release` when `unconfirmedCleanup` holds the lease's scope.",
            "triggerScenarios": "Releasing without `destroy` while `config.reuseLease` is set.",
            "commonSituations": "Reuse-mode pools after a failed pause.",
            "solutions": ["Call `release(params, true)` to destroy the lease."],
            "exampleFix": "await release(params, true);",
            "handlingStrategy": "fallback",
            "validationCode": "if (unconfirmedCleanup.has(scope)) { await release(params, true); }",
            "typeGuard": "function isCleanupError(e: unknown): boolean { return e instanceof Error && e.message.includes('unconfirmed'); }",
            "tryCatchPattern": "try { await release(params, false); } catch (error) { if (isCleanupError(error)) await release(params, true); else throw error; }",
            "preventionTips": ["Disable `reuseLease` where destroy-and-recreate is cheap."],
            "tags": ["sandbox", "lease-reuse"],
            "backgroundTag": "invalid-state-transition"
        })
    }

    #[test]
    fn field_names_are_the_serialised_keys_in_order() {
        let fields: Fields = serde_json::from_value(answer()).unwrap();
        let value = serde_json::to_value(&fields).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, FIELD_NAMES);
    }

    #[test]
    fn the_closed_lists_are_complete_and_spelled_as_the_schema() {
        // A new variant fails to compile here until the lists above name it.
        fn listed(h: HandlingStrategy, b: BackgroundTag) -> bool {
            use BackgroundTag as B;
            use HandlingStrategy as H;
            match h {
                H::Retry | H::Fallback | H::FailFast | H::FixInput | H::FixConfiguration => {}
                H::FixCode | H::Propagate | H::Ignore => {}
            }
            match b {
                B::InvalidInput | B::InvalidStateTransition | B::NotFound | B::AlreadyExists => {}
                B::PermissionDenied | B::AuthenticationFailed | B::MissingConfiguration => {}
                B::InvalidConfiguration | B::UnsupportedOperation | B::NotImplemented => {}
                B::Timeout | B::NetworkFailure | B::RateLimited | B::ResourceExhausted => {}
                B::DependencyFailure | B::MalformedData | B::ConcurrencyConflict => {}
                B::IoFailure | B::Cancelled | B::Deprecated | B::InternalInvariant => {}
            }
            HANDLING_STRATEGIES.contains(&h) && BACKGROUND_TAGS.contains(&b)
        }
        for h in HANDLING_STRATEGIES {
            assert_eq!(serde_json::to_value(h).unwrap(), h.as_str());
            assert!(listed(h, BackgroundTag::Timeout));
        }
        for b in BACKGROUND_TAGS {
            assert_eq!(serde_json::to_value(b).unwrap(), b.as_str());
            assert!(listed(HandlingStrategy::Retry, b));
        }
    }

    #[test]
    fn fences_and_words_around_the_object_are_tolerated() {
        let json = answer().to_string();
        let plain = parse_answer(&json).unwrap();
        let fenced = parse_answer(&format!(
            "Here you are {{as asked}}:\n```json\n{json}\n```\nDone."
        ))
        .unwrap();
        assert_eq!(plain, fenced);
        assert_eq!(plain.handling_strategy, HandlingStrategy::Fallback);
        assert_eq!(plain.tags, ["sandbox", "lease-reuse"]);
    }

    fn malformed(v: serde_json::Value) -> String {
        match parse_answer(&v.to_string()) {
            Err(Error::Malformed(why)) => why,
            other => panic!("expected Malformed, got {other:?}"),
        }
    }

    #[test]
    fn missing_extra_and_misspelt_keys_are_malformed() {
        let mut v = answer();
        v.as_object_mut().unwrap().remove("typeGuard");
        assert!(malformed(v).contains("missing field `typeGuard`"));

        let mut v = answer();
        v["severity"] = "error".into();
        assert!(malformed(v).contains("unknown field `severity`"));

        let mut v = answer();
        v["handlingStrategy"] = "fail_fast".into();
        assert!(malformed(v).contains("unknown variant `fail_fast`"));
    }

    #[test]
    fn empty_text_lists_and_bad_tags_are_malformed() {
        let mut v = answer();
        v["exampleFix"] = "  ".into();
        assert_eq!(malformed(v), "`exampleFix` is empty");

        let mut v = answer();
        v["solutions"] = serde_json::json!([]);
        assert_eq!(malformed(v), "`solutions` is an empty list");

        let mut v = answer();
        v["preventionTips"] = serde_json::json!(["ok", ""]);
        assert_eq!(malformed(v), "`preventionTips[1]` is empty");

        for bad in [
            "Lease",
            "lease_reuse",
            "-lease",
            "lease--reuse",
            "lease reuse",
        ] {
            let mut v = answer();
            v["tags"] = serde_json::json!(["ok", bad]);
            assert!(malformed(v).contains("is not lowercase-kebab"), "{bad}");
        }

        let mut v = answer();
        v["tags"] = serde_json::json!(["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
        assert!(malformed(v).contains("at most 8"));
    }

    #[test]
    fn an_answer_without_an_object_is_malformed() {
        assert!(matches!(
            parse_answer("I cannot help."),
            Err(Error::Malformed(_))
        ));
        assert!(matches!(
            parse_answer("{\"documentation\": "),
            Err(Error::Malformed(_))
        ));
    }
}
