//! The fields written as code in the record's language: exampleFix, validationCode, typeGuard
//! and tryCatchPattern. Calls are built from the function's own signature; conditions are the
//! facts' own expressions.

use errata_lang::Lang;
use errata_model::{ErrorType, HandlingStrategy};

use crate::prose::{subject, Subject};
use crate::Site;

/// The enclosing function, when it has a name to call it by.
fn named_function<'a>(site: &Site<'a>) -> Option<&'a crate::Function> {
    site.facts.function.as_ref().filter(|f| !f.name.is_empty())
}

fn comment(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "#",
        _ => "//",
    }
}

pub(crate) fn bool_literal(lang: Lang, v: bool) -> &'static str {
    match (lang, v) {
        (Lang::Python, true) => "True",
        (Lang::Python, false) => "False",
        (_, true) => "true",
        (_, false) => "false",
    }
}

fn semi(lang: Lang) -> &'static str {
    match lang {
        Lang::Python | Lang::Go => "",
        _ => ";",
    }
}

/// The longest literal run of the message, to recognise it by: placeholders vary at run time,
/// and so does what they hold (`{e.Err.Error()}`, `${sandbox.id}`, `%(name)s`).
pub(crate) fn stable_fragment(message: &str) -> String {
    let b = message.as_bytes();
    let mut best = "";
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        let hole_end = match b[i] {
            b'{' => closing_brace(b, i),
            b'$' if b.get(i + 1) == Some(&b'{') => closing_brace(b, i + 1),
            b'%' => Some(printf_end(b, i)),
            _ => None,
        };
        match hole_end {
            Some(end) => {
                if message[start..i].len() > best.len() {
                    best = &message[start..i];
                }
                (start, i) = (end, end);
            }
            None => i += 1,
        }
    }
    if message[start..].len() > best.len() {
        best = &message[start..];
    }
    let best = best.trim();
    let best = if best.is_empty() { message } else { best };
    best.chars().take(80).collect::<String>()
}

/// Just past the `}` that closes the `{` at `open`, if one does.
fn closing_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Just past the printf conversion starting at the `%` at `at`: `%s`, `%-08.3f`, `%(name)r`,
/// `%lld`; a `%` followed by none is one byte.
fn printf_end(b: &[u8], at: usize) -> usize {
    let mut j = at + 1;
    if b.get(j) == Some(&b'(') {
        match b[j..].iter().position(|&c| c == b')') {
            Some(k) => j += k + 1,
            None => return at + 1,
        }
    }
    while j < b.len() && b"-+ #0123456789.*hlLqjzt".contains(&b[j]) {
        j += 1;
    }
    match b.get(j) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'%' => j + 1,
        _ => at + 1,
    }
}

/// The fragment on one line, to put in a comment.
pub(crate) fn fragment_line(message: &str) -> String {
    stable_fragment(message)
        .replace('\r', "")
        .replace('\n', "\\n")
}

fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A call of the site's function with its own parameter names as arguments, `set` replacing
/// the argument of one parameter: `await release(params, true)`.
fn call(site: &Site<'_>, set: Option<(&str, &str)>) -> String {
    let Some(f) = named_function(site) else {
        return String::new();
    };
    let sig = f.signature.as_str();
    let args: Vec<String> = f
        .parameters
        .iter()
        .map(|p| match set {
            Some((name, value)) if name == p.name => match site.lang {
                Lang::Python => format!("{name}={value}"),
                _ => value.to_owned(),
            },
            _ => p.name.clone(),
        })
        .collect();
    let is_static = sig.starts_with("static ") || sig.contains(" static ");
    let owner_call = f
        .owner
        .as_deref()
        .map(|o| format!("{}.", o.split('<').next().unwrap_or(o)));
    let receiver = match site.lang {
        Lang::TypeScript | Lang::JavaScript | Lang::Java if is_static && owner_call.is_some() => {
            owner_call.as_deref().unwrap_or("")
        }
        Lang::TypeScript | Lang::JavaScript | Lang::Java if f.owner.is_some() => "this.",
        Lang::Python if sig.contains("(self") => "self.",
        Lang::Python if sig.contains("(cls") => "cls.",
        Lang::Rust if sig.contains("self") => "self.",
        Lang::Rust if f.owner.is_some() => "Self::",
        Lang::Go => return go_call(f, &args),
        _ => "",
    };
    let is_async = sig.starts_with("async ") || sig.contains(" async ");
    let call = format!("{receiver}{}({})", f.name, args.join(", "));
    match site.lang {
        Lang::Rust if is_async => format!("{call}.await"),
        Lang::TypeScript | Lang::JavaScript | Lang::Python if is_async => format!("await {call}"),
        _ => call,
    }
}

