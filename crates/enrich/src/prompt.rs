//! What the model is told: a system prompt that defines the fields and the rules, and one user
//! message per record with the error site, its source window and the facts.
//!
//! Changing either text changes what a model answers: bump [`PROMPT_VERSION`] with it, so that
//! cached answers to the old prompt are not reused.

use std::fmt::Write;

use errata_model::Record;
use serde::{Deserialize, Serialize};

use crate::fields::{BACKGROUND_TAGS, FIELD_NAMES, HANDLING_STRATEGIES, MAX_TAGS};
use crate::lang::Lang;

#[cfg(doc)]
use crate::PROMPT_VERSION;

/// What the model is given for one record.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub record: &'a Record,
    /// Facts about the error site written by static analysis (enclosing function, guards,
    /// callers, handlers), as text or JSON. Every identifier the answer names must be in the
    /// source window or here.
    pub facts: &'a str,
}

/// Who says a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One chat message, as the chat-completions API takes it: `{"role": "user", "content": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

/// The chat messages for one record: the system prompt, then the record.
pub fn messages(input: &Input<'_>) -> Vec<Message> {
    vec![
        Message {
            role: Role::System,
            content: system_prompt(),
        },
        Message {
            role: Role::User,
            content: user_prompt(input),
        },
    ]
}

/// What the fields mean, their closed lists, and the rules that hold the answer to the facts.
fn system_prompt() -> String {
    let strategies: Vec<&str> = HANDLING_STRATEGIES.iter().map(|h| h.as_str()).collect();
    let backgrounds: Vec<&str> = BACKGROUND_TAGS.iter().map(|b| b.as_str()).collect();
    let keys = FIELD_NAMES
        .iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "You explain one error site of a code base to the developers who meet the error. You are \
given the error's message, its class, code and HTTP status when it has them, the language, the \
file and line that raise it, the source around that line, and facts found by static analysis.

Answer with one JSON object with exactly these keys, and nothing else: {keys}.

- documentation: what the error means and exactly where and under which conditions the code \
raises it: the condition checked and the state involved. Two to five sentences.
- triggerScenarios: the concrete sequences of calls, inputs or states that reach the raising line.
- commonSituations: the real situations in which users run into this error.
- solutions: a list of concrete steps that make the error go away, the most likely first.
- exampleFix: code in the record's language showing a call that fails and the corrected call, \
before and after, marked with comments.
- handlingStrategy: how a caller should handle the error, exactly one of: {strategies}.
- validationCode: code in the record's language that checks the condition before the call, so \
that the error is not raised.
- typeGuard: code in the record's language that recognises this error at runtime (by its class, \
code or message).
- tryCatchPattern: code in the record's language that catches this error (try/catch, except, \
`if err != nil`, `match`) and handles it according to handlingStrategy.
- preventionTips: a list of practices that keep the error from happening.
- tags: a list of 1 to {MAX_TAGS} lowercase-kebab-case topic tags, such as \"lease-reuse\".
- backgroundTag: the kind of failure, exactly one of: {backgrounds}.

Rules:
- Stay with the facts. Name no function, variable, option or value that is neither in the \
source nor in the facts. Code may use the language's keywords and standard library, and may \
declare its own helper function, parameters and local variables; anything else it calls must \
appear in the source or the facts.
- Put code identifiers in backticks in the prose fields, e.g. `config.reuseLease`.
- When the source and the facts do not say something, say less rather than guess.
- Write every text field as plain text; no Markdown headings. Lists are JSON arrays of strings, \
none empty.",
        strategies = strategies.join(", "),
        backgrounds = backgrounds.join(", "),
    )
}

/// The record: its identity, then the numbered source window, then the facts.
fn user_prompt(input: &Input<'_>) -> String {
    let r = input.record;
    let lang = Lang::from_ext(&r.file_path);
    let none = "none";
    let mut s = String::new();
    let _ = writeln!(s, "Error message: {}", r.error_message);
    let _ = writeln!(s, "Error type: {}", r.error_type.as_str());
    let _ = writeln!(
        s,
        "Error class: {}",
        r.error_class.as_deref().unwrap_or(none)
    );
    let _ = writeln!(s, "Error code: {}", r.error_code.as_deref().unwrap_or(none));
    let status = r.http_status.map(|s| s.to_string());
    let _ = writeln!(s, "HTTP status: {}", status.as_deref().unwrap_or(none));
    let _ = writeln!(s, "Language: {}", lang.name());
    let _ = writeln!(s, "Location: {}:{}", r.file_path, r.line_number);
    let _ = writeln!(
        s,
        "\nSource, lines {}-{}, the raising line {} marked with >:",
        r.source_code_start, r.source_code_end, r.line_number
    );
    let ext = r.file_path.rsplit_once('.').map_or("", |(_, e)| e);
    let _ = writeln!(s, "```{ext}");
    let last = r.source_code_start as usize + r.source_code.lines().count();
    let width = last.max(1).to_string().len();
    for (i, line) in r.source_code.lines().enumerate() {
        let n = r.source_code_start as usize + i;
        let mark = if n == r.line_number as usize {
            '>'
        } else {
            ' '
        };
        let _ = writeln!(s, "{mark}{n:>width$} | {line}");
    }
    let _ = writeln!(s, "```");
    let facts = input.facts.trim();
    let _ = write!(
        s,
        "\nFacts from static analysis:\n{}\n",
        if facts.is_empty() { "(none)" } else { facts }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::seed;

    #[test]
    fn the_system_prompt_lists_the_keys_and_closed_values() {
        let p = system_prompt();
        assert!(p.contains("exactly these keys"));
        for key in FIELD_NAMES {
            assert!(p.contains(&format!("\"{key}\"")), "{key}");
        }
        assert!(p.contains("fail-fast, fix-input"));
        assert!(p.contains("invalid-input, invalid-state-transition"));
        assert!(p.contains("Name no function, variable, option or value"));
        assert!(p.contains("backticks"));
    }

    #[test]
    fn the_user_message_carries_the_site_the_source_and_the_facts() {
        let record = seed();
        let facts = "enclosing function: release(params, destroy)";
        let m = messages(&Input {
            record: &record,
            facts,
        });
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].role, Role::System);
        assert_eq!(m[1].role, Role::User);
        let u = &m[1].content;
        assert!(u.starts_with(
            "Error message: CreateOS process cleanup is unconfirmed; destroy this lease before reusing it.\n"
        ));
        assert!(u.contains("Error class: none\n"));
        assert!(u.contains("Language: TypeScript\n"));
        assert!(
            u.contains("Location: packages/plugins/sandbox-providers/createos/src/plugin.ts:119\n")
        );
        assert!(u.contains("```ts\n 101 |     }\n"));
        assert!(u.contains(
            "\n>119 |         if (unconfirmedCleanup.has(scope)) throw new Error(\"CreateOS process cleanup"
        ));
        assert!(u.contains("\n 120 |         try {"));
        assert!(u.ends_with(&format!("Facts from static analysis:\n{facts}\n")));
    }

    #[test]
    fn messages_serialise_as_the_api_takes_them() {
        let m = Message {
            role: Role::User,
            content: "hi".into(),
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"role":"user","content":"hi"}"#
        );
    }
}
