//! The node kinds of each grammar that the fact analysis reads.

use errata_lang::Lang;

/// The node kinds of one grammar, by role.
pub(crate) struct Syntax {
    pub(crate) python: bool,
    pub(crate) lang: Lang,
    pub(crate) ifs: &'static [&'static str],
    pub(crate) ternaries: &'static [&'static str],
    /// Loops whose body runs while a condition holds.
    pub(crate) whiles: &'static [&'static str],
    pub(crate) loops: &'static [&'static str],
    pub(crate) tries: &'static [&'static str],
    pub(crate) catches: &'static [&'static str],
    pub(crate) finallies: &'static [&'static str],
    pub(crate) switches: &'static [&'static str],
    pub(crate) cases: &'static [&'static str],
    /// Statements after which the rest of the block does not run.
    pub(crate) exits: &'static [&'static str],
    pub(crate) assignments: &'static [&'static str],
    pub(crate) calls: &'static [&'static str],
    /// `a.b`, `a->b`, `a::b`: a field path.
    pub(crate) members: &'static [&'static str],
    pub(crate) identifiers: &'static [&'static str],
    pub(crate) paren: &'static [&'static str],
    pub(crate) binary: &'static [&'static str],
    /// Kinds whose text can be negated with a bare `!` or `not`.
    pub(crate) simple: &'static [&'static str],
    pub(crate) classes: &'static [&'static str],
    /// Declarations of locals, and the statements that bind one without an expression of its
    /// own value: loop variables (`for x in xs`), caught exceptions.
    pub(crate) locals: &'static [&'static str],
    /// Words that are not variables (`this`, `None`, `nil`).
    pub(crate) constants: &'static [&'static str],
}

const JS: Syntax = Syntax {
    lang: Lang::JavaScript,
    python: false,
    ifs: &["if_statement"],
    ternaries: &["ternary_expression"],
    whiles: &["while_statement", "do_statement"],
    loops: &["for_statement", "for_in_statement"],
    tries: &["try_statement"],
    catches: &["catch_clause"],
    finallies: &["finally_clause"],
    switches: &["switch_statement"],
    cases: &["switch_case", "switch_default"],
    exits: &[
        "return_statement",
        "throw_statement",
        "continue_statement",
        "break_statement",
    ],
    assignments: &["assignment_expression", "augmented_assignment_expression"],
    calls: &["call_expression"],
    members: &["member_expression", "subscript_expression"],
    identifiers: &["identifier", "this", "shorthand_property_identifier"],
    paren: &["parenthesized_expression"],
    binary: &["binary_expression"],
    simple: &[
        "identifier",
        "member_expression",
        "call_expression",
        "subscript_expression",
        "this",
        "true",
        "false",
    ],
    classes: &["class_declaration", "class", "abstract_class_declaration"],
    locals: &["variable_declarator", "for_in_statement"],
    constants: &["this", "undefined", "null", "true", "false", "super"],
};

const PYTHON: Syntax = Syntax {
    lang: Lang::Python,
    python: true,
    ifs: &["if_statement"],
    ternaries: &[],
    whiles: &["while_statement"],
    loops: &["for_statement"],
    tries: &["try_statement"],
    catches: &["except_clause", "except_group_clause"],
    finallies: &["finally_clause"],
    switches: &["match_statement"],
    cases: &["case_clause"],
    exits: &[
        "return_statement",
        "raise_statement",
        "continue_statement",
        "break_statement",
    ],
    assignments: &["assignment", "augmented_assignment"],
    calls: &["call"],
    members: &["attribute", "subscript"],
    identifiers: &["identifier"],
    paren: &["parenthesized_expression"],
    binary: &["boolean_operator"],
    simple: &[
        "identifier",
        "attribute",
        "call",
        "subscript",
        "true",
        "false",
    ],
    classes: &["class_definition"],
    locals: &["assignment", "for_statement", "for_in_clause"],
    constants: &["self", "cls", "None", "True", "False"],
};

const GO: Syntax = Syntax {
    lang: Lang::Go,
    python: false,
    ifs: &["if_statement"],
    ternaries: &[],
    whiles: &[],
    loops: &["for_statement"],
    tries: &[],
    catches: &[],
    finallies: &[],
    switches: &["expression_switch_statement", "type_switch_statement"],
    cases: &["expression_case", "type_case", "default_case"],
    exits: &[
        "return_statement",
        "continue_statement",
        "break_statement",
        "goto_statement",
    ],
    assignments: &["assignment_statement"],
    calls: &["call_expression"],
    members: &["selector_expression", "index_expression"],
    identifiers: &["identifier"],
    paren: &["parenthesized_expression"],
    binary: &["binary_expression"],
    simple: &[
        "identifier",
        "selector_expression",
        "call_expression",
        "index_expression",
        "true",
        "false",
    ],
    classes: &[],
    locals: &["short_var_declaration", "var_spec", "range_clause"],
    constants: &["nil", "true", "false", "iota"],
};

const RUST: Syntax = Syntax {
    lang: Lang::Rust,
    python: false,
    ifs: &["if_expression"],
    ternaries: &[],
    whiles: &["while_expression"],
    loops: &["for_expression", "loop_expression"],
    tries: &[],
    catches: &[],
    finallies: &[],
    switches: &["match_expression"],
    cases: &["match_arm"],
    exits: &[
        "return_expression",
        "continue_expression",
        "break_expression",
    ],
    assignments: &["assignment_expression", "compound_assignment_expr"],
    calls: &["call_expression"],
    members: &["field_expression", "index_expression"],
    identifiers: &["identifier", "self"],
    paren: &["parenthesized_expression"],
    binary: &["binary_expression"],
    simple: &[
        "identifier",
        "field_expression",
        "call_expression",
        "index_expression",
        "self",
        "boolean_literal",
        "macro_invocation",
    ],
    classes: &["impl_item", "trait_item"],
    locals: &["let_declaration", "for_expression"],
    constants: &["self", "None", "true", "false"],
};

const JAVA: Syntax = Syntax {
    lang: Lang::Java,
    python: false,
    ifs: &["if_statement"],
    ternaries: &["ternary_expression"],
    whiles: &["while_statement", "do_statement"],
    loops: &["for_statement", "enhanced_for_statement"],
    tries: &["try_statement", "try_with_resources_statement"],
    catches: &["catch_clause"],
    finallies: &["finally_clause"],
    switches: &["switch_expression", "switch_statement"],
    cases: &["switch_block_statement_group", "switch_rule"],
    exits: &[
        "return_statement",
        "throw_statement",
        "continue_statement",
        "break_statement",
    ],
    assignments: &["assignment_expression"],
    calls: &["method_invocation"],
    members: &["field_access", "array_access"],
    identifiers: &["identifier", "this"],
    paren: &["parenthesized_expression"],
    binary: &["binary_expression"],
    simple: &[
        "identifier",
        "field_access",
        "method_invocation",
        "array_access",
        "this",
        "true",
        "false",
    ],
    classes: &[
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
    ],
    locals: &[
        "variable_declarator",
        "enhanced_for_statement",
        "catch_formal_parameter",
    ],
    constants: &["this", "null", "true", "false", "super"],
};

impl Syntax {
    pub(crate) fn of(lang: Lang) -> &'static Syntax {
        match lang {
            Lang::TypeScript | Lang::JavaScript => &JS,
            Lang::Python => &PYTHON,
            Lang::Go => &GO,
            Lang::Rust => &RUST,
            Lang::Java => &JAVA,
        }
    }
}
