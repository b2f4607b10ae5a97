//! Rewrites a record's explanation fields with a language model, held to the facts.
//!
//! errata-explain writes the explanation fields of a [`Record`](errata_model::Record) from
//! facts that static analysis found (enclosing function, guards, callers, handlers). This
//! crate asks a model served behind an OpenAI-compatible chat-completions API (Ollama,
//! llama.cpp, vLLM, a hosted one) to write them better, and rejects an answer that the source
//! and the facts do not support:
//!
//! - [`messages`] builds the prompt for one [`Input`]: what the fields mean, their closed
//!   lists, the rules, then the record's site, numbered source window and facts.
//! - [`Client::enrich`] sends it, retries transient failures, and checks the answer with
//!   [`parse_answer`] (one JSON object of exactly the [`Fields`]) and
//!   [`unknown_identifiers`] (no name that is neither in the source nor in the facts).
//! - [`cache_key`] names an answer for a record's content, the model and [`PROMPT_VERSION`],
//!   so that a caller can keep answers and ask again only when one of them changes.
//!
//! The client is blocking and `Send + Sync`: the caller runs one [`Client`] from the threads
//! of its own pool, which bounds the concurrency. Errors are [`Error`]s that say what to do;
//! the crate logs with `tracing` at debug level, never the API key.
//!
//! # Source code layout
//!
//! - `client.rs`: [`Config`], [`Client`], retries and the wire format.
//! - `prompt.rs`: [`Input`], [`Message`], the system and user prompts.
//! - `fields.rs`: [`Fields`] and [`parse_answer`].
//! - `identifiers.rs`: [`unknown_identifiers`], a small lexer per language.
//! - `lang.rs`: extensions, comment syntax, keywords and builtins per language.
//!
//! # Example
//!
//! Reading an answer and checking it against the source, as [`Client::enrich`] does:
//!
//! ```
//! use errata_enrich::{parse_answer, unknown_identifiers, HandlingStrategy};
//!
//! let answer = r#"Sure! ```json
//! {"documentation": "Thrown by `release` when `unconfirmedCleanup` holds the scope.",
//!  "triggerScenarios": "Releasing a reused lease.", "commonSituations": "Reuse pools.",
//!  "solutions": ["Destroy the lease."], "exampleFix": "await release(params, true);",
//!  "handlingStrategy": "fallback",
//!  "validationCode": "if (isStale(scope)) await release(params, true);",
//!  "typeGuard": "const isCleanup = (e: unknown) => e instanceof Error;",
//!  "tryCatchPattern": "try { await release(params, false); } catch (e) { if (!isCleanup(e)) throw e; }",
//!  "preventionTips": ["Disable reuse."], "tags": ["lease"], "backgroundTag": "invalid-state-transition"}
//! ```"#;
//! let fields = parse_answer(answer)?;
//! assert_eq!(fields.handling_strategy, HandlingStrategy::Fallback);
//!
//! let source = "if (unconfirmedCleanup.has(scope)) throw new Error(\"…\");";
//! let facts = "enclosing function: release(params, destroy)";
//! // `isStale` is in neither: the model made it up. `isCleanup` and `e` are its own.
//! assert_eq!(unknown_identifiers(&fields, "ts", source, facts), ["isStale"]);
//! # Ok::<(), errata_enrich::Error>(())
//! ```
//!
//! Asking a model (not run here):
//!
//! ```no_run
//! # fn demo(record: &errata_model::Record, facts: &str) -> Result<(), errata_enrich::Error> {
//! use errata_enrich::{Client, Config, Input};
//!
//! let client = Client::new(Config::new("http://localhost:11434/v1", "qwen2.5-coder:7b"))?;
//! let fields = client.enrich(&Input { record, facts })?;
//! let mut record = record.clone();
//! fields.apply_to(&mut record);
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]

mod client;
mod error;
mod fields;
mod identifiers;
mod lang;
mod prompt;

use sha2::{Digest, Sha256};

pub use client::{Client, Config};
pub use errata_model::{BackgroundTag, HandlingStrategy};
pub use error::Error;
pub use fields::{
    parse_answer, Fields, BACKGROUND_TAGS, FIELD_NAMES, HANDLING_STRATEGIES, MAX_TAGS,
};
pub use identifiers::unknown_identifiers;
pub use prompt::{messages, Input, Message, Role};

/// The version of the prompts. Bump it with any change to what the model is told, so that
/// [`cache_key`] stops matching answers to the old prompt.
pub const PROMPT_VERSION: u32 = 1;

/// The key under which to keep a model's answer: hex SHA-256 of the record's content hash,
/// the model's name and [`PROMPT_VERSION`]. A change to any of them is a new key.
pub fn cache_key(content_hash: &str, model: &str) -> String {
    let mut h = Sha256::new();
    h.update(content_hash.as_bytes());
    h.update([0]);
    h.update(model.as_bytes());
    h.update([0]);
    h.update(PROMPT_VERSION.to_le_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod test_util {
    use std::path::Path;

    /// The seed record of `shared/`, beside the repository.
    pub(crate) fn seed() -> errata_model::Record {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seed/record.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let line: serde_json::Value = serde_json::from_str(&text).unwrap();
        serde_json::from_value(line["record"].clone()).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_keys_change_with_content_and_model() {
        let k = cache_key("abc", "m1");
        assert_eq!(k.len(), 64);
        assert!(k.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(k, cache_key("abc", "m1"));
        assert_ne!(k, cache_key("abd", "m1"));
        assert_ne!(k, cache_key("abc", "m2"));
        // The separator keeps the two parts apart.
        assert_ne!(cache_key("ab", "cm1"), cache_key("abc", "m1"));
    }

    /// The seed's hand-written explanation is held to its own source: its validation code
    /// calls `leaseHadUnconfirmedCleanup`, which the source does not define.
    #[test]
    fn the_seed_explanation_invents_one_helper() {
        let record = test_util::seed();
        let fields = Fields::of(&record);
        assert_eq!(
            unknown_identifiers(&fields, &record.file_path, &record.source_code, ""),
            ["leaseHadUnconfirmedCleanup"]
        );
    }

    #[test]
    fn fields_round_trip_through_a_record() {
        let mut record = test_util::seed();
        let mut fields = Fields::of(&record);
        fields.tags = vec!["changed".into()];
        fields.clone().apply_to(&mut record);
        assert_eq!(Fields::of(&record), fields);
        assert!(fields.validate().is_ok());
    }

    #[test]
    fn the_client_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Client>();
        shared::<Error>();
    }
}
