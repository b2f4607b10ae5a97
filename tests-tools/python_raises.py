#!/usr/bin/env python3
"""Reference list of Python `raise` sites with a literal or formatted message.

errata's Python rules are tree-sitter based; this script is the independent oracle its recall
tests compare against. It uses CPython's own parser (the `ast` module), so what it finds is what
the language itself says is there.

Usage:

    python3 python_raises.py ROOT < filelist
    python3 python_raises.py --summary ROOT < filelist

stdin holds one path per line, relative to ROOT. Each file is read as UTF-8; a file that does not
decode or that `ast.parse` rejects is skipped silently. For every counted site one JSON line is
printed:

    {"path": "json/decoder.py", "line": 42, "message": "Expecting value"}

`path` is the path as given on stdin, `line` the 1-based line of the `raise` statement and
`message` a short, human-readable rendering of the message argument (the text of a plain string,
the source of a formatted one), cut to a bounded length. With `--summary` only one JSON object of
counts is printed.

What counts: a `raise` whose exception is a call, `raise Name(...)` or `raise mod.Name(...)`,
whose message argument is a literal or formatted message. The message argument is the first
positional argument, or the second when the first is `errno.X` (as in
`OSError(errno.ENOENT, "No such file", path)`). A message is:

- a `str` constant that is not blank;
- an f-string;
- `"..." % args`: a `%` whose left side is a `str` constant;
- a `+` chain with a `str` constant or an f-string somewhere in it;
- `"...".format(...)`.
"""

import argparse
import ast
import json
import os
import sys
import time
import warnings

# Longest rendering of a message printed; longer ones are cut and end in an ellipsis.
MAX_MESSAGE = 120


def is_str_constant(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def has_string_part(node):
    """True when `node` is a string or f-string, or a `+` chain containing one."""
    if is_str_constant(node) or isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return has_string_part(node.left) or has_string_part(node.right)
    return False


def is_message(node):
    """True when `node` is a literal or formatted message (see the module docstring)."""
    if is_str_constant(node):
        return bool(node.value.strip())
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mod):
            return is_str_constant(node.left)
        if isinstance(node.op, ast.Add):
            return has_string_part(node.left) or has_string_part(node.right)
        return False
    if isinstance(node, ast.Call):
        func = node.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr == "format"
            and is_str_constant(func.value)
        )
    return False


def is_errno_constant(node):
    """True for `errno.X`, the error number some exceptions take before their message."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "errno"
    )


def message_argument(call):
    """The argument of an exception constructor call that carries its message, if any."""
    args = call.args
    if not args:
        return None
    if is_errno_constant(args[0]):
        return args[1] if len(args) > 1 else None
    return args[0]


def describe(node):
    """A short one-line rendering of a message argument."""
    if is_str_constant(node):
        text = node.value
    else:
        try:
            text = ast.unparse(node)
        except Exception:  # unparse has no failure mode we rely on; fall back to the kind
            text = type(node).__name__
    text = " ".join(text.split())
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "\u2026"
    # A string constant may hold lone surrogates ("\ud800"); JSON readers reject those, so
    # they are written out as escapes instead.
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def raise_sites(tree):
    """(line, message) for every counted `raise` in a module, in source order."""
    sites = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise):
            continue
        exc = node.exc
        if not isinstance(exc, ast.Call):
            continue
        if not isinstance(exc.func, (ast.Name, ast.Attribute)):
            continue
        arg = message_argument(exc)
        if arg is None or not is_message(arg):
            continue
        sites.append((node.lineno, node.col_offset, describe(arg)))
    sites.sort()
    return [(line, message) for line, _, message in sites]


def parse_file(path):
    """The module's tree, or why it was skipped: "unreadable", "undecodable" or "unparsable"."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None, "unreadable"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "undecodable"
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return ast.parse(text, filename=path), None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, "unparsable"


def main():
    parser = argparse.ArgumentParser(
        description="List Python raise sites with a literal or formatted message."
    )
    parser.add_argument("root", help="folder the paths on stdin are relative to")
    parser.add_argument(
        "--summary", action="store_true", help="print only counts, as one JSON object"
    )
    args = parser.parse_args()

    # Old code in a corpus triggers SyntaxWarnings ("invalid escape sequence"); they say
    # nothing about raise sites.
    warnings.simplefilter("ignore")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

    started = time.monotonic()
    counts = dict.fromkeys(
        ["files", "parsed", "unreadable", "undecodable", "unparsable", "sites"], 0
    )
    out = sys.stdout
    for line in sys.stdin:
        rel = line.rstrip("\r\n")
        if not rel:
            continue
        counts["files"] += 1
        tree, skipped = parse_file(os.path.join(args.root, rel))
        if tree is None:
            counts[skipped] += 1
            continue
        counts["parsed"] += 1
        for lineno, message in raise_sites(tree):
            counts["sites"] += 1
            if not args.summary:
                out.write(json.dumps({"path": rel, "line": lineno, "message": message}))
                out.write("\n")
    if args.summary:
        counts["seconds"] = round(time.monotonic() - started, 3)
        out.write(json.dumps(counts) + "\n")


if __name__ == "__main__":
    main()