/// A Go call, through the method's receiver name when it has one: `c.Do(ctx)`.
fn go_call(f: &crate::Function, args: &[String]) -> String {
    let receiver = f
        .signature
        .strip_prefix("func (")
        .and_then(|r| r.split_whitespace().next())
        .filter(|r| !r.contains(')'))
        .map(|r| format!("{r}."))
        .unwrap_or_default();
    format!("{receiver}{}({})", f.name, args.join(", "))
}

/// `if COND {BODY}` in the language, the body already indented.
fn if_block(lang: Lang, cond: &str, body: &[String]) -> String {
    match lang {
        Lang::Python => {
            let mut out = format!("if {cond}:\n");
            for l in body {
                out.push_str(&format!("    {l}\n"));
            }
            if body.iter().all(|l| l.starts_with('#')) {
                out.push_str("    pass\n");
            }
            out.trim_end().to_owned()
        }
        Lang::Go | Lang::Rust => {
            let indent = if lang == Lang::Go { "\t" } else { "    " };
            let mut out = format!("if {cond} {{\n");
            for l in body {
                out.push_str(&format!("{indent}{l}\n"));
            }
            out.push('}');
            out
        }
        _ => {
            let mut out = format!("if ({cond}) {{\n");
            for l in body {
                out.push_str(&format!("  {l}\n"));
            }
            out.push('}');
            out
        }
    }
}

/// The guards of the site as one condition, each wrapped when it is a disjunction.
fn conjunction(site: &Site<'_>) -> Option<String> {
    let py = site.lang == Lang::Python;
    let parts: Vec<String> = site
        .facts
        .guards()
        .map(|c| {
            if c.expr.contains("||") || c.expr.contains(" or ") {
                format!("({})", c.expr)
            } else {
                c.expr.clone()
            }
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(parts.join(if py { " and " } else { " && " }))
}

/// What holds when none of the guards does: the negation of each, simplified, joined by or.
fn avoidance(site: &Site<'_>) -> Option<String> {
    let py = site.lang == Lang::Python;
    let parts: Vec<String> = site
        .facts
        .guards()
        .map(|c| {
            let n = if c.negated.is_empty() {
                match site.lang {
                    Lang::Python => format!("not ({})", c.expr),
                    _ => format!("!({})", c.expr),
                }
            } else {
                c.negated.clone()
            };
            if n.contains("&&") || n.contains(" and ") {
                format!("({n})")
            } else {
                n
            }
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(parts.join(if py { " or " } else { " || " }))
}

/// The boolean parameter whose value decides a guard, and the value that avoids the error.
fn deciding_bool(site: &Site<'_>) -> Option<(String, bool)> {
    site.facts
        .guards()
        .flat_map(|c| c.conjuncts.iter())
        .find_map(|c| match subject(site, c) {
            Subject::BoolParam(p, holds) => Some((p.name.clone(), !holds)),
            _ => None,
        })
}

pub(crate) fn example_fix(site: &Site<'_>) -> String {
    let c = comment(site.lang);
    let s = semi(site.lang);
    let fragment = fragment_line(site.message);
    if let Some((class, _)) = crate::prose::own_text(site) {
        return format!(
            "{c} before: the error is told apart by its wording, \"{fragment}\", which only formats a `{class}`\n{c} after: by its type, and by this wording among its texts\n{}",
            type_guard(site)
        );
    }
    if let Some(name) = crate::prose::sentinel(site) {
        return format!(
            "// before: the error is passed on without a look\nif err != nil {{\n\treturn err\n}}\n// after: {name} is told apart from other errors\nif errors.Is(err, {name}) {{\n\t// handle \"{fragment}\" here\n}} else if err != nil {{\n\treturn err\n}}"
        );
    }
    if named_function(site).is_none() {
        return format!(
            "{c} before: {} raises \"{fragment}\" when it is loaded or run\n{c} after: meet the conditions above line {} before it runs",
            site.file_path, site.line
        );
    }
    if let Some((name, avoid)) = deciding_bool(site) {
        let bad = bool_literal(site.lang, !avoid);
        let good = bool_literal(site.lang, avoid);
        return format!(
            "{c} before: raises \"{fragment}\"\n{}{s}\n{c} after: `{name}` is {good}, so the guard does not hold\n{}{s}",
            call(site, Some((&name, bad))),
            call(site, Some((&name, good)))
        );
    }
    let the_call = format!("{}{s}", call(site, None));
    match avoidance(site) {
        Some(avoid) => format!(
            "{c} before: the call is made while the guard holds, and raises \"{fragment}\"\n{the_call}\n{c} after: the call is made only when it does not\n{}",
            if_block(site.lang, &avoid, std::slice::from_ref(&the_call))
        ),
        None => format!(
            "{c} before: every call that gets to line {} raises \"{fragment}\"\n{the_call}\n{c} after: the error is caught where the call is made\n{}",
            site.line,
            try_catch(site, HandlingStrategy::Propagate)
        ),
    }
}

pub(crate) fn validation_code(site: &Site<'_>) -> String {
    let c = comment(site.lang);
    if let Some((class, _)) = crate::prose::own_text(site) {
        return format!(
            "{c} {}:{} only words a `{class}` once it exists: nothing is checked here.\n{c} Check the input where the `{class}` is created.",
            site.file_path, site.line
        );
    }
    let fname = named_function(site)
        .map(|f| format!("{}()", f.name))
        .unwrap_or_else(|| site.file_path.to_owned());
    match conjunction(site) {
        Some(cond) => {
            let mut body = vec![format!(
                "{c} {fname} would raise \"{}\" here",
                fragment_line(site.message)
            )];
            if let Some(b) = &site.facts.other_branch {
                body.push(format!(
                    "{c} it takes the other branch when: {}",
                    b.condition
                ));
            }
            format!(
                "{c} The guard of line {} of {}, checked before the call\n{}",
                site.line,
                site.file_path,
                if_block(site.lang, &cond, &body)
            )
        }
        None => {
            let checks: Vec<&str> = site
                .facts
                .passed_checks()
                .map(|c| c.expr.as_str())
                .collect();
            match checks.first() {
                // Nothing guards the raise itself: the last check it passed is what to test.
                Some(check) => format!(
                    "{c} {fname} raises \"{}\" whenever this check passes\n{}",
                    fragment_line(site.message),
                    if_block(site.lang, check, &[format!("{c} do not call {fname} in this state")])
                ),
                None => format!(
                    "{c} No condition guards line {} of {}: every call of {fname} that gets there raises \"{}\".\n{c} Nothing can be checked before the call; call it only where this error is handled.",
                    site.line,
                    site.file_path,
                    fragment_line(site.message),
                ),
            }
        }
    }
}

pub(crate) fn type_guard(site: &Site<'_>) -> String {
    let frag = quoted(&stable_fragment(site.message));
    match site.lang {
        Lang::TypeScript => match site.class {
            Some(c) => format!("function isThisError(e: unknown): e is {c} {{\n  return e instanceof {c} && e.message.includes({frag});\n}}"),
            None => format!("function isThisError(e: unknown): e is Error {{\n  return e instanceof Error && e.message.includes({frag});\n}}"),
        },
        Lang::JavaScript => {
            let c = site.class.unwrap_or("Error");
            format!("function isThisError(e) {{\n  return e instanceof {c} && e.message.includes({frag});\n}}")
        }
        Lang::Python => {
            let c = site.class.unwrap_or("Exception");
            format!("def is_this_error(e: BaseException) -> bool:\n    return isinstance(e, {c}) and {frag} in str(e)")
        }
        Lang::Go if matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion) => format!(
            "func isThisPanic(r any) bool {{\n\treturn r != nil && strings.Contains(fmt.Sprint(r), {frag})\n}}"
        ),
        Lang::Go => match site.class {
            Some(sentinel) if sentinel.starts_with("Err") || sentinel.contains(".Err") => format!("func isThisError(err error) bool {{\n\treturn errors.Is(err, {sentinel})\n}}"),
            Some(ty) if ty.starts_with('*') || ty.ends_with("Error") => {
                let ty = if ty.starts_with('*') { ty.to_owned() } else { format!("*{ty}") };
                format!("func isThisError(err error) bool {{\n\tvar target {ty}\n\treturn errors.As(err, &target) && strings.Contains(err.Error(), {frag})\n}}")
            }
            _ => format!("func isThisError(err error) bool {{\n\treturn err != nil && strings.Contains(err.Error(), {frag})\n}}"),
        },
        Lang::Rust => match site.class.filter(|c| c.contains("::")) {
            Some(variant) => format!("fn is_this_error(e: &{}) -> bool {{\n    matches!(e, {variant} {{ .. }})\n}}", variant.rsplit_once("::").map(|p| p.0).unwrap_or(variant)),
            None => format!("fn is_this_error(e: &dyn std::fmt::Display) -> bool {{\n    e.to_string().contains({frag})\n}}"),
        },
        Lang::Java => {
            let c = site.class.unwrap_or("Exception");
            format!("static boolean isThisError(Throwable e) {{\n    return e instanceof {c} && e.getMessage() != null && e.getMessage().contains({frag});\n}}")
        }
    }
}

pub(crate) fn try_catch(site: &Site<'_>, strategy: HandlingStrategy) -> String {
    let s = semi(site.lang);
    let the_call = match named_function(site) {
        // An error type's own text is not raised by calling its method: the error is caught
        // where some other call returned or raised it.
        Some(_) if crate::prose::own_text(site).is_none() => call(site, None),
        _ => String::new(),
    };
    if the_call.is_empty() {
        // No function to call: the pattern is the test of a caught error, around the code that
        // reaches the site, or for an error type's own text, the first place that creates it.
        let c = comment(site.lang);
        let reaches = match site
            .facts
            .callers
            .first()
            .filter(|_| crate::prose::own_text(site).is_some())
        {
            Some(r) => match &r.function {
                Some(f) => format!("{f}() at {}:{}", r.file, r.line),
                None => format!("{}:{}", r.file, r.line),
            },
            None => format!("{}:{}", site.file_path, site.line),
        };
        return match site.lang {
            Lang::Python => format!("try:\n    ...  # code that reaches {reaches}\nexcept {} as e:\n    if not is_this_error(e):\n        raise\n    # {}", site.class.unwrap_or("Exception"), strategy.as_str()),
            Lang::Go => format!("if err != nil {{\n\tif isThisError(err) {{\n\t\t{c} {}\n\t}} else {{\n\t\treturn err\n\t}}\n}}", strategy.as_str()),
            Lang::Rust => format!("if let Err(e) = &result {{\n    if is_this_error(e) {{\n        {c} {}\n    }}\n}}", strategy.as_str()),
            Lang::Java => format!("try {{\n    {c} code that reaches {reaches}\n}} catch ({} e) {{\n    if (!isThisError(e)) throw e;\n    {c} {}\n}}", site.class.unwrap_or("Exception"), strategy.as_str()),
            Lang::TypeScript | Lang::JavaScript => format!("try {{\n  {c} code that reaches {reaches}\n}} catch (e) {{\n  if (!isThisError(e)) throw e;\n  {c} {}\n}}", strategy.as_str()),
        };
    }
    let c = comment(site.lang);
    // The fallback that avoids the guard, when a boolean parameter decides it.
    let action = match deciding_bool(site) {
        Some((name, avoid)) if named_function(site).is_some() => {
            format!(
                "{}{s}",
                call(site, Some((&name, bool_literal(site.lang, avoid))))
            )
        }
        _ => format!("{c} {}", strategy.as_str()),
    };
    match site.lang {
        Lang::TypeScript | Lang::JavaScript => format!("try {{\n  {the_call}{s}\n}} catch (e) {{\n  if (isThisError(e)) {{\n    {action}\n  }} else {{\n    throw e;\n  }}\n}}"),
        Lang::Python => format!("try:\n    {the_call}\nexcept {} as e:\n    if not is_this_error(e):\n        raise\n    {action}", site.class.unwrap_or("Exception")),
        Lang::Go if matches!(site.error_type, ErrorType::Panic | ErrorType::Assertion) => format!(
            "defer func() {{\n\tif r := recover(); r != nil {{\n\t\tif !isThisPanic(r) {{\n\t\t\tpanic(r)\n\t\t}}\n\t\t{action}\n\t}}\n}}()\n{the_call}"
        ),
        Lang::Go => format!("if err := {the_call}; err != nil {{\n\tif isThisError(err) {{\n\t\t{action}\n\t}} else {{\n\t\treturn err\n\t}}\n}}"),
        Lang::Rust => match site.error_type {
            ErrorType::Panic | ErrorType::Assertion => format!("let result = std::panic::catch_unwind(|| {the_call});\nif result.is_err() {{\n    {action}\n}}"),
            _ => format!("match {the_call} {{\n    Ok(v) => v,\n    Err(e) if is_this_error(&e) => {{\n        {action}\n        todo!()\n    }}\n    Err(e) => return Err(e.into()),\n}}"),
        },
        Lang::Java => format!("try {{\n    {the_call};\n}} catch ({} e) {{\n    if (!isThisError(e)) throw e;\n    {action}\n}}", site.class.unwrap_or("Exception")),
    }
}

#[cfg(test)]
mod tests {
    use super::stable_fragment;

    #[test]
    fn the_stable_fragment_is_literal_text_not_what_a_placeholder_holds() {
        assert_eq!(
            stable_fragment("strconv.{e.Func}: parsing {Quote(e.Num)}: {e.Err.Error()}"),
            ": parsing"
        );
        assert_eq!(
            stable_fragment("lease ${lease.id} of ${this.sandboxes[name].owner} expired"),
            "expired"
        );
        assert_eq!(
            stable_fragment("invalid %(type)s value given: %(value)r"),
            "value given:"
        );
        assert_eq!(stable_fragment("id %-08.3f longer than %d"), "longer than");
        assert_eq!(stable_fragment("100%! sure {unclosed"), "! sure {unclosed");
        assert_eq!(stable_fragment("{}"), "{}");
    }
}
